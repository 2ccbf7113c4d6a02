//! NFTokenAcceptOffer (rippled `NFTokenAcceptOffer.cpp`): takes a buy offer (the token's
//! owner sells), a sell offer (the sender buys), or both (a broker matches them and may
//! keep NFTokenBrokerFee). The issuer's transfer fee comes out of what the seller gets.

use std::sync::Arc;

use crate::engine::dex::is_positive;
use crate::engine::funds::{account_funds, account_send, transfer_rate};
use crate::engine::nft::{self, is_sell};
use crate::engine::ripple::QUALITY_ONE;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::amount_math::compare;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};
use std::cmp::Ordering;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let bo = tx.h256_of(s.nftoken_buy_offer);
    let so = tx.h256_of(s.nftoken_sell_offer);
    if bo.is_none() && so.is_none() {
        return Ter::temMALFORMED;
    }
    if let Some(fee) = tx.amount_of(s.nftoken_broker_fee) {
        if bo.is_none() || so.is_none() || !is_positive(&fee) {
            return Ter::temMALFORMED;
        }
    }
    Ter::tesSUCCESS
}

type Loaded = Result<Option<Arc<StObject>>, Ter>;

fn load(view: &dyn ReadView, id: Option<Hash256>) -> Loaded {
    let Some(id) = id else {
        return Ok(None);
    };
    if id.is_zero() {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    }
    let offer = nft::offer_at(view, &id).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    // fixCleanup3_1_3: an expired offer goes on to doApply, which deletes it; before the
    // fix preclaim refused it (`tecEXPIRED`) and it stayed on the ledger.
    if expired(view, &offer) && !fix313(view) {
        return Err(Ter::tecEXPIRED);
    }
    if offer
        .amount_of(sf().amount)
        .is_some_and(|a| a.is_negative())
    {
        return Err(Ter::temBAD_OFFER);
    }
    Ok(Some(offer))
}

fn expired(view: &dyn ReadView, offer: &StObject) -> bool {
    crate::engine::check::expired(view, offer.u32_of(sf().expiration))
}

fn fix313(view: &dyn ReadView) -> bool {
    view.info()
        .rules
        .enabled(crate::protocol::features::Feature::FixCleanup3_1_3)
}

fn amount(o: &StObject) -> Amount {
    o.amount_of(sf().amount).unwrap_or(Amount::Xrp(0))
}

fn less(a: &Amount, b: &Amount) -> bool {
    compare(a, b) == Ordering::Less
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let bo = load(view, tx.h256_of(s.nftoken_buy_offer))?;
    let so = load(view, tx.h256_of(s.nftoken_sell_offer))?;
    if let (Some(b), Some(sl)) = (&bo, &so) {
        brokered_preclaim(view, tx, account, b, sl).into_result()?;
    }
    if let Some(b) = &bo {
        buy_preclaim(view, account, b, so.is_none()).into_result()?;
    }
    if let Some(sl) = &so {
        sell_preclaim(view, account, sl, bo.is_none())?;
    }
    let Some(offer) = bo.as_ref().or(so.as_ref()) else {
        return Err(Ter::tecINTERNAL);
    };
    let id = offer.h256_of(s.nftoken_id).unwrap_or(Hash256::ZERO);
    if let Amount::Iou {
        currency,
        issuer: iou_issuer,
        ..
    } = amount(offer)
    {
        let issuer = nft::issuer(&id);
        if nft::transfer_fee(&id) != 0
            && enforce_trustline(view)
            && nft::token_flags(&id) & nft::flag::CREATE_TRUST_LINES == 0
            && issuer != iou_issuer
            && view
                .read(&keylet::line(&issuer, &iou_issuer, &currency))
                .is_none()
        {
            return Err(Ter::tecNO_LINE);
        }
        if nft::transfer_fee(&id) != 0 && v2(view) {
            return nft::may_receive(view, &issuer, &amount(offer).issue(), true).into_result();
        }
    }
    Ok(())
}

