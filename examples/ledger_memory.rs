//! Where a busy ledger's memory goes: the ledgers (pure, in this process) under a counting
//! allocator apply payments between funded accounts and close every `--per-ledger`
//! transactions. Prints the live heap bytes each transaction leaves behind while the
//! in-memory window of closed ledgers fills, and what one closed ledger keeps of each
//! transaction (its entry, signed blob and serialized metadata) beside the decoded forms
//! it no longer keeps, each measured by the allocator as it is built again.
//!
//! `cargo run --release --example ledger_memory -- [--txs 40000] [--per-ledger 1000]
//! [--accounts 100]`; with `--txs 0 --accounts 1000000`, what a state of a million accounts
//! takes (funded 10,000 a ledger, the funding ledgers gone from the window), how long a
//! close takes with that state (empty, and with 1,000 payments), and how long a restart
//! takes to rebuild it from a snapshot (encoded and decoded in memory: the part of a
//! restart that is not disk reads or journal replay).

use ledgerd::ledger::keylet;
use ledgerd::ledger::view::ReadView;
use ledgerd::ledgers::{LedgerConfig, Ledgers, TxEntry, GENESIS_ACCOUNT};
use ledgerd::node::persist::format::{decode_snapshot, encode_snapshot};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::AccountId;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{live_bytes as live, rss_kib};

#[global_allocator]
static A: counting_alloc::Counting<false> = counting_alloc::Counting;

struct Args {
    txs: usize,
    per_ledger: usize,
    accounts: usize,
}

