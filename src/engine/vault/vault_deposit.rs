//! VaultDeposit (rippled `VaultDeposit.cpp`): the depositor gives the vault some of its
//! asset and receives newly issued shares; the first deposit (AssetsTotal zero) gets
//! `assets * 10^Scale` shares, a later one its pro-rata part, truncated. A private
//! vault takes deposits only from its owner and members of its permissioned domain.
//! With fixCleanup3_4_0 the assets moved are on AssetsTotal's grid ([`delta340`]).

use super::delta340;
use super::phase::{self, VaultPhase};
use super::precision;
use super::vault_math::{self, Unfit};
use super::LSF_VAULT_PRIVATE;
use super::{
    add_share_token, amount_field, asset_can_transfer, asset_frozen, asset_held,
    asset_require_auth, named_vault, number_of, read_vault, send_asset, set_number, share_id,
    vault_id, AssetAmount, Totals, VaultAsset,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptId;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    super::preflight_amount(tx)
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let (vault, asset, share) = named_vault(view, tx)?;
    // LendingProtocolV1_1: a closed-ended vault takes deposits only while it subscribes.
    if view.info().rules.enabled(Feature::LendingProtocolV1_1)
        && matches!(
            phase::phase(view, &vault),
            VaultPhase::Investment | VaultPhase::Redemption
        )
    {
        return Err(Ter::tecEXPIRED);
    }
    let Some(amount) = amount_field(tx).filter(|a| a.asset() == asset) else {
        return Err(Ter::tecWRONG_ASSET);
    };
    let pseudo = vault.account_of(s.account).unwrap_or_default();
    asset_can_transfer(view, &asset, account, &pseudo).into_result()?;
    let Some(iss) = crate::engine::mpt::issuance(view, &share) else {
        return Err(Ter::tefINTERNAL);
    };
    if view.info().rules.enabled(Feature::FixCleanup3_3_0) {
        super::freeze::check_deposit_freeze(view, account, &pseudo, &asset)?;
    } else {
        asset_frozen(view, account, &asset).into_result()?;
        if crate::engine::mpt::is_any_locked(view, &share, &[*account]) {
            return Err(Ter::tecLOCKED);
        }
    }
    // fixCleanup3_4_0: a deep freeze on either side of the depositor's line
    // (`checkDeepFrozen`; before, the holder's own deep freeze left it unfunded).
    if view.info().rules.enabled(Feature::FixCleanup3_4_0) && asset.issuer() != Some(*account) {
        super::freeze::deep(view, account, &asset)?;
    }
    if vault.flags() & LSF_VAULT_PRIVATE != 0 && vault.account_of(s.owner) != Some(*account) {
        domain_member(view, &iss, account).into_result()?;
    }
    asset_require_auth(view, &asset, account, true).into_result()?;
    let fix320 = view.info().rules.enabled(Feature::FixCleanup3_2_0);
    let rounded = if fix320 {
        precision::round_to_vault_scale(number_of(&vault, s.assets_total), &amount)
    } else {
        amount
    };
    if rounded.is_zero() {
        return Err(Ter::tecPRECISION_LOSS);
    }
    // The asset's issuer creates what it deposits.
    let issuer_deposits = asset.issuer() == Some(*account);
    let held = match asset {
        VaultAsset::Token(issue) if !issue.is_xrp() => precision::spendable(view, account, &issue),
        _ => asset_held(view, account, &asset),
    };
    if !issuer_deposits && held < rounded.number() {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    if let (true, false, VaultAsset::Token(issue)) = (fix320, issuer_deposits, asset) {
        // A deposit below the last digit of the depositor's balance would leave it as it
        // was.
        let scale = precision::spendable_scale(view, account, &issue);
        if precision::is_zero_at_scale(&asset, amount.number(), scale) {
            return Err(Ter::tecPRECISION_LOSS);
        }
    }
    Ok(())
}

/// A private vault's depositor must be in the share issuance's domain (`validDomain`);
/// without a domain only the owner may deposit.
fn domain_member(view: &dyn ReadView, iss: &StObject, account: &AccountId) -> Ter {
    let Some(domain) = iss.h256_of(sf().domain_id) else {
        return Ter::tecNO_AUTH;
    };
    match super::valid_domain(view, &domain, account) {
        Ter::tecEXPIRED => Ter::tesSUCCESS,
        t => t,
    }
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
    let (Some(share), Some(pseudo), Some(amount)) = (
        share_id(&vault),
        vault.account_of(s.account),
        amount_field(ctx.tx),
    ) else {
        return Err(Ter::tefINTERNAL);
    };
    holder_token(ctx, &vault, &share).into_result()?;
    let Some(iss) = crate::engine::mpt::issuance(&ctx.sb, &share) else {
        return Err(Ter::tefINTERNAL);
    };
    let amount = if ctx.sb.info().rules.enabled(Feature::FixCleanup3_2_0) {
        precision::round_to_vault_scale(number_of(&vault, s.assets_total), &amount)
    } else {
        amount
    };
    if amount.is_zero() {
        return Err(Ter::tecINTERNAL);
    }
    let totals = Totals::of(&vault, &iss);
    let (shares, assets) = exchange(&totals, &amount)?;
    let assets = deterministic_delta(ctx, &vault, assets)?;
    let total = number_of(&vault, s.assets_total) + assets.number();
    let available = number_of(&vault, s.assets_available) + assets.number();
    set_number(&mut vault, s.assets_total, total);
    set_number(&mut vault, s.assets_available, available);
    let maximum = number_of(&vault, s.assets_maximum);
    if !maximum.is_zero() && total > maximum {
        return Err(Ter::tecLIMIT_EXCEEDED);
    }
    ctx.sb.update(key, vault);
    send_asset(&mut ctx.sb, &ctx.account, &pseudo, &assets).into_result()?;
    if !ctx.sb.info().rules.enabled(Feature::FixCleanup3_2_0) {
        // rippled's old sanity check: a deposit that took the depositor's line below zero
        // (which preclaim allows up to the issuer's limit toward it) is tefINTERNAL.
        // fixCleanup3_2_0 drops it; XRP and MPT balances never fall below zero.
        if let AssetAmount::Token(a) = &assets {
            let issue = a.issue();
            if !issue.is_xrp()
                && crate::engine::funds::account_holds(&ctx.sb, &ctx.account, &issue, false)
                    .is_negative()
            {
                return Err(Ter::tefINTERNAL);
            }
        }
    }
    crate::engine::mpt::send(&mut ctx.sb, &share, &pseudo, &ctx.account, shares).into_result()
}

/// fixCleanup3_4_0 (XLS-65.2): the assets the shares cost, put on the grid of the
/// AssetsTotal they join (the share count stays); nothing left, or a debit the
/// depositor's balance would not notice, is `tecPRECISION_LOSS`.
fn deterministic_delta(
    ctx: &ApplyContext,
    vault: &StObject,
    assets: AssetAmount,
) -> Result<AssetAmount, Ter> {
    if !ctx.sb.info().rules.enabled(Feature::FixCleanup3_4_0) {
        return Ok(assets);
    }
    let asset = assets.asset();
    let total = number_of(vault, sf().assets_total);
    let clamped = delta340::clamp_to_total_scale(total, &asset, assets.number())?;
    let assets = super::to_asset(&asset, clamped).ok_or(Ter::tecPATH_DRY)?;
    if delta340::rounds_to_zero_for_depositor(&ctx.sb, &ctx.account, &assets) {
        return Err(Ter::tecPRECISION_LOSS);
    }
    Ok(assets)
}

/// Shares created for `amount`, and the assets they cost (never more than offered).
/// rippled's try block: an overflow (of the arithmetic, or of a share count or an amount
/// past what an STAmount holds) is `tecPATH_DRY`; drops past 10^17 escape it
/// (`tefEXCEPTION`).
fn exchange(t: &Totals, amount: &AssetAmount) -> Result<(u64, AssetAmount), Ter> {
    let offered = amount.number();
    let r = exchange_guts(t, amount, offered);
    if crate::engine::amm::amm_math::faulted() {
        return Err(Ter::tecPATH_DRY);
    }
    r
}

fn exchange_guts(
    t: &Totals,
    amount: &AssetAmount,
    offered: Number,
) -> Result<(u64, AssetAmount), Ter> {
    let shares = t.shares_for_deposit(offered).map_err(Unfit::ter)?;
    if shares == 0 {
        return Err(Ter::tecPRECISION_LOSS);
    }
    let assets =
        vault_math::assets(&amount.asset(), t.assets_for_deposit(shares)).map_err(Unfit::ter)?;
    if assets.number() > offered {
        return Err(Ter::tecINTERNAL);
    }
    Ok((shares, assets))
}

/// The depositor's MPToken for the shares: created when missing; on a private vault a
/// non-owner's must exist and be authorized by its domain (`enforceMPTokenAuthorization`,
/// which ledgerd applies by creating an authorized token for a domain member).
fn holder_token(ctx: &mut ApplyContext, vault: &StObject, share: &MptId) -> Ter {
    let t = add_share_token(&mut ctx.sb, share, &ctx.account, ctx.prior_balance);
    if t != Ter::tesSUCCESS || vault.flags() & LSF_VAULT_PRIVATE == 0 {
        return t;
    }
    let key = keylet::mptoken(share, &ctx.account);
    if let Some(mut token) = ctx.sb.peek(&key) {
        if token.flags() & lsf_mpt::AUTHORIZED == 0 {
            let f = token.flags() | lsf_mpt::AUTHORIZED;
            token.set(sf().flags, StValue::UInt32(f));
            ctx.sb.update(key, token);
        }
    }
    Ter::tesSUCCESS
}
