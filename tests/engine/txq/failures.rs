//! TxQ_test's failure cases through the node: `testFailInPreclaim`, `testQueuedTxFails`,
//! `testTecResult`, `testInLedgerSeq`, `testInLedgerTicket`, `testAcctInQueueButEmpty`.

use super::env::*;
use crate::support::engine::{pay, ticket_create, xrp, Account, Tx};
use ledgerd::engine::Ter;
use ledgerd::protocol::amount::Amount;

const QUEUED: Ter = Ter::terQUEUED;

/// Applies `tx` for `who` straight to the open ledger, past the queue (rippled's
/// `openLedger().modify(... ripple::apply ...)`): `Ledgers::apply`.
#[track_caller]
fn bypass(t: &mut TxqEnv, who: &Account, tx: Tx) {
    let o = tx.signed(&who.id, t.seq(who), t.base_fee(), &who.kp);
    let r = t.env.store.apply(&o);
    assert_eq!(r.ter, Ter::tesSUCCESS);
}

/// `testFailInPreclaim` (no escalation): preflight and preclaim answer as without a
/// queue.
#[test]
fn fail_in_preclaim() {
    let mut t = TxqEnv::new(1000);
    let [alice] = t.fund(xrp(1000), ["alice"]);
    let bob = Account::new("bob");
    t.expect(
        &alice,
        pay(&bob, Amount::Xrp(-1_000_000_000)),
        Ter::temBAD_AMOUNT,
    );
    t.expect(&alice, pay(&alice, xrp(100)), Ter::temREDUNDANT);
    t.expect(&alice, fee(noop(), 100_000_000_000), Ter::terINSUF_FEE_B);
}

/// `testQueuedTxFails` (minimum 2): the queued transaction's Sequence is taken past the
/// queue; at close it fails with tefPAST_SEQ and leaves.
#[test]
fn queued_tx_fails() {
    let mut t = TxqEnv::new(2);
    t.check(0, None, 0, 2);
    let [alice, _bob] = t.fund(xrp(1000), ["alice", "bob"]);
    t.check(0, None, 2, 2);
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    t.check(0, None, 3, 2);
    t.expect(&alice, noop(), QUEUED);
    t.check(1, None, 3, 2);
    bypass(&mut t, &alice, noop());
    t.check(1, None, 4, 2);
    t.close();
    t.check(0, Some(8), 0, 4);
}

/// `testTecResult` (minimum 2): an unfunded offer claims its fee from the queue too.
#[test]
fn tec_result() {
    let mut t = TxqEnv::new(2);
    t.check(0, None, 0, 2);
    let [alice, gw] = t.fund(xrp(50_000), ["alice", "gw"]);
    t.check(0, None, 2, 2);
    t.close();
    t.check(0, Some(4), 0, 2);
    let unfunded = || offer(xrp(1000), gw.iou("USD", 1000));
    t.expect(&alice, unfunded(), Ter::tecUNFUNDED_OFFER);
    t.check(0, Some(4), 1, 2);
    t.fill_ledger(&alice);
    t.check(0, Some(4), 3, 2);
    t.expect(&alice, unfunded(), QUEUED);
    t.check(1, Some(4), 3, 2);
    t.close();
    t.check(0, Some(6), 1, 3);
}

/// `testInLedgerSeq` (minimum 3): a queued Sequence also in the open ledger (applied
/// past the queue) does not stop the next ones; at close it is dropped.
#[test]
fn sequence_in_queue_and_open_ledger() {
    let mut t = TxqEnv::new(3);
    t.check(0, None, 0, 3);
    let [alice] = t.fund(xrp(50_000), ["alice"]);
    t.check(0, None, 1, 3);
    t.fill_ledger(&alice);
    t.check(0, None, 4, 3);
    let a = t.seq(&alice);
    t.expect(&alice, noop(), QUEUED);
    t.check(1, None, 4, 3);
    let cost = t.open_ledger_cost();
    bypass(&mut t, &alice, seq(fee(noop(), cost), a));
    t.check(1, None, 5, 3);
    let cost = t.open_ledger_cost();
    t.expect(&alice, seq(fee(noop(), cost), a + 1), Ter::tesSUCCESS);
    t.check(1, None, 6, 3);
    t.expect(&alice, seq(noop(), a + 2), QUEUED);
    t.expect(&alice, seq(noop(), a + 3), QUEUED);
    t.check(3, None, 6, 3);
    t.close();
    t.check(0, Some(12), 2, 6);
}

