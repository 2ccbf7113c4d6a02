//! Transactions sent with a `Delegate` (rippled `Transactor::checkPermission`,
//! `DelegateUtils.cpp`): the delegate signs and pays the fee; the account's Delegate entry
//! for it must hold the transaction's type, or granular permissions covering exactly what
//! the transaction does (the type's own `checkPermission`, its registry row's
//! `granular`). DelegateSet writes the entries.

pub mod delegate_set;

use super::ter::Ter;
use crate::engine::directory::remove_owned;
use crate::engine::entry::release;
use crate::engine::sandbox::Sandbox;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::permission::{granular_value, of_tx_type};
use crate::protocol::st::StObject;
use crate::protocol::st::StValue;
use crate::protocol::types::AccountId;
use crate::protocol::types::Hash256;

/// Most permissions one DelegateSet may give (rippled `permissionMaxSize`).
pub const DELEGATE_PERMISSIONS_MAX: usize = 10;

const DENIED: Ter = Ter::terNO_DELEGATE_PERMISSION;

/// `checkPermission`: without a Delegate field, nothing to check.
pub fn check_permission(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(delegate) = tx.account_of(sf().delegate) else {
        return Ter::tesSUCCESS;
    };
    let Some(entry) = view.read(&keylet::delegate(account, &delegate)) else {
        return DENIED;
    };
    let held = permission_values(&entry);
    let tx_type = tx.u16_of(sf().transaction_type).unwrap_or(u16::MAX);
    if held.contains(&of_tx_type(tx_type)) {
        return Ter::tesSUCCESS;
    }
    let has = |name: &str| granular_value(name).is_some_and(|v| held.contains(&v));
    let allowed = super::registry::transactor(tx_type)
        .and_then(|t| t.rules.granular)
        .is_some_and(|granted| granted(view, tx, account, &has));
    if allowed {
        Ter::tesSUCCESS
    } else {
        DENIED
    }
}

/// The Permissions array of a transaction or a Delegate entry (empty when absent).
pub fn permissions(o: &StObject) -> &[(Field, StObject)] {
    match o.get(sf().permissions) {
        Some(StValue::Array(a)) => a,
        _ => &[],
    }
}

/// The PermissionValues of an object's Permissions array.
pub fn permission_values(o: &StObject) -> Vec<u32> {
    permissions(o)
        .iter()
        .map(|(_, p)| p.u32_of(sf().permission_value).unwrap_or(0))
        .collect()
}

/// Removes the Delegate entry `key` from its owner's directory and the ledger, giving
/// back the owner count (rippled `DelegateSet::deleteDelegate`).
pub fn delete_delegate(sb: &mut Sandbox, key: &Hash256) -> Ter {
    let s = sf();
    let Some(entry) = sb.peek(key) else {
        return Ter::tecINTERNAL;
    };
    let owner = entry.account_of(s.account).unwrap_or_default();
    let page = entry.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, page, key, false) {
        return Ter::tefBAD_LEDGER;
    }
    if !sb.exists(&keylet::account(&owner)) {
        return Ter::tecINTERNAL;
    }
    release(sb, &owner, &entry, 1);
    sb.erase(*key);
    Ter::tesSUCCESS
}
