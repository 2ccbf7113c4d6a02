//! VaultSet (rippled `VaultSet.cpp`): the owner changes a vault's Data, AssetsMaximum (not
//! below AssetsTotal unless zero, which lifts the cap) or, on a private vault, the share
//! issuance's DomainID (a zero DomainID removes it).

use super::vault_id;
use super::LSF_VAULT_PRIVATE;
use super::{is_negative_number, number_of, read_vault, set_number, share_id, DATA_LEN_MAX};
use crate::engine::registry::field_allowed;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// checkExtraFeatures: a `DomainID` needs PermissionedDomains.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    field_allowed(tx, sf().domain_id, rules, Feature::PermissionedDomains)
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if vault_id(tx).is_none() {
        return Ter::temMALFORMED;
    }
    if tx
        .blob_of(s.data)
        .is_some_and(|d| d.is_empty() || d.len() > DATA_LEN_MAX)
    {
        return Ter::temMALFORMED;
    }
    if is_negative_number(tx, s.assets_maximum) {
        return Ter::temMALFORMED;
    }
    if [s.domain_id, s.assets_maximum, s.data]
        .iter()
        .all(|f| tx.get(*f).is_none())
    {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(vault) = vault_id(tx).and_then(|k| read_vault(view, &k)) else {
        return Ter::tecNO_ENTRY;
    };
    if vault.account_of(s.owner) != Some(*account) {
        return Ter::tecNO_PERMISSION;
    }
    let Some(iss) = share_id(&vault).and_then(|id| crate::engine::mpt::issuance(view, &id)) else {
        return Ter::tefINTERNAL;
    };
    if let Some(domain) = tx.h256_of(s.domain_id) {
        if vault.flags() & LSF_VAULT_PRIVATE == 0 {
            return Ter::tecNO_PERMISSION;
        }
        let is_domain =
            |o: &StObject| o.u16_of(s.ledger_entry_type) == Some(lt::PERMISSIONED_DOMAIN);
        if domain != Hash256::ZERO && !view.read(&domain).is_some_and(|o| is_domain(&o)) {
            return Ter::tecOBJECT_NOT_FOUND;
        }
        if iss.flags() & lsf_mpt::REQUIRE_AUTH == 0 {
            return Ter::tefINTERNAL;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let Some(key) = vault_id(tx) else {
        return Ter::tefINTERNAL;
    };
    let Some(mut vault) = read_vault(&ctx.sb, &key) else {
        return Ter::tefINTERNAL;
    };
    let Some(share) = share_id(&vault) else {
        return Ter::tefINTERNAL;
    };
    if let Some(d) = tx.blob_of(s.data) {
        vault.set(s.data, StValue::Blob(d.to_vec()));
    }
    if tx.get(s.assets_maximum).is_some() {
        let max = number_of(tx, s.assets_maximum);
        if !max.is_zero() && max < number_of(&vault, s.assets_total) {
            return Ter::tecLIMIT_EXCEEDED;
        }
        set_number(&mut vault, s.assets_maximum, max);
    }
    if let Some(domain) = tx.h256_of(s.domain_id) {
        let ikey = keylet::mpt_issuance(&share);
        let Some(mut iss) = ctx.sb.peek(&ikey) else {
            return Ter::tefINTERNAL;
        };
        if domain == Hash256::ZERO {
            iss.remove(s.domain_id);
        } else {
            iss.set(s.domain_id, StValue::Hash256(domain));
        }
        ctx.sb.update(ikey, iss);
    }
    ctx.sb.update(key, vault);
    Ter::tesSUCCESS
}
