//! OfferCreate (rippled `CreateOffer.cpp`): cross the books through the payment engine
//! as a taker (default path, plus an XRP bridge between two issued currencies), then
//! place what is left at the offer's original quality, unless it was
//! ImmediateOrCancel or FillOrKill.

use super::permissioned_dex::account_in_domain;
use super::{is_positive, offer_delete};
use crate::engine::directory::{dir_add, insert_owned};
use crate::engine::entry::{adjust_owner_count, new_entry, set_flags, with_threading};
use crate::engine::flow::{flow, Crossing, FlowRequest};
use crate::engine::funds::{account_funds, is_global_frozen, transfer_rate, zero_of};
use crate::engine::registry::field_allowed;
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lsf_offer, lt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue, DROPS_MAX, IOU_EXPONENT_MAX, IOU_MANTISSA_MAX};
use crate::protocol::amount_math::{
    div_round, div_round_strict, divide, get_rate, mul_round, multiply,
};
use crate::protocol::features::Feature;
use crate::protocol::quality::{Quality, MAX_TICK_SIZE, QUALITY_ONE};
use crate::protocol::st::{PathStep, StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash160, Hash256, Issue};

/// OfferCreate flags.
pub mod tf {
    /// Do not cross offers of equal quality.
    pub const PASSIVE: u32 = 0x0001_0000;
    /// Cross what can be crossed now; place nothing.
    pub const IMMEDIATE_OR_CANCEL: u32 = 0x0002_0000;
    /// Cross everything or nothing.
    pub const FILL_OR_KILL: u32 = 0x0004_0000;
    /// Sell all of TakerGets even for more than TakerPays.
    pub const SELL: u32 = 0x0008_0000;
    /// A domain offer also placed in the open book (PermissionedDEX).
    pub const HYBRID: u32 = 0x0010_0000;
    /// Bits an OfferCreate may not set.
    pub const MASK: u32 =
        super::TF_UNIVERSAL_MASK & !(PASSIVE | IMMEDIATE_OR_CANCEL | FILL_OR_KILL | SELL | HYBRID);
}

fn legal(a: &Amount) -> bool {
    match a {
        Amount::Xrp(d) => d.unsigned_abs() <= DROPS_MAX,
        Amount::Iou { .. } => true,
    }
}

/// checkExtraFeatures: `DomainID` needs PermissionedDEX; an MPT on either side
/// MPTokensV2.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    let s = sf();
    let mpt = tx.mpt_amount_of(s.taker_pays).is_some() || tx.mpt_amount_of(s.taker_gets).is_some();
    field_allowed(tx, s.domain_id, rules, Feature::PermissionedDEX)
        && (!mpt || rules.enabled(Feature::MPTokensV2))
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    // The mask holds tfHybrid, which is invalid until PermissionedDEX.
    let hybrid = flags & tf::HYBRID != 0;
    if hybrid && !crate::ledger::rules::enabled_now(Feature::PermissionedDEX) {
        return Ter::temINVALID_FLAG;
    }
    if hybrid && tx.get(s.domain_id).is_none() {
        return Ter::temINVALID_FLAG;
    }
    if flags & tf::IMMEDIATE_OR_CANCEL != 0 && flags & tf::FILL_OR_KILL != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.u32_of(s.expiration) == Some(0) {
        return Ter::temBAD_EXPIRATION;
    }
    if tx.u32_of(s.offer_sequence) == Some(0) {
        return Ter::temBAD_SEQUENCE;
    }
    let (Some(pays), Some(gets)) = (tx.amount_of(s.taker_pays), tx.amount_of(s.taker_gets)) else {
        return Ter::temMALFORMED;
    };
    if !legal(&pays) || !legal(&gets) {
        return Ter::temBAD_AMOUNT;
    }
    if pays.is_xrp() && gets.is_xrp() {
        return Ter::temBAD_OFFER;
    }
    if !is_positive(&pays) || !is_positive(&gets) {
        return Ter::temBAD_OFFER;
    }
    let (pi, gi) = (pays.issue(), gets.issue());
    if pi == gi {
        return Ter::temREDUNDANT;
    }
    if pi.currency.is_bad() || gi.currency.is_bad() {
        return Ter::temBAD_CURRENCY;
    }
    if pays.is_xrp() != (pi.issuer == AccountId::ZERO)
        || gets.is_xrp() != (gi.issuer == AccountId::ZERO)
    {
        return Ter::temBAD_ISSUER;
    }
    Ter::tesSUCCESS
}

