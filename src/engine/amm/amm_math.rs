//! The AMM formulas (rippled `AMMHelpers.cpp` / `AMMHelpers.h`): LP tokens for a deposit or
//! withdrawal, the asset for an amount of LP tokens, swaps. fixAMMv1_1's rounding (the
//! swaps' staged rounding in the pool's favour, and [`adjust_amounts_by_lp_tokens`]'s
//! amounts) applies when the rules of the transaction being applied enable it ([`v1_1`],
//! rippled's `getCurrentTransactionRules()->enabled(fixAMMv1_1)`); without it the swaps
//! are plain [`Number`] arithmetic in the current mode. fixAMMv1_3's rounding, which keeps
//! `sqrt(pool1 * pool2) >= LPTokenBalance`, applies when the rules of the transaction
//! being applied enable it ([`v1_3`], rippled's `isFeatureEnabled(fixAMMv1_3)` and
//! `rules.enabled(fixAMMv1_3)`); without it each formula keeps the current rounding mode
//! and the helpers that square tokens and assets pass their inputs through.
//!
//! Amounts convert to [`Number`] as rippled's `STAmount` does (XRP drops rounded with
//! the current mode past 16 digits) and back with `toSTAmount` (XRP rounded with the mode
//! asked for, issued values kept at 16 digits). A Number fault (overflow, division by
//! zero) is left for the caller to read with [`crate::protocol::number::take_fault`].

use std::cmp::Ordering;

use super::AMM_FEE_SCALE;
use crate::engine::funds::zero_of;
use crate::ledger::rules::enabled_now;
use crate::protocol::amount::{Amount, DROPS_MAX};
use crate::protocol::features::Feature;
use crate::protocol::number::{
    get_round, raise_fault, root2, set_round, take_fault, Number, RoundGuard, RoundingMode,
};
use crate::protocol::types::Issue;

/// Deposit (`IsDeposit::Yes`) or withdrawal: decides which way amounts round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Into the pool.
    Deposit,
    /// Out of the pool.
    Withdraw,
}

/// Whether the transaction being applied is under fixAMMv1_1.
pub fn v1_1() -> bool {
    enabled_now(Feature::FixAMMv1_1)
}

/// Whether the transaction being applied is under fixAMMv1_3.
pub fn v1_3() -> bool {
    enabled_now(Feature::FixAMMv1_3)
}

fn n(v: i64) -> Number {
    Number::from_i64(v)
}

fn overflow(issue: &Issue) -> Amount {
    raise_fault();
    zero_of(issue)
}

/// Orders two amounts of one issue.
pub fn cmp(a: &Amount, b: &Amount) -> Ordering {
    match (a, b) {
        (Amount::Xrp(x), Amount::Xrp(y)) => x.cmp(y),
        (Amount::Iou { value: x, .. }, Amount::Iou { value: y, .. }) => x.cmp(y),
        _ => a.to_number().cmp(&b.to_number()),
    }
}

/// The smaller of two amounts of one issue.
pub fn min(a: Amount, b: Amount) -> Amount {
    if cmp(&a, &b) == Ordering::Greater {
        b
    } else {
        a
    }
}

/// rippled's `divide(STAmount, STAmount, issue)`: the mantissas' quotient scaled by 10^17
/// plus 5, brought to 16 digits with the current mode.
pub fn st_divide(numer: &Amount, den: &Amount, issue: &Issue) -> Amount {
    let (nm, ne) = parts(numer);
    let (dm, de) = parts(den);
    if dm == 0 {
        return overflow(issue);
    }
    if nm == 0 {
        return zero_of(issue);
    }
    let q = u128::from(nm) * 100_000_000_000_000_000 / u128::from(dm) + 5;
    let negative = numer.is_negative() != den.is_negative();
    let mut q = q;
    let mut e = ne - de - 17;
    while q > i64::MAX as u128 {
        q /= 10;
        e += 1;
    }
    let v = Number::new(if negative { -(q as i64) } else { q as i64 }, e);
    Amount::from_number(issue, v, get_round())
}

/// Mantissa and exponent of an amount, XRP drops brought to at least 16 digits.
fn parts(a: &Amount) -> (u64, i32) {
    match a {
        Amount::Xrp(d) => {
            let (mut m, mut e) = (d.unsigned_abs(), 0);
            if m == 0 {
                return (0, 0);
            }
            while m < 1_000_000_000_000_000 {
                m *= 10;
                e -= 1;
            }
            (m, e)
        }
        Amount::Iou { value, .. } => (value.mantissa(), value.exponent()),
    }
}

