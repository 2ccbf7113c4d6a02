//! Amounts: XRP in drops and issued-currency values (`STAmount.cpp`, `IOUAmount.cpp`).
//!
//! An issued value is a sign, a mantissa in `[10^15, 10^16)` and an exponent in
//! `[-96, 80]`; zero is its own form. Arithmetic is exact before one rounding to 16
//! significant digits (round-half-even unless a direction is asked for), as rippled's
//! `Number` does since the fixUniversalNumber amendment. Underflow rounds to zero;
//! overflow is an error.

use std::cmp::Ordering;
use std::fmt;

use serde_json::Value;

use super::types::{AccountId, Currency, Issue};

/// Drops in one XRP.
pub const DROPS_PER_XRP: u64 = 1_000_000;
/// The largest legal XRP amount, 10^17 drops (`cMaxNativeN`, `INITIAL_XRP`).
pub const DROPS_MAX: u64 = 100_000_000_000_000_000;
/// Smallest mantissa of a normalized non-zero issued value (`cMinValue`).
pub const IOU_MANTISSA_MIN: u64 = 1_000_000_000_000_000;
/// Largest mantissa of a normalized issued value (`cMaxValue`).
pub const IOU_MANTISSA_MAX: u64 = 9_999_999_999_999_999;
/// Smallest exponent of a non-zero issued value (`cMinOffset`).
pub const IOU_EXPONENT_MIN: i32 = -96;
/// Largest exponent of an issued value (`cMaxOffset`).
pub const IOU_EXPONENT_MAX: i32 = 80;
/// The exponent rippled stores for zero.
const ZERO_EXPONENT: i32 = -100;

/// Why an amount was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// The text is not a number in rippled's grammar.
    #[error("Number '{0}' is not valid")]
    Malformed(String),
    /// The digits (integer and fraction together) do not fit in 64 bits: rippled's
    /// `partsFromString` reads them with `lexical_cast<std::uint64_t>`, which throws.
    #[error("Number '{0}' is overlong")]
    Overlong(String),
    /// An XRP amount with a fractional part.
    #[error("XRP must be specified in integral drops.")]
    XrpFraction,
    /// An XRP amount above 10^17 drops.
    #[error("Native currency amount out of range")]
    NativeOutOfRange,
    /// An issued value above the largest representable one.
    #[error("value overflow")]
    Overflow,
    /// `{"currency":"XRP", ...}` as an object.
    #[error("XRP may not be specified as an object")]
    XrpAsObject,
    /// A currency code rippled does not accept.
    #[error("invalid currency")]
    BadCurrency,
    /// An issuer that is not a classic address.
    #[error("invalid issuer")]
    BadIssuer,
    /// The JSON is neither a string, an integer nor an amount object.
    #[error("invalid amount type")]
    BadType,
    /// Binary: an IOU word out of range, a negative zero, or a zero currency or issuer.
    #[error("invalid amount encoding: {0}")]
    BadEncoding(&'static str),
}

/// Which way to round when a result has more than 16 significant digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// To nearest, ties to even.
    Nearest,
    /// Away from zero (rippled's `roundUp` for positive values).
    Up,
    /// Toward zero.
    Down,
}

/// A non-negative XRP quantity in drops.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Drops(pub u64);

impl fmt::Display for Drops {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An issued-currency value: sign, 16-digit mantissa and exponent, normalized.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IouValue {
    mantissa: u64,
    exponent: i32,
    negative: bool,
}

const POW10: [u128; 39] = {
    let mut t = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

impl IouValue {
    /// Zero.
    pub const ZERO: IouValue = IouValue {
        mantissa: 0,
        exponent: ZERO_EXPONENT,
        negative: false,
    };

    /// Builds `(-1)^negative * mantissa * 10^exponent`, rounded to 16 digits.
    pub fn from_parts(
        mantissa: u128,
        exponent: i32,
        negative: bool,
        rounding: Rounding,
    ) -> Result<IouValue, AmountError> {
        normalize(mantissa, exponent as i64, negative, rounding)
    }

    /// An integer value.
    pub fn from_i64(v: i64) -> IouValue {
        normalize(v.unsigned_abs() as u128, 0, v < 0, Rounding::Nearest)
            .expect("an i64 always fits")
    }

    /// The mantissa (0 for zero, else in `[10^15, 10^16)`).
    pub fn mantissa(&self) -> u64 {
        self.mantissa
    }

    /// The exponent (-100 for zero, as rippled stores it).
    pub fn exponent(&self) -> i32 {
        self.exponent
    }

    /// True for a value below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        if self.is_zero() {
            0
        } else if self.negative {
            -1
        } else {
            1
        }
    }

