//! Sponsorship (XLS-68) in the pipeline, after rippled's `Sponsor_test.cpp`
//! (`testPreflight`, `testSponsorSignature`, `testCalculateBaseFee`, the fee halves of
//! `SponsorTxCosigning` / `SponsorTxPrefunded`) and `Transactor.cpp`: the common fields'
//! preflight (`preflight1Sponsor`), `checkSponsor`, the sponsor's co-signature (single and
//! multi, over what the account signs), the base fee counting the sponsor's signers, and
//! who pays the fee (the co-signing sponsor's balance above its reserve, or the pre-funded
//! Sponsorship's FeeAmount under its MaxFee).
//!
//! ledgerd's rule book lacks Sponsor until every part of it is built: these stories turn
//! it on the way `rules_cleanup313.rs` does. The pre-funded stories lay their Sponsorship
//! entries over the open ledger and apply through the engine there
//! (`support::sponsor::Overlay`) until SponsorshipSet makes them.

use std::sync::Arc;

use crate::support;

use ledgerd::engine::sponsor::{entry_flags, SPF_SPONSOR_FEE, SPF_SPONSOR_RESERVE};
use ledgerd::engine::transactor::{signature_fault, verify_signature, Outcome};
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::StExt;
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::Hash256;
use support::engine::*;
use support::sponsor::*;

const FEE_AND_RESERVE: u32 = SPF_SPONSOR_FEE | SPF_SPONSOR_RESERVE;

/// A standalone ledger with Sponsor on, checking every signature.
fn env() -> Env {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::Sponsor);
    cfg.apply.signature_check = Some(Arc::new(verify_signature));
    let env = Env::with_config(cfg);
    assert!(env.store.rules().enabled(Feature::Sponsor), "the rule book");
    env
}

/// The base fee, the account reserve and the owner reserve increment, in drops.
fn fees(env: &Env) -> (i64, i64, i64) {
    let f = env.store.fees();
    (
        f.base_drops as i64,
        f.reserve_base_drops as i64,
        f.reserve_inc_drops as i64,
    )
}

/// alice pays carol 100 XRP, the fee sponsored by `sponsor`.
fn fee_sponsored_payment(sponsor: &Account, carol: &Account) -> Tx {
    pay(carol, xrp(100)).sponsor(sponsor, SPF_SPONSOR_FEE)
}

// ---------------------------------------------------------------------------------------
// Story 1-2: preflight1Sponsor, in rippled's order.

#[test]
fn the_common_fields_are_checked_in_rippleds_order() {
    let mut env = env();
    let [alice, sponsor] = env.funded(["alice", "sponsor"]);
    let before = env.balance(&alice);
    let with_sig = |tx: Tx| -> Tx {
        let mut tx = tx;
        let mut sig = StObject::new();
        sig.set(
            ledgerd::ledger::sf::sf().signing_pub_key,
            StValue::Blob(Vec::new()),
        );
        tx.0.set(
            ledgerd::ledger::sf::sf().sponsor_signature,
            StValue::Object(sig),
        );
        tx
    };
    let cases: Vec<(Tx, Ter)> = vec![
        // Sponsor without SponsorFlags, and the other way round.
        (
            account_set().account("Sponsor", &sponsor.id),
            Ter::temINVALID_FLAG,
        ),
        (
            account_set().u32("SponsorFlags", SPF_SPONSOR_FEE),
            Ter::temINVALID_FLAG,
        ),
        // That mismatch comes before the SponsorSignature check.
        (
            with_sig(account_set().u32("SponsorFlags", SPF_SPONSOR_FEE)),
            Ter::temINVALID_FLAG,
        ),
        // A SponsorSignature names no sponsor.
        (with_sig(account_set()), Ter::temMALFORMED),
        // Unknown bits, or none.
        (
            sponsored(account_set(), &sponsor.id, 4),
            Ter::temINVALID_FLAG,
        ),
        (
            sponsored(account_set(), &sponsor.id, 0),
            Ter::temINVALID_FLAG,
        ),
        (
            sponsored(account_set(), &sponsor.id, SPF_SPONSOR_FEE | 4),
            Ter::temINVALID_FLAG,
        ),
        // Reserve sponsorship only for the allow-listed types: not TicketCreate.
        (
            sponsored(ticket_create(1), &sponsor.id, SPF_SPONSOR_RESERVE),
            Ter::temINVALID_FLAG,
        ),
        (
            sponsored(ticket_create(1), &sponsor.id, FEE_AND_RESERVE),
            Ter::temINVALID_FLAG,
        ),
        // A flag problem comes before self-sponsorship.
        (sponsored(account_set(), &alice.id, 8), Ter::temINVALID_FLAG),
        (
            sponsored(account_set(), &alice.id, SPF_SPONSOR_FEE),
            Ter::temMALFORMED,
        ),
    ];
    for (i, (tx, want)) in cases.into_iter().enumerate() {
        assert_eq!(env.submit(&alice, tx), want, "case {i}");
    }
    assert_eq!(env.balance(&alice), before, "a tem claims no fee");
    // The fee (not the reserve) of any type may be sponsored: TicketCreate passes
    // preflight and stops at checkSponsor, without a Sponsorship.
    let tx = sponsored(ticket_create(1), &sponsor.id, SPF_SPONSOR_FEE);
    assert_eq!(env.submit(&alice, tx), Ter::terNO_PERMISSION);
}

