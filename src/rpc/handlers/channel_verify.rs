//! `channel_verify` (rippled `PayChanClaim.cpp`, rpc.md §3.7): check a claim signature. A
//! well-formed but wrong signature is `signature_verified: false`, not an error.

use crate::protocol::claim::verify_claim;
use crate::protocol::keys::str_unhex;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_string, channel_amount, channel_id, public_key, required};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer `{"signature_verified": bool}`.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let pk_value = required(params, "public_key")?;
    let id_value = required(params, "channel_id")?;
    let amount_value = required(params, "amount")?;
    let sig_value = required(params, "signature")?;
    let pk = public_key(pk_value)?;
    let id = channel_id(id_value)?;
    let drops = channel_amount(amount_value)?;
    let signature = as_string(sig_value)
        .and_then(|s| str_unhex(&s))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?;
    let mut result = Map::new();
    result.insert(
        "signature_verified".into(),
        Value::from(verify_claim(&pk, &id, drops, &signature)),
    );
    Ok(result)
}
