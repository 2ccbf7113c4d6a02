//! AMM stories after rippled's `AMM_test.cpp` (all of fixAMMv1_1, fixAMMv1_2 and
//! fixAMMv1_3 applied, so the expected values are rippled's "fixAMMv1_3" branches).
//! rippled's jtx environment charges 50 XRP of owner reserve for AMMCreate where these
//! ledgers charge their reserve increment: the pool and LP token numbers, which are what
//! the cases assert, do not depend on it.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Issue};
use support::engine::*;

/// The owner reserve increment these ledgers charge as AMMCreate's fee.
const CREATE_FEE: i64 = 2_000_000;

fn issue_of(a: &Amount) -> Issue {
    a.issue()
}

fn with_u16(mut tx: Tx, name: &str, v: u16) -> Tx {
    tx.0.set(Field::named(name), StValue::UInt16(v));
    tx
}

fn with_issue(mut tx: Tx, name: &str, i: Issue) -> Tx {
    tx.0.set(Field::named(name), StValue::Issue(i));
    tx
}

fn amm_create(a: Amount, b: Amount, fee: u16) -> Tx {
    let tx = Tx::new("AMMCreate")
        .amount("Amount", a)
        .amount("Amount2", b)
        .amount("Fee", Amount::Xrp(CREATE_FEE));
    with_u16(tx, "TradingFee", fee)
}

/// An AMM under test: its two issues.
#[derive(Clone, Copy)]
struct Pool {
    a: Issue,
    b: Issue,
}

impl Pool {
    fn tx(&self, name: &str) -> Tx {
        with_issue(with_issue(Tx::new(name), "Asset", self.a), "Asset2", self.b)
    }
    fn sle(&self, env: &Env) -> Option<std::sync::Arc<StObject>> {
        env.read(&amm::amm_key(&self.a, &self.b))
    }
    fn account(&self, env: &Env) -> AccountId {
        self.sle(env)
            .and_then(|o| o.account_of(sf().account))
            .expect("AMM account")
    }
    fn lpt_balance(&self, env: &Env) -> IouValue {
        self.sle(env)
            .and_then(|o| o.amount_of(sf().lp_token_balance))
            .and_then(|a| a.as_iou())
            .expect("LPTokenBalance")
    }
    fn trading_fee(&self, env: &Env) -> u16 {
        self.sle(env)
            .and_then(|o| o.u16_of(sf().trading_fee))
            .unwrap_or(0)
    }
    /// The pool's balance of `issue`.
    fn balance(&self, env: &Env, issue: &Issue) -> Amount {
        let view = env.store.current().view;
        ledgerd::engine::funds::account_holds(&view, &self.account(env), issue, false)
    }
    /// LP tokens `who` holds.
    fn lp_tokens(&self, env: &Env, who: &Account) -> IouValue {
        let acct = self.account(env);
        let cur = amm::lpt_currency(&self.a.currency, &self.b.currency);
        match env.read(&keylet::line(&who.id, &acct, &cur)) {
            None => IouValue::ZERO,
            Some(l) => ledgerd::engine::ripple::balance_for(&l, &who.id, &acct),
        }
    }
    fn lpt(&self, env: &Env, v: &str) -> Amount {
        let cur = amm::lpt_currency(&self.a.currency, &self.b.currency);
        Amount::iou(val(v), cur, self.account(env))
    }
    fn expect(&self, env: &Env, a: Amount, b: Amount, lpt: &str) {
        assert_eq!(self.balance(env, &a.issue()), a, "pool balance");
        assert_eq!(self.balance(env, &b.issue()), b, "pool balance 2");
        assert_eq!(self.lpt_balance(env), val(lpt), "LPTokenBalance");
    }
}

/// rippled's `AMMTestBase::testAMM` world: gw (DefaultRipple) issues USD; alice and
/// carol hold 30,000 XRP and 30,000 USD each; alice creates XRP(10,000) / USD(10,000).
struct World {
    env: Env,
    gw: Account,
    alice: Account,
    carol: Account,
    pool: Pool,
}

fn usd(gw: &Account, v: &str) -> Amount {
    gw.iou_s("USD", v)
}

fn funded_world(fee: u16, xrp_in: i64, usd_in: &str) -> World {
    // AMM_test's values, computed with the 16-digit Number (no SingleAssetVault).
    let mut env = crate::number_scale::small_numbers();
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    let carol = Account::new("carol");
    for a in [&gw, &alice, &carol] {
        env.fund(a, xrp(30_000));
    }
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    for a in [&alice, &carol] {
        env.apply(a, trust(usd(&gw, "100000")), Ter::tesSUCCESS);
        env.apply(&gw, pay(a, usd(&gw, "30000")), Ter::tesSUCCESS);
    }
    env.close();
    let (x, u) = (xrp(xrp_in), usd(&gw, usd_in));
    env.apply(&alice, amm_create(x, u, fee), Ter::tesSUCCESS);
    env.close();
    let pool = Pool {
        a: issue_of(&x),
        b: issue_of(&u),
    };
    World {
        env,
        gw,
        alice,
        carol,
        pool,
    }
}

fn world() -> World {
    funded_world(0, 10_000, "10000")
}

