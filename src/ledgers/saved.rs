//! Saved states (`ledger_snapshot` / `ledger_revert`, as Anvil's `evm_snapshot` /
//! `evm_revert`): a saved state is the last closed ledger, the open ledger as it stood
//! (its transactions, held set, fees burnt) and the state's published stamp. Reverting
//! forgets every state version written after that stamp, the closed ledgers after that
//! ledger and their transactions, and puts the open ledger back.
//!
//! The state keeps old versions only down to its history floor, so every saved state
//! pins the floor at or below its ledger ([`Ledgers::pinned_seq`]): a saved state never
//! expires by age. Their number is bounded ([`LEDGER_SNAPSHOTS_MAX`]); saving one more
//! forgets the oldest. Reverting to one forgets it and every later one (Anvil's rule).

use std::sync::Arc;

use super::{ClosedLedger, Ledgers, Open};
use crate::ledger::state::Stamp;
use crate::limits::LEDGER_SNAPSHOTS_MAX;

/// One saved state.
struct Saved {
    id: u64,
    closed: Arc<ClosedLedger>,
    published: Stamp,
    open: Open,
}

/// The saved states of a [`Ledgers`], oldest first.
#[derive(Default)]
pub struct SavedStates {
    last_id: u64,
    list: Vec<Saved>,
}

/// Why a revert was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RevertError {
    /// No saved state has this ID (never taken, reverted already, or forgotten).
    #[error("no snapshot {0}")]
    NotFound(u64),
}

impl Ledgers {
    /// Saves the current state (last closed ledger and open ledger) and returns its ID
    /// (1, 2, ... never reused).
    pub fn save_state(&self) -> u64 {
        let open = self.writer.lock();
        let closed = match self.history.read().back() {
            Some(l) => l.clone(),
            None => return 0,
        };
        let mut saved = self.saved.lock();
        saved.last_id += 1;
        let id = saved.last_id;
        saved.list.push(Saved {
            id,
            closed,
            published: self.state.published(),
            open: open.clone(),
        });
        let excess = saved.list.len().saturating_sub(LEDGER_SNAPSHOTS_MAX);
        saved.list.drain(..excess);
        id
    }

    /// The IDs of the saved states, oldest first.
    pub fn saved_ids(&self) -> Vec<u64> {
        self.saved.lock().list.iter().map(|s| s.id).collect()
    }

    /// The oldest ledger a saved state needs (u32::MAX when none is saved): the state's
    /// history floor stays at or below it.
    pub(super) fn pinned_seq(&self) -> u32 {
        self.saved
            .lock()
            .list
            .iter()
            .map(|s| s.closed.header.seq)
            .min()
            .unwrap_or(u32::MAX)
    }

    /// Puts back the state saved as `id`, forgetting it and every later saved state, and
    /// returns the closed ledger it restored as the last closed one.
    pub fn revert(&self, id: u64) -> Result<Arc<ClosedLedger>, RevertError> {
        let mut open = self.writer.lock();
        let saved = {
            let mut states = self.saved.lock();
            let pos = states
                .list
                .iter()
                .position(|s| s.id == id)
                .ok_or(RevertError::NotFound(id))?;
            let mut later = states.list.split_off(pos);
            later.swap_remove(0)
        };
        self.drop_history_after(&saved.closed);
        for t in &open.txs {
            self.txs.remove(&t.id);
        }
        self.state.truncate_after(saved.published);
        *open = saved.open;
        open.queue.forget_txs();
        for t in &open.txs {
            self.txs.insert(t.id, t.clone());
        }
        *self.open_info.write() = open.info;
        Ok(saved.closed)
    }

    /// Forgets the closed ledgers after `last` (and their transactions); `last` becomes
    /// the last closed ledger (alone, when it had left memory's window).
    fn drop_history_after(&self, last: &Arc<ClosedLedger>) {
        let mut h = self.history.write();
        while h.back().is_some_and(|l| l.header.seq > last.header.seq) {
            if let Some(l) = h.pop_back() {
                for t in &l.txs {
                    self.txs.remove(&t.id);
                }
            }
        }
        if h.back().map(|l| l.header.hash) != Some(last.header.hash) {
            h.clear();
            h.push_back(last.clone());
            for t in &last.txs {
                self.txs.insert(t.id, t.clone());
            }
        }
        self.recount_window(&h);
    }
}
