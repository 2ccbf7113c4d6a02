//! AMM liquidity inside a book step (rippled `AMMLiquidity.cpp`, `AMMOffer.cpp`,
//! `AMMContext.h`, `changeSpotPriceQuality` in `AMMHelpers.h`): the pool of the book's
//! two assets offers a synthetic offer, sized so that after it the pool's spot price
//! meets the best order book quality (one strand), or by a Fibonacci sequence of small
//! offers (several strands), or as large as the pool allows (no order book offer).

use std::cell::RefCell;
use std::rc::Rc;

use super::quality_fn::QualityFunction;
use super::AMM_FLOW_ITERATIONS_MAX;
use crate::engine::amm::amm_math::{
    fee_mult, solve_quadratic_smallest, swap_asset_in, swap_asset_out,
};
use crate::engine::amm::{amm_for_book, read_amm, trading_fee};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::number::{root2, Number, RoundGuard, RoundingMode};
use crate::protocol::quality::Quality;
use crate::protocol::types::{AccountId, Issue};

/// What the strands of one payment share about AMM use (rippled `AMMContext`).
#[derive(Debug, Default)]
pub struct AmmContext {
    /// The account paying (its auction slot may discount the fee).
    pub account: AccountId,
    /// More than one strand is active this round.
    pub multi_path: bool,
    /// An AMM offer was consumed by the strand just run.
    pub used: bool,
    /// Rounds that consumed an AMM offer.
    pub iters: u32,
}

/// The shared context handle.
pub type AmmCtx = Rc<RefCell<AmmContext>>;

impl AmmContext {
    /// After a round's best strand was kept (rippled `AMMContext::update`).
    pub fn update(&mut self) {
        if self.used {
            self.iters += 1;
        }
        self.used = false;
    }

    fn max_iters_reached(&self) -> bool {
        self.iters >= AMM_FLOW_ITERATIONS_MAX
    }
}

/// One pool as a book step's extra liquidity.
#[derive(Debug, Clone)]
pub struct AmmLiquidity {
    /// The pool's account (the synthetic offers' owner).
    pub account: AccountId,
    fee: u16,
    book_in: Issue,
    book_out: Issue,
    initial: (Amount, Amount),
    ctx: AmmCtx,
}

/// A synthetic offer of the pool.
#[derive(Debug, Clone)]
pub struct AmmOffer {
    /// What the taker pays and gets.
    pub amounts: (Amount, Amount),
    /// The pool before the offer.
    pub balances: (Amount, Amount),
    /// The offer's quality.
    pub quality: Quality,
    multi_path: bool,
    fee: u16,
    ctx: AmmCtx,
}

fn fib(i: u32) -> i64 {
    let (mut a, mut b) = (1i64, 2i64);
    for _ in 0..i {
        let c = a + b;
        a = b;
        b = c;
    }
    a
}

fn quality_of(amounts: &(Amount, Amount)) -> Quality {
    Quality::from_amounts(&amounts.0, &amounts.1)
}

/// rippled `withinRelativeDistance` for qualities: `(min.rate - max.rate) / min.rate`.
pub fn qualities_close(a: &Quality, b: &Quality, dist: Number) -> bool {
    if a == b {
        return true;
    }
    let (worse, better) = if a.worse_than(b) { (a, b) } else { (b, a) };
    let (wr, br) = (
        Number::from_iou(&worse.rate()),
        Number::from_iou(&better.rate()),
    );
    (wr - br) / wr < dist
}

