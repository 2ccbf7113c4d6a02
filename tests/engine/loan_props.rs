//! Property tests of the loan arithmetic (rippled's LendingHelpers, XLS-66): for any loan
//! rippled's guards accept (XRP or an issued currency, 0 to 100% interest, 1 to 120
//! payments, any interval, any management fee), paying the rounded periodic payment
//! each period ends the loan in exactly its payment count, and the payments add up to
//! the loan's total value, its principal and its management fee to the drop (rippled's
//! Loan_test checks the same sums after each of its payment runs); a full payment at any
//! point pays off everything that is left.

use ledgerd::engine::loan::loan_math::{
    check_loan_guards, loan_properties, round_periodic_payment, round_to_asset,
};
use ledgerd::engine::loan::repayment::{make_payment, LoanBook, LoanTerms, PaymentKind};
use ledgerd::engine::vault::VaultAsset;
use ledgerd::engine::Ter;
use ledgerd::protocol::number::{Number, RoundingMode};
use ledgerd::protocol::types::{AccountId, Currency, Issue};
use proptest::prelude::*;

const START: u32 = 800_000_000;

fn asset(iou: bool) -> VaultAsset {
    if iou {
        VaultAsset::Token(Issue {
            currency: Currency::iso(*b"USD"),
            issuer: AccountId([5; 20]),
        })
    } else {
        VaultAsset::Token(Issue::XRP)
    }
}

/// A loan's terms and its book at creation, when rippled's guards accept it.
fn new_loan(
    a: &VaultAsset,
    principal: Number,
    (rate, interval, n, fee_rate): (u32, u32, u32, u32),
) -> Option<(LoanTerms, LoanBook)> {
    let vault_scale = if matches!(a, VaultAsset::Token(i) if i.is_xrp()) {
        -5
    } else {
        -9
    };
    let p = loan_properties(a, principal, (rate, interval, n), fee_rate, vault_scale);
    if check_loan_guards(a, principal, rate != 0, n, &p) != Ter::tesSUCCESS {
        return None;
    }
    let principal = round_to_asset(a, principal, p.scale, RoundingMode::ToNearest);
    let terms = LoanTerms {
        scale: p.scale,
        interest_rate: rate,
        late_interest_rate: 0,
        close_interest_rate: 1000,
        overpayment_interest_rate: 0,
        overpayment_fee: 0,
        service_fee: Number::ZERO,
        late_fee: Number::ZERO,
        close_fee: Number::ZERO,
        interval,
        start: START,
        overpayment_allowed: false,
        fee_rate,
    };
    let book = LoanBook {
        total: p.total_value,
        principal,
        fee: p.fee_owed,
        remaining: n,
        previous: 0,
        next: START + interval,
        periodic: p.periodic_payment,
    };
    Some((terms, book))
}

fn principal_for(iou: bool, m: i64) -> Number {
    if iou {
        Number::new(m, -4) // up to 100,000.0000 USD
    } else {
        Number::from_i64(m) // drops
    }
}

fn params() -> impl Strategy<Value = (bool, i64, u32, u32, u32, u32)> {
    (
        any::<bool>(),
        1_000i64..1_000_000_000,
        prop_oneof![Just(0u32), 1u32..=100_000],
        60u32..=2_592_000,
        1u32..=120,
        0u32..=10_000,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn periodic_payments_add_up_to_the_schedule((iou, m, rate, interval, n, fee_rate) in params()) {
        let a = asset(iou);
        let Some((t, mut book)) = new_loan(&a, principal_for(iou, m), (rate, interval, n, fee_rate)) else {
            return Ok(());
        };
        let (total, principal, fee) = (book.total, book.principal, book.fee);
        let rounded = round_periodic_payment(&a, book.periodic, t.scale);
        // Slack the payment never takes: the loop pays one period at a time.
        let amount = rounded + rounded / Number::from_i64(20);
        let (mut paid, mut paid_principal, mut paid_fee) = (Number::ZERO, Number::ZERO, Number::ZERO);
        for i in 0..n {
            let now = book.next - 1;
            let parts = make_payment(&a, &mut book, &t, amount, PaymentKind::Regular, now);
            prop_assert!(parts.is_ok(), "payment {} of {}: {:?}", i + 1, n, parts);
            let parts = parts.unwrap();
            prop_assert!(parts.value_change.is_zero());
            paid = paid + parts.principal + parts.interest + parts.fee;
            paid_principal = paid_principal + parts.principal;
            paid_fee = paid_fee + parts.fee;
            prop_assert_eq!(book.remaining, n - i - 1);
            prop_assert!(book.principal <= book.total);
        }
        prop_assert_eq!(paid, total);
        prop_assert_eq!(paid_principal, principal);
        prop_assert_eq!(paid_fee, fee);
        prop_assert!(book.total.is_zero() && book.principal.is_zero() && book.fee.is_zero());
        prop_assert_eq!(book.next, 0);
    }

    #[test]
    fn a_full_payment_pays_off_what_is_left((iou, m, rate, interval, n, fee_rate) in params(), k in 0u32..120, wait in 0u32..600) {
        let a = asset(iou);
        let Some((t, mut book)) = new_loan(&a, principal_for(iou, m), (rate, interval, n, fee_rate)) else {
            return Ok(());
        };
        let rounded = round_periodic_payment(&a, book.periodic, t.scale);
        let one = rounded + rounded / Number::from_i64(20);
        for _ in 0..k.min(n.saturating_sub(2)) {
            let now = book.next - 1;
            prop_assert!(make_payment(&a, &mut book, &t, one, PaymentKind::Regular, now).is_ok());
        }
        let before = book;
        let now = (book.next - 1).min(START.max(book.previous) + wait);
        let huge = book.total * Number::from_i64(2) + Number::from_i64(1_000_000);
        let r = make_payment(&a, &mut book, &t, huge, PaymentKind::Full, now);
        if before.remaining <= 1 {
            prop_assert_eq!(r, Err(Ter::tecKILLED));
            return Ok(());
        }
        let parts = r.expect("a full payment");
        prop_assert_eq!(parts.principal, before.principal);
        // The close penalty (1% here) and accrued interest replace the scheduled interest.
        prop_assert!(parts.interest.signum() >= 0 && parts.fee.signum() >= 0);
        prop_assert!(book.total.is_zero() && book.principal.is_zero() && book.remaining == 0);
    }
}
