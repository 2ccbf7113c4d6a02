//! rippled's own order-book test cases, translated into engine stories with rippled's
//! expected numbers: `Offer_test.cpp` (OfferBaseUtil_test, all amendments but the
//! permissioned DEX), `Flow_test.cpp` and `CrossingLimits_test.cpp`.
//!
//! The world is rippled's jtx one: base fee 10 drops, reserves 200 XRP base and 50 XRP
//! per owned object (`setupConfigForUnitTests`), accounts keyed by their name as
//! passphrase, and `fund` that leaves exactly the asked amount and sets DefaultRipple.
//! `env.trust(..)` (the jtx member) refunds its fee; `env(trust(..))` does not, and the
//! stories keep that distinction.
//!
//! Amendment branches: fixReducedOffersV1/V2, fixRmSmallIncreasedQOffers, fixFillOrKill,
//! fixUniversalNumber, FlowSortStrands, featureImmediateOfferKilled and
//! featureDepositPreauth on; DeepFreeze, permissioned DEX and MPT off.

use crate::support;

use std::sync::Arc;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::offer_create::tf;
use ledgerd::engine::payment::tf as ptf;
use ledgerd::engine::trust_set::tf as ttf;
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::amount::{Amount, IouValue, Rounding};
use ledgerd::protocol::st::{PathStep, StObject};
use ledgerd::protocol::types::Currency;
use support::engine::*;

/// The base fee of rippled's unit-test config, in drops.
const F: i64 = 10;

/// `reserve(env, n)` of rippled's tests under the unit-test fees (200 XRP + 50 XRP each).
fn reserve(n: i64) -> i64 {
    200_000_000 + n * 50_000_000
}

/// An amount of `issuer`'s `code`, from text.
fn iou(issuer: &Account, code: &str, v: &str) -> Amount {
    issuer.iou_s(code, v)
}

/// An issued amount from mantissa and exponent (rippled's `STAmount{issue, m, e}`).
fn iou_me(issuer: &Account, code: &str, mantissa: u64, exponent: i32) -> Amount {
    Amount::iou(ivm(mantissa, exponent), cur(code), issuer.id)
}

fn ivm(mantissa: u64, exponent: i32) -> IouValue {
    IouValue::from_parts(mantissa as u128, exponent, false, Rounding::Nearest).unwrap()
}

fn offer(pays: Amount, gets: Amount) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
}

fn offer_f(pays: Amount, gets: Amount, flags: u32) -> Tx {
    offer(pays, gets).flags(flags)
}

fn cancel(seq: u32) -> Tx {
    Tx::new("OfferCancel").u32("OfferSequence", seq)
}

/// jtx `rate(gw, r)`: the TransferRate `uint32(1e9 * r)`, truncated as jtx does (so
/// `rate(1.005)` is 1004999999, which rippled's expected numbers depend on).
fn rate(r: f64) -> Tx {
    account_set().u32("TransferRate", (1_000_000_000.0 * r) as u32)
}

/// jtx `~USD`: a book step to `issuer`'s `code`.
fn book(issuer: &Account, code: &str) -> PathStep {
    PathStep {
        account: None,
        currency: Some(cur(code)),
        issuer: Some(issuer.id),
    }
}

/// jtx `~XRP`.
fn book_xrp() -> PathStep {
    PathStep {
        account: None,
        currency: Some(Currency::XRP),
        issuer: None,
    }
}

/// An account step.
fn acct(a: &Account) -> PathStep {
    PathStep {
        account: Some(a.id),
        currency: None,
        issuer: None,
    }
}

/// jtx's `Env` with rippled's unit-test fees.
struct J {
    env: Env,
}

impl J {
    fn new() -> J {
        let mut cfg = LedgerConfig {
            fees: Fees {
                base_drops: F as u64,
                reserve_base_drops: 200_000_000,
                reserve_inc_drops: 50_000_000,
            },
            ..LedgerConfig::default()
        };
        cfg.apply.signature_check = Some(Arc::new(ledgerd::engine::transactor::verify_signature));
        J {
            env: Env::with_config(cfg),
        }
    }

    /// jtx `env.fund(amount, accounts...)`: each ends with exactly `drops` and DefaultRipple.
    fn fund(&mut self, drops: i64, who: &[&Account]) {
        for a in who {
            let m = self.env.master.clone();
            self.env
                .apply(&m, pay(a, Amount::Xrp(drops + F)), Ter::tesSUCCESS);
            self.env
                .apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        }
    }

    /// jtx `env.fund(amount, noripple(account))`.
    fn fund_noripple(&mut self, drops: i64, who: &[&Account]) {
        for a in who {
            let m = self.env.master.clone();
            self.env
                .apply(&m, pay(a, Amount::Xrp(drops)), Ter::tesSUCCESS);
        }
    }

    /// jtx `env.trust(limit, accounts...)`: the fee is given back.
    fn trust(&mut self, limit: Amount, who: &[&Account]) {
        for a in who {
            self.env.apply(a, trust(limit), Ter::tesSUCCESS);
            let m = self.env.master.clone();
            self.env.apply(&m, pay(a, Amount::Xrp(F)), Ter::tesSUCCESS);
        }
    }

    /// `env(tx)` expecting tesSUCCESS.
    fn ok(&mut self, who: &Account, tx: Tx) {
        self.env.apply(who, tx, Ter::tesSUCCESS);
    }

    /// `env(tx, ter(want))`.
    fn ter(&mut self, who: &Account, tx: Tx, want: Ter) {
        self.env.apply(who, tx, want);
    }

    fn close(&mut self) {
        self.env.close();
    }

    fn seq(&self, who: &Account) -> u32 {
        self.env.seq(who)
    }

    fn xrp(&self, who: &Account) -> i64 {
        self.env.balance(who)
    }

    fn owners(&self, who: &Account) -> u32 {
        self.env.owner_count(who)
    }

    /// `holder`'s balance of `issuer`'s `code` (0 without a line).
    fn bal(&self, holder: &Account, issuer: &Account, code: &str) -> IouValue {
        self.env.iou_balance(holder, issuer, code)
    }

    fn has_line(&self, a: &Account, b: &Account, code: &str) -> bool {
        self.env.line(a, b, code).is_some()
    }

    /// `who`'s offers, by sequence.
    fn offers(&self, who: &Account) -> Vec<Arc<StObject>> {
        let mut v: Vec<Arc<StObject>> = self
            .env
            .owned(who)
            .iter()
            .filter_map(|k| self.env.read(k))
            .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(0x006f))
            .collect();
        v.sort_by_key(|o| o.u32_of(sf().sequence));
        v
    }

    fn n_offers(&self, who: &Account) -> usize {
        self.offers(who).len()
    }

    /// rippled's `isOffer`: `who` owns an offer with exactly these amounts.
    fn is_offer(&self, who: &Account, pays: &Amount, gets: &Amount) -> bool {
        self.offers(who).iter().any(|o| {
            o.amount_of(sf().taker_pays).as_ref() == Some(pays)
                && o.amount_of(sf().taker_gets).as_ref() == Some(gets)
        })
    }

    /// The one offer `who` owns: (TakerPays, TakerGets).
    fn only_offer(&self, who: &Account) -> (Amount, Amount) {
        let o = self.offers(who);
        assert_eq!(o.len(), 1, "{} owns one offer", who.name);
        (
            o[0].amount_of(sf().taker_pays).unwrap(),
            o[0].amount_of(sf().taker_gets).unwrap(),
        )
    }

    /// The open ledger's parent close time (rippled's `lastClose(env)`).
    fn last_close(&self) -> u32 {
        self.env.parent_close()
    }

    /// `n` offers by `who`, each in its own ledger (CrossingLimits_test `n_offers`).
    fn n_offers_make(&mut self, n: usize, who: &Account, pays: Amount, gets: Amount) {
        let before = self.owners(who);
        for _ in 0..n {
            self.ok(who, offer(pays, gets));
            self.close();
        }
        assert_eq!(self.owners(who), before + n as u32);
    }
}

/// Drops in `n` XRP.
fn xd(n: i64) -> i64 {
    n * 1_000_000
}

fn acc(name: &str) -> Account {
    Account::new(name)
}

// Offer_test testRmFundedOffer: a funded XRP-out offer on the unused, worse path is not
// removed; the good BTC/USD offer is consumed.
#[test]
fn rm_funded_offer() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
    j.close();
    j.trust(iou(&gw, "USD", "1000"), &[&alice, &bob, &carol]);
    j.trust(iou(&gw, "BTC", "1000"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&alice, iou(&gw, "BTC", "1000")));
    j.ok(&gw, pay(&carol, iou(&gw, "USD", "1000")));
    j.ok(&gw, pay(&carol, iou(&gw, "BTC", "1000")));
    j.ok(&carol, offer(iou(&gw, "BTC", "49"), xrp_amt(49)));
    j.ok(&carol, offer(iou(&gw, "BTC", "51"), xrp_amt(51)));
    j.ok(&carol, offer(xrp_amt(50), iou(&gw, "USD", "50")));
    j.ok(&carol, offer(xrp_amt(50), iou(&gw, "USD", "50")));
    j.ok(&carol, offer(iou(&gw, "BTC", "1"), iou(&gw, "USD", "100")));
    let tx = pay(&bob, iou(&gw, "USD", "100"))
        .paths(vec![
            vec![book_xrp(), book(&gw, "USD")],
            vec![book(&gw, "USD")],
        ])
        .amount("SendMax", iou(&gw, "BTC", "1000"))
        .flags(ptf::PARTIAL_PAYMENT);
    j.ok(&alice, tx);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("100"));
    assert!(!j.is_offer(&carol, &iou(&gw, "BTC", "1"), &iou(&gw, "USD", "100")));
    assert!(j.is_offer(&carol, &iou(&gw, "BTC", "49"), &xrp_amt(49)));
}

fn xrp_amt(n: i64) -> Amount {
    Amount::Xrp(xd(n))
}

// Offer_test testCanceledOffer: OfferSequence replaces an offer, a missing one is
// ignored, OfferCancel removes, and an expired replacement (tecEXPIRED under
// DepositPreauth) does not cancel the offer it names.
#[test]
fn canceled_offer() {
    let mut j = J::new();
    let (gw, alice) = (acc("gateway"), acc("alice"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&alice, &gw]);
    j.close();
    j.trust(usd("100"), &[&alice]);
    j.close();
    j.ok(&gw, pay(&alice, usd("50")));
    j.close();
    let offer1 = j.seq(&alice);
    j.ok(&alice, offer(xrp_amt(500), usd("100")));
    assert_eq!(j.n_offers(&alice), 1);
    j.close();
    assert!(j.is_offer(&alice, &xrp_amt(500), &usd("100")));
    let offer2 = j.seq(&alice);
    j.ok(
        &alice,
        offer(xrp_amt(300), usd("100")).u32("OfferSequence", offer1),
    );
    assert_eq!(j.n_offers(&alice), 1);
    j.close();
    assert!(j.is_offer(&alice, &xrp_amt(300), &usd("100")));
    assert!(!j.is_offer(&alice, &xrp_amt(500), &usd("100")));
    j.ok(
        &alice,
        offer(xrp_amt(400), usd("200")).u32("OfferSequence", offer1),
    );
    assert_eq!(j.n_offers(&alice), 2);
    j.close();
    assert!(j.is_offer(&alice, &xrp_amt(300), &usd("100")));
    assert!(j.is_offer(&alice, &xrp_amt(400), &usd("200")));
    let offer4 = j.seq(&alice);
    j.ok(&alice, offer(xrp_amt(222), usd("111")));
    assert_eq!(j.n_offers(&alice), 3);
    j.close();
    j.ok(&alice, cancel(offer4));
    j.close();
    assert_eq!(j.seq(&alice), offer4 + 2);
    assert!(!j.is_offer(&alice, &xrp_amt(222), &usd("111")));
    assert_eq!(j.n_offers(&alice), 2);
    let t = j.last_close();
    j.ter(
        &alice,
        offer(xrp_amt(5), usd("2"))
            .u32("Expiration", t)
            .u32("OfferSequence", offer2),
        Ter::tecEXPIRED,
    );
    j.close();
    assert_eq!(j.n_offers(&alice), 2);
    assert!(j.is_offer(&alice, &xrp_amt(300), &usd("100")));
    assert!(!j.is_offer(&alice, &xrp_amt(5), &usd("2")));
}

// Offer_test testTinyPayment: an epsilon EUR payment through 101 offers succeeds.
#[test]
fn tiny_payment() {
    let mut j = J::new();
    let (alice, bob, carol, gw) = (acc("alice"), acc("bob"), acc("carol"), acc("gw"));
    j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
    j.close();
    j.trust(iou(&gw, "USD", "1000"), &[&alice, &bob, &carol]);
    j.trust(iou(&gw, "EUR", "1000"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&alice, iou(&gw, "USD", "100")));
    j.ok(&gw, pay(&carol, iou(&gw, "EUR", "100")));
    for _ in 0..101 {
        j.ok(&carol, offer(iou(&gw, "USD", "1"), iou(&gw, "EUR", "2")));
    }
    let epsilon = iou_me(&gw, "EUR", 1_000_000_000_000_000, -96);
    let tx = pay(&bob, epsilon)
        .paths(vec![vec![book(&gw, "EUR")]])
        .amount("SendMax", iou(&gw, "USD", "100"));
    j.ok(&alice, tx);
}

// Offer_test testXRPTinyPayment: the funded 2-drop offer behind a nearly-consumed one is
// crossed in part, not removed.
#[test]
fn xrp_tiny_payment() {
    let mut j = J::new();
    let names = ["alice", "bob", "carol", "dan", "erin", "gw"];
    let [alice, bob, carol, dan, erin, gw] = names.map(acc);
    j.fund(xd(10_000), &[&alice, &bob, &carol, &dan, &erin, &gw]);
    j.close();
    j.trust(
        iou(&gw, "USD", "1000"),
        &[&alice, &bob, &carol, &dan, &erin],
    );
    j.close();
    j.ok(&gw, pay(&carol, iou(&gw, "USD", "0.99999")));
    j.ok(&gw, pay(&dan, iou(&gw, "USD", "1")));
    j.ok(&gw, pay(&erin, iou(&gw, "USD", "1")));
    j.close();
    j.ok(&carol, offer(drops(1), iou(&gw, "USD", "0.99999")));
    j.ok(&dan, offer(xrp_amt(100), iou(&gw, "USD", "1")));
    j.close();
    j.ok(&erin, offer(drops(2), iou(&gw, "USD", "1")));
    let tx = pay(&bob, iou(&gw, "USD", "1"))
        .paths(vec![vec![book(&gw, "USD")]])
        .amount("SendMax", xrp_amt(102))
        .flags(ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT);
    j.ok(&alice, tx);
    assert_eq!(j.n_offers(&carol), 0);
    assert_eq!(j.n_offers(&dan), 1);
    assert_eq!(j.bal(&erin, &gw, "USD"), val("0.99999"));
    assert_eq!(j.n_offers(&erin), 1);
}

// Offer_test testRmSmallIncreasedQOffersXRP (offer crossing): carol's underfunded
// 1-drop offer is removed, not taken; alice crosses bob's when she pays 2 drops.
#[test]
fn rm_small_increased_q_offers_xrp_crossing() {
    for cross_both in [false, true] {
        let mut j = J::new();
        let (alice, bob, carol, gw) = (acc("alice"), acc("bob"), acc("carol"), acc("gw"));
        let usd = |v: &str| iou(&gw, "USD", v);
        j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
        j.close();
        j.trust(usd("1000"), &[&alice, &bob, &carol]);
        j.ok(&gw, pay(&carol, usd("0.499")));
        j.ok(&gw, pay(&bob, usd("100")));
        j.close();
        j.ok(&carol, offer(drops(1), usd("1")));
        j.close();
        j.ok(&bob, offer_f(drops(2), usd("1"), tf::PASSIVE));
        j.close();
        assert_eq!((j.n_offers(&bob), j.n_offers(&carol)), (1, 1));
        let gets = if cross_both { drops(2) } else { drops(1) };
        j.ok(&alice, offer(usd("1"), gets));
        j.close();
        assert_eq!(j.n_offers(&carol), 0, "removed");
        assert_eq!(j.bal(&carol, &gw, "USD"), val("0.499"), "but not taken");
        if cross_both {
            assert_eq!(j.n_offers(&alice), 0);
            assert_eq!(j.bal(&alice, &gw, "USD"), val("1"));
        } else {
            assert_eq!(j.n_offers(&alice), 1);
            assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
        }
    }
}

// Offer_test testRmSmallIncreasedQOffersXRP (payments): tecPATH_PARTIAL without
// tfPartialPayment; with it carol's offer is removed but not taken.
#[test]
fn rm_small_increased_q_offers_xrp_payment() {
    for partial in [false, true] {
        let mut j = J::new();
        let (alice, bob, carol, gw) = (acc("alice"), acc("bob"), acc("carol"), acc("gw"));
        let usd = |v: &str| iou(&gw, "USD", v);
        j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
        j.close();
        j.trust(usd("1000"), &[&alice, &bob, &carol]);
        j.close();
        j.ok(&gw, pay(&carol, usd("0.999")));
        j.close();
        j.ok(&gw, pay(&bob, usd("100")));
        j.close();
        j.ok(&carol, offer(drops(1), usd("1")));
        j.close();
        j.ok(&bob, offer_f(drops(2), usd("2"), tf::PASSIVE));
        j.close();
        let flags = if partial {
            ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT
        } else {
            ptf::NO_RIPPLE_DIRECT
        };
        let want = if partial {
            Ter::tesSUCCESS
        } else {
            Ter::tecPATH_PARTIAL
        };
        let tx = pay(&bob, usd("5"))
            .paths(vec![vec![book(&gw, "USD")]])
            .amount("SendMax", xrp_amt(1))
            .flags(flags);
        j.ter(&alice, tx, want);
        j.close();
        if partial {
            assert_eq!(j.n_offers(&carol), 0);
            assert_eq!(j.bal(&carol, &gw, "USD"), val("0.999"));
        }
    }
}

