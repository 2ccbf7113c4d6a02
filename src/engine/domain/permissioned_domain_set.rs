//! PermissionedDomainSet (rippled `PermissionedDomainSet.cpp`): an account creates a
//! PermissionedDomain, an owned entry listing the credentials (issuer, type) it accepts,
//! or replaces the list of one it owns (`DomainID`). The list is stored sorted.

use super::domain_at;
use super::DOMAIN_CREDENTIALS_MAX;
use crate::engine::credential::{array_of, check_array, pairs, set_value, sorted};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, balance_drops, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// checkExtraFeatures: a domain is a set of credentials: Credentials.
pub fn extra_features(_tx: &StObject, rules: &Rules) -> bool {
    rules.enabled(Feature::Credentials)
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    check_array(
        array_of(tx, s.accepted_credentials).unwrap_or_default(),
        DOMAIN_CREDENTIALS_MAX,
    )
    .into_result()?;
    if tx.get(s.domain_id).is_some() && tx.h256_of(s.domain_id).is_none_or(|d| d.is_zero()) {
        return Err(Ter::temMALFORMED);
    }
    Ok(())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    for (issuer, _) in pairs(array_of(tx, s.accepted_credentials).unwrap_or_default()) {
        if view.read(&keylet::account(&issuer)).is_none() {
            return Ter::tecNO_ISSUER;
        }
    }
    if let Some(id) = tx.h256_of(s.domain_id) {
        let Some(domain) = domain_at(view, &id) else {
            return Ter::tecNO_ENTRY;
        };
        if domain.account_of(s.owner) != Some(*account) {
            return Ter::tecNO_PERMISSION;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let account = ctx.account;
    let Some(set) = sorted(pairs(
        array_of(ctx.tx, s.accepted_credentials).unwrap_or_default(),
    )) else {
        return Ter::tefINTERNAL;
    };
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tefINTERNAL;
    };
    if let Some(id) = ctx.tx.h256_of(s.domain_id) {
        let Some(mut domain) = ctx.sb.peek(&id) else {
            return Ter::tefINTERNAL;
        };
        domain.set(s.accepted_credentials, set_value(&set));
        ctx.sb.update(id, domain);
        return Ter::tesSUCCESS;
    }
    if balance_drops(&root) < ctx.sb.info().fees.reserve_of(&root, 1, 0) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    // fixCleanup3_1_3: a domain created with a ticket is keyed by the ticket (rippled's
    // `getSeqValue`); before it, by the Sequence field, 0 for a ticketed transaction.
    let seq = if ctx.sb.info().rules.enabled(Feature::FixCleanup3_1_3) {
        crate::engine::mpt::seq_proxy(ctx.tx)
    } else {
        ctx.tx.u32_of(s.sequence).unwrap_or(0)
    };
    let key = keylet::permissioned_domain(&account, seq);
    let mut entry = with_threading(new_entry(lt::PERMISSIONED_DOMAIN));
    entry.set(s.owner, StValue::AccountId(account));
    entry.set(s.sequence, StValue::UInt32(seq));
    entry.set(s.accepted_credentials, set_value(&set));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.owner_node, StValue::UInt64(page));
    adjust_owner_count(&mut ctx.sb, &account, 1);
    ctx.sb.insert(key, entry);
    Ter::tesSUCCESS
}
