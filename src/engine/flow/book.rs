//! Consuming one order book (rippled `BookStep.cpp` with `OfferStream.cpp`): offers at
//! the tip's quality, best first and in time order, each limited by its owner's funds and
//! the transfer rates; unfunded, expired and unauthorized offers met on the way are
//! removed.

use super::amm_liquidity::{AmmLiquidity, AmmOffer};
use super::quality_fn::QualityFunction;
use super::step::{DebtDir, OffersToRemove, PrevInfo, Step, StrandDir};
use super::{amt_cmp, amt_positive, mul_ratio_or_zero, sum_sorted};
use crate::engine::dex::permissioned_dex::offer_in_domain;
use crate::engine::dex::{offer_delete, LiveOffer};
use crate::engine::funds::{account_funds, deep_frozen, require_auth, transfer_rate, zero_of};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::book::directory_entries;
use crate::ledger::keylet;
use crate::ledger::rules::enabled_now;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::amount_math::get_rate;
use crate::protocol::features::Feature;
use crate::protocol::quality::{Quality, QUALITY_ONE};
use crate::protocol::types::{AccountId, Hash256, Issue};

/// Offer crossing's view of a book: the threshold quality, and whether the strand is
/// the default (direct) one.
#[derive(Debug, Clone, Copy)]
pub struct CrossingLimits {
    /// The taker's own quality: offers worse than it are not crossed.
    pub threshold: Quality,
    /// The default path (not auto-bridged).
    pub default_path: bool,
}

/// One book hop.
#[derive(Debug, Clone)]
pub struct BookStep {
    /// What the taker pays into the book.
    pub book_in: Issue,
    /// What the taker gets out of it.
    pub book_out: Issue,
    /// The strand's source.
    pub strand_src: AccountId,
    /// The strand's destination.
    pub strand_dst: AccountId,
    /// The offer owner pays the transfer fee on what it gives (offer crossing).
    pub owner_pays_fee: bool,
    /// Set when offer crossing.
    pub crossing: Option<CrossingLimits>,
    /// Stop after this many offers in one run.
    pub max_offers: u32,
    /// The last run's (in, out).
    pub cache: Option<(Amount, Amount)>,
    /// Used too many offers: do not use again.
    pub inactive: bool,
    /// Offers looked at in the last run.
    pub offers_used: u32,
    /// The pool of the book's two assets, if any.
    pub amm: Option<AmmLiquidity>,
    /// A permissioned DEX book: the domain's (its pool is never used).
    pub domain: Option<Hash256>,
}

/// An offer the step may take: one in the book, or the pool's synthetic one.
#[derive(Debug, Clone)]
pub enum BookOffer {
    /// An Offer entry.
    Clob(LiveOffer),
    /// The AMM's offer.
    Amm(AmmOffer),
}

/// rippled `TOffer::limitIn` / `AMMOffer::limitIn`: the offer cut to take at most
/// `limit` in. fixReducedOffersV2 uses `ceil_in_strict` with the rounding asked for;
/// without it the older `ceil_in` (always rounding `out` up). An offer at quality 0 has
/// no rate to divide by: rippled throws "division by zero".
pub(super) fn ceil_in_gated(
    quality: &Quality,
    ofr: &(Amount, Amount),
    limit: &Amount,
    round_up: bool,
) -> (Amount, Amount) {
    let cut = if enabled_now(Feature::FixReducedOffersV2) {
        quality.ceil_in_strict(&ofr.0, &ofr.1, limit, round_up)
    } else {
        quality.ceil_in(&ofr.0, &ofr.1, limit)
    };
    cut.unwrap_or_else(|_| super::thrown(&ofr.0, &ofr.1))
}

