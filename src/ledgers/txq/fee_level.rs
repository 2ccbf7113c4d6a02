//! Fee levels (rippled `FeeLevel64`, `toFeeLevel`, `toDrops`, `mulDiv`): what a
//! transaction pays relative to its base fee, where paying exactly the base fee is
//! [`BASE_LEVEL`]. Arithmetic is in 128 bits and saturates where rippled's `mulDiv`
//! answers "overflow" and its callers take a maximum.

/// The fee level of a transaction paying exactly its base fee (rippled `TxQ::kBaseLevel`).
pub const BASE_LEVEL: u64 = 256;

/// `value * mul / div`, or `None` when the quotient does not fit 64 bits (or `div` is 0),
/// as rippled's `mulDiv`.
pub fn mul_div(value: u64, mul: u64, div: u64) -> Option<u64> {
    if div == 0 {
        return None;
    }
    let quotient = u128::from(value) * u128::from(mul) / u128::from(div);
    u64::try_from(quotient).ok()
}

/// The fee level of `fee_drops` against `base_fee_drops` (`toFeeLevel`): saturates at
/// `u64::MAX`.
pub fn to_fee_level(fee_drops: u64, base_fee_drops: u64) -> u64 {
    mul_div(fee_drops, BASE_LEVEL, base_fee_drops).unwrap_or(u64::MAX)
}

/// The drops that `level` costs against `base_fee_drops`, rounded down (`toDrops`):
/// saturates at `i64::MAX` drops, as rippled's `XRPAmount` does.
pub fn to_drops(level: u64, base_fee_drops: u64) -> u64 {
    mul_div(level, base_fee_drops, BASE_LEVEL)
        .filter(|drops| *drops <= i64::MAX as u64)
        .unwrap_or(i64::MAX as u64)
}

/// The drops that pay at least `level` (`fee`'s `open_ledger_fee`): [`to_drops`], plus
/// one drop when rounding down would fall short of the level.
pub fn to_drops_at_least(level: u64, base_fee_drops: u64) -> u64 {
    let drops = to_drops(level, base_fee_drops);
    if base_fee_drops != 0 && to_fee_level(drops, base_fee_drops) < level {
        drops + 1
    } else {
        drops
    }
}

/// The fee level a transaction pays (rippled `getFeeLevelPaid`). When its base fee is 0
/// (a free transaction), both sides are lifted by the type's default base fee (or 1 drop)
/// so the level stays meaningful; a zero payment is level 0.
pub fn fee_level_paid(fee_drops: u64, base_fee_drops: u64, default_base_fee_drops: u64) -> u64 {
    let lift = match (base_fee_drops, default_base_fee_drops) {
        (0, 0) => 1,
        (0, default) => default,
        _ => 0,
    };
    let (base, paid) = (base_fee_drops + lift, fee_drops + lift);
    if paid == 0 || base == 0 {
        return 0;
    }
    to_fee_level(paid, base)
}

/// `level` raised by `percent` (rippled's `increase`, for a replacement's threshold):
/// saturates at `u64::MAX`.
pub fn increase(level: u64, percent: u64) -> u64 {
    mul_div(level, 100 + percent, 100).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TxQ_test `testQueue`'s open ledger fee: level 227555 at a 10-drop base costs 8889
    /// drops (8888 would be level 227532, short of it).
    #[test]
    fn open_ledger_fee_rounds_up_to_reach_the_level() {
        assert_eq!(to_drops(227_555, 10), 8888);
        assert_eq!(to_fee_level(8888, 10), 227_532);
        assert_eq!(to_drops_at_least(227_555, 10), 8889);
        assert_eq!(to_drops_at_least(256, 10), 10);
    }

    /// rippled `getFeeLevelPaid`: 10 drops at a 10-drop base is the base level; a
    /// zero-base (free) transaction is lifted by its default base.
    #[test]
    fn fee_level_paid_matches_rippled() {
        assert_eq!(fee_level_paid(10, 10, 10), BASE_LEVEL);
        assert_eq!(fee_level_paid(15, 10, 10), 384);
        assert_eq!(fee_level_paid(0, 0, 10), BASE_LEVEL);
        assert_eq!(fee_level_paid(0, 0, 0), BASE_LEVEL);
        assert_eq!(fee_level_paid(0, 10, 10), 0);
    }

    /// `mulDiv`'s overflow: the callers saturate.
    #[test]
    fn overflow_saturates() {
        assert_eq!(mul_div(u64::MAX, 2, 1), None);
        assert_eq!(mul_div(u64::MAX, 2, 2), Some(u64::MAX));
        assert_eq!(to_fee_level(u64::MAX, 1), u64::MAX);
        assert_eq!(to_drops(u64::MAX, 1_000), i64::MAX as u64);
        assert_eq!(increase(u64::MAX, 25), u64::MAX);
        assert_eq!(increase(256, 25), 320);
    }
}
