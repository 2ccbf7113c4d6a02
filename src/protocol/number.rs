//! rippled's `Number` (`Number.h` / `Number.cpp`): a signed decimal floating point value
//! with an exponent in `[-32768, 32768]`, computed with guard digits and rounded with a
//! thread-wide rounding mode, as rippled's thread-local `Number::mode`.
//!
//! Its mantissa follows a thread-wide scale, as rippled 3.x's `MantissaRange`: the
//! "small" 16 digits `[10^15, 10^16)`, or the "large" 19 digits `[10^18, 10^19)` (a
//! mantissa past `i64::MAX` only with a trailing zero), with or without the rounding fix
//! at the `i64::MAX` cusp. The engine picks the scale from each transaction's rules
//! (`crate::ledger::rules::CurrentRules`, rippled's `setCurrentTransactionRules`); outside
//! a transaction it is rippled's default, the large scale with the fix.
//!
//! Arithmetic follows rippled step for step: addition rounds away from zero on a carry and
//! toward zero on a borrow, multiplication keeps the whole 128-bit product in the guard,
//! division scales the numerator by 10^17 (and at the large scales divides a remainder
//! again by 10^5), `root2` and `root` are Newton iterations from rippled's quadratic first
//! guess.
//!
//! rippled throws on overflow and on a division by zero; here such an operation yields
//! zero and raises a per-thread flag that callers read with [`take_fault`]: each
//! transactor turns it into what rippled's exception gives there (`tecINTERNAL` inside a
//! try block that catches everything, `tecPATH_DRY` where a vault catches the overflow,
//! `tefEXCEPTION` where nothing catches it). Nothing panics.

use std::cell::Cell;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use super::amount::{IouValue, Rounding, IOU_EXPONENT_MAX, IOU_EXPONENT_MIN};

/// Smallest exponent of a non-zero rippled `Number` (`minExponent`).
pub const NUMBER_EXPONENT_MIN: i32 = -32_768;
/// Largest exponent of a rippled `Number` (`maxExponent`).
pub const NUMBER_EXPONENT_MAX: i32 = 32_768;

/// The largest signed 64-bit integer (`Number::kMaxRep`): no mantissa the large scales
/// keep may exceed it unless its last digit is a zero that can be dropped.
const MAX_REP: u128 = i64::MAX as u128;

/// The next multiple of ten above `i64::MAX` (`Number::kMaxRepUp`): at `Large330` an
/// intermediate mantissa may reach it, and it is itself a valid normalized mantissa.
pub const MAX_REP_UP: u64 = 9_223_372_036_854_775_810;
const MAX_REP_UP_W: u128 = MAX_REP_UP as u128;

/// rippled's `MantissaRange::MantissaScale`: how many digits a Number keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MantissaScale {
    /// 16 digits, `[10^15, 10^16)`: every rule set without SingleAssetVault or
    /// LendingProtocol.
    Small,
    /// 19 digits, `[10^18, 10^19)` (past `i64::MAX` only with a trailing zero), keeping
    /// the rounding at the `i64::MAX` cusp that fixCleanup3_2_0 corrects.
    LargeLegacy,
    /// 19 digits with fixCleanup3_2_0's cusp rounding fix (`Large320`).
    Large320,
    /// 19 digits with fixCleanup3_3_0's rounding (`Large330`): intermediates up to
    /// [`MAX_REP_UP`], exact results left unrounded, subtraction rounded from any remainder.
    Large330,
}

/// rippled's `MantissaRange::CuspRoundingFix`, ordered as rippled compares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum CuspFix {
    Disabled,
    Enabled320,
    Enabled330,
}

/// One scale's bounds (`MantissaRange`).
#[derive(Clone, Copy)]
struct Range {
    min: u128,
    max: u128,
    cusp: CuspFix,
}

impl Range {
    /// How far an intermediate mantissa may grow before it is cut (`repLimit`).
    fn rep_limit(self) -> u128 {
        if self.cusp >= CuspFix::Enabled330 {
            MAX_REP_UP_W
        } else {
            MAX_REP
        }
    }
}

impl MantissaScale {
    /// Every scale, as rippled's tests walk them (`getAllScales`).
    pub const ALL: [MantissaScale; 4] = [
        MantissaScale::Small,
        MantissaScale::LargeLegacy,
        MantissaScale::Large320,
        MantissaScale::Large330,
    ];

    /// The number of digits past the first of a normalized mantissa (`MantissaRange::log`).
    pub fn log(self) -> i32 {
        match self {
            MantissaScale::Small => 15,
            MantissaScale::LargeLegacy | MantissaScale::Large320 | MantissaScale::Large330 => 18,
        }
    }

    /// The smallest normalized mantissa (`minMantissa`).
    pub fn min_mantissa(self) -> u64 {
        10u64.pow(self.log() as u32)
    }

    /// The largest normalized mantissa (`maxMantissa`).
    pub fn max_mantissa(self) -> u64 {
        self.min_mantissa() * 10 - 1
    }

