//! Escrow stories (issue 14), after rippled's `Escrow_test.cpp`: time-based escrows
//! (FinishAfter, CancelAfter and their strict "after" rule), condition-based escrows with
//! PREIMAGE-SHA-256 (rippled's own fulfillment and condition vectors), the fee per
//! fulfillment size, malformed forms, destination tags and deposit authorization.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::condition::{preimage_condition, preimage_fulfillment};
use support::engine::*;

/// rippled's Escrow_test `fb1` / `cb1`: the empty preimage.
fn fb1() -> Vec<u8> {
    hex::decode("A0028000").expect("hex")
}
fn cb1() -> Vec<u8> {
    hex::decode("A0258020E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855810100")
        .expect("hex")
}

#[test]
fn a_time_locked_escrow_finishes_only_after_its_time() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let now = env.parent_close();
    let seq = env.seq(&alice);
    let before = env.balance(&alice);
    env.apply(
        &alice,
        escrow_create(&bob, xrp(1000)).u32("FinishAfter", now + 20),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&alice), before - 1_000_000_000 - FEE);
    assert_eq!(env.owner_count(&alice), 1);
    let key = keylet::escrow(&alice.id, seq);
    let e = env.read(&key).expect("escrow");
    assert_eq!(e.u32_of(sf().finish_after), Some(now + 20));
    assert!(
        env.owned(&bob).contains(&key),
        "in the destination's directory too"
    );
    // Not before FinishAfter, and not at it: strictly after the parent close time.
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    env.apply(&alice, escrow_cancel(&alice, seq), Ter::tecNO_PERMISSION);
    env.close_after(20);
    assert_eq!(
        env.parent_close(),
        now + 20,
        "the parent ledger closed at FinishAfter"
    );
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    env.close();
    assert!(env.parent_close() > now + 20);
    let bob_before = env.balance(&bob);
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(
        env.balance(&bob),
        bob_before + 1_000_000_000,
        "anyone may finish it"
    );
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.read(&key).is_none());
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tecNO_TARGET);
}

#[test]
fn an_expired_escrow_is_cancelled_back_to_its_owner() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let now = env.parent_close();
    let seq = env.seq(&alice);
    let create = escrow_create(&bob, xrp(10))
        .u32("FinishAfter", now + 5)
        .u32("CancelAfter", now + 15);
    env.apply(&alice, create, Ter::tesSUCCESS);
    env.close_after(20);
    // Past CancelAfter it can no longer finish, only be cancelled.
    env.apply(&bob, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    let before = env.balance(&alice);
    env.apply(&bob, escrow_cancel(&alice, seq), Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), before + 10_000_000);
    assert_eq!(env.owner_count(&alice), 0);
}

#[test]
fn malformed_escrows_and_times_already_past() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let now = env.parent_close();
    let cases = [
        (escrow_create(&bob, xrp(1)), Ter::temBAD_EXPIRATION),
        (
            escrow_create(&bob, xrp(0)).u32("FinishAfter", now + 9),
            Ter::temBAD_AMOUNT,
        ),
        // TokenEscrow: an issued currency, but not of an issuer allowing locking.
        (
            escrow_create(&bob, bob.iou("USD", 1)).u32("FinishAfter", now + 9),
            Ter::tecNO_PERMISSION,
        ),
        (
            escrow_create(&bob, xrp(1))
                .u32("FinishAfter", now + 9)
                .u32("CancelAfter", now + 9),
            Ter::temBAD_EXPIRATION,
        ),
        // fix1571: only CancelAfter and no condition would finish at once.
        (
            escrow_create(&bob, xrp(1)).u32("CancelAfter", now + 9),
            Ter::temMALFORMED,
        ),
        (
            escrow_create(&bob, xrp(1))
                .u32("FinishAfter", now + 9)
                .blob("Condition", &cb1()[..20]),
            Ter::temMALFORMED,
        ),
        (
            escrow_create(&bob, xrp(1))
                .u32("FinishAfter", now + 9)
                .flags(1),
            Ter::temINVALID_FLAG,
        ),
        (
            escrow_create(&Account::new("nobody"), xrp(1)).u32("FinishAfter", now + 9),
            Ter::tecNO_DST,
        ),
        // A time at or before the parent ledger's close time has passed already.
        (
            escrow_create(&bob, xrp(1)).u32("FinishAfter", now - 1),
            Ter::tecNO_PERMISSION,
        ),
        (
            escrow_create(&bob, xrp(1))
                .u32("FinishAfter", now + 1)
                .u32("CancelAfter", now - 1),
            Ter::temBAD_EXPIRATION,
        ),
        (
            escrow_create(&bob, xrp(100_000)).u32("FinishAfter", now + 9),
            Ter::tecUNFUNDED,
        ),
    ];
    for (tx, want) in cases {
        env.apply(&alice, tx, want);
    }
    // Another crypto-condition type (here an Ed25519 tag) needs CryptoConditionsSuite.
    let mut ed = cb1();
    ed[0] = 0xA4;
    env.apply(
        &alice,
        escrow_create(&bob, xrp(1))
            .u32("FinishAfter", now + 9)
            .blob("Condition", &ed),
        Ter::temDISABLED,
    );
    env.apply(
        &alice,
        escrow_finish(&alice, 1).blob("Condition", &cb1()),
        Ter::temMALFORMED,
    );
    env.apply(&bob, fset(asf::REQUIRE_DEST), Ter::tesSUCCESS);
    env.apply(
        &alice,
        escrow_create(&bob, xrp(1)).u32("FinishAfter", now + 9),
        Ter::tecDST_TAG_NEEDED,
    );
    env.apply(
        &alice,
        escrow_create(&bob, xrp(1))
            .u32("FinishAfter", now + 9)
            .u32("DestinationTag", 7),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&alice), 1, "only the last one was created");
}

