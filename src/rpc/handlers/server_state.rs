//! `server_state` (rippled `ServerState.cpp`): server_info's machine-readable form under
//! `state` (load factors as integers over `load_base`, drops instead of XRP).

use crate::rpc::context::Context;
use crate::rpc::handlers::server_info::{info, Form};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer `{"state": {...}}`.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let mut result = Map::new();
    result.insert(
        "state".into(),
        Value::Object(info(ctx, params, Form::Machine)),
    );
    Ok(result)
}
