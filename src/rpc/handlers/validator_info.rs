//! `validator_info` (rippled `ValidatorInfo.cpp`): admin; this server's validator keys.
//! The writer validates each ledger it closes with its validation key, which is its
//! master key (no manifest delegates it), so the answer is rippled's for that case:
//! `master_key` alone. A server without a validator (a read node) answers rippled's
//! `invalidParams` "not a validator".

use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The validation key, as `master_key`.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let Some(validator) = ctx.services.node.validator.get() else {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "not a validator",
        ));
    };
    let mut out = Map::new();
    out.insert(
        "master_key".into(),
        Value::from(validator.public_key().to_node_base58()),
    );
    Ok(out)
}