/// The trading fee as a fraction (`getFee`: tfee / 100,000).
pub fn get_fee(tfee: u16) -> Number {
    n(i64::from(tfee)) / n(i64::from(AMM_FEE_SCALE))
}

/// `1 - fee` (`feeMult`).
pub fn fee_mult(tfee: u16) -> Number {
    n(1) - get_fee(tfee)
}

/// `1 - fee / 2` (`feeMultHalf`).
pub fn fee_mult_half(tfee: u16) -> Number {
    n(1) - get_fee(tfee) / n(2)
}

/// `amount * frac` rounded with `rm` throughout (`multiply(STAmount, Number, mode)`).
pub fn multiply(amount: &Amount, frac: Number, rm: RoundingMode) -> Amount {
    let _g = RoundGuard::new(rm);
    let t = amount.to_number() * frac;
    Amount::from_number(&amount.issue(), t, rm)
}

/// The LP tokens of a new pool (`ammLPTokens`): `sqrt(asset1 * asset2)` rounded down
/// (fixAMMv1_3; before it, in the current mode).
pub fn amm_lp_tokens(asset1: &Amount, asset2: &Amount, lpt: &Issue) -> Amount {
    let mode = if v1_3() {
        RoundingMode::Downward
    } else {
        get_round()
    };
    let _g = RoundGuard::new(mode);
    let tokens = root2(asset1.to_number() * asset2.to_number());
    Amount::from_number(lpt, tokens, get_round())
}

/// Equation 3: LP tokens for a single-asset deposit (`lpTokensOut`), rounded down.
pub fn lp_tokens_out(
    balance: &Amount,
    deposit: &Amount,
    lpt_balance: &Amount,
    tfee: u16,
) -> Amount {
    let f1 = fee_mult(tfee);
    let f2 = fee_mult_half(tfee) / f1;
    let r = deposit.to_number() / balance.to_number();
    let c = root2(f2 * f2 + r / f1) - f2;
    if !v1_3() {
        let t = lpt_balance.to_number() * (r - c) / (n(1) + c);
        return Amount::from_number(&lpt_balance.issue(), t, get_round());
    }
    let frac = (r - c) / (n(1) + c);
    multiply(lpt_balance, frac, RoundingMode::Downward)
}

/// Equation 4: the asset a single-asset deposit of `lp_tokens` needs (`ammAssetIn`),
/// rounded up.
pub fn amm_asset_in(
    balance: &Amount,
    lpt_balance: &Amount,
    lp_tokens: &Amount,
    tfee: u16,
) -> Amount {
    let f1 = fee_mult(tfee);
    let f2 = fee_mult_half(tfee) / f1;
    let t1 = lp_tokens.to_number() / lpt_balance.to_number();
    let t2 = n(1) + t1;
    let d = f2 - t1 / t2;
    let a = n(1) / (t2 * t2);
    let b = n(2) * d / t2 - n(1) / f1;
    let c = d * d - f2 * f2;
    if !v1_3() {
        return Amount::from_number(
            &balance.issue(),
            balance.to_number() * solve_quadratic(a, b, c),
            get_round(),
        );
    }
    let frac = solve_quadratic(a, b, c);
    multiply(balance, frac, RoundingMode::Upward)
}

/// Equation 7: LP tokens a single-asset withdrawal redeems (`lpTokensIn`), rounded up.
pub fn lp_tokens_in(
    balance: &Amount,
    withdraw: &Amount,
    lpt_balance: &Amount,
    tfee: u16,
) -> Amount {
    let fr = withdraw.to_number() / balance.to_number();
    let f1 = get_fee(tfee);
    let c = fr * f1 + n(2) - f1;
    if !v1_3() {
        let t = lpt_balance.to_number() * (c - root2(c * c - n(4) * fr)) / n(2);
        return Amount::from_number(&lpt_balance.issue(), t, get_round());
    }
    let frac = (c - root2(c * c - n(4) * fr)) / n(2);
    multiply(lpt_balance, frac, RoundingMode::Upward)
}

/// Equation 8: the asset `lp_tokens` withdraw as one asset (`ammAssetOut`), rounded down.
pub fn amm_asset_out(
    balance: &Amount,
    lpt_balance: &Amount,
    lp_tokens: &Amount,
    tfee: u16,
) -> Amount {
    let f = get_fee(tfee);
    let t1 = lp_tokens.to_number() / lpt_balance.to_number();
    if !v1_3() {
        let b = balance.to_number() * (t1 * t1 - t1 * (n(2) - f)) / (t1 * f - n(1));
        return Amount::from_number(&balance.issue(), b, get_round());
    }
    let frac = (t1 * t1 - t1 * (n(2) - f)) / (t1 * f - n(1));
    multiply(balance, frac, RoundingMode::Downward)
}

