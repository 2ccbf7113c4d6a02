//! STAmount-level arithmetic for offers and the payment flow (`STAmount.cpp`,
//! `IOUAmount.cpp` and `XRPAmount.h` in rippled 2.x).
//!
//! Rules are those of a ledger with fixUniversalNumber and fixSTAmountCanonicalize
//! enabled: every intermediate result that does not fit a 16-digit mantissa (or, for
//! XRP, whole drops) is rounded the way rippled's `Number` rounds, in the thread's
//! Number rounding mode. The plain functions assume rippled's default mode,
//! [`NumberRounding::ToNearest`]; the `*_in_mode` variants take the mode a caller
//! holds (a `NumberRoundModeGuard` in rippled).
//!
//! # Errors
//! Where rippled throws (value overflow, XRP out of range, division by zero) these
//! functions return `Err`; nothing saturates. [`get_rate`] never fails: like rippled
//! it answers 0 for a worthless or overflowing offer. Division by zero is reported
//! as [`AmountError::Overflow`], as [`IouValue::checked_div`] does.

use super::amount::{
    Amount, AmountError, IouValue, Rounding, DROPS_MAX, IOU_EXPONENT_MIN, IOU_MANTISSA_MAX,
    IOU_MANTISSA_MIN,
};
use super::types::Issue;

/// rippled's `Number` rounding modes (`Number::rounding_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NumberRounding {
    /// To nearest, ties to even (rippled's default).
    #[default]
    ToNearest,
    /// Toward zero (truncation).
    TowardsZero,
    /// Toward negative infinity.
    Downward,
    /// Toward positive infinity.
    Upward,
}

impl NumberRounding {
    /// The direction applied to the magnitude of a value of the given sign.
    fn for_sign(self, negative: bool) -> Rounding {
        match self {
            NumberRounding::ToNearest => Rounding::Nearest,
            NumberRounding::TowardsZero => Rounding::Down,
            NumberRounding::Upward if negative => Rounding::Down,
            NumberRounding::Upward => Rounding::Up,
            NumberRounding::Downward if negative => Rounding::Up,
            NumberRounding::Downward => Rounding::Down,
        }
    }
}

const TEN_TO_14: u128 = 100_000_000_000_000;
const TEN_TO_17: u128 = 100_000_000_000_000_000;
const MIN_MANTISSA: u128 = IOU_MANTISSA_MIN as u128;
const MAX_MANTISSA: u128 = IOU_MANTISSA_MAX as u128;

/// An operand as STAmount holds it: mantissa, exponent, sign, and whether it is XRP.
#[derive(Clone, Copy, Debug)]
struct Operand {
    mantissa: u128,
    exponent: i64,
    negative: bool,
    native: bool,
}

impl Operand {
    fn of(a: &Amount) -> Operand {
        match a {
            Amount::Xrp(d) => Operand {
                mantissa: u128::from(d.unsigned_abs()),
                exponent: 0,
                negative: *d < 0,
                native: true,
            },
            Amount::Iou { value, .. } => Operand::of_value(value),
        }
    }

    fn of_value(v: &IouValue) -> Operand {
        Operand {
            mantissa: u128::from(v.mantissa()),
            exponent: i64::from(v.exponent()),
            negative: v.is_negative(),
            native: false,
        }
    }

    fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// The mantissa and exponent with XRP scaled up to at least 10^15, as the
    /// arithmetic routines do before multiplying or dividing mantissas.
    fn scaled(&self) -> (u128, i64) {
        let (mut m, mut e) = (self.mantissa, self.exponent);
        if self.native {
            while m < MIN_MANTISSA {
                m *= 10;
                e -= 1;
            }
        }
        (m, e)
    }
}

/// The result of a computation before it is given its issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Drops(i64),
    Iou(IouValue),
}

impl Value {
    fn zero(xrp: bool) -> Value {
        if xrp {
            Value::Drops(0)
        } else {
            Value::Iou(IouValue::ZERO)
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Value::Drops(d) => *d == 0,
            Value::Iou(v) => v.is_zero(),
        }
    }

