//! fixCleanup3_4_0's role signing prefixes (rippled `signingPrefix(role, multi, rules)`),
//! each story under ledgerd's rule book with the amendment off and on.
//!
//! - A LoanSet's CounterpartySignature signs the transaction's data behind `CPT\0`
//!   (single) or `CPM\0` and the signer's account (multi) under the fix; before it, behind
//!   `STX\0` / `SMT\0`. Only the form the rules call for verifies.
//! - A SponsorSignature likewise behind `SPN\0` / `SPM\0` under the fix, `STX\0` / `SMT\0`
//!   before it: the engine refuses the other form (`temINVALID`), and a prefix of the
//!   other role is never accepted.
//!
//! While ledgerd lacks fixCleanup3_4_0 (it cannot be enabled outside a test), the role's
//! own form is accepted without the amendment too ([`lenient`]), so that the libraries
//! that always sign with it work (docs/compat.md).
//!
//! The prefixed signatures are built here from the bytes, not from ledgerd's helpers.

use std::sync::Arc;

use crate::support;

use ledgerd::engine::sponsor::SPF_SPONSOR_FEE;
use ledgerd::engine::transactor::{signature_fault, verify_signature};
use ledgerd::engine::Ter;
use ledgerd::ledger::rules::Rules;
use ledgerd::ledger::sf::sf;
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::codec::encode_for_signing;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::Hash256;
use support::engine::*;
use support::sponsor::*;

/// A co-signature object: `single` signs `single_prefix || body`; otherwise each of
/// `multi` (sorted) signs `multi_prefix || body || its account`.
fn cosignature(
    o: &StObject,
    prefixes: (&[u8; 4], &[u8; 4]),
    single: Option<&Account>,
    multi: &[&Account],
) -> StObject {
    let s = sf();
    let body = encode_for_signing(o);
    let mut sig = StObject::new();
    if let Some(signer) = single {
        let data = [prefixes.0.as_slice(), &body].concat();
        sig.set(
            s.signing_pub_key,
            StValue::Blob(signer.kp.public.as_bytes().to_vec()),
        );
        sig.set(s.txn_signature, StValue::Blob(signer.kp.sign(&data)));
        return sig;
    }
    let mut sorted = multi.to_vec();
    sorted.sort_by_key(|a| a.id);
    let list = sorted
        .iter()
        .map(|a| {
            let data = [prefixes.1.as_slice(), &body, a.id.as_bytes()].concat();
            let mut signer = StObject::new();
            signer.set(s.account, StValue::AccountId(a.id));
            signer.set(
                s.signing_pub_key,
                StValue::Blob(a.kp.public.as_bytes().to_vec()),
            );
            signer.set(s.txn_signature, StValue::Blob(a.kp.sign(&data)));
            (Field::named("Signer"), signer)
        })
        .collect();
    sig.set(s.signing_pub_key, StValue::Blob(Vec::new()));
    sig.set(s.signers, StValue::Array(list));
    sig
}

/// ledgerd's deliberate leniency without the fix: while the amendment is `Lacking`, the
/// role's own form verifies as well as the plain one.
fn lenient() -> bool {
    use ledgerd::protocol::features::Support;
    Feature::FixCleanup3_4_0.info().support == Support::Lacking
}

const PLAIN: (&[u8; 4], &[u8; 4]) = (b"STX\0", b"SMT\0");
const COUNTERPARTY: (&[u8; 4], &[u8; 4]) = (b"CPT\0", b"CPM\0");
const SPONSOR: (&[u8; 4], &[u8; 4]) = (b"SPN\0", b"SPM\0");

/// The owner's LoanSet, signed by the owner, co-signed by `cosig(o)`.
fn loan_set(owner: &Account, cosig: impl Fn(&StObject) -> StObject) -> StObject {
    let mut o = Tx::new("LoanSet")
        .h256("LoanBrokerID", Hash256([3; 32]))
        .signed(&owner.id, 5, 20, &owner.kp);
    let sig = cosig(&o);
    o.set(sf().counterparty_signature, StValue::Object(sig));
    o
}

