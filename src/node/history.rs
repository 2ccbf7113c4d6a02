//! Validated history beyond memory: what the publisher writes to the [`HistoryStore`] at
//! each close, the catch-up at start, and reading stored transactions back as
//! [`TxEntry`]s for the renderers.
//!
//! The publisher writes a closed ledger once its journal record is durable and before the
//! close is published, so every ledger a client has seen validated is in the store;
//! submissions never wait for it. A write that fails keeps the ledger in a [`Backlog`],
//! written in order at the next close; until then `complete_ledgers` and the history
//! reads end at the last ledger written. A crash between the journal write and the
//! history write leaves the store behind the journal: at start, [`History::catch_up`]
//! (`check.rs`) writes the ledgers recovery rebuilt that the store lacks, and refuses a
//! store that lost acknowledged history memory cannot give back; `repair.rs` rebuilds
//! such a store from the journal (`serve --repair-history`).

mod backlog;
mod check;
mod repair;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::ter::Ter;
use crate::ledger::header::LedgerHeader;
use crate::ledger::keylet;
use crate::ledger::rules::{RuleBook, Rules};
use crate::ledger::view::{StateSource, StateView, ViewInfo};
use crate::ledgers::{fees_of, ClosedLedger, LedgerSnapshot, Ledgers, TxEntry};
use crate::protocol::amount::Amount;
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use crate::store::{HistoryLedger, HistoryStore, HistoryTx, StateChanges, StateRow, StoredTx};

use super::subscriptions::affected_accounts;

pub use backlog::Backlog;
pub use check::{ranges_text, txs_known, REPAIR_HISTORY_HINT};
pub use repair::HistoryRepair;

/// The history store and how many ledgers it keeps (None: every ledger).
pub struct History {
    /// The backend.
    pub store: Arc<dyn HistoryStore>,
    /// Keep only the newest this many ledgers (an ephemeral server's bound).
    pub keep: Option<u32>,
    /// Advisory deletion (rippled's `[node_db] advisory_delete`): with it, `keep` deletes
    /// only the ledgers an admin allowed with `can_delete`. None: off (`can_delete` answers
    /// `notEnabled`).
    pub advisory: Option<Arc<AdvisoryDelete>>,
    /// Entries read from the store at a ledger, kept for the next read (a read node's
    /// bounded state cache); None: every read goes to the store.
    pub cache: Option<Arc<StateCache>>,
}

/// The newest ledger online deletion may remove under advisory deletion (rippled's
/// `SHAMapStore` `canDelete`), kept in the history store so it survives a restart.
pub struct AdvisoryDelete {
    can_delete: std::sync::atomic::AtomicU32,
}

/// The history store's setting that holds [`AdvisoryDelete`]'s value.
const CAN_DELETE_SETTING: &str = "can_delete";

impl AdvisoryDelete {
    /// Advisory deletion over `store`, with the value it kept (0, nothing, when none).
    pub fn load(store: &dyn HistoryStore) -> Result<AdvisoryDelete, String> {
        let kept = store
            .setting(CAN_DELETE_SETTING)
            .map_err(|e| e.to_string())?
            .unwrap_or(0);
        Ok(AdvisoryDelete {
            can_delete: std::sync::atomic::AtomicU32::new(kept),
        })
    }

