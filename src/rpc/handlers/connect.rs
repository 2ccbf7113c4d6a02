//! `connect` (rippled `Connect.cpp`): admin; asks the server to connect to a peer. A
//! standalone server connects to no one: rippled answers `notSynced` ("Not synced to the
//! network."), before reading any parameter (rippled 2.x answered the message "cannot
//! connect in standalone mode"). ledgerd has no peer protocol at all, so a server that is
//! not standalone checks the parameters as rippled does (`ip` a string, `port` a number)
//! and then answers `notSupported`.

use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::lenient_int;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Refuse, as a standalone rippled does.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    if ctx.services.node.status().standalone {
        return Err(RpcError::new(ErrorCode::NotSynced));
    }
    match params.get("ip") {
        None => return Err(RpcError::missing_field("ip")),
        Some(Value::String(_)) => {}
        Some(_) => return Err(RpcError::expected_field("ip", "a string")),
    }
    if params.get("port").is_some_and(|p| lenient_int(p).is_none()) {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    Err(RpcError::with_message(
        ErrorCode::NotSupported,
        "ledgerd connects to no peers.",
    ))
}
