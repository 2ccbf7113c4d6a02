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
//! - L5 (rippled develop `TransfersNotFrozen`, XLS-66): a default moves the first-loss
//!   cover from the broker's pseudo-account to the vault's whatever the asset's freeze;
//!   before the fix the invariant failed it (`tecINVARIANT_FAILED`) when the issuer froze
//!   everything, froze the broker's line or deep-froze either.
//!
//! Each loan of L1 to L4: 300 XRP at no interest, three payments 600 s apart, 60 s of
//! grace, from an accrual XRP vault (open-ended, so without LendingProtocolV1_1, as
//! rippled's tests).

use crate::rules::env_with;
use crate::rules_lending11_loan::{
    borrow, broker_tx, close_at, lending, loan_pay, manage, u32_of, Lending, LEGACY, TF_DEFAULT,
    TF_IMPAIR, TF_LATE, TF_UNIMPAIR, XRP,
};
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::types::{AccountId, Hash256};
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

/// A USD loan (`usd_loan`): its parties and entries.
pub struct UsdLoan {
    pub gw: Account,
    pub owner: Account,
    pub borrower: Account,
    pub broker: Hash256,
    pub loan: Hash256,
    /// The broker's pseudo-account.
    pub broker_pseudo: AccountId,
    /// The vault's pseudo-account.
    pub vault_pseudo: AccountId,
}

/// gw issues USD (DefaultRipple; with `require_auth` also RequireAuth, the owner's and
/// the borrower's lines authorized, the pseudo-accounts' not); owner's USD vault holds
/// 1000 and its broker (10% minimum cover, all of it liquidated on a default) 50 of
/// cover; the borrower owes 100 USD at no interest in one payment due 600 s after the
/// start, with 60 s of grace.
pub fn usd_loan(env: &mut Env, require_auth: bool) -> UsdLoan {
    let [gw, owner, borrower] = env.funded(["c340Gw", "c340Owner", "c340Borrower"]);
    if require_auth {
        env.gateway(&gw);
    } else {
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
    // Each step closed: a closing ledger applies its transactions in canonical order.
    env.close();
    for a in [&owner, &borrower] {
        env.apply(a, trust(gw.iou("USD", 10_000)), Ter::tesSUCCESS);
    }
    env.close();
    for a in [&owner, &borrower] {
        if require_auth {
            env.apply(&gw, authorize(a, "USD"), Ter::tesSUCCESS);
        }
    }
    env.close();
    for a in [&owner, &borrower] {
        env.apply(&gw, pay(a, gw.iou("USD", 2_000)), Ter::tesSUCCESS);
    }
    env.close();
    let (vault, broker, broker_pseudo) = crate::loan::lender(
        env,
        (&owner, &owner),
        gw.iou("USD", 0).issue(),
        gw.iou("USD", 1_000),
        broker_tx(0, 10_000, 100_000),
    );
    let cover = Tx::new("LoanBrokerCoverDeposit")
        .h256("LoanBrokerID", broker)
        .amount("Amount", gw.iou("USD", 50));
    env.apply(&owner, cover, Ter::tesSUCCESS);
    env.close();
    let seq = u32_of(env, &broker, sf().loan_sequence).unwrap();
    let tx = crate::loan::loan_set(broker, Number::from_i64(100))
        .account("Counterparty", &owner.id)
        .u32("PaymentTotal", 1)
        .u32("PaymentInterval", 600)
        .u32("GracePeriod", 60);
    let t = crate::loan::submit_loan(env, &borrower, &[&owner], tx);
    assert_eq!(t, Ter::tesSUCCESS, "LoanSet");
    env.close();
    let vault_pseudo = env.read(&vault).unwrap().account_of(sf().account).unwrap();
    UsdLoan {
        gw,
        owner,
        borrower,
        broker,
        loan: ledgerd::ledger::keylet::loan(&broker, seq),
        broker_pseudo,
        vault_pseudo,
    }
}

/// TrustSet's tfSetFreeze and tfSetDeepFreeze.
const TF_SET_FREEZE: u32 = 0x0010_0000;
const TF_SET_DEEP_FREEZE: u32 = 0x0040_0000;

/// How the issuer froze the cover's way before the default.
#[derive(Clone, Copy, Debug)]
enum Freeze {
    Global,
    Broker,
    BrokerDeep,
    VaultDeep,
    /// A regular freeze of the receiving vault: no freeze of the transfer either way.
    Vault,
}

impl Freeze {
    fn apply(self, env: &mut Env, l: &UsdLoan) {
        let line = |who: &AccountId, flags: u32| {
            trust(Amount::iou(val("0"), cur("USD"), *who)).flags(flags)
        };
        let deep = TF_SET_FREEZE | TF_SET_DEEP_FREEZE;
        let tx = match self {
            Freeze::Global => fset(asf::GLOBAL_FREEZE),
            Freeze::Broker => line(&l.broker_pseudo, TF_SET_FREEZE),
            Freeze::BrokerDeep => line(&l.broker_pseudo, deep),
            Freeze::VaultDeep => line(&l.vault_pseudo, deep),
            Freeze::Vault => line(&l.vault_pseudo, TF_SET_FREEZE),
        };
        env.apply(&l.gw, tx, Ter::tesSUCCESS);
    }
}

/// L5: (the default's answer, the broker's CoverAvailable after it) for each freeze.
fn defaults_under(on: bool, freezes: &[Freeze]) -> Vec<(Ter, Number)> {
    freezes
        .iter()
        .map(|f| {
            let mut env = env340(on);
            let l = usd_loan(&mut env, false);
            let start = u32_of(&env, &l.loan, sf().start_date).unwrap();
            f.apply(&mut env, &l);
            close_at(&mut env, start + 661);
            let t = env.submit(&l.owner, manage(l.loan, TF_DEFAULT));
            let cover = crate::rules_lending11_loan::n_of(&env, &l.broker, sf().cover_available);
            (t, cover)
        })
        .collect()
}

const FROZEN_WAYS: [Freeze; 4] = [
    Freeze::Global,
    Freeze::Broker,
    Freeze::BrokerDeep,
    Freeze::VaultDeep,
];

/// With the fix the 10 USD of cover move whatever the freeze.
#[test]
fn a_default_moves_frozen_cover_with_the_fix() {
    let paid = (Ter::tesSUCCESS, Number::from_i64(40));
    assert_eq!(defaults_under(true, &FROZEN_WAYS), vec![paid; 4]);
}

/// Before it, `TransfersNotFrozen` fails the default; the cover stays.
#[test]
fn a_default_of_frozen_cover_fails_the_invariant_without_it() {
    let failed = (Ter::tecINVARIANT_FAILED, Number::from_i64(50));
    assert_eq!(defaults_under(false, &FROZEN_WAYS), vec![failed; 4]);
}

/// A regular freeze of the receiving vault's line stops nothing, both ways.
#[test]
fn a_frozen_vault_receives_the_cover_both_ways() {
    let paid = (Ter::tesSUCCESS, Number::from_i64(40));
    for on in [false, true] {
        assert_eq!(defaults_under(on, &[Freeze::Vault]), vec![paid]);
    }
}
