//! DynamicMPT stories (XLS-94 as rippled's `MPTokenIssuanceSet.cpp` and `MPToken_test.cpp`
//! have it now): MPTokenMetadata, TransferFee and the capability flags of an issuance are
//! mutable unless its ImmutableFlags say otherwise; MPTokenIssuanceSet's `tfMPTSet*` flags
//! enable a capability for good, and its ImmutableFlags bits are added to the issuance's.

use crate::support;

use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
use ledgerd::engine::payment::tf as pay_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::{lsf_mpt, lsif_mpt};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::{StObject, StValue};
use support::engine::*;
use support::mpt::{issue, pay_mpt, with_id};

fn set(id: &MptId, flags: u32) -> Tx {
    with_id(Tx::new("MPTokenIssuanceSet"), id).flags(flags)
}

fn fee(tx: Tx, v: u16) -> Tx {
    let mut tx = tx;
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(v));
    tx
}

fn immutable(tx: Tx, v: u32) -> Tx {
    tx.u32("ImmutableFlags", v)
}

fn create(flags: u32) -> Tx {
    Tx::new("MPTokenIssuanceCreate").flags(flags)
}

fn issuance(env: &Env, id: &MptId) -> std::sync::Arc<StObject> {
    env.read(&keylet::mpt_issuance(id)).expect("issuance")
}

fn immutable_of(env: &Env, id: &MptId) -> Option<u32> {
    issuance(env, id).u32_of(sf().immutable_flags)
}

#[test]
fn malformed_mutations_fail_in_preflight() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    // ImmutableFlags: zero or an undefined bit (the confidential bit without
    // ConfidentialTransfer: `confidential.rs`).
    env.apply(&alice, immutable(create(0), 0), Ter::temINVALID_FLAG);
    env.apply(&alice, immutable(create(0), 0x0001), Ter::temINVALID_FLAG);
    env.apply(
        &alice,
        immutable(create(0), 0x0004_0000),
        Ter::temINVALID_FLAG,
    );
    let id = issue(&mut env, &alice, create(0));
    env.apply(&alice, immutable(set(&id, 0), 0), Ter::temINVALID_FLAG);
    env.apply(&alice, immutable(set(&id, 0), 0x0100), Ter::temINVALID_FLAG);
    env.apply(&alice, set(&id, 0x0200), Ter::temINVALID_FLAG);
    // Nothing to change.
    env.apply(&alice, set(&id, 0), Ter::temMALFORMED);
    // A mutation names no holder and neither locks nor unlocks.
    env.apply(
        &alice,
        set(&id, set_tf::SET_CAN_LOCK).account("Holder", &bob.id),
        Ter::temMALFORMED,
    );
    env.apply(
        &alice,
        set(&id, set_tf::LOCK | set_tf::SET_CAN_LOCK),
        Ter::temMALFORMED,
    );
    env.apply(&alice, fee(set(&id, set_tf::UNLOCK), 0), Ter::temMALFORMED);
    env.apply(&alice, fee(set(&id, 0), 50_001), Ter::temBAD_TRANSFER_FEE);
    env.apply(
        &alice,
        set(&id, 0).blob("MPTokenMetadata", &[7; 1025]),
        Ter::temMALFORMED,
    );
    // Nothing changed.
    let iss = issuance(&env, &id);
    assert_eq!(iss.flags(), 0);
    assert!(iss.u32_of(sf().immutable_flags).is_none());
}

#[test]
fn capabilities_are_enabled_one_way_unless_immutable() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = issue(&mut env, &alice, create(0));
    // Only the issuer, only an existing issuance.
    env.apply(&bob, set(&id, set_tf::SET_CAN_LOCK), Ter::tecNO_PERMISSION);
    let missing = MptId::new(999, &alice.id);
    env.apply(
        &alice,
        set(&missing, set_tf::SET_CAN_LOCK),
        Ter::tecOBJECT_NOT_FOUND,
    );
    // Locking needs CanLock; enabling it makes the lock possible.
    env.apply(&alice, set(&id, set_tf::LOCK), Ter::tecNO_PERMISSION);
    env.apply(&alice, set(&id, set_tf::SET_CAN_LOCK), Ter::tesSUCCESS);
    env.apply(&alice, set(&id, set_tf::SET_CAN_LOCK), Ter::tesSUCCESS);
    assert_eq!(issuance(&env, &id).flags(), lsf_mpt::CAN_LOCK);
    env.apply(&alice, set(&id, set_tf::LOCK), Ter::tesSUCCESS);
    env.apply(&alice, set(&id, set_tf::UNLOCK), Ter::tesSUCCESS);
    // Every other capability in one transaction.
    let rest = set_tf::SET_REQUIRE_AUTH
        | set_tf::SET_CAN_ESCROW
        | set_tf::SET_CAN_TRADE
        | set_tf::SET_CAN_TRANSFER
        | set_tf::SET_CAN_CLAWBACK;
    env.apply(&alice, set(&id, rest), Ter::tesSUCCESS);
    let all = lsf_mpt::CAN_LOCK
        | lsf_mpt::REQUIRE_AUTH
        | lsf_mpt::CAN_ESCROW
        | lsf_mpt::CAN_TRADE
        | lsf_mpt::CAN_TRANSFER
        | lsf_mpt::CAN_CLAWBACK;
    assert_eq!(issuance(&env, &id).flags(), all);
    assert!(immutable_of(&env, &id).is_none());
}

