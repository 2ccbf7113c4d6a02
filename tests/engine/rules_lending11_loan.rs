//! LendingProtocolV1_1's loan side (rippled `LoanCashBasis_test.cpp`, XLS-66.1 / 66.1.1 /
//! 66.1.2, PRs #7817 and #7921 / #8076):
//!
//! - Cash basis: a vault whose LEVersion is 1 books no interest when it lends
//!   (AssetsTotal += 0, DebtTotal += principal), books the interest as it is paid
//!   (AssetsTotal += interest paid, DebtTotal -= principal paid), and puts only the
//!   principal outstanding at stake on impairment and default. Its loans skip the
//!   accrual AssetsMaximum gates and the broker's caps count principal only. The vault's
//!   version decides, never the rules (a vault made before the amendment keeps accruing
//!   after it). Each story runs rippled's two ways: a cash-basis vault under the
//!   amendment (rippled's `all_ | featureLendingProtocolV1_1`) and an accrual,
//!   open-ended one without it (`all_`, whose vaults are open-ended: with the amendment
//!   their broker would be refused).
//!
//!   The stories shape the vault (its LEVersion, kind and dates) on the entry by
//!   reopening the ledger from an edited snapshot (`rules_fixes2::reopen`), so that the
//!   closed-ended vault is already investing; the cash-basis paths read only the
//!   vault's LEVersion.
//! - Closed-ended vaults: with the amendment a new broker over an open-ended vault is
//!   `tecNO_PERMISSION` (below, both ways); under ledgerd's own rule book a vault that
//!   VaultCreate makes closed-ended lends only while it invests, and no loan outlasts
//!   its RedemptionDate (the last story; `loan_set::vault_open_for_loans` has each gate
//!   both ways as unit tests).

use crate::loan::{loan_set, submit_loan};
use crate::rules::env_with;
use crate::rules_fixes2::reopen;
use crate::support;

use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{Hash256, Issue};
use support::engine::*;

pub const TF_LATE: u32 = 0x0004_0000;
const TF_FULL: u32 = 0x0002_0000;
/// tfLoanOverpayment, on LoanSet and on LoanPay.
const TF_OVERPAYMENT: u32 = 0x0001_0000;
pub const TF_DEFAULT: u32 = 0x0001_0000;
pub const TF_IMPAIR: u32 = 0x0002_0000;
pub const TF_UNIMPAIR: u32 = 0x0004_0000;

/// One XRP in drops.
pub const XRP: i64 = 1_000_000;

/// ledgerd's rule book with LendingProtocolV1_1 on or off, less fixCleanup3_4_0: these
/// stories impair loans not yet late, which that fix refuses (rules_cleanup340_loan.rs).
pub fn env11(on: bool) -> Env {
    env_with(
        Feature::LendingProtocolV1_1,
        on,
        &[Feature::FixCleanup3_4_0],
    )
}

/// Sets an STNumber field of a transaction.
pub fn with_number(tx: Tx, name: &str, v: Number) -> Tx {
    let mut tx = tx;
    let mut b = v.mantissa().to_be_bytes().to_vec();
    b.extend_from_slice(&v.exponent().to_be_bytes());
    tx.0.set(Field::named(name), StValue::Fixed(b));
    tx
}

pub fn d(n: i64) -> Number {
    Number::from_i64(n)
}

pub fn n_of(env: &Env, key: &Hash256, f: Field) -> Number {
    number_of(&env.read(key).expect("entry"), f)
}

pub fn u32_of(env: &Env, key: &Hash256, f: Field) -> Option<u32> {
    env.read(key).expect("entry").u32_of(f)
}

pub fn manage(loan: Hash256, flags: u32) -> Tx {
    Tx::new("LoanManage").h256("LoanID", loan).flags(flags)
}

pub fn loan_pay(loan: Hash256, drops_: i64, flags: u32) -> Tx {
    crate::loan::pay(loan, drops(drops_)).flags(flags)
}

