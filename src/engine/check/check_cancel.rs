//! CheckCancel (rippled `CancelCheck.cpp`): its writer or its destination may cancel a
//! check at any time; anyone may cancel an expired one.

use super::{check_at, expired, remove_check};
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
    if super::check_id_malformed(tx) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(check) = tx.h256_of(s.check_id).and_then(|k| check_at(view, &k)) else {
        return Ter::tecNO_ENTRY;
    };
    let party = check.account_of(s.account) == Some(*account)
        || check.account_of(s.destination) == Some(*account);
    if !party && !expired(view, check.u32_of(s.expiration)) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let Some(key) = ctx.tx.h256_of(sf().check_id) else {
        return Ter::tecNO_ENTRY;
    };
    let Some(check) = check_at(&ctx.sb, &key) else {
        return Ter::tecNO_ENTRY;
    };
    remove_check(&mut ctx.sb, &key, &check)
}
