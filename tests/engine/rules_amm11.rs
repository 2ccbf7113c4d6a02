//! fixAMMv1_1 gated both ways: each story runs under the rules without and with the
//! amendment and is checked against the numbers rippled's tests expect each way
//! (`AMM_test.cpp` runs them under `all` and `all - fixAMMv1_1`):
//!
//! - the swap formulas' rounding: payments through pools and offers (`testTradingFee`,
//!   "Payment with AMM and CLOB offer", at 0 and 0.25% fees; `testBasicPaymentEngine`'s
//!   default path with a pool and an offer, and a better path through two pools);
//! - the pool's offer against the order book: a low-quality offer at the book's tip
//!   blocks the pool before the amendment, the crossing takes the pool after it
//!   (`testFixAMMOfferBlockedByLOB`, USD/XRP and XRP/USD);
//! - deposits and withdrawals: the amounts adjusted to the LP tokens that survive the
//!   16-digit sum (`testAdjustedTokens`), and the last LP's rounding remainder squared
//!   before withdrawing everything (`testLPTokenBalance`). rippled wrote these before
//!   fixAMMv1_3, which replaces that adjustment, so they run without fixAMMv1_3;
//! - the pool's offer sized to a quality, case by case (`testFixChangeSpotPriceQuality`):
//!   before the fix from what the taker pays, within 1e-7 of the quality or not at all;
//!   after it from the XRP side, at the quality or better.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm;
use ledgerd::engine::amm::tf;
use ledgerd::engine::flow::amm_liquidity::{
    change_spot_price_quality, qualities_close, spot_price_offer_before_v1_1, SizingThrew,
};
use ledgerd::engine::Ter;
use ledgerd::ledger::rules::{CurrentRules, RuleBook, Rules};
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, IouValue, Rounding};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::{Feature, FeatureSet};
use ledgerd::protocol::number::Number;
use ledgerd::protocol::quality::Quality;
use ledgerd::protocol::st::{PathStep, StValue};
use ledgerd::protocol::types::{Currency, Issue};
use support::engine::*;

const NO_DIRECT: u32 = 0x0001_0000;
const PARTIAL: u32 = 0x0002_0000;
const PASSIVE: u32 = 0x0001_0000;

/// ledgerd's rule book, less fixAMMv1_1 when `!fixed`, less `also` in both.
fn env_rules(fixed: bool, also: &[Feature]) -> Env {
    let mut off = also.to_vec();
    if !fixed {
        off.push(Feature::FixAMMv1_1);
    }
    // The 16-digit Number these values were computed with (no SingleAssetVault).
    crate::number_scale::small_numbers_without(&off)
}

fn v(mantissa: u64, exponent: i32) -> IouValue {
    IouValue::from_parts(u128::from(mantissa), exponent, false, Rounding::Nearest).unwrap()
}

/// rippled's jtx world: gw issues; every account ripples by default.
struct World {
    env: Env,
    gw: Account,
}

impl World {
    fn new(env: Env) -> World {
        World {
            env,
            gw: Account::new("gateway"),
        }
    }

    /// jtx `fund(env, gw, accounts, xrp, ious)`: gw and each account get `xrp_amount`
    /// XRP (and ripple by default), a ledger closes (so gw ripples before any line to it
    /// exists, whatever order the close applies them in), then each account trusts gw
    /// for 10^10 and holds each of `ious`.
    fn fund(&mut self, names: &[&str], xrp_amount: i64, ious: &[(&str, &str)]) -> Vec<Account> {
        let gw = self.gw.clone();
        let accounts: Vec<Account> = names.iter().map(|n| Account::new(n)).collect();
        for a in std::iter::once(&gw).chain(&accounts) {
            self.env.fund(a, xrp(xrp_amount));
            self.env
                .apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        }
        self.env.close();
        for a in &accounts {
            for (c, amount) in ious {
                let limit = gw.iou_s(c, "10000000000");
                self.env.apply(a, trust(limit), Ter::tesSUCCESS);
                self.env
                    .apply(&gw, pay(a, gw.iou_s(c, amount)), Ter::tesSUCCESS);
            }
        }
        self.env.close();
        accounts
    }

    fn iou(&self, c: &str, v: &str) -> Amount {
        self.gw.iou_s(c, v)
    }

    fn iou_m(&self, c: &str, m: u64, e: i32) -> Amount {
        Amount::iou(v(m, e), cur(c), self.gw.id)
    }

    fn issue(&self, c: &str) -> Issue {
        self.iou(c, "1").issue()
    }