impl BookOffer {
    fn owner(&self, step: &BookStep) -> AccountId {
        match self {
            BookOffer::Clob(o) => o.owner,
            BookOffer::Amm(_) => step.amm.as_ref().map(|a| a.account).unwrap_or_default(),
        }
    }
    fn quality(&self) -> Quality {
        match self {
            BookOffer::Clob(o) => o.quality,
            BookOffer::Amm(a) => a.quality,
        }
    }
    fn amounts(&self) -> (Amount, Amount) {
        match self {
            BookOffer::Clob(o) => (o.pays, o.gets),
            BookOffer::Amm(a) => a.amounts,
        }
    }
    fn limit_out(&self, ofr: (Amount, Amount), limit: &Amount, round_up: bool) -> (Amount, Amount) {
        match self {
            BookOffer::Clob(o) => o
                .quality
                .ceil_out_strict(&ofr.0, &ofr.1, limit, round_up)
                .unwrap_or_else(|_| super::thrown(&ofr.0, &ofr.1)),
            BookOffer::Amm(a) => a.limit_out(&ofr, limit, round_up),
        }
    }
    /// An offer placed at quality 0 (its rate overflowed `getRate`) has no rate to
    /// divide by: rippled's `divRoundStrict` throws "division by zero".
    fn limit_in(&self, ofr: (Amount, Amount), limit: &Amount, round_up: bool) -> (Amount, Amount) {
        match self {
            BookOffer::Clob(o) => ceil_in_gated(&o.quality, &ofr, limit, round_up),
            BookOffer::Amm(a) => a.limit_in(&ofr, limit, round_up),
        }
    }
    fn fully_consumed(&self) -> bool {
        match self {
            BookOffer::Clob(o) => o.fully_consumed(),
            BookOffer::Amm(_) => true,
        }
    }
}

/// The state of one walk over a book.
struct Walk {
    prev: Option<PrevInfo>,
    tr_in: u32,
    tr_out: u32,
    quality: Option<Quality>,
    attempted: bool,
}

/// One offer's amounts as the step would take it.
#[derive(Debug, Clone, Copy)]
struct Take {
    /// What the offer's owner receives and gives (offer terms).
    ofr_in: Amount,
    ofr_out: Amount,
    /// What the step takes in and puts out (with transfer fees).
    stp_in: Amount,
    stp_out: Amount,
    /// What the owner gives, fee included.
    owner_gives: Amount,
    rate_in: u32,
    rate_out: u32,
}

/// The book's tip walker (rippled `BookTip` + `FlowOfferStream`).
struct OfferStream {
    base: Hash256,
    end: Hash256,
    /// The offer at the tip the last time: deleted from the view before moving on.
    tip: Option<Hash256>,
    count: u32,
    limit: u32,
    perm_rm: OffersToRemove,
    /// The domain whose book is walked; none for the open book.
    domain: Option<Hash256>,
}

impl OfferStream {
    fn new(step: &BookStep, limit: u32) -> OfferStream {
        let base = keylet::book_base_in(&step.book_in, &step.book_out, step.domain.as_ref());
        OfferStream {
            base,
            end: keylet::book_end(&base),
            tip: None,
            count: 0,
            limit,
            perm_rm: OffersToRemove::new(),
            domain: step.domain,
        }
    }

    /// The first offer of the best page, with its quality.
    fn tip_of(&self, view: &dyn ReadView) -> Option<(Hash256, Hash256, Quality)> {
        let mut from = self.base;
        loop {
            let dir = view.succ(&from, &self.end)?;
            if let Some((_, key)) = directory_entries(view, &dir).first() {
                return Some((dir, *key, Quality(keylet::book_quality_of(&dir))));
            }
            from = crate::ledger::book_index::next_key(&dir)?;
        }
    }

    /// Moves to the next usable offer; returns it and its owner's funds.
    fn step(
        &mut self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        book_out: &Issue,
    ) -> Option<(LiveOffer, Amount)> {
        loop {
            if let Some(k) = self.tip.take() {
                let _ = offer_delete(sb, &k);
            }
            let (dir, key, quality) = self.tip_of(&*sb)?;
            if self.count >= self.limit {
                return None;
            }
            self.count += 1;
            let Some(entry) = sb.peek(&key) else {
                remove_missing(sb, &dir, &key);
                continue;
            };
            self.tip = Some(key);
            let expiry = entry.u32_of(sf().expiration);
            if expiry.is_some_and(|e| e <= sb.info().parent_close_time) {
                self.perm_rm.insert(key);
                continue;
            }
            let Some(offer) = LiveOffer::from_entry(key, entry, quality) else {
                self.perm_rm.insert(key);
                continue;
            };
            if offer.fully_consumed() {
                self.perm_rm.insert(key);
                continue;
            }
            let paid = offer.issue_in();
            if deep_frozen(&*sb, &offer.owner, &paid.issuer, &paid.currency) {
                self.perm_rm.insert(key);
                continue;
            }
            if left_domain(&*sb, &offer.entry, self.domain.as_ref()) {
                self.perm_rm.insert(key);
                continue;
            }
            let funds = account_funds(&*sb, &offer.owner, &offer.gets, true);
            if !amt_positive(&funds) {
                let original = account_funds(base, &offer.owner, &offer.gets, true);
                if amt_cmp(&original, &funds).is_eq() {
                    self.perm_rm.insert(key);
                }
                continue;
            }
            if small_increased_quality(&offer, &funds, book_out) {
                let original = account_funds(base, &offer.owner, &offer.gets, true);
                if amt_cmp(&original, &funds).is_eq() {
                    self.perm_rm.insert(key);
                }
                continue;
            }
            return Some((offer, funds));
        }
    }
}