// AMM_test.cpp testInstanceCreate: "XRP to IOU" — XRP(10000) / USD(10000), 10,000,000
// LP tokens; the entry, the pseudo-account and the trust lines as rippled writes them.
#[test]
fn create_xrp_iou_pool() {
    let w = world();
    let (env, pool) = (&w.env, w.pool);
    pool.expect(env, xrp(10_000), usd(&w.gw, "10000"), "10000000");
    assert_eq!(pool.lp_tokens(env, &w.alice), val("10000000"));
    let sle = pool.sle(env).expect("AMM");
    let s = sf();
    assert_eq!(
        sle.u16_of(s.trading_fee),
        None,
        "no fee field for a zero fee"
    );
    let acct = pool.account(env);
    let root = env.read(&keylet::account(&acct)).expect("pseudo-account");
    assert_eq!(
        root.flags(),
        0x0010_0000 | 0x0080_0000 | 0x0100_0000,
        "DisableMaster, DefaultRipple, DepositAuth"
    );
    assert_eq!(root.h256_of(s.amm_id), Some(amm::amm_key(&pool.a, &pool.b)));
    let line = env
        .read(&keylet::line(
            &acct,
            &w.gw.id,
            &usd(&w.gw, "0").issue().currency,
        ))
        .expect("pool line");
    assert_ne!(line.flags() & 0x0100_0000, 0, "lsfAMMNode");
    match sle.get(s.vote_slots) {
        Some(StValue::Array(v)) => {
            assert_eq!(v.len(), 1);
            assert_eq!(v[0].1.account_of(s.account), Some(w.alice.id));
            assert_eq!(v[0].1.u32_of(s.vote_weight), Some(100_000));
        }
        other => panic!("vote slots {other:?}"),
    }
    match sle.get(s.auction_slot) {
        Some(StValue::Object(slot)) => {
            assert_eq!(slot.account_of(s.account), Some(w.alice.id));
            assert!(slot.amount_of(s.price).is_some_and(|p| p.is_zero()));
        }
        other => panic!("auction slot {other:?}"),
    }
    let owned = ledgerd::ledger::directory::owned(&env.store.current().view, &acct);
    assert!(owned.contains(&amm::amm_key(&pool.a, &pool.b)));
}

// AMM_test.cpp testInstanceCreate: "IOU to IOU" — USD(20000) / BTC(0.5): 100 LP tokens.
#[test]
fn create_iou_iou_pool() {
    let mut env = Env::new();
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    env.fund(&gw, xrp(30_000));
    env.fund(&alice, xrp(30_000));
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(usd(&gw, "100000")), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("BTC", 100)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, usd(&gw, "30000")), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("BTC", 1)), Ter::tesSUCCESS);
    let (u, b) = (usd(&gw, "20000"), gw.iou_s("BTC", "0.5"));
    env.apply(&alice, amm_create(u, b, 0), Ter::tesSUCCESS);
    let pool = Pool {
        a: u.issue(),
        b: b.issue(),
    };
    pool.expect(&env, u, b, "100");
    assert_eq!(pool.lp_tokens(&env, &alice), val("100"));
}

// AMM_test.cpp testInvalidInstance: the refusals before and at preclaim.
#[test]
fn create_refusals() {
    let mut w = world();
    let (gw, alice, carol) = (w.gw.clone(), w.alice.clone(), w.carol.clone());
    let env = &mut w.env;
    // Same issue twice, a zero or negative amount, a fee above 1%.
    env.apply(
        &alice,
        amm_create(xrp(10), xrp(10), 0),
        Ter::temBAD_AMM_TOKENS,
    );
    env.apply(
        &alice,
        amm_create(xrp(0), usd(&gw, "1"), 0),
        Ter::temBAD_AMOUNT,
    );
    env.apply(
        &alice,
        amm_create(xrp(10), usd(&gw, "-1"), 0),
        Ter::temBAD_AMOUNT,
    );
    env.apply(
        &alice,
        amm_create(xrp(10), usd(&gw, "1"), 1001),
        Ter::temBAD_FEE,
    );
    // The pool exists already.
    env.apply(
        &carol,
        amm_create(xrp(10), usd(&gw, "1"), 0),
        Ter::tecDUPLICATE,
    );
    // Not enough of an asset.
    env.apply(
        &carol,
        amm_create(xrp(10), gw.iou("EUR", 1), 0),
        Ter::tecUNFUNDED_AMM,
    );
    // An issuer without DefaultRipple.
    let bob = Account::new("bob");
    env.fund(&bob, xrp(1000));
    env.apply(&carol, trust(bob.iou("EUR", 100)), Ter::tesSUCCESS);
    env.apply(&bob, pay(&carol, bob.iou("EUR", 50)), Ter::tesSUCCESS);
    env.apply(
        &carol,
        amm_create(xrp(10), bob.iou("EUR", 10), 0),
        Ter::terNO_RIPPLE,
    );
    // LP tokens cannot back a new AMM.
    let lpt = w.pool.lpt(env, "1000");
    env.apply(
        &alice,
        amm_create(xrp(10), lpt, 0),
        Ter::tecAMM_INVALID_TOKENS,
    );
    // A frozen asset.
    env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
    env.apply(
        &carol,
        amm_create(xrp(10), gw.iou("GBP", 1), 0),
        Ter::tecFROZEN,
    );
}

fn deposit(w: &World, flags: u32) -> Tx {
    w.pool.tx("AMMDeposit").flags(flags)
}

fn lpt_amount(w: &World, v: &str) -> Amount {
    w.pool.lpt(&w.env, v)
}

/// `STAmount{USD, mantissa, exponent}`.
fn usd_m(gw: &Account, m: i64, e: i32) -> Amount {
    let v = IouValue::from_parts(
        m as u128,
        e,
        false,
        ledgerd::protocol::amount::Rounding::Nearest,
    )
    .expect("value");
    Amount::iou(v, usd(gw, "0").issue().currency, gw.id)
}

// AMM_test.cpp testDeposit: "Equal deposit: 1000000 tokens, 10% of the current pool".
#[test]
fn deposit_equal_by_tokens() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    let before = w.env.balance(&carol);
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(11_000), usd(&w.gw, "11000"), "11000000");
    assert_eq!(w.env.iou_balance(&carol, &w.gw, "USD"), val("29000"));
    assert_eq!(w.env.balance(&carol), before - 1_000_000_000 - FEE);
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), val("1000000"));
}

// AMM_test.cpp testDeposit: equal limit deposits, 100USD/100XRP, 200USD/100XRP and
// 100USD/200XRP all truncate to 100/100.
#[test]
fn deposit_equal_within_limits() {
    for (u, x) in [("100", 100), ("200", 100), ("100", 200)] {
        let mut w = world();
        let carol = w.carol.clone();
        let tx = deposit(&w, tf::TWO_ASSET)
            .amount("Amount", usd(&w.gw, u))
            .amount("Amount2", xrp(x));
        w.env.apply(&carol, tx, Ter::tesSUCCESS);
        w.pool
            .expect(&w.env, xrp(10_100), usd(&w.gw, "10100"), "10100000");
    }
}