    /// jtx `AMM amm(env, owner, a, b, false, fee)`.
    fn create_amm(&mut self, owner: &Account, a: Amount, b: Amount, fee: u16) {
        let mut tx = Tx::new("AMMCreate")
            .amount("Amount", a)
            .amount("Amount2", b)
            .amount("Fee", Amount::Xrp(2_000_000));
        tx.0.set(Field::named("TradingFee"), StValue::UInt16(fee));
        self.env.apply(owner, tx, Ter::tesSUCCESS);
        // jtx's AMM closes the ledger after each of its transactions.
        self.env.close();
    }

    fn amm_tx(&self, name: &str, a: &Issue, b: &Issue) -> Tx {
        let mut tx = Tx::new(name);
        tx.0.set(Field::named("Asset"), StValue::Issue(*a));
        tx.0.set(Field::named("Asset2"), StValue::Issue(*b));
        tx
    }

    /// The pool's balances of `a` and `b`, or None when it is gone.
    fn pool(&self, a: &Issue, b: &Issue) -> Option<(Amount, Amount)> {
        let sle = self.env.read(&amm::amm_key(a, b))?;
        let account = sle.account_of(sf().account)?;
        let view = self.env.store.current().view;
        Some((
            ledgerd::engine::funds::account_holds(&view, &account, a, false),
            ledgerd::engine::funds::account_holds(&view, &account, b, false),
        ))
    }

    fn lpt_balance(&self, a: &Issue, b: &Issue) -> IouValue {
        let sle = self.env.read(&amm::amm_key(a, b)).expect("amm");
        sle.amount_of(sf().lp_token_balance)
            .and_then(|x| x.as_iou())
            .expect("LPTokenBalance")
    }

    fn line(&self, who: &Account, c: &str) -> IouValue {
        self.env.iou_balance(who, &self.gw, c)
    }

    /// `who`'s offers as (TakerPays, TakerGets).
    fn offers(&self, who: &Account) -> Vec<(Amount, Amount)> {
        self.env
            .owned(who)
            .into_iter()
            .filter_map(|k| self.env.read(&k))
            .filter_map(|o| Some((o.amount_of(sf().taker_pays)?, o.amount_of(sf().taker_gets)?)))
            .collect()
    }
}

fn offer(pays: Amount, gets: Amount) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
}

fn book_to(w: &World, c: &str) -> PathStep {
    PathStep {
        account: None,
        currency: Some(Currency::from_json_str(c).unwrap()),
        issuer: Some(w.gw.id),
    }
}

// ---------------------------------------------------------------------------------------
// The swap formulas: a payment through an offer and a pool
// ---------------------------------------------------------------------------------------

/// testTradingFee, "Payment with AMM and CLOB offer": carol offers USD(5) for EUR(5),
/// alice's pool holds USD(1,005) / EUR(1,000) at `fee`; bob pays ed USD(10) through
/// the USD book with EUR. Returns bob's EUR and the pool's EUR.
fn pay_through_offer_and_pool(fixed: bool, fee: u16) -> (IouValue, Amount) {
    let mut w = World::new(env_rules(fixed, &[]));
    let names = ["alice", "bob", "carol", "ed"];
    let accts = w.fund(&names, 1_000, &[("USD", "2000"), ("EUR", "2000")]);
    let (alice, bob, carol, ed) = (&accts[0], &accts[1], &accts[2], &accts[3]);
    let o = offer(w.iou("EUR", "5"), w.iou("USD", "5"));
    w.env.apply(carol, o, Ter::tesSUCCESS);
    let (u, e) = (w.iou("USD", "1005"), w.iou("EUR", "1000"));
    w.create_amm(alice, u, e, fee);
    let tx = pay(ed, w.iou("USD", "10"))
        .amount("SendMax", w.iou("EUR", "15"))
        .paths(vec![vec![book_to(&w, "USD")]])
        .flags(NO_DIRECT);
    w.env.apply(bob, tx, Ter::tesSUCCESS);
    assert_eq!(w.line(ed, "USD"), val("2010"));
    assert!(w.offers(carol).is_empty(), "carol's offer consumed");
    let (pool_usd, pool_eur) = w.pool(&w.issue("USD"), &w.issue("EUR")).expect("amm");
    assert_eq!(pool_usd, w.iou("USD", "1000"));
    (w.line(bob, "EUR"), pool_eur)
}

#[test]
fn a_payment_through_an_offer_and_a_pool_without_a_fee() {
    let (bob, pool) = pay_through_offer_and_pool(false, 0);
    assert_eq!(bob, val("1990"), "before fixAMMv1_1");
    assert_eq!(
        pool,
        World::new(crate::number_scale::small_numbers()).iou("EUR", "1005")
    );
    let (bob, pool) = pay_through_offer_and_pool(true, 0);
    assert_eq!(
        bob,
        v(1_989_999_999_999_999, -12),
        "fixAMMv1_1: the pool's favour"
    );
    let w = World::new(crate::number_scale::small_numbers());
    assert_eq!(pool, w.iou_m("EUR", 1_005_000_000_000_001, -12));
}

