//! Paths to strands (rippled `PaySteps.cpp` `toStrand` / `toStrands`): each path is
//! normalized with its implied nodes (the source, SendMax's issuer, the book to the
//! delivered asset, the Amount's issuer, the destination), then each pair of nodes
//! becomes a step, checked as rippled checks it.

use std::collections::BTreeSet;

use super::amm_liquidity::{AmmCtx, AmmLiquidity};
use super::book::{BookStep, CrossingLimits};
use super::direct::DirectStep;
use super::step::Step;
use super::xrp_endpoint::XrpEndpointStep;
use super::{Crossing, FlowRequest, FLOW_BOOK_OFFERS_MAX};
use crate::engine::funds::{is_global_frozen, lp_token_frozen};
use crate::engine::ter::Ter;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::PathStep;
use crate::protocol::types::{AccountId, Currency, Issue};

/// A normalized path node: an account, or an offer node (currency and/or issuer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    account: Option<AccountId>,
    currency: Option<Currency>,
    issuer: Option<AccountId>,
}

impl Node {
    fn account(a: AccountId) -> Node {
        Node {
            account: Some(a),
            currency: None,
            issuer: None,
        }
    }
    fn is_account(&self) -> bool {
        self.account.is_some()
    }
    fn is_offer(&self) -> bool {
        self.account.is_none()
    }
}

/// What the step checks share while one strand is built (rippled `StrandContext`).
struct Ctx<'a> {
    view: &'a dyn ReadView,
    amm: &'a AmmCtx,
    req: &'a FlowRequest<'a>,
    strand_src: AccountId,
    strand_dst: AccountId,
    default_path: bool,
    seen_direct: [BTreeSet<Issue>; 2],
    seen_book_outs: BTreeSet<Issue>,
}

fn consistent(issue: &Issue) -> bool {
    issue.currency.is_xrp() == (issue.issuer == AccountId::ZERO)
}

fn valid_user_path(path: &[PathStep]) -> bool {
    path.iter().all(|pe| {
        let has_account = pe.account.is_some();
        let has_currency = pe.currency.is_some();
        let has_issuer = pe.issuer.is_some();
        if !(has_account || has_currency || has_issuer) {
            return false;
        }
        if has_account && (has_issuer || has_currency) {
            return false;
        }
        if pe.issuer == Some(AccountId::ZERO) || pe.account == Some(AccountId::ZERO) {
            return false;
        }
        if pe.issuer == Some(AccountId::ONE) || pe.account == Some(AccountId::ONE) {
            return false;
        }
        if let (Some(c), Some(i)) = (pe.currency, pe.issuer) {
            if c.is_xrp() != (i == AccountId::ZERO) {
                return false;
            }
        }
        true
    })
}

fn normalize(req: &FlowRequest, path: &[PathStep]) -> Vec<Node> {
    let deliver = req.deliver.issue();
    let send_max = req.send_max.map(|m| m.issue());
    let first = match send_max.unwrap_or(deliver) {
        i if i.is_xrp() => Issue::XRP,
        i => Issue {
            currency: i.currency,
            issuer: req.src,
        },
    };
    let mut norm = vec![Node {
        account: Some(req.src),
        currency: Some(first.currency),
        issuer: Some(first.issuer),
    }];
    if let Some(sm) = send_max {
        let starts_at_issuer = path.first().is_some_and(|p| p.account == Some(sm.issuer));
        if sm.issuer != req.src && !starts_at_issuer {
            norm.push(Node::account(sm.issuer));
        }
    }
    for pe in path {
        norm.push(Node {
            account: pe.account,
            currency: pe.currency,
            issuer: pe.issuer,
        });
    }
    let last_asset = norm.iter().rev().find(|n| n.currency.is_some());
    let needs_book = match last_asset {
        Some(n) => {
            n.currency != Some(deliver.currency)
                || (req.crossing != Crossing::No && n.issuer != Some(deliver.issuer))
        }
        None => true,
    };
    if needs_book {
        norm.push(Node {
            account: None,
            currency: Some(deliver.currency),
            issuer: Some(deliver.issuer),
        });
    }
    let back = norm[norm.len() - 1];
    if !((back.is_account() && back.account == Some(deliver.issuer)) || req.dst == deliver.issuer) {
        norm.push(Node::account(deliver.issuer));
    }
    let back = norm[norm.len() - 1];
    if !back.is_account() || back.account != Some(req.dst) {
        norm.push(Node::account(req.dst));
    }
    norm
}

