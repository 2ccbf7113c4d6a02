//! ConfidentialMPTClawback (rippled `ConfidentialMPTClawback.cpp`): the issuer of an
//! issuance with lsfMPTCanClawback takes a holder's whole confidential balance (inbox and
//! spending). It names the amount and proves, with its own secret key, that the mirror
//! of the holder's balance under its key encrypts exactly that; every balance restarts at
//! the canonical zero and the tokens leave circulation.

use super::{canonical_zero, increment_version, proved, set_ciphertext, Binding};
use crate::engine::mpt::{issuance, mptoken};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::confidential::{self as ct, CLAWBACK_PROOF_SIZE};
use crate::protocol::mpt::MPT_AMOUNT_MAX;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let (Some(id), Some(holder)) = (tx.mpt_id_of(s.mpt_issuance_id), tx.account_of(s.holder))
    else {
        return Ter::temMALFORMED;
    };
    if id.issuer() != *account || holder == *account {
        return Ter::temMALFORMED;
    }
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    if amount == 0 || amount > MPT_AMOUNT_MAX {
        return Ter::temBAD_AMOUNT;
    }
    if tx.blob_of(s.zk_proof).unwrap_or_default().len() != CLAWBACK_PROOF_SIZE {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if view.read(&keylet::account(account)).is_none() {
        return Err(Ter::terNO_ACCOUNT);
    }
    let holder = tx.account_of(s.holder).ok_or(Ter::temMALFORMED)?;
    if view.read(&keylet::account(&holder)).is_none() {
        return Err(Ter::tecNO_TARGET);
    }
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::temMALFORMED)?;
    let iss = issuance(view, &id).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if iss.account_of(s.issuer) != Some(*account) {
        return Err(Ter::tefINTERNAL);
    }
    let allowed = iss.get(s.issuer_encryption_key).is_some()
        && iss.is_flag(lsf_mpt::CAN_CLAWBACK)
        && iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE);
    if !allowed {
        return Err(Ter::tecNO_PERMISSION);
    }
    let token = mptoken(view, &id, &holder).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    let mirror = token.blob_of(s.issuer_encrypted_balance);
    if mirror.is_none() || token.get(s.holder_encryption_key).is_none() {
        return Err(Ter::tecNO_PERMISSION);
    }
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    if amount > iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0) {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    let b = Binding::of(tx, account, &id);
    let context = ct::clawback_context_hash(&b.account, &b.issuance, b.sequence, &holder.0);
    let ok = ct::verify_clawback_proof(
        tx.blob_of(s.zk_proof).unwrap_or_default(),
        amount,
        iss.blob_of(s.issuer_encryption_key).unwrap_or_default(),
        mirror.unwrap_or_default(),
        &context,
    );
    proved(ok)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let id = ctx
        .tx
        .mpt_id_of(s.mpt_issuance_id)
        .ok_or(Ter::tecINTERNAL)?;
    let holder = ctx.tx.account_of(s.holder).ok_or(Ter::tecINTERNAL)?;
    let (tkey, ikey) = (keylet::mptoken(&id, &holder), keylet::mpt_issuance(&id));
    let mut token = ctx.sb.peek(&tkey).ok_or(Ter::tecINTERNAL)?;
    let mut iss = ctx.sb.peek(&ikey).ok_or(Ter::tecINTERNAL)?;
    let holder_zero = canonical_zero(&token, s.holder_encryption_key, &holder, &id)?;
    let issuer_zero = canonical_zero(&iss, s.issuer_encryption_key, &holder, &id)?;
    set_ciphertext(&mut token, s.confidential_balance_inbox, holder_zero);
    set_ciphertext(&mut token, s.confidential_balance_spending, holder_zero);
    set_ciphertext(&mut token, s.issuer_encrypted_balance, issuer_zero);
    increment_version(&mut token);
    if token.get(s.auditor_encrypted_balance).is_some() {
        let zero = canonical_zero(&iss, s.auditor_encryption_key, &holder, &id)?;
        set_ciphertext(&mut token, s.auditor_encrypted_balance, zero);
    }
    let amount = ctx.tx.u64_of(s.mpt_amount).unwrap_or(0);
    let coa = iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0);
    let out = iss.u64_of(s.outstanding_amount).unwrap_or(0);
    super::set_u64_default(
        &mut iss,
        s.confidential_outstanding_amount,
        coa.saturating_sub(amount),
    );
    iss.set(
        s.outstanding_amount,
        StValue::UInt64(out.saturating_sub(amount)),
    );
    ctx.sb.update(tkey, token);
    ctx.sb.update(ikey, iss);
    Ok(())
}
