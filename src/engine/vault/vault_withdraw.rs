//! VaultWithdraw (rippled `VaultWithdraw.cpp`): the holder redeems shares for assets,
//! naming either the assets (the shares follow, then the assets those shares redeem) or
//! the shares. The assets may go to a Destination; the holder's emptied share token is
//! removed unless the holder owns the vault.

use super::vault_math::{self, Unfit};
use super::withdraw340;
use super::{
    amount_field, asset_frozen, asset_of, asset_require_auth, number_of, read_vault,
    remove_share_token, send_asset, set_number, share_id, AssetAmount, Totals, VaultAsset,
    STRATEGY_FIRST_COME_FIRST_SERVE,
};
use super::{named_vault, vault_id};
use crate::engine::ripple::{balance_for, limit_for};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lsf_mpt;
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptId;
use crate::protocol::number::Number;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// checkExtraFeatures: `CredentialIDs` need Credentials and fixCleanup3_4_0.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    tx.get(sf().credential_ids).is_none()
        || (rules.enabled(Feature::Credentials) && rules.enabled(Feature::FixCleanup3_4_0))
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    super::preflight_amount(tx).into_result()?;
    if tx.account_of(sf().destination) == Some(AccountId::ZERO) {
        return Err(Ter::temMALFORMED);
    }
    crate::engine::credential::check_ids(tx).into_result()
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let (vault, asset, share) = named_vault(view, tx)?;
    // LendingProtocolV1_1: a closed-ended vault pays nothing out while it invests.
    if view.info().rules.enabled(Feature::LendingProtocolV1_1)
        && super::phase::phase(view, &vault) == super::phase::VaultPhase::Investment
    {
        return Err(Ter::tecTOO_SOON);
    }
    let named = amount_field(tx).map(|a| a.asset());
    if named != Some(asset) && named != Some(VaultAsset::Mpt(share)) {
        return Err(Ter::tecWRONG_ASSET);
    }
    mpt_asset_transferable(view, &asset)?;
    if vault.u8_of(s.withdrawal_policy) != Some(STRATEGY_FIRST_COME_FIRST_SERVE) {
        return Err(Ter::tefINTERNAL);
    }
    let dst = tx.account_of(s.destination).unwrap_or(*account);
    withdraw340::credentials_and_destination(view, tx, account, &dst)?;
    if dst != *account {
        withdraw340::destination_accepts(view, tx, &dst, account).into_result()?;
        dst_has_room(view, tx, &vault, &asset, &share, &dst)?;
    }
    // Withdrawing to itself, the holder gets its MPToken created in doApply.
    asset_require_auth(view, &asset, &dst, dst != *account).into_result()?;
    withdraw340::private_payout(view, &vault, &asset, account, &dst)?;
    if view.info().rules.enabled(Feature::FixCleanup3_3_0) {
        let pseudo = vault.account_of(s.account).unwrap_or_default();
        return super::freeze::check_withdraw_freeze(view, &pseudo, account, &dst, &asset);
    }
    asset_frozen(view, &dst, &asset).into_result()?;
    if crate::engine::mpt::is_any_locked(view, &share, &[*account]) {
        return Err(Ter::tecLOCKED);
    }
    Ok(())
}

/// `canTransfer` of an MPT asset out of the vault: the issuance must exist
/// (`tecOBJECT_NOT_FOUND`) and allow transfers (`tecNO_AUTH`). fixCleanup3_2_0 waives the
/// second (`WaiveMPTCanTransfer`): a withdrawal is a way out, which an issuer must not be
/// able to close. (A vault's MPT allows transfers at VaultCreate and ledgerd's DynamicMPT
/// only adds capabilities, so only a unit test can show it.)
fn mpt_asset_transferable(view: &dyn ReadView, asset: &VaultAsset) -> Result<(), Ter> {
    let VaultAsset::Mpt(id) = asset else {
        return Ok(());
    };
    let Some(iss) = crate::engine::mpt::issuance(view, id) else {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    };
    let waived = view.info().rules.enabled(Feature::FixCleanup3_2_0);
    if !waived && !iss.is_flag(lsf_mpt::CAN_TRANSFER) {
        return Err(Ter::tecNO_AUTH);
    }
    Ok(())
}

