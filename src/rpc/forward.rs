//! A read node's writes, forwarded to its writer (`serve --read-only --writer ws://...`),
//! as Clio forwards `submit` to rippled: the request goes over a WebSocket to the writer
//! and its result (or error) comes back as this node's reply.
//!
//! Sign-and-submit is forwarded only when this node lets the caller sign (admin, or
//! `signing_support`): the writer sees the read node's address, not the client's, so the
//! read node decides. One connection per forwarded request: writes are few next to reads,
//! and a writer that restarts costs nothing but the requests made while it is down
//! (`notReady`).

use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Map, Value};

use crate::limits::FORWARD_TIMEOUT_SECS;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::signing::signing_gate;
use crate::rpc::{HandlerResult, Params};

/// The methods a read node forwards to its writer.
pub const FORWARDED: &[&str] = &["submit", "submit_multisigned", "ledger_accept"];

/// Whether this server forwards `method` (a read node, for a write).
pub fn forwards(ctx: &Context, method: &str) -> bool {
    ctx.services.config.writer.is_some() && FORWARDED.contains(&method)
}

/// Forwards `method` with `params` to the writer and answers with its reply.
pub fn forward(
    ctx: Context,
    method: &'static str,
    params: Params,
) -> BoxFuture<'static, HandlerResult> {
    let signs = method == "submit" && !params.contains_key("tx_blob");
    if signs {
        if let Err(e) = signing_gate(&ctx) {
            return Box::pin(async move { Err(e) });
        }
    }
    let Some(url) = ctx.services.config.writer.clone() else {
        return Box::pin(async { Err(RpcError::new(ErrorCode::NotReady)) });
    };
    let mut request = params;
    request.insert("command".into(), Value::from(method));
    request.insert("id".into(), Value::from(1));
    request.insert("api_version".into(), Value::from(ctx.api_version));
    Box::pin(async move {
        let limit = Duration::from_secs(FORWARD_TIMEOUT_SECS);
        match tokio::time::timeout(limit, exchange(&url, request)).await {
            Ok(Ok(reply)) => answer(reply),
            Ok(Err(e)) => {
                tracing::warn!(writer = %url, "forwarding {method} failed: {e}");
                Err(unreachable())
            }
            Err(_) => Err(unreachable()),
        }
    })
}

fn unreachable() -> RpcError {
    RpcError::with_message(ErrorCode::NotReady, "The writer cannot be reached.")
}

/// Sends one request on a connection of its own and returns the reply that carries its id.
async fn exchange(url: &str, request: Map<String, Value>) -> Result<Map<String, Value>, String> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .map_err(|e| e.to_string())?;
    let reply = crate::rpc::upstream::exchange(&mut ws, &Value::Object(request), &Value::from(1))
        .await
        .map_err(|e| format!("the writer's connection: {e}"))?;
    let _ = ws.close(None).await;
    match reply {
        Value::Object(reply) => Ok(reply),
        _ => Err("the writer's reply is not an object".into()),
    }
}

/// The writer's reply as this node's: its result, or its error with the same token,
/// number and message.
fn answer(mut reply: Map<String, Value>) -> HandlerResult {
    if reply.get("status").and_then(Value::as_str) == Some("success") {
        return match reply.remove("result") {
            Some(Value::Object(result)) => Ok(result),
            _ => Err(RpcError::new(ErrorCode::Internal)),
        };
    }
    let token = reply.get("error").and_then(Value::as_str).unwrap_or("");
    let code = ErrorCode::ALL
        .iter()
        .copied()
        .find(|c| c.token() == token)
        .unwrap_or(ErrorCode::Internal);
    let mut err = match reply.get("error_message").and_then(Value::as_str) {
        Some(m) => RpcError::with_message(code, m.to_string()),
        None => RpcError::new(code),
    };
    for (k, v) in reply {
        let envelope = [
            "error",
            "error_code",
            "error_message",
            "status",
            "id",
            "type",
            "request",
            "api_version",
            "warnings",
        ];
        if !envelope.contains(&k.as_str()) {
            err.fields.insert(k, v);
        }
    }
    Err(err)
}
