//! Token escrow stories (TokenEscrow, XLS-85), after rippled's `EscrowToken_test.cpp`:
//! issued currencies (the issuer's AllowTrustLineLocking, no escrow of one's own issue,
//! missing, frozen, unauthorized and short lines, the amount held by the issuer, the
//! issuer's directory, the transfer rate recorded at creation, the destination's line
//! made on finish, line limits) and MPTs (CanEscrow, CanTransfer, LockedAmount on the
//! holder's MPToken and on the issuance, locked holders, the MPToken made on finish,
//! the transfer fee taken out of OutstandingAmount).

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::mptoken_authorize::tf as auth_tf;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
use ledgerd::engine::trust_set::tf as trust_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::st::StValue;
use support::engine::*;
use support::mpt::{mpt, pay_mpt, with_id};

fn usd(gw: &Account, v: i64) -> Amount {
    gw.iou("USD", v)
}

fn int(v: i64) -> IouValue {
    IouValue::from_i64(v)
}

/// alice, bob and carol hold 5,000 USD each of a gateway that allows locking (rippled's
/// usual set-up); returns `[alice, bob, carol, gw]`.
fn iou_world(env: &mut Env) -> [Account; 4] {
    let [alice, bob, carol, gw] = env.funded(["alice", "bob", "carol", "gw"]);
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
    for who in [&alice, &bob, &carol] {
        env.apply(who, trust(usd(&gw, 10_000)), Ter::tesSUCCESS);
    }
    env.close();
    for who in [&alice, &bob, &carol] {
        env.apply(&gw, pay(who, usd(&gw, 5_000)), Ter::tesSUCCESS);
    }
    env.close();
    [alice, bob, carol, gw]
}

fn timed(tx: Tx, env: &Env) -> Tx {
    let now = env.parent_close();
    tx.u32("FinishAfter", now + 1).u32("CancelAfter", now + 100)
}

#[test]
fn an_issued_currency_escrow_is_held_by_the_issuer_until_finished() {
    let mut env = Env::new();
    let [alice, bob, _carol, gw] = iou_world(&mut env);
    assert!(env.flags(&gw) & lsf::ALLOW_TRUSTLINE_LOCKING != 0);
    let seq = env.seq(&alice);
    let create = timed(escrow_create(&bob, usd(&gw, 1_000)), &env);
    env.apply(&alice, create, Ter::tesSUCCESS);
    let key = keylet::escrow(&alice.id, seq);
    let e = env.read(&key).expect("escrow");
    assert_eq!(e.amount_of(sf().amount), Some(usd(&gw, 1_000)));
    assert!(
        e.u32_of(sf().transfer_rate).is_none(),
        "parity is not recorded"
    );
    assert!(e.u64_of(sf().issuer_node).is_some());
    for who in [&alice, &bob, &gw] {
        assert!(env.owned(who).contains(&key), "{}'s directory", who.name);
    }
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), int(4_000));
    assert_eq!(env.owner_count(&alice), 2, "the line and the escrow");
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    env.close_after(5);
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), int(6_000));
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), int(4_000));
    assert!(env.read(&key).is_none());
    assert!(
        !env.owned(&gw).contains(&key),
        "out of the issuer's directory"
    );
    assert_eq!(env.owner_count(&alice), 1);
}

#[test]
fn a_cancelled_issued_currency_escrow_returns_to_its_owner() {
    let mut env = Env::new();
    let [alice, bob, carol, gw] = iou_world(&mut env);
    let seq = env.seq(&alice);
    let create = timed(escrow_create(&bob, usd(&gw, 1_000)), &env);
    env.apply(&alice, create, Ter::tesSUCCESS);
    env.apply(&carol, escrow_cancel(&alice, seq), Ter::tecNO_PERMISSION);
    env.close_after(200);
    env.apply(&carol, escrow_cancel(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), int(5_000));
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), int(5_000));
    assert!(!env.owned(&gw).contains(&keylet::escrow(&alice.id, seq)));
    env.apply(&carol, escrow_cancel(&alice, seq), Ter::tecNO_TARGET);
}

#[test]
fn a_zero_issued_amount_is_refused_before_the_ledger() {
    let mut env = Env::new();
    let [alice, bob, _carol, gw] = iou_world(&mut env);
    let create = timed(escrow_create(&bob, usd(&gw, 0)), &env);
    env.apply(&alice, create, Ter::temBAD_AMOUNT);
}

