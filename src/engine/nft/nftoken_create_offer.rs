//! NFTokenCreateOffer (rippled `NFTokenCreateOffer.cpp`): an offer to sell a token one
//! holds, or to buy one from its Owner, for XRP or an issued currency.

use crate::engine::nft::{self, NewOffer, OfferTerms};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// NFTokenCreateOffer flags.
pub mod tf {
    /// An offer to sell (else to buy).
    pub const SELL_NFTOKEN: u32 = 0x0000_0001;
    /// Flags NFTokenCreateOffer refuses.
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK & !SELL_NFTOKEN;
}

fn terms(tx: &StObject, account: &AccountId) -> Option<(OfferTerms, Hash256)> {
    let s = sf();
    let t = OfferTerms {
        account: *account,
        amount: tx.amount_of(s.amount)?,
        destination: tx.account_of(s.destination),
        expiration: tx.u32_of(s.expiration),
        owner: tx.account_of(s.owner),
        sell: tx.flags() & tf::SELL_NFTOKEN != 0,
    };
    Some((t, tx.h256_of(s.nftoken_id)?))
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some((t, id)) = terms(tx, account) else {
        return Ter::temMALFORMED;
    };
    nft::offer_preflight(&t, nft::token_flags(&id))
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some((t, id)) = terms(tx, account) else {
        return Ter::temMALFORMED;
    };
    if crate::engine::check::expired(view, t.expiration) {
        return Ter::tecEXPIRED;
    }
    let holder = if t.sell { Some(t.account) } else { t.owner };
    if holder
        .and_then(|h| nft::find_token(view, &h, &id))
        .is_none()
    {
        return Ter::tecNO_ENTRY;
    }
    nft::offer_preclaim(view, &t, &id)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let Some((t, id)) = terms(ctx.tx, &ctx.account) else {
        return Ter::temMALFORMED;
    };
    let offer = NewOffer {
        account: ctx.account,
        id,
        amount: t.amount,
        destination: t.destination,
        expiration: t.expiration,
        seq: nft::seq_proxy(ctx.tx),
        sell: t.sell,
    };
    nft::create_offer(&mut ctx.sb, ctx.prior_balance, &offer)
}
