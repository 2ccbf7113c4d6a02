//! `serve --repair-history`: the history database rebuilt from what the journal still
//! holds, with the operator's consent to lose what it does not.
//!
//! A damaged database file is set aside (renamed, never deleted) and a new one created.
//! Replay then starts from the oldest base the journal still reaches (genesis, or its
//! oldest snapshot) and hands every ledger it closes to [`HistoryRepair::sink`], which
//! writes each one the database lacks or holds differently. What is still missing after
//! that (ledgers older than the journal reaches) cannot be rebuilt: history starts after
//! it (the start marker moves), ledgers the database kept before it are copied aside
//! with the whole file and removed from it, and the log says which ledgers were rebuilt
//! and which could not be.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::ledgers::{ClosedLedger, Ledgers};
use crate::node::persist::ReplaySink;
use crate::store::{set_aside, HistoryLedger, HistoryStore, SqliteHistory};

use super::check::{ranges_text, runs, txs_known};
use super::{history_ledger, state_rows, History};

/// The repair of one data directory's history database.
pub struct HistoryRepair {
    path: PathBuf,
    readers: usize,
    state: Mutex<RepairState>,
}

#[derive(Default)]
struct RepairState {
    /// The database, once opened (after the data directory's lock is held).
    store: Option<Arc<SqliteHistory>>,
    /// The damaged files set aside.
    set_aside: Vec<PathBuf>,
    /// Ledgers written from the replay.
    rebuilt: Vec<u32>,
    /// Ledgers replayed, waiting to be written in one transaction.
    pending: Vec<HistoryLedger>,
    /// Replay has handed its first ledger.
    started: bool,
}

fn names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

impl HistoryRepair {
    /// A repair of the database at `path` (opened with `readers` read connections).
    pub fn new(path: &Path, readers: usize) -> Arc<HistoryRepair> {
        Arc::new(HistoryRepair {
            path: path.to_path_buf(),
            readers,
            state: Mutex::new(RepairState::default()),
        })
    }

    /// What replay hands its ledgers to ([`crate::node::persist::PersistOptions::replay_sink`]).
    pub fn sink(self: &Arc<Self>) -> ReplaySink {
        let me = self.clone();
        Arc::new(move |ledgers: &Ledgers, closed: &Arc<ClosedLedger>| {
            me.replayed(ledgers, closed)
                .map_err(|e| format!("history repair: {e}"))
        })
    }

    /// The database, opened on first use: a damaged file is set aside and a new one made.
    fn open(&self, st: &mut RepairState) -> Result<Arc<SqliteHistory>, String> {
        if let Some(store) = &st.store {
            return Ok(store.clone());
        }
        let store = match SqliteHistory::open(&self.path, self.readers) {
            Ok(s) => s,
            Err(e) if e.is_history_damage() => {
                let moved = set_aside(&self.path).map_err(|e| e.to_string())?;
                tracing::warn!("history repair: {e}; set aside as {}", names(&moved));
                st.set_aside = moved;
                SqliteHistory::open(&self.path, self.readers).map_err(|e| e.to_string())?
            }
            Err(e) => return Err(e.to_string()),
        };
        let store = Arc::new(store);
        st.store = Some(store.clone());
        Ok(store)
    }

    /// One ledger replay closed. The first brings the base's ledgers before it that
    /// memory holds whole (a new ledger's first two, which have no transactions; not a
    /// snapshot's, whose transactions the snapshot does not keep).
    fn replayed(&self, ledgers: &Ledgers, closed: &Arc<ClosedLedger>) -> Result<(), String> {
        let mut st = self.state.lock();
        let store = self.open(&mut st)?;
        if !st.started {
            st.started = true;
            let (lo, _) = ledgers.complete_range();
            for seq in lo.max(1)..closed.header.seq {
                let base = ledgers.by_seq(seq).and_then(|s| s.ledger);
                if let Some(base) = base.filter(|l| txs_known(l)) {
                    self.take(&mut st, &store, ledgers, &base)?;
                }
            }
        }
        self.take(&mut st, &store, ledgers, closed)
    }