// Offer_test testRmSmallIncreasedQOffersIOU (offer crossing).
#[test]
fn rm_small_increased_q_offers_iou_crossing() {
    for cross_both in [false, true] {
        let mut j = J::new();
        let (alice, bob, carol, gw) = (acc("alice"), acc("bob"), acc("carol"), acc("gw"));
        let usd = |v: &str| iou(&gw, "USD", v);
        let eur = |v: &str| iou(&gw, "EUR", v);
        j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
        j.close();
        j.trust(usd("1000"), &[&alice, &bob, &carol]);
        j.trust(eur("1000"), &[&alice, &bob, &carol]);
        let tiny = iou_me(&gw, "USD", 1_000_000_000_000_000, -96);
        j.ok(&gw, pay(&carol, tiny));
        j.ok(&gw, pay(&bob, usd("100")));
        j.ok(&gw, pay(&alice, eur("100")));
        j.close();
        j.ok(&carol, offer(eur("1"), usd("10")));
        j.close();
        j.ok(&bob, offer_f(eur("1"), usd("5"), tf::PASSIVE));
        j.close();
        let gets = if cross_both { eur("0.2") } else { eur("0.1") };
        j.ok(&alice, offer(usd("1"), gets));
        j.close();
        assert_eq!(j.n_offers(&carol), 0);
        assert_eq!(j.bal(&carol, &gw, "USD"), tiny.as_iou().unwrap());
        if cross_both {
            assert_eq!(j.n_offers(&alice), 0);
            assert_eq!(j.bal(&alice, &gw, "USD"), val("1"));
        } else {
            assert_eq!(j.n_offers(&alice), 1);
            assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
        }
    }
}

// Offer_test testRmSmallIncreasedQOffersIOU (payments).
#[test]
fn rm_small_increased_q_offers_iou_payment() {
    for partial in [false, true] {
        let mut j = J::new();
        let (alice, bob, carol, gw) = (acc("alice"), acc("bob"), acc("carol"), acc("gw"));
        let usd = |v: &str| iou(&gw, "USD", v);
        let eur = |v: &str| iou(&gw, "EUR", v);
        j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
        j.close();
        j.trust(usd("1000"), &[&alice, &bob, &carol]);
        j.trust(eur("1000"), &[&alice, &bob, &carol]);
        j.close();
        let tiny = iou_me(&gw, "USD", 1_000_000_000_000_000, -96);
        j.ok(&gw, pay(&carol, tiny));
        j.ok(&gw, pay(&bob, usd("100")));
        j.ok(&gw, pay(&alice, eur("100")));
        j.close();
        j.ok(&carol, offer(eur("1"), usd("2")));
        j.close();
        j.ok(&bob, offer_f(eur("2"), usd("4"), tf::PASSIVE));
        j.close();
        let flags = if partial {
            ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT
        } else {
            ptf::NO_RIPPLE_DIRECT
        };
        let want = if partial {
            Ter::tesSUCCESS
        } else {
            Ter::tecPATH_PARTIAL
        };
        let tx = pay(&bob, usd("5"))
            .paths(vec![vec![book(&gw, "USD")]])
            .amount("SendMax", eur("10"))
            .flags(flags);
        j.ter(&alice, tx, want);
        j.close();
        if partial {
            assert_eq!(j.n_offers(&carol), 0);
            assert_eq!(j.bal(&carol, &gw, "USD"), tiny.as_iou().unwrap());
        }
    }
}

// Offer_test testEnforceNoRipple: a NoRipple account step after an offer is dry; with
// default flags the same payment ripples through bob.
#[test]
fn enforce_no_ripple() {
    for no_ripple in [true, false] {
        let mut j = J::new();
        let (alice, bob, carol, dan) = (acc("alice"), acc("bob"), acc("carol"), acc("dan"));
        let (gw1, gw2) = (acc("gw1"), acc("gw2"));
        let usd1 = |v: &str| iou(&gw1, "USD", v);
        let usd2 = |v: &str| iou(&gw2, "USD", v);
        if no_ripple {
            j.fund(xd(10_000), &[&alice]);
            j.fund_noripple(xd(10_000), &[&bob]);
            j.fund(xd(10_000), &[&carol, &dan, &gw1, &gw2]);
            j.close();
            j.trust(usd1("1000"), &[&alice, &carol, &dan]);
            j.ok(&bob, trust(usd1("1000")).flags(ttf::SET_NO_RIPPLE));
            j.trust(usd2("1000"), &[&alice, &carol, &dan]);
            j.ok(&bob, trust(usd2("1000")).flags(ttf::SET_NO_RIPPLE));
        } else {
            j.fund(xd(10_000), &[&alice, &bob, &carol, &dan, &gw1, &gw2]);
            j.close();
            j.trust(usd1("1000"), &[&alice, &bob, &carol, &dan]);
            j.trust(usd2("1000"), &[&alice, &bob, &carol, &dan]);
        }
        j.ok(&gw1, pay(&dan, usd1("50")));
        j.ok(&gw1, pay(&bob, usd1("50")));
        j.ok(&gw2, pay(&bob, usd2("50")));
        j.ok(&dan, offer(xrp_amt(50), usd1("50")));
        let tx = pay(&carol, usd2("50"))
            .paths(vec![vec![book(&gw1, "USD"), acct(&bob)]])
            .amount("SendMax", xrp_amt(50))
            .flags(ptf::NO_RIPPLE_DIRECT);
        if no_ripple {
            j.ter(&alice, tx, Ter::tecPATH_DRY);
        } else {
            j.ok(&alice, tx);
            assert_eq!(j.xrp(&alice), xd(10_000 - 50) - F);
            assert_eq!(j.bal(&bob, &gw1, "USD"), val("100"));
            assert_eq!(j.bal(&bob, &gw2, "USD"), val("0"));
            assert_eq!(j.bal(&carol, &gw2, "USD"), val("50"));
        }
    }
}

// Offer_test testInsufficientReserve: no offer goes on the books without the reserve,
// but crossing in part or in full still succeeds.
#[test]
fn insufficient_reserve() {
    let r = reserve(0);
    // No crossing.
    {
        let mut j = J::new();
        let (gw, alice) = (acc("gateway"), acc("alice"));
        j.fund(xd(1_000_000), &[&gw]);
        j.fund(r + F, &[&alice]);
        j.ok(&alice, trust(iou(&gw, "USD", "1000")));
        j.ok(&gw, pay(&alice, iou(&gw, "USD", "1000")));
        j.ter(
            &alice,
            offer(xrp_amt(1000), iou(&gw, "USD", "1000")),
            Ter::tecINSUF_RESERVE_OFFER,
        );
        assert_eq!(j.xrp(&alice), r - F);
        assert_eq!(j.owners(&alice), 1);
    }
    // Partial cross.
    {
        let mut j = J::new();
        let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
        j.fund(xd(1_000_000), &[&gw]);
        j.fund(r + F + xd(1000), &[&bob]);
        j.ok(&bob, offer(iou(&gw, "USD", "500"), xrp_amt(500)));
        j.fund(r + F, &[&alice]);
        j.ok(&alice, trust(iou(&gw, "USD", "1000")));
        j.ok(&gw, pay(&alice, iou(&gw, "USD", "1000")));
        j.ok(&alice, offer(xrp_amt(1000), iou(&gw, "USD", "1000")));
        assert_eq!(j.xrp(&alice), r - F + xd(500));
        assert_eq!(j.bal(&alice, &gw, "USD"), val("500"));
        assert_eq!(j.owners(&alice), 1);
        assert_eq!(j.xrp(&bob), r + xd(500));
        assert_eq!(j.bal(&bob, &gw, "USD"), val("500"));
        assert_eq!(j.owners(&bob), 1);
    }
    // Full cross of two offers.
    {
        let mut j = J::new();
        let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
        j.fund(xd(1_000_000), &[&gw]);
        j.fund(r + F + xd(1000), &[&bob, &carol]);
        j.ok(&bob, offer(iou(&gw, "USD", "500"), xrp_amt(500)));
        j.ok(&carol, offer(iou(&gw, "USD", "1000"), xrp_amt(1000)));
        j.fund(r + F, &[&alice]);
        j.ok(&alice, trust(iou(&gw, "USD", "1000")));
        j.ok(&gw, pay(&alice, iou(&gw, "USD", "1000")));
        j.ok(&alice, offer(xrp_amt(1000), iou(&gw, "USD", "1000")));
        assert_eq!(j.xrp(&alice), r - F + xd(1000));
        assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
        assert_eq!(j.owners(&alice), 1);
        assert_eq!(j.xrp(&bob), r + xd(500));
        assert_eq!(j.bal(&bob, &gw, "USD"), val("500"));
        assert_eq!(j.owners(&bob), 1);
        assert_eq!(j.xrp(&carol), r + xd(500));
        assert_eq!(j.bal(&carol, &gw, "USD"), val("500"));
        assert_eq!(j.owners(&carol), 2);
    }
}

// Offer_test testFillModes (Fill or Kill): a killed FoK still removes the expired offer
// it met; a fillable FoK crosses.
#[test]
fn fill_or_kill_mode() {
    let start = xd(1_000_000);
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(start, &[&gw, &alice, &bob]);
    j.close();
    let t = j.last_close() + 1;
    j.ok(&bob, offer(usd("500"), xrp_amt(500)).u32("Expiration", t));
    j.close();
    assert_eq!((j.owners(&bob), j.n_offers(&bob)), (1, 1));
    j.ok(&bob, offer(usd("500"), xrp_amt(500)));
    j.close();
    assert_eq!((j.owners(&bob), j.n_offers(&bob)), (2, 2));
    j.ok(&alice, trust(usd("1000")));
    j.ok(&gw, pay(&alice, usd("1000")));
    j.ter(
        &alice,
        offer_f(xrp_amt(1000), usd("1000"), tf::FILL_OR_KILL),
        Ter::tecKILLED,
    );
    assert_eq!(j.xrp(&alice), start - 2 * F);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("1000"));
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    assert_eq!(j.xrp(&bob), start - 2 * F);
    assert!(!j.has_line(&bob, &gw, "USD"));
    assert_eq!(
        (j.owners(&bob), j.n_offers(&bob)),
        (1, 1),
        "expired offer gone"
    );
    j.ok(&alice, offer_f(xrp_amt(500), usd("500"), tf::FILL_OR_KILL));
    assert_eq!(j.xrp(&alice), start - 3 * F + xd(500));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("500"));
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    assert_eq!(j.xrp(&bob), start - 2 * F - xd(500));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("500"));
    assert_eq!((j.owners(&bob), j.n_offers(&bob)), (1, 0));
}

// Offer_test testFillModes (Immediate or Cancel): tecKILLED when nothing crosses
// (featureImmediateOfferKilled), otherwise cross what is there and place nothing.
#[test]
fn immediate_or_cancel_mode() {
    let start = xd(1_000_000);
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(start, &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&gw, pay(&alice, usd("1000")));
    j.ter(
        &alice,
        offer_f(xrp_amt(1000), usd("1000"), tf::IMMEDIATE_OR_CANCEL),
        Ter::tecKILLED,
    );
    assert_eq!(j.xrp(&alice), start - 2 * F);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("1000"));
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    j.ok(&bob, offer(usd("50"), xrp_amt(50)));
    j.ok(
        &alice,
        offer_f(xrp_amt(1000), usd("1000"), tf::IMMEDIATE_OR_CANCEL),
    );
    assert_eq!(j.xrp(&alice), start - 3 * F + xd(50));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("950"));
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    assert_eq!(j.xrp(&bob), start - F - xd(50));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("50"));
    assert_eq!((j.owners(&bob), j.n_offers(&bob)), (1, 0));
    j.ok(&bob, offer(usd("50"), xrp_amt(50)));
    j.ok(
        &alice,
        offer_f(xrp_amt(50), usd("50"), tf::IMMEDIATE_OR_CANCEL),
    );
    assert_eq!(j.xrp(&alice), start - 4 * F + xd(100));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("900"));
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    assert_eq!(j.xrp(&bob), start - 2 * F - xd(100));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("100"));
    assert_eq!((j.owners(&bob), j.n_offers(&bob)), (1, 0));
}

// Offer_test testFillModes (tfPassive): a passive offer does not cross an equal one, but
// the gateway can cross both.
#[test]
fn passive_offer_rests_beside_an_equal_one() {
    let start = xd(1_000_000);
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(start, &[&gw, &alice, &bob]);
    j.close();
    j.ok(&bob, trust(usd("1000")));
    j.close();
    j.ok(&gw, pay(&bob, usd("1000")));
    j.close();
    j.ok(&alice, offer(usd("1000"), xrp_amt(2000)));
    j.close();
    assert_eq!(j.only_offer(&alice), (usd("1000"), xrp_amt(2000)));
    j.ok(&bob, offer_f(xrp_amt(2000), usd("1000"), tf::PASSIVE));
    j.close();
    assert_eq!(j.n_offers(&alice), 1);
    assert_eq!(j.only_offer(&bob), (xrp_amt(2000), usd("1000")));
    j.ok(&gw, offer(xrp_amt(2000), usd("1000")));
    j.close();
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.n_offers(&gw), 0);
    assert_eq!(j.n_offers(&bob), 1);
    j.ok(&gw, offer(usd("1000"), xrp_amt(2000)));
    j.close();
    assert_eq!(j.n_offers(&bob), 0);
    assert_eq!(j.n_offers(&gw), 0);
}

// Offer_test testFillModes (tfPassive crosses better quality only).
#[test]
fn passive_offer_crosses_only_better_quality() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(1_000_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&bob, trust(usd("1000")));
    j.close();
    j.ok(&gw, pay(&bob, usd("1000")));
    j.ok(&alice, offer(usd("500"), xrp_amt(1001)));
    j.close();
    j.ok(&alice, offer(usd("500"), xrp_amt(1000)));
    j.close();
    assert_eq!(j.n_offers(&alice), 2);
    j.ok(&bob, offer_f(xrp_amt(2000), usd("1000"), tf::PASSIVE));
    j.close();
    assert_eq!(j.n_offers(&alice), 1);
    assert_eq!(j.only_offer(&bob), (xrp_amt(999), usd("499.5")));
}

// Offer_test testMalformed: tem codes, no fee, nothing placed.
#[test]
fn malformed_offers() {
    let start = xd(1_000_000);
    let mut j = J::new();
    let (gw, alice) = (acc("gateway"), acc("alice"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(start, &[&gw, &alice]);
    j.close();
    j.ter(
        &alice,
        offer_f(usd("1000"), xrp_amt(1000), tf::IMMEDIATE_OR_CANCEL + 1),
        Ter::temINVALID_FLAG,
    );
    assert_eq!((j.xrp(&alice), j.owners(&alice)), (start, 0));
    j.ter(
        &alice,
        offer_f(
            usd("1000"),
            xrp_amt(1000),
            tf::IMMEDIATE_OR_CANCEL | tf::FILL_OR_KILL,
        ),
        Ter::temINVALID_FLAG,
    );
    assert_eq!((j.xrp(&alice), j.owners(&alice)), (start, 0));
    j.ter(
        &alice,
        offer(xrp_amt(1000), xrp_amt(1000)),
        Ter::temBAD_OFFER,
    );
    assert_eq!(j.owners(&alice), 0);
    j.ok(&alice, trust(usd("1000")));
    j.ok(&gw, pay(&alice, usd("1000")));
    j.ter(&alice, offer(usd("1000"), usd("1000")), Ter::temREDUNDANT);
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    let neg = Amount::iou(val("1000").negate(), cur("USD"), gw.id);
    j.ter(&alice, offer(neg, xrp_amt(1000)), Ter::temBAD_OFFER);
    j.ter(
        &alice,
        offer(usd("1000"), Amount::Xrp(-xd(1000))),
        Ter::temBAD_OFFER,
    );
    j.ter(
        &alice,
        offer(usd("1000"), xrp_amt(1000)).u32("Expiration", 0),
        Ter::temBAD_EXPIRATION,
    );
    j.ter(
        &alice,
        offer(usd("1000"), xrp_amt(1000)).u32("OfferSequence", 0),
        Ter::temBAD_SEQUENCE,
    );
    let bad = Amount::iou(val("1000"), Currency::iso(*b"XRP"), gw.id);
    j.ter(&alice, offer(xrp_amt(1000), bad), Ter::temBAD_CURRENCY);
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
}

// Offer_test testExpiration: tecEXPIRED costs the fee; an offer that expires stays until
// the next crossing removes it.
#[test]
fn offer_expiration() {
    let start = xd(1_000_000);
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(start, &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&gw, pay(&alice, usd("1000")));
    j.close();
    assert_eq!(j.xrp(&alice), start - F);
    let t = j.last_close();
    j.ter(
        &alice,
        offer(xrp_amt(1000), usd("1000")).u32("Expiration", t),
        Ter::tecEXPIRED,
    );
    assert_eq!(j.xrp(&alice), start - 2 * F);
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    j.close();
    let t = j.last_close() + 1;
    j.ok(
        &alice,
        offer(xrp_amt(1000), usd("1000")).u32("Expiration", t),
    );
    assert_eq!(j.xrp(&alice), start - 3 * F);
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (2, 1));
    j.close();
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (2, 1));
    j.ok(&bob, offer(usd("1000"), xrp_amt(1000)));
    assert_eq!(j.xrp(&alice), start - 3 * F);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("1000"));
    assert_eq!((j.owners(&alice), j.n_offers(&alice)), (1, 0));
    assert_eq!(j.xrp(&bob), start - F);
    assert!(!j.has_line(&bob, &gw, "USD"));
    assert_eq!((j.owners(&bob), j.n_offers(&bob)), (1, 1));
}

