//! What the three payment channel transactions share (rippled `PayChan.cpp`): reading a
//! channel, its expiry, closing it, and the positive-XRP amount check.

pub mod payment_channel_claim;
pub mod payment_channel_create;
pub mod payment_channel_fund;

use super::directory::remove_owned;
use super::entry::{credit_drops, release};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::lt;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
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

/// True when the channel's CancelAfter or Expiration has passed (rippled
/// `isChannelExpired`): under fixCleanup3_2_0 once the parent close time is after it,
/// before that amendment already at it.
pub fn expired(sb: &Sandbox, chan: &StObject) -> bool {
    let info = sb.info();
    let now = info.parent_close_time;
    let strict = info.rules.enabled(Feature::FixCleanup3_2_0);
    let passed = |t: u32| if strict { now > t } else { now >= t };
    let s = sf();
    chan.u32_of(s.cancel_after).is_some_and(passed) || chan.u32_of(s.expiration).is_some_and(passed)
}

/// The parent close time plus a channel's SettleDelay (rippled `saturatingAdd`):
/// saturating at the largest time under fixCleanup3_2_0, wrapping around before it.
pub fn settle_time(rules: &Rules, now: u32, delay: u32) -> u32 {
    if rules.enabled(Feature::FixCleanup3_2_0) {
        now.saturating_add(delay)
    } else {
        now.wrapping_add(delay)
    }
}

/// A transaction's Channel field: absent is malformed, and so, under fixCleanup3_2_0, is
/// the zero ID (it cannot name a ledger entry).
pub fn channel_id(tx: &StObject) -> Result<Hash256, Ter> {
    match tx.h256_of(sf().channel) {
        None => Err(Ter::temMALFORMED),
        Some(id) if id.is_zero() && crate::ledger::rules::enabled_now(Feature::FixCleanup3_2_0) => {
            Err(Ter::temMALFORMED)
        }
        Some(id) => Ok(id),
    }
}

/// A doApply refusal rippled answers with a tem before fixCleanup3_2_0 and with
/// tecNO_PERMISSION under it (an unsigned claim by the destination, a claim signed by
/// another key, an Expiration set too early).
pub fn refused(rules: &Rules, before: Ter) -> Ter {
    if rules.enabled(Feature::FixCleanup3_2_0) {
        Ter::tecNO_PERMISSION
    } else {
        before
    }
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
    release(sb, &src, chan, 1);
    sb.erase(*key);
    Ter::tesSUCCESS
}