#[test]
fn issued_currency_escrows_the_issuer_or_the_lines_refuse() {
    let mut env = Env::new();
    let [alice, bob, carol, gw] = iou_world(&mut env);
    let [dave, other_gw] = env.funded(["dave", "other_gw"]);
    // The issuer's own issue.
    let create = timed(escrow_create(&bob, usd(&gw, 10)), &env);
    env.apply(&gw, create, Ter::tecNO_PERMISSION);
    // An issuer that does not allow locking.
    env.apply(&alice, trust(other_gw.iou("EUR", 100)), Ter::tesSUCCESS);
    env.apply(
        &other_gw,
        pay(&alice, other_gw.iou("EUR", 50)),
        Ter::tesSUCCESS,
    );
    let create = timed(escrow_create(&bob, other_gw.iou("EUR", 10)), &env);
    env.apply(&alice, create, Ter::tecNO_PERMISSION);
    // No line to the issuer, then more than the line holds.
    let create = timed(escrow_create(&bob, usd(&gw, 10)), &env);
    env.apply(&dave, create, Ter::tecNO_LINE);
    let create = timed(escrow_create(&bob, usd(&gw, 5_001)), &env);
    env.apply(&alice, create, Ter::tecINSUFFICIENT_FUNDS);
    // A frozen source, a frozen destination.
    let freeze = |who: &Account| trust(who.iou("USD", 0)).flags(trust_tf::SET_FREEZE);
    env.apply(&gw, freeze(&carol), Ter::tesSUCCESS);
    let create = timed(escrow_create(&bob, usd(&gw, 10)), &env);
    env.apply(&carol, create, Ter::tecFROZEN);
    let create = timed(escrow_create(&carol, usd(&gw, 10)), &env);
    env.apply(&alice, create, Ter::tecFROZEN);
    // An unknown issuer.
    let ghost = Account::new("ghost");
    let create = timed(escrow_create(&bob, ghost.iou("USD", 1)), &env);
    env.apply(&alice, create, Ter::tecNO_ISSUER);
}

#[test]
fn require_auth_applies_to_both_ends() {
    let mut env = Env::new();
    let [alice, bob, carol, gw] = env.funded(["alice", "bob", "carol", "gw"]);
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
    for who in [&alice, &bob] {
        env.apply(who, trust(usd(&gw, 1_000)), Ter::tesSUCCESS);
    }
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, usd(&gw, 100)), Ter::tesSUCCESS);
    let create = timed(escrow_create(&bob, usd(&gw, 10)), &env);
    env.apply(&alice, create, Ter::tecNO_AUTH);
    let create = timed(escrow_create(&carol, usd(&gw, 10)), &env);
    env.apply(&alice, create, Ter::tecNO_LINE);
    env.apply(&gw, authorize(&bob, "USD"), Ter::tesSUCCESS);
    let create = timed(escrow_create(&bob, usd(&gw, 10)), &env);
    env.apply(&alice, create, Ter::tesSUCCESS);
}

#[test]
fn the_transfer_rate_recorded_at_creation_caps_the_fee_on_finish() {
    let mut env = Env::new();
    let [alice, bob, _carol, gw] = iou_world(&mut env);
    let rate = |r: u32| account_set().u32("TransferRate", r);
    env.apply(&gw, rate(1_250_000_000), Ter::tesSUCCESS);
    env.close();
    let create = |env: &Env| timed(escrow_create(&bob, usd(&gw, 125)), env);
    let first = env.seq(&alice);
    env.apply(&alice, create(&env), Ter::tesSUCCESS);
    let second = env.seq(&alice);
    env.apply(&alice, create(&env), Ter::tesSUCCESS);
    env.close();
    let e = env.read(&keylet::escrow(&alice.id, first)).expect("escrow");
    assert_eq!(e.u32_of(sf().transfer_rate), Some(1_250_000_000));
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), int(4_750));
    // Raised after creation: the recorded 1.25 applies, 125 delivers 100.
    env.apply(&gw, rate(1_500_000_000), Ter::tesSUCCESS);
    env.close_after(5);
    env.apply(&bob, escrow_finish(&alice, first), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), int(5_100));
    // Lowered below it: the new 1.0 applies, 125 delivers 125.
    env.apply(&gw, rate(1_000_000_000), Ter::tesSUCCESS);
    env.close();
    env.apply(&bob, escrow_finish(&alice, second), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), int(5_225));
}