// Offer_test testUnfundedCross: reserve and fee boundaries of an XRP-selling offer.
#[test]
fn unfunded_cross() {
    let mut j = J::new();
    let gw = acc("gateway");
    let usd = iou(&gw, "USD", "1000");
    j.fund(xd(1_000_000), &[&gw]);
    j.close();
    let cases: [(&str, i64, Ter, i64, u32); 5] = [
        (
            "alice",
            reserve(0),
            Ter::tecUNFUNDED_OFFER,
            reserve(0) - F,
            0,
        ),
        ("bob", reserve(0) + F, Ter::tecUNFUNDED_OFFER, reserve(0), 0),
        (
            "carol",
            reserve(0) + F + xd(1),
            Ter::tecINSUF_RESERVE_OFFER,
            reserve(0) + xd(1),
            0,
        ),
        ("dan", reserve(1) + F, Ter::tesSUCCESS, reserve(1), 1),
        (
            "eve",
            reserve(1) + F + xd(1000),
            Ter::tesSUCCESS,
            reserve(1) + xd(1000),
            1,
        ),
    ];
    for (name, fund, want, after, owners) in cases {
        let a = acc(name);
        j.fund(fund, &[&a]);
        j.close();
        j.ter(&a, offer(usd, xrp_amt(1000)), want);
        assert_eq!(j.xrp(&a), after, "{name}");
        assert_eq!(j.owners(&a), owners, "{name}");
    }
}

/// Offer_test testSelfCross body.
fn self_cross(use_partner: bool) {
    let mut j = J::new();
    let (gw, partner) = (acc("gateway"), acc("partner"));
    let usd = |v: &str| iou(&gw, "USD", v);
    let btc = |v: &str| iou(&gw, "BTC", v);
    j.close();
    j.fund(xd(10_000), &[&gw]);
    if use_partner {
        j.fund(xd(10_000), &[&partner]);
        j.close();
        j.ok(&partner, trust(usd("100")));
        j.ok(&partner, trust(btc("500")));
        j.close();
        j.ok(&gw, pay(&partner, usd("100")));
        j.ok(&gw, pay(&partner, btc("500")));
    }
    let a = if use_partner { &partner } else { &gw };
    j.close();
    assert_eq!(j.n_offers(a), 0);
    j.ok(a, offer(btc("250"), xrp_amt(1000)));
    assert!(j.is_offer(a, &btc("250"), &xrp_amt(1000)));
    let second_leg = j.seq(a);
    j.ok(a, offer(xrp_amt(1000), usd("50")));
    assert_eq!(j.n_offers(a), 2);
    j.ok(a, offer(usd("50"), btc("250")));
    assert_eq!(j.n_offers(a), 0, "all consumed by the bridged self-cross");
    j.ok(a, cancel(second_leg));
    assert_eq!(j.n_offers(a), 0);
    j.ok(a, offer(btc("250"), usd("50")));
    assert_eq!(j.n_offers(a), 1);
    assert!(j.is_offer(a, &btc("250"), &usd("50")));
    j.ok(a, offer(usd("50"), btc("250")));
    assert_eq!(j.n_offers(a), 1, "the crossed own offer is removed");
    assert!(j.is_offer(a, &usd("50"), &btc("250")));
}

// Offer_test testSelfCross(false): the issuer crosses its own offers.
#[test]
fn self_cross_issuer() {
    self_cross(false);
}

// Offer_test testSelfCross(true): a holder crosses its own offers.
#[test]
fn self_cross_partner() {
    self_cross(true);
}

// Offer_test testNegativeBalance (fixReducedOffersV2 branch): against alice's offer
// backed by a negative balance, bob's offer does not cross and goes on the books.
#[test]
fn negative_balance() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(1_149_999_730, &[&gw]);
    j.fund(499_946_999_680, &[&alice]);
    j.fund(10_199_999_920, &[&bob]);
    j.close();
    j.ok(&gw, rate(1.005));
    j.ok(&alice, trust(usd("500")));
    j.ok(&bob, trust(usd("50")));
    j.ok(&gw, trust(iou(&alice, "USD", "100")));
    j.ok(&gw, pay(&alice, iou(&alice, "USD", "50")));
    let small = iou_me(&bob, "USD", 2_710_505_431_213_761, -33);
    j.ok(&gw, pay(&bob, small));
    j.ok(&alice, offer(usd("50"), xrp_amt(150_000)));
    j.ok(&alice, pay(&gw, usd("100")));
    j.ok(&gw, trust(iou(&alice, "USD", "0")));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("-50"));
    let tiny = ivm(2_710_505_431_213_761, -33);
    assert_eq!(j.bal(&bob, &gw, "USD"), tiny);
    let bob_seq = j.seq(&bob);
    j.ok(&bob, offer(xrp_amt(2000), usd("1")));
    assert_eq!(j.bal(&bob, &gw, "USD"), tiny);
    let o = j
        .env
        .read(&ledgerd::ledger::keylet::offer(&bob.id, bob_seq))
        .expect("bob's offer placed");
    assert_eq!(o.amount_of(sf().taker_gets), Some(usd("1")));
    assert_eq!(o.amount_of(sf().taker_pays), Some(xrp_amt(2000)));
}

// Offer_test testOfferCrossWithXRP(reverse, normal): the resting offer's quality rules.
#[test]
fn offer_cross_with_xrp() {
    for reverse in [true, false] {
        let mut j = J::new();
        let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
        let usd = |v: &str| iou(&gw, "USD", v);
        j.fund(xd(10_000), &[&gw, &alice, &bob]);
        j.close();
        j.ok(&alice, trust(usd("1000")));
        j.ok(&bob, trust(usd("1000")));
        j.ok(&gw, pay(&alice, iou(&alice, "USD", "500")));
        if reverse {
            j.ok(&bob, offer(usd("1"), xrp_amt(4000)));
        }
        j.ok(&alice, offer(xrp_amt(150_000), usd("50")));
        if !reverse {
            j.ok(&bob, offer(usd("1"), xrp_amt(4000)));
        }
        let moved = xd(if reverse { 4000 } else { 3000 });
        assert_eq!(j.bal(&bob, &gw, "USD"), val("1"));
        assert_eq!(j.xrp(&bob), xd(10_000) - moved - 2 * F);
        assert_eq!(j.bal(&alice, &gw, "USD"), val("499"));
        assert_eq!(j.xrp(&alice), xd(10_000) + moved - 2 * F);
    }
}

// Offer_test testOfferCrossWithLimitOverride: crossing creates bob's line past any limit.
#[test]
fn offer_cross_with_limit_override() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(100_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&gw, pay(&alice, iou(&alice, "USD", "500")));
    j.ok(&alice, offer(xrp_amt(150_000), usd("50")));
    j.ok(&bob, offer(usd("1"), xrp_amt(3000)));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("1"));
    assert_eq!(j.xrp(&bob), xd(100_000) - xd(3000) - F);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("499"));
    assert_eq!(j.xrp(&alice), xd(100_000) + xd(3000) - 2 * F);
}

// Offer_test testOfferAcceptThenCancel and testOfferCancelPastAndFuture.
#[test]
fn offer_accept_then_cancel_and_cancel_sequences() {
    let mut j = J::new();
    let master = j.env.master.clone();
    let next = j.seq(&master);
    j.ok(&master, offer(xrp_amt(500), iou(&master, "USD", "100")));
    j.close();
    j.ok(&master, cancel(next));
    assert_eq!(j.seq(&master), next + 2);
    j.close();
    j.close();
    assert_eq!(j.seq(&master), next + 2);

    let mut j = J::new();
    let alice = acc("alice");
    let next = j.seq(&master);
    j.fund(xd(10_000), &[&alice]);
    j.close();
    j.ok(&master, cancel(next));
    let s = j.seq(&master);
    j.ter(&master, cancel(s), Ter::temBAD_SEQUENCE);
    j.ter(&master, cancel(s + 1), Ter::temBAD_SEQUENCE);
}

// Offer_test testCurrencyConversionEntire: a self-payment consumes bob's whole offer.
#[test]
fn currency_conversion_entire() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("100")));
    j.ok(&bob, trust(usd("1000")));
    assert_eq!((j.owners(&alice), j.owners(&bob)), (1, 1));
    j.ok(&gw, pay(&alice, iou(&alice, "USD", "100")));
    let bob_seq = j.seq(&bob);
    j.ok(&bob, offer(usd("100"), xrp_amt(500)));
    assert_eq!((j.owners(&alice), j.owners(&bob)), (1, 2));
    j.ok(
        &alice,
        pay(&alice, xrp_amt(500)).amount("SendMax", usd("100")),
    );
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.xrp(&alice), xd(10_000) + xd(500) - 2 * F);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("100"));
    assert!(j
        .env
        .read(&ledgerd::ledger::keylet::offer(&bob.id, bob_seq))
        .is_none());
    assert_eq!((j.owners(&alice), j.owners(&bob)), (1, 1));
}

// Offer_test testCurrencyConversionIntoDebt: an offer of EUR bob does not hold is
// unfunded.
#[test]
fn currency_conversion_into_debt() {
    let mut j = J::new();
    let (alice, bob, carol) = (acc("alice"), acc("bob"), acc("carol"));
    j.fund(xd(10_000), &[&alice, &bob, &carol]);
    j.close();
    j.ok(&alice, trust(iou(&carol, "EUR", "2000")));
    j.ok(&bob, trust(iou(&alice, "USD", "100")));
    j.ok(&carol, trust(iou(&bob, "EUR", "1000")));
    let bob_seq = j.seq(&bob);
    j.ter(
        &bob,
        offer(iou(&alice, "USD", "50"), iou(&carol, "EUR", "200")),
        Ter::tecUNFUNDED_OFFER,
    );
    j.ok(
        &alice,
        offer(iou(&carol, "EUR", "200"), iou(&alice, "USD", "50")),
    );
    assert!(j
        .env
        .read(&ledgerd::ledger::keylet::offer(&bob.id, bob_seq))
        .is_none());
}

// Offer_test testCurrencyConversionInParts: part of the offer, then tecPATH_PARTIAL,
// then a partial payment takes the rest.
#[test]
fn currency_conversion_in_parts() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("200")));
    j.ok(&bob, trust(usd("1000")));
    j.ok(&gw, pay(&alice, iou(&alice, "USD", "200")));
    let bob_seq = j.seq(&bob);
    j.ok(&bob, offer(usd("100"), xrp_amt(500)));
    j.ok(
        &alice,
        pay(&alice, xrp_amt(200)).amount("SendMax", usd("100")),
    );
    let key = ledgerd::ledger::keylet::offer(&bob.id, bob_seq);
    let o = j.env.read(&key).unwrap();
    assert_eq!(o.amount_of(sf().taker_gets), Some(xrp_amt(300)));
    assert_eq!(o.amount_of(sf().taker_pays), Some(usd("60")));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("160"));
    assert_eq!(j.xrp(&alice), xd(10_000) + xd(200) - 2 * F);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("40"));
    j.ter(
        &alice,
        pay(&alice, xrp_amt(600)).amount("SendMax", usd("100")),
        Ter::tecPATH_PARTIAL,
    );
    j.ok(
        &alice,
        pay(&alice, xrp_amt(600))
            .amount("SendMax", usd("100"))
            .flags(ptf::PARTIAL_PAYMENT),
    );
    assert!(j.env.read(&key).is_none());
    assert_eq!(j.bal(&alice, &gw, "USD"), val("100"));
    assert_eq!(j.xrp(&alice), xd(10_000) + xd(200) + xd(300) - 4 * F);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("100"));
}

// Offer_test testCrossCurrencyStartXRP.
#[test]
fn cross_currency_start_xrp() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&gw, &alice, &bob, &carol]);
    j.close();
    j.ok(&carol, trust(usd("1000")));
    j.ok(&bob, trust(usd("2000")));
    j.ok(&gw, pay(&carol, iou(&carol, "USD", "500")));
    let carol_seq = j.seq(&carol);
    j.ok(&carol, offer(xrp_amt(500), usd("50")));
    j.ok(&alice, pay(&bob, usd("25")).amount("SendMax", xrp_amt(333)));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("25"));
    assert_eq!(j.bal(&carol, &gw, "USD"), val("475"));
    let o = j
        .env
        .read(&ledgerd::ledger::keylet::offer(&carol.id, carol_seq))
        .unwrap();
    assert_eq!(o.amount_of(sf().taker_gets), Some(usd("25")));
    assert_eq!(o.amount_of(sf().taker_pays), Some(xrp_amt(250)));
}

// Offer_test testCrossCurrencyEndXRP.
#[test]
fn cross_currency_end_xrp() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&gw, &alice, &bob, &carol]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&carol, trust(usd("2000")));
    j.ok(&gw, pay(&alice, iou(&alice, "USD", "500")));
    let carol_seq = j.seq(&carol);
    j.ok(&carol, offer(usd("50"), xrp_amt(500)));
    j.ok(
        &alice,
        pay(&bob, xrp_amt(250)).amount("SendMax", usd("333")),
    );
    assert_eq!(j.bal(&alice, &gw, "USD"), val("475"));
    assert_eq!(j.bal(&carol, &gw, "USD"), val("25"));
    assert_eq!(j.xrp(&bob), xd(10_000) + xd(250));
    let o = j
        .env
        .read(&ledgerd::ledger::keylet::offer(&carol.id, carol_seq))
        .unwrap();
    assert_eq!(o.amount_of(sf().taker_gets), Some(xrp_amt(250)));
    assert_eq!(o.amount_of(sf().taker_pays), Some(usd("25")));
}

// Offer_test testCrossCurrencyBridged: USD -> XRP -> EUR on an explicit XRP path.
#[test]
fn cross_currency_bridged() {
    let mut j = J::new();
    let (gw1, gw2) = (acc("gateway_1"), acc("gateway_2"));
    let (alice, bob, carol, dan) = (acc("alice"), acc("bob"), acc("carol"), acc("dan"));
    let usd = |v: &str| iou(&gw1, "USD", v);
    let eur = |v: &str| iou(&gw2, "EUR", v);
    j.fund(xd(10_000), &[&gw1, &gw2, &alice, &bob, &carol, &dan]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&bob, trust(eur("1000")));
    j.ok(&carol, trust(usd("1000")));
    j.ok(&dan, trust(eur("1000")));
    j.ok(&gw1, pay(&alice, iou(&alice, "USD", "500")));
    j.ok(&gw2, pay(&dan, iou(&dan, "EUR", "400")));
    let carol_seq = j.seq(&carol);
    j.ok(&carol, offer(usd("50"), xrp_amt(500)));
    let dan_seq = j.seq(&dan);
    j.ok(&dan, offer(xrp_amt(500), eur("50")));
    let tx = pay(&bob, eur("30"))
        .paths(vec![vec![book_xrp()]])
        .amount("SendMax", usd("333"));
    j.ok(&alice, tx);
    assert_eq!(j.bal(&alice, &gw1, "USD"), val("470"));
    assert_eq!(j.bal(&bob, &gw2, "EUR"), val("30"));
    assert_eq!(j.bal(&carol, &gw1, "USD"), val("30"));
    assert_eq!(j.bal(&dan, &gw2, "EUR"), val("370"));
    let o = j
        .env
        .read(&ledgerd::ledger::keylet::offer(&carol.id, carol_seq))
        .unwrap();
    assert_eq!(o.amount_of(sf().taker_gets), Some(xrp_amt(200)));
    assert_eq!(o.amount_of(sf().taker_pays), Some(usd("20")));
    let o = j
        .env
        .read(&ledgerd::ledger::keylet::offer(&dan.id, dan_seq))
        .unwrap();
    assert_eq!(o.amount_of(sf().taker_gets), Some(eur("20")));
    assert_eq!(o.amount_of(sf().taker_pays), Some(xrp_amt(200)));
}

// Offer_test testBridgedSecondLegDry: the XRP->USD leg runs dry before the EUR->XRP one.
#[test]
fn bridged_second_leg_dry() {
    let mut j = J::new();
    let (alice, bob, carol, gw) = (acc("alice"), acc("bob"), acc("carol"), acc("gateway"));
    let usd = |v: &str| iou(&gw, "USD", v);
    let eur = |v: &str| iou(&gw, "EUR", v);
    j.fund(xd(100_000_000), &[&alice, &bob, &carol, &gw]);
    j.close();
    j.trust(usd("10"), &[&alice]);
    j.close();
    j.ok(&gw, pay(&alice, usd("10")));
    j.trust(usd("10"), &[&carol]);
    j.close();
    j.ok(&gw, pay(&carol, usd("3")));
    j.ok(&alice, offer(eur("2"), xrp_amt(1)));
    j.ok(&alice, offer(eur("2"), xrp_amt(1)));
    j.ok(&alice, offer(xrp_amt(1), usd("4")));
    j.ok(&carol, offer(xrp_amt(1), usd("3")));
    j.close();
    j.trust(eur("10"), &[&bob]);
    j.close();
    j.ok(&gw, pay(&bob, eur("10")));
    j.close();
    j.ok(&bob, offer(usd("10"), eur("10")));
    j.close();
    assert_eq!(j.bal(&bob, &gw, "USD"), val("7"));
    assert_eq!(j.bal(&bob, &gw, "EUR"), val("6"));
    assert_eq!((j.n_offers(&bob), j.owners(&bob)), (1, 3));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("6"));
    assert_eq!(j.bal(&alice, &gw, "EUR"), val("4"));
    assert_eq!((j.n_offers(&alice), j.owners(&alice)), (0, 2));
    assert_eq!(j.bal(&carol, &gw, "USD"), val("0"));
    assert!(!j.has_line(&carol, &gw, "EUR"));
    assert_eq!((j.n_offers(&carol), j.owners(&carol)), (0, 1));
}

