//! EscrowFinish (rippled `Escrow.cpp`): delivers an escrow's XRP or token to its destination once
//! its FinishAfter has passed (and before its CancelAfter), with the fulfillment of its
//! condition if it has one. Anyone may finish an escrow; the fee grows with the
//! fulfillment's size (`base x (32 + bytes / 16)` more).

use super::token_lock::{self, Unlock, PARITY_RATE};
use super::{
    after, named_escrow, preclaim_named, preflight_named, recycles_reserve, remove_escrow,
};
use crate::engine::credential;
use crate::engine::entry::{credit_drops, ReserveCtx};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::condition::fulfills;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// The extra fee a fulfillment of `bytes` costs, in base fees (`calculateBaseFee`).
pub fn fulfillment_fee_units(bytes: usize) -> u64 {
    32 + (bytes / 16) as u64
}

/// The extra base fees an EscrowFinish pays for its Fulfillment, if it has one
/// (`EscrowFinish::calculateBaseFee`).
pub fn fee_units(tx: &StObject) -> u64 {
    tx.blob_of(sf().fulfillment)
        .map_or(0, |f| fulfillment_fee_units(f.len()))
}

/// checkExtraFeatures: `CredentialIDs` needs Credentials.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    credential::ids_allowed(tx, rules)
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    preflight_named(tx).into_result()?;
    if tx.get(s.condition).is_some() != tx.get(s.fulfillment).is_some() {
        return Err(Ter::temMALFORMED);
    }
    credential::check_ids(tx).into_result()
}

/// preclaim: the credentials presented, if any; (TokenEscrow) the escrow exists and its
/// destination may receive its token.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    credential::valid_ids(view, tx, account).into_result()?;
    preclaim_named(view, tx, |escrow, token| {
        match escrow.account_of(sf().destination) {
            Some(dst) => Ter::from(token_lock::finish_preclaim(view, &dst, token)),
            None => Ter::tefBAD_LEDGER,
        }
    })
    .into_result()
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some((key, escrow)) = named_escrow(&ctx.sb, ctx.tx) else {
        return Err(Ter::tecNO_TARGET);
    };
    let now = ctx.sb.info().parent_close_time;
    if escrow
        .u32_of(s.finish_after)
        .is_some_and(|t| !after(now, t))
    {
        return Err(Ter::tecNO_PERMISSION);
    }
    if escrow.u32_of(s.cancel_after).is_some_and(|t| after(now, t)) {
        return Err(Ter::tecNO_PERMISSION);
    }
    let given = ctx.tx.blob_of(s.condition);
    if let (Some(c), Some(f)) = (given, ctx.tx.blob_of(s.fulfillment)) {
        if !fulfills(f, c) {
            return Err(Ter::tecCRYPTOCONDITION_ERROR);
        }
    }
    if escrow.blob_of(s.condition) != given {
        return Err(Ter::tecCRYPTOCONDITION_ERROR);
    }
    let Some(dst) = escrow.account_of(s.destination) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let Some(dst_root) = ctx.sb.peek(&keylet::account(&dst)) else {
        return Err(Ter::tecNO_DST);
    };
    let src = ctx.account;
    credential::verify_deposit_preauth(&mut ctx.sb, ctx.tx, &src, &dst, Some(&dst_root))
        .into_result()?;
    if recycles_reserve(&ctx.sb) {
        remove_escrow(&mut ctx.sb, &key, &escrow).into_result()?;
        return deliver(ctx, &escrow, &dst).into_result();
    }
    deliver(ctx, &escrow, &dst).into_result()?;
    remove_escrow(&mut ctx.sb, &key, &escrow).into_result()
}

/// Moves what the escrow holds to its destination: XRP as it is, a token less the
/// transfer fee (the rate recorded at creation, or the issuer's lower current one).
fn deliver(ctx: &mut ApplyContext, escrow: &StObject, dst: &AccountId) -> Ter {
    let s = sf();
    let Some(token) = token_lock::token_of(escrow) else {
        credit_drops(&mut ctx.sb, dst, escrow.drops_of(s.amount));
        return Ter::tesSUCCESS;
    };
    let Some(owner) = escrow.account_of(s.account) else {
        return Ter::tefBAD_LEDGER;
    };
    let out = Unlock {
        sender: owner,
        receiver: *dst,
        locked_rate: escrow.u32_of(s.transfer_rate).unwrap_or(PARITY_RATE),
        create: *dst == ctx.account,
        prior_balance: ctx.prior_balance,
        reserve: ReserveCtx::of(&ctx.sb, ctx.tx, dst),
    };
    token_lock::unlock(&mut ctx.sb, &out, &token)
}
