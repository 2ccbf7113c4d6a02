//! `ledger_revert` (ledgerd's, after Anvil's `evm_revert`): admin, standalone;
//! `{"snapshot": ID}` puts back the state `ledger_snapshot` saved as ID: the ledger
//! state, the open ledger, the closed ledgers (those after it are forgotten, in memory
//! and in the history store, with their transactions) and the sequence. The ID and every
//! later one are forgotten (Anvil's rule); earlier ones stay. Answered once the revert
//! is durable: a restart comes back reverted. An unknown ID is `snapshotNotFound`. A
//! writer copying its history into PostgreSQL (`--postgres`) refuses reverts
//! (`notSupported`): read nodes would keep serving the forgotten ledgers.

use crate::node::sequencer::Command;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::standalone::{ask, close_error};
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;
use serde_json::{Map, Value};

/// Answer `{"snapshot": id, "ledger_index": n, "ledger_hash": h, "ledger_current_index": m}`.
pub fn handle(ctx: Context, params: Params) -> BoxFuture<'static, HandlerResult> {
    Box::pin(async move {
        let id = snapshot_id(&params)?;
        if ctx.services.node.replica.get().is_some() {
            return Err(RpcError::with_message(
                ErrorCode::NotSupported,
                "ledger_revert is not supported while the history is copied to PostgreSQL.",
            ));
        }
        let seq = ask(&ctx, |reply| Command::Revert { id, reply })
            .await?
            .map_err(close_error)?;
        let mut out = Map::new();
        out.insert("snapshot".into(), Value::from(id));
        if let Some(l) = ctx.services.node.ledgers.by_seq(seq).and_then(|s| s.ledger) {
            out.insert("ledger_hash".into(), Value::from(l.header.hash.to_hex()));
        }
        out.insert("ledger_index".into(), Value::from(seq));
        let current = ctx.services.node.ledgers.current().seq();
        out.insert("ledger_current_index".into(), Value::from(current));
        Ok(out)
    })
}

/// `snapshot`: required, a positive integer (or its decimal string).
fn snapshot_id(params: &Params) -> Result<u64, RpcError> {
    let value = params
        .get("snapshot")
        .ok_or_else(|| RpcError::missing_field("snapshot"))?;
    let id = match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    };
    id.filter(|id| *id > 0)
        .ok_or_else(|| RpcError::expected_field("snapshot", "a positive integer"))
}
