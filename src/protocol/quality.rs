//! Offer quality: rippled's `Quality` (`Quality.h`, `Quality.cpp`) and the quality
//! half of order-book directory keys (`getQuality`, `getQualityIndex`,
//! `getQualityNext` in `Indexes.cpp`).
//!
//! A quality is the ratio `in / out` (what the taker pays per unit it gets) encoded
//! like an STAmount word: exponent + 100 in the top 8 bits, mantissa in the low 56.
//! A lower word is a better deal for the taker. rippled's `operator<` means "worse
//! quality" (a higher word); here that is spelled [`Quality::worse_than`] and
//! [`Quality::better_than`], and `Quality` deliberately has no `Ord`.
//!
//! The ceiling functions return `Err` where rippled's arithmetic throws (overflow).

use super::amount::{Amount, AmountError, IouValue};
use super::amount_math::{
    amount_from_quality, compare, div_round, div_round_strict, get_rate, mul_round,
    mul_round_strict, no_issue, try_amount_from_quality,
};
use super::types::Hash256;

/// An offer's quality word (rippled's `Quality::m_value`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Quality(pub u64);

/// rippled's `QUALITY_ONE`: a transfer rate or quality-in/out of exactly 1.
pub const QUALITY_ONE: u32 = 1_000_000_000;

/// Fewest significant digits a TickSize may keep (`Quality::minTickSize`).
pub const MIN_TICK_SIZE: u32 = 3;
/// Most significant digits a TickSize may keep (`Quality::maxTickSize`).
pub const MAX_TICK_SIZE: u32 = 16;

/// The mantissa mask of a quality word.
const MANTISSA_MASK: u64 = (1u64 << 56) - 1;

impl Quality {
    /// In equals out: `getRate(1, 1)` (rippled's `STAmount::uRateOne`).
    pub const ONE: Quality = Quality((100 - 15) << 56 | 1_000_000_000_000_000);

    /// The quality of an offer paying `taker_gets_out` for `taker_pays_in`
    /// (rippled's `Quality(Amounts(in, out))`, i.e. `getRate(out, in)`). A zero or
    /// overflowing ratio gives `Quality(0)`, as in rippled.
    pub fn from_amounts(taker_pays_in: &Amount, taker_gets_out: &Amount) -> Quality {
        Quality(get_rate(taker_gets_out, taker_pays_in))
    }

    /// The `in / out` ratio as a number (`Quality::rate`, `amountFromQuality`). A word
    /// whose value overflows an issued amount saturates (see
    /// [`amount_from_quality`]); [`Quality::try_rate`] reports it instead.
    pub fn rate(&self) -> IouValue {
        amount_from_quality(self.0)
    }

    /// The `in / out` ratio, or `Err` where rippled would throw.
    pub fn try_rate(&self) -> Result<IouValue, AmountError> {
        try_amount_from_quality(self.0)
    }

    /// True when `self` is a strictly better deal for the taker (a lower word):
    /// rippled's `self > other`.
    pub fn better_than(&self, other: &Quality) -> bool {
        self.0 < other.0
    }

    /// True when `self` is a strictly worse deal for the taker (a higher word):
    /// rippled's `self < other`.
    pub fn worse_than(&self, other: &Quality) -> bool {
        self.0 > other.0
    }

    /// The next better quality level (rippled's `++`: the word minus one).
    /// Saturates at 0, where rippled asserts.
    pub fn increment(&self) -> Quality {
        Quality(self.0.saturating_sub(1))
    }

    /// The next worse quality level (rippled's `--`: the word plus one).
    /// Saturates at `u64::MAX`, where rippled asserts.
    pub fn decrement(&self) -> Quality {
        Quality(self.0.saturating_add(1))
    }

    /// The rate as an amount operand (rippled's `rate()` STAmount, of `noIssue`).
    fn rate_amount(&self) -> Result<Amount, AmountError> {
        let issue = no_issue();
        Ok(Amount::iou(self.try_rate()?, issue.currency, issue.issuer))
    }

    /// Caps `in` at `limit_in` and scales `out` to match, rounding `out` up and
    /// clamping it to `amount_out` (`Quality::ceil_in`, with `divRound`). Returns
    /// `(in, out)`; unchanged when `amount_in <= limit_in`.
    pub fn ceil_in(
        &self,
        amount_in: &Amount,
        amount_out: &Amount,
        limit_in: &Amount,
    ) -> Result<(Amount, Amount), AmountError> {
        self.ceil_in_with(amount_in, amount_out, limit_in, |l, r, o| {
            div_round(l, r, &o.issue(), true)
        })
    }

    /// `Quality::ceil_in_strict` (fixReducedOffersV2): as [`Quality::ceil_in`] but
    /// with `divRoundStrict` and the rounding direction given.
    pub fn ceil_in_strict(
        &self,
        amount_in: &Amount,
        amount_out: &Amount,
        limit_in: &Amount,
        round_up: bool,
    ) -> Result<(Amount, Amount), AmountError> {
        self.ceil_in_with(amount_in, amount_out, limit_in, |l, r, o| {
            div_round_strict(l, r, &o.issue(), round_up)
        })
    }

