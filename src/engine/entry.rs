//! Small builders and typed edits for ledger entries, so transaction rules read as rules.

use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// A fresh entry of type `entry_type` with Flags 0.
pub fn new_entry(entry_type: u16) -> StObject {
    let mut o = StObject::new();
    o.set(sf().ledger_entry_type, StValue::UInt16(entry_type));
    o.set(sf().flags, StValue::UInt32(0));
    o
}

/// Adds the threading fields every threaded entry carries (zero until threaded).
pub fn with_threading(mut o: StObject) -> StObject {
    o.set(sf().previous_txn_id, StValue::Hash256(Hash256::ZERO));
    o.set(sf().previous_txn_lgr_seq, StValue::UInt32(0));
    o
}

/// A new AccountRoot as rippled writes one.
pub fn new_account_root(account: &AccountId, drops: i64, sequence: u32) -> StObject {
    let mut o = new_entry(lt::ACCOUNT_ROOT);
    o.set(sf().account, StValue::AccountId(*account));
    o.set(sf().sequence, StValue::UInt32(sequence));
    o.set(sf().balance, StValue::Amount(Amount::Xrp(drops)));
    o.set(sf().owner_count, StValue::UInt32(0));
    with_threading(o)
}

/// Sets or clears bits of the Flags field.
pub fn set_flags(o: &mut StObject, set: u32, clear: u32) {
    let f = (o.flags() | set) & !clear;
    o.set(sf().flags, StValue::UInt32(f));
}

/// Sets a UInt32 field.
pub fn set_u32(o: &mut StObject, field: crate::protocol::definitions::Field, v: u32) {
    o.set(field, StValue::UInt32(v));
}

/// Sets an XRP balance.
pub fn set_drops(o: &mut StObject, field: crate::protocol::definitions::Field, drops: i64) {
    o.set(field, StValue::Amount(Amount::Xrp(drops)));
}

/// The XRP balance of an AccountRoot.
pub fn balance_drops(acct: &StObject) -> i64 {
    acct.drops_of(sf().balance)
}

/// Adds `delta` to `account`'s OwnerCount (never below zero, as rippled clamps).
pub fn adjust_owner_count(sb: &mut Sandbox, account: &AccountId, delta: i32) {
    let key = keylet::account(account);
    if let Some(mut root) = sb.peek(&key) {
        let cur = root.u32_of(sf().owner_count).unwrap_or(0) as i64;
        let next = (cur + delta as i64).clamp(0, u32::MAX as i64) as u32;
        root.set(sf().owner_count, StValue::UInt32(next));
        sb.update(key, root);
        sb.record_owner_count(account, cur as u32, next);
    }
}

/// Adds `delta` drops to `account`'s balance. False when the account is missing.
pub fn credit_drops(sb: &mut Sandbox, account: &AccountId, delta: i64) -> bool {
    let key = keylet::account(account);
    let Some(mut root) = sb.peek(&key) else {
        return false;
    };
    let bal = balance_drops(&root).saturating_add(delta);
    set_drops(&mut root, sf().balance, bal);
    sb.update(key, root);
    true
}

/// The key type a 33-byte public key announces (rippled `publicKeyType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// 0x02 / 0x03 prefix.
    Secp256k1,
    /// 0xED prefix.
    Ed25519,
}

/// The key type of `pk`, or None when it is not a public key rippled would accept.
pub fn key_kind(pk: &[u8]) -> Option<KeyKind> {
    if pk.len() != 33 {
        return None;
    }
    match pk[0] {
        0x02 | 0x03 => Some(KeyKind::Secp256k1),
        0xED => Some(KeyKind::Ed25519),
        _ => None,
    }
}

/// The transaction's Destination and its AccountRoot: `temMALFORMED` without a
/// Destination, `tecNO_DST` when the account does not exist.
pub fn destination_root(
    view: &dyn crate::ledger::view::ReadView,
    tx: &StObject,
) -> Result<(AccountId, std::sync::Arc<StObject>), super::ter::Ter> {
    let dst = tx
        .account_of(sf().destination)
        .ok_or(super::ter::Ter::temMALFORMED)?;
    let root = view
        .read(&keylet::account(&dst))
        .ok_or(super::ter::Ter::tecNO_DST)?;
    Ok((dst, root))
}

/// True when `root` is a pseudo-account (an AMM's, a vault's, a loan broker's): no reserve,
/// never reserve-sponsored (rippled `isPseudoAccount`).
pub fn is_pseudo_root(root: &StObject) -> bool {
    let s = sf();
    [s.amm_id, s.vault_id, s.loan_broker_id]
        .iter()
        .any(|f| root.get(*f).is_some())
}

