//! How a sponsored transaction is checked before it applies (rippled `Transactor.cpp`'s
//! `preflight1Sponsor`, `checkSponsor` and the sponsor's half of `checkSign`; `STTx.cpp`'s
//! `checkSign` for `SponsorSignature`).
//!
//! `SponsorSignature` is not a signing field: the sponsor signs exactly what the account
//! signs (the same single-signing or multi-signing data; under fixCleanup3_4_0 behind the
//! sponsor's own prefix), so the account's SigningPubKey, `Sponsor` and `SponsorFlags` are
//! part of what the sponsor commits to.

use super::{co_signed, entry_flags, reserve_allowed, sponsor_flags, sponsor_of, SPF_ALL};
use super::{SPF_SPONSOR_FEE, SPF_SPONSOR_RESERVE};
use crate::engine::entry::key_kind;
use crate::engine::ter::Ter;
use crate::engine::transactor::MULTI_SIGNERS_MAX;
use crate::engine::tx_type::TxType;
use crate::ledger::keylet;
use crate::ledger::rules::Rules as LedgerRules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::tx::sponsor_signing_data;
use crate::protocol::types::AccountId;

/// The transaction's `SponsorSignature` object, if it carries one.
pub fn sponsor_signature(tx: &StObject) -> Option<&StObject> {
    match tx.get(sf().sponsor_signature) {
        Some(StValue::Object(o)) => Some(o),
        _ => None,
    }
}

/// How many multi-signers sign for the sponsor (each adds one base fee,
/// `calculateBaseFee`).
pub fn signer_count(tx: &StObject) -> u64 {
    match sponsor_signature(tx).and_then(|o| o.get(sf().signers)) {
        Some(StValue::Array(a)) => a.len() as u64,
        _ => 0,
    }
}

/// rippled's `preflight1Sponsor`, at the end of preflight1, in its order: the amendment,
/// Sponsor and SponsorFlags together, a SponsorSignature only with both, known non-zero
/// flags, reserve sponsorship only for the allow-listed types, and no self-sponsorship.
pub fn preflight(tx: &StObject, rules: &LedgerRules) -> Result<(), Ter> {
    let s = sf();
    let has_sponsor = tx.get(s.sponsor).is_some();
    let has_flags = tx.get(s.sponsor_flags).is_some();
    let has_signature = tx.get(s.sponsor_signature).is_some();
    if !(has_sponsor || has_flags || has_signature) {
        return Ok(());
    }
    if !rules.enabled(Feature::Sponsor) {
        return Err(Ter::temDISABLED);
    }
    if has_sponsor != has_flags {
        return Err(Ter::temINVALID_FLAG);
    }
    if has_signature && !has_sponsor {
        return Err(Ter::temMALFORMED);
    }
    if has_flags {
        let flags = sponsor_flags(tx);
        if flags & !SPF_ALL != 0 || flags == 0 {
            return Err(Ter::temINVALID_FLAG);
        }
        let tx_type = tx.u16_of(s.transaction_type).and_then(TxType::from_code);
        if flags & SPF_SPONSOR_RESERVE != 0 && !tx_type.is_some_and(reserve_allowed) {
            return Err(Ter::temINVALID_FLAG);
        }
    }
    if has_sponsor && sponsor_of(tx) == tx.account_of(s.account) {
        return Err(Ter::temMALFORMED);
    }
    Ok(())
}

/// rippled's `checkSponsor` (preclaim, before the delegate's permission and the
/// signatures): a delegated transaction may not sponsor reserves; the sponsor must
/// exist; without its signature, a `Sponsorship(Sponsor, initiator)` must exist and not
/// ask for the signature for what the transaction sponsors. `initiator` is the Delegate
/// when there is one, else the Account.
pub fn check_sponsor(view: &dyn ReadView, tx: &StObject, initiator: &AccountId) -> Result<(), Ter> {
    let Some(sponsor) = sponsor_of(tx) else {
        return Ok(());
    };
    let flags = sponsor_flags(tx);
    if tx.get(sf().delegate).is_some() && flags & SPF_SPONSOR_RESERVE != 0 {
        return Err(Ter::temINVALID);
    }
    if view.read(&keylet::account(&sponsor)).is_none() {
        return Err(Ter::terNO_ACCOUNT);
    }
    if co_signed(tx) {
        return Ok(());
    }
    let Some(entry) = view.read(&keylet::sponsorship(&sponsor, initiator)) else {
        return Err(Ter::terNO_PERMISSION);
    };
    let demands = |tx_flag: u32, entry_flag: u32| flags & tx_flag != 0 && entry.is_flag(entry_flag);
    if demands(SPF_SPONSOR_FEE, entry_flags::REQUIRE_SIGN_FOR_FEE)
        || demands(SPF_SPONSOR_RESERVE, entry_flags::REQUIRE_SIGN_FOR_RESERVE)
    {
        return Err(Ter::terNO_PERMISSION);
    }
    Ok(())
}