    fn take(
        &self,
        st: &mut RepairState,
        store: &SqliteHistory,
        ledgers: &Ledgers,
        closed: &Arc<ClosedLedger>,
    ) -> Result<(), String> {
        let seq = closed.header.seq;
        // A ledger again: a revert undid what was replayed from it on.
        st.pending.retain(|l| l.header.seq < seq);
        st.rebuilt.retain(|&s| s < seq);
        match store.header(seq).map_err(|e| e.to_string())? {
            Some(h) if h.hash == closed.header.hash => return Ok(()),
            Some(_) => {
                flush(st, store)?;
                store.delete_after(seq - 1).map_err(|e| e.to_string())?;
            }
            None => {}
        }
        st.pending.push(history_ledger(closed));
        st.rebuilt.push(seq);
        if store.state_from().map_err(|e| e.to_string())?.is_none() {
            flush(st, store)?;
            return write_base(store, ledgers, seq);
        }
        if st.pending.len() >= crate::limits::HISTORY_WRITE_BATCH_LEDGERS_MAX {
            flush(st, store)?;
        }
        Ok(())
    }

    /// The database after replay: what is pending written, opened now if replay closed no
    /// ledger.
    pub fn finish(&self) -> Result<Arc<SqliteHistory>, String> {
        let mut st = self.state.lock();
        let store = self.open(&mut st)?;
        flush(&mut st, &store)?;
        Ok(store)
    }

    /// After replay and the revert check: what history must hold and could not be rebuilt
    /// (ledgers older than the journal reaches) is given up with the operator's consent.
    /// History then starts after it; ledgers the database kept before that are copied
    /// aside and removed. Says what was rebuilt and what could not be.
    pub fn settle(
        &self,
        history: &History,
        store: &SqliteHistory,
        ledgers: &Ledgers,
    ) -> Result<(), String> {
        let st = self.state.lock();
        let file = store.file().to_owned();
        let (_, hi) = ledgers.complete_range();
        let marker = store.start();
        if let Err(e) = &marker {
            tracing::warn!("history repair: {e}; written again");
        }
        let first = match (
            marker.ok().flatten(),
            store.range().map_err(|e| e.to_string())?,
        ) {
            (Some(start), _) => start,
            (None, Some((first, _))) if st.set_aside.is_empty() => first,
            _ => 1,
        };
        store.set_start(first).map_err(|e| e.to_string())?;
        let lost = history.lacking(first, ledgers, hi)?.lost;
        let rebuilt = runs(&st.rebuilt);
        if rebuilt.is_empty() {
            tracing::warn!("history repair: {file}: no ledger needed rebuilding from the journal");
        } else {
            tracing::warn!(
                "history repair: {file}: rebuilt ledgers {} from the journal",
                ranges_text(&rebuilt)
            );
        }
        let Some(&(_, last_lost)) = lost.last() else {
            return Ok(());
        };
        let start = last_lost + 1;
        tracing::warn!(
            "history repair: {file}: ledgers {} could not be rebuilt: the journal no longer holds their transactions; history now starts at ledger {start}",
            ranges_text(&lost)
        );
        let older = store.range().map_err(|e| e.to_string())?;
        if older.is_some_and(|(first, _)| first < start) {
            let copy = store.copy_aside().map_err(|e| e.to_string())?;
            store.delete_before(start).map_err(|e| e.to_string())?;
            tracing::warn!(
                "history repair: {file}: the ledgers it held before ledger {start} are kept in {}",
                copy.display()
            );
        }
        store.set_start(start).map_err(|e| e.to_string())
    }
}

/// Writes the pending ledgers in place of what the store holds at their sequences.
fn flush(st: &mut RepairState, store: &SqliteHistory) -> Result<(), String> {
    if st.pending.is_empty() {
        return Ok(());
    }
    store.replace(&st.pending).map_err(|e| e.to_string())?;
    st.pending.clear();
    Ok(())
}

/// A new store's first ledger gets its whole state, from replay's memory.
fn write_base(store: &SqliteHistory, ledgers: &Ledgers, seq: u32) -> Result<(), String> {
    let Some(rows) = state_rows(ledgers, seq) else {
        return Ok(());
    };
    store
        .write_state_base(seq, &rows)
        .map_err(|e| e.to_string())
}
