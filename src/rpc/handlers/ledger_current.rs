//! `ledger_current` (rippled `LedgerCurrent.cpp`): the open ledger's sequence.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer ledger_current.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let mut r = Map::new();
    r.insert(
        "ledger_current_index".into(),
        Value::from(ctx.services.node.ledgers.current().seq()),
    );
    Ok(r)
}
