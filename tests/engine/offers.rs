//! Offer stories (issue 15), after rippled's `Offer_test.cpp` and `Flow_test.cpp`:
//! offers placed in their book and owner directory, crossed in full or in part by a
//! taker, bridged through XRP, consumed by a cross-currency payment, cancelled,
//! replaced, expired, killed (IoC / FoK), and refused when unfunded or unauthorized.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::offer_create::tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::types::Issue;
use support::engine::*;

fn offer(pays: Amount, gets: Amount) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
}

fn cancel(seq: u32) -> Tx {
    Tx::new("OfferCancel").u32("OfferSequence", seq)
}

/// gw issues USD; alice holds 100 USD; bob trusts USD.
fn market() -> (Env, Account, Account, Account) {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gateway", "alice", "bob"]);
    // Issued currencies leave a book toward a holder only if the issuer ripples.
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    (env, gw, alice, bob)
}

#[test]
fn an_offer_that_crosses_nothing_is_placed_in_its_book() {
    let (mut env, gw, alice, _) = market();
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    let key = keylet::offer(&alice.id, seq);
    let o = env.read(&key).expect("offer placed");
    assert_eq!(o.amount_of(sf().taker_pays), Some(xrp(500)));
    assert_eq!(o.amount_of(sf().taker_gets), Some(gw.iou("USD", 100)));
    assert_eq!(env.owner_count(&alice), 2, "the line and the offer");
    assert!(env.owned(&alice).contains(&key));
    let usd = Issue {
        currency: cur("USD"),
        issuer: gw.id,
    };
    let dir_key = o.h256_of(sf().book_directory).expect("book directory");
    let base = keylet::book_base(&Issue::XRP, &usd);
    assert_eq!(
        dir_key.0[..24],
        base.0[..24],
        "the page is in the XRP/USD book"
    );
    let dir = env.read(&dir_key).expect("book page");
    assert_eq!(
        dir.u64_of(sf().exchange_rate),
        Some(keylet::book_quality_of(&dir_key))
    );
    // getRate(100 USD, 500 XRP): 5,000,000 drops per USD as mantissa 5e15, exponent
    // -9, stored as (exponent + 100) << 56 | mantissa.
    assert_eq!(
        keylet::book_quality_of(&dir_key),
        (91u64 << 56) | 5_000_000_000_000_000,
    );
}

#[test]
fn a_taker_crosses_an_offer_in_full() {
    let (mut env, gw, alice, bob) = market();
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    let (a, b) = (env.balance(&alice), env.balance(&bob));
    let bseq = env.seq(&bob);
    env.apply(&bob, offer(gw.iou("USD", 100), xrp(500)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("100"));
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("0"));
    assert_eq!(env.balance(&alice), a + 500_000_000);
    assert_eq!(env.balance(&bob), b - 500_000_000 - FEE);
    assert!(env.read(&keylet::offer(&alice.id, seq)).is_none());
    assert!(
        env.read(&keylet::offer(&bob.id, bseq)).is_none(),
        "nothing left to place"
    );
    assert_eq!(env.owner_count(&alice), 1);
    assert_eq!(env.owner_count(&bob), 1);
}

#[test]
fn a_smaller_taker_leaves_the_rest_of_the_offer_at_its_quality() {
    let (mut env, gw, alice, bob) = market();
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&bob, offer(gw.iou("USD", 40), xrp(200)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("40"));
    let o = env
        .read(&keylet::offer(&alice.id, seq))
        .expect("rest of the offer");
    assert_eq!(o.amount_of(sf().taker_pays), Some(xrp(300)));
    assert_eq!(o.amount_of(sf().taker_gets), Some(gw.iou("USD", 60)));
}

