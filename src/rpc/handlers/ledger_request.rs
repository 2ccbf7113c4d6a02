//! `ledger_request` (rippled `LedgerRequest.cpp`, `getLedgerByContext`): admin; a ledger
//! this server holds, by `ledger_hash` or `ledger_index` (exactly one), as
//! `{"ledger_index": N, "ledger": {header}}`. rippled would fetch a ledger it lacks from its
//! peers; a standalone server (and ledgerd, which has none) answers from what it holds.
//!
//! rippled's rules, in its order: a hash must be 64 hex digits; an index must be a JSON
//! integer, the validated ledger no older than 2 minutes (else v1 `noCurrent`, v2
//! `notSynced`, even standalone: its age is its close time's), below the validated ledger
//! ("Ledger index too large") and above 0 ("Ledger index too small"); a ledger not held
//! is `notReady` ("findCreate failed to return an inbound ledger").

use crate::ledger::header::LedgerHeader;
use crate::limits::VALIDATED_AGE_MAX_SECS;
use crate::protocol::time::ripple_now_secs;
use crate::protocol::types::Hash256;
use crate::render::ledger::header_json;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer the ledger's header.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let header = match (params.get("ledger_hash"), params.get("ledger_index")) {
        (Some(h), None) => {
            let hash = h
                .as_str()
                .and_then(parse_hash256)
                .ok_or_else(|| RpcError::invalid_field("ledger_hash"))?;
            by_hash(ctx, &hash)
        }
        (None, Some(i)) => by_index(ctx, i)?,
        _ => {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "Exactly one of ledger_hash and ledger_index can be set.",
            ))
        }
    };
    let header = header.ok_or_else(|| {
        RpcError::with_message(
            ErrorCode::NotReady,
            "findCreate failed to return an inbound ledger",
        )
    })?;
    let mut out = Map::new();
    out.insert("ledger".into(), Value::Object(header_json(&header, ctx.api_version)));
    out.insert("ledger_index".into(), Value::from(header.seq));
    Ok(out)
}

/// The ledger with `hash`, in memory or in the history store.
fn by_hash(ctx: &Context, hash: &Hash256) -> Option<LedgerHeader> {
    let node = &ctx.services.node;
    if let Some(l) = node.ledgers.by_hash(hash).and_then(|s| s.ledger) {
        return Some(l.header.clone());
    }
    node.history.store.header_by_hash(hash).ok().flatten()
}

/// The ledger an index names, after rippled's checks.
fn by_index(ctx: &Context, index: &Value) -> Result<Option<LedgerHeader>, RpcError> {
    let seq = index
        .as_i64()
        .and_then(|i| i32::try_from(i).ok())
        .ok_or_else(|| RpcError::invalid_field("ledger_index"))?;
    let validated = ctx.services.node.status().validated;
    let age = validated.map(|v| ripple_now_secs().saturating_sub(v.close_time));
    if age.is_none_or(|a| a > VALIDATED_AGE_MAX_SECS) {
        let code = if ctx.api_version == 1 {
            ErrorCode::NoCurrent
        } else {
            ErrorCode::NotSynced
        };
        return Err(RpcError::new(code));
    }
    let top = validated.map_or(0, |v| v.seq);
    if i64::from(seq) >= i64::from(top) {
        return Err(RpcError::with_message(ErrorCode::InvalidParams, "Ledger index too large"));
    }
    if seq <= 0 {
        return Err(RpcError::with_message(ErrorCode::InvalidParams, "Ledger index too small"));
    }
    let seq = seq.unsigned_abs();
    let node = &ctx.services.node;
    if let Some(l) = node.ledgers.by_seq(seq).and_then(|s| s.ledger) {
        return Ok(Some(l.header.clone()));
    }
    Ok(node.history.store.header(seq).ok().flatten())
}