#[test]
fn immutable_capabilities_cannot_be_enabled() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    // Immutable at creation.
    let id = issue(
        &mut env,
        &alice,
        immutable(create(0), lsif_mpt::CAN_LOCK | lsif_mpt::REQUIRE_AUTH),
    );
    assert_eq!(
        immutable_of(&env, &id),
        Some(lsif_mpt::CAN_LOCK | lsif_mpt::REQUIRE_AUTH)
    );
    env.apply(
        &alice,
        set(&id, set_tf::SET_CAN_LOCK),
        Ter::tecNO_PERMISSION,
    );
    // One forbidden flag fails the whole transaction.
    env.apply(
        &alice,
        set(&id, set_tf::SET_CAN_ESCROW | set_tf::SET_REQUIRE_AUTH),
        Ter::tecNO_PERMISSION,
    );
    env.apply(&alice, set(&id, set_tf::SET_CAN_ESCROW), Ter::tesSUCCESS);
    assert_eq!(issuance(&env, &id).flags(), lsf_mpt::CAN_ESCROW);
    // Frozen later by MPTokenIssuanceSet, while off.
    let later = issue(&mut env, &alice, create(0));
    env.apply(
        &alice,
        immutable(set(&later, 0), lsif_mpt::CAN_TRADE),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        set(&later, set_tf::SET_CAN_TRADE),
        Ter::tecNO_PERMISSION,
    );
    assert_eq!(issuance(&env, &later).flags(), 0);
    // Enabled and made immutable in one transaction: only the ledger's bits count.
    env.apply(
        &alice,
        immutable(
            set(&later, set_tf::SET_CAN_CLAWBACK),
            lsif_mpt::CAN_CLAWBACK,
        ),
        Ter::tesSUCCESS,
    );
    assert_eq!(issuance(&env, &later).flags(), lsf_mpt::CAN_CLAWBACK);
    assert_eq!(
        immutable_of(&env, &later),
        Some(lsif_mpt::CAN_TRADE | lsif_mpt::CAN_CLAWBACK)
    );
    // An immutable capability that is on stays on (MPTokenIssuanceSet clears nothing).
    env.apply(
        &alice,
        set(&later, set_tf::SET_CAN_CLAWBACK),
        Ter::tecNO_PERMISSION,
    );
}

#[test]
fn metadata_is_replaced_removed_and_frozen() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let id = issue(&mut env, &alice, create(0).blob("MPTokenMetadata", b"v1"));
    let meta = |env: &Env| {
        issuance(env, &id)
            .blob_of(sf().mptoken_metadata)
            .map(<[u8]>::to_vec)
    };
    env.apply(
        &alice,
        set(&id, 0).blob("MPTokenMetadata", b"v2"),
        Ter::tesSUCCESS,
    );
    assert_eq!(meta(&env), Some(b"v2".to_vec()));
    env.apply(
        &alice,
        set(&id, 0).blob("MPTokenMetadata", b""),
        Ter::tesSUCCESS,
    );
    assert_eq!(meta(&env), None);
    // Updated and frozen together, then refused, even its removal.
    env.apply(
        &alice,
        immutable(
            set(&id, 0).blob("MPTokenMetadata", b"v3"),
            lsif_mpt::METADATA,
        ),
        Ter::tesSUCCESS,
    );
    assert_eq!(meta(&env), Some(b"v3".to_vec()));
    env.apply(
        &alice,
        set(&id, 0).blob("MPTokenMetadata", b"v4"),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &alice,
        set(&id, 0).blob("MPTokenMetadata", b""),
        Ter::tecNO_PERMISSION,
    );
    assert_eq!(meta(&env), Some(b"v3".to_vec()));
    // Submitting an ImmutableFlags bit already there is harmless.
    env.apply(
        &alice,
        immutable(set(&id, 0), lsif_mpt::METADATA),
        Ter::tesSUCCESS,
    );
    assert_eq!(immutable_of(&env, &id), Some(lsif_mpt::METADATA));
}

