//! `mpt_holders` (Clio `MPTHolders.cpp`, a method rippled does not have): the holders of an
//! issuance at a ledger, ordered by account and paged by a marker that is the last
//! account shown (`limit` 1 to 100, default 50). Each holder as Clio renders it: account,
//! flags, `mpt_amount` (base ten), `mptoken_index`, and when present `locked_amount` and
//! the confidential balances and key (hex).
//!
//! The history store's MPT holder index lists the issuance's tokens by holder; each is
//! read from the selected ledger. A ledger the store has not written yet (the open one,
//! one closing) is scanned instead.

use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::mpt::MptId;
use crate::protocol::st::StObject;
use crate::protocol::types::{hex_upper, AccountId};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::clio_select;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Clio's bounds on `limit`.
const LIMIT_MIN: u32 = 1;
const LIMIT_MAX: u32 = 100;
const LIMIT_DEFAULT: u64 = 50;

/// Answer mpt_holders.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let id = issuance_id(params)?;
    let limit = limit(params)?;
    let after = marker(params)?;
    let sel = clio_select(ctx, params)?;
    if sel.snap.view.read(&keylet::mpt_issuance(&id)).is_none() {
        return Err(RpcError::new(ErrorCode::ObjectNotFound));
    }
    let mut holders = match indexed(ctx, &sel.snap, &id, after.as_ref(), limit + 1)? {
        Some(found) => found,
        None => {
            let mut all = holders_of(&sel.snap.view, &id);
            all.retain(|(a, _)| after.is_none_or(|m| a.0 > m.0));
            all
        }
    };
    let more = holders.len() > limit;
    holders.truncate(limit);
    let mut r = Map::new();
    r.insert("mpt_issuance_id".into(), Value::from(hex_upper(id.0)));
    r.insert("limit".into(), Value::from(limit));
    r.insert("ledger_index".into(), Value::from(sel.snap.seq()));
    let tokens = holders.iter().map(|(a, t)| holder_json(&id, a, t)).collect();
    r.insert("mptokens".into(), Value::Array(tokens));
    r.insert("validated".into(), Value::from(!sel.is_open()));
    if let (true, Some((last, _))) = (more, holders.last()) {
        r.insert("marker".into(), Value::from(hex_upper(last.0)));
    }
    Ok(r)
}

fn issuance_id(params: &Params) -> Result<MptId, RpcError> {
    let v = params
        .get("mpt_issuance_id")
        .ok_or_else(|| RpcError::missing_field("mpt_issuance_id"))?;
    v.as_str()
        .filter(|s| s.len() == 48)
        .and_then(MptId::from_hex)
        .ok_or_else(|| RpcError::invalid_field("mpt_issuance_id"))
}

/// `limit`: a positive integer, clamped to 1..=100.
fn limit(params: &Params) -> Result<usize, RpcError> {
    let Some(v) = params.get("limit") else {
        return Ok(LIMIT_DEFAULT as usize);
    };
    let n = crate::rpc::params::unsigned_integer(v)
        .filter(|n| *n >= LIMIT_MIN)
        .ok_or_else(|| RpcError::invalid_field("limit"))?;
    Ok(n.min(LIMIT_MAX) as usize)
}

/// `marker`: the last account of the previous page, 40 hex digits.
fn marker(params: &Params) -> Result<Option<AccountId>, RpcError> {
    let Some(v) = params.get("marker") else {
        return Ok(None);
    };
    let bytes = v
        .as_str()
        .filter(|s| s.len() == 40)
        .and_then(|s| hex::decode(s).ok())
        .ok_or_else(|| RpcError::invalid_field("marker"))?;
    let mut a = [0u8; 20];
    a.copy_from_slice(&bytes);
    Ok(Some(AccountId(a)))
}

/// Up to `want` holders of `id` after `after` from the history store's MPT holder index,
/// each read from the selected ledger (a token the index lists may be gone by then); None
/// when the index cannot answer for that ledger (not built yet, or a ledger the store has
/// not written), and the ledger is scanned instead.
fn indexed(
    ctx: &Context,
    snap: &crate::ledgers::LedgerSnapshot,
    id: &MptId,
    after: Option<&AccountId>,
    want: usize,
) -> Result<Option<Vec<Holder>>, RpcError> {
    let store = &ctx.services.node.history.store;
    let seq = snap.seq();
    // A read node serves only ledgers its database holds; a writer asks its own store
    // (a local read), never a database round trip per request.
    let node = &ctx.services.node;
    let written = node.ledgers.is_follower()
        || node.history.range().is_some_and(|(_, last)| seq <= last);
    if !written || !node.mpt_index_ready().unwrap_or(false) {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut cursor = after.copied();
    let batch_size = want.max(16);
    loop {
        let batch = store
            .mpt_holder_keys(id, seq, cursor.as_ref(), batch_size as u32)
            .map_err(|e| RpcError::history_read(&e))?;
        let exhausted = batch.len() < batch_size;
        for (account, key) in batch {
            cursor = Some(account);
            if let Some(token) = snap.view.read(&key) {
                out.push((account, token));
                if out.len() == want {
                    return Ok(Some(out));
                }
            }
        }
        if exhausted {
            return Ok(Some(out));
        }
    }
}

/// A holder and its MPToken.
type Holder = (AccountId, std::sync::Arc<StObject>);

/// Every MPToken of `id` in the ledger, by account.
fn holders_of(
    view: &crate::ledger::view::StateView,
    id: &MptId,
) -> Vec<(AccountId, std::sync::Arc<StObject>)> {
    let s = sf();
    let mut out: Vec<_> = view
        .page(None, usize::MAX)
        .into_iter()
        .filter(|(_, o)| o.u16_of(s.ledger_entry_type) == Some(lt::MPTOKEN))
        .filter(|(_, o)| o.mpt_id_of(s.mpt_issuance_id) == Some(*id))
        .filter_map(|(_, o)| Some((o.account_of(s.account)?, o)))
        .collect();
    out.sort_by_key(|(a, _)| a.0);
    out
}

fn holder_json(id: &MptId, account: &AccountId, token: &StObject) -> Value {
    let s = sf();
    let mut o = Map::new();
    o.insert("account".into(), Value::from(account.to_address()));
    o.insert("flags".into(), Value::from(token.flags()));
    let amount = token.u64_of(s.mpt_amount).unwrap_or(0);
    o.insert("mpt_amount".into(), Value::from(amount.to_string()));
    let index = keylet::mptoken(id, account);
    o.insert("mptoken_index".into(), Value::from(index.to_hex()));
    if let Some(v) = token.u64_of(s.locked_amount) {
        o.insert("locked_amount".into(), Value::from(v.to_string()));
    }
    crate::rpc::clio::confidential_fields(token, &mut o);
    Value::Object(o)
}
