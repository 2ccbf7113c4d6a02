//! Restart time for a large ledger: builds a data directory of `--txs` applied Payments
//! through the persistence API directly (the sequencer's role, no server), then times
//! `Persistence::open` on it.
//!
//! ```text
//! cargo run --release --example restart_time -- [--txs 1000000] [--accounts 1000]
//!     [--dir DIR] [--no-snapshots] [--keep]
//! ```
//! Every ledger holds one Payment from each account (`--accounts` per ledger) and is closed
//! and journaled like the server does (apply, record_tx, close, record_close, wait for the
//! group commit, after_close). With the default options snapshots are written every
//! `SNAPSHOT_INTERVAL_LEDGERS` ledgers and a restart replays from one old enough to rebuild
//! the history; `--no-snapshots` writes none, so the restart replays from genesis.
//! Each closed ledger is also written to the history store (`history.sqlite`, with its
//! transactions, account index and changed entries) as the publisher writes it, and the
//! restart opens that store and catches it up as the server does at start.
//! The directory (default: a fresh one under the target directory) is removed afterwards
//! unless `--keep`.

// The keys, signed payments and account lookups the tests use.
#[allow(dead_code)]
#[path = "../tests/support/accounts.rs"]
mod accounts;
#[allow(dead_code)]
#[path = "../tests/support/keys.rs"]
mod keys;
#[allow(dead_code)]
#[path = "../tests/support/payment.rs"]
mod payment;

use accounts::account_seq;
use keys::keys;
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::node::history::History;
use ledgerd::node::persist::{PersistOptions, Persistence};
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::types::AccountId;
use ledgerd::store::SqliteHistory;
use payment::payment_blob;
use std::path::{Path, PathBuf};
use std::time::Instant;

struct Options {
    txs: usize,
    accounts: usize,
    dir: Option<PathBuf>,
    snapshots: bool,
    keep: bool,
}

fn options() -> Options {
    let mut o = Options {
        txs: 1_000_000,
        accounts: 1_000,
        dir: None,
        snapshots: true,
        keep: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1);
        match (args[i].as_str(), v) {
            ("--no-snapshots", _) => o.snapshots = false,
            ("--keep", _) => o.keep = true,
            ("--txs", Some(v)) => {
                o.txs = v.parse().unwrap_or(o.txs);
                i += 1;
            }
            ("--accounts", Some(v)) => {
                o.accounts = v.parse().unwrap_or(o.accounts).max(1);
                i += 1;
            }
            ("--dir", Some(v)) => {
                o.dir = Some(PathBuf::from(v));
                i += 1;
            }
            (other, _) => eprintln!("ignoring {other}"),
        }
        i += 1;
    }
    o
}

fn persist_options(snapshots: bool) -> PersistOptions {
    let mut o = PersistOptions::default();
    if !snapshots {
        o.snapshot_interval_ledgers = 0;
    }
    o
}

