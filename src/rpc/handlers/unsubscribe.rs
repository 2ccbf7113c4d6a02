//! `unsubscribe` (rippled `Unsubscribe.cpp`): the same members and checks as `subscribe`;
//! answers `{}`.

use super::subscribe::{accounts, session_or_refuse, streams};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::{HandlerResult, Params};
use serde_json::Map;

/// Remove the named subscriptions of the calling session.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let session = session_or_refuse(ctx, params)?;
    let subs = &ctx.services.node.subscriptions;
    for stream in streams(ctx, params)? {
        subs.remove_stream(&session, stream);
    }
    for (key, proposed) in [
        ("accounts_proposed", true),
        ("rt_accounts", true),
        ("accounts", false),
    ] {
        if let Some(ids) = accounts(params, key)? {
            subs.remove_accounts(&session, &ids, proposed);
        }
    }
    if params.get("books").is_some_and(|b| !b.is_array()) {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    Ok(Map::new())
}
