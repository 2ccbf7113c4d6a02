//! NFTokenModify (rippled `NFTokenModify.cpp`, DynamicNFT): the issuer (or its minter)
//! changes or removes the URI of a token minted with tfMutable.

use crate::engine::nft::{self, URI_BYTES_MAX};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.h256_of(s.nftoken_id).is_none() || tx.account_of(s.owner) == Some(*account) {
        return Ter::temMALFORMED;
    }
    if let Some(uri) = tx.blob_of(s.uri) {
        if uri.is_empty() || uri.len() > URI_BYTES_MAX {
            return Ter::temMALFORMED;
        }
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
    if nft::token_flags(&id) & nft::flag::MUTABLE == 0 {
        return Ter::tecNO_PERMISSION;
    }
    let issuer = nft::issuer(&id);
    if issuer != *account {
        let Some(root) = view.read(&keylet::account(&issuer)) else {
            return Ter::tecINTERNAL;
        };
        if root.account_of(s.nftoken_minter) != Some(*account) {
            return Ter::tecNO_PERMISSION;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let owner = ctx.tx.account_of(s.owner).unwrap_or(ctx.account);
    let Some(id) = ctx.tx.h256_of(s.nftoken_id) else {
        return Ter::temMALFORMED;
    };
    nft::change_token_uri(&mut ctx.sb, &owner, &id, ctx.tx.blob_of(s.uri))
}
