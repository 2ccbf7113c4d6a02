//! rippled's `Number_test.cpp` at every mantissa scale (`Small`, `LargeLegacy`,
//! `Large320`, `Large330`), with its expected values: the 19-digit results of the large
//! scales, the `i64::MAX` cusp that fixCleanup3_2_0's rounding fix corrects, and
//! fixCleanup3_3_0's `Large330` rounding (checked against an exact oracle too).
use super::*;

const MAX_REP: i64 = i64::MAX;

fn n(m: i64, e: i32) -> Number {
    Number::new(m, e)
}

/// `Number{negative, mantissa, exponent, Normalized{}}`.
fn nn(negative: bool, m: u64, e: i32) -> Number {
    Number::normalized(negative, m, e)
}

fn i(v: i64) -> Number {
    Number::from_i64(v)
}

type Case = (Number, Number, Number);

fn check(cases: &[Case], op: fn(Number, Number) -> Number, what: &str) {
    for (x, y, z) in cases {
        assert_eq!(op(*x, *y), *z, "{x} {what} {y} at {:?}", get_scale());
    }
}

/// Runs `f` at each large scale, in the rounding mode `mode`.
fn at_large(mode: RoundingMode, f: impl Fn(MantissaScale)) {
    for scale in [
        MantissaScale::LargeLegacy,
        MantissaScale::Large320,
        MantissaScale::Large330,
    ] {
        let _s = ScaleGuard::new(scale);
        let _m = RoundGuard::new(mode);
        f(scale);
    }
}

fn faults(f: impl FnOnce() -> Number) -> bool {
    let _ = take_fault();
    let _ = f();
    take_fault()
}

#[test]
fn limits_at_every_scale() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let _m = RoundGuard::new(RoundingMode::ToNearest);
        let min = scale.min_mantissa();
        assert!(faults(|| nn(false, min * 10, 32768)));
        assert_eq!(nn(false, min * 10, 32767), nn(false, min, 32768));
        assert_eq!(nn(false, min, -32769), Number::ZERO);
        assert_eq!(
            nn(false, min, 32000) * i(1000) + nn(false, 1500, 32000),
            nn(false, min + 2, 32003)
        );
        let small = scale == MantissaScale::Small;
        let lowest = if small {
            n(-9_223_372_036_854_776, 3)
        } else {
            nn(true, 9_223_372_036_854_775_808, 0)
        };
        assert_eq!(i(i64::MIN), lowest);
        let lowest1 = if small {
            n(-9_223_372_036_854_776, 3)
        } else {
            i(-MAX_REP)
        };
        assert_eq!(i(i64::MIN + 1), lowest1);
        let top = if small {
            9_223_372_036_854_776
        } else {
            MAX_REP
        };
        assert_eq!(i(MAX_REP), n(top, 18 - scale.log()));
        assert!(faults(|| nn(false, min, 32767) * i(100)));
        assert_eq!(Number::one(), i(1));
        assert_eq!(Number::one().exponent(), -scale.log());
        // `MAX_REP_UP` at the largest exponent: a Number only at Large330.
        if scale == MantissaScale::Large330 {
            let big = nn(false, MAX_REP_UP, 32768);
            assert_eq!(big.to_string(), "9223372036854775810e32768");
            assert_eq!(big.mantissa(), 922_337_203_685_477_581);
            assert_eq!(big.exponent(), 32769);
        } else {
            assert!(faults(|| nn(false, MAX_REP_UP, 32768)), "{scale:?}");
        }
    }
}

#[test]
fn large_addition() {
    let max = MantissaScale::Large320.max_mantissa();
    at_large(RoundingMode::ToNearest, |scale| {
        let one = n(1_000_000_000_000_000, -15);
        let one18 = n(1_000_000_000_000_000_000, -18);
        let cases = [
            (
                one,
                n(6_555_555_555_555_555, -29),
                n(1_000_000_000_000_065_556, -18),
            ),
            (
                -one,
                n(-6_555_555_555_555_555, -29),
                n(-1_000_000_000_000_065_556, -18),
            ),
            (
                -one,
                n(6_555_555_555_555_555, -29),
                nn(true, 9_999_999_999_999_344_444, -19),
            ),
            (
                n(-6_555_555_555_555_555, -29),
                one,
                nn(false, 9_999_999_999_999_344_444, -19),
            ),
            (Number::ZERO, i(5), i(5)),
            (i(5), Number::ZERO, i(5)),
            (
                n(5_555_555_555_555_555_000, -32768),
                n(-5_555_555_555_555_554_000, -32768),
                Number::ZERO,
            ),
            (
                n(-9_999_999_999_999_999, -31),
                one,
                n(9_999_999_999_999_990, -16),
            ),
            (
                one18,
                n(6_555_555_555_555_555_555, -35),
                n(1_000_000_000_000_000_066, -18),
            ),
            (
                -one18,
                n(-6_555_555_555_555_555_555, -35),
                n(-1_000_000_000_000_000_066, -18),
            ),
            (
                -one18,
                n(6_555_555_555_555_555_555, -35),
                nn(true, 9_999_999_999_999_999_344, -19),
            ),
            (
                n(-6_555_555_555_555_555_555, -35),
                one18,
                nn(false, 9_999_999_999_999_999_344, -19),
            ),
            (
                n(5_555_555_555_555_555_555, -32768),
                n(-5_555_555_555_555_555_554, -32768),
                Number::ZERO,
            ),
            (
                nn(true, 9_999_999_999_999_999_999, -37),
                one18,
                nn(false, 9_999_999_999_999_999_990, -19),
            ),
            (i(MAX_REP - 1), n(1, 0), i(MAX_REP)),
            (nn(false, max, 0), nn(false, max, 0), n(2, 19)),
            (
                nn(false, 9_999_999_999_999_999_990, 0),
                nn(false, 9_999_999_999_999_999_990, 0),
                nn(false, 1_999_999_999_999_999_998, 1),
            ),
        ];
        check(&cases, |x, y| x + y, "+");
        // The cusp: i64::MAX + 0.6 rounds down without the fix, up with fixCleanup3_2_0's,
        // and to the nearer i64::MAX with fixCleanup3_3_0's.
        let cusp = match scale {
            MantissaScale::Large320 => n(MAX_REP / 10 + 1, 1),
            MantissaScale::Large330 => i(MAX_REP),
            _ => n(MAX_REP / 10, 1),
        };
        assert_eq!(i(MAX_REP) + n(6, -1), cusp, "{scale:?}");
        if scale == MantissaScale::Large330 {
            let top = nn(false, MAX_REP as u64, 32768);
            assert_eq!(top + n(3, 32768), nn(false, MAX_REP_UP, 32768));
        }
        let min = scale.min_mantissa();
        assert!(faults(
            || nn(false, max, 32768) + nn(false, min, 32767) * i(5)
        ));
    });
}

