//! TxQ_test `testQueueSeq` ("queue sequence"): the main walk with
//! `minimum_txn_in_ledger_standalone` 3, its `checkMetrics` after every step.

use super::env::*;
use crate::support::engine::{pay, xrp, Account};
use ledgerd::engine::Ter;
use ledgerd::ledgers::txq::BASE_LEVEL;

const QUEUED: Ter = Ter::terQUEUED;

/// The first part: held transactions apply at close, the expected size follows the
/// closed ledgers (5, 6, 8), a replacement pays over 125%, a time leap cuts the
/// expectation to the minimum and the next close the limit.
#[test]
fn queue_seq_held_transactions_apply_at_close() {
    let mut t = TxqEnv::new(3);
    let base = t.base_fee();
    assert_eq!(base, 10);
    t.check(0, None, 0, 3);

    // Create several accounts while the fee is cheap so they all apply.
    let [alice, bob, charlie, daria] = t.fund(xrp(50_000), ["alice", "bob", "charlie", "daria"]);
    t.check(0, None, 4, 3);

    // Alice - price starts exploding: held.
    t.expect(&alice, noop(), QUEUED);
    t.check(1, None, 4, 3);

    // Bob with a really high fee applies.
    let cost = t.open_ledger_cost();
    t.expect(&bob, fee(noop(), cost), Ter::tesSUCCESS);
    t.check(1, None, 5, 3);

    // Daria with a low fee: held.
    t.expect(&daria, fee(noop(), base * 100), QUEUED);
    t.check(2, None, 5, 3);

    t.close();
    // The held transactions applied.
    t.check(0, Some(10), 2, 5);

    // More accounts, to abuse the queue later.
    let [elmo, fred, gwen, hank] = t.fund(xrp(50_000), ["elmo", "fred", "gwen", "hank"]);
    t.check(0, Some(10), 6, 5);

    // A bunch of transactions held.
    t.expect(&alice, fee(noop(), base * 12 / 10), QUEUED);
    t.check(1, Some(10), 6, 5);
    t.expect(&bob, fee(noop(), base), QUEUED); // won't clear the queue
    t.expect(&charlie, fee(noop(), base * 2), QUEUED);
    t.expect(&daria, fee(noop(), base * 15 / 10), QUEUED);
    t.expect(&elmo, fee(noop(), base * 11 / 10), QUEUED);
    t.expect(&fred, fee(noop(), base * 19 / 10), QUEUED);
    t.expect(&gwen, fee(noop(), base * 16 / 10), QUEUED);
    t.expect(&hank, fee(noop(), base * 18 / 10), QUEUED);
    t.check(8, Some(10), 6, 5);

    t.close();
    // All but bob's applied: 7 of 8 fit the expected 6 plus the one at its level.
    t.check(1, Some(12), 7, 6);
    assert_eq!(
        t.env.store.queued_of(&bob.id).len(),
        1,
        "bob's is still stuck in the queue"
    );

    // Hank sends another, then bumps the fee: not enough to replace (125%).
    t.expect(&hank, fee(noop(), base), QUEUED);
    t.check(2, Some(12), 7, 6);
    t.expect(
        &hank,
        fee(noop(), base * 11 / 10),
        Ter::telCAN_NOT_QUEUE_FEE,
    );
    t.check(2, Some(12), 7, 6);
    // Enough to replace it, not to apply.
    t.expect(&hank, fee(noop(), base * 600), QUEUED);
    t.check(2, Some(12), 7, 6);
    // Enough for the open ledger: applied, and the queued one leaves.
    let cost = t.open_ledger_cost();
    t.expect(&hank, fee(noop(), cost), Ter::tesSUCCESS);
    t.check(1, Some(12), 8, 6);
    // Another, less important one.
    t.expect(&hank, fee(noop(), base * 2), QUEUED);
    t.check(2, Some(12), 8, 6);

    t.close();
    // Bob's and hank's applied.
    t.check(0, Some(16), 2, 8);

    // A time leap resets the expected size to the minimum...
    t.close_slow();
    t.check(0, Some(16), 0, 3);
    // ...and the next close the queue's limit.
    t.close();
    t.check(0, Some(6), 0, 3);
}

