//! Confidential MPTs (XLS-96, amendment ConfidentialTransfer; rippled
//! `ConfidentialMPT*.cpp`): holders of an issuance with lsfMPTCanHoldConfidentialBalance
//! keep part of their balance as ElGamal ciphertexts, under their own key and mirrored
//! under the issuer's (and an auditor's) key.
//!
//! - [`confidential_mpt_convert`]: public balance into the inbox (registers the key).
//! - [`confidential_mpt_merge_inbox`]: the inbox into the spending balance.
//! - [`confidential_mpt_convert_back`]: the spending balance back to the public one.
//! - [`confidential_mpt_send`]: spending balance to another holder's inbox.
//! - [`confidential_mpt_clawback`]: the issuer takes a holder's whole confidential balance.
//!
//! `ConfidentialOutstandingAmount` on the issuance counts what is held confidentially, so
//! the holders' public balances plus it make OutstandingAmount. Every cryptographic check
//! goes through `protocol::confidential`; every proof is bound to its transaction by a
//! context hash of the account, the issuance and the sequence (or ticket).

pub mod confidential_mpt_clawback;
pub mod confidential_mpt_convert;
pub mod confidential_mpt_convert_back;
pub mod confidential_mpt_merge_inbox;
pub mod confidential_mpt_send;

use super::mpt::{is_any_locked, seq_proxy};
use super::ter::Ter;
use super::transactor::TF_UNIVERSAL_MASK;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::confidential::{self as ct, Participant, CIPHERTEXT_SIZE};
use crate::protocol::definitions::Field;
use crate::protocol::mpt::MptId;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// The reference fees a confidential transaction pays beyond the usual one
/// (`kConfidentialFeeMultiplier`): proofs are costly to verify.
pub const EXTRA_FEE_UNITS: u64 = 9;

/// The registry's `BaseFee::PlusUnits` for the five types.
pub fn extra_fee_units(_tx: &StObject) -> u64 {
    EXTRA_FEE_UNITS
}

/// What a context hash binds: the account, the issuance and the sequence or ticket.
pub struct Binding {
    /// The transaction's account.
    pub account: [u8; 20],
    /// The issuance.
    pub issuance: [u8; 24],
    /// Its Sequence, or its TicketSequence (`getSeqProxy().value()`).
    pub sequence: u32,
}

impl Binding {
    /// The binding of `tx`, sent by `account`, for issuance `id`.
    pub fn of(tx: &StObject, account: &AccountId, id: &MptId) -> Binding {
        Binding {
            account: account.0,
            issuance: id.0,
            sequence: seq_proxy(tx),
        }
    }
}

/// The preflight a holder's transaction opens with: no flag (`temINVALID_FLAG`), an
/// issuance, and a sender that is not its issuer (`temMALFORMED`).
pub fn holder_preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match tx.mpt_id_of(sf().mpt_issuance_id) {
        Some(id) if id.issuer() != *account => Ter::tesSUCCESS,
        _ => Ter::temMALFORMED,
    }
}

/// Every proof held (`tecBAD_PROOF` otherwise); the caller checked them all first, so the
/// time taken tells nothing of which failed.
pub fn proved(all_hold: bool) -> Result<(), Ter> {
    if all_hold {
        Ok(())
    } else {
        Err(Ter::tecBAD_PROOF)
    }
}

/// `checkEncryptedAmountFormat` (Convert, ConvertBack): the holder's and issuer's
/// ciphertexts, and the auditor's when present, are 66 bytes of two valid points
/// (`temBAD_CIPHERTEXT`).
pub fn check_encrypted_amount_format(tx: &StObject) -> Ter {
    let s = sf();
    let (Some(holder), Some(issuer)) = (
        tx.blob_of(s.holder_encrypted_amount),
        tx.blob_of(s.issuer_encrypted_amount),
    ) else {
        return Ter::temMALFORMED;
    };
    let auditor = tx.blob_of(s.auditor_encrypted_amount);
    let all = [Some(holder), Some(issuer), auditor];
    let present = all.iter().flatten();
    if present.clone().any(|c| c.len() != CIPHERTEXT_SIZE) {
        return Ter::temBAD_CIPHERTEXT;
    }
    if present.clone().any(|c| !ct::is_valid_ciphertext(c)) {
        return Ter::temBAD_CIPHERTEXT;
    }
    Ter::tesSUCCESS
}

/// `checkFrozen` for an MPT: the issuance or the account's token is locked (`tecLOCKED`).
pub fn check_locked(view: &dyn ReadView, id: &MptId, account: &AccountId) -> Ter {
    if is_any_locked(view, id, &[*account]) {
        Ter::tecLOCKED
    } else {
        Ter::tesSUCCESS
    }
}

