//! AMM liquidity in the payment engine (issue 15), rippled's `AMM_test.cpp`
//! `testBasicPaymentEngine` cases (their fixAMMv1_1 / fixReducedOffersV2 branches) with
//! their expected pool balances and holdings:
//! payments through a pool on an explicit or the default path, a pool and an order
//! book offer sharing a payment in either order, offer crossing against a pool, and
//! transfer fees (charged on the book steps around a pool, never on the pool's side).

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm;
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, IouValue, Rounding};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{PathStep, StValue};
use ledgerd::protocol::types::{Currency, Issue};
use support::engine::*;

const PARTIAL: u32 = 0x0002_0000;
const NO_DIRECT: u32 = 0x0001_0000;
const PASSIVE: u32 = 0x0001_0000;

/// rippled's jtx world: every account ripples by default; gw issues.
struct World {
    env: Env,
    gw: Account,
}

impl World {
    fn new() -> World {
        // AMM values computed with the 16-digit Number (no SingleAssetVault).
        let mut env = crate::number_scale::small_numbers();
        let gw = Account::new("gateway");
        env.fund(&gw, xrp(100_000));
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        World { env, gw }
    }

    /// Funds `who` with `xrp_amount` XRP and `ious` of gw's currencies.
    fn fund(&mut self, name: &str, xrp_amount: i64, ious: &[(&str, &str)]) -> Account {
        let a = Account::new(name);
        self.env.fund(&a, xrp(xrp_amount));
        self.env
            .apply(&a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for (cur, v) in ious {
            self.env
                .apply(&a, trust(self.gw.iou(cur, 1_000_000)), Ter::tesSUCCESS);
            if *v != "0" {
                let amount = self.gw.iou_s(cur, v);
                self.env.apply(&self.gw, pay(&a, amount), Ter::tesSUCCESS);
            }
        }
        a
    }

    fn usd(&self, v: &str) -> Amount {
        self.gw.iou_s("USD", v)
    }

    fn iou(&self, cur: &str, v: &str) -> Amount {
        self.gw.iou_s(cur, v)
    }

    fn create_amm(&mut self, owner: &Account, a: Amount, b: Amount) {
        let mut tx = Tx::new("AMMCreate")
            .amount("Amount", a)
            .amount("Amount2", b)
            .amount("Fee", Amount::Xrp(2_000_000));
        tx.0.set(Field::named("TradingFee"), StValue::UInt16(0));
        self.env.apply(owner, tx, Ter::tesSUCCESS);
    }

    /// The pool's balances of `a` and `b`.
    fn pool(&self, a: &Issue, b: &Issue) -> (Amount, Amount) {
        let sle = self.env.read(&amm::amm_key(a, b)).expect("amm");
        let account = sle.account_of(sf().account).unwrap();
        let view = self.env.store.current().view;
        (
            ledgerd::engine::funds::account_holds(&view, &account, a, false),
            ledgerd::engine::funds::account_holds(&view, &account, b, false),
        )
    }

    fn line(&self, who: &Account, cur: &str) -> IouValue {
        self.env.iou_balance(who, &self.gw, cur)
    }
}

fn usd_issue(w: &World) -> Issue {
    w.usd("1").issue()
}

fn issue(w: &World, cur: &str) -> Issue {
    w.iou(cur, "1").issue()
}

/// rippled jtx `~USD`: a book to gw's USD (or to XRP).
fn book_to(w: &World, c: &str) -> PathStep {
    if c == "XRP" {
        return PathStep {
            account: None,
            currency: Some(Currency::XRP),
            issuer: None,
        };
    }
    PathStep {
        account: None,
        currency: Some(Currency::from_json_str(c).unwrap()),
        issuer: Some(w.gw.id),
    }
}

fn v(mantissa: i64, exponent: i32) -> IouValue {
    IouValue::from_parts(mantissa as u128, exponent, false, Rounding::Nearest).unwrap()
}

/// testAMM's default: alice and carol hold 30,000 XRP and 30,000 USD; alice's pool.
fn pool_world(xrp_side: i64, usd_side: &str) -> (World, Account, Account) {
    let mut w = World::new();
    let alice = w.fund("alice", 30_000, &[("USD", "30000")]);
    let carol = w.fund("carol", 30_000, &[("USD", "30000")]);
    let u = w.usd(usd_side);
    w.create_amm(&alice, xrp(xrp_side), u);
    (w, alice, carol)
}

#[test]
fn a_payment_takes_the_pool_on_an_explicit_path() {
    for (explicit, flags) in [(true, NO_DIRECT), (false, 0), (true, 0)] {
        let (mut w, _, carol) = pool_world(10_000, "10100");
        let bob = w.fund("bob", 30_000, &[]);
        let b = w.env.balance(&bob);
        let mut tx = pay(&carol, w.usd("100"))
            .amount("SendMax", xrp(100))
            .flags(flags);
        if explicit {
            tx = tx.paths(vec![vec![book_to(&w, "USD")]]);
        }
        w.env.apply(&bob, tx, Ter::tesSUCCESS);
        let (x, u) = w.pool(&Issue::XRP, &usd_issue(&w));
        assert_eq!((x, u), (xrp(10_100), w.usd("10000")));
        assert_eq!(w.line(&carol, "USD"), val("30100"));
        assert_eq!(w.env.balance(&bob), b - 100_000_000 - FEE);
    }
}

#[test]
fn the_pool_first_then_the_order_book() {
    let (mut w, alice, carol) = pool_world(10_000, "10100");
    let bob = w.fund("bob", 30_000, &[("USD", "100")]);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(100))
        .amount("TakerGets", w.usd("100"))
        .flags(PASSIVE);
    w.env.apply(&bob, offer, Ter::tesSUCCESS);
    let a = w.env.balance(&alice);
    let tx = pay(&carol, w.usd("200"))
        .amount("SendMax", xrp(200))
        .flags(PARTIAL);
    w.env.apply(&alice, tx, Ter::tesSUCCESS);
    // rippled's fixAMMv1_1 numbers: the pool keeps 1e-11 USD more than the
    // pre-amendment 10,000, and carol gets that much less.
    assert_eq!(
        w.pool(&Issue::XRP, &usd_issue(&w)),
        (xrp(10_100), w.usd("10000.00000000001"))
    );
    assert_eq!(w.line(&carol, "USD"), val("30199.99999999999"));
    assert_eq!(w.env.balance(&alice), a - 200_000_000 - FEE);
    assert_eq!(w.env.owner_count(&bob), 1, "bob's offer consumed");
}

