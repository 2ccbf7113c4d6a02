//! TxQ_test `testLastLedgerSeq` ("last ledger sequence"), minimum 2: a queued
//! transaction needs `minimum_last_ledger_buffer` ledgers of LastLedgerSequence, waits
//! while better ones drain first, and leaves the queue when its last ledger closes.

use super::env::*;
use crate::support::engine::xrp;
use ledgerd::engine::Ter;
use ledgerd::ledgers::txq::BASE_LEVEL;

const QUEUED: Ter = Ter::terQUEUED;

#[test]
fn last_ledger_seq_expires_a_waiting_transaction() {
    let mut t = TxqEnv::new(2);
    let base = t.base_fee();
    t.check(0, None, 0, 2);

    // Fund across several slow closes so the metrics stay at their minimum.
    let [alice, bob] = t.fund(xrp(1000), ["alice", "bob"]);
    t.close_slow();
    let [charlie, daria] = t.fund(xrp(1000), ["charlie", "daria"]);
    t.close_slow();
    let [edgar, felicia] = t.fund(xrp(1000), ["edgar", "felicia"]);
    t.close_slow();
    t.check(0, None, 0, 2);

    for who in [&bob, &charlie, &daria] {
        t.expect(who, noop(), Ter::tesSUCCESS);
    }
    t.check(0, None, 3, 2);
    assert_eq!(t.open_seq(), 6);

    // LastLedgerSequence 7 leaves less than the two ledgers' buffer; 8 is enough.
    t.expect(&alice, last_ledger(noop(), 7), Ter::telCAN_NOT_QUEUE);
    t.expect(&alice, last_ledger(noop(), 8), QUEUED);

    // Higher fees keep alice's waiting.
    let large = base * 700;
    for who in [&bob, &charlie, &daria, &edgar] {
        t.expect(who, fee(noop(), large), QUEUED);
    }
    t.check(5, None, 3, 2);
    let alice_queued = t.env.store.queued_of(&alice.id);
    assert_eq!(alice_queued.len(), 1);
    let (a, _) = &alice_queued[0];
    assert_eq!(a.tx.fee_level, BASE_LEVEL);
    assert_eq!(a.tx.last_ledger_seq, Some(8));
    assert!(!a.tx.blocker);
    let bob_queued = t.env.store.queued_of(&bob.id);
    assert_eq!(bob_queued.len(), 1);
    assert_eq!(bob_queued[0].0.tx.fee_level, BASE_LEVEL * 700);
    assert_eq!(bob_queued[0].0.tx.last_ledger_seq, None);
    assert!(t.env.store.queued_of(&t.env.master.id).is_empty());

    t.close();
    t.check(1, Some(6), 4, 3);

    // Keep alice's waiting.
    for who in [&bob, &charlie, &daria, &edgar] {
        t.expect(who, fee(noop(), large), QUEUED);
    }
    t.expect(&felicia, fee(noop(), large - 1), QUEUED);
    t.check_levels(6, Some(6), 4, 3, BASE_LEVEL + 1, MEDIAN);

    t.close();
    // Alice's is still there.
    t.check_levels(1, Some(8), 5, 4, BASE_LEVEL, BASE_LEVEL * 700);
    assert_eq!(t.seq(&alice), 3);

    let larger = base * 800;
    for who in [&bob, &charlie, &daria] {
        t.expect(who, fee(noop(), larger), QUEUED);
    }
    let d = t.seq(&daria);
    t.expect(&daria, seq(fee(noop(), larger), d + 1), QUEUED);
    t.expect(&edgar, fee(noop(), larger), QUEUED);
    t.expect(&felicia, fee(noop(), larger - 1), QUEUED);
    let f = t.seq(&felicia);
    t.expect(&felicia, seq(fee(noop(), larger - 1), f + 1), QUEUED);
    t.check_levels(8, Some(8), 5, 4, BASE_LEVEL + 1, BASE_LEVEL * 700);

    t.close();
    // Alice's expired with ledger 8; one of felicia's still waits.
    t.check_levels(1, Some(10), 6, 5, BASE_LEVEL, BASE_LEVEL * 700);
    assert_eq!(t.seq(&alice), 3);
    assert_eq!(t.seq(&felicia), 7);

    t.close();
    // And now the queue is empty.
    t.check_levels(0, Some(12), 1, 6, BASE_LEVEL, BASE_LEVEL * 800);
    assert_eq!(t.seq(&alice), 3);
    assert_eq!(t.seq(&felicia), 8);
}