fn args() -> Args {
    let mut a = Args {
        txs: 40_000,
        per_ledger: 1_000,
        accounts: 100,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for pair in argv.chunks(2) {
        let v = pair.get(1).and_then(|v| v.parse().ok());
        match (pair[0].as_str(), v) {
            ("--txs", Some(v)) => a.txs = v,
            ("--per-ledger", Some(v)) => a.per_ledger = v.max(1),
            ("--accounts", Some(v)) => a.accounts = v.max(2),
            _ => panic!("usage: ledger_memory [--txs N] [--per-ledger N] [--accounts N]"),
        }
    }
    a
}

/// An unsigned Payment (the ledgers check no signatures unless configured to).
fn payment(from: &Key, seq: u32, to: &AccountId, drops: i64) -> StObject {
    let mut o = StObject::new();
    o.set(Field::named("TransactionType"), StValue::UInt16(0));
    o.set(Field::named("Account"), StValue::AccountId(from.1));
    o.set(Field::named("Destination"), StValue::AccountId(*to));
    o.set(Field::named("Amount"), StValue::Amount(Amount::Xrp(drops)));
    o.set(Field::named("Fee"), StValue::Amount(Amount::Xrp(10)));
    o.set(Field::named("Sequence"), StValue::UInt32(seq));
    o.set(Field::named("Flags"), StValue::UInt32(0));
    o.set(Field::named("SigningPubKey"), StValue::Blob(from.0.clone()));
    o.set(Field::named("TxnSignature"), StValue::Blob(vec![0x30; 71]));
    o
}

/// A public key and its account.
type Key = (Vec<u8>, AccountId);

fn key(passphrase: &str) -> Key {
    let kp =
        KeyPair::from_seed(&Seed::from_passphrase(passphrase), KeyType::Secp256k1).expect("key");
    (kp.public.as_bytes().to_vec(), kp.account_id())
}

fn accounts(n: usize) -> Vec<Key> {
    (0..n).map(|i| key(&format!("ledger_memory {i}"))).collect()
}

/// Funds every account from genesis, 10,000 a ledger, then closes empty ledgers until
/// the funding ledgers left memory's window; returns each account's next sequence.
fn fund(store: &Ledgers, ids: &[Key], now: &mut u32) -> Vec<u32> {
    let genesis = key("masterpassphrase");
    assert_eq!(genesis.1, GENESIS_ACCOUNT);
    for (genesis_seq, (_, id)) in (1..).zip(ids) {
        let r = store.apply(&payment(&genesis, genesis_seq, id, 1_000_000_000));
        assert!(r.applied, "funding: {}", r.ter);
        if genesis_seq % 10_000 == 0 {
            *now += 1;
            store.close(*now);
        }
    }
    let funded_in = store.closed().seq() + 1;
    while store.complete_range().0 <= funded_in {
        *now += 1;
        store.close(*now);
    }
    ids.iter()
        .map(|(_, id)| {
            let root = store.current().view.read(&keylet::account(id));
            let root = root.expect("funded");
            match root.get(Field::named("Sequence")) {
                Some(StValue::UInt32(s)) => *s,
                _ => 1,
            }
        })
        .collect()
}

fn main() {
    let a = args();
    let before = live();
    let store = Ledgers::genesis(LedgerConfig::default(), 780_000_000);
    let mut now = 780_000_000;
    let ids = accounts(a.accounts);
    let mut seqs = fund(&store, &ids, &mut now);
    let base = live();
    let rss_base = rss_kib();
    println!(
        "ledgers with {} funded accounts: {} KiB live ({} KiB at start), {} bytes an account ({} resident)",
        a.accounts,
        (base - before) / 1024,
        before / 1024,
        (base - before) / a.accounts as i64,
        rss_base * 1024 / a.accounts as i64,
    );
    let mut applied = 0usize;
    if a.txs == 0 {
        time_closes(&store, &ids, &mut seqs, &mut now);
        time_restart(&store);
        return;
    }
    while applied < a.txs {
        for _ in 0..a.per_ledger.min(a.txs - applied) {
            let i = applied % ids.len();
            let to = &ids[(i + 1) % ids.len()];
            let r = store.apply(&payment(&ids[i], seqs[i], &to.1, 1_000));
            assert!(r.applied, "payment {applied}: {}", r.ter);
            seqs[i] += 1;
            applied += 1;
        }
        now += 1;
        store.close(now);
        if applied % (a.txs / 10).max(a.per_ledger) < a.per_ledger || applied == a.txs {
            let per_tx = (live() - base) / applied as i64;
            let rss = (rss_kib() - rss_base) * 1024 / applied as i64;
            println!(
                "{applied:>8} payments: live +{} MiB, {per_tx} bytes/tx (resident {rss} bytes/tx)",
                (live() - base) >> 20,
            );
        }
    }
    breakdown(&store);
}

/// One closed ledger's parts, each rebuilt under the allocator to count its bytes; what
/// the window keeps per transaction beyond its entry is the state's versions, the
/// SHAMaps' paths and the indexes.
fn breakdown(store: &Ledgers) {
    let closed = store.closed().ledger.expect("a closed ledger");
    let n = closed.txs.len().max(1) as i64;
    let measure = |f: &mut dyn FnMut() -> Box<dyn std::any::Any>| {
        let b = live();
        let kept = f();
        let d = live() - b;
        drop(kept);
        d / n
    };
    let entry = std::mem::size_of::<TxEntry>() as i64 + 16;
    let blobs = measure(&mut || {
        Box::new(
            closed
                .txs
                .iter()
                .map(|e| e.blob.to_vec())
                .collect::<Vec<_>>(),
        )
    });
    let metas = measure(&mut || {
        Box::new(
            closed
                .txs
                .iter()
                .map(|e| e.meta_blob.to_vec())
                .collect::<Vec<_>>(),
        )
    });
    let txs = measure(&mut || Box::new(closed.txs.iter().map(|e| e.tx()).collect::<Vec<_>>()));
    let decoded =
        measure(&mut || Box::new(closed.txs.iter().map(|e| e.meta()).collect::<Vec<_>>()));
    println!("one closed ledger of {n} payments, bytes per transaction:");
    println!("  kept: the entry (TxEntry, in its Arc)       {entry}");
    println!("  kept: signed blob                           {blobs}");
    println!("  kept: metadata, serialized                  {metas}");
    println!("  not kept: the transaction decoded           {txs}");
    println!("  not kept: the metadata decoded              {decoded}");
}

/// Milliseconds since `t`.
fn millis(t: std::time::Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// The median of three closes: empty, then with 1,000 payments each.
fn time_closes(store: &Ledgers, ids: &[Key], seqs: &mut [u32], now: &mut u32) {
    let mut close = |payments: usize| {
        for i in 0..payments {
            let to = &ids[(i + 1) % ids.len()];
            let r = store.apply(&payment(&ids[i], seqs[i], &to.1, 1_000));
            assert!(r.applied, "payment: {}", r.ter);
            seqs[i] += 1;
        }
        *now += 1;
        let t = std::time::Instant::now();
        store.close(*now);
        millis(t)
    };
    for payments in [0, 1_000] {
        let mut times: Vec<f64> = (0..3).map(|_| close(payments)).collect();
        times.sort_by(f64::total_cmp);
        println!(
            "close with {} accounts and {payments} payments: {:.1} ms (median of 3)",
            ids.len(),
            times[1]
        );
    }
}

/// A snapshot of the last closed ledger, encoded and decoded, and the ledgers rebuilt
/// from it as a restart rebuilds them.
fn time_restart(store: &Ledgers) {
    let closed = store.closed();
    let ledger = closed.ledger.clone().expect("a closed ledger");
    let mut entries = Vec::new();
    closed
        .view
        .for_each_bytes(|k, b| entries.push((*k, b.to_vec())));
    entries.sort_by_key(|e| e.0);
    let payload = encode_snapshot(&ledger.header, ledger.held_at_close(), &entries);
    drop(entries);
    let t = std::time::Instant::now();
    let state = decode_snapshot(&payload).expect("decodes");
    let read = millis(t);
    let rebuilt = Ledgers::from_snapshot_with_held(
        LedgerConfig::default(),
        state.header,
        state.entries,
        state.held,
    )
    .expect("rebuilds");
    println!(
        "restart from a snapshot of {} MiB: {read:.0} ms to decode it, {:.0} ms in all to rebuild ledger {}",
        payload.len() >> 20,
        millis(t),
        rebuilt.closed().seq()
    );
}