#[test]
fn large_subtraction() {
    at_large(RoundingMode::ToNearest, |scale| {
        let one = n(1_000_000_000_000_000, -15);
        let one18 = n(1_000_000_000_000_000_000, -18);
        let past = nn(false, MAX_REP as u64 + 1, 0);
        let cases = [
            (
                one,
                n(6_555_555_555_555_555, -29),
                nn(false, 9_999_999_999_999_344_444, -19),
            ),
            (
                n(6_555_555_555_555_555, -29),
                one,
                nn(true, 9_999_999_999_999_344_444, -19),
            ),
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
            (
                one18,
                n(6_555_555_555_555_555_555, -32),
                nn(false, 9_999_999_999_999_344_444, -19),
            ),
            (
                n(6_555_555_555_555_555_555, -32),
                one18,
                nn(true, 9_999_999_999_999_344_444, -19),
            ),
            (one18, one18, Number::ZERO),
            (
                one18,
                n(1_000_000_000_000_000_001, -18),
                n(-1_000_000_000_000_000_000, -36),
            ),
            (
                n(1_000_000_000_000_000_001, -18),
                one18,
                n(1_000_000_000_000_000_000, -36),
            ),
            (i(MAX_REP), n(6, -1), i(MAX_REP - 1)),
        ];
        check(&cases, |x, y| x - y, "-");
        let past2 = nn(false, MAX_REP as u64 + 2, 0);
        let below_up = nn(false, MAX_REP_UP - 1, 0);
        let cases = if scale == MantissaScale::Large330 {
            // i64::MAX + 1 rounds down to i64::MAX when made; MAX_REP_UP - 1 up to it.
            [
                (past, n(1, 0), i(MAX_REP - 1)),
                (past, n(3, 0), i(MAX_REP - 3)),
                (below_up, n(1, 0), n(MAX_REP / 10 + 1, 1)),
                (below_up, n(3, 0), i(MAX_REP)),
                (power(i(2), 63), n(3, 0), i(MAX_REP - 3)),
            ]
        } else {
            [
                (past, n(1, 0), n(MAX_REP / 10 + 1, 1)),
                (past, n(3, 0), i(MAX_REP)),
                (past2, n(1, 0), n(MAX_REP / 10 + 1, 1)),
                (past2, n(3, 0), i(MAX_REP)),
                (power(i(2), 63), n(3, 0), i(MAX_REP)),
            ]
        };
        check(&cases, |x, y| x - y, "-");
    });
}

/// The products rippled's test expects in one rounding mode, in the order of
/// [`mul_operands`].
fn large_products(mode: RoundingMode) -> [Number; 12] {
    let max = MantissaScale::Large320.max_mantissa();
    let (r2, r2_neg, ab) = match mode {
        RoundingMode::ToNearest => (862, -862, nn(false, 9_999_999_999_999_999_579, -18)),
        RoundingMode::TowardsZero => (861, -861, nn(false, 9_999_999_999_999_999_579, -18)),
        RoundingMode::Downward => (861, -862, nn(false, 9_999_999_999_999_999_579, -18)),
        RoundingMode::Upward => (862, -861, n(999_999_999_999_999_958, -17)),
    };
    let sq = |tail: i64| n(1_999_999_999_999_999_000 + tail, -18);
    let up = matches!(mode, RoundingMode::ToNearest | RoundingMode::Upward);
    let r2_49 = if up {
        n(2_000_000_000_000_000_001, -18)
    } else {
        i(2)
    };
    let neg_48 = match mode {
        RoundingMode::ToNearest | RoundingMode::Downward => n(-1_999_999_999_999_999_998, -18),
        _ => n(-1_999_999_999_999_999_997, -18),
    };
    let pos_48_49 = if mode == RoundingMode::Upward {
        i(2)
    } else {
        n(1_999_999_999_999_999_999, -18)
    };
    let ten = if mode == RoundingMode::Upward {
        n(1_000_000_000_000_000_001, -17)
    } else {
        i(10)
    };
    let max_sq = if up {
        n(1, 38)
    } else {
        nn(false, max / 10 - 1, 20)
    };
    let rep_sq = n(8_507_059_173_023_461_584 + i64::from(up), 19);
    [
        i(56),
        sq(r2),
        -sq(-r2_neg),
        sq(r2),
        ab,
        Number::ZERO,
        r2_49,
        neg_48,
        pos_48_49,
        ten,
        max_sq,
        rep_sq,
    ]
}

fn mul_operands() -> [(Number, Number); 12] {
    let max = MantissaScale::Large320.max_mantissa();
    let r2 = n(1_414_213_562_373_095, -15);
    let tiny = n(1_000_000_000_000_000_000, -32768);
    [
        (i(7), i(8)),
        (r2, r2),
        (-r2, r2),
        (-r2, -r2),
        (n(3_214_285_714_285_706, -15), n(3_111_111_111_111_119, -15)),
        (tiny, tiny),
        (
            n(1_414_213_562_373_095_049, -18),
            n(1_414_213_562_373_095_049, -18),
        ),
        (
            n(-1_414_213_562_373_095_048, -18),
            n(1_414_213_562_373_095_048, -18),
        ),
        (
            n(-1_414_213_562_373_095_048, -18),
            n(-1_414_213_562_373_095_049, -18),
        ),
        (
            n(3_214_285_714_285_714_278, -18),
            n(3_111_111_111_111_111_119, -18),
        ),
        (nn(false, max, 0), nn(false, max, 0)),
        (i(MAX_REP), i(MAX_REP)),
    ]
}