/// One path's strand.
fn to_strand(
    view: &dyn ReadView,
    req: &FlowRequest,
    path: &[PathStep],
    amm: &AmmCtx,
) -> Result<Vec<Step>, Ter> {
    let deliver = req.deliver.issue();
    if req.src == AccountId::ZERO
        || req.dst == AccountId::ZERO
        || !consistent(&deliver)
        || req.send_max.is_some_and(|m| !consistent(&m.issue()))
    {
        return Err(Ter::temBAD_PATH);
    }
    if req.src == AccountId::ONE
        || req.dst == AccountId::ONE
        || deliver.issuer == AccountId::ONE
        || req
            .send_max
            .is_some_and(|m| m.issue().issuer == AccountId::ONE)
    {
        return Err(Ter::temBAD_PATH);
    }
    if !valid_user_path(path) {
        return Err(Ter::temBAD_PATH);
    }
    let norm = normalize(req, path);
    if norm.len() < 2 {
        return Err(Ter::temBAD_PATH);
    }
    let mut ctx = Ctx {
        view,
        amm,
        req,
        strand_src: norm[0].account.unwrap_or(req.src),
        strand_dst: norm[norm.len() - 1].account.unwrap_or(req.dst),
        default_path: path.is_empty(),
        seen_direct: [BTreeSet::new(), BTreeSet::new()],
        seen_book_outs: BTreeSet::new(),
    };
    let mut cur_asset = match req.send_max.map(|m| m.issue()).unwrap_or(deliver) {
        i if i.is_xrp() => Issue::XRP,
        i => Issue {
            currency: i.currency,
            issuer: req.src,
        },
    };
    let mut strand: Vec<Step> = Vec::new();
    for i in 0..norm.len() - 1 {
        let cur = norm[i];
        let next = norm[i + 1];
        if let Some(a) = cur.account {
            cur_asset.issuer = a;
        } else if let Some(iss) = cur.issuer {
            cur_asset.issuer = iss;
        }
        if let Some(c) = cur.currency {
            cur_asset = Issue {
                currency: c,
                issuer: cur_asset.issuer,
            };
            if c.is_xrp() {
                cur_asset.issuer = AccountId::ZERO;
            }
        }
        if cur.is_offer() && next.is_account() {
            let next_acct = next.account.unwrap_or_default();
            if cur_asset.issuer != next_acct && next_acct != AccountId::ZERO {
                if cur_asset.is_xrp() {
                    if i != norm.len() - 2 {
                        return Err(Ter::temBAD_PATH);
                    }
                    let s = xrp_endpoint(&mut ctx, &strand, next_acct, true)?;
                    strand.push(s);
                } else {
                    let s = direct(
                        &mut ctx,
                        &strand,
                        cur_asset.issuer,
                        next_acct,
                        cur_asset.currency,
                        false,
                    )?;
                    strand.push(s);
                }
            }
            continue;
        }
        if !next.is_offer() && next.currency.is_some_and(|c| c != cur_asset.currency) {
            return Err(Ter::temBAD_PATH);
        }
        let is_last = i == norm.len() - 2;
        let s = to_step(&mut ctx, &strand, &cur, &next, &cur_asset, is_last)?;
        strand.push(s);
    }
    if !check_strand(req, &strand, &deliver) {
        return Err(Ter::temBAD_PATH);
    }
    Ok(strand)
}