/// Who carries the reserve of the objects a transaction creates for one owner (rippled
/// `getEffectiveTxReserveSponsor`): the transaction's reserve sponsor, and only for
/// objects of the transaction's own (non-pseudo) Account; everyone else pays their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReserveCtx {
    /// The owner of the new objects.
    pub account: AccountId,
    /// The account carrying their reserve instead of the owner.
    pub sponsor: Option<AccountId>,
}

impl ReserveCtx {
    /// The reserve context of `owner`'s new objects under `tx`.
    pub fn of(view: &dyn ReadView, tx: &StObject, owner: &AccountId) -> ReserveCtx {
        let sponsor = super::sponsor::reserve_sponsor(tx)
            .filter(|_| tx.account_of(sf().account) == Some(*owner))
            .filter(|_| {
                !view
                    .read(&keylet::account(owner))
                    .is_some_and(|r| is_pseudo_root(&r))
            });
        ReserveCtx {
            account: *owner,
            sponsor,
        }
    }

    /// `owner` carrying its own reserve.
    pub fn own_reserve(owner: &AccountId) -> ReserveCtx {
        ReserveCtx {
            account: *owner,
            sponsor: None,
        }
    }
}

/// Adds `delta` to a counter field of the entry `key` (clamped to 0..=u32::MAX; a counter
/// reaching 0 is removed, as soeDEFAULT fields are). Nothing when the entry is missing.
fn bump_counter(sb: &mut Sandbox, key: &Hash256, field: Field, delta: i64) {
    let Some(mut o) = sb.peek(key) else {
        return;
    };
    let cur = o.u32_of(field).unwrap_or(0) as i64;
    let next = (cur + delta).clamp(0, u32::MAX as i64) as u32;
    if next == 0 {
        o.remove(field);
    } else {
        o.set(field, StValue::UInt32(next));
    }
    sb.update(*key, o);
}

/// rippled `adjustOwnerCount` with a reserve context: `rc.account` owns `n` more objects;
/// when they are sponsored the account's SponsoredOwnerCount and the sponsor's
/// SponsoringOwnerCount grow by `n` and a pre-funded Sponsorship(sponsor, account) spends
/// `n` of its RemainingOwnerCount. Returns the sponsor to stamp on the new objects.
pub fn own(sb: &mut Sandbox, rc: &ReserveCtx, n: u32) -> Option<AccountId> {
    adjust_owner_count(sb, &rc.account, n as i32);
    sponsor_counts(sb, rc, n)
}

/// The sponsorship side of [`own`]: SponsoredOwnerCount, SponsoringOwnerCount and a
/// Sponsorship's RemainingOwnerCount move by `n`. Returns the sponsor.
fn sponsor_counts(sb: &mut Sandbox, rc: &ReserveCtx, n: u32) -> Option<AccountId> {
    let s = sf();
    let sponsor = rc.sponsor?;
    let n = n as i64;
    let owner = keylet::account(&rc.account);
    bump_counter(sb, &owner, s.sponsored_owner_count, n);
    bump_counter(sb, &keylet::account(&sponsor), s.sponsoring_owner_count, n);
    let budget = keylet::sponsorship(&sponsor, &rc.account);
    bump_counter(sb, &budget, s.remaining_owner_count, -n);
    Some(sponsor)
}

/// Inserts the new `entry` at `key`, owned by `owner` for `n` owner-count units: [`own`]
/// under `tx`'s reserve context, the sponsor (if any) stamped on the entry.
pub fn own_new(
    sb: &mut Sandbox,
    tx: &StObject,
    owner: &AccountId,
    (key, mut entry): (Hash256, StObject),
    n: u32,
) {
    let rc = ReserveCtx::of(sb, tx, owner);
    let sponsor = own(sb, &rc, n);
    stamp_sponsor(&mut entry, owner, sponsor);
    sb.insert(key, entry);
}

/// Adds `delta` to `sponsor`'s SponsoringAccountCount: the accounts whose base reserve it
/// carries (absent at 0).
pub fn sponsor_accounts(sb: &mut Sandbox, sponsor: &AccountId, delta: i64) {
    bump_counter(
        sb,
        &keylet::account(sponsor),
        sf().sponsoring_account_count,
        delta,
    );
}

/// [`own`] for an entry already inserted and counted in its owner's OwnerCount by a
/// shared helper: only the sponsorship counters move and the entry at `key` is stamped.
pub fn sponsor_inserted(sb: &mut Sandbox, rc: &ReserveCtx, key: &Hash256, n: u32) {
    let Some(sponsor) = sponsor_counts(sb, rc, n) else {
        return;
    };
    if let Some(mut entry) = sb.peek(key) {
        stamp_sponsor(&mut entry, &rc.account, Some(sponsor));
        sb.update(*key, entry);
    }
}

