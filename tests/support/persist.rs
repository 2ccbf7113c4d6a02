//! A test driver playing the sequencer's role over [`Persistence`]: apply, record_tx for
//! accepted submissions, close, record_close, after_close; plus funded users and ways to
//! compare two stores.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::accounts::account_seq;
use super::keys::keys;
use super::payment::payment_blob;
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::node::persist::{Durable, PersistError, PersistOptions, Persistence};
use ledgerd::protocol::codec;
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::types::{AccountId, Hash256};

/// Small settings so tests see several snapshots, segments and prunes.
pub fn small_options(snapshot_every: u32, history: u32) -> PersistOptions {
    let mut o = PersistOptions {
        snapshot_interval_ledgers: snapshot_every,
        history_ledgers: history,
        ..PersistOptions::default()
    };
    o.journal.segment_bytes_max = 16 * 1024;
    o
}

/// A ledger config with `history` closed ledgers kept.
pub fn cfg(history: u32) -> LedgerConfig {
    LedgerConfig {
        history_count: history,
        ..LedgerConfig::default()
    }
}

/// What the driver saw for one accepted submission.
#[derive(Debug, Clone)]
pub struct Acked {
    pub id: Hash256,
    pub ter: String,
    pub applied: bool,
    pub held: bool,
    pub ledger_seq: Option<u32>,
}

/// The sequencer's role, single-threaded.
pub struct Driver {
    pub persist: Arc<Persistence>,
    pub store: Arc<Ledgers>,
    pub pending: Vec<(Acked, Durable)>,
    pub acked: Vec<Acked>,
    pub close_time: u32,
}

impl Driver {
    pub fn open(
        dir: &Path,
        cfg: LedgerConfig,
        opts: PersistOptions,
    ) -> Result<Driver, PersistError> {
        let (persist, store) = Persistence::open_with(dir, cfg, opts)?;
        let close_time = store.closed().ledger.map_or(0, |l| l.header.close_time) + 10;
        Ok(Driver {
            persist,
            store,
            pending: Vec::new(),
            acked: Vec::new(),
            close_time,
        })
    }

    /// Applies and journals (when accepted); the Durable is kept to wait on later, as the
    /// server's responder would.
    pub fn submit(&mut self, blob: &[u8]) -> Option<Acked> {
        let r = self.store.apply_blob(blob).expect("decodes");
        if !(r.applied || r.held) {
            return None;
        }
        let d = self.persist.record_tx(blob, &r);
        let a = Acked {
            id: r.id,
            ter: r.ter.to_string(),
            applied: r.applied,
            held: r.held,
            ledger_seq: r.entry.as_ref().map(|e| e.ledger_seq),
        };
        self.pending.push((a.clone(), d));
        Some(a)
    }

    /// Closes, journals the close, waits for every pending record (the replies), then
    /// lets persistence snapshot.
    pub fn close(&mut self) -> Result<Hash256, PersistError> {
        self.close_time += 3;
        let closed = self.store.close(self.close_time);
        let d = self.persist.record_close(&closed);
        self.flush()?;
        d.wait()?;
        self.persist.after_close(&self.store);
        Ok(closed.header.hash)
    }

    /// Submits a payment of `drops` from `from`, at its next sequence, to `to`.
    pub fn pay(&mut self, from: &KeyPair, to: &AccountId, drops: u64) -> Option<Acked> {
        let seq = account_seq(&self.store, &from.account_id());
        self.submit(&payment_blob(from, seq, to, drops))
    }

    /// The acknowledged transactions the store still has: id -> (result, ledger, index).
    pub fn acked_txs(&self) -> HashMap<Hash256, (String, u32, u32)> {
        self.acked
            .iter()
            .filter_map(|a| self.store.tx(&a.id))
            .map(|e| (e.id, (e.ter.to_string(), e.ledger_seq, e.index)))
            .collect()
    }

    /// Waits for every pending Durable; the acknowledged ones move to `acked`.
    pub fn flush(&mut self) -> Result<(), PersistError> {
        let mut first_err = None;
        for (a, d) in self.pending.drain(..) {
            match d.wait() {
                Ok(()) => self.acked.push(a),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Every entry of the last closed ledger, encoded, sorted by key.
pub fn closed_state(store: &Ledgers) -> (Hash256, Vec<(Hash256, Vec<u8>)>) {
    let (h, entries) = store.export_closed();
    (
        h.hash,
        entries
            .into_iter()
            .map(|(k, v)| (k, codec::encode(&v)))
            .collect(),
    )
}

/// Hashes of every closed ledger in history.
pub fn history_hashes(store: &Ledgers) -> Vec<(u32, Hash256)> {
    let (first, last) = store.complete_range();
    (first..=last)
        .filter_map(|s| {
            store
                .by_seq(s)
                .and_then(|l| l.ledger.map(|l| (s, l.header.hash)))
        })
        .collect()
}

/// Funds `n` accounts named `user<i>` from the genesis account; returns their keys.
pub fn fund_users(d: &mut Driver, n: usize) -> Vec<KeyPair> {
    let master = keys("masterpassphrase");
    let first = master_seq(&d.store);
    let users: Vec<KeyPair> = (0..n).map(|i| keys(&format!("user{i}"))).collect();
    for (seq, u) in (first..).zip(users.iter()) {
        let a = d.submit(&payment_blob(&master, seq, &u.account_id(), 1_000_000_000));
        assert!(a.is_some_and(|a| a.applied), "funding applies");
    }
    users
}

/// The next sequence of the genesis account.
pub fn master_seq(store: &Ledgers) -> u32 {
    account_seq(store, &keys("masterpassphrase").account_id())
}
