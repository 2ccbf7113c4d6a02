//! PaymentChannelCreate (rippled `PayChan.cpp`): opens a channel funded from the
//! sender's XRP, owned by both ends' directories.

use super::positive_xrp;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{
    balance_drops, check_reserve, credit_drops, key_kind, new_entry, own_new, reserve_kept,
    with_threading,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
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

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    let balance = balance_drops(&root);
    if let Err(t) = check_reserve(
        view,
        tx,
        &root,
        balance,
        (1, 0),
        Ter::tecINSUFFICIENT_RESERVE,
    ) {
        return t;
    }
    let reserve = reserve_kept(view, tx, &root, 1);
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
    // A pseudo-account receives no channel (rippled: not amendment-gated, as no
    // pseudo-account exists before the amendment that makes its kind).
    if crate::engine::vault::is_pseudo_account(view, &dst) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    // fixPayChanCancelAfter: a CancelAfter already past is refused.
    let info = ctx.sb.info();
    if info.rules.enabled(Feature::FixPayChanCancelAfter)
        && tx
            .u32_of(s.cancel_after)
            .is_some_and(|c| crate::engine::escrow::after(info.parent_close_time, c))
    {
        return Ter::tecEXPIRED;
    }
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
    // fixIncludeKeyletFields: the entry keeps the sequence (or ticket) its key is made of.
    if info.rules.enabled(Feature::FixIncludeKeyletFields) {
        chan.set(s.sequence, StValue::UInt32(seq));
    }
    let Some(owner_page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    chan.set(s.owner_node, StValue::UInt64(owner_page));
    let Some(dst_page) = insert_owned(&mut ctx.sb, &dst, key) else {
        return Ter::tecDIR_FULL;
    };
    chan.set(s.destination_node, StValue::UInt64(dst_page));
    own_new(&mut ctx.sb, ctx.tx, &account, (key, chan), 1);
    credit_drops(&mut ctx.sb, &account, -amount);
    Ter::tesSUCCESS
}

/// What the queue weighs (rippled's `makeTxConsequences`): the Amount.
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    crate::engine::consequences::TxConsequences::spending(tx, sf().amount)
}
