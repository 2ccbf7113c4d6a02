//! What the standalone-only writer methods share (`ledger_accept`, `ledger_snapshot`,
//! `ledger_revert`): the standalone check, a command sent to the single writer and its
//! answer awaited (also how the development ledger closes its set-up ledgers), and the
//! writer's refusals as rippled-style errors.

use crate::node::sequencer::{CloseError, Command};
use crate::rpc::context::{Context, Services};
use crate::rpc::error::{ErrorCode, RpcError};
use tokio::sync::oneshot;

/// Sends the command `make` builds to the sequencer (refusing `notStandAlone` first) and
/// awaits its reply.
pub async fn ask<T>(
    ctx: &Context,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Result<T, RpcError> {
    if !ctx.services.node.status().standalone {
        return Err(RpcError::bare("notStandAlone"));
    }
    ask_writer(&ctx.services, make)
        .await
        .ok_or_else(|| RpcError::new(ErrorCode::Internal))
}

/// Sends the command `make` builds to the single writer and awaits its reply; `None` when
/// there is no writer (a read node) or it has stopped.
pub async fn ask_writer<T>(
    services: &Services,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Option<T> {
    let sequencer = services.node.writer()?.sequencer.clone();
    let (tx, rx) = oneshot::channel();
    sequencer.send(make(tx)).await.ok()?;
    rx.await.ok()
}

/// A close's or revert's refusal: `invalidParams` for a request that cannot be done,
/// `snapshotNotFound` for an unknown saved state, `internal` when the disk failed.
pub fn close_error(e: CloseError) -> RpcError {
    match e {
        CloseError::Refused(why) => RpcError::with_message(ErrorCode::InvalidParams, why),
        CloseError::NotFound(id) => RpcError::named(
            "snapshotNotFound",
            ErrorCode::InvalidParams,
            format!("No snapshot {id}: never taken, already reverted to, or forgotten."),
        ),
        CloseError::Failed(why) => RpcError::with_message(ErrorCode::Internal, why),
    }
}
