//! SponsorshipSet (rippled `SponsorshipSet.cpp`, the Delta form): the sponsor creates or
//! updates its Sponsorship of a sponsee (pre-funded fees `FeeAmount` moved out of its
//! Balance, a per-transaction cap `MaxFee`, an owner-count budget `RemainingOwnerCount`,
//! and whether either kind needs its signature anyway); sponsor or sponsee deletes it
//! (`tfDeleteObject`), the FeeAmount going back to the sponsor. The entry sits in both
//! owner directories and takes one owner count of the sponsor.

use super::counters::move_sponsor;
use super::entry_flags::{REQUIRE_SIGN_FOR_FEE, REQUIRE_SIGN_FOR_RESERVE};
use super::set_flags::*;
use crate::engine::directory::{insert_owned, remove_owned};
use crate::engine::entry::{adjust_owner_count, credit_drops, new_entry, with_threading};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

const ALL_FLAGS: u32 = SET_REQUIRE_SIGN_FOR_FEE
    | CLEAR_REQUIRE_SIGN_FOR_FEE
    | SET_REQUIRE_SIGN_FOR_RESERVE
    | CLEAR_REQUIRE_SIGN_FOR_RESERVE
    | DELETE_OBJECT;
const MODIFY_FLAGS: u32 = ALL_FLAGS & !DELETE_OBJECT;

/// The sponsor (`CounterpartySponsor`, else the sender) and the sponsee (`Sponsee`, else
/// the sender).
fn roles(tx: &StObject, account: &AccountId) -> (AccountId, AccountId) {
    let s = sf();
    (
        tx.account_of(s.counterparty_sponsor).unwrap_or(*account),
        tx.account_of(s.sponsee).unwrap_or(*account),
    )
}

/// `FeeAmountDelta` in drops (0 when absent).
fn fee_delta(tx: &StObject) -> i64 {
    tx.drops_of(sf().fee_amount_delta)
}

/// `RemainingOwnerCountDelta`, when present.
fn count_delta(tx: &StObject) -> Option<i32> {
    match tx.get(sf().remaining_owner_count_delta) {
        Some(StValue::Int32(v)) => Some(*v),
        _ => None,
    }
}

fn is_xrp(a: &Option<Amount>) -> Option<i64> {
    match a {
        Some(Amount::Xrp(d)) => Some(*d),
        _ => None,
    }
}

/// preflight: flag pairs, exactly one counterparty, no self-sponsorship; a delete carries
/// nothing else; otherwise only the sponsor sends it, with non-zero XRP deltas, a
/// non-negative XRP MaxFee, and something to change.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & TF_UNIVERSAL_MASK & !ALL_FLAGS != 0 {
        return Ter::temINVALID_FLAG;
    }
    let both = |a: u32, b: u32| flags & a != 0 && flags & b != 0;
    if both(SET_REQUIRE_SIGN_FOR_FEE, CLEAR_REQUIRE_SIGN_FOR_FEE)
        || both(SET_REQUIRE_SIGN_FOR_RESERVE, CLEAR_REQUIRE_SIGN_FOR_RESERVE)
    {
        return Ter::temINVALID_FLAG;
    }
    let has_sponsor = tx.get(s.counterparty_sponsor).is_some();
    if has_sponsor == tx.get(s.sponsee).is_some() {
        return Ter::temMALFORMED;
    }
    let (sponsor, sponsee) = roles(tx, account);
    if sponsor == sponsee {
        return Ter::temMALFORMED;
    }
    let (fee, max, count) = (
        tx.amount_of(s.fee_amount_delta),
        tx.amount_of(s.max_fee),
        tx.get(s.remaining_owner_count_delta),
    );
    if flags & DELETE_OBJECT != 0 {
        if flags & MODIFY_FLAGS != 0 {
            return Ter::temINVALID_FLAG;
        }
        if fee.is_some() || max.is_some() || count.is_some() {
            return Ter::temMALFORMED;
        }
        return Ter::tesSUCCESS;
    }
    if *account != sponsor {
        return Ter::temMALFORMED;
    }
    if fee.is_some() && is_xrp(&fee).is_none_or(|d| d == 0) {
        return Ter::temBAD_AMOUNT;
    }
    if max.is_some() && is_xrp(&max).is_none_or(|d| d < 0) {
        return Ter::temBAD_AMOUNT;
    }
    if count.is_some() && count_delta(tx).is_none_or(|d| d == 0) {
        return Ter::temINVALID;
    }
    if fee.is_none() && max.is_none() && count.is_none() && flags & TF_UNIVERSAL_MASK == 0 {
        return Ter::temREDUNDANT;
    }
    Ter::tesSUCCESS
}

/// The RemainingOwnerCount the entry would have (`totalRemainingOwnerCount`).
fn next_count(entry: Option<&StObject>, tx: &StObject) -> i64 {
    let cur = entry.and_then(|e| e.u32_of(sf().remaining_owner_count));
    i64::from(cur.unwrap_or(0)) + i64::from(count_delta(tx).unwrap_or(0))
}