    /// The value with its sign flipped.
    pub fn negate(&self) -> IouValue {
        if self.is_zero() {
            *self
        } else {
            IouValue {
                negative: !self.negative,
                ..*self
            }
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> IouValue {
        IouValue {
            negative: false,
            ..*self
        }
    }

    /// `self + other`, exact then rounded to nearest.
    pub fn checked_add(&self, other: &IouValue) -> Result<IouValue, AmountError> {
        if self.is_zero() {
            return Ok(*other);
        }
        if other.is_zero() {
            return Ok(*self);
        }
        let (hi, lo) = if self.exponent >= other.exponent {
            (self, other)
        } else {
            (other, self)
        };
        let shift = (hi.exponent - lo.exponent) as usize;
        if shift > 20 {
            // The smaller operand is below the 16th digit of the larger by a wide margin.
            return Ok(*hi);
        }
        let a = hi.mantissa as i128 * POW10[shift] as i128 * if hi.negative { -1 } else { 1 };
        let b = lo.mantissa as i128 * if lo.negative { -1 } else { 1 };
        let sum = a + b;
        normalize(
            sum.unsigned_abs(),
            lo.exponent as i64,
            sum < 0,
            Rounding::Nearest,
        )
    }

    /// `self - other`.
    pub fn checked_sub(&self, other: &IouValue) -> Result<IouValue, AmountError> {
        self.checked_add(&other.negate())
    }

    /// `self * other`, rounded as asked.
    pub fn checked_mul(
        &self,
        other: &IouValue,
        rounding: Rounding,
    ) -> Result<IouValue, AmountError> {
        if self.is_zero() || other.is_zero() {
            return Ok(IouValue::ZERO);
        }
        let m = self.mantissa as u128 * other.mantissa as u128;
        normalize(
            m,
            self.exponent as i64 + other.exponent as i64,
            self.negative != other.negative,
            rounding,
        )
    }

    /// `self / other`, rounded as asked. Division by zero is an overflow.
    pub fn checked_div(
        &self,
        other: &IouValue,
        rounding: Rounding,
    ) -> Result<IouValue, AmountError> {
        if other.is_zero() {
            return Err(AmountError::Overflow);
        }
        if self.is_zero() {
            return Ok(IouValue::ZERO);
        }
        // 10^17 * 10^16 < 2^128: keeps 17+ significant digits in the quotient.
        let num = self.mantissa as u128 * POW10[22];
        let den = other.mantissa as u128;
        let q = num / den;
        let r = num % den;
        // Fold the remainder into a sticky digit so rounding sees it.
        let (q, extra) = if r != 0 { (q * 10 + 1, 1) } else { (q, 0) };
        normalize(
            q,
            self.exponent as i64 - other.exponent as i64 - 22 - extra,
            self.negative != other.negative,
            rounding,
        )
    }

    /// Multiplies by `rate / 10^9` (a TransferRate or a quality), rounding as asked.
    pub fn mul_rate(&self, rate: u32, rounding: Rounding) -> Result<IouValue, AmountError> {
        let r = normalize(rate as u128, -9, false, Rounding::Nearest)?;
        self.checked_mul(&r, rounding)
    }

    /// Parses rippled's amount grammar: `[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
    pub fn parse(s: &str) -> Result<IouValue, AmountError> {
        let p = parse_number(s)?;
        normalize(p.digits, p.exponent, p.negative, Rounding::Nearest)
    }

    /// The 64-bit wire word (`STAmount::add` for an IOU).
    pub fn to_bits(&self) -> u64 {
        if self.is_zero() {
            return 0x8000_0000_0000_0000;
        }
        let mut w = 0x8000_0000_0000_0000u64;
        if !self.negative {
            w |= 0x4000_0000_0000_0000;
        }
        w |= ((self.exponent + 97) as u64) << 54;
        w | self.mantissa
    }

    /// Reads a 64-bit IOU word, with rippled's checks (`STAmount(SerialIter&)`).
    pub fn from_bits(w: u64) -> Result<IouValue, AmountError> {
        if w & 0x8000_0000_0000_0000 == 0 {
            return Err(AmountError::BadEncoding("not an issued amount"));
        }
        let offset = (w >> 54) as i32 & 0x3FF;
        let mantissa = w & ((1u64 << 54) - 1);
        if mantissa == 0 {
            if offset != 512 {
                return Err(AmountError::BadEncoding("invalid currency value"));
            }
            return Ok(IouValue::ZERO);
        }
        let negative = offset & 256 == 0;
        let exponent = (offset & 255) - 97;
        if !(IOU_MANTISSA_MIN..=IOU_MANTISSA_MAX).contains(&mantissa)
            || !(IOU_EXPONENT_MIN..=IOU_EXPONENT_MAX).contains(&exponent)
        {
            return Err(AmountError::BadEncoding("invalid currency value"));
        }
        Ok(IouValue {
            mantissa,
            exponent,
            negative,
        })
    }

    /// rippled's `STAmount::getText` for an issued value.
    pub fn to_text(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let sign = if self.negative { "-" } else { "" };
        let e = self.exponent;
        if e != 0 && !(-25..=-5).contains(&e) {
            return format!("{sign}{}e{e}", self.mantissa);
        }
        let digits = self.mantissa.to_string();
        if e == 0 {
            return format!("{sign}{digits}");
        }
        // -25 <= e <= -5: split the 16 digits around the decimal point.
        let point = 16 + e; // digits before the point; may be <= 0
        let (int_part, frac_part) = if point > 0 {
            (
                digits[..point as usize].to_string(),
                digits[point as usize..].to_string(),
            )
        } else {
            (
                "0".to_string(),
                format!("{}{}", "0".repeat((-point) as usize), digits),
            )
        };
        let int_part = int_part.trim_start_matches('0');
        let int_part = if int_part.is_empty() { "0" } else { int_part };
        let frac_part = frac_part.trim_end_matches('0');
        if frac_part.is_empty() {
            format!("{sign}{int_part}")
        } else {
            format!("{sign}{int_part}.{frac_part}")
        }
    }
}

impl fmt::Debug for IouValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IouValue({})", self.to_text())
    }
}

