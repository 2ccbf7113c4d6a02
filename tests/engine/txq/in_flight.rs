//! TxQ_test `testInFlightBalance` ("In-flight balance checks"), minimum 3, reserves
//! 200 / 50 drops: what a queued transaction may spend (its fee, and XRP it may send or
//! offer above the reserve) is taken from the balance the later ones are preclaimed
//! against. rippled lowers the reserves by a fee vote past the flag ledger (`initFee`);
//! here the genesis ledger has them, so the queue has no limit until the first close
//! where rippled's has the flag ledger's (`initQueueMax`).

use super::env::*;
use crate::support::engine::{fset, pay, trust, xrp, Account, Tx};
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::protocol::amount::IouValue;

const QUEUED: Ter = Ter::terQUEUED;

fn low_reserves() -> Fees {
    Fees {
        base_drops: 10,
        reserve_base_drops: 200,
        reserve_inc_drops: 50,
    }
}

/// The close that ends each block: the queue drains into a ledger expecting one more.
#[track_caller]
fn close_and_check(t: &mut TxqEnv, limit: &mut u64, in_ledger: u64) {
    t.close();
    *limit += 1;
    t.check(0, Some(*limit * 2), in_ledger, *limit);
}

/// One block: `filler` fills the ledger, alice queues `first` and a noop after it, and
/// the close applies both. Returns alice's Sequence and balance before.
#[track_caller]
fn queue_then_noop(
    t: &mut TxqEnv,
    limit: &mut u64,
    alice: &Account,
    filler: &Account,
    first: Tx,
) -> (u32, i64) {
    t.fill_ledger(filler);
    t.check(0, Some(*limit * 2), *limit + 1, *limit);
    let (a, bal) = (t.seq(alice), t.balance(alice));
    t.expect(alice, first, QUEUED);
    t.expect(alice, seq(noop(), a + 1), QUEUED);
    t.check(2, Some(*limit * 2), *limit + 1, *limit);
    close_and_check(t, limit, 2);
    (a, bal)
}

fn usd_of(t: &TxqEnv, who: &Account, gw: &Account) -> IouValue {
    t.env.iou_balance(who, gw, "USD")
}

