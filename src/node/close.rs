//! Closing ledgers: the close timer, and the publisher that makes a close visible (ledger
//! status, the consensus phases, this server's validation, `ledgerClosed`, validated
//! transaction messages) once its journal record is durable. In standalone a closed
//! ledger is validated.

use super::sequencer::{CloseError, ClosedWork, Command, Published, RevertWork, SequencerHandle};
use super::status::{LedgerStatus, LedgerSummary};
use super::Node;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

use super::subscriptions::Stream;
use crate::ledgers::ClosedLedger;
use crate::protocol::types::Hash256;
use crate::render::consensus::Phase;

/// Send a close every `interval_secs` seconds until the sequencer stops.
pub async fn timer(handle: SequencerHandle, interval_secs: u64) {
    let period = Duration::from_secs(interval_secs.max(1));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if handle
            .send(Command::Close {
                close_time: None,
                reply: None,
            })
            .await
            .is_err()
        {
            break;
        }
    }
}

/// Publish closes in order, each once durable, and reverts; ends when the sequencer does.
pub async fn publisher(mut rx: mpsc::Receiver<Published>, node: Arc<Node>) {
    while let Some(work) = rx.recv().await {
        match work {
            Published::Close(work) => publish_close(&node, work).await,
            Published::Revert(work) => publish_revert(&node, work).await,
        }
    }
    if let Some(replica) = node.replica.get() {
        replica.stop();
    }
}

async fn publish_close(node: &Arc<Node>, work: ClosedWork) {
    let closed = work.closed;
    let seq = closed.header.seq;
    match work.durable.await {
        Ok(()) => {
            record_history(node, &closed).await;
            if let Some(replica) = node.replica.get() {
                replica.offer(seq);
            }
            announce_close(node, &closed);
            update_path_requests(node, seq);
            if let Some(reply) = work.reply {
                let _ = reply.send(Ok(seq.saturating_add(1)));
            }
        }
        Err(e) => {
            tracing::error!(ledger = seq, "close not durable: {e}");
            if let Some(reply) = work.reply {
                let _ = reply.send(Err(CloseError::Failed(e.to_string())));
            }
        }
    }
}

/// A revert (durable already): the history store forgets the ledgers after the restored
/// one, the status goes back to it, and subscribers of `ledger` get a `ledgerClosed` for
/// it, so a client following the stream sees the new tip.
async fn publish_revert(node: &Arc<Node>, work: RevertWork) {
    let closed = work.closed;
    let seq = closed.header.seq;
    let n = node.clone();
    if let Err(e) = tokio::task::spawn_blocking(move || n.revert_history(seq)).await {
        tracing::error!(ledger = seq, "history writer failed: {e}");
    }
    announce(node, &closed);
    update_path_requests(node, seq);
    let _ = work.reply.send(Ok(seq));
}

/// A close as the one validator of a network shows it: the round's `establish` and
/// `accepted` phases (stream `consensus`), this server's validation of the new ledger
/// (stream `validations`), the ledger itself ([`announce`]), then the next round's `open`.
fn announce_close(node: &Arc<Node>, closed: &Arc<ClosedLedger>) {
    let subs = &node.subscriptions;
    subs.publish_phase(Phase::Establish);
    subs.publish_phase(Phase::Accepted);
    // The last fully validated ledger before this one, which the validation attests.
    let validated = node.status().validated.map(|v| v.hash);
    publish_validation(node, closed, validated);
    announce(node, closed);
    subs.publish_phase(Phase::Open);
}

/// Signs and publishes the validation of `closed`, when someone listens.
fn publish_validation(node: &Node, closed: &ClosedLedger, validated: Option<Hash256>) {
    let Some(validator) = node.validator.get() else {
        return;
    };
    if !node.subscriptions.wants(Stream::Validations) {
        return;
    }
    let now = u32::try_from(crate::protocol::time::ripple_now_secs()).unwrap_or(u32::MAX);
    match validator.validate(closed, validated, now) {
        Ok(v) => node.subscriptions.publish_validation(&v, node.network_id),
        Err(e) => tracing::error!(ledger = closed.header.seq, "validation not made: {e}"),
    }
}

/// Makes `closed` the validated ledger of the status and publishes `ledgerClosed`.
fn announce(node: &Arc<Node>, closed: &Arc<ClosedLedger>) {
    let seq = closed.header.seq;
    let mut status = LedgerStatus::from_store(&node.ledgers);
    // Pin the status to this ledger: a later close may already be in the store without
    // being durable yet.
    status.validated = Some(LedgerSummary {
        seq,
        hash: closed.header.hash,
        close_time: u64::from(closed.header.close_time),
        base_fee_drops: closed.fees.base_drops,
        reserve_base_drops: closed.fees.reserve_base_drops,
        reserve_inc_drops: closed.fees.reserve_inc_drops,
    });
    status.open_seq = Some(seq.saturating_add(1));
    // What the history store holds, up to this ledger (less while its writes fail).
    let (first, last) = node.complete_range();
    status.complete = Some((first, last.min(seq)));
    let complete = status.complete_ledgers();
    node.set_status(status);
    let snap = node.ledgers.by_seq(seq);
    let view = snap
        .as_ref()
        .map(|s| &s.view as &dyn crate::ledger::view::ReadView);
    node.subscriptions
        .publish_closed(closed, node.network_id, &complete, view);
}

/// Recomputes the sessions' path_find requests against ledger `seq`, on a blocking
/// thread: the publisher does not wait for it.
fn update_path_requests(node: &Arc<Node>, seq: u32) {
    if !node.subscriptions.has_path_requests() {
        return;
    }
    if let Some(snap) = node.ledgers.by_seq(seq) {
        let subs = node.subscriptions.clone();
        tokio::task::spawn_blocking(move || subs.update_path_requests(&snap));
    }
}

/// Writes the closed ledger to the history store, off the async threads. A failure is
/// logged and the ledger waits in the node's backlog, written before the next one
/// ([`Node::record_history`]); until then the history reads end before it.
async fn record_history(node: &Arc<Node>, closed: &Arc<ClosedLedger>) {
    let (n, c) = (node.clone(), closed.clone());
    let seq = closed.header.seq;
    if let Err(e) = tokio::task::spawn_blocking(move || n.record_history(&c)).await {
        tracing::error!(ledger = seq, "history writer failed: {e}");
    }
}