impl fmt::Display for IouValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl PartialOrd for IouValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for IouValue {
    fn cmp(&self, other: &Self) -> Ordering {
        match self.signum().cmp(&other.signum()) {
            Ordering::Equal => {}
            o => return o,
        }
        if self.is_zero() {
            return Ordering::Equal;
        }
        let mag = (self.exponent, self.mantissa).cmp(&(other.exponent, other.mantissa));
        if self.negative {
            mag.reverse()
        } else {
            mag
        }
    }
}

fn normalize(
    mut m: u128,
    mut e: i64,
    negative: bool,
    rounding: Rounding,
) -> Result<IouValue, AmountError> {
    if m == 0 {
        return Ok(IouValue::ZERO);
    }
    let min = IOU_MANTISSA_MIN as u128;
    let max = IOU_MANTISSA_MAX as u128;
    while m < min {
        m *= 10;
        e -= 1;
    }
    if m > max {
        let mut drop = 0usize;
        while m / POW10[drop] > max {
            drop += 1;
        }
        let div = POW10[drop];
        let q = m / div;
        let r = m % div;
        let half = div / 2;
        let up = match rounding {
            Rounding::Down => false,
            Rounding::Up => r != 0,
            Rounding::Nearest => r > half || (r == half && q % 2 == 1),
        };
        m = q + up as u128;
        e += drop as i64;
        if m > max {
            m /= 10;
            e += 1;
        }
    }
    if e > IOU_EXPONENT_MAX as i64 {
        return Err(AmountError::Overflow);
    }
    if e < IOU_EXPONENT_MIN as i64 {
        return Ok(IouValue::ZERO);
    }
    Ok(IouValue {
        mantissa: m as u64,
        exponent: e as i32,
        negative,
    })
}

/// A number as read by rippled's `amountFromString`.
struct ParsedNumber {
    negative: bool,
    digits: u128,
    exponent: i64,
}

