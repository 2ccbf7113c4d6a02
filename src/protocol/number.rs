//! rippled's `Number` (`Number.h` / `Number.cpp`, the 16-digit "small" mantissa scale the
//! AMM uses): a signed decimal floating point value with a mantissa in
//! `[10^15, 10^16)` and an exponent in `[-32768, 32768]`, computed with guard digits and
//! rounded with a thread-wide rounding mode, as rippled's thread-local `Number::mode`.
//!
//! Arithmetic follows rippled step for step: addition rounds away from zero on a carry and
//! toward zero on a borrow, multiplication keeps the whole 128-bit product in the guard,
//! division scales the numerator by 10^17, `root2` and `root` are Newton iterations from
//! rippled's quadratic first guess.
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

/// Smallest mantissa of a non-zero Number (`minMantissa`).
const MANTISSA_MIN: u128 = 1_000_000_000_000_000;
/// Largest mantissa of a Number (`maxMantissa`).
const MANTISSA_MAX: u128 = 9_999_999_999_999_999;

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
/// digits in nibbles, a sticky bit for anything shifted past them, and the result's sign.
#[derive(Default)]
struct Guard {
    digits: u64,
    xbit: bool,
    negative: bool,
}

impl Guard {
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

    fn drop_digit(&mut self, m: &mut u128, e: &mut i32) {
        self.push(*m % 10);
        *m /= 10;
        *e += 1;
    }

    /// 1: round away from zero, -1: toward zero, 0: a tie (to nearest only).
    fn round(&self) -> i32 {
        let any = self.digits > 0 || self.xbit;
        match get_round() {
            RoundingMode::TowardsZero => -1,
            RoundingMode::Downward => {
                if self.negative && any {
                    1
                } else {
                    -1
                }
            }
            RoundingMode::Upward => {
                if !self.negative && any {
                    1
                } else {
                    -1
                }
            }
            RoundingMode::ToNearest => {
                const HALF: u64 = 0x5000_0000_0000_0000;
                match self.digits.cmp(&HALF) {
                    Ordering::Greater => 1,
                    Ordering::Less => -1,
                    Ordering::Equal if self.xbit => 1,
                    Ordering::Equal => 0,
                }
            }
        }
    }

    fn rounds_away(&self, m: u128) -> bool {
        let r = self.round();
        r == 1 || (r == 0 && m & 1 == 1)
    }

    /// `doRoundUp` (legacy small scale): a carry past the largest mantissa drops a digit.
    fn round_up(&self, m: &mut u128, e: &mut i32) {
        if self.rounds_away(*m) {
            *m += 1;
            if *m > MANTISSA_MAX {
                *m /= 10;
                *e += 1;
            }
        }
    }

    /// `doRoundDown`: after a subtraction the guard digits were subtracted, so rounding
    /// moves the magnitude down.
    fn round_down(&self, m: &mut u128, e: &mut i32) {
        if self.rounds_away(*m) {
            *m -= 1;
            if *m < MANTISSA_MIN {
                *m *= 10;
                *e -= 1;
            }
        }
    }
}

/// A rippled `Number`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number {
    negative: bool,
    mantissa: u64,
    exponent: i32,
}

/// Builds a normalized Number from a wide mantissa (`doNormalize`), rounding with the
/// thread's mode; out of range exponents give zero (below) or a fault (above).
fn normalize(negative: bool, mantissa: u128, exponent: i32) -> Number {
    if mantissa == 0 {
        return Number::ZERO;
    }
    let (mut m, mut e) = (mantissa, exponent);
    while m < MANTISSA_MIN && e > NUMBER_EXPONENT_MIN {
        m *= 10;
        e -= 1;
    }
    let mut g = Guard {
        negative,
        ..Guard::default()
    };
    while m > MANTISSA_MAX {
        if e >= NUMBER_EXPONENT_MAX {
            return fault();
        }
        g.drop_digit(&mut m, &mut e);
    }
    if e < NUMBER_EXPONENT_MIN || m < MANTISSA_MIN {
        return Number::ZERO;
    }
    g.round_up(&mut m, &mut e);
    finish(negative, m, e)
}

