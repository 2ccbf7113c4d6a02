//! Loan stories, after rippled's `Loan_test.cpp` (LendingProtocol, XLS-66): a broker's
//! owner and a borrower sign a LoanSet together (CounterpartySignature, single or
//! multi-signed); the vault lends, the loan amortizes (its periodic payment, interest
//! and management fee in rippled's Number), the borrower pays it in periodic, late,
//! full or over payments, the owner impairs, unimpairs or defaults it, and either party
//! deletes it once it is over. Every malformed form and failure with rippled's code.

use crate::support;

use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use support::engine::*;
use support::payment::sign_object;

const LSF_LOAN_DEFAULT: u32 = 0x0001_0000;
const LSF_LOAN_IMPAIRED: u32 = 0x0002_0000;
const TF_OVERPAYMENT: u32 = 0x0001_0000;
const TF_FULL: u32 = 0x0002_0000;
const TF_LATE: u32 = 0x0004_0000;
const TF_DEFAULT: u32 = 0x0001_0000;
const TF_IMPAIR: u32 = 0x0002_0000;
const TF_UNIMPAIR: u32 = 0x0004_0000;

/// These stories' rules: ledgerd's own book less LendingProtocolV1_1, under which a new
/// broker needs a closed-ended vault (rippled's tests of open-ended vaults run without
/// it), and less fixCleanup3_4_0, under which only an overdue loan is impaired (rippled's
/// Loan_test of 3.1 to 3.3 impairs loans on time; the fix's timing is in
/// rules_cleanup340_loan.rs).
pub fn env() -> Env {
    crate::rules::env_without(&[Feature::LendingProtocolV1_1, Feature::FixCleanup3_4_0])
}

fn num(m: i64, e: i32) -> Number {
    Number::new(m, e)
}

fn number(tx: Tx, name: &str, v: Number) -> Tx {
    let mut tx = tx;
    let mut b = v.mantissa().to_be_bytes().to_vec();
    b.extend_from_slice(&v.exponent().to_be_bytes());
    tx.0.set(Field::named(name), StValue::Fixed(b));
    tx
}

fn base(env: &Env) -> i64 {
    env.store.fees().base_drops as i64
}

/// A vault of `asset` by `owner`, `deposit` in it from `depositor`, and a broker over
/// it; returns (vault, broker, broker pseudo-account).
pub fn lender(
    env: &mut Env,
    (owner, depositor): (&Account, &Account),
    asset: Issue,
    deposit: Amount,
    broker: Tx,
) -> (Hash256, Hash256, AccountId) {
    let seq = env.seq(owner);
    let mut tx = Tx::new("VaultCreate");
    tx.0.set(sf().asset, StValue::Issue(asset));
    let fee = env.store.fees().reserve_inc_drops as i64;
    env.apply(owner, tx.amount("Fee", drops(fee)), Ter::tesSUCCESS);
    let vault = keylet::vault(&owner.id, seq);
    let dep = Tx::new("VaultDeposit")
        .h256("VaultID", vault)
        .amount("Amount", deposit);
    env.apply(depositor, dep, Ter::tesSUCCESS);
    let seq = env.seq(owner);
    env.apply(owner, broker.h256("VaultID", vault), Ter::tesSUCCESS);
    let key = keylet::loan_broker(&owner.id, seq);
    let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
    // Closed, so that a loan's signature check finds the broker however the next
    // ledger's transactions are ordered.
    env.close();
    (vault, key, pseudo)
}

pub fn broker_tx(fee_rate: u16, cover_min: u32, cover_liquidation: u32) -> Tx {
    let mut tx = Tx::new("LoanBrokerSet")
        .u32("CoverRateMinimum", cover_min)
        .u32("CoverRateLiquidation", cover_liquidation);
    tx.0.set(Field::named("ManagementFeeRate"), StValue::UInt16(fee_rate));
    tx
}

fn cover_deposit(broker: Hash256, amount: Amount) -> Tx {
    Tx::new("LoanBrokerCoverDeposit")
        .h256("LoanBrokerID", broker)
        .amount("Amount", amount)
}

pub fn loan_set(broker: Hash256, principal: Number) -> Tx {
    number(
        Tx::new("LoanSet").h256("LoanBrokerID", broker),
        "PrincipalRequested",
        principal,
    )
}

/// Submits a LoanSet from `who`, co-signed by `cosigners`: one signs CounterpartySignature
/// alone, two or more multi-sign it (Signers sorted by account). The fee is one base fee
/// per signature unless the transaction sets one.
pub fn submit_loan(env: &mut Env, who: &Account, cosigners: &[&Account], tx: Tx) -> Ter {
    let s = sf();
    let mut o = tx.0;
    o.set(s.account, StValue::AccountId(who.id));
    o.set(s.sequence, StValue::UInt32(env.seq(who)));
    if o.get(s.fee).is_none() {
        let signatures = 1 + cosigners.len().max(1) as i64;
        o.set(s.fee, StValue::Amount(Amount::Xrp(base(env) * signatures)));
    }
    o.set(
        s.signing_pub_key,
        StValue::Blob(who.kp.public.as_bytes().to_vec()),
    );
    if !cosigners.is_empty() {
        o.set(
            s.counterparty_signature,
            StValue::Object(counterparty_signature(&o, cosigners)),
        );
    }
    sign_object(&mut o, &who.kp);
    let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
    assert_eq!(decoded, o, "binary round trip");
    let r = env.store.apply(&decoded);
    env.last_meta = r.entry.as_ref().map(|e| e.meta());
    r.ter
}

fn counterparty_signature(o: &StObject, cosigners: &[&Account]) -> StObject {
    let s = sf();
    let mut sig = StObject::new();
    if let [one] = cosigners {
        let data = ledgerd::protocol::tx::signing_data(o);
        sig.set(
            s.signing_pub_key,
            StValue::Blob(one.kp.public.as_bytes().to_vec()),
        );
        sig.set(s.txn_signature, StValue::Blob(one.kp.sign(&data)));
        return sig;
    }
    let mut sorted = cosigners.to_vec();
    sorted.sort_by_key(|a| a.id);
    let list = sorted
        .iter()
        .map(|a| {
            let data = ledgerd::protocol::tx::multisigning_data(o, &a.id);
            let mut signer = StObject::new();
            signer.set(s.account, StValue::AccountId(a.id));
            signer.set(
                s.signing_pub_key,
                StValue::Blob(a.kp.public.as_bytes().to_vec()),
            );
            signer.set(s.txn_signature, StValue::Blob(a.kp.sign(&data)));
            (Field::named("Signer"), signer)
        })
        .collect();
    sig.set(s.signers, StValue::Array(list));
    sig
}

