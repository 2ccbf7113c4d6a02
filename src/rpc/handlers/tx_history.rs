//! `tx_history` (rippled `TxHistory.cpp`; docs/notes/history-spec.md §3; API v1 only): 20
//! transactions from the `start`th on, newest ledger first, from the history store. Each
//! is the transaction's JSON with `hash`, `inLedger` and `ledger_index`; no metadata.

use crate::node::history::tx_entry;
use crate::render::tx::{insert_deliver_max, tx_json};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::uint_or_decimal;
use crate::rpc::{HandlerResult, Params};
use crate::limits::{TX_HISTORY_PAGE, TX_HISTORY_START_MAX};
use serde_json::{Map, Value};

fn start(params: &Params) -> Result<u32, RpcError> {
    let v = params
        .get("start")
        .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?;
    uint_or_decimal(v).ok_or_else(|| RpcError::expected_field("start", "unsigned integer"))
}

/// Answer tx_history.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let start = start(params)?;
    if start > TX_HISTORY_START_MAX && !ctx.role.is_unlimited() {
        return Err(RpcError::new(ErrorCode::NoPermission));
    }
    let stored = ctx
        .services
        .node
        .history
        .store
        .recent_txs(start, TX_HISTORY_PAGE)
        .map_err(|e| RpcError::history_read(&e))?;
    let mut entries = Vec::with_capacity(stored.len());
    for t in &stored {
        entries.push(tx_entry(t).ok_or_else(|| {
            RpcError::history_damaged(format!("stored transaction {} does not decode", t.id.to_hex()))
        })?);
    }
    let txs = entries
        .iter()
        .map(|e| {
            let mut o = tx_json(&e.tx(), &e.id, ctx.api_version);
            o.insert("inLedger".into(), Value::from(e.ledger_seq));
            o.insert("ledger_index".into(), Value::from(e.ledger_seq));
            insert_deliver_max(&mut o, ctx.api_version);
            o.sort_keys();
            Value::Object(o)
        })
        .collect();
    let mut r = Map::new();
    r.insert("index".into(), Value::from(start));
    r.insert("txs".into(), Value::Array(txs));
    Ok(r)
}