/// The walk's second part on a fresh ledger brought to the same point.
fn walk_to_full_queue() -> (TxqEnv, [Account; 8]) {
    let mut t = TxqEnv::new(3);
    let [alice, bob, charlie, daria] = t.fund(xrp(50_000), ["alice", "bob", "charlie", "daria"]);
    t.expect(&alice, noop(), QUEUED);
    let cost = t.open_ledger_cost();
    t.expect(&bob, fee(noop(), cost), Ter::tesSUCCESS);
    t.expect(&daria, fee(noop(), 1000), QUEUED);
    t.close();
    let [elmo, fred, gwen, hank] = t.fund(xrp(50_000), ["elmo", "fred", "gwen", "hank"]);
    for (who, drops) in [
        (&alice, 12),
        (&bob, 10),
        (&charlie, 20),
        (&daria, 15),
        (&elmo, 11),
        (&fred, 19),
        (&gwen, 16),
        (&hank, 18),
    ] {
        t.expect(who, fee(noop(), drops), QUEUED);
    }
    t.close();
    t.expect(&hank, fee(noop(), 10), QUEUED);
    let cost = t.open_ledger_cost();
    t.expect(&hank, fee(noop(), cost), Ter::tesSUCCESS);
    t.expect(&hank, fee(noop(), 20), QUEUED);
    t.close();
    t.close_slow();
    t.close();
    t.check(0, Some(6), 0, 3);
    (t, [alice, bob, charlie, daria, elmo, fred, gwen, hank])
}

/// The walk's second part: a full queue (6) refuses a base-fee transaction, takes a
/// better one by evicting the cheapest account's last; at close daria's evicted one
/// comes back from the local transactions into the queue.
#[test]
fn queue_seq_full_queue_evicts_and_the_local_comes_back() {
    let (mut t, [alice, bob, charlie, daria, elmo, fred, gwen, hank]) = walk_to_full_queue();
    let base = t.base_fee();
    let large = base * 700;
    // Stuff the ledger.
    for who in [&hank, &gwen, &fred, &elmo] {
        t.expect(who, fee(noop(), large), Ter::tesSUCCESS);
    }
    t.check(0, Some(6), 4, 3);

    // Daria's gets in, and is dropped when a better one comes; the others stay.
    t.expect(&daria, fee(noop(), base * 15 / 10), QUEUED);
    t.expect(&elmo, fee(noop(), base * 16 / 10), QUEUED);
    t.expect(&fred, fee(noop(), base * 17 / 10), QUEUED);
    t.expect(&gwen, fee(noop(), base * 18 / 10), QUEUED);
    t.expect(&hank, fee(noop(), base * 19 / 10), QUEUED);
    t.expect(&alice, fee(noop(), base * 2), QUEUED);

    // The queue is full: the minimum is one over daria's level (384).
    let daria_level = t.queued_level(&daria);
    assert_eq!(daria_level, 384);
    t.check_levels(6, Some(6), 4, 3, daria_level + 1, MEDIAN);

    // The base fee cannot get in.
    t.expect(&charlie, noop(), Ter::telCAN_NOT_QUEUE_FULL);
    // A better one does, and daria's leaves.
    t.expect(&charlie, fee(noop(), base * 10), QUEUED);
    assert!(
        t.env.store.queued_of(&daria.id).is_empty(),
        "daria's evicted"
    );
    let elmo_level = t.queued_level(&elmo);
    assert_eq!(elmo_level, 409);
    t.check_levels(6, Some(6), 4, 3, elmo_level + 1, MEDIAN);

    // At close the queue drains (5 of 6 at the new expected 4 and the level past it),
    // then daria's local transaction goes through the door again: queued.
    t.close();
    t.check_levels(2, Some(8), 5, 4, BASE_LEVEL, BASE_LEVEL * 700);
    assert_eq!(t.env.store.queued_of(&daria.id).len(), 1, "daria's is back");

    t.close();
    t.check(0, Some(10), 2, 5);

    // A transaction for an account not funded yet waits behind the payment that
    // creates it: the payment queues, the account's own noop is terNO_ACCOUNT.
    let iris = Account::new("iris");
    for who in [&alice, &bob, &charlie, &daria] {
        t.expect(who, noop(), Ter::tesSUCCESS);
    }
    t.expect(&alice, pay(&iris, xrp(1000)), QUEUED);
    t.expect(&iris, fee(seq(noop(), 1), base * 2), Ter::terNO_ACCOUNT);
    t.check(1, Some(10), 6, 5);

    t.close();
    t.check(0, Some(12), 1, 6);
    assert_eq!(t.balance(&iris), 1_000_000_000);
    assert_eq!(t.seq(&iris), 11, "created in ledger 11");

    // Cleanup: stuff the ledger, queue one.
    let master = t.env.master.clone();
    t.fill_ledger(&master);
    t.expect(&master, fee(noop(), base * 2), QUEUED);
    t.check(1, Some(12), 7, 6);
}
