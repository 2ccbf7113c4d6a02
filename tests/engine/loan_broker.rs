//! LoanBroker stories, after rippled's `LoanBroker_test.cpp` (LendingProtocol, XLS-66): a
//! vault's owner opens a broker over the vault (the entry, two owner counts, a
//! pseudo-account marked with LoanBrokerID holding the vault's asset), updates its Data
//! and DebtMaximum, deposits and withdraws first-loss cover, the asset's issuer claws
//! cover back, and the owner deletes the broker; every malformed form and failure with
//! rippled's code. (The loans themselves: `loan.rs`.)

use crate::support;

use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::{lsf, lt};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use support::engine::*;

/// These stories' rules: ledgerd's own book less LendingProtocolV1_1, under which a new
/// broker needs a closed-ended vault; rippled's tests of open-ended vaults run without it.
pub fn env() -> Env {
    crate::rules::env_without(&[Feature::LendingProtocolV1_1])
}

fn number(tx: Tx, name: &str, mantissa: i64, exponent: i32) -> Tx {
    let mut tx = tx;
    let mut b = mantissa.to_be_bytes().to_vec();
    b.extend_from_slice(&exponent.to_be_bytes());
    tx.0.set(
        ledgerd::protocol::definitions::Field::named(name),
        StValue::Fixed(b),
    );
    tx
}

fn u16_field(tx: Tx, name: &str, v: u16) -> Tx {
    let mut tx = tx;
    tx.0.set(
        ledgerd::protocol::definitions::Field::named(name),
        StValue::UInt16(v),
    );
    tx
}