#[test]
fn a_payment_through_an_offer_and_a_pool_at_a_quarter_percent() {
    let w = World::new(crate::number_scale::small_numbers());
    let (bob, pool) = pay_through_offer_and_pool(false, 250);
    assert_eq!(bob, v(1_989_987_453_007_618, -12), "before fixAMMv1_1");
    assert_eq!(pool, w.iou_m("EUR", 1_005_012_546_992_382, -12));
    let (bob, pool) = pay_through_offer_and_pool(true, 250);
    assert_eq!(bob, v(1_989_987_453_007_628, -12), "fixAMMv1_1");
    assert_eq!(pool, w.iou_m("EUR", 1_005_012_546_992_372, -12));
}

/// testBasicPaymentEngine, "Default path with AMM and Order Book offer. AMM is consumed
/// first": alice's pool XRP(10,000) / USD(10,100), bob's passive offer of USD(100) for
/// XRP(100); alice pays carol USD(200) with XRP(200), partial. Returns the pool's USD
/// and carol's.
fn pool_then_offer_story(fixed: bool) -> (Amount, IouValue) {
    let mut w = World::new(env_rules(fixed, &[]));
    let ac = w.fund(&["alice", "carol"], 30_000, &[("USD", "30000")]);
    let (alice, carol) = (&ac[0], &ac[1]);
    let u = w.iou("USD", "10100");
    w.create_amm(alice, xrp(10_000), u, 0);
    let bob = w.fund(&["bob"], 30_000, &[("USD", "100")]).remove(0);
    let o = offer(xrp(100), w.iou("USD", "100")).flags(PASSIVE);
    w.env.apply(&bob, o, Ter::tesSUCCESS);
    w.env.close();
    let tx = pay(carol, w.iou("USD", "200"))
        .amount("SendMax", xrp(200))
        .flags(PARTIAL);
    w.env.apply(alice, tx, Ter::tesSUCCESS);
    w.env.close();
    assert!(w.offers(&bob).is_empty(), "bob's offer consumed");
    let (x, u) = w.pool(&Issue::XRP, &w.issue("USD")).expect("amm");
    assert_eq!(x, xrp(10_100));
    (u, w.line(carol, "USD"))
}

#[test]
fn the_pool_then_the_offer_on_the_default_path() {
    let w = World::new(crate::number_scale::small_numbers());
    let (pool, carol) = pool_then_offer_story(false);
    assert_eq!(pool, w.iou("USD", "10000"), "before fixAMMv1_1");
    assert_eq!(carol, val("30200"));
    let (pool, carol) = pool_then_offer_story(true);
    assert_eq!(
        pool,
        w.iou_m("USD", 1_000_000_000_000_001, -11),
        "fixAMMv1_1"
    );
    assert_eq!(carol, v(3_019_999_999_999_999, -11));
}

/// testBasicPaymentEngine, "Non-default path (with AMM) has a better quality than default
/// path": alice's pools XRP(10,000) / EUR(10,000) and EUR(10,000) / USD(10,000) and her
/// passive offer of USD(100) for XRP(101); bob pays carol USD(100) through the EUR and USD
/// books with XRP(102), partial. Returns the USD/EUR pool's USD and alice's offer left.
fn two_pools_then_offer_story(fixed: bool) -> (Amount, Vec<(Amount, Amount)>) {
    let mut w = World::new(env_rules(fixed, &[]));
    let ious = [("USD", "30000"), ("EUR", "30000")];
    let ac = w.fund(&["alice", "carol"], 30_000, &ious);
    let (alice, carol) = (&ac[0], &ac[1]);
    let bob = w.fund(&["bob"], 1_000, &[]).remove(0);
    let e = w.iou("EUR", "10000");
    w.create_amm(alice, xrp(10_000), e, 0);
    let (e, u) = (w.iou("EUR", "10000"), w.iou("USD", "10000"));
    w.create_amm(alice, e, u, 0);
    let o = offer(xrp(101), w.iou("USD", "100")).flags(PASSIVE);
    w.env.apply(alice, o, Ter::tesSUCCESS);
    w.env.close();
    let tx = pay(carol, w.iou("USD", "100"))
        .amount("SendMax", xrp(102))
        .paths(vec![vec![book_to(&w, "EUR"), book_to(&w, "USD")]])
        .flags(PARTIAL);
    w.env.apply(&bob, tx, Ter::tesSUCCESS);
    w.env.close();
    let eur = w.issue("EUR");
    assert_eq!(
        w.pool(&Issue::XRP, &eur),
        Some((
            Amount::Xrp(10_030_082_730),
            w.iou_m("EUR", 9_970_007_498_125_468, -12)
        ))
    );
    let (u, e) = w.pool(&w.issue("USD"), &eur).expect("amm");
    assert_eq!(e, w.iou_m("EUR", 1_002_999_250_187_452, -11));
    assert_eq!(w.line(carol, "USD"), val("30100"));
    (u, w.offers(alice))
}

