//! EscrowCancel (rippled `Escrow.cpp`): returns an escrow's XRP or token to its creator
//! once its CancelAfter has passed. Anyone may cancel an expired escrow.

use super::token_lock::{self, Unlock, PARITY_RATE};
use super::{
    after, named_escrow, preclaim_named, preflight_named, recycles_reserve, remove_escrow,
};
use crate::engine::entry::{credit_drops, ReserveCtx};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    preflight_named(tx)
}

/// preclaim (TokenEscrow): the escrow exists; the owner may hold its token again.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    preclaim_named(view, tx, |escrow, token| {
        match escrow.account_of(sf().account) {
            Some(owner) => token_lock::cancel_preclaim(view, &owner, token),
            None => Ter::tefBAD_LEDGER,
        }
    })
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some((key, escrow)) = named_escrow(&ctx.sb, ctx.tx) else {
        return Err(Ter::tecNO_TARGET);
    };
    let now = ctx.sb.info().parent_close_time;
    match escrow.u32_of(s.cancel_after) {
        Some(t) if after(now, t) => {}
        _ => return Err(Ter::tecNO_PERMISSION),
    }
    let Some(owner) = escrow.account_of(s.account) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let recycle = recycles_reserve(&ctx.sb);
    if recycle {
        remove_escrow(&mut ctx.sb, &key, &escrow).into_result()?;
    }
    if let Some(token) = token_lock::token_of(&escrow) {
        let back = Unlock {
            sender: owner,
            receiver: owner,
            locked_rate: PARITY_RATE,
            create: owner == ctx.account,
            prior_balance: ctx.prior_balance,
            reserve: ReserveCtx::of(&ctx.sb, ctx.tx, &owner),
        };
        token_lock::unlock(&mut ctx.sb, &back, &token).into_result()?;
    } else {
        credit_drops(&mut ctx.sb, &owner, escrow.drops_of(s.amount));
    }
    if recycle {
        return Ok(());
    }
    remove_escrow(&mut ctx.sb, &key, &escrow).into_result()
}
