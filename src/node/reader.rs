//! A read node's follower (`serve --read-only`): it watches the shared PostgreSQL history
//! for ledgers newer than the one it serves, makes each the current, closed and validated
//! ledger ([`crate::ledgers::Ledgers::follow`]), updates the status (`complete_ledgers`
//! from the database) and publishes the ledger to its own subscribers with the same
//! renderings the writer uses (`ledgerClosed`, validated transactions, accounts, order
//! books, book changes). A subscriber so sees a transaction only once this node can
//! answer for it.
//!
//! While the database is down it keeps serving what it has and retries with backoff;
//! after a long outage it publishes at most [`READ_NODE_CATCH_UP_LEDGERS_MAX`] ledgers
//! and jumps to the newest.

use std::sync::Arc;
use std::time::Duration;

use super::status::{LedgerStatus, LedgerSummary};
use super::Node;
use crate::ledger::view::ReadView;
use crate::ledgers::LedgerSnapshot;
use crate::limits::{
    PG_RETRY_MAX_MS, PG_RETRY_MIN_MS, READ_NODE_CATCH_UP_LEDGERS_MAX, READ_NODE_POLL_MS,
};

/// Follows the database until the runtime stops.
pub async fn follow(node: Arc<Node>) {
    let mut backoff = Duration::from_millis(PG_RETRY_MIN_MS);
    let mut failing = false;
    loop {
        let n = node.clone();
        let outcome = tokio::task::spawn_blocking(move || refresh(&n)).await;
        let wait = match outcome {
            Ok(Ok(())) => {
                if failing {
                    tracing::info!("history database reachable again");
                }
                failing = false;
                backoff = Duration::from_millis(PG_RETRY_MIN_MS);
                Duration::from_millis(READ_NODE_POLL_MS)
            }
            Ok(Err(e)) => {
                if !failing {
                    tracing::warn!("read node cannot follow the history database: {e}");
                }
                failing = true;
                let wait = backoff;
                backoff = (backoff * 2).min(Duration::from_millis(PG_RETRY_MAX_MS));
                wait
            }
            Err(e) => {
                tracing::error!("read node follower failed: {e}");
                backoff
            }
        };
        tokio::time::sleep(wait).await;
    }
}

/// Takes every ledger the database has beyond the one served.
fn refresh(node: &Node) -> Result<(), String> {
    let Some((first, last)) = node.history.store.range().map_err(|e| e.to_string())? else {
        return Ok(());
    };
    let tip = node.ledgers.tip().map(|t| t.seq());
    let from = match tip {
        Some(t) if t >= last => {
            if node.status().complete.map(|c| c.0) != Some(first) {
                let mut status = (*node.status()).clone();
                status.complete = Some((first, t));
                node.set_status(status);
            }
            return Ok(());
        }
        Some(t) => (t + 1).max(last.saturating_sub(READ_NODE_CATCH_UP_LEDGERS_MAX - 1)),
        None => last,
    };
    for seq in from..=last {
        let Some(snap) = node.history.snapshot_with_txs(seq)? else {
            return Err(format!(
                "ledger {seq} has no readable state in the database"
            ));
        };
        node.ledgers.follow(snap.clone());
        publish(node, &snap, (first, seq));
    }
    Ok(())
}

/// The new ledger's status and stream messages.
fn publish(node: &Node, snap: &LedgerSnapshot, complete: (u32, u32)) {
    let Some(closed) = &snap.ledger else {
        return;
    };
    let mut status = LedgerStatus::from_store(&node.ledgers);
    status.validated = Some(LedgerSummary {
        seq: closed.header.seq,
        hash: closed.header.hash,
        close_time: u64::from(closed.header.close_time),
        base_fee_drops: closed.fees.base_drops,
        reserve_base_drops: closed.fees.reserve_base_drops,
        reserve_inc_drops: closed.fees.reserve_inc_drops,
    });
    status.open_seq = Some(closed.header.seq.saturating_add(1));
    status.complete = Some(complete);
    let text = status.complete_ledgers();
    node.set_status(status);
    let view = &snap.view as &dyn ReadView;
    node.subscriptions
        .publish_closed(closed, node.network_id, &text, Some(view));
}

/// A read node's ledgers: the writer's genesis configuration, as a follower.
pub fn follower_ledgers(cfg: crate::ledgers::LedgerConfig) -> Arc<crate::ledgers::Ledgers> {
    let now = crate::protocol::time::ripple_now_secs() as u32;
    Arc::new(crate::ledgers::Ledgers::genesis(cfg, now).into_follower())
}
