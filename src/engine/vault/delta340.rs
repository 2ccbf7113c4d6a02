//! fixCleanup3_4_0's deterministic asset delta (XLS-65.2; rippled develop
//! `clampToAssetsTotalScale`, VaultDeposit's `roundsToZeroForDepositor`, VaultWithdraw's
//! `debitIsNonZeroDust`). A deposit or withdrawal moves assets worth a whole number of
//! shares, which for an issued currency can carry digits that the vault's AssetsTotal,
//! AssetsAvailable or the holder's line cannot all keep: one side would absorb a last
//! digit the other does not. With the fix the amount moved is first put on the grid of
//! the AssetsTotal it leaves (rounded down, so the vault is never credited more than it
//! was paid nor pays more than it books), and an amount that would leave a stored
//! balance unchanged is `tecPRECISION_LOSS`. XRP and MPTs are whole units: nothing
//! changes for them.

use super::precision::asset_scale;
use super::{AssetAmount, VaultAsset};
use crate::engine::funds;
use crate::engine::loan::loan_math::{is_integral, round_to_asset, round_to_precision};
use crate::engine::ter::Ter;
use crate::ledger::view::ReadView;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::types::AccountId;

/// `clampToAssetsTotalScale`: the magnitude of `delta` (a credit when positive, a debit
/// when negative) as AssetsTotal `total` can take it: rounded down at the exponent the
/// total has once it moved (a credit through the posterior total, so the sum is on that
/// grid). Nothing left is `tecPRECISION_LOSS`.
pub fn clamp_to_total_scale(
    total: Number,
    asset: &VaultAsset,
    delta: Number,
) -> Result<Number, Ter> {
    let magnitude = delta.abs();
    if is_integral(asset) {
        return Ok(magnitude);
    }
    let post = {
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        asset_scale(asset, total + delta)
    };
    let actual = if delta.signum() < 0 {
        round_to_asset(asset, magnitude, post, RoundingMode::Downward)
    } else {
        let posterior = {
            let _g = RoundGuard::new(RoundingMode::Downward);
            total + magnitude
        };
        let rounded = round_to_asset(asset, posterior, post, RoundingMode::Downward);
        at_precision(asset, rounded - total)
    };
    if actual.signum() <= 0 {
        return Err(Ter::tecPRECISION_LOSS);
    }
    Ok(actual)
}

/// `roundsToZeroForDepositor`: taking `assets` off the depositor's stored balance (not
/// what it may spend: the balance's own exponent governs the rounding) leaves it as it
/// was. The asset's issuer creates what it deposits and is never asked.
pub fn rounds_to_zero_for_depositor(
    view: &dyn ReadView,
    account: &AccountId,
    assets: &AssetAmount,
) -> bool {
    let AssetAmount::Token(a) = assets else {
        return false;
    };
    let issue = a.issue();
    if issue.is_xrp() || issue.issuer == *account {
        return false;
    }
    let asset = VaultAsset::Token(issue);
    let held = funds::account_holds(view, account, &issue, true).to_number();
    at_precision(&asset, held - assets.number()) == at_precision(&asset, held)
}

/// `debitIsNonZeroDust`: a debit of `amount` that a stored `total` (AssetsTotal or
/// AssetsAvailable) would not notice.
pub fn debit_is_dust(asset: &VaultAsset, total: Number, amount: Number) -> bool {
    !amount.is_zero() && at_precision(asset, total - amount) == at_precision(asset, total)
}

/// `STAmount{asset, n}`: `n` at what the asset keeps, rounded to nearest.
fn at_precision(asset: &VaultAsset, n: Number) -> Number {
    let _g = RoundGuard::new(RoundingMode::ToNearest);
    round_to_precision(asset, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::types::{AccountId, Currency, Issue};

    fn usd() -> VaultAsset {
        VaultAsset::Token(Issue {
            currency: Currency([1; 20]),
            issuer: AccountId([2; 20]),
        })
    }

    #[test]
    fn a_credit_is_cut_to_the_posterior_totals_grid() {
        let total = Number::from_i64(1_000_000);
        // 10^6 + 1.5e-9 keeps nine decimals: 1e-9 is credited.
        let got = clamp_to_total_scale(total, &usd(), Number::new(15, -10));
        assert_eq!(got, Ok(Number::new(1, -9)));
        // Below the last digit nothing is left.
        let none = clamp_to_total_scale(total, &usd(), Number::new(1, -10));
        assert_eq!(none, Err(Ter::tecPRECISION_LOSS));
        // 9'999'999'999'999'999 + 2 crosses 10^16, whose last digit is a ten.
        let edge = Number::from_i64(9_999_999_999_999_999);
        let got = clamp_to_total_scale(edge, &usd(), Number::from_i64(2));
        assert_eq!(got, Ok(Number::from_i64(1)));
    }

    #[test]
    fn a_debit_is_floored_and_whole_units_pass() {
        let total = Number::from_i64(1_000_000);
        let got = clamp_to_total_scale(total, &usd(), Number::new(-15, -10));
        assert_eq!(got, Ok(Number::new(15, -10)), "on the grid already");
        let xrp = VaultAsset::Token(Issue::XRP);
        let got = clamp_to_total_scale(Number::from_i64(100), &xrp, Number::from_i64(-3));
        assert_eq!(got, Ok(Number::from_i64(3)));
    }

    #[test]
    fn dust_is_what_the_stored_total_does_not_notice() {
        let total = Number::new(2, 12);
        assert!(debit_is_dust(&usd(), total, Number::new(1, -6)));
        assert!(!debit_is_dust(&usd(), total, Number::new(1, -3)));
        assert!(!debit_is_dust(&usd(), total, Number::ZERO));
    }
}
