//! LoanBrokerCoverDeposit (rippled `LoanBrokerCoverDeposit.cpp`): the broker's owner adds
//! first-loss cover, in the vault's asset, to the broker's pseudo-account; CoverAvailable
//! grows by the amount. fixCleanup3_2_0 refuses an amount that would not move the cover
//! (`canApplyToBrokerCover`); fixCleanup3_3_0 judges freezes by `checkDepositFreeze`.

use super::broker::{amount_in, broker_id, deep_frozen, positive_amount, Broker};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::engine::vault::freeze::check_deposit_freeze;
use crate::engine::vault::{
    asset_can_transfer, asset_frozen, asset_held, asset_require_auth, send_asset,
};
use crate::ledger::sf::StExt;
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight: a LoanBrokerID (`temINVALID`) and a positive Amount (`temBAD_AMOUNT`).
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
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let b = Broker::named(view, tx)?;
    if b.owner != *account {
        return Err(Ter::tecNO_PERMISSION);
    }
    let amount = amount_in(tx, &b.asset)?;
    let rules = &view.info().rules;
    if rules.enabled(Feature::FixCleanup3_2_0) {
        b.cover_applicable(amount.number()).into_result()?;
    }
    asset_can_transfer(view, &b.asset, account, &b.pseudo).into_result()?;
    if rules.enabled(Feature::FixCleanup3_3_0) {
        check_deposit_freeze(view, account, &b.pseudo, &b.asset)?;
    } else {
        asset_frozen(view, account, &b.asset).into_result()?;
        deep_frozen(view, &b.pseudo, &b.asset).into_result()?;
    }
    asset_require_auth(view, &b.asset, account, true).into_result()?;
    if asset_held(view, account, &b.asset) < amount.number() {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    Ok(())
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
    send_asset(&mut ctx.sb, &ctx.account, &b.pseudo, &amount).into_result()?;
    b.move_cover(&mut ctx.sb, amount.number());
    Ok(())
}
