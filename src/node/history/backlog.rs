//! Validated ledgers the history store has not written yet: its write failed (a read-only
//! file, a full disk, a lock another process holds). They are kept, in order, and written
//! before the next ledger at each close; a revert the store could not apply waits the same
//! way. Until the backlog is written `complete_ledgers` and the history reads end at the
//! last ledger the store holds (`Node::complete_range`).

use std::collections::VecDeque;
use std::sync::Arc;

use crate::ledgers::ClosedLedger;
use crate::limits::{HISTORY_BACKLOG_LEDGERS_MAX, HISTORY_WRITE_BATCH_LEDGERS_MAX};

use super::{history_ledger, History};

/// What the store still has to do, oldest first.
#[derive(Default)]
pub struct Backlog {
    /// Validated ledgers not written yet, consecutive.
    ledgers: VecDeque<Arc<ClosedLedger>>,
    /// A revert not applied yet: the store forgets its ledgers after this one first.
    forget_after: Option<u32>,
    /// The backlog filled up: ledgers after its last were not kept, so nothing more is
    /// written until a restart catches the store up from the journal.
    full_at: Option<u32>,
}

impl Backlog {
    /// Validated ledgers waiting to be written.
    pub fn len(&self) -> usize {
        self.ledgers.len()
    }

    /// True when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.ledgers.is_empty() && self.forget_after.is_none()
    }

    /// The last ledger kept when the backlog filled up (history stops there until a
    /// restart), if it did.
    pub fn full_at(&self) -> Option<u32> {
        self.full_at
    }

    /// Queues a validated ledger (dropped, once, when the backlog is full: a gap would
    /// follow).
    pub fn push(&mut self, closed: Arc<ClosedLedger>) {
        if self.full_at.is_some() {
            return;
        }
        if self.ledgers.len() >= HISTORY_BACKLOG_LEDGERS_MAX {
            let last = self.ledgers.back().map_or(0, |l| l.header.seq);
            tracing::error!(
                ledger = closed.header.seq,
                kept = self.ledgers.len(),
                "history backlog full: history stops at ledger {last} until a restart catches it up from the journal"
            );
            self.full_at = Some(last);
            return;
        }
        self.ledgers.push_back(closed);
    }

    /// A revert to ledger `seq`: the ledgers after it that wait are dropped, and the store
    /// is to forget its own after it.
    pub fn revert_to(&mut self, seq: u32) {
        self.ledgers.retain(|l| l.header.seq <= seq);
        self.forget_after = Some(self.forget_after.map_or(seq, |s| s.min(seq)));
        // The ledgers dropped when it filled up came after `full_at`: a revert to it or
        // before undoes them.
        if self.full_at.is_some_and(|at| seq <= at) {
            self.full_at = None;
        }
    }
}

