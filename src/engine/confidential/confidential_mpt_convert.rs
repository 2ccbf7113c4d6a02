//! ConfidentialMPTConvert (rippled `ConfidentialMPTConvert.cpp`): a holder moves part of
//! its public balance into its confidential inbox. The amount is public; its encryptions
//! under the holder's, issuer's (and auditor's) keys reveal their blinding factor so every
//! server checks they encrypt it. The first Convert registers the holder's key with a
//! proof of knowledge of its secret key (the amount may then be zero) and sets up the
//! confidential balances, the spending one at the canonical zero.

use super::{
    add_into, auditor_matches, auditor_party, canonical_zero, check_encrypted_amount_format,
    check_locked, holder_preflight, party, proved, set_ciphertext, set_u64_default, Binding,
};
use crate::engine::mpt::{holds, issuance, mptoken, require_auth};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::confidential::{self as ct, KEY_PROOF_SIZE};
use crate::protocol::mpt::{MptId, MPT_AMOUNT_MAX};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let t = holder_preflight(tx, account);
    if t != Ter::tesSUCCESS {
        return t;
    }
    if tx.u64_of(s.mpt_amount).unwrap_or(0) > MPT_AMOUNT_MAX {
        return Ter::temBAD_AMOUNT;
    }
    let proof = tx.blob_of(s.zk_proof);
    match tx.blob_of(s.holder_encryption_key) {
        Some(key) if !ct::is_valid_point(key) => return Ter::temMALFORMED,
        Some(_) if proof.is_none_or(|p| p.len() != KEY_PROOF_SIZE) => return Ter::temMALFORMED,
        None if proof.is_some() => return Ter::temMALFORMED,
        _ => {}
    }
    check_encrypted_amount_format(tx)
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::temMALFORMED)?;
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    let iss = issuance(view, &id).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    let confidential = iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE);
    if !confidential || iss.get(s.issuer_encryption_key).is_none() {
        return Err(Ter::tecNO_PERMISSION);
    }
    if iss.account_of(s.issuer) == Some(*account) {
        return Err(Ter::tefINTERNAL);
    }
    if !auditor_matches(&iss, tx) {
        return Err(Ter::tecNO_PERMISSION);
    }
    let token = mptoken(view, &id, account).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    // Explicit: a zero amount would pass the balance check below when locked or
    // unauthorized.
    check_locked(view, &id, account).into_result()?;
    require_auth(view, &id, account).into_result()?;
    if holds(view, account, &id, true) < amount {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    let on_ledger = token.get(s.holder_encryption_key).is_some();
    match (on_ledger, tx.get(s.holder_encryption_key).is_some()) {
        (false, false) => return Err(Ter::tecNO_PERMISSION),
        (true, true) => return Err(Ter::tecDUPLICATE),
        _ => {}
    }
    verify(tx, &iss, &token, &Binding::of(tx, account, &id))
}

/// The proof of the key being registered, and the revealed amount under every key; all
/// checked whatever fails first, so the time taken tells nothing (`tecBAD_PROOF`).
fn verify(tx: &StObject, iss: &StObject, token: &StObject, b: &Binding) -> Result<(), Ter> {
    let s = sf();
    let key_ok = match (tx.blob_of(s.holder_encryption_key), tx.blob_of(s.zk_proof)) {
        (Some(key), Some(proof)) => {
            let context = ct::convert_context_hash(&b.account, &b.issuance, b.sequence);
            ct::verify_key_proof(proof, key, &context)
        }
        _ => true,
    };
    let key_source = if tx.get(s.holder_encryption_key).is_some() {
        tx
    } else {
        token
    };
    let holder = party(
        key_source,
        s.holder_encryption_key,
        tx,
        s.holder_encrypted_amount,
    );
    let issuer = party(iss, s.issuer_encryption_key, tx, s.issuer_encrypted_amount);
    let blinding = tx.h256_of(s.blinding_factor).unwrap_or_default();
    let amount_ok = ct::verify_revealed_amount(
        tx.u64_of(s.mpt_amount).unwrap_or(0),
        &blinding.0,
        holder,
        issuer,
        auditor_party(iss, tx),
    );
    proved(key_ok & amount_ok)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::tecINTERNAL)?;
    let (tkey, ikey) = (keylet::mptoken(&id, &account), keylet::mpt_issuance(&id));
    let mut token = ctx.sb.peek(&tkey).ok_or(Ter::tecINTERNAL)?;
    let mut iss = ctx.sb.peek(&ikey).ok_or(Ter::tecINTERNAL)?;
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    if let Some(key) = tx.blob_of(s.holder_encryption_key) {
        token.set(s.holder_encryption_key, StValue::Blob(key.to_vec()));
    }
    let coa = iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0);
    if amount > MPT_AMOUNT_MAX - coa.min(MPT_AMOUNT_MAX) {
        return Err(Ter::tecINTERNAL);
    }
    let public = token.u64_of(s.mpt_amount).unwrap_or(0);
    set_u64_default(&mut token, s.mpt_amount, public.saturating_sub(amount));
    set_u64_default(&mut iss, s.confidential_outstanding_amount, coa + amount);
    credit_inbox(&mut token, tx, &account, &id)?;
    ctx.sb.update(ikey, iss);
    ctx.sb.update(tkey, token);
    Ok(())
}

/// Adds the amount's ciphertexts to the token's balances, or sets them up on the first
/// Convert (the spending balance at the canonical zero); a token with only some of them
/// is `tecINTERNAL`.
fn credit_inbox(
    token: &mut StObject,
    tx: &StObject,
    account: &AccountId,
    id: &MptId,
) -> Result<(), Ter> {
    let s = sf();
    let holder = tx.blob_of(s.holder_encrypted_amount).unwrap_or_default();
    let issuer = tx.blob_of(s.issuer_encrypted_amount).unwrap_or_default();
    let auditor = tx.blob_of(s.auditor_encrypted_amount);
    let main = [
        s.issuer_encrypted_balance,
        s.confidential_balance_inbox,
        s.confidential_balance_spending,
    ];
    let present = main.iter().filter(|f| token.get(**f).is_some()).count();
    let audited = token.get(s.auditor_encrypted_balance).is_some();
    if present == main.len() {
        add_into(token, s.confidential_balance_inbox, holder)?;
        add_into(token, s.issuer_encrypted_balance, issuer)?;
        if let Some(a) = auditor {
            if !audited {
                return Err(Ter::tecINTERNAL);
            }
            add_into(token, s.auditor_encrypted_balance, a)?;
        }
        return Ok(());
    }
    if present > 0 || audited {
        return Err(Ter::tecINTERNAL);
    }
    token.set(s.confidential_balance_inbox, StValue::Blob(holder.to_vec()));
    token.set(s.issuer_encrypted_balance, StValue::Blob(issuer.to_vec()));
    token.remove(s.confidential_balance_version);
    if let Some(a) = auditor {
        token.set(s.auditor_encrypted_balance, StValue::Blob(a.to_vec()));
    }
    let zero = canonical_zero(token, s.holder_encryption_key, account, id)?;
    set_ciphertext(token, s.confidential_balance_spending, zero);
    Ok(())
}
