//! DelegateSet (rippled `DelegateSet.cpp`): `Account` gives `Authorize` the listed
//! permissions (transaction types and granular permissions) in one Delegate entry it
//! owns; a new list replaces the old, an empty list deletes the entry. AccountDelete
//! removes the account's Delegate entries with it.

use super::delete_delegate;
use super::permission_values;
use super::permissions;
use super::DELEGATE_PERMISSIONS_MAX;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{check_reserve, new_entry, own_new, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::permission;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// preflight: at most ten permissions, not to oneself, no duplicates, each delegatable.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some(authorize) = tx.account_of(sf().authorize) else {
        return Ter::temMALFORMED;
    };
    if !matches!(tx.get(sf().permissions), Some(StValue::Array(_))) {
        return Ter::temMALFORMED;
    }
    let values = permission_values(tx);
    if values.len() > DELEGATE_PERMISSIONS_MAX {
        return Ter::temARRAY_TOO_LARGE;
    }
    if authorize == *account {
        return Ter::temMALFORMED;
    }
    let mut seen = std::collections::HashSet::new();
    for v in values {
        if !seen.insert(v)
            || !permission::is_delegatable(v, |c| crate::engine::registry::transactor(c).is_some())
        {
            return Ter::temMALFORMED;
        }
    }
    Ter::tesSUCCESS
}

/// preclaim: the authorized account must exist.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    match tx.account_of(sf().authorize) {
        Some(a) if view.read(&keylet::account(&a)).is_some() => Ter::tesSUCCESS,
        _ => Ter::tecNO_TARGET,
    }
}

/// doApply: replace, delete (empty list) or create the Delegate entry.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let account = ctx.account;
    let authorize = ctx.tx.account_of(s.authorize).unwrap_or_default();
    let key = keylet::delegate(&account, &authorize);
    let list = permissions(ctx.tx).to_vec();
    if let Some(mut entry) = ctx.sb.peek(&key) {
        if list.is_empty() {
            return delete_delegate(&mut ctx.sb, &key);
        }
        entry.set(s.permissions, StValue::Array(list));
        ctx.sb.update(key, entry);
        return Ter::tesSUCCESS;
    }
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tefINTERNAL;
    };
    if let Err(t) = check_reserve(
        &ctx.sb,
        ctx.tx,
        &root,
        ctx.prior_balance,
        (1, 0),
        Ter::tecINSUFFICIENT_RESERVE,
    ) {
        return t;
    }
    if list.is_empty() {
        return Ter::tesSUCCESS;
    }
    create(ctx, key, authorize, list)
}

fn create(
    ctx: &mut ApplyContext,
    key: Hash256,
    authorize: AccountId,
    list: Vec<(Field, StObject)>,
) -> Ter {
    let s = sf();
    let account = ctx.account;
    let mut entry = with_threading(new_entry(lt::DELEGATE));
    entry.set(s.account, StValue::AccountId(account));
    entry.set(s.authorize, StValue::AccountId(authorize));
    entry.set(s.permissions, StValue::Array(list));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.owner_node, StValue::UInt64(page));
    own_new(&mut ctx.sb, ctx.tx, &account, (key, entry), 1);
    Ter::tesSUCCESS
}
