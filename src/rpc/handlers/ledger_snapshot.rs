//! `ledger_snapshot` (ledgerd's, after Anvil's `evm_snapshot`): admin, standalone; saves
//! the whole state (the last closed ledger, the open ledger with its transactions, the
//! history) and answers `{"snapshot": ID}` for `ledger_revert`. IDs are 1, 2, ... and
//! never reused; at most `LEDGER_SNAPSHOTS_MAX` are kept (the oldest goes). Saved states
//! live in memory: a restart forgets them.

use crate::node::sequencer::Command;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::standalone::ask;
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;
use serde_json::{Map, Value};

/// Answer `{"snapshot": id, "ledger_index": n, "ledger_hash": h, "ledger_current_index": m}`.
pub fn handle(ctx: Context, _params: Params) -> BoxFuture<'static, HandlerResult> {
    Box::pin(async move {
        let saved = ask(&ctx, |reply| Command::Snapshot { reply })
            .await?
            .map_err(|why| RpcError::with_message(ErrorCode::Internal, why))?;
        let mut out = Map::new();
        out.insert("snapshot".into(), Value::from(saved.id));
        out.insert("ledger_hash".into(), Value::from(saved.ledger_hash.to_hex()));
        out.insert("ledger_index".into(), Value::from(saved.ledger_seq));
        out.insert("ledger_current_index".into(), Value::from(saved.current_seq));
        Ok(out)
    })
}
