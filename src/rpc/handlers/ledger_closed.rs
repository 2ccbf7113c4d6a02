//! `ledger_closed` (rippled `LedgerClosed.cpp`): the last closed ledger's hash and index.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer ledger_closed.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let closed = ctx.services.node.ledgers.closed();
    let mut r = Map::new();
    if let Some(l) = &closed.ledger {
        r.insert("ledger_hash".into(), Value::from(l.header.hash.to_hex()));
        r.insert("ledger_index".into(), Value::from(l.header.seq));
    }
    Ok(r)
}
