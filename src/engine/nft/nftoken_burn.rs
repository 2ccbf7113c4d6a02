//! NFTokenBurn (rippled `NFTokenBurn.cpp`): its owner, or its issuer (or the issuer's
//! minter) when the token is burnable, destroys a token; up to 500 of its offers go too.

use crate::engine::nft::{self, DELETABLE_OFFERS_MAX};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.h256_of(sf().nftoken_id).is_none() {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let owner = tx.account_of(s.owner).unwrap_or(*account);
    let Some(id) = tx.h256_of(s.nftoken_id) else {
        return Ter::temMALFORMED;
    };
    if nft::find_token(view, &owner, &id).is_none() {
        return Ter::tecNO_ENTRY;
    }
    if owner != *account {
        if nft::token_flags(&id) & nft::flag::BURNABLE == 0 {
            return Ter::tecNO_PERMISSION;
        }
        let issuer = nft::issuer(&id);
        if issuer != *account {
            if let Some(root) = view.read(&keylet::account(&issuer)) {
                if root.account_of(s.nftoken_minter) != Some(*account) {
                    return Ter::tecNO_PERMISSION;
                }
            }
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let owner = ctx.tx.account_of(s.owner).unwrap_or(ctx.account);
    let Some(id) = ctx.tx.h256_of(s.nftoken_id) else {
        return Err(Ter::temMALFORMED);
    };
    nft::remove_token(&mut ctx.sb, &owner, &id).into_result()?;
    let issuer_key = keylet::account(&nft::issuer(&id));
    if let Some(mut root) = ctx.sb.peek(&issuer_key) {
        let burned = root.u32_of(s.burned_nftokens).unwrap_or(0).wrapping_add(1);
        root.set(s.burned_nftokens, StValue::UInt32(burned));
        ctx.sb.update(issuer_key, root);
    }
    let sells =
        nft::remove_offers_with_limit(&mut ctx.sb, &keylet::nft_sells(&id), DELETABLE_OFFERS_MAX);
    if sells < DELETABLE_OFFERS_MAX {
        nft::remove_offers_with_limit(
            &mut ctx.sb,
            &keylet::nft_buys(&id),
            DELETABLE_OFFERS_MAX - sells,
        );
    }
    Ok(())
}
