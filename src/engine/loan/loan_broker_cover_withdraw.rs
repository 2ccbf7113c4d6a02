//! LoanBrokerCoverWithdraw (rippled `LoanBrokerCoverWithdraw.cpp`): the broker's owner
//! takes first-loss cover back, to itself or to a Destination, as long as what stays
//! covers the minimum its debt requires (`CoverRateMinimum` of `DebtTotal`, rounded up at
//! DebtTotal's scale; with fixCleanup3_2_0 at the vault's, `minimumBrokerCover`, and an
//! amount that would not move the cover is `tecPRECISION_LOSS`). fixCleanup3_3_0 judges
//! freezes by `checkWithdrawFreeze`.

use super::broker::{amount_in, broker_id, deep_frozen, positive_amount, Broker};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::engine::vault::freeze::check_withdraw_freeze;
use crate::engine::vault::{
    asset_can_transfer, asset_frozen, asset_held, asset_require_auth, send_asset, VaultAsset,
};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if broker_id(tx).is_none() {
        return Ter::temINVALID;
    }
    if !positive_amount(tx) {
        return Ter::temBAD_AMOUNT;
    }
    if tx.account_of(sf().destination) == Some(AccountId::ZERO) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let dst = tx.account_of(sf().destination).unwrap_or(*account);
    if crate::engine::vault::is_pseudo_account(view, &dst) {
        return Err(Ter::tecPSEUDO_ACCOUNT);
    }
    let b = Broker::named(view, tx)?;
    if b.owner != *account {
        return Err(Ter::tecNO_PERMISSION);
    }
    let amount = amount_in(tx, &b.asset)?;
    let fix320 = view.info().rules.enabled(Feature::FixCleanup3_2_0);
    if fix320 {
        b.cover_applicable(amount.number()).into_result()?;
    }
    transfer_checks(view, &b, account, &dst)?;
    let taken = amount.number();
    let minimum = if fix320 {
        b.minimum_broker_cover()
    } else {
        b.minimum_cover_at_debt_scale()
    };
    if b.cover() < taken || b.cover() - taken < minimum {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    if asset_held(view, &b.pseudo, &b.asset) < taken {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    Ok(())
}

/// Moving the asset from the pseudo-account to `dst`: transferable, the destination
/// consenting when it is a third party, nothing frozen unless it goes to the issuer.
fn transfer_checks(
    view: &dyn ReadView,
    b: &Broker,
    account: &AccountId,
    dst: &AccountId,
) -> Result<(), Ter> {
    asset_can_transfer(view, &b.asset, &b.pseudo, dst).into_result()?;
    if dst != account {
        crate::engine::vault::destination_ok(view, dst, account).into_result()?;
    }
    let t = asset_require_auth(view, &b.asset, dst, dst != account);
    if view.info().rules.enabled(Feature::FixCleanup3_3_0) {
        t.into_result()?;
        return check_withdraw_freeze(view, &b.pseudo, account, dst, &b.asset);
    }
    if t != Ter::tesSUCCESS || b.asset.issuer() == Some(*dst) {
        return t.into_result();
    }
    asset_frozen(view, &b.pseudo, &b.asset).into_result()?;
    deep_frozen(view, dst, &b.asset).into_result()
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let mut b = match Broker::named(&ctx.sb, ctx.tx) {
        Ok(b) => b,
        Err(_) => return Err(Ter::tecINTERNAL),
    };
    let Ok(amount) = amount_in(ctx.tx, &b.asset) else {
        return Err(Ter::tecINTERNAL);
    };
    b.move_cover(&mut ctx.sb, -amount.number());
    let dst = ctx.tx.account_of(sf().destination).unwrap_or(ctx.account);
    if dst == ctx.account {
        own_holding(ctx, &b.asset).into_result()?;
    }
    send_asset(&mut ctx.sb, &b.pseudo, &dst, &amount).into_result()
}

/// The owner withdrawing an MPT to itself gets its MPToken back when it has none
/// (`addEmptyHolding`; an existing holding is fine).
fn own_holding(ctx: &mut ApplyContext, asset: &VaultAsset) -> Ter {
    match asset {
        VaultAsset::Mpt(id) if id.issuer() != ctx.account => {
            crate::engine::vault::add_share_token(&mut ctx.sb, id, &ctx.account, ctx.prior_balance)
        }
        _ => Ter::tesSUCCESS,
    }
}
