//! The submission path `submit` and `submit_multisigned` share: the sequencer slot is
//! taken as the request arrives (see `Command::Submit`), the checks (decode and verify,
//! sign, or the multi-signed checks) run on the CPU pool meanwhile, the sequencer applies
//! in order, and the reply waits until the journal holds the transaction.

use crate::node::sequencer::{Command, SendError, SubmitError, Submitted, Verified};
use crate::protocol::codec;
use crate::render::tx::tx_json;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_bool, as_string};
use crate::rpc::signing::{
    format_result, insert_engine_result, local_checks, required_fields, signing_gate, Signed,
};
use crate::rpc::{HandlerResult, Params};
use futures::future::BoxFuture;
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio::sync::oneshot;

/// The checks that turn a request into a transaction ready to apply.
pub type Check = fn(&Context, &Params) -> Result<Signed, RpcError>;

/// How the reply looks: rippled's submit of a blob (default JSON, `accepted`, `applied`,
/// ...), or `transactionFormatResultImpl` (sign-and-submit, submit_multisigned).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// `submit` with a `tx_blob`.
    Blob,
    /// The formatted result with the engine result.
    Formatted,
}

/// Submits what `check` makes of the request and answers in the `reply` shape.
pub fn submit_with(
    ctx: Context,
    params: Params,
    check: Check,
    reply: Reply,
) -> BoxFuture<'static, HandlerResult> {
    let fail_hard = params.get("fail_hard").is_some_and(as_bool);
    let queued = enqueue(&ctx, params, check, fail_hard);
    Box::pin(async move {
        let (reply_rx, signed_rx) = queued?;
        let outcome = reply_rx
            .await
            .map_err(|_| RpcError::new(ErrorCode::Internal))?;
        // A failed check is answered with its own error, whatever the sequencer said.
        let signed = signed_rx
            .await
            .map_err(|_| RpcError::new(ErrorCode::Internal))??;
        let submitted = outcome.map_err(sequencer_error)?;
        respond(&ctx, signed, submitted, reply, fail_hard).await
    })
}

type Queued = (
    oneshot::Receiver<Result<Submitted, SubmitError>>,
    oneshot::Receiver<Result<Signed, RpcError>>,
);

/// The sequencer's refusal as rippled's error.
fn sequencer_error(e: SubmitError) -> RpcError {
    match e {
        SubmitError::Unchecked => RpcError::new(ErrorCode::Internal),
        SubmitError::Unhealthy(why) => RpcError::with_message(ErrorCode::Internal, why),
    }
}

/// Queue the command and start the checks on the CPU pool; `fail_hard` goes with it to
/// the sequencer (rippled's `tapFAIL_HARD`).
fn enqueue(
    ctx: &Context,
    params: Params,
    check: Check,
    fail_hard: bool,
) -> Result<Queued, RpcError> {
    let writer = ctx
        .services
        .node
        .writer()
        .ok_or_else(|| RpcError::new(ErrorCode::Internal))?;
    let (job_tx, job_rx) = oneshot::channel();
    let (reply_tx, reply_rx) = oneshot::channel();
    let (signed_tx, signed_rx) = oneshot::channel();
    writer
        .sequencer
        .try_send(Command::Submit {
            job: job_rx,
            reply: reply_tx,
        })
        .map_err(|e| match e {
            SendError::Full => RpcError::new(ErrorCode::TooBusy),
            SendError::Stopped => RpcError::with_message(
                ErrorCode::Internal,
                "Exception occurred during transaction submission.",
            ),
        })?;
    let job_ctx = ctx.clone();
    let accepted = ctx.services.cpu.try_spawn(move || {
        let checked = crate::rpc::upstream_checked(&job_ctx, || check(&job_ctx, &params));
        let verified = checked.as_ref().ok().map(|signed| Verified {
            tx: Arc::new(signed.tx.clone()),
            blob: Arc::from(signed.blob.as_slice()),
            id: signed.id,
            fail_hard,
        });
        let _ = job_tx.send(verified);
        let _ = signed_tx.send(checked);
    });
    // A refused job drops its sender: the sequencer skips the command; answer tooBusy.
    if !accepted {
        return Err(RpcError::new(ErrorCode::TooBusy));
    }
    Ok((reply_rx, signed_rx))
}

