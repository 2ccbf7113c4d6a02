//! AMMWithdraw (rippled `AMMWithdraw.cpp`, fixAMMv1_1..v1_3 rounding): LP tokens back
//! for pool assets, in one of seven modes chosen by one flag of [`tf::WITHDRAW_SUB_TX`]:
//! - `tfLPToken`: LPTokenIn, both assets in proportion;
//! - `tfWithdrawAll`: every LP token held, both assets;
//! - `tfOneAssetWithdrawAll`: every LP token held, one asset (Amount as a minimum);
//! - `tfSingleAsset`: Amount of one asset;
//! - `tfTwoAsset`: both assets up to Amount and Amount2;
//! - `tfOneAssetLPToken`: LPTokenIn for one asset (Amount as a minimum);
//! - `tfLimitLPToken`: one asset at an effective price of at least EPrice.
//!
//! The last LP out empties the AMM, which is deleted (or left empty for AMMDelete when
//! it has too many trust lines).

use std::cmp::Ordering;

use super::withdrawal::{delete_if_empty, Withdrawal};

use super::amm_math::cmp;
use super::{
    amm_holds, invalid_amm_amount, lp_holds, preflight_mode, tf, trading_fee, tx_amm, uncaught,
    verify_and_adjust_lp_balance, AmmEntry, ModeAmounts,
};
use crate::engine::funds::{frozen_issue, is_individual_frozen, require_auth};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Issue};

/// The optional fields of a withdrawal.
struct Fields {
    amount: Option<Amount>,
    amount2: Option<Amount>,
    e_price: Option<Amount>,
    lp_tokens: Option<Amount>,
}

fn fields(tx: &StObject) -> Fields {
    let s = sf();
    Fields {
        amount: tx.amount_of(s.amount),
        amount2: tx.amount_of(s.amount2),
        e_price: tx.amount_of(s.e_price),
        lp_tokens: tx.amount_of(s.lp_token_in),
    }
}

/// The fields each mode takes: false for a combination rippled refuses.
fn fields_fit_mode(flags: u32, f: &Fields) -> bool {
    let (a, a2, ep, lp) = (
        f.amount.is_some(),
        f.amount2.is_some(),
        f.e_price.is_some(),
        f.lp_tokens.is_some(),
    );
    if flags & tf::LP_TOKEN != 0 {
        lp && !a && !a2 && !ep
    } else if flags & tf::WITHDRAW_ALL != 0 {
        !lp && !a && !a2 && !ep
    } else if flags & (tf::ONE_ASSET_WITHDRAW_ALL | tf::SINGLE_ASSET) != 0 {
        a && !lp && !a2 && !ep
    } else if flags & tf::TWO_ASSET != 0 {
        a && a2 && !lp && !ep
    } else if flags & tf::ONE_ASSET_LP_TOKEN != 0 {
        a && lp && !a2 && !ep
    } else {
        a && ep && !lp && !a2
    }
}

/// Every LP token held is withdrawn (`isWithdrawAll`).
fn withdraw_all(flags: u32) -> bool {
    flags & (tf::WITHDRAW_ALL | tf::ONE_ASSET_WITHDRAW_ALL) != 0
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let f = fields(tx);
    let named = ModeAmounts {
        amount: f.amount.as_ref(),
        amount2: f.amount2.as_ref(),
        lp_tokens: f.lp_tokens.as_ref(),
    };
    let flags = tx.flags();
    let pair = match preflight_mode(
        tx,
        tf::WITHDRAW_SUB_TX,
        |fl| fields_fit_mode(fl, &f),
        &named,
    ) {
        Ok(p) => Some(p),
        Err(t) => return Err(t),
    };
    if let Some(a) = &f.amount {
        let zero_ok = flags & (tf::ONE_ASSET_WITHDRAW_ALL | tf::ONE_ASSET_LP_TOKEN) != 0
            || f.e_price.is_some();
        invalid_amm_amount(a, pair, zero_ok)?;
    }
    if let Some(a) = &f.amount2 {
        invalid_amm_amount(a, pair, false)?;
    }
    if let Some(ep) = &f.e_price {
        invalid_amm_amount(ep, None, false)?;
    }
    Ok(())
}

/// One asset asked for: within the pool, authorized, and not frozen: before
/// fixCleanup3_3_0 neither the pool's line (or the issue) nor the account's; with it
/// rippled's `checkWithdrawFreeze`.
fn check_amount(
    view: &dyn ReadView,
    amm: &AmmEntry,
    account: &AccountId,
    amount: &Amount,
    balance: &Amount,
) -> Result<(), Ter> {
    if cmp(amount, balance) == Ordering::Greater {
        return Err(Ter::tecAMM_BALANCE);
    }
    let issue = amount.issue();
    require_auth(view, &issue, account).into_result()?;
    let frozen = if view.info().rules.enabled(Feature::FixCleanup3_3_0) {
        withdraw_frozen(view, &amm.account, account, &issue)
    } else {
        frozen_issue(view, &amm.account, &issue) || is_individual_frozen(view, account, &issue)
    };
    if frozen {
        return Err(Ter::tecFROZEN);
    }
    Ok(())
}

/// rippled's `checkWithdrawFreeze` for `issue` leaving the pool `pool` for `account`,
/// which both submits and receives (the one vaults and loan brokers use): never for the
/// issuer itself; otherwise the issue globally frozen, the pool's line frozen, or the
/// account's line deep frozen (its regular freeze does not stop it taking its own funds
/// back).
fn withdraw_frozen(
    view: &dyn ReadView,
    pool: &AccountId,
    account: &AccountId,
    issue: &Issue,
) -> bool {
    let asset = crate::engine::vault::VaultAsset::Token(*issue);
    crate::engine::vault::freeze::check_withdraw_freeze(view, pool, account, account, &asset)
        .is_err()
}