// AMM_test.cpp testDeposit: "Single deposit: 1000 USD" and "Single deposit: 1000 XRP".
#[test]
fn deposit_single_asset() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", usd(&w.gw, "1000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 1_099_999_999_999_999, -11);
    w.pool.expect(&w.env, xrp(10_000), u, "10488088.48170151");

    let mut w = world();
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", xrp(1000));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool.expect(
        &w.env,
        xrp(11_000),
        usd(&w.gw, "10000"),
        "10488088.48170151",
    );
}

// AMM_test.cpp testDeposit: "Single deposit: 100000 tokens worth of USD / of XRP".
#[test]
fn deposit_one_asset_for_tokens() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::ONE_ASSET_LP_TOKEN)
        .amount("Amount", usd(&w.gw, "205"))
        .amount("LPTokenOut", lpt_amount(&w, "100000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(10_000), usd(&w.gw, "10201"), "10100000");

    let mut w = world();
    let tx = deposit(&w, tf::ONE_ASSET_LP_TOKEN)
        .amount("Amount", xrp(205))
        .amount("LPTokenOut", lpt_amount(&w, "100000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(10_201), usd(&w.gw, "10000"), "10100000");
}

// AMM_test.cpp testDeposit: "Single deposit with EP not exceeding specified".
#[test]
fn deposit_within_effective_price() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::LIMIT_LP_TOKEN)
        .amount("Amount", usd(&w.gw, "1000"))
        .amount("EPrice", usd(&w.gw, "0.1"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 1_099_999_999_999_999, -11);
    w.pool.expect(&w.env, xrp(10_000), u, "10488088.48170151");

    for amount in ["100", "0"] {
        let mut w = world();
        let tx = deposit(&w, tf::LIMIT_LP_TOKEN)
            .amount("Amount", usd(&w.gw, amount))
            .amount("EPrice", usd(&w.gw, "0.002004"));
        w.env.apply(&carol, tx, Ter::tesSUCCESS);
        w.pool
            .expect(&w.env, xrp(10_000), usd(&w.gw, "10080.16"), "10040000");
    }
}

// AMM_test.cpp testDeposit: "Tiny deposits".
#[test]
fn deposit_tiny_amounts() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "0.001"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 10_000_000_001, -6);
    w.pool
        .expect(&w.env, drops(10_000_000_001), u, "10000000.001");
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), val("0.001"));

    let mut w = world();
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", drops(1));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool.expect(
        &w.env,
        drops(10_000_000_001),
        usd(&w.gw, "10000"),
        "10000000.00049999",
    );
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), val("0.00049999"));

    let mut w = world();
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", usd_m(&w.gw, 1, -10));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 1_000_000_000_000_008, -11);
    w.pool.expect(&w.env, xrp(10_000), u, "10000000.00000004");
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), val("0.00000004"));
}

// AMM_test.cpp testDeposit: "Issuer deposit".
#[test]
fn deposit_by_the_issuer() {
    let mut w = world();
    let gw = w.gw.clone();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&gw, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(11_000), usd(&gw, "11000"), "11000000");
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", usd(&gw, "1000"));
    w.env.apply(&gw, tx, Ter::tesSUCCESS);
    let u = usd_m(&gw, 1_199_999_999_999_998, -11);
    w.pool.expect(&w.env, xrp(11_000), u, "11489125.29307605");
}

// AMM_test.cpp testDeposit: "Min deposit" and testInvalidDeposit's minimums.
#[test]
fn deposit_minimums() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::SINGLE_ASSET)
        .amount("Amount", xrp(1000))
        .amount("LPTokenOut", lpt_amount(&w, "488088"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool.expect(
        &w.env,
        xrp(11_000),
        usd(&w.gw, "10000"),
        "10488088.48170151",
    );

    let mut w = world();
    let tx = deposit(&w, tf::SINGLE_ASSET)
        .amount("Amount", xrp(1000))
        .amount("LPTokenOut", lpt_amount(&w, "488090"));
    w.env.apply(&carol, tx, Ter::tecAMM_FAILED);
    let tx = deposit(&w, tf::TWO_ASSET)
        .amount("Amount", xrp(1000))
        .amount("Amount2", usd(&w.gw, "1000"))
        .amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(11_000), usd(&w.gw, "11000"), "11000000");
}

// AMM_test.cpp testInvalidDeposit: malformed and refused deposits.
#[test]
fn deposit_refusals() {
    let mut w = world();
    let carol = w.carol.clone();
    let lpt = lpt_amount(&w, "1000");
    let env = &mut w.env;
    let pool = w.pool;
    let t = |flags| pool.tx("AMMDeposit").flags(flags);
    env.apply(&carol, t(0).amount("LPTokenOut", lpt), Ter::temMALFORMED);
    env.apply(
        &carol,
        t(tf::LP_TOKEN | tf::SINGLE_ASSET).amount("LPTokenOut", lpt),
        Ter::temMALFORMED,
    );
    env.apply(
        &carol,
        t(0x0000_0001).amount("LPTokenOut", lpt),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &carol,
        t(tf::LP_TOKEN).amount("LPTokenOut", lpt_amount_zero(&lpt)),
        Ter::temBAD_AMM_TOKENS,
    );
    env.apply(
        &carol,
        t(tf::SINGLE_ASSET).amount("Amount", w.gw.iou("EUR", 1)),
        Ter::temBAD_AMM_TOKENS,
    );
    // No such AMM.
    let other = Pool {
        a: Issue::XRP,
        b: w.gw.iou("EUR", 1).issue(),
    };
    env.apply(
        &carol,
        other
            .tx("AMMDeposit")
            .flags(tf::LP_TOKEN)
            .amount("LPTokenOut", lpt),
        Ter::terNO_AMM,
    );
    // More than carol has.
    env.apply(
        &carol,
        t(tf::SINGLE_ASSET).amount("Amount", usd(&w.gw, "40000")),
        Ter::tecUNFUNDED_AMM,
    );
    // Frozen line.
    env.apply(
        &w.gw,
        trust(carol.iou("USD", 0)).flags(0x0010_0000),
        Ter::tesSUCCESS,
    );
    env.apply(
        &carol,
        t(tf::SINGLE_ASSET).amount("Amount", usd(&w.gw, "100")),
        Ter::tecFROZEN,
    );
}

