//! What the Loan transaction types share (rippled's Loan transactors, LendingProtocol /
//! XLS-66): the Loan entry named by a transaction, its broker and vault, the entry's
//! moving values as a [`LoanBook`] and its fixed terms as [`LoanTerms`], and the
//! defaults and bounds of `LoanSet.h`.

pub mod broker;
pub mod loan_broker_cover_clawback;
pub mod loan_broker_cover_deposit;
pub mod loan_broker_cover_withdraw;
pub mod loan_broker_delete;
pub mod loan_broker_set;
pub mod loan_delete;
pub mod loan_manage;
pub mod loan_math;
pub mod loan_pay;
pub mod loan_set;
pub mod repayment;

use self::broker::Broker;
use self::repayment::{LoanBook, LoanTerms};
use super::ter::Ter;
use super::vault::{number_of, read_vault, set_number, VaultAsset};
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lt;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::Hash256;

/// checkExtraFeatures of every LoanBroker and Loan type
/// (`checkLendingProtocolDependencies`): a vault (SingleAssetVault) as VaultCreate needs it
/// (its shares, MPTokensV1; a `DomainID`, PermissionedDomains).
pub fn lending_dependencies(tx: &StObject, rules: &Rules) -> bool {
    rules.enabled(Feature::SingleAssetVault) && super::vault::shares_and_domain_allowed(tx, rules)
}

/// `LoanSet::defaultPaymentTotal`.
pub const DEFAULT_PAYMENT_TOTAL: u32 = 1;
/// `LoanSet::minPaymentInterval` (seconds).
pub const MIN_PAYMENT_INTERVAL: u32 = 60;
/// `LoanSet::defaultPaymentInterval`.
pub const DEFAULT_PAYMENT_INTERVAL: u32 = 60;
/// `LoanSet::defaultGracePeriod`.
pub const DEFAULT_GRACE_PERIOD: u32 = 60;
/// `maxInterestRate` and the other rate bounds: 100% in 1/10 bips.
pub const RATE_MAX: u32 = 100_000;

/// `lsfLoanDefault`.
pub const LSF_LOAN_DEFAULT: u32 = 0x0001_0000;
/// `lsfLoanImpaired`.
pub const LSF_LOAN_IMPAIRED: u32 = 0x0002_0000;
/// `lsfLoanOverpayment`.
pub const LSF_LOAN_OVERPAYMENT: u32 = 0x0004_0000;

/// LoanID, when present and non-zero.
pub fn loan_id(tx: &StObject) -> Option<Hash256> {
    tx.h256_of(sf().loan_id).filter(|h| *h != Hash256::ZERO)
}

/// What the preflights of LoanPay, LoanManage and LoanDelete begin with: no flags but the
/// universal ones and `allowed` (`temINVALID_FLAG`), a non-zero LoanID (`temINVALID`).
pub fn preflight_loan(tx: &StObject, allowed: u32) -> Ter {
    if tx.flags() & super::transactor::TF_UNIVERSAL_MASK & !allowed != 0 {
        return Ter::temINVALID_FLAG;
    }
    if loan_id(tx).is_none() {
        return Ter::temINVALID;
    }
    Ter::tesSUCCESS
}

/// At most one of the mutually exclusive `flags` is set.
pub fn at_most_one(tx: &StObject, flags: u32) -> bool {
    (tx.flags() & flags).count_ones() <= 1
}

/// The Loan entry at `key`, if that key holds one.
pub fn read_loan(view: &dyn ReadView, key: &Hash256) -> Option<StObject> {
    view.read(key)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::LOAN))
        .map(|o| (*o).clone())
}

/// A loan with its broker and vault, as the Loan types read them.
pub struct Loan {
    /// The entry's key.
    pub key: Hash256,
    /// The Loan entry.
    pub entry: StObject,
    /// Its broker.
    pub broker: Broker,
    /// The broker's vault's key.
    pub vault_key: Hash256,
    /// The vault.
    pub vault: StObject,
}