/// An offer placed in a domain whose owner is no longer a member (rippled's offer
/// stream, `offerInDomain`): before fixCleanup3_3_0 in whichever book it is met, so a
/// hybrid offer met in the open book is removed too; with it only while walking the
/// domain's book (`domain`), and a hybrid offer stays crossable in the open book.
fn left_domain(
    view: &dyn ReadView,
    entry: &crate::protocol::st::StObject,
    domain: Option<&Hash256>,
) -> bool {
    if view.info().rules.enabled(Feature::FixCleanup3_3_0) {
        return domain.is_some_and(|d| !offer_in_domain(view, entry, d));
    }
    entry
        .h256_of(sf().domain_id)
        .is_some_and(|d| !offer_in_domain(view, entry, &d))
}

/// A key listed in a book page with no entry behind it: take it off the page.
fn remove_missing(sb: &mut Sandbox, dir: &Hash256, key: &Hash256) {
    if let Some(mut page) = sb.peek(dir) {
        let mut v = page
            .v256_of(sf().indexes)
            .map(|v| v.to_vec())
            .unwrap_or_default();
        v.retain(|k| k != key);
        page.set(sf().indexes, crate::protocol::st::StValue::Vector256(v));
        sb.update(*dir, page);
    }
}

/// fixRmSmallIncreasedQOffers: an offer whose funds leave it so small that its
/// effective quality is worse than its page's is removed (rippled
/// `shouldRmSmallIncreasedQOffer`).
fn small_increased_quality(offer: &LiveOffer, funds: &Amount, book_out: &Issue) -> bool {
    if offer.gets.is_xrp() {
        return false;
    }
    if !offer.pays.is_xrp() && amt_cmp(&offer.pays, &offer.gets).is_ge() {
        return false;
    }
    let (eff_in, eff_out) = if offer.owner != book_out.issuer && amt_cmp(funds, &offer.gets).is_lt()
    {
        match offer
            .quality
            .ceil_out_strict(&offer.pays, &offer.gets, funds, false)
        {
            Ok(x) => x,
            Err(_) => return true,
        }
    } else {
        (offer.pays, offer.gets)
    };
    if !amt_positive(&eff_in) || !amt_positive(&eff_out) {
        return true;
    }
    let min_positive = match eff_in {
        Amount::Xrp(d) => d > 1,
        Amount::Iou { value, .. } => {
            value.exponent() > -96 || value.mantissa() > crate::protocol::amount::IOU_MANTISSA_MIN
        }
    };
    if min_positive {
        return false;
    }
    let eff = Quality::from_amounts(&eff_in, &eff_out);
    eff.worse_than(&offer.quality)
}

impl BookStep {
    /// Payments: the sender pays transfer fees (the book redeems); offer crossing: the
    /// owner does (the book issues).
    pub fn debt_dir(&self) -> DebtDir {
        if self.owner_pays_fee {
            DebtDir::Issues
        } else {
            DebtDir::Redeems
        }
    }

    fn rate(&self, view: &dyn ReadView, issue: &Issue) -> u32 {
        if issue.is_xrp() || issue.issuer == self.strand_dst {
            return QUALITY_ONE;
        }
        transfer_rate(view, &issue.issuer)
    }