/// `hasSponsorshipBudget`: a new entry takes only positive deltas, and the entry keeps a
/// positive FeeAmount or RemainingOwnerCount.
fn has_budget(entry: Option<&StObject>, tx: &StObject) -> bool {
    let fee = tx.get(sf().fee_amount_delta).map(|_| fee_delta(tx));
    if entry.is_none() && (fee.is_some_and(|d| d <= 0) || count_delta(tx).is_some_and(|d| d <= 0)) {
        return false;
    }
    let cur_fee = entry.map_or(0, |e| e.drops_of(sf().fee_amount));
    cur_fee + fee.unwrap_or(0) > 0 || next_count(entry, tx) > 0
}

/// preclaim: both accounts exist and neither is a pseudo-account; a delete needs the
/// entry; a create or update keeps RemainingOwnerCount within u32 and leaves a budget.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let (sponsor, sponsee) = roles(tx, account);
    for a in [&sponsor, &sponsee] {
        if view.read(&keylet::account(a)).is_none() {
            return Ter::tecNO_DST;
        }
    }
    if [&sponsor, &sponsee]
        .iter()
        .any(|a| crate::engine::vault::is_pseudo_account(view, a))
    {
        return Ter::tecPSEUDO_ACCOUNT;
    }
    let entry = view.read(&keylet::sponsorship(&sponsor, &sponsee));
    if tx.is_flag(DELETE_OBJECT) {
        return if entry.is_some() {
            Ter::tesSUCCESS
        } else {
            Ter::tecNO_ENTRY
        };
    }
    if next_count(entry.as_deref(), tx) > i64::from(u32::MAX) {
        return Ter::tecLIMIT_EXCEEDED;
    }
    if !has_budget(entry.as_deref(), tx) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// doApply: delete, create or update the Sponsorship of the pair.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let (sponsor, sponsee) = roles(ctx.tx, &ctx.account);
    let key = keylet::sponsorship(&sponsor, &sponsee);
    match ctx.sb.peek(&key) {
        Some(entry) if ctx.tx.is_flag(DELETE_OBJECT) => delete_sponsorship(&mut ctx.sb, key, entry),
        None if ctx.tx.is_flag(DELETE_OBJECT) => Ter::tecINTERNAL,
        Some(entry) => update(ctx, key, entry),
        None => create(ctx, key, sponsee),
    }
}

/// `deleteSponsorship`: out of both owner directories, the sponsor's owner count back,
/// the FeeAmount back to the sponsor's Balance.
pub fn delete_sponsorship(sb: &mut Sandbox, key: Hash256, entry: StObject) -> Ter {
    let s = sf();
    let (Some(sponsor), Some(sponsee)) = (entry.account_of(s.owner), entry.account_of(s.sponsee))
    else {
        return Ter::tecINTERNAL;
    };
    if !sb.exists(&keylet::account(&sponsor)) {
        return Ter::tecINTERNAL;
    }
    let owner_page = entry.u64_of(s.owner_node).unwrap_or(0);
    let sponsee_page = entry.u64_of(s.sponsee_node).unwrap_or(0);
    if !remove_owned(sb, &sponsor, owner_page, &key, false)
        || !remove_owned(sb, &sponsee, sponsee_page, &key, false)
    {
        return Ter::tefBAD_LEDGER;
    }
    if let Some(carrier) = entry.account_of(s.sponsor) {
        if let Err(t) = move_sponsor(sb, &sponsor, Some(&carrier), None, 1) {
            return t;
        }
    }
    adjust_owner_count(sb, &sponsor, -1);
    let fees = entry.drops_of(s.fee_amount);
    if fees > 0 && !credit_drops(sb, &sponsor, fees) {
        return Ter::tecINTERNAL;
    }
    sb.erase(key);
    Ter::tesSUCCESS
}

/// The sender's root and Balance (after the fee).
fn sender_root(ctx: &ApplyContext) -> Result<(Hash256, StObject), Ter> {
    let key = keylet::account(&ctx.account);
    let root = ctx.sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    Ok((key, root))
}

