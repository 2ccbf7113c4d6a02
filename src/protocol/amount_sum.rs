//! Adding and subtracting amounts of one asset (rippled `STAmount::operator+` and
//! `operator-`), and amounts as [`Number`]s (`STAmount::operator Number`,
//! `toSTAmount`). The one home of amount addition: the offer and payment code, the
//! deferred credits of a payment and the AMM formulas all add here.
//!
//! XRP adds as whole drops in every form. An issued sum comes in two roundings, and they
//! are kept apart on purpose:
//!
//! - [`Amount::add_nearest`] / [`Amount::sub_nearest`]: the exact sum rounded to 16 digits
//!   to nearest (ties to even), whatever the thread's Number rounding mode. This is
//!   rippled's sum in its default mode, and what offers, the payment flow, path finding
//!   and deferred credits have always used; a sum past the largest issued value leaves
//!   the left operand unchanged.
//! - [`Amount::add_in_current_mode`] / [`Amount::sub_in_current_mode`]: the sum as
//!   rippled computes it under fixUniversalNumber, two Numbers added in the thread's
//!   current rounding mode (a `NumberRoundModeGuard` may have set it), then back to an
//!   amount. The AMM formulas rely on the mode (`adjustLPTokens` rounds down); an
//!   overflow gives zero with the Number fault raised.
//!
//! Folding one into the other would move results by one unit in the last place where a
//! caller holds a mode other than to-nearest, or on an overflow; each caller keeps the
//! rounding it was checked against.

use super::amount::{Amount, IouValue, DROPS_MAX};
use super::number::{get_round, raise_fault, Number, RoundGuard, RoundingMode};
use super::types::Issue;

impl Amount {
    /// The zero amount of `issue`.
    pub fn zero(issue: &Issue) -> Amount {
        if issue.is_xrp() {
            Amount::Xrp(0)
        } else {
            Amount::iou(IouValue::ZERO, issue.currency, issue.issuer)
        }
    }

    /// `self + other` for amounts of one asset: drops added saturating at the `i64`
    /// bounds; an issued sum exact, then rounded to nearest in `self`'s issue, `self` when
    /// it overflows. An XRP zero plus an issued amount is that amount (a running total
    /// that started at nothing); any other mix of XRP and issued is `self`.
    pub fn add_nearest(&self, other: &Amount) -> Amount {
        match (self, other) {
            (Amount::Xrp(x), Amount::Xrp(y)) => Amount::Xrp(x.saturating_add(*y)),
            (
                Amount::Iou {
                    value,
                    currency,
                    issuer,
                },
                Amount::Iou { value: v2, .. },
            ) => Amount::iou(value.checked_add(v2).unwrap_or(*value), *currency, *issuer),
            (Amount::Xrp(0), b) => *b,
            _ => *self,
        }
    }

    /// `self - other` for amounts of one asset, rounded as [`Amount::add_nearest`]:
    /// drops subtracted saturating, an issued difference `self` when it overflows. Mixed
    /// XRP and issued is `self`.
    pub fn sub_nearest(&self, other: &Amount) -> Amount {
        match (self, other) {
            (Amount::Xrp(x), Amount::Xrp(y)) => Amount::Xrp(x.saturating_sub(*y)),
            (
                Amount::Iou {
                    value,
                    currency,
                    issuer,
                },
                Amount::Iou { value: v2, .. },
            ) => Amount::iou(value.checked_sub(v2).unwrap_or(*value), *currency, *issuer),
            _ => *self,
        }
    }

    /// `self + other` as rippled's `STAmount` adds under fixUniversalNumber: drops
    /// exactly (saturating), anything else as two Numbers added in the thread's current
    /// rounding mode, the result in `self`'s issue ([`Amount::from_number`]). `self` when
    /// `other` is zero.
    pub fn add_in_current_mode(&self, other: &Amount) -> Amount {
        match (self, other) {
            (Amount::Xrp(x), Amount::Xrp(y)) => Amount::Xrp(x.saturating_add(*y)),
            _ if other.is_zero() => *self,
            _ => Amount::from_number(
                &self.issue(),
                self.to_number() + other.to_number(),
                get_round(),
            ),
        }
    }

    /// `self - other`, rounded as [`Amount::add_in_current_mode`].
    pub fn sub_in_current_mode(&self, other: &Amount) -> Amount {
        match (self, other) {
            (Amount::Xrp(x), Amount::Xrp(y)) => Amount::Xrp(x.saturating_sub(*y)),
            _ if other.is_zero() => *self,
            _ => Amount::from_number(
                &self.issue(),
                self.to_number() - other.to_number(),
                get_round(),
            ),
        }
    }

    /// The amount as a Number (`STAmount::operator Number`): drops as an integer (rounded
    /// to 16 digits in the thread's mode), an issued value exactly.
    pub fn to_number(&self) -> Number {
        match self {
            Amount::Xrp(d) => Number::from_i64(*d),
            Amount::Iou { value, .. } => Number::from_iou(value),
        }
    }

