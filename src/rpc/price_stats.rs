//! The statistics of `get_aggregate_price` (rippled `GetAggregatePrice.cpp`), in rippled's
//! arithmetic so its digits come out the same: prices are issued amounts (`STAmount` with
//! `noIssue()`), sums go through `Number` and back, the mean is STAmount `divide`, the
//! standard deviation stays a `Number` (`root2`) and is printed with `to_string(Number)`.

use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::amount_math::{divide, no_issue};
use crate::protocol::number::{root2, Number};
use serde_json::{Map, Value};

/// One oracle's price of the pair and when it was set (LastUpdateTime).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Price {
    /// LastUpdateTime, Unix seconds.
    pub time: u32,
    /// The price.
    pub value: IouValue,
}

/// `STAmount{noIssue(), price, -scale}`: AssetPrice scaled down by 10^Scale.
pub fn price_value(price: u64, scale: u8) -> IouValue {
    let exponent = -i32::from(scale);
    match i64::try_from(price) {
        Ok(p) => Number::new(p, exponent).to_iou(),
        Err(_) => IouValue::from_parts(
            u128::from(price),
            exponent,
            false,
            crate::protocol::amount::Rounding::Nearest,
        )
        .ok(),
    }
    .unwrap_or(IouValue::ZERO)
}

/// STAmount `+` for issued amounts: through `Number`.
fn add(a: &IouValue, b: &IouValue) -> IouValue {
    (Number::from_iou(a) + Number::from_iou(b))
        .to_iou()
        .unwrap_or(IouValue::ZERO)
}

/// STAmount `divide(a, STAmount{noIssue(), n, 0}, noIssue())`.
fn divide_by(a: &IouValue, n: u64) -> IouValue {
    let issue = no_issue();
    let as_amount = |v: IouValue| Amount::iou(v, issue.currency, issue.issuer);
    let n = IouValue::from_i64(i64::try_from(n).unwrap_or(i64::MAX));
    match divide(&as_amount(*a), &as_amount(n), &issue) {
        Ok(Amount::Iou { value, .. }) => value,
        _ => IouValue::ZERO,
    }
}

/// Mean, standard deviation (sample, n - 1) and size of `sorted` (`getStats`).
fn stats(prices: &[IouValue]) -> (IouValue, Number, usize) {
    let size = prices.len();
    let sum = prices.iter().fold(IouValue::ZERO, |acc, p| add(&acc, p));
    let mean = divide_by(&sum, size as u64);
    let mut sd = Number::ZERO;
    if size > 1 {
        let squares = prices.iter().fold(Number::ZERO, |acc, p| {
            let d = Number::from_iou(&add(p, &mean.negate()));
            acc + d * d
        });
        sd = root2(squares / Number::from_i64(size as i64 - 1));
    }
    (mean, sd, size)
}

fn set_json(prices: &[IouValue]) -> Value {
    let (mean, sd, size) = stats(prices);
    let mut o = Map::new();
    o.insert("mean".into(), Value::from(mean.to_text()));
    o.insert("size".into(), Value::from(size));
    o.insert("standard_deviation".into(), Value::from(sd.to_string()));
    Value::Object(o)
}

/// The median of prices sorted ascending: the middle one, or the two middle ones'
/// sum divided by two.
fn median(sorted: &[IouValue]) -> IouValue {
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        divide_by(&add(&sorted[mid - 1], &sorted[mid]), 2)
    } else {
        sorted[mid]
    }
}

/// Drops the prices older than `threshold` seconds before the latest (none when
/// `threshold` is 0 or reaches before the oldest); returns the latest time.
fn keep_recent(prices: &mut Vec<Price>, threshold: u32) -> u32 {
    let latest = prices.iter().map(|p| p.time).max().unwrap_or(0);
    let oldest = prices.iter().map(|p| p.time).min().unwrap_or(0);
    if threshold != 0 {
        let bound = if latest > threshold {
            latest - threshold
        } else {
            oldest
        };
        if bound > oldest {
            prices.retain(|p| p.time >= bound);
        }
    }
    latest
}

