//! The payment engine (rippled `Flow.cpp`, `StrandFlow.h`): a payment or an offer's
//! crossing is a set of strands (paths turned into steps); each round the strands are
//! ranked by their best possible quality, the best one that yields liquidity is run
//! (reverse pass to find the limiting step, forward pass from it), and its changes are
//! kept, until the amount is delivered, the source's limit is spent or all are dry.

pub mod amm_liquidity;
pub mod book;
pub mod direct;
pub mod quality_fn;
pub mod step;
pub mod strand;
pub mod xrp_endpoint;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use self::amm_liquidity::{AmmContext, AmmCtx};

use self::step::{DebtDir, OffersToRemove, Step};
use super::dex::offer_delete;
use super::sandbox::{Item, Sandbox};
use super::ter::Ter;
use crate::ledger::deferred::DeferredCredits;
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::amount_math::{compare, mul_ratio};
use crate::protocol::features::Feature;
use crate::protocol::number::Number;
use crate::protocol::quality::Quality;
use crate::protocol::st::PathStep;
use crate::protocol::types::{AccountId, Hash256, Issue};

/// Rounds of the payment engine before it gives up (`maxTries` in rippled's
/// `StrandFlow.h`): telFAILED_PROCESSING.
pub const FLOW_TRIES_MAX: usize = 1000;
/// Offers the payment engine looks at across all rounds before it stops adding
/// liquidity (`maxOffersToConsider`, FlowSortStrands).
pub const FLOW_OFFERS_CONSIDERED_MAX: u32 = 1500;
/// Offers one book step looks at in one run before its strand is marked inactive
/// (`getMaxOffersToConsume` with fix1515).
pub const FLOW_BOOK_OFFERS_MAX: u32 = 1000;
/// Payment-engine rounds that may consume an AMM offer (rippled `AMMContext::MaxIterations`).
pub const AMM_FLOW_ITERATIONS_MAX: u32 = 30;

/// Offer crossing mode (rippled `OfferCrossing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossing {
    /// A payment.
    No,
    /// An OfferCreate.
    Yes,
    /// An OfferCreate with tfSell.
    Sell,
}

/// What to move.
#[derive(Debug, Clone)]
pub struct FlowRequest<'p> {
    /// Who pays.
    pub src: AccountId,
    /// Who receives.
    pub dst: AccountId,
    /// What to deliver (its issue is what arrives).
    pub deliver: Amount,
    /// The most to spend (its issue is what leaves).
    pub send_max: Option<Amount>,
    /// Explicit paths.
    pub paths: &'p [Vec<PathStep>],
    /// Also use the default path.
    pub default_path: bool,
    /// Less than `deliver` is fine.
    pub partial: bool,
    /// Offer owners pay transfer fees (offer crossing).
    pub owner_pays_fee: bool,
    /// Offer crossing.
    pub crossing: Crossing,
    /// No strand worse than this quality is used.
    pub limit_quality: Option<Quality>,
    /// A permissioned DEX payment or offer: books are the domain's.
    pub domain: Option<Hash256>,
}

/// What moved.
#[derive(Debug, Clone)]
pub struct FlowOutcome {
    /// tesSUCCESS, or why nothing was kept.
    pub ter: Ter,
    /// What the source spent.
    pub actual_in: Amount,
    /// What arrived.
    pub actual_out: Amount,
    /// Offers found unfunded, expired or unauthorized (remove even on failure).
    pub removable: OffersToRemove,
}

/// `a` compared to `b` by value.
pub fn amt_cmp(a: &Amount, b: &Amount) -> std::cmp::Ordering {
    compare(a, b)
}

/// True above zero.
pub(crate) fn amt_positive(a: &Amount) -> bool {
    !a.is_zero() && !a.is_negative()
}

