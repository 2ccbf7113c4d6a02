//! The loan rules LendingProtocolV1_1 brings to rippled's `ValidLoan` (`LoanInvariant.cpp`,
//! as rippled's develop branch has it) that do not depend on the transaction's type:
//!
//! - a loan created from a closed-ended vault makes its last scheduled payment
//!   (StartDate + PaymentInterval × PaymentRemaining) strictly before the vault's
//!   RedemptionDate (rippled checks this one whatever the rules: such a vault exists only
//!   under the amendment; LoanSet's preclaim already asks 60 s more);
//! - with the amendment, every loan written: no NextPaymentDueDate once no payment
//!   remains; interest due (TotalValueOutstanding less PrincipalOutstanding and
//!   ManagementFeeOutstanding) not negative (for an issued currency, by more than one
//!   unit at the loan's LoanScale); its broker and that broker's vault exist.
//!
//! Not built: the rules that name transaction types (only LoanSet creates a loan, only
//! LoanDelete deletes one, the impaired flag changes only in LoanManage or LoanPay, the
//! default flag only in LoanManage), which the pipeline would need as registry columns,
//! and ValidLoan's LendingProtocol rules, which ledgerd has never had.

use super::Violation;
use crate::engine::sandbox::{Action, Sandbox};
use crate::engine::vault::{asset_of, number_of, phase, read_vault, VaultAsset};
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};

/// Every Loan the transaction created or modified.
pub fn check(sb: &Sandbox) -> Result<(), Violation> {
    let v11 = sb.info().rules.enabled(Feature::LendingProtocolV1_1);
    for item in sb.items().values() {
        if item.action == Action::Erase || item.cur.u16_of(sf().ledger_entry_type) != Some(lt::LOAN)
        {
            continue;
        }
        let broker = broker_of(sb, &item.cur);
        let vault = broker
            .as_ref()
            .and_then(|b| b.h256_of(sf().vault_id))
            .and_then(|key| read_vault(sb, &key));
        let loan = LoanWritten {
            created: item.orig.is_none(),
            broker_exists: broker.is_some(),
            vault: vault.as_ref(),
        };
        loan.judge(&item.cur, v11)?;
    }
    Ok(())
}

/// The loan's broker, as the ledger now holds it.
fn broker_of(view: &dyn ReadView, loan: &StObject) -> Option<StObject> {
    let key = loan.h256_of(sf().loan_broker_id)?;
    view.read(&key)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::LOAN_BROKER))
        .map(|o| (*o).clone())
}

/// What the checks need to know of one written loan beside the entry.
struct LoanWritten<'a> {
    /// The transaction created it.
    created: bool,
    /// Its LoanBrokerID names a LoanBroker.
    broker_exists: bool,
    /// That broker's vault, when both exist.
    vault: Option<&'a StObject>,
}

