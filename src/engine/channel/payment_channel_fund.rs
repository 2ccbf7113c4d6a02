//! PaymentChannelFund (rippled `PayChan.cpp`): the owner adds XRP to a channel and may
//! extend its Expiration.

use super::{channel, channel_id, close_channel, expired, positive_xrp, refused, settle_time};
use crate::engine::entry::{balance_drops, credit_drops};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if let Err(t) = channel_id(tx) {
        return t;
    }
    match positive_xrp(tx, sf().amount) {
        Ok(Some(_)) => Ter::tesSUCCESS,
        Ok(None) => Ter::temMALFORMED,
        Err(t) => t,
    }
}

/// preclaim: nothing to read before apply.
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
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
        let info = ctx.sb.info();
        let delay = chan.u32_of(s.settle_delay).unwrap_or(0);
        let mut min = settle_time(&info.rules, info.parent_close_time, delay);
        if let Some(cur) = chan.u32_of(s.expiration) {
            min = min.min(cur);
        }
        if extend < min {
            return refused(&info.rules, Ter::temBAD_EXPIRATION);
        }
        chan.set(s.expiration, StValue::UInt32(extend));
        ctx.sb.update(key, chan.clone());
    }
    let Some(root) = ctx.sb.peek(&keylet::account(&ctx.account)) else {
        return Ter::tefINTERNAL;
    };
    let amount = tx.drops_of(s.amount);
    let balance = balance_drops(&root);
    let reserve = ctx.sb.info().fees.reserve_of(&root, 0, 0);
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

/// What the queue weighs (rippled's `makeTxConsequences`): the Amount.
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    crate::engine::consequences::TxConsequences::spending(tx, sf().amount)
}