impl AmmLiquidity {
    /// The pool trading `book_in` for `book_out`, if it has LP tokens outstanding.
    pub fn new(
        view: &dyn ReadView,
        book_in: &Issue,
        book_out: &Issue,
        ctx: &AmmCtx,
    ) -> Option<AmmLiquidity> {
        let (_, sle) = read_amm(view, book_in, book_out)?;
        if sle
            .amount_of(sf().lp_token_balance)
            .is_none_or(|a| a.is_zero())
        {
            return None;
        }
        let account = sle.account_of(sf().account)?;
        let fee = trading_fee(view, &sle, &ctx.borrow().account);
        let initial = balances(view, book_in, book_out).unwrap_or((
            crate::engine::funds::zero_of(book_in),
            crate::engine::funds::zero_of(book_out),
        ));
        Some(AmmLiquidity {
            account,
            fee,
            book_in: *book_in,
            book_out: *book_out,
            initial,
            ctx: ctx.clone(),
        })
    }

    /// Forgets that the pool was used (before each strand runs).
    pub fn clear_used(&self) {
        self.ctx.borrow_mut().used = false;
    }

    /// True when several strands compete this round.
    pub fn multi_path(&self) -> bool {
        self.ctx.borrow().multi_path
    }

    fn make(
        &self,
        amounts: (Amount, Amount),
        balances: (Amount, Amount),
        quality: Quality,
    ) -> AmmOffer {
        AmmOffer {
            quality,
            amounts,
            balances,
            multi_path: self.multi_path(),
            fee: self.fee,
            ctx: self.ctx.clone(),
        }
    }

    /// The pool's offer given the order book's best quality (rippled `getOffer`).
    pub fn offer(&self, view: &dyn ReadView, clob: Option<Quality>) -> Option<AmmOffer> {
        if self.ctx.borrow().max_iters_reached() {
            return None;
        }
        let bal = balances(view, &self.book_in, &self.book_out)?;
        let spot = quality_of(&bal);
        if let Some(c) = clob {
            if !spot.better_than(&c) || qualities_close(&spot, &c, Number::new(1, -7)) {
                return None;
            }
        }
        // The pool's largest offer carries the spot price quality (rippled
        // `maxOffer`: `Quality{balances}`); the others their own amounts' quality.
        let (amounts, quality) = if self.multi_path() {
            let a = self.fib_offer(&bal)?;
            if clob.is_some_and(|c| quality_of(&a).worse_than(&c)) {
                return None;
            }
            (a, quality_of(&a))
        } else if let Some(c) = clob {
            let sized = if view.info().rules.enabled(Feature::FixAMMv1_1) {
                Ok(change_spot_price_quality(&bal, &c, self.fee))
            } else {
                spot_price_offer_before_v1_1(&bal, &c, self.fee)
            };
            // SizingThrew: `getOffer`'s catch leaves the pool without an offer.
            match sized.ok()? {
                Some(a) => (a, quality_of(&a)),
                None => {
                    // fixAMMv1_2: the largest offer when it beats the book; before
                    // it, no offer.
                    if !view.info().rules.enabled(Feature::FixAMMv1_2) {
                        return None;
                    }
                    let m = self.max_offer(&bal)?;
                    if !quality_of(&m).better_than(&c) {
                        return None;
                    }
                    (m, spot)
                }
            }
        } else {
            (self.max_offer(&bal)?, spot)
        };
        let positive = |a: &Amount| !a.is_zero() && !a.is_negative();
        (positive(&amounts.0) && positive(&amounts.1)).then(|| self.make(amounts, bal, quality))
    }

    fn max_offer(&self, bal: &(Amount, Amount)) -> Option<(Amount, Amount)> {
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        let out = Amount::from_number(
            &self.book_out,
            bal.1.to_number() * Number::new(99, -2),
            RoundingMode::Downward,
        );
        if out.is_zero()
            || out.is_negative()
            || crate::engine::amm::amm_math::cmp(&out, &bal.1).is_ge()
        {
            return None;
        }
        Some((swap_asset_out(&bal.0, &bal.1, &out, self.fee), out))
    }

