//! rippled's `ValidAMM` invariant for AMMWithdraw and AMMClawback (`finalizeWithdraw`,
//! enforced from fixAMMv1_3 on): after a successful withdrawal that leaves the AMM in
//! place, its two pool balances and LPTokenBalance are all positive or all zero, and
//! `sqrt(amount * amount2)` is at least the LPTokenBalance, or within a relative 1e-11
//! of it.

use super::{issue_of, pool_holds};
use crate::engine::sandbox::{Action, Sandbox};
use crate::engine::ter::Ter;
use crate::engine::tx_type::TxType;
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::number::{root2, Number};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Issue};

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

/// rippled `ValidAMM`'s deletion checks, enforced from fixCleanup3_3_0 on
/// (`enforceAMMDelete`; before, rippled logs nothing and lets everything pass): only
/// AMMWithdraw, AMMClawback and AMMDelete delete an AMM entry; a successful AMMDelete
/// deletes one, and only with a zero LPTokenBalance; one ending `tecINCOMPLETE` deletes
/// none (other failures are not judged).
pub fn deletion_holds(sb: &Sandbox, tx: &StObject, ter: Ter) -> bool {
    if !sb.info().rules.enabled(Feature::FixCleanup3_3_0) {
        return true;
    }
    let s = sf();
    let deleted = sb
        .items()
        .values()
        .filter(|i| i.action == Action::Erase && i.cur.u16_of(s.ledger_entry_type) == Some(lt::AMM))
        .map(|i| i.cur.amount_of(s.lp_token_balance))
        .next();
    let kind = tx.u16_of(s.transaction_type).and_then(TxType::from_code);
    deletion_fits(kind, ter, deleted)
}

/// [`deletion_holds`] for a transaction of `kind` ending with `ter` that deleted an AMM
/// entry with the LPTokenBalance `deleted` (`None`: deleted none; `Some(None)`: one
/// without the field).
fn deletion_fits(kind: Option<TxType>, ter: Ter, deleted: Option<Option<Amount>>) -> bool {
    // `ValidAMM::finalize` judges only a success or AMMDelete's tecINCOMPLETE.
    if ter != Ter::tesSUCCESS && ter != Ter::tecINCOMPLETE {
        return true;
    }
    match kind {
        Some(TxType::AMMWithdraw | TxType::AMMClawback) => true,
        Some(TxType::AMMDelete) => match deleted {
            None => ter != Ter::tesSUCCESS,
            Some(lpt) => ter == Ter::tesSUCCESS && lpt.is_some_and(|l| l.is_zero()),
        },
        _ => deleted.is_none(),
    }
}

/// rippled's `checkAMMPrecisionLoss` in the transaction itself (fixCleanup3_3_0 with
/// fixAMMv1_3, after AMMDeposit, AMMWithdraw and AMMClawback moved the assets): the
/// pool's product mean must cover `lp_balance`, the LPTokenBalance the transaction
/// leaves, as the invariant asks, or it is `tecPRECISION_LOSS` (before the fix the
/// invariant alone catches it, as `tecINVARIANT_FAILED`).
pub fn precision_loss(
    sb: &Sandbox,
    pool: &AccountId,
    (a, b): (&Issue, &Issue),
    lp_balance: &Amount,
) -> Result<(), Ter> {
    let rules = sb.info().rules;
    if !rules.enabled(Feature::FixCleanup3_3_0) || !rules.enabled(Feature::FixAMMv1_3) {
        return Ok(());
    }
    if lp_balance.is_zero() || lp_balance.is_negative() {
        return Ok(());
    }
    let amount = pool_holds(sb, pool, a, false);
    let amount2 = pool_holds(sb, pool, b, false);
    if mean_covers(&amount, &amount2, lp_balance) {
        Ok(())
    } else {
        Err(Ter::tecPRECISION_LOSS)
    }
}

/// `validBalances` with zero allowed, and the strong or the weak product check.
fn balances_hold(amount: &Amount, amount2: &Amount, lpt: &Amount) -> bool {
    let positive = |x: &Amount| !x.is_zero() && !x.is_negative();
    let all_positive = positive(amount) && positive(amount2) && positive(lpt);
    let all_zero = amount.is_zero() && amount2.is_zero() && lpt.is_zero();
    if !all_positive && !all_zero {
        return false;
    }
    mean_covers(amount, amount2, lpt)
}

