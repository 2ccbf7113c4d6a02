//! TxQ_test `testMultiTxnPerAccount` ("multi tx per account") and
//! `testUnexpectedBalanceChange`, minimum 3, reserves 200 / 50 drops (rippled votes them
//! in past the flag ledger in `initFee`; here the genesis ledger has them, so the queue
//! has no limit before the first close where rippled's has the flag ledger's).

use super::env::*;
use crate::support::engine::{drops, xrp};
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::ledgers::txq::{fee_level_paid, SeqProxy};

const QUEUED: Ter = Ter::terQUEUED;

fn low_reserves_env() -> TxqEnv {
    let fees = Fees {
        base_drops: 10,
        reserve_base_drops: 200,
        reserve_inc_drops: 50,
    };
    TxqEnv::with(setup(3), fees)
}

#[test]
fn multi_tx_per_account() {
    let mut t = low_reserves_env();
    t.check(0, None, 0, 3);
    let [alice] = t.fund(drops(2000), ["alice"]);
    let [bob, charlie, _daria] = t.fund(xrp(500_000), ["bob", "charlie", "daria"]);
    t.check(0, None, 4, 3);

    t.expect(&alice, fee(noop(), 11), QUEUED);
    t.check(1, None, 4, 3);
    let (a, b, c) = (t.seq(&alice), t.seq(&bob), t.seq(&charlie));
    // A gap: not queued.
    t.expect(&alice, seq(fee(noop(), 100), a + 2), Ter::telCAN_NOT_QUEUE);
    t.check(1, None, 4, 3);
    t.expect(&alice, seq(fee(noop(), 13), a + 1), QUEUED);
    t.check(2, None, 4, 3);
    t.expect(&alice, seq(fee(noop(), 17), a + 2), QUEUED);
    t.check(3, None, 4, 3);
    t.expect(&bob, noop(), QUEUED);
    t.check(4, None, 4, 3);
    t.expect(&bob, seq(fee(noop(), 50), b + 1), QUEUED);
    t.check(5, None, 4, 3);
    t.expect(&charlie, fee(noop(), 15), QUEUED);
    t.check(6, None, 4, 3);
    assert_eq!((t.seq(&alice), t.seq(&bob), t.seq(&charlie)), (a, b, c));

    t.close();
    // All but bob's second applied: it waited behind his first until the level rose.
    t.check(1, Some(8), 5, 4);
    assert_eq!(
        (t.seq(&alice), t.seq(&bob), t.seq(&charlie)),
        (a + 3, b + 1, c + 1)
    );

    // Alice fills the queue, each a drop cheaper.
    let mut alice_fee = 27;
    let first = t.seq(&alice);
    let last_ledger_seq = t.open_seq() + 2;
    for i in 0..7 {
        alice_fee -= 1;
        let tx = last_ledger(seq(fee(noop(), alice_fee), first + i), last_ledger_seq + i);
        t.expect(&alice, tx, QUEUED);
    }
    t.check_levels(8, Some(8), 5, 4, 513, MEDIAN);
    let queued = t.env.store.queued_of(&alice.id);
    assert_eq!(queued.len(), 7);
    for (i, (q, _)) in queued.iter().enumerate() {
        let paid = 26 - i as u64;
        assert_eq!(q.tx.seq_proxy, SeqProxy::Sequence(first + i as u32));
        assert_eq!(q.tx.fee_level, fee_level_paid(paid, 10, 10));
        assert!(q.tx.last_ledger_seq.is_some());
        assert_eq!((q.tx.fee_drops, q.tx.potential_spend_drops), (paid, 0));
        assert!(!q.tx.blocker);
    }
    let mut next = first + 7;

    // Her own earlier ones are not pushed out.
    let tx = last_ledger(seq(fee(noop(), alice_fee), next), last_ledger_seq + 7);
    t.expect(&alice, tx, Ter::telCAN_NOT_QUEUE_FULL);
    t.check_levels(8, Some(8), 5, 4, 513, MEDIAN);
    // Below alice's average: not queued.
    t.expect(&charlie, fee(noop(), 19), Ter::telCAN_NOT_QUEUE_FULL);
    t.check_levels(8, Some(8), 5, 4, 513, MEDIAN);
    // Above it: alice's last leaves.
    t.expect(&charlie, fee(noop(), 30), QUEUED);
    t.check_levels(8, Some(8), 5, 4, 538, MEDIAN);
    // No chain after the dropped one.
    t.expect(
        &alice,
        seq(fee(noop(), alice_fee), next),
        Ter::telCAN_NOT_QUEUE,
    );
    t.check_levels(8, Some(8), 5, 4, 538, MEDIAN);
    // And alice's account is the cheapest, so she cannot push another out.
    let full = Ter::telCAN_NOT_QUEUE_FULL;
    t.expect(&alice, seq(fee(noop(), alice_fee), next - 1), full);
    t.check_levels(8, Some(8), 5, 4, 538, MEDIAN);
    // A middle one replaced: 29 drops is not 125% of 24, 30 is.
    next = t.seq(&alice) + 2;
    t.expect(
        &alice,
        seq(fee(noop(), 29), next),
        Ter::telCAN_NOT_QUEUE_FEE,
    );
    t.check_levels(8, Some(8), 5, 4, 538, MEDIAN);
    t.expect(&alice, seq(fee(noop(), 30), next), QUEUED);
    t.check_levels(8, Some(8), 5, 4, 538, MEDIAN);

    t.close();
    // Alice's and charlie's applied; the dropped one came back from the local
    // transactions into the queue.
    t.check(4, Some(10), 6, 5);

    // Nothing may put more than the reserve in flight before the last queued one.
    next = t.seq(&alice) + 1;
    let broke = t.balance(&alice) - 62;
    t.expect(
        &alice,
        seq(fee(noop(), broke), next),
        Ter::telCAN_NOT_QUEUE_BALANCE,
    );
    t.check(4, Some(10), 6, 5);
    next += 2;
    t.expect(&alice, seq(fee(noop(), broke), next), Ter::terINSUF_FEE_B);
    t.check(4, Some(10), 6, 5);
    // The last one replaced by one that bankrupts her.
    t.expect(&alice, seq(fee(noop(), broke - 1), next), QUEUED);
    t.check(4, Some(10), 6, 5);
    next += 1;
    let fifth = (broke - 1) / 5;
    t.expect(
        &alice,
        seq(fee(noop(), fifth), next),
        Ter::telCAN_NOT_QUEUE_BALANCE,
    );
    t.check(4, Some(10), 6, 5);

    t.close();
    t.check(0, Some(12), 4, 6);
    t.close();
    t.check(0, Some(12), 0, 6);
    assert_eq!(t.balance(&alice), 0, "alice is broke");
    t.expect(&alice, noop(), Ter::terINSUF_FEE_B);

    // Bob and the account limit (10).
    t.fill_ledger(&bob);
    let b = t.seq(&bob);
    t.check(0, Some(12), 7, 6);
    for i in 0..10 {
        t.expect(&bob, seq(noop(), b + i), QUEUED);
    }
    t.check(10, Some(12), 7, 6);
    t.expect(&bob, seq(noop(), b + 10), Ter::telCAN_NOT_QUEUE_FULL);
    t.check(10, Some(12), 7, 6);
    // A replacement is not held to the limit.
    t.expect(&bob, seq(fee(noop(), 20), b + 5), QUEUED);
    t.check(10, Some(12), 7, 6);
    // Not a replacement that leaves the later ones unable to pay.
    let bankrupting = t.balance(&bob) - (9 * 10 - 1);
    let balance = Ter::telCAN_NOT_QUEUE_BALANCE;
    t.expect(&bob, seq(fee(noop(), bankrupting), b + 5), balance);
    t.check(10, Some(12), 7, 6);
    // Nor one whose fees in flight pass the (lowered) reserve.
    let bankrupting = t.balance(&bob) - 9 * 10;
    t.expect(&bob, seq(fee(noop(), bankrupting), b + 5), balance);
    t.check(10, Some(12), 7, 6);

    t.close();
    t.check(3, Some(14), 8, 7);
    t.close();
    t.check(0, Some(16), 3, 8);
    assert_eq!(t.balance(&bob), 499_999_999_750);
}