#[test]
fn two_pools_then_the_offer_on_a_better_path() {
    let w = World::new(crate::number_scale::small_numbers());
    let (pool, left) = two_pools_then_offer_story(false);
    assert_eq!(
        pool,
        w.iou_m("USD", 9_970_097_277_662_122, -12),
        "before fixAMMv1_1"
    );
    let rest = |m| vec![(Amount::Xrp(30_201_749), w.iou_m("USD", m, -14))];
    assert_eq!(left, rest(2_990_272_233_787_816));
    let (pool, left) = two_pools_then_offer_story(true);
    assert_eq!(
        pool,
        w.iou_m("USD", 9_970_097_277_662_172, -12),
        "fixAMMv1_1"
    );
    assert_eq!(left, rest(2_990_272_233_782_839));
}

// ---------------------------------------------------------------------------------------
// The pool's offer against the order book
// ---------------------------------------------------------------------------------------

/// testFixAMMOfferBlockedByLOB, USD/XRP: alice's offer of USD(0.01) for XRP(1) sits at
/// the tip of the book carol's offer of XRP(1) for USD(0.49) crosses; gw's pool holds
/// XRP(200,000) / USD(100,000).
fn usd_for_xrp_story(fixed: bool, blocking: bool) -> World {
    let mut w = World::new(env_rules(fixed, &[]));
    let accts = w.fund(&["alice", "carol"], 1_000_000, &[("USD", "1000000")]);
    let (alice, carol) = (&accts[0], &accts[1]);
    if blocking {
        let o = offer(xrp(1), w.iou("USD", "0.01"));
        w.env.apply(alice, o, Ter::tesSUCCESS);
        w.env.close();
    }
    let gw = w.gw.clone();
    let u = w.iou("USD", "100000");
    w.create_amm(&gw, xrp(200_000), u, 0);
    let o = offer(w.iou("USD", "0.49"), xrp(1));
    w.env.apply(carol, o, Ter::tesSUCCESS);
    w.env.close();
    w
}

#[test]
fn a_low_offer_at_the_tip_blocks_the_pool_before_the_fix() {
    let (alice, carol) = (Account::new("alice"), Account::new("carol"));
    let w = usd_for_xrp_story(false, true);
    let usd = w.issue("USD");
    assert_eq!(
        w.pool(&Issue::XRP, &usd),
        Some((xrp(200_000), w.iou("USD", "100000"))),
        "the pool is not crossed"
    );
    assert_eq!(w.offers(&alice), vec![(xrp(1), w.iou("USD", "0.01"))]);
    assert_eq!(
        w.offers(&carol),
        vec![(w.iou("USD", "0.49"), xrp(1))],
        "carol's offer is placed whole"
    );
    let crossed = (Amount::Xrp(200_000_980_005), w.iou("USD", "99999.51"));
    let w = usd_for_xrp_story(true, true);
    assert_eq!(w.pool(&Issue::XRP, &usd), Some(crossed), "fixAMMv1_1");
    assert_eq!(w.offers(&alice), vec![(xrp(1), w.iou("USD", "0.01"))]);
    assert!(
        w.offers(&carol).is_empty(),
        "carol's offer crossed the pool"
    );
    for fixed in [false, true] {
        let w = usd_for_xrp_story(fixed, false);
        assert_eq!(
            w.pool(&Issue::XRP, &usd),
            Some(crossed),
            "no blocking offer"
        );
        assert!(w.offers(&carol).is_empty());
    }
}

/// testFixAMMOfferBlockedByLOB, XRP/USD: bob's offer of 500 drops for USD(1) at the tip,
/// alice's pool XRP(1,000) / USD(500), carol offers USD(55) for XRP(100).
fn xrp_for_usd_story(fixed: bool, blocking: bool) -> World {
    let mut w = World::new(env_rules(fixed, &[]));
    let accts = w.fund(&["alice", "carol", "bob"], 10_000, &[("USD", "1000")]);
    let (alice, carol, bob) = (&accts[0], &accts[1], &accts[2]);
    if blocking {
        let o = offer(w.iou("USD", "1"), drops(500));
        w.env.apply(bob, o, Ter::tesSUCCESS);
        w.env.close();
    }
    let u = w.iou("USD", "500");
    w.create_amm(alice, xrp(1_000), u, 0);
    let o = offer(xrp(100), w.iou("USD", "55"));
    w.env.apply(carol, o, Ter::tesSUCCESS);
    w.env.close();
    w
}