pub fn pay(loan: Hash256, amount: Amount) -> Tx {
    Tx::new("LoanPay")
        .h256("LoanID", loan)
        .amount("Amount", amount)
}

fn manage(loan: Hash256, flags: u32) -> Tx {
    Tx::new("LoanManage").h256("LoanID", loan).flags(flags)
}

fn delete(loan: Hash256) -> Tx {
    Tx::new("LoanDelete").h256("LoanID", loan)
}

fn n_of(env: &Env, key: &Hash256, f: Field) -> Number {
    number_of(&env.read(key).expect("entry"), f)
}

fn u32_of(env: &Env, key: &Hash256, f: Field) -> Option<u32> {
    env.read(key).expect("entry").u32_of(f)
}

fn d(n: i64) -> Number {
    Number::from_i64(n)
}

/// xrpl.js's lending flow: 5 XRP lent from a 10 XRP vault over three payments at no
/// interest; 2.5 XRP pays one payment of 1.666667 XRP, a full payment pays the rest.
#[test]
fn an_xrp_loan_is_lent_paid_and_deleted() {
    let mut env = env();
    let [owner, depositor, borrower] = env.funded(["lnOwner", "lnDepositor", "lnBorrower"]);
    let b_tx = number(broker_tx(10_000, 0, 0), "DebtMaximum", d(25_000_000));
    let (vault, broker, pseudo) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        drops(10_000_000),
        b_tx,
    );
    let s = sf();
    let borrower_before = env.balance(&borrower);
    let owners_before = env.owner_count(&borrower);
    let tx = loan_set(broker, d(5_000_000))
        .account("Counterparty", &borrower.id)
        .u32("PaymentTotal", 3)
        .blob("Data", &[1, 2, 3]);
    assert_eq!(
        submit_loan(&mut env, &owner, &[&borrower], tx),
        Ter::tesSUCCESS
    );
    let start = env.parent_close();
    let key = keylet::loan(&broker, 1);
    let l = env.read(&key).expect("the Loan");
    assert_eq!(l.u16_of(s.ledger_entry_type), Some(lt::LOAN));
    assert_eq!(l.account_of(s.borrower), Some(borrower.id));
    assert_eq!(l.h256_of(s.loan_broker_id), Some(broker));
    assert_eq!(l.u32_of(s.loan_sequence), Some(1));
    assert_eq!(l.u32_of(s.payment_remaining), Some(3));
    assert_eq!(l.u32_of(s.payment_interval), Some(60));
    assert_eq!(l.u32_of(s.grace_period), Some(60));
    assert_eq!(l.u32_of(s.start_date), Some(start));
    assert_eq!(l.u32_of(s.next_payment_due_date), Some(start + 60));
    assert_eq!(l.u32_of(s.previous_payment_due_date), None);
    assert_eq!(number_of(&l, s.principal_outstanding), d(5_000_000));
    assert_eq!(number_of(&l, s.total_value_outstanding), d(5_000_000));
    assert!(l.get(s.management_fee_outstanding).is_none());
    assert!(l.get(s.loan_scale).is_none() && l.get(s.data).is_none());
    // LendingProtocol computes with the 19-digit Number (rippled's
    // `setCurrentTransactionRules`): 5,000,000 / 3 keeps 19 digits.
    assert_eq!(
        number_of(&l, s.periodic_payment),
        num(1_666_666_666_666_666_667, -12)
    );
    assert!(in_dir(&env, &borrower.id, &key) && in_dir(&env, &pseudo, &key));
    assert_eq!(env.balance(&borrower), borrower_before + 5_000_000);
    assert_eq!(env.owner_count(&borrower), owners_before + 1);
    assert_eq!(n_of(&env, &vault, s.assets_available), d(5_000_000));
    assert_eq!(n_of(&env, &vault, s.assets_total), d(10_000_000));
    assert_eq!(n_of(&env, &broker, s.debt_total), d(5_000_000));
    assert_eq!(u32_of(&env, &broker, s.owner_count), Some(1));
    assert_eq!(u32_of(&env, &broker, s.loan_sequence), Some(2));

    env.close();
    let before = env.balance(&borrower);
    env.apply(&borrower, pay(key, drops(2_500_000)), Ter::tesSUCCESS);
    assert_eq!(env.balance(&borrower), before - 1_666_667 - FEE);
    assert_eq!(n_of(&env, &key, s.principal_outstanding), d(3_333_333));
    assert_eq!(n_of(&env, &key, s.total_value_outstanding), d(3_333_333));
    assert_eq!(u32_of(&env, &key, s.payment_remaining), Some(2));
    assert_eq!(
        u32_of(&env, &key, s.previous_payment_due_date),
        Some(start + 60)
    );
    assert_eq!(
        u32_of(&env, &key, s.next_payment_due_date),
        Some(start + 120)
    );
    assert_eq!(n_of(&env, &vault, s.assets_available), d(6_666_667));
    assert_eq!(n_of(&env, &broker, s.debt_total), d(3_333_333));
    env.apply(&borrower, delete(key), Ter::tecHAS_OBLIGATIONS);

    let before = env.balance(&borrower);
    let full = pay(key, drops(3_333_333)).flags(TF_FULL);
    env.apply(&borrower, full, Ter::tesSUCCESS);
    assert_eq!(env.balance(&borrower), before - 3_333_333 - FEE);
    let l = env.read(&key).unwrap();
    for f in [s.principal_outstanding, s.total_value_outstanding] {
        assert!(l.get(f).is_none());
    }
    assert!(l.get(s.payment_remaining).is_none() && l.get(s.next_payment_due_date).is_none());
    assert_eq!(l.u32_of(s.previous_payment_due_date), Some(start + 120));
    assert!(env.read(&broker).unwrap().get(s.debt_total).is_none());
    assert_eq!(n_of(&env, &vault, s.assets_available), d(10_000_000));
    env.apply(&borrower, pay(key, drops(1)), Ter::tecKILLED);
    env.apply(&depositor, delete(key), Ter::tecNO_PERMISSION);
    env.apply(&borrower, delete(key), Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert!(!in_dir(&env, &borrower.id, &key) && !in_dir(&env, &pseudo, &key));
    assert_eq!(env.owner_count(&borrower), owners_before);
    assert_eq!(u32_of(&env, &broker, s.owner_count), None);
    let del = Tx::new("LoanBrokerDelete").h256("LoanBrokerID", broker);
    env.apply(&owner, del, Ter::tesSUCCESS);
}