#[test]
fn a_condition_escrow_needs_its_fulfillment_and_its_fee() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let now = env.parent_close();
    let seq = env.seq(&alice);
    let create = escrow_create(&bob, xrp(1000))
        .u32("CancelAfter", now + 100)
        .blob("Condition", &cb1());
    env.apply(&alice, create, Ter::tesSUCCESS);
    // A condition escrow without FinishAfter may finish at once, but only with the right
    // fulfillment, the same condition, and a fee of base x (1 + 32 + bytes / 16).
    let fee_for = |f: &[u8]| FEE * (1 + 32 + f.len() as i64 / 16);
    let finish = |f: &[u8], c: &[u8], short: i64| {
        escrow_finish(&alice, seq)
            .blob("Fulfillment", f)
            .blob("Condition", c)
            .amount("Fee", drops(fee_for(f) - short))
    };
    env.apply(
        &carol,
        escrow_finish(&alice, seq),
        Ter::tecCRYPTOCONDITION_ERROR,
    );
    env.apply(&carol, finish(&fb1(), &cb1(), 1), Ter::telINSUF_FEE_P);
    let wrong = preimage_fulfillment(b"not the preimage");
    env.apply(
        &carol,
        finish(&wrong, &cb1(), 0),
        Ter::tecCRYPTOCONDITION_ERROR,
    );
    let other = preimage_fulfillment(b"another preimage");
    let other_cond = preimage_condition(b"another preimage");
    env.apply(
        &carol,
        finish(&other, &other_cond, 0),
        Ter::tecCRYPTOCONDITION_ERROR,
    );
    let fee = fee_for(&fb1());
    let (carol_before, bob_before) = (env.balance(&carol), env.balance(&bob));
    env.apply(&carol, finish(&fb1(), &cb1(), 0), Ter::tesSUCCESS);
    assert_eq!(env.balance(&carol), carol_before - fee);
    assert_eq!(env.balance(&bob), bob_before + 1_000_000_000);

    // A longer fulfillment costs more: 32 + 64 / 16 base fees beyond the base.
    let preimage = [9u8; 60];
    let seq = env.seq(&alice);
    let create = escrow_create(&bob, xrp(1))
        .u32("FinishAfter", now + 1)
        .blob("Condition", &preimage_condition(&preimage));
    env.apply(&alice, create, Ter::tesSUCCESS);
    env.close_after(10);
    let f = preimage_fulfillment(&preimage);
    let finish = |fee: i64| {
        escrow_finish(&alice, seq)
            .blob("Fulfillment", &f)
            .blob("Condition", &preimage_condition(&preimage))
            .amount("Fee", drops(fee))
    };
    let fee = FEE * (1 + 32 + (f.len() as i64) / 16);
    env.apply(&carol, finish(fee - 1), Ter::telINSUF_FEE_P);
    env.apply(&carol, finish(fee), Ter::tesSUCCESS);
}

#[test]
fn deposit_authorization_applies_to_escrow_finishes() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let now = env.parent_close();
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        escrow_create(&bob, xrp(5)).u32("FinishAfter", now + 1),
        Ter::tesSUCCESS,
    );
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    env.close_after(10);
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    env.apply(&bob, preauth(&carol), Ter::tesSUCCESS);
    env.apply(&carol, escrow_finish(&alice, seq), Ter::tesSUCCESS);
}