/// The transaction carries an auditor's ciphertext exactly when the issuance has an
/// auditor (`tecNO_PERMISSION` otherwise).
pub fn auditor_matches(issuance: &StObject, tx: &StObject) -> bool {
    let s = sf();
    issuance.get(s.auditor_encryption_key).is_some() == tx.get(s.auditor_encrypted_amount).is_some()
}

/// The auditor's party to a transaction's amount, when the issuance has one.
pub fn auditor_party<'a>(issuance: &'a StObject, tx: &'a StObject) -> Option<Participant<'a>> {
    let s = sf();
    Some(Participant {
        key: issuance.blob_of(s.auditor_encryption_key)?,
        ciphertext: tx.blob_of(s.auditor_encrypted_amount)?,
    })
}

/// A party: the key read from `key_of` at `key`, the ciphertext from `tx` at `amount`.
pub fn party<'a>(
    key_of: &'a StObject,
    key: Field,
    tx: &'a StObject,
    amount: Field,
) -> Participant<'a> {
    Participant {
        key: key_of.blob_of(key).unwrap_or_default(),
        ciphertext: tx.blob_of(amount).unwrap_or_default(),
    }
}

/// The token holds confidential state (a balance field), which keeps it from deletion
/// (`MPTokenEntry::hasObligations`).
pub fn has_confidential_state(token: &StObject) -> bool {
    let s = sf();
    [
        s.confidential_balance_inbox,
        s.confidential_balance_spending,
        s.issuer_encrypted_balance,
        s.auditor_encrypted_balance,
    ]
    .iter()
    .any(|f| token.get(*f).is_some())
}

/// Writes a ciphertext.
pub fn set_ciphertext(o: &mut StObject, f: Field, c: [u8; CIPHERTEXT_SIZE]) {
    o.set(f, StValue::Blob(c.to_vec()));
}

/// `a ⊕ b` of the ciphertext at `f` and `delta`, written back; `tecINTERNAL` when either
/// is not a ciphertext or the sum meets infinity.
pub fn add_into(o: &mut StObject, f: Field, delta: &[u8]) -> Result<(), Ter> {
    let sum = ct::add_ciphertexts(o.blob_of(f).unwrap_or_default(), delta);
    set_ciphertext(o, f, sum.ok_or(Ter::tecINTERNAL)?);
    Ok(())
}

/// `a ⊖ b` of the ciphertext at `f` and `delta`, written back (`tecINTERNAL` as
/// [`add_into`]).
pub fn subtract_from(o: &mut StObject, f: Field, delta: &[u8]) -> Result<(), Ter> {
    let diff = ct::subtract_ciphertexts(o.blob_of(f).unwrap_or_default(), delta);
    set_ciphertext(o, f, diff.ok_or(Ter::tecINTERNAL)?);
    Ok(())
}

/// The canonical encryption of zero under the key at `key_of[key]` for (`holder`, `id`).
pub fn canonical_zero(
    key_of: &StObject,
    key: Field,
    holder: &AccountId,
    id: &MptId,
) -> Result<[u8; CIPHERTEXT_SIZE], Ter> {
    let key = key_of.blob_of(key).ok_or(Ter::tecINTERNAL)?;
    ct::canonical_zero(key, &holder.0, &id.0).ok_or(Ter::tecINTERNAL)
}

/// A soeDEFAULT UInt64: zero leaves the field out.
pub fn set_u64_default(o: &mut StObject, f: Field, v: u64) {
    if v == 0 {
        o.remove(f);
    } else {
        o.set(f, StValue::UInt64(v));
    }
}

/// A soeDEFAULT UInt32: zero leaves the field out.
fn set_u32_default(o: &mut StObject, f: Field, v: u32) {
    if v == 0 {
        o.remove(f);
    } else {
        o.set(f, StValue::UInt32(v));
    }
}

/// `incrementConfidentialVersion`: proofs made against the old spending balance no longer
/// verify (the counter wraps, as rippled's unsigned arithmetic does).
pub fn increment_version(token: &mut StObject) {
    let f = sf().confidential_balance_version;
    let v = token.u32_of(f).unwrap_or(0).wrapping_add(1);
    set_u32_default(token, f, v);
}

/// The token's ConfidentialBalanceVersion (zero when absent).
pub fn version_of(token: &StObject) -> u32 {
    token.u32_of(sf().confidential_balance_version).unwrap_or(0)
}
