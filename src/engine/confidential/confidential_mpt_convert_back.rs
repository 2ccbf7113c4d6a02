//! ConfidentialMPTConvertBack (rippled `ConfidentialMPTConvertBack.cpp`): a holder moves
//! part of its confidential spending balance back to its public balance. The amount is
//! public and revealed under every key as in a Convert; the proof shows the holder owns
//! the spending balance (a Pedersen commitment to it, `BalanceCommitment`) and that what
//! remains is not negative (a range proof).

use super::{
    auditor_matches, auditor_party, check_encrypted_amount_format, check_locked, holder_preflight,
    increment_version, party, proved, set_u64_default, subtract_from, version_of, Binding,
};
use crate::engine::mpt::{issuance, mptoken, require_auth};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::confidential::{self as ct, CONVERT_BACK_PROOF_SIZE};
use crate::protocol::mpt::MPT_AMOUNT_MAX;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let t = holder_preflight(tx, account);
    if t != Ter::tesSUCCESS {
        return t;
    }
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    if amount == 0 || amount > MPT_AMOUNT_MAX {
        return Ter::temBAD_AMOUNT;
    }
    let commitment = tx.blob_of(s.balance_commitment).unwrap_or_default();
    if !ct::is_valid_point(commitment) {
        return Ter::temMALFORMED;
    }
    let t = check_encrypted_amount_format(tx);
    if t != Ter::tesSUCCESS {
        return t;
    }
    if tx.blob_of(s.zk_proof).unwrap_or_default().len() != CONVERT_BACK_PROOF_SIZE {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::temMALFORMED)?;
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    let iss = issuance(view, &id).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if !iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE) || !auditor_matches(&iss, tx) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if iss.account_of(s.issuer) == Some(*account) {
        return Err(Ter::tefINTERNAL);
    }
    let token = mptoken(view, &id, account).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    let ready = token.get(s.confidential_balance_spending).is_some()
        && token.get(s.holder_encryption_key).is_some();
    if !ready {
        return Err(Ter::tecNO_PERMISSION);
    }
    if iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0) < amount {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    check_locked(view, &id, account).into_result()?;
    require_auth(view, &id, account).into_result()?;
    verify(tx, &iss, &token, &Binding::of(tx, account, &id))
}

/// The revealed amount under every key, and the proof of the remaining balance; both
/// checked whatever fails first (`tecBAD_PROOF`).
fn verify(tx: &StObject, iss: &StObject, token: &StObject, b: &Binding) -> Result<(), Ter> {
    let s = sf();
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    let holder = party(
        token,
        s.holder_encryption_key,
        tx,
        s.holder_encrypted_amount,
    );
    let issuer = party(iss, s.issuer_encryption_key, tx, s.issuer_encrypted_amount);
    let blinding = tx.h256_of(s.blinding_factor).unwrap_or_default();
    let revealed_ok =
        ct::verify_revealed_amount(amount, &blinding.0, holder, issuer, auditor_party(iss, tx));
    let context =
        ct::convert_back_context_hash(&b.account, &b.issuance, b.sequence, version_of(token));
    let proof_ok = ct::verify_convert_back_proof(
        tx.blob_of(s.zk_proof).unwrap_or_default(),
        holder.key,
        token
            .blob_of(s.confidential_balance_spending)
            .unwrap_or_default(),
        tx.blob_of(s.balance_commitment).unwrap_or_default(),
        amount,
        &context,
    );
    proved(revealed_ok & proof_ok)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::tecINTERNAL)?;
    let (tkey, ikey) = (
        keylet::mptoken(&id, &ctx.account),
        keylet::mpt_issuance(&id),
    );
    let mut token = ctx.sb.peek(&tkey).ok_or(Ter::tecINTERNAL)?;
    let mut iss = ctx.sb.peek(&ikey).ok_or(Ter::tecINTERNAL)?;
    let amount = tx.u64_of(s.mpt_amount).unwrap_or(0);
    let public = token.u64_of(s.mpt_amount).unwrap_or(0);
    let coa = iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0);
    set_u64_default(&mut token, s.mpt_amount, public.saturating_add(amount));
    set_u64_default(
        &mut iss,
        s.confidential_outstanding_amount,
        coa.saturating_sub(amount),
    );
    let holder = tx.blob_of(s.holder_encrypted_amount).unwrap_or_default();
    subtract_from(&mut token, s.confidential_balance_spending, holder)?;
    let issuer = tx.blob_of(s.issuer_encrypted_amount).unwrap_or_default();
    subtract_from(&mut token, s.issuer_encrypted_balance, issuer)?;
    if let Some(a) = tx.blob_of(s.auditor_encrypted_amount) {
        subtract_from(&mut token, s.auditor_encrypted_balance, a)?;
    }
    increment_version(&mut token);
    ctx.sb.update(ikey, iss);
    ctx.sb.update(tkey, token);
    Ok(())
}