/// The largest issued value (`STAmount{cMaxValue, cMaxOffset}`), of `like`'s issue.
fn largest(like: &Amount) -> Amount {
    let i = like.issue();
    let v = IouValue::from_parts(
        9_999_999_999_999_999,
        80,
        false,
        ledgerd::protocol::amount::Rounding::Nearest,
    )
    .expect("value");
    Amount::iou(v, i.currency, i.issuer)
}

/// `who` sent a transaction rippled does not apply (a `tef`): no fee, same sequence.
fn not_applied(w: &mut World, who: &Account, tx: Tx) {
    let (drops, seq) = (w.env.balance(who), w.env.seq(who));
    w.env.apply(who, tx, Ter::tefEXCEPTION);
    assert_eq!(
        (w.env.balance(who), w.env.seq(who)),
        (drops, seq),
        "not applied"
    );
}

// Issue 29 defect 8: deposits asking a 1,000 XRP / 1,000 USD pool (fee 0.5%) for more
// than an amount holds, as rippled answers them. tfLPToken runs in
// `AMMDeposit::equalDepositTokens`' try, which answers any exception tecINTERNAL with
// the fee charged: LPTokenOut 10^15 asks 10^18 drops (past 10^17), 10^20 asks 10^23
// drops (past an i64); 10^10 asks a real 10^13 drops, which carol lacks. No other mode
// has a try: the throw escapes doApply as tefEXCEPTION, not applied.
#[test]
fn deposits_past_what_an_amount_holds() {
    let mut w = funded_world(500, 1000, "1000");
    let carol = w.carol.clone();
    let gw = w.gw.clone();
    let lp = |w: &World, v: &str| deposit(w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(w, v));
    let tx = lp(&w, "1e10");
    w.env.apply(&carol, tx, Ter::tecUNFUNDED_AMM);
    for v in ["1e15", "1e20"] {
        let (drops, seq) = (w.env.balance(&carol), w.env.seq(&carol));
        let tx = lp(&w, v);
        w.env.apply(&carol, tx, Ter::tecINTERNAL);
        assert_eq!(w.env.balance(&carol), drops - FEE, "the fee is charged");
        assert_eq!(w.env.seq(&carol), seq + 1);
    }
    w.pool
        .expect(&w.env, xrp(1000), usd(&gw, "1000"), "1000000");
    // With fixCleanup3_4_0 (ledgerd's book) a deposit solved out of its asset's range is
    // tecAMM_FAILED; before it rippled's exception left it unapplied (tefEXCEPTION,
    // rules_cleanup340.rs shows both).
    // equalDepositLimit: the issuer's 10^20 USD wants 10^23 drops beside it.
    let tx = deposit(&w, tf::TWO_ASSET)
        .amount("Amount", usd(&gw, "1e20"))
        .amount("Amount2", xrp(1000));
    w.env.apply(&gw, tx, Ter::tecAMM_FAILED);
    // singleDepositEPrice: Amount 0 at the largest EPrice solves to some 10^201 USD.
    let tx = deposit(&w, tf::LIMIT_LP_TOKEN)
        .amount("Amount", usd(&gw, "0"))
        .amount("EPrice", largest(&usd(&gw, "1")));
    w.env.apply(&carol, tx, Ter::tecAMM_FAILED);
    // singleWithdrawEPrice: the smallest EPrice gives tokens / EPrice past 10^89 drops.
    let min = IouValue::from_parts(
        1_000_000_000_000_000,
        -96,
        false,
        ledgerd::protocol::amount::Rounding::Nearest,
    )
    .expect("value");
    let lpt = lpt_amount(&w, "1").issue();
    let tx = withdraw(&w, tf::LIMIT_LP_TOKEN)
        .amount("Amount", xrp(0))
        .amount("EPrice", Amount::iou(min, lpt.currency, lpt.issuer));
    let alice = w.alice.clone();
    not_applied(&mut w, &alice, tx);
    w.pool
        .expect(&w.env, xrp(1000), usd(&gw, "1000"), "1000000");
}

fn lpt_amount_zero(lpt: &Amount) -> Amount {
    let i = lpt.issue();
    Amount::iou(IouValue::ZERO, i.currency, i.issuer)
}

fn withdraw(w: &World, flags: u32) -> Tx {
    w.pool.tx("AMMWithdraw").flags(flags)
}

fn by_tokens(w: &World, tokens: &str) -> Tx {
    withdraw(w, tf::LP_TOKEN).amount("LPTokenIn", lpt_amount(w, tokens))
}

// AMM_test.cpp testWithdraw: equal withdrawals by tokens, carol's all-tokens withdrawal
// leaving her no LP token line.
#[test]
fn withdraw_equal_by_tokens() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.env
        .apply(&carol, by_tokens(&w, "1000000"), Ter::tesSUCCESS);
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), IouValue::ZERO);
    w.pool
        .expect(&w.env, xrp(10_000), usd(&w.gw, "10000"), "10000000");

    let mut w = world();
    let alice = w.alice.clone();
    w.env
        .apply(&alice, by_tokens(&w, "1000000"), Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(9000), usd(&w.gw, "9000"), "9000000");
}

// AMM_test.cpp testWithdraw: "Equal withdrawal with a limit" both ways.
#[test]
fn withdraw_equal_within_limits() {
    for (x, u) in [(200, "100"), (100, "200")] {
        let mut w = world();
        let alice = w.alice.clone();
        let tx = withdraw(&w, tf::TWO_ASSET)
            .amount("Amount", xrp(x))
            .amount("Amount2", usd(&w.gw, u));
        w.env.apply(&alice, tx, Ter::tesSUCCESS);
        w.pool
            .expect(&w.env, xrp(9900), usd(&w.gw, "9900"), "9900000");
    }
}

