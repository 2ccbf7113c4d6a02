//! Multi-purpose token stories (issue 16), after rippled's `MPToken_test.cpp`: issuances
//! created, locked, destroyed; holders opting in and out with the reserve rule; the
//! issuer authorizing holders; direct MPT payments (minting, burning, between holders
//! with the transfer fee, partial ones from SendMax); clawback. After each story the
//! issuances' OutstandingAmount is checked against the sum of the holders' balances.

use crate::support;

use ledgerd::engine::mptoken_authorize::tf as auth_tf;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
use ledgerd::engine::payment::tf as pay_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf_mpt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;
use support::engine::*;
use support::mpt::{issue, mpt, outstanding, pay_mpt, with_id};

fn create(flags: u32) -> Tx {
    Tx::new("MPTokenIssuanceCreate").flags(flags)
}

fn authorize(id: &MptId) -> Tx {
    with_id(Tx::new("MPTokenAuthorize"), id)
}

fn authorize_holder(id: &MptId, holder: &Account) -> Tx {
    authorize(id).account("Holder", &holder.id)
}

fn set(id: &MptId, flags: u32) -> Tx {
    with_id(Tx::new("MPTokenIssuanceSet"), id).flags(flags)
}

fn destroy(id: &MptId) -> Tx {
    with_id(Tx::new("MPTokenIssuanceDestroy"), id)
}

fn claw(holder: &Account, id: &MptId, v: u64) -> Tx {
    let mut tx = Tx::new("Clawback").account("Holder", &holder.id);
    tx.0.set(sf().amount, mpt(id, v));
    tx
}

fn with_amount(mut tx: Tx, name: &str, id: &MptId, v: u64) -> Tx {
    tx.0.set(Field::named(name), mpt(id, v));
    tx
}

fn balance(env: &Env, holder: &Account, id: &MptId) -> Option<u64> {
    env.read(&keylet::mptoken(id, &holder.id))
        .map(|t| t.u64_of(sf().mpt_amount).unwrap_or(0))
}

/// OutstandingAmount is what the holders hold.
fn conserved(env: &Env, id: &MptId, holders: &[&Account]) {
    let sum: u64 = holders.iter().filter_map(|h| balance(env, h, id)).sum();
    assert_eq!(
        outstanding(env, id),
        sum,
        "OutstandingAmount is the holders' total"
    );
}

/// An issuance with `flags`, and `holders` opted in (and authorized if RequireAuth).
fn setup(env: &mut Env, issuer: &Account, flags: u32, holders: &[&Account]) -> MptId {
    let id = issue(env, issuer, create(flags));
    for h in holders {
        env.apply(h, authorize(&id), Ter::tesSUCCESS);
        if flags & ctf::REQUIRE_AUTH != 0 {
            env.apply(issuer, authorize_holder(&id, h), Ter::tesSUCCESS);
        }
    }
    id
}

#[test]
fn an_issuance_is_created_with_its_fields_and_owner_count() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let seq = env.seq(&alice);
    let tx = create(ctf::CAN_LOCK | ctf::CAN_TRANSFER | ctf::REQUIRE_AUTH)
        .u8("AssetScale", 2)
        .blob("MPTokenMetadata", b"123")
        .flags(ctf::CAN_LOCK | ctf::CAN_TRANSFER | ctf::REQUIRE_AUTH);
    let mut tx = tx;
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(10));
    tx.0.set(Field::named("MaximumAmount"), StValue::UInt64(100));
    env.apply(&alice, tx, Ter::tesSUCCESS);
    let id = MptId::new(seq, &alice.id);
    let key = keylet::mpt_issuance(&id);
    let iss = env.read(&key).expect("issuance");
    assert_eq!(
        iss.flags(),
        lsf_mpt::CAN_LOCK | lsf_mpt::CAN_TRANSFER | lsf_mpt::REQUIRE_AUTH
    );
    assert_eq!(iss.account_of(sf().issuer), Some(alice.id));
    assert_eq!(iss.u32_of(sf().sequence), Some(seq));
    assert_eq!(iss.u64_of(sf().outstanding_amount), Some(0));
    assert_eq!(iss.u64_of(sf().maximum_amount), Some(100));
    assert_eq!(iss.u16_of(sf().transfer_fee), Some(10));
    assert_eq!(iss.u8_of(sf().asset_scale), Some(2));
    assert_eq!(iss.blob_of(sf().mptoken_metadata), Some(&b"123"[..]));
    assert_eq!(env.owner_count(&alice), 1);
    assert!(env.owned(&alice).contains(&key));
}

