//! `random` (rippled `Random.cpp`): 256 bits from the operating system's CSPRNG, as 64
//! uppercase hex digits.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use rand::RngCore;
use serde_json::{Map, Value};

/// Answer `{"random": "<64 hex>"}`.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let mut result = Map::new();
    result.insert("random".into(), Value::from(crate::protocol::types::hex_upper(bytes)));
    Ok(result)
}
