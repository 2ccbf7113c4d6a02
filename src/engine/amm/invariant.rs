//! rippled's `ValidAMM` invariant for AMMWithdraw and AMMClawback (`finalizeWithdraw`,
//! enforced from fixAMMv1_3 on): after a successful withdrawal that leaves the AMM in
//! place, its two pool balances and LPTokenBalance are all positive or all zero, and
//! `sqrt(amount * amount2)` is at least the LPTokenBalance, or within a relative 1e-11
//! of it.

use super::{issue_of, pool_holds};
use crate::engine::sandbox::{Action, Sandbox};
use crate::engine::ter::Ter;
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::number::{root2, Number};
use crate::protocol::st::StObject;

/// False when a successful withdrawal or clawback broke the pool's invariant under
/// fixAMMv1_3 (rippled logs it and lets it pass before).
pub fn withdrawal_holds(sb: &Sandbox, tx: &StObject, ter: Ter) -> bool {
    if ter != Ter::tesSUCCESS || !sb.info().rules.enabled(Feature::FixAMMv1_3) {
        return true;
    }
    let s = sf();
    // The AMM entry as the transaction leaves it; none when it was deleted or untouched.
    let after = sb
        .items()
        .values()
        .find(|i| i.action != Action::Erase && i.cur.u16_of(s.ledger_entry_type) == Some(lt::AMM));
    let Some(amm) = after.map(|i| &i.cur) else {
        return true;
    };
    let (Some(account), Some(lpt), Some(a), Some(b)) = (
        amm.account_of(s.account),
        amm.amount_of(s.lp_token_balance),
        issue_of(tx, s.asset),
        issue_of(tx, s.asset2),
    ) else {
        return false;
    };
    let amount = pool_holds(sb, &account, &a, false);
    let amount2 = pool_holds(sb, &account, &b, false);
    balances_hold(&amount, &amount2, &lpt)
}

/// `validBalances` with zero allowed, and the strong or the weak product check.
fn balances_hold(amount: &Amount, amount2: &Amount, lpt: &Amount) -> bool {
    let positive = |x: &Amount| !x.is_zero() && !x.is_negative();
    let all_positive = positive(amount) && positive(amount2) && positive(lpt);
    let all_zero = amount.is_zero() && amount2.is_zero() && lpt.is_zero();
    if !all_positive && !all_zero {
        return false;
    }
    let mean = root2(amount.to_number() * amount2.to_number());
    let lpt_n = lpt.to_number();
    if mean >= lpt_n {
        return true;
    }
    // Within a relative 1e-11 (`withinRelativeDistance`): (max - min) / max.
    !lpt.is_zero() && (lpt_n - mean) / lpt_n < Number::new(1, -11)
}

#[cfg(test)]
mod tests {
    use super::balances_hold;
    use crate::protocol::amount::{Amount, IouValue, Rounding};
    use crate::protocol::types::{AccountId, Currency};

    fn usd(m: u128, e: i32) -> Amount {
        let v = IouValue::from_parts(m, e, false, Rounding::Nearest).expect("value");
        Amount::iou(v, Currency::iso(*b"USD"), AccountId([1; 20]))
    }

    #[test]
    fn the_product_mean_must_cover_the_lp_tokens_within_1e_11() {
        // sqrt(4 * 9) = 6.
        assert!(balances_hold(&usd(4, 0), &usd(9, 0), &usd(6, 0)));
        assert!(balances_hold(&usd(4, 0), &usd(9, 0), &usd(5, 0)));
        // 6.00000000001 is 1.7e-12 above: the weak check passes; 6.0000000001 fails it.
        assert!(balances_hold(
            &usd(4, 0),
            &usd(9, 0),
            &usd(600000000001, -11)
        ));
        assert!(!balances_hold(
            &usd(4, 0),
            &usd(9, 0),
            &usd(60000000001, -10)
        ));
        // All zero is the last withdrawal; a zero side with tokens left is not.
        let zero = usd(0, 0);
        assert!(balances_hold(&zero, &zero, &zero));
        assert!(!balances_hold(&zero, &usd(9, 0), &usd(6, 0)));
        assert!(!balances_hold(&usd(4, 0), &usd(9, 0), &zero));
    }
}