#[test]
fn the_pool_crosses_past_a_low_offer_only_with_the_fix() {
    let (bob, carol) = (Account::new("bob"), Account::new("carol"));
    let w = xrp_for_usd_story(false, true);
    let usd = w.issue("USD");
    let crossed_pool = (
        Amount::Xrp(909_090_909),
        w.iou_m("USD", 550_000_000_055, -9),
    );
    let rest = (Amount::Xrp(9_090_909), w.iou_m("USD", 499_999_995, -8));
    assert_eq!(
        w.pool(&Issue::XRP, &usd),
        Some((xrp(1_000), w.iou("USD", "500"))),
        "before fixAMMv1_1 the pool is not crossed"
    );
    assert_eq!(w.offers(&bob), vec![(w.iou("USD", "1"), drops(500))]);
    assert_eq!(w.offers(&carol), vec![(xrp(100), w.iou("USD", "55"))]);
    let w = xrp_for_usd_story(true, true);
    assert_eq!(w.pool(&Issue::XRP, &usd), Some(crossed_pool), "fixAMMv1_1");
    assert_eq!(w.offers(&carol), vec![rest]);
    assert_eq!(w.offers(&bob), vec![(w.iou("USD", "1"), drops(500))]);
    for fixed in [false, true] {
        let w = xrp_for_usd_story(fixed, false);
        assert_eq!(w.pool(&Issue::XRP, &usd), Some(crossed_pool));
        assert_eq!(w.offers(&carol), vec![rest], "no blocking offer");
    }
}

// ---------------------------------------------------------------------------------------
// Deposits and withdrawals
// ---------------------------------------------------------------------------------------

/// testAdjustedTokens, "Deposit/Withdraw in USD": ten rounds of nine accounts each
/// depositing one amount of USD (tfSingleAsset) into alice's XRP(10,000) / USD(10,000)
/// and withdrawing all their tokens in USD (tfOneAssetWithdrawAll); then alice
/// withdraws everything. Returns the pool before alice's withdrawal, carol's and
/// nataly's USD, and alice's USD at the end.
fn adjusted_tokens_story(fixed: bool) -> ((Amount, Amount), IouValue, IouValue, IouValue) {
    let mut w = World::new(env_rules(fixed, &[Feature::FixAMMv1_3]));
    let ac = w.fund(&["alice", "carol"], 30_000, &[("USD", "30000")]);
    let (alice, carol) = (ac[0].clone(), ac[1].clone());
    let names = [
        "bob", "ed", "paul", "dan", "chris", "simon", "ben", "nataly",
    ];
    let others = w.fund(&names, 30_000, &[("USD", "1500000")]);
    let by = |n: &str| {
        others
            .iter()
            .find(|a| a.id == Account::new(n).id)
            .unwrap()
            .clone()
    };
    let u = w.iou("USD", "10000");
    w.create_amm(&alice, xrp(10_000), u, 0);
    let usd = w.issue("USD");
    let steps: [(Account, Amount); 9] = [
        (by("ben"), w.iou_m("USD", 1, -10)),
        (by("simon"), w.iou("USD", "0.1")),
        (by("chris"), w.iou("USD", "1")),
        (by("dan"), w.iou("USD", "10")),
        (by("bob"), w.iou("USD", "100")),
        (carol.clone(), w.iou("USD", "1000")),
        (by("ed"), w.iou("USD", "10000")),
        (by("paul"), w.iou("USD", "100000")),
        (by("nataly"), w.iou("USD", "1000000")),
    ];
    for _ in 0..10 {
        for (who, amount) in &steps {
            let dep = w
                .amm_tx("AMMDeposit", &Issue::XRP, &usd)
                .amount("Amount", *amount)
                .flags(tf::SINGLE_ASSET);
            w.env.apply(who, dep, Ter::tesSUCCESS);
            let out = w
                .amm_tx("AMMWithdraw", &Issue::XRP, &usd)
                .amount("Amount", w.iou("USD", "0"))
                .flags(tf::ONE_ASSET_WITHDRAW_ALL);
            w.env.apply(who, out, Ter::tesSUCCESS);
        }
    }
    let pool = w.pool(&Issue::XRP, &usd).expect("amm");
    assert_eq!(w.lpt_balance(&Issue::XRP, &usd), val("10000000"));
    for n in ["ben", "simon", "chris", "dan", "ed", "paul"] {
        assert_eq!(w.line(&by(n), "USD"), val("1500000"), "{n} broke even");
    }
    let (c, n) = (w.line(&carol, "USD"), w.line(&by("nataly"), "USD"));
    let all = w
        .amm_tx("AMMWithdraw", &Issue::XRP, &usd)
        .flags(tf::WITHDRAW_ALL);
    w.env.apply(&alice, all, Ter::tesSUCCESS);
    assert!(
        w.pool(&Issue::XRP, &usd).is_none(),
        "the last LP deletes it"
    );
    (pool, c, n, w.line(&alice, "USD"))
}