/// `a * num / den` rounded as asked; zero when it overflows, with the Number fault
/// raised (rippled's `mulRatio` throws: [`flow`] fails as rippled's caller answers it).
pub(crate) fn mul_ratio_or_zero(a: &Amount, num: u32, den: u32, up: bool) -> Amount {
    mul_ratio(a, num, den, up).unwrap_or_else(|_| thrown(a, a).0)
}

/// Where rippled's arithmetic throws inside a step: zero amounts of `ofr`'s issues, and
/// the Number fault raised, which [`flow`] answers with `tefEXCEPTION`.
pub(crate) fn thrown(a: &Amount, b: &Amount) -> (Amount, Amount) {
    crate::protocol::number::raise_fault();
    (
        super::funds::zero_of(&a.issue()),
        super::funds::zero_of(&b.issue()),
    )
}

/// The sum of amounts, smallest first (as rippled sums its flat_multisets); `like`'s
/// issue when empty.
pub(crate) fn sum_sorted(v: &[Amount], like: &Amount) -> Amount {
    let mut s = v.to_vec();
    s.sort_by(amt_cmp);
    let mut it = s.into_iter();
    let Some(first) = it.next() else {
        return super::funds::zero_of(&like.issue());
    };
    it.fold(first, |acc, x| acc.add_nearest(&x))
}

/// The value of `a` in `issue`.
pub(crate) fn with_issue(a: &Amount, issue: &Issue) -> Amount {
    super::dex::with_issue(a, issue)
}

/// One strand's run.
struct StrandRun {
    inp: Amount,
    out: Amount,
    items: BTreeMap<Hash256, Item>,
    credits: Option<DeferredCredits>,
    inactive: bool,
}

fn offers_used(strand: &[Step]) -> u32 {
    strand.iter().map(Step::offers_used).sum()
}

/// The quality the strand could give at best (rippled `qualityUpperBound`).
pub fn quality_upper_bound(view: &dyn ReadView, strand: &[Step]) -> Option<Quality> {
    let mut q = Quality::ONE;
    let mut dir = DebtDir::Issues;
    for (i, step) in strand.iter().enumerate() {
        let prev = if i > 0 { Some(&strand[i - 1]) } else { None };
        let (sq, d) = step.quality_upper_bound(view, dir, prev);
        q = q.compose(&sq?).ok()?;
        dir = d;
    }
    Some(q)
}

fn step_at(strand: &mut [Step], i: usize) -> (Option<&Step>, &mut Step) {
    let (before, rest) = strand.split_at_mut(i);
    (before.last(), &mut rest[0])
}

/// A strand from XRP straight to XRP, which rippled's engine never runs
/// (`isDirectXrpToXrp`: the Payment transactor moves XRP itself), so it is dry.
fn is_direct_xrp_to_xrp(strand: &[Step]) -> bool {
    matches!(strand, [Step::XrpEndpoint(_), Step::XrpEndpoint(_)])
}

/// Runs one strand for `out` (at most `max_in` in): rippled's single-strand `flow`.
fn run_strand(
    base: &dyn ReadView,
    strand: &mut [Step],
    max_in: Option<&Amount>,
    out: &Amount,
    ofrs: &mut OffersToRemove,
) -> Option<StrandRun> {
    let n = strand.len();
    if n == 0 || is_direct_xrp_to_xrp(strand) {
        return None;
    }
    let mut sb = Sandbox::new_payment(base);
    let mut limiting = n;
    let mut limit_out = *out;
    let mut step_out = *out;
    for i in (0..n).rev() {
        let (prev, step) = step_at(strand, i);
        let mut r = step.rev(&mut sb, base, prev, ofrs, &step_out);
        if !amt_positive(&r.1) {
            return None;
        }
        if i == 0 && max_in.is_some_and(|m| amt_cmp(m, &r.0).is_lt()) {
            let m = max_in.copied().unwrap_or(r.0);
            sb.discard();
            limiting = i;
            let (prev, step) = step_at(strand, i);
            r = step.fwd(&mut sb, base, prev, ofrs, &m);
            limit_out = r.1;
            if !amt_positive(&r.1) || amt_cmp(&r.0, &m).is_ne() {
                return None;
            }
        } else if amt_cmp(&r.1, &step_out).is_ne() {
            sb.discard();
            limiting = i;
            step_out = r.1;
            let (prev, step) = step_at(strand, i);
            r = step.rev(&mut sb, base, prev, ofrs, &step_out);
            limit_out = r.1;
            if !amt_positive(&r.1) || amt_cmp(&r.1, &step_out).is_ne() {
                return None;
            }
        }
        step_out = r.0;
    }
    let mut step_in = limit_out;
    for i in limiting + 1..n {
        let (prev, step) = step_at(strand, i);
        let r = step.fwd(&mut sb, base, prev, ofrs, &step_in);
        if !amt_positive(&r.1) || amt_cmp(&r.0, &step_in).is_ne() {
            return None;
        }
        step_in = r.1;
    }
    let inp = strand[0].cached_in()?;
    let out = strand[n - 1].cached_out()?;
    let inactive = strand.iter().any(Step::inactive);
    let (items, credits) = sb.into_parts();
    Some(StrandRun {
        inp,
        out,
        items,
        credits,
        inactive,
    })
}