#[test]
fn a_missing_sponsor_is_ter_no_account_in_both_modes() {
    let mut env = env();
    let [alice, carol] = env.funded(["alice", "carol"]);
    let ghost = Account::new("ghost");
    let before = env.balance(&alice);
    let tx = fee_sponsored_payment(&ghost, &carol);
    assert_eq!(env.submit(&alice, tx), Ter::terNO_ACCOUNT);
    let tx = fee_sponsored_payment(&ghost, &carol);
    let fee = fees(&env).0;
    let got = submit_sponsored(&mut env, &alice, tx, fee, SponsorSig::Single(&ghost.kp));
    assert_eq!(got, Ter::terNO_ACCOUNT);
    assert_eq!(env.balance(&alice), before);
    assert_eq!(env.balance(&carol), 10_000_000_000);
}

// ---------------------------------------------------------------------------------------
// Story 3 and 19: the sponsor's single signature, over what the account signs.

#[test]
fn the_sponsor_signature_is_not_part_of_the_signed_data() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let mut o = tx.signed(&alice.id, env.seq(&alice), 10, &alice.kp);
    let single = ledgerd::protocol::tx::signing_data(&o);
    let multi = ledgerd::protocol::tx::multisigning_data(&o, &sponsor.id);
    cosign(&mut o, &SponsorSig::Single(&sponsor.kp));
    assert_eq!(ledgerd::protocol::tx::signing_data(&o), single);
    assert_eq!(
        ledgerd::protocol::tx::multisigning_data(&o, &sponsor.id),
        multi
    );
    // Sponsor and SponsorFlags are signed: the data changes with them.
    let mut other = o.clone();
    other.set(
        ledgerd::ledger::sf::sf().sponsor_flags,
        StValue::UInt32(FEE_AND_RESERVE),
    );
    assert_ne!(ledgerd::protocol::tx::signing_data(&other), single);
    // The same object survives the binary round trip and applies; the sponsor's key
    // verifies over the plain signing data.
    assert!(verify_signature(&o, &env.store.rules()));
    assert_eq!(apply_object(&mut env, o), Ter::tesSUCCESS);
}

#[test]
fn a_bad_sponsor_signature_is_rejected_before_apply() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let (alice_before, sponsor_before) = (env.balance(&alice), env.balance(&sponsor));
    let s = ledgerd::ledger::sf::sf();
    let signed = |env: &Env| {
        let tx = fee_sponsored_payment(&sponsor, &carol);
        tx.signed(&alice.id, env.seq(&alice), 10, &alice.kp)
    };
    // A public key and no signature.
    let mut o = signed(&env);
    let mut sig = StObject::new();
    sig.set(
        s.signing_pub_key,
        StValue::Blob(sponsor.kp.public.as_bytes().to_vec()),
    );
    o.set(s.sponsor_signature, StValue::Object(sig));
    // What submit answers (invalidTransaction, "fails local checks: ...").
    assert_eq!(
        signature_fault(&o, &env.store.rules()),
        Some("Sponsor: Invalid signature.")
    );
    assert_eq!(apply_object(&mut env, o), Ter::temINVALID);
    // A signature over other data.
    let mut o = signed(&env);
    cosign(&mut o, &SponsorSig::Single(&sponsor.kp));
    o.set(s.sequence, StValue::UInt32(env.seq(&alice) + 1));
    sign_again(&mut o, &alice);
    assert_eq!(
        signature_fault(&o, &env.store.rules()),
        Some("Sponsor: Invalid signature.")
    );
    assert_eq!(apply_object(&mut env, o), Ter::temINVALID);
    // A key and Signers together.
    let mut o = signed(&env);
    cosign(&mut o, &SponsorSig::Single(&sponsor.kp));
    if let Some(StValue::Object(sig)) = o.get(s.sponsor_signature).cloned() {
        let mut sig = sig;
        sig.set(s.signers, StValue::Array(Vec::new()));
        o.set(s.sponsor_signature, StValue::Object(sig));
    }
    assert_eq!(apply_object(&mut env, o), Ter::temINVALID);
    // A sound signature by a key that is not the sponsor's: the ledger check says no.
    let mut o = signed(&env);
    cosign(&mut o, &SponsorSig::Single(&carol.kp));
    assert_eq!(apply_object(&mut env, o), Ter::tefBAD_AUTH);
    assert_eq!(env.balance(&alice), alice_before);
    assert_eq!(env.balance(&sponsor), sponsor_before);
    // The sponsor's own key: applied.
    let mut o = signed(&env);
    cosign(&mut o, &SponsorSig::Single(&sponsor.kp));
    assert_eq!(signature_fault(&o, &env.store.rules()), None);
    // The account's own bad signature is named first.
    let mut bad = o.clone();
    bad.set(s.txn_signature, StValue::Blob(vec![0x30, 0x00]));
    assert_eq!(
        signature_fault(&bad, &env.store.rules()),
        Some("Invalid signature.")
    );
    assert_eq!(apply_object(&mut env, o), Ter::tesSUCCESS);
}

/// Signs `o` again as `who` after a change.
fn sign_again(o: &mut StObject, who: &Account) {
    support::payment::sign_object(o, &who.kp);
}

#[test]
fn the_sponsor_signs_with_its_regular_key_not_a_disabled_master() {
    use ledgerd::engine::account_set::asf;
    let mut env = env();
    let [alice, sponsor, carol, key] = env.funded(["alice", "sponsor", "carol", "key"]);
    let fee = fees(&env).0;
    env.apply(&sponsor, regular_key(&key), Ter::tesSUCCESS);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, fee, SponsorSig::Single(&key.kp));
    assert_eq!(got, Ter::tesSUCCESS);
    env.apply(&sponsor, fset(asf::DISABLE_MASTER), Ter::tesSUCCESS);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, fee, SponsorSig::Single(&sponsor.kp));
    assert_eq!(got, Ter::tefMASTER_DISABLED);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, fee, SponsorSig::Single(&key.kp));
    assert_eq!(got, Ter::tesSUCCESS);
}

