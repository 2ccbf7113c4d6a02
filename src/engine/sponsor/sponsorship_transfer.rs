//! SponsorshipTransfer (rippled `SponsorshipTransfer.cpp`): a reserve sponsor takes over
//! (`tfSponsorshipCreate`), replaces another (`tfSponsorshipReassign`) or gives back
//! (`tfSponsorshipEnd`) the reserve of one object (`ObjectID`) or of the account itself.
//! The new sponsor is the transaction's `Sponsor` with spfSponsorReserve, co-signing or
//! pre-funded (its Sponsorship's RemainingOwnerCount pays, and is not given back); an
//! account's own reserve only moves co-signed. The sponsor or the sponsee (`Sponsee`)
//! ends it.

use super::counters::{
    entry_units, move_account_sponsor, move_sponsor, owner_of, sponsor_can_carry, sponsor_field,
    supported,
};
use super::transfer_flags::{CREATE, END, REASSIGN};
use super::{co_signed, reserve_sponsor};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

const ALL_FLAGS: u32 = CREATE | REASSIGN | END;

/// preflight: exactly one of the three flags; a new sponsor (Sponsor with
/// spfSponsorReserve, no Sponsee) for Create and Reassign, none for End; an account's own
/// reserve moves only co-signed.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & TF_UNIVERSAL_MASK & !ALL_FLAGS != 0 || (flags & ALL_FLAGS).count_ones() != 1 {
        return Ter::temINVALID_FLAG;
    }
    let has_sponsor = tx.get(s.sponsor).is_some();
    if flags & END == 0 {
        if !has_sponsor {
            return Ter::temMALFORMED;
        }
        if reserve_sponsor(tx).is_none() {
            return Ter::temINVALID_FLAG;
        }
        if tx.get(s.sponsee).is_some() {
            return Ter::temMALFORMED;
        }
        if tx.get(s.object_id).is_none() && !co_signed(tx) {
            return Ter::temMALFORMED;
        }
        return Ter::tesSUCCESS;
    }
    if has_sponsor {
        return Ter::temMALFORMED;
    }
    if tx.get(s.sponsor_flags).is_some() {
        return Ter::temINVALID_FLAG;
    }
    if tx.account_of(s.sponsee) == Some(*account) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// The account whose object or reserve moves: `Sponsee`, else the sender.
fn sponsee_of(tx: &StObject, account: &AccountId) -> AccountId {
    tx.account_of(sf().sponsee).unwrap_or(*account)
}

/// preclaim: the target exists, can carry a sponsor, is the sponsee's, and is sponsored
/// or not as the flag needs; only its sponsor or the sponsee ends a sponsorship.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let new_sponsor = reserve_sponsor(tx);
    if new_sponsor.is_some_and(|n| view.read(&keylet::account(&n)).is_none()) {
        return Ter::terNO_ACCOUNT;
    }
    let sponsee = sponsee_of(tx, account);
    let Some(sponsee_root) = view.read(&keylet::account(&sponsee)) else {
        return if tx.get(s.sponsee).is_some() {
            Ter::terNO_ACCOUNT
        } else {
            Ter::tecINTERNAL
        };
    };
    let (target, field) = match tx.h256_of(s.object_id) {
        None => (sponsee_root, s.sponsor),
        Some(id) => {
            let Some(obj) = view.read(&id) else {
                return Ter::tecNO_ENTRY;
            };
            if !supported(&obj) || owner_of(view, &id, &obj, &sponsee) != Some(sponsee) {
                return Ter::tecNO_PERMISSION;
            }
            let field = sponsor_field(&obj, &sponsee);
            (obj, field)
        }
    };
    let current = target.account_of(field);
    let flags = tx.flags();
    let allowed = match (flags & CREATE != 0, flags & REASSIGN != 0) {
        (true, _) => new_sponsor.is_some() && current.is_none(),
        (_, true) => new_sponsor.is_some() && current.is_some(),
        _ => new_sponsor.is_none() && current.is_some_and(|c| c == *account || sponsee == *account),
    };
    if !allowed {
        return Ter::tecNO_PERMISSION;
    }
    // A pre-funded sponsor needs its Sponsorship of the sponsee (rippled's checkSponsor).
    if let Some(n) = new_sponsor.filter(|_| !co_signed(tx)) {
        if view.read(&keylet::sponsorship(&n, &sponsee)).is_none() {
            return Ter::terNO_PERMISSION;
        }
    }
    Ter::tesSUCCESS
}

