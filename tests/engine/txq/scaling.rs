//! TxQ_test `testScaling` ("scaling") and `testMaximum` ("maximum tx"): how the expected
//! ledger size grows after busy closes (`normal_consensus_increase_percent`), falls
//! after slow ones (`slow_consensus_decrease_percent`) and stops at
//! `maximum_txn_in_ledger`. (`testMaximum`'s refused settings, a minimum above the
//! maximum, are the configuration's to check, not the queue's.)

use super::env::*;
use crate::support::engine::{fset, xrp, Account};
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::ledgers::txq::{to_fee_level, BASE_LEVEL};

const QUEUED: Ter = Ter::terQUEUED;

/// `makeConfig` with the scaling test's percentages, target 10 and 200 per account.
fn scaling_env(increase: u64, decrease: u64) -> TxqEnv {
    let mut s = setup(3);
    s.normal_consensus_increase_percent = increase;
    s.slow_consensus_decrease_percent = decrease;
    s.target_txn_in_ledger = 10;
    s.maximum_txn_per_account = 200;
    TxqEnv::with(s, Fees::default())
}

/// `env.fund(XRP(50000000), alice)` (a payment and DefaultRipple), the ledger filled,
/// then `count` noops queued.
fn alice_queues(t: &mut TxqEnv, count: u32) -> Account {
    t.check(0, None, 0, 3);
    let [alice] = t.fund(xrp(50_000_000), ["alice"]);
    t.expect(&alice, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    t.fill_ledger(&alice);
    t.check(0, None, 4, 3);
    let a = t.seq(&alice);
    for n in 0..count {
        t.expect(&alice, seq(noop(), a + n), QUEUED);
    }
    t.check(count as u64, None, 4, 3);
    alice
}

#[test]
fn scaling_by_a_quarter_and_half() {
    let mut t = scaling_env(25, 50);
    alice_queues(&mut t, 140);
    let mut queued = 140;
    // Busy closes: 4 + 25% = 5, then 7, 10, 13, 17, 22, 28.
    for (drained, max, per_ledger) in [
        (6, 10, 5),
        (8, 14, 7),
        (11, 20, 10),
        (14, 26, 13),
        (18, 34, 17),
        (23, 44, 22),
    ] {
        t.close();
        queued -= drained;
        t.check_levels(
            queued,
            Some(max),
            drained,
            per_ledger,
            BASE_LEVEL + 1,
            MEDIAN,
        );
    }
    t.close();
    queued -= 29;
    t.check(queued, Some(56), 29, 28);
    // Slow closes: back down to 3 in three, and it stays there.
    for (drained, per_ledger) in [(15, 14), (8, 7), (4, 3), (4, 3)] {
        t.close_slow();
        queued -= drained;
        t.check(queued, Some(56), drained, per_ledger);
    }
    assert_eq!(queued, 0);
}

#[test]
fn scaling_by_one_and_a_half() {
    let mut t = scaling_env(150, 150);
    alice_queues(&mut t, 43);
    t.close();
    t.check_levels(32, Some(20), 11, 10, BASE_LEVEL + 1, MEDIAN);
    t.close();
    t.check(4, Some(54), 28, 27);
    // A decrease past 100% is 100%: down to the minimum at once.
    t.close_slow();
    t.check(0, Some(54), 4, 3);
}

#[test]
fn maximum_caps_the_expected_size() {
    let mut s = setup(2);
    s.minimum_txn_in_ledger = 5;
    s.target_txn_in_ledger = 4;
    s.maximum_txn_in_ledger = Some(5);
    let mut t = TxqEnv::with(s, Fees::default());
    t.check(0, None, 0, 2);
    let [alice] = t.fund(xrp(50_000), ["alice"]);
    t.check(0, None, 1, 2);
    let mut median = 0;
    for i in 0..10 {
        let cost = t.open_ledger_cost();
        if i == 4 {
            // Of the 11 transactions, the sixth cheapest: this one.
            median = to_fee_level(cost as u64, t.base_fee() as u64);
        }
        t.expect(&alice, fee(noop(), cost), Ter::tesSUCCESS);
    }
    t.check(0, None, 11, 2);
    t.close();
    // Without the maximum the expected size would be 11.
    t.check_levels(0, Some(10), 0, 5, BASE_LEVEL, median.max(MEDIAN));
}