#[test]
fn large_multiplication_in_every_mode() {
    for mode in [
        RoundingMode::ToNearest,
        RoundingMode::TowardsZero,
        RoundingMode::Downward,
        RoundingMode::Upward,
    ] {
        at_large(mode, |scale| {
            let expected = large_products(mode);
            for ((x, y), z) in mul_operands().into_iter().zip(expected) {
                assert_eq!(x * y, z, "{x} * {y} {mode:?} {scale:?}");
            }
            let (max, min) = (scale.max_mantissa(), scale.min_mantissa());
            assert!(faults(|| nn(false, max, 32768) * nn(false, min * 5, 32767)));
        });
    }
}

#[test]
fn division_in_every_mode_at_every_scale() {
    // (2/3, -2/3, 1/7) per mode: small, then large.
    let table = [
        (
            RoundingMode::ToNearest,
            [
                6_666_666_666_666_667,
                -6_666_666_666_666_667,
                1_428_571_428_571_428,
            ],
            [
                6_666_666_666_666_666_667,
                -6_666_666_666_666_666_667,
                1_428_571_428_571_428_571,
            ],
        ),
        (
            RoundingMode::TowardsZero,
            [
                6_666_666_666_666_666,
                -6_666_666_666_666_666,
                1_428_571_428_571_428,
            ],
            [
                6_666_666_666_666_666_666,
                -6_666_666_666_666_666_666,
                1_428_571_428_571_428_571,
            ],
        ),
        (
            RoundingMode::Downward,
            [
                6_666_666_666_666_666,
                -6_666_666_666_666_667,
                1_428_571_428_571_428,
            ],
            [
                6_666_666_666_666_666_666,
                -6_666_666_666_666_666_667,
                1_428_571_428_571_428_571,
            ],
        ),
        (
            RoundingMode::Upward,
            [
                6_666_666_666_666_667,
                -6_666_666_666_666_666,
                1_428_571_428_571_429,
            ],
            [
                6_666_666_666_666_666_667,
                -6_666_666_666_666_666_666,
                1_428_571_428_571_428_572,
            ],
        ),
    ];
    for (mode, small, large) in table {
        for scale in MantissaScale::ALL {
            let _s = ScaleGuard::new(scale);
            let _m = RoundGuard::new(mode);
            let (q, e) = if scale == MantissaScale::Small {
                (small, -16)
            } else {
                (large, -19)
            };
            let r2 = n(1_414_213_562_373_095, -10);
            let mut cases = vec![
                (i(1), i(2), n(5, -1)),
                (i(1), i(10), n(1, -1)),
                (i(1), i(-10), n(-1, -1)),
                (i(0), i(100), Number::ZERO),
                (r2, r2, i(1)),
                (
                    i(9_999_999_999_999_999),
                    i(1_000_000_000_000_000),
                    n(9_999_999_999_999_999, -15),
                ),
                (i(2), i(3), n(q[0], e)),
                (i(-2), i(3), n(q[1], e)),
                (i(1), i(7), n(q[2], e)),
            ];
            if scale != MantissaScale::Small {
                let max = scale.max_mantissa();
                let r2 = n(1_414_213_562_373_095_049, -13);
                cases.push((r2, r2, i(1)));
                cases.push((
                    nn(false, max, 0),
                    i(1_000_000_000_000_000_000),
                    nn(false, max, -18),
                ));
            }
            check(&cases, |x, y| x / y, "/");
            assert!(faults(|| n(1_000_000_000_000_000, -15) / Number::ZERO));
        }
    }
}

#[test]
fn roots_and_powers_at_every_scale() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let _m = RoundGuard::new(RoundingMode::ToNearest);
        let roots = [
            (i(2), 2, n(1_414_213_562_373_095_049, -18)),
            (i(2_000_000), 2, n(1_414_213_562_373_095_049, -15)),
            (n(2, -30), 2, n(1_414_213_562_373_095_049, -33)),
            (i(-27), 3, i(-3)),
            (i(1), 5, i(1)),
            (i(-1), 0, i(1)),
            (n(5, -1), 0, Number::ZERO),
            (Number::ZERO, 5, Number::ZERO),
            (n(5625, -4), 2, n(75, -2)),
        ];
        for (x, d, z) in roots {
            assert_eq!(root(x, d), z, "root({x}, {d}) at {scale:?}");
        }
        assert!(faults(|| root(i(-2), 0)));
        assert!(faults(|| root(i(-2), 4)));
        for x in [
            i(2),
            i(2_000_000),
            n(2, -30),
            i(27),
            i(1),
            n(5, -1),
            Number::ZERO,
            n(5625, -4),
            i(MAX_REP),
        ] {
            assert_eq!(root2(x), root(x, 2), "root2({x}) at {scale:?}");
        }
        assert!(faults(|| root2(i(-2))));
        let p64 = nn(false, 7_378_697_629_483_820_646, 1);
        for (x, k, z) in [
            (i(64), 0, i(1)),
            (i(64), 1, i(64)),
            (i(64), 2, i(4096)),
            (i(-64), 2, i(4096)),
            (i(64), 3, i(262_144)),
            (i(-64), 3, i(-262_144)),
            (i(64), 11, p64),
            (i(-64), 11, -p64),
        ] {
            assert_eq!(power(x, k), z, "{x}^{k} at {scale:?}");
        }
        for (x, p, q, z) in [
            (i(1), 3, 7, i(1)),
            (i(-1), 1, 0, i(1)),
            (n(-1, -1), 1, 0, Number::ZERO),
            (i(16), 0, 5, i(1)),
            (i(34), 3, 3, i(34)),
            (i(4), 3, 2, i(8)),
        ] {
            assert_eq!(power_frac(x, p, q), z, "{x}^({p}/{q}) at {scale:?}");
        }
        assert!(faults(|| power_frac(i(7), 0, 0)));
        assert!(faults(|| power_frac(i(7), 1, 0)));
        assert!(faults(|| power_frac(n(-1, -1), 3, 2)));
    }
}

