//! AMMCreate (rippled `AMMCreate.cpp`): a new AMM for a pair of assets, funded with
//! Amount and Amount2 by its creator, who gets `sqrt(Amount * Amount2)` LP tokens, the
//! only vote and a free auction slot. The pool lives in a new pseudo-account. The fee is
//! one owner reserve increment (charged by the transactor).

use super::amm_math::{amm_lp_tokens, cmp};
use super::{
    amm_key, init_fee_auction_vote, invalid_amm_amount, link_amm, lpt_currency, new_amm_entry,
    new_pseudo_root, pseudo_account_address, uncaught, AMM_TRADING_FEE_MAX,
};
use crate::engine::entry::set_flags;
use crate::engine::funds::{account_holds, account_send, frozen_issue, require_auth, xrp_liquid};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::st::StValue;
use crate::protocol::types::{AccountId, Issue};

/// Amount, Amount2 and TradingFee, all required.
fn fields(tx: &StObject) -> Option<(Amount, Amount, u16)> {
    let s = sf();
    Some((
        tx.amount_of(s.amount)?,
        tx.amount_of(s.amount2)?,
        tx.u16_of(s.trading_fee)?,
    ))
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    let Some((amount, amount2, fee)) = fields(tx) else {
        return Err(Ter::temMALFORMED);
    };
    if amount.issue() == amount2.issue() {
        return Err(Ter::temBAD_AMM_TOKENS);
    }
    for a in [&amount, &amount2] {
        invalid_amm_amount(a, None, false)?;
    }
    if fee > AMM_TRADING_FEE_MAX {
        return Err(Ter::temBAD_FEE);
    }
    Ok(())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let Some((amount, amount2, _)) = fields(tx) else {
        return Err(Ter::temMALFORMED);
    };
    let (i1, i2) = (amount.issue(), amount2.issue());
    if view.read(&amm_key(&i1, &i2)).is_some() {
        return Err(Ter::tecDUPLICATE);
    }
    for i in [&i1, &i2] {
        require_auth(view, i, account).into_result()?;
    }
    if frozen_issue(view, account, &i1) || frozen_issue(view, account, &i2) {
        return Err(Ter::tecFROZEN);
    }
    if no_default_ripple(view, &i1) || no_default_ripple(view, &i2) {
        return Err(Ter::terNO_RIPPLE);
    }
    let xrp = xrp_liquid(view, account, 1);
    if xrp <= 0 {
        return Err(Ter::tecINSUF_RESERVE_LINE);
    }
    if [&amount, &amount2]
        .iter()
        .any(|a| insufficient(view, account, a, xrp))
    {
        return Err(Ter::tecUNFUNDED_AMM);
    }
    if is_lp_token(view, &i1) || is_lp_token(view, &i2) {
        return Err(Ter::tecAMM_INVALID_TOKENS);
    }
    let rules = view.info().rules;
    // SingleAssetVault: no free address for the pseudo-account.
    let sav = rules.enabled(Feature::SingleAssetVault);
    if sav && pseudo_account_address(view, &amm_key(&i1, &i2)).is_none() {
        return Err(Ter::terADDRESS_COLLISION);
    }
    // Before AMMClawback an issuer allowing clawback may not back an AMM.
    if !rules.enabled(Feature::AMMClawback) && [&i1, &i2].iter().any(|i| clawback_allowed(view, i))
    {
        return Err(Ter::tecNO_PERMISSION);
    }
    Ok(())
}

/// An issued currency whose issuer may claw it back (lsfAllowTrustLineClawback).
fn clawback_allowed(view: &dyn ReadView, issue: &Issue) -> bool {
    !issue.is_xrp()
        && view
            .read(&keylet::account(&issue.issuer))
            .is_some_and(|r| r.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK))
}

/// An issuer without DefaultRipple: its currency cannot ripple through the pool.
fn no_default_ripple(view: &dyn ReadView, issue: &Issue) -> bool {
    !issue.is_xrp()
        && view
            .read(&keylet::account(&issue.issuer))
            .is_some_and(|r| !r.is_flag(lsf::DEFAULT_RIPPLE))
}

/// The creator cannot fund `amount` (`xrp`: its XRP above the reserve with one more
/// line; its own issue never runs short).
fn insufficient(view: &dyn ReadView, account: &AccountId, amount: &Amount, xrp: i64) -> bool {
    match amount {
        Amount::Xrp(d) => xrp < *d,
        Amount::Iou { issuer, .. } => {
            issuer != account
                && cmp(&account_holds(view, account, &amount.issue(), true), amount)
                    == std::cmp::Ordering::Less
        }
    }
}

/// An LP token: issued by an AMM pseudo-account.
fn is_lp_token(view: &dyn ReadView, issue: &Issue) -> bool {
    !issue.is_xrp()
        && view
            .read(&keylet::account(&issue.issuer))
            .is_some_and(|r| super::is_pseudo(&r))
}

/// doApply. A fault is an exception rippled's `applyCreate` does not catch:
/// `tefEXCEPTION`.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let Some((amount, amount2, tfee)) = fields(ctx.tx) else {
        return Ter::tefINTERNAL;
    };
    let creator = ctx.account;
    uncaught(create(&mut ctx.sb, &creator, &amount, &amount2, tfee))
}

fn create(
    sb: &mut Sandbox,
    creator: &AccountId,
    amount: &Amount,
    amount2: &Amount,
    tfee: u16,
) -> Result<(), Ter> {
    let (i1, i2) = (amount.issue(), amount2.issue());
    let key = amm_key(&i1, &i2);
    let Some(account) = pseudo_account_address(sb, &key) else {
        return Err(Ter::tecDUPLICATE);
    };
    let mut root = new_pseudo_root(&account, &key);
    // Before SingleAssetVault and LendingProtocol a pseudo-account starts at the
    // ledger's sequence, as any account.
    let info = sb.info();
    let lending = info.rules.enabled(Feature::LendingProtocol);
    if !info.rules.enabled(Feature::SingleAssetVault) && !lending {
        root.set(sf().sequence, StValue::UInt32(info.seq));
    }
    sb.insert(keylet::account(&account), root);
    let lpt = Issue {
        currency: lpt_currency(&i1.currency, &i2.currency),
        issuer: account,
    };
    if sb.exists(&keylet::line(&account, &lpt.issuer, &lpt.currency)) {
        return Err(Ter::tecDUPLICATE);
    }
    let lp_tokens = amm_lp_tokens(amount, amount2, &lpt);
    let mut sle = new_amm_entry(&account, &i1, &i2, lp_tokens);
    init_fee_auction_vote(&*sb, &mut sle, creator, &lpt, tfee);
    link_amm(sb, &account, key, &mut sle).into_result()?;
    sb.insert(key, sle);
    account_send(sb, &account, creator, &lp_tokens)?;
    for a in [amount, amount2] {
        fund_pool(sb, creator, &account, a)?;
    }
    Ok(())
}

/// Sends one asset into the pool and marks the pool's trust line as an AMM's.
fn fund_pool(
    sb: &mut Sandbox,
    creator: &AccountId,
    pool: &AccountId,
    amount: &Amount,
) -> Result<(), Ter> {
    account_send(sb, creator, pool, amount)?;
    let Amount::Iou {
        currency, issuer, ..
    } = amount
    else {
        return Ok(());
    };
    let key = keylet::line(pool, issuer, currency);
    let Some(mut line) = sb.peek(&key) else {
        return Err(Ter::tecINTERNAL);
    };
    set_flags(&mut line, lsf::AMM_NODE, 0);
    sb.update(key, line);
    Ok(())
}
