//! fixCleanup3_2_0's lending spots, gated both ways: each story runs under ledgerd's rule
//! book with the amendment off and on and checks what xrpld decides each way.
//!
//! - `canApplyToBrokerCover` (LoanBrokerCoverDeposit / CoverWithdraw preclaim, rippled
//!   `LendingHelpers_test::testCanApplyToBrokerCover`): an amount that rounds to zero at
//!   CoverAvailable's scale (10 USD: 1e-14) is `tecPRECISION_LOSS`; before the fix it
//!   moves the 19-digit CoverAvailable but not the line, and `ValidLoanBroker` fails it.
//! - `minimumBrokerCover` (LoanSet, CoverWithdraw, CoverClawback, LoanPay): the cover a
//!   broker's debt requires is rounded up at the vault's scale; before the fix LoanSet
//!   compared the unrounded product and CoverWithdraw rounded at DebtTotal's own, finer
//!   scale, so a cover between the two was enough.
//!
//! - The payment factor (`computePaymentFactor`): with the fix `(1 + r)^n - 1` is summed
//!   binomially when `n r` < 1e-9 (`computePowerMinusOneHybrid`); before, subtracting 1
//!   from `(1 + r)^n` kept only some ten digits, and a tiny rate's periodic payment was
//!   off in its eighth or ninth.
//!
//! Not here: CoverWithdraw's `WaiveMPTCanTransfer` (no ledgerd ledger reaches it: a
//! vault's MPT must allow transfers at VaultCreate, and DynamicMPT only adds
//! capabilities).

use crate::loan::{broker_tx, lender, loan_set, submit_loan};
use crate::support;

use crate::rules::env_with;
use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::sf;
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::types::{Hash256, Issue};
use support::engine::*;

/// Without LendingProtocolV1_1, whose LoanBrokerSet refuses these open-ended vaults.
fn env320(on: bool) -> Env {
    env_with(
        Feature::FixCleanup3_2_0,
        on,
        &[Feature::LendingProtocolV1_1],
    )
}

fn cover_tx(kind: &str, broker: Hash256, amount: Amount) -> Tx {
    Tx::new(kind)
        .h256("LoanBrokerID", broker)
        .amount("Amount", amount)
}

fn cover(env: &Env, broker: &Hash256) -> Number {
    number_of(&env.read(broker).unwrap(), sf().cover_available)
}

/// gw issues USD (DefaultRipple) to each of `holders`, `amount` each.
fn usd_to(env: &mut Env, gw: &Account, holders: &[&Account], amount: i64) -> Issue {
    env.apply(gw, fset(8), Ter::tesSUCCESS); // asfDefaultRipple
    for a in holders {
        env.apply(a, trust(gw.iou("USD", amount * 10)), Ter::tesSUCCESS);
        env.apply(gw, pay(a, gw.iou("USD", amount)), Ter::tesSUCCESS);
    }
    gw.iou("USD", 0).issue()
}

#[test]
fn a_sub_ulp_cover_amount_is_refused_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env320(on);
        let [gw, owner, depositor] = env.funded(["c320lGw", "c320lOwner", "c320lDep"]);
        let usd = usd_to(&mut env, &gw, &[&owner, &depositor], 1000);
        let (_, broker, _) = lender(
            &mut env,
            (&owner, &depositor),
            usd,
            gw.iou("USD", 100),
            broker_tx(0, 0, 0),
        );
        let deposit = |a| cover_tx("LoanBrokerCoverDeposit", broker, a);
        let withdraw = |a| cover_tx("LoanBrokerCoverWithdraw", broker, a);
        env.apply(&owner, deposit(gw.iou("USD", 10)), Ter::tesSUCCESS);
        // 1e-16 at a cover of 10 (scale 1e-14) rounds to zero: the line would not move,
        // but CoverAvailable, a 19-digit Number, would. With the fix that is refused in
        // preclaim; before, the ledger's cover and the pseudo-account's balance part and
        // `ValidLoanBroker` fails the transaction (a deposit leaves the cover above the
        // balance, fixCleanup3_1_3's check; a withdrawal below it).
        let dust = gw.iou_s("USD", "0.0000000000000001");
        let want = if on {
            Ter::tecPRECISION_LOSS
        } else {
            Ter::tecINVARIANT_FAILED
        };
        env.apply(&owner, deposit(dust), want);
        env.apply(&owner, withdraw(dust), want);
        assert_eq!(cover(&env, &broker), Number::from_i64(10), "on={on}");
        // 1e-13 is above the cover's scale: it moves, both ways.
        let small = gw.iou_s("USD", "0.0000000000001");
        env.apply(&owner, deposit(small), Ter::tesSUCCESS);
        env.apply(&owner, withdraw(small), Ter::tesSUCCESS);
        assert_eq!(cover(&env, &broker), Number::from_i64(10), "on={on}");
    }
}

/// 33.333 + 5 * 10^(scale - 1), as a decimal string (`scale` < -3).
fn cover_between(scale: i32) -> String {
    let zeros = usize::try_from(-scale - 3).expect("a scale below -3");
    format!("33.333{}5", "0".repeat(zeros))
}

