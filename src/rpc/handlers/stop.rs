//! `stop` (rippled `Stop.cpp`): admin; answers `{"message": "ripple server stopping"}`, then
//! the server shuts down as on SIGTERM: it stops accepting, the connections finish (replies
//! owed, this one included, are written), the writer finishes what is queued and the journal
//! is flushed, and the process exits with status 0.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// rippled's `systemName()`, which the reply names.
const SYSTEM_NAME: &str = "ripple";

/// Ask whoever runs the server to stop, and say so.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    tracing::info!("stop requested");
    ctx.services.stop.request();
    let mut out = Map::new();
    out.insert(
        "message".into(),
        Value::from(format!("{SYSTEM_NAME} server stopping")),
    );
    Ok(out)
}