#[test]
fn a_counterparty_signs_behind_the_prefix_the_rules_call_for() {
    let [owner, borrower, b1, b2] = ["cpOwner", "cpBor", "cpB1", "cpB2"].map(Account::new);
    for on in [false, true] {
        let rules = Rules::default_with(Feature::FixCleanup3_4_0, on);
        let bad = Some("Counterparty: Invalid signature.");
        for (forms, valid) in [
            (PLAIN, !on),
            (COUNTERPARTY, on || lenient()),
            (SPONSOR, false),
        ] {
            let single = loan_set(&owner, |o| cosignature(o, forms, Some(&borrower), &[]));
            let multi = loan_set(&owner, |o| cosignature(o, forms, None, &[&b1, &b2]));
            for (what, o) in [("single", single), ("multi", multi)] {
                let why = format!("fix {on}, {what} behind {:?}", forms.0);
                assert_eq!(verify_signature(&o, &rules), valid, "{why}");
                let want = if valid { None } else { bad };
                assert_eq!(signature_fault(&o, &rules), want, "{why}");
            }
        }
    }
}

/// A standalone ledger with Sponsor on, fixCleanup3_4_0 `on` or off, checking every
/// signature.
fn sponsor_env(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::Sponsor);
    if on {
        cfg.rule_book.presets.insert(Feature::FixCleanup3_4_0);
    } else {
        cfg.rule_book.presets.remove(Feature::FixCleanup3_4_0);
    }
    cfg.apply.signature_check = Some(Arc::new(verify_signature));
    let env = Env::with_config(cfg);
    assert_eq!(env.store.rules().enabled(Feature::FixCleanup3_4_0), on);
    env
}

/// alice pays carol 100 XRP, the fee paid by `sponsor`, who co-signs it as `cosig(o)`.
fn sponsored_payment(
    env: &mut Env,
    alice: &Account,
    sponsor: &Account,
    carol: &Account,
    cosig: impl Fn(&StObject) -> StObject,
) -> Ter {
    let tx = sponsored(pay(carol, xrp(100)), &sponsor.id, SPF_SPONSOR_FEE);
    let mut o = tx.signed(&alice.id, env.seq(alice), 30, &alice.kp);
    let sig = cosig(&o);
    o.set(sf().sponsor_signature, StValue::Object(sig));
    apply_object(env, o)
}

#[test]
fn a_sponsor_signs_behind_the_prefix_the_rules_call_for() {
    for on in [false, true] {
        let mut env = sponsor_env(on);
        let [alice, sponsor, carol, s1, s2] = env.funded(["alice", "sponsor", "carol", "s1", "s2"]);
        env.apply(
            &sponsor,
            signer_list(2, &[(&s1, 1), (&s2, 1)]),
            Ter::tesSUCCESS,
        );
        let ok = |valid: bool| {
            if valid {
                Ter::tesSUCCESS
            } else {
                Ter::temINVALID
            }
        };
        for (forms, valid) in [
            (PLAIN, !on),
            (SPONSOR, on || lenient()),
            (COUNTERPARTY, false),
        ] {
            let why = format!("fix {on}, behind {:?}", forms.0);
            let before = env.balance(&sponsor);
            let single = |o: &StObject| cosignature(o, forms, Some(&sponsor), &[]);
            let got = sponsored_payment(&mut env, &alice, &sponsor, &carol, single);
            assert_eq!(got, ok(valid), "single, {why}");
            let paid = if valid { 30 } else { 0 };
            assert_eq!(env.balance(&sponsor), before - paid, "single, {why}");
            let multi = |o: &StObject| cosignature(o, forms, None, &[&s1, &s2]);
            let got = sponsored_payment(&mut env, &alice, &sponsor, &carol, multi);
            assert_eq!(got, ok(valid), "multi, {why}");
        }
    }
}