#[test]
fn the_order_book_first_then_the_pool() {
    let mut w = World::new();
    let alice = w.fund("alice", 20_000, &[("USD", "2000")]);
    let bob = w.fund("bob", 20_000, &[("USD", "2000")]);
    let carol = w.fund("carol", 20_000, &[("USD", "2000")]);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(50))
        .amount("TakerGets", w.usd("150"))
        .flags(PASSIVE);
    w.env.apply(&bob, offer, Ter::tesSUCCESS);
    let u = w.usd("1050");
    w.create_amm(&alice, xrp(1_000), u);
    let tx = pay(&carol, w.usd("200"))
        .amount("SendMax", xrp(200))
        .flags(PARTIAL);
    w.env.apply(&alice, tx, Ter::tesSUCCESS);
    assert_eq!(
        w.pool(&Issue::XRP, &usd_issue(&w)),
        (xrp(1_050), w.usd("1000"))
    );
    assert_eq!(w.line(&carol, "USD"), val("2200"));
    assert_eq!(w.env.owner_count(&bob), 1, "bob's offer consumed");
}

#[test]
fn an_offer_crosses_the_pool() {
    let (mut w, _, _) = pool_world(10_000, "10100");
    let bob = w.fund("bob", 30_000, &[("USD", "1000")]);
    let b = w.env.balance(&bob);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", w.usd("100"))
        .amount("TakerGets", xrp(100));
    w.env.apply(&bob, offer, Ter::tesSUCCESS);
    assert_eq!(
        w.pool(&Issue::XRP, &usd_issue(&w)),
        (xrp(10_100), w.usd("10000"))
    );
    assert_eq!(w.line(&bob, "USD"), val("1100"));
    assert_eq!(w.env.balance(&bob), b - 100_000_000 - FEE);
    assert_eq!(w.env.owner_count(&bob), 1, "nothing left to place");
}

