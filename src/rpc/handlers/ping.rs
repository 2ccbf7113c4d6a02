//! `ping` (rippled `Ping.cpp`): `{}` for guests, `{"role":"admin"}` for admins, plus
//! `"unlimited": true` on WebSocket, where admin consumers are unlimited.

use crate::rpc::context::{Context, Transport};
use crate::rpc::role::Role;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer a ping.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let mut result = Map::new();
    if ctx.role == Role::Admin {
        result.insert("role".into(), Value::from("admin"));
        if ctx.transport == Transport::WebSocket {
            result.insert("unlimited".into(), Value::from(true));
        }
    }
    Ok(result)
}