/// rippled's testSelfLoan: the broker's owner borrows from itself; without a
/// counterparty signature the LoanSet is temBAD_SIGNER, a stranger's is tefBAD_AUTH, and
/// every default applies (one payment, 60 s apart, 60 s of grace, no interest).
#[test]
fn a_self_loan_needs_its_own_counterparty_signature_and_takes_the_defaults() {
    let mut env = env();
    let [owner, depositor, evan] = env.funded(["lnSelf", "lnSelfDep", "lnSelfEvan"]);
    let (_, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        xrp(1000),
        broker_tx(0, 0, 0),
    );
    let tx = || loan_set(broker, d(100_000_000));
    assert_eq!(submit_loan(&mut env, &owner, &[], tx()), Ter::temBAD_SIGNER);
    assert_eq!(
        submit_loan(&mut env, &owner, &[&evan], tx()),
        Ter::tefBAD_AUTH
    );
    // A counterparty signature costs one more base fee.
    let cheap = tx().amount("Fee", drops(base(&env)));
    assert_eq!(
        submit_loan(&mut env, &owner, &[&owner], cheap),
        Ter::telINSUF_FEE_P
    );
    assert_eq!(
        submit_loan(&mut env, &owner, &[&owner], tx()),
        Ter::tesSUCCESS
    );
    let s = sf();
    let key = keylet::loan(&broker, 1);
    let l = env.read(&key).unwrap();
    assert_eq!(l.account_of(s.borrower), Some(owner.id));
    assert_eq!(l.flags(), 0);
    assert_eq!(
        (l.u32_of(s.grace_period), l.u32_of(s.payment_interval)),
        (Some(60), Some(60))
    );
    assert_eq!(l.u32_of(s.payment_remaining), Some(1));
    assert_eq!(number_of(&l, s.periodic_payment), d(100_000_000));
    assert_eq!(number_of(&l, s.total_value_outstanding), d(100_000_000));
    for f in [
        s.interest_rate,
        s.loan_origination_fee,
        s.loan_service_fee,
        s.loan_scale,
    ] {
        assert!(l.get(f).is_none());
    }
    env.apply(&owner, pay(key, drops(100_000_000)), Ter::tesSUCCESS);
    assert!(env.read(&key).unwrap().get(s.payment_remaining).is_none());
}

/// rippled's testRoundingAllowsUndercoverage: the minimum cover of a debt of 804 drops
/// at 10% is 80.4 drops, rounded up: 80 is too little, 81 enough.
#[test]
fn the_minimum_cover_rounds_up() {
    let mut env = env();
    let [owner, depositor, borrower] = env.funded(["lnCov", "lnCovDep", "lnCovBor"]);
    let (_, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        drops(1000),
        broker_tx(0, 10_000, 25_000),
    );
    env.apply(&owner, cover_deposit(broker, drops(82)), Ter::tesSUCCESS);
    let tx = loan_set(broker, d(804));
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], tx),
        Ter::tesSUCCESS
    );
    assert_eq!(n_of(&env, &broker, sf().debt_total), d(804));
    let withdraw = |a| {
        Tx::new("LoanBrokerCoverWithdraw")
            .h256("LoanBrokerID", broker)
            .amount("Amount", drops(a))
    };
    env.apply(&owner, withdraw(2), Ter::tecINSUFFICIENT_FUNDS);
    env.apply(&owner, withdraw(1), Ter::tesSUCCESS);
    assert_eq!(n_of(&env, &broker, sf().cover_available), d(81));
}

/// rippled's lifecycle loan on XRP: 1000 XRP at 12% over 12 payments 600 s apart, with
/// every fee; returns (env, parties, broker, loan).
fn lifecycle(flags: u32) -> (Env, [Account; 3], Hash256, Hash256, Hash256) {
    lifecycle_in(env(), flags)
}

/// `lifecycle` in `env` (a ledger under chosen rules).
pub fn lifecycle_in(mut env: Env, flags: u32) -> (Env, [Account; 3], Hash256, Hash256, Hash256) {
    let [owner, depositor, borrower] = [
        Account::new("lnLife"),
        Account::new("lnLifeDep"),
        Account::new("lnLifeBor"),
    ];
    for a in [&owner, &depositor] {
        env.fund(a, xrp(2_000_000));
    }
    env.fund(&borrower, xrp(100_000));
    let b_tx = number(
        broker_tx(100, 10_000, 25_000),
        "DebtMaximum",
        d(25_000_000_000),
    );
    let (vault, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        xrp(1_000_000),
        b_tx,
    );
    env.apply(&owner, cover_deposit(broker, xrp(1000)), Ter::tesSUCCESS);
    env.close();
    let mut tx = loan_set(broker, d(1_000_000_000)).flags(flags);
    for (f, v) in [
        ("LoanOriginationFee", 1),
        ("LoanServiceFee", 2),
        ("LatePaymentFee", 3),
        ("ClosePaymentFee", 4),
    ] {
        tx = number(tx, f, d(v * 1_000_000));
    }
    let tx = tx
        .u32("OverpaymentFee", 500)
        .u32("InterestRate", 12_000)
        .u32("LateInterestRate", 2400)
        .u32("CloseInterestRate", 3600)
        .u32("OverpaymentInterestRate", 4800)
        .u32("PaymentTotal", 12)
        .u32("PaymentInterval", 600)
        .u32("GracePeriod", 60);
    let owner_before = env.balance(&owner);
    let borrower_before = env.balance(&borrower);
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], tx),
        Ter::tesSUCCESS
    );
    // The origination fee is the broker owner's; the borrower gets the rest.
    assert_eq!(env.balance(&owner), owner_before + 1_000_000);
    assert_eq!(
        env.balance(&borrower),
        borrower_before + 999_000_000 - 2 * FEE
    );
    env.close();
    let loan = keylet::loan(&broker, 1);
    (env, [owner, depositor, borrower], vault, broker, loan)
}

/// The broker's debt is what the vault is owed: the loan's value less its fee.
fn assert_debt_matches(env: &Env, broker: &Hash256, loan: &Hash256) {
    let s = sf();
    let owed =
        n_of(env, loan, s.total_value_outstanding) - n_of(env, loan, s.management_fee_outstanding);
    assert_eq!(n_of(env, broker, s.debt_total), owed);
}

