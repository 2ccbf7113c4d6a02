//! Small builders and typed edits for ledger entries, so transaction rules read as rules.

use super::sandbox::Sandbox;
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
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