// Offer_test testOfferFeesConsumeFunds: the reserve caps what alice's offer can spend.
#[test]
fn offer_fees_consume_funds() {
    let mut j = J::new();
    let (gw1, gw2, gw3) = (acc("gateway_1"), acc("gateway_2"), acc("gateway_3"));
    let (alice, bob) = (acc("alice"), acc("bob"));
    let start = xd(100) + reserve(3) + 4 * F;
    j.fund(start, &[&gw1, &gw2, &gw3, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(iou(&gw1, "USD", "1000")));
    j.ok(&alice, trust(iou(&gw2, "USD", "1000")));
    j.ok(&alice, trust(iou(&gw3, "USD", "1000")));
    j.ok(&bob, trust(iou(&gw1, "USD", "1000")));
    j.ok(&bob, trust(iou(&gw2, "USD", "1000")));
    j.ok(&gw1, pay(&bob, iou(&bob, "USD", "500")));
    j.ok(&bob, offer(xrp_amt(200), iou(&gw1, "USD", "200")));
    j.ok(&alice, offer(iou(&gw1, "USD", "200"), xrp_amt(200)));
    assert_eq!(j.bal(&alice, &gw1, "USD"), val("100"));
    assert_eq!(j.xrp(&alice), reserve(3));
    assert_eq!(j.bal(&bob, &gw1, "USD"), val("400"));
}

// Offer_test testOfferCreateThenCross (fixUniversalNumber branch): transfer fee and a
// negative-balance offer owner.
#[test]
fn offer_create_then_cross() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&gw, rate(1.005));
    j.ok(&alice, trust(usd("1000")));
    j.ok(&bob, trust(usd("1000")));
    j.ok(&gw, trust(iou(&alice, "USD", "50")));
    j.ok(&gw, pay(&bob, iou(&bob, "USD", "1")));
    j.ok(&alice, pay(&gw, usd("50")));
    j.ok(&gw, trust(iou(&alice, "USD", "0")));
    j.ok(&alice, offer(usd("50"), xrp_amt(150_000)));
    j.ok(&bob, offer(xrp_amt(100), usd("0.1")));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("-49.96666666666667"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("0.9665000000333333"));
}

// Offer_test testSellFlagBasic.
#[test]
fn sell_flag_basic() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(100) + reserve(1) + 2 * F, &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&bob, trust(usd("1000")));
    j.ok(&gw, pay(&bob, iou(&bob, "USD", "500")));
    j.ok(&bob, offer_f(xrp_amt(200), usd("200"), tf::SELL));
    j.ok(&alice, offer_f(usd("200"), xrp_amt(200), tf::SELL));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("100"));
    assert_eq!(j.xrp(&alice), reserve(1));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("400"));
}

// Offer_test testSellFlagExceedLimit: tfSell gets more than asked, past the line limit.
#[test]
fn sell_flag_exceed_limit() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(100) + reserve(1) + 2 * F, &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("150")));
    j.ok(&bob, trust(usd("1000")));
    j.ok(&gw, pay(&bob, iou(&bob, "USD", "500")));
    j.ok(&bob, offer(xrp_amt(100), usd("200")));
    j.ok(&alice, offer_f(usd("100"), xrp_amt(100), tf::SELL));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("200"));
    assert_eq!(j.xrp(&alice), reserve(1));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("300"));
}

// Offer_test testGatewayCrossCurrency (client issue #535): bob converts XTS to XXX
// through alice's offer. rippled submits with `build_path`; the path it finds
// (gw, then the XXX/gw book) is given explicitly here.
#[test]
fn gateway_cross_currency() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    j.fund(100_100_000 + reserve(1) + 2 * F, &[&gw, &alice, &bob]);
    j.close();
    for a in [&alice, &bob] {
        j.ok(a, trust(iou(&gw, "XTS", "1000")));
        j.ok(a, trust(iou(&gw, "XXX", "1000")));
    }
    for a in [&alice, &bob] {
        j.ok(&gw, pay(a, iou(a, "XTS", "100")));
        j.ok(&gw, pay(a, iou(a, "XXX", "100")));
    }
    j.ok(
        &alice,
        offer(iou(&gw, "XTS", "100"), iou(&gw, "XXX", "100")),
    );
    j.ok(
        &bob,
        pay(&bob, iou(&bob, "XXX", "1"))
            .amount("SendMax", iou(&bob, "XTS", "1.5"))
            .paths(vec![vec![acct(&gw), book(&gw, "XXX")]]),
    );
    assert_eq!(j.bal(&alice, &gw, "XTS"), val("101"));
    assert_eq!(j.bal(&alice, &gw, "XXX"), val("99"));
    assert_eq!(j.bal(&bob, &gw, "XTS"), val("99"));
    assert_eq!(j.bal(&bob, &gw, "XXX"), val("101"));
}

/// Who pre-establishes a USD line in Offer_test testPartialCross.
#[derive(Clone, Copy, PartialEq)]
enum Pre {
    No,
    Gw,
    Acct,
}

// Offer_test testPartialCross: the table of reserve / fee / book-size corner cases for an
// account offering XRP for USD (all 1:1).
#[test]
fn partial_cross_table() {
    let mut j = J::new();
    let gw = acc("gateway");
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000_000), &[&gw]);
    j.close();
    use Ter::*;
    let r = reserve;
    /// (account, funded with, gw's book offer, pre-trust, result, XRP spent, USD after,
    /// offers after, owners after)
    type Row = (
        &'static str,
        i64,
        i64,
        Pre,
        Ter,
        i64,
        &'static str,
        usize,
        u32,
    );
    #[rustfmt::skip]
    let rows: Vec<Row> = vec![
        ("ann", r(0), 1, Pre::No, tecUNFUNDED_OFFER, F, "0", 0, 0),
        ("bev", r(0) + F, 1, Pre::No, tecUNFUNDED_OFFER, F, "0", 0, 0),
        ("cam", r(0) + 2 * F, 0, Pre::No, tecINSUF_RESERVE_OFFER, F, "0", 0, 0),
        ("deb", 10 + r(0) + F, 1, Pre::No, tesSUCCESS, 10 + F, "0.00001", 0, 1),
        ("eve", r(1), 0, Pre::No, tesSUCCESS, F, "0", 1, 1),
        ("flo", r(1), 1, Pre::No, tesSUCCESS, xd(1) + F, "1", 0, 1),
        ("gay", r(1) + F, 1000, Pre::No, tesSUCCESS, xd(50) + F, "50", 0, 1),
        ("hye", xd(1000) + F, 1000, Pre::No, tesSUCCESS, xd(800) + F, "800", 0, 1),
        ("ivy", xd(1) + r(1) + F, 1, Pre::No, tesSUCCESS, xd(1) + F, "1", 0, 1),
        ("joy", xd(1) + r(2) + F, 1, Pre::No, tesSUCCESS, xd(1) + F, "1", 1, 2),
        ("kim", xd(900) + r(2) + F, 999, Pre::No, tesSUCCESS, xd(999) + F, "999", 0, 1),
        ("liz", xd(998) + r(0) + F, 999, Pre::No, tesSUCCESS, xd(998) + F, "998", 0, 1),
        ("meg", xd(998) + r(1) + F, 999, Pre::No, tesSUCCESS, xd(999) + F, "999", 0, 1),
        ("nia", xd(998) + r(2) + F, 999, Pre::No, tesSUCCESS, xd(999) + F, "999", 1, 2),
        ("ova", xd(999) + r(0) + F, 1000, Pre::No, tesSUCCESS, xd(999) + F, "999", 0, 1),
        ("pam", xd(999) + r(1) + F, 1000, Pre::No, tesSUCCESS, xd(1000) + F, "1000", 0, 1),
        ("rae", xd(999) + r(2) + F, 1000, Pre::No, tesSUCCESS, xd(1000) + F, "1000", 0, 1),
        ("sue", xd(1000) + r(2) + F, 0, Pre::No, tesSUCCESS, F, "0", 1, 1),
        ("abe", r(0), 1, Pre::Gw, tecUNFUNDED_OFFER, F, "0", 0, 0),
        ("bud", r(0) + F, 1, Pre::Gw, tecUNFUNDED_OFFER, F, "0", 0, 0),
        ("che", r(0) + 2 * F, 0, Pre::Gw, tecINSUF_RESERVE_OFFER, F, "0", 0, 0),
        ("dan", 10 + r(0) + F, 1, Pre::Gw, tesSUCCESS, 10 + F, "0.00001", 0, 0),
        ("eli", xd(20) + r(0) + F, 1000, Pre::Gw, tesSUCCESS, xd(20) + F, "20", 0, 0),
        ("fyn", r(1), 0, Pre::Gw, tesSUCCESS, F, "0", 1, 1),
        ("gar", r(1), 1, Pre::Gw, tesSUCCESS, xd(1) + F, "1", 1, 1),
        ("hal", r(1) + F, 1, Pre::Gw, tesSUCCESS, xd(1) + F, "1", 1, 1),
        ("ned", r(1), 1, Pre::Acct, tecUNFUNDED_OFFER, 2 * F, "0", 0, 1),
        ("ole", r(1) + F, 1, Pre::Acct, tecUNFUNDED_OFFER, 2 * F, "0", 0, 1),
        ("pat", r(1) + 2 * F, 0, Pre::Acct, tecUNFUNDED_OFFER, 2 * F, "0", 0, 1),
        ("quy", r(1) + 2 * F, 1, Pre::Acct, tecUNFUNDED_OFFER, 2 * F, "0", 0, 1),
        ("ron", r(1) + 3 * F, 0, Pre::Acct, tecINSUF_RESERVE_OFFER, 2 * F, "0", 0, 1),
        ("syd", 10 + r(1) + 2 * F, 1, Pre::Acct, tesSUCCESS, 10 + 2 * F, "0.00001", 0, 1),
        ("ted", xd(20) + r(1) + 2 * F, 1000, Pre::Acct, tesSUCCESS, xd(20) + 2 * F, "20", 0, 1),
        ("uli", r(2), 0, Pre::Acct, tecINSUF_RESERVE_OFFER, 2 * F, "0", 0, 1),
        ("vic", r(2), 1, Pre::Acct, tesSUCCESS, xd(1) + 2 * F, "1", 0, 1),
        ("wes", r(2) + F, 0, Pre::Acct, tesSUCCESS, 2 * F, "0", 1, 2),
        ("xan", r(2) + F, 1, Pre::Acct, tesSUCCESS, xd(1) + 2 * F, "1", 1, 2),
    ];
    for (name, fund, book_amt, pre, want, spent, usd_after, offers, owners) in rows {
        let a = acc(name);
        j.fund(fund, &[&a]);
        j.close();
        assert_eq!(j.n_offers(&gw), 0);
        if book_amt != 0 {
            j.ok(&gw, offer(xrp_amt(book_amt), usd(&book_amt.to_string())));
        }
        j.close();
        let gw_offer = j.seq(&gw) - 1;
        if pre == Pre::Gw {
            j.ok(&gw, trust(iou(&a, "USD", "1")));
        }
        j.close();
        if pre == Pre::Acct {
            j.ok(&a, trust(usd("1")));
        }
        j.close();
        j.ter(&a, offer(usd("1000"), xrp_amt(1000)), want);
        j.close();
        let a_offer = j.seq(&a) - 1;
        assert_eq!(j.bal(&a, &gw, "USD"), val(usd_after), "{name} USD");
        assert_eq!(j.xrp(&a), fund - spent, "{name} XRP");
        assert_eq!(j.n_offers(&a), offers, "{name} offers");
        assert_eq!(j.owners(&a), owners, "{name} owners");
        if offers != 0 {
            let left = 1000 - book_amt;
            assert_eq!(
                j.only_offer(&a),
                (usd(&left.to_string()), xrp_amt(left)),
                "{name} offer"
            );
        }
        if pre == Pre::No {
            if usd_after != "0" {
                let l = j.env.line(&a, &gw, "USD").expect("default line");
                let z = |issuer: &Account| Amount::iou(IouValue::ZERO, cur("USD"), issuer.id);
                let (lo, hi) = if a.id < gw.id { (&a, &gw) } else { (&gw, &a) };
                assert_eq!(l.amount_of(sf().low_limit), Some(z(lo)), "{name}");
                assert_eq!(l.amount_of(sf().high_limit), Some(z(hi)), "{name}");
            } else {
                assert!(!j.has_line(&a, &gw, "USD"), "{name} no line");
            }
        }
        j.ok(&a, cancel(a_offer));
        j.ok(&gw, cancel(gw_offer));
        j.close();
    }
}

/// Asserts `who`'s USD line is a default one (no limits, no flags beyond reserve).
fn assert_default_line(j: &J, who: &Account, issuer: &Account, code: &str, v: &str) {
    let l = j.env.line(who, issuer, code).expect("line");
    let z = |a: &Account| Amount::iou(IouValue::ZERO, cur(code), a.id);
    let (lo, hi) = if who.id < issuer.id {
        (who, issuer)
    } else {
        (issuer, who)
    };
    assert_eq!(l.amount_of(sf().low_limit), Some(z(lo)));
    assert_eq!(l.amount_of(sf().high_limit), Some(z(hi)));
    assert_eq!(j.bal(who, issuer, code), val(v));
}

// Offer_test testXRPDirectCross.
#[test]
fn xrp_direct_cross() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(1_000_000), &[&gw, &bob]);
    j.close();
    j.fund(reserve(2) + 2 * F, &[&alice]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.close();
    j.ok(&gw, pay(&alice, usd("1000")));
    j.close();
    let (ax, bx) = (j.xrp(&alice), j.xrp(&bob));
    j.ok(&alice, offer(xrp_amt(1000), usd("1000")));
    j.close();
    j.ok(&bob, offer(usd("1000"), xrp_amt(1000)));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.xrp(&alice), ax + xd(1000) - F);
    assert_eq!(j.xrp(&bob), bx - xd(1000) - F);
    assert_eq!((j.n_offers(&alice), j.n_offers(&bob)), (0, 0));
    assert_default_line(&j, &bob, &gw, "USD", "1000");
    j.ok(&alice, offer(usd("999"), xrp_amt(999)));
    j.ok(&bob, offer(xrp_amt(1000), usd("1000")));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("999"));
    assert_eq!(j.n_offers(&alice), 0);
    assert_default_line(&j, &bob, &gw, "USD", "1");
    assert_eq!(j.only_offer(&bob), (xrp_amt(1), usd("1")));
}

// Offer_test testDirectCross: IOU for IOU, default lines created and removed again.
#[test]
fn direct_cross() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    let eur = |v: &str| iou(&gw, "EUR", v);
    j.fund(xd(1_000_000), &[&gw]);
    j.close();
    j.fund(reserve(3) + 3 * F, &[&alice]);
    j.fund(reserve(3) + 2 * F, &[&bob]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&bob, trust(eur("1000")));
    j.close();
    j.ok(&gw, pay(&alice, usd("1000")));
    j.ok(&gw, pay(&bob, eur("1000")));
    j.close();
    j.ok(&alice, offer(eur("1000"), usd("1000")));
    j.ok(&bob, offer(usd("1000"), eur("1000")));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "EUR"), val("1000"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("1000"));
    assert_eq!((j.n_offers(&alice), j.n_offers(&bob)), (0, 0));
    assert_default_line(&j, &alice, &gw, "EUR", "1000");
    assert_default_line(&j, &bob, &gw, "USD", "1000");
    j.ok(&bob, offer(eur("1000"), usd("1000")));
    j.close();
    j.ok(&alice, offer(usd("999"), eur("1000")));
    j.close();
    assert_eq!((j.n_offers(&alice), j.n_offers(&bob)), (0, 1));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("999"));
    assert_eq!(j.bal(&alice, &gw, "EUR"), val("1"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("1"));
    assert_eq!(j.bal(&bob, &gw, "EUR"), val("999"));
    assert_eq!(j.only_offer(&bob), (eur("1"), usd("1")));
    j.ok(&alice, offer(usd("1"), eur("1")));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("1000"));
    assert_eq!(j.bal(&bob, &gw, "EUR"), val("1000"));
    assert_eq!((j.n_offers(&alice), j.n_offers(&bob)), (0, 0));
    assert!(!j.has_line(&alice, &gw, "EUR"), "default line removed");
    assert!(!j.has_line(&bob, &gw, "USD"), "default line removed");
    j.ok(&alice, offer(eur("999"), usd("1000")));
    j.close();
    j.ok(&bob, offer(usd("1000"), eur("1000")));
    j.close();
    assert_eq!((j.n_offers(&alice), j.n_offers(&bob)), (0, 0));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.bal(&alice, &gw, "EUR"), val("999"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("1000"));
    assert_eq!(j.bal(&bob, &gw, "EUR"), val("1"));
}