    fn range(self) -> Range {
        Range {
            min: u128::from(self.min_mantissa()),
            max: u128::from(self.max_mantissa()),
            cusp: match self {
                MantissaScale::Small | MantissaScale::LargeLegacy => CuspFix::Disabled,
                MantissaScale::Large320 => CuspFix::Enabled320,
                MantissaScale::Large330 => CuspFix::Enabled330,
            },
        }
    }
}

/// rippled's `Number::rounding_mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundingMode {
    /// To nearest, ties to even (the default).
    ToNearest,
    /// Toward zero.
    TowardsZero,
    /// Toward negative infinity.
    Downward,
    /// Toward positive infinity.
    Upward,
}

thread_local! {
    static MODE: Cell<RoundingMode> = const { Cell::new(RoundingMode::ToNearest) };
    // rippled 3.3's thread default (`kRange`): `Large330`, what it computes with outside
    // a transaction (`setCurrentTransactionRules(nullopt)`).
    static SCALE: Cell<MantissaScale> = const { Cell::new(MantissaScale::Large330) };
    static FAULT: Cell<bool> = const { Cell::new(false) };
}

/// The thread's rounding mode (`Number::getround`).
pub fn get_round() -> RoundingMode {
    MODE.with(|m| m.get())
}

/// Sets the thread's rounding mode, returning the previous one (`Number::setround`).
pub fn set_round(mode: RoundingMode) -> RoundingMode {
    MODE.with(|m| m.replace(mode))
}

/// The thread's mantissa scale (`Number::getMantissaScale`).
pub fn get_scale() -> MantissaScale {
    SCALE.with(|s| s.get())
}

/// Sets the thread's mantissa scale, returning the previous one
/// (`Number::setMantissaScale`). The engine sets it from a transaction's rules.
pub fn set_scale(scale: MantissaScale) -> MantissaScale {
    SCALE.with(|s| s.replace(scale))
}

fn range() -> Range {
    get_scale().range()
}

/// Sets a mantissa scale until dropped, then puts back the previous one (rippled's
/// `NumberMantissaScaleGuard`).
pub struct ScaleGuard {
    saved: MantissaScale,
}

impl ScaleGuard {
    /// Switches to `scale` for the guard's lifetime.
    pub fn new(scale: MantissaScale) -> ScaleGuard {
        ScaleGuard {
            saved: set_scale(scale),
        }
    }
}

impl Drop for ScaleGuard {
    fn drop(&mut self) {
        set_scale(self.saved);
    }
}

/// Sets a rounding mode until dropped, then puts back the previous one (rippled's
/// `NumberRoundModeGuard` / `saveNumberRoundMode`).
pub struct RoundGuard {
    saved: RoundingMode,
}

impl RoundGuard {
    /// Switches to `mode` for the guard's lifetime.
    pub fn new(mode: RoundingMode) -> RoundGuard {
        RoundGuard {
            saved: set_round(mode),
        }
    }

    /// Keeps the current mode, restoring it when dropped (`saveNumberRoundMode`).
    pub fn save() -> RoundGuard {
        RoundGuard { saved: get_round() }
    }
}

impl Drop for RoundGuard {
    fn drop(&mut self) {
        set_round(self.saved);
    }
}

/// True (and cleared) when an operation on this thread overflowed or divided by zero
/// since the last call: where rippled would have thrown.
pub fn take_fault() -> bool {
    FAULT.with(|f| f.replace(false))
}

/// True when a fault is raised and not yet taken (the flag stays).
pub fn fault_pending() -> bool {
    FAULT.with(|f| f.get())
}

/// Raises the flag [`take_fault`] reads: a conversion out of range, where rippled throws.
pub fn raise_fault() {
    FAULT.with(|f| f.set(true));
}

fn fault() -> Number {
    raise_fault();
    Number::ZERO
}

/// Extra digits kept while an operation shifts its operands (`Number::Guard`): 16 decimal
/// digits in nibbles, a sticky bit for anything shifted past them (or a division's
/// remainder), the result's sign, and the scale's cusp rule.
struct Guard {
    digits: u64,
    xbit: bool,
    negative: bool,
    cusp: CuspFix,
}

/// `Guard::Round`: which way the guard digits say to round.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    /// Nothing was dropped (only under `Enabled330`).
    Exact,
    /// Toward zero.
    Down,
    /// A tie, to even (to nearest only).
    Even,
    /// Away from zero.
    Up,
}

/// A sign, a wide mantissa and an exponent between two steps of an operation.
type Parts = (bool, u128, i32);

impl Guard {
    fn new(negative: bool, r: Range) -> Guard {
        Guard {
            digits: 0,
            xbit: false,
            negative,
            cusp: r.cusp,
        }
    }

    fn push(&mut self, d: u128) {
        self.xbit = self.xbit || (self.digits & 0xF) != 0;
        self.digits >>= 4;
        self.digits |= ((d as u64) & 0xF) << 60;
    }

    fn pop(&mut self) -> u128 {
        let d = (self.digits & 0xF000_0000_0000_0000) >> 60;
        self.digits <<= 4;
        u128::from(d)
    }

