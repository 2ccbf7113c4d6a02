//! AMMBid (rippled `AMMBid.cpp`): an LP buys the AMM's 24-hour auction slot with LP
//! tokens, for the discounted trading fee (shared with up to `AMM_AUTH_ACCOUNTS_MAX`
//! named accounts). The price starts at the minimum `LPTokenBalance * fee / 25`; a live
//! slot costs 105% of what its holder paid, decaying over the 20 intervals, and its holder
//! is refunded the unused fraction. What is not refunded is burned.

use super::amm_math::{adjust_lp_tokens, cmp, get_fee, Side};
use super::{invalid_amm_amount, invalid_amm_asset_pair, issue_of, lp_holds, tx_amm, uncaught};
use super::{
    AMM_AUCTION_SLOT_INTERVALS, AMM_AUCTION_SLOT_SECS, AMM_AUTH_ACCOUNTS_MAX,
    AMM_DISCOUNTED_FEE_FRACTION, AMM_MIN_SLOT_PRICE_FRACTION,
};
use crate::engine::funds::account_send;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::number::{get_round, power, Number};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;
use std::cmp::Ordering;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    let (Some(a), Some(b)) = (issue_of(tx, s.asset), issue_of(tx, s.asset2)) else {
        return Err(Ter::temMALFORMED);
    };
    invalid_amm_asset_pair(&a, &b, None)?;
    for f in [s.bid_min, s.bid_max] {
        if let Some(bid) = tx.amount_of(f) {
            invalid_amm_amount(&bid, None, false)?;
        }
    }
    if let Some(StValue::Array(list)) = tx.get(s.auth_accounts) {
        if list.len() > AMM_AUTH_ACCOUNTS_MAX {
            return Err(Ter::temMALFORMED);
        }
    }
    Ok(())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some((amm, _)) = tx_amm(view, tx) else {
        return Ter::terNO_AMM;
    };
    let lpt = amm.lp_balance;
    if lpt.is_zero() {
        return Ter::tecAMM_EMPTY;
    }
    if let Some(StValue::Array(list)) = tx.get(s.auth_accounts) {
        let missing = list.iter().any(|(_, o)| {
            o.account_of(s.account)
                .is_none_or(|a| view.read(&keylet::account(&a)).is_none())
        });
        if missing {
            return Ter::terNO_ACCOUNT;
        }
    }
    let held = lp_holds(view, &amm, account);
    if held.is_zero() {
        return Ter::tecAMM_INVALID_TOKENS;
    }
    let (min, max) = (tx.amount_of(s.bid_min), tx.amount_of(s.bid_max));
    for bid in [min, max].into_iter().flatten() {
        if bid.issue() != held.issue() {
            return Ter::temBAD_AMM_TOKENS;
        }
        if cmp(&bid, &held) == Ordering::Greater || cmp(&bid, &lpt) != Ordering::Less {
            return Ter::tecAMM_INVALID_TOKENS;
        }
    }
    if let (Some(lo), Some(hi)) = (min, max) {
        if cmp(&lo, &hi) == Ordering::Greater {
            return Ter::tecAMM_INVALID_TOKENS;
        }
    }
    Ter::tesSUCCESS
}

/// The interval (0..20) of the slot's 24 hours `now` falls in (`ammAuctionTimeSlot`).
pub fn time_slot(now: u32, expiration: Option<u32>) -> Option<u32> {
    let start = expiration?.checked_sub(AMM_AUCTION_SLOT_SECS)?;
    let diff = now.checked_sub(start)?;
    (diff < AMM_AUCTION_SLOT_SECS)
        .then_some(diff / (AMM_AUCTION_SLOT_SECS / AMM_AUCTION_SLOT_INTERVALS))
}

/// The price to pay given the computed one and the bid's limits; an error when the
/// bid cannot be met.
fn pay_price(
    computed: Number,
    min: Option<Amount>,
    max: Option<Amount>,
    held: &Amount,
) -> Result<Number, Ter> {
    let price = match (min, max) {
        (Some(lo), Some(hi)) => (computed <= hi.to_number()).then(|| computed.max(lo.to_number())),
        (Some(lo), None) => Some(computed.max(lo.to_number())),
        (None, Some(hi)) => (computed <= hi.to_number()).then_some(computed),
        (None, None) => Some(computed),
    };
    let price = price.ok_or(Ter::tecAMM_FAILED)?;
    if price > held.to_number() {
        return Err(Ter::tecAMM_INVALID_TOKENS);
    }
    Ok(price)
}

