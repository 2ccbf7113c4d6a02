//! EscrowCancel (rippled `Escrow.cpp`): returns an escrow's XRP to its creator once its
//! CancelAfter has passed. Anyone may cancel an expired escrow.

use super::entry::credit_drops;
use super::escrow::{after, named_escrow, preflight_named, remove_escrow};
use super::ter::Ter;
use super::transactor::ApplyContext;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    preflight_named(tx)
}

/// preclaim: nothing more to read before apply.
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some((key, escrow)) = named_escrow(&ctx.sb, ctx.tx) else {
        return Ter::tecNO_TARGET;
    };
    let now = ctx.sb.info().parent_close_time;
    match escrow.u32_of(s.cancel_after) {
        Some(t) if after(now, t) => {}
        _ => return Ter::tecNO_PERMISSION,
    }
    let Some(owner) = escrow.account_of(s.account) else {
        return Ter::tefBAD_LEDGER;
    };
    let removed = remove_escrow(&mut ctx.sb, &key, &escrow);
    if removed != Ter::tesSUCCESS {
        return removed;
    }
    credit_drops(&mut ctx.sb, &owner, escrow.drops_of(s.amount));
    Ter::tesSUCCESS
}