// ---------------------------------------------------------------------------------------
// Story 4: a multi-signing sponsor; its signers count in the base fee.

#[test]
fn a_multisigning_sponsor_needs_its_list_and_quorum_and_pays_per_signer() {
    let mut env = env();
    let [alice, sponsor, carol, s1, s2] = env.funded(["alice", "sponsor", "carol", "s1", "s2"]);
    let (base, _, _) = fees(&env);
    let one: &[(&Account, &_)] = &[(&s1, &s1.kp)];
    let two: &[(&Account, &_)] = &[(&s1, &s1.kp), (&s2, &s2.kp)];
    // No signer list.
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 2 * base, SponsorSig::Multi(one));
    assert_eq!(got, Ter::tefNOT_MULTI_SIGNING);
    // Quorum 1: one signer is enough; the fee is two base fees.
    env.apply(
        &sponsor,
        signer_list(1, &[(&s1, 1), (&s2, 1)]),
        Ter::tesSUCCESS,
    );
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 2 * base - 1, SponsorSig::Multi(one));
    assert_eq!(got, Ter::telINSUF_FEE_P);
    let before = env.balance(&sponsor);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 2 * base, SponsorSig::Multi(one));
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), before - 2 * base, "the sponsor paid");
    // Quorum 2 ("calculateBaseFee for multisigned sponsor"): 3 x base - 1 drop is short.
    env.apply(
        &sponsor,
        signer_list(2, &[(&s1, 1), (&s2, 1)]),
        Ter::tesSUCCESS,
    );
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 2 * base, SponsorSig::Multi(one));
    assert_eq!(got, Ter::tefBAD_QUORUM);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 3 * base - 1, SponsorSig::Multi(two));
    assert_eq!(got, Ter::telINSUF_FEE_P);
    // The base fee the signing RPCs autofill (`calculateBaseFee`) counts them too.
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let mut o = tx.signed(&alice.id, env.seq(&alice), 0, &alice.kp);
    cosign(&mut o, &SponsorSig::Multi(two));
    let inc = fees(&env).2 as u64;
    let due = ledgerd::engine::transactor::base_fee(&o, base as u64, inc);
    assert_eq!(due, 3 * base as u64);
    let before = env.balance(&sponsor);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 3 * base, SponsorSig::Multi(two));
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), before - 3 * base);
    // A stranger among the signers.
    let bad: &[(&Account, &_)] = &[(&s1, &s1.kp), (&carol, &carol.kp)];
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 3 * base, SponsorSig::Multi(bad));
    assert_eq!(got, Ter::tefBAD_SIGNATURE);
    // The sponsor may sign among its own Signers (no "not the account" rule for it),
    // here as a stranger to its list.
    let own: &[(&Account, &_)] = &[(&s1, &s1.kp), (&sponsor, &sponsor.kp)];
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, 3 * base, SponsorSig::Multi(own));
    assert_eq!(
        got,
        Ter::tefBAD_SIGNATURE,
        "passes the crypto check, not the list"
    );
}

#[test]
fn the_sponsors_signers_must_be_sorted_and_sound() {
    let mut env = env();
    let [alice, sponsor, carol, s1, s2] = env.funded(["alice", "sponsor", "carol", "s1", "s2"]);
    env.apply(
        &sponsor,
        signer_list(2, &[(&s1, 1), (&s2, 1)]),
        Ter::tesSUCCESS,
    );
    let s = ledgerd::ledger::sf::sf();
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let mut o = tx.signed(&alice.id, env.seq(&alice), 30, &alice.kp);
    cosign(&mut o, &SponsorSig::Multi(&[(&s1, &s1.kp), (&s2, &s2.kp)]));
    let Some(StValue::Object(mut sig)) = o.get(s.sponsor_signature).cloned() else {
        panic!("a SponsorSignature");
    };
    let Some(StValue::Array(mut list)) = sig.get(s.signers).cloned() else {
        panic!("Signers");
    };
    list.reverse();
    sig.set(s.signers, StValue::Array(list));
    let mut unsorted = o.clone();
    unsorted.set(s.sponsor_signature, StValue::Object(sig));
    assert!(!verify_signature(&unsorted, &env.store.rules()));
    assert_eq!(apply_object(&mut env, unsorted), Ter::temINVALID);
    assert_eq!(apply_object(&mut env, o), Ter::tesSUCCESS);
}

// ---------------------------------------------------------------------------------------
// Story 7: the co-signing sponsor pays the fee from its balance, never its reserve.