    /// `toSTAmount(issue, v, mode)`: XRP rounded to whole drops with `mode`, an issued
    /// value as it is (zero below the smallest exponent). Out of range, zero with the
    /// Number fault raised where rippled's STAmount throws: drops past an `i64`
    /// (`Number::operator rep()`) or past 10^17 (`canonicalize`: "Native currency amount
    /// out of range"), an issued exponent past 80 (`IOUAmount::normalize`).
    pub fn from_number(issue: &Issue, v: Number, mode: RoundingMode) -> Amount {
        if issue.is_xrp() {
            let _g = RoundGuard::new(mode);
            return match v.to_i64() {
                Some(d) if d.unsigned_abs() <= DROPS_MAX => Amount::Xrp(d),
                _ => out_of_range(issue),
            };
        }
        match v.to_iou() {
            Some(value) => Amount::iou(value, issue.currency, issue.issuer),
            None => out_of_range(issue),
        }
    }
}

fn out_of_range(issue: &Issue) -> Amount {
    raise_fault();
    Amount::zero(issue)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::number::{take_fault, RoundGuard};
    use crate::protocol::types::{AccountId, Currency};

    fn usd(s: &str) -> Amount {
        let mut c = [0u8; 20];
        c[12..15].copy_from_slice(b"USD");
        Amount::iou(IouValue::parse(s).unwrap(), Currency(c), AccountId([7; 20]))
    }

    #[test]
    fn drops_add_exactly_and_saturate() {
        assert_eq!(Amount::Xrp(5).add_nearest(&Amount::Xrp(7)), Amount::Xrp(12));
        assert_eq!(
            Amount::Xrp(5).sub_in_current_mode(&Amount::Xrp(7)),
            Amount::Xrp(-2)
        );
        assert_eq!(
            Amount::Xrp(i64::MAX).add_nearest(&Amount::Xrp(1)),
            Amount::Xrp(i64::MAX)
        );
        assert_eq!(
            Amount::Xrp(i64::MIN).sub_in_current_mode(&Amount::Xrp(1)),
            Amount::Xrp(i64::MIN)
        );
    }

    #[test]
    fn the_two_roundings_differ_only_where_a_mode_is_held() {
        // 1 + 1e-16 needs a 17th digit: to nearest it is 1, rounding up it is the next
        // value, 1.000000000000001; 2 - 1e-16 rounds to 2, or down to 1.999999999999999.
        let (one, two, tiny) = (usd("1"), usd("2"), usd("1e-16"));
        assert_eq!(one.add_nearest(&tiny), one);
        assert_eq!(one.add_in_current_mode(&tiny), one);
        assert_eq!(two.sub_in_current_mode(&tiny), two);
        {
            let _g = RoundGuard::new(RoundingMode::Upward);
            assert_eq!(one.add_nearest(&tiny), one);
            assert_eq!(one.add_in_current_mode(&tiny), usd("1.000000000000001"));
        }
        let _g = RoundGuard::new(RoundingMode::Downward);
        assert_eq!(two.sub_nearest(&tiny), two);
        assert_eq!(two.sub_in_current_mode(&tiny), usd("1.999999999999999"));
    }

    #[test]
    fn overflow_keeps_self_to_nearest_and_faults_in_the_current_mode() {
        let big = usd("9999999999999999e80");
        let _ = take_fault();
        assert_eq!(big.add_nearest(&big), big);
        assert!(!take_fault());
        assert_eq!(big.add_in_current_mode(&big), usd("0"));
        assert!(take_fault());
    }

    #[test]
    fn mixed_kinds() {
        let five = usd("5");
        assert_eq!(Amount::Xrp(0).add_nearest(&five), five);
        assert_eq!(Amount::Xrp(1).add_nearest(&five), Amount::Xrp(1));
        assert_eq!(five.add_nearest(&Amount::Xrp(3)), five);
        assert_eq!(Amount::Xrp(0).sub_nearest(&five), Amount::Xrp(0));
        assert_eq!(five.add_in_current_mode(&Amount::Xrp(0)), five);
    }

    #[test]
    fn numbers_round_trip_and_drops_round_with_the_mode() {
        let v = usd("-123.456");
        assert_eq!(
            Amount::from_number(&v.issue(), v.to_number(), RoundingMode::ToNearest),
            v
        );
        let half = Number::new(25, -1);
        assert_eq!(
            Amount::from_number(&Issue::XRP, half, RoundingMode::Downward),
            Amount::Xrp(2)
        );
        assert_eq!(
            Amount::from_number(&Issue::XRP, half, RoundingMode::Upward),
            Amount::Xrp(3)
        );
        let _ = take_fault();
        let too_many = Number::new(2 * DROPS_MAX as i64, 0);
        assert_eq!(
            Amount::from_number(&Issue::XRP, too_many, RoundingMode::ToNearest),
            Amount::Xrp(0)
        );
        assert!(take_fault());
    }
}
