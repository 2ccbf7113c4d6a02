//! `manifest` (rippled `Manifest.cpp`): a validator's manifest by its public key. A
//! standalone server knows no validators, so a well-formed key gets only `requested` back,
//! as from a standalone rippled.

use crate::protocol::base58::{self, version};
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer manifest.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let key = match params.get("public_key") {
        None => return Err(RpcError::missing_field("public_key")),
        Some(v) => v.as_str().unwrap_or_default(),
    };
    if base58::decode(key, version::NODE_PUBLIC, 33).is_err() {
        return Err(RpcError::invalid_field("public_key"));
    }
    let mut r = Map::new();
    r.insert("requested".into(), Value::from(key));
    Ok(r)
}
