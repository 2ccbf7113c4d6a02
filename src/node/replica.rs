//! The writer's copy of validated history into PostgreSQL (`serve --postgres URL`), for
//! read nodes to serve from.
//!
//! The publisher offers each validated ledger's sequence to a bounded queue and goes on:
//! a full queue drops the offer. One thread copies, in ledger order and one PostgreSQL
//! transaction per ledger, every ledger after the database's newest up to the newest
//! offered, taking them from memory (with their state changes) or, for ledgers memory no
//! longer keeps (an outage longer than its window), from the writer's own history store.
//! Those carry no state changes, so the database's state then restarts from a whole state
//! base at the newest ledger. While PostgreSQL is down or refuses, the thread retries with
//! backoff; the writer never waits for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::history::{history_ledger, state_rows, tx_entry};
use super::subscriptions::affected_accounts;
use super::Node;
use crate::limits::{PG_FEED_LEDGERS_MAX, PG_RETRY_MAX_MS, PG_RETRY_MIN_MS};
use crate::store::{HistoryLedger, HistoryStore, HistoryTx, PgHistory, StateChanges};

/// The publisher's side: offers validated ledgers to the copying thread.
pub struct Replica {
    offers: SyncSender<u32>,
    stop: Arc<AtomicBool>,
}

impl Replica {
    /// Starts the copying thread for `node` into the database at `url` (connected by the
    /// thread, so a database that is down when the writer starts delays nothing).
    pub fn start(node: &Arc<Node>, url: String) -> std::io::Result<Replica> {
        let (offers, rx) = sync_channel(PG_FEED_LEDGERS_MAX);
        let stop = Arc::new(AtomicBool::new(false));
        let copier = Copier {
            node: Arc::downgrade(node),
            url,
            store: None,
            stop: stop.clone(),
        };
        std::thread::Builder::new()
            .name("ledgerd-pg-copy".into())
            .spawn(move || copier.run(rx))?;
        Ok(Replica { offers, stop })
    }

    /// Offers validated ledger `seq`; never waits (a full queue is caught up later).
    pub fn offer(&self, seq: u32) {
        match self.offers.try_send(seq) {
            Ok(()) | Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {}
        }
    }

    /// Tells the thread to stop after its current call.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.offers.try_send(0);
    }
}

struct Copier {
    node: Weak<Node>,
    url: String,
    store: Option<PgHistory>,
    stop: Arc<AtomicBool>,
}

