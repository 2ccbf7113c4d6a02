//! fixCleanup3_4_0's loan spots (XLS-66.2, impairment timing), gated both ways: each
//! story runs under ledgerd's rule book with the amendment off and on.
//!
//! - L1: a default needs the parent ledger closed strictly after NextPaymentDueDate +
//!   GracePeriod; before the fix the instant itself was enough (`tecTOO_SOON`).
//! - L2: only an overdue loan (parent close strictly after its due date) is impaired;
//!   before the fix any loan was (`tecTOO_SOON`).
//! - L3: impairing and unimpairing leave NextPaymentDueDate; before the fix impairing a
//!   loan not yet late pulled it to now, and unimpairing re-dated it.
//! - L4: a payment is late only after the due instant: at the instant a regular payment
//!   is on time and a late one `tecTOO_SOON`; before the fix the instant was late.
//!
//! Each loan: 300 XRP at no interest, three payments 600 s apart, 60 s of grace, from an
//! accrual XRP vault (open-ended, so without LendingProtocolV1_1, as rippled's tests).

use crate::rules::env_with;
use crate::rules_lending11_loan::{
    borrow, broker_tx, close_at, lending, loan_pay, manage, u32_of, Lending, LEGACY, TF_DEFAULT,
    TF_IMPAIR, TF_LATE, TF_UNIMPAIR, XRP,
};
use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::types::Hash256;
use support::engine::*;

/// ledgerd's rule book with fixCleanup3_4_0 on or off, without LendingProtocolV1_1 (the
/// stories' vaults are open-ended).
fn env340(on: bool) -> Env {
    env_with(
        Feature::FixCleanup3_4_0,
        on,
        &[Feature::LendingProtocolV1_1],
    )
}

/// A story's loan: (env, parties, loan, its StartDate).
fn story(on: bool) -> (Env, Lending, Hash256, u32) {
    let mut env = env340(on);
    let l = lending(&mut env, LEGACY, 10_000, broker_tx(0, 0, 0), 0);
    let loan = borrow(&mut env, &l, 300, (0, 3, 600, 60), Ter::tesSUCCESS);
    let start = u32_of(&env, &loan, sf().start_date).unwrap();
    (env, l, loan, start)
}

fn next_due(env: &Env, loan: &Hash256) -> u32 {
    u32_of(env, loan, sf().next_payment_due_date).unwrap()
}

/// L1: the first due date is start + 600; its grace ends at start + 660.
#[test]
fn a_default_waits_until_the_grace_period_has_passed_with_the_fix() {
    for on in [false, true] {
        let (mut env, l, loan, start) = story(on);
        close_at(&mut env, start + 659);
        env.apply(&l.owner, manage(loan, TF_DEFAULT), Ter::tecTOO_SOON);
        close_at(&mut env, start + 660);
        let at = if on {
            Ter::tecTOO_SOON
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&l.owner, manage(loan, TF_DEFAULT), at);
        if on {
            close_at(&mut env, start + 661);
            env.apply(&l.owner, manage(loan, TF_DEFAULT), Ter::tesSUCCESS);
        }
    }
}

/// L2 and L3's impairment: with the fix a loan is impaired only once overdue, and its
/// due date stays; before it, a loan on time is impaired and falls due now.
#[test]
fn only_an_overdue_loan_is_impaired_with_the_fix() {
    for on in [false, true] {
        let (mut env, l, loan, start) = story(on);
        env.close();
        let now = env.parent_close();
        if !on {
            env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
            assert_eq!(next_due(&env, &loan), now, "pulled to now");
            continue;
        }
        env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tecTOO_SOON);
        close_at(&mut env, start + 600);
        env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tecTOO_SOON);
        close_at(&mut env, start + 601);
        env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
        assert_eq!(next_due(&env, &loan), start + 600, "left as it was");
    }
}

/// L2's boundary before the fix: at the due instant a loan already counts as late, and
/// impairing it leaves the due date.
#[test]
fn before_the_fix_a_loan_at_its_due_instant_is_impaired_as_late() {
    let (mut env, l, loan, start) = story(false);
    close_at(&mut env, start + 600);
    env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
    assert_eq!(next_due(&env, &loan), start + 600);
}

/// L3's unimpairment: an overdue loan impaired and unimpaired 100 s later keeps its due
/// date with the fix; before it, the due date passed, so the next falls one interval
/// from now.
#[test]
fn unimpairing_leaves_the_due_date_with_the_fix() {
    for on in [false, true] {
        let (mut env, l, loan, start) = story(on);
        close_at(&mut env, start + 601);
        env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
        assert_eq!(next_due(&env, &loan), start + 600);
        close_at(&mut env, start + 701);
        env.apply(&l.owner, manage(loan, TF_UNIMPAIR), Ter::tesSUCCESS);
        let want = if on { start + 600 } else { start + 701 + 600 };
        assert_eq!(next_due(&env, &loan), want, "on: {on}");
    }
}