#[test]
fn large_roots_toward_zero() {
    at_large(RoundingMode::TowardsZero, |scale| {
        let max = scale.max_mantissa();
        let cases = [
            (
                nn(false, max - 9, -1),
                2,
                nn(false, 999_999_999_999_999_999, -9),
            ),
            (
                nn(false, max - 9, 0),
                2,
                nn(false, 3_162_277_660_168_379_330, -9),
            ),
            (i(MAX_REP), 2, nn(false, 3_037_000_499_976_049_692, -9)),
            (i(MAX_REP), 4, nn(false, 5_510_898_747_006_743_627, -14)),
        ];
        for (x, d, z) in cases {
            assert_eq!(root(x, d), z, "root({x}, {d}) at {scale:?}");
        }
    });
}

#[test]
fn conversions_and_integers_at_every_scale() {
    // (value x10, then the integer in each mode: nearest, toward zero, down, up)
    let table: [(i64, [i64; 4]); 14] = [
        (15, [2, 1, 1, 2]),
        (14, [1, 1, 1, 2]),
        (16, [2, 1, 1, 2]),
        (25, [2, 2, 2, 3]),
        (6, [1, 0, 0, 1]),
        (5, [0, 0, 0, 1]),
        (4, [0, 0, 0, 1]),
        (-15, [-2, -1, -2, -1]),
        (-14, [-1, -1, -2, -1]),
        (-16, [-2, -1, -2, -1]),
        (-25, [-2, -2, -3, -2]),
        (-6, [-1, 0, -1, 0]),
        (-5, [0, 0, -1, 0]),
        (-4, [0, 0, -1, 0]),
    ];
    let modes = [
        RoundingMode::ToNearest,
        RoundingMode::TowardsZero,
        RoundingMode::Downward,
        RoundingMode::Upward,
    ];
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        for (k, mode) in modes.into_iter().enumerate() {
            let _m = RoundGuard::new(mode);
            for (v, want) in table {
                assert_eq!(
                    n(v, -1).to_i64(),
                    Some(want[k]),
                    "{v}e-1 {mode:?} {scale:?}"
                );
            }
            for v in [0, 1, 2, 3, -1, -2, -3, 10, 99, 1155, 9_999_999_999_999_999] {
                assert_eq!(i(v).to_i64(), Some(v));
            }
            assert_eq!(
                n(9_999_999_999_999_999, 2).to_i64(),
                Some(999_999_999_999_999_900)
            );
            assert_eq!(
                n(-9_999_999_999_999_999, 2).to_i64(),
                Some(-999_999_999_999_999_900)
            );
            // testToStAmount: 75187838.0596 as drops.
            let drops = n(751_878_380_596, -5).to_i64();
            let up = matches!(mode, RoundingMode::ToNearest | RoundingMode::Upward);
            assert_eq!(drops, Some(if up { 7_518_784 } else { 7_518_783 }));
        }
        assert_eq!(n(9_223_372_036_854_776, 3).to_i64(), None);
        let iou = IouValue::from_parts(5, 6, false, Rounding::Nearest).unwrap();
        let y = Number::from_iou(&iou);
        assert_eq!(y, n(5, 6));
        assert_eq!(y.to_iou(), Some(iou));
        assert_eq!(Number::from_iou(&IouValue::ZERO), Number::ZERO);
        assert_eq!(i(500).to_i64(), Some(500));
    }
}

#[test]
fn to_string_at_every_scale() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let _m = RoundGuard::new(RoundingMode::ToNearest);
        for (x, s) in [
            (n(-2, 0), "-2"),
            (n(0, 0), "0"),
            (n(2, 0), "2"),
            (n(25, -3), "0.025"),
            (n(-25, -3), "-0.025"),
            (n(25, 1), "250"),
            (n(-25, 1), "-250"),
            (n(2, 20), "2e20"),
            (n(-2, -20), "-2e-20"),
            (n(2, -10), "0.0000000002"),
            (n(2, -11), "2e-11"),
            (n(-2, 10), "-20000000000"),
            (n(-2, 11), "-2e11"),
        ] {
            assert_eq!(x.to_string(), s, "{scale:?}");
        }
        let (min, max) = (scale.min_mantissa(), scale.max_mantissa());
        let top = max.min(MAX_REP as u64);
        let small = scale == MantissaScale::Small;
        let want = |a: &str, b: &str| if small { a.to_string() } else { b.to_string() };
        assert_eq!(
            nn(false, min, -32768).to_string(),
            want("1e-32753", "1e-32750")
        );
        let most = want("9999999999999999e32768", "9223372036854775807e32768");
        assert_eq!(nn(false, top, 32768).to_string(), most);
        assert_eq!(nn(true, top, 32768).to_string(), format!("-{most}"));
        let _z = RoundGuard::new(RoundingMode::TowardsZero);
        if small {
            assert_eq!(
                nn(false, max * 1000 + 999, -3).to_string(),
                "9999999999999999"
            );
            assert_eq!(n(MAX_REP, -3).to_string(), "9223372036854775");
            assert_eq!((-n(MAX_REP, -3)).to_string(), "-9223372036854775");
            assert_eq!(n(i64::MIN, 0).to_string(), "-9223372036854775e3");
        } else {
            assert_eq!(nn(false, max, 0).to_string(), "9999999999999999990");
            assert_eq!(nn(true, max, 0).to_string(), "-9999999999999999990");
            assert_eq!(i(MAX_REP).to_string(), "9223372036854775807");
            let v330 = scale == MantissaScale::Large330;
            // i64::MIN toward zero: cut to a trailing zero, or (Large330) i64::MAX.
            let min_s = if v330 {
                "9223372036854775807"
            } else {
                "9223372036854775800"
            };
            assert_eq!(i(i64::MIN).to_string(), format!("-{min_s}"));
            assert_eq!((-i(i64::MIN)).to_string(), min_s);
            let _n = RoundGuard::new(RoundingMode::ToNearest);
            // i64::MAX + 1 is nearer i64::MAX than MAX_REP_UP (Large330).
            let plus1 = if v330 {
                "9223372036854775807"
            } else {
                "9223372036854775810"
            };
            assert_eq!((i(MAX_REP) + i(1)).to_string(), plus1);
            assert_eq!((-(i(MAX_REP) + i(1))).to_string(), format!("-{plus1}"));
            assert_eq!((i(MAX_REP) + i(2)).to_string(), "9223372036854775810");
            assert_eq!((-(i(MAX_REP) + i(2))).to_string(), "-9223372036854775810");
        }
        assert_eq!((n(-2, 11) - i(1)).to_string(), "-200000000001");
    }
}

