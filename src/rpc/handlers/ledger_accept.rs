//! `ledger_accept` (rippled `LedgerAccept.cpp`, rpc.md §3.8): admin; close the open
//! ledger (validated at once in standalone) and answer the new open ledger's index once
//! the close is durable and published.

use crate::node::sequencer::Command;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;
use serde_json::{Map, Value};

/// Answer `{"ledger_current_index": n}`.
pub fn handle(ctx: Context, _params: Params) -> BoxFuture<'static, HandlerResult> {
    Box::pin(async move {
        if !ctx.services.node.status().standalone {
            return Err(RpcError::bare("notStandAlone"));
        }
        let sequencer = ctx
            .services
            .node
            .writer()
            .ok_or_else(|| RpcError::new(ErrorCode::Internal))?
            .sequencer
            .clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        sequencer
            .send(Command::Close { reply: Some(tx) })
            .await
            .map_err(|_| RpcError::new(ErrorCode::Internal))?;
        let seq = rx
            .await
            .map_err(|_| RpcError::new(ErrorCode::Internal))?
            .map_err(|why| RpcError::with_message(ErrorCode::Internal, why))?;
        let mut out = Map::new();
        out.insert("ledger_current_index".into(), Value::from(seq));
        Ok(out)
    })
}
