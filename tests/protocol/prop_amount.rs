//! Property tests for `protocol::amount`: text and wire round trips, the arithmetic's
//! algebra, ordering against subtraction, and no panics on any input.

use ledgerd::protocol::amount::{
    parse_drops, Amount, IouValue, Rounding, IOU_EXPONENT_MAX, IOU_EXPONENT_MIN, IOU_MANTISSA_MAX,
    IOU_MANTISSA_MIN,
};
use proptest::prelude::*;
use std::cmp::Ordering;

/// A normalized issued value: zero, or a 16-digit mantissa with any legal exponent.
fn iou() -> impl Strategy<Value = IouValue> {
    prop_oneof![
        1 => Just(IouValue::ZERO),
        12 => (
            IOU_MANTISSA_MIN..=IOU_MANTISSA_MAX,
            IOU_EXPONENT_MIN..=IOU_EXPONENT_MAX,
            any::<bool>()
        )
            .prop_map(|(m, e, neg)| {
                IouValue::from_parts(u128::from(m), e, neg, Rounding::Nearest)
                    .expect("a normalized value is in range")
            }),
        // Values near each other, so subtraction cancels digits.
        3 => (IOU_MANTISSA_MIN..IOU_MANTISSA_MIN + 1000, -20i32..=20, any::<bool>()).prop_map(
            |(m, e, neg)| {
                IouValue::from_parts(u128::from(m), e, neg, Rounding::Nearest)
                    .expect("in range")
            }
        ),
    ]
}

/// Strings shaped like rippled's number grammar, with out-of-grammar spellings mixed in.
fn numberish() -> impl Strategy<Value = String> {
    "[-+]?[0-9]{0,40}(\\.[0-9]{0,40})?([eE][-+]?[0-9]{0,12})?"
}

const ROUNDINGS: [Rounding; 3] = [Rounding::Nearest, Rounding::Up, Rounding::Down];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn text_round_trip(a in iou()) {
        let text = a.to_text();
        prop_assert_eq!(IouValue::parse(&text), Ok(a), "{}", text);
    }

    #[test]
    fn bits_round_trip(a in iou()) {
        prop_assert_eq!(IouValue::from_bits(a.to_bits()), Ok(a));
    }

    #[test]
    fn any_accepted_word_is_canonical(w in any::<u64>()) {
        // No panic; and a word that reads back writes the same word.
        if let Ok(v) = IouValue::from_bits(w) {
            prop_assert_eq!(v.to_bits(), w);
        }
    }

    #[test]
    fn add_commutes_and_sub_is_add_of_negation(a in iou(), b in iou()) {
        prop_assert_eq!(a.checked_add(&b), b.checked_add(&a));
        prop_assert_eq!(a.checked_sub(&b), a.checked_add(&b.negate()));
        prop_assert_eq!(a.checked_sub(&a), Ok(IouValue::ZERO));
        prop_assert_eq!(a.checked_add(&IouValue::ZERO), Ok(a));
        if let (Ok(x), Ok(y)) = (a.checked_sub(&b), b.checked_sub(&a)) {
            prop_assert_eq!(x, y.negate());
        }
    }

    #[test]
    fn ordering_agrees_with_subtraction(a in iou(), b in iou()) {
        let ord = a.cmp(&b);
        prop_assert_eq!(b.cmp(&a), ord.reverse());
        prop_assert_eq!(ord == Ordering::Equal, a == b);
        if let Ok(d) = a.checked_sub(&b) {
            if d.is_zero() {
                // Equal, or different only below the smallest value (1e-81): the
                // difference underflows to zero, as in rippled.
                prop_assert!(
                    a == b || (a.exponent() <= -81 && b.exponent() <= -81),
                    "{:?} - {:?} is zero", a, b
                );
            } else {
                prop_assert_eq!(d.signum(), ord as i32, "{:?} - {:?} = {:?}", a, b, d);
            }
        }
    }

    #[test]
    fn multiplying_or_dividing_by_one_is_identity(a in iou()) {
        let one = IouValue::from_i64(1);
        for r in ROUNDINGS {
            prop_assert_eq!(a.checked_mul(&one, r), Ok(a));
            prop_assert_eq!(one.checked_mul(&a, r), Ok(a));
            prop_assert_eq!(a.checked_div(&one, r), Ok(a));
        }
    }

    #[test]
    fn parsing_never_panics(s in any::<String>(), n in numberish()) {
        let _ = IouValue::parse(&s);
        let _ = parse_drops(&s);
        // Grammar-shaped text: if it parses, its text form parses to the same value.
        if let Ok(v) = IouValue::parse(&n) {
            prop_assert_eq!(IouValue::parse(&v.to_text()), Ok(v));
        }
        if let Ok(d) = parse_drops(&n) {
            prop_assert_eq!(parse_drops(&d.to_string()), Ok(d));
        }
    }

    #[test]
    fn wire_reading_never_panics(b in proptest::collection::vec(any::<u8>(), 0..60)) {
        if let Ok((a, used)) = Amount::from_bytes(&b) {
            prop_assert_eq!(&a.to_bytes()[..], &b[..used]);
        }
    }
}
