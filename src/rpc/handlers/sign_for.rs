//! `sign_for` (rippled `SignFor.cpp`, `transactionSignFor`): add one signer's signature
//! to a multi-signed transaction and answer `{tx_json, tx_blob}`; nothing is submitted.
//! Like `sign`, only for admins or with `signing_support`.

use crate::rpc::context::Context;
use crate::rpc::signing::{format_result, sign_for_request, signing_gate};
use crate::rpc::{HandlerResult, Params};

/// Answer `{tx_json, tx_blob}` (and `hash` at the top in v2).
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    signing_gate(ctx)?;
    let signed = sign_for_request(ctx, params)?;
    Ok(format_result(&signed, ctx.api_version, None))
}
