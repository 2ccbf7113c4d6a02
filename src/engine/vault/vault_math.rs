//! Where rippled's vault share arithmetic throws, and what each vault transaction then
//! answers. A share count or an amount of assets computed as a `Number` becomes an
//! `STAmount` (`STAmount::operator=(Number)`, `fromNumber`), which throws
//! `std::overflow_error` past an i64 (`Number::operator rep()`) or for an issued exponent
//! past 80 (`IOUAmount`), and `std::runtime_error` for drops past 10^17 (`canonicalize`:
//! "Native currency amount out of range"). VaultDeposit, VaultWithdraw and VaultClawback
//! catch the overflow as `tecPATH_DRY`; nothing catches the range error, so rippled ends
//! the transaction in `tefEXCEPTION` and it is not applied.
//!
//! rippled computes these with its 19-digit `Number` (`MantissaRange::large`, in force
//! with SingleAssetVault), as ledgerd now does under the same rules. Only where a test
//! computes with 16 digits is the one 16-digit value above 2^63 - 1,
//! 9.223372036854776e18, taken as 2^63 - 1 (it cannot be told from it there).

use super::{AssetAmount, VaultAsset};
use crate::engine::ter::Ter;
use crate::protocol::amount::{Amount, DROPS_MAX};
use crate::protocol::number::{get_scale, MantissaScale, Number, RoundGuard, RoundingMode};

/// Why a Number is no amount of an asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfit {
    /// rippled throws `std::overflow_error`.
    Overflow,
    /// rippled throws `std::runtime_error` (drops past 10^17).
    Range,
    /// A negative share count: rippled's conversion helpers answer `std::nullopt`.
    Negative,
}

impl Unfit {
    /// What VaultDeposit, VaultWithdraw and VaultClawback answer: `catch
    /// (std::overflow_error)` gives `tecPATH_DRY`, an uncaught exception `tefEXCEPTION`, a
    /// helper's `nullopt` `tecINTERNAL`.
    pub fn ter(self) -> Ter {
        match self {
            Unfit::Overflow => Ter::tecPATH_DRY,
            Unfit::Range => Ter::tefEXCEPTION,
            Unfit::Negative => Ter::tecINTERNAL,
        }
    }
}

/// The 16-digit Number nearest above 2^63 - 1 (see the module note).
fn rounded_i64_max() -> Number {
    Number::new(9_223_372_036_854_776, 3)
}

/// `Number::operator rep()` rounded with `mode`: the integer, `Overflow` past an i64.
fn whole(v: Number, mode: RoundingMode) -> Result<i64, Unfit> {
    let _g = RoundGuard::new(mode);
    if let Some(d) = v.to_i64() {
        return Ok(d);
    }
    // Only 16 digits round 2^63 - 1 up past it; 19 keep it exact (and a vault's rules
    // always select 19: SingleAssetVault).
    if get_scale() == MantissaScale::Small && v.abs() <= rounded_i64_max() {
        return Ok(if v.signum() < 0 { -i64::MAX } else { i64::MAX });
    }
    Err(Unfit::Overflow)
}

/// A share count (`STAmount{share} = n`, or `n.truncate()` first when `truncate`).
pub fn shares(v: Number, truncate: bool) -> Result<u64, Unfit> {
    let mode = if truncate {
        RoundingMode::TowardsZero
    } else {
        RoundingMode::ToNearest
    };
    let units = whole(v, mode)?;
    u64::try_from(units).map_err(|_| Unfit::Negative)
}

/// An amount of `asset` (`STAmount{asset} = n`, rounded to nearest).
pub fn assets(asset: &VaultAsset, v: Number) -> Result<AssetAmount, Unfit> {
    match asset {
        VaultAsset::Token(i) if i.is_xrp() => {
            let drops = whole(v, RoundingMode::ToNearest)?;
            if drops.unsigned_abs() > DROPS_MAX {
                return Err(Unfit::Range);
            }
            Ok(AssetAmount::Token(Amount::Xrp(drops)))
        }
        VaultAsset::Token(i) => {
            let value = v.to_iou().ok_or(Unfit::Overflow)?;
            Ok(AssetAmount::Token(Amount::iou(value, i.currency, i.issuer)))
        }
        VaultAsset::Mpt(id) => {
            let units = whole(v, RoundingMode::ToNearest)?;
            let units = u64::try_from(units).map_err(|_| Unfit::Negative)?;
            Ok(AssetAmount::Mpt(*id, units))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::mpt::MptId;
    use crate::protocol::types::{AccountId, Issue};

    #[test]
    fn drops_past_ten_to_the_seventeen_are_a_range_error_and_past_an_i64_an_overflow() {
        let xrp = VaultAsset::Token(Issue::XRP);
        let ok = assets(&xrp, Number::from_i64(100_000_000_000_000_000));
        assert_eq!(
            ok,
            Ok(AssetAmount::Token(Amount::Xrp(100_000_000_000_000_000)))
        );
        // The first drops count past 10^17 that 16 digits hold.
        let past = Number::from_i64(100_000_000_000_000_100);
        assert_eq!(assets(&xrp, past), Err(Unfit::Range));
        assert_eq!(assets(&xrp, Number::from_i64(i64::MAX)), Err(Unfit::Range));
        assert_eq!(assets(&xrp, Number::new(1, 19)), Err(Unfit::Overflow));
    }

    #[test]
    fn share_counts_stop_at_an_i64() {
        assert_eq!(
            shares(Number::from_i64(i64::MAX), true),
            Ok(i64::MAX as u64)
        );
        assert_eq!(shares(Number::new(15, -1), true), Ok(1));
        assert_eq!(shares(Number::new(15, -1), false), Ok(2));
        assert_eq!(shares(Number::new(1, 19), true), Err(Unfit::Overflow));
        assert_eq!(shares(Number::from_i64(-1), true), Err(Unfit::Negative));
        let id = MptId::new(1, &AccountId::ZERO);
        assert_eq!(
            assets(&VaultAsset::Mpt(id), Number::new(1, 19)),
            Err(Unfit::Overflow)
        );
    }

    #[test]
    fn issued_values_past_the_largest_exponent_overflow() {
        let usd = VaultAsset::Token(Issue {
            currency: crate::protocol::types::Currency([1; 20]),
            issuer: AccountId([2; 20]),
        });
        assert_eq!(assets(&usd, Number::new(1, 96)), Err(Unfit::Overflow));
        assert!(assets(&usd, Number::new(1, 95)).is_ok());
    }
}