#[test]
fn unexpected_balance_change() {
    let mut t = low_reserves_env();
    t.check(0, None, 0, 3);
    let [alice] = t.fund(drops(5000), ["alice"]);
    let [bob] = t.fund(xrp(50_000), ["bob"]);
    t.check(0, None, 2, 3);
    let usd = |v: i64| bob.iou("USD", v);
    t.expect(&alice, offer(usd(5000), drops(5000)), Ter::tesSUCCESS);
    assert_eq!(t.env.owner_count(&alice), 1);
    t.check(0, None, 3, 3);
    t.close();
    t.check(0, Some(6), 0, 3);

    t.fill_ledger(&alice);
    t.check(0, Some(6), 4, 3);
    let mut a = t.seq(&alice);
    for _ in 0..3 {
        t.expect(&alice, seq(noop(), a), QUEUED);
        a += 1;
    }
    t.expect(&alice, seq(fee(noop(), 1000), a), QUEUED);
    t.check(4, Some(6), 4, 3);

    // Bob takes alice's offer down to her reserve.
    let cost = t.open_ledger_cost();
    t.expect(
        &bob,
        fee(offer(drops(5000), usd(5000)), cost),
        Ter::tesSUCCESS,
    );
    assert_eq!(t.balance(&alice), 250);
    assert_eq!(t.env.owner_count(&alice), 1);
    t.check(4, Some(6), 5, 3);

    // Too many fees in flight.
    let balance = Ter::telCAN_NOT_QUEUE_BALANCE;
    t.expect(&alice, seq(fee(noop(), 200), a + 1), balance);
    t.check(4, Some(6), 5, 3);

    t.close();
    // All of alice's claim a fee but the last (1000 drops).
    t.check(1, Some(10), 3, 5);
    // rippled reads 250 - 30: its closed ledger kept alice's fills before bob's offer.
    // The closed ledger's canonical order follows the transaction set's hash (as
    // rippled's), and here it put bob's offer first, so alice's fills paid after it:
    // what holds is that the three queued noops paid 30 from what the close left.
    let closed = t.env.store.closed();
    let root = closed
        .view
        .read(&keylet::account(&alice.id))
        .expect("alice");
    let after_close = root.amount_of(sf().balance).and_then(|a| a.as_drops());
    assert_eq!(after_close, Some(250 - 40));
    assert_eq!(t.balance(&alice), 250 - 40 - 30);
    t.expect(&alice, seq(fee(noop(), 200), a + 1), balance);
    t.check(1, Some(10), 3, 5);

    // Stuck until its retries run out (not its LastLedgerSequence: it has none).
    for _ in 0..9 {
        t.close();
        t.check(1, Some(10), 0, 5);
    }
    t.close();
    t.check(0, Some(10), 0, 5);
}