    /// The book's tip (rippled `BookStep::tip`): the best page's quality, or the pool's
    /// offer when it is better.
    fn tip(&self, view: &dyn ReadView) -> Option<(Quality, Option<AmmOffer>)> {
        let stream = OfferStream::new(self, 0);
        let lob = stream.tip_of(view).map(|(_, _, q)| q);
        let amm = self
            .amm
            .as_ref()
            .and_then(|a| a.offer(view, self.tip_threshold(view, lob)))
            .filter(|o| lob.is_none_or(|l| o.quality.better_than(&l)));
        match amm {
            Some(o) => Some((o.quality, Some(o))),
            None => lob.map(|q| (q, None)),
        }
    }

    /// rippled `adjustQualityWithFees`: a payment charges the transfer rate in (when the
    /// step before redeems) and, when owners pay fees, out (never on a pool's side);
    /// offer crossing charges nothing, except (fixAMMv1_1) the rate in on a single-strand
    /// pool.
    fn adjust_quality(
        &self,
        view: &dyn ReadView,
        q: Quality,
        prev_dir: DebtDir,
        amm: bool,
    ) -> Quality {
        let tr_in = if prev_dir.redeems() {
            self.rate(view, &self.book_in)
        } else {
            QUALITY_ONE
        };
        let tr_out = if self.crossing.is_some() {
            // fixAMMv1_1: a single-strand pool's quality carries the rate in; before it
            // offer crossing leaves every quality as it is.
            let fixed = view.info().rules.enabled(Feature::FixAMMv1_1);
            let single_amm = fixed && amm && self.amm.as_ref().is_some_and(|a| !a.multi_path());
            if !single_amm {
                return q;
            }
            QUALITY_ONE
        } else if self.owner_pays_fee && !amm {
            self.rate(view, &self.book_out)
        } else {
            QUALITY_ONE
        };
        let q1 = Quality(get_rate(
            &Amount::Xrp(tr_out as i64),
            &Amount::Xrp(tr_in as i64),
        ));
        q1.compose(&q).unwrap_or(q)
    }

    /// The tip's quality adjusted for fees, and the debt direction (rippled
    /// `qualityUpperBound`).
    pub fn quality_upper_bound(
        &self,
        view: &dyn ReadView,
        prev_dir: DebtDir,
    ) -> (Option<Quality>, DebtDir) {
        let dir = self.debt_dir();
        let Some((q, amm)) = self.tip(view) else {
            return (None, dir);
        };
        (
            Some(self.adjust_quality(view, q, prev_dir, amm.is_some())),
            dir,
        )
    }

    /// How the step's average quality falls with its output (rippled `getQualityFunc`):
    /// constant for offers, linear for a single-strand pool.
    pub fn quality_function(
        &self,
        view: &dyn ReadView,
        prev_dir: DebtDir,
    ) -> (Option<QualityFunction>, DebtDir) {
        let dir = self.debt_dir();
        let Some((q, amm)) = self.tip(view) else {
            return (None, dir);
        };
        let Some(offer) = amm else {
            let adjusted = self.adjust_quality(view, q, prev_dir, false);
            return (QualityFunction::clob_like(&adjusted), dir);
        };
        let Some(pool) = offer.quality_function() else {
            return (None, dir);
        };
        if pool.is_const() {
            let adjusted = self.adjust_quality(view, q, prev_dir, false);
            return (QualityFunction::clob_like(&adjusted), dir);
        }
        let fees = self.adjust_quality(view, Quality::ONE, prev_dir, true);
        if fees == Quality::ONE {
            return (Some(pool), dir);
        }
        let Some(mut f) = QualityFunction::clob_like(&fees) else {
            return (None, dir);
        };
        f.combine(&pool);
        (Some(f), dir)
    }

    fn rates_for(
        &self,
        prev: Option<&PrevInfo>,
        owner: &AccountId,
        tr_in: u32,
        tr_out: u32,
    ) -> (u32, u32) {
        if self.crossing.is_none() {
            return (tr_in, tr_out);
        }
        let rate_in = if prev.and_then(|p| p.direct_src) == Some(*owner) {
            QUALITY_ONE
        } else {
            tr_in
        };
        let rate_out = if prev.is_some_and(|p| p.book.is_some()) && *owner == self.strand_dst {
            QUALITY_ONE
        } else {
            tr_out
        };
        (rate_in, rate_out)
    }