/// Moves value along the request's strands in `sb` (rippled `flow`). On success the
/// changes are in `sb`; on failure `sb` is untouched. Removable offers are reported
/// either way; the caller decides whether to delete them.
pub fn flow(sb: &mut Sandbox, req: &FlowRequest) -> FlowOutcome {
    let zero_in = super::funds::zero_of(&req.send_max.unwrap_or(req.deliver).issue());
    let zero_out = super::funds::zero_of(&req.deliver.issue());
    let fail = |ter: Ter, removable: OffersToRemove| FlowOutcome {
        ter,
        actual_in: zero_in,
        actual_out: zero_out,
        removable,
    };
    let amm: AmmCtx = Rc::new(RefCell::new(AmmContext {
        account: req.src,
        ..AmmContext::default()
    }));
    let strands = match strand::to_strands(&*sb, req, &amm) {
        Ok(s) => s,
        Err(t) => return fail(t, OffersToRemove::new()),
    };
    let out = run_flow(sb, req, strands, &amm, (zero_in, zero_out));
    // An amount past what an STAmount holds, or a division by a zero quality: rippled
    // threw out of flow(). Nothing of the run is kept (`run_flow` keeps nothing once a
    // fault is pending); the caller answers as rippled's catch does (Payment and offer
    // crossing: tecINTERNAL; CheckCash and XChain transfers: none, so tefEXCEPTION).
    if crate::protocol::number::take_fault() {
        return fail(Ter::tefEXCEPTION, OffersToRemove::new());
    }
    out
}

