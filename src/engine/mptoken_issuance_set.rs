//! MPTokenIssuanceSet (rippled `MPTokenIssuanceSet.cpp`, without DynamicMPT and the
//! vault's DomainID): the issuer of an issuance created with tfMPTCanLock locks or
//! unlocks it, for every holder or (with `Holder`) for one.

use super::entry::set_flags;
use super::mpt::{issuance, mptoken};
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// MPTokenIssuanceSet flags.
pub mod tf {
    /// Lock.
    pub const LOCK: u32 = 0x0000_0001;
    /// Unlock.
    pub const UNLOCK: u32 = 0x0000_0002;
    /// Bits the type may not set (`tfMPTokenIssuanceSetMask`).
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK & !(LOCK | UNLOCK);
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    // DynamicMPT's fields and the vault's DomainID: amendments this ledger does not have.
    if tx.get(s.mptoken_metadata).is_some()
        || tx.get(s.transfer_fee).is_some()
        || tx.has("DomainID")
    {
        return Ter::temDISABLED;
    }
    let flags = tx.flags();
    if flags & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if flags & tf::LOCK != 0 && flags & tf::UNLOCK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.mpt_id_of(s.mpt_issuance_id).is_none() {
        return Ter::temMALFORMED;
    }
    if tx.account_of(s.holder) == Some(*account) {
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
    if !iss.is_flag(lsf_mpt::CAN_LOCK) {
        return Ter::tecNO_PERMISSION;
    }
    if iss.account_of(s.issuer) != Some(*account) {
        return Ter::tecNO_PERMISSION;
    }
    if let Some(holder) = tx.account_of(s.holder) {
        if view.read(&keylet::account(&holder)).is_none() {
            return Ter::tecNO_DST;
        }
        if mptoken(view, &id, &holder).is_none() {
            return Ter::tecOBJECT_NOT_FOUND;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(id) = ctx.tx.mpt_id_of(s.mpt_issuance_id) else {
        return Ter::tecINTERNAL;
    };
    let key = match ctx.tx.account_of(s.holder) {
        Some(holder) => keylet::mptoken(&id, &holder),
        None => keylet::mpt_issuance(&id),
    };
    let Some(mut entry) = ctx.sb.peek(&key) else {
        return Ter::tecINTERNAL;
    };
    let flags = ctx.tx.flags();
    if flags & tf::LOCK != 0 {
        set_flags(&mut entry, lsf_mpt::LOCKED, 0);
    } else if flags & tf::UNLOCK != 0 {
        set_flags(&mut entry, 0, lsf_mpt::LOCKED);
    }
    ctx.sb.update(key, entry);
    Ter::tesSUCCESS
}