/// `testInLedgerTicket` (minimum 3): the same with a ticket; a ticket paying far more
/// than the open ledger's level applies alone (no fee averaging for tickets).
#[test]
fn ticket_in_queue_and_open_ledger() {
    let mut t = TxqEnv::new(3);
    t.check(0, None, 0, 3);
    let [alice] = t.fund(xrp(50_000), ["alice"]);
    t.check(0, None, 1, 3);
    let tkt = t.seq(&alice) + 1;
    t.expect(&alice, ticket_create(4), Ter::tesSUCCESS);
    t.fill_ledger(&alice);
    t.check(0, None, 4, 3);
    t.expect(&alice, ticket(noop(), tkt + 1), QUEUED);
    t.check(1, None, 4, 3);
    let cost = t.open_ledger_cost();
    bypass(&mut t, &alice, ticket(fee(noop(), cost), tkt + 1));
    t.check(1, None, 5, 3);
    let cost = t.open_ledger_cost();
    t.expect(&alice, fee(noop(), cost), Ter::tesSUCCESS);
    t.check(1, None, 6, 3);
    let cost = t.open_ledger_cost();
    t.expect(&alice, ticket(fee(noop(), cost), tkt), Ter::tesSUCCESS);
    t.check(1, None, 7, 3);
    t.expect(&alice, ticket(noop(), tkt + 2), QUEUED);
    t.check(2, None, 7, 3);
    t.expect(
        &alice,
        ticket(fee(noop(), 10_000_000), tkt + 3),
        Ter::tesSUCCESS,
    );
    t.check(2, None, 8, 3);
    t.close();
    t.check(0, Some(16), 1, 8);
}

/// `testAcctInQueueButEmpty` (minimum 3): an account whose queued transaction was
/// evicted is answered as one with nothing queued.
#[test]
fn account_in_queue_but_empty() {
    let mut t = TxqEnv::new(3);
    let base = t.base_fee();
    t.check(0, None, 0, 3);
    let [alice, bob, charlie] = t.fund(xrp(50_000), ["alice", "bob", "charlie"]);
    t.check(0, None, 3, 3);
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    t.check(0, None, 4, 3);
    let cost = t.open_ledger_cost();
    t.expect(&bob, fee(noop(), cost), Ter::tesSUCCESS);
    t.check(0, None, 5, 3);
    t.expect(&charlie, fee(noop(), base * 100), QUEUED);
    t.check(1, None, 5, 3);
    t.close();
    t.check(0, Some(10), 1, 5);

    for _ in 0..5 {
        t.expect(&bob, fee(noop(), base * 100), Ter::tesSUCCESS);
    }
    t.check(0, Some(10), 6, 5);
    let c = t.seq(&charlie);
    t.expect(&charlie, seq(fee(noop(), base * 15 / 10), c), QUEUED);
    let charlie_level = t.queued_level(&charlie);
    let (mut a, mut b) = (t.seq(&alice), t.seq(&bob));
    for (who, tenths) in [
        (&alice, 16),
        (&bob, 16),
        (&alice, 17),
        (&bob, 17),
        (&alice, 18),
        (&bob, 19),
        (&alice, 20),
        (&bob, 20),
        (&alice, 21),
    ] {
        let n = if who.id == alice.id { &mut a } else { &mut b };
        t.expect(who, seq(fee(noop(), base * tenths / 10), *n), QUEUED);
        *n += 1;
    }
    t.check_levels(10, Some(10), 6, 5, charlie_level + 1, MEDIAN);
    t.expect(&alice, seq(noop(), a), Ter::telCAN_NOT_QUEUE_FULL);
    t.expect(&bob, seq(fee(noop(), base * 22 / 10), b), QUEUED);
    assert!(t.env.store.queued_of(&charlie.id).is_empty(), "evicted");

    let high = |n| seq(fee(noop(), base * 800), n);
    t.expect(&charlie, high(c - 1), Ter::tefPAST_SEQ);
    t.expect(&charlie, high(c + 1), Ter::terPRE_SEQ);
    t.expect(&charlie, high(c), Ter::tesSUCCESS);
}