#[test]
fn an_interest_loan_is_paid_in_twelve_payments_that_add_up() {
    let (mut env, [owner, _, borrower], vault, broker, loan) = lifecycle(0);
    let s = sf();
    let l = env.read(&loan).unwrap();
    let total = number_of(&l, s.total_value_outstanding);
    let fee = number_of(&l, s.management_fee_outstanding);
    assert!(number_of(&l, s.periodic_payment) > num(83_334_570, 0));
    assert!(number_of(&l, s.periodic_payment) < num(83_334_571, 0));
    assert!(total > d(1_000_000_000) && fee > Number::ZERO);
    assert_debt_matches(&env, &broker, &loan);
    let vault_total = n_of(&env, &vault, s.assets_total);
    let (mut paid, mut to_owner) = (0, 0);
    for i in 0..12 {
        let (b, o) = (env.balance(&borrower), env.balance(&owner));
        // Each payment is 83334571 drops and the 2 XRP service fee; 10 XRP more is not taken.
        env.apply(&borrower, pay(loan, drops(95_334_571)), Ter::tesSUCCESS);
        let charged = b - env.balance(&borrower) - FEE;
        assert!(charged <= 85_334_571, "payment {i}: {charged}");
        paid += charged;
        to_owner += env.balance(&owner) - o;
        assert_eq!(
            u32_of(&env, &loan, s.payment_remaining).unwrap_or(0),
            11 - i
        );
        if i < 11 {
            assert_debt_matches(&env, &broker, &loan);
        }
        env.close();
    }
    // Everything the schedule said, and the service fees, exactly.
    assert_eq!(d(paid), total + d(12 * 2_000_000));
    assert_eq!(d(to_owner), fee + d(12 * 2_000_000));
    let l = env.read(&loan).unwrap();
    assert!(l.get(s.total_value_outstanding).is_none() && l.get(s.principal_outstanding).is_none());
    assert!(env.read(&broker).unwrap().get(s.debt_total).is_none());
    assert_eq!(n_of(&env, &vault, s.assets_total), vault_total);
    assert_eq!(n_of(&env, &vault, s.assets_available), vault_total);
}

#[test]
fn a_full_payment_thirty_seconds_in_pays_accrued_interest_and_the_close_penalty() {
    let (mut env, [_, _, borrower], _, _, loan) = lifecycle(0);
    let start = u32_of(&env, &loan, sf().start_date).unwrap();
    env.close_after(30 - (env.parent_close() - start));
    let age = i64::from(env.parent_close() - start);
    assert_eq!(age, 30);
    // rippled's figure: 1000 XRP, the interest accrued over 30 s (1e9 x 12% x 30 s /
    // 31536000 s = 114.155 drops), the 3.6% close penalty (36 XRP) and the 4 XRP close
    // fee: 1040.000114155251 XRP, rounded down to drops.
    let before = env.balance(&borrower);
    env.apply(
        &borrower,
        pay(loan, xrp(1100)).flags(TF_FULL),
        Ter::tesSUCCESS,
    );
    assert_eq!(before - env.balance(&borrower), 1_040_000_114 + FEE);
    let s = sf();
    assert!(env.read(&loan).unwrap().get(s.payment_remaining).is_none());
}

#[test]
fn paying_every_payment_at_once_costs_a_base_fee_per_five() {
    let (mut env, [_, _, borrower], _, _, loan) = lifecycle(0);
    let all = pay(loan, xrp(1100));
    env.apply(
        &borrower,
        all.amount("Fee", drops(FEE * 2)),
        Ter::telINSUF_FEE_P,
    );
    let all = pay(loan, xrp(1100)).amount("Fee", drops(FEE * 3));
    env.apply(&borrower, all, Ter::tesSUCCESS);
    assert!(env
        .read(&loan)
        .unwrap()
        .get(sf().payment_remaining)
        .is_none());
}

#[test]
fn payments_fail_with_rippleds_codes() {
    let (mut env, [owner, depositor, borrower], _, broker, loan) = lifecycle(0);
    env.apply(&borrower, pay(Hash256::ZERO, xrp(100)), Ter::temINVALID);
    env.apply(&borrower, pay(loan, drops(-80)), Ter::temBAD_AMOUNT);
    env.apply(&borrower, pay(broker, xrp(100)), Ter::tecNO_ENTRY);
    env.apply(&depositor, pay(loan, xrp(100)), Ter::tecNO_PERMISSION);
    // A loan without lsfLoanOverpayment: fixCleanup3_1_3 (on in ledgerd's rule book)
    // makes asking to overpay it a permission (temINVALID_FLAG before).
    env.apply(
        &borrower,
        pay(loan, xrp(100)).flags(TF_OVERPAYMENT),
        Ter::tecNO_PERMISSION,
    );
    for two in [
        TF_LATE | TF_FULL,
        TF_LATE | TF_OVERPAYMENT,
        TF_FULL | TF_OVERPAYMENT,
    ] {
        env.apply(
            &borrower,
            pay(loan, xrp(100)).flags(two),
            Ter::temINVALID_FLAG,
        );
    }
    env.apply(
        &borrower,
        pay(loan, owner.iou("USD", 100)),
        Ter::tecWRONG_ASSET,
    );
    env.apply(&borrower, pay(loan, drops(1)), Ter::tecINSUFFICIENT_PAYMENT);
    // (A base fee per five payments the amount would make: 11718 of them here.)
    let too_much = pay(loan, xrp(1_000_000)).amount("Fee", drops(30_000));
    env.apply(&borrower, too_much, Ter::tecINSUFFICIENT_FUNDS);
    env.apply(&borrower, pay(loan, xrp(1_000_000)), Ter::telINSUF_FEE_P);
    // Not yet due: a late payment is too soon.
    env.apply(
        &borrower,
        pay(loan, xrp(100)).flags(TF_LATE),
        Ter::tecTOO_SOON,
    );
    env.apply(&borrower, delete(Hash256::ZERO), Ter::temINVALID);
    env.apply(
        &borrower,
        delete(loan).flags(TF_OVERPAYMENT),
        Ter::temINVALID_FLAG,
    );
    env.apply(&borrower, delete(broker), Ter::tecNO_ENTRY);
}

