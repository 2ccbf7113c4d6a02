//! Quality and STAmount-level arithmetic against rippled's own expected numbers.
//!
//! Each test names the rippled test file and case it transcribes:
//! `src/test/protocol/Quality_test.cpp`, `src/test/protocol/STAmount_test.cpp`,
//! `src/test/basics/IOUAmount_test.cpp`, `src/test/basics/XRPAmount_test.cpp`.

use ledgerd::protocol::amount::{Amount, AmountError, IouValue, Rounding};
use ledgerd::protocol::amount_math::{
    amount_from_quality, div_round, div_round_strict, divide, get_rate, mul_ratio, mul_ratio_drops,
    mul_ratio_iou, mul_round, mul_round_strict, multiply, no_issue,
};
use ledgerd::protocol::quality::{
    directory_key_with_quality, quality_from_directory_key, quality_next, Quality,
};
use ledgerd::protocol::types::{Hash256, Issue};

/// An amount of rippled's `noIssue()` (`STAmount(noIssue(), mantissa, exponent)`).
fn raw(mantissa: u64, exponent: i32) -> Amount {
    let issue = no_issue();
    let v = IouValue::from_parts(u128::from(mantissa), exponent, false, Rounding::Nearest).unwrap();
    Amount::iou(v, issue.currency, issue.issuer)
}

/// `STAmount(noIssue(), n)`.
fn n(v: u64) -> Amount {
    raw(v, 0)
}

/// `STAmount(drops)`: XRP.
fn x(d: i64) -> Amount {
    Amount::Xrp(d)
}

fn xrp() -> Issue {
    Issue::XRP
}

fn text(a: &Amount) -> String {
    a.value_text()
}

// ---------------------------------------------------------------- Quality_test.cpp

/// Quality_test.cpp `ceil_in`: `Quality(Amounts(in, out))` over XRP amounts.
fn ceil_in(q: Quality, i: i64, o: i64, limit: i64, ei: i64, eo: i64) {
    let got = q.ceil_in(&x(i), &x(o), &x(limit)).unwrap();
    assert_eq!(got, (x(ei), x(eo)), "ceil_in({i}, {o}, limit {limit})");
}

/// Quality_test.cpp `ceil_out`.
fn ceil_out(q: Quality, i: i64, o: i64, limit: i64, ei: i64, eo: i64) {
    let got = q.ceil_out(&x(i), &x(o), &x(limit)).unwrap();
    assert_eq!(got, (x(ei), x(eo)), "ceil_out({i}, {o}, limit {limit})");
}

#[test]
fn quality_ceil_in() {
    // Quality_test::test_ceil_in
    let q = Quality::from_amounts(&x(1), &x(1));
    ceil_in(q, 1, 1, 1, 1, 1);
    ceil_in(q, 10, 10, 5, 5, 5);
    ceil_in(q, 5, 5, 10, 5, 5);
    let q = Quality::from_amounts(&x(1), &x(2));
    ceil_in(q, 40, 80, 40, 40, 80);
    ceil_in(q, 40, 80, 20, 20, 40);
    ceil_in(q, 40, 80, 60, 40, 80);
    let q = Quality::from_amounts(&x(2), &x(1));
    ceil_in(q, 40, 20, 20, 20, 10);
    ceil_in(q, 40, 20, 40, 40, 20);
    ceil_in(q, 40, 20, 50, 40, 20);
}

#[test]
fn quality_ceil_out() {
    // Quality_test::test_ceil_out
    let q = Quality::from_amounts(&x(1), &x(1));
    ceil_out(q, 1, 1, 1, 1, 1);
    ceil_out(q, 10, 10, 5, 5, 5);
    ceil_out(q, 10, 10, 20, 10, 10);
    let q = Quality::from_amounts(&x(1), &x(2));
    ceil_out(q, 40, 80, 40, 20, 40);
    ceil_out(q, 40, 80, 80, 40, 80);
    ceil_out(q, 40, 80, 100, 40, 80);
    let q = Quality::from_amounts(&x(2), &x(1));
    ceil_out(q, 40, 20, 20, 40, 20);
    ceil_out(q, 40, 20, 40, 40, 20);
    ceil_out(q, 40, 20, 10, 20, 10);
}

