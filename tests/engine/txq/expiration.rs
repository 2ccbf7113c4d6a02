//! TxQ_test `testExpirationReplacement` ("expiration replacement"): minimum 1,
//! `ledgers_in_queue` 10, `maximum_txn_per_account` 20. Two of alice's expire and leave
//! a gap at her Sequence; only a non-blocker may fill it, and the rest then drain.

use super::env::*;
use crate::support::engine::fset;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;

const QUEUED: Ter = Ter::terQUEUED;

#[test]
fn expiration_replacement() {
    let (mut t, alice, bob) = alice_and_bob(20);
    let base = t.base_fee();
    let a = t.seq(&alice);
    for (n, last) in [(0, 5), (1, 5), (2, 10), (3, 11)] {
        t.expect(&alice, last_ledger(seq(noop(), a + n), last), QUEUED);
    }
    t.check(4, None, 2, 1);
    // Bob keeps ledgers 4, 5 and 6 busy with 3, 4 and 5 transactions.
    let b = t.seq(&bob);
    for i in 0..3 + 4 + 5 {
        t.expect(&bob, seq(fee(noop(), base * 20), b + i), QUEUED);
    }
    t.check(4 + 3 + 4 + 5, None, 2, 1);
    t.close();
    t.check(4 + 4 + 5, Some(20), 3, 2);
    t.close();
    t.check(4 + 5, Some(30), 4, 3);
    t.close();
    // Alice's first two expired.
    t.check(2, Some(40), 5, 4);

    // Her Sequence is missing, so the next one waits for it.
    t.expect(&alice, seq(noop(), a + 1), Ter::terPRE_SEQ);
    // No blocker fills the gap: her queue is not empty.
    let blocks = Ter::telCAN_NOT_QUEUE_BLOCKS;
    t.expect(&alice, seq(fset(asf::ACCOUNT_TXN_ID), a), blocks);
    t.check(2, Some(40), 5, 4);
    // A non-blocker does.
    t.expect(&alice, seq(fee(noop(), base * 2), a), QUEUED);
    t.check(3, Some(40), 5, 4);
    t.expect(&alice, seq(fset(asf::ACCOUNT_TXN_ID), a + 1), blocks);
    t.check(3, Some(40), 5, 4);
    t.expect(&alice, seq(fee(noop(), base * 2), a + 1), QUEUED);
    t.check(4, Some(40), 5, 4);

    t.close();
    // All of alice's went into the new open ledger.
    t.check(0, Some(50), 4, 5);
    assert_eq!(t.seq(&alice), a + 4);
}