/// Closes ledgers until the parent close time is exactly `t` (close times are rounded
/// to the resolution, and a ledger asked to close no later than its parent closes one
/// second after it).
pub fn close_at(env: &mut Env, t: u32) {
    assert!(t > env.parent_close(), "the clock only moves on");
    if t - env.parent_close() > 40 {
        env.store.close(t - 40);
    }
    while env.parent_close() < t {
        let p = env.parent_close();
        env.store.close(p.saturating_sub(30));
    }
    assert_eq!(env.parent_close(), t);
    env.now = t;
}

/// What a story's vault is made as.
#[derive(Clone, Copy)]
pub struct VaultShape {
    /// LEVersion 1 (cash basis).
    pub cash: bool,
    /// Closed-ended, with (SubscriptionDate, RedemptionDate) as offsets from the parent
    /// close time at which the vault is reshaped.
    pub dates: Option<(i64, i64)>,
}

/// An accrual, open-ended vault: LendingProtocol's.
pub const LEGACY: VaultShape = VaultShape {
    cash: false,
    dates: None,
};
/// A cash-basis vault, closed-ended and already investing (the subscription ended a
/// second ago, the redemption far off): where V1_1 lends.
pub const CASH_INVESTING: VaultShape = VaultShape {
    cash: true,
    dates: Some((-1, 10_000_000)),
};

/// The parties and entries of a lending story.
pub struct Lending {
    pub owner: Account,
    pub borrower: Account,
    pub vault: Hash256,
    pub broker: Hash256,
}

/// An XRP vault of `deposit` XRP by `owner` (who deposits), reshaped as `shape`, and a
/// broker over it with `broker` (a LoanBrokerSet without VaultID) and `cover` XRP of
/// first-loss capital. Returns the parties, vault and broker; the ledger is closed.
pub fn lending(env: &mut Env, shape: VaultShape, deposit: i64, broker: Tx, cover: i64) -> Lending {
    let [owner, borrower] = env.funded(["l11Owner", "l11Borrower"]);
    env.fund(&owner, xrp(deposit + cover + 1_000));
    env.fund(&borrower, xrp(100_000));
    let seq = env.seq(&owner);
    let mut tx = Tx::new("VaultCreate");
    tx.0.set(sf().asset, StValue::Issue(Issue::XRP));
    let fee = env.store.fees().reserve_inc_drops as i64;
    env.apply(&owner, tx.amount("Fee", drops(fee)), Ter::tesSUCCESS);
    let vault = keylet::vault(&owner.id, seq);
    let dep = Tx::new("VaultDeposit")
        .h256("VaultID", vault)
        .amount("Amount", xrp(deposit));
    env.apply(&owner, dep, Ter::tesSUCCESS);
    reshape(env, vault, shape);
    let seq = env.seq(&owner);
    env.apply(&owner, broker.h256("VaultID", vault), Ter::tesSUCCESS);
    let broker = keylet::loan_broker(&owner.id, seq);
    if cover > 0 {
        let tx = Tx::new("LoanBrokerCoverDeposit")
            .h256("LoanBrokerID", broker)
            .amount("Amount", xrp(cover));
        env.apply(&owner, tx, Ter::tesSUCCESS);
    }
    env.close();
    Lending {
        owner,
        borrower,
        vault,
        broker,
    }
}

/// Sets the vault's LEVersion, kind and dates as `shape` says (closing the ledger).
pub fn reshape(env: &mut Env, vault: Hash256, shape: VaultShape) {
    if !shape.cash && shape.dates.is_none() {
        return;
    }
    let cfg = env.store.config().clone();
    env.close();
    let now = i64::from(env.parent_close());
    reopen(env, cfg, |entries| {
        let s = sf();
        let (_, v): &mut (Hash256, StObject) = entries
            .iter_mut()
            .find(|(k, _)| *k == vault)
            .expect("vault");
        if shape.cash {
            v.set(s.le_version, StValue::UInt8(1));
        }
        if let Some((sub, red)) = shape.dates {
            v.set(s.vault_kind, StValue::UInt8(1));
            v.set(s.subscription_date, StValue::UInt32((now + sub) as u32));
            v.set(s.redemption_date, StValue::UInt32((now + red) as u32));
        }
    });
}

pub fn broker_tx(fee_rate: u16, cover_min: u32, cover_liquidation: u32) -> Tx {
    crate::loan::broker_tx(fee_rate, cover_min, cover_liquidation)
}