// AMM_test.cpp testWithdraw: "Single withdrawal by amount" (fixAMMv1_3: the pool keeps
// one more drop, XRPAmount(9000'000001)) and "by tokens 10000".
#[test]
fn withdraw_single_asset() {
    let mut w = world();
    let alice = w.alice.clone();
    let tx = withdraw(&w, tf::SINGLE_ASSET).amount("Amount", xrp(1000));
    w.env.apply(&alice, tx, Ter::tesSUCCESS);
    w.pool.expect(
        &w.env,
        drops(9_000_000_001),
        usd(&w.gw, "10000"),
        "9486832.98050514",
    );

    let mut w = world();
    let tx = withdraw(&w, tf::ONE_ASSET_LP_TOKEN)
        .amount("Amount", usd(&w.gw, "0"))
        .amount("LPTokenIn", lpt_amount(&w, "10000"));
    w.env.apply(&alice, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(10_000), usd(&w.gw, "9980.01"), "9990000");
}

// AMM_test.cpp testWithdraw: "Withdraw all tokens" deletes the AMM, and the pair can
// be created again.
#[test]
fn withdraw_all_deletes_the_amm() {
    let mut w = world();
    let (alice, carol) = (w.alice.clone(), w.carol.clone());
    let acct = w.pool.account(&w.env);
    w.env
        .apply(&alice, withdraw(&w, tf::WITHDRAW_ALL), Ter::tesSUCCESS);
    assert!(w.pool.sle(&w.env).is_none(), "AMM deleted");
    assert!(
        w.env.read(&keylet::account(&acct)).is_none(),
        "pseudo-account deleted"
    );
    assert_eq!(w.env.iou_balance(&alice, &w.gw, "USD"), val("30000"));
    w.env.close();
    let (x, u) = (xrp(10_000), usd(&w.gw, "10000"));
    w.env.apply(&carol, amm_create(x, u, 0), Ter::tesSUCCESS);
    w.pool.expect(&w.env, x, u, "10000000");
}

// AMM_test.cpp testWithdraw: deposits then withdrawals of everything, in one asset.
#[test]
fn withdraw_all_in_one_asset() {
    // Single deposit 1000USD, withdraw all tokens in USD: with fixAMMv1_3 no round-off
    // is left (the USD/MPT case of the newest AMM_test: USD(10'000)).
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", usd(&w.gw, "1000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let tx = withdraw(&w, tf::ONE_ASSET_WITHDRAW_ALL).amount("Amount", usd(&w.gw, "0"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(10_000), usd(&w.gw, "10000"), "10000000");
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), IouValue::ZERO);

    // Single deposit 1000USD, withdraw all tokens in XRP: XRPAmount(9'090'909'091); the
    // deposit left 10'999'99999999999e-11 USD (the USD/MPT case of the newest AMM_test).
    let mut w = world();
    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", usd(&w.gw, "1000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let tx = withdraw(&w, tf::ONE_ASSET_WITHDRAW_ALL).amount("Amount", xrp(0));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 1_099_999_999_999_999, -11);
    w.pool.expect(&w.env, drops(9_090_909_091), u, "10000000");

    // Equal deposit 10%, withdraw all tokens; in USD; in XRP.
    let mut w = world();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.env
        .apply(&carol, withdraw(&w, tf::WITHDRAW_ALL), Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(10_000), usd(&w.gw, "10000"), "10000000");

    let mut w = world();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let tx = withdraw(&w, tf::ONE_ASSET_WITHDRAW_ALL).amount("Amount", usd(&w.gw, "0"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 9_090_909_090_909_092, -12);
    w.pool.expect(&w.env, xrp(11_000), u, "10000000");

    let mut w = world();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let tx = withdraw(&w, tf::ONE_ASSET_WITHDRAW_ALL).amount("Amount", xrp(0));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.pool.expect(
        &w.env,
        drops(9_090_909_091),
        usd(&w.gw, "11000"),
        "10000000",
    );
}

// AMM_test.cpp testWithdraw: "Single deposit/withdraw by the same account" (fixAMMv1_3:
// the LP tokens a deposit gave come back in full, nothing left over), and
// testInvalidWithdraw's "Deposit/Withdraw the same amount fails due to the tokens
// adjustment" (tecAMM_INVALID_TOKENS).
#[test]
fn withdraw_single_round_trips() {
    let mut w = world();
    let carol = w.carol.clone();
    let gw = w.gw.clone();
    for a in [usd(&gw, "1000"), usd_m(&gw, 1, -6)] {
        let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", a);
        w.env.apply(&carol, tx, Ter::tesSUCCESS);
        let held = w.pool.lp_tokens(&w.env, &carol).to_text();
        let tx = withdraw(&w, tf::ONE_ASSET_LP_TOKEN)
            .amount("Amount", usd(&gw, "0"))
            .amount("LPTokenIn", lpt_amount(&w, &held));
        w.env.apply(&carol, tx, Ter::tesSUCCESS);
        assert_eq!(w.pool.lp_tokens(&w.env, &carol), IouValue::ZERO);
    }
    assert_eq!(w.pool.lpt_balance(&w.env), val("10000000"));

    let tx = deposit(&w, tf::SINGLE_ASSET).amount("Amount", usd_m(&gw, 1, -6));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let tx = withdraw(&w, tf::SINGLE_ASSET).amount("Amount", usd_m(&gw, 1, -6));
    w.env.apply(&carol, tx, Ter::tecAMM_INVALID_TOKENS);
}

// AMM_test.cpp testWithdraw: "Withdraw with EPrice limit", with an Amount and with 0.
#[test]
fn withdraw_within_effective_price() {
    for amount in ["100", "0"] {
        let mut w = world();
        let carol = w.carol.clone();
        let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
        w.env.apply(&carol, tx, Ter::tesSUCCESS);
        let tx = withdraw(&w, tf::LIMIT_LP_TOKEN)
            .amount("Amount", usd(&w.gw, amount))
            .amount("EPrice", lpt_amount(&w, "520"));
        w.env.apply(&carol, tx, Ter::tesSUCCESS);
        // The LP tokens are rippled's; fixAMMv1_3 rounds the USD paid out down, so the
        // pool keeps at least the pre-amendment 9372.781065088756.
        // The newest AMM_test's XRP/MPT case (fixAMMv1_3) has these digits:
        // IOUAmount{10'153'846'15384616, -2}, carol 153'846'15384616e-2.
        assert_eq!(w.pool.lpt_balance(&w.env), val("10153846.15384616"));
        assert_eq!(w.pool.lp_tokens(&w.env, &carol), val("153846.15384616"));
        assert_eq!(w.pool.balance(&w.env, &Issue::XRP), drops(11_000_000_000));
        let kept = w.pool.balance(&w.env, &usd(&w.gw, "0").issue());
        assert!(kept.as_iou().expect("iou") >= val("9372.781065088756"));
    }
}