#[test]
fn the_destination_finishing_gets_a_line_made_for_it() {
    let mut env = Env::new();
    let [alice, _bob, carol, gw] = iou_world(&mut env);
    let [dave] = env.funded(["dave"]);
    let seq = env.seq(&alice);
    let create = timed(escrow_create(&dave, usd(&gw, 100)), &env);
    env.apply(&alice, create, Ter::tesSUCCESS);
    env.close_after(5);
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tecNO_LINE);
    let before = env.owner_count(&dave);
    env.apply(&dave, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&dave, &gw, "USD"), int(100));
    assert_eq!(
        env.owner_count(&dave),
        before + 1,
        "the line's reserve is dave's"
    );
    let line = env.line(&dave, &gw, "USD").expect("line");
    let reserve_bit = if dave.id < gw.id {
        lsf::LOW_RESERVE
    } else {
        lsf::HIGH_RESERVE
    };
    assert!(line.flags() & reserve_bit != 0, "dave's reserve");
}

#[test]
fn a_destination_short_of_the_line_reserve_cannot_finish() {
    let mut env = Env::new();
    let [alice, _bob, _carol, gw] = iou_world(&mut env);
    let fees = env.store.fees();
    let dave = Account::new("dave");
    let funds = fees.reserve_base_drops + fees.reserve_inc_drops - 1;
    env.fund(&dave, drops(funds as i64));
    env.close();
    let seq = env.seq(&alice);
    let create = timed(escrow_create(&dave, usd(&gw, 1)), &env);
    env.apply(&alice, create, Ter::tesSUCCESS);
    env.close_after(5);
    env.apply(
        &dave,
        escrow_finish(&alice, seq),
        Ter::tecNO_LINE_INSUF_RESERVE,
    );
    assert!(env.line(&dave, &gw, "USD").is_none());
}

#[test]
fn an_amount_lost_in_the_balance_s_precision_is_refused() {
    // With 16 digits (no SingleAssetVault); with 19 the amounts add: number_scale.rs.
    let mut env = crate::number_scale::small_numbers();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
    let big = |v: &str| gw.iou_s("USD", v);
    env.apply(&alice, trust(big("100000000000000000")), Ter::tesSUCCESS);
    env.apply(&bob, trust(big("100000000000000000")), Ter::tesSUCCESS);
    env.close();
    env.apply(&gw, pay(&alice, big("10000000000000000")), Ter::tesSUCCESS);
    env.close();
    // EscrowToken_test: 1 USD against a balance of 10^16 would be lost.
    let create = timed(escrow_create(&bob, usd(&gw, 1)), &env);
    env.apply(&alice, create, Ter::tecPRECISION_LOSS);
    let create = timed(escrow_create(&bob, big("1000000000000")), &env);
    env.apply(&alice, create, Ter::tesSUCCESS);
}

#[test]
fn a_line_limit_binds_others_finishing_not_the_destination() {
    let mut env = Env::new();
    let [alice, bob, carol, gw] = iou_world(&mut env);
    let first = env.seq(&alice);
    env.apply(
        &alice,
        timed(escrow_create(&bob, usd(&gw, 3_000)), &env),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        timed(escrow_create(&bob, usd(&gw, 2_000)), &env),
        Ter::tesSUCCESS,
    );
    env.close();
    env.apply(&bob, trust(usd(&gw, 6_000)), Ter::tesSUCCESS);
    env.close_after(5);
    env.apply(&carol, escrow_finish(&alice, first), Ter::tecLIMIT_EXCEEDED);
    env.apply(&bob, escrow_finish(&alice, first), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), int(8_000));
}