#[test]
fn quality_ceil_out_raw() {
    // Quality_test::test_raw: the scaled input is not zero.
    let q = Quality(0x5d048191fb9130da); // 126836389.7680090
    let (i, _) = q
        .ceil_out(
            &x(349_469_768),
            &raw(2_755_280_000_000_000, -15),
            &raw(4_131_113_916_555_555, -16),
        )
        .unwrap();
    assert!(!i.is_zero());
}

#[test]
fn quality_round() {
    // Quality_test::test_round
    let q = Quality(0x59148191fb913522); // 57719.63525051682
    let cases = [
        (3, "57800"),
        (4, "57720"),
        (5, "57720"),
        (6, "57719.7"),
        (7, "57719.64"),
        (8, "57719.636"),
        (9, "57719.6353"),
        (10, "57719.63526"),
        (11, "57719.635251"),
        (12, "57719.6352506"),
        (13, "57719.63525052"),
        (14, "57719.635250517"),
        (15, "57719.6352505169"),
        (16, "57719.63525051682"),
    ];
    for (digits, want) in cases {
        assert_eq!(q.round(digits).rate().to_text(), want, "round({digits})");
    }
}

/// Quality_test's q11, q12, q13, q21, q31 from `STAmount(noIssue(), 231/462/924)`.
fn qualities() -> [Quality; 5] {
    let (a1, a2, a3) = (n(231), n(462), n(924));
    [
        Quality::from_amounts(&a1, &a1),
        Quality::from_amounts(&a1, &a2),
        Quality::from_amounts(&a1, &a3),
        Quality::from_amounts(&a2, &a1),
        Quality::from_amounts(&a3, &a1),
    ]
}

#[test]
fn quality_comparisons() {
    // Quality_test::test_comparisons: rippled's `a < b` is `a.worse_than(b)`.
    let [q11, q12, q13, q21, q31] = qualities();
    assert!(q11.worse_than(&q12));
    assert!(q12.worse_than(&q13));
    assert!(q31.worse_than(&q21));
    assert!(q21.worse_than(&q11));
    assert!(q12.better_than(&q11));
    assert!(q13.better_than(&q12));
    assert!(q21.better_than(&q31));
    assert!(q11.better_than(&q21));
    assert!(!q11.better_than(&q11) && !q11.worse_than(&q11));
    assert_ne!(q31, q21);
}

#[test]
fn quality_composition() {
    // Quality_test::test_composition
    let [q11, q12, q13, q21, q31] = qualities();
    assert_eq!(q12.compose(&q21).unwrap(), q11);
    let q13_31 = q13.compose(&q31).unwrap();
    let q31_13 = q31.compose(&q13).unwrap();
    assert_eq!(q13_31, q31_13);
    assert_eq!(q13_31, q11);
}

#[test]
fn quality_operations() {
    // Quality_test::test_operations: ++ is a better quality, -- a worse one.
    let q11 = Quality::from_amounts(&n(731), &n(731));
    let qa = q11.increment();
    assert_ne!(qa, q11);
    let qb = q11.decrement();
    assert_ne!(qb, q11);
    assert!(qb.worse_than(&qa));
    // qb++ < qa, twice, then qb++ == qa: each compares before stepping.
    assert!(qb.worse_than(&qa));
    let qb = qb.increment();
    assert!(qb.worse_than(&qa));
    let qb = qb.increment();
    assert_eq!(qb, qa);
    let qb = qb.increment();
    assert!(qa.worse_than(&qb));
}

#[test]
fn quality_one_is_rate_one() {
    // STAmount.cpp: uRateOne = getRate(STAmount(1), STAmount(1)).
    assert_eq!(Quality::ONE, Quality(get_rate(&x(1), &x(1))));
    assert_eq!(Quality::ONE, Quality::from_amounts(&n(731), &n(731)));
    assert_eq!(Quality::ONE.rate().to_text(), "1");
}

#[test]
fn directory_keys() {
    // Indexes.cpp getQuality / getQualityIndex / getQualityNext: the low 64 bits,
    // big-endian.
    let base =
        Hash256::from_hex("7E984F2BC29B3E2FB0B02A8DE1D9C2A1C3F1C3D9E0F39B2F0000000000000000")
            .unwrap();
    let key = directory_key_with_quality(&base, Quality(0x5d048191fb9130da));
    assert_eq!(
        key.to_hex(),
        "7E984F2BC29B3E2FB0B02A8DE1D9C2A1C3F1C3D9E0F39B2F5D048191FB9130DA"
    );
    assert_eq!(
        quality_from_directory_key(&key),
        Quality(0x5d048191fb9130da)
    );
    assert_eq!(
        quality_next(&base).to_hex(),
        "7E984F2BC29B3E2FB0B02A8DE1D9C2A1C3F1C3D9E0F39B300000000000000000"
    );
}