fn parse_number(s: &str) -> Result<ParsedNumber, AmountError> {
    let bad = || AmountError::Malformed(s.to_string());
    let b = s.as_bytes();
    let mut i = 0;
    let mut negative = false;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        negative = b[i] == b'-';
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = &s[int_start..i];
    if int_digits.is_empty() || (int_digits.len() > 1 && int_digits.starts_with('0')) {
        return Err(bad());
    }
    let mut frac_digits = "";
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = &s[f..i];
        if frac_digits.is_empty() {
            return Err(bad());
        }
    }
    let mut exponent: i64 = 0;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        let mut eneg = false;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            eneg = b[i] == b'-';
            i += 1;
        }
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let ed = &s[f..i];
        if ed.is_empty() {
            return Err(bad());
        }
        // `lexical_cast<int>` of the digits: leading zeros are fine, above i32::MAX throws.
        for c in ed.bytes() {
            exponent = exponent * 10 + i64::from(c - b'0');
            if exponent > i64::from(i32::MAX) {
                return Err(bad());
            }
        }
        if eneg {
            exponent = -exponent;
        }
    }
    if i != b.len() {
        return Err(bad());
    }
    // rippled reads integer and fraction digits together as one u64
    // (`lexical_cast<std::uint64_t>(int + frac)` in `partsFromString`): any count of
    // digits is fine while the value fits ("0.000...01"), a larger value throws.
    let mut digits: u128 = 0;
    for c in int_digits.bytes().chain(frac_digits.bytes()) {
        digits = digits * 10 + u128::from(c - b'0');
        if digits > u128::from(u64::MAX) {
            return Err(AmountError::Overlong(s.to_string()));
        }
    }
    exponent -= frac_digits.len() as i64;
    Ok(ParsedNumber {
        negative,
        digits,
        exponent,
    })
}

/// Parses an XRP amount string in drops with rippled's rules (`amountFromJson`): a sign
/// is allowed, a positive exponent scales, and any negative exponent, whether from a
/// fraction (`1.0`) or written (`10e-1`), is refused ("XRP and MPT must be specified as
/// integral amount.").
pub fn parse_drops(s: &str) -> Result<i64, AmountError> {
    let p = parse_number(s)?;
    if p.exponent < 0 {
        return Err(AmountError::XrpFraction);
    }
    let mut v = p.digits;
    if v == 0 {
        // Zero whatever the exponent (rippled's canonicalize), without scaling "0e999999999".
        return Ok(0);
    }
    let mut e = p.exponent;
    while e > 0 {
        v = v.checked_mul(10).ok_or(AmountError::NativeOutOfRange)?;
        if v > DROPS_MAX as u128 {
            return Err(AmountError::NativeOutOfRange);
        }
        e -= 1;
    }
    if v > DROPS_MAX as u128 {
        return Err(AmountError::NativeOutOfRange);
    }
    Ok(if p.negative { -(v as i64) } else { v as i64 })
}

/// Parses an MPT amount's value with rippled's rules (`amountFromString` for an MPT
/// asset, then `canonicalize`): an integer, a sign and a positive exponent allowed, any
/// fraction refused; the result must fit in 63 bits (`maxMPTokenAmount`). Returns the
/// magnitude and the sign (a zero is never negative).
pub fn parse_mpt_value(s: &str) -> Result<(u64, bool), AmountError> {
    let p = parse_number(s)?;
    if p.exponent < 0 {
        return Err(AmountError::XrpFraction);
    }
    let mut v = p.digits;
    if v == 0 {
        return Ok((0, false));
    }
    for _ in 0..p.exponent {
        v = v.saturating_mul(10);
        if v > i64::MAX as u128 {
            return Err(AmountError::Overflow);
        }
    }
    if v > i64::MAX as u128 {
        return Err(AmountError::Overflow);
    }
    Ok((v as u64, p.negative))
}

/// An amount of XRP (signed drops) or of an issued currency.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Amount {
    /// Drops of XRP; negative only in intermediate computations and refused transactions.
    Xrp(i64),
    /// An issued currency.
    Iou {
        /// The value.
        value: IouValue,
        /// The currency code (never XRP).
        currency: Currency,
        /// The issuer.
        issuer: AccountId,
    },
}

