//! fixCleanup3_4_0's token-helper spot (V8, rippled develop `RippleStateHelpers.cpp`
//! `requireAuth`): under the issuer's RequireAuth a pseudo-account (an AMM's, a vault's,
//! a loan broker's) is implicitly authorized on its line, which no issuer authorizes
//! since it signs nothing and holds only for the entry that owns it; before the fix the
//! line needed the issuer's authorization (`tecNO_AUTH`).
//!
//! The story: a USD loan from a vault whose issuer requires authorization (the owner's
//! and the borrower's lines authorized, the pseudo-accounts' not). Paying it back pays
//! the vault's pseudo-account, which LoanPay asks `requireAuth` of.

use crate::rules::env_with;
use crate::rules_cleanup340_loan::usd_loan;

use ledgerd::engine::Ter;
use ledgerd::ledger::sf::sf;
use ledgerd::protocol::features::Feature;

/// (the repayment's answer, the loan's PaymentRemaining after it: none once paid off).
fn repay(on: bool) -> (Ter, Option<u32>) {
    // An open-ended vault lends only without LendingProtocolV1_1 (rippled's tests alike).
    let mut env = env_with(
        Feature::FixCleanup3_4_0,
        on,
        &[Feature::LendingProtocolV1_1],
    );
    let l = usd_loan(&mut env, true);
    let borrower = l.borrower.clone();
    let t = env.submit(&borrower, crate::loan::pay(l.loan, l.gw.iou("USD", 100)));
    let left = crate::rules_lending11_loan::u32_of(&env, &l.loan, sf().payment_remaining);
    (t, left)
}

#[test]
fn the_vaults_pseudo_account_is_paid_with_the_fix() {
    assert_eq!(repay(true), (Ter::tesSUCCESS, None));
}

#[test]
fn its_unauthorized_line_refuses_the_payment_without_it() {
    assert_eq!(repay(false), (Ter::tecNO_AUTH, Some(1)));
}