    /// The newest ledger that may be deleted (0: none; `u32::MAX`: any).
    pub fn can_delete(&self) -> u32 {
        self.can_delete.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// Entries read from the store, by (key, ledger): a read node answers many reads of the
/// same accounts at its newest ledger. Bounded by [`crate::limits::READ_NODE_CACHE_ENTRIES`];
/// when full it is emptied and refills with what is read next (cheap, and the newest
/// ledger's hot entries come back first). A failed read is never cached.
#[derive(Default)]
pub struct StateCache {
    entries: parking_lot::Mutex<CachedEntries>,
}

/// (key, ledger) -> the entry then (None: absent).
type CachedEntries = std::collections::HashMap<(Hash256, u32), Option<Arc<StObject>>>;

impl StateCache {
    fn get(&self, key: &Hash256, seq: u32) -> Option<Option<Arc<StObject>>> {
        self.entries.lock().get(&(*key, seq)).cloned()
    }

    fn put(&self, key: &Hash256, seq: u32, value: Option<Arc<StObject>>) {
        let mut entries = self.entries.lock();
        if entries.len() >= crate::limits::READ_NODE_CACHE_ENTRIES {
            entries.clear();
        }
        entries.insert((*key, seq), value);
    }
}

/// A closed ledger as the history store keeps it.
pub fn history_ledger(closed: &ClosedLedger) -> HistoryLedger {
    let txs = closed
        .txs
        .iter()
        .map(|e| HistoryTx {
            id: e.id,
            index: e.index,
            blob: e.blob.to_vec(),
            meta: e.meta_blob.to_vec(),
            delivered: e.delivered.map(|a| a.to_bytes()),
            accounts: affected_accounts(&e.decoded(), true).into_iter().collect(),
        })
        .collect();
    let changes = if closed.changes.whole_state {
        StateChanges::Full
    } else {
        StateChanges::Delta
    };
    HistoryLedger {
        header: closed.header.clone(),
        txs,
        state: closed.changes.entries.clone(),
        changes,
    }
}

/// Ledger `seq`'s whole state from memory, in key order, as a history store's state
/// base ([`HistoryStore::write_state_base`]); `None` once memory no longer holds it.
pub fn state_rows(ledgers: &Ledgers, seq: u32) -> Option<Vec<StateRow>> {
    let snap = ledgers.by_seq(seq)?;
    let mut rows = Vec::new();
    snap.view
        .for_each_bytes(|k, b| rows.push((*k, Some(b.clone()))));
    rows.sort_by_key(|r| r.0);
    Some(rows)
}

impl History {
    /// Writes one closed ledger, then forgets the oldest beyond the bound.
    pub fn record(&self, closed: &ClosedLedger) -> Result<(), String> {
        self.store
            .write(&[history_ledger(closed)])
            .map_err(|e| e.to_string())?;
        self.trim(closed.header.seq)
    }

    /// Forgets the oldest ledgers beyond the bound (`--online-delete`, an ephemeral
    /// server's), the newest being `last`; the store's start marker moves first.
    fn trim(&self, last: u32) -> Result<(), String> {
        let Some(keep) = self.keep else {
            return Ok(());
        };
        let mut first = last.saturating_sub(keep.saturating_sub(1));
        if let Some(advisory) = &self.advisory {
            first = first.min(advisory.can_delete().saturating_add(1));
        }
        match self.store.range().map_err(|e| e.to_string())? {
            Some((lo, _)) if lo < first => {
                self.store.delete_before(first).map_err(|e| e.to_string())
            }
            _ => Ok(()),
        }
    }

    /// Advisory deletion's `can_delete` (None: advisory deletion is off).
    pub fn can_delete(&self) -> Option<u32> {
        self.advisory.as_ref().map(|a| a.can_delete())
    }

    /// Sets `can_delete` (kept in the store first), returning it; None when advisory
    /// deletion is off. The ledgers it allows go at the next close.
    pub fn set_can_delete(&self, seq: u32) -> Result<Option<u32>, String> {
        let Some(advisory) = &self.advisory else {
            return Ok(None);
        };
        self.store
            .set_setting(CAN_DELETE_SETTING, seq)
            .map_err(|e| e.to_string())?;
        advisory
            .can_delete
            .store(seq, std::sync::atomic::Ordering::Release);
        Ok(Some(seq))
    }

    /// Forgets the stored ledgers after `seq` and their transactions (a revert).
    pub fn forget_after(&self, seq: u32) -> Result<(), String> {
        match self.store.range().map_err(|e| e.to_string())? {
            Some((_, last)) if last > seq => {
                self.store.delete_after(seq).map_err(|e| e.to_string())
            }
            _ => Ok(()),
        }
    }

    /// At start, when recovery replayed a revert to ledger `reverted_to`: the store may
    /// still hold the ledgers that revert undid (a crash before the publisher forgot
    /// them). From the first stored ledger after `reverted_to` that is not on the timeline
    /// memory holds ([`History::timeline`]), the stored ledgers are forgotten; catch-up
    /// then writes memory's.
    pub fn forget_reverted(&self, ledgers: &Ledgers, reverted_to: u32) -> Result<(), String> {
        let Some((_, last)) = self.store.range().map_err(|e| e.to_string())? else {
            return Ok(());
        };
        let timeline = self.timeline(ledgers, reverted_to, last)?;
        for seq in reverted_to.saturating_add(1)..=last {
            let stored = self.store.header(seq).map_err(|e| e.to_string())?;
            let same = match (&stored, timeline.get(&seq)) {
                (Some(a), Some(hash)) => a.hash == *hash,
                _ => false,
            };
            if !same {
                tracing::info!(
                    "history: forgetting ledgers {seq}..={last}, undone by a revert before the last stop"
                );
                return self
                    .store
                    .delete_after(seq.saturating_sub(1))
                    .map_err(|e| e.to_string());
            }
        }
        Ok(())
    }

    /// The hash of each ledger after `reverted_to` (up to `last`) on the timeline memory
    /// holds: memory's own for the ledgers it keeps; for older ones, which replay rebuilt
    /// and memory then let go, the parent-hash chain down from memory's oldest ledger
    /// through the stored headers that match it. A ledger the chain cannot reach has none.
    fn timeline(
        &self,
        ledgers: &Ledgers,
        reverted_to: u32,
        last: u32,
    ) -> Result<BTreeMap<u32, Hash256>, String> {
        let hashes = |seq: u32| {
            let l = ledgers.by_seq(seq)?.ledger?;
            Some((l.header.hash, l.header.parent_hash))
        };
        let mut timeline: BTreeMap<u32, Hash256> = (reverted_to.saturating_add(1)..=last)
            .filter_map(|seq| Some((seq, hashes(seq)?.0)))
            .collect();
        let (oldest, _) = ledgers.complete_range();
        let mut parent = hashes(oldest).map(|h| h.1);
        let mut seq = oldest.saturating_sub(1);
        while let (true, Some(want)) = (seq > reverted_to, parent) {
            if seq <= last {
                timeline.insert(seq, want);
            }
            let stored = self.store.header(seq).map_err(|e| e.to_string())?;
            parent = stored.filter(|h| h.hash == want).map(|h| h.parent_hash);
            seq -= 1;
        }
        Ok(timeline)
    }

    /// A store without a state base (written before the store kept state) gets the last
    /// closed ledger's whole state: old ledgers' state is then readable from there on.
    fn write_state_base(&self, ledgers: &Ledgers, last: u32) -> Result<(), String> {
        // A lazy fork holds part of its state only: the store keeps no state, and state
        // reads of ledgers older than memory answer lgrNotFound.
        if ledgers.is_lazy() {
            return Ok(());
        }
        if self
            .store
            .state_from()
            .map_err(|e| e.to_string())?
            .is_some()
        {
            return Ok(());
        }
        let Some(rows) = state_rows(ledgers, last) else {
            return Ok(());
        };
        self.store
            .write_state_base(last, &rows)
            .map_err(|e| e.to_string())?;
        tracing::info!(ledger = last, entries = rows.len(), "history state starts");
        Ok(())
    }

    /// A closed ledger older than memory keeps, read from the store: its header and a view
    /// of its state (None when the store has no such ledger or no state for it).
    pub fn snapshot(&self, seq: u32) -> Option<LedgerSnapshot> {
        let header = self.store.header(seq).ok()??;
        self.snapshot_of(header)
    }

    /// [`History::snapshot`] by ledger hash.
    pub fn snapshot_by_hash(&self, hash: &Hash256) -> Option<LedgerSnapshot> {
        let header = self.store.header_by_hash(hash).ok()??;
        self.snapshot_of(header)
    }

    /// [`History::snapshot`] with the ledger's transactions read too (a read node's newest
    /// ledger, published and served as the current one). Err: the store failed.
    pub fn snapshot_with_txs(&self, seq: u32) -> Result<Option<LedgerSnapshot>, String> {
        let Some(header) = self.store.header(seq).map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let stored = self.store.ledger_txs(seq).map_err(|e| e.to_string())?;
        let mut txs = Vec::with_capacity(stored.len());
        for t in &stored {
            txs.push(
                tx_entry(t).ok_or_else(|| {
                    format!("stored transaction {} does not decode", t.id.to_hex())
                })?,
            );
        }
        Ok(self.snapshot_parts(header, txs))
    }

    fn snapshot_of(&self, header: LedgerHeader) -> Option<LedgerSnapshot> {
        self.snapshot_parts(header, Vec::new())
    }

    fn snapshot_parts(
        &self,
        header: LedgerHeader,
        txs: Vec<Arc<TxEntry>>,
    ) -> Option<LedgerSnapshot> {
        let from = self.store.state_from().ok()??;
        if header.seq < from {
            return None;
        }
        let source: Arc<dyn StateSource> = Arc::new(StoredState {
            store: self.store.clone(),
            cache: self.cache.clone(),
        });
        let defaults = crate::ledger::fees::Fees::default();
        let fees = source
            .read_at(&keylet::fees(), header.seq)
            .map(|o| fees_of(&o, defaults))
            .unwrap_or(defaults);
        // The stored ledger's Amendments entry, over ledgerd's default presets (only reads
        // are served from a stored ledger).
        let rules = source
            .read_at(&keylet::amendments(), header.seq)
            .and_then(|o| Rules::from_entry(RuleBook::default().presets, Some(&o)).ok())
            .unwrap_or_default();
        let info = ViewInfo {
            seq: header.seq,
            parent_close_time: header.parent_close_time,
            fees,
            open: false,
            parent_hash: header.parent_hash,
            rules,
        };
        Some(LedgerSnapshot {
            view: StateView::stored(source, info),
            ledger: Some(Arc::new(ClosedLedger::stored_with_txs(
                header, fees, rules, txs,
            ))),
        })
    }

    /// The store's last ledger, when memory has it too, must be the same ledger.
    fn check_same_ledger(
        &self,
        ledgers: &Ledgers,
        range: Option<(u32, u32)>,
        file: &str,
    ) -> Result<(), String> {
        let Some((_, last)) = range else {
            return Ok(());
        };
        let in_memory = ledgers.by_seq(last).and_then(|s| s.ledger);
        let stored = self.store.header(last).map_err(|e| e.to_string())?;
        match (in_memory, stored) {
            (Some(m), Some(s)) if m.header.hash != s.hash => Err(format!(
                "history database {file} holds a different ledger {last} ({}) than the journal ({}); refusing to start",
                s.hash.to_hex(),
                m.header.hash.to_hex()
            )),
            _ => Ok(()),
        }
    }

    /// The first and last stored ledger.
    pub fn range(&self) -> Option<(u32, u32)> {
        self.store.range().ok().flatten()
    }
}

/// The history store's state as the ledger views read it.
struct StoredState {
    store: Arc<dyn HistoryStore>,
    cache: Option<Arc<StateCache>>,
}

/// An entry's stored bytes decoded; a store error or undecodable bytes are logged and read
/// as absent.
fn decode_entry(key: &Hash256, bytes: &[u8]) -> Option<Arc<StObject>> {
    match codec::decode(bytes) {
        Ok(o) => Some(Arc::new(o)),
        Err(e) => {
            tracing::warn!(key = %key.to_hex(), "history state entry does not decode: {e}");
            None
        }
    }
}

impl StateSource for StoredState {
    fn read_at(&self, key: &Hash256, seq: u32) -> Option<Arc<StObject>> {
        if let Some(hit) = self.cache.as_ref().and_then(|c| c.get(key, seq)) {
            return hit;
        }
        match self.store.state_entry(key, seq) {
            Ok(bytes) => {
                let entry = bytes.and_then(|b| decode_entry(key, &b));
                if let Some(cache) = &self.cache {
                    cache.put(key, seq, entry.clone());
                }
                entry
            }
            Err(e) => {
                tracing::warn!("history state read failed: {e}");
                None
            }
        }
    }

    fn page_at(
        &self,
        seq: u32,
        after: Option<&Hash256>,
        limit: usize,
    ) -> Vec<(Hash256, Arc<StObject>)> {
        match self.store.state_page(seq, after, limit) {
            Ok(rows) => rows
                .into_iter()
                .filter_map(|(k, b)| Some((k, decode_entry(&k, &b)?)))
                .collect(),
            Err(e) => {
                tracing::warn!("history state page failed: {e}");
                Vec::new()
            }
        }
    }
}

/// A stored transaction as the renderers take it (None when its bytes do not decode).
pub fn tx_entry(t: &StoredTx) -> Option<Arc<TxEntry>> {
    codec::decode(&t.blob).ok()?;
    let meta = codec::decode(&t.meta).ok()?;
    let ter = meta
        .get_u8("TransactionResult")
        .and_then(|c| Ter::from_code(i32::from(c)))
        .unwrap_or(Ter::tesSUCCESS);
    let delivered = t
        .delivered
        .as_deref()
        .and_then(|b| Amount::from_bytes(b).ok())
        .map(|(a, _)| a);
    Some(Arc::new(TxEntry {
        id: t.id,
        blob: t.blob.clone().into(),
        meta_blob: t.meta.clone().into(),
        ter,
        ledger_seq: t.ledger_seq,
        index: t.index,
        delivered,
    }))
}