/// `issuerFreezeHandling`: under fixCleanup3_3_0 the issuer of either pool asset reads
/// the pool's balances through freezes (it can always take its own token back).
fn issuer_ignores_freeze(view: &dyn ReadView, amm: &AmmEntry, account: &AccountId) -> bool {
    view.info().rules.enabled(Feature::FixCleanup3_3_0)
        && [amm.asset, amm.asset2]
            .iter()
            .any(|i| !i.is_xrp() && i.issuer == *account)
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let Some((amm, _)) = tx_amm(view, tx) else {
        return Err(Ter::terNO_AMM);
    };
    let f = fields(tx);
    let holds = amm_holds(
        view,
        &amm,
        f.amount.map(|a| a.issue()),
        f.amount2.map(|a| a.issue()),
        false,
    );
    let (bal1, bal2, lpt) = holds?;
    if lpt.is_zero() {
        return Err(Ter::tecAMM_EMPTY);
    }
    let positive = |a: &Amount| !a.is_zero() && !a.is_negative();
    if !positive(&bal1) || !positive(&bal2) || lpt.is_negative() {
        return Err(Ter::tecINTERNAL);
    }
    for (a, b) in [(f.amount, &bal1), (f.amount2, &bal2)] {
        let Some(a) = a else { continue };
        check_amount(view, &amm, account, &a, b)?;
    }
    let held = lp_holds(view, &amm, account);
    let withdrawn = if withdraw_all(tx.flags()) {
        Some(held)
    } else {
        f.lp_tokens
    };
    if held.is_zero() || held.is_negative() {
        return Err(Ter::tecAMM_BALANCE);
    }
    if let Some(w) = &withdrawn {
        if w.issue() != held.issue() {
            return Err(Ter::temBAD_AMM_TOKENS);
        }
        if cmp(w, &held) == Ordering::Greater {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
    }
    if f.e_price.is_some_and(|ep| ep.issue() != held.issue()) {
        return Err(Ter::temBAD_AMM_TOKENS);
    }
    if tx.flags() & (tf::LP_TOKEN | tf::WITHDRAW_ALL) != 0 {
        for b in [&bal1, &bal2] {
            check_amount(view, &amm, account, b, b)?;
        }
    }
    Ok(())
}

/// doApply. A fault is an exception: inside `equalWithdrawTokens` (tfLPToken,
/// tfWithdrawAll) rippled catches it as `tecINTERNAL` ([`Withdrawal::equal_tokens`]);
/// in every other mode nothing does (`tefEXCEPTION`).
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    uncaught(apply(ctx))
}

fn apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let Some((mut amm, sle)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Err(Ter::tecINTERNAL);
    };
    let mut sle = (*sle).clone();
    let account = ctx.account;
    // fixAMMv1_1: the last LP's rounding remainder is squared before anything is sized.
    if ctx.sb.info().rules.enabled(Feature::FixAMMv1_1) {
        verify_and_adjust_lp_balance(&mut ctx.sb, &mut amm, &mut sle, &account).into_result()?;
    }
    let tfee = trading_fee(&ctx.sb, &sle, &account);
    let f = fields(ctx.tx);
    let ignore_freeze = issuer_ignores_freeze(&ctx.sb, &amm, &account);
    let holds = amm_holds(
        &ctx.sb,
        &amm,
        f.amount.map(|a| a.issue()),
        f.amount2.map(|a| a.issue()),
        !ignore_freeze,
    );
    let (bal1, bal2, lpt) = holds?;
    let held = lp_holds(&ctx.sb, &amm, &account);
    let flags = ctx.tx.flags();
    let all = withdraw_all(flags);
    let tokens_asked = if all { Some(held) } else { f.lp_tokens };
    let mut w = Withdrawal {
        sb: &mut ctx.sb,
        amm: &amm,
        account,
        tfee,
        all,
        prior_balance: ctx.prior_balance,
        ignore_freeze,
        reserve_free: false,
    };
    let result = match (f.amount, f.amount2, f.e_price, tokens_asked) {
        (Some(a), Some(a2), _, _) if flags & tf::TWO_ASSET != 0 => {
            w.equal_limit(&bal1, &bal2, &lpt, &a, &a2)
        }
        (Some(a), _, _, Some(t))
            if flags & (tf::ONE_ASSET_LP_TOKEN | tf::ONE_ASSET_WITHDRAW_ALL) != 0 =>
        {
            w.single_tokens(&bal1, &lpt, &a, &t)
        }
        (Some(a), _, Some(ep), _) if flags & tf::LIMIT_LP_TOKEN != 0 => {
            w.single_eprice(&bal1, &lpt, &a, &ep)
        }
        (Some(a), _, _, _) if flags & tf::SINGLE_ASSET != 0 => w.single(&bal1, &lpt, &a),
        (_, _, _, Some(t)) if flags & (tf::LP_TOKEN | tf::WITHDRAW_ALL) != 0 => w
            .equal_tokens(&bal1, &bal2, &lpt, &t)
            .map(|(balance, _, _)| balance),
        _ => Err(Ter::tecINTERNAL),
    };
    let new_balance = result?;
    let pair = (&amm.asset, &amm.asset2);
    super::invariant::precision_loss(&ctx.sb, &amm.account, pair, &new_balance)?;
    delete_if_empty(&mut ctx.sb, &amm, sle, new_balance)
}