/// Whether the ledger's rules hold fixEnforceNFTokenTrustline: a token's issuer due a
/// transfer fee in an issued currency must already hold its line (`tecNO_LINE`), unless
/// the token asked for automatic lines or the issuer issues the currency; without it the
/// fee's payment makes the line.
fn enforce_trustline(view: &dyn ReadView) -> bool {
    view.info()
        .rules
        .enabled(crate::protocol::features::Feature::FixEnforceNFTokenTrustline)
}

/// Whether the ledger's rules hold fixEnforceNFTokenTrustlineV2: whoever receives an
/// issued currency must hold an authorized line that is not deep-frozen.
fn v2(view: &dyn ReadView) -> bool {
    view.info()
        .rules
        .enabled(crate::protocol::features::Feature::FixEnforceNFTokenTrustlineV2)
}

fn brokered_preclaim(
    view: &dyn ReadView,
    tx: &StObject,
    account: &AccountId,
    bo: &StObject,
    so: &StObject,
) -> Ter {
    let s = sf();
    if bo.h256_of(s.nftoken_id) != so.h256_of(s.nftoken_id) {
        return Ter::tecNFTOKEN_BUY_SELL_MISMATCH;
    }
    let (buy, sell) = (amount(bo), amount(so));
    if buy.issue() != sell.issue() {
        return Ter::tecNFTOKEN_BUY_SELL_MISMATCH;
    }
    if bo.account_of(s.owner) == so.account_of(s.owner) {
        return Ter::tecCANT_ACCEPT_OWN_NFTOKEN_OFFER;
    }
    if less(&buy, &sell) {
        return Ter::tecINSUFFICIENT_PAYMENT;
    }
    for o in [bo, so] {
        if o.account_of(s.destination).is_some_and(|d| d != *account) {
            return Ter::tecNO_PERMISSION;
        }
    }
    if let Some(fee) = tx.amount_of(s.nftoken_broker_fee) {
        if fee.issue() != buy.issue() {
            return Ter::tecNFTOKEN_BUY_SELL_MISMATCH;
        }
        if compare(&fee, &buy) != Ordering::Less {
            return Ter::tecINSUFFICIENT_PAYMENT;
        }
        if less(&buy.sub_in_current_mode(&fee), &sell) {
            return Ter::tecINSUFFICIENT_PAYMENT;
        }
        if !fee.is_xrp() && v2(view) {
            return nft::may_receive(view, account, &fee.issue(), true);
        }
    }
    Ter::tesSUCCESS
}

fn buy_preclaim(view: &dyn ReadView, account: &AccountId, bo: &StObject, direct: bool) -> Ter {
    let s = sf();
    if is_sell(bo) {
        return Ter::tecNFTOKEN_OFFER_TYPE_MISMATCH;
    }
    let owner = bo.account_of(s.owner).unwrap_or_default();
    if owner == *account {
        return Ter::tecCANT_ACCEPT_OWN_NFTOKEN_OFFER;
    }
    if direct {
        let id = bo.h256_of(s.nftoken_id).unwrap_or(Hash256::ZERO);
        if nft::find_token(view, account, &id).is_none() {
            return Ter::tecNO_PERMISSION;
        }
        if bo.account_of(s.destination).is_some_and(|d| d != *account) {
            return Ter::tecNO_PERMISSION;
        }
    }
    let needed = amount(bo);
    if less(&account_funds(view, &owner, &needed, true), &needed) {
        return Ter::tecINSUFFICIENT_FUNDS;
    }
    if !needed.is_xrp() && v2(view) {
        let t = nft::may_receive(view, &owner, &needed.issue(), false);
        if t != Ter::tesSUCCESS || !direct {
            return t;
        }
        return nft::may_receive(view, account, &needed.issue(), true);
    }
    Ter::tesSUCCESS
}

