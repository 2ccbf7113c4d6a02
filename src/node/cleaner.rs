//! The ledger cleaner (rippled's `LedgerCleaner`, started by the admin method
//! `ledger_cleaner`): a background walk over validated ledgers, newest first, that checks
//! each one the history store holds and rewrites the ones that do not check out.
//!
//! rippled's cleaner re-acquires a bad ledger from its peers and saves it to its SQL
//! databases again. ledgerd has no peers: a ledger is checked against what ledgerd itself
//! knows (its own hash, the next ledger's parent hash, memory's copy), and one that fails is
//! rewritten from memory when memory still holds it (a writer only); otherwise it is
//! counted as a failure, logged, and the walk goes on (rippled retries it every 2 s,
//! waiting for the network to supply it).
//!
//! Each ledger's checks: its header is stored and hashes to its hash, which is the hash
//! expected of that sequence (memory's ledger, else the parent hash of the ledger above
//! it); with `fix_txns` its stored transactions hash to the header's transaction hash;
//! with `check_nodes` the store can read its state (rippled walks every node of the
//! ledger's trees).
//!
//! The parameters are rippled's: `ledger` (one ledger, both checks), `min_ledger`,
//! `max_ledger` (default: the validated ledgers held), `full` (both checks), `fix_txns`,
//! `check_nodes`, `stop`.

use super::history::history_ledger;
use super::Node;
use crate::ledger::shamap::{tx_leaf_hash, ShaMap};
use crate::protocol::types::Hash256;
use parking_lot::Mutex;
use serde_json::{Map, Value};
use std::sync::Arc;

/// What a `ledger_cleaner` request asks for (rippled's `LedgerCleaner::clean` parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CleanRequest {
    /// One ledger to clean (both checks).
    pub ledger: Option<u32>,
    /// The lowest ledger to clean.
    pub min_ledger: Option<u32>,
    /// The highest ledger to clean.
    pub max_ledger: Option<u32>,
    /// Both checks (or neither).
    pub full: Option<bool>,
    /// Check the transactions.
    pub fix_txns: Option<bool>,
    /// Check that the state can be read.
    pub check_nodes: Option<bool>,
    /// Stop the walk in progress.
    pub stop: bool,
}

/// The walk's state: the range still to check (0, 0 when idle), its options, and the
/// failures met.
#[derive(Clone, Copy, Debug, Default)]
struct Walk {
    min: u32,
    max: u32,
    check_nodes: bool,
    fix_txns: bool,
    failures: u32,
    /// A thread is walking.
    running: bool,
}

/// The cleaner of one node's history.
pub struct LedgerCleaner {
    node: Arc<Node>,
    walk: Mutex<Walk>,
}

/// How one ledger came out.
#[derive(Debug, PartialEq, Eq)]
enum Checked {
    Good,
    Rewritten,
    Failed(String),
}

impl LedgerCleaner {
    /// A cleaner of `node`'s validated ledgers, idle.
    pub fn new(node: Arc<Node>) -> LedgerCleaner {
        LedgerCleaner {
            node,
            walk: Mutex::new(Walk::default()),
        }
    }

    /// Sets the walk as rippled's `clean` does (the validated ledgers held, then the
    /// request's options over them) and starts a thread to walk it if none is walking.
    pub fn clean(self: &Arc<Self>, req: CleanRequest) {
        let (lo, hi) = self.node.complete_range();
        let mut w = self.walk.lock();
        w.min = lo;
        w.max = hi;
        w.check_nodes = false;
        w.fix_txns = false;
        w.failures = 0;
        if let Some(seq) = req.ledger {
            (w.min, w.max, w.check_nodes, w.fix_txns) = (seq, seq, true, true);
        }
        w.max = req.max_ledger.unwrap_or(w.max);
        w.min = req.min_ledger.unwrap_or(w.min);
        if let Some(full) = req.full {
            (w.check_nodes, w.fix_txns) = (full, full);
        }
        w.fix_txns = req.fix_txns.unwrap_or(w.fix_txns);
        w.check_nodes = req.check_nodes.unwrap_or(w.check_nodes);
        if req.stop {
            (w.min, w.max) = (0, 0);
        }
        if w.running {
            return;
        }
        w.running = true;
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name("ledger-cleaner".into())
            .spawn(move || me.run());
        if let Err(e) = spawned {
            tracing::error!("the ledger cleaner cannot start: {e}");
            w.running = false;
        }
    }

