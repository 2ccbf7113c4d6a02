//! DepositPreauth (rippled `DepositPreauth.cpp`): the account preauthorizes another to
//! deposit into it while it requires deposit authorization (`lsfDepositAuth`), or takes
//! that back. Each preauthorization is an owned entry. Credential-based preauthorization
//! (`AuthorizeCredentials`) is refused: credentials do not exist in this ledger yet.

use super::directory::{insert_owned, remove_owned};
use super::entry::{adjust_owner_count, new_entry, with_threading};
use super::sandbox::Sandbox;
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// rippled's `verifyDepositPreauth` without credentials: a destination that requires
/// deposit authorization accepts only itself and the accounts it preauthorized.
pub fn deposit_allowed(
    view: &dyn ReadView,
    dst_root: &StObject,
    src: &AccountId,
    dst: &AccountId,
) -> bool {
    !dst_root.is_flag(lsf::DEPOSIT_AUTH)
        || src == dst
        || view.read(&keylet::deposit_preauth(dst, src)).is_some()
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.get_named("AuthorizeCredentials").is_some()
        || tx.get_named("UnauthorizeCredentials").is_some()
    {
        return Ter::temDISABLED;
    }
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let target = match (tx.account_of(s.authorize), tx.account_of(s.unauthorize)) {
        (Some(a), None) | (None, Some(a)) => a,
        _ => return Ter::temMALFORMED,
    };
    if target == AccountId::ZERO {
        return Ter::temINVALID_ACCOUNT_ID;
    }
    if tx.account_of(s.authorize) == Some(*account) {
        return Ter::temCANNOT_PREAUTH_SELF;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if let Some(auth) = tx.account_of(s.authorize) {
        if view.read(&keylet::account(&auth)).is_none() {
            return Ter::tecNO_TARGET;
        }
        if view
            .read(&keylet::deposit_preauth(account, &auth))
            .is_some()
        {
            return Ter::tecDUPLICATE;
        }
    } else if let Some(unauth) = tx.account_of(s.unauthorize) {
        if view
            .read(&keylet::deposit_preauth(account, &unauth))
            .is_none()
        {
            return Ter::tecNO_ENTRY;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let account = ctx.account;
    if let Some(unauth) = ctx.tx.account_of(s.unauthorize) {
        return remove_preauth(&mut ctx.sb, &keylet::deposit_preauth(&account, &unauth));
    }
    let Some(auth) = ctx.tx.account_of(s.authorize) else {
        return Ter::tefINTERNAL;
    };
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tefINTERNAL;
    };
    let owners = root.u32_of(s.owner_count).unwrap_or(0);
    if ctx.prior_balance < ctx.sb.info().fees.account_reserve(owners.saturating_add(1)) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    let key = keylet::deposit_preauth(&account, &auth);
    let mut entry = with_threading(new_entry(lt::DEPOSIT_PREAUTH));
    entry.set(s.account, StValue::AccountId(account));
    entry.set(s.authorize, StValue::AccountId(auth));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.owner_node, StValue::UInt64(page));
    ctx.sb.insert(key, entry);
    adjust_owner_count(&mut ctx.sb, &account, 1);
    Ter::tesSUCCESS
}

/// Deletes a preauthorization and gives back its owner count (rippled
/// `DepositPreauth::removeFromLedger`; AccountDelete uses it too).
pub fn remove_preauth(sb: &mut Sandbox, key: &crate::protocol::types::Hash256) -> Ter {
    let s = sf();
    let Some(entry) = sb.peek(key) else {
        return Ter::tefINTERNAL;
    };
    let Some(owner) = entry.account_of(s.account) else {
        return Ter::tefINTERNAL;
    };
    let page = entry.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, page, key, false) {
        return Ter::tefBAD_LEDGER;
    }
    adjust_owner_count(sb, &owner, -1);
    sb.erase(*key);
    Ter::tesSUCCESS
}
