//! `submit` (rippled `Submit.cpp`, rpc.md §3.1): a signed `tx_blob` (Mode A), or
//! `tx_json` + a secret to sign and submit (Mode B). Decoding and signature checks run on
//! the CPU pool, in parallel; the sequencer applies in order; the reply waits until the
//! journal holds the transaction ([`crate::rpc::submission`]).

use crate::rpc::context::Context;
use crate::rpc::submission::{decode_and_verify, gated_sign, submit_with, Reply};
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;

/// Submit, then answer with the engine result.
pub fn handle(ctx: Context, params: Params) -> BoxFuture<'static, HandlerResult> {
    if params.contains_key("tx_blob") {
        submit_with(ctx, params, decode_and_verify, Reply::Blob)
    } else {
        submit_with(ctx, params, gated_sign, Reply::Formatted)
    }
}
