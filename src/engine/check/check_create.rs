//! CheckCreate (rippled `CreateCheck.cpp`): a deferred payment the destination may cash
//! later for up to SendMax, XRP or an issued currency, until its Expiration.

use super::expired;
use super::good_amount;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{
    check_reserve, new_entry, own, stamp_sponsor, with_threading, ReserveCtx,
};
use crate::engine::funds::frozen;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match tx.account_of(s.destination) {
        Some(d) if d == *account => return Ter::temREDUNDANT,
        Some(_) => {}
        None => return Ter::temMALFORMED,
    }
    let Some(send_max) = tx.amount_of(s.send_max) else {
        return Ter::temMALFORMED;
    };
    if let Err(t) = good_amount(&send_max) {
        return t;
    }
    if tx.u32_of(s.expiration) == Some(0) {
        return Ter::temBAD_EXPIRATION;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let (dst, dst_root) = crate::engine::entry::destination_root(view, tx)?;
    if dst_root.is_flag(lsf::DISALLOW_INCOMING_CHECK) {
        return Err(Ter::tecNO_PERMISSION);
    }
    // A pseudo-account cashes no check (rippled: not amendment-gated, as no pseudo-account
    // exists before the amendment that makes its kind).
    if crate::engine::vault::is_pseudo_account(view, &dst) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if dst_root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.u32_of(s.destination_tag).is_none() {
        return Err(Ter::tecDST_TAG_NEEDED);
    }
    if let Some(Amount::Iou {
        currency, issuer, ..
    }) = tx.amount_of(s.send_max)
    {
        if frozen(view, account, &issuer, &currency) || frozen(view, &dst, &issuer, &currency) {
            return Err(Ter::tecFROZEN);
        }
    }
    if expired(view, tx.u32_of(s.expiration)) {
        return Err(Ter::tecEXPIRED);
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tefINTERNAL;
    };
    if let Err(ter) = check_reserve(
        &ctx.sb,
        tx,
        &root,
        ctx.prior_balance,
        (1, 0),
        Ter::tecINSUFFICIENT_RESERVE,
    ) {
        return ter;
    }
    let (Some(dst), Some(send_max)) = (tx.account_of(s.destination), tx.amount_of(s.send_max))
    else {
        return Ter::temMALFORMED;
    };
    let seq = tx
        .u32_of(s.ticket_sequence)
        .unwrap_or_else(|| tx.u32_of(s.sequence).unwrap_or(0));
    let key = keylet::check(&account, seq);
    let mut check = with_threading(new_entry(lt::CHECK));
    check.set(s.account, StValue::AccountId(account));
    check.set(s.destination, StValue::AccountId(dst));
    check.set(s.send_max, StValue::Amount(send_max));
    check.set(s.sequence, StValue::UInt32(seq));
    for f in [s.source_tag, s.destination_tag, s.expiration] {
        if let Some(v) = tx.u32_of(f) {
            check.set(f, StValue::UInt32(v));
        }
    }
    if let Some(id) = tx.h256_of(s.invoice_id) {
        check.set(s.invoice_id, StValue::Hash256(id));
    }
    let Some(page) = insert_owned(&mut ctx.sb, &dst, key) else {
        return Ter::tecDIR_FULL;
    };
    check.set(s.destination_node, StValue::UInt64(page));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    check.set(s.owner_node, StValue::UInt64(page));
    let rc = ReserveCtx::of(&ctx.sb, tx, &account);
    let sponsor = own(&mut ctx.sb, &rc, 1);
    stamp_sponsor(&mut check, &account, sponsor);
    ctx.sb.insert(key, check);
    Ter::tesSUCCESS
}