/// `createSponsorship`: the sponsor funds FeeAmount from its Balance and keeps the
/// reserve of one more object, measured on its balance before the fee (the fee may come
/// out of the reserve); `tecUNFUNDED` otherwise.
fn create(ctx: &mut ApplyContext, key: Hash256, sponsee: AccountId) -> Ter {
    let s = sf();
    let sponsor = ctx.account;
    let Ok((root_key, mut root)) = sender_root(ctx) else {
        return Ter::tefINTERNAL;
    };
    let fee = fee_delta(ctx.tx).max(0);
    let balance = root.drops_of(s.balance);
    if fee > balance {
        return Ter::tecUNFUNDED;
    }
    let fees = ctx.sb.info().fees;
    if ctx.prior_balance - fee < fees.reserve_of(&root, 1, 0) {
        return Ter::tecUNFUNDED;
    }
    let mut entry = with_threading(new_entry(lt::SPONSORSHIP));
    entry.set(s.owner, StValue::AccountId(sponsor));
    entry.set(s.sponsee, StValue::AccountId(sponsee));
    if fee > 0 {
        entry.set(s.fee_amount, StValue::Amount(Amount::Xrp(fee)));
        root.set(s.balance, StValue::Amount(Amount::Xrp(balance - fee)));
        ctx.sb.update(root_key, root);
    }
    if let Some(max) = is_xrp(&ctx.tx.amount_of(s.max_fee)).filter(|m| *m > 0) {
        entry.set(s.max_fee, StValue::Amount(Amount::Xrp(max)));
    }
    if let Some(n) = count_delta(ctx.tx).filter(|n| *n > 0) {
        entry.set(s.remaining_owner_count, StValue::UInt32(n as u32));
    }
    let mut flags = 0;
    if ctx.tx.is_flag(SET_REQUIRE_SIGN_FOR_FEE) {
        flags |= REQUIRE_SIGN_FOR_FEE;
    }
    if ctx.tx.is_flag(SET_REQUIRE_SIGN_FOR_RESERVE) {
        flags |= REQUIRE_SIGN_FOR_RESERVE;
    }
    entry.set(s.flags, StValue::UInt32(flags));
    let Some(page) = insert_owned(&mut ctx.sb, &sponsor, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.owner_node, StValue::UInt64(page));
    let Some(page) = insert_owned(&mut ctx.sb, &sponsee, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.sponsee_node, StValue::UInt64(page));
    ctx.sb.insert(key, entry);
    adjust_owner_count(&mut ctx.sb, &sponsor, 1);
    Ter::tesSUCCESS
}

/// The update of an existing entry: FeeAmount by its delta (a refund clamped to what it
/// holds), MaxFee (0 removes it), RemainingOwnerCount by its delta (down to absent), the
/// two Require flags.
fn update(ctx: &mut ApplyContext, key: Hash256, mut entry: StObject) -> Ter {
    let s = sf();
    if ctx.tx.get(s.fee_amount_delta).is_some() {
        if let Err(t) = move_fee(ctx, &mut entry) {
            return t;
        }
    }
    if let Some(max) = is_xrp(&ctx.tx.amount_of(s.max_fee)) {
        if max == 0 {
            entry.remove(s.max_fee);
        } else {
            entry.set(s.max_fee, StValue::Amount(Amount::Xrp(max)));
        }
    }
    if count_delta(ctx.tx).is_some() {
        let n = next_count(Some(&entry), ctx.tx);
        if n <= 0 {
            entry.remove(s.remaining_owner_count);
        } else {
            entry.set(s.remaining_owner_count, StValue::UInt32(n as u32));
        }
    }
    let mut flags = entry.flags();
    for (set, clear, bit) in [
        (
            SET_REQUIRE_SIGN_FOR_FEE,
            CLEAR_REQUIRE_SIGN_FOR_FEE,
            REQUIRE_SIGN_FOR_FEE,
        ),
        (
            SET_REQUIRE_SIGN_FOR_RESERVE,
            CLEAR_REQUIRE_SIGN_FOR_RESERVE,
            REQUIRE_SIGN_FOR_RESERVE,
        ),
    ] {
        if ctx.tx.is_flag(set) {
            flags |= bit;
        }
        if ctx.tx.is_flag(clear) {
            flags &= !bit;
        }
    }
    if flags != entry.flags() {
        entry.set(s.flags, StValue::UInt32(flags));
    }
    ctx.sb.update(key, entry);
    Ter::tesSUCCESS
}

/// Moves `FeeAmountDelta` between the sponsor's Balance and the entry's FeeAmount.
fn move_fee(ctx: &mut ApplyContext, entry: &mut StObject) -> Result<(), Ter> {
    let s = sf();
    let (root_key, mut root) = sender_root(ctx)?;
    let current = entry.drops_of(s.fee_amount);
    let delta = fee_delta(ctx.tx).max(-current);
    let balance = root.drops_of(s.balance);
    if delta > 0 && delta > balance {
        return Err(Ter::tecUNFUNDED);
    }
    let fees = ctx.sb.info().fees;
    if ctx.prior_balance - delta < fees.reserve_of(&root, 0, 0) {
        return Err(Ter::tecUNFUNDED);
    }
    root.set(s.balance, StValue::Amount(Amount::Xrp(balance - delta)));
    ctx.sb.update(root_key, root);
    match current + delta {
        0 => entry.remove(s.fee_amount),
        n => {
            entry.set(s.fee_amount, StValue::Amount(Amount::Xrp(n)));
            None
        }
    };
    Ok(())
}