fn run_flow(
    sb: &mut Sandbox,
    req: &FlowRequest,
    mut strands: Vec<Vec<Step>>,
    amm: &AmmCtx,
    (zero_in, zero_out): (Amount, Amount),
) -> FlowOutcome {
    let send_max = req.send_max.filter(|m| !m.is_negative());
    let mut remaining_in = send_max;
    let mut remaining_out = req.deliver;
    let mut ins: Vec<Amount> = Vec::new();
    let mut outs: Vec<Amount> = Vec::new();
    let mut removable_on_fail = OffersToRemove::new();
    let mut fsb = Sandbox::new_payment(&*sb);
    let mut next: Vec<usize> = (0..strands.len()).collect();
    let mut tries = 0usize;
    let mut considered = 0u32;
    while amt_positive(&remaining_out) && remaining_in.is_none_or(|r| amt_positive(&r)) {
        tries += 1;
        if tries >= FLOW_TRIES_MAX {
            return FlowOutcome {
                ter: Ter::telFAILED_PROCESSING,
                actual_in: zero_in,
                actual_out: zero_out,
                removable: removable_on_fail,
            };
        }
        let cur = rank_strands(&fsb, &strands, &next, req.limit_quality);
        amm.borrow_mut().multi_path = cur.len() > 1;
        next.clear();
        // One strand and a quality limit: ask it for the output at which its average
        // quality meets the limit (rippled `limitOut`; it matters for pools).
        let asked = match (cur.as_slice(), req.limit_quality) {
            ([only], Some(lq)) => limit_out(&fsb, &strands[*only], &remaining_out, &lq),
            _ => remaining_out,
        };
        let mut ofrs = OffersToRemove::new();
        let best = best_strand(
            &fsb,
            req,
            &mut strands,
            &cur,
            &mut next,
            (remaining_in.as_ref(), &asked, asked != remaining_out),
            &mut ofrs,
            &mut considered,
        );
        let found = best.is_some();
        if let Some((run, _)) = best {
            ins.push(run.inp);
            outs.push(run.out);
            remaining_out = req.deliver.sub_nearest(&sum_sorted(&outs, &zero_out));
            if let Some(m) = send_max {
                remaining_in = Some(m.sub_nearest(&sum_sorted(&ins, &zero_in)));
            }
            fsb.absorb_payment(run.items, run.credits);
            amm.borrow_mut().update();
        }
        if !ofrs.is_empty() {
            for k in &ofrs {
                let _ = offer_delete(&mut fsb, k);
            }
            removable_on_fail.extend(ofrs);
        }
        if !found || considered >= FLOW_OFFERS_CONSIDERED_MAX {
            break;
        }
    }
    let actual_out = with_issue(&sum_sorted(&outs, &zero_out), &req.deliver.issue());
    let actual_in = with_issue(&sum_sorted(&ins, &zero_in), &zero_in.issue());
    let fail = |ter| FlowOutcome {
        ter,
        actual_in,
        actual_out,
        removable: removable_on_fail.clone(),
    };
    let fill_or_kill = sb.info().rules.enabled(Feature::FixFillOrKill);
    if let Err(t) = final_check(req, &actual_out, remaining_in.as_ref(), fill_or_kill) {
        return fail(t);
    }
    if crate::protocol::number::fault_pending() {
        return fail(Ter::tefEXCEPTION);
    }
    let (items, credits) = fsb.into_parts();
    sb.absorb_payment(items, credits);
    FlowOutcome {
        ter: Ter::tesSUCCESS,
        actual_in,
        actual_out,
        removable: removable_on_fail,
    }
}

/// Runs the round's strands best first; the first that yields liquidity at an
/// acceptable quality wins. `next` gets the strands to try next round.
#[allow(clippy::too_many_arguments)]
fn best_strand(
    fsb: &Sandbox,
    req: &FlowRequest,
    strands: &mut [Vec<Step>],
    cur: &[usize],
    next: &mut Vec<usize>,
    remaining: (Option<&Amount>, &Amount, bool),
    ofrs: &mut OffersToRemove,
    considered: &mut u32,
) -> Option<(StrandRun, usize)> {
    for (pos, &si) in cur.iter().enumerate() {
        if let Some(Step::Book(b)) = strands[si].iter().find(|s| matches!(s, Step::Book(_))) {
            if let Some(a) = &b.amm {
                a.clear_used();
            }
        }
        if req.crossing != Crossing::No {
            if let Some(lq) = req.limit_quality {
                match quality_upper_bound(fsb, &strands[si]) {
                    Some(q) if !q.worse_than(&lq) => {}
                    _ => continue,
                }
            }
        }
        let run = run_strand(fsb, &mut strands[si], remaining.0, remaining.1, ofrs);
        *considered += offers_used(&strands[si]);
        let Some(run) = run else { continue };
        if !amt_positive(&run.out) {
            continue;
        }
        let q = Quality::from_amounts(&run.inp, &run.out);
        // An output limited to meet the quality may miss it by rounding.
        let adjusted = remaining.2;
        if req.limit_quality.is_some_and(|lq| {
            q.worse_than(&lq)
                && (!adjusted || !amm_liquidity::qualities_close(&q, &lq, Number::new(1, -7)))
        }) {
            continue;
        }
        if !run.inactive {
            next.push(si);
        }
        next.extend(cur[pos + 1..].iter().copied());
        return Some((run, si));
    }
    None
}

