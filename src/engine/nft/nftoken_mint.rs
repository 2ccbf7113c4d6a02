//! NFTokenMint (rippled `NFTokenMint.cpp`): a new NFToken on the minter's pages, its ID
//! built from the flags, transfer fee, issuer, taxon and the issuer's mint count; with
//! an Amount, a sell offer for it too (NFTokenMintOffer).

use crate::engine::nft::{self, OfferTerms, TRANSFER_FEE_MAX, URI_BYTES_MAX};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// NFTokenMint flags (the low 16 bits become the token's flags).
pub mod tf {
    /// The issuer (or its minter) may burn the token.
    pub const BURNABLE: u32 = 0x0000_0001;
    /// Offers in XRP only.
    pub const ONLY_XRP: u32 = 0x0000_0002;
    /// The issuer's transfer fee in an issued currency makes the issuer's trust line when
    /// it has none (the token's `flag::CREATE_TRUST_LINES`); refused since
    /// fixRemoveNFTokenAutoTrustLine.
    pub const TRUST_LINE: u32 = 0x0000_0004;
    /// Holders may transfer the token.
    pub const TRANSFERABLE: u32 = 0x0000_0008;
    /// The URI may change (DynamicNFT).
    pub const MUTABLE: u32 = 0x0000_0010;
    /// Flags NFTokenMint refuses (`tfNFTokenMintMask`; before fixRemoveNFTokenAutoTrustLine
    /// less [`TRUST_LINE`], see [`super::mask`]).
    pub const MASK: u32 =
        super::TF_UNIVERSAL_MASK & !(BURNABLE | ONLY_XRP | TRANSFERABLE | MUTABLE);
}

/// The flags NFTokenMint refuses under the transaction's rules: `tfTrustLine` too from
/// fixRemoveNFTokenAutoTrustLine on (rippled's `tfNFTokenMintOldMask` before it).
pub fn mask() -> u32 {
    if crate::ledger::rules::enabled_now(Feature::FixRemoveNFTokenAutoTrustLine) {
        tf::MASK
    } else {
        tf::MASK & !tf::TRUST_LINE
    }
}

fn offer_terms(tx: &StObject, account: &AccountId) -> Option<OfferTerms> {
    let s = sf();
    Some(OfferTerms {
        account: *account,
        amount: tx.amount_of(s.amount)?,
        destination: tx.account_of(s.destination),
        expiration: tx.u32_of(s.expiration),
        owner: None,
        sell: true,
    })
}

/// checkExtraFeatures: the offer fields (`Amount`, `Destination`, `Expiration`) need
/// NFTokenMintOffer.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    let s = sf();
    let offer = [s.amount, s.destination, s.expiration]
        .into_iter()
        .any(|f| tx.get(f).is_some());
    !offer || rules.enabled(Feature::NFTokenMintOffer)
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & mask() != 0 {
        return Ter::temINVALID_FLAG;
    }
    // The mask holds tfMutable, which is invalid until DynamicNFT.
    if tx.flags() & tf::MUTABLE != 0 && !crate::ledger::rules::enabled_now(Feature::DynamicNFT) {
        return Ter::temINVALID_FLAG;
    }
    if tx.u32_of(s.nftoken_taxon).is_none() {
        return Ter::temMALFORMED;
    }
    if let Some(fee) = tx.u16_of(s.transfer_fee) {
        if fee > TRANSFER_FEE_MAX {
            return Ter::temBAD_NFTOKEN_TRANSFER_FEE;
        }
        if fee > 0 && tx.flags() & tf::TRANSFERABLE == 0 {
            return Ter::temMALFORMED;
        }
    }
    if tx.account_of(s.issuer) == Some(*account) {
        return Ter::temMALFORMED;
    }
    if let Some(uri) = tx.blob_of(s.uri) {
        if uri.is_empty() || uri.len() > URI_BYTES_MAX {
            return Ter::temMALFORMED;
        }
    }
    let has_offer_fields = [s.amount, s.destination, s.expiration]
        .iter()
        .any(|f| tx.get(*f).is_some());
    if has_offer_fields {
        let Some(terms) = offer_terms(tx, account) else {
            return Ter::temMALFORMED;
        };
        return nft::offer_preflight(&terms, tx.flags() as u16);
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if let Some(issuer) = tx.account_of(s.issuer) {
        let Some(root) = view.read(&keylet::account(&issuer)) else {
            return Ter::tecNO_ISSUER;
        };
        if root.account_of(s.nftoken_minter) != Some(*account) {
            return Ter::tecNO_PERMISSION;
        }
    }
    if let Some(terms) = offer_terms(tx, account) {
        if crate::engine::check::expired(view, terms.expiration) {
            return Ter::tecEXPIRED;
        }
        let issuer = tx.account_of(s.issuer).unwrap_or(*account);
        let fee = tx.u16_of(s.transfer_fee).unwrap_or(0);
        let probe = nft::token_id(tx.flags() as u16, fee, &issuer, 0, 0);
        return nft::offer_preclaim(view, &terms, &probe);
    }
    Ter::tesSUCCESS
}