fn to_step(
    ctx: &mut Ctx,
    strand: &[Step],
    e1: &Node,
    e2: &Node,
    cur: &Issue,
    is_last: bool,
) -> Result<Step, Ter> {
    let is_first = strand.is_empty();
    if is_first && e1.is_account() && e1.currency.is_some_and(|c| c.is_xrp()) {
        return xrp_endpoint(ctx, strand, e1.account.unwrap_or_default(), false);
    }
    if is_last && e1.account == Some(AccountId::ZERO) && e2.is_account() {
        return xrp_endpoint(ctx, strand, e2.account.unwrap_or_default(), true);
    }
    if let (Some(a), Some(b)) = (e1.account, e2.account) {
        return direct(ctx, strand, a, b, cur.currency, is_last);
    }
    if e1.is_offer() && e2.is_account() {
        return Err(Ter::temBAD_PATH);
    }
    let out_currency = e2.currency.unwrap_or(cur.currency);
    let out_issuer = e2.issuer.unwrap_or(cur.issuer);
    if cur.is_xrp() && out_currency.is_xrp() {
        return Err(Ter::temBAD_PATH);
    }
    let out = if out_currency.is_xrp() {
        Issue::XRP
    } else {
        Issue {
            currency: out_currency,
            issuer: out_issuer,
        }
    };
    book(ctx, strand, *cur, out)
}

fn prev_direct_src(strand: &[Step]) -> Option<AccountId> {
    match strand.last() {
        Some(Step::Direct(d)) => Some(d.src),
        _ => None,
    }
}

fn prev_book(strand: &[Step]) -> Option<(Issue, Issue)> {
    match strand.last() {
        Some(Step::Book(b)) => Some((b.book_in, b.book_out)),
        _ => None,
    }
}

/// rippled `checkFreeze`.
fn check_freeze(
    view: &dyn ReadView,
    src: &AccountId,
    dst: &AccountId,
    currency: &Currency,
) -> Result<(), Ter> {
    if is_global_frozen(view, dst) {
        return Err(Ter::terNO_LINE);
    }
    if let Some(line) = view.read(&keylet::line(src, dst, currency)) {
        let bit = if dst > src {
            lsf::HIGH_FREEZE
        } else {
            lsf::LOW_FREEZE
        };
        if line.flags() & bit != 0 {
            return Err(Ter::terNO_LINE);
        }
        // A deep freeze stops the line whichever side set it.
        if line.flags() & (lsf::LOW_DEEP_FREEZE | lsf::HIGH_DEEP_FREEZE) != 0 {
            return Err(Ter::terNO_LINE);
        }
    }
    // fixFrozenLPTokenTransfer: LP tokens go back to their AMM only from a holder for
    // whom neither of the AMM's assets is frozen.
    if view.info().rules.enabled(Feature::FixFrozenLPTokenTransfer) {
        if let Some(amm_id) = view
            .read(&keylet::account(dst))
            .and_then(|r| r.h256_of(sf().amm_id))
        {
            let Some(amm) = view.read(&amm_id) else {
                return Err(Ter::tecINTERNAL);
            };
            if lp_token_frozen(view, src, &amm) {
                return Err(Ter::terNO_LINE);
            }
        }
    }
    Ok(())
}

/// rippled `checkNoRipple`.
fn check_no_ripple(
    view: &dyn ReadView,
    prev: &AccountId,
    cur: &AccountId,
    next: &AccountId,
    currency: &Currency,
) -> Result<(), Ter> {
    let (Some(line_in), Some(line_out)) = (
        view.read(&keylet::line(prev, cur, currency)),
        view.read(&keylet::line(cur, next, currency)),
    ) else {
        return Err(Ter::terNO_LINE);
    };
    let in_bit = if cur > prev {
        lsf::HIGH_NO_RIPPLE
    } else {
        lsf::LOW_NO_RIPPLE
    };
    let out_bit = if cur > next {
        lsf::HIGH_NO_RIPPLE
    } else {
        lsf::LOW_NO_RIPPLE
    };
    if line_in.flags() & in_bit != 0 && line_out.flags() & out_bit != 0 {
        return Err(Ter::terNO_RIPPLE);
    }
    Ok(())
}