/// The terms of a story's loan: (interest rate, payments, interval, grace period).
pub type Terms = (u32, u32, u32, u32);

/// The borrower takes a loan of `principal` XRP on `terms`, co-signed by the owner;
/// returns the loan's key.
pub fn borrow(env: &mut Env, l: &Lending, principal: i64, terms: Terms, want: Ter) -> Hash256 {
    borrow_flagged(env, l, (principal, terms, 0), want)
}

/// [`borrow`] with LoanSet `flags` (tfLoanOverpayment).
fn borrow_flagged(env: &mut Env, l: &Lending, loan: (i64, Terms, u32), want: Ter) -> Hash256 {
    let (principal, terms, flags) = loan;
    let seq = u32_of(env, &l.broker, sf().loan_sequence).unwrap_or(1);
    let (rate, total, interval, grace) = terms;
    let tx = loan_set(l.broker, d(principal * XRP))
        .account("Counterparty", &l.owner.id)
        .u32("InterestRate", rate)
        .u32("PaymentTotal", total)
        .u32("PaymentInterval", interval)
        .u32("GracePeriod", grace)
        .flags(flags);
    let (borrower, owner) = (l.borrower.clone(), l.owner.clone());
    assert_eq!(submit_loan(env, &borrower, &[&owner], tx), want);
    keylet::loan(&l.broker, seq)
}

/// (AssetsTotal, DebtTotal, LossUnrealized, CoverAvailable), rippled's trajectory values.
fn books(env: &Env, l: &Lending) -> [Number; 4] {
    let s = sf();
    [
        n_of(env, &l.vault, s.assets_total),
        n_of(env, &l.broker, s.debt_total),
        n_of(env, &l.vault, s.loss_unrealized),
        n_of(env, &l.broker, s.cover_available),
    ]
}

fn xrp_n(n: i64) -> Number {
    d(n * XRP)
}

// ---------------------------------------------------------------------------------------
// Cash basis
// ---------------------------------------------------------------------------------------

/// `testCashBasisLoanSetOrigination`: 10'000 XRP from a 100'000 XRP vault at 10% over
/// two daily payments; returns (AssetsTotal delta, DebtTotal delta, interest due).
fn origination(cash: bool) -> (Number, Number, Number) {
    let mut env = env11(cash);
    let shape = if cash { CASH_INVESTING } else { LEGACY };
    let l = lending(&mut env, shape, 100_000, broker_tx(0, 0, 0), 0);
    let s = sf();
    let [total, debt, ..] = books(&env, &l);
    let loan = borrow(
        &mut env,
        &l,
        10_000,
        (10_000, 2, 86_400, 60),
        Ter::tesSUCCESS,
    );
    let principal = n_of(&env, &loan, s.principal_outstanding);
    assert_eq!(principal, xrp_n(10_000));
    let interest = n_of(&env, &loan, s.total_value_outstanding) - principal;
    assert!(interest.signum() > 0);
    let [total2, debt2, ..] = books(&env, &l);
    (total2 - total, debt2 - debt, interest)
}

#[test]
fn a_cash_basis_loan_books_no_interest_when_it_is_made() {
    let (assets, debt, interest) = origination(true);
    assert_eq!(assets, Number::ZERO);
    assert_eq!(debt, xrp_n(10_000));
    let (assets, debt, interest_accrual) = origination(false);
    assert_eq!(interest, interest_accrual, "the loan itself is the same");
    assert_eq!(assets, interest);
    assert_eq!(debt, xrp_n(10_000) + interest);
}

/// The same loan against a vault whose AssetsMaximum leaves `slack` above its total.
fn under_assets_maximum(cash: bool, slack: Number, want: Ter) {
    let mut env = env11(cash);
    let shape = if cash { CASH_INVESTING } else { LEGACY };
    let l = lending(&mut env, shape, 100_000, broker_tx(0, 0, 0), 0);
    let maximum = n_of(&env, &l.vault, sf().assets_total) + slack;
    let set = with_number(
        Tx::new("VaultSet").h256("VaultID", l.vault),
        "AssetsMaximum",
        maximum,
    );
    env.apply(&l.owner, set, Ter::tesSUCCESS);
    borrow(&mut env, &l, 10_000, (10_000, 2, 86_400, 60), want);
}