#[test]
fn a_deep_frozen_destination_cannot_receive_the_escrow() {
    let mut env = Env::new();
    let [alice, bob, _carol, gw] = iou_world(&mut env);
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        timed(escrow_create(&bob, usd(&gw, 10)), &env),
        Ter::tesSUCCESS,
    );
    env.close();
    let deep = trust_tf::SET_FREEZE | trust_tf::SET_DEEP_FREEZE;
    env.apply(&gw, trust(bob.iou("USD", 0)).flags(deep), Ter::tesSUCCESS);
    env.close_after(5);
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tecFROZEN);
    env.close();
    let thaw = trust_tf::CLEAR_FREEZE | trust_tf::CLEAR_DEEP_FREEZE;
    env.apply(&gw, trust(bob.iou("USD", 0)).flags(thaw), Ter::tesSUCCESS);
    env.close();
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tesSUCCESS);
}

#[test]
fn an_issuer_may_stop_locking_and_earlier_escrows_still_settle() {
    let mut env = Env::new();
    let [alice, bob, _carol, gw] = iou_world(&mut env);
    let first = env.seq(&alice);
    env.apply(
        &alice,
        timed(escrow_create(&bob, usd(&gw, 1_000)), &env),
        Ter::tesSUCCESS,
    );
    let second = env.seq(&alice);
    let now = env.parent_close();
    let short = escrow_create(&bob, usd(&gw, 1_000))
        .u32("FinishAfter", now + 1)
        .u32("CancelAfter", now + 3);
    env.apply(&alice, short, Ter::tesSUCCESS);
    env.close();
    env.apply(&gw, fclear(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
    env.close();
    assert!(env.flags(&gw) & lsf::ALLOW_TRUSTLINE_LOCKING == 0);
    env.apply(
        &alice,
        timed(escrow_create(&bob, usd(&gw, 10)), &env),
        Ter::tecNO_PERMISSION,
    );
    env.close_after(5);
    env.apply(&bob, escrow_finish(&alice, first), Ter::tesSUCCESS);
    env.apply(&bob, escrow_cancel(&alice, second), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), int(4_000));
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), int(6_000));
}

// ---- MPTs ----

fn escrow_mpt(to: &Account, id: &MptId, v: u64, env: &Env) -> Tx {
    let mut tx = timed(Tx::new("EscrowCreate").account("Destination", &to.id), env);
    tx.0.set(sf().amount, mpt(id, v));
    tx
}

/// An issuance of `issuer` with `flags` and `fee`; `holders` opt in and get 1,000 each.
fn mpt_world(env: &mut Env, issuer: &Account, flags: u32, fee: u16, holders: &[&Account]) -> MptId {
    let seq = env.seq(issuer);
    let mut create = Tx::new("MPTokenIssuanceCreate").flags(flags);
    if fee != 0 {
        create
            .0
            .set(Field::named("TransferFee"), StValue::UInt16(fee));
    }
    env.apply(issuer, create, Ter::tesSUCCESS);
    env.close();
    let id = MptId::new(seq, &issuer.id);
    for h in holders {
        env.apply(
            h,
            with_id(Tx::new("MPTokenAuthorize"), &id),
            Ter::tesSUCCESS,
        );
        env.close();
        env.apply(issuer, pay_mpt(h, &id, 1_000), Ter::tesSUCCESS);
    }
    env.close();
    id
}

fn token_field(env: &Env, id: &MptId, who: &Account, f: Field) -> Option<u64> {
    env.read(&keylet::mptoken(id, &who.id))?.u64_of(f)
}

fn issuance_field(env: &Env, id: &MptId, f: Field) -> Option<u64> {
    env.read(&keylet::mpt_issuance(id))?.u64_of(f)
}

#[test]
fn an_mpt_escrow_locks_the_amount_on_the_token_and_the_issuance() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER;
    let id = mpt_world(&mut env, &gw, flags, 0, &[&alice, &bob]);
    let s = sf();
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&bob, &id, 300, &env), Ter::tesSUCCESS);
    assert_eq!(token_field(&env, &id, &alice, s.mpt_amount), Some(700));
    assert_eq!(token_field(&env, &id, &alice, s.locked_amount), Some(300));
    assert_eq!(issuance_field(&env, &id, s.locked_amount), Some(300));
    assert_eq!(issuance_field(&env, &id, s.outstanding_amount), Some(2_000));
    let key = keylet::escrow(&alice.id, seq);
    let e = env.read(&key).expect("escrow");
    assert!(
        e.u64_of(s.issuer_node).is_none(),
        "not in the issuer's directory"
    );
    assert!(!env.owned(&gw).contains(&key));
    // A holder with locked tokens keeps its MPToken.
    let out = with_id(Tx::new("MPTokenAuthorize"), &id).flags(auth_tf::UNAUTHORIZE);
    env.close();
    env.apply(&alice, pay_mpt(&gw, &id, 700), Ter::tesSUCCESS);
    env.close();
    env.apply(&alice, out, Ter::tecHAS_OBLIGATIONS);
    env.close_after(5);
    env.apply(&alice, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(token_field(&env, &id, &bob, s.mpt_amount), Some(1_300));
    assert_eq!(token_field(&env, &id, &alice, s.locked_amount), None);
    assert_eq!(issuance_field(&env, &id, s.locked_amount), None);
    assert_eq!(issuance_field(&env, &id, s.outstanding_amount), Some(1_300));
}

