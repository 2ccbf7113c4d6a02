//! The `Number` mantissa scale, chosen per transaction from its rules as rippled 3.x's
//! `setCurrentTransactionRules` does: 19 digits where SingleAssetVault or LendingProtocol
//! is on, the legacy 16 where neither is. Stories where the difference shows to a user,
//! each run both ways; and [`small_numbers`], the rules the AMM stories pinned on
//! rippled's pre-vault AMM_test values run under.

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::rules::number_scale;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::MantissaScale;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Issue;
use support::engine::*;

/// ledgerd's rule book less SingleAssetVault and LendingProtocol, and less `off`: the
/// 16-digit `Number` rippled computes with before either amendment.
pub fn small_numbers_without(off: &[Feature]) -> Env {
    let mut all = off.to_vec();
    all.extend([Feature::SingleAssetVault, Feature::LendingProtocol]);
    env_without(&all)
}

/// [`small_numbers_without`] nothing more.
pub fn small_numbers() -> Env {
    small_numbers_without(&[])
}

/// ledgerd's rule book with fixCleanup3_2_0 on (gated, in the book; forced here as
/// rules_cleanup320.rs does): the 19-digit scale with the cusp rounding fix.
fn with_cusp_fix() -> Env {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::FixCleanup3_2_0);
    Env::with_config(cfg)
}

#[test]
fn the_scale_follows_the_rules() {
    let scale = |env: &Env| number_scale(&env.store.rules());
    assert_eq!(scale(&small_numbers()), MantissaScale::Small);
    // ledgerd's rule book has fixCleanup3_3_0 and fixCleanup3_2_0 (both gated).
    assert_eq!(scale(&Env::new()), MantissaScale::Large330);
    let without_330 = env_without(&[Feature::FixCleanup3_3_0]);
    assert_eq!(scale(&without_330), MantissaScale::Large320);
    let without_both = env_without(&[Feature::FixCleanup3_3_0, Feature::FixCleanup3_2_0]);
    assert_eq!(scale(&without_both), MantissaScale::LargeLegacy);
    assert_eq!(scale(&with_cleanup330(false)), MantissaScale::Large320);
    let lending_only = env_without(&[
        Feature::SingleAssetVault,
        Feature::FixCleanup3_3_0,
        Feature::FixCleanup3_2_0,
    ]);
    assert_eq!(scale(&lending_only), MantissaScale::LargeLegacy);
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::FixCleanup3_2_0);
    cfg.rule_book.presets.remove(Feature::SingleAssetVault);
    cfg.rule_book.presets.remove(Feature::LendingProtocol);
    assert_eq!(
        scale(&Env::with_config(cfg)),
        MantissaScale::Small,
        "the cusp fix alone keeps 16 digits"
    );
}

fn set(mut tx: Tx, name: &str, v: StValue) -> Tx {
    tx.0.set(Field::named(name), v);
    tx
}

/// xrpl.js's `setupAMMPool`: an issuer (DefaultRipple) pays an LP 500 USD, the LP creates
/// an XRP/USD pool of 250 drops and 250 USD at a 0.012% fee, and a third account deposits
/// 1000 drops (tfSingleAsset). Then that account bids with no BidMin / BidMax
/// (ammBid.test.ts `bid`). The slot's price and the pool's LP tokens after the bid.
fn xrpl_js_bid(mut env: Env) -> (IouValue, IouValue, IouValue) {
    let [issuer, lp, tester] = env.funded(["jsIssuer", "jsLp", "jsTester"]);
    env.apply(&issuer, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&lp, trust(issuer.iou_s("USD", "1000")), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        pay(&lp, issuer.iou_s("USD", "500")),
        Ter::tesSUCCESS,
    );
    let usd = issuer.iou_s("USD", "250").issue();
    let create = Tx::new("AMMCreate")
        .amount("Amount", drops(250))
        .amount("Amount2", issuer.iou_s("USD", "250"))
        .amount("Fee", drops(2_000_000));
    env.apply(
        &lp,
        set(create, "TradingFee", StValue::UInt16(12)),
        Ter::tesSUCCESS,
    );
    let pool = |name: &str| {
        let tx = set(Tx::new(name), "Asset", StValue::Issue(Issue::XRP));
        set(tx, "Asset2", StValue::Issue(usd))
    };
    let deposit = pool("AMMDeposit")
        .amount("Amount", drops(1000))
        .flags(tf::SINGLE_ASSET);
    env.apply(&tester, deposit, Ter::tesSUCCESS);
    let key = amm::amm_key(&Issue::XRP, &usd);
    let entry = |env: &Env| env.read(&key).expect("the AMM");
    let lpt = |e: &ledgerd::protocol::st::StObject| {
        e.amount_of(sf().lp_token_balance)
            .and_then(|a: Amount| a.as_iou())
            .expect("LPTokenBalance")
    };
    let before = lpt(&entry(&env));
    env.apply(&tester, pool("AMMBid"), Ter::tesSUCCESS);
    let after = entry(&env);
    let price = match after.get(sf().auction_slot) {
        Some(StValue::Object(slot)) => slot.amount_of(sf().price).and_then(|p| p.as_iou()),
        _ => None,
    };
    (price.expect("the slot's price"), before, lpt(&after))
}