/// rippled `canWithdraw`'s limit check (`withdrawToDestExceedsLimit`), for a withdrawal
/// to another account than the submitter: an issued currency goes to its issuer, or to an
/// account whose trust line has room for it (`tecNO_LINE` without a line, at or past its
/// limit, or when the amount is more than the limit less what it holds). XRP and MPTs are
/// not checked. An Amount in shares is not checked before fixCleanup3_1_3 (it is an MPT
/// amount); with it, it is checked as the assets those shares redeem.
fn dst_has_room(
    view: &dyn ReadView,
    tx: &StObject,
    vault: &StObject,
    asset: &VaultAsset,
    share: &MptId,
    dst: &AccountId,
) -> Result<(), Ter> {
    let amount = match amount_field(tx) {
        Some(AssetAmount::Mpt(id, shares)) if id == *share => {
            if !view.info().rules.enabled(Feature::FixCleanup3_1_3) {
                return Ok(());
            }
            let Some(iss) = crate::engine::mpt::issuance(view, share) else {
                return Err(Ter::tefINTERNAL);
            };
            let holder = tx.account_of(sf().account).unwrap_or_default();
            let worth = withdraw_totals(view, vault, &iss, &holder).assets_for_withdraw(shares);
            let assets = vault_math::assets(asset, worth);
            if crate::engine::amm::amm_math::faulted() {
                return Err(Ter::tecPATH_DRY);
            }
            assets.map_err(Unfit::ter)?
        }
        Some(a) => a,
        None => return Err(Ter::tefINTERNAL),
    };
    let AssetAmount::Token(Amount::Iou {
        value,
        currency,
        issuer,
    }) = amount
    else {
        return Ok(());
    };
    if *dst == issuer {
        return Ok(());
    }
    let (held, limit) = match view.read(&keylet::line(dst, &issuer, &currency)) {
        Some(line) => (
            balance_for(&line, dst, &issuer),
            limit_for(&line, dst, &issuer),
        ),
        None => (IouValue::ZERO, IouValue::ZERO),
    };
    if held.is_negative() {
        return Ok(());
    }
    let room = limit.checked_add(&held.negate());
    if held >= limit || room.is_ok_and(|r| value > r) {
        return Err(Ter::tecNO_LINE);
    }
    Ok(())
}

/// The totals a withdrawal by `holder` converts with. fixCleanup3_2_0's
/// `shouldWaiveWithdrawal`: the sole shareholder (holding every outstanding share) owns
/// the vault's future value too, so its LossUnrealized is not taken off AssetsTotal;
/// otherwise it could burn every share and leave that value stranded in the vault.
fn withdraw_totals(
    view: &dyn ReadView,
    vault: &StObject,
    iss: &StObject,
    holder: &AccountId,
) -> Totals {
    let mut totals = Totals::of(vault, iss);
    if view.info().rules.enabled(Feature::FixCleanup3_2_0) {
        let outstanding = iss.u64_of(sf().outstanding_amount).unwrap_or(0);
        let held = share_id(vault)
            .and_then(|id| crate::engine::mpt::mptoken(view, &id, holder))
            .map(|t| t.u64_of(sf().mpt_amount).unwrap_or(0));
        if outstanding != 0 && held == Some(outstanding) {
            totals.loss = Number::ZERO;
        }
    }
    totals
}

/// The shares redeemed and the assets they give, for the transaction's Amount (assets,
/// or shares when it names the share issuance). rippled's try block: an overflow (of the
/// arithmetic, or of a share count or an amount past what an STAmount holds) is
/// `tecPATH_DRY`; drops past 10^17 escape it (`tefEXCEPTION`), as when 2^63 - 1 shares
/// of an XRP vault are worth 2^63 - 1 drops.
fn exchange(
    t: &Totals,
    tx: &StObject,
    asset: &VaultAsset,
    share: &MptId,
    truncate: bool,
) -> Result<(u64, AssetAmount), Ter> {
    let r = exchange_guts(t, tx, asset, share, truncate);
    if crate::engine::amm::amm_math::faulted() {
        return Err(Ter::tecPATH_DRY);
    }
    r
}