    fn with_issue(self, issue: &Issue) -> Amount {
        match self {
            Value::Drops(d) => Amount::Xrp(d),
            Value::Iou(value) => Amount::Iou {
                value,
                currency: issue.currency,
                issuer: issue.issuer,
            },
        }
    }

    fn into_iou(self) -> IouValue {
        match self {
            Value::Iou(v) => v,
            Value::Drops(d) => IouValue::from_i64(d),
        }
    }
}

/// Rounds `m * 10^e` to a mantissa in `[10^15, 10^16)` (rippled's `Number`
/// normalization, whose exponent range is wide enough never to matter here).
fn round16(mut m: u128, mut e: i64, rounding: Rounding) -> (u128, i64) {
    if m == 0 {
        return (0, 0);
    }
    while m < MIN_MANTISSA {
        m *= 10;
        e -= 1;
    }
    let mut dropped = 0u32;
    let mut divisor = 1u128;
    while m / divisor > MAX_MANTISSA {
        divisor *= 10;
        dropped += 1;
    }
    if dropped == 0 {
        return (m, e);
    }
    let q = round_quotient(m, divisor, rounding);
    e += i64::from(dropped);
    if q > MAX_MANTISSA {
        (q / 10, e + 1)
    } else {
        (q, e)
    }
}

/// `n / d` rounded as asked (nearest is ties to even).
fn round_quotient(n: u128, d: u128, rounding: Rounding) -> u128 {
    let q = n / d;
    let r = n % d;
    let up = match rounding {
        Rounding::Down => false,
        Rounding::Up => r != 0,
        Rounding::Nearest => {
            let twice = r * 2;
            twice > d || (twice == d && q % 2 == 1)
        }
    };
    q + u128::from(up)
}

/// STAmount's constructor from a raw mantissa and exponent followed by
/// `canonicalize()`: an issued value is normalized with Number's rounding, XRP is
/// converted to whole drops with Number's rounding.
fn canonical(
    xrp: bool,
    m: u128,
    e: i64,
    negative: bool,
    mode: NumberRounding,
) -> Result<Value, AmountError> {
    let rounding = mode.for_sign(negative);
    if xrp {
        return drops_from(m, e, negative, rounding).map(Value::Drops);
    }
    if m == 0 {
        return Ok(Value::Iou(IouValue::ZERO));
    }
    let (m, e) = round16(m, e, rounding);
    if e > i64::from(super::amount::IOU_EXPONENT_MAX) {
        return Err(AmountError::Overflow);
    }
    if e < i64::from(IOU_EXPONENT_MIN) {
        return Ok(Value::Iou(IouValue::ZERO));
    }
    IouValue::from_parts(m, e as i32, negative, Rounding::Nearest).map(Value::Iou)
}

/// Whole drops from `m * 10^e` (native `canonicalize()` under fixSTAmountCanonicalize).
fn drops_from(m: u128, e: i64, negative: bool, rounding: Rounding) -> Result<i64, AmountError> {
    if m == 0 || e <= -20 {
        return Ok(0);
    }
    if e > 17 {
        return Err(AmountError::NativeOutOfRange);
    }
    let mut drops = if e < 0 {
        round_quotient(m, 10u128.pow((-e) as u32), rounding)
    } else {
        m
    };
    for _ in 0..e.max(0) {
        if drops > i64::MAX as u128 / 10 {
            return Err(AmountError::NativeOutOfRange);
        }
        drops *= 10;
    }
    if drops > u128::from(DROPS_MAX) {
        return Err(AmountError::NativeOutOfRange);
    }
    let drops = drops as i64;
    Ok(if negative { -drops } else { drops })
}

/// `Number{amount}`: XRP drops are rounded to 16 digits in the current mode.
fn as_number(o: &Operand, mode: NumberRounding) -> (u128, i64) {
    round16(o.mantissa, o.exponent, mode.for_sign(o.negative))
}