    fn fib_offer(&self, bal: &(Amount, Amount)) -> Option<(Amount, Amount)> {
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        let pct = Number::from_i64(5) / Number::from_i64(20_000);
        let cur_in = Amount::from_number(
            &self.book_in,
            pct * self.initial.0.to_number(),
            RoundingMode::Upward,
        );
        let cur_out = swap_asset_in(&self.initial.0, &self.initial.1, &cur_in, self.fee);
        let iters = self.ctx.borrow().iters;
        if iters == 0 {
            return Some((cur_in, cur_out));
        }
        let out = Amount::from_number(
            &self.book_out,
            cur_out.to_number() * Number::from_i64(fib(iters - 1)),
            RoundingMode::Downward,
        );
        if crate::engine::amm::amm_math::cmp(&out, &bal.1).is_ge() {
            return None;
        }
        Some((swap_asset_out(&bal.0, &bal.1, &out, self.fee), out))
    }
}

/// The pool's balances of the two issues (zero when frozen); None when either is zero.
fn balances(view: &dyn ReadView, book_in: &Issue, book_out: &Issue) -> Option<(Amount, Amount)> {
    let pool = amm_for_book(view, book_in, book_out)?;
    Some((pool.balance_in, pool.balance_out))
}

/// rippled `changeSpotPriceQuality` (fixAMMv1_1): an offer after which the pool's spot
/// price quality equals `q`, or whose own quality does, starting from the XRP side.
pub fn change_spot_price_quality(
    pool: &(Amount, Amount),
    q: &Quality,
    fee: u16,
) -> Option<(Amount, Amount)> {
    let amounts = if pool.1.is_xrp() {
        start_with_taker_gets(pool, q, fee)?
    } else {
        start_with_taker_pays(pool, q, fee)?
    };
    if quality_of(&amounts).worse_than(q) {
        return None;
    }
    Some(amounts)
}

/// Where rippled throws while sizing the pool's offer ("changeSpotPriceQuality failed").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizingThrew;

/// rippled `changeSpotPriceQuality` before fixAMMv1_1: solves
/// `i^2 * (1 - fee) + i * I * (2 - fee) + I^2 - I * O / q = 0` for what the taker pays
/// (in the current rounding mode), capped so the offer's own quality can meet `q`,
/// rounded up, and what the pool pays for it by [`swap_asset_in`]. `Ok(None)` when no
/// positive amount solves it; [`SizingThrew`] when the offer's quality misses `q` by
/// more than 1e-7, where rippled throws.
pub fn spot_price_offer_before_v1_1(
    pool: &(Amount, Amount),
    q: &Quality,
    fee: u16,
) -> Result<Option<(Amount, Amount)>, SizingThrew> {
    let rate = Number::from_iou(&q.rate());
    let f = fee_mult(fee);
    let (i, o) = (pool.0.to_number(), pool.1.to_number());
    let (one, two, four) = (
        Number::from_i64(1),
        Number::from_i64(2),
        Number::from_i64(4),
    );
    let b = i * (one + f);
    let c = i * i - i * o * rate;
    let disc = b * b - four * f * c;
    if disc < Number::ZERO {
        return Ok(None);
    }
    let proposed = (-b + root2(disc)) / (two * f);
    if proposed.signum() <= 0 {
        return Ok(None);
    }
    let constraint = o * rate - i / f;
    let pays = if proposed > constraint {
        constraint
    } else {
        proposed
    };
    if pays.signum() <= 0 {
        return Ok(None);
    }
    let taker_pays = Amount::from_number(&pool.0.issue(), pays, RoundingMode::Upward);
    let amounts = (
        taker_pays,
        swap_asset_in(&pool.0, &pool.1, &taker_pays, fee),
    );
    let got = quality_of(&amounts);
    if got.worse_than(q) && !qualities_close(&got, q, Number::new(1, -7)) {
        return Err(SizingThrew);
    }
    Ok(Some(amounts))
}

fn reduce(v: &Amount) -> Number {
    let _g = RoundGuard::new(RoundingMode::TowardsZero);
    v.to_number() * Number::new(9999, -4)
}