fn val(s: &str) -> IouValue {
    IouValue::parse(s).expect("a value")
}

/// xrpl.js's `bid` (ammBid.test.ts), run by its CI against xrpld with the amendments of
/// its .ci-config/xrpld.cfg: SingleAssetVault, LendingProtocol and fixCleanup3_2_0 on,
/// fixAMMv1_3 not listed. Its single-asset deposit mints `250 * (r - c) / (1 + c)` LP
/// tokens, 308.99845255025215..., rounded to nearest (before fixAMMv1_3): at 19 digits
/// 308.9984525502522, so the slot costs `0.002683192572241211` (the test's
/// `diffPriceValue`); at 16 digits the chain reaches 308.998452550252 and the slot
/// `0.00268319257224121` (what the test expected of xrpld 2.x).
#[test]
fn xrpl_js_amm_bid_costs_what_the_scale_computes() {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::FixCleanup3_2_0);
    cfg.rule_book.presets.remove(Feature::FixAMMv1_3);
    for (env, want) in [
        (Env::with_config(cfg), "0.002683192572241211"),
        (env_without(&[Feature::FixAMMv1_3]), "0.002683192572241211"),
        (
            small_numbers_without(&[Feature::FixAMMv1_3]),
            "0.00268319257224121",
        ),
    ] {
        let (price, before, after) = xrpl_js_bid(env);
        assert_eq!(price, val(want));
        assert_eq!(price.to_string(), want);
        assert!(after < before, "the bid burns LP tokens");
    }
}

/// The same under ledgerd's whole rule book (fixAMMv1_3 on): the deposit's LP tokens are
/// rounded down (`multiply(lptAMMBalance, frac, downward)`): 308.9984525502521 at 19
/// digits, 308.998452550252 at 16; the slot costs `0.00268319257224121` either way.
#[test]
fn an_amm_deposit_and_bid_with_fix_amm_v1_3() {
    let (price, before, _) = xrpl_js_bid(small_numbers());
    assert_eq!(price, val("0.00268319257224121"));
    assert_eq!(before, val("558.998452550252"));
    for env in [Env::new(), with_cusp_fix()] {
        let (price, before, after) = xrpl_js_bid(env);
        assert_eq!(before, val("558.9984525502521"));
        assert_eq!(price, val("0.00268319257224121"));
        assert!(after < before, "the bid burns LP tokens");
    }
}

/// rippled's PayChan / EscrowToken tests ("IOU Precision Loss"): 1 USD against a balance
/// of 10^16 is lost to 16 digits (`canAdd` fails: tecPRECISION_LOSS), but "with a larger
/// mantissa the amounts remain addable" (`largeMantissa ? tesSUCCESS :
/// tecPRECISION_LOSS`, the large mantissa being SingleAssetVault or LendingProtocol).
#[test]
fn a_tiny_escrow_against_a_huge_balance_is_lost_only_to_sixteen_digits() {
    for (mut env, want) in [
        (Env::new(), Ter::tesSUCCESS),
        (small_numbers(), Ter::tecPRECISION_LOSS),
    ] {
        let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
        let big = |v: &str| gw.iou_s("USD", v);
        env.apply(&alice, trust(big("100000000000000000")), Ter::tesSUCCESS);
        env.apply(&bob, trust(big("100000000000000000")), Ter::tesSUCCESS);
        env.close();
        env.apply(&gw, pay(&alice, big("10000000000000000")), Ter::tesSUCCESS);
        env.close();
        let finish = env.parent_close() + 1;
        let create = Tx::new("EscrowCreate")
            .account("Destination", &bob.id)
            .amount("Amount", big("1"))
            .u32("FinishAfter", finish)
            .u32("CancelAfter", finish + 100);
        env.apply(&alice, create, want);
    }
}