/// `(a * b) / d` in 128 bits, refused when the quotient does not fit 64 bits
/// (rippled's `muldiv` and `muldiv_round` throw there).
fn muldiv(a: u128, b: u128, add: u128, d: u128) -> Result<u128, AmountError> {
    let product = a.checked_mul(b).ok_or(AmountError::Overflow)?;
    let q = (product + add) / d;
    if q > u128::from(u64::MAX) {
        return Err(AmountError::Overflow);
    }
    Ok(q)
}

/// XRP times XRP into XRP: an exact integer product with rippled's overflow bounds.
fn multiply_drops(a: i64, b: i64) -> Result<Value, AmountError> {
    // rippled reads both as u64, so a negative operand always trips the bounds.
    if a < 0 || b < 0 {
        return Err(AmountError::NativeOutOfRange);
    }
    let (min, max) = (a.min(b) as u64, a.max(b) as u64);
    if min > 3_000_000_000 || (max >> 32) * min > 2_095_475_792 {
        return Err(AmountError::NativeOutOfRange);
    }
    let p = min
        .checked_mul(max)
        .filter(|p| *p <= i64::MAX as u64)
        .ok_or(AmountError::NativeOutOfRange)?;
    Ok(Value::Drops(p as i64))
}

fn native_pair(a: &Amount, b: &Amount, xrp: bool) -> Option<(i64, i64)> {
    match (a, b) {
        (Amount::Xrp(x), Amount::Xrp(y)) if xrp => Some((*x, *y)),
        _ => None,
    }
}

/// rippled's `multiply(v1, v2, asset)`: the exact product rounded to 16 digits,
/// then converted to `issue` (to whole drops for XRP), in the given Number mode.
pub fn multiply_in_mode(
    a: &Amount,
    b: &Amount,
    issue: &Issue,
    mode: NumberRounding,
) -> Result<Amount, AmountError> {
    multiply_value(a, b, issue.is_xrp(), mode).map(|v| v.with_issue(issue))
}

fn multiply_value(
    a: &Amount,
    b: &Amount,
    xrp: bool,
    mode: NumberRounding,
) -> Result<Value, AmountError> {
    let (x, y) = (Operand::of(a), Operand::of(b));
    if x.is_zero() || y.is_zero() {
        return Ok(Value::zero(xrp));
    }
    if let Some((p, q)) = native_pair(a, b, xrp) {
        return multiply_drops(p, q);
    }
    let negative = x.negative != y.negative;
    let (xm, xe) = as_number(&x, mode);
    let (ym, ye) = as_number(&y, mode);
    let (m, e) = round16(xm * ym, xe + ye, mode.for_sign(negative));
    canonical(xrp, m, e, negative, mode)
}

/// rippled's `multiply` in the default Number mode (to nearest).
pub fn multiply(a: &Amount, b: &Amount, issue: &Issue) -> Result<Amount, AmountError> {
    multiply_in_mode(a, b, issue, NumberRounding::ToNearest)
}

/// rippled's `divide(num, den, asset)`: a 17-digit quotient biased by 5 in its last
/// digit, then converted to `issue` in the given Number mode.
pub fn divide_in_mode(
    num: &Amount,
    den: &Amount,
    issue: &Issue,
    mode: NumberRounding,
) -> Result<Amount, AmountError> {
    divide_value(&Operand::of(num), &Operand::of(den), issue.is_xrp(), mode)
        .map(|v| v.with_issue(issue))
}

fn divide_value(
    n: &Operand,
    d: &Operand,
    xrp: bool,
    mode: NumberRounding,
) -> Result<Value, AmountError> {
    if d.is_zero() {
        return Err(AmountError::Overflow);
    }
    if n.is_zero() {
        return Ok(Value::zero(xrp));
    }
    let (nm, ne) = n.scaled();
    let (dm, de) = d.scaled();
    let q = muldiv(nm, TEN_TO_17, 0, dm)? + 5;
    canonical(xrp, q, ne - de - 17, n.negative != d.negative, mode)
}