/// The positive root of `a x^2 + b x + c` (`solveQuadraticEq`).
pub fn solve_quadratic(a: Number, b: Number, c: Number) -> Number {
    (-b + root2(b * b - n(4) * a * c)) / (n(2) * a)
}

/// The smallest root, numerically stable (`solveQuadraticEqSmallest`); `None` when the
/// discriminant is negative.
pub fn solve_quadratic_smallest(a: Number, b: Number, c: Number) -> Option<Number> {
    let d = b * b - n(4) * a * c;
    if d < Number::ZERO {
        return None;
    }
    Some(if b > Number::ZERO {
        (n(2) * c) / (-b - root2(d))
    } else {
        (n(2) * c) / (-b + root2(d))
    })
}

/// Tokens that survive adding to (deposit) or taking from (withdrawal) the LP token
/// balance at 16 digits (`adjustLPTokens`), rounded down.
pub fn adjust_lp_tokens(lpt_balance: &Amount, lp_tokens: &Amount, side: Side) -> Amount {
    let _g = RoundGuard::new(RoundingMode::Downward);
    match side {
        Side::Deposit => lpt_balance
            .add_in_current_mode(lp_tokens)
            .sub_in_current_mode(lpt_balance),
        Side::Withdraw => lp_tokens
            .sub_in_current_mode(lpt_balance)
            .add_in_current_mode(lpt_balance),
    }
}

fn asset_rounding(side: Side) -> RoundingMode {
    match side {
        Side::Deposit => RoundingMode::Upward,
        Side::Withdraw => RoundingMode::Downward,
    }
}

fn lp_rounding(side: Side) -> RoundingMode {
    match side {
        Side::Deposit => RoundingMode::Downward,
        Side::Withdraw => RoundingMode::Upward,
    }
}

/// An equal deposit or withdrawal amount: `balance * frac`, up into the pool and down
/// out of it (`getRoundedAsset`; before fixAMMv1_3 in the current mode).
pub fn rounded_asset(balance: &Amount, frac: Number, side: Side) -> Amount {
    if !v1_3() {
        return Amount::from_number(&balance.issue(), balance.to_number() * frac, get_round());
    }
    multiply(balance, frac, asset_rounding(side))
}

/// A single-asset amount from `product` (`getRoundedAsset` with callbacks): a deposit is
/// `balance * product()`, a withdrawal `product()` itself computed rounding down; before
/// fixAMMv1_3, `no_round()` in the current mode.
pub fn rounded_asset_by(
    balance: &Amount,
    no_round: impl Fn() -> Number,
    product: impl Fn() -> Number,
    side: Side,
) -> Amount {
    if !v1_3() {
        return Amount::from_number(&balance.issue(), no_round(), get_round());
    }
    let rm = asset_rounding(side);
    match side {
        Side::Deposit => multiply(balance, product(), rm),
        Side::Withdraw => {
            let _g = RoundGuard::new(rm);
            Amount::from_number(&balance.issue(), product(), rm)
        }
    }
}

/// LP tokens for an equal deposit or withdrawal (`getRoundedLPTokens`): down into the
/// pool, up out of it, then [`adjust_lp_tokens`] (before fixAMMv1_3: `balance * frac` in
/// the current mode).
pub fn rounded_lp_tokens(lpt_balance: &Amount, frac: Number, side: Side) -> Amount {
    if !v1_3() {
        return Amount::from_number(
            &lpt_balance.issue(),
            lpt_balance.to_number() * frac,
            get_round(),
        );
    }
    let tokens = multiply(lpt_balance, frac, lp_rounding(side));
    adjust_lp_tokens(lpt_balance, &tokens, side)
}

/// LP tokens from `product` (`getRoundedLPTokens` with callbacks): a deposit is
/// `product()` computed rounding down, a withdrawal `lpt_balance * product()`; before
/// fixAMMv1_3, `no_round()` in the current mode.
pub fn rounded_lp_tokens_by(
    lpt_balance: &Amount,
    no_round: impl Fn() -> Number,
    product: impl Fn() -> Number,
    side: Side,
) -> Amount {
    if !v1_3() {
        return Amount::from_number(&lpt_balance.issue(), no_round(), get_round());
    }
    let rm = lp_rounding(side);
    let tokens = match side {
        Side::Deposit => {
            let _g = RoundGuard::new(rm);
            Amount::from_number(&lpt_balance.issue(), product(), rm)
        }
        Side::Withdraw => multiply(lpt_balance, product(), rm),
    };
    adjust_lp_tokens(lpt_balance, &tokens, side)
}