// ---------------------------------------------------------------- STAmount_test.cpp

#[test]
fn multiply_and_divide_small() {
    // STAmount_test::testCustomCurrency
    assert_eq!(text(&multiply(&n(20), &x(3), &no_issue()).unwrap()), "60");
    assert_eq!(text(&multiply(&n(20), &x(3), &xrp()).unwrap()), "60");
    assert_eq!(text(&multiply(&x(20), &x(3), &no_issue()).unwrap()), "60");
    assert_eq!(text(&multiply(&x(20), &x(3), &xrp()).unwrap()), "60");
    assert_eq!(text(&divide(&n(60), &x(3), &no_issue()).unwrap()), "20");
    assert_eq!(text(&divide(&n(60), &x(3), &xrp()).unwrap()), "20");
    assert_eq!(text(&divide(&n(60), &n(3), &no_issue()).unwrap()), "20");
    assert_eq!(text(&divide(&n(60), &n(3), &xrp()).unwrap()), "20");
    // divide(a, b) == amountFromQuality(getRate(b, a))
    let (a1, a2) = (n(60), raw(10, -1));
    assert_eq!(
        divide(&a2, &a1, &no_issue()).unwrap().as_iou().unwrap(),
        amount_from_quality(get_rate(&a1, &a2))
    );
    assert_eq!(
        divide(&a1, &a2, &no_issue()).unwrap().as_iou().unwrap(),
        amount_from_quality(get_rate(&a2, &a1))
    );
}

#[test]
fn get_rate_words() {
    // STAmount_test::testArithmetic, "getRate fail 1" to "fail 8".
    let tenth = ((100u64 - 14) << 56) | 1_000_000_000_000_000;
    let ten = ((100u64 - 16) << 56) | 1_000_000_000_000_000;
    assert_eq!(get_rate(&x(1), &x(10)), tenth);
    assert_eq!(get_rate(&x(10), &x(1)), ten);
    assert_eq!(get_rate(&n(1), &n(10)), tenth);
    assert_eq!(get_rate(&n(10), &n(1)), ten);
    assert_eq!(get_rate(&n(1), &x(10)), tenth);
    assert_eq!(get_rate(&n(10), &x(1)), ten);
    assert_eq!(get_rate(&x(1), &n(10)), tenth);
    assert_eq!(get_rate(&x(10), &n(1)), ten);
}

/// STAmount_test::roundSelf: nudges a mantissa ending in ...000000001 or
/// ...999999999 to the round value.
fn round_self(a: &Amount) -> Amount {
    let v = a.as_iou().unwrap();
    let m = v.mantissa();
    let adjusted = match m % 1_000_000_000 {
        1 => m - 1,
        999_999_999 => m + 1,
        _ => return *a,
    };
    let issue = no_issue();
    let v = IouValue::from_parts(
        u128::from(adjusted),
        v.exponent(),
        v.is_negative(),
        Rounding::Nearest,
    )
    .unwrap();
    Amount::iou(v, issue.currency, issue.issuer)
}

#[test]
fn round_trips() {
    // STAmount_test::roundTest(1,3,3), (2,3,9), (1,7,21), (1,2,4), (3,9,18), (7,11,44)
    for (num, den, mul) in [
        (1, 3, 3),
        (2, 3, 9),
        (1, 7, 21),
        (1, 2, 4),
        (3, 9, 18),
        (7, 11, 44),
    ] {
        let quot = divide(&x(num), &x(den), &no_issue()).unwrap();
        let res = round_self(&multiply(&quot, &n(mul as u64), &no_issue()).unwrap());
        assert!(!res.is_xrp());
        assert_eq!(res, n((num * mul / den) as u64), "({num}/{den})*{mul}");
    }
}

#[test]
fn multiplication_is_exact_for_small_integers() {
    // STAmount_test::mulTest with randInt(10000000) operands: a few fixed pairs.
    for (a, b) in [
        (9_999_999u64, 9_999_999u64),
        (1, 1),
        (1234567, 7654321),
        (10_000_000, 3),
    ] {
        assert_eq!(
            multiply(&n(a), &n(b), &no_issue()).unwrap(),
            n(a * b),
            "{a}*{b}"
        );
    }
}

