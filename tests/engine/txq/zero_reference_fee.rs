//! TxQ_test `testZeroReferenceFee` ("Zero reference fee"), minimum 3, base fee and
//! reserves 0 (rippled votes them in with `initFee`; here the genesis ledger has them),
//! and `testConsequences` ("consequences"): what the queue weighs of a transaction.

use super::env::*;
use crate::support::engine::{ticket_create, trust, xrp, Account};
use ledgerd::engine::consequences::{self, TxConsequences};
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::ledgers::txq::{FeeReport, BASE_LEVEL};

const QUEUED: Ter = Ter::terQUEUED;

/// `fee`'s levels and drops (rippled's `env.rpc("fee")` checks).
fn figures(r: &FeeReport) -> ([u64; 4], [u64; 4]) {
    (
        [
            r.median_level,
            r.minimum_level,
            r.open_ledger_level,
            r.reference_level,
        ],
        [r.base_fee, r.median_fee, r.minimum_fee, r.open_ledger_fee],
    )
}

#[test]
fn zero_reference_fee() {
    let free = Fees {
        base_drops: 0,
        reserve_base_drops: 0,
        reserve_inc_drops: 0,
    };
    let mut t = TxqEnv::with(setup(3), free);
    t.check(0, None, 0, 3);
    assert_eq!(t.base_fee(), 0);
    let r = t.env.store.fee_report();
    assert_eq!(
        figures(&r),
        ([MEDIAN, BASE_LEVEL, BASE_LEVEL, BASE_LEVEL], [0; 4])
    );

    let [alice] = t.fund(xrp(100_000), ["alice"]);
    t.check(0, None, 1, 3);
    t.close();
    t.check(0, Some(6), 0, 3);
    t.fill_ledger(&alice);
    t.check(0, Some(6), 4, 3);
    // The open ledger's cost reckons a zero base fee as one drop.
    let cost = t.open_ledger_cost();
    assert_eq!(cost, 889);
    t.expect(&alice, fee(noop(), cost), Ter::tesSUCCESS);
    t.check(0, Some(6), 5, 3);
    // A free transaction is weighed at the base level, ten drops at 11 levels' worth.
    let a = t.seq(&alice);
    t.expect(&alice, noop(), QUEUED);
    assert_eq!(t.queued_level(&alice), BASE_LEVEL);
    t.check(1, Some(6), 5, 3);
    t.expect(&alice, seq(fee(noop(), 10), a + 1), QUEUED);
    t.check(2, Some(6), 5, 3);
    let r = t.env.store.fee_report();
    assert_eq!(
        figures(&r),
        ([MEDIAN, BASE_LEVEL, 355_555, BASE_LEVEL], [0, 0, 0, 1389])
    );
    t.close();
    t.check(0, Some(10), 2, 5);
}

/// `testConsequences`: an OfferCancel, a TrustSet and a TicketCreate pay their fee,
/// spend no XRP and block nothing.
#[test]
fn consequences_of_plain_transactions() {
    let alice = Account::new("alice");
    let carol = Account::new("carol");
    let signed = |tx: crate::support::engine::Tx, who: &Account| tx.signed(&who.id, 1, 10, &who.kp);
    let cases = [
        (signed(seq(offer_cancel(3), 5), &alice), 1),
        (signed(trust(alice.iou("USD", 50_000_000)), &carol), 1),
        (signed(ticket_create(1), &alice), 1),
    ];
    for (tx, consumed) in cases {
        assert_eq!(
            consequences::of(&tx),
            TxConsequences {
                blocker: false,
                fee_drops: 10,
                potential_spend_drops: 0,
                sequences_consumed: consumed,
            }
        );
    }
}