async fn respond(
    ctx: &Context,
    signed: Signed,
    submitted: Submitted,
    reply: Reply,
    fail_hard: bool,
) -> HandlerResult {
    if let Some(durable) = submitted.durable {
        durable
            .await
            .map_err(|e| RpcError::with_message(ErrorCode::Internal, e.to_string()))?;
    }
    if submitted.result.upstream_unknown {
        return Err(crate::rpc::upstream_unknown());
    }
    let ter = submitted.result.ter;
    if reply == Reply::Formatted {
        return Ok(format_result(&signed, ctx.api_version, Some(ter)));
    }
    // Mode A: rippled's default JSON (hash inside tx_json) whatever the API version.
    let mut out = Map::new();
    out.insert(
        "tx_json".into(),
        Value::Object(tx_json(&signed.tx, &signed.id, 1)),
    );
    out.insert(
        "tx_blob".into(),
        Value::from(crate::protocol::types::hex_upper(&signed.blob)),
    );
    insert_engine_result(&mut out, ter);
    let enforce_fail_hard = fail_hard && !ter.is_tes();
    let applied = submitted.result.applied;
    let queued = submitted.result.queued;
    let broadcast = (applied || queued) && !enforce_fail_hard;
    let kept = !enforce_fail_hard;
    out.insert(
        "accepted".into(),
        Value::from(applied || broadcast || queued || kept),
    );
    out.insert("applied".into(), Value::from(applied));
    out.insert("broadcast".into(), Value::from(broadcast));
    out.insert("queued".into(), Value::from(queued));
    out.insert("kept".into(), Value::from(kept));
    let seq = submitted.account_sequence.unwrap_or(0);
    out.insert("account_sequence_next".into(), Value::from(seq));
    let available = submitted.sequence_available.unwrap_or(seq);
    out.insert("account_sequence_available".into(), Value::from(available));
    out.insert(
        "open_ledger_cost".into(),
        Value::from(open_ledger_cost(ctx, &signed.tx).to_string()),
    );
    out.insert(
        "validated_ledger_index".into(),
        Value::from(submitted.validated_seq),
    );
    Ok(out)
}

/// What the transaction would pay to go straight into the open ledger now: its base
/// fee at the escalated level (rippled's `getTxRequiredFeeAndSeq`, rounded down).
fn open_ledger_cost(ctx: &Context, tx: &crate::protocol::st::StObject) -> u64 {
    let ledgers = &ctx.services.node.ledgers;
    let current = ledgers.current();
    let base = crate::engine::transactor::base_fee_in(&current.view, tx);
    let level = ledgers.fee_report().open_ledger_level;
    crate::ledgers::txq::to_drops(level, base)
}

/// `sign_request` behind the signing gate (sign-and-submit).
pub fn gated_sign(ctx: &Context, params: &Params) -> Result<Signed, RpcError> {
    signing_gate(ctx)?;
    crate::rpc::signing::sign_request(ctx, params)
}

/// rippled 3.4's `checkValidity` opens by refusing any transaction flagged
/// `tfInnerBatchTxn`, signed or not, whatever the rules (BatchV1_1 on or off): a Batch's
/// inner transaction is applied inside its Batch, never submitted alone.
fn inner_refused(tx: &crate::protocol::st::StObject) -> Result<(), String> {
    if crate::engine::batch::is_inner(tx) {
        return Err("Batch inner transactions are never considered validly signed.".into());
    }
    Ok(())
}

/// Mode A: hex, decode, template, local checks, signature (rippled `checkValidity`, under
/// the open ledger's rules: which data a co-signature signs depends on fixCleanup3_4_0).
pub fn decode_and_verify(ctx: &Context, params: &Params) -> Result<Signed, RpcError> {
    let text = params
        .get("tx_blob")
        .and_then(as_string)
        .unwrap_or_default();
    let bytes = match hex::decode(&text) {
        Ok(b) if !b.is_empty() => b,
        _ => return Err(RpcError::new(ErrorCode::InvalidParams)),
    };
    let invalid = |what: String| {
        let mut f = Map::new();
        f.insert("error_exception".into(), Value::from(what));
        RpcError::bare("invalidTransaction").with_fields(f)
    };
    let tx = codec::decode(&bytes).map_err(|e| invalid(e.to_string()))?;
    required_fields(&tx).map_err(invalid)?;
    let rules =
        crate::ledger::view::ReadView::info(&ctx.services.node.ledgers.current().view).rules;
    let local = inner_refused(&tx)
        .and_then(|()| local_checks(&tx))
        .and_then(|()| {
            if crate::engine::transactor::verify_signature(&tx, &rules) {
                Ok(())
            } else {
                // rippled's STTx::checkSign names a co-signature (a LoanSet counterparty's,
                // a sponsor's) that fails.
                let fault = crate::engine::transactor::signature_fault(&tx, &rules);
                Err(fault.unwrap_or("Invalid signature.").to_string())
            }
        });
    local.map_err(|reason| invalid(format!("fails local checks: {reason}")))?;
    let blob = codec::encode(&tx);
    let id = crate::protocol::tx::transaction_id(&blob);
    Ok(Signed { tx, blob, id })
}