#[test]
fn a_cosigning_sponsor_pays_the_fee_above_its_reserve() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let (base, reserve, _) = fees(&env);
    let (a0, s0, c0) = (
        env.balance(&alice),
        env.balance(&sponsor),
        env.balance(&carol),
    );
    let (seq, sponsor_seq) = (env.seq(&alice), env.seq(&sponsor));
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = submit_sponsored(&mut env, &alice, tx, base, SponsorSig::Single(&sponsor.kp));
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(
        env.balance(&alice),
        a0 - 100_000_000,
        "alice pays only the amount"
    );
    assert_eq!(env.balance(&sponsor), s0 - base, "the sponsor pays the fee");
    assert_eq!(env.balance(&carol), c0 + 100_000_000);
    assert_eq!(env.seq(&alice), seq + 1, "alice's sequence is consumed");
    assert_eq!(env.seq(&sponsor), sponsor_seq, "the sponsor's is not");
    // A fee above what the sponsor can spend: terINSUF_FEE_B, nothing moves. (An
    // AccountSet: a Payment also holds alice to max(reserve, Fee) of her own.)
    let fee_only = || sponsored(account_set(), &sponsor.id, SPF_SPONSOR_FEE);
    let (a1, s1) = (env.balance(&alice), env.balance(&sponsor));
    let fee = s1 - reserve + 1;
    let got = submit_sponsored(
        &mut env,
        &alice,
        fee_only(),
        fee,
        SponsorSig::Single(&sponsor.kp),
    );
    assert_eq!(got, Ter::terINSUF_FEE_B);
    assert_eq!((env.balance(&alice), env.balance(&sponsor)), (a1, s1));
    // Up to the reserve is fine.
    let fee = s1 - reserve;
    let got = submit_sponsored(
        &mut env,
        &alice,
        fee_only(),
        fee,
        SponsorSig::Single(&sponsor.kp),
    );
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(
        env.balance(&sponsor),
        reserve,
        "left at exactly its reserve"
    );
    assert_eq!(env.balance(&alice), a1);
    // At exactly its reserve, even the base fee is out of reach.
    let got = submit_sponsored(
        &mut env,
        &alice,
        fee_only(),
        base,
        SponsorSig::Single(&sponsor.kp),
    );
    assert_eq!(got, Ter::terINSUF_FEE_B);
    assert_eq!(env.balance(&sponsor), reserve);
}

#[test]
fn a_tec_still_charges_the_sponsor_and_not_alice() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let (base, _, _) = fees(&env);
    let (a0, s0, c0) = (
        env.balance(&alice),
        env.balance(&sponsor),
        env.balance(&carol),
    );
    let seq = env.seq(&alice);
    // More than alice has: tecUNFUNDED_PAYMENT.
    let tx = sponsored(pay(&carol, xrp(20_000)), &sponsor.id, SPF_SPONSOR_FEE);
    let got = submit_sponsored(&mut env, &alice, tx, base, SponsorSig::Single(&sponsor.kp));
    assert_eq!(got, Ter::tecUNFUNDED_PAYMENT);
    assert_eq!(env.balance(&alice), a0, "alice keeps everything");
    assert_eq!(env.balance(&sponsor), s0 - base, "the sponsor paid the fee");
    assert_eq!(env.balance(&carol), c0);
    assert_eq!(env.seq(&alice), seq + 1, "the sequence is consumed");
}

#[test]
fn a_reserve_only_sponsorship_leaves_the_fee_to_the_account() {
    let mut env = env();
    let [alice, sponsor] = env.funded(["alice", "sponsor"]);
    let (base, _, _) = fees(&env);
    let (a0, s0) = (env.balance(&alice), env.balance(&sponsor));
    let tx = sponsored(account_set(), &sponsor.id, SPF_SPONSOR_RESERVE);
    let got = submit_sponsored(&mut env, &alice, tx, base, SponsorSig::Single(&sponsor.kp));
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), a0 - base);
    assert_eq!(env.balance(&sponsor), s0);
}

// ---------------------------------------------------------------------------------------
// Story 8: the pre-funded Sponsorship.

/// `who`'s `tx` (signed by its own key, Fee `fee` drops, the sponsor signing as `how`)
/// applied over the open ledger with `entries` laid over it, `open` or as a closed
/// ledger applies it.
fn over(
    env: &Env,
    entries: Vec<(Hash256, StObject)>,
    open: bool,
    who: &Account,
    tx: Tx,
    fee: i64,
    how: SponsorSig,
) -> Outcome {
    let mut o = tx.signed(&who.id, env.seq(who), fee, &who.kp);
    cosign(&mut o, &how);
    let snap = env.store.current();
    Overlay::new(&snap.view, entries, open).apply(env, &o)
}

/// The FeeAmount the outcome left in `key`'s Sponsorship: None when untouched,
/// Some(None) when the field went.
fn fee_amount_written(outcome: &Outcome, key: &Hash256) -> Option<Option<i64>> {
    let entry = written(outcome, key)?.expect("not erased");
    Some(
        entry
            .amount_of(ledgerd::ledger::sf::sf().fee_amount)
            .and_then(|a| a.as_drops()),
    )
}

#[test]
fn a_prefunded_fee_needs_a_sponsorship_that_allows_it() {
    let mut env = env();
    let [alice, sponsor, carol, bob] = env.funded(["alice", "sponsor", "carol", "bob"]);
    let (base, _, _) = fees(&env);
    // No Sponsorship: terNO_PERMISSION.
    let tx = fee_sponsored_payment(&sponsor, &carol);
    assert_eq!(env.submit(&alice, tx), Ter::terNO_PERMISSION);
    // One that asks for the sponsor's signature for fees.
    let fee_signed = sponsorship_entry(
        &sponsor,
        &alice,
        Prefund {
            fee_amount: Some(10_000_000),
            flags: entry_flags::REQUIRE_SIGN_FOR_FEE,
            ..Prefund::default()
        },
    );
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = over(
        &env,
        vec![fee_signed.clone()],
        true,
        &alice,
        tx,
        base,
        SponsorSig::None,
    );
    assert_eq!(got.ter, Ter::terNO_PERMISSION);
    // ...but not for reserves: a reserve-sponsored AccountSet passes checkSponsor and
    // alice pays its fee; the entry is not touched.
    let tx = sponsored(account_set(), &sponsor.id, SPF_SPONSOR_RESERVE);
    let got = over(
        &env,
        vec![fee_signed.clone()],
        true,
        &alice,
        tx,
        base,
        SponsorSig::None,
    );
    assert_eq!(got.ter, Ter::tesSUCCESS);
    assert_eq!(
        balance_after(&env, &got, &alice),
        env.balance(&alice) - base
    );
    assert!(written(&got, &fee_signed.0).is_none());
    // One that asks for it for reserves.
    let reserve_signed = sponsorship_entry(
        &sponsor,
        &alice,
        Prefund {
            remaining_owner_count: Some(1),
            flags: entry_flags::REQUIRE_SIGN_FOR_RESERVE,
            ..Prefund::default()
        },
    );
    let tx = sponsored(account_set(), &sponsor.id, SPF_SPONSOR_RESERVE);
    let got = over(
        &env,
        vec![reserve_signed.clone()],
        true,
        &alice,
        tx,
        base,
        SponsorSig::None,
    );
    assert_eq!(got.ter, Ter::terNO_PERMISSION);
    // Co-signed, the entry's demand is met.
    let tx = sponsored(account_set(), &sponsor.id, SPF_SPONSOR_RESERVE);
    let how = SponsorSig::Single(&sponsor.kp);
    let got = over(&env, vec![reserve_signed], true, &alice, tx, base, how);
    assert_eq!(got.ter, Ter::tesSUCCESS);
    // A Sponsorship for bob says nothing for alice.
    let bobs = sponsorship_entry(&sponsor, &bob, Prefund::default());
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = over(&env, vec![bobs], true, &alice, tx, base, SponsorSig::None);
    assert_eq!(got.ter, Ter::terNO_PERMISSION);
}