/// Opens a vault of `asset` for `owner`; returns its key and pseudo-account.
fn open_vault(env: &mut Env, owner: &Account, asset: Issue) -> (Hash256, AccountId) {
    let seq = env.seq(owner);
    let mut tx = Tx::new("VaultCreate");
    tx.0.set(sf().asset, StValue::Issue(asset));
    let tx = with_fee(env, tx);
    env.apply(owner, tx, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
    (key, pseudo)
}

fn broker_set(vault: Hash256) -> Tx {
    Tx::new("LoanBrokerSet").h256("VaultID", vault)
}

/// Opens a broker over `vault`; returns its key and pseudo-account.
fn open_broker(env: &mut Env, owner: &Account, vault: Hash256) -> (Hash256, AccountId) {
    let seq = env.seq(owner);
    env.apply(owner, broker_set(vault), Ter::tesSUCCESS);
    let key = keylet::loan_broker(&owner.id, seq);
    let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
    (key, pseudo)
}

fn deposit(broker: Hash256, amount: Amount) -> Tx {
    Tx::new("LoanBrokerCoverDeposit")
        .h256("LoanBrokerID", broker)
        .amount("Amount", amount)
}

fn withdraw(broker: Hash256, amount: Amount) -> Tx {
    Tx::new("LoanBrokerCoverWithdraw")
        .h256("LoanBrokerID", broker)
        .amount("Amount", amount)
}

fn delete(broker: Hash256) -> Tx {
    Tx::new("LoanBrokerDelete").h256("LoanBrokerID", broker)
}

fn clawback(broker: Option<Hash256>, amount: Option<Amount>) -> Tx {
    let mut tx = Tx::new("LoanBrokerCoverClawback");
    if let Some(b) = broker {
        tx = tx.h256("LoanBrokerID", b);
    }
    if let Some(a) = amount {
        tx = tx.amount("Amount", a);
    }
    tx
}

fn cover(env: &Env, key: &Hash256) -> Number {
    number_of(&env.read(key).unwrap(), sf().cover_available)
}

fn drops_of(env: &Env, id: &AccountId) -> i64 {
    env.read(&keylet::account(id))
        .map(|r| r.drops_of(sf().balance))
        .unwrap_or(0)
}

#[test]
fn an_xrp_broker_is_opened_updated_covered_and_deleted() {
    let mut env = env();
    let [owner, evan, dest] = env.funded(["lbOwner", "lbEvan", "lbDest"]);
    let (vault, vault_pseudo) = open_vault(&mut env, &owner, Issue::XRP);
    assert_eq!(env.owner_count(&owner), 2);
    // Only the vault's owner opens a broker over it.
    env.apply(&evan, broker_set(vault), Ter::tecNO_PERMISSION);
    env.apply(&owner, broker_set(Hash256([7; 32])), Ter::tecNO_ENTRY);

    let seq = env.seq(&owner);
    let tx = broker_set(vault).blob("Data", b"broker");
    let tx = u16_field(tx, "ManagementFeeRate", 123)
        .u32("CoverRateMinimum", 10_000)
        .u32("CoverRateLiquidation", 5_000);
    env.apply(&owner, number(tx, "DebtMaximum", 1000, 6), Ter::tesSUCCESS);
    let key = keylet::loan_broker(&owner.id, seq);
    let s = sf();
    let b = env.read(&key).expect("the LoanBroker");
    assert_eq!(b.u16_of(s.ledger_entry_type), Some(lt::LOAN_BROKER));
    assert_eq!(b.account_of(s.owner), Some(owner.id));
    assert_eq!(b.h256_of(s.vault_id), Some(vault));
    assert_eq!(b.u32_of(s.sequence), Some(seq));
    assert_eq!(b.u32_of(s.loan_sequence), Some(1));
    assert_eq!(b.u16_of(s.management_fee_rate), Some(123));
    assert_eq!(b.u32_of(s.cover_rate_minimum), Some(10_000));
    assert_eq!(b.u32_of(s.cover_rate_liquidation), Some(5_000));
    assert_eq!(b.blob_of(s.data), Some(&b"broker"[..]));
    assert_eq!(number_of(&b, s.debt_maximum), Number::new(1000, 6));
    let pseudo = b.account_of(s.account).unwrap();
    let root = env.read(&keylet::account(&pseudo)).expect("pseudo-account");
    assert_eq!(root.h256_of(s.loan_broker_id), Some(key));
    assert_eq!(root.u32_of(s.sequence), Some(0));
    assert!(root.is_flag(lsf::DISABLE_MASTER) && root.is_flag(lsf::DEPOSIT_AUTH));
    // The broker and its pseudo-account: two owner counts.
    assert_eq!(env.owner_count(&owner), 4);
    assert!(in_dir(&env, &owner.id, &key));
    assert!(in_dir(&env, &vault_pseudo, &key), "listed by the vault too");

    // Updates: Data and DebtMaximum; the fixed fields and the vault never change.
    let update = || broker_set(vault).h256("LoanBrokerID", key);
    env.apply(&owner, update().blob("Data", b"new"), Ter::tesSUCCESS);
    assert_eq!(env.read(&key).unwrap().blob_of(s.data), Some(&b"new"[..]));
    // Default values remove the fields.
    let tx = number(update(), "DebtMaximum", 0, 0).blob("Data", b"");
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let b = env.read(&key).unwrap();
    assert!(b.get(s.debt_maximum).is_none() && b.get(s.data).is_none());
    env.apply(&owner, update(), Ter::tesSUCCESS); // a no-op
    let tx = u16_field(update(), "ManagementFeeRate", 1);
    env.apply(&owner, tx, Ter::temINVALID);
    env.apply(&owner, update().u32("CoverRateMinimum", 1), Ter::temINVALID);
    env.apply(&evan, update(), Ter::tecNO_PERMISSION);
    let (other_vault, _) = open_vault(&mut env, &owner, Issue::XRP);
    let moved = broker_set(other_vault).h256("LoanBrokerID", key);
    env.apply(&owner, moved, Ter::tecNO_PERMISSION);
    let missing = broker_set(vault).h256("LoanBrokerID", Hash256([9; 32]));
    env.apply(&owner, missing, Ter::tecNO_ENTRY);
    // The vault is read first: a broker key as VaultID is no vault.
    let not_a_vault = broker_set(key).h256("LoanBrokerID", key);
    env.apply(&owner, not_a_vault, Ter::tecNO_ENTRY);

    // Cover: the owner deposits it and takes it back, to itself or another account.
    env.apply(&evan, deposit(key, xrp(10)), Ter::tecNO_PERMISSION);
    env.apply(
        &owner,
        deposit(key, owner.iou("USD", 10)),
        Ter::tecWRONG_ASSET,
    );
    env.apply(&owner, deposit(key, xrp(0)), Ter::temBAD_AMOUNT);
    env.apply(&owner, deposit(key, xrp(100)), Ter::tesSUCCESS);
    assert_eq!(cover(&env, &key), Number::from_i64(100_000_000));
    assert_eq!(drops_of(&env, &pseudo), 100_000_000);
    env.apply(&owner, withdraw(key, xrp(101)), Ter::tecINSUFFICIENT_FUNDS);
    env.apply(&evan, withdraw(key, xrp(1)), Ter::tecNO_PERMISSION);
    let before = env.balance(&owner);
    env.apply(&owner, withdraw(key, xrp(40)), Ter::tesSUCCESS);
    assert_eq!(env.balance(&owner), before + 40_000_000 - 10);
    assert_eq!(cover(&env, &key), Number::from_i64(60_000_000));
    let dest_before = env.balance(&dest);
    let to_dest = withdraw(key, xrp(10)).account("Destination", &dest.id);
    env.apply(&owner, to_dest, Ter::tesSUCCESS);
    assert_eq!(env.balance(&dest), dest_before + 10_000_000);
    let to_nobody = withdraw(key, xrp(1)).account("Destination", &Account::new("lbNobody").id);
    env.apply(&owner, to_nobody, Ter::tecNO_DST);
    let to_pseudo = withdraw(key, xrp(1)).account("Destination", &vault_pseudo);
    env.apply(&owner, to_pseudo, Ter::tecPSEUDO_ACCOUNT);
    assert_eq!(drops_of(&env, &pseudo), 50_000_000);

    // The vault cannot go while a broker lists it.
    let vdelete = || Tx::new("VaultDelete").h256("VaultID", vault);
    env.apply(&owner, vdelete(), Ter::tecHAS_OBLIGATIONS);

    // Deleting returns the cover and both owner counts.
    env.apply(&evan, delete(key), Ter::tecNO_PERMISSION);
    let before = env.balance(&owner);
    env.apply(&owner, delete(key), Ter::tesSUCCESS);
    assert_eq!(env.balance(&owner), before + 50_000_000 - 10);
    assert!(env.read(&key).is_none());
    assert!(env.read(&keylet::account(&pseudo)).is_none());
    assert!(!in_dir(&env, &vault_pseudo, &key));
    assert_eq!(env.owner_count(&owner), 4, "two vaults left");
    env.apply(&owner, delete(key), Ter::tecNO_ENTRY);
    env.apply(&owner, vdelete(), Ter::tesSUCCESS);
}

#[test]
fn malformed_broker_transactions_are_refused_before_the_ledger() {
    let mut env = env();
    let [owner] = env.funded(["lbMalformed"]);
    let (vault, _) = open_vault(&mut env, &owner, Issue::XRP);
    let set = || broker_set(vault);
    let long = vec![b'Y'; 257];
    env.apply(&owner, set().blob("Data", &long), Ter::temINVALID);
    env.apply(
        &owner,
        u16_field(set(), "ManagementFeeRate", 10_001),
        Ter::temINVALID,
    );
    let rates = |min, liq| {
        set()
            .u32("CoverRateMinimum", min)
            .u32("CoverRateLiquidation", liq)
    };
    env.apply(&owner, rates(100_001, 1), Ter::temINVALID);
    env.apply(&owner, rates(1, 100_001), Ter::temINVALID);
    // Both cover rates zero or both non-zero.
    env.apply(&owner, rates(1, 0), Ter::temINVALID);
    env.apply(&owner, rates(0, 1), Ter::temINVALID);
    env.apply(&owner, number(set(), "DebtMaximum", -1, 0), Ter::temINVALID);
    let zero_id = set().h256("LoanBrokerID", Hash256::ZERO);
    env.apply(&owner, zero_id, Ter::temINVALID);
    env.apply(&owner, broker_set(Hash256::ZERO), Ter::temINVALID);
    env.apply(&owner, set().flags(0x0001_0000), Ter::temINVALID_FLAG);
    // The largest values are fine.
    let tx = u16_field(rates(100_000, 100_000), "ManagementFeeRate", 10_000);
    env.apply(&owner, tx.blob("Data", &[b'X'; 256]), Ter::tesSUCCESS);

    let zero = Hash256::ZERO;
    env.apply(&owner, deposit(zero, xrp(1)), Ter::temINVALID);
    env.apply(&owner, withdraw(zero, xrp(1)), Ter::temINVALID);
    env.apply(&owner, delete(zero), Ter::temINVALID);
    let key = Hash256([3; 32]);
    env.apply(&owner, deposit(key, drops(-1)), Ter::temBAD_AMOUNT);
    env.apply(&owner, withdraw(key, xrp(0)), Ter::temBAD_AMOUNT);
    let to_zero = withdraw(key, xrp(1)).account("Destination", &AccountId::ZERO);
    env.apply(&owner, to_zero, Ter::temMALFORMED);
    env.apply(&owner, deposit(key, xrp(1)), Ter::tecNO_ENTRY);
    env.apply(&owner, withdraw(key, xrp(1)), Ter::tecNO_ENTRY);
    env.apply(&owner, delete(key), Ter::tecNO_ENTRY);
    env.apply(&owner, clawback(None, None), Ter::temINVALID);
    env.apply(
        &owner,
        clawback(Some(key), Some(xrp(1))),
        Ter::temBAD_AMOUNT,
    );
    env.apply(&owner, clawback(Some(zero), None), Ter::temINVALID);
    let own = owner.iou("USD", 1);
    env.apply(&owner, clawback(None, Some(own)), Ter::temINVALID);
}

#[test]
fn the_loan_types_find_no_loan_at_a_key_without_one() {
    let mut env = env();
    let [owner] = env.funded(["lbLoans"]);
    let id = Hash256([5; 32]);
    env.apply(
        &owner,
        Tx::new("LoanDelete").h256("LoanID", id),
        Ter::tecNO_ENTRY,
    );
    env.apply(
        &owner,
        Tx::new("LoanManage").h256("LoanID", id),
        Ter::tecNO_ENTRY,
    );
    let pay = Tx::new("LoanPay")
        .h256("LoanID", id)
        .amount("Amount", xrp(1));
    env.apply(&owner, pay, Ter::tecNO_ENTRY);
}

/// An issued-currency vault whose issuer allows clawback.
fn iou_setup(env: &mut Env, clawback: bool) -> (Account, Account, Hash256, Issue) {
    let [gw, owner] = env.funded(["lbGw", "lbIouOwner"]);
    if clawback {
        env.apply(&gw, fset(16), Ter::tesSUCCESS); // asfAllowTrustLineClawback
    }
    env.apply(
        &gw,
        fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE),
        Ter::tesSUCCESS,
    );
    env.apply(&owner, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&owner, gw.iou("USD", 500)), Ter::tesSUCCESS);
    let usd = gw.iou("USD", 0).issue();
    let (vault, _) = open_vault(env, &owner, usd);
    (gw, owner, vault, usd)
}