/// Squares the asset of a single deposit with its adjusted tokens
/// (`adjustAssetInByTokens`): when the tokens' asset exceeds `amount`, the deposit is
/// cut by the excess and the tokens recomputed. Returns (tokens, asset); before
/// fixAMMv1_3, `(tokens, amount)`.
pub fn adjust_asset_in_by_tokens(
    balance: &Amount,
    amount: &Amount,
    lpt_balance: &Amount,
    tokens: &Amount,
    tfee: u16,
) -> (Amount, Amount) {
    if !v1_3() {
        return (*tokens, *amount);
    }
    let mut asset = amm_asset_in(balance, lpt_balance, tokens, tfee);
    let mut tokens_adj = *tokens;
    if cmp(&asset, amount) == Ordering::Greater {
        let adj_amount = amount.sub_in_current_mode(&asset.sub_in_current_mode(amount));
        let t = lp_tokens_out(balance, &adj_amount, lpt_balance, tfee);
        tokens_adj = adjust_lp_tokens(lpt_balance, &t, Side::Deposit);
        asset = amm_asset_in(balance, lpt_balance, &tokens_adj, tfee);
    }
    (tokens_adj, min(*amount, asset))
}

/// The withdrawal counterpart of [`adjust_asset_in_by_tokens`]
/// (`adjustAssetOutByTokens`). Returns (tokens, asset); before fixAMMv1_3,
/// `(tokens, amount)`.
pub fn adjust_asset_out_by_tokens(
    balance: &Amount,
    amount: &Amount,
    lpt_balance: &Amount,
    tokens: &Amount,
    tfee: u16,
) -> (Amount, Amount) {
    if !v1_3() {
        return (*tokens, *amount);
    }
    let mut asset = amm_asset_out(balance, lpt_balance, tokens, tfee);
    let mut tokens_adj = *tokens;
    if cmp(&asset, amount) == Ordering::Greater {
        let adj_amount = amount.sub_in_current_mode(&asset.sub_in_current_mode(amount));
        let t = lp_tokens_in(balance, &adj_amount, lpt_balance, tfee);
        tokens_adj = adjust_lp_tokens(lpt_balance, &t, Side::Withdraw);
        asset = amm_asset_out(balance, lpt_balance, &tokens_adj, tfee);
    }
    (tokens_adj, min(*amount, asset))
}

/// The fraction of the LP token balance `tokens` are (`adjustFracByTokens`); before
/// fixAMMv1_3, `frac` as it was.
pub fn frac_by_tokens(lpt_balance: &Amount, tokens: &Amount, frac: Number) -> Number {
    if !v1_3() {
        return frac;
    }
    tokens.to_number() / lpt_balance.to_number()
}

/// What a deposit or withdrawal moves once its LP tokens survive the 16-digit sum
/// (`adjustAmountsByLPTokens`): under fixAMMv1_3 the inputs as they are; before it,
/// [`adjust_lp_tokens`] and, when fewer tokens survive, the assets scaled to them (both
/// assets by their fraction, one asset by equation 4 or 8). fixAMMv1_1 takes the scaled
/// amounts as they come and a withdrawal's single asset from the surviving tokens; before
/// it each amount is the smaller of the scaled one and the one asked for, and a single
/// withdrawal's asset comes from the tokens asked for. Returns (amount, amount2, tokens).
pub fn adjust_amounts_by_lp_tokens(
    balance: &Amount,
    amounts: (Amount, Option<Amount>),
    lpt_balance: &Amount,
    lp_tokens: &Amount,
    tfee: u16,
    side: Side,
) -> (Amount, Option<Amount>, Amount) {
    let (amount, amount2) = amounts;
    if v1_3() {
        return (amount, amount2, *lp_tokens);
    }
    let actual = adjust_lp_tokens(lpt_balance, lp_tokens, side);
    if actual.is_zero() {
        let zero = Amount::Xrp(0);
        return (zero, amount2.map(|_| zero), actual);
    }
    if cmp(&actual, lp_tokens) != Ordering::Less {
        return (amount, amount2, actual);
    }
    let fixed = v1_1();
    let capped = |scaled: Amount, asked: Amount| if fixed { scaled } else { min(scaled, asked) };
    if let Some(a2) = amount2 {
        let fr = actual.to_number() / lp_tokens.to_number();
        let a1 = Amount::from_number(&amount.issue(), fr * amount.to_number(), get_round());
        let b2 = Amount::from_number(&a2.issue(), fr * a2.to_number(), get_round());
        return (capped(a1, amount), Some(capped(b2, a2)), actual);
    }
    let a1 = match side {
        Side::Deposit => amm_asset_in(balance, lpt_balance, &actual, tfee),
        Side::Withdraw if fixed => amm_asset_out(balance, lpt_balance, &actual, tfee),
        Side::Withdraw => amm_asset_out(balance, lpt_balance, lp_tokens, tfee),
    };
    (capped(a1, amount), None, actual)
}