// Offer_test testBridgedCross: carol's USD->EUR offer auto-bridges through XRP.
#[test]
fn bridged_cross() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let usd = |v: &str| iou(&gw, "USD", v);
    let eur = |v: &str| iou(&gw, "EUR", v);
    j.fund(xd(1_000_000), &[&gw, &alice, &bob, &carol]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&carol, trust(eur("1000")));
    j.close();
    j.ok(&gw, pay(&alice, usd("1000")));
    j.ok(&gw, pay(&carol, eur("1000")));
    j.close();
    j.ok(&alice, offer(xrp_amt(1000), usd("1000")));
    j.ok(&bob, offer(eur("1000"), xrp_amt(1000)));
    let bx = j.xrp(&bob);
    j.close();
    j.ok(&carol, offer(usd("400"), eur("400")));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("600"));
    assert_eq!(j.xrp(&bob), bx - xd(400));
    assert_eq!(j.n_offers(&carol), 0);
    assert_default_line(&j, &bob, &gw, "EUR", "400");
    assert_default_line(&j, &carol, &gw, "USD", "400");
    assert_eq!(j.only_offer(&alice), (xrp_amt(600), usd("600")));
    assert_eq!(j.only_offer(&bob), (eur("600"), xrp_amt(600)));
    j.ok(&carol, offer(usd("600"), eur("600")));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.xrp(&bob), bx - xd(1000));
    assert_eq!((j.n_offers(&bob), j.n_offers(&carol)), (0, 0));
    assert_default_line(&j, &bob, &gw, "EUR", "1000");
    assert_default_line(&j, &carol, &gw, "USD", "1000");
    assert_eq!(j.n_offers(&alice), 0, "flow removes alice's empty offer");
}

// Offer_test testSellOffer: the tfSell table.
#[test]
fn sell_offer_table() {
    let mut j = J::new();
    let gw = acc("gateway");
    let usd = |v: i64| iou(&gw, "USD", &v.to_string());
    let x = |v: i64| xrp_amt(v);
    j.fund(xd(10_000_000), &[&gw]);
    j.close();
    use Ter::*;
    let r = reserve;
    type Row = (
        &'static str,
        i64,
        i64,
        Amount,
        Amount,
        Amount,
        Amount,
        Ter,
        i64,
        i64,
        usize,
        u32,
        Option<(Amount, Amount)>,
    );
    #[rustfmt::skip]
    let rows: Vec<Row> = vec![
        ("ann", xd(10) + r(0) + F, 0, x(10), usd(5), usd(10), x(10), tecINSUF_RESERVE_OFFER, F, 0, 0, 0, None),
        ("bev", xd(10) + r(1) + F, 0, x(10), usd(5), usd(10), x(10), tesSUCCESS, F, 0, 1, 1, Some((x(10), usd(10)))),
        ("cam", xd(10) + r(0) + F, 0, x(10), usd(10), usd(10), x(10), tesSUCCESS, xd(10) + F, 10, 0, 1, None),
        ("deb", xd(10) + r(0) + F, 0, x(10), usd(20), usd(10), x(10), tesSUCCESS, xd(10) + F, 20, 0, 1, None),
        ("eve", xd(10) + r(0) + F, 0, x(10), usd(20), usd(5), x(5), tesSUCCESS, xd(5) + F, 10, 0, 1, None),
        ("flo", xd(10) + r(0) + F, 0, x(10), usd(20), usd(20), x(20), tesSUCCESS, xd(10) + F, 20, 0, 1, None),
        ("gay", xd(20) + r(1) + F, 0, x(10), usd(20), usd(20), x(20), tesSUCCESS, xd(10) + F, 20, 0, 1, None),
        ("hye", xd(20) + r(2) + F, 0, x(10), usd(20), usd(20), x(20), tesSUCCESS, xd(10) + F, 20, 1, 2, Some((x(10), usd(10)))),
        ("meg", r(1) + 2 * F, 10, usd(10), x(5), x(10), usd(10), tecINSUF_RESERVE_OFFER, 2 * F, 10, 0, 1, None),
        ("nia", r(2) + 2 * F, 10, usd(10), x(5), x(10), usd(10), tesSUCCESS, 2 * F, 10, 1, 2, Some((usd(10), x(10)))),
        ("ova", r(1) + 2 * F, 10, usd(10), x(10), x(10), usd(10), tesSUCCESS, -xd(10) + 2 * F, 0, 0, 1, None),
        ("pam", r(1) + 2 * F, 10, usd(10), x(20), x(10), usd(10), tesSUCCESS, -xd(20) + 2 * F, 0, 0, 1, None),
        ("qui", r(1) + 2 * F, 10, usd(20), x(40), x(10), usd(10), tesSUCCESS, -xd(20) + 2 * F, 0, 0, 1, None),
        ("rae", r(2) + 2 * F, 10, usd(5), x(5), x(10), usd(10), tesSUCCESS, -xd(5) + 2 * F, 5, 1, 2, Some((usd(5), x(5)))),
        ("sue", r(2) + 2 * F, 10, usd(5), x(10), x(10), usd(10), tesSUCCESS, -xd(10) + 2 * F, 5, 1, 2, Some((usd(5), x(5)))),
    ];
    for (
        name,
        fund,
        fund_usd,
        gw_gets,
        gw_pays,
        a_gets,
        a_pays,
        want,
        spent,
        fin,
        offers,
        owners,
        rest,
    ) in rows
    {
        assert_eq!(j.n_offers(&gw), 0);
        let a = acc(name);
        j.fund(fund, &[&a]);
        j.close();
        if fund_usd != 0 {
            j.ok(&a, trust(usd(fund_usd)));
            j.close();
            j.ok(&gw, pay(&a, usd(fund_usd)));
            j.close();
        }
        // jtx offer(account, takerPays, takerGets): gwGets is what gw is paid.
        j.ok(&gw, offer(gw_gets, gw_pays));
        j.close();
        let gw_offer = j.seq(&gw) - 1;
        j.ter(&a, offer_f(a_gets, a_pays, tf::SELL), want);
        j.close();
        let a_offer = j.seq(&a) - 1;
        assert_eq!(j.bal(&a, &gw, "USD"), val(&fin.to_string()), "{name} USD");
        assert_eq!(j.xrp(&a), fund - spent, "{name} XRP");
        assert_eq!(j.n_offers(&a), offers, "{name} offers");
        assert_eq!(j.owners(&a), owners, "{name} owners");
        if let Some((taker_gets, taker_pays)) = rest {
            let (p, g) = j.only_offer(&a);
            assert_eq!((g, p), (taker_gets, taker_pays), "{name} rest");
        }
        j.ok(&a, cancel(a_offer));
        j.ok(&gw, cancel(gw_offer));
        j.close();
    }
}

// Offer_test testSellWithFillOrKill.
#[test]
fn sell_with_fill_or_kill() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000_000), &[&gw, &alice, &bob]);
    j.close();
    let fok = tf::SELL | tf::FILL_OR_KILL;
    j.ok(&bob, trust(usd("200")));
    j.close();
    j.ok(&gw, pay(&bob, usd("100")));
    j.close();
    j.ok(&bob, offer(xrp_amt(2000), usd("20")));
    j.close();
    j.ter(
        &alice,
        offer_f(usd("21"), xrp_amt(2100), fok),
        Ter::tecKILLED,
    );
    j.close();
    assert!(!j.has_line(&alice, &gw, "USD"));
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("100"));
    j.ok(&alice, offer_f(usd("20"), xrp_amt(2000), fok));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("20"));
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("80"));
    j.ok(&bob, offer(xrp_amt(2000), usd("20")));
    j.close();
    j.ok(&alice, offer_f(usd("10"), xrp_amt(1500), fok));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("35"));
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("65"));
    j.ter(&alice, offer_f(usd("1"), xrp_amt(501), fok), Ter::tecKILLED);
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("35"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("65"));
    j.ok(&alice, offer_f(usd("1"), xrp_amt(500), fok));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("40"));
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("60"));
}

// Offer_test testTransferRateOffer (XRP legs): the seller pays the gateway's 25% fee,
// in either book order, and the fee is not taken from the offer's remainder.
#[test]
fn transfer_rate_offer_xrp() {
    let mut j = J::new();
    let gw1 = acc("gateway1");
    let usd = |v: &str| iou(&gw1, "USD", v);
    j.fund(xd(100_000), &[&gw1]);
    j.close();
    j.ok(&gw1, rate(1.25));
    for (taker, maker, maker_first) in [("ann", "bob", true), ("che", "deb", false)] {
        let (t, m) = (acc(taker), acc(maker));
        j.fund(xd(100) + reserve(2) + 2 * F, &[&t, &m]);
        j.close();
        j.ok(&t, trust(usd("200")));
        j.ok(&m, trust(usd("200")));
        j.close();
        j.ok(&gw1, pay(&m, usd("125")));
        j.close();
        if maker_first {
            j.ok(&m, offer(xrp_amt(1), usd("100")));
            j.close();
            j.ok(&t, offer(usd("100"), xrp_amt(1)));
        } else {
            j.ok(&t, offer(usd("100"), xrp_amt(1)));
            j.close();
            j.ok(&m, offer(xrp_amt(1), usd("100")));
        }
        j.close();
        assert_eq!(j.bal(&t, &gw1, "USD"), val("100"), "{taker}");
        assert_eq!(j.xrp(&t), xd(99) + reserve(2), "{taker}");
        assert_eq!(j.n_offers(&t), 0);
        assert_eq!(j.bal(&m, &gw1, "USD"), val("0"), "{maker}");
        assert_eq!(j.xrp(&m), xd(101) + reserve(2), "{maker}");
        assert_eq!(j.n_offers(&m), 0);
    }
    let (eve, fyn) = (acc("eve"), acc("fyn"));
    j.fund(xd(20_000) + 2 * F, &[&eve, &fyn]);
    j.close();
    j.ok(&eve, trust(usd("1000")));
    j.ok(&fyn, trust(usd("1000")));
    j.close();
    j.ok(&gw1, pay(&eve, usd("100")));
    j.ok(&gw1, pay(&fyn, usd("100")));
    j.close();
    j.ok(&eve, offer(usd("10"), xrp_amt(4000)));
    j.close();
    j.ok(&fyn, offer(xrp_amt(2000), usd("5")));
    j.close();
    assert_eq!(j.bal(&eve, &gw1, "USD"), val("105"));
    assert_eq!(j.xrp(&eve), xd(18_000));
    assert_eq!(j.only_offer(&eve), (usd("5"), xrp_amt(2000)));
    assert_eq!(j.bal(&fyn, &gw1, "USD"), val("93.75"));
    assert_eq!(j.xrp(&fyn), xd(22_000));
    assert_eq!(j.n_offers(&fyn), 0);
}

// Offer_test testTransferRateOffer (two IOUs, QualityIn/QualityOut, auto-bridging).
#[test]
fn transfer_rate_offer_iou() {
    let mut j = J::new();
    let (gw1, gw2) = (acc("gateway1"), acc("gateway2"));
    let usd = |v: &str| iou(&gw1, "USD", v);
    let eur = |v: &str| iou(&gw2, "EUR", v);
    j.fund(xd(100_000), &[&gw1]);
    j.close();
    j.ok(&gw1, rate(1.25));
    j.fund(xd(100_000), &[&gw2]);
    j.close();
    j.ok(&gw2, rate(1.5));
    // Both rates apply in the same crossing.
    let (gay, hal) = (acc("gay"), acc("hal"));
    j.fund(reserve(3) + 3 * F, &[&gay, &hal]);
    j.close();
    for a in [&gay, &hal] {
        j.ok(a, trust(usd("200")));
        j.ok(a, trust(eur("200")));
    }
    j.close();
    j.ok(&gw1, pay(&gay, usd("125")));
    j.ok(&gw2, pay(&hal, eur("150")));
    j.close();
    j.ok(&gay, offer(eur("100"), usd("100")));
    j.close();
    j.ok(&hal, offer(usd("100"), eur("100")));
    j.close();
    assert_eq!(j.bal(&gay, &gw1, "USD"), val("0"));
    assert_eq!(j.bal(&gay, &gw2, "EUR"), val("100"));
    assert_eq!(j.xrp(&gay), reserve(3));
    assert_eq!(j.bal(&hal, &gw1, "USD"), val("100"));
    assert_eq!(j.bal(&hal, &gw2, "EUR"), val("0"));
    assert_eq!(j.xrp(&hal), reserve(3));
    assert_eq!((j.n_offers(&gay), j.n_offers(&hal)), (0, 0));
    // QualityIn does not affect crossing.
    let (ivy, joe) = (acc("ivy"), acc("joe"));
    j.fund(reserve(3) + 3 * F, &[&ivy, &joe]);
    j.close();
    j.ok(&ivy, trust(usd("400")).u32("QualityIn", 900_000_000));
    j.ok(&ivy, trust(eur("400")).u32("QualityIn", 800_000_000));
    j.ok(&joe, trust(usd("400")).u32("QualityIn", 700_000_000));
    j.ok(&joe, trust(eur("400")).u32("QualityIn", 600_000_000));
    j.close();
    j.ok(&gw1, pay(&ivy, usd("270")).amount("SendMax", usd("500")));
    j.ok(&gw2, pay(&joe, eur("150")).amount("SendMax", eur("300")));
    j.close();
    assert_eq!(j.bal(&ivy, &gw1, "USD"), val("300"));
    assert_eq!(j.bal(&joe, &gw2, "EUR"), val("250"));
    j.ok(&ivy, offer(eur("100"), usd("200")));
    j.close();
    j.ok(&joe, offer(usd("200"), eur("100")));
    j.close();
    assert_eq!(j.bal(&ivy, &gw1, "USD"), val("50"));
    assert_eq!(j.bal(&ivy, &gw2, "EUR"), val("100"));
    assert_eq!(j.xrp(&ivy), reserve(3));
    assert_eq!(j.bal(&joe, &gw1, "USD"), val("200"));
    assert_eq!(j.bal(&joe, &gw2, "EUR"), val("100"));
    assert_eq!(j.xrp(&joe), reserve(3));
    // QualityOut affects payments but not crossing.
    let (kim, lex, meg, ned) = (acc("kim"), acc("lex"), acc("meg"), acc("ned"));
    let kbux = |v: &str| iou(&kim, "BUX", v);
    let nbux = |v: &str| iou(&ned, "BUX", v);
    j.fund(reserve(4) + 4 * F, &[&kim, &lex, &meg, &ned]);
    j.close();
    j.ok(&lex, trust(kbux("400")));
    j.ok(&lex, trust(nbux("200")).u32("QualityOut", 1_200_000_000));
    j.ok(&meg, trust(nbux("100")));
    j.close();
    j.ok(&ned, pay(&lex, nbux("100")));
    j.close();
    assert_eq!(j.bal(&lex, &ned, "BUX"), val("100"));
    j.ok(
        &kim,
        pay(&meg, nbux("60"))
            .paths(vec![vec![acct(&lex), acct(&ned)]])
            .amount("SendMax", kbux("200")),
    );
    j.close();
    assert_eq!(j.bal(&lex, &kim, "BUX"), val("72"));
    assert_eq!(j.bal(&lex, &ned, "BUX"), val("40"));
    assert_eq!(j.bal(&meg, &ned, "BUX"), val("60"));
    j.ok(&lex, offer(kbux("30"), nbux("30")));
    j.close();
    j.ok(&kim, offer(nbux("30"), kbux("30")));
    j.close();
    assert_eq!(j.bal(&kim, &ned, "BUX"), val("30"));
    assert_eq!(j.bal(&lex, &kim, "BUX"), val("102"));
    assert_eq!(j.bal(&lex, &ned, "BUX"), val("10"));
    assert_eq!(j.bal(&meg, &ned, "BUX"), val("60"));
    assert_eq!(j.bal(&ned, &kim, "BUX"), val("-30"));
    // Auto-bridged, both rates.
    let (ova, pat, qae) = (acc("ova"), acc("pat"), acc("qae"));
    j.fund(xd(2) + reserve(3) + 3 * F, &[&ova, &pat, &qae]);
    j.close();
    for a in [&ova, &pat, &qae] {
        j.ok(a, trust(usd("200")));
        j.ok(a, trust(eur("200")));
    }
    j.close();
    j.ok(&gw1, pay(&ova, usd("125")));
    j.ok(&gw2, pay(&qae, eur("150")));
    j.close();
    j.ok(&ova, offer(xrp_amt(2), usd("100")));
    j.ok(&pat, offer(eur("100"), xrp_amt(2)));
    j.close();
    j.ok(&qae, offer(usd("100"), eur("100")));
    j.close();
    assert_eq!(j.bal(&ova, &gw1, "USD"), val("0"));
    assert_eq!(j.bal(&ova, &gw2, "EUR"), val("0"));
    assert_eq!(j.xrp(&ova), xd(4) + reserve(3));
    assert_eq!(j.n_offers(&ova), 0);
    assert_eq!(j.bal(&pat, &gw1, "USD"), val("0"));
    assert_eq!(j.bal(&pat, &gw2, "EUR"), val("100"));
    assert_eq!(j.xrp(&pat), reserve(3));
    assert_eq!(j.n_offers(&pat), 0);
    assert_eq!(j.bal(&qae, &gw1, "USD"), val("100"));
    assert_eq!(j.bal(&qae, &gw2, "EUR"), val("0"));
    assert_eq!(j.xrp(&qae), xd(2) + reserve(3));
    assert_eq!(j.n_offers(&qae), 0);
}

// Offer_test testSelfCrossOffer1: a crossing own offer deletes the old ones instead.
#[test]
fn self_cross_offer_deletes_old_ones() {
    let mut j = J::new();
    let gw = acc("gateway");
    let usd = |v: &str| iou(&gw, "USD", v);
    let start = xd(1_000_000);
    j.fund(start + 4 * F, &[&gw]);
    j.close();
    for _ in 0..3 {
        j.ok(&gw, offer(usd("60"), xrp_amt(600)));
        j.close();
    }
    assert_eq!(j.owners(&gw), 3);
    assert_eq!(j.xrp(&gw), start + F);
    j.ok(&gw, offer(xrp_amt(1000), usd("100")));
    j.close();
    assert_eq!((j.owners(&gw), j.n_offers(&gw)), (1, 1));
    assert_eq!(j.xrp(&gw), start);
    assert_eq!(j.only_offer(&gw), (xrp_amt(1000), usd("100")));
}

