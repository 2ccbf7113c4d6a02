//! fixCleanup3_4_0's VaultWithdraw checks (rippled 3.4.0 `VaultWithdraw::preclaim`):
//! the CredentialIDs a withdrawal presents are validated as DepositPreauth's are and may
//! stand in for a preauthorization at a destination requiring deposit authorization; a
//! pseudo-account never receives a withdrawal (`tecPSEUDO_ACCOUNT`); a private
//! vault pays a third party only when both the submitter and the destination are in the
//! vault's permissioned domain; and (rippled develop, XLS-65.2) an amount in assets
//! redeems its shares truncated, and the payout is put on AssetsTotal's grid
//! ([`super::delta340`]).

use super::delta340::{clamp_to_total_scale, debit_is_dust};
use super::{amount_field, destination_ok, number_of, share_id, to_asset, valid_domain};
use super::{AssetAmount, Totals};
use super::{VaultAsset, LSF_VAULT_PRIVATE};
use crate::engine::credential::{authorized_by_set, ids, valid_ids};
use crate::engine::ter::Ter;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::number::Number;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// True when the ledger's rules have fixCleanup3_4_0.
pub fn fix340(view: &dyn ReadView) -> bool {
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

/// With fixCleanup3_4_0 a withdrawal of `shares` that does not burn every one (the
/// final one pays out AssetsAvailable) pays `assets` only when the vault's books notice
/// them: an amount in shares worth nothing of a vault that still has value, or a debit
/// AssetsTotal or AssetsAvailable would not notice, is `tecPRECISION_LOSS`; the payout
/// is then rounded down to the grid of the AssetsTotal it leaves.
pub fn payout(
    view: &dyn ReadView,
    tx: &StObject,
    vault: &StObject,
    t: &Totals,
    shares: u64,
    assets: AssetAmount,
) -> Result<AssetAmount, Ter> {
    let burns_all = Number::from_i64(i64::try_from(shares).unwrap_or(i64::MAX)) == t.shares;
    if !fix340(view) || burns_all {
        return Ok(assets);
    }
    let s = sf();
    let asset = assets.asset();
    let (total, available) = (
        number_of(vault, s.assets_total),
        number_of(vault, s.assets_available),
    );
    let taken = assets.number();
    if taken.is_zero() {
        let in_shares = matches!(amount_field(tx), Some(AssetAmount::Mpt(id, _)) if Some(id) == share_id(vault));
        if in_shares && !(t.assets - t.loss).is_zero() {
            return Err(Ter::tecPRECISION_LOSS);
        }
        return Ok(assets);
    }
    if debit_is_dust(&asset, total, taken) || debit_is_dust(&asset, available, taken) {
        return Err(Ter::tecPRECISION_LOSS);
    }
    let clamped = clamp_to_total_scale(total, &asset, -taken)?;
    to_asset(&asset, clamped).ok_or(Ter::tecPATH_DRY)
}
