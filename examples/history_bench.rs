//! The history store's workload on SQLite (the server's `SqliteHistory`) and on redb, in one
//! run: ledgers of payments written one store transaction per ledger, then account_tx pages
//! of 20 (newest first, resuming at markers) for an account with thousands of transactions.
//!
//! ```text
//! cargo run --release --example history_bench -- [--ledgers 500] [--per-ledger 200]
//! ```
//! Each payment is indexed under its sender (one of 1,000) and its receiver (one hot account
//! that receives every payment); blobs of 300 bytes and metadata of 400, as a signed payment
//! and its metadata are. Figures: medians of 3 runs of each engine, interleaved.

#[path = "common/args.rs"]
mod args;
use args::arg;
use std::path::Path;
use std::time::Instant;

use ledgerd::ledger::header::LedgerHeader;
use ledgerd::protocol::types::{AccountId, Hash256};
use ledgerd::store::{
    AccountTxQuery, HistoryLedger, HistoryStore, HistoryTx, SqliteHistory, StateChanges,
};
use redb::{Database, TableDefinition};

const TXS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("txs");
const ACCOUNT_TXS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("account_txs");
const HOT: AccountId = AccountId([0xEE; 20]);
const PAGE: u32 = 20;

fn sender(n: u32) -> AccountId {
    let mut a = [0u8; 20];
    a[..4].copy_from_slice(&(n % 1000).to_be_bytes());
    AccountId(a)
}

fn ledger(seq: u32, per: u32) -> HistoryLedger {
    let header = LedgerHeader {
        seq,
        total_drops: 1,
        parent_hash: Hash256::ZERO,
        transaction_hash: Hash256::ZERO,
        account_hash: Hash256::ZERO,
        parent_close_time: seq,
        close_time: seq + 1,
        close_time_resolution: 10,
        close_flags: 0,
        hash: Hash256::ZERO,
    };
    let header = LedgerHeader {
        hash: header.compute_hash(),
        ..header
    };
    let txs = (0..per)
        .map(|i| {
            let mut id = [0u8; 32];
            id[..4].copy_from_slice(&seq.to_be_bytes());
            id[4..8].copy_from_slice(&i.to_be_bytes());
            HistoryTx {
                id: Hash256(id),
                index: i,
                blob: vec![i as u8; 300],
                meta: vec![seq as u8; 400],
                delivered: None,
                accounts: vec![sender(seq * per + i), HOT],
            }
        })
        .collect();
    HistoryLedger {
        header,
        txs,
        state: Vec::new(),
        changes: StateChanges::Delta,
    }
}

fn account_key(a: &AccountId, seq: u32, idx: u32) -> Vec<u8> {
    let mut k = a.0.to_vec();
    k.extend_from_slice(&seq.to_be_bytes());
    k.extend_from_slice(&idx.to_be_bytes());
    k
}

fn redb_write(db: &Database, l: &HistoryLedger) {
    let w = db.begin_write().expect("begin");
    {
        let mut txs = w.open_table(TXS).expect("txs");
        let mut index = w.open_table(ACCOUNT_TXS).expect("index");
        for t in &l.txs {
            let mut v = l.header.seq.to_be_bytes().to_vec();
            v.extend_from_slice(&t.index.to_be_bytes());
            v.extend_from_slice(&(t.blob.len() as u32).to_be_bytes());
            v.extend_from_slice(&t.blob);
            v.extend_from_slice(&t.meta);
            txs.insert(&t.id.0[..], v.as_slice()).expect("tx");
            for a in &t.accounts {
                let k = account_key(a, l.header.seq, t.index);
                index.insert(k.as_slice(), &t.id.0[..]).expect("index");
            }
        }
    }
    w.commit().expect("commit");
}

/// One page of 20, newest first, from `start` (a key bound) down: the rows and the next.
fn redb_page(db: &Database, start: &[u8]) -> (usize, Option<Vec<u8>>) {
    let r = db.begin_read().expect("read");
    let txs = r.open_table(TXS).expect("txs");
    let index = r.open_table(ACCOUNT_TXS).expect("index");
    let low = account_key(&HOT, 0, 0);
    let mut n = 0;
    for item in index.range(low.as_slice()..=start).expect("range").rev() {
        let (k, id) = item.expect("row");
        if n == PAGE as usize {
            return (n, Some(k.value().to_vec()));
        }
        let row = txs.get(id.value()).expect("get").expect("tx row");
        std::hint::black_box(row.value().len());
        n += 1;
    }
    (n, None)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn dir_bytes(p: &Path) -> u64 {
    std::fs::read_dir(p)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// (transactions written per second, pages per second, bytes on disk).
fn run_sqlite(ledgers: u32, per: u32) -> (f64, f64, u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SqliteHistory::open(&dir.path().join("h.sqlite"), 1).expect("open");
    let t = Instant::now();
    for seq in 1..=ledgers {
        store.write(&[ledger(seq, per)]).expect("write");
    }
    let write = f64::from(ledgers * per) / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut q = AccountTxQuery {
        account: HOT,
        min: 1,
        max: ledgers,
        forward: false,
        rows: PAGE,
        marker: None,
    };
    let mut pages = 0u32;
    loop {
        let page = store.account_tx(&q).expect("page");
        std::hint::black_box(page.txs.len());
        pages += 1;
        match page.marker {
            Some(m) => q.marker = Some(m),
            None => break,
        }
    }
    let read = f64::from(pages) / t.elapsed().as_secs_f64();
    (write, read, dir_bytes(dir.path()))
}

fn run_redb(ledgers: u32, per: u32) -> (f64, f64, u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = Database::create(dir.path().join("h.redb")).expect("create");
    let t = Instant::now();
    for seq in 1..=ledgers {
        redb_write(&db, &ledger(seq, per));
    }
    let write = f64::from(ledgers * per) / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut start = account_key(&HOT, u32::MAX, u32::MAX);
    let mut pages = 0u32;
    loop {
        let (_, next) = redb_page(&db, &start);
        pages += 1;
        match next {
            Some(k) => start = k,
            None => break,
        }
    }
    let read = f64::from(pages) / t.elapsed().as_secs_f64();
    (write, read, dir_bytes(dir.path()))
}

fn main() {
    let ledgers: u32 = arg("--ledgers", 500);
    let per: u32 = arg("--per-ledger", 200);
    println!(
        "{ledgers} ledgers x {per} payments; the hot account has {} transactions; pages of {PAGE}",
        ledgers * per
    );
    let (mut sq, mut rd) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        sq.push(run_sqlite(ledgers, per));
        rd.push(run_redb(ledgers, per));
    }
    for (name, runs) in [("SQLite (rusqlite, WAL)", &sq), ("redb 2", &rd)] {
        let w = median(runs.iter().map(|r| r.0).collect());
        let p = median(runs.iter().map(|r| r.1).collect());
        let mib = runs[0].2 as f64 / (1024.0 * 1024.0);
        println!("{name:24} write {w:>9.0} tx/s   account_tx {p:>7.0} pages/s   {mib:>6.1} MiB");
    }
    let ratio = |i: fn(&(f64, f64, u64)) -> f64| {
        median(sq.iter().map(i).collect()) / median(rd.iter().map(i).collect())
    };
    println!(
        "SQLite / redb: write {:.2}x, pages {:.2}x",
        ratio(|r| r.0),
        ratio(|r| r.1)
    );
}