// Offer_test testSelfCrossOffer2: the result codes of two opposite own offers.
#[test]
fn self_cross_offer_table() {
    let mut j = J::new();
    let (gw1, gw2) = (acc("gateway1"), acc("gateway2"));
    let usd = |v: &str| iou(&gw1, "USD", v);
    let eur = |v: &str| iou(&gw2, "EUR", v);
    j.fund(xd(1_000_000), &[&gw1, &gw2]);
    j.close();
    use Ter::*;
    let rows = [
        (
            "ann",
            reserve(3) + 4 * F,
            "1000",
            "1000",
            tesSUCCESS,
            tesSUCCESS,
        ),
        (
            "bev",
            reserve(3) + 4 * F,
            "1",
            "1000",
            tesSUCCESS,
            tesSUCCESS,
        ),
        (
            "cam",
            reserve(3) + 4 * F,
            "1000",
            "1",
            tesSUCCESS,
            tesSUCCESS,
        ),
        (
            "deb",
            reserve(3) + 4 * F,
            "0",
            "1",
            tesSUCCESS,
            tecUNFUNDED_OFFER,
        ),
        (
            "eve",
            reserve(3) + 4 * F,
            "1",
            "0",
            tecUNFUNDED_OFFER,
            tesSUCCESS,
        ),
        (
            "flo",
            reserve(3),
            "1000",
            "1000",
            tecINSUF_RESERVE_OFFER,
            tecINSUF_RESERVE_OFFER,
        ),
    ];
    for (name, fund, fu, fe, first, second) in rows {
        let a = acc(name);
        j.fund(fund, &[&a]);
        j.close();
        j.ok(&a, trust(usd("1000")));
        j.ok(&a, trust(eur("1000")));
        j.close();
        if fu != "0" {
            j.ok(&gw1, pay(&a, usd(fu)));
        }
        if fe != "0" {
            j.ok(&gw2, pay(&a, eur(fe)));
        }
        j.close();
        j.ter(&a, offer(usd("500"), eur("600")), first);
        j.close();
        let first_seq = j.seq(&a) - 1;
        let mut count = if first == tesSUCCESS { 1 } else { 0 };
        assert_eq!(j.owners(&a), 2 + count, "{name}");
        assert_eq!(j.bal(&a, &gw1, "USD"), val(fu));
        assert_eq!(j.bal(&a, &gw2, "EUR"), val(fe));
        j.ter(&a, offer(eur("600"), usd("500")), second);
        j.close();
        let second_seq = j.seq(&a) - 1;
        if second == tesSUCCESS {
            count = 1;
        }
        assert_eq!(j.owners(&a), 2 + count, "{name}");
        assert_eq!(j.bal(&a, &gw1, "USD"), val(fu));
        assert_eq!(j.bal(&a, &gw2, "EUR"), val(fe));
        let offers = j.offers(&a);
        assert_eq!(offers.len(), count as usize, "{name}");
        for o in offers {
            let (p, g) = (
                o.amount_of(sf().taker_pays).unwrap(),
                o.amount_of(sf().taker_gets).unwrap(),
            );
            if o.u32_of(sf().sequence) == Some(first_seq) {
                assert_eq!((p, g), (usd("500"), eur("600")));
            } else {
                assert_eq!((p, g), (eur("600"), usd("500")));
            }
        }
        j.ok(&a, cancel(first_seq));
        j.close();
        j.ok(&a, cancel(second_seq));
        j.close();
    }
}

// Offer_test testSelfIssueOffer: an issuer's own IOU offer crosses alice's down to her
// reserve.
#[test]
fn self_issue_offer() {
    let mut j = J::new();
    let (alice, bob) = (acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&bob, "USD", v);
    j.fund(xd(50_000) + F, &[&alice, &bob]);
    j.close();
    j.ok(&alice, offer(usd("5000"), xrp_amt(50_000)));
    j.close();
    j.ok(&bob, offer(xrp_amt(50_000), usd("5000")));
    j.close();
    assert_eq!(j.xrp(&alice), xd(250));
    assert_eq!(j.owners(&alice), 1);
    assert!(j.has_line(&alice, &bob, "USD"));
    assert_eq!(j.only_offer(&bob), (xrp_amt(250), usd("25")));
}

// Offer_test testBadPathAssert: a path naming the source's own currency twice is
// temBAD_PATH and changes nothing.
#[test]
fn bad_path_assert() {
    let mut j = J::new();
    let (ann, bob, cam, dan) = (acc("ann"), acc("bob"), acc("cam"), acc("dan"));
    let abux = |v: &str| iou(&ann, "BUX", v);
    let dbux = |v: &str| iou(&dan, "BUX", v);
    j.fund(reserve(4) + 4 * F, &[&ann, &bob, &cam, &dan]);
    j.close();
    j.ok(&bob, trust(abux("400")));
    j.ok(&bob, trust(dbux("200")).u32("QualityOut", 1_200_000_000));
    j.ok(&cam, trust(dbux("100")));
    j.close();
    j.ok(&dan, pay(&bob, dbux("100")));
    j.close();
    j.ok(
        &ann,
        pay(&cam, dbux("60"))
            .paths(vec![vec![acct(&bob), acct(&dan)]])
            .amount("SendMax", abux("200")),
    );
    j.close();
    assert_eq!(j.bal(&bob, &ann, "BUX"), val("72"));
    assert_eq!(j.bal(&bob, &dan, "BUX"), val("40"));
    assert_eq!(j.bal(&cam, &dan, "BUX"), val("60"));
    j.ok(&bob, offer(abux("30"), dbux("30")));
    j.close();
    j.ok(&ann, trust(dbux("100")));
    j.close();
    // jtx path(aBux, dBux): two currency+issuer elements.
    j.ter(
        &ann,
        pay(&ann, dbux("30"))
            .paths(vec![vec![book(&ann, "BUX"), book(&dan, "BUX")]])
            .amount("SendMax", abux("30")),
        Ter::temBAD_PATH,
    );
    j.close();
    assert_eq!(j.bal(&ann, &dan, "BUX"), val("0"));
    assert_eq!(j.bal(&bob, &ann, "BUX"), val("72"));
    assert_eq!(j.bal(&bob, &dan, "BUX"), val("40"));
    assert_eq!(j.bal(&cam, &dan, "BUX"), val("60"));
}

// Offer_test testDirectToDirectPath: cam's passive offer is deleted, not crossed, and
// her new offer crosses bob's.
#[test]
fn direct_to_direct_path() {
    let mut j = J::new();
    let (ann, bob, cam) = (acc("ann"), acc("bob"), acc("cam"));
    let abux = |v: &str| iou(&ann, "BUX", v);
    let bbux = |v: &str| iou(&bob, "BUX", v);
    j.fund(reserve(4) + 5 * F, &[&ann, &bob, &cam]);
    j.close();
    j.ok(&ann, trust(bbux("40")));
    j.ok(&cam, trust(abux("40")));
    j.ok(&cam, trust(bbux("40")));
    j.close();
    j.ok(&ann, pay(&cam, abux("35")));
    j.ok(&bob, pay(&cam, bbux("35")));
    j.ok(&bob, offer(abux("30"), bbux("30")));
    j.close();
    j.ok(&cam, offer_f(abux("29"), bbux("30"), tf::PASSIVE));
    j.close();
    assert_eq!(j.bal(&cam, &ann, "BUX"), val("35"));
    assert_eq!(j.bal(&cam, &bob, "BUX"), val("35"));
    assert_eq!(j.n_offers(&cam), 1);
    j.ok(&cam, offer(bbux("30"), abux("30")));
    j.close();
    assert_eq!(j.bal(&bob, &ann, "BUX"), val("30"));
    assert_eq!(j.bal(&cam, &ann, "BUX"), val("5"));
    assert_eq!(j.bal(&cam, &bob, "BUX"), val("65"));
    assert_eq!(j.n_offers(&cam), 0);
}

// Offer_test testSelfCrossLowQualityOffer: tecINSUF_RESERVE_OFFER, no assert.
#[test]
fn self_cross_low_quality_offer() {
    let mut j = J::new();
    let (ann, gw) = (acc("ann"), acc("gateway"));
    let btc = |v: &str| iou(&gw, "BTC", v);
    j.fund(reserve(2) + 9_999_640 + F, &[&ann]);
    j.fund(reserve(2) + 4 * F, &[&gw]);
    j.close();
    j.ok(&gw, rate(1.002));
    j.ok(&ann, trust(btc("10")));
    j.close();
    j.ok(&gw, pay(&ann, btc("2.856")));
    j.close();
    j.ok(&ann, offer(drops(365_611_702_030), btc("5.713")));
    j.close();
    j.ter(
        &ann,
        offer(btc("0.687"), drops(20_000_000_000)),
        Ter::tecINSUF_RESERVE_OFFER,
    );
}

// Offer_test testOfferInScaling.
#[test]
fn offer_in_scaling() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let cny = |v: &str| iou(&gw, "CNY", v);
    j.fund(reserve(2) + 400_000_000_000 + F, &[&alice, &bob]);
    j.fund(reserve(2) + 4 * F, &[&gw]);
    j.close();
    j.ok(&bob, trust(cny("500")));
    j.close();
    j.ok(&gw, pay(&bob, cny("300")));
    j.close();
    j.ok(&bob, offer(drops(5_400_000_000), cny("216.054")));
    j.close();
    j.ok(&alice, offer(cny("13562.0001"), drops(339_000_000_000)));
    j.close();
    assert_eq!(
        j.only_offer(&alice),
        (cny("13345.9461"), drops(333_599_446_582))
    );
}

// Offer_test testOfferInScalingWithXferRate. jtx turns a double into an amount through
// `std::to_string`, i.e. six decimals: btc(0.05507568706427876) is BTC 0.055076, so the
// amounts below are the ones rippled's test really submits.
#[test]
fn offer_in_scaling_with_xfer_rate() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let btc = |v: &str| iou(&gw, "BTC", v);
    let jpy = |v: &str| iou(&gw, "JPY", v);
    j.fund(reserve(2) + 400_000_000_000 + F, &[&alice, &bob]);
    j.fund(reserve(2) + 4 * F, &[&gw]);
    j.close();
    j.ok(&gw, rate(1.002));
    j.ok(&alice, trust(jpy("4000")));
    j.ok(&bob, trust(btc("2")));
    j.close();
    j.ok(&gw, pay(&alice, jpy("3699.034802")));
    j.ok(&gw, pay(&bob, btc("1.156723")));
    j.close();
    j.ok(&bob, offer(jpy("1241.913391"), btc("0.019698")));
    j.close();
    j.ok(&alice, offer(btc("0.055076"), jpy("3472.696773")));
    j.close();
    assert_eq!(
        j.only_offer(&alice),
        (
            btc("0.035378"),
            iou_me(&gw, "JPY", 2_230_682_446_713_524, -12)
        )
    );
}

// Offer_test testOfferThresholdWithReducedFunds.
#[test]
fn offer_threshold_with_reduced_funds() {
    let mut j = J::new();
    let (gw1, gw2, alice, bob) = (acc("gw1"), acc("gw2"), acc("alice"), acc("bob"));
    j.fund(reserve(2) + 400_000_000_000 + F, &[&alice, &bob]);
    j.fund(reserve(2) + 4 * F, &[&gw1, &gw2]);
    j.close();
    j.ok(&gw1, rate(1.002));
    j.ok(&alice, trust(iou(&gw1, "USD", "1000")));
    j.ok(&bob, trust(iou(&gw2, "JPY", "100000")));
    j.close();
    j.ok(
        &gw1,
        pay(&alice, iou_me(&gw1, "USD", 2_185_410_179_555_600, -14)),
    );
    j.ok(
        &gw2,
        pay(&bob, iou_me(&gw2, "JPY", 6_351_823_459_548_956, -12)),
    );
    j.close();
    j.ok(
        &bob,
        offer(
            iou_me(&gw1, "USD", 4_371_257_532_306_000, -17),
            iou_me(&gw2, "JPY", 4_573_216_636_606_000, -15),
        ),
    );
    j.close();
    j.ok(
        &alice,
        offer(
            iou_me(&gw2, "JPY", 2_291_181_510_070_762, -12),
            iou_me(&gw1, "USD", 2_190_218_999_914_694, -14),
        ),
    );
    j.close();
    assert_eq!(
        j.only_offer(&alice),
        (
            iou_me(&gw2, "JPY", 2_286_608_293_434_156, -12),
            iou_me(&gw1, "USD", 2_185_847_305_256_635, -14)
        )
    );
}

// Offer_test testTinyOffer: a tiny passive offer is crossed for 1 drop.
#[test]
fn tiny_offer() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gw"), acc("alice"), acc("bob"));
    let start = 400_000_000_000 + 2 * F;
    j.fund(start, &[&gw, &alice, &bob]);
    j.close();
    j.ok(&bob, trust(iou(&gw, "CNY", "100000")));
    j.close();
    let alice_cny = iou_me(&gw, "CNY", 4_926_000_000_000_000, -23);
    j.ok(&alice, offer_f(alice_cny, drops(1), tf::PASSIVE));
    j.close();
    let bob_start = ivm(3_767_479_960_090_235, -15);
    j.ok(&gw, pay(&bob, Amount::iou(bob_start, cur("CNY"), gw.id)));
    j.close();
    j.ok(
        &bob,
        offer(drops(203), iou_me(&gw, "CNY", 1_000_000_000_000_000, -20)),
    );
    j.close();
    let a = alice_cny.as_iou().unwrap();
    assert_eq!(j.bal(&alice, &gw, "CNY"), a);
    assert_eq!(j.xrp(&alice), start - F - 1);
    assert_eq!(j.bal(&bob, &gw, "CNY"), bob_start.checked_sub(&a).unwrap());
    assert_eq!(j.xrp(&bob), start - 2 * F + 1);
}

/// Offer_test testSelfPayXferFeeOffer / testSelfPayUnlimitedFunds actor rows:
/// (name, offers after, XRP after, BTC after, USD after).
type Actor = (&'static str, usize, i64, &'static str, &'static str);

fn self_pay_cases(cases: Vec<(usize, usize, usize, &'static str, Vec<Actor>)>) {
    let mut j = J::new();
    let gw = acc("gw");
    let btc = |v: &str| iou(&gw, "BTC", v);
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(4_000_000), &[&gw]);
    j.close();
    j.ok(&gw, rate(1.25));
    j.close();
    for (s, l0, l1, btc_start, actors) in cases {
        let accts: Vec<Account> = actors.iter().map(|a| acc(a.0)).collect();
        for a in &accts {
            j.fund(xd(4_000_000), &[a]);
            j.close();
            j.ok(a, trust(btc("40")));
            j.ok(a, trust(usd("8000")));
            j.close();
        }
        let (me, leg0, leg1) = (&accts[s], &accts[l0], &accts[l1]);
        j.ok(&gw, pay(me, btc(btc_start)));
        j.ok(&gw, pay(me, usd("2000")));
        if me.id != leg1.id {
            j.ok(&gw, pay(leg1, usd("2000")));
        }
        j.close();
        j.ok(leg0, offer_f(btc("10"), xrp_amt(100_000), tf::PASSIVE));
        j.close();
        let leg0_seq = j.seq(leg0) - 1;
        j.ok(leg1, offer_f(xrp_amt(100_000), usd("1000"), tf::PASSIVE));
        j.close();
        let leg1_seq = j.seq(leg1) - 1;
        j.ok(me, offer(usd("1000"), btc("10")));
        j.close();
        let me_seq = j.seq(me) - 1;
        for (a, (name, offers, x, b, u)) in accts.iter().zip(actors.iter()) {
            assert_eq!(j.n_offers(a), *offers, "{name} offers");
            assert_eq!(j.xrp(a), *x, "{name} XRP");
            assert_eq!(j.bal(a, &gw, "BTC"), val(b), "{name} BTC");
            assert_eq!(j.bal(a, &gw, "USD"), val(u), "{name} USD");
        }
        j.ok(leg0, cancel(leg0_seq));
        j.close();
        j.ok(leg1, cancel(leg1_seq));
        j.close();
        j.ok(me, cancel(me_seq));
        j.close();
    }
}

// Offer_test testSelfPayXferFeeOffer: auto-bridged crossing through one's own offers
// pays no transfer fee on the self legs.
#[test]
fn self_pay_xfer_fee_offer() {
    let b = F;
    self_pay_cases(vec![
        (
            0,
            0,
            1,
            "20",
            vec![
                ("ann", 0, 3_900_000_000_000 - 4 * b, "20", "3000"),
                ("abe", 0, 4_100_000_000_000 - 3 * b, "0", "750"),
            ],
        ),
        (
            0,
            1,
            0,
            "20",
            vec![
                ("bev", 0, 4_100_000_000_000 - 4 * b, "7.5", "2000"),
                ("bob", 0, 3_900_000_000_000 - 3 * b, "10", "0"),
            ],
        ),
        (
            0,
            0,
            0,
            "20",
            vec![("cam", 0, 4_000_000_000_000 - 5 * b, "20", "2000")],
        ),
        (
            0,
            1,
            0,
            "5",
            vec![
                ("deb", 1, 4_040_000_000_000 - 4 * b, "0", "2000"),
                ("dan", 1, 3_960_000_000_000 - 3 * b, "4", "0"),
            ],
        ),
    ]);
}

// Offer_test testSelfPayUnlimitedFunds: Flow crossing does not treat self-owned funds as
// unlimited.
#[test]
fn self_pay_unlimited_funds() {
    let b = F;
    self_pay_cases(vec![
        (
            0,
            0,
            1,
            "5",
            vec![
                ("gay", 1, 3_950_000_000_000 - 4 * b, "5", "2500"),
                ("gar", 1, 4_050_000_000_000 - 3 * b, "0", "1375"),
            ],
        ),
        (
            0,
            0,
            0,
            "5",
            vec![("hye", 2, 4_000_000_000_000 - 5 * b, "5", "2000")],
        ),
    ]);
}

// Offer_test testRequireAuth: authorized holders cross.
#[test]
fn require_auth() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gw"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(400_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&gw, fset(asf::REQUIRE_AUTH));
    j.close();
    j.ok(&gw, trust(iou(&bob, "USD", "100")).flags(ttf::SET_AUTH));
    j.ok(&bob, trust(usd("100")));
    j.ok(&gw, trust(iou(&alice, "USD", "100")).flags(ttf::SET_AUTH));
    j.ok(&alice, trust(usd("100")));
    j.ok(&alice, offer(usd("40"), xrp_amt(4000)));
    j.close();
    assert_eq!(j.n_offers(&alice), 1);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    j.ok(&gw, pay(&bob, usd("50")));
    j.close();
    j.ok(&bob, offer(xrp_amt(4000), usd("40")));
    j.close();
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("40"));
    assert_eq!(j.n_offers(&bob), 0);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("10"));
}

