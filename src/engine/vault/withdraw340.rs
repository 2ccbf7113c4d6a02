//! fixCleanup3_4_0's VaultWithdraw checks (rippled 3.4.0 `VaultWithdraw::preclaim`):
//! the CredentialIDs a withdrawal presents are validated as DepositPreauth's are and may
//! stand in for a preauthorization at a destination requiring deposit authorization; a
//! pseudo-account never receives a withdrawal (`tecPSEUDO_ACCOUNT`); and a private
//! vault pays a third party only when both the submitter and the destination are in the
//! vault's permissioned domain.

use super::{destination_ok, valid_domain, VaultAsset, LSF_VAULT_PRIVATE};
use crate::engine::credential::{authorized_by_set, ids, valid_ids};
use crate::engine::ter::Ter;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

fn fix340(view: &dyn ReadView) -> bool {
    view.info().rules.enabled(Feature::FixCleanup3_4_0)
}

/// `credentials::valid` (the IDs name accepted credentials of the submitter; a
/// transaction without CredentialIDs passes), then, with fixCleanup3_4_0, a
/// pseudo-account destination is `tecPSEUDO_ACCOUNT`.
pub fn credentials_and_destination(
    view: &dyn ReadView,
    tx: &StObject,
    account: &AccountId,
    dst: &AccountId,
) -> Result<(), Ter> {
    valid_ids(view, tx, account).into_result()?;
    if fix340(view) && super::is_pseudo_account(view, dst) {
        return Err(Ter::tecPSEUDO_ACCOUNT);
    }
    Ok(())
}

/// `canWithdraw`'s destination checks for a third party: a destination requiring deposit
/// authorization that has not preauthorized the submitter accepts the presented
/// credentials when it preauthorized them as a set (`authorizedDepositPreauth`).
pub fn destination_accepts(
    view: &dyn ReadView,
    tx: &StObject,
    dst: &AccountId,
    account: &AccountId,
) -> Ter {
    match destination_ok(view, dst, account) {
        Ter::tecNO_PERMISSION if tx.get(sf().credential_ids).is_some() => {
            authorized_by_set(view, &ids(tx), dst)
        }
        t => t,
    }
}

/// With fixCleanup3_4_0, a private vault's assets paid to a third party (not the
/// submitter, not the asset's issuer) need both ends in the share issuance's domain
/// (`checkVaultDomain`, an expired credential not tolerated): `tecNO_AUTH` without a
/// domain or a credential, `tecEXPIRED` when only expired ones remain.
pub fn private_payout(
    view: &dyn ReadView,
    vault: &StObject,
    asset: &VaultAsset,
    account: &AccountId,
    dst: &AccountId,
) -> Result<(), Ter> {
    if !fix340(view)
        || vault.flags() & LSF_VAULT_PRIVATE == 0
        || dst == account
        || asset.issuer() == Some(*dst)
    {
        return Ok(());
    }
    let share = super::share_id(vault).ok_or(Ter::tefINTERNAL)?;
    let iss = crate::engine::mpt::issuance(view, &share).ok_or(Ter::tefINTERNAL)?;
    let Some(domain) = iss.h256_of(sf().domain_id) else {
        return Err(Ter::tecNO_AUTH);
    };
    valid_domain(view, &domain, account).into_result()?;
    valid_domain(view, &domain, dst).into_result()
}