#[test]
fn single_deposits_keep_what_the_adjusted_tokens_give_only_with_the_fix() {
    let w = World::new(crate::number_scale::small_numbers());
    let (pool, carol, nataly, alice) = adjusted_tokens_story(false);
    assert_eq!(
        pool,
        (xrp(10_000), w.iou_m("USD", 100_000_000_000_013, -10)),
        "before fixAMMv1_1 the pool keeps dust"
    );
    assert_eq!(carol, v(3_000_000_000_000_001, -11));
    assert_eq!(nataly, v(1_500_000_000_000_002, -9));
    assert_eq!(alice, v(300_000_000_000_013, -10));
    let (pool, carol, nataly, alice) = adjusted_tokens_story(true);
    assert_eq!(pool, (xrp(10_000), w.iou("USD", "10000")), "fixAMMv1_1");
    assert_eq!(carol, val("30000"));
    assert_eq!(nataly, v(1_500_000_000_000_005, -9));
    assert_eq!(alice, val("30000"));
}

/// testLPTokenBalance, "Last Liquidity Provider is the issuer of one token": gw's pool
/// XRP(2) / USD(1); alice and carol deposit by tokens and withdraw all, leaving gw's
/// line at 1414.213562373095 tokens against a balance of 1414.213562373. Returns gw's
/// withdrawal of everything and whether the pool is still there.
fn last_lp_story(fixed: bool) -> (Ter, bool) {
    let mut w = World::new(env_rules(fixed, &[Feature::FixAMMv1_3]));
    let ac = w.fund(&["alice", "carol"], 1_000_000_000, &[("USD", "1000000000")]);
    let gw = w.gw.clone();
    let u = w.iou("USD", "1");
    w.create_amm(&gw, xrp(2), u, 0);
    let usd = w.issue("USD");
    let lpt = |w: &World, s: &str| {
        let sle = w.env.read(&amm::amm_key(&Issue::XRP, &usd)).unwrap();
        let acct = sle.account_of(sf().account).unwrap();
        let c = amm::lpt_currency(&Currency::XRP, &usd.currency);
        Amount::iou(val(s), c, acct)
    };
    for (who, tokens) in [(&ac[0], "1.876123487565916"), (&ac[1], "1000000")] {
        let dep = w
            .amm_tx("AMMDeposit", &Issue::XRP, &usd)
            .amount("LPTokenOut", lpt(&w, tokens))
            .flags(tf::LP_TOKEN);
        w.env.apply(who, dep, Ter::tesSUCCESS);
    }
    for who in [&ac[0], &ac[1]] {
        let all = w
            .amm_tx("AMMWithdraw", &Issue::XRP, &usd)
            .flags(tf::WITHDRAW_ALL);
        w.env.apply(who, all, Ter::tesSUCCESS);
    }
    let sle = w.env.read(&amm::amm_key(&Issue::XRP, &usd)).unwrap();
    let acct = sle.account_of(sf().account).unwrap();
    let c = amm::lpt_currency(&Currency::XRP, &usd.currency);
    let line = w
        .env
        .read(&ledgerd::ledger::keylet::line(&gw.id, &acct, &c))
        .expect("gw's LP token line");
    let held = ledgerd::engine::ripple::balance_for(&line, &gw.id, &acct);
    assert_eq!(held, val("1414.213562373095"));
    assert_eq!(w.lpt_balance(&Issue::XRP, &usd), val("1414.213562373"));
    let all = w
        .amm_tx("AMMWithdraw", &Issue::XRP, &usd)
        .flags(tf::WITHDRAW_ALL);
    let ter = w.env.submit(&gw, all);
    (ter, w.pool(&Issue::XRP, &usd).is_some())
}

#[test]
fn the_last_lp_withdraws_everything_only_with_the_fix() {
    assert_eq!(
        last_lp_story(false),
        (Ter::tecAMM_BALANCE, true),
        "before fixAMMv1_1 the remainder blocks the withdrawal"
    );
    assert_eq!(
        last_lp_story(true),
        (Ter::tesSUCCESS, false),
        "fixAMMv1_1: the balance is squared to gw's line and the AMM deleted"
    );
}

// ---------------------------------------------------------------------------------------
// The pool's offer sized against a quality (`changeSpotPriceQuality`)
// ---------------------------------------------------------------------------------------