    /// Sizes one offer as the step would take it (rippled `execOffer` before the
    /// callback).
    fn take_of(
        &self,
        offer: &BookOffer,
        funds: Option<&Amount>,
        rate_in: u32,
        rate_out: u32,
    ) -> Take {
        let (pays, gets) = offer.amounts();
        let mut t = Take {
            ofr_in: pays,
            ofr_out: gets,
            stp_in: mul_ratio_or_zero(&pays, rate_in, QUALITY_ONE, true),
            stp_out: gets,
            owner_gives: mul_ratio_or_zero(&gets, rate_out, QUALITY_ONE, false),
            rate_in,
            rate_out,
        };
        let owner = offer.owner(self);
        let self_funded = !self.book_out.is_xrp() && owner == self.book_out.issuer;
        let funds = match funds {
            Some(f) if !self_funded => *f,
            _ => t.owner_gives,
        };
        if amt_cmp(&funds, &t.owner_gives).is_lt() {
            t.owner_gives = funds;
            t.stp_out = mul_ratio_or_zero(&funds, QUALITY_ONE, rate_out, false);
            let (i, o) = offer.limit_out((t.ofr_in, t.ofr_out), &t.stp_out, false);
            t.ofr_in = i;
            t.ofr_out = o;
            t.stp_in = mul_ratio_or_zero(&t.ofr_in, rate_in, QUALITY_ONE, true);
        }
        t
    }

    /// rippled `limitStepOut`.
    fn limit_out(offer: &BookOffer, t: &mut Take, limit: &Amount) {
        if amt_cmp(limit, &t.stp_out).is_lt() {
            t.stp_out = *limit;
            t.owner_gives = mul_ratio_or_zero(limit, t.rate_out, QUALITY_ONE, false);
            let (i, o) = offer.limit_out((t.ofr_in, t.ofr_out), limit, true);
            t.ofr_in = i;
            t.ofr_out = o;
            t.stp_in = mul_ratio_or_zero(&t.ofr_in, t.rate_in, QUALITY_ONE, true);
        }
    }

    /// rippled `limitStepIn`.
    fn limit_in(offer: &BookOffer, t: &mut Take, limit: &Amount) {
        if amt_cmp(limit, &t.stp_in).is_lt() {
            t.stp_in = *limit;
            let in_limit = mul_ratio_or_zero(limit, QUALITY_ONE, t.rate_in, false);
            let (i, o) = offer.limit_in((t.ofr_in, t.ofr_out), &in_limit, false);
            t.ofr_in = i;
            t.ofr_out = o;
            t.stp_out = t.ofr_out;
            t.owner_gives = mul_ratio_or_zero(&t.ofr_out, t.rate_out, QUALITY_ONE, false);
        }
    }

    /// Moves the offer's side of a take (rippled `consumeOffer`).
    fn consume(&self, sb: &mut Sandbox, offer: &mut BookOffer, t: &Take) {
        let owner = offer.owner(self);
        let paid = super::with_issue(&t.ofr_in, &self.book_in);
        let given = super::with_issue(&t.owner_gives, &self.book_out);
        let _ = crate::engine::funds::account_send(sb, &self.book_in.issuer, &owner, &paid);
        let _ = crate::engine::funds::account_send(sb, &owner, &self.book_out.issuer, &given);
        match offer {
            BookOffer::Clob(o) => o.consume(sb, &t.ofr_in, &t.ofr_out),
            BookOffer::Amm(a) => a.consume(),
        }
    }

