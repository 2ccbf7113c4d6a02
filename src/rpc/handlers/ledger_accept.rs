//! `ledger_accept` (rippled `LedgerAccept.cpp`, rpc.md §3.8): admin; close the open
//! ledger (validated at once in standalone) and answer the new open ledger's index once
//! the close is durable and published.
//!
//! ledgerd's extension: `close_time`, the close time asked for the ledger it closes,
//! as seconds since the ripple epoch (a number) or an ISO 8601 string
//! (`"2027-01-01T00:00:00Z"`). The header rounds it to the close time resolution as
//! every close time is; later closes continue from it. A time before the last closed
//! ledger's close time is refused (`invalidParams`).

use crate::node::sequencer::Command;
use crate::protocol::time::parse_close_time;
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::standalone::{ask, close_error};
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;
use serde_json::{Map, Value};

/// Answer `{"ledger_current_index": n}`.
pub fn handle(ctx: Context, params: Params) -> BoxFuture<'static, HandlerResult> {
    Box::pin(async move {
        let close_time = requested_close_time(&params)?;
        let seq = ask(&ctx, |reply| Command::Close {
            close_time,
            reply: Some(reply),
        })
        .await?
        .map_err(close_error)?;
        let mut out = Map::new();
        out.insert("ledger_current_index".into(), Value::from(seq));
        Ok(out)
    })
}

/// `close_time`: absent, a number of seconds since the ripple epoch, or ISO 8601.
fn requested_close_time(params: &Params) -> Result<Option<u32>, RpcError> {
    let invalid = || RpcError::expected_field("close_time", "a ripple epoch time or ISO 8601 string");
    match params.get("close_time") {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|t| u32::try_from(t).ok())
            .map(Some)
            .ok_or_else(invalid),
        Some(Value::String(s)) => parse_close_time(s).map(Some).ok_or_else(invalid),
        Some(_) => Err(invalid()),
    }
}