/// The result fields: `time`, `entire_set`, `median`, and `trimmed_set` when `trim`
/// (a percentage) is not 0. `prices` must not be empty.
pub fn aggregate(mut prices: Vec<Price>, trim: u32, threshold: u32) -> Map<String, Value> {
    let latest = keep_recent(&mut prices, threshold);
    let mut sorted: Vec<IouValue> = prices.iter().map(|p| p.value).collect();
    sorted.sort();
    let mut r = Map::new();
    r.insert("time".into(), Value::from(latest));
    r.insert("entire_set".into(), set_json(&sorted));
    r.insert("median".into(), Value::from(median(&sorted).to_text()));
    if trim != 0 {
        let cut = sorted.len() * trim as usize / 100;
        r.insert(
            "trimmed_set".into(),
            set_json(&sorted[cut..sorted.len() - cut]),
        );
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::number::{MantissaScale, ScaleGuard};

    fn p(time: u32, price: u64, scale: u8) -> Price {
        Price {
            time,
            value: price_value(price, scale),
        }
    }

    #[test]
    fn prices_scale_down() {
        assert_eq!(price_value(740, 1).to_text(), "74");
        assert_eq!(price_value(741, 2).to_text(), "7.41");
        assert_eq!(price_value(0, 3).to_text(), "0");
        // The largest AssetPrice keeps 16 digits, in getText's exponent form.
        assert_eq!(price_value(u64::MAX, 3).to_text(), "1844674407370955e1");
    }

    #[test]
    fn one_price_has_zero_deviation() {
        let r = aggregate(vec![p(10, 740, 1)], 0, 0);
        assert_eq!(r["entire_set"]["mean"], "74");
        assert_eq!(r["entire_set"]["size"], 1);
        assert_eq!(r["entire_set"]["standard_deviation"], "0");
        assert_eq!(r["median"], "74");
        assert_eq!(r["time"], 10);
        assert!(r.get("trimmed_set").is_none());
    }

    #[test]
    fn an_even_count_takes_the_middle_two() {
        let r = aggregate(vec![p(1, 1, 0), p(2, 2, 0), p(3, 3, 0), p(4, 10, 0)], 0, 0);
        assert_eq!(r["median"], "2.5");
        assert_eq!(r["entire_set"]["mean"], "4");
        assert_eq!(r["time"], 4);
    }

    #[test]
    fn the_threshold_drops_older_prices() {
        let prices = vec![p(100, 1, 0), p(150, 2, 0), p(200, 3, 0)];
        let r = aggregate(prices.clone(), 0, 60);
        assert_eq!(r["entire_set"]["size"], 2);
        assert_eq!(r["entire_set"]["mean"], "2.5");
        // A threshold reaching before the oldest keeps everything.
        let r = aggregate(prices, 0, 500);
        assert_eq!(r["entire_set"]["size"], 3);
    }

    /// rippled's GetAggregatePrice_test (`testRpc`), with 2.x's 16-digit `Number`
    /// (the test's "Short" values); rippled 3.x computes RPCs at its thread's default,
    /// the 19-digit scale: [`ten_oracles_at_the_large_scale`].
    #[test]
    fn rippleds_ten_oracles() {
        let _s = ScaleGuard::new(MantissaScale::Small);
        let prices: Vec<Price> = (0..10).map(|i| p(900 + i, 740 + u64::from(i), 1)).collect();
        let r = aggregate(prices.clone(), 20, 100);
        assert_eq!(r["entire_set"]["mean"], "74.45");
        assert_eq!(r["entire_set"]["size"], 10);
        assert_eq!(r["entire_set"]["standard_deviation"], "0.3027650354097492");
        assert_eq!(r["median"], "74.45");
        assert_eq!(r["trimmed_set"]["mean"], "74.45");
        assert_eq!(r["trimmed_set"]["size"], 6);
        assert_eq!(r["trimmed_set"]["standard_deviation"], "0.187082869338697");
        // The seven left when three oracles' prices are too old to find.
        let r = aggregate(prices[3..].to_vec(), 20, 200);
        assert_eq!(r["entire_set"]["mean"], "74.6");
        assert_eq!(r["entire_set"]["size"], 7);
        assert_eq!(r["entire_set"]["standard_deviation"], "0.2160246899469287");
        assert_eq!(r["median"], "74.6");
        assert_eq!(r["trimmed_set"]["size"], 5);
        assert_eq!(r["trimmed_set"]["mean"], "74.6");
        assert_eq!(r["trimmed_set"]["standard_deviation"], "0.158113883008419");
    }

    /// The same oracles with rippled 3.x's default 19-digit `Number`: the standard
    /// deviation keeps 19 digits.
    #[test]
    fn ten_oracles_at_the_large_scale() {
        let _s = ScaleGuard::new(MantissaScale::Large330);
        let prices: Vec<Price> = (0..10).map(|i| p(900 + i, 740 + u64::from(i), 1)).collect();
        let r = aggregate(prices, 20, 100);
        assert_eq!(r["entire_set"]["mean"], "74.45");
        assert_eq!(
            r["entire_set"]["standard_deviation"],
            "0.3027650354097491666"
        );
    }
}