fn sell_preclaim(
    view: &dyn ReadView,
    account: &AccountId,
    so: &StObject,
    direct: bool,
) -> Result<(), Ter> {
    let s = sf();
    if !is_sell(so) {
        return Err(Ter::tecNFTOKEN_OFFER_TYPE_MISMATCH);
    }
    let owner = so.account_of(s.owner).unwrap_or_default();
    if owner == *account {
        return Err(Ter::tecCANT_ACCEPT_OWN_NFTOKEN_OFFER);
    }
    let id = so.h256_of(s.nftoken_id).unwrap_or(Hash256::ZERO);
    if nft::find_token(view, &owner, &id).is_none() {
        return Err(Ter::tecNO_PERMISSION);
    }
    let needed = amount(so);
    if direct {
        if so.account_of(s.destination).is_some_and(|d| d != *account) {
            return Err(Ter::tecNO_PERMISSION);
        }
        if less(&account_funds(view, account, &needed, true), &needed) {
            return Err(Ter::tecINSUFFICIENT_FUNDS);
        }
    }
    if !needed.is_xrp() {
        let issue = needed.issue();
        if v2(view) {
            nft::trustline_authorized(view, &owner, &issue).into_result()?;
            if direct {
                nft::trustline_authorized(view, account, &issue).into_result()?;
            }
        }
        return nft::trustline_deep_frozen(view, &owner, &issue).into_result();
    }
    Ok(())
}

/// rippled `accountSend` with the currency issuer's transfer fee (the sender pays it),
/// then fixNonFungibleTokensV1_2's check that neither side went below zero.
fn pay(ctx: &mut ApplyContext, from: &AccountId, to: &AccountId, amt: &Amount) -> Result<(), Ter> {
    if amt.is_negative() {
        return Err(Ter::tecINTERNAL);
    }
    send_with_fee(ctx, from, to, amt)?;
    for who in [from, to] {
        if account_funds(&ctx.sb, who, amt, true).is_negative() {
            return Err(Ter::tecINSUFFICIENT_FUNDS);
        }
    }
    Ok(())
}

fn send_with_fee(
    ctx: &mut ApplyContext,
    from: &AccountId,
    to: &AccountId,
    amt: &Amount,
) -> Result<(), Ter> {
    let Amount::Iou {
        value,
        currency,
        issuer,
    } = *amt
    else {
        return account_send(&mut ctx.sb, from, to, amt);
    };
    let rate = transfer_rate(&ctx.sb, &issuer);
    if from == to || *from == issuer || *to == issuer || value.is_zero() || rate == QUALITY_ONE {
        return account_send(&mut ctx.sb, from, to, amt);
    }
    let rate_amt = nft::fee_rate_amount(rate);
    let Ok(Amount::Iou { value: actual, .. }) =
        crate::protocol::amount_math::multiply(amt, &rate_amt, &amt.issue())
    else {
        return Err(Ter::tecINTERNAL);
    };
    crate::engine::funds::credit_line(&mut ctx.sb, &issuer, to, &currency, &value)?;
    crate::engine::funds::credit_line(&mut ctx.sb, from, &issuer, &currency, &actual)
}