fn start_with_taker_gets(
    pool: &(Amount, Amount),
    q: &Quality,
    fee: u16,
) -> Option<(Amount, Amount)> {
    let rate = Number::from_iou(&q.rate());
    if rate.is_zero() {
        return None;
    }
    let _g = RoundGuard::new(RoundingMode::ToNearest);
    let f = fee_mult(fee);
    let (i, o) = (pool.0.to_number(), pool.1.to_number());
    let one = Number::from_i64(1);
    let b = i * (one - one / f) / rate - Number::from_i64(2) * o;
    let c = o * o - (i * o) / rate;
    let mut gets = solve_quadratic_smallest(one, b, c)?;
    if gets.signum() <= 0 {
        return None;
    }
    let constraint = o - i / (rate * f);
    if constraint.signum() <= 0 {
        return None;
    }
    if constraint < gets {
        gets = constraint;
    }
    let amounts = |g: Number| {
        let out = Amount::from_number(&pool.1.issue(), g, RoundingMode::Downward);
        (swap_asset_out(&pool.0, &pool.1, &out, fee), out)
    };
    let a = amounts(gets);
    if quality_of(&a).worse_than(q) {
        return Some(amounts(reduce(&a.1)));
    }
    Some(a)
}

fn start_with_taker_pays(
    pool: &(Amount, Amount),
    q: &Quality,
    fee: u16,
) -> Option<(Amount, Amount)> {
    let rate = Number::from_iou(&q.rate());
    if rate.is_zero() {
        return None;
    }
    let _g = RoundGuard::new(RoundingMode::ToNearest);
    let f = fee_mult(fee);
    let (i, o) = (pool.0.to_number(), pool.1.to_number());
    let one = Number::from_i64(1);
    let b = i * (one + f);
    let c = i * i - i * o * rate;
    let mut pays = solve_quadratic_smallest(f, b, c)?;
    if pays.signum() <= 0 {
        return None;
    }
    let constraint = o * rate - i / f;
    if constraint.signum() <= 0 {
        return None;
    }
    if constraint < pays {
        pays = constraint;
    }
    let amounts = |p: Number| {
        let inp = Amount::from_number(&pool.0.issue(), p, RoundingMode::Downward);
        (inp, swap_asset_in(&pool.0, &pool.1, &inp, fee))
    };
    let a = amounts(pays);
    if quality_of(&a).worse_than(q) {
        return Some(amounts(reduce(&a.0)));
    }
    Some(a)
}

impl AmmOffer {
    /// rippled `AMMOffer::limitOut`: proportional when several strands compete, else
    /// by the pool's swap function.
    pub fn limit_out(
        &self,
        ofr: &(Amount, Amount),
        limit: &Amount,
        round_up: bool,
    ) -> (Amount, Amount) {
        if self.multi_path {
            return self
                .quality
                .ceil_out_strict(&ofr.0, &ofr.1, limit, round_up)
                .unwrap_or_else(|_| super::thrown(&ofr.0, &ofr.1));
        }
        (
            swap_asset_out(&self.balances.0, &self.balances.1, limit, self.fee),
            *limit,
        )
    }

    /// rippled `AMMOffer::limitIn`.
    pub fn limit_in(
        &self,
        ofr: &(Amount, Amount),
        limit: &Amount,
        round_up: bool,
    ) -> (Amount, Amount) {
        if self.multi_path {
            return super::book::ceil_in_gated(&self.quality, ofr, limit, round_up);
        }
        (
            *limit,
            swap_asset_in(&self.balances.0, &self.balances.1, limit, self.fee),
        )
    }

    /// The offer's quality function (rippled `AMMOffer::getQualityFunc`): constant when
    /// several strands compete, the pool's own curve otherwise.
    pub fn quality_function(&self) -> Option<QualityFunction> {
        if self.multi_path {
            return QualityFunction::clob_like(&self.quality);
        }
        QualityFunction::amm(&self.balances.0, &self.balances.1, self.fee)
    }

    /// Marks the pool used this round (the transfers themselves move the pool).
    pub fn consume(&self) {
        self.ctx.borrow_mut().used = true;
    }
}