#[test]
fn in_flight_balance_checks() {
    let mut t = TxqEnv::with(setup(3), low_reserves());
    let mut limit = 3;
    t.check(0, None, 0, limit);
    let [alice, charlie, gw] = t.fund(xrp(50_000), ["alice", "charlie", "gw"]);
    t.expect(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    t.check(0, None, limit + 1, limit);
    let usd = |v: i64| gw.iou("USD", v);
    let bux = |v: i64| gw.iou("BUX", v);
    let drops = |t: &TxqEnv, who: &Account| t.balance(who);

    // An offer that could take all of alice's XRP above the reserve, at the base fee,
    // does not block: the reserve is protected.
    let (a, bal) = (t.seq(&alice), drops(&t, &alice));
    assert_eq!((bal, t.env.owner_count(&alice)), (50_000_000_000, 0));
    t.expect(&alice, offer(bux(5000), xrp(50_000)), QUEUED);
    t.check(1, None, limit + 1, limit);
    t.expect(&alice, seq(noop(), a + 1), QUEUED);
    t.check(2, None, limit + 1, limit);
    close_and_check(&mut t, &mut limit, 2);
    // The offer did not cross.
    assert_eq!(drops(&t, &alice), bal - 20);
    assert_eq!(t.env.owner_count(&alice), 1);
    t.expect(&alice, offer_cancel(a), Ter::tesSUCCESS);

    // The same offer paying half the reserve, and a noop just shy of it in fees: a
    // third finds too little left (terINSUF_FEE_B), and applies from the local
    // transactions once the two before it did.
    t.fill_ledger(&alice);
    t.check(0, Some(limit * 2), limit + 1, limit);
    let (a, bal) = (t.seq(&alice), drops(&t, &alice));
    t.expect(&alice, fee(offer(bux(5000), xrp(50_000)), 100), QUEUED);
    t.check(1, Some(limit * 2), limit + 1, limit);
    t.expect(&alice, seq(fee(noop(), 99), a + 1), QUEUED);
    t.check(2, Some(limit * 2), limit + 1, limit);
    t.expect(&alice, seq(fee(noop(), 51), a + 2), Ter::terINSUF_FEE_B);
    t.check(2, Some(limit * 2), limit + 1, limit);
    close_and_check(&mut t, &mut limit, 3);
    assert_eq!(drops(&t, &alice), bal - 250);
    assert_eq!(t.env.owner_count(&alice), 1);
    t.expect(&alice, offer_cancel(a), Ter::tesSUCCESS);

    // A fee above the reserve: the first queues, the next cannot
    // (telCAN_NOT_QUEUE_BALANCE) and applies from the local transactions.
    t.fill_ledger(&alice);
    t.check(0, Some(limit * 2), limit + 1, limit);
    let (a, bal) = (t.seq(&alice), drops(&t, &alice));
    t.expect(&alice, fee(offer(bux(5000), xrp(50_000)), 300), QUEUED);
    t.check(1, Some(limit * 2), limit + 1, limit);
    let balance = Ter::telCAN_NOT_QUEUE_BALANCE;
    t.expect(&alice, seq(fee(noop(), 51), a + 1), balance);
    t.check(1, Some(limit * 2), limit + 1, limit);
    close_and_check(&mut t, &mut limit, 2);
    assert_eq!(drops(&t, &alice), bal - 351);
    assert_eq!(t.env.owner_count(&alice), 1);
    t.expect(&alice, offer_cancel(a), Ter::tesSUCCESS);

    // A small offer allows later ones.
    let (a, bal) = queue_then_noop(&mut t, &mut limit, &alice, &alice, offer(bux(50), xrp(500)));
    assert_eq!(drops(&t, &alice), bal - 20);
    assert_eq!(t.env.owner_count(&alice), 1);
    t.expect(&alice, offer_cancel(a), Ter::tesSUCCESS);

    // A large XRP payment does not block later ones (and is unfunded).
    let large = pay(&charlie, xrp(50_000));
    let (_, bal) = queue_then_noop(&mut t, &mut limit, &alice, &alice, large);
    assert_eq!(drops(&t, &alice), bal - 20);
    assert_eq!(t.env.owner_count(&alice), 0);

    // A small XRP payment allows later ones, and pays.
    let small = pay(&charlie, xrp(500));
    let (_, bal) = queue_then_noop(&mut t, &mut limit, &alice, &alice, small);
    assert_eq!(drops(&t, &alice), bal - 500_000_000 - 20);

    // A large IOU payment allows later ones: it spends no XRP but its fee.
    let amount = usd(500_000);
    t.expect(&alice, trust(usd(50_000_000)), Ter::tesSUCCESS);
    t.expect(&charlie, trust(usd(50_000_000)), Ter::tesSUCCESS);
    t.check(0, Some(limit * 2), 4, limit);
    t.close();
    t.expect(&gw, pay(&alice, amount), Ter::tesSUCCESS);
    t.check(0, Some(limit * 2), 1, limit);
    t.close();
    let alice_usd = usd_of(&t, &alice, &gw);
    let iou = pay(&charlie, amount);
    let (_, bal) = queue_then_noop(&mut t, &mut limit, &alice, &alice, iou);
    assert_eq!(drops(&t, &alice), bal - 20);
    assert_eq!(usd_of(&t, &alice, &gw), IouValue::ZERO);
    assert_eq!(usd_of(&t, &charlie, &gw), alice_usd);
    assert_eq!(t.env.owner_count(&alice), 1);
    assert_eq!(t.env.owner_count(&charlie), 1);

    // XRP to IOU through gw's offer: a SendMax above the balance does not block (the
    // reserve is protected); the payment takes only what it needs.
    t.expect(&gw, offer(xrp(500_000), usd(50_000)), Ter::tesSUCCESS);
    t.close();
    let cross = |t: &mut TxqEnv, usd_amount: i64, send_max: i64, spent: i64, limit: &mut u64| {
        let charlie_usd = usd_of(t, &charlie, &gw);
        let payment = pay(&charlie, usd(usd_amount)).amount("SendMax", xrp(send_max));
        let (_, bal) = queue_then_noop(t, limit, &alice, &charlie, payment);
        assert_eq!(drops(t, &alice), bal - spent * 1_000_000 - 20);
        assert_eq!(usd_of(t, &alice, &gw), IouValue::ZERO);
        let paid = IouValue::from_i64(usd_amount);
        let sum = charlie_usd.checked_add(&paid).expect("sum");
        assert_eq!(usd_of(t, &charlie, &gw), sum);
        assert_eq!(t.env.owner_count(&alice), 1);
        assert_eq!(t.env.owner_count(&charlie), 1);
        bal
    };
    let bal = cross(&mut t, 1000, 60_000, 10_000, &mut limit);
    assert!(bal < 60_000_000_000);
    let bal = cross(&mut t, 500, 6000, 5000, &mut limit);
    assert!(bal > 6_001_000_000);

    // Below the reserve: a fee of 25 of the 30 drops left queues, the next cannot pay.
    let rest = drops(&t, &alice) - 30;
    t.expect(&alice, fee(noop(), rest), Ter::tesSUCCESS);
    t.close();
    t.fill_ledger(&charlie);
    t.check(0, Some(limit * 2), limit + 1, limit);
    let a = t.seq(&alice);
    assert_eq!(drops(&t, &alice), 30);
    t.expect(&alice, fee(noop(), 25), QUEUED);
    t.expect(&alice, seq(noop(), a + 1), Ter::terINSUF_FEE_B);
    assert_eq!(drops(&t, &alice), 30);
    t.check(1, Some(limit * 2), limit + 1, limit);
    close_and_check(&mut t, &mut limit, 1);
    assert_eq!(drops(&t, &alice), 5);
}
