//! The PostgreSQL history store's ingest and reads, on the history bench's workload:
//! ledgers of payments (blobs of 300 bytes, metadata of 400, each indexed under its sender
//! and one hot account, each changing two 200-byte entries), one PostgreSQL transaction
//! per ledger as the writer's copy writes them; then account_tx pages of 20 of the hot
//! account newest first by marker, and single-entry state reads at the newest ledger.
//!
//! ```text
//! cargo run --release --example pg_bench -- --url postgresql://postgres@127.0.0.1:PORT/db \
//!     [--ledgers 200] [--per-ledger 200]
//! ```
//! The database must be empty (a fresh one: the bench creates the schema).

use std::time::Instant;

use ledgerd::ledger::header::LedgerHeader;
use ledgerd::protocol::types::{AccountId, Hash256};
use ledgerd::store::{
    AccountTxQuery, HistoryLedger, HistoryStore, HistoryTx, PgHistory, StateChanges,
};

const HOT: AccountId = AccountId([0xEE; 20]);

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

fn number(name: &str, default: u32) -> u32 {
    arg(name).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn key(n: u32) -> Hash256 {
    let mut k = [0u8; 32];
    k[..4].copy_from_slice(&n.to_be_bytes());
    Hash256(k)
}

fn ledger(seq: u32, per: u32, parent: Hash256) -> HistoryLedger {
    let mut header = LedgerHeader {
        seq,
        total_drops: 1,
        parent_hash: parent,
        transaction_hash: Hash256::ZERO,
        account_hash: Hash256::ZERO,
        parent_close_time: seq,
        close_time: seq + 1,
        close_time_resolution: 10,
        close_flags: 0,
        hash: Hash256::ZERO,
    };
    header.hash = header.compute_hash();
    let mut state = Vec::new();
    let txs = (0..per)
        .map(|i| {
            let n = seq * per + i;
            let mut id = [0u8; 32];
            id[..4].copy_from_slice(&seq.to_be_bytes());
            id[4..8].copy_from_slice(&i.to_be_bytes());
            let mut sender = [0u8; 20];
            sender[..4].copy_from_slice(&(n % 1000).to_be_bytes());
            state.push((key(n % 1000), Some(vec![seq as u8; 200].into())));
            state.push((key(1000 + n % 1000), Some(vec![i as u8; 200].into())));
            HistoryTx {
                id: Hash256(id),
                index: i,
                blob: vec![i as u8; 300],
                meta: vec![seq as u8; 400],
                delivered: None,
                accounts: vec![AccountId(sender), HOT],
            }
        })
        .collect();
    state.sort_by_key(|r| r.0);
    state.dedup_by_key(|r| r.0);
    let changes = if seq == 1 {
        StateChanges::Full
    } else {
        StateChanges::Delta
    };
    HistoryLedger {
        header,
        txs,
        state,
        changes,
    }
}

fn main() {
    let Some(url) = arg("--url") else {
        eprintln!(
            "usage: pg_bench --url postgresql://user@host:port/db [--ledgers N] [--per-ledger N]"
        );
        std::process::exit(2);
    };
    let (ledgers, per) = (number("--ledgers", 200), number("--per-ledger", 200));
    let store = PgHistory::open(&url).expect("open the database");
    let mut parent = Hash256::ZERO;
    let built: Vec<HistoryLedger> = (1..=ledgers)
        .map(|seq| {
            let l = ledger(seq, per, parent);
            parent = l.header.hash;
            l
        })
        .collect();
    let t = Instant::now();
    for l in &built {
        store.write(std::slice::from_ref(l)).expect("write");
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "ingest: {ledgers} ledgers x {per} transactions in {secs:.2} s: {:.0} tx/s ({:.1} ledgers/s)",
        f64::from(ledgers * per) / secs,
        f64::from(ledgers) / secs
    );
    let t = Instant::now();
    let mut q = AccountTxQuery {
        account: HOT,
        min: 1,
        max: ledgers,
        forward: false,
        rows: 20,
        marker: None,
    };
    let mut pages = 0u32;
    loop {
        let page = store.account_tx(&q).expect("page");
        pages += 1;
        match page.marker {
            Some(m) => q.marker = Some(m),
            None => break,
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "account_tx: {pages} pages of 20 in {secs:.2} s: {:.0} pages/s (one client)",
        f64::from(pages) / secs
    );
    let t = Instant::now();
    let reads = 20_000u32;
    for n in 0..reads {
        let got = store.state_entry(&key(n % 2000), ledgers).expect("read");
        assert!(got.is_some());
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "state_entry: {reads} reads in {secs:.2} s: {:.0} reads/s (one client)",
        f64::from(reads) / secs
    );
}