/// rippled's end-of-flow checks: a short delivery is tecPATH_PARTIAL unless partial
/// (or, under fixFillOrKill, a tfSell crossing); nothing delivered is tecPATH_DRY; a
/// FillOrKill crossing must spend all it may, under fixFillOrKill only a tfSell one (a
/// plain one must receive all of TakerPays instead).
fn final_check(
    req: &FlowRequest,
    actual_out: &Amount,
    remaining_in: Option<&Amount>,
    fill_or_kill: bool,
) -> Result<(), Ter> {
    if amt_cmp(actual_out, &req.deliver).is_ne() {
        if amt_cmp(actual_out, &req.deliver).is_gt() {
            return Err(Ter::tefEXCEPTION);
        }
        if !req.partial {
            if req.crossing == Crossing::No || (fill_or_kill && req.crossing != Crossing::Sell) {
                return Err(Ter::tecPATH_PARTIAL);
            }
        } else if actual_out.is_zero() {
            return Err(Ter::tecPATH_DRY);
        }
    }
    let must_spend = !fill_or_kill || req.crossing == Crossing::Sell;
    if req.crossing != Crossing::No
        && !req.partial
        && must_spend
        && remaining_in.is_some_and(|r| !r.is_zero())
    {
        return Err(Ter::tecPATH_PARTIAL);
    }
    Ok(())
}

/// The output of `strand` at which its average quality is `limit` (rippled `limitOut`):
/// `remaining` unless the strand's quality depends on its output (a pool).
fn limit_out(view: &dyn ReadView, strand: &[Step], remaining: &Amount, limit: &Quality) -> Amount {
    let mut qf: Option<quality_fn::QualityFunction> = None;
    let mut dir = DebtDir::Issues;
    for (i, step) in strand.iter().enumerate() {
        let prev = if i > 0 { Some(&strand[i - 1]) } else { None };
        let (f, d) = step.quality_function(view, dir, prev);
        let Some(f) = f else {
            return *remaining;
        };
        match qf.as_mut() {
            None => qf = Some(f),
            Some(q) => q.combine(&f),
        }
        dir = d;
    }
    let Some(qf) = qf.filter(|q| !q.is_const()) else {
        return *remaining;
    };
    let Some(out) = qf.out_from_avg_q(limit) else {
        return *remaining;
    };
    let out = Amount::from_number(
        &remaining.issue(),
        out,
        crate::protocol::number::RoundingMode::ToNearest,
    );
    if crate::engine::amm::amm_math::within_relative_distance(&out, remaining, Number::new(1, -9)) {
        return *remaining;
    }
    if amt_cmp(&out, remaining).is_lt() {
        out
    } else {
        *remaining
    }
}

/// The strands to try this round, best possible quality first, without those that
/// cannot meet `limit` (rippled `ActiveStrands::activateNext` with FlowSortStrands).
fn rank_strands(
    view: &dyn ReadView,
    strands: &[Vec<Step>],
    next: &[usize],
    limit: Option<Quality>,
) -> Vec<usize> {
    if next.len() <= 1 {
        return next.to_vec();
    }
    let mut ranked: Vec<(Quality, usize)> = Vec::with_capacity(next.len());
    for &i in next {
        if let Some(q) = quality_upper_bound(view, &strands[i]) {
            if limit.is_some_and(|l| q.worse_than(&l)) {
                continue;
            }
            ranked.push((q, i));
        }
    }
    ranked.sort_by_key(|r| r.0 .0);
    ranked.into_iter().map(|(_, i)| i).collect()
}

/// The issue the flow spends.
pub fn in_issue(req: &FlowRequest) -> Issue {
    match req.send_max {
        Some(m) => m.issue(),
        None => req.deliver.issue(),
    }
}
