//! `logrotate` (rippled `LogRotate.cpp`): admin; closes and reopens the log file, so that a
//! rotation tool can rename it and the server go on writing a new one. Answers rippled's
//! `message`: "The log file was closed and reopened.", or, when no log file is configured
//! (the log goes to stderr only) or it cannot be opened again, "The log file could not be
//! closed and reopened."

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Reopen the log file.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let message = if crate::logs::control().rotate() {
        "The log file was closed and reopened."
    } else {
        "The log file could not be closed and reopened."
    };
    let mut out = Map::new();
    out.insert("message".into(), Value::from(message));
    Ok(out)
}