#[test]
fn a_prefunded_fee_above_fee_amount_or_max_fee_is_ter_insuf_fee_b() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let entry = |fee_amount, max_fee| {
        let p = Prefund {
            fee_amount,
            max_fee,
            ..Prefund::default()
        };
        vec![sponsorship_entry(&sponsor, &alice, p)]
    };
    let tx = || fee_sponsored_payment(&sponsor, &carol);
    let none = || SponsorSig::None;
    // FeeAmount 90 XRP, MaxFee 1 XRP: 1 XRP + 1 drop is over MaxFee.
    let got = over(
        &env,
        entry(Some(90_000_000), Some(1_000_000)),
        true,
        &alice,
        tx(),
        1_000_001,
        none(),
    );
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    // No MaxFee: 90 XRP + 1 drop is over FeeAmount.
    let got = over(
        &env,
        entry(Some(90_000_000), None),
        true,
        &alice,
        tx(),
        90_000_001,
        none(),
    );
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    // No FeeAmount at all, even with a MaxFee.
    let got = over(
        &env,
        entry(None, Some(1_000_000)),
        true,
        &alice,
        tx(),
        10,
        none(),
    );
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    // Closed: nothing to spend is still terINSUF_FEE_B (no tec without funds).
    let got = over(&env, entry(None, None), false, &alice, tx(), 10, none());
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    assert!(!got.applied);
    // A co-signing sponsor's preference for the entry: co-signed with an empty entry,
    // the entry still pays, and it has nothing.
    let how = SponsorSig::Single(&sponsor.kp);
    let got = over(&env, entry(None, None), true, &alice, tx(), 10, how);
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
}

#[test]
fn in_a_closed_ledger_a_short_cosigning_sponsor_pays_what_it_can_spend() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let (_, reserve, _) = fees(&env);
    let (a0, s0) = (env.balance(&alice), env.balance(&sponsor));
    let spendable = s0 - reserve;
    let how = SponsorSig::Single(&sponsor.kp);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = over(&env, Vec::new(), false, &alice, tx, spendable + 1, how);
    assert_eq!(got.ter, Ter::tecINSUFF_FEE);
    assert!(got.applied);
    assert_eq!(
        got.fee_drops, spendable,
        "reset caps the fee above the reserve"
    );
    assert_eq!(balance_after(&env, &got, &sponsor), reserve);
    assert_eq!(
        balance_after(&env, &got, &alice),
        a0,
        "the payment did not happen"
    );
    assert_eq!(balance_after(&env, &got, &carol), env.balance(&carol));
    // The open ledger answers terINSUF_FEE_B instead.
    let how = SponsorSig::Single(&sponsor.kp);
    let tx = fee_sponsored_payment(&sponsor, &carol);
    let got = over(&env, Vec::new(), true, &alice, tx, spendable + 1, how);
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    // checkFee's rule is every payer's: alice alone, short of her own fee in a closed
    // ledger, pays all she has (tecINSUFF_FEE).
    let got = over(
        &env,
        Vec::new(),
        false,
        &alice,
        account_set(),
        a0 + 1,
        SponsorSig::None,
    );
    assert_eq!(got.ter, Ter::tecINSUFF_FEE);
    assert_eq!(got.fee_drops, a0);
    assert_eq!(balance_after(&env, &got, &alice), 0);
}