    fn is_empty(&self) -> bool {
        self.digits == 0 && !self.xbit
    }

    fn drop_digit(&mut self, m: &mut u128, e: &mut i32) {
        self.push(*m % 10);
        *m /= 10;
        *e += 1;
    }

    /// The rounding direction (`Guard::round`); `Exact` first when nothing was dropped
    /// under `Enabled330`.
    fn round(&self) -> Round {
        if self.cusp >= CuspFix::Enabled330 && self.is_empty() {
            return Round::Exact;
        }
        let toward_zero = match get_round() {
            RoundingMode::TowardsZero => true,
            RoundingMode::Downward => !self.negative,
            RoundingMode::Upward => self.negative,
            RoundingMode::ToNearest => {
                const HALF: u64 = 0x5000_0000_0000_0000;
                return match self.digits.cmp(&HALF) {
                    Ordering::Greater => Round::Up,
                    Ordering::Less => Round::Down,
                    Ordering::Equal if self.xbit => Round::Up,
                    Ordering::Equal => Round::Even,
                };
            }
        };
        if toward_zero || self.is_empty() {
            Round::Down
        } else {
            Round::Up
        }
    }

    fn rounds_away(&self, m: u128) -> bool {
        let r = self.round();
        r == Round::Up || (r == Round::Even && m & 1 == 1)
    }

    /// `pushOverflow` (`Enabled330`): a mantissa in `[i64::MAX, MAX_REP_UP)` pushes a digit
    /// scaling where it lies between the two, after a copy of it (never the mantissa
    /// itself) is bumped once when the stored digits round up (or tie at the midpoint)
    /// and its last digit is not 9.
    fn push_overflow(&mut self, m: u128) {
        if self.cusp < CuspFix::Enabled330 || !(MAX_REP..MAX_REP_UP_W).contains(&m) {
            return;
        }
        const SPREAD: u128 = MAX_REP_UP_W - MAX_REP;
        let mut bumped = m;
        if m % 10 < 9 {
            let r = self.round();
            if r == Round::Up || (r == Round::Even && m == MAX_REP + SPREAD / 2) {
                bumped += 1;
            }
        }
        self.push((bumped - MAX_REP) * 10 / SPREAD);
    }

    /// `doRoundUp`: rounds the magnitude away from zero when the guard says so. Without
    /// the cusp fix a carry past the largest mantissa (or past `i64::MAX`) drops a digit
    /// unrounded; with it the digit is dropped into the guard first and the rounding
    /// decided again; `Enabled330` rounds a mantissa strictly between `i64::MAX` and
    /// `MAX_REP_UP` to one of the two. Then `bringIntoRange` and the overflow check.
    fn round_up(&mut self, negative: bool, mut m: u128, mut e: i32, r: Range) -> Number {
        self.push_overflow(m);
        let between = r.cusp >= CuspFix::Enabled330 && m > MAX_REP && m < MAX_REP_UP_W;
        if self.rounds_away(m) {
            if r.cusp == CuspFix::Disabled {
                m += 1;
                if m > r.max || m > MAX_REP {
                    m /= 10;
                    e += 1;
                }
            } else if m < r.max && m < MAX_REP {
                m += 1;
            } else if between {
                m = MAX_REP_UP_W;
            } else {
                self.drop_digit(&mut m, &mut e);
                return self.round_up(negative, m, e, r);
            }
        } else if between {
            m = MAX_REP;
        }
        let (negative, m, e) = into_range(negative, m, e, r);
        if m == 0 {
            return Number::ZERO;
        }
        if e > NUMBER_EXPONENT_MAX {
            return fault();
        }
        Number {
            negative,
            mantissa: m as u64,
            exponent: e,
        }
    }

    /// `doRoundDown`: after a subtraction the guard digits were subtracted, so rounding
    /// moves the magnitude down: under `Enabled330` by one whenever anything remains,
    /// before, only when the guard rounds away. The result may still be wide.
    fn round_down(&self, negative: bool, mut m: u128, mut e: i32, r: Range) -> Parts {
        let round = self.round();
        if r.cusp >= CuspFix::Enabled330 {
            if round != Round::Exact {
                m -= 1;
            }
        } else if self.rounds_away(m) {
            m -= 1;
            if m < r.min {
                m *= 10;
                e -= 1;
            }
        }
        into_range(negative, m, e, r)
    }
}

/// `bringIntoRange` after rounding: one digit up when short (a zero mantissa stays zero
/// under `Enabled330`); below the smallest exponent, or zero, the canonical zero (mantissa
/// 0). The overflow check is the caller's.
fn into_range(negative: bool, mut m: u128, mut e: i32, r: Range) -> Parts {
    if m < r.min && (r.cusp < CuspFix::Enabled330 || m != 0) {
        m *= 10;
        e -= 1;
    }
    if e < NUMBER_EXPONENT_MIN || m == 0 {
        return (false, 0, i32::MIN);
    }
    (negative, m, e)
}