/// rippled's AssetsMaximum guards: an accrual vault needs room for the interest due (one
/// drop short is `tecLIMIT_EXCEEDED`, exactly enough succeeds); a cash-basis vault lends
/// with a drop of room.
#[test]
fn only_an_accrual_vault_needs_room_under_its_maximum_for_the_interest() {
    let (_, _, interest) = origination(true);
    under_assets_maximum(false, interest - d(1), Ter::tecLIMIT_EXCEEDED);
    under_assets_maximum(false, interest, Ter::tesSUCCESS);
    under_assets_maximum(true, d(1), Ter::tesSUCCESS);
    under_assets_maximum(true, Number::ZERO, Ter::tesSUCCESS);
    // At its maximum already, an accrual vault takes no loan (LoanSet preclaim).
    under_assets_maximum(false, Number::ZERO, Ter::tecLIMIT_EXCEEDED);
}

/// rippled's DebtMaximum guard: the broker's new debt is principal only on a cash-basis
/// vault, principal and interest on an accrual one.
#[test]
fn a_cash_basis_broker_caps_principal_only() {
    let (_, _, interest) = origination(true);
    for cash in [true, false] {
        let new_debt = xrp_n(10_000) + if cash { Number::ZERO } else { interest };
        for (maximum, want) in [
            (new_debt - d(1), Ter::tecLIMIT_EXCEEDED),
            (new_debt, Ter::tesSUCCESS),
        ] {
            let mut env = env11(cash);
            let shape = if cash { CASH_INVESTING } else { LEGACY };
            let l = lending(&mut env, shape, 100_000, broker_tx(0, 0, 0), 0);
            let update = with_number(
                Tx::new("LoanBrokerSet")
                    .h256("VaultID", l.vault)
                    .h256("LoanBrokerID", l.broker),
                "DebtMaximum",
                maximum,
            );
            env.apply(&l.owner, update, Ter::tesSUCCESS);
            borrow(&mut env, &l, 10_000, (10_000, 2, 86_400, 60), want);
        }
    }
}

/// What one LoanPay moved: (principal paid, AssetsTotal, DebtTotal, TotalValueOutstanding).
struct PayDeltas {
    principal: Number,
    assets: Number,
    debt: Number,
    value: Number,
}

/// `testCashBasisLoanPay`'s scenario: 12'000 XRP at 12% over four 600 s payments (300 s
/// grace); `late` waits past the due date first, then one payment of `amount(periodic)`
/// drops with `flags`.
fn one_payment(cash: bool, late: bool, flags: u32, amount: fn(i64) -> i64) -> PayDeltas {
    let mut env = env11(cash);
    let shape = if cash { CASH_INVESTING } else { LEGACY };
    let l = lending(&mut env, shape, 1_000_000, broker_tx(0, 0, 0), 0);
    let s = sf();
    let terms = (12_000, 4, 600, 300);
    let loan_flags = flags & TF_OVERPAYMENT;
    let loan = borrow_flagged(&mut env, &l, (12_000, terms, loan_flags), Ter::tesSUCCESS);
    let start = u32_of(&env, &loan, s.start_date).unwrap();
    if late {
        close_at(&mut env, start + 601);
    } else {
        env.close();
    }
    let periodic = n_of(&env, &loan, s.periodic_payment);
    let periodic = periodic.to_i64().expect("drops") + 1;
    let before = (
        n_of(&env, &loan, s.principal_outstanding),
        n_of(&env, &loan, s.total_value_outstanding),
        books(&env, &l),
    );
    let borrower = l.borrower.clone();
    env.apply(
        &borrower,
        loan_pay(loan, amount(periodic), flags),
        Ter::tesSUCCESS,
    );
    let after = books(&env, &l);
    PayDeltas {
        principal: before.0 - n_of(&env, &loan, s.principal_outstanding),
        assets: after[0] - before.2[0],
        debt: after[1] - before.2[1],
        value: n_of(&env, &loan, s.total_value_outstanding) - before.1,
    }
}