#[test]
fn transfer_fee_needs_can_transfer_and_may_be_frozen() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let id = issue(&mut env, &alice, create(0));
    let fee_of = |env: &Env| issuance(env, &id).u16_of(sf().transfer_fee);
    // Non-zero needs lsfMPTCanTransfer; zero does not.
    env.apply(&alice, fee(set(&id, 0), 200), Ter::tecNO_PERMISSION);
    env.apply(&alice, fee(set(&id, 0), 0), Ter::tesSUCCESS);
    assert_eq!(fee_of(&env), None);
    // Enabled in the same transaction.
    env.apply(
        &alice,
        fee(set(&id, set_tf::SET_CAN_TRANSFER), 200),
        Ter::tesSUCCESS,
    );
    assert_eq!(fee_of(&env), Some(200));
    assert!(issuance(&env, &id).is_flag(lsf_mpt::CAN_TRANSFER));
    env.apply(&alice, fee(set(&id, 0), 50_000), Ter::tesSUCCESS);
    assert_eq!(fee_of(&env), Some(50_000));
    env.apply(&alice, fee(set(&id, 0), 0), Ter::tesSUCCESS);
    assert_eq!(fee_of(&env), None, "a zero fee is removed (soeDEFAULT)");
    env.apply(&alice, fee(set(&id, 0), 300), Ter::tesSUCCESS);
    // Frozen: any change, removal included, is refused.
    env.apply(
        &alice,
        immutable(set(&id, 0), lsif_mpt::TRANSFER_FEE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, fee(set(&id, 0), 100), Ter::tecNO_PERMISSION);
    env.apply(&alice, fee(set(&id, 0), 0), Ter::tecNO_PERMISSION);
    assert_eq!(fee_of(&env), Some(300));
    // Immutable from creation.
    let fixed = issue(
        &mut env,
        &alice,
        immutable(fee(create(ctf::CAN_TRANSFER), 100), lsif_mpt::TRANSFER_FEE),
    );
    env.apply(&alice, fee(set(&fixed, 0), 100), Ter::tecNO_PERMISSION);
}

#[test]
fn immutable_flags_accumulate() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let id = issue(&mut env, &alice, immutable(create(0), lsif_mpt::CAN_ESCROW));
    env.apply(
        &alice,
        immutable(set(&id, 0), lsif_mpt::METADATA),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        immutable(set(&id, 0), lsif_mpt::TRANSFER_FEE | lsif_mpt::CAN_LOCK),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        immutable_of(&env, &id),
        Some(
            lsif_mpt::CAN_ESCROW | lsif_mpt::METADATA | lsif_mpt::TRANSFER_FEE | lsif_mpt::CAN_LOCK
        )
    );
}

#[test]
fn an_enabled_transfer_and_new_fee_apply_to_payments() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let id = issue(&mut env, &alice, create(0));
    for h in [&bob, &carol] {
        env.apply(
            h,
            with_id(Tx::new("MPTokenAuthorize"), &id),
            Ter::tesSUCCESS,
        );
    }
    env.apply(&alice, pay_mpt(&bob, &id, 1_000), Ter::tesSUCCESS);
    env.apply(&bob, pay_mpt(&carol, &id, 10), Ter::tecNO_AUTH);
    // 10%.
    env.apply(
        &alice,
        fee(set(&id, set_tf::SET_CAN_TRANSFER), 10_000),
        Ter::tesSUCCESS,
    );
    let mut tx = pay_mpt(&carol, &id, 100);
    tx.0.set(
        Field::named("SendMax"),
        StValue::MptAmount(MptAmount::new(110, id)),
    );
    env.apply(&bob, tx, Ter::tesSUCCESS);
    let bal = |env: &Env, who: &Account| {
        env.read(&keylet::mptoken(&id, &who.id))
            .and_then(|t| t.u64_of(sf().mpt_amount))
    };
    assert_eq!(bal(&env, &bob), Some(890));
    assert_eq!(bal(&env, &carol), Some(100));
    let outstanding = issuance(&env, &id).u64_of(sf().outstanding_amount);
    assert_eq!(outstanding, Some(990), "the fee is burnt");
    // With the fee removed, a transfer costs its amount.
    env.apply(&alice, fee(set(&id, 0), 0), Ter::tesSUCCESS);
    env.apply(
        &bob,
        pay_mpt(&carol, &id, 90).flags(pay_tf::PARTIAL_PAYMENT),
        Ter::tesSUCCESS,
    );
    assert_eq!(bal(&env, &bob), Some(800));
    assert_eq!(bal(&env, &carol), Some(190));
}
