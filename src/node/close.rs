//! Closing ledgers: the close timer, and the publisher that makes a close visible (ledger
//! status, `ledgerClosed`, validated transaction messages) once its journal record is
//! durable. In standalone a closed ledger is validated.

use super::sequencer::{ClosedWork, Command, SequencerHandle};
use super::status::{LedgerStatus, LedgerSummary};
use super::Node;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Send a close every `interval_secs` seconds until the sequencer stops.
pub async fn timer(handle: SequencerHandle, interval_secs: u64) {
    let period = Duration::from_secs(interval_secs.max(1));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if handle.send(Command::Close { reply: None }).await.is_err() {
            break;
        }
    }
}

/// Publish closes in order, each once durable; ends when the sequencer does.
pub async fn publisher(mut rx: mpsc::Receiver<ClosedWork>, node: Arc<Node>) {
    let network_id = node.network_id;
    while let Some(work) = rx.recv().await {
        let closed = work.closed;
        let seq = closed.header.seq;
        match work.durable.await {
            Ok(()) => {
                let mut status = LedgerStatus::from_store(&node.ledgers);
                // Pin the status to this ledger: a later close may already be in the store
                // without being durable yet.
                status.validated = Some(LedgerSummary {
                    seq,
                    hash: closed.header.hash,
                    close_time: u64::from(closed.header.close_time),
                    base_fee_drops: closed.fees.base_drops,
                    reserve_base_drops: closed.fees.reserve_base_drops,
                    reserve_inc_drops: closed.fees.reserve_inc_drops,
                });
                status.open_seq = Some(seq.saturating_add(1));
                status.complete = status.complete.map(|(lo, _)| (lo.min(seq), seq));
                let complete = status.complete_ledgers();
                node.set_status(status);
                node.subscriptions
                    .publish_closed(&closed, network_id, &complete);
                if let Some(reply) = work.reply {
                    let _ = reply.send(Ok(seq.saturating_add(1)));
                }
            }
            Err(e) => {
                tracing::error!(ledger = seq, "close not durable: {e}");
                if let Some(reply) = work.reply {
                    let _ = reply.send(Err(e.to_string()));
                }
            }
        }
    }
}