#[test]
fn the_owner_impairs_unimpairs_and_defaults_a_loan() {
    let (mut env, [owner, depositor, borrower], vault, broker, loan) = lifecycle(0);
    let s = sf();
    let start = u32_of(&env, &loan, s.start_date).unwrap();
    env.apply(&owner, manage(loan, 0), Ter::tesSUCCESS);
    env.apply(&depositor, manage(loan, 0), Ter::tecNO_PERMISSION);
    for bad in [
        TF_IMPAIR | TF_UNIMPAIR,
        TF_IMPAIR | TF_DEFAULT,
        TF_UNIMPAIR | TF_DEFAULT,
        0x0100_0000,
    ] {
        env.apply(&owner, manage(loan, bad), Ter::temINVALID_FLAG);
    }
    env.apply(&owner, manage(Hash256::ZERO, TF_IMPAIR), Ter::temINVALID);
    env.apply(&owner, manage(broker, TF_IMPAIR), Ter::tecNO_ENTRY);
    env.apply(&owner, manage(loan, TF_UNIMPAIR), Ter::tecNO_PERMISSION);
    env.apply(&owner, manage(loan, TF_DEFAULT), Ter::tecTOO_SOON);

    let owed = n_of(&env, &loan, s.total_value_outstanding)
        - n_of(&env, &loan, s.management_fee_outstanding);
    env.apply(&owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
    assert_eq!(n_of(&env, &vault, s.loss_unrealized), owed);
    assert_eq!(
        u32_of(&env, &loan, s.next_payment_due_date),
        Some(env.parent_close())
    );
    assert_eq!(env.read(&loan).unwrap().flags(), LSF_LOAN_IMPAIRED);
    env.apply(&owner, manage(loan, TF_IMPAIR), Ter::tecNO_PERMISSION);
    env.apply(&owner, manage(loan, TF_UNIMPAIR), Ter::tesSUCCESS);
    assert!(n_of(&env, &vault, s.loss_unrealized).is_zero());
    assert_eq!(
        u32_of(&env, &loan, s.next_payment_due_date),
        Some(start + 600)
    );
    assert_eq!(env.read(&loan).unwrap().flags(), 0);

    // Impaired, the loan falls due now; the default waits out the grace period.
    env.apply(&owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
    env.apply(&owner, manage(loan, TF_DEFAULT), Ter::tecTOO_SOON);
    let due = u32_of(&env, &loan, s.next_payment_due_date).unwrap();
    while env.parent_close() < due + 60 {
        env.close_after(10);
    }
    let debt = n_of(&env, &broker, s.debt_total);
    let (total, available) = (
        n_of(&env, &vault, s.assets_total),
        n_of(&env, &vault, s.assets_available),
    );
    env.apply(&owner, manage(loan, TF_DEFAULT), Ter::tesSUCCESS);
    // The cover pays 25% of the 10% minimum cover of the debt, rounded up.
    let covered = (debt * d(10_000) / d(100_000) * d(25_000) / d(100_000)).min(owed);
    let covered = d(covered.to_i64_rounded_up());
    assert_eq!(
        n_of(&env, &broker, s.cover_available),
        d(1_000_000_000) - covered
    );
    assert_eq!(n_of(&env, &vault, s.assets_available), available + covered);
    assert_eq!(n_of(&env, &vault, s.assets_total), total - (owed - covered));
    assert!(n_of(&env, &vault, s.loss_unrealized).is_zero());
    assert!(env.read(&broker).unwrap().get(s.debt_total).is_none());
    let l = env.read(&loan).unwrap();
    assert_eq!(l.flags(), LSF_LOAN_DEFAULT | LSF_LOAN_IMPAIRED);
    for f in [
        s.total_value_outstanding,
        s.principal_outstanding,
        s.management_fee_outstanding,
    ] {
        assert!(l.get(f).is_none());
    }
    assert!(l.get(s.payment_remaining).is_none() && l.get(s.next_payment_due_date).is_none());
    for f in [TF_UNIMPAIR, TF_IMPAIR] {
        env.apply(&owner, manage(loan, f), Ter::tecNO_PERMISSION);
    }
    env.apply(&borrower, pay(loan, xrp(300)), Ter::tecKILLED);
    env.apply(
        &owner,
        Tx::new("LoanBrokerDelete").h256("LoanBrokerID", broker),
        Ter::tecHAS_OBLIGATIONS,
    );
    env.apply(&owner, delete(loan), Ter::tesSUCCESS);
}

trait RoundUp {
    fn to_i64_rounded_up(&self) -> i64;
}

impl RoundUp for Number {
    fn to_i64_rounded_up(&self) -> i64 {
        use ledgerd::protocol::number::{RoundGuard, RoundingMode};
        let _g = RoundGuard::new(RoundingMode::Upward);
        self.to_i64().unwrap()
    }
}

/// A payment after its due date must say it is late (tecEXPIRED otherwise), and pays
/// the late fee and the late interest on the principal for the time overdue.
#[test]
fn a_late_payment_pays_the_late_fee_and_interest() {
    let mut env = env();
    let [owner, depositor, borrower] = env.funded(["lnLate", "lnLateDep", "lnLateBor"]);
    let (_, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        xrp(100),
        broker_tx(0, 0, 0),
    );
    let tx = number(loan_set(broker, d(1_000_000)), "LatePaymentFee", d(5))
        .u32("LateInterestRate", 100_000)
        .u32("PaymentTotal", 2);
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], tx),
        Ter::tesSUCCESS
    );
    let loan = keylet::loan(&broker, 1);
    let due = u32_of(&env, &loan, sf().next_payment_due_date).unwrap();
    while env.parent_close() < due + 30 {
        env.close_after(10);
    }
    let late = i64::from(env.parent_close() - due);
    env.apply(&borrower, pay(loan, drops(600_000)), Ter::tecEXPIRED);
    env.apply(
        &borrower,
        pay(loan, drops(500_005)).flags(TF_LATE),
        Ter::tecINSUFFICIENT_PAYMENT,
    );
    // 100% a year on 1,000,000 drops for the seconds overdue, rounded to the drop.
    let interest = (1_000_000 * late + 31_536_000 / 2) / 31_536_000;
    assert!(interest >= 1);
    let before = env.balance(&borrower);
    env.apply(
        &borrower,
        pay(loan, drops(600_000)).flags(TF_LATE),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        before - env.balance(&borrower),
        500_000 + 5 + interest + FEE
    );
    assert_eq!(u32_of(&env, &loan, sf().payment_remaining), Some(1));
}

/// rippled's testRIPD3901: an overpayment on a loan that allows it goes to the principal
/// and re-amortizes the rest; a loan that does not allow it refuses the flag.
#[test]
fn an_overpayment_reduces_the_principal() {
    let mut env = env();
    let [owner, depositor, borrower] = env.funded(["lnOver", "lnOverDep", "lnOverBor"]);
    let (_, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        xrp(1000),
        Tx::new("LoanBrokerSet"),
    );
    let tx = loan_set(broker, d(200_000))
        .u32("InterestRate", 50_000)
        .u32("PaymentTotal", 2)
        .u32("PaymentInterval", 150)
        .flags(TF_OVERPAYMENT);
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], tx),
        Ter::tesSUCCESS
    );
    let loan = keylet::loan(&broker, 1);
    let s = sf();
    let periodic = n_of(&env, &loan, s.periodic_payment);
    let principal = n_of(&env, &loan, s.principal_outstanding);
    env.apply(
        &borrower,
        pay(loan, drops(150_001)).flags(TF_OVERPAYMENT),
        Ter::tesSUCCESS,
    );
    assert_eq!(u32_of(&env, &loan, s.payment_remaining), Some(1));
    let left = n_of(&env, &loan, s.principal_outstanding);
    // One payment's principal is less than the periodic payment; the overpayment took
    // the principal further down.
    assert!(principal - left > periodic);
    assert!(n_of(&env, &loan, s.periodic_payment) < periodic);

    let tx = loan_set(broker, d(100_000)).u32("PaymentTotal", 2);
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], tx),
        Ter::tesSUCCESS
    );
    let plain = keylet::loan(&broker, 2);
    // fixCleanup3_1_3: tecNO_PERMISSION (temINVALID_FLAG before it).
    env.apply(
        &borrower,
        pay(plain, drops(80_000)).flags(TF_OVERPAYMENT),
        Ter::tecNO_PERMISSION,
    );
}

