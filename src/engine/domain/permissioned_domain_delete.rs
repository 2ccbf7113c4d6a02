//! PermissionedDomainDelete (rippled `PermissionedDomainDelete.cpp`): the owner deletes
//! its PermissionedDomain and gets its reserve back.

use super::domain_at;
use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match tx.h256_of(sf().domain_id) {
        Some(d) if !d.is_zero() => Ter::tesSUCCESS,
        _ => Ter::temMALFORMED,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(id) = tx.h256_of(s.domain_id) else {
        return Ter::temMALFORMED;
    };
    let Some(domain) = domain_at(view, &id) else {
        return Ter::tecNO_ENTRY;
    };
    if domain.account_of(s.owner) != Some(*account) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let account = ctx.account;
    let Some(id) = ctx.tx.h256_of(s.domain_id) else {
        return Ter::tefINTERNAL;
    };
    let Some(domain) = ctx.sb.peek(&id) else {
        return Ter::tefINTERNAL;
    };
    let page = domain.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(&mut ctx.sb, &account, page, &id, true) {
        return Ter::tefBAD_LEDGER;
    }
    adjust_owner_count(&mut ctx.sb, &account, -1);
    ctx.sb.erase(id);
    Ter::tesSUCCESS
}