impl Loan {
    /// The loan the transaction's LoanID names: `tecNO_ENTRY` when there is none,
    /// `tefBAD_LEDGER` when its broker or vault is missing.
    pub fn named(view: &dyn ReadView, tx: &StObject) -> Result<Loan, Ter> {
        let key = loan_id(tx).ok_or(Ter::tecNO_ENTRY)?;
        let entry = read_loan(view, &key).ok_or(Ter::tecNO_ENTRY)?;
        let broker_key = entry
            .h256_of(sf().loan_broker_id)
            .ok_or(Ter::tefBAD_LEDGER)?;
        let broker = Broker::at(view, broker_key).map_err(|_| Ter::tefBAD_LEDGER)?;
        let vault_key = broker
            .entry
            .h256_of(sf().vault_id)
            .ok_or(Ter::tefBAD_LEDGER)?;
        let vault = read_vault(view, &vault_key).ok_or(Ter::tefBAD_LEDGER)?;
        Ok(Loan {
            key,
            entry,
            broker,
            vault_key,
            vault,
        })
    }

    /// [`Loan::named`] as LoanManage and LoanDelete preclaim it: no loan is
    /// `tecNO_ENTRY`, a missing broker or vault `tecINTERNAL`.
    pub fn for_preclaim(view: &dyn ReadView, tx: &StObject) -> Result<Loan, Ter> {
        Loan::named(view, tx).map_err(|t| match t {
            Ter::tecNO_ENTRY => Ter::tecNO_ENTRY,
            _ => Ter::tecINTERNAL,
        })
    }

    /// The vault's asset.
    pub fn asset(&self) -> VaultAsset {
        self.broker.asset
    }

    /// The entry's moving values.
    pub fn book(&self) -> LoanBook {
        book_of(&self.entry)
    }

    /// The entry's fixed terms, with the broker's management fee rate.
    pub fn terms(&self) -> LoanTerms {
        terms_of(
            &self.entry,
            u32::from(
                self.broker
                    .entry
                    .u16_of(sf().management_fee_rate)
                    .unwrap_or(0),
            ),
        )
    }

    /// The vault's scale (`getVaultScale`: AssetsTotal's exponent).
    pub fn vault_scale(&self) -> i32 {
        vault_scale(&self.vault)
    }
}

/// `getVaultScale`: the exponent of the vault's AssetsTotal.
pub fn vault_scale(vault: &StObject) -> i32 {
    number_of(vault, sf().assets_total).exponent()
}

/// The Loan entry's moving values.
pub fn book_of(e: &StObject) -> LoanBook {
    let s = sf();
    LoanBook {
        total: number_of(e, s.total_value_outstanding),
        principal: number_of(e, s.principal_outstanding),
        fee: number_of(e, s.management_fee_outstanding),
        remaining: e.u32_of(s.payment_remaining).unwrap_or(0),
        previous: e.u32_of(s.previous_payment_due_date).unwrap_or(0),
        next: e.u32_of(s.next_payment_due_date).unwrap_or(0),
        periodic: number_of(e, s.periodic_payment),
    }
}

/// The Loan entry's fixed terms.
pub fn terms_of(e: &StObject, fee_rate: u32) -> LoanTerms {
    let s = sf();
    let rate = |f| e.u32_of(f).unwrap_or(0);
    LoanTerms {
        scale: match e.get(s.loan_scale) {
            Some(StValue::Int32(v)) => *v,
            _ => 0,
        },
        interest_rate: rate(s.interest_rate),
        late_interest_rate: rate(s.late_interest_rate),
        close_interest_rate: rate(s.close_interest_rate),
        overpayment_interest_rate: rate(s.overpayment_interest_rate),
        overpayment_fee: rate(s.overpayment_fee),
        service_fee: number_of(e, s.loan_service_fee),
        late_fee: number_of(e, s.late_payment_fee),
        close_fee: number_of(e, s.close_payment_fee),
        interval: rate(s.payment_interval),
        start: rate(s.start_date),
        overpayment_allowed: e.is_flag(LSF_LOAN_OVERPAYMENT),
        fee_rate,
    }
}

/// Writes an STNumber field of a default-valued kind: zero removes it.
pub fn put_number(o: &mut StObject, f: Field, v: Number) {
    if v.is_zero() {
        o.remove(f);
    } else {
        set_number(o, f, v);
    }
}

/// Writes a UInt32 field of a default-valued kind: zero removes it.
pub fn put_u32(o: &mut StObject, f: Field, v: u32) {
    if v == 0 {
        o.remove(f);
    } else {
        o.set(f, StValue::UInt32(v));
    }
}