/// A rippled `Number`. Its mantissa is kept at the thread's scale when it is made; a
/// large-scale mantissa past `i64::MAX` ends in a zero ([`Number::mantissa`] drops it).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number {
    negative: bool,
    mantissa: u64,
    exponent: i32,
}

/// Builds a normalized Number from a wide mantissa (`doNormalize`) within `r`, rounding
/// with the thread's mode; `dropped` says digits past the mantissa were lost (a
/// division's remainder, or what a `Large330` addition left in its guard). Out of range
/// exponents give zero (below) or a fault (above).
fn normalize_in(negative: bool, mantissa: u128, exponent: i32, r: Range, dropped: bool) -> Number {
    if mantissa == 0 {
        return Number::ZERO;
    }
    let (mut m, mut e) = (mantissa, exponent);
    while m < r.min && e > NUMBER_EXPONENT_MIN {
        m *= 10;
        e -= 1;
    }
    let mut g = Guard::new(negative, r);
    g.xbit = dropped;
    while m > r.max {
        if e >= NUMBER_EXPONENT_MAX {
            return fault();
        }
        g.drop_digit(&mut m, &mut e);
    }
    if e < NUMBER_EXPONENT_MIN || m < r.min {
        return Number::ZERO;
    }
    // A large mantissa is rounded where it fits an i64 (or `MAX_REP_UP` at `Large330`),
    // then brought back into range.
    if m > r.rep_limit() {
        if e >= NUMBER_EXPONENT_MAX {
            return fault();
        }
        g.drop_digit(&mut m, &mut e);
    }
    g.round_up(negative, m, e, r)
}

/// [`normalize_in`] at the thread's scale.
fn normalize(negative: bool, mantissa: u128, exponent: i32) -> Number {
    normalize_in(negative, mantissa, exponent, range(), false)
}

impl Number {
    /// Zero (mantissa 0, rippled's lowest exponent).
    pub const ZERO: Number = Number {
        negative: false,
        mantissa: 0,
        exponent: i32::MIN,
    };

    /// One at the thread's scale (`Number::one`).
    pub fn one() -> Number {
        let s = get_scale();
        Number {
            negative: false,
            mantissa: s.min_mantissa(),
            exponent: -s.log(),
        }
    }

    /// `mantissa * 10^exponent`, normalized with the thread's rounding mode and scale.
    pub fn new(mantissa: i64, exponent: i32) -> Number {
        normalize(mantissa < 0, u128::from(mantissa.unsigned_abs()), exponent)
    }

    /// `(-1)^negative * mantissa * 10^exponent` from an unsigned mantissa, normalized
    /// (rippled's `Number{negative, mantissa, exponent, Normalized{}}`).
    pub fn normalized(negative: bool, mantissa: u64, exponent: i32) -> Number {
        normalize(negative, u128::from(mantissa), exponent)
    }

    /// An integer (`Number(rep)`), rounded with the thread's mode past the scale's digits.
    pub fn from_i64(v: i64) -> Number {
        Number::new(v, 0)
    }

    /// The signed mantissa of the external view (`Number::mantissa`): a large-scale
    /// mantissa past `i64::MAX` loses its trailing zero. 0 for zero.
    pub fn mantissa(&self) -> i64 {
        let m = if u128::from(self.mantissa) > MAX_REP {
            self.mantissa / 10
        } else {
            self.mantissa
        } as i64;
        if self.negative {
            -m
        } else {
            m
        }
    }

    /// The exponent of the external view (`Number::exponent`; `i32::MIN` for zero).
    pub fn exponent(&self) -> i32 {
        if u128::from(self.mantissa) > MAX_REP {
            self.exponent + 1
        } else {
            self.exponent
        }
    }