/// `sqrt(amount * amount2)` at least `lpt`, or within a relative 1e-11 below it.
fn mean_covers(amount: &Amount, amount2: &Amount, lpt: &Amount) -> bool {
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

    /// rippled's InvariantsAMM_test `testAMMDeleteInvariants` (with the fix): which
    /// type may delete an AMM entry, with which result and LPTokenBalance.
    #[test]
    fn only_the_amm_types_delete_an_amm_entry() {
        use super::deletion_fits;
        use crate::engine::ter::Ter;
        use crate::engine::tx_type::TxType;
        let ok = Ter::tesSUCCESS;
        let (zero, one) = (Some(Some(usd(0, 0))), Some(Some(usd(1, 0))));
        // (type, result, the deleted entry's LPTokenBalance, holds)
        let cases = [
            (TxType::Payment, ok, one, false),
            (TxType::Payment, ok, None, true),
            (TxType::OfferCreate, ok, zero, false),
            (TxType::AMMDeposit, ok, zero, false),
            (TxType::AMMDelete, ok, None, false),
            (TxType::AMMDelete, ok, one, false),
            (TxType::AMMDelete, ok, Some(None), false),
            (TxType::AMMDelete, Ter::tecINCOMPLETE, zero, false),
            (TxType::AMMDelete, Ter::tecINCOMPLETE, None, true),
            (TxType::AMMDelete, Ter::tecAMM_NOT_EMPTY, zero, true),
            (TxType::Payment, Ter::tecPATH_DRY, one, true),
            (TxType::AMMWithdraw, ok, one, true),
            (TxType::AMMClawback, ok, one, true),
            (TxType::AMMDelete, ok, zero, true),
            (TxType::AMMWithdraw, ok, zero, true),
            (TxType::AMMClawback, ok, zero, true),
        ];
        for (kind, ter, deleted, holds) in cases {
            let got = deletion_fits(Some(kind), ter, deleted);
            assert_eq!(got, holds, "{kind:?} {ter} {deleted:?}");
        }
        assert!(!deletion_fits(None, ok, one));
    }

    /// The gate: a Payment that deletes an AMM entry fails the invariant only under
    /// fixCleanup3_3_0 (InvariantsAMM_test runs `all` and `all - fixCleanup3_3_0`).
    #[test]
    fn an_amm_deleted_by_a_payment_fails_only_with_fix_cleanup_3_3_0() {
        use super::deletion_holds;
        use crate::engine::entry::new_entry;
        use crate::engine::sandbox::Sandbox;
        use crate::engine::ter::Ter;
        use crate::engine::tx_type::TxType;
        use crate::ledger::flags::lt;
        use crate::ledger::rules::Rules;
        use crate::ledger::sf::sf;
        use crate::ledger::state::{stamp, State};
        use crate::ledger::view::{StateView, ViewInfo};
        use crate::protocol::features::Feature;
        use crate::protocol::st::{StObject, StValue};
        use crate::protocol::types::Hash256;
        use std::sync::Arc;
        for on in [false, true] {
            let info = ViewInfo::open_test(Rules::default_with(Feature::FixCleanup3_3_0, on));
            let v = StateView::new(Arc::new(State::new()), stamp(1, 0), info);
            let key = Hash256([7; 32]);
            let mut amm = new_entry(lt::AMM);
            amm.set(sf().lp_token_balance, StValue::Amount(usd(1, 0)));
            let mut ledger = Sandbox::new(&v);
            ledger.insert(key, amm);
            let tx = |t: TxType| {
                let mut o = StObject::new();
                o.set(sf().transaction_type, StValue::UInt16(t as u16));
                o
            };
            let untouched = Sandbox::new(&ledger);
            assert!(deletion_holds(
                &untouched,
                &tx(TxType::Payment),
                Ter::tesSUCCESS
            ));
            // A successful AMMDelete that deleted nothing.
            let want = !on;
            let got = deletion_holds(&untouched, &tx(TxType::AMMDelete), Ter::tesSUCCESS);
            assert_eq!(got, want, "AMMDelete, fix {on}");
            let mut sb = Sandbox::new(&ledger);
            sb.erase(key);
            let got = deletion_holds(&sb, &tx(TxType::Payment), Ter::tesSUCCESS);
            assert_eq!(got, want, "Payment, fix {on}");
            assert!(deletion_holds(
                &sb,
                &tx(TxType::AMMWithdraw),
                Ter::tesSUCCESS
            ));
        }
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