#[test]
fn malformed_issuances_are_refused_in_preflight() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let fee = |v: u16, flags: u32| {
        let mut t = create(flags);
        t.0.set(Field::named("TransferFee"), StValue::UInt16(v));
        t
    };
    let max = |v: u64| {
        let mut t = create(0);
        t.0.set(Field::named("MaximumAmount"), StValue::UInt64(v));
        t
    };
    env.apply(&alice, create(0x0001), Ter::temINVALID_FLAG);
    // A DomainID (SingleAssetVault) needs RequireAuth and may not be zero.
    env.apply(
        &alice,
        create(0).h256("DomainID", ledgerd::protocol::types::Hash256([42; 32])),
        Ter::temMALFORMED,
    );
    env.apply(
        &alice,
        create(ctf::REQUIRE_AUTH).h256("DomainID", ledgerd::protocol::types::Hash256::ZERO),
        Ter::temMALFORMED,
    );
    env.apply(&alice, create(0x0100), Ter::temINVALID_FLAG);
    env.apply(
        &alice,
        fee(50_001, ctf::CAN_TRANSFER),
        Ter::temBAD_TRANSFER_FEE,
    );
    env.apply(&alice, fee(1, 0), Ter::temMALFORMED);
    env.apply(
        &alice,
        create(0).blob("MPTokenMetadata", b""),
        Ter::temMALFORMED,
    );
    let long = vec![b'a'; 1025];
    env.apply(
        &alice,
        create(0).blob("MPTokenMetadata", &long),
        Ter::temMALFORMED,
    );
    env.apply(&alice, max(0), Ter::temMALFORMED);
    env.apply(&alice, max(0x8000_0000_0000_0000), Ter::temMALFORMED);
    // The limits themselves are fine.
    env.apply(&alice, fee(50_000, ctf::CAN_TRANSFER), Ter::tesSUCCESS);
    env.apply(&alice, fee(0, 0), Ter::tesSUCCESS);
    env.apply(&alice, max(0x7FFF_FFFF_FFFF_FFFF), Ter::tesSUCCESS);
    env.apply(
        &alice,
        create(0).blob("MPTokenMetadata", &long[..1024]),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&alice), 4);
}

#[test]
fn an_issuance_needs_the_reserve_and_is_keyed_by_a_ticket() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    // Base reserve (10 XRP) plus two fees: the issuance needs 12 XRP.
    env.fund(&alice, drops(10_000_000 + 2 * FEE));
    env.apply(&alice, create(0), Ter::tecINSUFFICIENT_RESERVE);
    assert_eq!(env.owner_count(&alice), 0);
    let [bob] = env.funded(["bob"]);
    let first = env.seq(&bob) + 1;
    env.apply(&bob, ticket_create(1), Ter::tesSUCCESS);
    env.apply(&bob, with_ticket(create(0), first), Ter::tesSUCCESS);
    let id = MptId::new(first, &bob.id);
    let iss = env
        .read(&keylet::mpt_issuance(&id))
        .expect("keyed by the ticket");
    assert_eq!(iss.u32_of(sf().sequence), Some(first));
}

#[test]
fn holders_opt_in_and_out() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = setup(&mut env, &alice, 0, &[]);
    let missing = MptId::new(999, &alice.id);
    env.apply(&bob, authorize(&missing), Ter::tecOBJECT_NOT_FOUND);
    env.apply(&alice, authorize(&id), Ter::tecNO_PERMISSION);
    env.apply(
        &bob,
        authorize(&id).flags(auth_tf::UNAUTHORIZE),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(&bob, authorize(&id).flags(0x0002), Ter::temINVALID_FLAG);
    env.apply(&bob, authorize(&id), Ter::tesSUCCESS);
    let key = keylet::mptoken(&id, &bob.id);
    let tok = env.read(&key).expect("MPToken");
    assert_eq!(tok.account_of(sf().account), Some(bob.id));
    assert_eq!(tok.mpt_id_of(sf().mpt_issuance_id), Some(id));
    assert_eq!(tok.flags(), 0);
    assert_eq!(env.owner_count(&bob), 1);
    assert!(env.owned(&bob).contains(&key));
    env.apply(&bob, authorize(&id), Ter::tecDUPLICATE);
    // Not deleted while it holds a balance.
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tesSUCCESS);
    env.apply(
        &bob,
        authorize(&id).flags(auth_tf::UNAUTHORIZE),
        Ter::tecHAS_OBLIGATIONS,
    );
    env.apply(&bob, pay_mpt(&alice, &id, 100), Ter::tesSUCCESS);
    env.apply(
        &bob,
        authorize(&id).flags(auth_tf::UNAUTHORIZE),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&key).is_none());
    assert_eq!(env.owner_count(&bob), 0);
    assert!(!env.owned(&bob).contains(&key));
    conserved(&env, &id, &[&bob]);
}

