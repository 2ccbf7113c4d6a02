//! fixPseudoAccountOwnership (xrpld develop, DefaultNo), gated both ways. Its one spot is
//! the `ValidPseudoAccountOwnership` invariant (`src/libxrpl/tx/invariants/
//! PseudoAccountInvariant.cpp`): under the fix, what a transaction links into a
//! pseudo-account's owner directory must be a type its kind may own (an AMM's: AMM,
//! RippleState, MPToken; a vault's: MPTokenIssuance, MPToken, RippleState, LoanBroker; a
//! loan broker's: Loan, MPToken, RippleState), else `tecINVARIANT_FAILED`.
//!
//! - CredentialCreate to a pseudo-account (which xrpld's preclaim refuses only under
//!   fixCleanup3_3_0, off here) pins the credential in its directory without the fix;
//!   with it the invariant fails the transaction.
//! - What AMMs, vaults, brokers and loans link into their own pseudo-accounts passes
//!   both ways.
//! - CheckCreate and PaymentChannelCreate to a pseudo-account are `tecNO_PERMISSION`
//!   both ways (xrpld's preclaim, not gated): the invariant never sees them.
//! - The invariant's table, kind by kind, has unit tests in
//!   `src/engine/invariants/pseudo_owner.rs`.

use crate::support;

use crate::loan::lifecycle_in;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm;
use ledgerd::engine::Ter;
use ledgerd::ledger::directory;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256};
use support::credentials;
use support::engine::*;

/// ledgerd's rule book with fixPseudoAccountOwnership on or off (fixCleanup3_3_0 off, and
/// LendingProtocolV1_1, whose brokers need closed-ended vaults: the loan story's is not).
fn env(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.remove(Feature::FixCleanup3_3_0);
    cfg.rule_book.presets.remove(Feature::LendingProtocolV1_1);
    if on {
        cfg.rule_book
            .presets
            .insert(Feature::FixPseudoAccountOwnership);
    } else {
        cfg.rule_book
            .presets
            .remove(Feature::FixPseudoAccountOwnership);
    }
    let env = Env::with_config(cfg);
    assert_eq!(
        env.store
            .rules()
            .enabled(Feature::FixPseudoAccountOwnership),
        on,
        "the rule book"
    );
    env
}

/// The entry types in `owner`'s directory, sorted.
fn owned_types(env: &Env, owner: &AccountId) -> Vec<u16> {
    let view = env.store.current().view;
    let mut types: Vec<u16> = directory::owned(&view, owner)
        .iter()
        .filter_map(|k| env.read(k))
        .filter_map(|e| e.u16_of(sf().ledger_entry_type))
        .collect();
    types.sort();
    types
}

/// An XRP/USD pool by `lp` (gw issues USD, DefaultRipple); returns its pseudo-account.
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
    let usd = gw.iou("USD", 1).issue();
    let key = amm::amm_key(&xrp(1).issue(), &usd);
    env.read(&key)
        .and_then(|a| a.account_of(sf().account))
        .expect("the AMM's account")
}

// ---------------------------------------------------------------------------------------
// CredentialCreate to a pseudo-account (PseudoAccountInvariant.cpp, finalize)
// ---------------------------------------------------------------------------------------

#[test]
fn a_credential_is_pinned_in_a_pseudo_accounts_directory_only_without_the_fix() {
    for on in [false, true] {
        let mut env = env(on);
        let [gw, lp, issuer] = env.funded(["poGw", "poLp", "poIssuer"]);
        env.fund(&gw, xrp(10_000));
        let amm_account = pool(&mut env, &gw, &lp);
        env.close();
        let before = env.owner_count(&issuer);
        let want = if on {
            Ter::tecINVARIANT_FAILED
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&issuer, credentials::create(&amm_account, b"KYC"), want);
        let key = keylet::credential(&amm_account, &issuer.id, b"KYC");
        assert_eq!(env.read(&key).is_some(), !on, "the credential, fix {on}");
        let pinned = owned_types(&env, &amm_account).contains(&lt::CREDENTIAL);
        assert_eq!(pinned, !on, "pinned in the AMM's directory, fix {on}");
        let grew = u32::from(!on);
        assert_eq!(env.owner_count(&issuer), before + grew, "fix {on}");
    }
}

// ---------------------------------------------------------------------------------------
// What pseudo-accounts own by right (the allowed sets of the same invariant)
// ---------------------------------------------------------------------------------------

#[test]
fn a_pool_owns_its_amm_and_trust_lines_both_ways() {
    for on in [false, true] {
        let mut env = env(on);
        let [gw, lp] = env.funded(["poGw2", "poLp2"]);
        let amm_account = pool(&mut env, &gw, &lp);
        // The AMM entry, the USD line and the LP's LP-token line.
        assert_eq!(
            owned_types(&env, &amm_account),
            vec![lt::RIPPLE_STATE, lt::RIPPLE_STATE, lt::AMM],
            "fix {on}"
        );
    }
}

#[test]
fn a_vault_and_its_broker_own_shares_brokers_and_loans_both_ways() {
    for on in [false, true] {
        // A vault, a broker over it and a loan from it, every step tesSUCCESS.
        let (env, _, vault, broker, loan) = lifecycle_in(env(on), 0);
        assert!(env.read(&loan).is_some(), "fix {on}");
        let pseudo_of = |k: &Hash256| env.read(k).and_then(|e| e.account_of(sf().account));
        let vault_pseudo = pseudo_of(&vault).expect("vault pseudo-account");
        let broker_pseudo = pseudo_of(&broker).expect("broker pseudo-account");
        assert_eq!(
            owned_types(&env, &vault_pseudo),
            vec![lt::MPTOKEN_ISSUANCE, lt::LOAN_BROKER],
            "fix {on}"
        );
        assert_eq!(
            owned_types(&env, &broker_pseudo),
            vec![lt::LOAN],
            "fix {on}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// CheckCreate and PaymentChannelCreate (CheckCreate.cpp, PayChan.cpp preclaim)
// ---------------------------------------------------------------------------------------

#[test]
fn no_check_or_channel_to_a_pseudo_account_either_way() {
    for on in [false, true] {
        let mut env = env(on);
        let [gw, lp, alice] = env.funded(["poGw3", "poLp3", "poAlice"]);
        let amm_account = pool(&mut env, &gw, &lp);
        let check = Tx::new("CheckCreate")
            .account("Destination", &amm_account)
            .amount("SendMax", xrp(10));
        env.apply(&alice, check, Ter::tecNO_PERMISSION);
        let channel = Tx::new("PaymentChannelCreate")
            .account("Destination", &amm_account)
            .amount("Amount", xrp(10))
            .u32("SettleDelay", 100)
            .blob("PublicKey", alice.kp.public.as_bytes());
        env.apply(&alice, channel, Ter::tecNO_PERMISSION);
        assert_eq!(env.owner_count(&alice), 0, "fix {on}");
        assert!(
            !owned_types(&env, &amm_account).contains(&lt::CHECK),
            "fix {on}"
        );
    }
}