/// Range checks after rounding (`bringIntoRange` and the overflow throw).
fn finish(negative: bool, mut m: u128, mut e: i32) -> Number {
    if m < MANTISSA_MIN {
        m *= 10;
        e -= 1;
    }
    if e < NUMBER_EXPONENT_MIN || m == 0 {
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

impl Number {
    /// Zero (mantissa 0, rippled's lowest exponent).
    pub const ZERO: Number = Number {
        negative: false,
        mantissa: 0,
        exponent: i32::MIN,
    };

    /// One.
    pub const ONE: Number = Number {
        negative: false,
        mantissa: MANTISSA_MIN as u64,
        exponent: -15,
    };

    /// `mantissa * 10^exponent`, normalized with the thread's rounding mode.
    pub fn new(mantissa: i64, exponent: i32) -> Number {
        normalize(mantissa < 0, u128::from(mantissa.unsigned_abs()), exponent)
    }

    /// An integer (`Number(rep)`), rounded with the thread's mode past 16 digits.
    pub fn from_i64(v: i64) -> Number {
        Number::new(v, 0)
    }

    /// The signed mantissa (0 for zero).
    pub fn mantissa(&self) -> i64 {
        if self.negative {
            -(self.mantissa as i64)
        } else {
            self.mantissa as i64
        }
    }

    /// The exponent (`i32::MIN` for zero).
    pub fn exponent(&self) -> i32 {
        self.exponent
    }

    /// The (mantissa, exponent) an STNumber serializes, as rippled 3.x and both client
    /// libraries write it (`MantissaRange::large`): the mantissa in [10^18, 10^19), cut to
    /// [10^17, 2^63) when it would not fit an i64; zero is (0, i32::MIN). Exact for the 16
    /// digits a Number keeps.
    pub fn to_st_parts(&self) -> (i64, i32) {
        if self.is_zero() {
            return (0, i32::MIN);
        }
        let m = u128::from(self.mantissa) * 1000;
        let (m, e) = if m > i64::MAX as u128 {
            (m / 10, self.exponent - 2)
        } else {
            (m, self.exponent - 3)
        };
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

    /// An issued value as a Number (exact: both keep 16 digits).
    pub fn from_iou(v: &IouValue) -> Number {
        if v.is_zero() {
            return Number::ZERO;
        }
        Number {
            negative: v.is_negative(),
            mantissa: v.mantissa(),
            exponent: v.exponent(),
        }
    }

    /// The Number as an issued value (`IOUAmount(Number)`): below the smallest issued
    /// exponent it is zero; above the largest, `None` (rippled throws).
    pub fn to_iou(&self) -> Option<IouValue> {
        if self.is_zero() || self.exponent < IOU_EXPONENT_MIN {
            return Some(IouValue::ZERO);
        }
        if self.exponent > IOU_EXPONENT_MAX {
            return None;
        }
        IouValue::from_parts(
            u128::from(self.mantissa),
            self.exponent,
            self.negative,
            Rounding::Nearest,
        )
        .ok()
    }

    /// The Number as an integer (`operator rep()`, XRP drops), rounded with the thread's
    /// mode; `None` past `i64` (rippled throws).
    pub fn to_i64(&self) -> Option<i64> {
        if self.is_zero() {
            return Some(0);
        }
        let mut drops = u128::from(self.mantissa);
        let mut offset = self.exponent;
        let mut g = Guard {
            negative: self.negative,
            ..Guard::default()
        };
        while offset < 0 {
            g.drop_digit(&mut drops, &mut offset);
        }
        while offset > 0 {
            if drops > i64::MAX as u128 / 10 {
                return None;
            }
            drops *= 10;
            offset -= 1;
        }
        if g.rounds_away(drops) {
            if drops >= i64::MAX as u128 {
                return None;
            }
            drops += 1;
        }
        let d = drops as i64;
        Some(if self.negative { -d } else { d })
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
        let mut g = Guard::default();
        if xe < ye {
            g.negative = xn;
            while xe < ye {
                g.drop_digit(&mut xm, &mut xe);
            }
        } else if xe > ye {
            g.negative = yn;
            while xe > ye {
                g.drop_digit(&mut ym, &mut ye);
            }
        }
        if xn == yn {
            xm += ym;
            if xm > MANTISSA_MAX {
                g.drop_digit(&mut xm, &mut xe);
            }
            g.round_up(&mut xm, &mut xe);
        } else {
            if xm > ym {
                xm -= ym;
            } else {
                xm = ym - xm;
                xe = ye;
                xn = yn;
            }
            while xm < MANTISSA_MIN {
                xm = xm * 10 - g.pop();
                xe -= 1;
            }
            g.round_down(&mut xm, &mut xe);
        }
        let n = finish(xn, xm, xe);
        normalize(n.negative, u128::from(n.mantissa), n.exponent)
    }

    fn mul_impl(self, y: Number) -> Number {
        if self.is_zero() || y.is_zero() {
            return Number::ZERO;
        }
        let zm = u128::from(self.mantissa) * u128::from(y.mantissa);
        normalize(
            self.negative != y.negative,
            zm,
            self.exponent.saturating_add(y.exponent),
        )
    }

    fn div_impl(self, y: Number) -> Number {
        if y.is_zero() {
            return fault();
        }
        if self.is_zero() {
            return Number::ZERO;
        }
        const FACTOR: u128 = 100_000_000_000_000_000;
        let zm = u128::from(self.mantissa) * FACTOR / u128::from(y.mantissa);
        let ze = self.exponent.saturating_sub(y.exponent).saturating_sub(17);
        normalize(self.negative != y.negative, zm, ze)
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

/// rippled's `to_string(Number)`: plain digits for exponents in [-25, -5], else
/// `mantissa e exponent`.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let sign = if self.negative { "-" } else { "" };
        let (mut m, mut e) = (self.mantissa, self.exponent);
        if !(-25..=-5).contains(&e) {
            while m % 10 == 0 {
                m /= 10;
                e += 1;
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
        0 => Number::ONE,
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

/// Scales `f` to `f / 10^e` keeping its mantissa (`Number{f.mantissa(), f.exponent() - e}`).
fn shifted(f: Number, by: i32) -> Number {
    Number::new(f.mantissa(), f.exponent.saturating_sub(by))
}

/// The square root (`root2`): Newton iterations on `f` scaled into (0, 1) with an even
/// exponent, from a quadratic first guess, until the estimate stops moving.
pub fn root2(f: Number) -> Number {
    if f == Number::ONE || f.is_zero() {
        return f;
    }
    if f.negative {
        return fault();
    }
    let mut e = f.exponent + 16;
    if e % 2 != 0 {
        e += 1;
    }
    let f = shifted(f, e);
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
    Number::new(r.mantissa(), r.exponent + e / 2)
}

/// `f^(1/d)` (`root`): Newton iterations from rippled's quadratic least-squares guess.
pub fn root(f: Number, d: u32) -> Number {
    if f == Number::ONE || d == 1 {
        return f;
    }
    if d == 0 {
        if f == -Number::ONE {
            return Number::ONE;
        }
        if f.abs() < Number::ONE {
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
    let mut e = f.exponent + 16;
    let k = (if e >= 0 { e } else { e - (di - 1) }) / di;
    let k2 = e - k * di;
    if k2 != 0 {
        e += di - k2;
    }
    let mut f = shifted(f, e);
    let neg = f.negative;
    if neg {
        f = -f;
    }
    let dd = i64::from(di);
    let big_d = ((6 * dd + 11) * dd + 6) * dd + 1;
    let a0 = 3 * dd * ((2 * dd - 3) * dd + 1);
    let a1 = 24 * (2 * dd - 1);
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
    Number::new(r.mantissa(), r.exponent + e / di)
}

/// `f^(n/d)` (`power(Number, unsigned, unsigned)`).
pub fn power_frac(f: Number, n: u32, d: u32) -> Number {
    if f == Number::ONE {
        return f;
    }
    let g = gcd(n, d);
    if g == 0 {
        return fault();
    }
    if d == 0 {
        if f == -Number::ONE {
            return Number::ONE;
        }
        if f.abs() < Number::ONE {
            return Number::ZERO;
        }
        return fault();
    }
    if n == 0 {
        return Number::ONE;
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
mod tests {
    //! Expected values from rippled's `Number_test.cpp` (small mantissa scale).
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
