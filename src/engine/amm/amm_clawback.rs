//! AMMClawback (rippled `AMMClawback.cpp`, with or without fixAMMv1_3 and
//! fixAMMClawbackRounding, as the ledger's rules say): an issuer that may claw back takes
//! its tokens out of an AMM a holder provides liquidity to. The holder's LP tokens (all of them, or those matching Amount) are withdrawn in
//! proportion; the issuer's asset goes back to the issuer, the paired asset to the holder
//! (or to the issuer too with `tfClawTwoAssets` when it issues both).

use super::amm_math::{frac_by_tokens, rounded_asset, rounded_lp_tokens, Side};
use super::withdrawal::{delete_if_empty, Withdrawal, Withdrawn};
use super::{
    amm_holds, issue_of, lp_holds, tf, tx_amm, uncaught, verify_and_adjust_lp_balance, AmmEntry,
};
use crate::engine::ripple::ripple_credit;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_FULLY_CANONICAL_SIG};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::number::get_round;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & !(TF_FULLY_CANONICAL_SIG | tf::CLAW_TWO_ASSETS) != 0 {
        return Ter::temINVALID_FLAG;
    }
    let (Some(holder), Some(asset), Some(asset2)) = (
        tx.account_of(s.holder),
        issue_of(tx, s.asset),
        issue_of(tx, s.asset2),
    ) else {
        return Ter::temMALFORMED;
    };
    if holder == *account || asset.is_xrp() {
        return Ter::temMALFORMED;
    }
    if flags & tf::CLAW_TWO_ASSETS != 0 && asset.issuer != asset2.issuer {
        return Ter::temINVALID_FLAG;
    }
    if asset.issuer != *account {
        return Ter::temMALFORMED;
    }
    if let Some(a) = tx.amount_of(s.amount) {
        if a.issue() != asset || a.is_zero() || a.is_negative() {
            return Ter::temBAD_AMOUNT;
        }
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(issuer) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    let holder = tx.account_of(s.holder).unwrap_or_default();
    if view.read(&keylet::account(&holder)).is_none() {
        return Ter::terNO_ACCOUNT;
    }
    if tx_amm(view, tx).is_none() {
        return Ter::terNO_AMM;
    }
    if !issuer.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) || issuer.is_flag(lsf::NO_FREEZE) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// doApply. A fault is an exception: inside `equalWithdrawTokens` rippled catches it
/// as `tecINTERNAL` ([`Withdrawal::equal_tokens`]); anywhere else nothing does
/// (`tefEXCEPTION`).
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    uncaught(apply(ctx))
}

fn apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some((mut amm, sle)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Err(Ter::tecINTERNAL);
    };
    let mut sle = (*sle).clone();
    let issuer = ctx.account;
    let holder = ctx.tx.account_of(s.holder).unwrap_or_default();
    let (Some(asset), Some(asset2)) = (issue_of(ctx.tx, s.asset), issue_of(ctx.tx, s.asset2))
    else {
        return Err(Ter::tecINTERNAL);
    };
    if ctx.sb.info().rules.enabled(Feature::FixAMMClawbackRounding) {
        // The last holder's LP balance reconciled with the pool's first, as rippled does
        // only under fixAMMClawbackRounding.
        if lp_holds(&ctx.sb, &amm, &holder).is_zero() {
            return Err(Ter::tecAMM_BALANCE);
        }
        verify_and_adjust_lp_balance(&mut ctx.sb, &mut amm, &mut sle, &holder).into_result()?;
    }
    let (bal1, bal2, lpt) = amm_holds(&ctx.sb, &amm, Some(asset), Some(asset2), false)?;
    let held = lp_holds(&ctx.sb, &amm, &holder);
    if held.is_zero() {
        return Err(Ter::tecAMM_BALANCE);
    }
    let claw = ctx.tx.amount_of(s.amount);
    let two = ctx.tx.flags() & tf::CLAW_TWO_ASSETS != 0;
    // fixCleanup3_4_0 (rippled #7796): the holder's lines are made whatever its reserve,
    // so a compliance clawback is never vetoed by it.
    let reserve_free = ctx.sb.info().rules.enabled(Feature::FixCleanup3_4_0);
    let mut w = Withdrawal {
        sb: &mut ctx.sb,
        amm: &amm,
        account: holder,
        tfee: 0,
        all: true,
        prior_balance: ctx.prior_balance,
        ignore_freeze: true,
        reserve_free,
    };
    let result = match claw {
        None => w.equal_tokens(&bal1, &bal2, &lpt, &held),
        Some(c) => matching_one_amount(&mut w, &amm, &bal1, &bal2, &lpt, &held, &c),
    };
    let (new_balance, out1, out2) = result?;
    let pair = (&asset, &asset2);
    super::invariant::precision_loss(&ctx.sb, &amm.account, pair, &new_balance)?;
    delete_if_empty(&mut ctx.sb, &amm, sle, new_balance)?;
    claw_back(ctx, &holder, &issuer, &out1).into_result()?;
    if !two {
        return Ok(());
    }
    match out2 {
        Some(a) => claw_back(ctx, &holder, &issuer, &a).into_result(),
        None => Err(Ter::tecINTERNAL),
    }
}

