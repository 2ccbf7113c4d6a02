//! MPTokenIssuanceDestroy (rippled `MPTokenIssuanceDestroy.cpp`): the issuer deletes an
//! issuance nobody holds any of (OutstandingAmount zero). Holders' empty MPTokens may
//! outlive it; they delete them with MPTokenAuthorize.

use super::issuance;
use crate::engine::directory::remove_owned;
use crate::engine::entry::release;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.mpt_id_of(sf().mpt_issuance_id).is_none() {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(id) = tx.mpt_id_of(s.mpt_issuance_id) else {
        return Ter::temMALFORMED;
    };
    let Some(iss) = issuance(view, &id) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    if iss.account_of(s.issuer) != Some(*account) {
        return Ter::tecNO_PERMISSION;
    }
    if iss.u64_of(s.outstanding_amount).unwrap_or(0) != 0 {
        return Ter::tecHAS_OBLIGATIONS;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(id) = ctx.tx.mpt_id_of(s.mpt_issuance_id) else {
        return Ter::tecINTERNAL;
    };
    let key = keylet::mpt_issuance(&id);
    let Some(iss) = ctx.sb.peek(&key) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let account = ctx.account;
    if iss.account_of(s.issuer) != Some(account) {
        return Ter::tecNO_PERMISSION;
    }
    if iss.u64_of(s.outstanding_amount).unwrap_or(0) != 0 {
        return Ter::tecHAS_OBLIGATIONS;
    }
    let page = iss.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(&mut ctx.sb, &account, page, &key, false) {
        return Ter::tefBAD_LEDGER;
    }
    ctx.sb.erase(key);
    release(&mut ctx.sb, &account, &iss, 1);
    Ter::tesSUCCESS
}