impl LoanWritten<'_> {
    fn judge(&self, loan: &StObject, v11: bool) -> Result<(), Violation> {
        if self.created && !self.matures_before_redemption(loan) {
            return Err(Violation::BadLoan);
        }
        if !v11 {
            return Ok(());
        }
        let s = sf();
        let done = loan.u32_of(s.payment_remaining).unwrap_or(0) == 0;
        if done && loan.u32_of(s.next_payment_due_date).unwrap_or(0) != 0 {
            return Err(Violation::BadLoan);
        }
        if !self.broker_exists || self.vault.is_none() || self.interest_due_negative(loan) {
            return Err(Violation::BadLoan);
        }
        Ok(())
    }

    /// A closed-ended vault's loan ends before its RedemptionDate.
    fn matures_before_redemption(&self, loan: &StObject) -> bool {
        let Some(vault) = self.vault.filter(|v| phase::kind(v) == phase::CLOSED_ENDED) else {
            return true;
        };
        let s = sf();
        let at = |f| u64::from(loan.u32_of(f).unwrap_or(0));
        let last = at(s.start_date) + at(s.payment_interval) * at(s.payment_remaining);
        last < u64::from(vault.u32_of(s.redemption_date).unwrap_or(0))
    }

    /// TotalValueOutstanding − PrincipalOutstanding − ManagementFeeOutstanding below zero
    /// (XRP and MPT, whose amounts are whole), or below one unit at the loan's scale.
    fn interest_due_negative(&self, loan: &StObject) -> bool {
        let s = sf();
        let due = number_of(loan, s.total_value_outstanding)
            - number_of(loan, s.principal_outstanding)
            - number_of(loan, s.management_fee_outstanding);
        let integral = match self.vault.and_then(asset_of) {
            Some(VaultAsset::Token(issue)) => issue.is_xrp(),
            _ => true,
        };
        if integral {
            return due < Number::ZERO;
        }
        let scale = match loan.get(s.loan_scale) {
            Some(StValue::Int32(v)) => *v,
            _ => 0,
        };
        due < -Number::new(1, scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::types::{AccountId, Currency, Issue};

    fn number(v: Number) -> StValue {
        let mut b = v.mantissa().to_be_bytes().to_vec();
        b.extend_from_slice(&v.exponent().to_be_bytes());
        StValue::Fixed(b)
    }

    /// A loan started at 1000, `remaining` payments 100 s apart, of (TVO, PO, MFO).
    fn loan(remaining: u32, values: [i64; 3]) -> StObject {
        let s = sf();
        let mut l = StObject::new();
        l.set(s.ledger_entry_type, StValue::UInt16(lt::LOAN));
        l.set(s.start_date, StValue::UInt32(1000));
        l.set(s.payment_interval, StValue::UInt32(100));
        l.set(s.payment_remaining, StValue::UInt32(remaining));
        l.set(s.next_payment_due_date, StValue::UInt32(1100));
        for (f, v) in [
            s.total_value_outstanding,
            s.principal_outstanding,
            s.management_fee_outstanding,
        ]
        .into_iter()
        .zip(values)
        {
            l.set(f, number(Number::from_i64(v)));
        }
        l
    }

    /// A vault of `asset`, closed-ended with RedemptionDate `red` when given.
    fn vault(asset: Issue, red: Option<u32>) -> StObject {
        let s = sf();
        let mut v = StObject::new();
        v.set(s.ledger_entry_type, StValue::UInt16(lt::VAULT));
        v.set(s.asset, StValue::Issue(asset));
        if let Some(red) = red {
            v.set(s.vault_kind, StValue::UInt8(phase::CLOSED_ENDED));
            v.set(s.subscription_date, StValue::UInt32(900));
            v.set(s.redemption_date, StValue::UInt32(red));
        }
        v
    }

    fn written(vault: &StObject, created: bool) -> LoanWritten<'_> {
        LoanWritten {
            created,
            broker_exists: true,
            vault: Some(vault),
        }
    }

    #[test]
    fn a_closed_ended_vaults_new_loan_ends_before_its_redemption_date() {
        // 1000 + 3 × 100 = 1300.
        let l = loan(3, [30, 30, 0]);
        for v11 in [false, true] {
            let on_time = vault(Issue::XRP, Some(1301));
            assert_eq!(written(&on_time, true).judge(&l, v11), Ok(()));
            let at_redemption = vault(Issue::XRP, Some(1300));
            let new_loan = written(&at_redemption, true).judge(&l, v11);
            assert_eq!(new_loan, Err(Violation::BadLoan), "v11 {v11}");
            // A loan written later is not judged by its maturity.
            assert_eq!(written(&at_redemption, false).judge(&l, v11), Ok(()));
        }
        let open = vault(Issue::XRP, None);
        assert_eq!(written(&open, true).judge(&l, true), Ok(()));
    }

    #[test]
    fn with_the_amendment_a_finished_loan_has_no_next_due_date() {
        let v = vault(Issue::XRP, None);
        let mut l = loan(0, [0, 0, 0]);
        assert_eq!(written(&v, false).judge(&l, false), Ok(()));
        assert_eq!(written(&v, false).judge(&l, true), Err(Violation::BadLoan));
        l.set(sf().next_payment_due_date, StValue::UInt32(0));
        assert_eq!(written(&v, false).judge(&l, true), Ok(()));
    }

    #[test]
    fn with_the_amendment_interest_due_is_never_negative() {
        let xrp = vault(Issue::XRP, None);
        let short = loan(2, [99, 90, 10]);
        assert_eq!(written(&xrp, false).judge(&short, false), Ok(()));
        assert_eq!(
            written(&xrp, false).judge(&short, true),
            Err(Violation::BadLoan)
        );
        assert_eq!(
            written(&xrp, false).judge(&loan(2, [100, 90, 10]), true),
            Ok(())
        );
        // An issued currency tolerates one unit at the loan's scale (here 1).
        let usd = Issue {
            currency: Currency::iso(*b"USD"),
            issuer: AccountId([7; 20]),
        };
        let usd = vault(usd, None);
        assert_eq!(written(&usd, false).judge(&short, true), Ok(()));
        let shorter = loan(2, [98, 90, 10]);
        assert_eq!(
            written(&usd, false).judge(&shorter, true),
            Err(Violation::BadLoan)
        );
    }

    #[test]
    fn with_the_amendment_a_loan_needs_its_broker_and_vault() {
        let v = vault(Issue::XRP, None);
        let l = loan(2, [100, 90, 10]);
        let orphans = [
            LoanWritten {
                created: false,
                broker_exists: false,
                vault: None,
            },
            LoanWritten {
                created: false,
                broker_exists: true,
                vault: None,
            },
        ];
        for orphan in orphans {
            assert_eq!(orphan.judge(&l, false), Ok(()));
            assert_eq!(orphan.judge(&l, true), Err(Violation::BadLoan));
        }
        assert_eq!(written(&v, false).judge(&l, true), Ok(()));
    }
}
