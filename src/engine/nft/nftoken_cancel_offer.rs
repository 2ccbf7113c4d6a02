//! NFTokenCancelOffer (rippled `NFTokenCancelOffer.cpp`): deletes up to 500 NFToken
//! offers; their owners and destinations may cancel them, anyone once they expired.
//! Offers no longer in the ledger are skipped.

use crate::engine::nft::{self, CANCEL_COUNT_MAX};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::rules::enabled_now;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some(ids) = tx.v256_of(sf().nftoken_offers) else {
        return Ter::temMALFORMED;
    };
    if ids.is_empty() || ids.len() > CANCEL_COUNT_MAX {
        return Ter::temMALFORMED;
    }
    // fixCleanup3_2_0: a zero ID cannot name a ledger entry.
    if enabled_now(Feature::FixCleanup3_2_0) && ids.iter().any(|id| id.is_zero()) {
        return Ter::temMALFORMED;
    }
    let mut sorted = ids.to_vec();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let ids = tx.v256_of(s.nftoken_offers).unwrap_or(&[]);
    let refused = ids.iter().any(|id| {
        let Some(offer) = view.read(id) else {
            return false;
        };
        if offer.u16_of(s.ledger_entry_type) != Some(lt::NFTOKEN_OFFER) {
            return true;
        }
        if crate::engine::check::expired(view, offer.u32_of(s.expiration)) {
            return false;
        }
        offer.account_of(s.owner) != Some(*account)
            && offer.account_of(s.destination) != Some(*account)
    });
    if refused {
        Ter::tecNO_PERMISSION
    } else {
        Ter::tesSUCCESS
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let ids = ctx.tx.v256_of(sf().nftoken_offers).unwrap_or(&[]).to_vec();
    for id in ids {
        if nft::offer_at(&ctx.sb, &id).is_some() && !nft::delete_offer(&mut ctx.sb, &id) {
            return Ter::tefBAD_LEDGER;
        }
    }
    Ter::tesSUCCESS
}