impl History {
    /// Does what `backlog` holds, in order: a revert waiting, then the ledgers, a batch
    /// at a time, each batch followed by the online-delete trim. Stops at the first
    /// failure, keeping what is not done.
    pub fn write_backlog(&self, backlog: &mut Backlog) -> Result<(), String> {
        if let Some(seq) = backlog.forget_after {
            self.forget_after(seq)?;
            backlog.forget_after = None;
        }
        while !backlog.ledgers.is_empty() {
            let n = backlog.ledgers.len().min(HISTORY_WRITE_BATCH_LEDGERS_MAX);
            let batch: Vec<_> = backlog
                .ledgers
                .iter()
                .take(n)
                .map(|l| history_ledger(l))
                .collect();
            self.store.write(&batch).map_err(|e| e.to_string())?;
            let last = batch.last().map_or(0, |l| l.header.seq);
            backlog.ledgers.drain(..n);
            self.trim(last)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::header::LedgerHeader;
    use crate::ledgers::{LedgerConfig, Ledgers};
    use crate::protocol::types::Hash256;
    use crate::store::{
        AccountTxPage, AccountTxQuery, HistoryLedger, HistoryStore, SqliteHistory, StateRow,
        StoreError, StoreResult, StoredTx,
    };
    use std::sync::atomic::{AtomicBool, Ordering};

    /// An in-memory store whose writes fail while `failing` (a read-only file, a full
    /// disk).
    struct Flaky {
        inner: SqliteHistory,
        failing: AtomicBool,
    }

    impl Flaky {
        fn check(&self) -> StoreResult<()> {
            if self.failing.load(Ordering::SeqCst) {
                return Err(StoreError::History {
                    file: "flaky".into(),
                    reason: "attempt to write a readonly database".into(),
                });
            }
            Ok(())
        }
    }

    impl HistoryStore for Flaky {
        fn write(&self, l: &[HistoryLedger]) -> StoreResult<()> {
            self.check()?;
            self.inner.write(l)
        }
        fn range(&self) -> StoreResult<Option<(u32, u32)>> {
            self.inner.range()
        }
        fn header(&self, seq: u32) -> StoreResult<Option<LedgerHeader>> {
            self.inner.header(seq)
        }
        fn header_by_hash(&self, h: &Hash256) -> StoreResult<Option<LedgerHeader>> {
            self.inner.header_by_hash(h)
        }
        fn ledger_txs(&self, seq: u32) -> StoreResult<Vec<StoredTx>> {
            self.inner.ledger_txs(seq)
        }
        fn tx(&self, id: &Hash256) -> StoreResult<Option<StoredTx>> {
            self.inner.tx(id)
        }
        fn account_tx(&self, q: &AccountTxQuery) -> StoreResult<AccountTxPage> {
            self.inner.account_tx(q)
        }
        fn recent_txs(&self, start: u32, count: u32) -> StoreResult<Vec<StoredTx>> {
            self.inner.recent_txs(start, count)
        }
        fn state_from(&self) -> StoreResult<Option<u32>> {
            self.inner.state_from()
        }
        fn state_entry(&self, key: &Hash256, seq: u32) -> StoreResult<Option<Vec<u8>>> {
            self.inner.state_entry(key, seq)
        }
        fn state_page(
            &self,
            seq: u32,
            after: Option<&Hash256>,
            limit: usize,
        ) -> StoreResult<Vec<(Hash256, Vec<u8>)>> {
            self.inner.state_page(seq, after, limit)
        }
        fn write_state_base(&self, seq: u32, rows: &[StateRow]) -> StoreResult<()> {
            self.check()?;
            self.inner.write_state_base(seq, rows)
        }
        fn delete_before(&self, seq: u32) -> StoreResult<()> {
            self.check()?;
            self.inner.delete_before(seq)
        }
        fn delete_after(&self, seq: u32) -> StoreResult<()> {
            self.check()?;
            self.inner.delete_after(seq)
        }
    }

    fn setup() -> (Arc<Flaky>, History, Ledgers) {
        let flaky = Arc::new(Flaky {
            inner: SqliteHistory::in_memory().expect("open"),
            failing: AtomicBool::new(false),
        });
        let history = History {
            store: flaky.clone(),
            keep: None,
            advisory: None,
            cache: None,
        };
        let ledgers = Ledgers::genesis(LedgerConfig::default(), 1_000);
        history.catch_up(&ledgers, "flaky", false).expect("genesis");
        (flaky, history, ledgers)
    }

    #[test]
    fn ledgers_not_written_wait_in_order_and_are_written_once_the_store_can() {
        let (flaky, history, ledgers) = setup();
        let mut backlog = Backlog::default();
        // A new ledger holds ledgers 1 and 2; 3 is written.
        backlog.push(ledgers.close(1_010));
        history.write_backlog(&mut backlog).expect("written");
        assert_eq!(history.range(), Some((1, 3)));
        flaky.failing.store(true, Ordering::SeqCst);
        for t in [1_020, 1_030, 1_040] {
            backlog.push(ledgers.close(t));
            assert!(history.write_backlog(&mut backlog).is_err());
        }
        assert_eq!(backlog.len(), 3);
        assert_eq!(history.range(), Some((1, 3)), "nothing after the failure");
        flaky.failing.store(false, Ordering::SeqCst);
        backlog.push(ledgers.close(1_050));
        history.write_backlog(&mut backlog).expect("written");
        assert!(backlog.is_empty());
        assert_eq!(history.range(), Some((1, 7)));
        assert_eq!(history.store.missing(1, 7).expect("missing"), []);
    }

    #[test]
    fn a_revert_drops_what_waits_after_it_and_the_store_forgets_the_rest() {
        let (flaky, history, ledgers) = setup();
        let mut backlog = Backlog::default();
        for t in [1_010, 1_020] {
            backlog.push(ledgers.close(t));
        }
        history.write_backlog(&mut backlog).expect("written");
        flaky.failing.store(true, Ordering::SeqCst);
        backlog.push(ledgers.close(1_030));
        assert!(history.write_backlog(&mut backlog).is_err());
        // Ledgers 3 and 4 are written, 5 waits. A revert to ledger 3: ledger 5 (waiting)
        // goes, ledger 4 (stored) is forgotten once the store can be written.
        backlog.revert_to(3);
        assert_eq!(backlog.len(), 0);
        assert!(
            !backlog.is_empty(),
            "the store still has to forget ledger 4"
        );
        assert!(history.write_backlog(&mut backlog).is_err());
        flaky.failing.store(false, Ordering::SeqCst);
        history.write_backlog(&mut backlog).expect("forgotten");
        assert!(backlog.is_empty());
        assert_eq!(history.range(), Some((1, 3)));
    }
}
