//! `path_find` (rippled `PathFind.cpp`): WebSocket only. `create` answers a quick first
//! search and keeps the request for the session (replacing any earlier one); after each
//! close the session gets a `path_find` message with a full search. `status` repeats the
//! last answer, `close` ends the request.

use std::sync::Arc;

use crate::node::subscriptions::PathUpdate;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::pathfind::request::PathRequest;
use crate::rpc::pathfind::session::{run_update, PathSession};
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

fn kept(ctx: &Context) -> Result<Arc<dyn PathUpdate>, RpcError> {
    let session = ctx.session.as_ref().ok_or(ErrorCode::NoEvents)?;
    ctx.services
        .node
        .subscriptions
        .path_request(session)
        .ok_or_else(|| RpcError::new(ErrorCode::NoPathRequest))
}

fn request_of(r: &Arc<dyn PathUpdate>) -> Result<&PathRequest, RpcError> {
    r.as_any()
        .downcast_ref::<PathSession>()
        .map(|s| &s.request)
        .ok_or_else(|| RpcError::new(ErrorCode::Internal))
}

/// Answer path_find.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sub = params
        .get("subcommand")
        .and_then(Value::as_str)
        .ok_or(ErrorCode::InvalidParams)?;
    let session = ctx.session.as_ref().ok_or(ErrorCode::NoEvents)?;
    let subs = &ctx.services.node.subscriptions;
    match sub {
        "create" => {
            subs.set_path_request(session, None);
            let request = PathRequest::parse(params, false)?;
            let snap = ctx.services.ledgers().closed();
            let answer = run_update(&request, &snap, true, &|| true);
            let kept: Arc<dyn PathUpdate> = Arc::new(PathSession { request });
            match answer {
                Ok(result) => {
                    subs.set_path_request(session, Some(kept));
                    Ok(result)
                }
                Err(e) => Err(e),
            }
        }
        "close" => {
            let r = kept(ctx)?;
            subs.set_path_request(session, None);
            Ok(request_of(&r)?.close())
        }
        "status" => {
            let r = kept(ctx)?;
            Ok(request_of(&r)?.status())
        }
        _ => Err(ErrorCode::InvalidParams.into()),
    }
}