/// What rippled's `testFixChangeSpotPriceQuality` expects of each case.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Sizing {
    /// Within 1e-7 below the quality before the fix; resized to meet it after.
    SucceedShouldSucceedResize,
    /// Fails (or throws) before the fix; meets the quality after it.
    FailShouldSucceed,
    /// Within 1e-7 below the quality before the fix; no offer after it.
    SucceedShouldFail,
    /// No offer either way.
    Fail,
    /// An offer either way (at the quality, or within 1e-7 of it before the fix).
    Succeed,
}

/// A pool side as rippled's test reads it: digits only are XRP drops, else an IOU.
fn pool_side(s: &str) -> Amount {
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return drops(s.parse().unwrap());
    }
    Account::new("gateway").iou_s("USD", s)
}

/// testFixChangeSpotPriceQuality's cases (pool in, pool out, quality, fee, status).
fn sizing_cases() -> Vec<(&'static str, &'static str, Quality, u16, Sizing)> {
    use Sizing::*;
    let q = Quality;
    vec![
        (
            "0.001519763260828713",
            "1558701",
            q(5414253689393440221),
            1000,
            FailShouldSucceed,
        ),
        (
            "0.01099814367603737",
            "1892611",
            q(5482264816516900274),
            1000,
            FailShouldSucceed,
        ),
        (
            "0.78",
            "796599",
            q(5630392334958379008),
            1000,
            FailShouldSucceed,
        ),
        (
            "105439.2955578965",
            "49398693",
            q(5910869983721805038),
            400,
            FailShouldSucceed,
        ),
        (
            "12408293.23445213",
            "4340810521",
            q(5911611095910090752),
            997,
            FailShouldSucceed,
        ),
        (
            "1892611",
            "0.01099814367603737",
            q(6703103457950430139),
            1000,
            FailShouldSucceed,
        ),
        (
            "423028.8508101858",
            "3392804520",
            q(5837920340654162816),
            600,
            FailShouldSucceed,
        ),
        (
            "44565388.41001027",
            "73890647",
            q(6058976634606450001),
            1000,
            FailShouldSucceed,
        ),
        (
            "66831.68494832662",
            "16",
            q(6346111134641742975),
            0,
            FailShouldSucceed,
        ),
        (
            "675.9287302203422",
            "1242632304",
            q(5625960929244093294),
            300,
            FailShouldSucceed,
        ),
        (
            "7047.112186735699",
            "1649845866",
            q(5696855348026306945),
            504,
            FailShouldSucceed,
        ),
        (
            "840236.4402981238",
            "47419053",
            q(5982561601648018688),
            499,
            FailShouldSucceed,
        ),
        (
            "992715.618909774",
            "189445631733",
            q(5697835648288106944),
            815,
            SucceedShouldSucceedResize,
        ),
        (
            "504636667521",
            "185545883.9506651",
            q(6343802275337659280),
            503,
            SucceedShouldSucceedResize,
        ),
        (
            "992706.7218636649",
            "189447316000",
            q(5697835648288106944),
            797,
            SucceedShouldSucceedResize,
        ),
        (
            "1.068737911388205",
            "127860278877",
            q(5268604356368739396),
            293,
            SucceedShouldSucceedResize,
        ),
        (
            "17932506.56880419",
            "189308.6043676173",
            q(6206460598195440068),
            311,
            SucceedShouldSucceedResize,
        ),
        (
            "1.066379294658174",
            "128042251493",
            q(5268559341368739328),
            270,
            SucceedShouldSucceedResize,
        ),
        (
            "350131413924",
            "1576879.110907892",
            q(6487411636539049449),
            650,
            Fail,
        ),
        (
            "422093460",
            "2.731797662057464",
            q(6702911108534394924),
            1000,
            Fail,
        ),
        (
            "76128132223",
            "367172.7148422662",
            q(6487263463413514240),
            548,
            Fail,
        ),
        (
            "132701839250",
            "280703770.7695443",
            q(6273750681188885075),
            562,
            Fail,
        ),
        (
            "994165.7604612011",
            "189551302411",
            q(5697835592690668727),
            815,
            Fail,
        ),
        (
            "45053.33303227917",
            "86612695359",
            q(5625695218943638190),
            500,
            Fail,
        ),
        (
            "199649.077043865",
            "14017933007",
            q(5766034667318524880),
            324,
            Fail,
        ),
        (
            "27751824831.70903",
            "78896950",
            q(6272538159621630432),
            500,
            Fail,
        ),
        (
            "225.3731275781907",
            "156431793648",
            q(5477818047604078924),
            989,
            Fail,
        ),
        (
            "199649.077043865",
            "14017933007",
            q(5766036094462806309),
            324,
            Fail,
        ),
        (
            "3.590272027140361",
            "20677643641",
            q(5406056147042156356),
            808,
            Fail,
        ),
        (
            "1.070884664490231",
            "127604712776",
            q(5268620608623825741),
            293,
            Fail,
        ),
        (
            "3272.448829820197",
            "6275124076",
            q(5625710328924117902),
            81,
            Fail,
        ),
        (
            "0.009059512633902926",
            "7994028",
            q(5477511954775533172),
            1000,
            Fail,
        ),
        (
            "69864389131",
            "287631.4543025075",
            q(6487623473313516078),
            451,
            Succeed,
        ),
        (
            "4328342973",
            "12453825.99247381",
            q(6272522264364865181),
            997,
            Succeed,
        ),
        (
            "32347017",
            "7003.93031579449",
            q(6347261126087916670),
            1000,
            Succeed,
        ),
        (
            "61697206161",
            "36631.4583206413",
            q(6558965195382476659),
            500,
            Succeed,
        ),
        (
            "1654524979",
            "7028.659825511603",
            q(6487551345110052981),
            504,
            Succeed,
        ),
        (
            "88621.22277293179",
            "5128418948",
            q(5766347291552869205),
            380,
            Succeed,
        ),
        (
            "1892611",
            "0.01099814367603737",
            q(6703102780512015436),
            1000,
            Succeed,
        ),
        (
            "4542.639373338766",
            "24554809",
            q(5838994982188783710),
            0,
            Succeed,
        ),
        (
            "5132932546",
            "88542.99750172683",
            q(6419203342950054537),
            380,
            Succeed,
        ),
        (
            "78929964.1549083",
            "1506494795",
            q(5986890029845558688),
            589,
            Succeed,
        ),
        (
            "10096561906",
            "44727.72453735605",
            q(6487455290284644551),
            250,
            Succeed,
        ),
        (
            "5092.219565514988",
            "8768257694",
            q(5626349534958379008),
            503,
            Succeed,
        ),
        (
            "1819778294",
            "8305.084302902864",
            q(6487429398998540860),
            415,
            Succeed,
        ),
        (
            "6970462.633911943",
            "57359281",
            q(6054087899185946624),
            850,
            Succeed,
        ),
        (
            "3983448845",
            "2347.543644281467",
            q(6558965195382476659),
            856,
            Succeed,
        ),
        (
            "771493171",
            "1.243473020567508",
            q(6707566798038544272),
            100,
            SucceedShouldFail,
        ),
    ]
}