#[test]
fn crossing_a_pool_pays_no_transfer_fee_on_the_pools_side() {
    let mut w = World::new();
    let alice = w.fund("alice", 30_000, &[("GBP", "30000"), ("EUR", "30000")]);
    let carol = w.fund("carol", 30_000, &[("GBP", "30000"), ("EUR", "30000")]);
    let (g, e) = (w.iou("GBP", "1000"), w.iou("EUR", "1100"));
    w.create_amm(&alice, g, e);
    let gw = w.gw.clone();
    w.env.apply(
        &gw,
        account_set().u32("TransferRate", 1_250_000_000),
        Ter::tesSUCCESS,
    );
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", w.iou("EUR", "100"))
        .amount("TakerGets", w.iou("GBP", "100"));
    w.env.apply(&carol, offer, Ter::tesSUCCESS);
    assert_eq!(
        w.pool(&issue(&w, "GBP"), &issue(&w, "EUR")),
        (w.iou("GBP", "1100"), w.iou("EUR", "1000"))
    );
    assert_eq!(w.line(&carol, "GBP"), val("29875"));
    assert_eq!(w.line(&carol, "EUR"), val("30100"));
}

#[test]
fn transfer_fees_on_each_book_around_a_pool() {
    let mut w = World::new();
    let alice = w.fund("alice", 30_000, &[("GBP", "30000"), ("EUR", "30000")]);
    let carol = w.fund("carol", 30_000, &[("USD", "0")]);
    let (g, e) = (w.iou("GBP", "10000"), w.iou("EUR", "10125"));
    w.create_amm(&alice, g, e);
    let dan = w.fund("dan", 30_000, &[("CAN", "200"), ("GBP", "200")]);
    let ed = w.fund("ed", 30_000, &[("EUR", "200"), ("USD", "200")]);
    let bob = w.fund("bob", 30_000, &[("CAN", "195.3125")]);
    let gw = w.gw.clone();
    w.env.apply(
        &gw,
        account_set().u32("TransferRate", 1_250_000_000),
        Ter::tesSUCCESS,
    );
    let o1 = Tx::new("OfferCreate")
        .amount("TakerPays", w.iou("CAN", "200"))
        .amount("TakerGets", w.iou("GBP", "200"));
    w.env.apply(&dan, o1, Ter::tesSUCCESS);
    let o2 = Tx::new("OfferCreate")
        .amount("TakerPays", w.iou("EUR", "200"))
        .amount("TakerGets", w.iou("USD", "200"));
    w.env.apply(&ed, o2, Ter::tesSUCCESS);
    let tx = pay(&carol, w.usd("100"))
        .amount("SendMax", w.iou("CAN", "195.3125"))
        .paths(vec![vec![
            book_to(&w, "GBP"),
            book_to(&w, "EUR"),
            book_to(&w, "USD"),
        ]])
        .flags(PARTIAL);
    w.env.apply(&bob, tx, Ter::tesSUCCESS);
    // 195.3125 CAN / 1.25 = 156.25 CAN to dan for 156.25 GBP; / 1.25 = 125 GBP into
    // the pool for 125 EUR; / 1.25 = 100 EUR to ed for 100 USD; / 1.25 = 80 USD.
    assert_eq!(w.line(&bob, "CAN"), val("0"));
    assert_eq!(w.line(&dan, "CAN"), val("356.25"));
    assert_eq!(w.line(&dan, "GBP"), val("43.75"));
    assert_eq!(
        w.pool(&issue(&w, "GBP"), &issue(&w, "EUR")),
        (w.iou("GBP", "10125"), w.iou("EUR", "10000"))
    );
    assert_eq!(w.line(&ed, "EUR"), val("300"));
    assert_eq!(w.line(&ed, "USD"), val("100"));
    assert_eq!(w.line(&carol, "USD"), val("80"));
}

