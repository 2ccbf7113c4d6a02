//! `channel_authorize` (rippled `PayChanClaim.cpp`, rpc.md §3.6): sign a payment channel
//! claim with a server-side secret. Validation order is rippled's; each step's error is final.

use crate::protocol::claim::sign_claim;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{channel_amount, channel_id, keypair_for_signature, required};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer `{"signature": "<HEX>"}`.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    if !ctx.may_sign() {
        return Err(RpcError::with_message(
            ErrorCode::NotSupported,
            "Signing is not supported by this server.",
        ));
    }
    let id_value = required(params, "channel_id")?;
    let amount_value = required(params, "amount")?;
    if !params.contains_key("key_type") && !params.contains_key("secret") {
        return Err(RpcError::missing_field("secret"));
    }
    let pair = keypair_for_signature(params, ctx.api_version, Some(&ctx.services.keys))?;
    let id = channel_id(id_value)?;
    let drops = channel_amount(amount_value)?;
    let signature = sign_claim(&pair, &id, drops);
    if signature.is_empty() {
        return Err(RpcError::with_message(
            ErrorCode::Internal,
            "Exception occurred during signing: signing failed",
        ));
    }
    let mut result = Map::new();
    result.insert(
        "signature".into(),
        Value::from(crate::protocol::types::hex_upper(signature)),
    );
    Ok(result)
}
