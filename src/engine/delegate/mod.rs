//! Transactions sent with a `Delegate` (rippled `Transactor::checkPermission`,
//! `DelegateUtils.cpp` and the types' own `checkPermission`): the delegate signs and
//! pays the fee; the account's Delegate entry for it must hold the transaction's type,
//! or granular permissions covering exactly what the transaction does.

pub mod delegate_set;

use super::ter::Ter;
use super::transactor::TF_UNIVERSAL_MASK;
use super::tx_type::TxType;
use super::{mpt::mptoken_issuance_set, trust::trust_set};
use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::sandbox::Sandbox;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::permission::{granular_value, of_tx_type};
use crate::protocol::st::StObject;
use crate::protocol::st::StValue;
use crate::protocol::types::AccountId;
use crate::protocol::types::Hash256;

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
    let allowed = match tx_type {
        t if t == TxType::Payment as u16 => payment_allowed(tx, account, &has),
        t if t == TxType::TrustSet as u16 => trust_set_allowed(view, tx, account, &has),
        t if t == TxType::AccountSet as u16 => account_set_allowed(tx, &has),
        t if t == TxType::MPTokenIssuanceSet as u16 => mpt_set_allowed(tx, &has),
        _ => false,
    };
    if allowed {
        Ter::tesSUCCESS
    } else {
        DENIED
    }
}

/// Payment: PaymentMint for an issued amount the account issues, PaymentBurn for one
/// the destination issues.
fn payment_allowed(tx: &StObject, account: &AccountId, has: &dyn Fn(&str) -> bool) -> bool {
    let Some(Amount::Iou { issuer, .. }) = tx.amount_of(sf().amount) else {
        return false;
    };
    (has("PaymentMint") && issuer == *account)
        || (has("PaymentBurn") && tx.account_of(sf().destination) == Some(issuer))
}

/// TrustSet: only authorizing, freezing or unfreezing an existing line, with its limit
/// and qualities unchanged, each flag with its granular permission.
fn trust_set_allowed(
    view: &dyn ReadView,
    tx: &StObject,
    account: &AccountId,
    has: &dyn Fn(&str) -> bool,
) -> bool {
    let s = sf();
    let flags = tx.flags();
    let granted = trust_set::tf::SET_AUTH | trust_set::tf::SET_FREEZE | trust_set::tf::CLEAR_FREEZE;
    if flags & TF_UNIVERSAL_MASK & !granted != 0 {
        return false;
    }
    if tx.get(s.quality_in).is_some() || tx.get(s.quality_out).is_some() {
        return false;
    }
    let Some(Amount::Iou {
        value,
        currency,
        issuer,
    }) = tx.amount_of(s.limit_amount)
    else {
        return false;
    };
    let Some(line) = view.read(&keylet::line(account, &issuer, &currency)) else {
        return false;
    };
    for (bit, name) in [
        (trust_set::tf::SET_AUTH, "TrustlineAuthorize"),
        (trust_set::tf::SET_FREEZE, "TrustlineFreeze"),
        (trust_set::tf::CLEAR_FREEZE, "TrustlineUnfreeze"),
    ] {
        if flags & bit != 0 && !has(name) {
            return false;
        }
    }
    let side = if *account > issuer {
        s.high_limit
    } else {
        s.low_limit
    };
    matches!(line.amount_of(side), Some(Amount::Iou { value: v, currency: c, .. })
        if v == value && c == currency)
}

/// AccountSet: no flags; Domain, EmailHash, MessageKey, TransferRate and TickSize each
/// with its granular permission; never WalletLocator or NFTokenMinter.
fn account_set_allowed(tx: &StObject, has: &dyn Fn(&str) -> bool) -> bool {
    let s = sf();
    if tx.u32_of(s.set_flag).unwrap_or(0) != 0
        || tx.u32_of(s.clear_flag).unwrap_or(0) != 0
        || tx.flags() & TF_UNIVERSAL_MASK != 0
    {
        return false;
    }
    if tx.get(s.wallet_locator).is_some() || tx.get(s.nftoken_minter).is_some() {
        return false;
    }
    [
        (s.email_hash, "AccountEmailHashSet"),
        (s.message_key, "AccountMessageKeySet"),
        (s.domain, "AccountDomainSet"),
        (s.transfer_rate, "AccountTransferRateSet"),
        (s.tick_size, "AccountTickSizeSet"),
    ]
    .iter()
    .all(|(field, name)| tx.get(*field).is_none() || has(name))
}

/// MPTokenIssuanceSet: locking with MPTokenIssuanceLock, unlocking with
/// MPTokenIssuanceUnlock.
fn mpt_set_allowed(tx: &StObject, has: &dyn Fn(&str) -> bool) -> bool {
    let flags = tx.flags();
    if flags & mptoken_issuance_set::tf::MASK != 0 {
        return false;
    }
    (flags & mptoken_issuance_set::tf::LOCK == 0 || has("MPTokenIssuanceLock"))
        && (flags & mptoken_issuance_set::tf::UNLOCK == 0 || has("MPTokenIssuanceUnlock"))
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
    adjust_owner_count(sb, &owner, -1);
    sb.erase(*key);
    Ter::tesSUCCESS
}