#[test]
fn a_prefunded_sponsorship_pays_from_fee_amount_under_max_fee() {
    let mut env = env();
    let [alice, sponsor, carol] = env.funded(["alice", "sponsor", "carol"]);
    let key = keylet_sponsorship(&sponsor, &alice);
    let entry = |fee_amount, max_fee, flags| {
        let p = Prefund {
            fee_amount,
            max_fee,
            flags,
            ..Prefund::default()
        };
        vec![sponsorship_entry(&sponsor, &alice, p)]
    };
    let tx = || fee_sponsored_payment(&sponsor, &carol);
    let none = || SponsorSig::None;
    let (a0, s0) = (env.balance(&alice), env.balance(&sponsor));
    // FeeAmount 100 XRP, Fee 10 XRP: 90 XRP left; alice pays only the amount, the
    // sponsor's balance keeps.
    let got = over(
        &env,
        entry(Some(100_000_000), None, 0),
        true,
        &alice,
        tx(),
        10_000_000,
        none(),
    );
    assert_eq!(got.ter, Ter::tesSUCCESS);
    assert_eq!(fee_amount_written(&got, &key), Some(Some(90_000_000)));
    assert_eq!(balance_after(&env, &got, &alice), a0 - 100_000_000);
    assert_eq!(balance_after(&env, &got, &sponsor), s0);
    assert_eq!(got.fee_drops, 10_000_000);
    // A tec charges the FeeAmount too.
    let big = sponsored(pay(&carol, xrp(20_000)), &sponsor.id, SPF_SPONSOR_FEE);
    let got = over(
        &env,
        entry(Some(90_000_000), None, 0),
        true,
        &alice,
        big,
        1_000_000,
        none(),
    );
    assert_eq!(got.ter, Ter::tecUNFUNDED_PAYMENT);
    assert_eq!(fee_amount_written(&got, &key), Some(Some(89_000_000)));
    assert_eq!(balance_after(&env, &got, &alice), a0);
    // Spending it all removes the field (the entry stays).
    let got = over(
        &env,
        entry(Some(89_000_000), None, 0),
        true,
        &alice,
        tx(),
        89_000_000,
        none(),
    );
    assert_eq!(got.ter, Ter::tesSUCCESS);
    assert_eq!(fee_amount_written(&got, &key), Some(None));
    // RequireSignForFee: co-signed it passes, and the fee still comes out of FeeAmount
    // (10 -> 9 XRP), not out of the sponsor's balance.
    let flags = entry_flags::REQUIRE_SIGN_FOR_FEE;
    let how = SponsorSig::Single(&sponsor.kp);
    let got = over(
        &env,
        entry(Some(10_000_000), Some(1_000_000), flags),
        true,
        &alice,
        tx(),
        1_000_000,
        how,
    );
    assert_eq!(got.ter, Ter::tesSUCCESS);
    assert_eq!(fee_amount_written(&got, &key), Some(Some(9_000_000)));
    assert_eq!(balance_after(&env, &got, &sponsor), s0);
    // Closed ledger, FeeAmount 1000 drops, MaxFee 10, Fee 1000: tecINSUFF_FEE, and the
    // reset charges MaxFee (990 left).
    let got = over(
        &env,
        entry(Some(1_000), Some(10), 0),
        false,
        &alice,
        tx(),
        1_000,
        none(),
    );
    assert_eq!(got.ter, Ter::tecINSUFF_FEE);
    assert_eq!(got.fee_drops, 10);
    assert_eq!(fee_amount_written(&got, &key), Some(Some(990)));
    assert_eq!(balance_after(&env, &got, &alice), a0);
}

fn keylet_sponsorship(sponsor: &Account, sponsee: &Account) -> Hash256 {
    ledgerd::ledger::keylet::sponsorship(&sponsor.id, &sponsee.id)
}

// ---------------------------------------------------------------------------------------
// Story 17: a delegated transaction.

#[test]
fn a_delegate_may_not_sponsor_reserves_and_fee_sponsorship_reads_the_delegates_entry() {
    let mut env = env();
    let [alice, bob, sponsor, carol] = env.funded(["alice", "bob", "sponsor", "carol"]);
    let (base, _, _) = fees(&env);
    // checkSponsor runs before the delegate's permission: no Delegate entry is needed to
    // be told temINVALID.
    let tx =
        sponsored(account_set(), &sponsor.id, SPF_SPONSOR_RESERVE).account("Delegate", &bob.id);
    assert_eq!(env.submit_signed(&alice, &bob.kp, tx), Ter::temINVALID);
    // A pre-funded fee for alice's transaction sent by bob needs Sponsorship(sponsor, bob):
    // alice's entry does not do.
    let alices = sponsorship_entry(&sponsor, &alice, Prefund::default());
    let bobs = sponsorship_entry(&sponsor, &bob, Prefund::default());
    let delegated = |env: &Env| {
        let tx = fee_sponsored_payment(&sponsor, &carol).account("Delegate", &bob.id);
        tx.signed(&alice.id, env.seq(&alice), base, &bob.kp)
    };
    let snap = env.store.current();
    let got = Overlay::new(&snap.view, vec![alices], true).apply(&env, &delegated(&env));
    assert_eq!(got.ter, Ter::terNO_PERMISSION);
    // bob's gets past checkSponsor to the delegate's permission...
    let got = Overlay::new(&snap.view, vec![bobs.clone()], true).apply(&env, &delegated(&env));
    assert_eq!(got.ter, Ter::terNO_DELEGATE_PERMISSION);
    // Co-signed, the sponsor pays instead of the delegate.
    let grant = delegate_payment(&bob);
    env.apply(&alice, grant, Ter::tesSUCCESS);
    // ...and with it, to the fee: bob's entry holds no FeeAmount.
    let snap = env.store.current();
    let got = Overlay::new(&snap.view, vec![bobs], true).apply(&env, &delegated(&env));
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    let (a0, b0, s0) = (
        env.balance(&alice),
        env.balance(&bob),
        env.balance(&sponsor),
    );
    let tx = fee_sponsored_payment(&sponsor, &carol).account("Delegate", &bob.id);
    let mut o = tx.signed(&alice.id, env.seq(&alice), base, &bob.kp);
    cosign(&mut o, &SponsorSig::Single(&sponsor.kp));
    assert_eq!(apply_object(&mut env, o), Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), a0 - 100_000_000);
    assert_eq!(env.balance(&bob), b0, "the delegate pays nothing");
    assert_eq!(env.balance(&sponsor), s0 - base);
}