/// The rules of a transaction with or without fixAMMv1_1, as rippled's test sets them
/// (`CurrentTransactionRulesGuard`) for the swap the sizing calls.
fn current_rules(fixed: bool) -> CurrentRules {
    let mut presets = RuleBook::default().presets;
    // The 16-digit Number these cases were pinned with (no SingleAssetVault).
    presets.remove(Feature::SingleAssetVault);
    presets.remove(Feature::LendingProtocol);
    if !fixed {
        presets.remove(Feature::FixAMMv1_1);
    }
    CurrentRules::set(Rules::new(presets, FeatureSet::EMPTY))
}

#[test]
fn the_pools_offer_sizing_before_and_after_the_fix() {
    use Sizing::*;
    let close = |a: &Quality, b: &Quality| qualities_close(a, b, Number::new(1, -7));
    for (i, (pin, pout, q, fee, status)) in sizing_cases().into_iter().enumerate() {
        let pool = (pool_side(pin), pool_side(pout));
        let quality_of = |a: &(Amount, Amount)| Quality::from_amounts(&a.0, &a.1);
        let before = {
            let _r = current_rules(false);
            spot_price_offer_before_v1_1(&pool, &q, fee)
        };
        let ok = match (status, before) {
            (FailShouldSucceed, Err(SizingThrew) | Ok(None)) => true,
            (SucceedShouldSucceedResize | SucceedShouldFail, Ok(Some(a))) => {
                quality_of(&a).worse_than(&q) && close(&quality_of(&a), &q)
            }
            (Succeed, Ok(Some(a))) => !quality_of(&a).worse_than(&q) || close(&quality_of(&a), &q),
            (Fail, Ok(None)) => true,
            _ => false,
        };
        assert!(ok, "case {i} ({pin}, {pout}) before fixAMMv1_1: {before:?}");
        let after = {
            let _r = current_rules(true);
            change_spot_price_quality(&pool, &q, fee)
        };
        let ok = match (status, after) {
            (Fail | SucceedShouldFail, None) => true,
            (FailShouldSucceed | SucceedShouldSucceedResize | Succeed, Some(a)) => {
                !quality_of(&a).worse_than(&q)
            }
            _ => false,
        };
        assert!(ok, "case {i} ({pin}, {pout}) with fixAMMv1_1: {after:?}");
    }
}