// AMM_test.cpp testWithdraw: "Tiny withdraw" by tokens; of one XRP drop and of 1e-10
// USD with fixAMMv1_3 (the newest AMM_test's XRP/MPT and MPT/USD pools of the same
// size: the drop stays in the pool, 9'999'999'9995e-4 LP tokens; USD
// 9'999'9999999999e-10 with 9'999'999'99999995e-8 LP tokens).
#[test]
fn withdraw_tiny_amounts() {
    let mut w = world();
    let alice = w.alice.clone();
    w.env.apply(&alice, by_tokens(&w, "0.001"), Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 9_999_999_999, -6);
    w.pool
        .expect(&w.env, drops(9_999_999_999), u, "9999999.999");

    let mut w = world();
    let tx = withdraw(&w, tf::SINGLE_ASSET).amount("Amount", drops(1));
    w.env.apply(&alice, tx, Ter::tesSUCCESS);
    w.pool
        .expect(&w.env, xrp(10_000), usd(&w.gw, "10000"), "9999999.9995");

    let mut w = world();
    let tx = withdraw(&w, tf::SINGLE_ASSET).amount("Amount", usd_m(&w.gw, 1, -10));
    w.env.apply(&alice, tx, Ter::tesSUCCESS);
    let u = usd_m(&w.gw, 99_999_999_999_999, -10);
    w.pool.expect(&w.env, xrp(10_000), u, "9999999.99999995");
}

// AMM_test.cpp testInvalidWithdraw: refusals.
#[test]
fn withdraw_refusals() {
    let mut w = world();
    let (alice, carol) = (w.alice.clone(), w.carol.clone());
    let lpt = lpt_amount(&w, "1000");
    let pool = w.pool;
    let gw = w.gw.clone();
    let env = &mut w.env;
    let t = |flags| pool.tx("AMMWithdraw").flags(flags);
    env.apply(
        &alice,
        t(0x0001_0000 | 0x0000_0001).amount("LPTokenIn", lpt),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &alice,
        t(tf::TWO_ASSET_IF_EMPTY).amount("LPTokenIn", lpt),
        Ter::temINVALID_FLAG,
    );
    env.apply(&alice, t(0), Ter::temMALFORMED);
    env.apply(
        &alice,
        t(tf::SINGLE_ASSET | tf::TWO_ASSET),
        Ter::temMALFORMED,
    );
    env.apply(
        &alice,
        t(tf::WITHDRAW_ALL).amount("LPTokenIn", lpt),
        Ter::temMALFORMED,
    );
    env.apply(&alice, t(tf::ONE_ASSET_WITHDRAW_ALL), Ter::temMALFORMED);
    env.apply(
        &alice,
        t(tf::SINGLE_ASSET).amount("Amount", xrp(10_001)),
        Ter::tecAMM_BALANCE,
    );
    // Not an LP.
    env.apply(
        &carol,
        t(tf::LP_TOKEN).amount("LPTokenIn", lpt),
        Ter::tecAMM_BALANCE,
    );
    // More tokens than held.
    let too_many = Amount::iou(val("10000001"), lpt.issue().currency, lpt.issue().issuer);
    env.apply(
        &alice,
        t(tf::LP_TOKEN).amount("LPTokenIn", too_many),
        Ter::tecAMM_INVALID_TOKENS,
    );
    // Withdrawing one whole side.
    env.apply(
        &alice,
        t(tf::SINGLE_ASSET).amount("Amount", usd(&gw, "10000")),
        Ter::tecAMM_BALANCE,
    );
    // Frozen pool line.
    let acct = pool.account(env);
    let frozen_pool = Account {
        name: "amm".into(),
        kp: gw.kp.clone(),
        id: acct,
    };
    env.apply(
        &gw,
        trust(frozen_pool.iou("USD", 0)).flags(0x0010_0000),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        t(tf::SINGLE_ASSET).amount("Amount", usd(&gw, "100")),
        Ter::tecFROZEN,
    );
}

fn vote(w: &World, fee: u16) -> Tx {
    with_u16(w.pool.tx("AMMVote"), "TradingFee", fee)
}

/// A voter: funded like carol, deposits `tokens` LP tokens and votes 50 * (i + 1).
fn voter(w: &mut World, i: u16, tokens: &str) -> Account {
    let a = Account::new(&i.to_string());
    w.env.fund(&a, xrp(30_000));
    w.env
        .apply(&a, trust(usd(&w.gw, "100000")), Ter::tesSUCCESS);
    let gw = w.gw.clone();
    w.env
        .apply(&gw, pay(&a, usd(&gw, "30000")), Ter::tesSUCCESS);
    let tx = deposit(w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(w, tokens));
    w.env.apply(&a, tx, Ter::tesSUCCESS);
    w.env.apply(&a, vote(w, 50 * (i + 1)), Ter::tesSUCCESS);
    a
}

fn discounted_fee(w: &World) -> u16 {
    match w
        .pool
        .sle(&w.env)
        .and_then(|o| o.get(sf().auction_slot).cloned())
    {
        Some(StValue::Object(slot)) => slot.u16_of(sf().discounted_fee).unwrap_or(0),
        _ => 0,
    }
}

// AMM_test.cpp testFeeVote: "One vote sets fee to 1%" (discounted fee 1/10 of it).
#[test]
fn vote_sets_the_fee() {
    let mut w = world();
    let alice = w.alice.clone();
    w.env.apply(&alice, vote(&w, 1000), Ter::tesSUCCESS);
    assert_eq!(w.pool.trading_fee(&w.env), 1000);
    assert_eq!(discounted_fee(&w), 100);
}

