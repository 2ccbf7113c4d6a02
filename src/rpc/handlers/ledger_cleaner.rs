//! `ledger_cleaner` (rippled `LedgerCleanerHandler.cpp`): admin, needs a synced server
//! (always, standalone); configures the ledger cleaner ([`crate::node::cleaner`]), which
//! then checks the history store's ledgers in the background, and answers
//! `{"message": "Cleaner configured"}`. Parameters (rippled's): `ledger`, `min_ledger`,
//! `max_ledger`, `full`, `fix_txns`, `check_nodes`, `stop`. `print` shows its progress
//! (`ledgercleaner`).

use crate::node::cleaner::CleanRequest;
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::params::{as_bool, lenient_uint};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Configure the cleaner.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let seq = |name: &str| -> Result<Option<u32>, RpcError> {
        params
            .get(name)
            .map(|v| lenient_uint(v).ok_or_else(|| RpcError::invalid_field(name)))
            .transpose()
    };
    let flag = |name: &str| params.get(name).map(as_bool);
    let request = CleanRequest {
        ledger: seq("ledger")?,
        min_ledger: seq("min_ledger")?,
        max_ledger: seq("max_ledger")?,
        full: flag("full"),
        fix_txns: flag("fix_txns"),
        check_nodes: flag("check_nodes"),
        stop: flag("stop").unwrap_or(false),
    };
    ctx.services.cleaner.clean(request);
    let mut out = Map::new();
    out.insert("message".into(), Value::from("Cleaner configured"));
    Ok(out)
}
