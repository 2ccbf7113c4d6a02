//! ConfidentialMPTMergeInbox (rippled `ConfidentialMPTMergeInbox.cpp`): a holder adds its
//! inbox, where Converts and incoming Sends land, to its spending balance, and the inbox
//! restarts at the canonical zero. Incoming transfers thus never invalidate a proof made
//! against the spending balance; the version bump invalidates those the merge does.

use super::{
    add_into, canonical_zero, check_locked, holder_preflight, increment_version, set_ciphertext,
};
use crate::engine::mpt::{issuance, mptoken, require_auth};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    holder_preflight(tx, account)
}

/// The token's fields a merge needs: inbox, spending balance and key.
fn initialized(token: &StObject) -> bool {
    let s = sf();
    [
        s.confidential_balance_inbox,
        s.confidential_balance_spending,
        s.holder_encryption_key,
    ]
    .iter()
    .all(|f| token.get(*f).is_some())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::temMALFORMED)?;
    let iss = issuance(view, &id).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if !iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if iss.account_of(s.issuer) == Some(*account) {
        return Err(Ter::tefINTERNAL);
    }
    let token = mptoken(view, &id, account).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if !initialized(&token) {
        return Err(Ter::tecNO_PERMISSION);
    }
    check_locked(view, &id, account).into_result()?;
    require_auth(view, &id, account).into_result()
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let account = ctx.account;
    let id = ctx
        .tx
        .mpt_id_of(s.mpt_issuance_id)
        .ok_or(Ter::tecINTERNAL)?;
    let key = keylet::mptoken(&id, &account);
    let mut token = ctx.sb.peek(&key).ok_or(Ter::tecINTERNAL)?;
    if !initialized(&token) {
        return Err(Ter::tecINTERNAL);
    }
    let inbox = token
        .blob_of(s.confidential_balance_inbox)
        .unwrap_or_default()
        .to_vec();
    add_into(&mut token, s.confidential_balance_spending, &inbox)?;
    let zero = canonical_zero(&token, s.holder_encryption_key, &account, &id)?;
    set_ciphertext(&mut token, s.confidential_balance_inbox, zero);
    increment_version(&mut token);
    ctx.sb.update(key, token);
    Ok(())
}
