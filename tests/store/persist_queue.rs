//! The transaction queue across a restart, the sequencer's way: a queued transaction is
//! not journaled; what the queue applies later (a cleared run before the submission that
//! paid for it, the close's drain, the local transactions retried after it) is journaled
//! where it applied, after the submission's or the close's record. Replay, from a
//! snapshot or from genesis, rebuilds the same ledgers and the same open ledger.

use std::sync::Arc;

use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledgers::txq::TxQSetup;
use ledgerd::ledgers::{ApplyResult, LedgerConfig};
use ledgerd::protocol::codec;
use ledgerd::protocol::tx::transaction_id;
use support::engine::{account_set, pay, xrp, Account, Tx};
use support::persist::*;

/// rippled TxQ_test's queue settings, three to six transactions per ledger.
fn queue_cfg(history: u32) -> LedgerConfig {
    LedgerConfig {
        tx_queue: TxQSetup {
            ledgers_in_queue: 2,
            minimum_queue_size: 2,
            normal_consensus_increase_percent: 0,
            minimum_txn_in_ledger_standalone: 3,
            target_txn_in_ledger: 4,
            maximum_txn_in_ledger: Some(6),
            ..TxQSetup::default()
        },
        ..cfg(history)
    }
}

/// Journals what the queue applied (the sequencer's `journal_from_queue`).
fn journal_from_queue(d: &mut Driver) {
    for (blob, r) in d.store.take_from_queue() {
        drop(d.persist.record_tx(&blob, &r));
    }
}

/// The sequencer's submit: through the queue's door; the queue's work journaled first,
/// then the submission when applied or held.
fn submit(d: &mut Driver, who: &Account, seq: u32, fee: i64, tx: Tx) -> ApplyResult {
    let o = tx.signed(&who.id, seq, fee, &who.kp);
    let blob = codec::encode(&o);
    let id = transaction_id(&blob);
    let blob: Arc<[u8]> = Arc::from(blob.as_slice());
    let r = d.store.apply_submitted(&Arc::new(o), &blob, id, false);
    journal_from_queue(d);
    if r.applied || r.held {
        drop(d.persist.record_tx(&blob, &r));
    }
    r
}

/// The sequencer's close: the close record, then what the queue applied into the new
/// open ledger, then the snapshot's turn.
fn close(d: &mut Driver) {
    d.close_time += 3;
    let closed = d.store.close(d.close_time);
    let durable = d.persist.record_close(&closed);
    journal_from_queue(d);
    d.flush().expect("durable");
    durable.wait().expect("close durable");
    d.persist.after_close(&d.store);
}

fn seq_of(d: &Driver, who: &Account) -> u32 {
    support::accounts::account_seq(&d.store, &who.id)
}

/// Ledgers where the queue holds, clears, drains, evicts and retries its locals.
fn drive(d: &mut Driver) -> Vec<Account> {
    let master = Account::master();
    let users: Vec<Account> = ["alice", "bob", "carol", "dave", "erin"]
        .iter()
        .map(|n| Account::new(n))
        .collect();
    for u in &users {
        let s = seq_of(d, &master);
        submit(d, &master, s, 10, pay(u, xrp(10_000)));
    }
    close(d);
    let mut queued = 0;
    let mut refused = 0;
    for round in 0..12u32 {
        for (i, u) in users.iter().enumerate() {
            // Three each, mostly at the base fee (queued past the expected size).
            for k in 0..3 {
                let next = d.store.next_queuable_seq(&u.id, seq_of(d, u));
                let fee = 10 + i64::from((round + i as u32 + k) % 4) * 7;
                let r = submit(d, u, next, fee, account_set());
                queued += u32::from(r.queued);
            }
            if round % 3 == 1 && i == 0 {
                // A gap after the queued ones: refused (telCAN_NOT_QUEUE) now, then
                // filled, and retried from the local transactions at close.
                let next = d.store.next_queuable_seq(&u.id, seq_of(d, u));
                let r = submit(d, u, next + 1, 10, account_set());
                refused += u32::from(r.ter == Ter::telCAN_NOT_QUEUE);
                submit(d, u, next, 10, account_set());
            }
            if round % 4 == 2 && i == 1 {
                // A fee that pays for the account's queued run: it clears it.
                let next = d.store.next_queuable_seq(&u.id, seq_of(d, u));
                submit(d, u, next, 200_000, account_set());
            }
        }
        close(d);
    }
    // The queue drains over quiet closes. Then, the ledger full again, a gap refused
    // (telCAN_NOT_QUEUE) applies from the local transactions once the queue drained
    // the two before it (TxQ_test testLocalTxRetry's walk).
    for _ in 0..4 {
        close(d);
    }
    assert!(d.store.queued_all().is_empty());
    let (alice, bob) = (&users[0], &users[1]);
    while d.store.fee_report().open_ledger_level == 256 {
        let s = seq_of(d, bob);
        assert!(submit(d, bob, s, 10, account_set()).applied);
    }
    let s = seq_of(d, alice);
    assert!(submit(d, alice, s, 10, account_set()).queued);
    let r = submit(d, alice, s + 2, 10, account_set());
    assert_eq!(r.ter, Ter::telCAN_NOT_QUEUE);
    assert!(submit(d, alice, s + 1, 10, account_set()).queued);
    close(d);
    assert_eq!(
        seq_of(d, alice),
        s + 3,
        "the refused one applied at the close"
    );
    assert!(queued > 20, "the queue held {queued}");
    assert!(refused > 0, "some gaps refused by the queue");
    // Leave some queued, some applied from the queue, in the open ledger.
    for u in &users {
        for _ in 0..3 {
            let next = d.store.next_queuable_seq(&u.id, seq_of(d, u));
            submit(d, u, next, 10, account_set());
        }
    }
    d.flush().expect("durable");
    users
}

#[test]
fn queue_work_replays_to_the_same_ledgers() {
    let history = 32;
    for snapshot_every in [4, 1000] {
        let dir = tempfile::tempdir().expect("tempdir");
        let opts = small_options(snapshot_every, history);
        let mut d = Driver::open(dir.path(), queue_cfg(history), opts.clone()).expect("open");
        let users = drive(&mut d);
        let hashes = history_hashes(&d.store);
        let open: Vec<_> = d.store.open_txs().iter().map(|t| t.id).collect();
        let seqs: Vec<u32> = users.iter().map(|u| seq_of(&d, u)).collect();
        assert!(!d.store.queued_all().is_empty(), "some stay queued");
        drop(d);

        let d2 = Driver::open(dir.path(), queue_cfg(history), opts).expect("reopen");
        assert_eq!(history_hashes(&d2.store), hashes, "every {snapshot_every}");
        let open2: Vec<_> = d2.store.open_txs().iter().map(|t| t.id).collect();
        assert_eq!(open2, open, "the open ledger");
        let seqs2: Vec<u32> = users.iter().map(|u| seq_of(&d2, u)).collect();
        assert_eq!(seqs2, seqs);
        assert!(d2.store.queued_all().is_empty(), "the queue is memory only");
    }
}