/// L4: at the due instant, before the fix the payment is late (a regular one
/// `tecEXPIRED`, a late one paid); with it, on time (a late one `tecTOO_SOON`, a
/// regular one paid). A second after the next due date both ways it is late.
#[test]
fn a_payment_at_the_due_instant_is_on_time_with_the_fix() {
    for on in [false, true] {
        let (mut env, l, loan, start) = story(on);
        let borrower = l.borrower.clone();
        let periodic = 100 * XRP;
        close_at(&mut env, start + 600);
        let (regular, late) = if on {
            (Ter::tesSUCCESS, Ter::tecTOO_SOON)
        } else {
            (Ter::tecEXPIRED, Ter::tesSUCCESS)
        };
        // The refused one first, so that the other pays the same payment.
        let pays = [(0, regular), (TF_LATE, late)];
        let (first, second) = if on {
            (pays[1], pays[0])
        } else {
            (pays[0], pays[1])
        };
        for (flags, want) in [first, second] {
            env.apply(&borrower, loan_pay(loan, periodic, flags), want);
        }
        assert_eq!(next_due(&env, &loan), start + 1200, "one payment made");
        close_at(&mut env, start + 1201);
        let pay = |flags| loan_pay(loan, periodic, flags);
        env.apply(&borrower, pay(0), Ter::tecEXPIRED);
        env.apply(&borrower, pay(TF_LATE), Ter::tesSUCCESS);
        assert_eq!(next_due(&env, &loan), start + 1800);
    }
}

/// L4 in LoanPay's fee (`calculateBaseFee` asks `isPaymentLate`): at the due instant a
/// loan of twelve payments is late before the fix, so a payment of six costs one base
/// fee (and is then `tecEXPIRED`); with the fix it is on time and costs two base fees
/// (one is `telINSUF_FEE_P`).
#[test]
fn a_payment_at_the_due_instant_is_charged_as_on_time_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let l = lending(&mut env, LEGACY, 10_000, broker_tx(0, 0, 0), 0);
        let loan = borrow(&mut env, &l, 1_200, (0, 12, 600, 60), Ter::tesSUCCESS);
        let start = u32_of(&env, &loan, sf().start_date).unwrap();
        close_at(&mut env, start + 600);
        let base = env.store.fees().base_drops as i64;
        let six = |fee: i64| loan_pay(loan, 600 * XRP, 0).amount("Fee", drops(fee));
        let borrower = l.borrower.clone();
        if on {
            env.apply(&borrower, six(base), Ter::telINSUF_FEE_P);
            env.apply(&borrower, six(2 * base), Ter::tesSUCCESS);
            assert_eq!(next_due(&env, &loan), start + 600 * 7);
        } else {
            env.apply(&borrower, six(base), Ter::tecEXPIRED);
        }
    }
}

/// rippled's `testImpairmentPaymentDatePreAmendment`, case A: before the fix, a loan
/// impaired before it is late falls due at once, and unimpaired within its interval
/// falls due at StartDate + 600 again. With the fix the impairment is refused.
#[test]
fn before_the_fix_unimpairing_within_the_interval_restores_the_due_date() {
    for on in [false, true] {
        let (mut env, l, loan, start) = story(on);
        env.close();
        let want = if on {
            Ter::tecTOO_SOON
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&l.owner, manage(loan, TF_IMPAIR), want);
        if on {
            continue;
        }
        assert!(next_due(&env, &loan) < start + 600, "moved to now");
        env.close();
        env.apply(&l.owner, manage(loan, TF_UNIMPAIR), Ter::tesSUCCESS);
        assert_eq!(next_due(&env, &loan), start + 600);
    }
}

/// rippled's `testImpairedOverdueLoanPayRequiresLateFlag` (FN-68): 1000 XRP over twelve
/// 600 s payments with a 3 XRP late fee and 30.322% late interest, impaired a second
/// after its due date. With the fix, LoanPay's unimpairment leaves the due date, so a
/// plain payment of 500 XRP is `tecEXPIRED` (and the loan stays impaired) and only a
/// late one pays; before it, the unimpairment re-dated the loan and the plain payment
/// skipped the late charges.
#[test]
fn an_impaired_overdue_loan_pays_only_as_late_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let l = lending(&mut env, LEGACY, 10_000, broker_tx(0, 0, 0), 0);
        let tx = crate::loan::loan_set(
            l.broker,
            ledgerd::protocol::number::Number::from_i64(1_000 * XRP),
        )
        .account("Counterparty", &l.owner.id)
        .u32("PaymentTotal", 12)
        .u32("PaymentInterval", 600)
        .u32("LateInterestRate", 30_322);
        let tx = crate::rules_lending11_loan::with_number(
            tx,
            "LatePaymentFee",
            ledgerd::protocol::number::Number::from_i64(3 * XRP),
        );
        let (borrower, owner) = (l.borrower.clone(), l.owner.clone());
        let seq = u32_of(&env, &l.broker, sf().loan_sequence).unwrap();
        assert_eq!(
            crate::loan::submit_loan(&mut env, &borrower, &[&owner], tx),
            Ter::tesSUCCESS
        );
        let loan = ledgerd::ledger::keylet::loan(&l.broker, seq);
        let due = next_due(&env, &loan);
        close_at(&mut env, due + 1);
        env.apply(&owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
        env.close();
        let impaired = |env: &Env| env.read(&loan).unwrap().is_flag(0x0002_0000);
        assert!(impaired(&env));
        let plain = loan_pay(loan, 500 * XRP, 0);
        if on {
            env.apply(&borrower, plain, Ter::tecEXPIRED);
            assert!(impaired(&env), "the refused payment changed nothing");
            assert_eq!(u32_of(&env, &loan, sf().payment_remaining), Some(12));
            assert_eq!(next_due(&env, &loan), due);
            env.apply(
                &borrower,
                loan_pay(loan, 500 * XRP, TF_LATE),
                Ter::tesSUCCESS,
            );
        } else {
            env.apply(&borrower, plain, Ter::tesSUCCESS);
        }
        assert!(!impaired(&env));
        // Late, one payment; on time (before the fix), the 500 XRP pay six of 83.33.
        let left = if on { 11 } else { 6 };
        assert_eq!(u32_of(&env, &loan, sf().payment_remaining), Some(left));
    }
}
