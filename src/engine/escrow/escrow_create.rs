//! EscrowCreate (rippled `Escrow.cpp`): sets XRP aside for Destination until FinishAfter
//! and/or a crypto-condition is met, or until CancelAfter returns it. With TokenEscrow the
//! Amount may be an issued currency or an MPT (`token_lock`).

use super::after;
use super::token_lock;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{
    balance_drops, check_reserve, credit_drops, new_entry, own_new, reserve_kept, with_threading,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::rules::{enabled_now, Rules};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::condition::{parse_condition, ConditionError};
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// checkExtraFeatures: under fixCleanup3_2_0 an MPT amount needs MPTokensV1 before any
/// other check (before it, preflight answers that after TokenEscrow's).
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    let mpt = matches!(token_lock::token_of(tx), Some(token_lock::Token::Mpt(_)));
    !(mpt && rules.enabled(Feature::FixCleanup3_2_0)) || rules.enabled(Feature::MPTokensV1)
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    let amount = match token_lock::token_of(tx) {
        // Tokens need TokenEscrow; an MPT, MPTokensV1 too.
        Some(_) if !enabled_now(Feature::TokenEscrow) => Ter::temBAD_AMOUNT,
        Some(token_lock::Token::Mpt(_)) if !enabled_now(Feature::MPTokensV1) => Ter::temDISABLED,
        Some(token) => token_lock::preflight_amount(&token),
        None => match tx.amount_of(s.amount) {
            Some(Amount::Xrp(d)) if d > 0 => Ter::tesSUCCESS,
            _ => Ter::temBAD_AMOUNT,
        },
    };
    amount.into_result()?;
    let (cancel, finish) = (tx.u32_of(s.cancel_after), tx.u32_of(s.finish_after));
    match (cancel, finish) {
        (None, None) => return Err(Ter::temBAD_EXPIRATION),
        (Some(c), Some(f)) if c <= f => return Err(Ter::temBAD_EXPIRATION),
        _ => {}
    }
    let condition = tx.blob_of(s.condition);
    // fix1571: without FinishAfter a condition must say when the escrow may finish.
    if finish.is_none() && condition.is_none() {
        return Err(Ter::temMALFORMED);
    }
    match condition.map(parse_condition) {
        Some(Err(ConditionError::Malformed)) => Err(Ter::temMALFORMED),
        Some(Err(ConditionError::UnsupportedType)) => Err(Ter::temDISABLED),
        _ => Ok(()),
    }
}

/// preclaim: the destination exists and is no pseudo-account; a token's own checks.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(dst) = tx.account_of(sf().destination) else {
        return Ter::temMALFORMED;
    };
    if view.read(&keylet::account(&dst)).is_none() {
        return Ter::tecNO_DST;
    }
    if crate::engine::vault::is_pseudo_account(view, &dst) {
        return Ter::tecNO_PERMISSION;
    }
    match token_lock::token_of(tx) {
        Some(token) => token_lock::create_preclaim(view, account, &dst, &token),
        None => Ter::tesSUCCESS,
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let close = ctx.sb.info().parent_close_time;
    let too_late = |f| tx.u32_of(f).is_some_and(|t| after(close, t));
    if too_late(s.cancel_after) || too_late(s.finish_after) {
        return Err(Ter::tecNO_PERMISSION);
    }
    let account = ctx.account;
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Err(Ter::tefINTERNAL);
    };
    let token = token_lock::token_of(tx);
    let amount = tx.drops_of(s.amount);
    let balance = balance_drops(&root);
    let fail = Ter::tecINSUFFICIENT_RESERVE;
    check_reserve(&ctx.sb, tx, &root, balance, (1, 0), fail)?;
    let reserve = reserve_kept(&ctx.sb, tx, &root, 1);
    if token.is_none() && balance < reserve.saturating_add(amount) {
        return Err(Ter::tecUNFUNDED);
    }
    let Some(dst) = tx.account_of(s.destination) else {
        return Err(Ter::temMALFORMED);
    };
    let Some(dst_root) = ctx.sb.peek(&keylet::account(&dst)) else {
        return Err(Ter::tecNO_DST);
    };
    if dst_root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.u32_of(s.destination_tag).is_none() {
        return Err(Ter::tecDST_TAG_NEEDED);
    }
    let seq = tx
        .u32_of(s.ticket_sequence)
        .unwrap_or_else(|| tx.u32_of(s.sequence).unwrap_or(0));
    let key = keylet::escrow(&account, seq);
    let mut escrow = with_threading(new_entry(lt::ESCROW));
    if let Some(v) = tx.get(s.amount) {
        escrow.set(s.amount, v.clone());
    }
    escrow.set(s.account, StValue::AccountId(account));
    escrow.set(s.destination, StValue::AccountId(dst));
    if let Some(c) = tx.blob_of(s.condition) {
        escrow.set(s.condition, StValue::Blob(c.to_vec()));
    }
    for f in [
        s.source_tag,
        s.cancel_after,
        s.finish_after,
        s.destination_tag,
    ] {
        if let Some(v) = tx.u32_of(f) {
            escrow.set(f, StValue::UInt32(v));
        }
    }
    // fixIncludeKeyletFields: the entry keeps the sequence (or ticket) its key is made of.
    if ctx.sb.info().rules.enabled(Feature::FixIncludeKeyletFields) {
        escrow.set(s.sequence, StValue::UInt32(seq));
    }
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Err(Ter::tecDIR_FULL);
    };
    escrow.set(s.owner_node, StValue::UInt64(page));
    if dst != account {
        let Some(page) = insert_owned(&mut ctx.sb, &dst, key) else {
            return Err(Ter::tecDIR_FULL);
        };
        escrow.set(s.destination_node, StValue::UInt64(page));
    }
    match token {
        Some(token) => {
            token_lock::lock(&mut ctx.sb, &mut escrow, key, &account, &token).into_result()?;
        }
        None => {
            credit_drops(&mut ctx.sb, &account, -amount);
        }
    }
    own_new(&mut ctx.sb, tx, &account, (key, escrow), 1);
    Ok(())
}

/// What the queue weighs (rippled `EscrowCreate::makeTxConsequences`): the Amount, when
/// it is XRP.
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    crate::engine::consequences::TxConsequences::spending(tx, sf().amount)
}
