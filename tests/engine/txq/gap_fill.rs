//! TxQ_test `testFullQueueGapFill` ("full queue gap handling") through the node: past
//! `maximum_txn_per_account` an account may still fill the front of a sequence gap its
//! expired transactions left, and nothing else. Minimum 1, `ledgers_in_queue` 10,
//! `maximum_txn_per_account` 11. (The queue core has a unit version of the rule:
//! `ledgers::txq::tests::full_account_fills_its_gap`.)

use super::env::*;
use crate::support::engine::ticket_create;
use ledgerd::engine::Ter;

const QUEUED: Ter = Ter::terQUEUED;

#[test]
fn full_queue_gap_fill() {
    let (mut t, alice, bob) = alice_and_bob(11);
    let base = t.base_fee();
    let a = t.seq(&alice);

    // Tickets to keep alice's queue full later without touching the sequence gap.
    t.expect(
        &alice,
        seq(fee(ticket_create(11), base * 20 + 1), a),
        QUEUED,
    );
    for (n, last) in [(11, 11), (12, 11), (13, 11), (14, 11), (15, 11)] {
        t.expect(&alice, last_ledger(seq(noop(), a + n), last), QUEUED);
    }
    for n in 16..=18 {
        t.expect(&alice, last_ledger(seq(noop(), a + n), 5), QUEUED);
    }
    t.expect(&alice, last_ledger(seq(noop(), a + 19), 11), QUEUED);
    t.check(10, None, 2, 1);

    // Bob keeps the ledgers busy: ledger 3 takes 2 of his and alice's TicketCreate,
    // ledger 4 four of his, ledger 5 five.
    let b = t.seq(&bob);
    for i in 0..2 + 4 + 5 {
        t.expect(&bob, seq(fee(noop(), base * 20), b + i), QUEUED);
    }
    t.check(10 + 2 + 4 + 5, None, 2, 1);
    t.close();
    t.check(9 + 4 + 5, Some(20), 3, 2);
    assert_eq!(t.seq(&alice), a + 12);
    t.close();
    t.check(9 + 5, Some(30), 4, 3);
    assert_eq!(t.seq(&alice), a + 12);
    t.close();
    // Three of alice's expired.
    t.check(6, Some(40), 5, 4);
    assert_eq!(t.seq(&alice), a + 12);

    // Alice tops up her queue with tickets, to the account limit.
    for n in 1..=5 {
        t.expect(&alice, ticket(noop(), a + n), QUEUED);
    }
    t.expect(&alice, ticket(noop(), a + 6), Ter::telCAN_NOT_QUEUE_FULL);
    t.check(11, Some(40), 5, 4);

    // Full, but the gap's front may still be filled, and only it.
    let full = Ter::telCAN_NOT_QUEUE_FULL;
    t.expect(&alice, seq(noop(), a + 20), full);
    t.expect(&alice, seq(noop(), a + 15), Ter::telCAN_NOT_QUEUE_FEE);
    t.expect(&alice, seq(noop(), a + 18), full);
    t.expect(&alice, seq(noop(), a + 17), full);
    t.expect(&alice, seq(noop(), a + 16), QUEUED);
    t.expect(&alice, seq(noop(), a + 18), full);
    t.expect(&alice, seq(noop(), a + 17), QUEUED);
    t.expect(&alice, seq(noop(), a + 18), QUEUED);
    t.check(14, Some(40), 5, 4);
    t.expect(&alice, seq(noop(), a + 20), full);

    // Which of alice's equal-level transactions drain first follows the ties (the id
    // XOR the parent hash, rippled's "fragile" note): rippled's hashes give a + 15
    // here and a + 19 next; what holds whatever the hashes is that every transaction in
    // the ledger is one of alice's, by Sequence or ticket.
    let moved = |t: &TxqEnv| t.seq(&alice) - (a + 12) + (11 - t.env.owner_count(&alice));
    t.close();
    t.check(9, Some(50), 6, 5);
    assert_eq!(moved(&t), 6);
    t.close();
    t.check(2, Some(60), 7, 6);
    assert_eq!(moved(&t), 6 + 7);
    // The last one: all of alice's moved into the ledger, the tickets too.
    t.close();
    t.check(0, Some(70), 2, 7);
    assert_eq!(t.seq(&alice), a + 21);
}