#[test]
fn underflow() {
    // STAmount_test::testUnderflow
    let mid = (1_000_000_000_000_000u64 + 9_999_999_999_999_999) / 2;
    let big_native = x(100_000_000_000_000_000 / 2);
    let big_value = raw(mid, 80 - 1);
    let small_value = raw(mid, -96 + 1);
    assert!(multiply(&small_value, &small_value, &no_issue())
        .unwrap()
        .is_zero());
    assert!(divide(&small_value, &big_value, &no_issue())
        .unwrap()
        .is_zero());
    assert!(divide(&small_value, &big_value, &xrp()).unwrap().is_zero());
    assert!(divide(&small_value, &big_native, &xrp()).unwrap().is_zero());
    // very bad offer, very good offer
    assert_eq!(get_rate(&small_value, &big_value), 0);
    assert_eq!(get_rate(&big_value, &small_value), 0);
}

#[test]
fn division_by_zero_is_an_error() {
    // STAmount.cpp divide / divRound throw "division by zero".
    assert!(divide(&n(1), &n(0), &no_issue()).is_err());
    assert!(div_round(&n(1), &x(0), &xrp(), true).is_err());
    // A zero product needs no rounding.
    assert!(mul_round(&n(0), &n(3), &no_issue(), true)
        .unwrap()
        .is_zero());
}

#[test]
fn legacy_round_up_to_drops_ignores_fractions_below_a_tenth() {
    // STAmount.cpp, the comment above the legacy canonicalizeRound: converting to
    // drops, a fraction >= 0.1 rounds up but a smaller one (0.099999) rounds down;
    // canonicalizeRoundStrict (mulRoundStrict) counts every dropped digit.
    let one_drop = x(1);
    assert_eq!(
        mul_round(&raw(1_099_999, -6), &one_drop, &xrp(), true),
        Ok(x(1))
    );
    assert_eq!(mul_round(&raw(11, -1), &one_drop, &xrp(), true), Ok(x(2)));
    assert_eq!(
        mul_round_strict(&raw(1_099_999, -6), &one_drop, &xrp(), true),
        Ok(x(2))
    );
    assert_eq!(
        mul_round_strict(&raw(11, -1), &one_drop, &xrp(), true),
        Ok(x(2))
    );
}

#[test]
fn round_up_never_gives_zero() {
    // STAmount.cpp mulRoundImpl / divRoundImpl: rounding a positive result up
    // returns the smallest positive amount instead of zero (1 drop; 1e-81).
    let tiny = raw(1_000_000_000_000_000, -96);
    assert_eq!(mul_round(&tiny, &tiny, &no_issue(), true), Ok(tiny));
    assert_eq!(mul_round_strict(&tiny, &tiny, &no_issue(), true), Ok(tiny));
    assert_eq!(div_round(&tiny, &n(1_000_000), &xrp(), true), Ok(x(1)));
    assert_eq!(
        div_round_strict(&tiny, &n(1_000_000), &xrp(), true),
        Ok(x(1))
    );
    assert_eq!(div_round(&tiny, &n(1_000_000), &xrp(), false), Ok(x(0)));
}

// ---------------------------------------------------------------- XRPAmount_test.cpp

