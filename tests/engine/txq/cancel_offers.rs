//! TxQ_test `testCancelQueuedOffers` ("Cancel queued offers"): minimum 5,
//! `ledgers_in_queue` 5, `maximum_txn_per_account` 30, `minimum_queue_size` 50. Queued
//! offers, and queued transactions that cancel them (OfferSequence, OfferCancel), by
//! Sequence and by ticket, all drain at close.

use super::env::*;
use crate::support::engine::{ticket_create, xrp, Account, Tx};
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::protocol::amount::Amount;

const QUEUED: Ter = Ter::terQUEUED;

/// Alice queues two offers, then an offer replacing the one numbered `first` and an
/// OfferCancel of the one numbered `second`, each sent as `sent[i]` says (its
/// Sequence or ticket).
fn offers_and_cancels(
    t: &mut TxqEnv,
    alice: &Account,
    usd: Amount,
    sent: [&dyn Fn(Tx) -> Tx; 4],
    (first, second): (u32, u32),
) {
    let txs = [
        offer(usd, xrp(1000)),
        offer(usd, xrp(1001)),
        offer(usd, xrp(1002)).u32("OfferSequence", first),
        offer_cancel(second),
    ];
    for (tx, send) in txs.into_iter().zip(sent) {
        t.expect(alice, send(tx), QUEUED);
    }
}

#[test]
fn cancel_queued_offers() {
    let mut s = setup(5);
    s.ledgers_in_queue = 5;
    s.maximum_txn_per_account = 30;
    s.minimum_queue_size = 50;
    let mut t = TxqEnv::with(s, Fees::default());
    let usd = Account::new("gw").iou("USD", 1000);
    let [alice] = t.fund(xrp(100_000), ["alice"]);
    t.close();

    // By Sequence.
    t.fill_ledger(&alice);
    let a = t.seq(&alice);
    let by_seq = |n: u32| move |tx: Tx| seq(tx, n);
    let sent: [&dyn Fn(Tx) -> Tx; 4] = [&|tx| tx, &by_seq(a + 1), &by_seq(a + 2), &by_seq(a + 3)];
    offers_and_cancels(&mut t, &alice, usd, sent, (a, a + 1));
    t.close();
    t.check(0, Some(50), 4, 6);

    // By ticket, in reverse order; then tickets cancelling Sequence-based offers.
    let tkt = t.seq(&alice);
    t.expect(&alice, ticket_create(6), Ter::tesSUCCESS);
    t.close();
    t.fill_ledger(&alice);
    let a = t.seq(&alice);
    let by_ticket = |n: u32| move |tx: Tx| ticket(tx, n);
    let sent: [&dyn Fn(Tx) -> Tx; 4] = [
        &by_ticket(tkt + 4),
        &by_ticket(tkt + 3),
        &by_ticket(tkt + 2),
        &by_ticket(tkt + 1),
    ];
    offers_and_cancels(&mut t, &alice, usd, sent, (tkt + 4, tkt + 3));
    let sent: [&dyn Fn(Tx) -> Tx; 4] = [
        &|tx| tx,
        &by_seq(a + 1),
        &by_ticket(tkt + 5),
        &by_ticket(tkt + 6),
    ];
    offers_and_cancels(&mut t, &alice, usd, sent, (a, a + 1));
    t.close();
    t.check(0, Some(50), 8, 7);
}