/// alice lets `to` send Payments for her.
fn delegate_payment(to: &Account) -> Tx {
    use ledgerd::protocol::definitions::Field;
    let s = ledgerd::ledger::sf::sf();
    let mut p = StObject::new();
    p.set(
        s.permission_value,
        StValue::UInt32(ledgerd::protocol::permission::value_of_name("Payment").unwrap()),
    );
    let mut tx = Tx::new("DelegateSet").account("Authorize", &to.id);
    tx.0.set(
        s.permissions,
        StValue::Array(vec![(Field::named("Permission"), p)]),
    );
    tx
}

// ---------------------------------------------------------------------------------------
// Story 16: Batch. A co-signing sponsor of an inner transaction signs the Batch (it is a
// required BatchSigner); the inner carries an unsigned placeholder SponsorSignature; an
// inner's fee cannot be sponsored (the Batch pays every fee).

/// alice's Batch (AllOrNothing, Fee for `signers` BatchSigners) of `inners`, signed by
/// alice with these BatchSigners; its result and ID.
fn submit_batch(
    env: &mut Env,
    alice: &Account,
    inners: &[StObject],
    signers: &[(&Account, &ledgerd::protocol::keys::KeyPair)],
) -> (Ter, Hash256) {
    use support::batch::{batch, with_signers};
    let base = fees(env).0;
    let fee = base * (2 + inners.len() as i64) + base * signers.len() as i64;
    let seq = env.seq(alice);
    let mut o = batch(
        alice,
        seq,
        fee,
        ledgerd::engine::batch::tf::INDEPENDENT,
        inners,
    );
    if !signers.is_empty() {
        o = with_signers(o, signers);
    }
    support::payment::sign_object(&mut o, &alice.kp);
    let ter = apply_object(env, o);
    (ter, env.last_id.expect("an id"))
}

/// The results of the transactions the open ledger recorded from `id` on (the Batch and
/// the inner transactions it applied).
fn recorded_from(env: &Env, id: &Hash256) -> Vec<Ter> {
    let txs = env.store.open_txs();
    let start = txs.iter().position(|t| t.id == *id).expect("recorded");
    txs[start..].iter().map(|t| t.ter).collect()
}

/// An unsigned placeholder SponsorSignature, or one carrying `field`.
fn placeholder(with: Option<(&str, StValue)>) -> StValue {
    let mut o = StObject::new();
    o.set(
        ledgerd::ledger::sf::sf().signing_pub_key,
        StValue::Blob(Vec::new()),
    );
    if let Some((name, v)) = with {
        o.set(ledgerd::protocol::definitions::Field::named(name), v);
    }
    StValue::Object(o)
}

#[test]
fn a_cosigning_sponsor_of_an_inner_transaction_signs_the_batch() {
    use support::batch::inner;
    let mut env = env();
    let [alice, bob, sponsor] = env.funded(["alice", "bob", "sponsor"]);
    let s = ledgerd::ledger::sf::sf();
    let sponsored_inner = |env: &Env, flags: u32, sig: Option<StValue>| {
        let mut o = inner(
            sponsored(account_set(), &sponsor.id, flags),
            &bob,
            env.seq(&bob),
        );
        if let Some(sig) = sig {
            o.set(s.sponsor_signature, sig);
        }
        o
    };
    let plain = |env: &Env| inner(pay(&bob, xrp(1)), &alice, env.seq(&alice) + 1);
    let all = [(&bob, &bob.kp), (&sponsor, &sponsor.kp)];
    let mut all_sorted = all.to_vec();
    all_sorted.sort_by_key(|(a, _)| a.id);
    // A signed SponsorSignature inside: temBAD_SIGNATURE; Signers: temBAD_SIGNER; a key:
    // temBAD_REGKEY.
    let bad = [
        (
            "TxnSignature",
            StValue::Blob(vec![1, 2, 3]),
            Ter::temBAD_SIGNATURE,
        ),
        ("Signers", StValue::Array(Vec::new()), Ter::temBAD_SIGNER),
        (
            "SigningPubKey",
            StValue::Blob(sponsor.kp.public.as_bytes().to_vec()),
            Ter::temBAD_REGKEY,
        ),
    ];
    for (name, v, want) in bad {
        let inners = [
            plain(&env),
            sponsored_inner(
                &env,
                SPF_SPONSOR_RESERVE,
                Some(placeholder(Some((name, v)))),
            ),
        ];
        let (got, _) = submit_batch(&mut env, &alice, &inners, &all_sorted);
        assert_eq!(got, want, "{name}");
    }
    // A fee-sponsored inner: temINVALID_FLAG (the Batch pays every fee).
    let inners = [
        plain(&env),
        sponsored_inner(&env, FEE_AND_RESERVE, Some(placeholder(None))),
    ];
    let (got, _) = submit_batch(&mut env, &alice, &inners, &all_sorted);
    assert_eq!(got, Ter::temINVALID_FLAG);
    // The placeholder without the sponsor among the BatchSigners: temBAD_SIGNER.
    let inners = [
        plain(&env),
        sponsored_inner(&env, SPF_SPONSOR_RESERVE, Some(placeholder(None))),
    ];
    let (got, _) = submit_batch(&mut env, &alice, &inners, &[(&bob, &bob.kp)]);
    assert_eq!(got, Ter::temBAD_SIGNER);
    // A sponsor among the BatchSigners that no inner names: temBAD_SIGNER too.
    let inners = [
        plain(&env),
        sponsored_inner(&env, SPF_SPONSOR_RESERVE, None),
    ];
    let (got, _) = submit_batch(&mut env, &alice, &inners, &all_sorted);
    assert_eq!(got, Ter::temBAD_SIGNER);
    // With the sponsor signing the Batch: both inners apply; the sponsor pays nothing
    // (the Batch's fee is alice's), bob's sequence moves.
    let (a0, b0, s0) = (
        env.balance(&alice),
        env.balance(&bob),
        env.balance(&sponsor),
    );
    let bseq = env.seq(&bob);
    let inners = [
        plain(&env),
        sponsored_inner(&env, SPF_SPONSOR_RESERVE, Some(placeholder(None))),
    ];
    let (got, id) = submit_batch(&mut env, &alice, &inners, &all_sorted);
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(
        recorded_from(&env, &id),
        vec![Ter::tesSUCCESS, Ter::tesSUCCESS, Ter::tesSUCCESS]
    );
    let fee = fees(&env).0 * (2 + 2 + 2);
    assert_eq!(env.balance(&alice), a0 - fee - 1_000_000);
    assert_eq!(env.balance(&bob), b0 + 1_000_000);
    assert_eq!(env.balance(&sponsor), s0);
    assert_eq!(env.seq(&bob), bseq + 1);
    // A pre-funded inner without a Sponsorship fails its preclaim (terNO_PERMISSION):
    // the Independent Batch keeps only alice's payment.
    let inners = [
        plain(&env),
        sponsored_inner(&env, SPF_SPONSOR_RESERVE, None),
    ];
    let (got, id) = submit_batch(&mut env, &alice, &inners, &[(&bob, &bob.kp)]);
    assert_eq!(got, Ter::tesSUCCESS);
    assert_eq!(
        recorded_from(&env, &id),
        vec![Ter::tesSUCCESS, Ter::tesSUCCESS]
    );
    assert_eq!(env.seq(&bob), bseq + 1, "bob's inner did not apply");
}

