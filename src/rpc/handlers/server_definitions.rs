//! `server_definitions` (rippled `ServerDefinitions.cpp`): the protocol definitions the
//! binary codec uses (the vendored `definitions.json`) with their `hash`; a request whose
//! `hash` equals it gets only the hash back.

use crate::protocol::definitions::defs;
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer server_definitions.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let json = &defs().json;
    let hash = json.get("hash").and_then(Value::as_str).unwrap_or_default();
    if let Some(v) = params.get("hash") {
        let asked = v
            .as_str()
            .and_then(parse_hash256)
            .ok_or_else(|| RpcError::invalid_field("hash"))?;
        if asked.to_hex().eq_ignore_ascii_case(hash) {
            let mut r = Map::new();
            r.insert("hash".into(), Value::from(hash));
            return Ok(r);
        }
    }
    Ok(json.as_object().cloned().unwrap_or_default())
}
