//! `ping` (rippled `Ping.cpp`): `{}` for guests; `{"role":"admin"}` for admins;
//! `"proxied"` for a secure gateway's caller, with the client address the gateway names as
//! `ip`; `"identified"` for one the gateway names a user of, with `username` and `ip`
//! (`ip` only when the gateway names an address). On WebSocket, `"unlimited": true` when the
//! caller is unlimited (admin or identified).

use crate::rpc::context::{Context, Transport};
use crate::rpc::role::Role;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer a ping.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let mut result = Map::new();
    let said = ctx.forwarded.as_deref();
    let name = match ctx.role {
        Role::User => None,
        Role::Admin => Some("admin"),
        Role::Proxy => Some("proxied"),
        Role::Identified => Some("identified"),
    };
    if let Some(name) = name {
        result.insert("role".into(), Value::from(name));
    }
    if let Some(said) = said {
        if ctx.role == Role::Identified {
            result.insert("username".into(), Value::from(said.user.as_str()));
        }
        if matches!(ctx.role, Role::Proxy | Role::Identified) && !said.client.is_empty() {
            result.insert("ip".into(), Value::from(said.client.as_str()));
        }
    }
    if ctx.transport == Transport::WebSocket && ctx.role.is_unlimited() {
        result.insert("unlimited".into(), Value::from(true));
    }
    Ok(result)
}