    /// rippled's `onWrite` for the cleaner: `status` idle, or running with the range still
    /// to check, its options and `fail_counts` when there were failures.
    pub fn status_json(&self) -> Value {
        let w = *self.walk.lock();
        let mut o = Map::new();
        if w.max == 0 {
            o.insert("status".into(), Value::from("idle"));
            return Value::Object(o);
        }
        o.insert("status".into(), Value::from("running"));
        o.insert("min_ledger".into(), Value::from(w.min));
        o.insert("max_ledger".into(), Value::from(w.max));
        o.insert("check_nodes".into(), Value::from(w.check_nodes.to_string()));
        o.insert("fix_txns".into(), Value::from(w.fix_txns.to_string()));
        if w.failures > 0 {
            o.insert("fail_counts".into(), Value::from(w.failures));
        }
        Value::Object(o)
    }

    /// Walks from the top of the range down until it is empty (rippled's
    /// `doLedgerCleaner`).
    fn run(&self) {
        let pause = std::time::Duration::from_millis(crate::limits::LEDGER_CLEANER_PAUSE_MILLIS);
        let mut expected: Option<(u32, Hash256)> = None;
        loop {
            let (seq, nodes, txns) = {
                let mut w = self.walk.lock();
                if w.min > w.max || w.max == 0 || w.min == 0 {
                    (w.min, w.max, w.running) = (0, 0, false);
                    return;
                }
                (w.max, w.check_nodes, w.fix_txns)
            };
            // The parent hash of the ledger just above, when that was the last one checked.
            let above = expected.filter(|(s, _)| *s == seq).map(|(_, h)| h);
            let outcome = self.check(seq, above, nodes, txns);
            expected = self
                .stored_parent(seq)
                .map(|parent| (seq.saturating_sub(1), parent));
            let mut w = self.walk.lock();
            match &outcome {
                Checked::Good => {}
                Checked::Rewritten => tracing::warn!(
                    ledger = seq,
                    "ledger cleaner: rewrote the stored ledger from memory"
                ),
                Checked::Failed(why) => {
                    tracing::warn!(ledger = seq, "ledger cleaner: {why}");
                    w.failures += 1;
                }
            }
            if seq == w.min {
                w.min += 1;
            }
            if seq == w.max {
                w.max -= 1;
            }
            drop(w);
            std::thread::sleep(pause);
        }
    }

    /// The parent hash the store holds for ledger `seq`, once checked.
    fn stored_parent(&self, seq: u32) -> Option<Hash256> {
        let h = self.node.history.store.header(seq).ok()??;
        (h.compute_hash() == h.hash).then_some(h.parent_hash)
    }

    /// Checks ledger `seq` and rewrites it from memory when it fails.
    fn check(&self, seq: u32, above: Option<Hash256>, nodes: bool, txns: bool) -> Checked {
        let memory = self
            .node
            .ledgers
            .by_seq(seq)
            .and_then(|s| s.ledger)
            .filter(|l| !l.changes.entries.is_empty());
        let expected = memory.as_ref().map(|l| l.header.hash).or(above);
        let problem = match self.problem(seq, expected, nodes, txns) {
            None => return Checked::Good,
            Some(p) => p,
        };
        let Some(l) = memory.filter(|_| self.node.writer().is_some()) else {
            return Checked::Failed(problem);
        };
        let in_store = matches!(self.node.history.store.range(), Ok(Some((lo, hi))) if (lo..=hi).contains(&seq));
        if !in_store {
            return Checked::Failed(problem);
        }
        if let Err(e) = self.node.history.store.replace(&[history_ledger(&l)]) {
            return Checked::Failed(format!("{problem}; rewriting it failed: {e}"));
        }
        match self.problem(seq, expected, nodes, txns) {
            None => Checked::Rewritten,
            Some(still) => Checked::Failed(format!("{problem}; rewritten, still {still}")),
        }
    }

