//! What the three payment channel transactions share (rippled `PayChan.cpp`): reading a
//! channel, its expiry, closing it, and the positive-XRP amount check.

pub mod payment_channel_claim;
pub mod payment_channel_create;
pub mod payment_channel_fund;

use super::directory::remove_owned;
use super::entry::{adjust_owner_count, credit_drops};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// A positive XRP amount field, or the tem to return.
pub fn positive_xrp(tx: &StObject, field: Field) -> Result<Option<i64>, Ter> {
    match tx.amount_of(field) {
        None => Ok(None),
        Some(Amount::Xrp(d)) if d > 0 => Ok(Some(d)),
        Some(_) => Err(Ter::temBAD_AMOUNT),
    }
}

/// The channel at `key`, if that key holds a channel.
pub fn channel(sb: &Sandbox, key: &Hash256) -> Option<StObject> {
    sb.peek(key)
        .filter(|c| c.u16_of(sf().ledger_entry_type) == Some(lt::PAYCHAN))
}

/// True when the channel's CancelAfter or Expiration has passed.
pub fn expired(sb: &Sandbox, chan: &StObject) -> bool {
    let now = sb.info().parent_close_time;
    let s = sf();
    chan.u32_of(s.cancel_after).is_some_and(|t| now >= t)
        || chan.u32_of(s.expiration).is_some_and(|t| now >= t)
}

/// Closes a channel: the unclaimed XRP goes back to the owner (rippled `closeChannel`).
pub fn close_channel(sb: &mut Sandbox, key: &Hash256, chan: &StObject) -> Ter {
    let s = sf();
    let (Some(src), Some(dst)) = (chan.account_of(s.account), chan.account_of(s.destination))
    else {
        return Ter::tefBAD_LEDGER;
    };
    let owner_page = chan.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &src, owner_page, key, true) {
        return Ter::tefBAD_LEDGER;
    }
    if let Some(page) = chan.u64_of(s.destination_node) {
        if !remove_owned(sb, &dst, page, key, true) {
            return Ter::tefBAD_LEDGER;
        }
    }
    let back = chan.drops_of(s.amount) - chan.drops_of(s.balance);
    if !credit_drops(sb, &src, back) {
        return Ter::tefINTERNAL;
    }
    adjust_owner_count(sb, &src, -1);
    sb.erase(*key);
    Ter::tesSUCCESS
}