// AMM_test.cpp testFeeVote: eight votes fill the slots (0.175%); the same account votes
// again (0.225%); a new account with twice the tokens takes the smallest slot (0.244%);
// in reverse order 0.219% then 0.206%.
#[test]
fn votes_are_weighted_by_lp_tokens() {
    let mut w = world();
    let mut voters = Vec::new();
    for i in 0..7 {
        voters.push(voter(&mut w, i, "10000000"));
    }
    assert_eq!(w.pool.trading_fee(&w.env), 175);
    let first = voters[0].clone();
    w.env.apply(&first, vote(&w, 450), Ter::tesSUCCESS);
    assert_eq!(w.pool.trading_fee(&w.env), 225);

    let mut w = world();
    for i in 0..7 {
        voter(&mut w, i, "10000000");
    }
    assert_eq!(w.pool.trading_fee(&w.env), 175);
    voter(&mut w, 7, "20000000");
    assert_eq!(w.pool.trading_fee(&w.env), 244);

    let mut w = world();
    for i in (1..8).rev() {
        voter(&mut w, i, "10000000");
    }
    assert_eq!(w.pool.trading_fee(&w.env), 219);
    voter(&mut w, 0, "20000000");
    assert_eq!(w.pool.trading_fee(&w.env), 206);
}

// AMM_test.cpp testInvalidFeeVote: refusals.
#[test]
fn vote_refusals() {
    let mut w = world();
    let (alice, carol) = (w.alice.clone(), w.carol.clone());
    w.env.apply(&alice, vote(&w, 1001), Ter::temBAD_FEE);
    w.env.apply(
        &alice,
        vote(&w, 1000).flags(tf::WITHDRAW_ALL),
        Ter::temINVALID_FLAG,
    );
    w.env
        .apply(&carol, vote(&w, 1000), Ter::tecAMM_INVALID_TOKENS);
    let other = Pool {
        a: usd(&w.gw, "1").issue(),
        b: w.gw.iou("GBP", 1).issue(),
    };
    w.env.apply(
        &alice,
        with_u16(other.tx("AMMVote"), "TradingFee", 1000),
        Ter::terNO_AMM,
    );
    w.env
        .apply(&alice, withdraw(&w, tf::WITHDRAW_ALL), Ter::tesSUCCESS);
    w.env.apply(&alice, vote(&w, 1000), Ter::terNO_AMM);
}

fn bid(w: &World) -> Tx {
    w.pool.tx("AMMBid")
}

fn slot_price(w: &World) -> IouValue {
    match w
        .pool
        .sle(&w.env)
        .and_then(|o| o.get(sf().auction_slot).cloned())
    {
        Some(StValue::Object(slot)) => slot
            .amount_of(sf().price)
            .and_then(|p| p.as_iou())
            .unwrap_or(IouValue::ZERO),
        _ => IouValue::ZERO,
    }
}

// AMM_test.cpp testInvalidBid: "burn all the LPTokens through a AMMBid transaction":
// gw's AMM XRP(1000) / USD(1000) at 1% (1,000,000 LP tokens, slot discounted fee 100);
// a bid burning every LP token fails, one burning all but one succeeds and prices the
// slot at 999,999; then even the last one cannot be burned.
#[test]
fn bids_burn_lp_tokens_but_never_all() {
    let mut env = Env::new();
    let gw = Account::new("gateway");
    env.fund(&gw, xrp(2_000));
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    let (x, u) = (xrp(1000), usd(&gw, "1000"));
    env.apply(&gw, amm_create(x, u, 1000), Ter::tesSUCCESS);
    let mut w = World {
        env,
        gw: gw.clone(),
        alice: gw.clone(),
        carol: gw.clone(),
        pool: Pool {
            a: x.issue(),
            b: u.issue(),
        },
    };
    assert_eq!(discounted_fee(&w), 100);
    assert_eq!(slot_price(&w), IouValue::ZERO);
    let all = bid(&w).amount("BidMin", lpt_amount(&w, "1000000"));
    w.env.apply(&gw, all, Ter::tecAMM_INVALID_TOKENS);
    let most = bid(&w).amount("BidMin", lpt_amount(&w, "999999"));
    w.env.apply(&gw, most, Ter::tesSUCCESS);
    assert_eq!(slot_price(&w), val("999999"));
    w.pool.expect(&w.env, x, u, "1");
    assert_eq!(w.pool.lp_tokens(&w.env, &gw), val("1"));
    let last = bid(&w).amount("BidMin", lpt_amount(&w, "1"));
    w.env.apply(&gw, last, Ter::tecAMM_INVALID_TOKENS);
}

// AMM_test.cpp testInvalidBid: "Invalid Min/Max combination", not an LP, no such AMM.
#[test]
fn bid_refusals() {
    let mut w = world();
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    let tx = bid(&w)
        .amount("BidMin", lpt_amount(&w, "200"))
        .amount("BidMax", lpt_amount(&w, "100"));
    w.env.apply(&carol, tx, Ter::tecAMM_INVALID_TOKENS);
    let dan = Account::new("dan");
    w.env.fund(&dan, xrp(1000));
    w.env.apply(&dan, bid(&w), Ter::tecAMM_INVALID_TOKENS);
    let tx = bid(&w).amount("BidMin", usd(&w.gw, "100"));
    w.env.apply(&carol, tx, Ter::temBAD_AMM_TOKENS);
}

// AMM_test.cpp testBid: the slot at the minimum price, `LPTokenBalance * fee / 25`,
// burned from the bidder: with a 1% fee and 11,000,000 LP tokens, 4,400 tokens.
#[test]
fn a_bid_at_the_minimum_price() {
    let mut w = funded_world(1000, 10_000, "10000");
    let carol = w.carol.clone();
    let tx = deposit(&w, tf::LP_TOKEN).amount("LPTokenOut", lpt_amount(&w, "1000000"));
    w.env.apply(&carol, tx, Ter::tesSUCCESS);
    w.env.close_after(86_400);
    w.env.apply(&carol, bid(&w), Ter::tesSUCCESS);
    assert_eq!(slot_price(&w), val("4400"));
    assert_eq!(w.pool.lp_tokens(&w.env, &carol), val("995600"));
    assert_eq!(w.pool.lpt_balance(&w.env), val("10995600"));
}