#[test]
fn int64_and_truncate_at_every_scale() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let _m = RoundGuard::new(RoundingMode::ToNearest);
        let max = scale.max_mantissa();
        let initial_xrp = i(100_000_000_000_000_000);
        if scale == MantissaScale::Small {
            assert!(initial_xrp.exponent() > 0);
            assert_eq!(power(i(MAX_REP), 2), n(8_507_059_173_023_462, 22));
            assert_eq!(power(nn(false, max, 0), 2), n(9_999_999_999_999_998, 16));
        } else {
            assert!(initial_xrp.exponent() <= 0);
            assert_eq!(power(i(MAX_REP), 2), n(8_507_059_173_023_461_585, 19));
            let _z = RoundGuard::new(RoundingMode::TowardsZero);
            let m = nn(false, max, 0);
            assert_eq!(m.mantissa(), (max / 10) as i64);
            assert_eq!(m.exponent(), 1);
            assert_eq!(power(m, 2), nn(false, max / 10 - 1, 20));
        }
        for (x, z) in [
            (n(25, 1), i(250)),
            (n(25, 0), i(25)),
            (n(25, -1), i(2)),
            (n(25, -2), Number::ZERO),
            (n(99, -2), Number::ZERO),
            (n(-25, 1), i(-250)),
            (n(-25, -1), i(-2)),
            (n(-99, -2), Number::ZERO),
            (n(0, 30000), Number::ZERO),
            (n(100, -30000), Number::ZERO),
            (n(-100, -30000), Number::ZERO),
        ] {
            assert_eq!(x.truncate(), z, "truncate({x}) at {scale:?}");
        }
    }
}

/// `stored - exact` of `a / b` (for a quotient with a negative exponent): its sign.
fn quotient_error(a: i64, b: i64, q: Number) -> Ordering {
    let (m, e) = (i128::from(q.mantissa()), q.exponent());
    assert!(e < 0);
    // q = m * 10^e against a / b: m * b against a * 10^-e (b > 0).
    let lhs = m * i128::from(b);
    let rhs = i128::from(a) * 10i128.pow((-e) as u32);
    lhs.cmp(&rhs)
}