// Offer_test testMissingAuth: an unauthorized offer is deleted when met; creating one
// without a line is tecNO_LINE, with an unauthorized line tecNO_AUTH.
#[test]
fn missing_auth() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gw"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(400_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, offer(usd("40"), xrp_amt(4000)));
    j.close();
    assert_eq!(j.n_offers(&alice), 1);
    j.ok(&gw, fset(asf::REQUIRE_AUTH));
    j.close();
    j.ok(&gw, trust(iou(&bob, "USD", "100")).flags(ttf::SET_AUTH));
    j.close();
    j.ok(&bob, trust(usd("100")));
    j.close();
    j.ok(&gw, pay(&bob, usd("50")));
    j.close();
    j.ok(&bob, offer(xrp_amt(4000), usd("40")));
    j.close();
    let bob_seq = j.seq(&bob) - 1;
    assert_eq!(j.n_offers(&alice), 0);
    assert!(!j.has_line(&alice, &gw, "USD"));
    assert_eq!(j.n_offers(&bob), 1);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("50"));
    j.ter(&alice, offer(usd("40"), xrp_amt(4000)), Ter::tecNO_LINE);
    j.close();
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.n_offers(&bob), 1);
    j.ok(&gw, trust(iou(&alice, "USD", "100")));
    j.close();
    j.ter(&alice, offer(usd("40"), xrp_amt(4000)), Ter::tecNO_AUTH);
    j.close();
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.n_offers(&bob), 1);
    j.ok(&bob, cancel(bob_seq));
    j.close();
    j.ok(&gw, trust(iou(&alice, "USD", "100")).flags(ttf::SET_AUTH));
    j.close();
    j.ok(&alice, offer(usd("40"), xrp_amt(4000)));
    j.close();
    assert_eq!(j.n_offers(&alice), 1);
    j.ok(&bob, offer(xrp_amt(4000), usd("40")));
    j.close();
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("40"));
    assert_eq!(j.n_offers(&bob), 0);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("10"));
}

// Offer_test testSelfAuth: tecOWNERS while gw has an offer; after RequireAuth gw may
// still offer to buy its own currency.
#[test]
fn self_auth() {
    let mut j = J::new();
    let (gw, alice) = (acc("gw"), acc("alice"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(400_000), &[&gw, &alice]);
    j.close();
    j.ok(&gw, offer(usd("40"), xrp_amt(4000)));
    j.close();
    let gw_seq = j.seq(&gw) - 1;
    j.ter(&gw, fset(asf::REQUIRE_AUTH), Ter::tecOWNERS);
    j.close();
    j.ok(&gw, cancel(gw_seq));
    j.close();
    j.ok(&gw, fset(asf::REQUIRE_AUTH));
    j.close();
    j.ok(&gw, offer(usd("40"), xrp_amt(4000)));
    j.close();
    assert_eq!(j.n_offers(&gw), 1);
    j.ok(&gw, trust(iou(&alice, "USD", "100")).flags(ttf::SET_AUTH));
    j.ok(&alice, trust(usd("100")));
    j.close();
    j.ok(&gw, pay(&alice, usd("50")));
    j.close();
    j.ok(&alice, offer(xrp_amt(4000), usd("40")));
    j.close();
    assert_eq!(j.n_offers(&alice), 0);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("10"));
    assert_eq!(j.n_offers(&gw), 0);
}

// Offer_test testTickSize: TickSize bounds, and offers rounded to 5 significant digits.
#[test]
fn tick_size() {
    let mut j = J::new();
    let gw = acc("gateway");
    j.fund(xd(10_000), &[&gw]);
    j.close();
    let tick = |n: u8| account_set().u8("TickSize", n);
    let tick_of = |j: &J| j.env.root(&gw).unwrap().u8_of(sf().tick_size);
    j.ter(&gw, tick(2), Ter::temBAD_TICK_SIZE);
    j.ok(&gw, tick(3));
    assert_eq!(tick_of(&j), Some(3));
    j.ok(&gw, tick(16));
    assert_eq!(tick_of(&j), None);
    j.ok(&gw, tick(15));
    assert_eq!(tick_of(&j), Some(15));
    j.ter(&gw, tick(17), Ter::temBAD_TICK_SIZE);
    j.ok(&gw, tick(0));
    assert_eq!(tick_of(&j), None);

    let mut j = J::new();
    let (gw, alice) = (acc("gateway"), acc("alice"));
    let xts = |v: &str| iou(&gw, "XTS", v);
    let xxx = |v: &str| iou(&gw, "XXX", v);
    j.fund(xd(10_000), &[&gw, &alice]);
    j.close();
    j.ok(&gw, account_set().u8("TickSize", 5));
    j.ok(&alice, trust(xts("1000")));
    j.ok(&alice, trust(xxx("1000")));
    j.ok(&gw, pay(&alice, iou(&alice, "XTS", "100")));
    j.ok(&gw, pay(&alice, iou(&alice, "XXX", "100")));
    j.ok(&alice, offer(xts("10"), xxx("30")));
    j.ok(&alice, offer(xts("30"), xxx("10")));
    j.ok(&alice, offer_f(xts("10"), xxx("30"), tf::SELL));
    j.ok(&alice, offer_f(xts("30"), xxx("10"), tf::SELL));
    let o: Vec<(Amount, Amount)> = j
        .offers(&alice)
        .iter()
        .map(|o| {
            (
                o.amount_of(sf().taker_pays).unwrap(),
                o.amount_of(sf().taker_gets).unwrap(),
            )
        })
        .collect();
    assert_eq!(o.len(), 4);
    let v = |a: &Amount| a.as_iou().unwrap();
    assert_eq!(o[0].0, xts("10"));
    assert!(v(&o[0].1) < val("30") && v(&o[0].1) > val("29.9994"));
    assert_eq!(o[1], (xts("30"), xxx("10")));
    assert_eq!(o[2], (xts("10.0002"), xxx("30")));
    assert_eq!(o[3], (xts("30"), xxx("10")));
}

// Offer_test testTicketOffer: offers made with tickets keep their book order by time.
#[test]
fn ticket_offers() {
    let mut j = J::new();
    let (gw, alice, bob) = (acc("gateway"), acc("alice"), acc("bob"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&gw, &alice, &bob]);
    j.close();
    j.ok(&alice, trust(usd("1000")));
    j.ok(&bob, trust(usd("1000")));
    j.close();
    j.ok(&gw, pay(&alice, usd("200")));
    j.close();
    let id0 = j.seq(&alice);
    j.ok(&alice, offer(xrp_amt(50), usd("50")));
    j.close();
    let ticket = j.seq(&alice) + 1;
    j.ok(&alice, ticket_create(2));
    j.close();
    let id1 = j.seq(&alice);
    assert_eq!(id1, id0 + 4);
    j.ok(&alice, offer(xrp_amt(50), usd("50")));
    j.close();
    let id2 = ticket + 1;
    j.ok(&alice, with_ticket(offer(xrp_amt(50), usd("50")), id2));
    j.close();
    let id3 = ticket;
    j.ok(&alice, with_ticket(offer(xrp_amt(50), usd("50")), id3));
    j.close();
    let seqs = |j: &J| -> Vec<u32> {
        j.offers(&alice)
            .iter()
            .map(|o| o.u32_of(sf().sequence).unwrap())
            .collect()
    };
    assert_eq!(seqs(&j), vec![id0, id3, id2, id1]);
    assert_eq!(j.owners(&alice), 5);
    for want in [vec![id3, id2, id1], vec![id3, id2], vec![id3], vec![]] {
        j.ok(&bob, offer(usd("50"), xrp_amt(50)));
        j.close();
        assert_eq!(seqs(&j), want, "offers consumed in creation order");
    }
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.owners(&alice), 1);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("200"));
    assert_eq!(j.owners(&bob), 1);
}

// Offer_test testFillOrKill (fixFillOrKill on): a FoK buy offer fills when it gets what
// it pays for, a FoK sell when it sells all it offers.
#[test]
fn fix_fill_or_kill() {
    let mut j = J::new();
    let (issuer, maker, taker) = (acc("issuer"), acc("maker"), acc("taker"));
    let usd = |v: &str| iou(&issuer, "USD", v);
    let eur = |v: &str| iou(&issuer, "EUR", v);
    j.fund(xd(1000), &[&issuer]);
    j.fund(xd(1000), &[&maker, &taker]);
    j.close();
    j.trust(usd("1000"), &[&maker, &taker]);
    j.trust(eur("1000"), &[&maker, &taker]);
    j.close();
    j.ok(&issuer, pay(&maker, usd("1000")));
    j.ok(&issuer, pay(&taker, usd("1000")));
    j.ok(&issuer, pay(&maker, eur("1000")));
    j.close();
    let fok = tf::FILL_OR_KILL;
    let x = |n: i64| xrp_amt(n);
    // (maker pays, maker gets, taker pays, taker gets, flags, result)
    let rounds: Vec<(Amount, Amount, Amount, Amount, u32, Ter)> = vec![
        (x(100), usd("100"), usd("100"), x(101), fok, Ter::tesSUCCESS),
        (usd("100"), x(100), x(100), usd("101"), fok, Ter::tesSUCCESS),
        (
            usd("100"),
            eur("100"),
            eur("100"),
            usd("101"),
            fok,
            Ter::tesSUCCESS,
        ),
        (
            x(101),
            usd("101"),
            usd("100"),
            x(101),
            fok | tf::SELL,
            Ter::tesSUCCESS,
        ),
        (
            usd("101"),
            x(101),
            x(100),
            usd("101"),
            fok | tf::SELL,
            Ter::tesSUCCESS,
        ),
        (
            usd("101"),
            eur("101"),
            eur("100"),
            usd("101"),
            fok | tf::SELL,
            Ter::tesSUCCESS,
        ),
        (x(100), usd("100"), usd("100"), x(99), fok, Ter::tecKILLED),
        (usd("100"), x(100), x(100), usd("99"), fok, Ter::tecKILLED),
        (
            usd("100"),
            eur("100"),
            eur("100"),
            usd("99"),
            fok,
            Ter::tecKILLED,
        ),
        (
            x(100),
            usd("100"),
            usd("100"),
            x(99),
            fok | tf::SELL,
            Ter::tecKILLED,
        ),
        (
            usd("100"),
            x(100),
            x(100),
            usd("99"),
            fok | tf::SELL,
            Ter::tecKILLED,
        ),
        (
            usd("100"),
            eur("100"),
            eur("100"),
            usd("99"),
            fok | tf::SELL,
            Ter::tecKILLED,
        ),
    ];
    for (mp, mg, tp, tg, flags, want) in rounds {
        j.ok(&maker, offer(mp, mg));
        j.close();
        j.ter(&taker, offer_f(tp, tg, flags), want);
        j.close();
        assert_eq!(j.n_offers(&taker), 0);
    }
    // rippled's running totals: the six fills move USD -100 +100 +100 -101 +101 +101
    // to the maker and EUR 100 + 101 to the taker; XRP nets out; 12 fees each.
    assert_eq!(j.bal(&maker, &issuer, "USD"), val("1201"));
    assert_eq!(j.bal(&taker, &issuer, "USD"), val("799"));
    assert_eq!(j.bal(&maker, &issuer, "EUR"), val("799"));
    assert_eq!(j.bal(&taker, &issuer, "EUR"), val("201"));
    assert_eq!(j.xrp(&maker), xd(1000) - 12 * F);
    assert_eq!(j.xrp(&taker), xd(1000) - 12 * F);
}

// Flow_test testDirectStep (rippling with a transfer fee): alice redeems to bob, who
// charges 10% on the part she redeems.
#[test]
fn flow_direct_step_rippling_with_transfer_fee() {
    for alice_redeems in [true, false] {
        let mut j = J::new();
        let (alice, bob, carol, dan) = (acc("alice"), acc("bob"), acc("carol"), acc("dan"));
        j.fund(xd(10_000), &[&alice, &bob, &carol, &dan]);
        j.trust(iou(&alice, "USD", "10"), &[&bob]);
        j.trust(iou(&bob, "USD", "10"), &[&alice, &carol]);
        j.trust(iou(&carol, "USD", "10"), &[&dan]);
        j.ok(&bob, rate(1.1));
        if alice_redeems {
            j.ok(&bob, pay(&alice, iou(&bob, "USD", "6")));
        }
        let tx = pay(&dan, iou(&carol, "USD", "5"))
            .paths(vec![vec![acct(&bob), acct(&carol)]])
            .amount("SendMax", iou(&alice, "USD", "6"))
            .flags(ptf::NO_RIPPLE_DIRECT);
        j.ok(&alice, tx);
        assert_eq!(j.bal(&dan, &carol, "USD"), val("5"));
        if alice_redeems {
            assert_eq!(j.bal(&alice, &bob, "USD"), val("0.5"));
        } else {
            assert_eq!(
                j.bal(&bob, &alice, "USD"),
                val("5"),
                "no fee when alice issues"
            );
        }
    }
}

// Flow_test testDirectStep (best quality path and limit quality).
#[test]
fn flow_direct_step_best_quality_and_limit_quality() {
    let mut j = J::new();
    let names = ["alice", "bob", "carol", "dan", "erin"];
    let [alice, bob, carol, dan, erin] = names.map(acc);
    j.fund(xd(10_000), &[&alice, &bob, &carol, &dan, &erin]);
    j.trust(iou(&alice, "USD", "10"), &[&bob, &carol]);
    j.trust(iou(&bob, "USD", "10"), &[&dan]);
    j.trust(iou(&carol, "USD", "10"), &[&alice, &dan]);
    j.trust(iou(&dan, "USD", "20"), &[&erin]);
    j.ok(&bob, rate(1.0));
    j.ok(&carol, rate(1.1));
    j.ok(&carol, pay(&alice, iou(&carol, "USD", "10")));
    let tx = pay(&erin, iou(&dan, "USD", "5"))
        .paths(vec![
            vec![acct(&carol), acct(&dan)],
            vec![acct(&bob), acct(&dan)],
        ])
        .flags(ptf::NO_RIPPLE_DIRECT);
    j.ok(&alice, tx);
    assert_eq!(j.bal(&erin, &dan, "USD"), val("5"));
    assert_eq!(j.bal(&dan, &bob, "USD"), val("5"));
    assert_eq!(j.bal(&dan, &carol, "USD"), val("0"));

    let mut j = J::new();
    j.fund(xd(10_000), &[&alice, &bob, &carol]);
    j.trust(iou(&alice, "USD", "10"), &[&bob]);
    j.trust(iou(&bob, "USD", "10"), &[&carol]);
    j.ter(
        &alice,
        pay(&carol, iou(&bob, "USD", "5"))
            .amount("SendMax", iou(&alice, "USD", "4"))
            .flags(ptf::LIMIT_QUALITY | ptf::PARTIAL_PAYMENT),
        Ter::tecPATH_DRY,
    );
    assert_eq!(j.bal(&carol, &bob, "USD"), val("0"));
    j.ok(
        &alice,
        pay(&carol, iou(&bob, "USD", "5"))
            .amount("SendMax", iou(&alice, "USD", "4"))
            .flags(ptf::PARTIAL_PAYMENT),
    );
    assert_eq!(j.bal(&carol, &bob, "USD"), val("4"));
}