/// rippled's `divide` in the default Number mode (to nearest).
pub fn divide(num: &Amount, den: &Amount, issue: &Issue) -> Result<Amount, AmountError> {
    divide_in_mode(num, den, issue, NumberRounding::ToNearest)
}

/// rippled's `getRate(offerOut, offerIn)`: `offerIn / offerOut` as a quality word,
/// exponent + 100 in the top 8 bits and the mantissa below. 0 when `offer_out` is
/// zero, when the ratio is zero, or when the division overflows.
pub fn get_rate(offer_out: &Amount, offer_in: &Amount) -> u64 {
    let (out, inp) = (Operand::of(offer_out), Operand::of(offer_in));
    if out.is_zero() {
        return 0;
    }
    match divide_value(&inp, &out, false, NumberRounding::ToNearest) {
        Ok(Value::Iou(r)) if !r.is_zero() => (((r.exponent() + 100) as u64) << 56) | r.mantissa(),
        _ => 0,
    }
}

/// rippled's `amountFromQuality`, refusing a word whose value overflows an issued
/// amount (only words not made by [`get_rate`] can).
pub fn try_amount_from_quality(rate: u64) -> Result<IouValue, AmountError> {
    if rate == 0 {
        return Ok(IouValue::ZERO);
    }
    let mantissa = rate & ((1u64 << 56) - 1);
    let exponent = (rate >> 56) as i32 - 100;
    match canonical(
        false,
        u128::from(mantissa),
        i64::from(exponent),
        false,
        NumberRounding::ToNearest,
    )? {
        Value::Iou(v) => Ok(v),
        Value::Drops(_) => unreachable!("an issued result"),
    }
}

/// rippled's `amountFromQuality`: the ratio a quality word encodes. A word whose
/// value overflows (never one made by [`get_rate`]) saturates to the largest issued
/// value, where rippled would throw.
pub fn amount_from_quality(rate: u64) -> IouValue {
    try_amount_from_quality(rate).unwrap_or_else(|_| {
        IouValue::from_parts(
            u128::from(IOU_MANTISSA_MAX),
            super::amount::IOU_EXPONENT_MAX,
            false,
            Rounding::Nearest,
        )
        .expect("the largest issued value")
    })
}

/// rippled's legacy `canonicalizeRound`, applied before rounding away from zero.
fn canonicalize_round(native: bool, value: &mut u128, offset: &mut i64) {
    if native {
        if *offset < 0 {
            let mut loops = 0;
            while *offset < -1 {
                *value /= 10;
                *offset += 1;
                loops += 1;
            }
            *value += if loops >= 2 { 9 } else { 10 };
            *value /= 10;
            *offset += 1;
        }
    } else {
        shrink_issued_up(value, offset);
    }
}

/// rippled's `canonicalizeRoundStrict`: like [`canonicalize_round`] but the XRP case
/// remembers every digit dropped.
fn canonicalize_round_strict(native: bool, value: &mut u128, offset: &mut i64, round_up: bool) {
    if native {
        if *offset < 0 {
            let mut had_remainder = false;
            while *offset < -1 {
                had_remainder |= !value.is_multiple_of(10);
                *value /= 10;
                *offset += 1;
            }
            *value += if had_remainder && round_up { 10 } else { 9 };
            *value /= 10;
            *offset += 1;
        }
    } else {
        shrink_issued_up(value, offset);
    }
}

/// Brings an issued mantissa to at most 16 digits, rounding the last digit up.
fn shrink_issued_up(value: &mut u128, offset: &mut i64) {
    if *value > MAX_MANTISSA {
        while *value > 10 * MAX_MANTISSA {
            *value /= 10;
            *offset += 1;
        }
        *value += 9;
        *value /= 10;
        *offset += 1;
    }
}

/// The smallest positive amount of the result's kind (1 drop, or 10^15 * 10^-96).
fn smallest_positive(xrp: bool) -> Value {
    if xrp {
        Value::Drops(1)
    } else {
        Value::Iou(
            IouValue::from_parts(MIN_MANTISSA, IOU_EXPONENT_MIN, false, Rounding::Nearest)
                .expect("the smallest issued value"),
        )
    }
}

