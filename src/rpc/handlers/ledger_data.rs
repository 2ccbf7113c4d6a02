//! `ledger_data` (rippled `LedgerData.cpp`; docs/notes/history-spec.md §3): a ledger's
//! entries in key order, a page at a time, at any ledger memory or the history store
//! holds. The first page carries the ledger's header; `marker` is the key before the next
//! page's first entry, and `limit` counts every entry scanned, the ones the `type` filter
//! drops included (so a page can be short, or empty with a marker).

use crate::ledger::sf::{sf, StExt};
use crate::protocol::codec;
use crate::protocol::types::Hash256;
use crate::render::ledger::entry_json;
use crate::rpc::context::Context;
use crate::rpc::entry_type::chosen_type;
use crate::rpc::error::RpcError;
use crate::rpc::ledger_select::{header_object, require_complete, select};
use crate::rpc::params::{as_bool, parse_hash256};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The `marker`: a 64-digit hex key, the page resumes after it.
fn marker(params: &Params) -> Result<Option<Hash256>, RpcError> {
    let Some(v) = params.get("marker") else {
        return Ok(None);
    };
    v.as_str()
        .and_then(parse_hash256)
        .map(Some)
        .ok_or_else(|| RpcError::expected_field("marker", "valid"))
}

/// The page length: rippled's page length (256 JSON, 2048 binary) when absent, negative
/// or, for a limited caller (neither admin nor identified), above it.
fn limit(ctx: &Context, params: &Params, binary: bool) -> Result<usize, RpcError> {
    let max = if binary {
        crate::limits::LEDGER_DATA_PAGE_BINARY
    } else {
        crate::limits::LEDGER_DATA_PAGE_JSON
    };
    let asked = match params.get("limit") {
        None => -1,
        Some(v) => v
            .as_i64()
            .or_else(|| v.as_u64().map(|_| i64::MAX))
            .ok_or_else(|| RpcError::expected_field("limit", "integer"))?,
    };
    let unlimited = ctx.role.is_unlimited();
    if asked < 0 || (asked > max as i64 && !unlimited) {
        return Ok(max);
    }
    Ok(usize::try_from(asked).unwrap_or(usize::MAX))
}

/// The key just before `key` (rippled's `--k`).
fn key_before(key: &Hash256) -> Hash256 {
    let mut out = key.0;
    for b in out.iter_mut().rev() {
        let (v, borrow) = b.overflowing_sub(1);
        *b = v;
        if !borrow {
            break;
        }
    }
    Hash256(out)
}

/// Answer ledger_data.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    require_complete(&sel.snap, "ledger_data")?;
    let after = marker(params)?;
    let binary = params.get("binary").is_some_and(as_bool);
    let limit = limit(ctx, params, binary)?;
    let mut r = sel.result();
    let (hash, seq) = match &sel.snap.ledger {
        Some(l) => (l.header.hash, l.header.seq),
        None => (Hash256::ZERO, sel.snap.seq()),
    };
    r.insert("ledger_hash".into(), Value::from(hash.to_hex()));
    r.insert("ledger_index".into(), Value::from(seq));
    if after.is_none() {
        let header = header_object(ctx, &sel.snap, binary);
        r.insert("ledger".into(), Value::Object(header));
    }
    let wanted = chosen_type(params)?.map(|t| t.code);
    crate::rpc::cpu_pool::deliver_deferred_wakes();
    let mut page = sel.snap.view.page(after.as_ref(), limit.saturating_add(1));
    if page.len() > limit {
        r.insert("marker".into(), Value::from(key_before(&page[limit].0).to_hex()));
        page.truncate(limit);
    }
    let s = sf();
    let state = page
        .iter()
        .filter(|(_, v)| wanted.is_none_or(|t| v.u16_of(s.ledger_entry_type) == Some(t)))
        .map(|(k, v)| {
            if binary {
                let mut e = Map::new();
                e.insert("data".into(), Value::from(crate::protocol::types::hex_upper(codec::encode(v))));
                e.insert("index".into(), Value::from(k.to_hex()));
                Value::Object(e)
            } else {
                entry_json(k, v)
            }
        })
        .collect();
    r.insert("state".into(), Value::Array(state));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_before_borrows_across_bytes() {
        let mut k = [0u8; 32];
        k[30] = 1;
        let mut want = [0u8; 32];
        want[31] = 0xFF;
        assert_eq!(key_before(&Hash256(k)), Hash256(want));
        assert_eq!(key_before(&Hash256([0; 32])), Hash256([0xFF; 32]));
    }
}