#[test]
fn mpt_escrows_need_can_escrow_and_can_transfer_unless_to_the_issuer() {
    let mut env = Env::new();
    let [alice, bob, gw, carol] = env.funded(["alice", "bob", "gw", "carol"]);
    let plain = mpt_world(&mut env, &gw, ctf::CAN_TRANSFER, 0, &[&alice]);
    env.apply(
        &alice,
        escrow_mpt(&bob, &plain, 1, &env),
        Ter::tecNO_PERMISSION,
    );
    let id = mpt_world(&mut env, &gw, ctf::CAN_ESCROW, 0, &[&alice, &bob]);
    env.apply(&alice, escrow_mpt(&bob, &id, 1, &env), Ter::tecNO_AUTH);
    env.apply(&gw, escrow_mpt(&bob, &id, 1, &env), Ter::tecNO_PERMISSION);
    env.apply(
        &carol,
        escrow_mpt(&bob, &id, 1, &env),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(
        &alice,
        escrow_mpt(&gw, &id, 1_001, &env),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&gw, &id, 400, &env), Ter::tesSUCCESS);
    env.close();
    env.close_after(5);
    env.apply(&gw, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(
        issuance_field(&env, &id, sf().outstanding_amount),
        Some(1_600)
    );
    assert_eq!(token_field(&env, &id, &alice, sf().mpt_amount), Some(600));
    let mut bad = escrow_mpt(&bob, &id, 1, &env);
    bad.0.set(sf().amount, mpt(&id, 0));
    env.apply(&alice, bad, Ter::temBAD_AMOUNT);
}

#[test]
fn locked_holders_neither_escrow_nor_receive() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER | ctf::CAN_LOCK;
    let id = mpt_world(&mut env, &gw, flags, 0, &[&alice, &bob]);
    let lock = |who: &Account, f: u32| {
        with_id(Tx::new("MPTokenIssuanceSet"), &id)
            .account("Holder", &who.id)
            .flags(f)
    };
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&bob, &id, 10, &env), Ter::tesSUCCESS);
    env.close();
    env.apply(&gw, lock(&alice, set_tf::LOCK), Ter::tesSUCCESS);
    env.close();
    env.apply(&alice, escrow_mpt(&bob, &id, 10, &env), Ter::tecLOCKED);
    env.apply(&bob, escrow_mpt(&alice, &id, 10, &env), Ter::tecLOCKED);
    env.apply(&gw, lock(&alice, set_tf::UNLOCK), Ter::tesSUCCESS);
    env.apply(&gw, lock(&bob, set_tf::LOCK), Ter::tesSUCCESS);
    env.close();
    env.close_after(5);
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tecLOCKED);
    env.close();
    env.apply(&gw, lock(&bob, set_tf::UNLOCK), Ter::tesSUCCESS);
    env.close();
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tesSUCCESS);
}

#[test]
fn the_mpt_transfer_fee_comes_out_of_the_escrow_and_the_outstanding_amount() {
    let mut env = Env::new();
    let [alice, bob, carol, gw] = env.funded(["alice", "bob", "carol", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER;
    // TransferFee 25,000: a rate of 1.25.
    let id = mpt_world(&mut env, &gw, flags, 25_000, &[&alice]);
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&carol, &id, 125, &env), Ter::tesSUCCESS);
    env.close();
    let e = env.read(&keylet::escrow(&alice.id, seq)).expect("escrow");
    assert_eq!(e.u32_of(sf().transfer_rate), Some(1_250_000_000));
    env.close_after(5);
    // carol has no MPToken: others may not finish, carol may (and gets one).
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    let before = env.owner_count(&carol);
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&carol), before + 1);
    assert_eq!(token_field(&env, &id, &carol, sf().mpt_amount), Some(100));
    assert_eq!(token_field(&env, &id, &alice, sf().mpt_amount), Some(875));
    assert_eq!(
        issuance_field(&env, &id, sf().outstanding_amount),
        Some(975)
    );
    assert_eq!(issuance_field(&env, &id, sf().locked_amount), None);
}