#[test]
fn the_first_two_owned_entries_need_no_reserve_for_an_mptoken() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let ids: Vec<MptId> = (0..3).map(|_| setup(&mut env, &alice, 0, &[])).collect();
    let bob = Account::new("bob");
    // The base reserve and the fees of three transactions: nothing for owned entries.
    env.fund(&bob, drops(10_000_000 + 3 * FEE));
    env.apply(&bob, authorize(&ids[0]), Ter::tesSUCCESS);
    env.apply(&bob, authorize(&ids[1]), Ter::tesSUCCESS);
    env.apply(&bob, authorize(&ids[2]), Ter::tecINSUFFICIENT_RESERVE);
    assert_eq!(env.owner_count(&bob), 2);
}

#[test]
fn the_issuer_authorizes_holders_of_an_issuance_that_requires_it() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let open = setup(&mut env, &alice, 0, &[&bob]);
    env.apply(&alice, authorize_holder(&open, &bob), Ter::tecNO_AUTH);
    let id = setup(&mut env, &alice, ctf::REQUIRE_AUTH, &[]);
    env.apply(&bob, authorize_holder(&id, &carol), Ter::tecNO_PERMISSION);
    env.apply(
        &alice,
        authorize_holder(&id, &bob),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(
        &alice,
        authorize(&id).account("Holder", &alice.id),
        Ter::temMALFORMED,
    );
    let nobody = Account::new("nobody");
    env.apply(&alice, authorize_holder(&id, &nobody), Ter::tecNO_DST);
    // Holder without an MPToken, then opted in but not authorized: no payment.
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tecNO_AUTH);
    env.apply(&bob, authorize(&id), Ter::tesSUCCESS);
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tecNO_AUTH);
    env.apply(&alice, authorize_holder(&id, &bob), Ter::tesSUCCESS);
    let tok = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert!(tok.is_flag(lsf_mpt::AUTHORIZED));
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(100));
    // Taken back: the holder can no longer send, not even to the issuer.
    env.apply(
        &alice,
        authorize_holder(&id, &bob).flags(auth_tf::UNAUTHORIZE),
        Ter::tesSUCCESS,
    );
    let tok = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert!(!tok.is_flag(lsf_mpt::AUTHORIZED));
    env.apply(&bob, pay_mpt(&alice, &id, 10), Ter::tecNO_AUTH);
    conserved(&env, &id, &[&bob]);
}

#[test]
fn locks_stop_payments_between_holders_but_not_with_the_issuer() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let unlockable = setup(&mut env, &alice, 0, &[&bob]);
    env.apply(
        &alice,
        set(&unlockable, set_tf::LOCK),
        Ter::tecNO_PERMISSION,
    );
    let id = setup(
        &mut env,
        &alice,
        ctf::CAN_LOCK | ctf::CAN_TRANSFER,
        &[&bob, &carol],
    );
    env.apply(
        &alice,
        set(&id, set_tf::LOCK | set_tf::UNLOCK),
        Ter::temINVALID_FLAG,
    );
    env.apply(&alice, set(&id, 0x0200), Ter::temINVALID_FLAG);
    // Nothing to change (DynamicMPT); a lock is no mutation (DynamicMPT, dynamic_mpt.rs).
    env.apply(&alice, set(&id, 0), Ter::temMALFORMED);
    env.apply(
        &alice,
        set(&id, set_tf::LOCK).blob("MPTokenMetadata", b"x"),
        Ter::temMALFORMED,
    );
    // A DomainID only on a RequireAuth issuance, never with a Holder.
    let domain = ledgerd::protocol::types::Hash256([42; 32]);
    env.apply(
        &alice,
        set(&id, 0).h256("DomainID", domain),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &alice,
        set(&id, 0)
            .h256("DomainID", domain)
            .account("Holder", &bob.id),
        Ter::temMALFORMED,
    );
    env.apply(&bob, set(&id, set_tf::LOCK), Ter::tecNO_PERMISSION);
    env.apply(
        &alice,
        set(&id, set_tf::LOCK).account("Holder", &alice.id),
        Ter::temMALFORMED,
    );
    let dave = Account::new("dave");
    env.apply(
        &alice,
        set(&id, set_tf::LOCK).account("Holder", &dave.id),
        Ter::tecNO_DST,
    );
    env.fund(&dave, xrp(1000));
    env.apply(
        &alice,
        set(&id, set_tf::LOCK).account("Holder", &dave.id),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tesSUCCESS);
    // Globally locked.
    env.apply(&alice, set(&id, set_tf::LOCK), Ter::tesSUCCESS);
    let iss = env.read(&keylet::mpt_issuance(&id)).unwrap();
    assert!(iss.is_flag(lsf_mpt::LOCKED));
    env.apply(&bob, pay_mpt(&carol, &id, 10), Ter::tecLOCKED);
    env.apply(&bob, pay_mpt(&alice, &id, 10), Ter::tesSUCCESS);
    env.apply(&alice, pay_mpt(&bob, &id, 10), Ter::tesSUCCESS);
    env.apply(&alice, set(&id, set_tf::UNLOCK), Ter::tesSUCCESS);
    env.apply(&bob, pay_mpt(&carol, &id, 10), Ter::tesSUCCESS);
    // One holder locked: it neither sends nor receives between holders.
    env.apply(
        &alice,
        set(&id, set_tf::LOCK).account("Holder", &bob.id),
        Ter::tesSUCCESS,
    );
    let tok = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert!(tok.is_flag(lsf_mpt::LOCKED));
    env.apply(&bob, pay_mpt(&carol, &id, 10), Ter::tecLOCKED);
    env.apply(&carol, pay_mpt(&bob, &id, 5), Ter::tecLOCKED);
    env.apply(&bob, pay_mpt(&alice, &id, 10), Ter::tesSUCCESS);
    env.apply(
        &alice,
        set(&id, set_tf::UNLOCK).account("Holder", &bob.id),
        Ter::tesSUCCESS,
    );
    env.apply(&carol, pay_mpt(&bob, &id, 5), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(85));
    assert_eq!(balance(&env, &carol, &id), Some(5));
    conserved(&env, &id, &[&bob, &carol]);
}