// ---------------------------------------------------------------------------------------
// A pseudo-account cannot sign, so it cannot co-sign as a sponsor (checkSign: tefBAD_AUTH).

#[test]
fn a_pseudo_account_cannot_cosign_as_a_sponsor() {
    use ledgerd::protocol::types::Issue;
    let mut env = env();
    let [alice, gw, carol, key] = env.funded(["alice", "gw", "carol", "key"]);
    let inc = fees(&env).2;
    let ripple = fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE);
    env.apply(&gw, ripple, Ter::tesSUCCESS);
    let mut create = Tx::new("AMMCreate")
        .amount("Amount", xrp(100))
        .amount("Amount2", gw.iou("USD", 100))
        .amount("Fee", drops(inc));
    create.0.set(
        ledgerd::protocol::definitions::Field::named("TradingFee"),
        StValue::UInt16(0),
    );
    env.apply(&gw, create, Ter::tesSUCCESS);
    let usd = Issue {
        currency: cur("USD"),
        issuer: gw.id,
    };
    let amm = env
        .read(&ledgerd::engine::amm::amm_key(&Issue::XRP, &usd))
        .expect("the AMM");
    let pseudo = amm
        .account_of(ledgerd::ledger::sf::sf().account)
        .expect("its account");
    let a0 = env.balance(&alice);
    // Whoever signs for it (the signatures themselves are sound): multi-signed, the
    // pseudo-account is refused before its (missing) signer list is looked at, which
    // would say tefNOT_MULTI_SIGNING.
    let base = fees(&env).0;
    let tx = sponsored(pay(&carol, xrp(1)), &pseudo, SPF_SPONSOR_FEE);
    let how = SponsorSig::Multi(&[(&key, &key.kp)]);
    let got = submit_sponsored(&mut env, &alice, tx, 2 * base, how);
    assert_eq!(got, Ter::tefBAD_AUTH);
    let tx = sponsored(pay(&carol, xrp(1)), &pseudo, SPF_SPONSOR_FEE);
    let got = submit_sponsored(&mut env, &alice, tx, base, SponsorSig::Single(&key.kp));
    assert_eq!(got, Ter::tefBAD_AUTH);
    assert_eq!(env.balance(&alice), a0);
}

// ---------------------------------------------------------------------------------------
// Story 9, the fee side: a Sponsorship is preferred even when the sponsor co-signs.

#[test]
fn a_cosigned_fee_still_comes_from_an_existing_sponsorship() {
    let mut env = env();
    let [alice, sponsor] = env.funded(["alice", "sponsor"]);
    let p = Prefund {
        fee_amount: Some(10_000_000),
        remaining_owner_count: Some(100),
        ..Prefund::default()
    };
    let entry = vec![sponsorship_entry(&sponsor, &alice, p)];
    // FeeAmount 10 XRP, Fee 11 XRP: terINSUF_FEE_B, although the sponsor's own balance
    // (10,000 XRP) would cover it.
    let tx = sponsored(account_set(), &sponsor.id, FEE_AND_RESERVE);
    let how = SponsorSig::Single(&sponsor.kp);
    let got = over(&env, entry.clone(), true, &alice, tx, 11_000_000, how);
    assert_eq!(got.ter, Ter::terINSUF_FEE_B);
    // Without the entry, the same co-signed transaction is paid from that balance.
    let tx = sponsored(account_set(), &sponsor.id, FEE_AND_RESERVE);
    let how = SponsorSig::Single(&sponsor.kp);
    let got = over(&env, Vec::new(), true, &alice, tx, 11_000_000, how);
    assert_eq!(got.ter, Ter::tesSUCCESS);
    assert_eq!(
        balance_after(&env, &got, &sponsor),
        env.balance(&sponsor) - 11_000_000
    );
    assert_eq!(balance_after(&env, &got, &alice), env.balance(&alice));
}