fn dir_bytes(p: &Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(p) else {
        return 0;
    };
    rd.filter_map(Result::ok)
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_bytes(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

/// Sender `a`'s payment of round `r`, to the next account along (all exist).
fn sign_round(users: &[KeyPair], seqs: &[u32], r: usize) -> Vec<Vec<u8>> {
    let n = users.len();
    let ids: Vec<AccountId> = users.iter().map(KeyPair::account_id).collect();
    (0..n)
        .map(|a| {
            let to = &ids[(a + 1 + r % (n - 1).max(1)) % n];
            payment_blob(&users[a], seqs[a] + r as u32, to, 1 + (r % 7) as u64)
        })
        .collect()
}

/// The data directory's history store, as the server opens it.
fn history(dir: &Path) -> History {
    let path = dir.join("history.sqlite");
    let store = SqliteHistory::open(&path, ledgerd::limits::HISTORY_READERS)
        .expect("open the history store");
    History {
        store: std::sync::Arc::new(store),
        keep: None,
        advisory: None,
        cache: None,
    }
}

/// Build the directory; returns the number of applied transactions.
fn build(dir: &Path, o: &Options) -> u64 {
    let (persist, store) =
        Persistence::open_with(dir, LedgerConfig::default(), persist_options(o.snapshots))
            .expect("open a new data directory");
    let history = history(dir);
    history
        .catch_up(&store, "history.sqlite", false)
        .expect("a new history store catches up");
    let mut close_time = 10u32;
    let mut close = |store: &std::sync::Arc<Ledgers>, pending: &mut Vec<_>| {
        close_time += 3;
        let closed = store.close(close_time);
        let d = persist.record_close(&closed);
        for p in pending.drain(..) {
            ledgerd::node::persist::Durable::wait(p).expect("durable");
        }
        d.wait().expect("close durable");
        history.record(&closed).expect("history written");
        persist.after_close(store);
    };
    let master = keys("masterpassphrase");
    let users: Vec<KeyPair> = (0..o.accounts).map(|i| keys(&format!("user{i}"))).collect();
    let first = account_seq(&store, &master.account_id());
    let mut pending = Vec::new();
    let mut applied = 0u64;
    for (seq, u) in (first..).zip(users.iter()) {
        let blob = payment_blob(&master, seq, &u.account_id(), 1_000_000_000);
        let r = store.apply_blob(&blob).expect("decodes");
        assert!(r.applied, "funding applies");
        pending.push(persist.record_tx(&blob, &r));
        applied += 1;
    }
    close(&store, &mut pending);
    let seqs: Vec<u32> = users
        .iter()
        .map(|u| account_seq(&store, &u.account_id()))
        .collect();
    let rounds = o.txs.saturating_sub(o.accounts).div_ceil(o.accounts);
    // Sign round r+1 on another thread while round r is applied (signing is the same
    // order of cost as applying).
    let mut next = Some(std::thread::scope(|s| {
        s.spawn(|| sign_round(&users, &seqs, 0))
            .join()
            .expect("signer")
    }));
    let started = Instant::now();
    for r in 0..rounds {
        let blobs = next.take().unwrap_or_default();
        std::thread::scope(|s| {
            let signer = (r + 1 < rounds).then(|| s.spawn(|| sign_round(&users, &seqs, r + 1)));
            for blob in &blobs {
                let res = store.apply_blob(blob).expect("decodes");
                assert!(res.applied, "payment applies: {}", res.ter);
                pending.push(persist.record_tx(blob, &res));
                applied += 1;
            }
            next = signer.map(|h| h.join().expect("signer"));
        });
        close(&store, &mut pending);
        if (r + 1) % 100 == 0 {
            eprintln!(
                "  {} ledgers, {applied} transactions, {:.0} tx/s",
                r + 1,
                applied as f64 / started.elapsed().as_secs_f64()
            );
        }
    }
    drop(store);
    drop(persist);
    applied
}

fn main() {
    let o = options();
    let (dir, _temp) = match &o.dir {
        Some(d) => (d.clone(), None),
        None => {
            let exe = std::env::current_exe().expect("current exe");
            let target = exe.parent().and_then(|p| p.parent()).expect("target dir");
            let t = tempfile::Builder::new()
                .prefix("restart-data-")
                .tempdir_in(target)
                .expect("temporary directory");
            (t.path().join("data"), Some(t))
        }
    };
    println!(
        "building {} ({} transactions, {} accounts, one ledger per {} transactions, snapshots {})",
        dir.display(),
        o.txs,
        o.accounts,
        o.accounts,
        if o.snapshots { "as configured" } else { "off" }
    );
    let t = Instant::now();
    let applied = build(&dir, &o);
    let build_secs = t.elapsed().as_secs_f64();
    let bytes = dir_bytes(&dir);
    println!(
        "built: {applied} applied transactions in {build_secs:.1} s ({:.0} tx/s); data directory {:.1} MiB (journal {:.1} MiB, snapshots {:.1} MiB)",
        applied as f64 / build_secs,
        bytes as f64 / 1048576.0,
        dir_bytes(&dir.join("journal")) as f64 / 1048576.0,
        dir_bytes(&dir.join("snapshots")) as f64 / 1048576.0,
    );
    let t = Instant::now();
    let (persist, store) =
        Persistence::open_with(&dir, LedgerConfig::default(), persist_options(o.snapshots))
            .expect("reopen");
    let open_secs = t.elapsed().as_secs_f64();
    let h = Instant::now();
    let history = history(&dir);
    history
        .catch_up(&store, "history.sqlite", false)
        .expect("history catches up");
    let history_secs = h.elapsed().as_secs_f64();
    let (lo, hi) = store.complete_range();
    println!(
        "restart: Persistence::open in {open_secs:.2} s, recovered from {}; ledgers {lo}-{hi} in memory; history store opened and caught up in {history_secs:.2} s, ledgers {:?}, {:.1} MiB; total {:.2} s",
        persist.stats_json()["recovered_from"],
        history.range(),
        std::fs::metadata(dir.join("history.sqlite")).map(|m| m.len()).unwrap_or(0) as f64
            / 1048576.0,
        t.elapsed().as_secs_f64(),
    );
    drop(store);
    drop(persist);
    if o.keep {
        println!("kept {}", dir.display());
    } else if o.dir.is_some() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