#[test]
fn xrp_mul_ratio() {
    // XRPAmount_test::testMulRatio
    let max32 = u32::MAX;
    let (max, min) = (i64::MAX, i64::MIN);
    assert_eq!(mul_ratio_drops(max, max32, max32, true), Ok(max));
    assert_eq!(mul_ratio_drops(max, max32, max32, false), Ok(max));
    let big = max - 0xf;
    assert_eq!(mul_ratio_drops(big, 3, 4, false), Ok((big / 4) * 3));
    assert_eq!(mul_ratio_drops(big, 3, 4, true), Ok((big / 4) * 3));
    assert_eq!(mul_ratio_drops(min, max32, max32, true), Ok(min));
    assert_eq!(mul_ratio_drops(min, max32, max32, false), Ok(min));
    assert_eq!(mul_ratio_drops(min, 3, 4, false), Ok((min / 4) * 3));
    assert_eq!(mul_ratio_drops(min, 3, 4, true), Ok((min / 4) * 3));
    // small amounts
    assert_eq!(mul_ratio_drops(1, 1, max32, true), Ok(1));
    assert_eq!(mul_ratio_drops(1, 1, max32, false), Ok(0));
    assert_eq!(mul_ratio_drops(1, max32 - 1, max32, false), Ok(0));
    assert_eq!(mul_ratio_drops(-1, 1, max32, true), Ok(0));
    assert_eq!(mul_ratio_drops(-1, max32 - 1, max32, true), Ok(0));
    assert_eq!(mul_ratio_drops(-1, max32 - 1, max32, false), Ok(-1));
    // rounding: up and down differ by one drop
    for v in [1, max, -1] {
        let up = mul_ratio_drops(v, max32 - 1, max32, true).unwrap();
        let down = mul_ratio_drops(v, max32 - 1, max32, false).unwrap();
        assert_eq!(up - down, 1, "{v}");
    }
    // division by zero, overflow, and the saturating bottom
    assert!(mul_ratio_drops(1, 1, 0, true).is_err());
    assert_eq!(
        mul_ratio_drops(max, 2, 1, true),
        Err(AmountError::NativeOutOfRange)
    );
    assert_eq!(mul_ratio_drops(min + 10, 2, 1, true), Ok(min));
    // the Amount-level entry point dispatches on the kind
    assert_eq!(mul_ratio(&x(10), 1, 3, true), Ok(x(4)));
}

// ---------------------------------------------------------------- IOUAmount_test.cpp

fn iou(m: i64, e: i32) -> IouValue {
    IouValue::from_parts(u128::from(m.unsigned_abs()), e, m < 0, Rounding::Nearest).unwrap()
}

#[test]
fn iou_mul_ratio() {
    // IOUAmount_test::testMulRatio
    let max32 = u32::MAX;
    let (min_m, max_m) = (1_000_000_000_000_000i64, 9_999_999_999_999_999i64);
    for big in [iou(max_m, 0), iou(-max_m, 0)] {
        assert_eq!(mul_ratio_iou(&big, max32, max32, true), Ok(big));
        assert_eq!(mul_ratio_iou(&big, max32, max32, false), Ok(big));
    }
    let tiny = iou(min_m, -96);
    assert_eq!(mul_ratio_iou(&tiny, 1, max32, true), Ok(tiny));
    assert_eq!(mul_ratio_iou(&tiny, max32 - 1, max32, true), Ok(tiny));
    assert_eq!(mul_ratio_iou(&tiny, 1, max32, false), Ok(IouValue::ZERO));
    assert_eq!(
        mul_ratio_iou(&tiny, max32 - 1, max32, false),
        Ok(IouValue::ZERO)
    );
    let tiny_neg = iou(-min_m, -96);
    assert_eq!(mul_ratio_iou(&tiny_neg, 1, max32, true), Ok(IouValue::ZERO));
    assert_eq!(
        mul_ratio_iou(&tiny_neg, max32 - 1, max32, true),
        Ok(IouValue::ZERO)
    );
    assert_eq!(mul_ratio_iou(&tiny_neg, 1, max32, false), Ok(tiny_neg));
    assert_eq!(
        mul_ratio_iou(&tiny_neg, max32 - 1, max32, false),
        Ok(tiny_neg)
    );
    // rounding: up and down differ by one in the mantissa
    for v in [iou(1, 0), iou(max_m, 80)] {
        let up = mul_ratio_iou(&v, max32 - 1, max32, true).unwrap();
        let down = mul_ratio_iou(&v, max32 - 1, max32, false).unwrap();
        assert_eq!(up.mantissa() - down.mantissa(), 1, "{v}");
    }
    // IOUAmount(-1, 0): rippled's mantissas are signed, so "up - down == 1" is
    // |down| - |up| == 1 here.
    let v = iou(-1, 0);
    let up = mul_ratio_iou(&v, max32 - 1, max32, true).unwrap();
    let down = mul_ratio_iou(&v, max32 - 1, max32, false).unwrap();
    assert_eq!(down.mantissa() - up.mantissa(), 1);
    // division by zero (the "overflow" case also divides by zero)
    assert!(mul_ratio_iou(&iou(1, 0), 1, 0, true).is_err());
    assert!(mul_ratio_iou(&iou(max_m, 80), 2, 0, true).is_err());
}
