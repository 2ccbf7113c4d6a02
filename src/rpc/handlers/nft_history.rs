//! `nft_history` (Clio `NFTHistory.cpp`, a method rippled does not have): the validated
//! transactions that touched an NFToken (minted, transferred, burned or modified it, or
//! created, cancelled or accepted its offers), newest first unless `forward`, in
//! account_tx's row shapes, paged by a `{ledger, seq}` marker; `limit` 1 to 100 (default
//! 50). Clio's range rules: `ledger_index_min` / `ledger_index_max` within the complete
//! ledgers (`lgrIdxMalformed` "ledgerSeqMinOutOfRange" / "ledgerSeqMaxOutOfRange"), or
//! one ledger by `ledger_hash` / `ledger_index`, never both ("containsLedgerSpecifierAndRange").

use crate::limits::NFT_HISTORY_PAGE;
use crate::protocol::types::AccountId;
use crate::render::rows::RowShape;
use crate::rpc::clio::{clio_limit, hash_field, require_nft_index};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::clio_select;
use crate::rpc::params::lenient_uint;
use crate::rpc::tx_rows::rows_of;
use crate::rpc::{HandlerResult, Params};
use crate::store::AccountTxQuery;
use serde_json::{Map, Value};

/// Answer nft_history.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let token = hash_field(params, "nft_id", true)?.unwrap_or_default();
    let flag = |name: &str| match params.get(name) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(RpcError::invalid_field(name)),
    };
    let (binary, forward) = (flag("binary")?, flag("forward")?);
    let limit = clio_limit(params, NFT_HISTORY_PAGE)?;
    let marker = params.get("marker").map(parse_marker).transpose()?;
    let (min, max) = range(ctx, params)?;
    require_nft_index(ctx)?;
    let query = AccountTxQuery {
        account: AccountId::default(),
        min,
        max,
        forward,
        rows: limit,
        marker,
    };
    let page = ctx
        .services
        .node
        .history
        .store
        .nft_txs(&token, &query)
        .map_err(|e| RpcError::history_read(&e))?;
    let shape = RowShape {
        api_version: ctx.api_version,
        binary,
        in_ledger: false,
    };
    let mut r = Map::new();
    r.insert("nft_id".into(), Value::from(token.to_hex()));
    r.insert("ledger_index_min".into(), Value::from(min));
    r.insert("ledger_index_max".into(), Value::from(max));
    r.insert("limit".into(), Value::from(limit));
    if let Some((ledger, seq)) = page.marker {
        let mut m = Map::new();
        m.insert("ledger".into(), Value::from(ledger));
        m.insert("seq".into(), Value::from(seq));
        r.insert("marker".into(), Value::Object(m));
    }
    r.insert("transactions".into(), Value::Array(rows_of(ctx, &page.txs, shape)?));
    r.insert("validated".into(), Value::Bool(true));
    Ok(r)
}

/// `{ledger, seq}`, both unsigned integers (else `invalidParams` "invalidMarker").
fn parse_marker(m: &Value) -> Result<(u32, u32), RpcError> {
    let field = |name: &str| m.get(name).filter(|v| v.is_u64()).and_then(lenient_uint);
    match (field("ledger"), field("seq")) {
        (Some(l), Some(s)) => Ok((l, s)),
        _ => Err(RpcError::with_message(ErrorCode::InvalidParams, "invalidMarker")),
    }
}

/// The ledgers searched: the complete validated ledgers, narrowed by the request.
fn range(ctx: &Context, params: &Params) -> Result<(u32, u32), RpcError> {
    let node = &ctx.services.node;
    let validated = node.status().validated.map(|v| v.seq).unwrap_or(0);
    let (first, last) = node.complete_range();
    let (first, last) = (first.max(1), last.min(validated));
    if last < first {
        return Err(RpcError::new(ErrorCode::NotSynced));
    }
    let bound = |name: &str, what: &str| -> Result<Option<u32>, RpcError> {
        let Some(v) = params.get(name) else {
            return Ok(None);
        };
        let n = lenient_uint(v).ok_or_else(|| RpcError::invalid_field(name))?;
        if !(first..=last).contains(&n) {
            return Err(RpcError::with_message(ErrorCode::LgrIdxMalformed, what.to_owned()));
        }
        Ok(Some(n))
    };
    let lo = bound("ledger_index_min", "ledgerSeqMinOutOfRange")?;
    let hi = bound("ledger_index_max", "ledgerSeqMaxOutOfRange")?;
    let (min, max) = (lo.unwrap_or(first), hi.unwrap_or(last));
    if min > max {
        return Err(RpcError::new(ErrorCode::LgrIdxsInvalid));
    }
    if params.contains_key("ledger_hash") || params.contains_key("ledger_index") {
        if lo.is_some() || hi.is_some() {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "containsLedgerSpecifierAndRange",
            ));
        }
        let seq = clio_select(ctx, params)?.snap.seq();
        return Ok((seq, seq));
    }
    Ok((min, max))
}