/// rippled's `checkScenario`: the loan moves the same both ways; the accrual broker's
/// debt follows the loan's value; the interest paid is what the accrual vault's deltas
/// leave; the cash-basis vault books that interest and the debt falls by the principal.
fn check_scenario(label: &str, off: PayDeltas, on: PayDeltas) {
    assert_eq!(off.principal, on.principal, "{label}: principal paid");
    assert!(on.principal.signum() > 0, "{label}");
    assert_eq!(
        off.debt, off.value,
        "{label}: accrual debt follows the value"
    );
    let interest = off.assets - off.debt - off.principal;
    assert!(interest.signum() > 0, "{label}: interest paid");
    assert_eq!(on.assets, interest, "{label}: cash-basis AssetsTotal");
    assert_eq!(on.debt, -on.principal, "{label}: cash-basis DebtTotal");
}

#[test]
fn a_cash_basis_vault_books_the_interest_each_payment_brings() {
    let regular: fn(i64) -> i64 = |p| p * 3 / 2;
    let off = one_payment(false, false, 0, regular);
    assert_eq!(off.assets, Number::ZERO, "on time, no value change");
    check_scenario("regular", off, one_payment(true, false, 0, regular));
    let generous: fn(i64) -> i64 = |p| p * 3;
    let late = |cash| one_payment(cash, true, TF_LATE, generous);
    check_scenario("late", late(false), late(true));
    let over: fn(i64) -> i64 = |p| p + 2_000 * XRP;
    let overpay = |cash| one_payment(cash, false, TF_OVERPAYMENT, over);
    check_scenario("overpayment", overpay(false), overpay(true));
    let full: fn(i64) -> i64 = |_| 24_000 * XRP;
    let full_pay = |cash| one_payment(cash, false, TF_FULL, full);
    check_scenario("full", full_pay(false), full_pay(true));
}

/// `testCashBasisLoanManage`'s loan: 10'000 XRP at 12% over four 600 s payments (60 s
/// grace), a 1'000'000 XRP vault, 5'000 XRP cover at 10% minimum and 25% liquidation.
/// Returns the story and the loan's exposure (principal on cash basis, TVO − MFO else).
fn managed(cash: bool) -> (Env, Lending, Hash256, Number) {
    let mut env = env11(cash);
    let shape = if cash { CASH_INVESTING } else { LEGACY };
    let l = lending(
        &mut env,
        shape,
        1_000_000,
        broker_tx(0, 10_000, 25_000),
        5_000,
    );
    let loan = borrow(&mut env, &l, 10_000, (12_000, 4, 600, 60), Ter::tesSUCCESS);
    let s = sf();
    let exposure = if cash {
        n_of(&env, &loan, s.principal_outstanding)
    } else {
        n_of(&env, &loan, s.total_value_outstanding)
            - n_of(&env, &loan, s.management_fee_outstanding)
    };
    (env, l, loan, exposure)
}

#[test]
fn impairing_a_cash_basis_loan_puts_only_its_principal_at_stake() {
    for cash in [true, false] {
        let (mut env, l, loan, exposure) = managed(cash);
        assert_eq!(exposure == xrp_n(10_000), cash, "accrual counts interest");
        let loss = |env: &Env| n_of(env, &l.vault, sf().loss_unrealized);
        env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
        assert_eq!(loss(&env), exposure, "cash: {cash}");
        env.close();
        env.apply(&l.owner, manage(loan, TF_UNIMPAIR), Ter::tesSUCCESS);
        assert_eq!(loss(&env), Number::ZERO, "an exact reversal");
    }
}

