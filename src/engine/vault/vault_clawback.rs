//! VaultClawback (rippled `VaultClawback.cpp`): the issuer of an IOU vault's asset takes
//! back what a holder's shares are worth, all of it (Amount zero or absent) or an amount
//! of assets, capped by AssetsAvailable; the shares go back to the vault.

use super::vault_id;
use super::vault_math::{self, Unfit};
use super::{
    amount_field, asset_of, number_of, read_vault, remove_share_token, send_asset, set_number,
    share_id, AssetAmount, Totals, VaultAsset,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lsf_mpt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::mpt::{MptId, MPT_AMOUNT_MAX};
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if vault_id(tx).is_none() || tx.account_of(s.holder) == Some(*account) {
        return Ter::temMALFORMED;
    }
    let asked = match tx.get(s.amount) {
        None => return Ter::tesSUCCESS,
        Some(StValue::Amount(a)) if a.is_negative() => return Ter::temBAD_AMOUNT,
        // Past 2^63 - 1 too, as for VaultDeposit (`vault_deposit::preflight`).
        Some(StValue::MptAmount(m)) if m.negative || m.value > MPT_AMOUNT_MAX => {
            return Ter::temBAD_AMOUNT
        }
        Some(_) => amount_field(tx).map(|a| a.asset()),
    };
    // Zero is valid: it means "all".
    match asked.and_then(|a| a.issuer()) {
        Some(issuer) if issuer == *account => Ter::tesSUCCESS,
        _ => Ter::temMALFORMED,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(vault) = vault_id(tx).and_then(|k| read_vault(view, &k)) else {
        return Ter::tecNO_ENTRY;
    };
    let Some(issuer) = view.read(&keylet::account(account)) else {
        return Ter::tefINTERNAL;
    };
    let Some(asset) = asset_of(&vault) else {
        return Ter::tefINTERNAL;
    };
    if amount_field(tx).is_some_and(|a| a.asset() != asset) {
        return Ter::tecWRONG_ASSET;
    }
    if asset.issuer() != Some(*account) {
        return Ter::tecNO_PERMISSION;
    }
    let allowed = match asset {
        VaultAsset::Mpt(id) => match crate::engine::mpt::issuance(view, &id) {
            None => return Ter::tecOBJECT_NOT_FOUND,
            Some(i) => i.is_flag(lsf_mpt::CAN_CLAWBACK),
        },
        VaultAsset::Token(_) => {
            issuer.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) && !issuer.is_flag(lsf::NO_FREEZE)
        }
    };
    if !allowed {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// Shares a number of assets is worth on withdrawal, as an MPT amount (rounded to
/// nearest, as an STAmount assignment).
fn shares_for(t: &Totals, assets: Number) -> Result<u64, Ter> {
    vault_math::shares(t.shares_for_withdraw(assets), false).map_err(Unfit::ter)
}

fn to_asset(asset: &VaultAsset, v: Number) -> Result<AssetAmount, Ter> {
    vault_math::assets(asset, v).map_err(Unfit::ter)
}

/// The (shares, assets) clawed back from `holder`. rippled's try block: an overflow is
/// `tecPATH_DRY`, drops past 10^17 escape it (`tefEXCEPTION`).
fn clawed(
    view: &dyn ReadView,
    t: &Totals,
    tx: &StObject,
    holder: &AccountId,
    asset: &VaultAsset,
    available: Number,
    share: &MptId,
) -> Result<(u64, AssetAmount), Ter> {
    let r = clawed_guts(view, t, tx, holder, asset, available, share);
    if crate::engine::amm::amm_math::faulted() {
        return Err(Ter::tecPATH_DRY);
    }
    r
}

fn clawed_guts(
    view: &dyn ReadView,
    t: &Totals,
    tx: &StObject,
    holder: &AccountId,
    asset: &VaultAsset,
    available: Number,
    share: &MptId,
) -> Result<(u64, AssetAmount), Ter> {
    let asked = amount_field(tx).filter(|a| !a.is_zero());
    let (mut shares, mut assets) = match asked {
        None => {
            // All the holder's shares, frozen or not.
            let held = crate::engine::mpt::holds(view, holder, share, false);
            let worth = to_asset(asset, t.assets_for_withdraw(held))?;
            // Before fixCleanup3_1_3 clawing back everything was not held to what the
            // vault has available (a loan outstanding): doApply's sanity check then
            // finds the vault's balance negative.
            if !view.info().rules.enabled(Feature::FixCleanup3_1_3) {
                return Ok((held, worth));
            }
            (held, worth)
        }
        Some(a) => (shares_for(t, a.number())?, a),
    };
    if assets.number() > available {
        assets = to_asset(asset, available)?;
        shares = shares_for(t, available)?;
    }
    Ok((shares, assets))
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some(key) = vault_id(ctx.tx) else {
        return Err(Ter::tefINTERNAL);
    };
    let Some(mut vault) = read_vault(&ctx.sb, &key) else {
        return Err(Ter::tefINTERNAL);
    };
    let (Some(share), Some(pseudo), Some(issue), Some(holder)) = (
        share_id(&vault),
        vault.account_of(s.account),
        asset_of(&vault),
        ctx.tx.account_of(s.holder),
    ) else {
        return Err(Ter::tefINTERNAL);
    };
    let Some(iss) = crate::engine::mpt::issuance(&ctx.sb, &share) else {
        return Err(Ter::tefINTERNAL);
    };
    let totals = Totals::of(&vault, &iss);
    let available = number_of(&vault, s.assets_available);
    let (shares, assets) = clawed(&ctx.sb, &totals, ctx.tx, &holder, &issue, available, &share)?;
    if shares == 0 {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    let taken = assets.number();
    let total = number_of(&vault, s.assets_total) - taken;
    set_number(&mut vault, s.assets_total, total);
    set_number(&mut vault, s.assets_available, available - taken);
    let owner = vault.account_of(s.owner);
    ctx.sb.update(key, vault);
    crate::engine::mpt::send(&mut ctx.sb, &share, &holder, &pseudo, shares).into_result()?;
    if owner != Some(holder) {
        let t = remove_share_token(&mut ctx.sb, &share, &holder);
        if t != Ter::tesSUCCESS && t != Ter::tecHAS_OBLIGATIONS {
            return Err(t);
        }
    }
    if assets.number().signum() > 0 {
        send_asset(&mut ctx.sb, &pseudo, &ctx.account, &assets).into_result()?;
        // Sanity check: the vault never ends owing its asset.
        if let VaultAsset::Token(i) = &issue {
            if crate::engine::funds::account_holds(&ctx.sb, &pseudo, i, false).is_negative() {
                return Err(Ter::tefINTERNAL);
            }
        }
    }
    Ok(())
}