#[test]
fn an_iou_brokers_cover_is_clawed_back_by_its_issuer() {
    let mut env = env();
    let (gw, owner, vault, usd) = iou_setup(&mut env, true);
    let (key, pseudo) = open_broker(&mut env, &owner, vault);
    let line = keylet::line(&pseudo, &gw.id, &usd.currency);
    assert!(env.read(&line).is_some(), "the pseudo-account holds a line");
    let pseudo_root = env.read(&keylet::account(&pseudo)).unwrap();
    assert_eq!(pseudo_root.u32_of(sf().owner_count), Some(1));

    env.apply(
        &owner,
        deposit(key, gw.iou("USD", 600)),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    env.apply(&owner, deposit(key, gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&owner, &gw, "USD"), val("400"));
    assert_eq!(cover(&env, &key), Number::from_i64(100));

    // Only the issuer claws back, and only its own currency.
    env.apply(&owner, clawback(Some(key), None), Ter::tecNO_PERMISSION);
    let eur = gw.iou("EUR", 1);
    env.apply(&gw, clawback(Some(key), Some(eur)), Ter::tecWRONG_ASSET);
    env.apply(
        &gw,
        clawback(Some(key), Some(gw.iou("USD", 30))),
        Ter::tesSUCCESS,
    );
    assert_eq!(cover(&env, &key), Number::from_i64(70));
    // Named through the pseudo-account as the amount's issuer.
    let via_pseudo = Amount::iou(val("20"), usd.currency, pseudo);
    env.apply(&gw, clawback(None, Some(via_pseudo)), Ter::tesSUCCESS);
    assert_eq!(cover(&env, &key), Number::from_i64(50));
    // Zero (or nothing) takes all there is.
    env.apply(
        &gw,
        clawback(Some(key), Some(gw.iou("USD", 0))),
        Ter::tesSUCCESS,
    );
    assert!(cover(&env, &key).is_zero());
    env.apply(&gw, clawback(Some(key), None), Ter::tecINSUFFICIENT_FUNDS);
    let left = env.read(&line).and_then(|l| l.amount_of(sf().balance));
    assert!(
        left.is_none_or(|b| b.is_zero()),
        "the pseudo-account holds nothing"
    );
    assert_eq!(
        env.iou_balance(&owner, &gw, "USD"),
        val("400"),
        "clawed, not returned"
    );

    // Deleting removes the pseudo-account's line with it.
    env.apply(&owner, deposit(key, gw.iou("USD", 5)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&owner, &gw, "USD"), val("395"));
    env.apply(&owner, delete(key), Ter::tesSUCCESS);
    assert!(env.read(&line).is_none());
    assert!(env.read(&keylet::account(&pseudo)).is_none());
    assert_eq!(env.iou_balance(&owner, &gw, "USD"), val("400"));
}

#[test]
fn clawback_needs_the_issuers_permission_and_an_issued_asset() {
    let mut env = env();
    let (gw, owner, vault, _) = iou_setup(&mut env, false);
    let (key, _) = open_broker(&mut env, &owner, vault);
    env.apply(&owner, deposit(key, gw.iou("USD", 10)), Ter::tesSUCCESS);
    env.apply(&gw, clawback(Some(key), None), Ter::tecNO_PERMISSION);
    // An XRP broker's cover is never clawed back.
    let (xvault, _) = open_vault(&mut env, &owner, Issue::XRP);
    let (xkey, _) = open_broker(&mut env, &owner, xvault);
    env.apply(&owner, deposit(xkey, xrp(10)), Ter::tesSUCCESS);
    env.apply(&gw, clawback(Some(xkey), None), Ter::tecNO_PERMISSION);
    // A frozen line stops a deposit.
    let mut freeze = trust(owner.iou("USD", 0));
    freeze = freeze.flags(0x0010_0000); // tfSetFreeze
    env.apply(&gw, freeze, Ter::tesSUCCESS);
    env.apply(&owner, deposit(key, gw.iou("USD", 1)), Ter::tecFROZEN);
}

#[test]
fn a_pseudo_account_holds_its_whole_xrp_cover_without_a_reserve() {
    let mut env = env();
    let [owner] = env.funded(["lbReserve"]);
    let (vault, _) = open_vault(&mut env, &owner, Issue::XRP);
    let (key, pseudo) = open_broker(&mut env, &owner, vault);
    // Less than an account reserve: all of it comes back.
    env.apply(&owner, deposit(key, drops(1_500)), Ter::tesSUCCESS);
    env.apply(&owner, withdraw(key, drops(1_500)), Ter::tesSUCCESS);
    assert_eq!(drops_of(&env, &pseudo), 0);
    assert!(cover(&env, &key).is_zero());
}

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

    #[test]
    fn an_mpt_brokers_cover_moves_and_is_clawed_back() {
        let mut env = env();
        let [issuer, owner] = env.funded(["lbmIssuer", "lbmOwner"]);
        let iseq = env.seq(&issuer);
        let flags = ctf::CAN_TRANSFER | ctf::CAN_LOCK | ctf::CAN_CLAWBACK;
        env.apply(
            &issuer,
            Tx::new("MPTokenIssuanceCreate").flags(flags),
            Ter::tesSUCCESS,
        );
        let id = MptId::new(iseq, &issuer.id);
        let mut opt_in = Tx::new("MPTokenAuthorize");
        opt_in
            .0
            .set(sf().mpt_issuance_id, StValue::Fixed(id.0.to_vec()));
        env.apply(&owner, opt_in, Ter::tesSUCCESS);
        let pay = Tx::new("Payment").account("Destination", &owner.id);
        env.apply(&issuer, with_mpt(pay, &id, 1000), Ter::tesSUCCESS);
        let vseq = env.seq(&owner);
        let mut create = Tx::new("VaultCreate");
        create.0.set(sf().asset, StValue::MptIssue(id));
        let create = with_fee(&env, create);
        env.apply(&owner, create, Ter::tesSUCCESS);
        let vault = keylet::vault(&owner.id, vseq);
        let (key, pseudo) = open_broker(&mut env, &owner, vault);
        assert_eq!(
            held(&env, &id, &pseudo),
            Some(0),
            "the pseudo-account's MPToken"
        );

        let dep = Tx::new("LoanBrokerCoverDeposit").h256("LoanBrokerID", key);
        env.apply(&owner, with_mpt(dep, &id, 300), Ter::tesSUCCESS);
        assert_eq!(held(&env, &id, &pseudo), Some(300));
        assert_eq!(held(&env, &id, &owner.id), Some(700));
        assert_eq!(cover(&env, &key), Number::from_i64(300));
        // The issuer claws back by LoanBrokerID (an MPT cannot name the broker itself).
        let claw = clawback(Some(key), None);
        env.apply(&issuer, with_mpt(claw, &id, 100), Ter::tesSUCCESS);
        assert_eq!(held(&env, &id, &pseudo), Some(200));
        assert_eq!(cover(&env, &key), Number::from_i64(200));
        let claw = clawback(None, None);
        env.apply(&issuer, with_mpt(claw, &id, 1), Ter::temINVALID);
        let wd = Tx::new("LoanBrokerCoverWithdraw").h256("LoanBrokerID", key);
        env.apply(&owner, with_mpt(wd, &id, 50), Ter::tesSUCCESS);
        assert_eq!(held(&env, &id, &owner.id), Some(750));
        // Deleting returns the rest and removes the pseudo-account's MPToken.
        env.apply(&owner, delete(key), Ter::tesSUCCESS);
        assert_eq!(held(&env, &id, &owner.id), Some(900));
        assert_eq!(held(&env, &id, &pseudo), None);
        assert!(env.read(&keylet::account(&pseudo)).is_none());
    }
}
