//! VaultDelete (rippled `VaultDelete.cpp`): the owner deletes an empty vault, with its
//! share issuance, the owner's share token, the pseudo-account's asset line and the
//! pseudo-account itself. With fixCleanup3_4_0 it first deletes the credentials issued
//! to the pseudo-account, which it can neither accept nor delete and which would keep
//! its directory (`tecHAS_OBLIGATIONS` before the fix).

use super::remove_line;
use super::vault_id;
use super::{asset_of, number_of, read_vault, remove_share_token, share_id};
use super::{DATA_LEN_MAX, PSEUDO_CREDENTIALS_DELETE_MAX};
use crate::engine::credential::{credential_at, delete_credential};
use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::registry::field_allowed;
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptId;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// `MemoData` needs LendingProtocolV1_1 (`temDISABLED`). rippled checks this in
/// preflight, after the VaultID (`temMALFORMED` first), hence the pass for a missing one.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    vault_id(tx).is_none() || field_allowed(tx, sf().memo_data, rules, Feature::LendingProtocolV1_1)
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if vault_id(tx).is_none() {
        return Ter::temMALFORMED;
    }
    // LendingProtocolV1_1's MemoData, never stored: 1 to 256 bytes (`validDataLength`).
    if tx
        .blob_of(sf().memo_data)
        .is_some_and(|m| m.is_empty() || m.len() > DATA_LEN_MAX)
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
    if !number_of(&vault, s.assets_available).is_zero()
        || !number_of(&vault, s.assets_total).is_zero()
    {
        return Ter::tecHAS_OBLIGATIONS;
    }
    let Some(iss) = share_id(&vault).and_then(|id| crate::engine::mpt::issuance(view, &id)) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    if iss.account_of(s.issuer) != vault.account_of(s.account) {
        return Ter::tecNO_PERMISSION;
    }
    if iss.u64_of(s.outstanding_amount).unwrap_or(0) != 0 {
        return Ter::tecHAS_OBLIGATIONS;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some(key) = vault_id(ctx.tx) else {
        return Err(Ter::tefINTERNAL);
    };
    let Some(vault) = read_vault(&ctx.sb, &key) else {
        return Err(Ter::tefINTERNAL);
    };
    let (Some(pseudo), Some(owner), Some(share), Some(issue)) = (
        vault.account_of(s.account),
        vault.account_of(s.owner),
        share_id(&vault),
        asset_of(&vault),
    ) else {
        return Err(Ter::tefINTERNAL);
    };
    if ctx.sb.info().rules.enabled(Feature::FixCleanup3_4_0) {
        delete_pinned_credentials(&mut ctx.sb, &pseudo)?;
    }
    remove_line(&mut ctx.sb, &pseudo, &issue)?;
    remove_issuance(&mut ctx.sb, &pseudo, &share).into_result()?;
    if ctx.sb.exists(&keylet::owner_dir(&pseudo)) {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    ctx.sb.erase(keylet::account(&pseudo));
    remove_share_token(&mut ctx.sb, &share, &owner).into_result()?;
    let page = vault.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(&mut ctx.sb, &owner, page, &key, false) {
        return Err(Ter::tefBAD_LEDGER);
    }
    adjust_owner_count(&mut ctx.sb, &owner, -1);
    ctx.sb.erase(key);
    Ok(())
}

/// fixCleanup3_4_0 (rippled `credentials::deletePseudoAccountCredentials`, develop): the
/// credentials in the pseudo-account's directory are deleted, at most
/// [`PSEUDO_CREDENTIALS_DELETE_MAX`]; with more left the vault stays and the transaction
/// is `tecINCOMPLETE`, which keeps the deletions (the pipeline deletes them again after
/// its reset), so the next VaultDelete goes on from there.
fn delete_pinned_credentials(sb: &mut Sandbox, pseudo: &AccountId) -> Result<(), Ter> {
    let pinned: Vec<_> = crate::ledger::directory::owned(sb, pseudo)
        .into_iter()
        .filter(|k| credential_at(sb, k).is_some())
        .collect();
    for key in pinned.iter().take(PSEUDO_CREDENTIALS_DELETE_MAX) {
        delete_credential(sb, key)?;
    }
    if pinned.len() > PSEUDO_CREDENTIALS_DELETE_MAX {
        return Err(Ter::tecINCOMPLETE);
    }
    Ok(())
}

/// The share issuance, out of the pseudo-account's directory.
fn remove_issuance(sb: &mut Sandbox, pseudo: &AccountId, share: &MptId) -> Ter {
    let key = keylet::mpt_issuance(share);
    let Some(iss) = sb.peek(&key) else {
        return Ter::tefINTERNAL;
    };
    let page = iss.u64_of(sf().owner_node).unwrap_or(0);
    if !remove_owned(sb, pseudo, page, &key, false) {
        return Ter::tefBAD_LEDGER;
    }
    adjust_owner_count(sb, pseudo, -1);
    sb.erase(key);
    Ter::tesSUCCESS
}
