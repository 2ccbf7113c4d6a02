//! TxQ_test `testCancelQueuedOffers` ("Cancel queued offers"): minimum 5,
//! `ledgers_in_queue` 5, `maximum_txn_per_account` 30, `minimum_queue_size` 50. Queued
//! offers, and queued transactions that cancel them (OfferSequence, OfferCancel), by
//! Sequence and by ticket, all drain at close.

use super::env::*;
use crate::support::engine::{ticket_create, xrp, Account};
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;

const QUEUED: Ter = Ter::terQUEUED;

#[test]
fn cancel_queued_offers() {
    let mut s = setup(5);
    s.ledgers_in_queue = 5;
    s.maximum_txn_per_account = 30;
    s.minimum_queue_size = 50;
    let mut t = TxqEnv::with(s, Fees::default());
    let gw = Account::new("gw");
    let usd = gw.iou("USD", 1000);
    let [alice] = t.fund(xrp(100_000), ["alice"]);
    t.close();

    // By Sequence.
    t.fill_ledger(&alice);
    let a = t.seq(&alice);
    t.expect(&alice, offer(usd, xrp(1000)), QUEUED);
    t.expect(&alice, seq(offer(usd, xrp(1001)), a + 1), QUEUED);
    let replacing = offer(usd, xrp(1002)).u32("OfferSequence", a);
    t.expect(&alice, seq(replacing, a + 2), QUEUED);
    t.expect(&alice, seq(offer_cancel(a + 1), a + 3), QUEUED);
    t.close();
    t.check(0, Some(50), 4, 6);

    // By ticket, in reverse order, and tickets cancelling Sequence-based offers.
    let tkt = t.seq(&alice);
    t.expect(&alice, ticket_create(6), Ter::tesSUCCESS);
    t.close();
    t.fill_ledger(&alice);
    let a = t.seq(&alice);
    t.expect(&alice, ticket(offer(usd, xrp(1000)), tkt + 4), QUEUED);
    t.expect(&alice, ticket(offer(usd, xrp(1001)), tkt + 3), QUEUED);
    let replacing = offer(usd, xrp(1002)).u32("OfferSequence", tkt + 4);
    t.expect(&alice, ticket(replacing, tkt + 2), QUEUED);
    t.expect(&alice, ticket(offer_cancel(tkt + 3), tkt + 1), QUEUED);
    t.expect(&alice, offer(usd, xrp(1000)), QUEUED);
    t.expect(&alice, seq(offer(usd, xrp(1001)), a + 1), QUEUED);
    let replacing = offer(usd, xrp(1002)).u32("OfferSequence", a);
    t.expect(&alice, ticket(replacing, tkt + 5), QUEUED);
    t.expect(&alice, ticket(offer_cancel(a + 1), tkt + 6), QUEUED);
    t.close();
    t.check(0, Some(50), 8, 7);
}