/// Swap in (XLS-30 swap): what the pool pays out for `asset_in`,
/// `out - in * out / (in + asset_in * (1 - fee))`. Under fixAMMv1_1 each step rounds in
/// the pool's favour and the result is clipped at zero; before it the formula runs in the
/// current mode, only the result rounded down.
pub fn swap_asset_in(pool_in: &Amount, pool_out: &Amount, asset_in: &Amount, tfee: u16) -> Amount {
    let out_issue = pool_out.issue();
    if !v1_1() {
        let (i, o) = (pool_in.to_number(), pool_out.to_number());
        let swap_out = o - (i * o) / (i + asset_in.to_number() * fee_mult(tfee));
        return Amount::from_number(&out_issue, swap_out, RoundingMode::Downward);
    }
    let _saved = RoundGuard::save();
    set_round(RoundingMode::Upward);
    let numerator = pool_in.to_number() * pool_out.to_number();
    let fee = get_fee(tfee);
    set_round(RoundingMode::Downward);
    let denom = pool_in.to_number() + asset_in.to_number() * (n(1) - fee);
    if denom.signum() <= 0 {
        return zero_of(&out_issue);
    }
    set_round(RoundingMode::Upward);
    let ratio = numerator / denom;
    set_round(RoundingMode::Downward);
    let swap_out = pool_out.to_number() - ratio;
    if swap_out.signum() < 0 {
        return zero_of(&out_issue);
    }
    Amount::from_number(&out_issue, swap_out, RoundingMode::Downward)
}

/// Swap out: what the pool takes in for `asset_out`,
/// `(in * out / (out - asset_out) - in) / (1 - fee)`. Under fixAMMv1_1 each step rounds
/// in the pool's favour, the result is clipped at zero and an `asset_out` that would
/// empty the pool asks the largest amount of the in issue; before it the formula runs in
/// the current mode (a pool emptied divides by zero), only the result rounded up.
pub fn swap_asset_out(
    pool_in: &Amount,
    pool_out: &Amount,
    asset_out: &Amount,
    tfee: u16,
) -> Amount {
    let in_issue = pool_in.issue();
    if !v1_1() {
        let (i, o) = (pool_in.to_number(), pool_out.to_number());
        let swap_in = ((i * o) / (o - asset_out.to_number()) - i) / fee_mult(tfee);
        return Amount::from_number(&in_issue, swap_in, RoundingMode::Upward);
    }
    let _saved = RoundGuard::save();
    set_round(RoundingMode::Upward);
    let numerator = pool_in.to_number() * pool_out.to_number();
    set_round(RoundingMode::Downward);
    let denom = pool_out.to_number() - asset_out.to_number();
    if denom.signum() <= 0 {
        return max_amount(&in_issue);
    }
    set_round(RoundingMode::Upward);
    let ratio = numerator / denom;
    let numerator2 = ratio - pool_in.to_number();
    let fee = get_fee(tfee);
    set_round(RoundingMode::Downward);
    let fee_mult = n(1) - fee;
    set_round(RoundingMode::Upward);
    let swap_in = numerator2 / fee_mult;
    if swap_in.signum() < 0 {
        return zero_of(&in_issue);
    }
    Amount::from_number(&in_issue, swap_in, RoundingMode::Upward)
}

/// The largest amount of an issue (`toMaxAmount`).
fn max_amount(issue: &Issue) -> Amount {
    if issue.is_xrp() {
        return Amount::Xrp(DROPS_MAX as i64);
    }
    let v = Number::new(9_999_999_999_999_999, 80).to_iou();
    match v {
        Some(value) => Amount::iou(value, issue.currency, issue.issuer),
        None => zero_of(issue),
    }
}

/// True (and cleared) when an operation since the last check overflowed or divided by
/// zero: where rippled would have thrown.
pub fn faulted() -> bool {
    take_fault()
}

/// `(max - min) / max < dist` for two amounts of one issue (`withinRelativeDistance`).
pub fn within_relative_distance(calc: &Amount, req: &Amount, dist: Number) -> bool {
    if calc == req {
        return true;
    }
    let (lo, hi) = if cmp(calc, req) == Ordering::Less {
        (calc, req)
    } else {
        (req, calc)
    };
    let (lo, hi) = (lo.to_number(), hi.to_number());
    (hi - lo) / hi < dist
}
