//! A loan payment (rippled `loanMakePayment` and its helpers in `LendingHelpers.cpp`,
//! XLS-66 section 3.2.4): regular periodic payments (as many as the amount covers, up to
//! `loanMaximumPaymentsPerTransaction`), a late payment with its penalty interest and
//! fee, a full early repayment with its accrued interest and close penalty, and an
//! overpayment that re-amortizes the rest of the loan. It works on a [`LoanBook`], the
//! Loan entry's moving values, and returns what was paid to whom ([`PaymentParts`]).

use super::loan_math::{
    check_loan_guards, construct_state, interest_and_fee, is_rounded, loan_properties,
    periodic_rate, principal_from_payment, raw_state, round_now, round_periodic_payment,
    round_to_asset, tenth_bips_of, LoanState,
};
use crate::engine::ter::Ter;
use crate::engine::vault::VaultAsset;
use crate::protocol::number::{Number, RoundingMode};

/// `loanMaximumPaymentsPerTransaction`.
pub const PAYMENTS_PER_TRANSACTION_MAX: usize = 100;
/// `loanPaymentsPerFeeIncrement`: one base fee per this many payments.
pub const PAYMENTS_PER_FEE_INCREMENT: i64 = 5;

/// The Loan entry's moving values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoanBook {
    /// TotalValueOutstanding.
    pub total: Number,
    /// PrincipalOutstanding.
    pub principal: Number,
    /// ManagementFeeOutstanding.
    pub fee: Number,
    /// PaymentRemaining.
    pub remaining: u32,
    /// PreviousPaymentDueDate.
    pub previous: u32,
    /// NextPaymentDueDate.
    pub next: u32,
    /// PeriodicPayment (unrounded).
    pub periodic: Number,
}

/// The Loan entry's fixed terms a payment reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoanTerms {
    /// LoanScale.
    pub scale: i32,
    /// InterestRate (1/10 bips, annual).
    pub interest_rate: u32,
    /// LateInterestRate.
    pub late_interest_rate: u32,
    /// CloseInterestRate.
    pub close_interest_rate: u32,
    /// OverpaymentInterestRate.
    pub overpayment_interest_rate: u32,
    /// OverpaymentFee (a rate).
    pub overpayment_fee: u32,
    /// LoanServiceFee.
    pub service_fee: Number,
    /// LatePaymentFee.
    pub late_fee: Number,
    /// ClosePaymentFee.
    pub close_fee: Number,
    /// PaymentInterval (seconds).
    pub interval: u32,
    /// StartDate.
    pub start: u32,
    /// lsfLoanOverpayment.
    pub overpayment_allowed: bool,
    /// The broker's ManagementFeeRate.
    pub fee_rate: u32,
}

/// What kind of payment a LoanPay makes (`LoanPaymentType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentKind {
    /// As many periodic payments as the amount covers.
    Regular,
    /// One periodic payment after its due date, with the late penalties.
    Late,
    /// The whole loan, early.
    Full,
    /// Periodic payments, then the rest against the principal.
    Overpayment,
}

/// `LoanPaymentParts`: where a payment went.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PaymentParts {
    /// Principal repaid (to the vault).
    pub principal: Number,
    /// Interest paid (to the vault).
    pub interest: Number,
    /// How the loan's value moved beyond its schedule.
    pub value_change: Number,
    /// Fees paid (to the broker).
    pub fee: Number,
}

impl PaymentParts {
    fn add(&mut self, o: &PaymentParts) {
        self.principal = self.principal + o.principal;
        self.interest = self.interest + o.interest;
        self.value_change = self.value_change + o.value_change;
        self.fee = self.fee + o.fee;
    }
}

/// `PaymentSpecialCase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Special {
    None,
    Final,
    Extra,
}

/// `ExtendedPaymentComponents`: the tracked deltas of one payment and what it pays
/// outside the schedule.
#[derive(Debug, Clone, Copy)]
struct Components {
    value: Number,
    principal: Number,
    fee: Number,
    special: Special,
    untracked_fee: Number,
    untracked_interest: Number,
}

impl Components {
    fn interest_part(&self) -> Number {
        self.value - (self.principal + self.fee)
    }

    fn total_due(&self) -> Number {
        self.value + self.untracked_interest + self.untracked_fee
    }
}