/// Which rippled rounding routine a `mulRound`/`divRound` call uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// `mulRound`/`divRound`: legacy rounding, Number in the caller's mode.
    Legacy(NumberRounding),
    /// `mulRoundStrict`/`divRoundStrict`.
    Strict,
}

fn mul_round_value(
    a: &Amount,
    b: &Amount,
    xrp: bool,
    round_up: bool,
    flavor: Flavor,
) -> Result<Value, AmountError> {
    let (x, y) = (Operand::of(a), Operand::of(b));
    if x.is_zero() || y.is_zero() {
        return Ok(Value::zero(xrp));
    }
    if let Some((p, q)) = native_pair(a, b, xrp) {
        return multiply_drops(p, q);
    }
    let (xm, xe) = x.scaled();
    let (ym, ye) = y.scaled();
    let negative = x.negative != y.negative;
    let away = negative != round_up;
    let mut amount = muldiv(xm, ym, if away { TEN_TO_14 - 1 } else { 0 }, TEN_TO_14)?;
    let mut offset = xe + ye + 14;
    let mode = match flavor {
        Flavor::Legacy(mode) => {
            if away {
                canonicalize_round(xrp, &mut amount, &mut offset);
            }
            mode
        }
        Flavor::Strict => {
            if away {
                canonicalize_round_strict(xrp, &mut amount, &mut offset, round_up);
            }
            NumberRounding::TowardsZero
        }
    };
    let result = canonical(xrp, amount, offset, negative, mode)?;
    Ok(lift_zero(result, xrp, round_up, negative))
}

/// Rounding up a positive result never gives zero: rippled returns the smallest
/// positive amount instead.
fn lift_zero(result: Value, xrp: bool, round_up: bool, negative: bool) -> Value {
    if round_up && !negative && result.is_zero() {
        smallest_positive(xrp)
    } else {
        result
    }
}

fn div_round_value(
    num: &Amount,
    den: &Amount,
    xrp: bool,
    round_up: bool,
    flavor: Flavor,
) -> Result<Value, AmountError> {
    let (n, d) = (Operand::of(num), Operand::of(den));
    if d.is_zero() {
        return Err(AmountError::Overflow);
    }
    if n.is_zero() {
        return Ok(Value::zero(xrp));
    }
    let (nm, ne) = n.scaled();
    let (dm, de) = d.scaled();
    let negative = n.negative != d.negative;
    let away = negative != round_up;
    let mut amount = muldiv(nm, TEN_TO_17, if away { dm - 1 } else { 0 }, dm)?;
    let mut offset = ne - de - 17;
    if away {
        // Both flavours use the legacy routine here, as rippled does.
        canonicalize_round(xrp, &mut amount, &mut offset);
    }
    let mode = match flavor {
        Flavor::Legacy(mode) => mode,
        Flavor::Strict if round_up != negative => NumberRounding::Upward,
        Flavor::Strict => NumberRounding::Downward,
    };
    let result = canonical(xrp, amount, offset, negative, mode)?;
    Ok(lift_zero(result, xrp, round_up, negative))
}

/// rippled's `mulRound` with the Number mode the caller holds.
pub fn mul_round_in_mode(
    a: &Amount,
    b: &Amount,
    issue: &Issue,
    round_up: bool,
    mode: NumberRounding,
) -> Result<Amount, AmountError> {
    mul_round_value(a, b, issue.is_xrp(), round_up, Flavor::Legacy(mode))
        .map(|v| v.with_issue(issue))
}

/// rippled's `mulRound`: `a * b` in `issue`, rounded away from zero when `round_up`
/// (with the legacy rounding quirks), in the default Number mode. Note that rounding
/// down an XRP or long result goes through Number's to-nearest conversion, as in
/// rippled; [`mul_round_strict`] truncates.
pub fn mul_round(
    a: &Amount,
    b: &Amount,
    issue: &Issue,
    round_up: bool,
) -> Result<Amount, AmountError> {
    mul_round_in_mode(a, b, issue, round_up, NumberRounding::ToNearest)
}

