//! A read node's follower (`serve --read-only`): it watches the shared PostgreSQL history
//! for ledgers newer than the one it serves, makes each the current, closed and validated
//! ledger ([`crate::ledgers::Ledgers::follow`]), updates the status (`complete_ledgers`
//! from the database) and publishes the ledger to its own subscribers with the same
//! renderings the writer uses (`ledgerClosed`, validated transactions, accounts, order
//! books, book changes). A subscriber so sees a transaction only once this node can
//! answer for it.
//!
//! The writer's proposed transactions (its open ledger, never in the database) are relayed
//! as it rendered them ([`relay_proposed`]).
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
use crate::protocol::types::AccountId;

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
    let status = node
        .history
        .store
        .follower_status()
        .map_err(|e| e.to_string())?;
    node.set_follower_status(status);
    let Some((first, last)) = node.history.store.range().map_err(|e| e.to_string())? else {
        return Ok(());
    };
    let tip = node.ledgers.tip().map(|t| t.seq());
    if node.status().complete.is_some_and(|c| c.0 != first) {
        // Old ledgers deleted (or restored): transactions kept from them may be gone.
        node.advance_history_epoch();
    }
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
        let chained = match (node.ledgers.tip(), &snap.ledger) {
            (Some(t), Some(l)) => t
                .ledger
                .as_ref()
                .is_none_or(|p| p.header.hash == l.header.parent_hash),
            _ => true,
        };
        if !chained {
            // The database's chain is not the one followed: a repaired or replaced history.
            node.advance_history_epoch();
        }
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

/// Relays the writer's proposed transaction messages (its open ledger, which the database
/// never holds) to this node's `transactions_proposed` and `accounts_proposed`
/// subscribers: one WebSocket to the writer per API version, open only while someone here
/// listens, so a writer pays for proposed messages only when a client wants them.
pub async fn relay_proposed(node: Arc<Node>, writer: String) {
    futures::future::join(
        relay_version(node.clone(), writer.clone(), 1),
        relay_version(node, writer, 2),
    )
    .await;
}

async fn relay_version(node: Arc<Node>, writer: String, api_version: u32) {
    let mut backoff = Duration::from_millis(PG_RETRY_MIN_MS);
    loop {
        if !node.subscriptions.wants_proposed() {
            tokio::time::sleep(Duration::from_millis(READ_NODE_POLL_MS)).await;
            continue;
        }
        match relay_once(&node, &writer, api_version).await {
            Ok(()) => backoff = Duration::from_millis(PG_RETRY_MIN_MS),
            Err(e) => {
                tracing::debug!(writer = %writer, "proposed relay: {e}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_millis(PG_RETRY_MAX_MS));
            }
        }
    }
}

/// One connection: subscribes, relays until nobody here listens or the writer goes.
async fn relay_once(node: &Node, writer: &str, api_version: u32) -> Result<(), String> {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (mut ws, _) = tokio_tungstenite::connect_async(writer)
        .await
        .map_err(|e| e.to_string())?;
    let subscribe = serde_json::json!({"command": "subscribe",
        "streams": ["transactions_proposed"], "api_version": api_version});
    ws.send(Message::text(subscribe.to_string()))
        .await
        .map_err(|e| e.to_string())?;
    let idle = Duration::from_millis(READ_NODE_POLL_MS * 10);
    while node.subscriptions.wants_proposed() {
        let msg = match tokio::time::timeout(idle, ws.next()).await {
            Err(_) => continue,
            Ok(None) => return Err("the writer closed the connection".into()),
            Ok(Some(m)) => m.map_err(|e| e.to_string())?,
        };
        let Message::Text(text) = msg else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(text.as_str()) else {
            continue;
        };
        if v["type"] == "transaction" && v["validated"] == false {
            let tx = if api_version >= 2 {
                &v["tx_json"]
            } else {
                &v["transaction"]
            };
            let mut accounts = std::collections::BTreeSet::new();
            json_accounts(tx, &mut accounts);
            node.subscriptions
                .relay_proposed(api_version, text.as_str(), &accounts);
        }
    }
    let _ = ws.close(None).await;
    Ok(())
}

/// The accounts a transaction's JSON names (its account fields and amount issuers): what
/// `accounts_proposed` matches a proposed transaction on, as rippled does from its fields.
fn json_accounts(v: &serde_json::Value, out: &mut std::collections::BTreeSet<AccountId>) {
    match v {
        serde_json::Value::String(s) if s.starts_with('r') => {
            if let Ok(a) = AccountId::from_address(s) {
                out.insert(a);
            }
        }
        serde_json::Value::Object(o) => o.values().for_each(|x| json_accounts(x, out)),
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_accounts(x, out)),
        _ => {}
    }
}