    fn ceil_in_with(
        &self,
        amount_in: &Amount,
        amount_out: &Amount,
        limit_in: &Amount,
        div: impl Fn(&Amount, &Amount, &Amount) -> Result<Amount, AmountError>,
    ) -> Result<(Amount, Amount), AmountError> {
        if compare(amount_in, limit_in).is_le() {
            return Ok((*amount_in, *amount_out));
        }
        let out = div(limit_in, &self.rate_amount()?, amount_out)?;
        Ok((*limit_in, clamp(out, amount_out)))
    }

    /// Caps `out` at `limit_out` and scales `in` to match, rounding `in` up and
    /// clamping it to `amount_in` (`Quality::ceil_out`, with `mulRound`). Returns
    /// `(in, out)`; unchanged when `amount_out <= limit_out`.
    pub fn ceil_out(
        &self,
        amount_in: &Amount,
        amount_out: &Amount,
        limit_out: &Amount,
    ) -> Result<(Amount, Amount), AmountError> {
        self.ceil_out_with(amount_in, amount_out, limit_out, |l, r, i| {
            mul_round(l, r, &i.issue(), true)
        })
    }

    /// `Quality::ceil_out_strict` (fixReducedOffersV1): as [`Quality::ceil_out`] but
    /// with `mulRoundStrict` and the rounding direction given.
    pub fn ceil_out_strict(
        &self,
        amount_in: &Amount,
        amount_out: &Amount,
        limit_out: &Amount,
        round_up: bool,
    ) -> Result<(Amount, Amount), AmountError> {
        self.ceil_out_with(amount_in, amount_out, limit_out, |l, r, i| {
            mul_round_strict(l, r, &i.issue(), round_up)
        })
    }

    fn ceil_out_with(
        &self,
        amount_in: &Amount,
        amount_out: &Amount,
        limit_out: &Amount,
        mul: impl Fn(&Amount, &Amount, &Amount) -> Result<Amount, AmountError>,
    ) -> Result<(Amount, Amount), AmountError> {
        if compare(amount_out, limit_out).is_le() {
            return Ok((*amount_in, *amount_out));
        }
        let inp = mul(limit_out, &self.rate_amount()?, amount_in)?;
        Ok((clamp(inp, amount_in), *limit_out))
    }

    /// The quality of two hops in a row (`composed_quality`): the product of the
    /// rates, rounded up.
    pub fn compose(&self, other: &Quality) -> Result<Quality, AmountError> {
        let issue = no_issue();
        let rate = mul_round(&self.rate_amount()?, &other.rate_amount()?, &issue, true)?;
        let rate = rate.as_iou().expect("an issued rate");
        Ok(Quality(quality_word(&rate)))
    }

    /// The quality rounded up (worse for the taker) to `digits` significant digits
    /// (`Quality::round`, used for TickSize). `digits` above 16 is taken as 16. The
    /// mantissa may reach 10^16, as in rippled; [`Quality::rate`] normalizes it.
    pub fn round(&self, digits: u32) -> Quality {
        let modulus = 10u64.pow(16 - digits.min(16));
        let exponent = self.0 >> 56;
        let mut mantissa = (self.0 & MANTISSA_MASK) + modulus - 1;
        mantissa -= mantissa % modulus;
        Quality(exponent << 56 | mantissa)
    }
}

/// rippled's clamp after a ceiling: never more than the offer had.
fn clamp(v: Amount, max: &Amount) -> Amount {
    if compare(&v, max).is_gt() {
        *max
    } else {
        v
    }
}

/// The quality word of a non-negative rate (zero is word 0).
fn quality_word(rate: &IouValue) -> u64 {
    if rate.is_zero() {
        return 0;
    }
    (((rate.exponent() + 100) as u64) << 56) | rate.mantissa()
}

/// The quality in a book directory key: its low 64 bits, big-endian (`getQuality`).
pub fn quality_from_directory_key(key: &Hash256) -> Quality {
    let mut low = [0u8; 8];
    low.copy_from_slice(&key.0[24..]);
    Quality(u64::from_be_bytes(low))
}

/// `base` with its low 64 bits replaced by `q`, big-endian (`getQualityIndex`).
pub fn directory_key_with_quality(base: &Hash256, q: Quality) -> Hash256 {
    let mut out = *base;
    out.0[24..].copy_from_slice(&q.0.to_be_bytes());
    out
}

/// `base + 2^64`: the first key past every quality of `base`'s book
/// (`getQualityNext`). Wraps at the top, as 256-bit addition does.
pub fn quality_next(base: &Hash256) -> Hash256 {
    let mut b = base.0;
    for i in (0..24).rev() {
        let (v, carry) = b[i].overflowing_add(1);
        b[i] = v;
        if !carry {
            break;
        }
    }
    Hash256(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_the_rate_of_equal_amounts() {
        // STAmount.cpp: uRateOne = getRate(STAmount(1), STAmount(1)).
        assert_eq!(
            Quality::ONE,
            Quality::from_amounts(&Amount::Xrp(1), &Amount::Xrp(1))
        );
    }

    #[test]
    fn round_keeps_the_tick_size_digits() {
        // Quality_test::test_round, first and last cases.
        let q = Quality(0x59148191fb913522);
        assert_eq!(q.round(3).rate().to_text(), "57800");
        assert_eq!(q.round(16).rate().to_text(), "57719.63525051682");
    }
}