#[test]
fn the_i64_max_cusp_at_every_scale() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        {
            let _m = RoundGuard::new(RoundingMode::Upward);
            let p = i(1_000_000_000_000_049_863) * i(9_223_372_036_854_315_903);
            let (m, e) = match scale {
                MantissaScale::Large320 | MantissaScale::Large330 => (MAX_REP / 10 + 1, 19),
                MantissaScale::LargeLegacy => (MAX_REP / 100 * 100, 18),
                MantissaScale::Small => (MAX_REP / 1000 + 3, 21),
            };
            assert_eq!((p.mantissa(), p.exponent()), (m, e), "{scale:?}");
        }
        let fixed = matches!(scale, MantissaScale::Large320 | MantissaScale::Large330);
        let b = 1_000_000_000_000_000_007;
        {
            let _m = RoundGuard::new(RoundingMode::Upward);
            let q = i(2) / i(b);
            let want = if fixed {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            assert_eq!(quotient_error(2, b, q), want, "2/b upward {scale:?}");
        }
        {
            let _m = RoundGuard::new(RoundingMode::Downward);
            let q = i(-2) / i(b);
            let want = if scale == MantissaScale::LargeLegacy {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            assert_eq!(quotient_error(-2, b, q), want, "-2/b downward {scale:?}");
        }
        {
            let _m = RoundGuard::new(RoundingMode::ToNearest);
            let (a, b) = (1_269_917_268_816_087_809, 3_458_525_013_821_685_511);
            let q = i(a) / i(b);
            let want = if fixed {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            assert_eq!(quotient_error(a, b, q), want, "a/b nearest {scale:?}");
        }
    }
}

#[test]
fn issued_values_round_to_sixteen_digits_in_the_current_mode() {
    let _s = ScaleGuard::new(MantissaScale::Large320);
    let x = n(1_234_567_890_123_456_789, -18);
    let mode_value = |mode| {
        let _m = RoundGuard::new(mode);
        x.to_iou().map(|v| v.mantissa())
    };
    assert_eq!(
        mode_value(RoundingMode::ToNearest),
        Some(1_234_567_890_123_457)
    );
    assert_eq!(
        mode_value(RoundingMode::Downward),
        Some(1_234_567_890_123_456)
    );
    assert_eq!(
        mode_value(RoundingMode::Upward),
        Some(1_234_567_890_123_457)
    );
    assert_eq!(x.to_st_parts(), (1_234_567_890_123_456_789, -18));
    let past = i(MAX_REP) + i(1);
    assert_eq!(past.to_st_parts(), (922_337_203_685_477_581, -17 + 18));
}

const MODES: [RoundingMode; 4] = [
    RoundingMode::ToNearest,
    RoundingMode::TowardsZero,
    RoundingMode::Downward,
    RoundingMode::Upward,
];

/// rippled's `number_cusp_rounding_with_fractional_parts`: `i64::MAX + x` and
/// `MAX_REP_UP - x` for x in {0.4 .. 2.6}, in every mode, at every scale.
#[test]
fn cusp_rounding_with_fractional_parts() {
    let tenths = [4, 5, 6, 14, 15, 16, 24, 25, 26];
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let below = i(MAX_REP);
        let above = nn(false, MAX_REP_UP, 0);
        for mode in MODES {
            let _m = RoundGuard::new(mode);
            let down = matches!(mode, RoundingMode::TowardsZero | RoundingMode::Downward);
            for t in tenths {
                let want = match scale {
                    MantissaScale::Large330 if mode == RoundingMode::ToNearest && t < 15 => below,
                    MantissaScale::Large330 if down => below,
                    MantissaScale::Large320 if mode == RoundingMode::ToNearest && t < 5 => below,
                    MantissaScale::Large320 if down && t >= 14 => below - i(7),
                    MantissaScale::Large320 if down => below,
                    MantissaScale::LargeLegacy if mode == RoundingMode::ToNearest && t < 5 => below,
                    MantissaScale::LargeLegacy if mode == RoundingMode::ToNearest && t <= 6 => {
                        below - i(7)
                    }
                    MantissaScale::LargeLegacy if down && t >= 14 => below - i(7),
                    MantissaScale::LargeLegacy if down => below,
                    MantissaScale::LargeLegacy if mode == RoundingMode::Upward && t <= 6 => {
                        below - i(7)
                    }
                    MantissaScale::Small if mode == RoundingMode::Upward => above + i(1000),
                    _ => above,
                };
                let got = below + n(t, -1);
                assert_eq!(got, want, "i64::MAX + {t}e-1 {mode:?} {scale:?}");
            }
            for t in tenths {
                let legacy = matches!(scale, MantissaScale::LargeLegacy | MantissaScale::Large320);
                let want = match scale {
                    MantissaScale::Large330 if mode == RoundingMode::ToNearest && t > 15 => below,
                    MantissaScale::Large330 if down => below,
                    _ if legacy && mode == RoundingMode::ToNearest && t >= 26 => below,
                    _ if legacy && mode == RoundingMode::TowardsZero && t >= 14 => below - i(7),
                    _ if legacy && mode == RoundingMode::Downward && t <= 16 => below - i(7),
                    _ if legacy && mode == RoundingMode::Downward => below,
                    MantissaScale::Small if mode == RoundingMode::Downward => below - i(1000),
                    MantissaScale::Small if mode == RoundingMode::Upward => below,
                    _ => above,
                };
                let got = above - n(t, -1);
                assert_eq!(got, want, "MAX_REP_UP - {t}e-1 {mode:?} {scale:?}");
            }
        }
    }
}

/// rippled's `normalization_cusp_tonearest_and_downward`: `i64::MAX + 1` made in each
/// mode.
#[test]
fn normalization_at_the_cusp() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let below = i(MAX_REP);
        let above = nn(false, MAX_REP as u64 + 3, 0);
        let made = |mode| {
            let _m = RoundGuard::new(mode);
            nn(false, MAX_REP as u64 + 1, 0)
        };
        let (up, near, down) = (
            made(RoundingMode::Upward),
            made(RoundingMode::ToNearest),
            made(RoundingMode::Downward),
        );
        match scale {
            MantissaScale::Small => {
                assert_eq!((below, up, near), (above, above, above));
                assert!(down < below);
            }
            MantissaScale::LargeLegacy | MantissaScale::Large320 => {
                assert_eq!((up, near), (above, above), "{scale:?}");
                assert!(down < below, "{scale:?}");
            }
            MantissaScale::Large330 => {
                assert_eq!(up, above);
                assert_eq!((near, down), (below, below));
            }
        }
    }
}

/// The exact value of a Number as an i128 (its exponent small enough).
fn exact(x: Number) -> i128 {
    if x.is_zero() {
        return 0;
    }
    let (mut v, mut e) = (i128::from(x.mantissa), x.exponent);
    while e > 0 {
        v *= 10;
        e -= 1;
    }
    while e < 0 {
        assert_eq!(v % 10, 0, "{x} is not an integer");
        v /= 10;
        e += 1;
    }
    if x.negative {
        -v
    } else {
        v
    }
}

/// rippled's `subtraction_rounding`: `10^(log+k) - (10^log + 1)` and `- 1`, in every
/// mode: without fixCleanup3_3_0 all but Downward round up; with it, as directed.
#[test]
fn subtraction_rounding_at_every_scale() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let log = scale.log();
        for (offset, extra) in [(2, true), (2, false)] {
            let a = n(1, log + offset);
            let b = -((if extra { n(1, log) } else { Number::ZERO }) + i(1));
            let truth = exact(a) + exact(b);
            let small_extra = scale == MantissaScale::Small && extra;
            let eps = 10i128.pow((offset - i32::from(small_extra)) as u32);
            for mode in MODES {
                let _m = RoundGuard::new(mode);
                let diff = exact(a + b) - truth;
                let up = if scale == MantissaScale::Large330 {
                    matches!(mode, RoundingMode::Upward | RoundingMode::ToNearest)
                } else {
                    mode != RoundingMode::Downward
                };
                let want = if up { 1 } else { -(eps - 1) };
                assert_eq!(diff, want, "{a} + {b} {mode:?} {scale:?}");
            }
        }
    }
}

