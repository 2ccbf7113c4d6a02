//! TxQ_test `testZeroFeeTxn` ("zero transaction fee"), minimum 2: a free SetRegularKey
//! (fee 0, its base fee 0) is weighed at the base level, queued as a blocker, evicted
//! from a full queue and brought back from the local transactions.

use super::env::*;
use crate::support::engine::{regular_key, xrp};
use ledgerd::engine::Ter;
use ledgerd::ledgers::txq::BASE_LEVEL;

const QUEUED: Ter = Ter::terQUEUED;

#[test]
fn zero_fee_txn() {
    let mut t = TxqEnv::new(2);
    let base = t.base_fee();
    t.check(0, None, 0, 2);
    let [alice, bob] = t.fund(xrp(1000), ["alice", "bob"]);
    t.close_slow();
    let [carol] = t.fund(xrp(1000), ["carol"]);
    t.close_slow();

    for _ in 0..3 {
        t.expect(&alice, noop(), Ter::tesSUCCESS);
    }
    t.check(0, None, 3, 2);
    t.expect(&bob, noop(), QUEUED);
    t.check(1, None, 3, 2);
    // Alice's queue is empty, so this blocker may go in.
    t.expect(&alice, fee(regular_key(&bob), 0), QUEUED);
    assert_eq!(t.queued_level(&alice), BASE_LEVEL);
    t.check(2, None, 3, 2);
    t.close();
    t.check(0, Some(6), 2, 3);

    t.fill_ledger(&alice);
    t.check(0, Some(6), 4, 3);
    let mut fee_alice = base * 3;
    let mut a = t.seq(&alice);
    for _ in 0..4 {
        t.expect(&alice, seq(fee(noop(), fee_alice), a), QUEUED);
        fee_alice = (fee_alice + 1) * 125 / 100;
        a += 1;
    }
    t.check(4, Some(6), 4, 3);

    // Bob queues a free blocker.
    let b = t.seq(&bob);
    t.expect(&bob, fee(regular_key(&alice), 0), QUEUED);
    t.check(5, Some(6), 4, 3);

    // Carol fills the queue: bob's, then alice's last two leave.
    let mut fee_carol = fee_alice;
    let mut c = t.seq(&carol);
    for _ in 0..4 {
        t.expect(&carol, seq(fee(noop(), fee_carol), c), QUEUED);
        fee_carol = (fee_carol + 1) * 125 / 100;
        c += 1;
    }
    t.check_levels(6, Some(6), 4, 3, BASE_LEVEL * 3 + 1, MEDIAN);
    // And one more.
    t.expect(&carol, seq(fee(noop(), fee_carol), c), QUEUED);

    t.close();
    // Carol's five applied; alice's evicted ones and bob's come back from the local
    // transactions, behind alice's first.
    t.check(5, Some(8), 5, 4);
    assert_eq!(t.seq(&alice), a - 4);
    assert_eq!(t.seq(&bob), b);
    assert_eq!(t.seq(&carol), c + 1);

    t.close();
    t.check(0, Some(10), 5, 5);
    assert_eq!(
        (t.seq(&alice), t.seq(&bob), t.seq(&carol)),
        (a, b + 1, c + 1)
    );
    t.close();
    t.check(0, Some(10), 0, 5);
}
