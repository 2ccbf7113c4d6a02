//! AMMVote (rippled `AMMVote.cpp`): an LP votes for a trading fee. Up to
//! `AMM_VOTE_SLOTS_MAX` votes count, weighted by the voters' LP tokens; a new voter with
//! more tokens (or as many and a higher fee) replaces the smallest. The AMM's fee becomes
//! the weighted mean, and the auction slot's discounted fee a tenth of it.

use super::amm_math::cmp;
use super::{
    invalid_amm_asset_pair, issue_of, lp_holds, tx_amm, uncaught, AmmEntry,
    AMM_DISCOUNTED_FEE_FRACTION, AMM_FEE_SCALE, AMM_TRADING_FEE_MAX, AMM_VOTE_SLOTS_MAX,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;
use std::cmp::Ordering;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    let (Some(a), Some(b), Some(fee)) = (
        issue_of(tx, s.asset),
        issue_of(tx, s.asset2),
        tx.u16_of(s.trading_fee),
    ) else {
        return Err(Ter::temMALFORMED);
    };
    invalid_amm_asset_pair(&a, &b, None)?;
    if fee > AMM_TRADING_FEE_MAX {
        return Err(Ter::temBAD_FEE);
    }
    Ok(())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some((amm, _)) = tx_amm(view, tx) else {
        return Ter::terNO_AMM;
    };
    if amm.lp_balance.is_zero() {
        return Ter::tecAMM_EMPTY;
    }
    if lp_holds(view, &amm, account).is_zero() {
        return Ter::tecAMM_INVALID_TOKENS;
    }
    Ter::tesSUCCESS
}

/// One vote as the slots keep it.
#[derive(Clone, Copy)]
struct Vote {
    account: AccountId,
    fee: u16,
    tokens: Amount,
}

fn vote_entry(v: &Vote, lpt: &Amount) -> StObject {
    let s = sf();
    let mut o = StObject::new();
    o.set(s.account, StValue::AccountId(v.account));
    if v.fee != 0 {
        o.set(s.trading_fee, StValue::UInt16(v.fee));
    }
    let weight = v.tokens.to_number() * Number::from(i64::from(AMM_FEE_SCALE)) / lpt.to_number();
    let weight = weight.to_i64().unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32;
    o.set(s.vote_weight, StValue::UInt32(weight));
    o
}

/// `a` is a smaller vote than `b`: fewer tokens, then a lower fee, then a lower account.
fn smaller(a: &Vote, b: &Vote) -> bool {
    match cmp(&a.tokens, &b.tokens) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => a.fee < b.fee || (a.fee == b.fee && a.account < b.account),
    }
}

/// The running weighted sum of the votes: fee x tokens over tokens.
#[derive(Default)]
struct Tally {
    numer: Number,
    den: Number,
}

impl Tally {
    fn add(&mut self, v: &Vote) {
        self.numer = self.numer + Number::from(i64::from(v.fee)) * v.tokens.to_number();
        self.den = self.den + v.tokens.to_number();
    }
    fn remove(&mut self, v: &Vote) {
        self.numer = self.numer - Number::from(i64::from(v.fee)) * v.tokens.to_number();
        self.den = self.den - v.tokens.to_number();
    }
    fn fee(&self) -> u16 {
        (self.numer / self.den)
            .to_i64()
            .unwrap_or(0)
            .clamp(0, i64::from(u16::MAX)) as u16
    }
}

/// The current votes of accounts still holding LP tokens, `me`'s with its new fee and
/// tokens; and whether `me` had a vote.
fn current_votes(
    sb: &dyn ReadView,
    amm: &AmmEntry,
    sle: &StObject,
    me: &Vote,
) -> (Vec<Vote>, bool) {
    let s = sf();
    let mut votes = Vec::new();
    let mut found = false;
    let Some(StValue::Array(slots)) = sle.get(s.vote_slots) else {
        return (votes, found);
    };
    for (_, e) in slots {
        let Some(account) = e.account_of(s.account) else {
            continue;
        };
        let tokens = lp_holds(sb, amm, &account);
        if tokens.is_zero() {
            continue;
        }
        if account == me.account {
            found = true;
            votes.push(*me);
        } else {
            let fee = e.u16_of(s.trading_fee).unwrap_or(0);
            votes.push(Vote {
                account,
                fee,
                tokens,
            });
        }
    }
    (votes, found)
}

/// A new voter takes a free slot, or the smallest vote's slot when it holds more tokens
/// (or as many, for a higher fee).
fn place_new_vote(votes: &mut Vec<Vote>, tally: &mut Tally, new: Vote) {
    let min_pos = (0..votes.len()).reduce(|m, i| if smaller(&votes[i], &votes[m]) { i } else { m });
    if votes.len() < AMM_VOTE_SLOTS_MAX {
        tally.add(&new);
        votes.push(new);
        return;
    }
    let Some(m) = min_pos else { return };
    let least = &votes[m];
    let beats = match cmp(&new.tokens, &least.tokens) {
        Ordering::Greater => true,
        Ordering::Equal => new.fee > least.fee,
        Ordering::Less => false,
    };
    if beats {
        tally.remove(least);
        tally.add(&new);
        votes[m] = new;
    }
}

/// Writes the slots, the fee and the auction slot's discounted fee.
fn write_votes(sle: &mut StObject, votes: &[Vote], lpt: &Amount, fee: u16) {
    let s = sf();
    let entries = votes
        .iter()
        .map(|v| (s.vote_entry, vote_entry(v, lpt)))
        .collect();
    sle.set(s.vote_slots, StValue::Array(entries));
    if fee != 0 {
        sle.set(s.trading_fee, StValue::UInt16(fee));
    } else {
        sle.remove(s.trading_fee);
    }
    let mut slot = match sle.get(s.auction_slot) {
        Some(StValue::Object(o)) => o.clone(),
        _ => StObject::new(),
    };
    let discounted = fee / AMM_DISCOUNTED_FEE_FRACTION;
    if discounted != 0 {
        slot.set(s.discounted_fee, StValue::UInt16(discounted));
    } else {
        slot.remove(s.discounted_fee);
    }
    sle.set(s.auction_slot, StValue::Object(slot));
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let Some((amm, sle)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Ter::tecINTERNAL;
    };
    let me = Vote {
        account: ctx.account,
        fee: ctx.tx.u16_of(sf().trading_fee).unwrap_or(0),
        tokens: lp_holds(&ctx.sb, &amm, &ctx.account),
    };
    let (mut votes, found) = current_votes(&ctx.sb, &amm, &sle, &me);
    let mut tally = Tally::default();
    for v in &votes {
        tally.add(v);
    }
    if !found {
        place_new_vote(&mut votes, &mut tally, me);
    }
    let mut sle = (*sle).clone();
    write_votes(&mut sle, &votes, &amm.lp_balance, tally.fee());
    ctx.sb.update(amm.key, sle);
    // An exception rippled's AMMVote does not catch.
    uncaught(Ter::tesSUCCESS)
}