/// Writes the moving values back into the entry (zeros leave, as rippled's default
/// fields do; PeriodicPayment is required and stays).
pub fn write_book(e: &mut StObject, b: &LoanBook) {
    let s = sf();
    put_number(e, s.total_value_outstanding, b.total);
    put_number(e, s.principal_outstanding, b.principal);
    put_number(e, s.management_fee_outstanding, b.fee);
    put_u32(e, s.payment_remaining, b.remaining);
    put_u32(e, s.previous_payment_due_date, b.previous);
    put_u32(e, s.next_payment_due_date, b.next);
    set_number(e, s.periodic_payment, b.periodic);
}

/// `owedToVault`: what the vault is owed (TotalValueOutstanding less the broker's
/// ManagementFeeOutstanding).
pub fn owed_to_vault(e: &StObject) -> Number {
    let s = sf();
    number_of(e, s.total_value_outstanding) - number_of(e, s.management_fee_outstanding)
}

/// `loanVaultExposure`: what a loan puts at stake for its vault, the amount an impairment
/// books as unrealized loss and a default writes off. A cash-basis vault (LEVersion 1,
/// LendingProtocolV1_1) has lent only the principal still outstanding; an accrual vault
/// counts the interest it booked at origination too ([`owed_to_vault`]). The vault's
/// version decides, never the rules: a vault created before the amendment keeps accruing.
pub fn vault_exposure(vault: &StObject, loan: &StObject) -> Number {
    if super::vault::phase::is_cash_basis(vault) {
        number_of(loan, sf().principal_outstanding)
    } else {
        owed_to_vault(loan)
    }
}

/// `hasExpired`: the parent ledger closed at or after `time`.
pub fn has_expired(view: &dyn ReadView, time: u32) -> bool {
    view.info().parent_close_time >= time
}

/// `hasExpired` as fixCleanup3_4_0 compares a loan's due dates: from the fix, a date
/// has passed only once the parent ledger closed strictly after it (the due instant
/// itself is still on time); before it, at the instant.
pub fn due_passed(view: &dyn ReadView, time: u32) -> bool {
    if view.info().rules.enabled(Feature::FixCleanup3_4_0) {
        super::vault::phase::has_passed(view, time)
    } else {
        has_expired(view, time)
    }
}

/// `isPaymentLate`: the loan's next payment is overdue ([`due_passed`]).
pub fn is_payment_late(view: &dyn ReadView, loan: &StObject) -> bool {
    due_passed(view, loan.u32_of(sf().next_payment_due_date).unwrap_or(0))
}

/// `unimpairLoan`: the unrealized loss goes back down by the loan's exposure. Before
/// fixCleanup3_4_0 the next payment is also re-dated: its normal date, or one interval
/// from now if that has passed; from the fix NextPaymentDueDate stays as it is
/// (XLS-66.2).
pub fn unimpair(ctx: &mut ApplyContext, loan: &mut Loan) -> Ter {
    let s = sf();
    let exposure = vault_exposure(&loan.vault, &loan.entry);
    let loss = number_of(&loan.vault, s.loss_unrealized);
    if loss < exposure {
        return Ter::tefBAD_LEDGER;
    }
    set_number(&mut loan.vault, s.loss_unrealized, loss - exposure);
    set_flag(&mut loan.entry, LSF_LOAN_IMPAIRED, false);
    if ctx.sb.info().rules.enabled(Feature::FixCleanup3_4_0) {
        return Ter::tesSUCCESS;
    }
    let e = &loan.entry;
    let interval = e.u32_of(s.payment_interval).unwrap_or(0);
    let last = e
        .u32_of(s.previous_payment_due_date)
        .unwrap_or(0)
        .max(e.u32_of(s.start_date).unwrap_or(0));
    let normal = last.saturating_add(interval);
    let due = if has_expired(&ctx.sb, normal) {
        ctx.sb.info().parent_close_time.saturating_add(interval)
    } else {
        normal
    };
    loan.entry
        .set(s.next_payment_due_date, StValue::UInt32(due));
    Ter::tesSUCCESS
}

/// Sets or clears one flag of a Loan entry.
pub fn set_flag(e: &mut StObject, flag: u32, on: bool) {
    let f = e.flags();
    let f = if on { f | flag } else { f & !flag };
    e.set(sf().flags, StValue::UInt32(f));
}