#[test]
fn loan_set_fails_with_rippleds_codes() {
    let mut env = env();
    let [owner, depositor, borrower, evan] =
        env.funded(["lnBad", "lnBadDep", "lnBadBor", "lnBadEvan"]);
    let b_tx = number(broker_tx(0, 10_000, 10_000), "DebtMaximum", d(25_000));
    let (vault, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        drops(1_000_000),
        b_tx,
    );
    env.apply(&owner, cover_deposit(broker, drops(1000)), Ter::tesSUCCESS);
    let ok = || loan_set(broker, d(1000));
    let bad = |env: &mut Env, tx: Tx, want: Ter| {
        assert_eq!(submit_loan(env, &borrower, &[&owner], tx), want);
    };
    bad(&mut env, ok().flags(0x0002_0000), Ter::temINVALID_FLAG);
    bad(&mut env, ok().blob("Data", &[0; 257]), Ter::temINVALID);
    for f in [
        "OverpaymentFee",
        "InterestRate",
        "LateInterestRate",
        "CloseInterestRate",
        "OverpaymentInterestRate",
    ] {
        bad(&mut env, ok().u32(f, 100_001), Ter::temINVALID);
    }
    bad(&mut env, ok().u32("PaymentTotal", 0), Ter::temINVALID);
    bad(&mut env, ok().u32("PaymentInterval", 59), Ter::temINVALID);
    bad(
        &mut env,
        ok().u32("PaymentInterval", 120).u32("GracePeriod", 180),
        Ter::temINVALID,
    );
    bad(&mut env, loan_set(broker, d(0)), Ter::temINVALID);
    bad(
        &mut env,
        number(ok(), "LoanOriginationFee", d(1001)),
        Ter::temINVALID,
    );
    bad(
        &mut env,
        number(ok(), "LoanServiceFee", d(-1)),
        Ter::temINVALID,
    );
    bad(&mut env, loan_set(Hash256::ZERO, d(1000)), Ter::temINVALID);
    // Not a broker: with a counterparty named, tecNO_ENTRY; without, nobody to sign.
    let nowhere = loan_set(vault, d(1000)).account("Counterparty", &owner.id);
    bad(&mut env, nowhere, Ter::tecNO_ENTRY);
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], loan_set(vault, d(1000))),
        Ter::temBAD_SIGNER
    );
    // Neither party owns the broker.
    let theirs = ok().account("Counterparty", &borrower.id);
    assert_eq!(
        submit_loan(&mut env, &evan, &[&borrower], theirs),
        Ter::tecNO_PERMISSION
    );
    let ghost = Account::new("lnGhost");
    let to_ghost = ok().account("Counterparty", &ghost.id);
    assert_eq!(
        submit_loan(&mut env, &owner, &[&ghost], to_ghost),
        Ter::terNO_ACCOUNT
    );
    // Whole drops only; the vault's funds; the cover; the debt maximum.
    bad(
        &mut env,
        loan_set(broker, num(640_562, -5)),
        Ter::tecPRECISION_LOSS,
    );
    bad(
        &mut env,
        loan_set(broker, d(1_000_001)),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    bad(
        &mut env,
        loan_set(broker, d(10_001)),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    env.apply(
        &owner,
        cover_deposit(broker, drops(10_000)),
        Ter::tesSUCCESS,
    );
    bad(
        &mut env,
        loan_set(broker, d(25_001)),
        Ter::tecLIMIT_EXCEEDED,
    );
    // The last grace period ending past the protocol's time.
    bad(
        &mut env,
        ok().u32("PaymentInterval", 1_000_000_000)
            .u32("PaymentTotal", 10),
        Ter::tecKILLED,
    );
    bad(
        &mut env,
        ok().u32("PaymentTotal", 1_000_000_000),
        Ter::tecKILLED,
    );
    bad(&mut env, ok(), Ter::tesSUCCESS);
}

/// The borrower's signer list co-signs: CounterpartySignature carries its Signers, and
/// each adds a base fee.
#[test]
fn a_multisigned_counterparty_signs_for_the_borrower() {
    let mut env = env();
    let [owner, depositor, borrower, alice, bella] =
        env.funded(["lnMs", "lnMsDep", "lnMsBor", "lnMsAlice", "lnMsBella"]);
    env.apply(
        &borrower,
        signer_list(2, &[(&alice, 1), (&bella, 1)]),
        Ter::tesSUCCESS,
    );
    let (_, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        xrp(100),
        broker_tx(0, 0, 0),
    );
    let tx = || loan_set(broker, d(1_000_000)).account("Counterparty", &borrower.id);
    let short = tx().amount("Fee", drops(3 * base(&env) - 1));
    assert_eq!(
        submit_loan(&mut env, &owner, &[&alice, &bella], short),
        Ter::telINSUF_FEE_P
    );
    let strangers = [&alice, &owner];
    assert_eq!(
        submit_loan(&mut env, &owner, &strangers, tx()),
        Ter::tefBAD_SIGNATURE
    );
    assert_eq!(
        submit_loan(&mut env, &owner, &[&alice, &bella], tx()),
        Ter::tesSUCCESS
    );
    let l = env.read(&keylet::loan(&broker, 1)).unwrap();
    assert_eq!(l.account_of(sf().borrower), Some(borrower.id));
}

/// A CounterpartySignature that does not verify is refused before the engine applies
/// anything (rippled's "fails local checks").
#[test]
fn a_forged_counterparty_signature_does_not_verify() {
    let mut env = env();
    let [owner, borrower] = env.funded(["lnForge", "lnForgeBor"]);
    let s = sf();
    let mut o = Tx::new("LoanSet").h256("LoanBrokerID", Hash256([3; 32])).0;
    o = number(Tx(o), "PrincipalRequested", d(10)).0;
    o.set(s.account, StValue::AccountId(owner.id));
    o.set(s.sequence, StValue::UInt32(env.seq(&owner)));
    o.set(s.fee, StValue::Amount(drops(20)));
    o.set(
        s.signing_pub_key,
        StValue::Blob(owner.kp.public.as_bytes().to_vec()),
    );
    let mut sig = counterparty_signature(&o, &[&borrower]);
    sig.set(
        s.txn_signature,
        StValue::Blob(borrower.kp.sign(b"something else")),
    );
    o.set(s.counterparty_signature, StValue::Object(sig.clone()));
    sign_object(&mut o, &owner.kp);
    // Over the plain signing data: the form before fixCleanup3_4_0
    // (rules_cleanup340_sign.rs has both rule sets).
    let rules = ledgerd::ledger::rules::Rules::default_with(
        ledgerd::protocol::features::Feature::FixCleanup3_4_0,
        false,
    );
    assert!(!ledgerd::engine::transactor::verify_signature(&o, &rules));
    let good = counterparty_signature(&o, &[&borrower]);
    o.set(s.counterparty_signature, StValue::Object(good));
    sign_object(&mut o, &owner.kp);
    assert!(ledgerd::engine::transactor::verify_signature(&o, &rules));
}

/// An issued-currency loan: the vault's IOU lent to a borrower with a trust line, paid
/// back in full; the origination fee reaches the broker's owner.
#[test]
fn an_iou_loan_is_lent_and_repaid() {
    let mut env = env();
    let [gw, owner, depositor, borrower] =
        env.funded(["lnGw", "lnIouOwner", "lnIouDep", "lnIouBor"]);
    env.apply(&gw, fset(8), Ter::tesSUCCESS); // asfDefaultRipple
    for a in [&owner, &depositor, &borrower] {
        env.apply(a, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(
            &gw,
            support::engine::pay(a, gw.iou("USD", 10_000)),
            Ter::tesSUCCESS,
        );
    }
    let usd = Issue {
        currency: cur("USD"),
        issuer: gw.id,
    };
    let (vault, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        usd,
        gw.iou("USD", 1000),
        broker_tx(0, 0, 0),
    );
    let tx = number(loan_set(broker, d(100)), "LoanOriginationFee", d(1));
    assert_eq!(
        submit_loan(&mut env, &borrower, &[&owner], tx),
        Ter::tesSUCCESS
    );
    assert_eq!(env.iou_balance(&borrower, &gw, "USD"), val("10099"));
    assert_eq!(env.iou_balance(&owner, &gw, "USD"), val("10001"));
    let loan = keylet::loan(&broker, 1);
    let s = sf();
    assert!(env.read(&loan).unwrap().get(s.loan_scale).is_some());
    env.apply(&borrower, pay(loan, gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&borrower, &gw, "USD"), val("9999"));
    assert_eq!(n_of(&env, &vault, s.assets_available), d(1000));
    env.apply(&owner, delete(loan), Ter::tesSUCCESS);
}

/// xrpl.js's multi-signing lending flow on an MPT: a vault of the issuer's MPT lends to
/// a borrower who holds none (LoanSet gives it an MPToken), the owner impairs the loan,
/// the borrower's payment unimpairs and ends it, then the issuer claws cover back.
mod mpt {
    use super::*;
    use ledgerd::engine::mptoken_issuance_create::tf as ctf;
    use ledgerd::protocol::mpt::{MptAmount, MptId};

    fn with_mpt(mut tx: Tx, id: &MptId, v: u64) -> Tx {
        tx.0.set(sf().amount, StValue::MptAmount(MptAmount::new(v, *id)));
        tx
    }

    fn held(env: &Env, id: &MptId, who: &AccountId) -> Option<u64> {
        env.read(&keylet::mptoken(id, who))
            .map(|t| t.u64_of(sf().mpt_amount).unwrap_or(0))
    }

    fn opt_in(env: &mut Env, who: &Account, id: &MptId) {
        let mut tx = Tx::new("MPTokenAuthorize");
        tx.0.set(sf().mpt_issuance_id, StValue::Fixed(id.0.to_vec()));
        env.apply(who, tx, Ter::tesSUCCESS);
    }

    /// rippled's testIssuerLoan: the MPT's issuer borrows from a vault of its own MPT
    /// (no MPToken for it: what it receives leaves circulation) and pays it back in its
    /// own issue, which it holds none of.
    #[test]
    fn the_issuer_borrows_its_own_mpt_and_pays_it_back() {
        let mut env = env();
        let [issuer, lender] = env.funded(["lnmiIssuer", "lnmiLender"]);
        let iseq = env.seq(&issuer);
        let flags = ctf::CAN_TRANSFER | ctf::CAN_CLAWBACK;
        env.apply(
            &issuer,
            Tx::new("MPTokenIssuanceCreate").flags(flags),
            Ter::tesSUCCESS,
        );
        let id = MptId::new(iseq, &issuer.id);
        opt_in(&mut env, &lender, &id);
        let pay = Tx::new("Payment").account("Destination", &lender.id);
        env.apply(&issuer, with_mpt(pay, &id, 10_000_000), Ter::tesSUCCESS);
        env.close();
        let seq = env.seq(&lender);
        let mut create = Tx::new("VaultCreate");
        create.0.set(sf().asset, StValue::MptIssue(id));
        let fee = env.store.fees().reserve_inc_drops as i64;
        env.apply(&lender, create.amount("Fee", drops(fee)), Ter::tesSUCCESS);
        let vault = keylet::vault(&lender.id, seq);
        let dep = with_mpt(
            Tx::new("VaultDeposit").h256("VaultID", vault),
            &id,
            1_000_000,
        );
        env.apply(&lender, dep, Ter::tesSUCCESS);
        let bseq = env.seq(&lender);
        let set = number(
            Tx::new("LoanBrokerSet").h256("VaultID", vault),
            "DebtMaximum",
            d(200),
        );
        env.apply(&lender, set, Ter::tesSUCCESS);
        let broker = keylet::loan_broker(&lender.id, bseq);
        env.close();
        let outstanding = |env: &Env| {
            env.read(&keylet::mpt_issuance(&id))
                .and_then(|i| i.u64_of(sf().outstanding_amount))
                .unwrap_or(0)
        };
        assert_eq!(outstanding(&env), 10_000_000);
        assert_eq!(n_of(&env, &vault, sf().assets_available), d(1_000_000));
        let tx = loan_set(broker, d(200));
        assert_eq!(
            submit_loan(&mut env, &issuer, &[&lender], tx),
            Ter::tesSUCCESS
        );
        assert_eq!(
            held(&env, &id, &issuer.id),
            None,
            "no MPToken for the issuer"
        );
        assert_eq!(outstanding(&env), 10_000_000 - 200);
        let loan = keylet::loan(&broker, 1);
        env.close();
        env.apply(
            &issuer,
            with_mpt(Tx::new("LoanPay").h256("LoanID", loan), &id, 200),
            Ter::tesSUCCESS,
        );
        assert_eq!(outstanding(&env), 10_000_000);
        assert!(env
            .read(&loan)
            .unwrap()
            .get(sf().payment_remaining)
            .is_none());
    }

    #[test]
    fn an_mpt_loan_is_lent_impaired_repaid_and_its_cover_clawed_back() {
        let mut env = env();
        let [issuer, owner, depositor, borrower] =
            env.funded(["lnmIssuer", "lnmOwner", "lnmDep", "lnmBor"]);
        let iseq = env.seq(&issuer);
        let flags = ctf::CAN_TRANSFER | ctf::CAN_CLAWBACK;
        env.apply(
            &issuer,
            Tx::new("MPTokenIssuanceCreate").flags(flags),
            Ter::tesSUCCESS,
        );
        let id = MptId::new(iseq, &issuer.id);
        for who in [&owner, &depositor] {
            opt_in(&mut env, who, &id);
            let pay = Tx::new("Payment").account("Destination", &who.id);
            env.apply(&issuer, with_mpt(pay, &id, 500_000), Ter::tesSUCCESS);
        }
        let seq = env.seq(&owner);
        let mut create = Tx::new("VaultCreate");
        create.0.set(sf().asset, StValue::MptIssue(id));
        let fee = env.store.fees().reserve_inc_drops as i64;
        env.apply(&owner, create.amount("Fee", drops(fee)), Ter::tesSUCCESS);
        let vault = keylet::vault(&owner.id, seq);
        let dep = with_mpt(Tx::new("VaultDeposit").h256("VaultID", vault), &id, 200_000);
        env.apply(&depositor, dep, Ter::tesSUCCESS);
        let bseq = env.seq(&owner);
        let set = number(
            Tx::new("LoanBrokerSet").h256("VaultID", vault),
            "DebtMaximum",
            d(100_000),
        );
        env.apply(&owner, set, Ter::tesSUCCESS);
        let broker = keylet::loan_broker(&owner.id, bseq);
        env.close();

        let owners = env.owner_count(&borrower);
        let tx = loan_set(broker, d(100_000)).account("Counterparty", &borrower.id);
        assert_eq!(
            submit_loan(&mut env, &owner, &[&borrower], tx),
            Ter::tesSUCCESS
        );
        assert_eq!(held(&env, &id, &borrower.id), Some(100_000));
        assert_eq!(
            env.owner_count(&borrower),
            owners + 2,
            "the loan and the MPToken"
        );
        let loan = keylet::loan(&broker, 1);
        env.close();

        let s = sf();
        env.apply(
            &owner,
            with_mpt(
                Tx::new("LoanBrokerCoverDeposit").h256("LoanBrokerID", broker),
                &id,
                50_000,
            ),
            Ter::tesSUCCESS,
        );
        let withdraw = Tx::new("LoanBrokerCoverWithdraw").h256("LoanBrokerID", broker);
        env.apply(&owner, with_mpt(withdraw, &id, 25_000), Ter::tesSUCCESS);
        assert_eq!(n_of(&env, &broker, s.cover_available), d(25_000));
        env.apply(&owner, manage(loan, TF_IMPAIR), Ter::tesSUCCESS);
        assert_eq!(n_of(&env, &vault, s.loss_unrealized), d(100_000));
        env.apply(
            &borrower,
            with_mpt(Tx::new("LoanPay").h256("LoanID", loan), &id, 100_000),
            Ter::tesSUCCESS,
        );
        let l = env.read(&loan).unwrap();
        assert_eq!(l.flags(), 0, "a payment unimpairs the loan");
        assert!(l.get(s.total_value_outstanding).is_none());
        assert!(n_of(&env, &vault, s.loss_unrealized).is_zero());
        assert_eq!(held(&env, &id, &borrower.id), Some(0));
        env.apply(&borrower, delete(loan), Ter::tesSUCCESS);
        let claw = with_mpt(
            Tx::new("LoanBrokerCoverClawback").h256("LoanBrokerID", broker),
            &id,
            10_000,
        );
        env.apply(&issuer, claw, Ter::tesSUCCESS);
        assert_eq!(n_of(&env, &broker, s.cover_available), d(15_000));
        env.apply(
            &owner,
            Tx::new("LoanBrokerDelete").h256("LoanBrokerID", broker),
            Ter::tesSUCCESS,
        );
    }
}

/// A LoanSet inside a Batch (rippled's Batch with LendingProtocol): the inner
/// transaction carries no signature, so it must name its Counterparty (else the inner
/// preflight fails) and the counterparty signs the Batch as a BatchSigner.
#[test]
fn a_loan_set_in_a_batch_is_signed_by_the_counterparty_as_a_batch_signer() {
    use ledgerd::engine::batch::tf;
    use support::batch::{batch, inner, with_signers};
    let mut env = env();
    let [owner, depositor, borrower] = env.funded(["lnBatch", "lnBatchDep", "lnBatchBor"]);
    let (_, broker, _) = lender(
        &mut env,
        (&owner, &depositor),
        Issue::XRP,
        xrp(100),
        broker_tx(0, 0, 0),
    );
    let submit_batch = |env: &mut Env, o: StObject| {
        let mut o = o;
        sign_object(&mut o, &owner.kp);
        env.store
            .apply(&codec::decode(&codec::encode(&o)).expect("decodes"))
            .ter
    };
    let seq = env.seq(&owner);
    let named = loan_set(broker, d(1_000_000)).account("Counterparty", &borrower.id);
    let noop = || inner(Tx::new("AccountSet"), &owner, seq + 2);
    let inners = [inner(named, &owner, seq + 1), noop()];
    let unsigned = batch(&owner, seq, 1000, tf::ALL_OR_NOTHING, &inners);
    assert_eq!(submit_batch(&mut env, unsigned.clone()), Ter::temBAD_SIGNER);
    let anonymous = [
        inner(loan_set(broker, d(1_000_000)), &owner, seq + 1),
        noop(),
    ];
    let o = with_signers(
        batch(&owner, seq, 1000, tf::ALL_OR_NOTHING, &anonymous),
        &[(&borrower, &borrower.kp)],
    );
    assert_eq!(submit_batch(&mut env, o), Ter::temINVALID_INNER_BATCH);
    let before = env.balance(&borrower);
    let signed = with_signers(unsigned, &[(&borrower, &borrower.kp)]);
    assert_eq!(submit_batch(&mut env, signed), Ter::tesSUCCESS);
    let l = env.read(&keylet::loan(&broker, 1)).expect("the loan");
    assert_eq!(l.account_of(sf().borrower), Some(borrower.id));
    assert_eq!(env.balance(&borrower), before + 1_000_000);
}
