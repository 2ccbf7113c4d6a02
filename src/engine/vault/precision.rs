//! fixCleanup3_2_0's precision guards for issued-currency vaults (rippled
//! `VaultDeposit.cpp`: `roundToVaultScale` and the depositor's trust-line scale check).
//! An issued value keeps 16 digits, so a deposit far below the last digit of the vault's
//! AssetsTotal, or of the depositor's balance, would be absorbed by one side of the
//! transfer and not the other. XRP and MPTs are whole units and pass unchanged.

use super::{AssetAmount, VaultAsset};
use crate::engine::funds;
use crate::engine::loan::loan_math::{is_integral, round_to_asset};
use crate::engine::ripple::limit_for;
use crate::ledger::keylet;
use crate::ledger::view::ReadView;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::types::{AccountId, Issue};

/// The exponent rippled gives a zero issued amount.
const ZERO_SCALE: i32 = -100;

/// `scale(n, asset)`: the exponent of `STAmount{asset, n}` (rounded to nearest): 0 for
/// XRP and MPTs, the 16-digit exponent of an issued value, -100 for zero.
pub fn asset_scale(asset: &VaultAsset, n: Number) -> i32 {
    if is_integral(asset) {
        return 0;
    }
    let _g = RoundGuard::new(RoundingMode::ToNearest);
    match n.to_iou() {
        Some(v) if !v.is_zero() => v.exponent(),
        Some(_) => ZERO_SCALE,
        None => i32::MAX,
    }
}

/// `STAmount::isZeroAtScale`: the amount rounds (to nearest) to zero at `10^scale`.
pub fn is_zero_at_scale(asset: &VaultAsset, n: Number, scale: i32) -> bool {
    !is_integral(asset) && round_to_asset(asset, n, scale, RoundingMode::ToNearest).is_zero()
}

/// `roundToVaultScale`: an issued `amount` rounded down to the exponent the vault's
/// AssetsTotal will have once it is added.
pub fn round_to_vault_scale(total: Number, amount: &AssetAmount) -> AssetAmount {
    let asset = amount.asset();
    if is_integral(&asset) {
        return *amount;
    }
    let post = {
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        asset_scale(&asset, total + amount.number())
    };
    let rounded = round_to_asset(&asset, amount.number(), post, RoundingMode::Downward);
    super::to_asset(&asset, rounded).unwrap_or(*amount)
}

/// The scale of what `account` may spend of `issue` ([`spendable`]).
pub fn spendable_scale(view: &dyn ReadView, account: &AccountId, issue: &Issue) -> i32 {
    asset_scale(&VaultAsset::Token(*issue), spendable(view, account, issue))
}

/// What `account` may spend of the issued currency `issue` (`accountHolds` with
/// `FreezeHandling::ZeroIfFrozen` and `SpendableHandling::FullBalance`): its balance
/// plus the issuer's limit toward it, nothing when frozen. It may take the account's
/// balance below zero.
pub fn spendable(view: &dyn ReadView, account: &AccountId, issue: &Issue) -> Number {
    let held = funds::account_holds(view, account, issue, true).to_number();
    let frozen = funds::frozen_issue(view, account, issue)
        || funds::deep_frozen(view, account, &issue.issuer, &issue.currency);
    let opposite = match view.read(&keylet::line(account, &issue.issuer, &issue.currency)) {
        Some(line) if !frozen => Number::from_iou(&limit_for(&line, &issue.issuer, account)),
        _ => Number::ZERO,
    };
    held + opposite
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::amount::{Amount, IouValue, Rounding};
    use crate::protocol::types::Currency;

    fn usd() -> Issue {
        Issue {
            currency: Currency([1; 20]),
            issuer: AccountId([2; 20]),
        }
    }

    fn iou(m: i64, e: i32) -> AssetAmount {
        let i = usd();
        let v = IouValue::from_parts(m.unsigned_abs().into(), e, m < 0, Rounding::Nearest);
        AssetAmount::Token(Amount::iou(v.unwrap(), i.currency, i.issuer))
    }

    #[test]
    fn a_deposit_is_rounded_down_to_the_new_totals_last_digit() {
        let total = Number::from_i64(1_000_000);
        // 10^6 + 1.5e-9 keeps nine decimals: 1.5e-9 becomes 1e-9.
        let r = round_to_vault_scale(total, &iou(15, -10));
        assert_eq!(r.number(), Number::new(1, -9));
        // Below the last digit it is nothing.
        assert!(round_to_vault_scale(total, &iou(1, -10)).is_zero());
        // An empty vault keeps the amount.
        assert_eq!(
            round_to_vault_scale(Number::ZERO, &iou(1, -10)).number(),
            Number::new(1, -10)
        );
        let xrp = AssetAmount::Token(Amount::Xrp(5));
        assert_eq!(round_to_vault_scale(total, &xrp), xrp);
    }

    #[test]
    fn scales_and_zero_at_scale() {
        let a = VaultAsset::Token(usd());
        assert_eq!(asset_scale(&a, Number::from_i64(1_000_000)), -9);
        assert_eq!(asset_scale(&a, Number::ZERO), -100);
        assert_eq!(
            asset_scale(&VaultAsset::Token(Issue::XRP), Number::new(1, 3)),
            0
        );
        assert!(is_zero_at_scale(&a, Number::new(1, -10), -9));
        assert!(!is_zero_at_scale(&a, Number::new(6, -10), -9));
        assert!(!is_zero_at_scale(&a, Number::new(1, -10), -100));
    }
}
