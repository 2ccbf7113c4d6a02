//! `sign` (rippled `Sign.cpp`, rpc.md §3.1): sign `tx_json` with a secret the caller sends
//! and answer `{tx_json, tx_blob}`; nothing is submitted. The signing itself is
//! [`crate::rpc::signing`], shared with `submit`.

use crate::rpc::context::Context;
use crate::rpc::signing::{format_result, sign_request, signing_gate};
use crate::rpc::{HandlerResult, Params};

/// Answer `{tx_json, tx_blob}` (and `hash` at the top in v2).
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    signing_gate(ctx)?;
    let signed = sign_request(ctx, params)?;
    Ok(format_result(&signed, ctx.api_version, None))
}