/// doApply. A fault is an exception rippled's `applyBid` does not catch: `tefEXCEPTION`.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    uncaught(apply(ctx))
}

fn apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some((amm, sle)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Err(Ter::tecINTERNAL);
    };
    let me = ctx.account;
    let lpt = amm.lp_balance;
    let held = lp_holds(&ctx.sb, &amm, &me);
    let mut slot = match sle.get(s.auction_slot) {
        Some(StValue::Object(o)) => o.clone(),
        _ => StObject::new(),
    };
    let now = ctx.sb.info().parent_close_time;
    let fee = sle.u16_of(s.trading_fee).unwrap_or(0);
    let discounted = fee / AMM_DISCOUNTED_FEE_FRACTION;
    let min_price = lpt.to_number() * get_fee(fee) / Number::from(AMM_MIN_SLOT_PRICE_FRACTION);
    let interval = time_slot(now, slot.u32_of(s.expiration));
    let (bid_min, bid_max) = (ctx.tx.amount_of(s.bid_min), ctx.tx.amount_of(s.bid_max));
    let owner = slot.account_of(s.account).filter(|o| {
        interval.is_some_and(|t| t < AMM_AUCTION_SLOT_INTERVALS - 1)
            && ctx.sb.exists(&keylet::account(o))
    });
    let (price, burn) = match owner {
        None => match pay_price(min_price, bid_min, bid_max, &held) {
            Ok(p) => (p, p),
            Err(t) => return Err(t),
        },
        Some(owner) => {
            let paid = slot.amount_of(s.price).unwrap_or(Amount::Xrp(0));
            let t = interval.unwrap_or(0);
            let used = (Number::from(i64::from(t)) + Number::from(1))
                / Number::from(i64::from(AMM_AUCTION_SLOT_INTERVALS));
            let remaining = Number::from(1) - used;
            let p105 = Number::new(105, -2);
            let computed = if t == 0 {
                paid.to_number() * p105 + min_price
            } else {
                paid.to_number() * p105 * (Number::from(1) - power(used, 60)) + min_price
            };
            let price = pay_price(computed, bid_min, bid_max, &held)?;
            let refund = remaining * paid.to_number();
            if refund > price {
                return Err(Ter::tecINSUFFICIENT_PAYMENT);
            }
            account_send(
                &mut ctx.sb,
                &me,
                &owner,
                &Amount::from_number(&lpt.issue(), refund, get_round()),
            )?;
            (price, price - refund)
        }
    };
    slot.set(s.account, StValue::AccountId(me));
    slot.set(
        s.expiration,
        StValue::UInt32(now.saturating_add(AMM_AUCTION_SLOT_SECS)),
    );
    if discounted != 0 {
        slot.set(s.discounted_fee, StValue::UInt16(discounted));
    } else {
        slot.remove(s.discounted_fee);
    }
    slot.set(
        s.price,
        StValue::Amount(Amount::from_number(&held.issue(), price, get_round())),
    );
    match ctx.tx.get(s.auth_accounts) {
        Some(v @ StValue::Array(_)) => slot.set(s.auth_accounts, v.clone()),
        _ => {
            slot.remove(s.auth_accounts);
        }
    }
    let burned = adjust_lp_tokens(
        &lpt,
        &Amount::from_number(&lpt.issue(), burn, get_round()),
        Side::Withdraw,
    );
    if cmp(&burned, &lpt) != Ordering::Less {
        return Err(Ter::tecINTERNAL);
    }
    account_send(&mut ctx.sb, &me, &amm.account, &burned)?;
    let mut sle = (*sle).clone();
    sle.set(s.auction_slot, StValue::Object(slot));
    sle.set(
        s.lp_token_balance,
        StValue::Amount(lpt.sub_in_current_mode(&burned)),
    );
    ctx.sb.update(amm.key, sle);
    Ok(())
}