#[test]
fn a_cash_basis_default_writes_off_the_principal() {
    for cash in [true, false] {
        let (mut env, l, loan, exposure) = managed(cash);
        env.apply(&l.owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
        env.close();
        let start = u32_of(&env, &loan, sf().start_date).unwrap();
        close_at(&mut env, start + 600 + 60 + 60);
        let before = books(&env, &l);
        env.apply(&l.owner, manage(loan, TF_DEFAULT), Ter::tesSUCCESS);
        let after = books(&env, &l);
        let covered = before[3] - after[3];
        assert!(covered.signum() > 0);
        assert_eq!(after[1] - before[1], -exposure, "DebtTotal, cash: {cash}");
        assert_eq!(after[2] - before[2], -exposure, "LossUnrealized");
        assert_eq!(after[0] - before[0], covered - exposure, "AssetsTotal");
        if cash {
            // 10% of the 10'000 XRP debt, 25% of that: 250 XRP.
            assert_eq!(covered, xrp_n(250));
        }
    }
}

/// `testCashBasisEndToEndTrajectory`: a 100'000 XRP vault, 1'000 XRP cover (10% minimum,
/// 25% liquidation), 1'200 XRP lent at no interest over twelve 600 s payments of 100;
/// two payments, then a default after the third due date's grace period. At no interest
/// the accrual books are the same, so the story runs both ways with rippled's numbers.
#[test]
fn a_cash_basis_loan_runs_rippleds_trajectory() {
    for on in [true, false] {
        let mut env = env11(on);
        let shape = if on { CASH_INVESTING } else { LEGACY };
        let l = lending(
            &mut env,
            shape,
            100_000,
            broker_tx(0, 10_000, 25_000),
            1_000,
        );
        let table = |env: &Env, want: [i64; 4], step: &str| {
            assert_eq!(books(env, &l), want.map(xrp_n), "{step}, on: {on}");
        };
        table(&env, [100_000, 0, 0, 1_000], "before LoanSet");
        let loan = borrow(&mut env, &l, 1_200, (0, 12, 600, 60), Ter::tesSUCCESS);
        table(&env, [100_000, 1_200, 0, 1_000], "after LoanSet");
        assert_eq!(n_of(&env, &loan, sf().periodic_payment), xrp_n(100));
        let start = u32_of(&env, &loan, sf().start_date).unwrap();
        let borrower = l.borrower.clone();
        env.close();
        env.apply(&borrower, loan_pay(loan, 100 * XRP, 0), Ter::tesSUCCESS);
        table(&env, [100_000, 1_100, 0, 1_000], "after payment 1");
        env.close();
        env.apply(&borrower, loan_pay(loan, 100 * XRP, 0), Ter::tesSUCCESS);
        table(&env, [100_000, 1_000, 0, 1_000], "after payment 2");
        close_at(&mut env, start + 3 * 600 + 60 + 1);
        env.apply(&l.owner, manage(loan, TF_DEFAULT), Ter::tesSUCCESS);
        table(&env, [99_025, 0, 0, 975], "after the default");
    }
}

/// The loan invariant (`invariants/loan_v11.rs`) in the pipeline: a loan whose
/// TotalValueOutstanding was edited one drop below its PrincipalOutstanding (negative
/// interest due) fails the next transaction that writes it, LoanManage's impairment,
/// with the amendment (`tecINVARIANT_FAILED`); without it the impairment applies.
#[test]
fn a_loan_left_with_negative_interest_due_fails_the_invariant_with_the_amendment() {
    for on in [false, true] {
        let mut env = env11(on);
        let l = lending(&mut env, CASH_INVESTING, 100_000, broker_tx(0, 0, 0), 0);
        let loan = borrow(&mut env, &l, 1_000, (10_000, 4, 600, 60), Ter::tesSUCCESS);
        let principal = n_of(&env, &loan, sf().principal_outstanding);
        let cfg = env.store.config().clone();
        reopen(&mut env, cfg, |entries| {
            let (_, e) = entries.iter_mut().find(|(k, _)| *k == loan).expect("loan");
            let short = with_number(Tx(e.clone()), "TotalValueOutstanding", principal - d(1));
            *e = short.0;
        });
        let want = if on {
            Ter::tecINVARIANT_FAILED
        } else {
            Ter::tesSUCCESS
        };
        let owner = l.owner.clone();
        env.apply(&owner, manage(loan, TF_IMPAIR), want);
    }
}

// ---------------------------------------------------------------------------------------
// Closed-ended vaults
// ---------------------------------------------------------------------------------------

/// With the amendment a new broker over an open-ended vault is `tecNO_PERMISSION`
/// (rippled #8076); without it the broker is made. (Over a closed-ended vault it is
/// made: the story below.)
#[test]
fn a_new_broker_over_an_open_ended_vault_is_refused_with_the_amendment() {
    for on in [false, true] {
        let mut env = env11(on);
        let [owner] = env.funded(["l11BrOwner"]);
        let seq = env.seq(&owner);
        let mut tx = Tx::new("VaultCreate");
        tx.0.set(sf().asset, StValue::Issue(Issue::XRP));
        let fee = env.store.fees().reserve_inc_drops as i64;
        env.apply(&owner, tx.amount("Fee", drops(fee)), Ter::tesSUCCESS);
        let vault = keylet::vault(&owner.id, seq);
        let want = if on {
            Ter::tecNO_PERMISSION
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&owner, broker_tx(0, 0, 0).h256("VaultID", vault), want);
    }
}

/// Under ledgerd's own rule book (LendingProtocolV1_1 on), a vault VaultCreate makes
/// closed-ended, as a user of xrpld with the amendment would: it takes a deposit while it
/// subscribes and gets a broker, which may not lend yet (`tecTOO_SOON`); once the
/// SubscriptionDate has passed it lends, but no loan whose last payment (plus 60 s) falls
/// after the RedemptionDate (`tecNO_PERMISSION`); the loan is booked on a cash basis and
/// its first payment brings its interest into AssetsTotal; from the RedemptionDate on it
/// lends no more (`tecEXPIRED`).
#[test]
fn a_closed_ended_vault_lends_while_it_invests_under_ledgerds_own_rules() {
    let mut env = crate::rules::env_without(&[]);
    assert!(env.store.rules().enabled(Feature::LendingProtocolV1_1));
    let [owner, borrower] = env.funded(["l11OwnOwner", "l11OwnBorrower"]);
    env.fund(&owner, xrp(20_000));
    let (sub, red) = (env.parent_close() + 600, env.parent_close() + 20_600);
    let seq = env.seq(&owner);
    let mut create = Tx::new("VaultCreate")
        .u8("VaultKind", 1)
        .u32("SubscriptionDate", sub)
        .u32("RedemptionDate", red);
    create.0.set(sf().asset, StValue::Issue(Issue::XRP));
    let fee = env.store.fees().reserve_inc_drops as i64;
    env.apply(&owner, create.amount("Fee", drops(fee)), Ter::tesSUCCESS);
    let vault = keylet::vault(&owner.id, seq);
    let version = env.read(&vault).expect("vault").u8_of(sf().le_version);
    assert_eq!(version, Some(1), "cash basis");
    let dep = Tx::new("VaultDeposit").h256("VaultID", vault);
    env.apply(&owner, dep.amount("Amount", xrp(10_000)), Ter::tesSUCCESS);
    let seq = env.seq(&owner);
    env.apply(
        &owner,
        broker_tx(0, 0, 0).h256("VaultID", vault),
        Ter::tesSUCCESS,
    );
    let broker = keylet::loan_broker(&owner.id, seq);
    env.close();
    let l = Lending {
        owner,
        borrower,
        vault,
        broker,
    };
    let terms = (10_000, 4, 1_000, 60);
    borrow(&mut env, &l, 1_000, terms, Ter::tecTOO_SOON);
    close_at(&mut env, sub + 10);
    // 20 payments 1'000 s apart (and 60 s) end past the RedemptionDate (start: sub + 10).
    borrow(
        &mut env,
        &l,
        1_000,
        (10_000, 20, 1_000, 60),
        Ter::tecNO_PERMISSION,
    );
    let [assets, debt, ..] = books(&env, &l);
    let loan = borrow(&mut env, &l, 1_000, terms, Ter::tesSUCCESS);
    assert_eq!(books(&env, &l)[..2], [assets, debt + xrp_n(1_000)]);
    env.close();
    let periodic = n_of(&env, &loan, sf().periodic_payment)
        .to_i64()
        .expect("drops")
        + 1;
    let borrower = l.borrower.clone();
    env.apply(&borrower, loan_pay(loan, periodic, 0), Ter::tesSUCCESS);
    assert!(books(&env, &l)[0] > assets, "the interest paid is booked");
    close_at(&mut env, red);
    borrow(&mut env, &l, 1_000, terms, Ter::tecEXPIRED);
}