fn clamp(v: Number, lo: Number, hi: Number) -> Number {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

fn min3(a: Number, b: Number, c: Number) -> Number {
    a.min(b).min(c)
}

/// `takeFrom`: takes what it can of `excess` out of `component`.
fn take_from(component: &mut Number, excess: &mut Number) {
    if excess.signum() > 0 {
        let part = (*component).min(*excess);
        *component = *component - part;
        *excess = *excess - part;
    }
}

/// `computePaymentComponents`: one periodic payment's deltas, aiming the rounded state
/// at the schedule's next point (the final payment takes everything left).
fn periodic_components(
    asset: &VaultAsset,
    book: &LoanBook,
    t: &LoanTerms,
    rate: Number,
) -> Components {
    let rounded_payment = round_periodic_payment(asset, book.periodic, t.scale);
    let tracked = |value, principal, fee, special| Components {
        value,
        principal,
        fee,
        special,
        untracked_fee: t.service_fee,
        untracked_interest: Number::ZERO,
    };
    if book.remaining == 1 || book.total <= rounded_payment {
        return tracked(book.total, book.principal, book.fee, Special::Final);
    }
    let target = raw_state(book.periodic, rate, book.remaining - 1, t.fee_rate);
    let target = LoanState {
        value: round_now(asset, target.value, t.scale),
        principal: round_now(asset, target.principal, t.scale),
        interest: round_now(asset, target.interest, t.scale),
        fee: round_now(asset, target.fee, t.scale),
    };
    let current = construct_state(book.total, book.principal, book.fee);
    let mut d = current.minus(&target);
    d.non_negative();
    d.principal = d.principal.min(current.principal);
    d.interest = min3(
        d.interest,
        (rounded_payment - d.principal).max(Number::ZERO),
        current.interest,
    );
    d.fee = min3(
        d.fee,
        rounded_payment - (d.principal + d.interest),
        current.fee,
    );
    let mut excess = d.total() - current.value;
    for _ in 0..2 {
        take_from(&mut d.interest, &mut excess);
        take_from(&mut d.fee, &mut excess);
        take_from(&mut d.principal, &mut excess);
        excess = d.total() - rounded_payment;
    }
    tracked(
        clamp(d.total(), Number::ZERO, current.value),
        clamp(d.principal, Number::ZERO, current.principal),
        clamp(d.fee, Number::ZERO, current.fee),
        Special::None,
    )
}

/// `doPayment`: applies one payment's deltas to the book.
fn apply(c: &Components, book: &mut LoanBook, interval: u32) -> PaymentParts {
    if c.special == Special::Final {
        book.remaining = 0;
        book.previous = book.next;
        book.next = 0;
        book.principal = Number::ZERO;
        book.total = Number::ZERO;
        book.fee = Number::ZERO;
    } else {
        if c.special != Special::Extra {
            book.remaining -= 1;
            book.previous = book.next;
            book.next = book.next.saturating_add(interval);
        }
        book.principal = book.principal - c.principal;
        book.total = book.total - c.value;
        book.fee = book.fee - c.fee;
    }
    PaymentParts {
        principal: c.principal,
        interest: c.interest_part() + c.untracked_interest,
        value_change: c.untracked_interest,
        fee: c.fee + c.untracked_fee,
    }
}

/// `loanLatePaymentInterest` (equation 16): the late rate on the principal for the time
/// since the due date.
fn late_interest(principal: Number, late_rate: u32, now: u32, due: u32) -> Number {
    if now <= due {
        return Number::ZERO;
    }
    principal * periodic_rate(late_rate, now - due)
}

/// `computeLatePayment` (equation 15): the periodic payment plus the late interest and
/// fee; `tecTOO_SOON` before the due date, `tecINSUFFICIENT_PAYMENT` below the total.
fn late_components(
    asset: &VaultAsset,
    book: &LoanBook,
    t: &LoanTerms,
    periodic: Components,
    (now, amount): (u32, Number),
) -> Result<Components, Ter> {
    if now < book.next {
        return Err(Ter::tecTOO_SOON);
    }
    let raw = late_interest(book.principal, t.late_interest_rate, now, book.next);
    let (interest, fee) =
        interest_and_fee(asset, round_now(asset, raw, t.scale), t.fee_rate, t.scale);
    let late = Components {
        untracked_fee: periodic.untracked_fee + t.late_fee + fee,
        untracked_interest: periodic.untracked_interest + interest,
        ..periodic
    };
    if amount < late.total_due() {
        return Err(Ter::tecINSUFFICIENT_PAYMENT);
    }
    Ok(late)
}

/// `computeFullPaymentInterest` (equations 27 and 28): interest accrued since the last
/// payment and the close penalty.
pub fn full_payment_interest(
    raw_principal: Number,
    rate: Number,
    now: u32,
    t: &LoanTerms,
    previous: u32,
) -> Number {
    let accrued = {
        let last = previous.max(t.start);
        if rate.is_zero() || now <= last {
            Number::ZERO
        } else {
            raw_principal * rate * Number::from_i64(i64::from(now - last))
                / Number::from_i64(i64::from(t.interval))
        }
    };
    let penalty = if t.close_interest_rate == 0 {
        Number::ZERO
    } else {
        tenth_bips_of(raw_principal, t.close_interest_rate)
    };
    accrued + penalty
}

/// `computeFullPayment` (equation 26): everything outstanding, the accrued interest and
/// penalty instead of the scheduled interest, and the close fee; not on the last payment
/// (`tecKILLED`).
fn full_components(
    asset: &VaultAsset,
    book: &LoanBook,
    t: &LoanTerms,
    rate: Number,
    (now, amount): (u32, Number),
) -> Result<Components, Ter> {
    if book.remaining <= 1 {
        return Err(Ter::tecKILLED);
    }
    let raw_principal = principal_from_payment(book.periodic, rate, book.remaining);
    let interest = full_payment_interest(raw_principal, rate, now, t, book.previous);
    let rounded = round_to_asset(asset, interest, t.scale, RoundingMode::Downward);
    let (interest, fee) = interest_and_fee(asset, rounded, t.fee_rate, t.scale);
    let owed = construct_state(book.total, book.principal, book.fee).interest;
    let close_fee = round_now(asset, t.close_fee, t.scale);
    let full = Components {
        value: book.principal + owed + book.fee,
        principal: book.principal,
        fee: book.fee,
        special: Special::Final,
        untracked_fee: close_fee + fee - book.fee,
        untracked_interest: interest - owed,
    };
    if amount < full.total_due() {
        return Err(Ter::tecINSUFFICIENT_PAYMENT);
    }
    Ok(full)
}

/// `computeOverpaymentComponents` (equations 20 to 22): the overpayment less its fee and
/// penalty interest goes to the principal. The gross penalty interest is rounded, then
/// split once between the vault and the broker, as rippled's own unit tests expect
/// (docs/compat.md).
fn overpayment_components(asset: &VaultAsset, t: &LoanTerms, over: Number) -> Components {
    let over_fee = round_now(asset, tenth_bips_of(over, t.overpayment_fee), t.scale);
    let gross = round_now(
        asset,
        tenth_bips_of(over, t.overpayment_interest_rate),
        t.scale,
    );
    let (interest, fee) = interest_and_fee(asset, gross, t.fee_rate, t.scale);
    Components {
        value: over - over_fee,
        principal: over - interest - fee - over_fee,
        fee,
        special: Special::Extra,
        untracked_fee: over_fee,
        untracked_interest: interest,
    }
}

/// The book after re-amortizing what is left of the principal (`tryOverpayment`), or
/// `None` when the result would be invalid (the overpayment is then ignored). What it
/// pays is the overpayment itself: its principal part, its penalty interest to the vault
/// and its fees to the broker; the vault's value changes by that interest less the
/// interest the smaller principal no longer earns (rippled's unit tests' figures, see
/// docs/compat.md).
fn reamortized(
    asset: &VaultAsset,
    book: &LoanBook,
    t: &LoanTerms,
    rate: Number,
    over: &Components,
) -> Option<(LoanBook, PaymentParts)> {
    let raw = raw_state(book.periodic, rate, book.remaining, t.fee_rate);
    let rounded = construct_state(book.total, book.principal, book.fee);
    let errors = rounded.minus(&raw);
    let new_principal = (raw.principal - over.principal).max(Number::ZERO);
    let mut props = loan_properties(
        asset,
        new_principal,
        (t.interest_rate, t.interval, book.remaining),
        t.fee_rate,
        t.scale,
    );
    let new_raw = raw_state(props.periodic_payment, rate, book.remaining, t.fee_rate).plus(&errors);
    let up = |v| round_to_asset(asset, v, t.scale, RoundingMode::Upward);
    let principal = clamp(up(new_raw.principal), Number::ZERO, rounded.principal);
    let total = clamp(
        up(principal + new_raw.interest_outstanding()),
        Number::ZERO,
        rounded.value,
    );
    let fee = clamp(
        round_now(asset, new_raw.fee, t.scale),
        Number::ZERO,
        rounded.fee,
    );
    let new_rounded = construct_state(total, principal, fee);
    props.total_value = new_rounded.value;
    let expect_interest = !new_rounded.interest_outstanding().is_zero();
    if check_loan_guards(asset, principal, expect_interest, book.remaining, &props)
        != Ter::tesSUCCESS
        || props.periodic_payment.signum() <= 0
        || props.total_value.signum() <= 0
        || props.fee_owed.signum() < 0
    {
        return None;
    }
    let d = rounded.minus(&new_rounded);
    let value_change = new_rounded.value - (rounded.value - d.principal);
    if value_change.signum() > 0 || book.principal <= principal {
        return None;
    }
    let parts = PaymentParts {
        principal: d.principal,
        interest: over.untracked_interest,
        value_change: over.untracked_interest - d.interest,
        fee: over.fee + over.untracked_fee,
    };
    let after = LoanBook {
        total,
        principal,
        fee,
        periodic: props.periodic_payment,
        ..*book
    };
    Some((after, parts))
}

/// `loanMakePayment` under the rules before fixCleanup3_4_0 (a payment at the due
/// instant is late): [`make_payment_ruled`].
pub fn make_payment(
    asset: &VaultAsset,
    book: &mut LoanBook,
    t: &LoanTerms,
    amount: Number,
    kind: PaymentKind,
    now: u32,
) -> Result<PaymentParts, Ter> {
    make_payment_ruled(asset, book, t, amount, kind, now, false)
}

/// `loanMakePayment`: applies a LoanPay of `amount` of `kind` at ledger time `now` to
/// `book`, returning what it paid. The payment is late once `now` reaches the due date,
/// or, when `late_after_due` (fixCleanup3_4_0), only once `now` is past it: a late
/// payment before then is `tecTOO_SOON`, any other after it `tecEXPIRED`. Errors leave
/// `book` as it may have been partly moved; the caller discards it.
pub fn make_payment_ruled(
    asset: &VaultAsset,
    book: &mut LoanBook,
    t: &LoanTerms,
    amount: Number,
    kind: PaymentKind,
    now: u32,
    late_after_due: bool,
) -> Result<PaymentParts, Ter> {
    if book.remaining == 0 || book.principal.is_zero() {
        return Err(Ter::tecKILLED);
    }
    if book.next == 0 {
        return Err(Ter::tecINTERNAL);
    }
    let late = if late_after_due {
        now > book.next
    } else {
        now >= book.next
    };
    if kind == PaymentKind::Late && !late {
        return Err(Ter::tecTOO_SOON);
    }
    let rate = periodic_rate(t.interest_rate, t.interval);
    if kind != PaymentKind::Late && late {
        return Err(Ter::tecEXPIRED);
    }
    if kind == PaymentKind::Full {
        let full = full_components(asset, book, t, rate, (now, amount))?;
        return Ok(apply(&full, book, t.interval));
    }
    let periodic = periodic_components(asset, book, t, rate);
    if kind == PaymentKind::Late {
        let late = late_components(asset, book, t, periodic, (now, amount))?;
        return Ok(apply(&late, book, t.interval));
    }
    let (mut parts, paid, count) = regular_payments(asset, book, t, rate, (periodic, amount))?;
    let room = count < PAYMENTS_PER_TRANSACTION_MAX;
    if kind == PaymentKind::Overpayment
        && t.overpayment_allowed
        && book.remaining > 0
        && paid < amount
        && room
    {
        let over = (amount - paid).min(book.total);
        let c = overpayment_components(asset, t, over);
        if c.principal.signum() > 0 {
            if let Some((after, extra)) = reamortized(asset, book, t, rate, &c) {
                *book = after;
                parts.add(&extra);
            }
        }
    }
    debug_assert!(is_rounded(asset, parts.principal, t.scale));
    Ok(parts)
}

/// The periodic payments `amount` covers: (parts, total paid, count); none is
/// `tecINSUFFICIENT_PAYMENT`.
fn regular_payments(
    asset: &VaultAsset,
    book: &mut LoanBook,
    t: &LoanTerms,
    rate: Number,
    (mut periodic, amount): (Components, Number),
) -> Result<(PaymentParts, Number, usize), Ter> {
    let mut parts = PaymentParts::default();
    let mut paid = Number::ZERO;
    let mut count = 0;
    while amount >= paid + periodic.total_due()
        && book.remaining > 0
        && count < PAYMENTS_PER_TRANSACTION_MAX
    {
        paid = paid + periodic.total_due();
        parts.add(&apply(&periodic, book, t.interval));
        count += 1;
        if periodic.special == Special::Final {
            break;
        }
        periodic = periodic_components(asset, book, t, rate);
    }
    if count == 0 {
        return Err(Ter::tecINSUFFICIENT_PAYMENT);
    }
    Ok((parts, paid, count))
}

/// `LoanPay::calculateBaseFee`'s multiple of the base fee: one per
/// [`PAYMENTS_PER_FEE_INCREMENT`] payments `amount` would make (at least one).
pub fn fee_increments(
    asset: &VaultAsset,
    book: &LoanBook,
    t: &LoanTerms,
    amount: Number,
    over: bool,
) -> i64 {
    use crate::protocol::number::RoundGuard;
    let regular = round_periodic_payment(asset, book.periodic, t.scale) + t.service_fee;
    if regular.signum() <= 0 {
        return 1;
    }
    let estimate = {
        let mode = if over {
            RoundingMode::Upward
        } else {
            RoundingMode::Downward
        };
        let _g = RoundGuard::new(mode);
        (amount / regular).to_i64().unwrap_or(i64::MAX)
    };
    let _g = RoundGuard::new(RoundingMode::Upward);
    let increments = (Number::from_i64(estimate) / Number::from_i64(PAYMENTS_PER_FEE_INCREMENT))
        .to_i64()
        .unwrap_or(i64::MAX);
    increments.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::types::Issue;

    const XRP: VaultAsset = VaultAsset::Token(Issue::XRP);

    fn terms(scale: i32, interval: u32) -> LoanTerms {
        LoanTerms {
            scale,
            interest_rate: 0,
            late_interest_rate: 0,
            close_interest_rate: 0,
            overpayment_interest_rate: 0,
            overpayment_fee: 0,
            service_fee: Number::ZERO,
            late_fee: Number::ZERO,
            close_fee: Number::ZERO,
            interval,
            start: 1000,
            overpayment_allowed: false,
            fee_rate: 10_000,
        }
    }

    fn book(principal: i64, payments: u32, interval: u32) -> LoanBook {
        let p = Number::from_i64(principal);
        LoanBook {
            total: p,
            principal: p,
            fee: Number::ZERO,
            remaining: payments,
            previous: 0,
            next: 1000 + interval,
            periodic: p / Number::from_i64(i64::from(payments)),
        }
    }

    /// An XRP payment of `drops` of `kind` at `now`.
    fn pay(
        b: &mut LoanBook,
        t: &LoanTerms,
        drops: i64,
        kind: PaymentKind,
        now: u32,
    ) -> Result<PaymentParts, Ter> {
        make_payment(&XRP, b, t, Number::from_i64(drops), kind, now)
    }

    #[test]
    fn one_periodic_payment_of_a_zero_interest_loan() {
        // xrpl.js's lending flow: 5 XRP over 3 payments, 2.5 XRP pays one of 1.666667.
        let t = terms(0, 60);
        let mut b = book(5_000_000, 3, 60);
        let parts = pay(&mut b, &t, 2_500_000, PaymentKind::Regular, 1010).unwrap();
        assert_eq!(parts.principal, Number::from_i64(1_666_667));
        assert!(parts.interest.is_zero() && parts.fee.is_zero());
        assert_eq!(b.remaining, 2);
        assert_eq!(b.principal, Number::from_i64(3_333_333));
        assert_eq!(b.total, b.principal);
        assert_eq!((b.previous, b.next), (1060, 1120));
        // The rest, as a full payment.
        let parts = pay(&mut b, &t, 3_333_333, PaymentKind::Full, 1070).unwrap();
        assert_eq!(parts.principal, Number::from_i64(3_333_333));
        assert_eq!((b.remaining, b.next), (0, 0));
        assert!(b.principal.is_zero() && b.total.is_zero());
    }

    #[test]
    fn too_little_too_late_and_too_early() {
        let t = terms(0, 60);
        let mut b = book(5_000_000, 3, 60);
        let short = pay(&mut b, &t, 1_000_000, PaymentKind::Regular, 1010);
        assert_eq!(short, Err(Ter::tecINSUFFICIENT_PAYMENT));
        let late = pay(&mut b, &t, 5_000_000, PaymentKind::Regular, 1060);
        assert_eq!(late, Err(Ter::tecEXPIRED));
        let early = pay(&mut b, &t, 5_000_000, PaymentKind::Late, 1010);
        assert_eq!(early, Err(Ter::tecTOO_SOON));
    }

    #[test]
    fn a_large_amount_pays_every_payment_and_stops() {
        let t = terms(0, 60);
        let mut b = book(5_000_000, 3, 60);
        let parts = pay(&mut b, &t, 9_000_000, PaymentKind::Regular, 1010).unwrap();
        assert_eq!(parts.principal, Number::from_i64(5_000_000));
        assert_eq!(b.remaining, 0);
        assert_eq!(
            pay(&mut b, &t, 1, PaymentKind::Regular, 1010),
            Err(Ter::tecKILLED)
        );
    }

    #[test]
    fn the_fee_grows_one_base_fee_per_five_payments() {
        let t = terms(0, 60);
        let b = book(10_000_000, 20, 60); // 500000 a payment
        assert_eq!(
            fee_increments(&XRP, &b, &t, Number::from_i64(500_000), false),
            1
        );
        assert_eq!(
            fee_increments(&XRP, &b, &t, Number::from_i64(3_000_000), false),
            2
        );
        assert_eq!(
            fee_increments(&XRP, &b, &t, Number::from_i64(5_000_000), false),
            2
        );
        assert_eq!(
            fee_increments(&XRP, &b, &t, Number::from_i64(5_500_000), false),
            3
        );
    }

    // rippled's LendingHelpers_test tables.

    fn usd() -> VaultAsset {
        use crate::protocol::types::{AccountId, Currency};
        VaultAsset::Token(Issue {
            currency: Currency::iso(*b"USD"),
            issuer: AccountId([7; 20]),
        })
    }

    fn n(m: i64, e: i32) -> Number {
        Number::new(m, e)
    }

    #[test]
    fn rippled_overpayment_components() {
        let mut t = terms(1, 60);
        t.overpayment_interest_rate = 10_000;
        t.overpayment_fee = 50_000;
        let c = overpayment_components(&usd(), &t, n(1000, 0));
        assert_eq!(c.untracked_fee, n(500, 0));
        assert_eq!(c.untracked_interest, n(90, 0));
        assert_eq!(c.interest_part(), n(90, 0));
        assert_eq!(c.fee, n(10, 0));
        assert_eq!(c.principal, n(400, 0));
    }

    #[test]
    fn rippled_late_and_accrued_interest() {
        assert!(late_interest(n(1000, 0), 10_000, 3000, 3000).is_zero());
        assert!(late_interest(n(1000, 0), 10_000, 3000, 4000).is_zero());
        assert!(late_interest(n(1000, 0), 0, 3000, 2000).is_zero());
        assert_eq!(
            late_interest(n(1000, 0), 100_000, 3000, 2000),
            n(317097919837645865, -19)
        );
        let mut t = terms(0, 2_592_000);
        t.start = 1000;
        let accrued = full_payment_interest(n(1000, 0), n(5, -2), 3000, &t, 2000);
        assert_eq!(accrued, n(1929012345679012346, -20));
        t.close_interest_rate = 10_000;
        assert_eq!(
            full_payment_interest(n(1000, 0), n(5, -2), 3000, &t, 2000),
            n(1000192901234567901, -16)
        );
        assert!(full_payment_interest(Number::ZERO, n(5, -2), 3000, &t, 2000).is_zero());
        t.start = 2000;
        assert!(
            full_payment_interest(n(1000, 0), n(5, -2), 1000, &t, 1500).is_zero()
                || t.close_interest_rate != 0
        );
    }

    /// LendingHelpers_test's tryOverpayment cases 1 to 3: 1000 USD at scale -5 over 10
    /// payments 30 days apart, overpaid by 50.
    fn overpaid(interest_rate: u32, overpayment_fee: u32) -> (PaymentParts, LoanBook, LoanBook) {
        let (parts, before, after) = overpaid_at(0, (interest_rate, 0, overpayment_fee));
        (parts, before, after)
    }

    /// Case 4 to 6: a 10% loan, `fee_rate` management fee, overpayment interest and fee.
    fn overpaid_with(
        fee_rate: u32,
        (over_rate, over_fee): (u32, u32),
    ) -> (PaymentParts, LoanBook, LoanBook) {
        overpaid_at(fee_rate, (10_000, over_rate, over_fee))
    }

    fn overpaid_at(
        fee_rate: u32,
        (interest_rate, over_rate, overpayment_fee): (u32, u32, u32),
    ) -> (PaymentParts, LoanBook, LoanBook) {
        use crate::engine::loan::loan_math::loan_properties;
        let interval = 30 * 24 * 60 * 60;
        let mut t = terms(-5, interval);
        t.fee_rate = fee_rate;
        t.interest_rate = interest_rate;
        t.overpayment_fee = overpayment_fee;
        t.overpayment_interest_rate = over_rate;
        let p = loan_properties(
            &usd(),
            n(1000, 0),
            (interest_rate, interval, 10),
            fee_rate,
            -5,
        );
        let b = LoanBook {
            total: p.total_value,
            principal: n(1000, 0),
            fee: p.fee_owed,
            remaining: 10,
            previous: 0,
            next: interval,
            periodic: p.periodic_payment,
        };
        let c = overpayment_components(&usd(), &t, n(50, 0));
        let rate = periodic_rate(interest_rate, interval);
        let (after, parts) = reamortized(&usd(), &b, &t, rate, &c).expect("overpayment applies");
        (parts, b, after)
    }

    #[test]
    fn rippled_try_overpayment_cases() {
        let (parts, before, after) = overpaid(0, 0);
        assert_eq!(
            (
                parts.principal,
                parts.interest,
                parts.fee,
                parts.value_change
            ),
            (n(50, 0), Number::ZERO, Number::ZERO, Number::ZERO)
        );
        assert_eq!(before.principal - after.principal, n(50, 0));
        let (parts, _, _) = overpaid(0, 10_000);
        assert_eq!(
            (parts.principal, parts.fee, parts.value_change),
            (n(45, 0), n(5, 0), Number::ZERO)
        );
        let (parts, before, after) = overpaid(10_000, 0);
        assert_eq!(parts.principal, n(50, 0));
        assert_eq!(parts.value_change, n(-228802, -5));
        assert!(parts.interest.is_zero() && parts.fee.is_zero());
        assert_eq!(before.principal - after.principal, n(50, 0));
        let value = |b: &LoanBook| b.total - b.principal - b.fee;
        assert_eq!(value(&after) - value(&before), parts.value_change);
    }

    #[test]
    fn rippled_try_overpayment_cases_with_penalties() {
        let (parts, before, after) = overpaid_with(0, (10_000, 0));
        assert_eq!(
            (parts.principal, parts.interest, parts.fee),
            (n(45, 0), n(5, 0), Number::ZERO)
        );
        assert_eq!(parts.value_change, n(-205922, -5) + n(5, 0));
        assert_eq!(before.principal - after.principal, n(45, 0));
        let (parts, before, after) = overpaid_with(10_000, (10_000, 0));
        assert_eq!(
            (parts.principal, parts.interest, parts.fee),
            (n(45, 0), n(45, -1), n(5, -1))
        );
        assert_eq!(parts.value_change, n(-18533, -4) + n(45, -1));
        assert_eq!(after.fee - before.fee, n(-20592, -5));
        let (parts, before, after) = overpaid_with(10_000, (10_000, 10_000));
        assert_eq!(
            (parts.principal, parts.interest, parts.fee),
            (n(40, 0), n(45, -1), n(55, -1))
        );
        assert_eq!(parts.value_change, n(-164737, -5) + n(45, -1));
        assert_eq!(after.fee - before.fee, n(-18304, -5));
    }
}
