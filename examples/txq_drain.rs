//! The cost of a close that drains a full transaction queue: `Ledgers::close` with
//! `--queued` (default 10,000) base-fee payments queued, beside the same close with
//! nothing queued, through `Ledgers` directly (no server, no journal).
//!
//! ```text
//! cargo run --release --example txq_drain -- [--runs 7] [--per-account 10]
//!     [--accounts 10000/per-account]
//! ```
//! Each run builds a fresh ledger: genesis funds `--accounts` accounts (one close), then
//! pays in the open ledger until it holds one transaction more than the queue expects
//! (`[transaction_queue]` minimum_txn_in_ledger_standalone 10,000 here, so the fill is
//! about 9,100 payments after the funding ledger's close), which escalates the fee. In
//! the runs with a queue each account then submits `--per-account` base-fee payments
//! (at most 10, maximum_txn_per_account) through `Ledgers::apply_submitted`: every one is
//! `terQUEUED`. The
//! close is timed: it closes the filled ledger, grows the expected size by 20% (over the
//! queued count) and drains the whole queue into the new open ledger. The two kinds of
//! run alternate; the medians and their difference (the drain) are printed.

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
use ledgerd::engine::Ter;
use ledgerd::ledgers::txq::TxQSetup;
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::protocol::codec;
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::st::StObject;
use ledgerd::protocol::tx::transaction_id;
use ledgerd::protocol::types::Hash256;
use payment::payment_blob;
use std::sync::Arc;
use std::time::Instant;

/// The queue's least expected ledger size (standalone).
const EXPECTED: u64 = 10_000;
/// The queued payments of one run.
const QUEUED: u64 = 10_000;
/// The first close time (seconds since the ripple epoch).
const T0: u32 = 800_000_000;

/// A signed transaction as the sequencer hands it to `Ledgers`.
struct Signed {
    tx: Arc<StObject>,
    blob: Arc<[u8]>,
    id: Hash256,
}

fn signed(blob: Vec<u8>) -> Signed {
    let tx = codec::decode(&blob).expect("decode");
    Signed {
        tx: Arc::new(tx),
        id: transaction_id(&blob),
        blob: Arc::from(blob),
    }
}

/// What every run applies: the funding, the fill (grown as needed) and the queued ones.
struct Workload {
    per_account: u32,
    master: KeyPair,
    accounts: Vec<KeyPair>,
    funding: Vec<Signed>,
    fill: Vec<Signed>,
    queued: Vec<Signed>,
}

impl Workload {
    fn new(accounts: usize, per_account: u32) -> Workload {
        let master = keys("masterpassphrase");
        let accounts: Vec<KeyPair> = (0..accounts).map(|i| keys(&format!("txq{i}"))).collect();
        let funding = accounts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let blob = payment_blob(&master, 1 + i as u32, &a.account_id(), 1_000_000_000);
                signed(blob)
            })
            .collect();
        Workload {
            per_account,
            master,
            accounts,
            funding,
            fill: Vec::new(),
            queued: Vec::new(),
        }
    }

    /// The queued payments, signed once the first store shows where the accounts'
    /// sequences start (the ledger that created them).
    fn queue(&mut self, store: &Ledgers) -> &[Signed] {
        if self.queued.is_empty() {
            let master = self.master.account_id();
            let first: Vec<u32> = self
                .accounts
                .iter()
                .map(|a| account_seq(store, &a.account_id()))
                .collect();
            self.queued = (0..self.per_account)
                .flat_map(|k| {
                    self.accounts
                        .iter()
                        .zip(&first)
                        .map(move |(a, s)| (a, s + k))
                })
                .map(|(a, seq)| signed(payment_blob(a, seq, &master, 1_000)))
                .collect();
        }
        &self.queued
    }

    /// The `n`th fill payment of the genesis account (after its funding payments).
    fn fill(&mut self, n: usize) -> &Signed {
        while self.fill.len() <= n {
            let seq = 1 + (self.accounts.len() + self.fill.len()) as u32;
            let to = self.accounts[self.fill.len() % self.accounts.len()].account_id();
            self.fill
                .push(signed(payment_blob(&self.master, seq, &to, 1_000)));
        }
        &self.fill[n]
    }
}

fn config() -> LedgerConfig {
    LedgerConfig {
        tx_queue: TxQSetup {
            minimum_txn_in_ledger_standalone: EXPECTED,
            minimum_queue_size: 2 * EXPECTED,
            ..TxQSetup::default()
        },
        ..LedgerConfig::default()
    }
}

/// One run: the close's time in ms, and how many transactions it drained.
fn run(w: &mut Workload, with_queue: bool) -> (f64, usize) {
    let store = Ledgers::genesis(config(), T0 - 10);
    for f in &w.funding {
        assert_eq!(store.apply(&f.tx).ter, Ter::tesSUCCESS, "funding");
    }
    store.close(T0);
    let expected = store.fee_report().expected_ledger_size as usize;
    for n in 0..=expected {
        let f = w.fill(n);
        assert_eq!(store.apply(&f.tx).ter, Ter::tesSUCCESS, "fill {n}");
    }
    if with_queue {
        for q in w.queue(&store) {
            let r = store.apply_submitted(&q.tx, &q.blob, q.id, false);
            assert!(
                r.ter == Ter::terQUEUED && r.queued,
                "not queued: {:?}",
                r.ter
            );
        }
        assert_eq!(store.queued_all().len(), w.queued.len());
    }
    let started = Instant::now();
    store.close(T0 + 10);
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let drained = store.take_from_queue().len();
    assert!(store.queued_all().is_empty(), "the close left some queued");
    assert_eq!(store.open_txs().len(), drained);
    (ms, drained)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let option = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let runs = option("--runs", 7);
    let per_account = option("--per-account", 10).clamp(1, 10);
    let accounts = option("--accounts", QUEUED as usize / per_account);
    let sign_start = Instant::now();
    let mut w = Workload::new(accounts, per_account as u32);
    println!(
        "{} queued payments from {accounts} accounts, signed in {:.1} s; {runs} runs of each kind, alternating",
        per_account * accounts,
        sign_start.elapsed().as_secs_f64()
    );
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for i in 0..runs {
        for with_queue in [i % 2 == 0, i % 2 != 0] {
            let (ms, drained) = run(&mut w, with_queue);
            println!("run {i}: close with {drained:>5} drained from the queue: {ms:8.1} ms");
            match with_queue {
                true => with.push(ms),
                false => without.push(ms),
            }
        }
    }
    let (a, b) = (median(with), median(without));
    println!(
        "close of a {}-transaction ledger: median {a:.1} ms draining {} queued, {b:.1} ms with none queued; the drain {:.1} ms ({:.1} µs per queued transaction)",
        w.fill.len(),
        w.queued.len(),
        a - b,
        (a - b) * 1e3 / w.queued.len() as f64
    );
}