fn has_expired(view: &dyn ReadView, expiration: Option<u32>) -> bool {
    expiration.is_some_and(|e| e <= view.info().parent_close_time)
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let (Some(pays), Some(gets)) = (tx.amount_of(s.taker_pays), tx.amount_of(s.taker_gets)) else {
        return Err(Ter::temMALFORMED);
    };
    let Some(root) = view.read(&keylet::account(account)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    if is_global_frozen(view, &pays.issue().issuer) || is_global_frozen(view, &gets.issue().issuer)
    {
        return Err(Ter::tecFROZEN);
    }
    if !is_positive(&account_funds(view, account, &gets, true)) {
        return Err(Ter::tecUNFUNDED_OFFER);
    }
    let seq = root.u32_of(s.sequence).unwrap_or(0);
    if tx.u32_of(s.offer_sequence).is_some_and(|c| seq <= c) {
        return Err(Ter::temBAD_SEQUENCE);
    }
    if has_expired(view, tx.u32_of(s.expiration)) {
        return Err(Ter::tecEXPIRED);
    }
    if !pays.is_xrp() {
        check_accept_asset(view, account, &pays.issue()).into_result()?;
    }
    match tx.h256_of(s.domain_id) {
        Some(d) if !account_in_domain(view, account, &d) => Err(Ter::tecNO_PERMISSION),
        _ => Ok(()),
    }
}

/// rippled `CreateOffer::checkAcceptAsset`: may `account` receive `issue`?
pub fn check_accept_asset(view: &dyn ReadView, account: &AccountId, issue: &Issue) -> Ter {
    let Some(issuer) = view.read(&keylet::account(&issue.issuer)) else {
        return Ter::tecNO_ISSUER;
    };
    if issue.issuer == *account {
        return Ter::tesSUCCESS;
    }
    if issuer.is_flag(lsf::REQUIRE_AUTH) {
        let Some(line) = view.read(&keylet::line(account, &issue.issuer, &issue.currency)) else {
            return Ter::tecNO_LINE;
        };
        let bit = if *account > issue.issuer {
            lsf::LOW_AUTH
        } else {
            lsf::HIGH_AUTH
        };
        if line.flags() & bit == 0 {
            return Ter::tecNO_AUTH;
        }
    }
    if refuses_new_line(view, account, issue, &issuer) {
        return Ter::tecNO_LINE;
    }
    if crate::engine::funds::deep_frozen(view, account, &issue.issuer, &issue.currency) {
        return Ter::tecFROZEN;
    }
    Ter::tesSUCCESS
}

/// fixCleanup3_4_0 (rippled #6307): an issuer that set asfDisallowIncomingTrustline
/// refuses the line crossing would open for an account without one, as TrustSet does;
/// before the fix the offer crossed and made the line.
fn refuses_new_line(
    view: &dyn ReadView,
    account: &AccountId,
    issue: &Issue,
    issuer: &StObject,
) -> bool {
    view.info().rules.enabled(Feature::FixCleanup3_4_0)
        && issuer.is_flag(lsf::DISALLOW_INCOMING_TRUSTLINE)
        && view
            .read(&keylet::line(account, &issue.issuer, &issue.currency))
            .is_none()
}

/// What crossing left of the taker's side (`in` = what it gives, `out` = what it wants).
struct Left {
    inp: Amount,
    out: Amount,
}

/// rippled `flowCross`: crosses as a taker paying `inp` for `out`.
/// rippled `flowCross` over a payment sandbox of `sb` (`psbFlow`): the funds left after
/// crossing are read through the crossing's deferred credits, so what the taker received
/// from itself (through its own offers) does not count.
fn flow_cross(
    sb: &mut Sandbox,
    sb_cancel: &mut Sandbox,
    taker: &Taker,
    inp: &Amount,
    out: &Amount,
) -> (Ter, Left) {
    let (ter, left, items) = {
        let mut psb = Sandbox::new_payment(&*sb);
        let (ter, left) = cross_in(&mut psb, sb_cancel, taker, inp, out);
        (ter, left, psb.into_parts().0)
    };
    sb.absorb(items);
    (ter, left)
}

/// Who crosses: the account, the transaction's flags and its domain, if any.
struct Taker {
    account: AccountId,
    flags: u32,
    domain: Option<Hash256>,
}

fn cross_in(
    sb: &mut Sandbox,
    sb_cancel: &mut Sandbox,
    taker: &Taker,
    inp: &Amount,
    out: &Amount,
) -> (Ter, Left) {
    let (account, flags) = (&taker.account, taker.flags);
    let unchanged = Left {
        inp: *inp,
        out: *out,
    };
    let start = account_funds(&*sb, account, inp, true);
    if !is_positive(&start) {
        return (Ter::tecUNFUNDED_OFFER, unchanged);
    }
    let in_issue = inp.issue();
    let mut gateway_rate = QUALITY_ONE;
    let mut send_max = *inp;
    if !inp.is_xrp() && *account != in_issue.issuer {
        gateway_rate = transfer_rate(&*sb, &in_issue.issuer);
        if gateway_rate != QUALITY_ONE {
            let rate = rate_amount(gateway_rate);
            send_max = mul_round(inp, &rate, &in_issue, true).unwrap_or(*inp);
        }
    }
    let mut threshold = Quality::from_amounts(&send_max, out);
    if flags & tf::PASSIVE != 0 {
        threshold = threshold.increment();
    }
    if crate::engine::flow::amt_cmp(&send_max, &start).is_gt() {
        send_max = start;
    }
    let bridge = vec![PathStep {
        account: None,
        currency: Some(Currency::XRP),
        issuer: None,
    }];
    let paths: Vec<Vec<PathStep>> = if !inp.is_xrp() && !out.is_xrp() {
        vec![bridge]
    } else {
        Vec::new()
    };
    let sell = flags & tf::SELL != 0;
    let deliver = if sell { sell_everything(out) } else { *out };
    let req = FlowRequest {
        src: *account,
        dst: *account,
        deliver,
        send_max: Some(send_max),
        paths: &paths,
        default_path: true,
        partial: flags & tf::FILL_OR_KILL == 0,
        owner_pays_fee: true,
        crossing: if sell { Crossing::Sell } else { Crossing::Yes },
        limit_quality: Some(threshold),
        domain: taker.domain,
    };
    let result = flow(sb, &req);
    // rippled's flowCross catches what flow() throws and answers tecINTERNAL.
    if result.ter == Ter::tefEXCEPTION {
        return (Ter::tecINTERNAL, unchanged);
    }
    for k in &result.removable {
        let _ = offer_delete(sb, k);
        let _ = offer_delete(sb_cancel, k);
    }
    if result.ter != Ter::tesSUCCESS {
        // rippled places the offer unchanged when crossing fails.
        return (Ter::tesSUCCESS, unchanged);
    }
    let spent = Spent {
        inp: result.actual_in,
        out: result.actual_out,
        gateway_rate,
    };
    (
        Ter::tesSUCCESS,
        left_after(sb, account, inp, out, &spent, sell),
    )
}

/// What crossing spent and received.
struct Spent {
    inp: Amount,
    out: Amount,
    gateway_rate: u32,
}

/// The part of the offer left to place after crossing, at the original quality
/// (rippled `flowCross` after the flow).
fn left_after(
    sb: &Sandbox,
    account: &AccountId,
    inp: &Amount,
    out: &Amount,
    spent: &Spent,
    sell: bool,
) -> Left {
    let in_issue = inp.issue();
    if !is_positive(&account_funds(sb, account, inp, true)) {
        return Left {
            inp: zero_of(&in_issue),
            out: zero_of(&out.issue()),
        };
    }
    let ni = crate::protocol::amount_math::no_issue();
    let rate = Amount::iou(
        Quality::from_amounts(inp, out).rate(),
        ni.currency,
        ni.issuer,
    );
    if sell {
        let mut paid = spent.inp;
        if spent.gateway_rate != QUALITY_ONE {
            paid =
                div_round(&paid, &rate_amount(spent.gateway_rate), &in_issue, true).unwrap_or(paid);
        }
        let mut left_in = inp.sub_nearest(&with_issue(&paid, &in_issue));
        if left_in.is_negative() {
            left_in = zero_of(&in_issue);
        }
        let left_out = div_round_strict(&left_in, &rate, &out.issue(), false).unwrap_or(*out);
        return Left {
            inp: left_in,
            out: left_out,
        };
    }
    let mut left_out = out.sub_nearest(&with_issue(&spent.out, &out.issue()));
    if left_out.is_negative() {
        left_out = zero_of(&out.issue());
    }
    let left_in = mul_round(&left_out, &rate, &in_issue, true).unwrap_or(*inp);
    Left {
        inp: left_in,
        out: left_out,
    }
}

fn with_issue(a: &Amount, issue: &Issue) -> Amount {
    super::with_issue(a, issue)
}

/// A transfer rate as an amount (rippled's `Rate` in `multiplyRound`).
fn rate_amount(rate: u32) -> Amount {
    let v = IouValue::from_parts(
        rate as u128,
        -9,
        false,
        crate::protocol::amount::Rounding::Nearest,
    )
    .unwrap_or(IouValue::ZERO);
    let ni = crate::protocol::amount_math::no_issue();
    Amount::iou(v, ni.currency, ni.issuer)
}

/// tfSell delivers as much as the books give: the largest amount (half the largest
/// issued value, to leave room for a transfer fee).
fn sell_everything(out: &Amount) -> Amount {
    match out {
        Amount::Xrp(_) => Amount::Xrp(DROPS_MAX as i64),
        Amount::Iou {
            currency, issuer, ..
        } => Amount::iou(
            IouValue::from_parts(
                (IOU_MANTISSA_MAX / 2) as u128,
                IOU_EXPONENT_MAX,
                false,
                crate::protocol::amount::Rounding::Nearest,
            )
            .unwrap_or(IouValue::ZERO),
            *currency,
            *issuer,
        ),
    }
}

/// The smaller TickSize of the two issuers, if either sets one.
fn tick_size(view: &dyn ReadView, pays: &Amount, gets: &Amount) -> u32 {
    let mut t = MAX_TICK_SIZE;
    for a in [pays, gets] {
        if a.is_xrp() {
            continue;
        }
        if let Some(StValue::UInt8(v)) = view
            .read(&keylet::account(&a.issue().issuer))
            .and_then(|r| r.get(sf().tick_size).cloned())
        {
            t = t.min(v as u32);
        }
    }
    t
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let mut sb = Sandbox::new(&ctx.sb);
    let mut sb_cancel = Sandbox::new(&ctx.sb);
    let (ter, keep_main) = apply_guts(&mut sb, &mut sb_cancel, ctx);
    let items = if keep_main {
        drop(sb_cancel);
        sb.into_items()
    } else {
        drop(sb);
        sb_cancel.into_items()
    };
    ctx.sb.absorb(items);
    ter
}

fn apply_guts(sb: &mut Sandbox, sb_cancel: &mut Sandbox, ctx: &ApplyContext) -> (Ter, bool) {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let flags = tx.flags();
    let (Some(mut pays), Some(mut gets)) = (tx.amount_of(s.taker_pays), tx.amount_of(s.taker_gets))
    else {
        return (Ter::temMALFORMED, true);
    };
    let seq = tx
        .u32_of(s.ticket_sequence)
        .unwrap_or_else(|| tx.u32_of(s.sequence).unwrap_or(0));
    let mut rate = get_rate(&gets, &pays);
    if let Some(cancel) = tx.u32_of(s.offer_sequence) {
        let key = keylet::offer(&account, cancel);
        if sb.exists(&key) {
            let t = offer_delete(sb, &key);
            if t != Ter::tesSUCCESS {
                return (t, true);
            }
        }
    }
    let expiration = tx.u32_of(s.expiration);
    if has_expired(&*sb, expiration) {
        return (Ter::tecEXPIRED, true);
    }
    let ts = tick_size(&*sb, &pays, &gets);
    if ts < MAX_TICK_SIZE {
        let q = Quality::from_amounts(&pays, &gets).round(ts);
        let r = q.rate();
        let ni = crate::protocol::amount_math::no_issue();
        let r = Amount::iou(r, ni.currency, ni.issuer);
        if flags & tf::SELL != 0 {
            pays = multiply(&gets, &r, &pays.issue()).unwrap_or(pays);
        } else {
            gets = divide(&pays, &r, &gets.issue()).unwrap_or(gets);
        }
        if gets.is_zero() || pays.is_zero() {
            return (Ter::tesSUCCESS, true);
        }
        rate = get_rate(&gets, &pays);
    }
    let taker = Taker {
        account,
        flags,
        domain: tx.h256_of(s.domain_id),
    };
    let (ter, left) = flow_cross(sb, sb_cancel, &taker, &gets, &pays);
    let ter = if ter == Ter::tecFAILED_PROCESSING && sb.info().open {
        Ter::telFAILED_PROCESSING
    } else {
        ter
    };
    if ter != Ter::tesSUCCESS {
        return (ter, true);
    }
    let crossed = left.inp != gets || left.out != pays;
    if left.inp.is_negative() || left.out.is_negative() {
        return (Ter::tefINTERNAL, true);
    }
    if left.inp.is_zero() || left.out.is_zero() {
        return (Ter::tesSUCCESS, true);
    }
    let (pays, gets) = (left.out, left.inp);
    if flags & tf::FILL_OR_KILL != 0 {
        return (Ter::tecKILLED, false);
    }
    if flags & tf::IMMEDIATE_OR_CANCEL != 0 {
        if !crossed {
            return (Ter::tecKILLED, false);
        }
        return (Ter::tesSUCCESS, true);
    }
    let Some(root) = sb.peek(&keylet::account(&account)) else {
        return (Ter::tefINTERNAL, false);
    };
    if ctx.prior_balance < sb.info().fees.reserve_of(&root, 1, 0) {
        let t = if crossed {
            Ter::tesSUCCESS
        } else {
            Ter::tecINSUF_RESERVE_OFFER
        };
        return (t, true);
    }
    let placed = Placed {
        seq,
        rate,
        expiration,
    };
    (place(sb, &taker, &placed, &pays, &gets), true)
}

/// The offer's sequence, its book quality and its expiration.
struct Placed {
    seq: u32,
    rate: u64,
    expiration: Option<u32>,
}

/// What a book directory page of (`pays`, `gets`) at `rate` says about its book; a
/// domain book's pages also name the domain.
fn describe_book(
    pays: &Amount,
    gets: &Amount,
    rate: u64,
    domain: Option<Hash256>,
) -> impl Fn(&mut StObject) {
    let s = sf();
    let (pi, gi) = (pays.issue(), gets.issue());
    move |p: &mut StObject| {
        p.set(
            s.taker_pays_currency,
            StValue::Hash160(Hash160(pi.currency.0)),
        );
        p.set(s.taker_pays_issuer, StValue::Hash160(Hash160(pi.issuer.0)));
        p.set(
            s.taker_gets_currency,
            StValue::Hash160(Hash160(gi.currency.0)),
        );
        p.set(s.taker_gets_issuer, StValue::Hash160(Hash160(gi.issuer.0)));
        p.set(s.exchange_rate, StValue::UInt64(rate));
        if let Some(d) = domain {
            p.set(s.domain_id, StValue::Hash256(d));
        }
    }
}

/// Puts the offer in its owner's directory and its book page (the domain's book for a
/// domain offer; a hybrid one also goes in the open book, rippled `applyHybrid`).
fn place(sb: &mut Sandbox, taker: &Taker, placed: &Placed, pays: &Amount, gets: &Amount) -> Ter {
    let s = sf();
    let (account, flags) = (&taker.account, taker.flags);
    let key = keylet::offer(account, placed.seq);
    let Some(owner_node) = insert_owned(sb, account, key) else {
        return Ter::tecDIR_FULL;
    };
    adjust_owner_count(sb, account, 1);
    let base = keylet::book_base_in(&pays.issue(), &gets.issue(), taker.domain.as_ref());
    let dir = keylet::book_quality_key(&base, placed.rate);
    let describe = describe_book(pays, gets, placed.rate, taker.domain);
    let Some(book_node) = dir_add(sb, &dir, key, false, &describe) else {
        return Ter::tecDIR_FULL;
    };
    let mut offer = with_threading(new_entry(lt::OFFER));
    offer.set(s.account, StValue::AccountId(*account));
    offer.set(s.sequence, StValue::UInt32(placed.seq));
    offer.set(s.book_directory, StValue::Hash256(dir));
    offer.set(s.taker_pays, StValue::Amount(*pays));
    offer.set(s.taker_gets, StValue::Amount(*gets));
    offer.set(s.owner_node, StValue::UInt64(owner_node));
    offer.set(s.book_node, StValue::UInt64(book_node));
    if let Some(e) = placed.expiration {
        offer.set(s.expiration, StValue::UInt32(e));
    }
    let mut f = 0;
    if flags & tf::PASSIVE != 0 {
        f |= lsf_offer::PASSIVE;
    }
    if flags & tf::SELL != 0 {
        f |= lsf_offer::SELL;
    }
    if let Some(d) = taker.domain {
        offer.set(s.domain_id, StValue::Hash256(d));
    }
    if flags & tf::HYBRID != 0 {
        f |= lsf_offer::HYBRID;
        let Some(books) = place_in_open_book(sb, key, placed.rate, pays, gets) else {
            return Ter::tecDIR_FULL;
        };
        offer.set(s.additional_books, books);
    }
    set_flags(&mut offer, f, 0);
    sb.insert(key, offer);
    Ter::tesSUCCESS
}

/// A hybrid offer's page in the open book (no DomainID on that page), as the
/// `AdditionalBooks` array it records.
fn place_in_open_book(
    sb: &mut Sandbox,
    key: Hash256,
    rate: u64,
    pays: &Amount,
    gets: &Amount,
) -> Option<StValue> {
    let s = sf();
    let dir = keylet::book_quality_key(&keylet::book_base(&pays.issue(), &gets.issue()), rate);
    let node = dir_add(sb, &dir, key, false, &describe_book(pays, gets, rate, None))?;
    let mut book = StObject::new();
    book.set(s.book_directory, StValue::Hash256(dir));
    book.set(s.book_node, StValue::UInt64(node));
    Some(StValue::Array(vec![(s.book, book)]))
}

/// What the queue weighs (rippled `CreateOffer::makeTxConsequences`): TakerGets, when
/// it is XRP.
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    crate::engine::consequences::TxConsequences::spending(tx, sf().taker_gets)
}