#[test]
fn destroy_waits_until_nothing_is_outstanding() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    env.apply(
        &alice,
        destroy(&MptId::new(99, &alice.id)),
        Ter::tecOBJECT_NOT_FOUND,
    );
    let id = setup(&mut env, &alice, 0, &[&bob]);
    env.apply(&bob, destroy(&id), Ter::tecNO_PERMISSION);
    env.apply(&alice, destroy(&id).flags(0x0001), Ter::temINVALID_FLAG);
    env.apply(&alice, pay_mpt(&bob, &id, 10), Ter::tesSUCCESS);
    env.apply(&alice, destroy(&id), Ter::tecHAS_OBLIGATIONS);
    env.apply(&bob, pay_mpt(&alice, &id, 10), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    // Holders may remain with empty tokens.
    env.apply(&alice, destroy(&id), Ter::tesSUCCESS);
    assert!(env.read(&keylet::mpt_issuance(&id)).is_none());
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.read(&keylet::mptoken(&id, &bob.id)).is_some());
    // The empty token is still deleted by its holder.
    env.apply(
        &bob,
        authorize(&id).flags(auth_tf::UNAUTHORIZE),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&bob), 0);
    env.apply(&bob, authorize(&id), Ter::tecOBJECT_NOT_FOUND);
}