    /// rippled `execOffer`: the quality gate, the self-cross and authorization rules,
    /// then `each` with the sized take. False stops the walk.
    #[allow(clippy::too_many_arguments)]
    fn exec_offer(
        &self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        walk: &mut Walk,
        stream: &mut OfferStream,
        offer: &mut BookOffer,
        funds: Option<&Amount>,
        each: &mut dyn FnMut(&BookStep, &mut Sandbox, &mut BookOffer, Take) -> bool,
    ) -> bool {
        let q = offer.quality();
        match walk.quality {
            None => walk.quality = Some(q),
            Some(cur) if cur != q => return false,
            _ => {}
        }
        let owner = offer.owner(self);
        let key = match offer {
            BookOffer::Clob(o) => Some(o.key),
            BookOffer::Amm(_) => None,
        };
        if let (Some(c), Some(k)) = (self.crossing, key) {
            if c.default_path
                && !q.worse_than(&c.threshold)
                && owner == self.strand_src
                && owner == self.strand_dst
            {
                stream.perm_rm.insert(k);
                if !walk.attempted {
                    walk.quality = None;
                }
                return true;
            }
        }
        if require_auth(base, &self.book_in, &owner) != Ter::tesSUCCESS {
            if let Some(k) = key {
                stream.perm_rm.insert(k);
            }
            if !walk.attempted {
                walk.quality = None;
            }
            return true;
        }
        if let Some(c) = self.crossing {
            if c.default_path && q.worse_than(&c.threshold) {
                return false;
            }
        }
        let (rate_in, mut rate_out) =
            self.rates_for(walk.prev.as_ref(), &owner, walk.tr_in, walk.tr_out);
        if matches!(offer, BookOffer::Amm(_)) {
            rate_out = QUALITY_ONE;
        }
        let take = self.take_of(offer, funds, rate_in, rate_out);
        walk.attempted = true;
        each(self, sb, offer, take)
    }

    /// The threshold an AMM offer is generated against when the step runs (rippled
    /// `forEachOffer`'s `tryAMM`): the book's tip; under fixAMMv1_1 `qualityThreshold`,
    /// where a single-strand crossing whose own limit is better than the tip asks for the
    /// pool's largest offer.
    fn amm_threshold(&self, view: &dyn ReadView, lob: Option<Quality>) -> Option<Quality> {
        if !view.info().rules.enabled(Feature::FixAMMv1_1) {
            return lob;
        }
        self.quality_threshold(lob?)
    }

    /// The threshold of the pool's offer in the step's tip (rippled `BookStep::tip`):
    /// under fixAMMv1_1 as when the step runs; before it none, so the tip weighs the
    /// pool's largest offer (or, with several strands, its Fibonacci one).
    fn tip_threshold(&self, view: &dyn ReadView, lob: Option<Quality>) -> Option<Quality> {
        if !view.info().rules.enabled(Feature::FixAMMv1_1) {
            return None;
        }
        self.quality_threshold(lob?)
    }

    /// rippled `qualityThreshold`: the book's tip, or none for a single-strand crossing
    /// whose own limit is better than it.
    fn quality_threshold(&self, lob: Quality) -> Option<Quality> {
        match (self.crossing, &self.amm) {
            (Some(c), Some(a)) if !a.multi_path() && c.threshold.better_than(&lob) => None,
            _ => Some(lob),
        }
    }

    /// Walks the tip quality's offers (the pool's first, when it beats the book),
    /// calling `each` with each sized take; `each` returns false to stop.
    fn for_each_offer(
        &mut self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        prev: Option<&Step>,
        dir: StrandDir,
        ofrs: &mut OffersToRemove,
        mut each: impl FnMut(&BookStep, &mut Sandbox, &mut BookOffer, Take) -> bool,
    ) {
        let prev_info = prev.map(|p| p.info(&*sb, dir));
        let prev_dir = prev_info.as_ref().map_or(DebtDir::Issues, |p| p.dir);
        let mut walk = Walk {
            prev: prev_info,
            tr_in: if prev_dir.redeems() {
                self.rate(&*sb, &self.book_in)
            } else {
                QUALITY_ONE
            },
            tr_out: if self.owner_pays_fee {
                self.rate(&*sb, &self.book_out)
            } else {
                QUALITY_ONE
            },
            quality: None,
            attempted: false,
        };
        let mut stream = OfferStream::new(self, self.max_offers);
        let first = stream.step(sb, base, &self.book_out);
        let lob = first.as_ref().map(|(o, _)| o.quality);
        // rippled's BookStep: no pool in a domain's book.
        let amm_offer = self
            .amm
            .as_ref()
            .filter(|_| self.domain.is_none())
            .and_then(|a| a.offer(&*sb, self.amm_threshold(&*sb, lob)));
        let mut go_on = true;
        if let Some(a) = amm_offer {
            let mut offer = BookOffer::Amm(a);
            go_on = self.exec_offer(
                sb,
                base,
                &mut walk,
                &mut stream,
                &mut offer,
                None,
                &mut each,
            );
        }
        let mut next = if go_on {
            first
        } else {
            stream.tip = None;
            None
        };
        while let Some((offer, funds)) = next {
            let mut offer = BookOffer::Clob(offer);
            if !self.exec_offer(
                sb,
                base,
                &mut walk,
                &mut stream,
                &mut offer,
                Some(&funds),
                &mut each,
            ) {
                stream.tip = None;
                break;
            }
            next = stream.step(sb, base, &self.book_out);
        }
        self.offers_used = stream.count;
        if stream.count >= self.max_offers {
            self.inactive = true;
        }
        ofrs.extend(stream.perm_rm);
    }