fn exchange_guts(
    t: &Totals,
    tx: &StObject,
    asset: &VaultAsset,
    share: &MptId,
    truncate: bool,
) -> Result<(u64, AssetAmount), Ter> {
    let shares = match amount_field(tx) {
        Some(AssetAmount::Mpt(id, v)) if id == *share => v,
        Some(a) => {
            // Rounded to nearest, the shares could redeem more than asked; truncated
            // (fixCleanup3_4_0) never.
            let n = t.shares_for_withdraw(a.number());
            let units = vault_math::shares(n, truncate).map_err(Unfit::ter)?;
            if units == 0 {
                return Err(Ter::tecPRECISION_LOSS);
            }
            units
        }
        None => return Err(Ter::tefINTERNAL),
    };
    let assets = vault_math::assets(asset, t.assets_for_withdraw(shares)).map_err(Unfit::ter)?;
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
    let (Some(share), Some(pseudo), Some(issue)) = (
        share_id(&vault),
        vault.account_of(s.account),
        asset_of(&vault),
    ) else {
        return Err(Ter::tefINTERNAL);
    };
    let Some(iss) = crate::engine::mpt::issuance(&ctx.sb, &share) else {
        return Err(Ter::tefINTERNAL);
    };
    let totals = withdraw_totals(&ctx.sb, &vault, &iss, &ctx.account);
    let truncate = withdraw340::fix340(&ctx.sb);
    let (shares, assets) = exchange(&totals, ctx.tx, &issue, &share, truncate)?;
    let assets = withdraw340::payout(&ctx.sb, ctx.tx, &vault, &totals, shares, assets)?;
    // With fixCleanup3_3_0 preclaim has judged every freeze (checkWithdrawFreeze): the
    // shares count whether or not the asset's freeze freezes them.
    let fix330 = ctx.sb.info().rules.enabled(Feature::FixCleanup3_3_0);
    let held = crate::engine::mpt::holds(&ctx.sb, &ctx.account, &share, !fix330);
    if held < shares {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    let every_share = shares == iss.u64_of(s.outstanding_amount).unwrap_or(0);
    let rules = &ctx.sb.info().rules;
    let assets = debit_vault(&mut vault, &issue, assets, every_share, rules)?;
    let owner = vault.account_of(s.owner);
    ctx.sb.update(key, vault);
    crate::engine::mpt::send(&mut ctx.sb, &share, &ctx.account, &pseudo, shares).into_result()?;
    if owner != Some(ctx.account) {
        let t = remove_share_token(&mut ctx.sb, &share, &ctx.account);
        if t != Ter::tesSUCCESS && t != Ter::tecHAS_OBLIGATIONS {
            return Err(t);
        }
    }
    let dst = ctx.tx.account_of(s.destination).unwrap_or(ctx.account);
    if dst != ctx.account {
        // `doWithdraw`'s `verifyDepositPreauth`: expired credentials presented are
        // deleted (`tecEXPIRED`) and the destination's deposit authorization holds.
        let root = ctx.sb.read(&keylet::account(&dst));
        let (tx, me) = (ctx.tx, ctx.account);
        crate::engine::credential::verify_deposit_preauth(
            &mut ctx.sb,
            tx,
            &me,
            &dst,
            root.as_deref(),
        )
        .into_result()?;
    }
    if let VaultAsset::Mpt(id) = issue {
        own_token(ctx, &id, &dst).into_result()?;
    }
    send_asset(&mut ctx.sb, &pseudo, &dst, &assets).into_result()
}

/// Takes what the shares redeem off the vault's AssetsTotal and AssetsAvailable and
/// returns what they pay: `tecINSUFFICIENT_FUNDS` beyond what the vault has on hand (not
/// its pseudo-account's balance: some of that may be pledged).
fn debit_vault(
    vault: &mut StObject,
    issue: &VaultAsset,
    assets: AssetAmount,
    every_share: bool,
    rules: &Rules,
) -> Result<AssetAmount, Ter> {
    let s = sf();
    let available = number_of(vault, s.assets_available);
    let taken = assets.number();
    if available < taken {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    if every_share && rules.enabled(Feature::FixCleanup3_2_0) {
        return pay_out_everything(vault, issue);
    }
    let total = number_of(vault, s.assets_total) - taken;
    set_number(vault, s.assets_total, total);
    set_number(vault, s.assets_available, available - taken);
    Ok(assets)
}

/// fixCleanup3_2_0's final withdrawal (rippled `VaultWithdraw::doApply`): the shares
/// redeemed are every share outstanding, so the holder takes all the vault has on hand
/// (AssetsAvailable, whatever the shares computed to) and AssetsTotal and AssetsAvailable
/// end at exactly zero: no dust outlives the last share. Before the fix both drop by the
/// computed worth, and what rounding left stays in a vault with no shares. A loss still
/// unrealized cannot get here (the sole holder's shares are priced on AssetsTotal, more
/// than it has on hand): rippled's unreachable `tefINTERNAL`.
fn pay_out_everything(vault: &mut StObject, asset: &VaultAsset) -> Result<AssetAmount, Ter> {
    let s = sf();
    if !number_of(vault, s.loss_unrealized).is_zero() {
        return Err(Ter::tefINTERNAL);
    }
    let available = number_of(vault, s.assets_available);
    let everything = vault_math::assets(asset, available).map_err(Unfit::ter)?;
    set_number(vault, s.assets_total, Number::ZERO);
    set_number(vault, s.assets_available, Number::ZERO);
    Ok(everything)
}

/// A holder withdrawing an MPT to itself gets its MPToken back when it has none
/// (`addEmptyHolding`, with MPTokenAuthorize's reserve check).
fn own_token(ctx: &mut ApplyContext, id: &MptId, dst: &AccountId) -> Ter {
    if *dst != ctx.account || id.issuer() == *dst {
        return Ter::tesSUCCESS;
    }
    super::add_share_token(&mut ctx.sb, id, dst, ctx.prior_balance)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::entry::new_entry;
    use crate::engine::sandbox::Sandbox;
    use crate::ledger::flags::lt;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};
    use crate::protocol::st::StValue;

    /// An empty ledger under ledgerd's rule book with fixCleanup3_2_0 on or off.
    fn view(on: bool) -> StateView {
        let info = ViewInfo::open_test(Rules::default_with(Feature::FixCleanup3_2_0, on));
        StateView::new(Arc::new(State::new()), stamp(1, 0), info)
    }

    /// fixCleanup3_2_0's `WaiveMPTCanTransfer`: an MPT vault whose issuance no longer
    /// allows transfers still pays out with the fix (`tecNO_AUTH` before); an issuance
    /// that is gone is `tecOBJECT_NOT_FOUND` either way.
    #[test]
    fn withdrawing_waives_the_mpts_can_transfer_only_with_the_fix() {
        let id = MptId::new(7, &AccountId([4; 20]));
        let asset = VaultAsset::Mpt(id);
        for (on, want) in [(false, Err(Ter::tecNO_AUTH)), (true, Ok(()))] {
            let v = view(on);
            assert_eq!(
                mpt_asset_transferable(&v, &asset),
                Err(Ter::tecOBJECT_NOT_FOUND)
            );
            let mut sb = Sandbox::new(&v);
            let mut iss = new_entry(lt::MPTOKEN_ISSUANCE);
            iss.set(sf().flags, StValue::UInt32(lsf_mpt::CAN_LOCK));
            sb.insert(keylet::mpt_issuance(&id), iss.clone());
            assert_eq!(mpt_asset_transferable(&sb, &asset), want, "fix {on}");
            iss.set(sf().flags, StValue::UInt32(lsf_mpt::CAN_TRANSFER));
            sb.update(keylet::mpt_issuance(&id), iss);
            assert_eq!(mpt_asset_transferable(&sb, &asset), Ok(()), "fix {on}");
        }
    }
}