/// Moves the token from `seller` to `buyer`; with fixNFTokenReserve the buyer needs the
/// reserve for a new page out of what it has left.
fn transfer_token(
    ctx: &mut ApplyContext,
    buyer: &AccountId,
    seller: &AccountId,
    id: &Hash256,
) -> Result<(), Ter> {
    let Some(token) = nft::find_token(&ctx.sb, seller, id) else {
        return Err(Ter::tecINTERNAL);
    };
    nft::remove_token(&mut ctx.sb, seller, id).into_result()?;
    let count = |ctx: &ApplyContext| {
        ctx.sb.peek(&keylet::account(buyer)).map(|r| {
            (
                r.u32_of(sf().owner_count).unwrap_or(0),
                r.drops_of(sf().balance),
                ctx.sb.info().fees.reserve_of(&r, 0, 0),
            )
        })
    };
    let Some((before, _, _)) = count(ctx) else {
        return Err(Ter::tecINTERNAL);
    };
    let t = nft::insert_token(&mut ctx.sb, buyer, token);
    let (after, balance, reserve) = count(ctx).unwrap_or((before, 0, 0));
    if after > before && balance < reserve {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    t.into_result()
}

/// The issuer's cut of `amount`, when it is neither side of the sale.
fn issuer_cut(
    id: &Hash256,
    amount: &Amount,
    buyer: &AccountId,
    seller: &AccountId,
) -> Option<(AccountId, Amount)> {
    let fee = nft::transfer_fee(id);
    let issuer = nft::issuer(id);
    if fee == 0 || amount.is_zero() || issuer == *buyer || issuer == *seller {
        return None;
    }
    let cut = nft::issuer_cut(amount, fee);
    (!cut.is_zero()).then_some((issuer, cut))
}

fn accept_one(ctx: &mut ApplyContext, offer: &StObject) -> Result<(), Ter> {
    let s = sf();
    let owner = offer.account_of(s.owner).unwrap_or_default();
    let (seller, buyer) = if is_sell(offer) {
        (owner, ctx.account)
    } else {
        (ctx.account, owner)
    };
    let id = offer.h256_of(s.nftoken_id).unwrap_or(Hash256::ZERO);
    let mut amt = amount(offer);
    if !amt.is_zero() {
        if let Some((issuer, cut)) = issuer_cut(&id, &amt, &buyer, &seller) {
            pay(ctx, &buyer, &issuer, &cut)?;
            amt = amt.sub_in_current_mode(&cut);
        }
        pay(ctx, &buyer, &seller, &amt)?;
    }
    transfer_token(ctx, &buyer, &seller, &id)
}

fn accept_brokered(ctx: &mut ApplyContext, bo: &StObject, so: &StObject) -> Result<(), Ter> {
    let s = sf();
    let buyer = bo.account_of(s.owner).unwrap_or_default();
    let seller = so.account_of(s.owner).unwrap_or_default();
    let id = so.h256_of(s.nftoken_id).unwrap_or(Hash256::ZERO);
    let mut amt = amount(bo);
    if let Some(fee) = ctx
        .tx
        .amount_of(s.nftoken_broker_fee)
        .filter(|f| !f.is_zero())
    {
        let broker = ctx.account;
        pay(ctx, &buyer, &broker, &fee)?;
        amt = amt.sub_in_current_mode(&fee);
    }
    if let Some((issuer, cut)) = issuer_cut(&id, &amt, &buyer, &seller) {
        pay(ctx, &buyer, &issuer, &cut)?;
        amt = amt.sub_in_current_mode(&cut);
    }
    if is_positive(&amt) {
        pay(ctx, &buyer, &seller, &amt)?;
    }
    transfer_token(ctx, &buyer, &seller, &id)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let load = |ctx: &ApplyContext, f| {
        ctx.tx
            .h256_of(f)
            .and_then(|k| nft::offer_at(&ctx.sb, &k).map(|o| (k, o)))
    };
    let bo = load(ctx, s.nftoken_buy_offer);
    let so = load(ctx, s.nftoken_sell_offer);
    // fixCleanup3_1_3: the expired offers are deleted and the acceptance is `tecEXPIRED`
    // (the transactor deletes them again once the rest is thrown away).
    if fix313(&ctx.sb) {
        let mut found = false;
        for (key, o) in bo.iter().chain(so.iter()) {
            if expired(&ctx.sb, o) {
                if !nft::delete_offer(&mut ctx.sb, key) {
                    return Ter::tecINTERNAL;
                }
                found = true;
            }
        }
        if found {
            return Ter::tecEXPIRED;
        }
    }
    for (key, _) in bo.iter().chain(so.iter()) {
        if !nft::delete_offer(&mut ctx.sb, key) {
            return Ter::tecINTERNAL;
        }
    }
    match (bo, so) {
        (Some((_, b)), Some((_, sl))) => Ter::from(accept_brokered(ctx, &b, &sl)),
        (Some((_, o)), None) | (None, Some((_, o))) => Ter::from(accept_one(ctx, &o)),
        (None, None) => Ter::tecINTERNAL,
    }
}