impl Amount {
    /// An XRP amount.
    pub fn drops(d: i64) -> Amount {
        Amount::Xrp(d)
    }

    /// An issued amount.
    pub fn iou(value: IouValue, currency: Currency, issuer: AccountId) -> Amount {
        Amount::Iou {
            value,
            currency,
            issuer,
        }
    }

    /// True for XRP.
    pub fn is_xrp(&self) -> bool {
        matches!(self, Amount::Xrp(_))
    }

    /// The drops of an XRP amount.
    pub fn as_drops(&self) -> Option<i64> {
        match self {
            Amount::Xrp(d) => Some(*d),
            Amount::Iou { .. } => None,
        }
    }

    /// The issued value of an IOU amount.
    pub fn as_iou(&self) -> Option<IouValue> {
        match self {
            Amount::Xrp(_) => None,
            Amount::Iou { value, .. } => Some(*value),
        }
    }

    /// Currency and issuer (XRP's is all zeros).
    pub fn issue(&self) -> Issue {
        match self {
            Amount::Xrp(_) => Issue::XRP,
            Amount::Iou {
                currency, issuer, ..
            } => Issue {
                currency: *currency,
                issuer: *issuer,
            },
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        match self {
            Amount::Xrp(d) => *d == 0,
            Amount::Iou { value, .. } => value.is_zero(),
        }
    }

    /// True below zero.
    pub fn is_negative(&self) -> bool {
        match self {
            Amount::Xrp(d) => *d < 0,
            Amount::Iou { value, .. } => value.is_negative(),
        }
    }

    /// rippled's text of the value alone (`getText`).
    pub fn value_text(&self) -> String {
        match self {
            Amount::Xrp(d) => d.to_string(),
            Amount::Iou { value, .. } => value.to_text(),
        }
    }

    /// rippled's JSON: a drops string, or `{currency, issuer, value}`.
    pub fn to_json(&self) -> Value {
        match self {
            Amount::Xrp(d) => Value::String(d.to_string()),
            Amount::Iou {
                value,
                currency,
                issuer,
            } => serde_json::json!({
                "currency": currency.to_json_string(),
                "issuer": issuer.to_address(),
                "value": value.to_text(),
            }),
        }
    }

    /// rippled's `amountFromJson`: a string or integer is XRP drops; an object is an IOU
    /// whose currency is not XRP.
    pub fn from_json(v: &Value) -> Result<Amount, AmountError> {
        match v {
            Value::String(s) => Ok(Amount::Xrp(parse_drops(s)?)),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    if u > DROPS_MAX {
                        return Err(AmountError::NativeOutOfRange);
                    }
                    Ok(Amount::Xrp(u as i64))
                } else if let Some(i) = n.as_i64() {
                    if i.unsigned_abs() > DROPS_MAX {
                        return Err(AmountError::NativeOutOfRange);
                    }
                    Ok(Amount::Xrp(i))
                } else {
                    Err(AmountError::XrpFraction)
                }
            }
            Value::Object(o) => {
                let currency = match o.get("currency") {
                    Some(Value::String(c)) => c,
                    _ => return Err(AmountError::BadCurrency),
                };
                let currency =
                    Currency::from_json_str(currency).map_err(|_| AmountError::BadCurrency)?;
                if currency.is_xrp() {
                    return Err(AmountError::XrpAsObject);
                }
                let issuer = match o.get("issuer") {
                    Some(Value::String(s)) => {
                        AccountId::from_address(s).map_err(|_| AmountError::BadIssuer)?
                    }
                    _ => return Err(AmountError::BadIssuer),
                };
                let value = match o.get("value") {
                    Some(Value::String(s)) => IouValue::parse(s)?,
                    Some(Value::Number(n)) => IouValue::parse(&n.to_string())?,
                    _ => return Err(AmountError::BadType),
                };
                Ok(Amount::Iou {
                    value,
                    currency,
                    issuer,
                })
            }
            _ => Err(AmountError::BadType),
        }
    }

    /// The wire form: 8 bytes for XRP, 48 for an IOU.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Amount::Xrp(d) => {
                let mut w = d.unsigned_abs();
                if *d >= 0 {
                    w |= 0x4000_0000_0000_0000;
                }
                w.to_be_bytes().to_vec()
            }
            Amount::Iou {
                value,
                currency,
                issuer,
            } => {
                let mut out = Vec::with_capacity(48);
                out.extend_from_slice(&value.to_bits().to_be_bytes());
                out.extend_from_slice(&currency.0);
                out.extend_from_slice(&issuer.0);
                out
            }
        }
    }

    /// Reads a wire amount from the front of `b`; returns it and the bytes used.
    pub fn from_bytes(b: &[u8]) -> Result<(Amount, usize), AmountError> {
        if b.len() < 8 {
            return Err(AmountError::BadEncoding("short amount"));
        }
        let w = u64::from_be_bytes(b[..8].try_into().expect("8 bytes"));
        if w & 0x8000_0000_0000_0000 == 0 {
            if w & 0x2000_0000_0000_0000 != 0 {
                return Err(AmountError::BadEncoding("MPT amounts are not supported"));
            }
            let drops = w & 0x3FFF_FFFF_FFFF_FFFF;
            if drops > DROPS_MAX {
                return Err(AmountError::BadEncoding("native amount out of range"));
            }
            if w & 0x4000_0000_0000_0000 == 0 {
                if drops == 0 {
                    return Err(AmountError::BadEncoding("negative zero is not canonical"));
                }
                return Ok((Amount::Xrp(-(drops as i64)), 8));
            }
            return Ok((Amount::Xrp(drops as i64), 8));
        }
        if b.len() < 48 {
            return Err(AmountError::BadEncoding("short issued amount"));
        }
        let value = IouValue::from_bits(w)?;
        let mut c = [0u8; 20];
        c.copy_from_slice(&b[8..28]);
        let mut i = [0u8; 20];
        i.copy_from_slice(&b[28..48]);
        let currency = Currency(c);
        if currency.is_xrp() {
            return Err(AmountError::BadEncoding("invalid native currency"));
        }
        let issuer = AccountId(i);
        if issuer == AccountId::ZERO {
            return Err(AmountError::BadEncoding("invalid native account"));
        }
        Ok((
            Amount::Iou {
                value,
                currency,
                issuer,
            },
            48,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> IouValue {
        IouValue::parse(s).unwrap()
    }

    #[test]
    fn wire_words_from_the_spec() {
        assert_eq!(v("1").to_bits(), 0xD4838D7EA4C68000);
        assert_eq!(v("-1.5").to_bits(), 0x9485543DF729C000);
        assert_eq!(v("9999999999999999e80").to_bits(), 0xEC6386F26FC0FFFF);
        assert_eq!(v("1e-81").to_bits(), 0xC0438D7EA4C68000);
        assert_eq!(v("0").to_bits(), 0x8000000000000000);
        assert!(v("1e-82").is_zero());
        assert_eq!(IouValue::parse("1e97"), Err(AmountError::Overflow));
    }

    #[test]
    fn text_like_get_text() {
        assert_eq!(v("100").to_text(), "100");
        assert_eq!(v("0.5").to_text(), "0.5");
        assert_eq!(v("12.3456").to_text(), "12.3456");
        assert_eq!(v("1e11").to_text(), "1000000000000000e-4");
        assert_eq!(v("1e20").to_text(), "1000000000000000e5");
        assert_eq!(v("1e-12").to_text(), "1000000000000000e-27");
        assert_eq!(v("1e-11").to_text(), "1000000000000000e-26");
        assert_eq!(v("1e-10").to_text(), "0.0000000001");
        assert_eq!(v("-1.5").to_text(), "-1.5");
        assert_eq!(v("1e-80").to_text(), "1000000000000000e-95");
        assert_eq!(v("1000000000000000").to_text(), "1000000000000000");
    }

    #[test]
    fn grammar() {
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "abc", "1.5.5", "1 ", "0x10", "+-1",
        ] {
            assert!(IouValue::parse(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            IouValue::parse(&"1".repeat(33)),
            Err(AmountError::Overlong(_))
        ));
        assert_eq!(v("+5"), v("5"));
        // rippled reads the digits as one u64: any length while the value fits.
        assert_eq!(v("18446744073709551615").to_text(), "1844674407370955e4");
        assert!(matches!(
            IouValue::parse("18446744073709551616"),
            Err(AmountError::Overlong(_))
        ));
        assert!(matches!(
            IouValue::parse("1.8446744073709551616"),
            Err(AmountError::Overlong(_))
        ));
        assert_eq!(v(&format!("0.{}1", "0".repeat(80))), v("1e-81"));
        assert_eq!(v(&format!("-0.{}1", "0".repeat(100))), IouValue::ZERO);
        // The exponent is an int: leading zeros are fine, above i32::MAX is not.
        assert_eq!(v("1e0000000001"), v("10"));
        assert_eq!(v("1e-2147483647"), IouValue::ZERO);
        assert!(IouValue::parse("1e2147483648").is_err());
        assert!(IouValue::parse("1e-2147483648").is_err());
        assert_eq!(v("12345678901234567").to_text(), "1234567890123457e1");
        assert_eq!(v("12345678901234565").to_text(), "1234567890123456e1");
    }

    #[test]
    fn drops_grammar() {
        assert_eq!(parse_drops("1e6"), Ok(1_000_000));
        assert_eq!(parse_drops("+7"), Ok(7));
        assert_eq!(parse_drops("-7"), Ok(-7));
        assert_eq!(parse_drops("1.0"), Err(AmountError::XrpFraction));
        // Any negative exponent is refused for XRP, not only a fraction (amountFromJson).
        assert_eq!(parse_drops("10e-1"), Err(AmountError::XrpFraction));
        assert_eq!(parse_drops("0e-1"), Err(AmountError::XrpFraction));
        assert_eq!(parse_drops("1e0"), Ok(1));
        assert_eq!(parse_drops("0e2000000000"), Ok(0));
        assert_eq!(parse_drops("1e18"), Err(AmountError::NativeOutOfRange));
        assert_eq!(
            parse_drops("18446744073709551616"),
            Err(AmountError::Overlong("18446744073709551616".into()))
        );
        assert_eq!(
            parse_drops("100000000000000001"),
            Err(AmountError::NativeOutOfRange)
        );
        assert_eq!(
            parse_drops("100000000000000000"),
            Ok(100_000_000_000_000_000)
        );
    }

    #[test]
    fn arithmetic() {
        assert_eq!(v("1").checked_add(&v("2")).unwrap(), v("3"));
        assert_eq!(v("1").checked_sub(&v("2")).unwrap(), v("-1"));
        assert_eq!(v("10").checked_sub(&v("10")).unwrap(), IouValue::ZERO);
        assert_eq!(v("1e80").checked_add(&v("1")).unwrap(), v("1e80"));
        assert_eq!(
            v("1.5").checked_mul(&v("2"), Rounding::Nearest).unwrap(),
            v("3")
        );
        assert_eq!(
            v("1").checked_div(&v("3"), Rounding::Down).unwrap(),
            v("0.3333333333333333")
        );
        assert_eq!(
            v("2").checked_div(&v("3"), Rounding::Up).unwrap(),
            v("0.6666666666666667")
        );
        assert_eq!(
            v("100").mul_rate(1_005_000_000, Rounding::Up).unwrap(),
            v("100.5")
        );
        assert!(v("-1") < v("0") && v("0") < v("1e-81") && v("2") > v("1.9999"));
        assert!(v("-2") < v("-1"));
    }

    #[test]
    fn amount_json_and_bytes() {
        let a = Amount::from_json(&serde_json::json!({"currency":"USD","issuer":"rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe","value":"0"})).unwrap();
        assert_eq!(
            crate::protocol::types::hex_upper(a.to_bytes()),
            "80000000000000000000000000000000000000005553440000000000F667B0CA50CC7709A220B0561B85E53A48461FA8"
        );
        assert_eq!(Amount::from_bytes(&a.to_bytes()).unwrap().0, a);
        assert_eq!(
            Amount::from_json(
                &serde_json::json!({"currency":"XRP","issuer":"rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe","value":"1"})
            ),
            Err(AmountError::XrpAsObject)
        );
        assert_eq!(
            crate::protocol::types::hex_upper(Amount::Xrp(1_000_000).to_bytes()),
            "40000000000F4240"
        );
        assert!(Amount::from_bytes(&hex::decode("0000000000000000").unwrap()).is_err());
    }
}