// AMM_test.cpp testInvalidAMMDelete / testAMMDelete: nothing to delete, or not empty.
#[test]
fn delete_refusals() {
    let mut w = world();
    let alice = w.alice.clone();
    w.env
        .apply(&alice, w.pool.tx("AMMDelete"), Ter::tecAMM_NOT_EMPTY);
    w.env
        .apply(&alice, withdraw(&w, tf::WITHDRAW_ALL), Ter::tesSUCCESS);
    w.env.apply(&alice, w.pool.tx("AMMDelete"), Ter::terNO_AMM);
}

// AMMClawback_test.cpp: the issuer claws back all of a holder's USD from an XRP/USD AMM
// the holder alone provides: the AMM is deleted, the USD returns to the issuer, the XRP
// to the holder.
#[test]
fn clawback_of_everything_deletes_the_amm() {
    let mut env = Env::new();
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    env.fund(&gw, xrp(30_000));
    env.fund(&alice, xrp(30_000));
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&gw, fset(16), Ter::tesSUCCESS); // asfAllowTrustLineClawback
    env.apply(&alice, trust(usd(&gw, "100000")), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, usd(&gw, "2000")), Ter::tesSUCCESS);
    let (u, x) = (usd(&gw, "1000"), xrp(2000));
    env.apply(&alice, amm_create(u, x, 0), Ter::tesSUCCESS);
    let pool = Pool {
        a: u.issue(),
        b: x.issue(),
    };
    let before = env.balance(&alice);
    let claw = || pool.tx("AMMClawback").account("Holder", &alice.id);
    env.apply(&gw, claw(), Ter::tesSUCCESS);
    assert!(pool.sle(&env).is_none(), "AMM deleted");
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("1000"));
    assert_eq!(env.balance(&alice), before + 2_000_000_000);
    // Refusals: the issuer claws from itself; a holder's XRP; the AMM is gone.
    env.apply(
        &gw,
        pool.tx("AMMClawback").account("Holder", &gw.id),
        Ter::temMALFORMED,
    );
    let xrp_first = Pool {
        a: x.issue(),
        b: u.issue(),
    };
    env.apply(
        &gw,
        xrp_first.tx("AMMClawback").account("Holder", &alice.id),
        Ter::temMALFORMED,
    );
    env.apply(&gw, claw(), Ter::terNO_AMM);
}

// AMMClawback_test.cpp: without AllowTrustLineClawback the issuer may not claw back.
#[test]
fn clawback_needs_the_issuer_flag() {
    let mut w = world();
    let (gw, alice) = (w.gw.clone(), w.alice.clone());
    let pool = Pool {
        a: w.pool.b,
        b: w.pool.a,
    };
    let claw = pool.tx("AMMClawback").account("Holder", &alice.id);
    w.env.apply(&gw, claw, Ter::tecNO_PERMISSION);
}

// AMMInfo_test.cpp testSimpleRpc / testErrors: amm_info by assets, by account, with an
// LP's holdings, and its errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn amm_info_reports_the_pool() {
    use serde_json::json;
    use support::server::Node;
    let node = Node::start().await;
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    node.fund(&gw, 30_000);
    node.fund(&alice, 30_000);
    node.apply(&gw, fset(asf::DEFAULT_RIPPLE));
    node.apply(&alice, trust(usd(&gw, "100000")));
    node.apply(&gw, pay(&alice, usd(&gw, "30000")));
    node.apply(&alice, amm_create(xrp(10_000), usd(&gw, "10000"), 0));
    node.close();
    let usd_issue = json!({"currency": "USD", "issuer": gw.id.to_address()});
    let r = node.rpc(
        "amm_info",
        json!({"asset": {"currency": "XRP"}, "asset2": usd_issue}),
    );
    let amm = &r["amm"];
    assert_eq!(amm["amount"], "10000000000", "{r}");
    assert_eq!(amm["amount2"]["value"], "10000");
    assert_eq!(amm["lp_token"]["value"], "10000000");
    assert_eq!(amm["trading_fee"], 0);
    assert_eq!(amm["asset2_frozen"], false);
    assert!(amm.get("asset_frozen").is_none(), "XRP has no frozen flag");
    assert_eq!(amm["vote_slots"][0]["account"], alice.id.to_address());
    assert_eq!(amm["vote_slots"][0]["vote_weight"], 100_000);
    assert_eq!(amm["auction_slot"]["account"], alice.id.to_address());
    assert_eq!(amm["auction_slot"]["price"]["value"], "0");
    assert_eq!(amm["auction_slot"]["time_interval"], 0);
    assert!(r.get("ledger_current_index").is_some());
    let account = amm["account"].as_str().expect("account").to_string();
    assert_eq!(amm["lp_token"]["issuer"], account);

    let by_account = node.rpc("amm_info", json!({"amm_account": account}));
    assert_eq!(by_account["amm"]["lp_token"]["value"], "10000000");
    let held = node.rpc(
        "amm_info",
        json!({"amm_account": account, "account": gw.id.to_address()}),
    );
    assert_eq!(held["amm"]["lp_token"]["value"], "0");

    let err = |params| node.rpc("amm_info", params)["error"].clone();
    assert_eq!(err(json!({})), "invalidParams");
    assert_eq!(err(json!({"asset": {"currency": "XRP"}})), "invalidParams");
    assert_eq!(
        err(json!({"asset": {"currency": "XRP"}, "asset2": usd_issue, "amm_account": account})),
        "invalidParams"
    );
    assert_eq!(err(json!({"amm_account": "rBad"})), "actMalformed");
    assert_eq!(
        err(json!({"amm_account": alice.id.to_address()})),
        "actNotFound"
    );
    assert_eq!(
        err(
            json!({"asset": {"currency": "XRP"}, "asset2": {"currency": "EUR", "issuer": gw.id.to_address()}})
        ),
        "actNotFound"
    );
    assert_eq!(
        err(
            json!({"asset": {"currency": "XRP", "issuer": gw.id.to_address()}, "asset2": usd_issue})
        ),
        "issueMalformed"
    );
}