// Flow_test testBookStep: unfunded offers found on the way are removed when the payment
// succeeds; one not yet reached stays. rippled 2.x (FlowSortStrands) has bob's unfunded
// offer at BTC 40 / EUR 50, so its strand ranks first and is tried first.
#[test]
fn flow_book_step_removes_unfunded_offers() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let c = |code: &str, v: &str| iou(&gw, code, v);
    j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
    for code in ["USD", "BTC", "EUR"] {
        j.trust(c(code, "1000"), &[&alice, &bob, &carol]);
    }
    j.ok(&gw, pay(&alice, c("BTC", "60")));
    j.ok(&gw, pay(&bob, c("USD", "50")));
    j.ok(&gw, pay(&bob, c("EUR", "50")));
    j.ok(&bob, offer(c("BTC", "50"), c("USD", "50")));
    j.ok(&bob, offer(c("BTC", "40"), c("EUR", "50")));
    j.ok(&bob, offer(c("EUR", "50"), c("USD", "50")));
    j.ok(&bob, pay(&gw, c("EUR", "50")));
    let tx = pay(&carol, c("USD", "50"))
        .paths(vec![
            vec![book(&gw, "USD")],
            vec![book(&gw, "EUR"), book(&gw, "USD")],
        ])
        .amount("SendMax", c("BTC", "60"));
    j.ok(&alice, tx);
    assert_eq!(j.bal(&alice, &gw, "BTC"), val("10"));
    assert_eq!(j.bal(&bob, &gw, "BTC"), val("50"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("0"));
    assert_eq!(j.bal(&bob, &gw, "EUR"), val("0"));
    assert_eq!(j.bal(&carol, &gw, "USD"), val("50"));
    assert!(!j.is_offer(&bob, &c("BTC", "50"), &c("USD", "50")), "used");
    assert!(
        !j.is_offer(&bob, &c("BTC", "40"), &c("EUR", "50")),
        "found unfunded"
    );
    assert!(
        j.is_offer(&bob, &c("EUR", "50"), &c("USD", "50")),
        "not yet found"
    );
}

// Flow_test testBookStep (XRP bridges and sendmax): balances after simple book payments.
#[test]
fn flow_book_step_simple_offers() {
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let c = |code: &str, v: &str| iou(&gw, code, v);
    let world = || {
        let mut j = J::new();
        j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
        j.trust(c("USD", "1000"), &[&alice, &bob, &carol]);
        j.trust(c("BTC", "1000"), &[&alice, &bob, &carol]);
        j
    };
    // IOU/XRP then XRP/IOU.
    let mut j = world();
    j.ok(&gw, pay(&alice, c("BTC", "50")));
    j.ok(&gw, pay(&bob, c("USD", "50")));
    j.ok(&bob, offer(c("BTC", "50"), xrp_amt(50)));
    j.ok(&bob, offer(xrp_amt(50), c("USD", "50")));
    let tx = pay(&carol, c("USD", "50"))
        .paths(vec![vec![book_xrp(), book(&gw, "USD")]])
        .amount("SendMax", c("BTC", "50"));
    j.ok(&alice, tx);
    assert_eq!(j.bal(&alice, &gw, "BTC"), val("0"));
    assert_eq!(j.bal(&bob, &gw, "BTC"), val("50"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("0"));
    assert_eq!(j.bal(&carol, &gw, "USD"), val("50"));
    assert_eq!(j.n_offers(&bob), 0);
    // XRP -> USD.
    let mut j = world();
    j.ok(&gw, pay(&bob, c("USD", "50")));
    j.ok(&bob, offer(xrp_amt(50), c("USD", "50")));
    let tx = pay(&carol, c("USD", "50"))
        .paths(vec![vec![book(&gw, "USD")]])
        .amount("SendMax", xrp_amt(50));
    j.ok(&alice, tx);
    assert_eq!(j.xrp(&alice), xd(10_000 - 50) - F);
    assert_eq!(j.xrp(&bob), xd(10_000 + 50) - F);
    assert_eq!(j.bal(&carol, &gw, "USD"), val("50"));
    // USD -> XRP.
    let mut j = world();
    j.ok(&gw, pay(&alice, c("USD", "50")));
    j.ok(&bob, offer(c("USD", "50"), xrp_amt(50)));
    let tx = pay(&carol, xrp_amt(50))
        .paths(vec![vec![book_xrp()]])
        .amount("SendMax", c("USD", "50"));
    j.ok(&alice, tx);
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    assert_eq!(j.xrp(&bob), xd(10_000 - 50) - F);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("50"));
    assert_eq!(j.xrp(&carol), xd(10_000 + 50));
}

// Flow_test testBookStep ("do not produce more in the forward pass"), fixReducedOffersV2
// branch: taking less than half a cent of bob's USD offer is refused, tecPATH_DRY.
#[test]
fn flow_book_step_reduced_offers_v2_dry() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let c = |code: &str, v: &str| iou(&gw, code, v);
    j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
    j.trust(c("USD", "1000"), &[&alice, &bob, &carol]);
    j.trust(c("EUR", "1000"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&alice, c("USD", "1000")));
    j.ok(&gw, pay(&bob, c("EUR", "1000")));
    j.ok(&bob, offer_f(c("USD", "1"), drops(2), tf::PASSIVE));
    j.ok(&bob, offer_f(drops(1), c("EUR", "1000"), tf::PASSIVE));
    let tx = pay(&carol, c("EUR", "1"))
        .paths(vec![vec![book_xrp(), book(&gw, "EUR")]])
        .amount("SendMax", c("USD", "0.4"))
        .flags(ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT);
    j.ter(&alice, tx, Ter::tecPATH_DRY);
}

// Flow_test testTransferRate, the cases that do not depend on featureOwnerPaysFee.
// rippled runs this test only with OwnerPaysFee added (`features | ownerPaysFee`), an
// amendment the network never enabled and ledgerd does not implement; the offer cases
// ("owner pays transfer fee": bob keeps USD 2.5, two consecutive offers, redeem then
// issue through dan's offer, issuer-owned offer at 100 XRP) expect its numbers and are
// left out; the issuer-owned offer runs in its sender-pays form instead.
#[test]
fn flow_transfer_rate() {
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let c = |code: &str, v: &str| iou(&gw, code, v);
    let world = || {
        let mut j = J::new();
        j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
        j.ok(&gw, rate(1.25));
        j
    };
    // Simple payment; none when the issuer is the destination.
    let mut j = world();
    j.trust(c("USD", "1000"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&alice, c("USD", "50")));
    j.ok(
        &alice,
        pay(&bob, c("USD", "40")).amount("SendMax", c("USD", "50")),
    );
    assert_eq!(j.bal(&bob, &gw, "USD"), val("40"));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("0"));
    let mut j = world();
    j.trust(c("USD", "1000"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&alice, c("USD", "50")));
    j.ok(
        &alice,
        pay(&gw, c("USD", "40")).amount("SendMax", c("USD", "40")),
    );
    assert_eq!(j.bal(&alice, &gw, "USD"), val("10"));
    // Redeem then issue: $50 pays the fee, $10 does not.
    let mut j = world();
    j.trust(c("USD", "1000"), &[&alice, &bob, &carol]);
    j.trust(iou(&alice, "USD", "1000"), &[&bob]);
    j.trust(iou(&bob, "USD", "1000"), &[&gw]);
    j.ok(&gw, pay(&bob, c("USD", "50")));
    j.ok(
        &alice,
        pay(&carol, c("USD", "50"))
            .paths(vec![vec![acct(&bob)]])
            .amount("SendMax", iou(&alice, "USD", "60")),
    );
    assert_eq!(j.bal(&bob, &gw, "USD"), val("-10"));
    assert_eq!(j.bal(&bob, &alice, "USD"), val("60"));
    assert_eq!(j.bal(&carol, &gw, "USD"), val("50"));
    // The issuer owns the offer; without OwnerPaysFee the sender pays the fee (rippled's
    // `!features[featureOwnerPaysFee]` case).
    let mut j = world();
    j.trust(c("USD", "1000"), &[&alice, &bob]);
    j.ok(&gw, offer(xrp_amt(125), c("USD", "125")));
    j.ok(
        &alice,
        pay(&bob, c("USD", "100")).amount("SendMax", xrp_amt(200)),
    );
    assert_eq!(j.xrp(&alice), xd(10_000 - 125) - F);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("100"));
}

// Flow_test testFalseDry: bob's XRP is just short; the strand is not wrongly dry.
#[test]
fn flow_false_dry() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let c = |code: &str, v: &str| iou(&gw, code, v);
    j.fund(xd(10_000), &[&alice, &carol, &gw]);
    j.fund(reserve(5), &[&bob]);
    j.trust(c("USD", "1000"), &[&alice, &bob, &carol]);
    j.trust(c("EUR", "1000"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&alice, c("EUR", "50")));
    j.ok(&gw, pay(&bob, c("USD", "50")));
    j.ok(&bob, offer(c("EUR", "50"), xrp_amt(50)));
    j.ok(&bob, offer(xrp_amt(50), c("USD", "50")));
    j.ok(
        &alice,
        pay(&carol, c("USD", "1000000"))
            .paths(vec![vec![book_xrp(), book(&gw, "USD")]])
            .amount("SendMax", c("EUR", "500"))
            .flags(ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT),
    );
    let got = j.bal(&carol, &gw, "USD");
    assert!(got > val("0") && got < val("50"), "carol got {got:?}");
}

// Flow_test testLimitQuality: the first offer is taken, the worse one is not.
#[test]
fn flow_limit_quality() {
    let mut j = J::new();
    let (gw, alice, bob, carol) = (acc("gateway"), acc("alice"), acc("bob"), acc("carol"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(10_000), &[&alice, &bob, &carol, &gw]);
    j.trust(usd("100"), &[&alice, &bob, &carol]);
    j.ok(&gw, pay(&bob, usd("100")));
    j.ok(&bob, offer(xrp_amt(50), usd("50")));
    j.ok(&bob, offer(xrp_amt(100), usd("50")));
    j.ok(
        &alice,
        pay(&carol, usd("100"))
            .paths(vec![vec![book(&gw, "USD")]])
            .amount("SendMax", xrp_amt(100))
            .flags(ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT | ptf::LIMIT_QUALITY),
    );
    assert_eq!(j.bal(&carol, &gw, "USD"), val("50"));
}

// Flow_test testSelfPayment1: paying oneself through one's own offer leaves balances and
// shrinks the offer to EUR 598.8 / USD 499.
#[test]
fn flow_self_payment_1() {
    let mut j = J::new();
    let (gw1, gw2, alice) = (acc("gw1"), acc("gw2"), acc("alice"));
    let usd = |v: &str| iou(&gw1, "USD", v);
    let eur = |v: &str| iou(&gw2, "EUR", v);
    j.fund(xd(1_000_000), &[&gw1, &gw2]);
    j.close();
    j.fund(reserve(3) + 4 * F, &[&alice]);
    j.close();
    j.ok(&alice, trust(usd("2000")));
    j.ok(&alice, trust(eur("2000")));
    j.close();
    j.ok(&gw1, pay(&alice, usd("1")));
    j.ok(&gw2, pay(&alice, eur("1000")));
    j.close();
    j.ok(&alice, offer(usd("500"), eur("600")));
    j.close();
    assert_eq!(j.owners(&alice), 3);
    j.ok(
        &alice,
        pay(&alice, eur("600"))
            .amount("SendMax", usd("500"))
            .flags(ptf::PARTIAL_PAYMENT),
    );
    j.close();
    assert_eq!(j.owners(&alice), 3);
    assert_eq!(j.bal(&alice, &gw1, "USD"), val("1"));
    assert_eq!(j.bal(&alice, &gw2, "EUR"), val("1000"));
    assert_eq!(j.only_offer(&alice), (usd("499"), eur("598.8")));
}

// Flow_test testSelfFundedXRPEndpoint: XRP received as an offer owner cannot fund the
// same payment (both amounts succeed in rippled).
#[test]
fn flow_self_funded_xrp_endpoint() {
    for consume in [false, true] {
        let mut j = J::new();
        let (alice, gw) = (acc("alice"), acc("gw"));
        let usd = |v: &str| iou(&gw, "USD", v);
        j.fund(xd(10_000), &[&alice, &gw]);
        j.ok(&alice, trust(usd("20")));
        j.ok(&gw, pay(&alice, usd("10")));
        j.ok(&alice, offer(xrp_amt(50_000), usd("10")));
        let send = if consume { usd("10") } else { usd("9") };
        j.ok(
            &alice,
            pay(&alice, send)
                .paths(vec![vec![book(&gw, "USD")]])
                .amount("SendMax", xrp_amt(20_000))
                .flags(ptf::PARTIAL_PAYMENT | ptf::NO_RIPPLE_DIRECT),
        );
    }
}

// Flow_test testUnfundedOffer: the gateway's offer left with dust is removed (reverse and
// forward passes).
#[test]
fn flow_unfunded_offer_dust_removed() {
    for forward in [false, true] {
        let mut j = J::new();
        let (alice, bob, gw) = (acc("alice"), acc("bob"), acc("gw"));
        j.fund(xd(100_000), &[&alice, &bob, &gw]);
        let tiny1 = iou_me(&gw, "USD", 9_000_000_000_000_000, -17);
        let tiny3 = iou_me(&gw, "USD", 9_000_000_000_000_003, -17);
        if forward {
            j.ok(&alice, trust(iou(&gw, "USD", "20")));
            j.ok(&gw, pay(&alice, tiny1));
            j.ok(&gw, offer(tiny3, drops(9_000_000_000)));
            j.ok(
                &alice,
                pay(&bob, drops(9_000_000_000))
                    .paths(vec![vec![book_xrp()]])
                    .amount("SendMax", iou(&gw, "USD", "1"))
                    .flags(ptf::NO_RIPPLE_DIRECT),
            );
        } else {
            j.ok(&bob, trust(iou(&gw, "USD", "20")));
            j.ok(&gw, offer(drops(9_000_000_000), tiny3));
            j.ok(
                &alice,
                pay(&bob, tiny1)
                    .paths(vec![vec![book(&gw, "USD")]])
                    .amount("SendMax", drops(9_000_000_000))
                    .flags(ptf::NO_RIPPLE_DIRECT),
            );
        }
        assert_eq!(j.n_offers(&gw), 0, "forward {forward}");
    }
}

// Flow_test testReexecuteDirectStep: succeeds (no re-execution failure).
#[test]
fn flow_reexecute_direct_step() {
    let mut j = J::new();
    let (alice, bob, gw) = (acc("alice"), acc("bob"), acc("gw"));
    j.fund(xd(10_000), &[&alice, &bob, &gw]);
    j.close();
    j.ok(&alice, trust(iou(&gw, "USD", "100")));
    j.close();
    j.ok(
        &gw,
        pay(&alice, iou_me(&gw, "USD", 1_255_555_555_555_555, -14)),
    );
    j.ok(
        &gw,
        offer(
            iou_me(&gw, "USD", 5_000_000_000_000_000, -15),
            xrp_amt(1000),
        ),
    );
    j.ok(
        &gw,
        offer(iou_me(&gw, "USD", 5_555_555_555_555_555, -16), xrp_amt(10)),
    );
    j.ok(
        &gw,
        offer(
            iou_me(&gw, "USD", 4_444_444_444_444_444, -15),
            drops(100_000),
        ),
    );
    j.ok(
        &alice,
        offer(iou_me(&gw, "USD", 1_700_000_000_000_000, -14), drops(1000)),
    );
    j.ok(
        &alice,
        pay(&bob, xrp_amt(10_000))
            .paths(vec![vec![book_xrp()]])
            .amount("SendMax", iou(&gw, "USD", "100"))
            .flags(ptf::PARTIAL_PAYMENT | ptf::NO_RIPPLE_DIRECT),
    );
}

// CrossingLimits_test testStepLimit: a book step takes at most 1000 offers, funded or
// not.
#[test]
fn crossing_limits_step_limit() {
    let mut j = J::new();
    let gw = acc("gateway");
    let (alice, bob, carol, dan) = (acc("alice"), acc("bob"), acc("carol"), acc("dan"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(100_000_000), &[&gw, &alice, &bob, &carol, &dan]);
    j.trust(usd("1"), &[&bob]);
    j.ok(&gw, pay(&bob, usd("1")));
    j.trust(usd("1"), &[&dan]);
    j.ok(&gw, pay(&dan, usd("1")));
    j.n_offers_make(2000, &bob, xrp_amt(1), usd("1"));
    j.n_offers_make(1, &dan, xrp_amt(1), usd("1"));
    j.ok(&alice, offer(usd("1000"), xrp_amt(1000)));
    assert_eq!(j.bal(&alice, &gw, "USD"), val("1"));
    assert_eq!(j.owners(&alice), 2);
    assert_eq!(j.bal(&bob, &gw, "USD"), val("0"));
    assert_eq!(j.owners(&bob), 1001);
    assert_eq!(j.bal(&dan, &gw, "USD"), val("1"));
    assert_eq!(j.owners(&dan), 2);
    j.ok(&carol, offer(usd("1000"), xrp_amt(1000)));
    assert!(!j.has_line(&carol, &gw, "USD"));
    assert_eq!(j.owners(&carol), 1);
    assert_eq!(j.owners(&bob), 1);
    assert_eq!(j.bal(&dan, &gw, "USD"), val("1"));
    assert_eq!(j.owners(&dan), 2);
}

// CrossingLimits_test testCrossingLimit (FlowCross: 1000 offers).
#[test]
fn crossing_limits_crossing_limit() {
    let mut j = J::new();
    let gw = acc("gateway");
    let (alice, bob, carol) = (acc("alice"), acc("bob"), acc("carol"));
    let usd = |v: &str| iou(&gw, "USD", v);
    j.fund(xd(100_000_000), &[&gw, &alice, &bob, &carol]);
    j.trust(usd("1150"), &[&bob]);
    j.ok(&gw, pay(&bob, usd("1150")));
    j.close();
    j.n_offers_make(1150, &bob, xrp_amt(1), usd("1"));
    j.ok(&alice, offer(usd("1150"), xrp_amt(1150)));
    j.close();
    assert_eq!(j.bal(&alice, &gw, "USD"), val("1000"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("150"));
    assert_eq!(j.owners(&bob), 151);
    j.ok(&carol, offer(usd("1000"), xrp_amt(1000)));
    j.close();
    assert_eq!(j.bal(&carol, &gw, "USD"), val("150"));
    assert_eq!(j.bal(&bob, &gw, "USD"), val("0"));
    assert_eq!(j.owners(&bob), 1);
}