/// The serial of the issuer's next token, counting it minted (fixNFTokenRemint: from
/// FirstNFTokenSequence, the issuer's Sequence when it first minted).
fn next_serial(ctx: &mut ApplyContext, issuer: &AccountId) -> Result<u32, Ter> {
    let s = sf();
    let key = keylet::account(issuer);
    let Some(mut root) = ctx.sb.peek(&key) else {
        return Err(Ter::tecNO_ISSUER);
    };
    if root.get(s.first_nftoken_sequence).is_none() {
        let acct_seq = root.u32_of(s.sequence).unwrap_or(0);
        let own_sequence =
            ctx.tx.get(s.issuer).is_none() && ctx.tx.u32_of(s.ticket_sequence).is_none();
        let first = if own_sequence {
            acct_seq.wrapping_sub(1)
        } else {
            acct_seq
        };
        root.set(s.first_nftoken_sequence, StValue::UInt32(first));
    }
    let minted = root.u32_of(s.minted_nftokens).unwrap_or(0);
    let Some(count) = minted.checked_add(1) else {
        return Err(Ter::tecMAX_SEQUENCE_REACHED);
    };
    root.set(s.minted_nftokens, StValue::UInt32(count));
    let offset = root.u32_of(s.first_nftoken_sequence).unwrap_or(0);
    let serial = offset.wrapping_add(minted);
    if serial.wrapping_add(1) == 0 || serial < offset {
        return Err(Ter::tecMAX_SEQUENCE_REACHED);
    }
    ctx.sb.update(key, root);
    Ok(serial)
}

fn owner_count(ctx: &ApplyContext) -> u32 {
    ctx.sb
        .peek(&keylet::account(&ctx.account))
        .and_then(|r| r.u32_of(sf().owner_count))
        .unwrap_or(0)
}

/// The reserve the account needs now (rippled `accountReserve`).
fn reserve_now(ctx: &ApplyContext) -> i64 {
    let fees = ctx.sb.info().fees;
    ctx.sb
        .peek(&keylet::account(&ctx.account))
        .map_or(fees.account_reserve(0), |r| fees.reserve_of(&r, 0, 0))
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let issuer = tx.account_of(s.issuer).unwrap_or(account);
    let serial = next_serial(ctx, &issuer)?;
    let before = owner_count(ctx);
    let id = nft::token_id(
        tx.flags() as u16,
        tx.u16_of(s.transfer_fee).unwrap_or(0),
        &issuer,
        tx.u32_of(s.nftoken_taxon).unwrap_or(0),
        serial,
    );
    let mut token = StObject::new();
    token.set(s.nftoken_id, StValue::Hash256(id));
    if let Some(uri) = tx.blob_of(s.uri) {
        token.set(s.uri, StValue::Blob(uri.to_vec()));
    }
    nft::insert_token(&mut ctx.sb, &account, token).into_result()?;
    if let Some(terms) = offer_terms(tx, &account) {
        let offer = nft::NewOffer {
            account,
            id,
            amount: terms.amount,
            destination: terms.destination,
            expiration: terms.expiration,
            seq: nft::seq_proxy(tx),
            sell: true,
        };
        nft::create_offer(&mut ctx.sb, ctx.prior_balance, &offer).into_result()?;
    }
    let after = owner_count(ctx);
    if after > before && ctx.prior_balance < reserve_now(ctx) {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    Ok(())
}