/// doApply: the object's or the account's sponsorship moves.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let done = match ctx.tx.h256_of(sf().object_id) {
        Some(key) => transfer_object(ctx, key),
        None => transfer_account(ctx),
    };
    match done {
        Ok(()) => Ter::tesSUCCESS,
        Err(t) => t,
    }
}

/// The XRP `who` holds for its reserve check: the sender's balance before the fee
/// (`preFeeBalance_`), anyone else's Balance.
fn balance_before_fee(ctx: &ApplyContext, who: &AccountId, root: &StObject) -> i64 {
    if *who == ctx.account {
        ctx.prior_balance
    } else {
        root.drops_of(sf().balance)
    }
}

/// `who` can hold its own reserve with `obj_delta` more objects and `acct_delta` more
/// account reserves (an ended sponsorship's burden coming back).
fn own_reserve(
    ctx: &ApplyContext,
    who: &AccountId,
    obj_delta: i64,
    acct_delta: i64,
) -> Result<(), Ter> {
    let root = ctx.sb.peek(&keylet::account(who)).ok_or(Ter::tefINTERNAL)?;
    let fees = ctx.sb.info().fees;
    if balance_before_fee(ctx, who, &root) < fees.reserve_of(&root, obj_delta, acct_delta) {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    Ok(())
}

/// The new sponsor can carry `obj_delta` owner counts or `acct_delta` account reserves
/// of `sponsee` (its Sponsorship's budget, its own reserve).
fn sponsor_reserve(
    ctx: &ApplyContext,
    sponsee: &AccountId,
    sponsor: &AccountId,
    obj_delta: u32,
    acct_delta: i64,
) -> Result<(), Ter> {
    let fees = ctx.sb.info().fees;
    sponsor_can_carry(&ctx.sb, &fees, sponsee, sponsor, obj_delta, acct_delta).into_result()
}

/// A pre-funded transfer spends `units` of the Sponsorship's RemainingOwnerCount (the
/// reserve check made sure it has them; zero leaves the field absent).
fn spend_budget(
    ctx: &mut ApplyContext,
    sponsor: &AccountId,
    sponsee: &AccountId,
    units: u32,
) -> Result<(), Ter> {
    if co_signed(ctx.tx) {
        return Ok(());
    }
    let s = sf();
    let key = keylet::sponsorship(sponsor, sponsee);
    let mut entry = ctx.sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    let left = entry
        .u32_of(s.remaining_owner_count)
        .unwrap_or(0)
        .checked_sub(units)
        .ok_or(Ter::tefINTERNAL)?;
    if left == 0 {
        entry.remove(s.remaining_owner_count);
    } else {
        entry.set(s.remaining_owner_count, StValue::UInt32(left));
    }
    ctx.sb.update(key, entry);
    Ok(())
}

fn transfer_object(ctx: &mut ApplyContext, key: Hash256) -> Result<(), Ter> {
    let sponsee = sponsee_of(ctx.tx, &ctx.account);
    let mut obj = ctx.sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    let owner = owner_of(&ctx.sb, &key, &obj, &sponsee).ok_or(Ter::tefINTERNAL)?;
    let units = entry_units(&obj);
    let field: Field = sponsor_field(&obj, &owner);
    let old = obj.account_of(field);
    match reserve_sponsor(ctx.tx) {
        Some(new) => {
            sponsor_reserve(ctx, &sponsee, &new, units, 0)?;
            move_sponsor(&mut ctx.sb, &owner, old.as_ref(), Some(&new), units)?;
            obj.set(field, StValue::AccountId(new));
            spend_budget(ctx, &new, &sponsee, units)?;
        }
        None => {
            own_reserve(ctx, &owner, i64::from(units), 0)?;
            move_sponsor(&mut ctx.sb, &owner, old.as_ref(), None, units)?;
            obj.remove(field);
        }
    }
    ctx.sb.update(key, obj);
    Ok(())
}

fn transfer_account(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let sponsee = sponsee_of(ctx.tx, &ctx.account);
    let root = ctx
        .sb
        .peek(&keylet::account(&sponsee))
        .ok_or(Ter::tefINTERNAL)?;
    let old = root.account_of(sf().sponsor);
    match reserve_sponsor(ctx.tx) {
        Some(new) => {
            sponsor_reserve(ctx, &sponsee, &new, 0, 1)?;
            move_account_sponsor(&mut ctx.sb, &sponsee, old.as_ref(), Some(&new))
        }
        None => {
            own_reserve(ctx, &sponsee, 0, 1)?;
            move_account_sponsor(&mut ctx.sb, &sponsee, old.as_ref(), None)
        }
    }
}