    /// The (mantissa, exponent) an STNumber serializes, as rippled 3.x and both client
    /// libraries write it (`MantissaRange::large`): the mantissa in [10^18, 10^19), cut to
    /// [10^17, 2^63) when it would not fit an i64; zero is (0, i32::MIN). Exact at either
    /// scale: a small mantissa gains three zeros, a large one past 2^63 ends in a zero.
    pub fn to_st_parts(&self) -> (i64, i32) {
        if self.is_zero() {
            return (0, i32::MIN);
        }
        let (mut m, mut e) = (u128::from(self.mantissa), self.exponent);
        while m < 1_000_000_000_000_000_000 {
            m *= 10;
            e -= 1;
        }
        if m > MAX_REP {
            m /= 10;
            e += 1;
        }
        let m = m as i64;
        (if self.negative { -m } else { m }, e)
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        if self.mantissa == 0 {
            0
        } else if self.negative {
            -1
        } else {
            1
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Number {
        Number {
            negative: false,
            ..*self
        }
    }

    /// An issued value as a Number (`IOUAmount::operator Number`): exact at either scale.
    pub fn from_iou(v: &IouValue) -> Number {
        if v.is_zero() {
            return Number::ZERO;
        }
        Number::normalized(v.is_negative(), v.mantissa(), v.exponent())
    }

    /// The Number as an issued value (`IOUAmount(Number)`, `normalizeToRange` to 16
    /// digits in the thread's rounding mode, without the cusp fix): below the smallest
    /// issued exponent it is zero; above the largest, `None` (rippled throws).
    pub fn to_iou(&self) -> Option<IouValue> {
        if self.is_zero() {
            return Some(IouValue::ZERO);
        }
        if self.exponent > IOU_EXPONENT_MAX {
            return None;
        }
        let small = MantissaScale::Small.range();
        let r = Range {
            cusp: CuspFix::Disabled,
            ..small
        };
        let n = normalize_in(
            self.negative,
            u128::from(self.mantissa),
            self.exponent,
            r,
            false,
        );
        if n.is_zero() || n.exponent < IOU_EXPONENT_MIN {
            return Some(IouValue::ZERO);
        }
        if n.exponent > IOU_EXPONENT_MAX {
            return None;
        }
        IouValue::from_parts(
            u128::from(n.mantissa),
            n.exponent,
            n.negative,
            Rounding::Nearest,
        )
        .ok()
    }

    /// The Number as an integer (`operator rep()`, XRP drops, MPT units), rounded with
    /// the thread's mode; `None` past `i64` (rippled throws).
    pub fn to_i64(&self) -> Option<i64> {
        if self.is_zero() {
            return Some(0);
        }
        let mut drops = u128::from(self.mantissa().unsigned_abs());
        let mut offset = self.exponent();
        let mut g = Guard::new(self.negative, range());
        while offset < 0 {
            g.drop_digit(&mut drops, &mut offset);
        }
        while offset > 0 {
            if drops > MAX_REP / 10 {
                return None;
            }
            drops *= 10;
            offset -= 1;
        }
        if g.rounds_away(drops) {
            if drops >= MAX_REP {
                return None;
            }
            drops += 1;
        }
        let d = drops as i64;
        Some(if self.negative { -d } else { d })
    }

    /// Drops the fraction, toward zero (`Number::truncate`).
    pub fn truncate(&self) -> Number {
        if self.exponent >= 0 || self.is_zero() {
            return *self;
        }
        let (mut m, mut e) = (u128::from(self.mantissa), self.exponent);
        while e < 0 && m != 0 {
            e += 1;
            m /= 10;
        }
        normalize(self.negative, m, e)
    }

    fn add_impl(self, y: Number) -> Number {
        if y.is_zero() {
            return self;
        }
        if self.is_zero() {
            return y;
        }
        if self == -y {
            return Number::ZERO;
        }
        let (mut xn, mut xm, mut xe) = (self.negative, u128::from(self.mantissa), self.exponent);
        let (yn, mut ym, mut ye) = (y.negative, u128::from(y.mantissa), y.exponent);
        let r = range();
        let mut g = Guard::new(false, r);
        if xe < ye {
            g.negative = xn;
            align(&mut g, r, (&mut ym, &mut ye), (&mut xm, &mut xe));
        } else if xe > ye {
            g.negative = yn;
            align(&mut g, r, (&mut xm, &mut xe), (&mut ym, &mut ye));
        } else if r.cusp == CuspFix::Enabled330 {
            // Equal exponents: the guard takes the sign of the smaller mantissa.
            g.negative = (xm < ym && xn) || (ym < xm && yn);
        }
        let v330 = r.cusp >= CuspFix::Enabled330;
        let (n, m, e) = if xn == yn {
            xm += ym;
            if v330 {
                // `doNormalize` rounds from the digits kept and the dropped flag.
                (xn, xm, xe)
            } else {
                if xm > r.max || xm > r.rep_limit() {
                    g.drop_digit(&mut xm, &mut xe);
                }
                let n = g.round_up(xn, xm, xe, r);
                (n.negative, u128::from(n.mantissa), n.exponent)
            }
        } else {
            if xm > ym {
                xm -= ym;
            } else {
                xm = ym - xm;
                xe = ye;
                xn = yn;
            }
            if v330 {
                let upper = r.min * 1000;
                while xm < upper && !g.is_empty() {
                    xm = xm * 10 - g.pop();
                    xe -= 1;
                }
            } else {
                while xm < r.min && xm * 10 <= r.rep_limit() {
                    xm = xm * 10 - g.pop();
                    xe -= 1;
                }
            }
            g.round_down(xn, xm, xe, r)
        };
        normalize_in(n, m, e, r, v330 && !g.is_empty())
    }

    fn mul_impl(self, y: Number) -> Number {
        if self.is_zero() || y.is_zero() {
            return Number::ZERO;
        }
        let zn = self.negative != y.negative;
        let mut zm = u128::from(self.mantissa) * u128::from(y.mantissa);
        let mut ze = self.exponent + y.exponent;
        let r = range();
        let mut g = Guard::new(zn, r);
        while zm > r.max || zm > r.rep_limit() {
            g.drop_digit(&mut zm, &mut ze);
        }
        let n = g.round_up(zn, zm, ze, r);
        normalize_in(n.negative, u128::from(n.mantissa), n.exponent, r, false)
    }

    /// rippled's division: the numerator scaled by 10^17; at the large scales a remainder
    /// is divided again scaled by 10^5, and (with the cusp fix) what still remains marks
    /// the guard as if a non-zero digit had been dropped.
    fn div_impl(self, y: Number) -> Number {
        if y.is_zero() {
            return fault();
        }
        if self.is_zero() {
            return Number::ZERO;
        }
        const FACTOR: u128 = 100_000_000_000_000_000;
        const CORRECTION: u128 = 100_000;
        let dm = u128::from(y.mantissa);
        let numerator = u128::from(self.mantissa) * FACTOR;
        let mut zm = numerator / dm;
        let mut ze = self.exponent - y.exponent - 17;
        let scale = get_scale();
        let r = scale.range();
        let mut dropped = false;
        let remainder = numerator % dm;
        if scale != MantissaScale::Small && remainder != 0 {
            let partial = remainder * CORRECTION;
            let correction = partial / dm;
            if correction != 0 {
                zm = zm * CORRECTION + correction;
                ze -= 5;
            }
            dropped = r.cusp != CuspFix::Disabled && !partial.is_multiple_of(dm);
        }
        normalize_in(self.negative != y.negative, zm, ze, r, dropped)
    }
}

/// `operator+=`'s `adjust`: brings the operand with the smaller exponent (`shrink`) to
/// the other's (`expand`), its dropped digits into the guard. Under `Enabled330` it first
/// drops only the trailing zeros of `shrink`, then grows `expand` up to a thousand times
/// the smallest mantissa, and only then drops digits.
fn align(g: &mut Guard, r: Range, expand: (&mut u128, &mut i32), shrink: (&mut u128, &mut i32)) {
    let (em, ee) = expand;
    let (sm, se) = shrink;
    if r.cusp == CuspFix::Enabled330 {
        while *se < *ee && *sm % 10 == 0 {
            g.drop_digit(sm, se);
        }
        let upper = r.min * 1000;
        while *se < *ee && *ee > NUMBER_EXPONENT_MIN && *em < upper {
            *em *= 10;
            *ee -= 1;
        }
    }
    while *se < *ee {
        g.drop_digit(sm, se);
    }
}

impl Default for Number {
    fn default() -> Number {
        Number::ZERO
    }
}

impl Neg for Number {
    type Output = Number;
    fn neg(self) -> Number {
        if self.is_zero() {
            self
        } else {
            Number {
                negative: !self.negative,
                ..self
            }
        }
    }
}

impl Add for Number {
    type Output = Number;
    fn add(self, y: Number) -> Number {
        self.add_impl(y)
    }
}

impl Sub for Number {
    type Output = Number;
    fn sub(self, y: Number) -> Number {
        self.add_impl(-y)
    }
}

impl Mul for Number {
    type Output = Number;
    fn mul(self, y: Number) -> Number {
        self.mul_impl(y)
    }
}

impl Div for Number {
    type Output = Number;
    fn div(self, y: Number) -> Number {
        self.div_impl(y)
    }
}

impl From<i64> for Number {
    fn from(v: i64) -> Number {
        Number::from_i64(v)
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number {
    fn cmp(&self, y: &Number) -> Ordering {
        let (ls, rs) = (self.signum(), y.signum());
        if ls != rs {
            return ls.cmp(&rs);
        }
        if ls == 0 {
            return Ordering::Equal;
        }
        let magnitude = self
            .exponent
            .cmp(&y.exponent)
            .then(self.mantissa.cmp(&y.mantissa));
        if ls < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

/// rippled's `to_string(Number)`: plain digits for exponent 0 and for exponents within
/// ten of the scale's (`[-25, -5]` small, `[-28, -8]` large), else `mantissa e exponent`.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let sign = if self.negative { "-" } else { "" };
        let (mut m, mut e) = (self.mantissa, self.exponent);
        let log = get_scale().log();
        if e != 0 && (e < -(log + 10) || e > -(log - 10)) {
            while m % 10 == 0 && e < NUMBER_EXPONENT_MAX {
                m /= 10;
                e += 1;
            }
            if e == 0 {
                return write!(f, "{sign}{m}");
            }
            return write!(f, "{sign}{m}e{e}");
        }
        let digits = m.to_string();
        let point = digits.len() as i32 + e;
        let (int, frac) = if point > 0 {
            let p = point as usize;
            (digits[..p].to_string(), digits[p..].to_string())
        } else {
            ("0".to_string(), "0".repeat((-point) as usize) + &digits)
        };
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            write!(f, "{sign}{int}")
        } else {
            write!(f, "{sign}{int}.{frac}")
        }
    }
}

/// `f^n` by repeated squaring (`power(Number, unsigned)`).
pub fn power(f: Number, n: u32) -> Number {
    match n {
        0 => Number::one(),
        1 => f,
        _ => {
            let r = power(f, n / 2);
            let r = r * r;
            if !n.is_multiple_of(2) {
                r * f
            } else {
                r
            }
        }
    }
}

/// `f` with its exponent moved by `by`, its mantissa kept (`Number::shiftExponent`): past
/// the largest exponent a fault, below the smallest zero.
fn shift_exponent(f: Number, by: i32) -> Number {
    let e = f.exponent + by;
    if e >= NUMBER_EXPONENT_MAX {
        return fault();
    }
    if e < NUMBER_EXPONENT_MIN {
        return Number::ZERO;
    }
    Number { exponent: e, ..f }
}

/// The square root (`root2`): Newton iterations on `f` scaled into (0, 1) with an even
/// exponent, from a quadratic first guess, until the estimate stops moving.
pub fn root2(f: Number) -> Number {
    if f == Number::one() || f.is_zero() {
        return f;
    }
    if f.negative {
        return fault();
    }
    let mut e = f.exponent + get_scale().log() + 1;
    if e % 2 != 0 {
        e += 1;
    }
    let f = shift_exponent(f, -e);
    let (a2, a1, a0, d) = (
        Number::from(-60),
        Number::from(144),
        Number::from(18),
        Number::from(105),
    );
    let mut r = ((a2 * f + a1) * f + a0) / d;
    let two = Number::from(2);
    let mut rm1 = Number::ZERO;
    let mut rm2;
    loop {
        rm2 = rm1;
        rm1 = r;
        r = (r + f / r) / two;
        if r == rm1 || r == rm2 {
            break;
        }
    }
    shift_exponent(r, e / 2)
}

/// `f^(1/d)` (`root`): Newton iterations from rippled's quadratic least-squares guess.
pub fn root(f: Number, d: u32) -> Number {
    let one = Number::one();
    if f == one || d == 1 {
        return f;
    }
    if d == 0 {
        if f == -one {
            return one;
        }
        if f.abs() < one {
            return Number::ZERO;
        }
        return fault();
    }
    if f.negative && d.is_multiple_of(2) {
        return fault();
    }
    if f.is_zero() {
        return f;
    }
    let di = d as i32;
    let mut e = f.exponent + get_scale().log() + 1;
    let k = (if e >= 0 { e } else { e - (di - 1) }) / di;
    let k2 = e - k * di;
    if k2 != 0 {
        e += di - k2;
    }
    let mut f = shift_exponent(f, -e);
    let neg = f.negative;
    if neg {
        f = -f;
    }
    let dd = i64::from(di);
    let big_d = ((6 * dd + 11) * dd + 6) * dd + 1;
    let a0 = 3 * dd * ((2 * dd - 3) * dd + 1);
    let a1 = 24 * dd * (2 * dd - 1);
    let a2 = -30 * (dd - 1) * dd;
    let mut r =
        ((Number::from(a2) * f + Number::from(a1)) * f + Number::from(a0)) / Number::from(big_d);
    if neg {
        f = -f;
        r = -r;
    }
    let mut rm1 = Number::ZERO;
    let mut rm2;
    let dm1 = Number::from(dd - 1);
    let dn = Number::from(dd);
    loop {
        rm2 = rm1;
        rm1 = r;
        r = (dm1 * r + f / power(r, d - 1)) / dn;
        if r == rm1 || r == rm2 {
            break;
        }
    }
    shift_exponent(r, e / di)
}

/// `f^(n/d)` (`power(Number, unsigned, unsigned)`).
pub fn power_frac(f: Number, n: u32, d: u32) -> Number {
    let one = Number::one();
    if f == one {
        return f;
    }
    let g = gcd(n, d);
    if g == 0 {
        return fault();
    }
    if d == 0 {
        if f == -one {
            return one;
        }
        if f.abs() < one {
            return Number::ZERO;
        }
        return fault();
    }
    if n == 0 {
        return one;
    }
    let (n, d) = (n / g, d / g);
    if !n.is_multiple_of(2) && d.is_multiple_of(2) && f.negative {
        return fault();
    }
    root(power(f, n), d)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
#[path = "number_tests.rs"]
mod scale_tests;

#[cfg(test)]
mod tests {
    //! Expected values from rippled's `Number_test.cpp` (small mantissa scale); the
    //! other scales are in `number_tests.rs`.
    use super::*;

    fn n(m: i64, e: i32) -> Number {
        Number::new(m, e)
    }

    fn check(cases: &[(Number, Number, Number)], op: fn(Number, Number) -> Number) {
        for (x, y, z) in cases {
            assert_eq!(op(*x, *y), *z, "{x} op {y}");
        }
    }

    #[test]
    fn zero_and_limits() {
        let _s = ScaleGuard::new(MantissaScale::Small);
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        assert_eq!(Number::ZERO + Number::ZERO, Number::ZERO);
        assert_eq!(n(0, 0), Number::ZERO);
        assert_eq!(n(1_000_000_000_000_000, -32769), Number::ZERO);
        assert_eq!(
            n(1_000_000_000_000_000, 32000) * Number::from(1000) + n(1500, 32000),
            n(1_000_000_000_000_002, 32003)
        );
        assert_eq!(Number::from(i64::MIN), n(-9_223_372_036_854_776, 3));
        assert_eq!(Number::from(i64::MAX), n(9_223_372_036_854_776, 3));
        let _ = take_fault();
        let _ = n(1_000_000_000_000_000, 32767) * Number::from(100);
        assert!(take_fault(), "overflow is reported");
    }

    #[test]
    fn add_and_sub() {
        let _s = ScaleGuard::new(MantissaScale::Small);
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        let one = n(1_000_000_000_000_000, -15);
        let small = n(6_555_555_555_555_555, -29);
        check(
            &[
                (one, small, n(1_000_000_000_000_066, -15)),
                (-one, -small, n(-1_000_000_000_000_066, -15)),
                (-one, small, n(-9_999_999_999_999_344, -16)),
                (-small, one, n(9_999_999_999_999_344, -16)),
                (Number::ZERO, Number::from(5), Number::from(5)),
                (
                    n(5_555_555_555_555_555, -32768),
                    n(-5_555_555_555_555_554, -32768),
                    Number::ZERO,
                ),
                (
                    n(-9_999_999_999_999_999, -31),
                    one,
                    n(9_999_999_999_999_990, -16),
                ),
            ],
            |x, y| x + y,
        );
        check(
            &[
                (one, small, n(9_999_999_999_999_344, -16)),
                (small, one, n(-9_999_999_999_999_344, -16)),
                (one, one, Number::ZERO),
                (
                    one,
                    n(1_000_000_000_000_001, -15),
                    n(-1_000_000_000_000_000, -30),
                ),
                (
                    n(1_000_000_000_000_001, -15),
                    one,
                    n(1_000_000_000_000_000, -30),
                ),
            ],
            |x, y| x - y,
        );
    }

    #[test]
    fn mul_in_every_mode() {
        let _s = ScaleGuard::new(MantissaScale::Small);
        let r2 = n(1_414_213_562_373_095, -15);
        let (a, b) = (n(3_214_285_714_285_706, -15), n(3_111_111_111_111_119, -15));
        let tiny = n(1_000_000_000_000_000, -32768);
        let table = [
            (
                RoundingMode::ToNearest,
                [
                    n(2_000_000_000_000_000, -15),
                    n(-2_000_000_000_000_000, -15),
                    n(1_000_000_000_000_000, -14),
                ],
            ),
            (
                RoundingMode::TowardsZero,
                [
                    n(1_999_999_999_999_999, -15),
                    n(-1_999_999_999_999_999, -15),
                    n(9_999_999_999_999_999, -15),
                ],
            ),
            (
                RoundingMode::Downward,
                [
                    n(1_999_999_999_999_999, -15),
                    n(-2_000_000_000_000_000, -15),
                    n(9_999_999_999_999_999, -15),
                ],
            ),
            (
                RoundingMode::Upward,
                [
                    n(2_000_000_000_000_000, -15),
                    n(-1_999_999_999_999_999, -15),
                    n(1_000_000_000_000_000, -14),
                ],
            ),
        ];
        for (mode, [sq, neg_sq, ab]) in table {
            let _g = RoundGuard::new(mode);
            assert_eq!(Number::from(7) * Number::from(8), Number::from(56));
            assert_eq!(r2 * r2, sq, "{mode:?}");
            assert_eq!(-r2 * r2, neg_sq, "{mode:?}");
            assert_eq!(-r2 * -r2, sq, "{mode:?}");
            assert_eq!(a * b, ab, "{mode:?}");
            assert_eq!(tiny * tiny, Number::ZERO);
        }
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        let max = n(9_999_999_999_999_999, 0);
        assert_eq!(max * max, n(9_999_999_999_999_998, 16));
    }

    #[test]
    fn div_root_power_and_conversion() {
        let _s = ScaleGuard::new(MantissaScale::Small);
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        assert_eq!(Number::from(1) / Number::from(2), n(5, -1));
        assert_eq!(Number::from(1) / Number::from(10), n(1, -1));
        assert_eq!(
            Number::from(2) / Number::from(3),
            n(6_666_666_666_666_667, -16)
        );
        assert_eq!(root2(Number::from(2)), n(1_414_213_562_373_095, -15));
        assert_eq!(root2(Number::from(4)), Number::from(2));
        assert_eq!(root(Number::from(8), 3), Number::from(2));
        assert_eq!(power(Number::from(2), 10), Number::from(1024));
        assert_eq!(power_frac(Number::from(4), 1, 2), Number::from(2));
        assert_eq!(n(15, -1).to_i64(), Some(2));
        assert_eq!(n(25, -1).to_i64(), Some(2));
        assert_eq!(n(-15, -1).to_i64(), Some(-2));
        {
            let _u = RoundGuard::new(RoundingMode::Upward);
            assert_eq!(n(21, -1).to_i64(), Some(3));
            assert_eq!(n(-21, -1).to_i64(), Some(-2));
        }
        {
            let _d = RoundGuard::new(RoundingMode::Downward);
            assert_eq!(n(29, -1).to_i64(), Some(2));
            assert_eq!(n(-21, -1).to_i64(), Some(-3));
        }
        assert_eq!(get_round(), RoundingMode::ToNearest);
        let _ = take_fault();
        let _ = Number::from(1) / Number::ZERO;
        assert!(take_fault());
    }
}