#[test]
fn transfers_between_holders_need_can_transfer_and_pay_the_fee() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let plain = setup(&mut env, &alice, 0, &[&bob, &carol]);
    env.apply(&alice, pay_mpt(&bob, &plain, 100), Ter::tesSUCCESS);
    env.apply(&bob, pay_mpt(&carol, &plain, 10), Ter::tecNO_AUTH);
    // 10% (TransferFee 10,000 of 100,000).
    let mut tx = create(ctf::CAN_TRANSFER);
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(10_000));
    let id = issue(&mut env, &alice, tx);
    for h in [&bob, &carol] {
        env.apply(h, authorize(&id), Ter::tesSUCCESS);
    }
    env.apply(&alice, pay_mpt(&bob, &id, 1_000), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env, &id), 1_000);
    // Without SendMax the sender spends at most Amount: the fee does not fit.
    env.apply(&bob, pay_mpt(&carol, &id, 100), Ter::tecPATH_PARTIAL);
    let with_fee = with_amount(pay_mpt(&carol, &id, 100), "SendMax", &id, 110);
    env.apply(&bob, with_fee, Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(890));
    assert_eq!(balance(&env, &carol, &id), Some(100));
    assert_eq!(outstanding(&env, &id), 990, "the fee is burnt");
    // SendMax below amount plus fee: refused, unless partial.
    let short = || with_amount(pay_mpt(&carol, &id, 100), "SendMax", &id, 105);
    env.apply(&bob, short(), Ter::tecPATH_PARTIAL);
    env.apply(
        &bob,
        short().flags(pay_tf::PARTIAL_PAYMENT),
        Ter::tesSUCCESS,
    );
    // 105 / 1.1 = 95.45 delivers 95, which costs 95 x 1.1 = 104.5: 104 (ties to even).
    assert_eq!(balance(&env, &carol, &id), Some(195));
    assert_eq!(balance(&env, &bob, &id), Some(786));
    let meta = env.last_meta.clone().unwrap();
    assert_eq!(
        meta.mpt_amount_of(sf().delivered_amount),
        Some(MptAmount::new(95, id))
    );
    // DeliverMin above what SendMax buys.
    let min = with_amount(
        with_amount(pay_mpt(&carol, &id, 100), "SendMax", &id, 105),
        "DeliverMin",
        &id,
        96,
    );
    env.apply(
        &bob,
        min.flags(pay_tf::PARTIAL_PAYMENT),
        Ter::tecPATH_PARTIAL,
    );
    // Paying the issuer back carries no fee.
    env.apply(&carol, pay_mpt(&alice, &id, 100), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &carol, &id), Some(95));
    // More than the holder has.
    env.apply(&carol, pay_mpt(&bob, &id, 95), Ter::tecPATH_PARTIAL);
    env.apply(&carol, pay_mpt(&alice, &id, 96), Ter::tecPATH_PARTIAL);
    conserved(&env, &id, &[&bob, &carol]);
    conserved(&env, &plain, &[&bob, &carol]);
}

#[test]
fn the_issuer_mints_up_to_maximum_amount() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let mut tx = create(0);
    tx.0.set(Field::named("MaximumAmount"), StValue::UInt64(100));
    let id = issue(&mut env, &alice, tx);
    env.apply(&bob, authorize(&id), Ter::tesSUCCESS);
    env.apply(&alice, pay_mpt(&bob, &id, 101), Ter::tecPATH_PARTIAL);
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tesSUCCESS);
    env.apply(&alice, pay_mpt(&bob, &id, 1), Ter::tecPATH_PARTIAL);
    assert_eq!(outstanding(&env, &id), 100);
    env.apply(&bob, pay_mpt(&alice, &id, 1), Ter::tesSUCCESS);
    env.apply(&alice, pay_mpt(&bob, &id, 1), Ter::tesSUCCESS);
    // Without a MaximumAmount the cap is 2^63 - 1.
    let big = setup(&mut env, &alice, 0, &[&bob]);
    env.apply(
        &alice,
        pay_mpt(&bob, &big, 0x7FFF_FFFF_FFFF_FFFF),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, pay_mpt(&bob, &big, 1), Ter::tecPATH_PARTIAL);
    conserved(&env, &id, &[&bob]);
    conserved(&env, &big, &[&bob]);
}

#[test]
fn malformed_mpt_payments() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = setup(&mut env, &alice, 0, &[&bob]);
    let other = setup(&mut env, &alice, 0, &[]);
    let p = || pay_mpt(&bob, &id, 10);
    env.apply(
        &alice,
        p().flags(pay_tf::NO_RIPPLE_DIRECT),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &alice,
        p().flags(pay_tf::LIMIT_QUALITY),
        Ter::temINVALID_FLAG,
    );
    let step = ledgerd::protocol::st::PathStep {
        account: Some(bob.id),
        currency: None,
        issuer: None,
    };
    env.apply(&alice, p().paths(vec![vec![step]]), Ter::temMALFORMED);
    env.apply(
        &alice,
        with_amount(p(), "SendMax", &other, 10),
        Ter::temMALFORMED,
    );
    env.apply(&alice, p().amount("SendMax", xrp(1)), Ter::temMALFORMED);
    env.apply(&alice, pay_mpt(&bob, &id, 0), Ter::temBAD_AMOUNT);
    env.apply(&alice, pay_mpt(&alice, &id, 10), Ter::temREDUNDANT);
    env.apply(
        &alice,
        with_amount(p(), "DeliverMin", &id, 5),
        Ter::temBAD_AMOUNT,
    );
    let min = with_amount(p(), "DeliverMin", &id, 11).flags(pay_tf::PARTIAL_PAYMENT);
    env.apply(&alice, min, Ter::temBAD_AMOUNT);
    // An MPT SendMax for an XRP amount.
    env.apply(
        &alice,
        with_amount(pay(&bob, xrp(1)), "SendMax", &id, 1),
        Ter::temMALFORMED,
    );
    let nobody = Account::new("nobody");
    env.apply(&alice, pay_mpt(&nobody, &id, 10), Ter::tecNO_DST);
    // Issued by nobody.
    let ghost = MptId::new(7, &Account::new("ghost").id);
    env.apply(&alice, pay_mpt(&bob, &ghost, 10), Ter::tecOBJECT_NOT_FOUND);
    // An MPT amount where only XRP or IOUs go.
    let mut offer = Tx::new("OfferCreate").amount("TakerGets", xrp(10));
    offer.0.set(sf().taker_pays, mpt(&id, 10));
    assert!(env.submit(&bob, offer).is_tem());
    let mut check = Tx::new("CheckCreate").account("Destination", &alice.id);
    check.0.set(sf().send_max, mpt(&id, 10));
    assert!(env.submit(&bob, check).is_tem());
    let mut fee_tx = pay(&alice, xrp(1)).account("Account", &bob.id);
    fee_tx.0.set(sf().fee, mpt(&id, 10));
    assert_eq!(env.store.apply(&fee_tx.0).ter, Ter::temBAD_FEE);
}