fn claw_back(
    ctx: &mut ApplyContext,
    holder: &AccountId,
    issuer: &AccountId,
    amount: &Amount,
) -> Ter {
    match amount {
        Amount::Iou {
            value, currency, ..
        } => ripple_credit(&mut ctx.sb, holder, issuer, currency, value),
        Amount::Xrp(_) => Ter::tecINTERNAL,
    }
}

/// Withdraws the holder's share matching Amount of the issuer's asset, or all of it when
/// the holder has fewer LP tokens (`equalWithdrawMatchingOneAmount`).
fn matching_one_amount(
    w: &mut Withdrawal,
    amm: &AmmEntry,
    bal1: &Amount,
    bal2: &Amount,
    lpt: &Amount,
    held: &Amount,
    amount: &Amount,
) -> Withdrawn {
    let frac = amount.to_number() / bal1.to_number();
    let tokens = Amount::from_number(&amm.lp_issue(), lpt.to_number() * frac, get_round());
    // fixCleanup3_4_0 (rippled #7373): a claw matching exactly the holder's LP tokens
    // takes them all too; before it only one past them did.
    let all_at = if w.sb.info().rules.enabled(Feature::FixCleanup3_4_0) {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Equal
    };
    if super::amm_math::cmp(&tokens, held) > all_at {
        return w.equal_tokens(bal1, bal2, lpt, held);
    }
    w.all = false;
    if !w.sb.info().rules.enabled(Feature::FixAMMClawbackRounding) {
        // The holder's share as it comes, before fixAMMClawbackRounding.
        let out2 = Amount::from_number(&bal2.issue(), bal2.to_number() * frac, get_round());
        return w.withdraw(bal1, amount, Some(out2), lpt, &tokens);
    }
    let tokens = rounded_lp_tokens(lpt, frac, Side::Withdraw);
    if tokens.is_zero() {
        return Err(Ter::tecAMM_INVALID_TOKENS);
    }
    let frac = frac_by_tokens(lpt, &tokens, frac);
    let out2 = rounded_asset(bal2, frac, Side::Withdraw);
    let out1 = rounded_asset(bal1, frac, Side::Withdraw);
    // fixCleanup3_4_0: a claw so small that one side rounds to nothing would withdraw
    // one-sided; it fails, and the issuer may claw a larger amount.
    let fix340 = w.sb.info().rules.enabled(Feature::FixCleanup3_4_0);
    if fix340 && (out1.is_zero() || out2.is_zero()) {
        return Err(Ter::tecAMM_FAILED);
    }
    w.withdraw(bal1, &out1, Some(out2), lpt, &tokens)
}