#[test]
fn a_cancelled_mpt_escrow_unlocks_back_to_the_owner() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER;
    let id = mpt_world(&mut env, &gw, flags, 10_000, &[&alice, &bob]);
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&bob, &id, 250, &env), Ter::tesSUCCESS);
    env.close_after(200);
    env.apply(&bob, escrow_cancel(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(token_field(&env, &id, &alice, sf().mpt_amount), Some(1_000));
    assert_eq!(token_field(&env, &id, &alice, sf().locked_amount), None);
    assert_eq!(
        issuance_field(&env, &id, sf().outstanding_amount),
        Some(2_000)
    );
    assert_eq!(env.owner_count(&alice), 1, "only the MPToken");
}

#[test]
fn an_mpt_escrow_to_its_issuer_leaves_the_outstanding_amount_whole_fee_and_all() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER;
    let id = mpt_world(&mut env, &gw, flags, 25_000, &[&alice, &bob]);
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&gw, &id, 125, &env), Ter::tesSUCCESS);
    env.close();
    assert_eq!(
        issuance_field(&env, &id, sf().outstanding_amount),
        Some(2_000)
    );
    env.close_after(5);
    env.apply(&gw, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    // EscrowToken_test "MPT Locked Rate: issuer is destination": all 125 leave.
    assert_eq!(
        issuance_field(&env, &id, sf().outstanding_amount),
        Some(1_875)
    );
    assert_eq!(issuance_field(&env, &id, sf().locked_amount), None);
    assert_eq!(token_field(&env, &id, &alice, sf().mpt_amount), Some(875));
}

#[test]
fn an_issuance_with_escrowed_tokens_cannot_be_destroyed() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER;
    let id = mpt_world(&mut env, &gw, flags, 0, &[&alice, &bob]);
    let seq = env.seq(&alice);
    env.apply(&alice, escrow_mpt(&bob, &id, 10, &env), Ter::tesSUCCESS);
    env.close();
    env.apply(&alice, pay_mpt(&gw, &id, 1_000), Ter::tecPATH_PARTIAL);
    env.apply(&alice, pay_mpt(&gw, &id, 990), Ter::tesSUCCESS);
    env.apply(&bob, pay_mpt(&gw, &id, 1_000), Ter::tesSUCCESS);
    env.close();
    let destroy = || with_id(Tx::new("MPTokenIssuanceDestroy"), &id);
    env.apply(&gw, destroy(), Ter::tecHAS_OBLIGATIONS);
    env.close_after(5);
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    env.close();
    env.apply(&bob, pay_mpt(&gw, &id, 10), Ter::tesSUCCESS);
    env.close();
    env.apply(&gw, destroy(), Ter::tesSUCCESS);
}

#[test]
fn a_locked_owner_may_still_have_its_escrow_cancelled() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gw"]);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER | ctf::CAN_LOCK;
    let id = mpt_world(&mut env, &gw, flags, 0, &[&alice, &bob]);
    let seq = env.seq(&alice);
    let now = env.parent_close();
    let mut create = Tx::new("EscrowCreate")
        .account("Destination", &bob.id)
        .u32("FinishAfter", now + 1)
        .u32("CancelAfter", now + 3);
    create.0.set(sf().amount, mpt(&id, 100));
    env.apply(&alice, create, Ter::tesSUCCESS);
    env.close();
    for who in [&alice, &bob] {
        let lock = with_id(Tx::new("MPTokenIssuanceSet"), &id)
            .account("Holder", &who.id)
            .flags(set_tf::LOCK);
        env.apply(&gw, lock, Ter::tesSUCCESS);
    }
    env.close();
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tecLOCKED);
    env.close_after(5);
    env.apply(&bob, escrow_cancel(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(token_field(&env, &id, &alice, sf().mpt_amount), Some(1_000));
}