/// ledgerd's rule book with fixCleanup3_2_0 on (gated; forced on all the same), and
/// fixCleanup3_3_0 on or off: the `Large330` scale or `Large320`.
fn with_cleanup330(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::FixCleanup3_2_0);
    if on {
        cfg.rule_book.presets.insert(Feature::FixCleanup3_3_0);
    } else {
        cfg.rule_book.presets.remove(Feature::FixCleanup3_3_0);
    }
    Env::with_config(cfg)
}

#[test]
fn fix_cleanup330_selects_large330() {
    let scale = |env: &Env| number_scale(&env.store.rules());
    assert_eq!(scale(&with_cleanup330(true)), MantissaScale::Large330);
    assert_eq!(scale(&with_cleanup330(false)), MantissaScale::Large320);
}

/// A USD vault of share scale 15 takes 9.00000000003088 USD (9000000000030880 shares),
/// then 8301.03483319778 USD. Its shares are `shares * (amount / AssetsTotal)`,
/// truncated, and that quotient, 922.33720368547758075... (exactly `8301.03483319778 /
/// 9.00000000003088`), lies between `i64::MAX` and `i64::MAX + 1.5` times 10^-16:
/// rippled's `NumberTest` cusp. Large320 drops its last digit and rounds up, to
/// 922.3372036854775810; Large330 rounds to the nearer 922.3372036854775807. Times the
/// shares (rounded to nearest, then truncated): 8301034833197780002 shares with
/// Large320, 8301034833197779999 with Large330 (the exact count is
/// 8301034833197780000).
fn vault_shares_past_the_cusp(on: bool) -> u64 {
    let mut env = with_cleanup330(on);
    let [gw, owner, alice, bob] = env.funded(["gw", "owner", "alice", "bob"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    let usd = |v: &str| gw.iou_s("USD", v);
    env.apply(&alice, trust(usd("1000")), Ter::tesSUCCESS);
    env.apply(&bob, trust(usd("100000")), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, usd("9.5")), Ter::tesSUCCESS);
    env.apply(&gw, pay(&bob, usd("9000")), Ter::tesSUCCESS);
    let mut create = Tx::new("VaultCreate");
    create.0.set(sf().asset, StValue::Issue(usd("0").issue()));
    create.0.set(Field::named("Scale"), StValue::UInt8(15));
    let seq = env.seq(&owner);
    let create = with_fee(&env, create);
    env.apply(&owner, create, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let deposit = |v: &str| {
        Tx::new("VaultDeposit")
            .h256("VaultID", key)
            .amount("Amount", usd(v))
    };
    let vault = |env: &Env| env.read(&key).expect("the vault");
    let share = vault(&env)
        .mpt_id_of(sf().share_mpt_id)
        .expect("the shares");
    let outstanding = |env: &Env| {
        let issuance = env.read(&keylet::mpt_issuance(&share)).expect("issuance");
        issuance
            .u64_of(sf().outstanding_amount)
            .expect("outstanding")
    };
    env.apply(&alice, deposit("9.00000000003088"), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env), 9_000_000_000_030_880);
    env.apply(&bob, deposit("8301.03483319778"), Ter::tesSUCCESS);
    outstanding(&env) - 9_000_000_000_030_880
}

#[test]
fn vault_shares_at_the_cusp_round_to_the_nearer_quotient_with_fix_cleanup330() {
    assert_eq!(vault_shares_past_the_cusp(true), 8_301_034_833_197_779_999);
    assert_eq!(vault_shares_past_the_cusp(false), 8_301_034_833_197_780_002);
}