#[test]
fn clawback_takes_back_up_to_the_balance() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let no_claw = setup(&mut env, &alice, 0, &[&bob]);
    env.apply(&alice, pay_mpt(&bob, &no_claw, 100), Ter::tesSUCCESS);
    env.apply(&alice, claw(&bob, &no_claw, 10), Ter::tecNO_PERMISSION);
    let id = setup(&mut env, &alice, ctf::CAN_CLAWBACK | ctf::CAN_LOCK, &[&bob]);
    env.apply(&alice, claw(&bob, &id, 10), Ter::tecINSUFFICIENT_FUNDS);
    env.apply(&alice, pay_mpt(&bob, &id, 100), Ter::tesSUCCESS);
    let mut no_holder = Tx::new("Clawback");
    no_holder.0.set(sf().amount, mpt(&id, 10));
    env.apply(&alice, no_holder, Ter::temMALFORMED);
    env.apply(&alice, claw(&alice, &id, 10), Ter::temMALFORMED);
    env.apply(&alice, claw(&bob, &id, 0), Ter::temBAD_AMOUNT);
    env.apply(&bob, claw(&alice, &id, 10), Ter::tecNO_PERMISSION);
    let [carol] = env.funded(["carol"]);
    env.apply(&alice, claw(&carol, &id, 10), Ter::tecOBJECT_NOT_FOUND);
    // An IOU clawback may not name a Holder.
    env.apply(
        &alice,
        clawback(bob.iou("USD", 1)).account("Holder", &bob.id),
        Ter::temMALFORMED,
    );
    // Locked balances are clawed back too.
    env.apply(&alice, set(&id, set_tf::LOCK), Ter::tesSUCCESS);
    env.apply(&alice, claw(&bob, &id, 10), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(90));
    assert_eq!(outstanding(&env, &id), 90);
    env.apply(&alice, claw(&bob, &id, 1_000), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(0));
    assert_eq!(outstanding(&env, &id), 0);
    env.apply(&alice, claw(&bob, &id, 1), Ter::tecINSUFFICIENT_FUNDS);
    env.apply(&alice, destroy(&id), Ter::tesSUCCESS);
    conserved(&env, &no_claw, &[&bob]);
}

#[test]
fn mpt_entries_are_threaded_and_in_the_metadata() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = setup(&mut env, &alice, 0, &[&bob]);
    let tx_id = env.last_id.unwrap();
    let tok = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert_eq!(tok.h256_of(sf().previous_txn_id), Some(tx_id));
    env.apply(&alice, pay_mpt(&bob, &id, 7), Ter::tesSUCCESS);
    let meta = env.last_meta.clone().unwrap();
    let nodes = meta.get_array("AffectedNodes").unwrap();
    let modified: Vec<u16> = nodes
        .iter()
        .filter(|(f, _)| f.name() == "ModifiedNode")
        .filter_map(|(_, n)| n.get_u16("LedgerEntryType"))
        .collect();
    assert!(modified.contains(&0x007e), "issuance: {modified:?}");
    assert!(modified.contains(&0x007f), "token: {modified:?}");
    let tok = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert_eq!(tok.h256_of(sf().previous_txn_id), env.last_id);
    assert!(
        meta.get(sf().delivered_amount).is_none(),
        "delivered in full"
    );
}

