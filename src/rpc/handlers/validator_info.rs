//! `validator_info` (rippled `ValidatorInfo.cpp`): admin; this server's validator keys and
//! manifest when it validates. ledgerd never validates, so the answer is rippled's for a
//! server without validator keys: `invalidParams` "not a validator".

use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::{HandlerResult, Params};

/// Not a validator.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    Err(RpcError::with_message(
        ErrorCode::InvalidParams,
        "not a validator",
    ))
}