/// The sponsor's half of rippled's `Transactor::checkSign`, before the account's own: a
/// pseudo-account cannot sign (`tefBAD_AUTH`); its Signers must meet its signer list's
/// quorum; a single signature must come from its regular key or its master key (not
/// disabled). Nothing to check without a SponsorSignature, or in a dry run that carries
/// neither a key nor Signers.
pub fn check_sign(view: &dyn ReadView, tx: &StObject, dry_run: bool) -> Result<(), Ter> {
    let s = sf();
    let (Some(sponsor), Some(sig)) = (sponsor_of(tx), sponsor_signature(tx)) else {
        return Ok(());
    };
    if crate::engine::vault::is_pseudo_account(view, &sponsor) {
        return Err(Ter::tefBAD_AUTH);
    }
    let key = sig.blob_of(s.signing_pub_key).unwrap_or_default();
    if let Some(StValue::Array(signers)) = sig.get(s.signers) {
        return crate::engine::transactor::check_multi_sign(view, &sponsor, signers);
    }
    if dry_run && key.is_empty() {
        return Ok(());
    }
    if key_kind(key).is_none() {
        return Err(Ter::tefBAD_AUTH);
    }
    let Some(root) = view.read(&keylet::account(&sponsor)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    crate::engine::transactor::single_key_authorizes(&root, &sponsor, key)
}

/// `STTx::checkSign` for the SponsorSignature (true when there is none): a single
/// signature (TxnSignature by a non-empty SigningPubKey over the transaction's signing
/// data, no Signers beside it) or Signers (1 to `MULTI_SIGNERS_MAX`, sorted strictly by
/// account, no TxnSignature beside them, each over the multi-signing data with its own
/// account). Unlike the account's own Signers, the sponsor may sign among its Signers.
/// Each signs the plain data, or under fixCleanup3_4_0 the sponsor form (`SPN\0` /
/// `SPM\0`), and only that one (rippled's `signingPrefix`; [`cosign_forms`] says what
/// ledgerd accepts while it lacks the amendment).
///
/// [`cosign_forms`]: crate::engine::transactor::cosign_forms
pub fn signature_valid(tx: &StObject, rules: &LedgerRules) -> bool {
    use crate::protocol::keys::PublicKey;
    use crate::protocol::sign::verify;
    let s = sf();
    let Some(sig) = sponsor_signature(tx) else {
        return true;
    };
    let allowed = crate::engine::transactor::cosign_forms(rules);
    let checks = |pk: &[u8], forms: [Vec<u8>; 2], signature: &[u8]| {
        PublicKey::from_slice_lenient(pk).is_ok_and(|k| {
            allowed
                .iter()
                .any(|&f| verify(&k, &forms[f], signature, true))
        })
    };
    let key = sig.blob_of(s.signing_pub_key).unwrap_or_default();
    if !key.is_empty() {
        if sig.get(s.signers).is_some() {
            return false;
        }
        let signature = sig.blob_of(s.txn_signature).unwrap_or_default();
        return checks(key, sponsor_signing_data(tx, None), signature);
    }
    let Some(StValue::Array(signers)) = sig.get(s.signers) else {
        return false;
    };
    if sig.get(s.txn_signature).is_some() || signers.is_empty() || signers.len() > MULTI_SIGNERS_MAX
    {
        return false;
    }
    let mut last: Option<AccountId> = None;
    signers.iter().all(|(_, signer)| {
        let (Some(id), Some(pk), Some(signature)) = (
            signer.account_of(s.account),
            signer.blob_of(s.signing_pub_key),
            signer.blob_of(s.txn_signature),
        ) else {
            return false;
        };
        let sorted = last.is_none_or(|l| l < id);
        last = Some(id);
        sorted && checks(pk, sponsor_signing_data(tx, Some(&id)), signature)
    })
}
