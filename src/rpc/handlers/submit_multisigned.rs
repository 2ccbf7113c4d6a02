//! `submit_multisigned` (rippled `SubmitMultiSigned.cpp`, `transactionSubmitMultiSigned`):
//! a transaction its Signers signed, checked ([`crate::rpc::signing::multisigned_request`])
//! and submitted like `submit`, answered with the formatted result.

use crate::rpc::context::Context;
use crate::rpc::signing::multisigned_request;
use crate::rpc::submission::{submit_with, Reply};
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;

/// Check, submit, then answer with the engine result.
pub fn handle(ctx: Context, params: Params) -> BoxFuture<'static, HandlerResult> {
    submit_with(ctx, params, multisigned_request, Reply::Formatted)
}