impl Copier {
    fn run(mut self, offers: Receiver<u32>) {
        let mut backoff = Duration::from_millis(PG_RETRY_MIN_MS);
        let mut failing = false;
        let mut wait = Duration::ZERO;
        loop {
            match offers.recv_timeout(wait) {
                Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            while offers.try_recv().is_ok() {}
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let Some(node) = self.node.upgrade() else {
                return;
            };
            match self.copy(&node) {
                Ok(()) => {
                    if failing {
                        tracing::info!("PostgreSQL history copy resumed");
                    }
                    failing = false;
                    backoff = Duration::from_millis(PG_RETRY_MIN_MS);
                    wait = Duration::from_secs(1);
                }
                Err(e) => {
                    if !failing {
                        tracing::warn!("PostgreSQL history copy paused: {e}");
                    }
                    failing = true;
                    wait = backoff;
                    backoff = (backoff * 2).min(Duration::from_millis(PG_RETRY_MAX_MS));
                }
            }
        }
    }

    /// Copies every validated ledger the database lacks.
    fn copy(&mut self, node: &Node) -> Result<(), String> {
        if self.store.is_none() {
            let store = PgHistory::open(&self.url).map_err(|e| e.to_string())?;
            tracing::info!(database = store.name(), "PostgreSQL history copy connected");
            let ready = |r: crate::store::StoreResult<bool>| r.unwrap_or(true);
            if !ready(store.nft_index_ready()) || !ready(store.mpt_index_ready()) {
                build_nft_index_behind(self.url.clone());
            }
            self.store = Some(store);
        }
        let Some(store) = &self.store else {
            return Ok(());
        };
        let target = node.status().validated.map(|v| v.seq).unwrap_or(0);
        let last = store.range().map_err(|e| e.to_string())?.map(|r| r.1);
        let first = match last {
            Some(last) => last + 1,
            None => first_available(node),
        };
        let mut lost_state = false;
        for seq in first..=target {
            if self.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let (ledger, whole) = ledger_at(node, seq)?;
            lost_state |= !whole;
            store.write(&[ledger]).map_err(|e| e.to_string())?;
        }
        let no_base = store.state_from().map_err(|e| e.to_string())?.is_none();
        if (lost_state || no_base) && target > 0 {
            write_state_base(node, store, target)?;
        }
        Ok(())
    }
}

/// Fills the NFT index of a PostgreSQL history made before it, on a thread of its own
/// with its own connections, logging its progress (read nodes answer the NFT methods
/// `notReady` until it is done).
fn build_nft_index_behind(url: String) {
    let spawned = std::thread::Builder::new()
        .name("pg-nft-index".into())
        .spawn(move || {
            let built = PgHistory::open(&url).and_then(|store| {
                tracing::info!("building the NFT index of the PostgreSQL history");
                store.build_nft_index(crate::limits::NFT_INDEX_BATCH_LEDGERS, |done, last| {
                    tracing::info!(
                        done,
                        last,
                        "PostgreSQL NFT index: ledgers indexed through {done} of {last}"
                    );
                })
            });
            match built {
                Ok(()) => tracing::info!("PostgreSQL NFT index built"),
                Err(e) => tracing::error!("PostgreSQL NFT index not built: {e}"),
            }
            match PgHistory::open(&url).and_then(|store| store.build_mpt_index()) {
                Ok(()) => tracing::info!("PostgreSQL MPT holder index built"),
                Err(e) => tracing::error!("PostgreSQL MPT holder index not built: {e}"),
            }
        });
    if let Err(e) = spawned {
        tracing::error!("PostgreSQL NFT index thread not started: {e}");
    }
}

/// The first ledger the writer can give: its history store's first, or memory's.
fn first_available(node: &Node) -> u32 {
    let (lo, _) = node.ledgers.complete_range();
    match node.history.range() {
        Some((first, _)) => first.min(lo.max(1)),
        None => lo.max(1),
    }
}

/// Ledger `seq` as the history store keeps it, and whether its state changes are in it.
fn ledger_at(node: &Node, seq: u32) -> Result<(HistoryLedger, bool), String> {
    if let Some(closed) = node.ledgers.by_seq(seq).and_then(|s| s.ledger) {
        return Ok((history_ledger(&closed), true));
    }
    let store = &node.history.store;
    let header = store
        .header(seq)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("ledger {seq} is neither in memory nor in the history store"))?;
    let stored = store.ledger_txs(seq).map_err(|e| e.to_string())?;
    let mut txs = Vec::with_capacity(stored.len());
    for t in &stored {
        let entry =
            tx_entry(t).ok_or_else(|| format!("transaction {} does not decode", t.id.to_hex()))?;
        txs.push(HistoryTx {
            id: t.id,
            index: t.index,
            blob: t.blob.clone(),
            meta: t.meta.clone(),
            delivered: t.delivered.clone(),
            accounts: affected_accounts(&entry.decoded(), true)
                .into_iter()
                .collect(),
        });
    }
    let ledger = HistoryLedger {
        header,
        txs,
        state: Vec::new(),
        changes: StateChanges::Delta,
    };
    Ok((ledger, false))
}

/// Ledger `seq`'s whole state (from memory) as the database's state base.
fn write_state_base(node: &Node, store: &PgHistory, seq: u32) -> Result<(), String> {
    let Some(rows) = state_rows(&node.ledgers, seq) else {
        return Ok(());
    };
    store
        .write_state_base(seq, &rows)
        .map_err(|e| e.to_string())?;
    tracing::info!(
        ledger = seq,
        entries = rows.len(),
        "PostgreSQL state base written"
    );
    Ok(())
}