#[test]
fn loan_set_rounds_the_minimum_cover_up_at_the_vault_scale_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env320(on);
        let [gw, owner, depositor, borrower] =
            env.funded(["c320lGw2", "c320lOwn2", "c320lDep2", "c320lBor2"]);
        env.apply(&gw, fset(8), Ter::tesSUCCESS); // asfDefaultRipple
        for a in [&owner, &depositor, &borrower] {
            env.apply(a, trust(gw.iou("USD", 10_000_000_000)), Ter::tesSUCCESS);
        }
        env.apply(
            &gw,
            pay(&depositor, gw.iou("USD", 1_000_000_000)),
            Ter::tesSUCCESS,
        );
        env.apply(&gw, pay(&owner, gw.iou("USD", 1000)), Ter::tesSUCCESS);
        let usd = gw.iou("USD", 0).issue();
        // A cover rate of 33.333%.
        let (vault, broker, _) = lender(
            &mut env,
            (&owner, &depositor),
            usd,
            gw.iou("USD", 1_000_000_000),
            broker_tx(0, 33_333, 10_000),
        );
        let scale = ledgerd::engine::loan::vault_scale(&env.read(&vault).unwrap());
        assert!(scale < -3, "the vault's scale {scale}");
        // Principal 100 + 10^scale, no interest: the debt's 33.333% is 33.333 plus
        // 0.33333 * 10^scale, which the fix rounds up to 33.333 + 10^scale.
        let principal = Number::from_i64(100) + Number::new(1, scale);
        // A cover halfway: 33.333 + 0.5 * 10^scale.
        let cover_amount = gw.iou_s("USD", &cover_between(scale));
        let dep = cover_tx("LoanBrokerCoverDeposit", broker, cover_amount);
        env.apply(&owner, dep, Ter::tesSUCCESS);
        let want = if on {
            Ter::tecINSUFFICIENT_FUNDS
        } else {
            Ter::tesSUCCESS
        };
        let tx = loan_set(broker, principal);
        assert_eq!(
            submit_loan(&mut env, &borrower, &[&owner], tx),
            want,
            "on={on}, scale {scale}"
        );
    }
}

#[test]
fn cover_withdraw_rounds_the_minimum_cover_up_at_the_vault_scale_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env320(on);
        let [gw, owner, depositor, borrower] =
            env.funded(["c320lGw3", "c320lOwn3", "c320lDep3", "c320lBor3"]);
        env.apply(&gw, fset(8), Ter::tesSUCCESS); // asfDefaultRipple
        for a in [&owner, &depositor, &borrower] {
            env.apply(a, trust(gw.iou("USD", 10_000_000_000)), Ter::tesSUCCESS);
        }
        env.apply(
            &gw,
            pay(&depositor, gw.iou("USD", 1_000_000_000)),
            Ter::tesSUCCESS,
        );
        env.apply(&gw, pay(&owner, gw.iou("USD", 1000)), Ter::tesSUCCESS);
        let (vault, broker, _) = lender(
            &mut env,
            (&owner, &depositor),
            gw.iou("USD", 0).issue(),
            gw.iou("USD", 1_000_000_000),
            broker_tx(0, 33_333, 10_000),
        );
        let scale = ledgerd::engine::loan::vault_scale(&env.read(&vault).unwrap());
        let deposit = |a| cover_tx("LoanBrokerCoverDeposit", broker, a);
        env.apply(
            &owner,
            deposit(gw.iou_s("USD", &cover_between(scale))),
            Ter::tesSUCCESS,
        );
        env.apply(&owner, deposit(gw.iou("USD", 1)), Ter::tesSUCCESS);
        let principal = Number::from_i64(100) + Number::new(1, scale);
        let tx = loan_set(broker, principal);
        assert_eq!(
            submit_loan(&mut env, &borrower, &[&owner], tx),
            Ter::tesSUCCESS
        );
        // Taking 1 back leaves 33.333 + 0.5 * 10^scale: above the debt's 33.333% rounded
        // up at DebtTotal's own (finer) scale, below it rounded up at the vault's.
        let want = if on {
            Ter::tecINSUFFICIENT_FUNDS
        } else {
            Ter::tesSUCCESS
        };
        let withdraw = cover_tx("LoanBrokerCoverWithdraw", broker, gw.iou("USD", 1));
        env.apply(&owner, withdraw, want);
    }
}

#[test]
fn a_tiny_rates_periodic_payment_is_exact_only_with_the_fix() {
    let mut payments = Vec::new();
    for on in [false, true] {
        let mut env = env320(on);
        let [gw, owner, depositor, borrower] =
            env.funded(["c320lGw4", "c320lOwn4", "c320lDep4", "c320lBor4"]);
        let usd = usd_to(&mut env, &gw, &[&owner, &depositor, &borrower], 10_000);
        let (_, broker, _) = lender(
            &mut env,
            (&owner, &depositor),
            usd,
            gw.iou("USD", 5000),
            broker_tx(0, 0, 0),
        );
        // 0.001% a year, two payments a minute apart: r = 60e-5 / 31536000, n r ~ 4e-11.
        let tx = loan_set(broker, Number::from_i64(1000))
            .u32("InterestRate", 1)
            .u32("PaymentInterval", 60)
            .u32("PaymentTotal", 2);
        assert_eq!(
            submit_loan(&mut env, &borrower, &[&owner], tx),
            Ter::tesSUCCESS
        );
        let loan = ledgerd::ledger::keylet::loan(&broker, 1);
        let payment = number_of(&env.read(&loan).unwrap(), sf().periodic_payment);
        payments.push(payment.to_string().parse::<f64>().expect("a decimal"));
    }
    // 1000 r (1+r)^2 / ((1+r)^2 - 1) = 1000 (1+r)^2 / (2+r).
    let r = 60e-5 / 31_536_000.0_f64;
    let exact = 1000.0 * (1.0 + r) * (1.0 + r) / (2.0 + r);
    let (off, on) = (payments[0], payments[1]);
    assert!(
        (on - exact).abs() < 1e-10,
        "with the fix {on} against {exact}"
    );
    assert!(
        (off - exact).abs() > 1e-8,
        "without the fix {off}: the cancellation's error"
    );
}
