//! fixCleanup3_3_0, xrpld 3.3.0's bundle of small fixes, gated both ways: each story runs
//! under ledgerd's rule book with the amendment off and on and checks what xrpld decides
//! each way. ledgerd does not yet honour every fix of the bundle (the vault, lending and
//! `Number` ones), so the amendment stays `Lacking`; these stories and
//! `rules_cleanup330_amm.rs` (AMMWithdraw, the precision check, hybrid offers) pin the
//! spots it does honour.
//!
//! - CheckCancel and CheckCash (`check/CheckCancel.cpp`, `check/CheckCash.cpp` preflight):
//!   a zero CheckID is `temMALFORMED`; before the fix preclaim finds no check there,
//!   `tecNO_ENTRY`.
//! - CredentialCreate (`Credentials.cpp`, `CredentialCreate::preclaim`): a pseudo-account
//!   subject is `tecPSEUDO_ACCOUNT`; before the fix the credential is created.
//! - DepositPreauth (`payment/DepositPreauth.cpp` preclaim): preauthorizing a
//!   pseudo-account is `tecPSEUDO_ACCOUNT` (after `tecNO_TARGET`, before `tecDUPLICATE`);
//!   before the fix the preauthorization is made.
//! - AMMDeposit (`AMM/AMMDeposit.cpp` preclaim): both of the pool's assets pass
//!   `checkDepositFreeze` (globally frozen, the depositor's line frozen unless it issues
//!   the asset, the pool's line frozen), whatever is deposited; before the fix the
//!   pool's freeze counted only for the assets deposited.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256};
use support::credentials;
use support::engine::*;

/// TrustSet's tfSetFreeze.
const TF_SET_FREEZE: u32 = 0x0010_0000;

/// ledgerd's rule book with fixCleanup3_3_0 forced on, or as it is (off: it is Lacking).
/// fixPseudoAccountOwnership is left out, so that what the preclaims decide shows alone.
fn env330(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    if on {
        cfg.rule_book.presets.insert(Feature::FixCleanup3_3_0);
    } else {
        cfg.rule_book.presets.remove(Feature::FixCleanup3_3_0);
    }
    cfg.rule_book
        .presets
        .remove(Feature::FixPseudoAccountOwnership);
    let env = Env::with_config(cfg);
    assert_eq!(
        env.store.rules().enabled(Feature::FixCleanup3_3_0),
        on,
        "the rule book"
    );
    env
}

/// An XRP/USD pool (gw issues USD, lp provides); returns the AMM's pseudo-account.
fn pool(env: &mut Env, gw: &Account, lp: &Account) -> AccountId {
    env.apply(gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(lp, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
    env.apply(gw, pay(lp, gw.iou("USD", 10_000)), Ter::tesSUCCESS);
    let mut tx = Tx::new("AMMCreate")
        .amount("Amount", xrp(1_000))
        .amount("Amount2", gw.iou("USD", 1_000));
    tx.0.set(Field::named("TradingFee"), StValue::UInt16(0));
    let reserve = env.store.fees().reserve_inc_drops as i64;
    env.apply(lp, tx.amount("Fee", drops(reserve)), Ter::tesSUCCESS);
    let key = amm::amm_key(&xrp(1).issue(), &gw.iou("USD", 1).issue());
    env.read(&key)
        .and_then(|a| a.account_of(sf().account))
        .expect("the AMM's account")
}

// ---------------------------------------------------------------------------------------
// CheckCancel and CheckCash with a zero CheckID (CheckCancel.cpp, CheckCash.cpp preflight)
// ---------------------------------------------------------------------------------------

#[test]
fn a_zero_check_id_is_malformed_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env330(on);
        let [alice] = env.funded(["c330Alice"]);
        let want = if on {
            Ter::temMALFORMED
        } else {
            Ter::tecNO_ENTRY
        };
        let seq = env.seq(&alice);
        env.apply(&alice, check_cancel(Hash256::ZERO), want);
        env.apply(&alice, check_cash(Hash256::ZERO, xrp(1)), want);
        // A tem takes no fee and no sequence; a tec takes both.
        let used = if on { 0 } else { 2 };
        assert_eq!(env.seq(&alice), seq + used, "fix {on}");
        // Any other ID is still looked for.
        let other = Hash256([0x11; 32]);
        env.apply(&alice, check_cancel(other), Ter::tecNO_ENTRY);
    }
}