fn direct(
    ctx: &mut Ctx,
    strand: &[Step],
    src: AccountId,
    dst: AccountId,
    currency: Currency,
    is_last: bool,
) -> Result<Step, Ter> {
    let view = ctx.view;
    if src == AccountId::ZERO || dst == AccountId::ZERO || src == dst {
        return Err(Ter::temBAD_PATH);
    }
    let Some(src_root) = view.read(&keylet::account(&src)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    let is_first = strand.is_empty();
    if !(is_last && is_first) {
        check_freeze(view, &src, &dst, &currency)?;
    }
    if let Some(prev_src) = prev_direct_src(strand) {
        check_no_ripple(view, &prev_src, &src, &dst, &currency)?;
    }
    let src_issue = Issue {
        currency,
        issuer: src,
    };
    let dst_issue = Issue {
        currency,
        issuer: dst,
    };
    if ctx.seen_book_outs.contains(&src_issue) {
        match prev_book(strand) {
            Some((_, out)) if out == src_issue => {}
            Some(_) => return Err(Ter::temBAD_PATH_LOOP),
            None => return Err(Ter::temBAD_PATH_LOOP),
        }
    }
    if !ctx.seen_direct[0].insert(src_issue) || !ctx.seen_direct[1].insert(dst_issue) {
        return Err(Ter::temBAD_PATH_LOOP);
    }
    let crossing = ctx.req.crossing != Crossing::No;
    if !crossing {
        let Some(line) = view.read(&keylet::line(&src, &dst, &currency)) else {
            return Err(Ter::terNO_LINE);
        };
        let auth_bit = if src > dst {
            lsf::HIGH_AUTH
        } else {
            lsf::LOW_AUTH
        };
        let balance = crate::engine::ripple::balance_for(&line, &src, &dst);
        if src_root.is_flag(lsf::REQUIRE_AUTH) && line.flags() & auth_bit == 0 && balance.is_zero()
        {
            return Err(Ter::terNO_AUTH);
        }
        if prev_book(strand).is_some() {
            let nr = if src > dst {
                lsf::HIGH_NO_RIPPLE
            } else {
                lsf::LOW_NO_RIPPLE
            };
            if line.flags() & nr != 0 {
                return Err(Ter::terNO_RIPPLE);
            }
        }
        let owed = crate::engine::ripple::balance_for(&line, &src, &dst);
        if owed.signum() <= 0 {
            let limit = crate::engine::ripple::limit_for(&line, &dst, &src);
            if owed.negate() >= limit {
                return Err(Ter::tecPATH_DRY);
            }
        }
    }
    Ok(Step::Direct(DirectStep {
        src,
        dst,
        currency,
        is_last,
        crossing,
        cache: None,
    }))
}

fn xrp_endpoint(
    ctx: &mut Ctx,
    strand: &[Step],
    account: AccountId,
    is_last: bool,
) -> Result<Step, Ter> {
    if account == AccountId::ZERO {
        return Err(Ter::temBAD_PATH);
    }
    if ctx.view.read(&keylet::account(&account)).is_none() {
        return Err(Ter::terNO_ACCOUNT);
    }
    let is_first = strand.is_empty();
    if !is_first && !is_last {
        return Err(Ter::temBAD_PATH);
    }
    if is_last {
        check_freeze(ctx.view, &AccountId::ZERO, &account, &Currency::XRP)?;
    }
    let slot = if is_last { 0 } else { 1 };
    if !ctx.seen_direct[slot].insert(Issue::XRP) {
        return Err(Ter::temBAD_PATH_LOOP);
    }
    let deliver = ctx.req.deliver.issue();
    let reserve_reduction = if ctx.req.crossing != Crossing::No
        && is_first
        && ctx
            .view
            .read(&keylet::line(&account, &deliver.issuer, &deliver.currency))
            .is_none()
    {
        -1
    } else {
        0
    };
    Ok(Step::XrpEndpoint(XrpEndpointStep {
        account,
        is_last,
        reserve_reduction,
        cache: None,
    }))
}

fn book(ctx: &mut Ctx, strand: &[Step], book_in: Issue, book_out: Issue) -> Result<Step, Ter> {
    let view = ctx.view;
    if book_in == book_out || !consistent(&book_in) || !consistent(&book_out) {
        return Err(Ter::temBAD_PATH);
    }
    if !ctx.seen_book_outs.insert(book_out) || ctx.seen_direct[0].contains(&book_out) {
        return Err(Ter::temBAD_PATH_LOOP);
    }
    if ctx.seen_direct[1].contains(&book_out) {
        return Err(Ter::temBAD_PATH_LOOP);
    }
    let issuer_exists = |i: &Issue| i.is_xrp() || view.read(&keylet::account(&i.issuer)).is_some();
    if !issuer_exists(&book_in) || !issuer_exists(&book_out) {
        return Err(Ter::tecNO_ISSUER);
    }
    if let Some(prev) = prev_direct_src(strand) {
        let cur = book_in.issuer;
        let Some(line) = view.read(&keylet::line(&prev, &cur, &book_in.currency)) else {
            return Err(Ter::terNO_LINE);
        };
        let bit = if cur > prev {
            lsf::HIGH_NO_RIPPLE
        } else {
            lsf::LOW_NO_RIPPLE
        };
        if line.flags() & bit != 0 {
            return Err(Ter::terNO_RIPPLE);
        }
    }
    let crossing = match ctx.req.crossing {
        Crossing::No => None,
        _ => Some(CrossingLimits {
            threshold: ctx.req.limit_quality.ok_or(Ter::tefINTERNAL)?,
            default_path: ctx.default_path,
        }),
    };
    Ok(Step::Book(BookStep {
        book_in,
        book_out,
        strand_src: ctx.strand_src,
        strand_dst: ctx.strand_dst,
        owner_pays_fee: ctx.req.owner_pays_fee,
        crossing,
        max_offers: FLOW_BOOK_OFFERS_MAX,
        cache: None,
        inactive: false,
        offers_used: 0,
        amm: AmmLiquidity::new(view, &book_in, &book_out, ctx.amm),
        domain: ctx.req.domain,
    }))
}

/// rippled's `checkStrand`: the steps chain from the source to the destination and
/// end in the delivered currency.
fn check_strand(req: &FlowRequest, strand: &[Step], deliver: &Issue) -> bool {
    let mut cur_acc = req.src;
    let mut cur = match req.send_max.map(|m| m.issue()).unwrap_or(*deliver) {
        i if i.is_xrp() => Issue::XRP,
        i => Issue {
            currency: i.currency,
            issuer: req.src,
        },
    };
    for s in strand {
        let (a, b) = match s {
            Step::Direct(d) => (d.src, d.dst),
            Step::Book(bk) => (bk.book_in.issuer, bk.book_out.issuer),
            Step::XrpEndpoint(x) => {
                if x.is_last {
                    (AccountId::ZERO, x.account)
                } else {
                    (x.account, AccountId::ZERO)
                }
            }
        };
        if a != cur_acc {
            return false;
        }
        match s {
            Step::Book(bk) => {
                if cur != bk.book_in {
                    return false;
                }
                cur = bk.book_out;
            }
            _ if !cur.is_xrp() => cur.issuer = b,
            _ => {}
        }
        cur_acc = b;
    }
    cur_acc == req.dst
        && cur.currency == deliver.currency
        && (cur.issuer == deliver.issuer || cur.issuer == req.dst)
}

/// All strands of a request: the default path (if allowed) and each explicit path,
/// without duplicates (rippled `toStrands`).
pub fn to_strands(
    view: &dyn ReadView,
    req: &FlowRequest,
    amm: &AmmCtx,
) -> Result<Vec<Vec<Step>>, Ter> {
    let mut out: Vec<Vec<Step>> = Vec::new();
    let insert = |s: Vec<Step>, out: &mut Vec<Vec<Step>>| {
        let dup = out
            .iter()
            .any(|o| o.len() == s.len() && o.iter().zip(&s).all(|(a, b)| a.same_as(b)));
        if !dup {
            out.push(s);
        }
    };
    if req.default_path {
        match to_strand(view, req, &[], amm) {
            Ok(s) => insert(s, &mut out),
            Err(t) => {
                if t.is_tem() || req.paths.is_empty() {
                    return Err(t);
                }
            }
        }
    } else if req.paths.is_empty() {
        return Err(Ter::temRIPPLE_EMPTY);
    }
    let mut last_fail = Ter::tesSUCCESS;
    for p in req.paths {
        match to_strand(view, req, p, amm) {
            Ok(s) => insert(s, &mut out),
            Err(t) => {
                if t.is_tem() {
                    return Err(t);
                }
                last_fail = t;
            }
        }
    }
    if out.is_empty() {
        return Err(last_fail);
    }
    Ok(out)
}
