//! Payment channels (rippled `PayChan.cpp`): PaymentChannelCreate, PaymentChannelFund and
//! PaymentChannelClaim, and closing a channel.

use super::directory::{insert_owned, remove_owned};
use super::entry::{
    adjust_owner_count, balance_drops, credit_drops, key_kind, new_entry, with_threading,
};
use super::sandbox::Sandbox;
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::claim::verify_claim;
use crate::protocol::keys::PublicKey;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// PaymentChannelClaim flags.
pub mod tf {
    /// Clear the channel's Expiration (owner only).
    pub const RENEW: u32 = 0x0001_0000;
    /// Close the channel (now, or after SettleDelay).
    pub const CLOSE: u32 = 0x0002_0000;
    /// Bits a claim may not set.
    pub const CLAIM_MASK: u32 = super::TF_UNIVERSAL_MASK & !(RENEW | CLOSE);
}

/// A positive XRP amount field, or the tem to return.
fn positive_xrp(
    tx: &StObject,
    field: crate::protocol::definitions::Field,
) -> Result<Option<i64>, Ter> {
    match tx.amount_of(field) {
        None => Ok(None),
        Some(Amount::Xrp(d)) if d > 0 => Ok(Some(d)),
        Some(_) => Err(Ter::temBAD_AMOUNT),
    }
}

/// PaymentChannelCreate preflight.
pub fn create_preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match positive_xrp(tx, s.amount) {
        Ok(Some(_)) => {}
        Ok(None) => return Ter::temMALFORMED,
        Err(t) => return t,
    }
    let Some(dst) = tx.account_of(s.destination) else {
        return Ter::temMALFORMED;
    };
    if dst == *account {
        return Ter::temDST_IS_SRC;
    }
    if tx.u32_of(s.settle_delay).is_none() {
        return Ter::temMALFORMED;
    }
    match tx.blob_of(s.public_key) {
        Some(pk) if key_kind(pk).is_some() => Ter::tesSUCCESS,
        _ => Ter::temMALFORMED,
    }
}

/// PaymentChannelCreate preclaim.
pub fn create_preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    let balance = balance_drops(&root);
    let reserve = view
        .info()
        .fees
        .account_reserve(root.u32_of(s.owner_count).unwrap_or(0).saturating_add(1));
    if balance < reserve {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    if balance < reserve.saturating_add(tx.drops_of(s.amount)) {
        return Ter::tecUNFUNDED;
    }
    let Some(dst) = tx.account_of(s.destination) else {
        return Ter::temMALFORMED;
    };
    let Some(dst_root) = view.read(&keylet::account(&dst)) else {
        return Ter::tecNO_DST;
    };
    if dst_root.is_flag(lsf::DISALLOW_INCOMING_PAYCHAN) {
        return Ter::tecNO_PERMISSION;
    }
    if dst_root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.u32_of(s.destination_tag).is_none() {
        return Ter::tecDST_TAG_NEEDED;
    }
    Ter::tesSUCCESS
}

/// PaymentChannelCreate doApply.
pub fn create_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let (Some(dst), Some(pk), Some(delay)) = (
        tx.account_of(s.destination),
        tx.blob_of(s.public_key),
        tx.u32_of(s.settle_delay),
    ) else {
        return Ter::temMALFORMED;
    };
    let amount = tx.drops_of(s.amount);
    // A ticketed create uses the ticket's number, as rippled's getSeqValue does.
    let seq = tx
        .u32_of(s.ticket_sequence)
        .unwrap_or_else(|| tx.u32_of(s.sequence).unwrap_or(0));
    let key = keylet::pay_channel(&account, &dst, seq);
    let mut chan = with_threading(new_entry(lt::PAYCHAN));
    chan.set(s.amount, StValue::Amount(Amount::Xrp(amount)));
    chan.set(s.balance, StValue::Amount(Amount::Xrp(0)));
    chan.set(s.account, StValue::AccountId(account));
    chan.set(s.destination, StValue::AccountId(dst));
    chan.set(s.settle_delay, StValue::UInt32(delay));
    chan.set(s.public_key, StValue::Blob(pk.to_vec()));
    for f in [s.cancel_after, s.source_tag, s.destination_tag] {
        if let Some(v) = tx.u32_of(f) {
            chan.set(f, StValue::UInt32(v));
        }
    }
    let Some(owner_page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    chan.set(s.owner_node, StValue::UInt64(owner_page));
    let Some(dst_page) = insert_owned(&mut ctx.sb, &dst, key) else {
        return Ter::tecDIR_FULL;
    };
    chan.set(s.destination_node, StValue::UInt64(dst_page));
    ctx.sb.insert(key, chan);
    credit_drops(&mut ctx.sb, &account, -amount);
    adjust_owner_count(&mut ctx.sb, &account, 1);
    Ter::tesSUCCESS
}