    /// The reverse pass.
    pub fn rev(
        &mut self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        prev: Option<&Step>,
        ofrs: &mut OffersToRemove,
        out: &Amount,
    ) -> (Amount, Amount) {
        self.cache = None;
        let zero_in = zero_of(&self.book_in);
        let mut ins: Vec<Amount> = Vec::new();
        let mut outs: Vec<Amount> = Vec::new();
        let mut remaining = *out;
        let mut result = (zero_in, zero_of(&self.book_out));
        let target = *out;
        self.for_each_offer(
            sb,
            base,
            prev,
            StrandDir::Reverse,
            ofrs,
            |step, sb, offer, t| {
                if !amt_positive(&remaining) {
                    return false;
                }
                if amt_cmp(&t.stp_out, &remaining).is_le() {
                    ins.push(t.stp_in);
                    outs.push(t.stp_out);
                    result = (sum_sorted(&ins, &zero_in), sum_sorted(&outs, &target));
                    remaining = target.sub_nearest(&result.1);
                    step.consume(sb, offer, &t);
                    return true;
                }
                let mut adj = t;
                BookStep::limit_out(offer, &mut adj, &remaining);
                remaining = zero_of(&step.book_out);
                ins.push(adj.stp_in);
                outs.push(remaining);
                result = (sum_sorted(&ins, &zero_in), target);
                step.consume(sb, offer, &adj);
                offer.fully_consumed()
            },
        );
        if remaining.is_zero() {
            result.1 = *out;
        }
        self.cache = Some(result);
        result
    }

    /// The forward pass.
    pub fn fwd(
        &mut self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        prev: Option<&Step>,
        ofrs: &mut OffersToRemove,
        inp: &Amount,
    ) -> (Amount, Amount) {
        let cached = self.cache;
        let zero_out = zero_of(&self.book_out);
        let mut ins: Vec<Amount> = Vec::new();
        let mut outs: Vec<Amount> = Vec::new();
        let mut remaining = *inp;
        let mut result = (zero_of(&self.book_in), zero_out);
        let given = *inp;
        self.for_each_offer(
            sb,
            base,
            prev,
            StrandDir::Forward,
            ofrs,
            |step, sb, offer, t| {
                if !amt_positive(&remaining) {
                    return false;
                }
                let mut adj = t;
                let process_more;
                if amt_cmp(&t.stp_in, &remaining).is_le() {
                    ins.push(t.stp_in);
                    outs.push(t.stp_out);
                    result = (sum_sorted(&ins, &given), sum_sorted(&outs, &zero_out));
                    process_more = true;
                } else {
                    BookStep::limit_in(offer, &mut adj, &remaining);
                    ins.push(remaining);
                    outs.push(adj.stp_out);
                    result = (given, sum_sorted(&outs, &zero_out));
                    process_more = false;
                }
                if let Some((c_in, c_out)) = cached {
                    if amt_cmp(&result.1, &c_out).is_gt() && amt_cmp(&result.0, &c_in).is_le() {
                        let last_out = outs.pop().unwrap_or(zero_out);
                        let rem_out = c_out.sub_nearest(&sum_sorted(&outs, &zero_out));
                        let mut rev = t;
                        BookStep::limit_out(offer, &mut rev, &rem_out);
                        if amt_cmp(&rev.stp_in, &remaining).is_eq() {
                            result = (given, c_out);
                            ins = vec![given];
                            outs = vec![c_out];
                            adj = rev;
                            adj.stp_in = remaining;
                            adj.stp_out = rem_out;
                        } else {
                            outs.push(last_out);
                        }
                    }
                }
                remaining = given.sub_nearest(&result.0);
                step.consume(sb, offer, &adj);
                process_more || offer.fully_consumed()
            },
        );
        if remaining.is_zero() {
            result.0 = *inp;
        }
        self.cache = Some(result);
        result
    }
}