#[test]
fn a_worse_taker_does_not_cross_and_both_offers_rest() {
    let (mut env, gw, alice, bob) = market();
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    let bseq = env.seq(&bob);
    // Bob pays only 4 XRP per USD; alice asks 5.
    env.apply(&bob, offer(gw.iou("USD", 100), xrp(400)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
    assert!(env.read(&keylet::offer(&bob.id, bseq)).is_some());
    assert_eq!(env.owner_count(&bob), 2);
}

#[test]
fn a_better_taker_crosses_at_the_makers_price() {
    let (mut env, gw, alice, bob) = market();
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    let b = env.balance(&bob);
    // Bob would pay 6 XRP per USD for 50 USD; he pays alice's 5.
    env.apply(&bob, offer(gw.iou("USD", 50), xrp(300)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("50"));
    assert_eq!(env.balance(&bob), b - 250_000_000 - FEE);
}

#[test]
fn a_cross_currency_payment_takes_the_offer() {
    let (mut env, gw, alice, _) = market();
    let [carol, dave] = env.funded(["carol", "dave"]);
    env.apply(&dave, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    let c = env.balance(&carol);
    env.apply(
        &carol,
        pay(&dave, gw.iou("USD", 50)).amount("SendMax", xrp(300)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&dave, &gw, "USD"), val("50"));
    assert_eq!(env.balance(&carol), c - 250_000_000 - FEE);
    let o = env.read(&keylet::offer(&alice.id, seq)).expect("rest");
    assert_eq!(o.amount_of(sf().taker_gets), Some(gw.iou("USD", 50)));
    // Without enough SendMax: partial, nothing moves.
    env.apply(
        &carol,
        pay(&dave, gw.iou("USD", 50)).amount("SendMax", xrp(200)),
        Ter::tecPATH_PARTIAL,
    );
    assert_eq!(env.iou_balance(&dave, &gw, "USD"), val("50"));
    // A partial payment delivers what the SendMax buys.
    env.apply(
        &carol,
        pay(&dave, gw.iou("USD", 50))
            .amount("SendMax", xrp(200))
            .flags(ledgerd::engine::payment::tf::PARTIAL_PAYMENT),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&dave, &gw, "USD"), val("90"));
}

#[test]
fn two_issued_currencies_cross_through_xrp() {
    let mut env = Env::new();
    let [gw, alice, carol, dave] = env.funded(["gateway", "alice", "carol", "dave"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&dave, trust(gw.iou("EUR", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&dave, gw.iou("EUR", 100)), Ter::tesSUCCESS);
    // alice sells USD for XRP; carol sells XRP for EUR.
    env.apply(&alice, offer(xrp(100), gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&carol, offer(gw.iou("EUR", 100), xrp(100)), Ter::tesSUCCESS);
    let (a, c) = (env.balance(&alice), env.balance(&carol));
    // dave sells EUR for USD: no EUR/USD book, so the XRP bridge carries it.
    env.apply(
        &dave,
        offer(gw.iou("USD", 100), gw.iou("EUR", 100)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&dave, &gw, "USD"), val("100"));
    assert_eq!(env.iou_balance(&dave, &gw, "EUR"), val("0"));
    assert_eq!(env.iou_balance(&carol, &gw, "EUR"), val("100"));
    assert_eq!(env.balance(&alice), a + 100_000_000);
    assert_eq!(env.balance(&carol), c - 100_000_000);
}

#[test]
fn immediate_or_cancel_and_fill_or_kill() {
    let (mut env, gw, alice, bob) = market();
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    // Nothing to cross at this price: killed, nothing placed.
    let bseq = env.seq(&bob);
    env.apply(
        &bob,
        offer(gw.iou("USD", 10), xrp(10)).flags(tf::IMMEDIATE_OR_CANCEL),
        Ter::tecKILLED,
    );
    assert!(env.read(&keylet::offer(&bob.id, bseq)).is_none());
    // More than the book holds: killed, alice's offer untouched.
    env.apply(
        &bob,
        offer(gw.iou("USD", 200), xrp(1000)).flags(tf::FILL_OR_KILL),
        Ter::tecKILLED,
    );
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
    let o = env.read(&keylet::offer(&alice.id, seq)).expect("untouched");
    assert_eq!(o.amount_of(sf().taker_gets), Some(gw.iou("USD", 100)));
    // IoC takes what there is and places nothing.
    let bseq = env.seq(&bob);
    env.apply(
        &bob,
        offer(gw.iou("USD", 200), xrp(1000)).flags(tf::IMMEDIATE_OR_CANCEL),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("100"));
    assert!(env.read(&keylet::offer(&bob.id, bseq)).is_none());
}

#[test]
fn offers_need_funds_authorization_and_reserve() {
    let (mut env, gw, _alice, bob) = market();
    // Bob has no USD to sell.
    env.apply(
        &bob,
        offer(xrp(10), gw.iou("USD", 10)),
        Ter::tecUNFUNDED_OFFER,
    );
    // Buying from an issuer that requires authorization.
    let [gw2, carol] = env.funded(["gateway2", "carol"]);
    env.apply(&gw2, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    env.apply(&carol, offer(gw2.iou("USD", 10), xrp(10)), Ter::tecNO_LINE);
    env.apply(&carol, trust(gw2.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&carol, offer(gw2.iou("USD", 10), xrp(10)), Ter::tecNO_AUTH);
    env.apply(&gw2, authorize(&carol, "USD"), Ter::tesSUCCESS);
    env.apply(&carol, offer(gw2.iou("USD", 10), xrp(10)), Ter::tesSUCCESS);
    // Not enough XRP for one more reserve increment.
    let eve = Account::new("eve");
    env.fund(&eve, xrp(11));
    env.apply(
        &eve,
        offer(gw.iou("USD", 1), xrp(1)),
        Ter::tecINSUF_RESERVE_OFFER,
    );
    // A global freeze stops offers in the frozen asset.
    env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
    env.apply(&bob, offer(gw.iou("USD", 1), xrp(1)), Ter::tecFROZEN);
}

#[test]
fn cancel_and_replace() {
    let (mut env, gw, alice, _) = market();
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    // OfferSequence in a new offer replaces the old one.
    let seq2 = env.seq(&alice);
    env.apply(
        &alice,
        offer(xrp(400), gw.iou("USD", 80)).u32("OfferSequence", seq),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&keylet::offer(&alice.id, seq)).is_none());
    assert!(env.read(&keylet::offer(&alice.id, seq2)).is_some());
    assert_eq!(env.owner_count(&alice), 2);
    env.apply(&alice, cancel(seq2), Ter::tesSUCCESS);
    assert!(env.read(&keylet::offer(&alice.id, seq2)).is_none());
    assert_eq!(env.owner_count(&alice), 1);
    // Cancelling what is gone is fine; a future sequence is not.
    env.apply(&alice, cancel(seq2), Ter::tesSUCCESS);
    let future = env.seq(&alice) + 5;
    env.apply(&alice, cancel(future), Ter::temBAD_SEQUENCE);
    env.apply(&alice, cancel(0), Ter::temBAD_SEQUENCE);
}

#[test]
fn malformed_offers_are_refused() {
    let (mut env, gw, alice, _) = market();
    env.apply(&alice, offer(xrp(1), xrp(2)), Ter::temBAD_OFFER);
    env.apply(
        &alice,
        offer(gw.iou("USD", 1), gw.iou("USD", 2)),
        Ter::temREDUNDANT,
    );
    env.apply(&alice, offer(xrp(0), gw.iou("USD", 1)), Ter::temBAD_OFFER);
    env.apply(
        &alice,
        offer(xrp(1), gw.iou("USD", 1)).flags(tf::IMMEDIATE_OR_CANCEL | tf::FILL_OR_KILL),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &alice,
        offer(xrp(1), gw.iou("USD", 1)).u32("Expiration", 0),
        Ter::temBAD_EXPIRATION,
    );
    env.apply(
        &alice,
        offer(xrp(1), gw.iou("USD", 1)).u32("Expiration", 1),
        Ter::tecEXPIRED,
    );
}

#[test]
fn an_expired_offer_met_by_a_taker_is_removed() {
    let (mut env, gw, alice, bob) = market();
    let seq = env.seq(&alice);
    let when = env.parent_close() + 10;
    env.apply(
        &alice,
        offer(xrp(500), gw.iou("USD", 100)).u32("Expiration", when),
        Ter::tesSUCCESS,
    );
    env.close_after(20);
    env.close_after(20);
    let bseq = env.seq(&bob);
    env.apply(&bob, offer(gw.iou("USD", 100), xrp(500)), Ter::tesSUCCESS);
    assert!(
        env.read(&keylet::offer(&alice.id, seq)).is_none(),
        "expired: removed"
    );
    assert_eq!(env.owner_count(&alice), 1);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
    assert!(
        env.read(&keylet::offer(&bob.id, bseq)).is_some(),
        "bob's rests"
    );
}

#[test]
fn an_offer_whose_owner_spent_its_funds_is_removed_when_met() {
    let (mut env, gw, alice, bob) = market();
    let seq = env.seq(&alice);
    env.apply(&alice, offer(xrp(500), gw.iou("USD", 100)), Ter::tesSUCCESS);
    // alice sends her USD away: the offer is unfunded.
    env.apply(&alice, pay(&gw, gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&bob, offer(gw.iou("USD", 100), xrp(500)), Ter::tesSUCCESS);
    assert!(env.read(&keylet::offer(&alice.id, seq)).is_none());
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
}

#[test]
fn a_transfer_fee_is_paid_by_the_offer_owner_when_crossing() {
    let (mut env, gw, alice, bob) = market();
    // 25% transfer fee.
    env.apply(
        &gw,
        account_set().u32("TransferRate", 1_250_000_000),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, offer(xrp(400), gw.iou("USD", 80)), Ter::tesSUCCESS);
    env.apply(&bob, offer(gw.iou("USD", 80), xrp(400)), Ter::tesSUCCESS);
    // bob receives 80; alice pays 80 plus the 25% fee.
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("80"));
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("0"));
}

/// DeepFreeze (rippled `Freeze_test` testPaymentsWhenDeepFrozen and `SetTrust` preclaim):
/// a deep freeze needs a freeze, stops the holder receiving from others as well as
/// sending (the issuer and the holder still pay each other), refuses offers to buy the
/// frozen token, and cannot outlive the freeze it rests on.
#[test]
fn a_deep_freeze_stops_receiving_too() {
    use ledgerd::engine::trust_set::tf as tst;
    use ledgerd::ledger::flags::lsf;
    let (mut env, gw, alice, bob) = market();
    env.apply(&gw, pay(&bob, gw.iou("USD", 10)), Ter::tesSUCCESS);
    let freeze = |flags: u32| trust(alice.iou("USD", 0)).flags(flags);
    env.apply(&gw, freeze(tst::SET_DEEP_FREEZE), Ter::tecNO_PERMISSION);
    env.apply(
        &gw,
        freeze(tst::SET_FREEZE | tst::CLEAR_DEEP_FREEZE),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &gw,
        freeze(tst::SET_FREEZE | tst::SET_DEEP_FREEZE),
        Ter::tesSUCCESS,
    );
    let line = env
        .read(&keylet::line(&gw.id, &alice.id, &cur("USD")))
        .expect("line");
    let (f, d) = if gw.id > alice.id {
        (lsf::HIGH_FREEZE, lsf::HIGH_DEEP_FREEZE)
    } else {
        (lsf::LOW_FREEZE, lsf::LOW_DEEP_FREEZE)
    };
    assert_eq!(line.flags() & (f | d), f | d);
    // The issuer and alice still pay each other; bob cannot pay alice, and alice cannot
    // buy USD on the exchange.
    env.apply(&gw, pay(&alice, gw.iou("USD", 1)), Ter::tesSUCCESS);
    env.apply(&alice, pay(&gw, gw.iou("USD", 1)), Ter::tesSUCCESS);
    env.apply(&bob, pay(&alice, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    env.apply(&alice, pay(&bob, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    env.apply(&alice, offer(gw.iou("USD", 1), xrp(1)), Ter::tecFROZEN);
    // The freeze cannot go while the deep freeze stays.
    env.apply(&gw, freeze(tst::CLEAR_FREEZE), Ter::tecNO_PERMISSION);
    env.apply(
        &gw,
        freeze(tst::CLEAR_FREEZE | tst::CLEAR_DEEP_FREEZE),
        Ter::tesSUCCESS,
    );
    env.apply(&bob, pay(&alice, gw.iou("USD", 1)), Ter::tesSUCCESS);
    // An account that gave up freezing cannot freeze.
    env.apply(&gw, fset(asf::NO_FREEZE), Ter::tesSUCCESS);
    env.apply(&gw, freeze(tst::SET_FREEZE), Ter::tecNO_PERMISSION);
}