/// PaymentChannelFund preflight.
pub fn fund_preflight(tx: &StObject) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.h256_of(sf().channel).is_none() {
        return Ter::temMALFORMED;
    }
    match positive_xrp(tx, sf().amount) {
        Ok(Some(_)) => Ter::tesSUCCESS,
        Ok(None) => Ter::temMALFORMED,
        Err(t) => t,
    }
}

/// The channel at `key`, if that key holds a channel.
fn channel(sb: &Sandbox, key: &Hash256) -> Option<StObject> {
    sb.peek(key)
        .filter(|c| c.u16_of(sf().ledger_entry_type) == Some(lt::PAYCHAN))
}

fn expired(sb: &Sandbox, chan: &StObject) -> bool {
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

/// PaymentChannelFund doApply.
pub fn fund_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let Some(key) = tx.h256_of(s.channel) else {
        return Ter::temMALFORMED;
    };
    let Some(mut chan) = channel(&ctx.sb, &key) else {
        return Ter::tecNO_ENTRY;
    };
    if expired(&ctx.sb, &chan) {
        return close_channel(&mut ctx.sb, &key, &chan);
    }
    if chan.account_of(s.account) != Some(ctx.account) {
        return Ter::tecNO_PERMISSION;
    }
    if let Some(extend) = tx.u32_of(s.expiration) {
        let mut min = ctx
            .sb
            .info()
            .parent_close_time
            .saturating_add(chan.u32_of(s.settle_delay).unwrap_or(0));
        if let Some(cur) = chan.u32_of(s.expiration) {
            min = min.min(cur);
        }
        if extend < min {
            return Ter::temBAD_EXPIRATION;
        }
        chan.set(s.expiration, StValue::UInt32(extend));
        ctx.sb.update(key, chan.clone());
    }
    let Some(root) = ctx.sb.peek(&keylet::account(&ctx.account)) else {
        return Ter::tefINTERNAL;
    };
    let amount = tx.drops_of(s.amount);
    let balance = balance_drops(&root);
    let reserve = ctx
        .sb
        .info()
        .fees
        .account_reserve(root.u32_of(s.owner_count).unwrap_or(0));
    if balance < reserve {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    if balance < reserve.saturating_add(amount) {
        return Ter::tecUNFUNDED;
    }
    match chan.account_of(s.destination) {
        Some(dst) if ctx.sb.exists(&keylet::account(&dst)) => {}
        _ => return Ter::tecNO_DST,
    }
    let total = chan.drops_of(s.amount).saturating_add(amount);
    chan.set(s.amount, StValue::Amount(Amount::Xrp(total)));
    ctx.sb.update(key, chan);
    credit_drops(&mut ctx.sb, &ctx.account, -amount);
    Ter::tesSUCCESS
}

/// PaymentChannelClaim preflight, including the claim signature.
pub fn claim_preflight(tx: &StObject) -> Ter {
    let s = sf();
    let bal = match positive_xrp(tx, s.balance) {
        Ok(b) => b,
        Err(t) => return t,
    };
    let amt = match positive_xrp(tx, s.amount) {
        Ok(a) => a,
        Err(t) => return t,
    };
    if let (Some(b), Some(a)) = (bal, amt) {
        if b > a {
            return Ter::temBAD_AMOUNT;
        }
    }
    let flags = tx.flags();
    if flags & tf::CLAIM_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if flags & tf::CLOSE != 0 && flags & tf::RENEW != 0 {
        return Ter::temMALFORMED;
    }
    let Some(channel) = tx.h256_of(s.channel) else {
        return Ter::temMALFORMED;
    };
    if let Some(sig) = tx.blob_of(s.signature) {
        let (Some(pk), Some(bal)) = (tx.blob_of(s.public_key), bal) else {
            return Ter::temMALFORMED;
        };
        let auth = amt.unwrap_or(bal);
        if bal > auth {
            return Ter::temBAD_AMOUNT;
        }
        let Ok(pk) = PublicKey::from_slice_lenient(pk) else {
            return Ter::temMALFORMED;
        };
        if !verify_claim(&pk, &channel, auth as u64, sig) {
            return Ter::temBAD_SIGNATURE;
        }
    }
    Ter::tesSUCCESS
}

/// PaymentChannelClaim doApply.
pub fn claim_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let Some(key) = tx.h256_of(s.channel) else {
        return Ter::temMALFORMED;
    };
    let Some(mut chan) = channel(&ctx.sb, &key) else {
        return Ter::tecNO_TARGET;
    };
    let (Some(src), Some(dst)) = (chan.account_of(s.account), chan.account_of(s.destination))
    else {
        return Ter::tefBAD_LEDGER;
    };
    let cur_expiration = chan.u32_of(s.expiration);
    if expired(&ctx.sb, &chan) {
        return close_channel(&mut ctx.sb, &key, &chan);
    }
    let me = ctx.account;
    if me != src && me != dst {
        return Ter::tecNO_PERMISSION;
    }
    if let Some(req) = tx.amount_of(s.balance).and_then(|a| a.as_drops()) {
        let chan_balance = chan.drops_of(s.balance);
        let chan_funds = chan.drops_of(s.amount);
        let has_sig = tx.blob_of(s.signature).is_some();
        if me == dst && !has_sig {
            return Ter::temBAD_SIGNATURE;
        }
        if has_sig && tx.blob_of(s.public_key) != chan.blob_of(s.public_key) {
            return Ter::temBAD_SIGNER;
        }
        if req > chan_funds || req <= chan_balance {
            return Ter::tecUNFUNDED_PAYMENT;
        }
        let Some(dst_root) = ctx.sb.peek(&keylet::account(&dst)) else {
            return Ter::tecNO_DST;
        };
        // DepositAuth: only the destination itself may pull funds in (no preauthorizations
        // exist in this ledger).
        if dst_root.is_flag(lsf::DEPOSIT_AUTH) && me != dst {
            return Ter::tecNO_PERMISSION;
        }
        chan.set(s.balance, StValue::Amount(Amount::Xrp(req)));
        credit_drops(&mut ctx.sb, &dst, req - chan_balance);
        ctx.sb.update(key, chan.clone());
    }
    let flags = tx.flags();
    if flags & tf::RENEW != 0 {
        if src != me {
            return Ter::tecNO_PERMISSION;
        }
        chan.remove(s.expiration);
        ctx.sb.update(key, chan.clone());
    }
    if flags & tf::CLOSE != 0 {
        if dst == me || chan.drops_of(s.balance) == chan.drops_of(s.amount) {
            return close_channel(&mut ctx.sb, &key, &chan);
        }
        let settle = ctx
            .sb
            .info()
            .parent_close_time
            .saturating_add(chan.u32_of(s.settle_delay).unwrap_or(0));
        if cur_expiration.is_none_or(|e| e > settle) {
            chan.set(s.expiration, StValue::UInt32(settle));
            ctx.sb.update(key, chan);
        }
    }
    Ter::tesSUCCESS
}