/// The field of `entry` naming the sponsor of `owner`'s reserve for it: a trust line has
/// one per side (`HighSponsor` / `LowSponsor`), every other entry `Sponsor`.
pub fn sponsor_field(entry: &StObject, owner: &AccountId) -> Field {
    let s = sf();
    if entry.u16_of(s.ledger_entry_type) != Some(lt::RIPPLE_STATE) {
        return s.sponsor;
    }
    let high = entry.amount_of(s.high_limit).map(|a| a.issue().issuer);
    if high == Some(*owner) {
        s.high_sponsor
    } else {
        s.low_sponsor
    }
}

/// Stamps `sponsor` (from [`own`]) on the new `entry` owned by `owner`.
pub fn stamp_sponsor(entry: &mut StObject, owner: &AccountId, sponsor: Option<AccountId>) {
    if let Some(sponsor) = sponsor {
        let field = sponsor_field(entry, owner);
        entry.set(field, StValue::AccountId(sponsor));
    }
}

/// rippled `adjustOwnerCountDeleteObj`: `owner` stops owning `entry` (`n` units); when the
/// entry's reserve was sponsored, the sponsor's SponsoringOwnerCount and the owner's
/// SponsoredOwnerCount drop too. A Sponsorship's RemainingOwnerCount is not refunded.
pub fn release(sb: &mut Sandbox, owner: &AccountId, entry: &StObject, n: u32) {
    let s = sf();
    adjust_owner_count(sb, owner, -(n as i32));
    if let Some(sponsor) = entry.account_of(sponsor_field(entry, owner)) {
        let n = n as i64;
        bump_counter(sb, &keylet::account(owner), s.sponsored_owner_count, -n);
        bump_counter(sb, &keylet::account(&sponsor), s.sponsoring_owner_count, -n);
    }
}

/// [`release`] for an entry that stays in the ledger: `owner`'s sponsor also comes off it.
pub fn release_kept(sb: &mut Sandbox, owner: &AccountId, entry: &mut StObject, n: u32) {
    release(sb, owner, entry, n);
    entry.remove(sponsor_field(entry, owner));
}

/// The reserve `root`'s owner keeps for itself once it owns `n` more objects under `tx`:
/// none of the `n` when the transaction's reserve sponsor carries them.
pub fn reserve_kept(view: &dyn ReadView, tx: &StObject, root: &StObject, n: i64) -> i64 {
    let owner = root.account_of(sf().account).unwrap_or(AccountId::ZERO);
    let sponsored = ReserveCtx::of(view, tx, &owner).sponsor.is_some();
    let n = if sponsored { 0 } else { n };
    view.info().fees.reserve_of(root, n, 0)
}

/// rippled `checkReserve(ctx, accSle, balance, sponsor, {objects, accounts}, code)`: can
/// the owner of `root` (holding `balance`) take on `obj_delta` more objects and
/// `acct_delta` more accounts? When the transaction's reserve sponsor covers the owner,
/// the sponsor answers instead: a pre-funded Sponsorship must have the owner-count budget
/// and the sponsor's own balance must cover its reserve with the new objects. `fail` is
/// the caller's result for an insufficient reserve.
pub fn check_reserve(
    view: &dyn ReadView,
    tx: &StObject,
    root: &StObject,
    balance: i64,
    (obj_delta, acct_delta): (i64, i64),
    fail: Ter,
) -> Result<(), Ter> {
    let owner = root.account_of(sf().account).unwrap_or(AccountId::ZERO);
    let rc = ReserveCtx::of(view, tx, &owner);
    check_reserve_for(view, &rc, root, balance, (obj_delta, acct_delta), fail)
}

/// [`check_reserve`] under an already computed reserve context (`rc.account` owns
/// `root`).
pub fn check_reserve_for(
    view: &dyn ReadView,
    rc: &ReserveCtx,
    root: &StObject,
    balance: i64,
    (obj_delta, acct_delta): (i64, i64),
    fail: Ter,
) -> Result<(), Ter> {
    let fees = view.info().fees;
    let owner = rc.account;
    let Some(sponsor) = rc.sponsor else {
        return match balance < fees.reserve_of(root, obj_delta, acct_delta) {
            true => Err(fail),
            false => Ok(()),
        };
    };
    if obj_delta > 0 {
        if let Some(budget) = view.read(&keylet::sponsorship(&sponsor, &owner)) {
            let left = budget.u32_of(sf().remaining_owner_count).unwrap_or(0) as i64;
            if left < obj_delta {
                return Err(fail);
            }
        }
    }
    let sponsor_root = view
        .read(&keylet::account(&sponsor))
        .ok_or(Ter::tecINTERNAL)?;
    if balance_drops(&sponsor_root) < fees.reserve_of(&sponsor_root, obj_delta, acct_delta) {
        return Err(fail);
    }
    Ok(())
}
