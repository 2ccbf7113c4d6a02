//! OfferCancel (rippled `CancelOffer.cpp`): deletes the account's offer with the given
//! sequence, if it is still there.

use super::offer_delete;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match tx.u32_of(sf().offer_sequence) {
        Some(0) | None => Ter::temBAD_SEQUENCE,
        Some(_) => Ter::tesSUCCESS,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    let seq = root.u32_of(sf().sequence).unwrap_or(0);
    if tx.u32_of(sf().offer_sequence).is_some_and(|o| seq <= o) {
        return Ter::temBAD_SEQUENCE;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let Some(seq) = ctx.tx.u32_of(sf().offer_sequence) else {
        return Ter::temBAD_SEQUENCE;
    };
    let key = keylet::offer(&ctx.account, seq);
    if ctx.sb.exists(&key) {
        return offer_delete(&mut ctx.sb, &key);
    }
    Ter::tesSUCCESS
}