/// MPToken_test testPayment "Transfer fee": 10%, SendMax 109 / 110 / 115, then a partial
/// payment from SendMax 90 delivering 82 (90 / 1.1 rounded to nearest).
#[test]
fn transfer_fee_numbers_of_mptoken_test() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let mut tx = create(ctf::CAN_TRANSFER);
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(10_000));
    let id = issue(&mut env, &alice, tx);
    for h in [&bob, &carol] {
        env.apply(h, authorize(&id), Ter::tesSUCCESS);
    }
    env.apply(&alice, pay_mpt(&bob, &id, 2_000), Ter::tesSUCCESS);
    env.apply(&bob, pay_mpt(&alice, &id, 1_000), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(1_000));
    env.apply(&bob, pay_mpt(&carol, &id, 1_000), Ter::tecPATH_PARTIAL);
    env.apply(&bob, pay_mpt(&carol, &id, 100), Ter::tecPATH_PARTIAL);
    let sm = |v| with_amount(pay_mpt(&carol, &id, 100), "SendMax", &id, v);
    env.apply(&bob, sm(109), Ter::tecPATH_PARTIAL);
    env.apply(&bob, sm(110), Ter::tesSUCCESS);
    env.apply(&bob, sm(115), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(780));
    assert_eq!(balance(&env, &carol, &id), Some(200));
    env.apply(&bob, sm(90).flags(pay_tf::PARTIAL_PAYMENT), Ter::tesSUCCESS);
    assert_eq!(balance(&env, &bob, &id), Some(690));
    assert_eq!(balance(&env, &carol, &id), Some(282));
    conserved(&env, &id, &[&bob, &carol]);
}

/// MPToken_test "Pay maximum amount with the transfer fee, SendMax, and partial
/// payment": 0.1% on 10,000 delivers 9,990 and spends everything; the emptied token
/// loses its MPTAmount field (soeDEFAULT).
#[test]
fn a_partial_payment_of_the_whole_balance_empties_the_token() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let mut tx = create(ctf::CAN_TRANSFER);
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(100));
    tx.0.set(Field::named("MaximumAmount"), StValue::UInt64(10_000));
    let id = issue(&mut env, &alice, tx);
    for h in [&bob, &carol] {
        env.apply(h, authorize(&id), Ter::tesSUCCESS);
    }
    env.apply(&alice, pay_mpt(&bob, &id, 10_000), Ter::tesSUCCESS);
    let all = || with_amount(pay_mpt(&carol, &id, 10_000), "SendMax", &id, 10_000);
    env.apply(&bob, all().flags(pay_tf::PARTIAL_PAYMENT), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env, &id), 9_990);
    assert_eq!(balance(&env, &carol, &id), Some(9_990));
    let tok = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert!(
        tok.get(sf().mpt_amount).is_none(),
        "a zero MPTAmount is left out"
    );
    let meta = env.last_meta.clone().unwrap();
    let bob_key = keylet::mptoken(&id, &bob.id);
    let (_, node) = meta
        .get_array("AffectedNodes")
        .unwrap()
        .iter()
        .find(|(_, n)| n.get_h256("LedgerIndex") == Some(bob_key))
        .expect("bob's token modified")
        .clone();
    let prev = node.get_object("PreviousFields").unwrap();
    assert_eq!(prev.get_u64("MPTAmount"), Some(10_000));
    assert!(!node.get_object("FinalFields").unwrap().has("MPTAmount"));
    env.apply(&bob, all(), Ter::tecPATH_PARTIAL);
    conserved(&env, &id, &[&bob, &carol]);
}

/// An issuance created with a zero TransferFee and AssetScale leaves both out.
#[test]
fn default_fields_are_left_out() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let mut tx = create(0).u8("AssetScale", 0);
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(0));
    let id = issue(&mut env, &alice, tx);
    let iss = env.read(&keylet::mpt_issuance(&id)).unwrap();
    assert!(!iss.has("AssetScale") && !iss.has("TransferFee"));
    assert_eq!(iss.u64_of(sf().outstanding_amount), Some(0));
}

/// MPToken_test testTxJsonMetaFields: jtx's alice (passphrase "alice") creates an
/// issuance with her fourth transaction: rippled's transaction hash and MPTID.
#[test]
fn the_synthetic_fields_vector_of_mptoken_test() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    while env.seq(&alice) < 4 {
        env.apply(&alice, account_set(), Ter::tesSUCCESS);
    }
    assert_eq!(env.seq(&alice), 4, "the vector needs Sequence 4");
    env.apply(&alice, create(0), Ter::tesSUCCESS);
    assert_eq!(
        env.last_id.unwrap().to_hex(),
        "E11F0E0CA14219922B7881F060B9CEE67CFBC87E4049A441ED2AE348FF8FAC0E"
    );
    let id = MptId::new(4, &alice.id);
    assert_eq!(
        id.to_hex(),
        "00000004AE123A8556F3CF91154711376AFB0F894F832B3D"
    );
    assert!(env.read(&keylet::mpt_issuance(&id)).is_some());
}