#[test]
fn a_better_path_through_two_pools_then_the_offer() {
    let mut w = World::new();
    let alice = w.fund("alice", 30_000, &[("USD", "30000"), ("EUR", "30000")]);
    let carol = w.fund("carol", 30_000, &[("USD", "30000"), ("EUR", "30000")]);
    let bob = w.fund("bob", 1_000, &[]);
    let e = w.iou("EUR", "10000");
    w.create_amm(&alice, xrp(10_000), e);
    let (e, u) = (w.iou("EUR", "10000"), w.usd("10000"));
    w.create_amm(&alice, e, u);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(101))
        .amount("TakerGets", w.usd("100"))
        .flags(PASSIVE);
    w.env.apply(&alice, offer, Ter::tesSUCCESS);
    let b = w.env.balance(&bob);
    let tx = pay(&carol, w.usd("100"))
        .amount("SendMax", xrp(102))
        .paths(vec![vec![book_to(&w, "EUR"), book_to(&w, "USD")]])
        .flags(PARTIAL);
    w.env.apply(&bob, tx, Ter::tesSUCCESS);
    let eur = issue(&w, "EUR");
    assert_eq!(
        w.pool(&Issue::XRP, &eur),
        (
            Amount::Xrp(10_030_082_730),
            Amount::iou(v(9_970_007_498_125_468, -12), eur.currency, eur.issuer)
        )
    );
    let usd = usd_issue(&w);
    assert_eq!(
        w.pool(&usd, &eur),
        (
            Amount::iou(v(9_970_097_277_662_172, -12), usd.currency, usd.issuer),
            Amount::iou(v(1_002_999_250_187_452, -11), eur.currency, eur.issuer)
        )
    );
    // alice's offer is left with what fixReducedOffersV2 leaves.
    let left: Vec<_> = w
        .env
        .owned(&alice)
        .into_iter()
        .filter_map(|k| w.env.read(&k))
        .filter(|o| o.get(sf().taker_pays).is_some())
        .collect();
    assert_eq!(left.len(), 1);
    assert_eq!(
        left[0].amount_of(sf().taker_pays),
        Some(Amount::Xrp(30_201_749))
    );
    assert_eq!(
        left[0].amount_of(sf().taker_gets),
        Some(Amount::iou(
            v(2_990_272_233_782_839, -14),
            usd.currency,
            usd.issuer
        ))
    );
    assert_eq!(w.line(&carol, "USD"), val("30100"));
    assert_eq!(
        w.env.balance(&bob),
        b - 30_082_730 - 70_798_251 - FEE,
        "pool part plus offer part"
    );
}

/// Offer crossing against a single pool with a transfer fee (AMM_test
/// testBasicPaymentEngine, "Single-path AMM offer", fixAMMv1_1): the crossing asks the
/// pool only for the output at which its average quality, fee included, meets the
/// offer's (StrandFlow `limitOut`); the rest of the offer is placed.
#[test]
fn a_single_pool_crossing_stops_at_the_offers_quality() {
    let (mut w, _, carol) = pool_world(1_000, "500");
    let gw = w.gw.clone();
    w.env.apply(
        &gw,
        account_set().u32("TransferRate", 1_001_000_000),
        Ter::tesSUCCESS,
    );
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(100))
        .amount("TakerGets", w.usd("55"));
    w.env.apply(&carol, offer, Ter::tesSUCCESS);
    let usd = usd_issue(&w);
    assert_eq!(
        w.pool(&Issue::XRP, &usd),
        (
            Amount::Xrp(909_090_909),
            Amount::iou(v(550_000_000_055, -9), usd.currency, usd.issuer)
        )
    );
    let left: Vec<_> = w
        .env
        .owned(&carol)
        .into_iter()
        .filter_map(|k| w.env.read(&k))
        .filter(|o| o.get(sf().taker_pays).is_some())
        .collect();
    assert_eq!(left.len(), 1, "the rest of carol's offer");
    assert_eq!(
        left[0].amount_of(sf().taker_pays),
        Some(Amount::Xrp(9_090_909))
    );
    assert_eq!(
        left[0].amount_of(sf().taker_gets),
        Some(Amount::iou(v(499_999_995, -8), usd.currency, usd.issuer))
    );
    // carol paid the pool's 50.000000055 USD plus the 0.1% transfer fee. rippled's test
    // reads 29,949.94999999494, 5e-8 more than that arithmetic gives; see compat.md.
    let paid = v(50_000_000_055, -9)
        .mul_rate(1_001_000_000, Rounding::Up)
        .unwrap();
    let expected = val("30000").checked_sub(&paid).unwrap();
    assert_eq!(w.line(&carol, "USD"), expected);
}

/// The same with a smaller offer that the pool fills (AMM_test, the next case).
#[test]
fn a_small_crossing_is_filled_by_the_pool() {
    let (mut w, _, carol) = pool_world(1_000, "500");
    let gw = w.gw.clone();
    w.env.apply(
        &gw,
        account_set().u32("TransferRate", 1_001_000_000),
        Ter::tesSUCCESS,
    );
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(10))
        .amount("TakerGets", w.usd("5.5"));
    w.env.apply(&carol, offer, Ter::tesSUCCESS);
    let usd = usd_issue(&w);
    assert_eq!(
        w.pool(&Issue::XRP, &usd),
        (
            xrp(990),
            Amount::iou(v(5_050_505_050_505_051, -13), usd.currency, usd.issuer)
        )
    );
    assert_eq!(w.env.owner_count(&carol), 1, "only carol's trust line");
}