/// rippled's `number_add_directed_sign_wrong`: with equal exponents the guard takes the
/// sign of the smaller operand (Large330), so directed rounding goes the right way.
#[test]
fn directed_addition_with_equal_exponents() {
    for scale in MantissaScale::ALL {
        let _s = ScaleGuard::new(scale);
        let log = scale.log();
        let a = n(-6, log);
        let b = a - i(3);
        let truth = exact(a) + exact(b);
        let sum = |mode| {
            let _m = RoundGuard::new(mode);
            exact(a + b)
        };
        let (down, up) = (sum(RoundingMode::Downward), sum(RoundingMode::Upward));
        if scale == MantissaScale::Large330 {
            assert!(down <= truth && up >= truth, "{down} {up} {truth}");
        } else {
            assert!(down > truth && up < truth, "{scale:?}");
        }
        for (a, b) in [
            (n(6, log), n(6, log) + i(3)),
            (n(1, log), n(-9, log) - i(3)),
            (n(-1, log), n(9, log) + i(3)),
        ] {
            let truth = exact(a) + exact(b);
            let sum = |mode| {
                let _m = RoundGuard::new(mode);
                exact(a + b)
            };
            assert!(sum(RoundingMode::Downward) <= truth, "{a} + {b} {scale:?}");
            assert!(sum(RoundingMode::Upward) >= truth, "{a} + {b} {scale:?}");
        }
    }
}

/// rippled's `number_add_to_nearest_picks_farther`: `x + y` to nearest for a large
/// negative x.
#[test]
fn addition_to_nearest_picks_the_nearer() {
    for scale in [
        MantissaScale::LargeLegacy,
        MantissaScale::Large320,
        MantissaScale::Large330,
    ] {
        let _s = ScaleGuard::new(scale);
        let _m = RoundGuard::new(RoundingMode::ToNearest);
        let x = n(-1_074_956_551_220_905_975, 28);
        for (y, q) in [
            (n(5_175_909_259_972_499_745, 22), -1_074_951_375_311_646_003),
            (i(1), -1_074_956_551_220_905_975),
            (n(1, 10), -1_074_956_551_220_905_975),
            (n(1, 20), -1_074_956_551_220_905_975),
            (n(1, 27), -1_074_956_551_220_905_975),
            (n(1, 28), -1_074_956_551_220_905_974),
            (n(1, 31), -1_074_956_551_220_904_975),
        ] {
            let r = x + y;
            assert_eq!(r, n(q, r.exponent()), "{x} + {y} at {scale:?}");
            assert_eq!(r.exponent(), 28, "{x} + {y} at {scale:?}");
        }
    }
}

/// The exact value `q * 10^e` (plus something smaller than `10^e` when `sticky`),
/// correctly rounded in `mode` to a Large330 Number: a mantissa in `[10^18, i64::MAX]`,
/// or a multiple of ten up to `10^19 - 10` (`MAX_REP_UP` the first of them).
fn oracle(negative: bool, mut q: u128, mut e: i32, sticky: bool, mode: RoundingMode) -> Number {
    const MIN: u128 = 1_000_000_000_000_000_000;
    const TOP: u128 = MIN * 10;
    let rep = i64::MAX as u128;
    let up = MAX_REP_UP as u128;
    assert!(q > 0 && (!sticky || q >= TOP));
    while q < MIN {
        q *= 10;
        e -= 1;
    }
    let mut s: u128 = 1;
    while q / s >= TOP {
        s *= 10;
        e += 1;
    }
    let (t, rest) = (q / s, q % s);
    let (lo, hi) = if t < rep {
        (t, t + 1)
    } else if t < up {
        (rep, up)
    } else {
        (t - t % 10, t - t % 10 + 10)
    };
    // The distance above `lo` in units of 1/s (plus the sticky part), against the span.
    let dist = (t - lo) * s + rest;
    let span = (hi - lo) * s;
    let is_exact = dist == 0 && !sticky;
    let away = match mode {
        RoundingMode::TowardsZero => false,
        RoundingMode::Downward => negative && !is_exact,
        RoundingMode::Upward => !negative && !is_exact,
        RoundingMode::ToNearest => match (2 * dist).cmp(&span) {
            Ordering::Less => false,
            Ordering::Greater => true,
            Ordering::Equal if sticky => true,
            Ordering::Equal => {
                let lo_digits = if lo > rep { lo / 10 } else { lo };
                lo_digits % 2 == 1 || (lo == rep && hi == up)
            }
        },
    };
    let (mut m, mut e) = (if away { hi } else { lo }, e);
    if m == TOP {
        m = MIN;
        e += 1;
    }
    Number {
        negative,
        mantissa: m as u64,
        exponent: e,
    }
}

/// The i64 extremes made into Large330 Numbers are rounded as the oracle rounds them:
/// `i64::MIN` (`i64::MAX + 1` in magnitude) to `i64::MAX`, or to `MAX_REP_UP` when
/// rounded away from zero.
#[test]
fn i64_extremes_at_large330() {
    let _s = ScaleGuard::new(MantissaScale::Large330);
    for mode in MODES {
        let _m = RoundGuard::new(mode);
        let want = oracle(true, 1u128 << 63, 0, false, mode);
        assert_eq!(i(i64::MIN), want, "{mode:?}");
        let away = mode == RoundingMode::Downward;
        let m = if away { MAX_REP_UP } else { MAX_REP as u64 };
        assert_eq!(want, Number::normalized(true, m, 0), "{mode:?}");
        for v in [i64::MIN + 1, -MAX_REP, MAX_REP] {
            let o = oracle(v < 0, u128::from(v.unsigned_abs()), 0, false, mode);
            assert_eq!(i(v), o, "{v} {mode:?}");
            assert_eq!(i(v).to_i64(), Some(v), "{v} {mode:?}");
        }
    }
}