/// rippled's `mulRoundStrict` (fixReducedOffersV1 and later): every dropped digit
/// counts toward rounding up, and rounding down truncates.
pub fn mul_round_strict(
    a: &Amount,
    b: &Amount,
    issue: &Issue,
    round_up: bool,
) -> Result<Amount, AmountError> {
    mul_round_value(a, b, issue.is_xrp(), round_up, Flavor::Strict).map(|v| v.with_issue(issue))
}

/// rippled's `divRound` with the Number mode the caller holds.
pub fn div_round_in_mode(
    num: &Amount,
    den: &Amount,
    issue: &Issue,
    round_up: bool,
    mode: NumberRounding,
) -> Result<Amount, AmountError> {
    div_round_value(num, den, issue.is_xrp(), round_up, Flavor::Legacy(mode))
        .map(|v| v.with_issue(issue))
}

/// rippled's `divRound`: `num / den` in `issue`, rounded away from zero when
/// `round_up`, in the default Number mode.
pub fn div_round(
    num: &Amount,
    den: &Amount,
    issue: &Issue,
    round_up: bool,
) -> Result<Amount, AmountError> {
    div_round_in_mode(num, den, issue, round_up, NumberRounding::ToNearest)
}

/// rippled's `divRoundStrict`: as [`div_round`] but the final conversion rounds
/// upward or downward as asked instead of to nearest.
pub fn div_round_strict(
    num: &Amount,
    den: &Amount,
    issue: &Issue,
    round_up: bool,
) -> Result<Amount, AmountError> {
    div_round_value(num, den, issue.is_xrp(), round_up, Flavor::Strict).map(|v| v.with_issue(issue))
}

/// `a * num / den` (`mulRatio` of `XRPAmount` or `IOUAmount`): XRP is an exact
/// integer quotient moved one drop away from zero-ward truncation when there is a
/// remainder and `round_up` (positive) or `!round_up` (negative); an issued value
/// keeps as many digits as fit 64 bits before Number normalizes it. Errors on
/// `den == 0` and on overflow.
pub fn mul_ratio(a: &Amount, num: u32, den: u32, round_up: bool) -> Result<Amount, AmountError> {
    match a {
        Amount::Xrp(d) => mul_ratio_drops(*d, num, den, round_up).map(Amount::Xrp),
        Amount::Iou {
            value,
            currency,
            issuer,
        } => Ok(Amount::Iou {
            value: mul_ratio_iou(value, num, den, round_up)?,
            currency: *currency,
            issuer: *issuer,
        }),
    }
}

/// `XRPAmount` `mulRatio`: errors on `den == 0` or a result above `i64::MAX`; a
/// result below `i64::MIN` saturates there, as rippled's conversion does.
pub fn mul_ratio_drops(drops: i64, num: u32, den: u32, round_up: bool) -> Result<i64, AmountError> {
    if den == 0 {
        return Err(AmountError::Overflow);
    }
    let m = i128::from(drops) * i128::from(num);
    let den = i128::from(den);
    let mut r = m / den;
    if m % den != 0 {
        if drops >= 0 && round_up {
            r += 1;
        }
        if drops < 0 && !round_up {
            r -= 1;
        }
    }
    if r > i128::from(i64::MAX) {
        return Err(AmountError::NativeOutOfRange);
    }
    // rippled checks only the top; below i64::MIN its conversion saturates.
    Ok(r.max(i128::from(i64::MIN)) as i64)
}