/// An issuance and an MPToken are obligations: AccountDelete answers tecHAS_OBLIGATIONS
/// until they are gone (rippled's DeleteAccount deleters know neither type).
#[test]
fn mpt_entries_block_account_deletion() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let id = setup(&mut env, &alice, 0, &[&bob]);
    while env.store.current().seq() < env.seq(&alice).max(env.seq(&bob)) + 255 {
        env.close();
    }
    env.apply(&alice, account_delete(&carol), Ter::tecHAS_OBLIGATIONS);
    env.apply(&bob, account_delete(&carol), Ter::tecHAS_OBLIGATIONS);
    env.apply(
        &bob,
        authorize(&id).flags(auth_tf::UNAUTHORIZE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, destroy(&id), Ter::tesSUCCESS);
    while env.store.current().seq() < env.seq(&alice).max(env.seq(&bob)) + 255 {
        env.close();
    }
    env.apply(&bob, account_delete(&carol), Ter::tesSUCCESS);
    env.apply(&alice, account_delete(&carol), Ter::tesSUCCESS);
}

/// An MPT amount or issue handed to the engine in a type that does not take one is
/// refused before anything is written (rippled refuses the transaction even earlier, in
/// its local checks), never a panic.
#[test]
fn mpt_amounts_elsewhere_are_refused_without_effect() {
    use ledgerd::ledger::sf::sf as fields;
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = setup(&mut env, &alice, 0, &[&bob]);
    let m = || mpt(&id, 10);
    let with = |name: &str, tx: Tx| {
        let mut tx = tx;
        tx.0.set(Field::named(name), m());
        tx
    };
    let issue = StValue::MptIssue(id);
    let cases: Vec<Tx> = vec![
        with(
            "TakerPays",
            Tx::new("OfferCreate").amount("TakerGets", xrp(1)),
        ),
        with(
            "TakerGets",
            Tx::new("OfferCreate").amount("TakerPays", xrp(1)),
        ),
        with(
            "SendMax",
            Tx::new("CheckCreate").account("Destination", &bob.id),
        ),
        with(
            "Amount",
            Tx::new("CheckCash").h256("CheckID", keylet::check(&bob.id, 1)),
        ),
        // EscrowCreate takes an MPT since TokenEscrow (tests/engine/token_escrow.rs).
        with(
            "Amount",
            Tx::new("PaymentChannelFund").h256("Channel", keylet::check(&bob.id, 1)),
        ),
        with("LimitAmount", Tx::new("TrustSet")),
        {
            let mut t = with("Amount", Tx::new("AMMCreate").amount("Amount2", xrp(1)));
            t.0.set(Field::named("TradingFee"), StValue::UInt16(0));
            t
        },
        {
            let mut t = Tx::new("AMMVote");
            t.0.set(Field::named("Asset"), issue.clone());
            t.0.set(
                Field::named("Asset2"),
                StValue::Issue(ledgerd::protocol::types::Issue::XRP),
            );
            t.0.set(Field::named("TradingFee"), StValue::UInt16(1));
            t
        },
        with("Amount", pay(&bob, xrp(1))).remove("Amount"),
    ];
    let owners = (env.owner_count(&alice), env.owner_count(&bob));
    for tx in cases {
        let name = tx.0.get_u16("TransactionType");
        let t = env.submit(&bob, tx);
        assert!(t.is_tem(), "{name:?}: {t}");
    }
    assert_eq!((env.owner_count(&alice), env.owner_count(&bob)), owners);
    assert!(
        env.read(&keylet::mpt_issuance(&id))
            .unwrap()
            .u64_of(fields().outstanding_amount)
            == Some(0)
    );
}

/// A holder's opt-in and opt-out touch only the holder's entries, yet rippled's
/// `getAffectedAccounts` counts the issuer too: the token's MPTokenIssuanceID names it
/// (account_tx and the accounts stream use this).
#[test]
fn an_mptoken_change_affects_its_issuer() {
    use ledgerd::node::subscriptions::affected_accounts;
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = setup(&mut env, &alice, 0, &[]);
    for flags in [0, auth_tf::UNAUTHORIZE] {
        env.apply(&bob, authorize(&id).flags(flags), Ter::tesSUCCESS);
        let txs = env.store.open_txs();
        let last = txs.last().expect("the authorize");
        let touched = affected_accounts(&last.decoded(), true);
        assert!(
            touched.contains(&alice.id) && touched.contains(&bob.id),
            "{flags}"
        );
    }
}