/// `x ± y` exactly, as the oracle's `(negative, q, e, sticky)`; `None` for zero.
fn exact_sum(x: Number, y: Number) -> Option<(bool, u128, i32, bool)> {
    let (big, small) = if (x.exponent, x.mantissa) >= (y.exponent, y.mantissa) {
        (x, y)
    } else {
        (y, x)
    };
    let gap = (big.exponent - small.exponent) as u32;
    let (bm, sm) = (u128::from(big.mantissa), u128::from(small.mantissa));
    let same = big.negative == small.negative;
    if gap <= 19 {
        let b = bm * 10u128.pow(gap);
        let (neg, q) = if same {
            (big.negative, b + sm)
        } else if b >= sm {
            (big.negative, b - sm)
        } else {
            (small.negative, sm - b)
        };
        return (q != 0).then_some((neg, q, small.exponent, false));
    }
    // The smaller operand is below the bigger one's 19th digit past its own.
    let d = gap - 19;
    let (si, rem) = if d >= 39 {
        (0, sm != 0)
    } else {
        let p = 10u128.pow(d);
        (sm / p, sm % p != 0)
    };
    let b = bm * 10u128.pow(19);
    let q = match (same, rem) {
        (true, _) => b + si,
        (false, false) => b - si,
        (false, true) => b - si - 1,
    };
    Some((big.negative, q, big.exponent - 19, rem))
}

/// `x / y` exactly enough: 20 or 21 digits and whether anything remains.
fn exact_quotient(x: Number, y: Number) -> (bool, u128, i32, bool) {
    let (xm, ym) = (u128::from(x.mantissa), u128::from(y.mantissa));
    let n = xm * 10u128.pow(19);
    let (q1, r1) = (n / ym, n % ym);
    let q = q1 * 10 + r1 * 10 / ym;
    let sticky = (r1 * 10) % ym != 0;
    (
        x.negative != y.negative,
        q,
        x.exponent - y.exponent - 20,
        sticky,
    )
}

mod oracle_props {
    use super::*;
    use proptest::prelude::*;

    /// A Large330 operand: any 19-digit mantissa, or one near `i64::MAX`, `MAX_REP_UP`
    /// or the top; a modest exponent; either sign.
    fn operand() -> impl Strategy<Value = (bool, u64, i32)> {
        let rep = i64::MAX as u64;
        let mantissa = prop_oneof![
            1_000_000_000_000_000_000u64..=9_999_999_999_999_999_999,
            (rep - 40)..=(MAX_REP_UP + 40),
            9_999_999_999_999_999_900u64..=9_999_999_999_999_999_999,
            1_000_000_000_000_000_000u64..=1_000_000_000_000_000_100,
            (1u64..1_000_000).prop_map(|m| m * 1_000_000_000_000),
        ];
        (any::<bool>(), mantissa, -45i32..45)
    }

    fn mode() -> impl Strategy<Value = RoundingMode> {
        prop_oneof![
            Just(RoundingMode::ToNearest),
            Just(RoundingMode::TowardsZero),
            Just(RoundingMode::Downward),
            Just(RoundingMode::Upward),
        ]
    }

    fn make(o: (bool, u64, i32)) -> Number {
        Number::normalized(o.0, o.1, o.2)
    }

    fn expected(r: Option<(bool, u128, i32, bool)>, mode: RoundingMode) -> Number {
        match r {
            None => Number::ZERO,
            Some((neg, q, e, sticky)) => oracle(neg, q, e, sticky, mode),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn large330_is_correctly_rounded(a in operand(), b in operand(), mode in mode()) {
            let _s = ScaleGuard::new(MantissaScale::Large330);
            let _m = RoundGuard::new(mode);
            let (x, y) = (make(a), make(b));
            prop_assert_eq!(x + y, expected(exact_sum(x, y), mode), "{} + {} {:?}", x, y, mode);
            prop_assert_eq!(x - y, expected(exact_sum(x, -y), mode), "{} - {} {:?}", x, y, mode);
            let p = u128::from(x.mantissa) * u128::from(y.mantissa);
            let product = oracle(x.negative != y.negative, p, x.exponent + y.exponent, false, mode);
            prop_assert_eq!(x * y, product, "{} * {} {:?}", x, y, mode);
            let (neg, q, e, sticky) = exact_quotient(x, y);
            prop_assert_eq!(x / y, oracle(neg, q, e, sticky, mode), "{} / {} {:?}", x, y, mode);
        }

        #[test]
        fn large330_converts_to_integers_correctly_rounded(a in operand(), shift in -25i32..4, mode in mode()) {
            let _s = ScaleGuard::new(MantissaScale::Large330);
            let _m = RoundGuard::new(mode);
            let x = Number::normalized(a.0, a.1, shift - 18);
            // `operator rep()` at the thread's mode against the exact integer rounding.
            let (m, e) = (i128::from(x.mantissa), x.exponent);
            let want = if e >= 0 {
                let v = m * 10i128.pow(e as u32);
                (v <= i128::from(i64::MAX)).then_some(v)
            } else {
                // Past 10^20 the value is below 0.1: its quotient 0, its remainder < p / 2.
                let p = 10i128.pow((-e).min(20) as u32);
                let (q, r) = if -e > 20 { (0, 1) } else { (m / p, m % p) };
                let away = match mode {
                    RoundingMode::TowardsZero => false,
                    RoundingMode::Downward => x.negative && r != 0,
                    RoundingMode::Upward => !x.negative && r != 0,
                    RoundingMode::ToNearest => 2 * r > p || (2 * r == p && q % 2 == 1),
                };
                let v = q + i128::from(away);
                (v <= i128::from(i64::MAX)).then_some(v)
            };
            let want = want.map(|v| (if x.negative { -v } else { v }) as i64);
            prop_assert_eq!(x.to_i64(), want, "{} {:?}", x, mode);
        }

        #[test]
        fn large330_makes_numbers_correctly_rounded(a in operand(), extra in 0u64..1000, mode in mode()) {
            let _s = ScaleGuard::new(MantissaScale::Large330);
            let _m = RoundGuard::new(mode);
            // A 22-digit value made into a Number (`doNormalize`).
            let wide = u128::from(a.1) * 1000 + u128::from(extra);
            let got = normalize_in(a.0, wide, a.2, MantissaScale::Large330.range(), false);
            prop_assert_eq!(got, oracle(a.0, wide, a.2, false, mode), "{}e{} {:?}", wide, a.2, mode);
        }
    }
}