    /// What is wrong with the stored ledger `seq`, if anything.
    fn problem(
        &self,
        seq: u32,
        expected: Option<Hash256>,
        nodes: bool,
        txns: bool,
    ) -> Option<String> {
        let store = &self.node.history.store;
        let header = match store.header(seq) {
            Ok(Some(h)) => h,
            Ok(None) => return Some("not in the history store".into()),
            Err(e) => return Some(format!("cannot be read: {e}")),
        };
        if header.compute_hash() != header.hash {
            return Some("its stored header does not hash to its hash".into());
        }
        if expected.is_some_and(|e| e != header.hash) {
            return Some("its stored hash is not the ledger's".into());
        }
        if txns {
            let stored = match store.ledger_txs(seq) {
                Ok(t) => t,
                Err(e) => return Some(format!("its transactions cannot be read: {e}")),
            };
            let mut map = ShaMap::new();
            for t in &stored {
                map.insert(t.id, tx_leaf_hash(&t.id, &t.blob, &t.meta));
            }
            if map.hash() != header.transaction_hash {
                return Some("its stored transactions do not hash to its transaction hash".into());
            }
        }
        if nodes && !matches!(store.state_from(), Ok(Some(from)) if from <= seq) {
            return Some("its state is not in the history store".into());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledgers::{LedgerConfig, Ledgers};
    use std::time::{Duration, Instant};

    fn node_with_ledgers(closes: u32) -> Arc<Node> {
        let ledgers = Arc::new(Ledgers::genesis(LedgerConfig::default(), 1_000));
        let node = Node::new(ledgers.clone(), 0);
        for i in 0..closes {
            let closed = ledgers.close(2_000 + i * 10);
            node.record_history(&closed);
        }
        node
    }

    fn wait_idle(c: &LedgerCleaner) {
        let start = Instant::now();
        while c.walk.lock().running {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the cleaner never finished"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_clean_history_checks_out_and_the_cleaner_goes_idle() {
        let node = node_with_ledgers(5);
        let c = Arc::new(LedgerCleaner::new(node));
        c.clean(CleanRequest {
            full: Some(true),
            ..CleanRequest::default()
        });
        wait_idle(&c);
        assert_eq!(c.status_json()["status"], "idle");
        assert_eq!(c.walk.lock().failures, 0);
    }

    #[test]
    fn the_range_and_options_follow_rippled() {
        let node = node_with_ledgers(3);
        let c = Arc::new(LedgerCleaner::new(node));
        // A thread already walking keeps walking: mark one so this request only sets.
        c.walk.lock().running = true;
        c.clean(CleanRequest {
            ledger: Some(3),
            ..CleanRequest::default()
        });
        let s = c.status_json();
        assert_eq!(s["status"], "running");
        assert_eq!(
            (s["min_ledger"].clone(), s["max_ledger"].clone()),
            (3.into(), 3.into())
        );
        assert_eq!(
            (s["check_nodes"].clone(), s["fix_txns"].clone()),
            ("true".into(), "true".into())
        );
        c.clean(CleanRequest {
            stop: true,
            ..CleanRequest::default()
        });
        assert_eq!(c.status_json()["status"], "idle");
    }

    #[test]
    fn a_damaged_stored_ledger_is_found() {
        let node = node_with_ledgers(4);
        // Ledger 3's stored header altered (a close time that is not the ledger's).
        let mut bad = history_ledger(&node.ledgers.by_seq(3).unwrap().ledger.unwrap());
        bad.header.close_time += 1;
        bad.header.hash = bad.header.compute_hash();
        node.history.store.replace(&[bad]).unwrap();
        let c = Arc::new(LedgerCleaner::new(node.clone()));
        assert_eq!(
            c.problem(
                3,
                Some(node.ledgers.by_seq(3).unwrap().ledger.unwrap().header.hash),
                false,
                false
            ),
            Some("its stored hash is not the ledger's".into())
        );
        // No writer: nothing may be rewritten, the ledger counts as a failure.
        c.clean(CleanRequest::default());
        wait_idle(&c);
        assert_eq!(c.walk.lock().failures, 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_writer_rewrites_a_damaged_ledger_from_memory() {
        let (persistence, ledgers) =
            crate::node::persist::Persistence::ephemeral(LedgerConfig::default());
        let node = Node::new(ledgers.clone(), 0);
        let tasks = crate::node::start(&node, persistence, 0).unwrap();
        let now = crate::protocol::time::ripple_now_secs() as u32;
        for i in 0..3 {
            node.record_history(&ledgers.close(now + 10 * (i + 1)));
        }
        let good = node
            .ledgers
            .by_seq(3)
            .unwrap()
            .ledger
            .unwrap()
            .header
            .clone();
        let mut bad = history_ledger(&node.ledgers.by_seq(3).unwrap().ledger.unwrap());
        bad.txs.clear();
        bad.header.transaction_hash = Hash256([7; 32]);
        bad.header.hash = bad.header.compute_hash();
        node.history.store.replace(&[bad]).unwrap();
        let c = Arc::new(LedgerCleaner::new(node.clone()));
        c.clean(CleanRequest {
            ledger: Some(3),
            ..CleanRequest::default()
        });
        let c2 = c.clone();
        tokio::task::spawn_blocking(move || wait_idle(&c2))
            .await
            .unwrap();
        assert_eq!(c.walk.lock().failures, 0);
        assert_eq!(node.history.store.header(3).unwrap(), Some(good));
        tasks.stop().await;
    }
}