// ---------------------------------------------------------------------------------------
// CredentialCreate for a pseudo-account (Credentials.cpp, CredentialCreate::preclaim)
// ---------------------------------------------------------------------------------------

#[test]
fn no_credential_for_a_pseudo_account_with_the_fix() {
    for on in [false, true] {
        let mut env = env330(on);
        let [gw, lp, issuer] = env.funded(["c330Gw", "c330Lp", "c330Issuer"]);
        let amm_account = pool(&mut env, &gw, &lp);
        let want = if on {
            Ter::tecPSEUDO_ACCOUNT
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&issuer, credentials::create(&amm_account, b"KYC"), want);
        let key = keylet::credential(&amm_account, &issuer.id, b"KYC");
        assert_eq!(env.read(&key).is_some(), !on, "fix {on}");
        // An account that is no pseudo-account gets one either way.
        env.apply(&issuer, credentials::create(&lp, b"KYC"), Ter::tesSUCCESS);
        // A duplicate is answered first: without the fix the AMM's credential exists.
        if !on {
            env.apply(
                &issuer,
                credentials::create(&amm_account, b"KYC"),
                Ter::tecDUPLICATE,
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// DepositPreauth of a pseudo-account (DepositPreauth.cpp preclaim)
// ---------------------------------------------------------------------------------------

#[test]
fn no_preauthorizing_a_pseudo_account_with_the_fix() {
    for on in [false, true] {
        let mut env = env330(on);
        let [gw, lp, alice] = env.funded(["c330Gw2", "c330Lp2", "c330Alice2"]);
        let amm_account = pool(&mut env, &gw, &lp);
        let authorize = || Tx::new("DepositPreauth").account("Authorize", &amm_account);
        let want = if on {
            Ter::tecPSEUDO_ACCOUNT
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&alice, authorize(), want);
        let key = keylet::deposit_preauth(&alice.id, &amm_account);
        assert_eq!(env.read(&key).is_some(), !on, "fix {on}");
        assert_eq!(env.owner_count(&alice), u32::from(!on), "fix {on}");
        // Without the fix the second one is the duplicate; with it the pseudo-account
        // is refused before the duplicate is looked for.
        let again = if on {
            Ter::tecPSEUDO_ACCOUNT
        } else {
            Ter::tecDUPLICATE
        };
        env.apply(&alice, authorize(), again);
        // A missing account is tecNO_TARGET either way, before the pseudo check.
        let nobody = Account::new("c330Nobody");
        env.apply(&alice, preauth(&nobody), Ter::tecNO_TARGET);
    }
}

// ---------------------------------------------------------------------------------------
// AMMDeposit into a pool frozen for the other asset (AMM/AMMDeposit.cpp preclaim,
// `checkDepositFreeze` for both of the pool's assets)
// ---------------------------------------------------------------------------------------

#[test]
fn a_deposit_into_a_pool_frozen_for_either_asset_is_refused_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env330(on);
        let [gw, lp] = env.funded(["c330Gw3", "c330Lp3"]);
        let amm_account = pool(&mut env, &gw, &lp);
        // The issuer freezes the pool's USD line.
        let freeze = trust(Amount::iou(val("0"), cur("USD"), amm_account)).flags(TF_SET_FREEZE);
        env.apply(&gw, freeze, Ter::tesSUCCESS);
        // An XRP-only deposit: before the fix only the deposited asset's freezes count.
        let deposit = Tx::new("AMMDeposit")
            .amount("Amount", xrp(100))
            .flags(amm::tf::SINGLE_ASSET);
        let mut deposit = deposit;
        deposit
            .0
            .set(Field::named("Asset"), StValue::Issue(xrp(1).issue()));
        deposit.0.set(
            Field::named("Asset2"),
            StValue::Issue(gw.iou("USD", 1).issue()),
        );
        let lp_before = env.balance(&lp);
        let want = if on { Ter::tecFROZEN } else { Ter::tesSUCCESS };
        env.apply(&lp, deposit, want);
        let paid = lp_before - env.balance(&lp) - FEE;
        assert_eq!(paid, if on { 0 } else { 100_000_000 }, "fix {on}");
    }
}