/// `10^i` for `i` in `0..30` (2^96 < 10^29 bounds every intermediate value).
const POW10: [u128; 30] = {
    let mut t = [1u128; 30];
    let mut i = 1;
    while i < 30 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// The smallest `i` with `10^i >= v`.
fn log10_ceil(v: u128) -> i64 {
    POW10.iter().position(|p| *p >= v).unwrap_or(POW10.len()) as i64
}

/// Digits that fit an i64 (floor(log10(i64::MAX))).
const I64_DIGITS: i64 = 18;

/// `IOUAmount` `mulRatio`.
pub fn mul_ratio_iou(
    value: &IouValue,
    num: u32,
    den: u32,
    round_up: bool,
) -> Result<IouValue, AmountError> {
    if den == 0 {
        return Err(AmountError::Overflow);
    }
    let negative = value.is_negative();
    let den = u128::from(den);
    let product = u128::from(value.mantissa()) * u128::from(num);
    let mut low = product / den;
    let mut rem = product - low * den;
    let mut exponent = i64::from(value.exponent());
    if rem != 0 {
        let room = I64_DIGITS - log10_ceil(low);
        if room > 0 {
            exponent -= room;
            low *= POW10[room as usize];
            rem *= POW10[room as usize];
        }
        let add = rem / den;
        low += add;
        rem -= add * den;
    }
    let mut has_rem = rem != 0;
    let shrink = log10_ceil(low) - I64_DIGITS;
    if shrink > 0 {
        let before = low;
        exponent += shrink;
        low /= POW10[shrink as usize];
        has_rem |= before != low * POW10[shrink as usize];
    }
    let result = iou_normalized(low, exponent, negative)?;
    if has_rem {
        if round_up && !negative {
            return nudge(&result, false);
        }
        if !round_up && negative {
            return nudge(&result, true);
        }
    }
    Ok(result)
}

/// `IOUAmount(mantissa, exponent)`: Number normalization to nearest.
fn iou_normalized(m: u128, e: i64, negative: bool) -> Result<IouValue, AmountError> {
    canonical(false, m, e, negative, NumberRounding::ToNearest).map(Value::into_iou)
}

/// One unit in the last place away from zero; zero becomes the smallest value of the
/// given sign.
fn nudge(v: &IouValue, negative: bool) -> Result<IouValue, AmountError> {
    if v.is_zero() {
        let smallest = smallest_positive(false).into_iou();
        return Ok(if negative {
            smallest.negate()
        } else {
            smallest
        });
    }
    iou_normalized(
        u128::from(v.mantissa()) + 1,
        i64::from(v.exponent()),
        negative,
    )
}

/// Compares two amounts of the same kind (rippled's `STAmount` ordering). Amounts
/// of different kinds, which rippled refuses to compare, are ordered by value.
pub fn compare(a: &Amount, b: &Amount) -> std::cmp::Ordering {
    match (a, b) {
        (Amount::Xrp(x), Amount::Xrp(y)) => x.cmp(y),
        _ => as_value(a).cmp(&as_value(b)),
    }
}

fn as_value(a: &Amount) -> IouValue {
    match a {
        Amount::Xrp(d) => IouValue::from_i64(*d),
        Amount::Iou { value, .. } => *value,
    }
}

/// rippled's `noIssue()`: currency 1, issuer 1, the issue of rates and qualities.
pub fn no_issue() -> Issue {
    let mut currency = [0u8; 20];
    currency[19] = 1;
    let mut issuer = [0u8; 20];
    issuer[19] = 1;
    Issue {
        currency: super::types::Currency(currency),
        issuer: super::types::AccountId(issuer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_words_from_st_amount_test() {
        // STAmount_test::testArithmetic, "getRate fail 1" and "fail 2".
        let word = |e: u64| ((100 - e) << 56) | 1_000_000_000_000_000;
        assert_eq!(get_rate(&Amount::Xrp(1), &Amount::Xrp(10)), word(14));
        assert_eq!(get_rate(&Amount::Xrp(10), &Amount::Xrp(1)), word(16));
        assert_eq!(get_rate(&Amount::Xrp(0), &Amount::Xrp(1)), 0);
    }

    #[test]
    fn xrp_mul_ratio_rounds_away_when_asked() {
        // XRPAmount_test::testMulRatio, "small amounts".
        assert_eq!(mul_ratio_drops(1, 1, u32::MAX, true), Ok(1));
        assert_eq!(mul_ratio_drops(1, 1, u32::MAX, false), Ok(0));
    }
}
