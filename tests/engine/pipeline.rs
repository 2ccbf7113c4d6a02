//! The common checks of the transactor pipeline, in rippled's order, plus AccountSet and
//! SetRegularKey rules, metadata shape, directory paging and ledger close.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::{lsf, lt};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::keys::KeyType;
use ledgerd::protocol::st::StValue;
use support::engine::*;

#[test]
fn sequence_fee_and_last_ledger_checks() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(1000));
    env.fund(&bob, xrp(1000));
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("Sequence", seq + 1),
        Ter::terPRE_SEQ,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("Sequence", seq - 1),
        Ter::tefPAST_SEQ,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).amount("Fee", drops(9)),
        Ter::telINSUF_FEE_P,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).amount("Fee", drops(-1)),
        Ter::temBAD_FEE,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).amount("Fee", bob.iou("USD", 1)),
        Ter::temBAD_FEE,
    );
    let lls = env.store.current().seq();
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("LastLedgerSequence", lls - 1),
        Ter::tefMAX_LEDGER,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("LastLedgerSequence", lls),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("NetworkID", 1),
        Ter::telNETWORK_ID_MAKES_TX_NON_CANONICAL,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1))
            .u32("TicketSequence", 1)
            .u32("Sequence", 0),
        Ter::tefNO_TICKET,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("TicketSequence", 1),
        Ter::temSEQ_AND_TICKET,
    );
    // Balance cannot pay the fee.
    let poor = Account::new("poor");
    env.fund(&poor, xrp(10));
    env.apply(
        &poor,
        pay(&bob, xrp(1)).amount("Fee", xrp(11)),
        Ter::terINSUF_FEE_B,
    );
    // Missing account.
    let ghost = Account::new("ghost");
    env.apply(&ghost, pay(&bob, xrp(1)), Ter::terNO_ACCOUNT);
    // Exactly one sequence per applied transaction.
    assert_eq!(env.seq(&alice), seq + 1);
}

#[test]
fn xrp_payment_rules() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(100));
    env.fund(&bob, xrp(100));
    // The amount may not dip into the reserve (10 XRP); only the fee may.
    env.apply(&alice, pay(&bob, xrp(91)), Ter::tecUNFUNDED_PAYMENT);
    let bal = env.balance(&alice);
    env.apply(
        &alice,
        pay(&bob, drops(bal - 10_000_000 - 10)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&alice), 10_000_000);
    env.fund(&alice, xrp(50));
    env.apply(&alice, pay(&alice, xrp(1)), Ter::temREDUNDANT);
    env.apply(&alice, pay(&bob, xrp(0)), Ter::temBAD_AMOUNT);
    env.apply(
        &alice,
        pay(&bob, xrp(1)).amount("SendMax", xrp(2)),
        Ter::temBAD_SEND_XRP_MAX,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).flags(0x0002_0000),
        Ter::temBAD_SEND_XRP_PARTIAL,
    );
    env.apply(
        &alice,
        pay(&bob, xrp(1)).flags(0x0000_0001),
        Ter::temINVALID_FLAG,
    );
    env.apply(&bob, fset(asf::REQUIRE_DEST), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, xrp(1)), Ter::tecDST_TAG_NEEDED);
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("DestinationTag", 9),
        Ter::tesSUCCESS,
    );
    // Partial payment cannot create an account in the open ledger.
    let carol = Account::new("carol");
    env.apply(
        &bob,
        pay(&carol, xrp(20)).flags(0x0002_0000),
        Ter::temBAD_SEND_XRP_PARTIAL,
    );
    // DepositAuth: XRP payments above the base reserve are refused.
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    env.apply(
        &alice,
        pay(&bob, xrp(1)).u32("DestinationTag", 9),
        Ter::tecNO_PERMISSION,
    );
}

#[test]
fn regular_key_and_disabled_master() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    let key = Account::with_type("alice-regular", KeyType::Ed25519);
    env.fund(&alice, xrp(1000));
    env.fund(&bob, xrp(1000));
    // Someone else's key.
    let t = env.submit_signed(&alice, &key.kp, pay(&bob, xrp(1)));
    assert_eq!(t, Ter::tefBAD_AUTH);
    // Disabling the master key needs an alternative.
    env.apply(
        &alice,
        fset(asf::DISABLE_MASTER),
        Ter::tecNO_ALTERNATIVE_KEY,
    );
    env.apply(
        &alice,
        Tx::new("SetRegularKey").account("RegularKey", &alice.id),
        Ter::temBAD_REGKEY,
    );
    // The first regular key set with the master key is free.
    let bal = env.balance(&alice);
    env.apply(
        &alice,
        Tx::new("SetRegularKey")
            .account("RegularKey", &key.id)
            .amount("Fee", drops(0)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&alice), bal);
    assert_ne!(env.flags(&alice) & lsf::PASSWORD_SPENT, 0);
    // The second is not.
    env.apply(
        &alice,
        Tx::new("SetRegularKey")
            .account("RegularKey", &key.id)
            .amount("Fee", drops(0)),
        Ter::telINSUF_FEE_P,
    );
    assert_eq!(
        env.submit_signed(&alice, &key.kp, pay(&bob, xrp(1))),
        Ter::tesSUCCESS
    );
    // Only the master key may disable the master key.
    assert_eq!(
        env.submit_signed(&alice, &key.kp, fset(asf::DISABLE_MASTER)),
        Ter::tecNEED_MASTER_KEY
    );
    env.apply(&alice, fset(asf::DISABLE_MASTER), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, xrp(1)), Ter::tefMASTER_DISABLED);
    assert_eq!(
        env.submit_signed(&alice, &key.kp, Tx::new("SetRegularKey")),
        Ter::tecNO_ALTERNATIVE_KEY
    );
    assert_eq!(
        env.submit_signed(&alice, &key.kp, fclear(asf::DISABLE_MASTER)),
        Ter::tesSUCCESS
    );
    env.apply(&alice, pay(&bob, xrp(1)), Ter::tesSUCCESS);
    // Receiving XRP re-arms the free key change.
    assert_eq!(env.flags(&alice) & lsf::PASSWORD_SPENT, lsf::PASSWORD_SPENT);
    env.apply(&bob, pay(&alice, xrp(1)), Ter::tesSUCCESS);
    assert_eq!(env.flags(&alice) & lsf::PASSWORD_SPENT, 0);
}

#[test]
fn bad_signature_is_tem_invalid() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(1000));
    env.fund(&bob, xrp(1000));
    let mut o = pay(&bob, xrp(1)).0;
    let s = sf();
    o.set(s.account, StValue::AccountId(alice.id));
    o.set(s.sequence, StValue::UInt32(env.seq(&alice)));
    o.set(s.fee, StValue::Amount(Amount::Xrp(10)));
    o.set(
        s.signing_pub_key,
        StValue::Blob(alice.kp.public.as_bytes().to_vec()),
    );
    let sig = alice.kp.sign(&ledgerd::protocol::tx::signing_data(&o));
    o.set(s.txn_signature, StValue::Blob(sig));
    // Change the amount after signing.
    o.set(s.amount, StValue::Amount(xrp(2)));
    let blob = ledgerd::protocol::codec::encode(&o);
    let r = env.store.apply_blob(&blob).expect("decodes");
    assert_eq!(r.ter, Ter::temINVALID);
    assert!(!r.applied);
}

#[test]
fn account_set_fields_and_malformed_forms() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    env.fund(&alice, xrp(1000));
    let set = || Tx::new("AccountSet");
    env.apply(
        &alice,
        set().u32("TransferRate", 999_999_999),
        Ter::temBAD_TRANSFER_RATE,
    );
    env.apply(
        &alice,
        set().u32("TransferRate", 2_000_000_001),
        Ter::temBAD_TRANSFER_RATE,
    );
    env.apply(
        &alice,
        set().u32("TransferRate", 1_500_000_000),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.root(&alice).unwrap().u32_of(sf().transfer_rate),
        Some(1_500_000_000)
    );
    env.apply(
        &alice,
        set().u32("TransferRate", 1_000_000_000),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.root(&alice).unwrap().u32_of(sf().transfer_rate), None);
    env.apply(&alice, set().u8("TickSize", 2), Ter::temBAD_TICK_SIZE);
    env.apply(&alice, set().u8("TickSize", 5), Ter::tesSUCCESS);
    env.apply(
        &alice,
        set().blob("Domain", &[b'a'; 257]),
        Ter::telBAD_DOMAIN,
    );
    env.apply(
        &alice,
        set().blob("Domain", b"example.com"),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.root(&alice).unwrap().blob_of(sf().domain),
        Some(&b"example.com"[..])
    );
    env.apply(&alice, set().blob("Domain", b""), Ter::tesSUCCESS);
    assert_eq!(env.root(&alice).unwrap().blob_of(sf().domain), None);
    env.apply(
        &alice,
        set().blob("MessageKey", &[9; 33]),
        Ter::telBAD_PUBLIC_KEY,
    );
    env.apply(
        &alice,
        set().u32("SetFlag", 8).u32("ClearFlag", 8),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &alice,
        set().flags(0x0004_0000).u32("ClearFlag", 2),
        Ter::temINVALID_FLAG,
    );
    env.apply(&alice, set().flags(0x0000_0001), Ter::temINVALID_FLAG);
    // Unknown asf values succeed and change nothing.
    let flags = env.flags(&alice);
    env.apply(&alice, fset(99), Ter::tesSUCCESS);
    assert_eq!(env.flags(&alice), flags);
    // NoFreeze is permanent; a global freeze cannot then be lifted.
    env.apply(&alice, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
    env.apply(&alice, fset(asf::NO_FREEZE), Ter::tesSUCCESS);
    env.apply(&alice, fclear(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
    assert_ne!(env.flags(&alice) & lsf::GLOBAL_FREEZE, 0);
    // AccountTxnID tracking.
    env.apply(&alice, fset(asf::ACCOUNT_TXN_ID), Ter::tesSUCCESS);
    env.apply(&alice, set(), Ter::tesSUCCESS);
    let id = env.last_id.unwrap();
    assert_eq!(
        env.root(&alice).unwrap().h256_of(sf().account_txn_id),
        Some(id)
    );
    env.apply(
        &alice,
        set().h256("AccountTxnID", ledgerd::protocol::types::Hash256([1; 32])),
        Ter::tefWRONG_PRIOR,
    );
    env.apply(&alice, set().h256("AccountTxnID", id), Ter::tesSUCCESS);
}

#[test]
fn metadata_of_an_account_creating_payment() {
    let mut env = Env::new();
    let master = Account::master();
    let alice = Account::new("alice");
    env.fund(&alice, xrp(1000));
    let meta = env.last_meta.clone().unwrap();
    let s = sf();
    assert_eq!(meta.u8_of(s.transaction_result), Some(0));
    assert_eq!(meta.u32_of(s.transaction_index), Some(0));
    let nodes = meta.get_array("AffectedNodes").unwrap();
    assert_eq!(nodes.len(), 2);
    // Sorted by LedgerIndex.
    let idx: Vec<_> = nodes
        .iter()
        .map(|(_, n)| n.h256_of(s.ledger_index).unwrap())
        .collect();
    let mut sorted = idx.clone();
    sorted.sort();
    assert_eq!(idx, sorted);
    for (w, n) in nodes {
        assert_eq!(n.u16_of(s.ledger_entry_type), Some(lt::ACCOUNT_ROOT));
        let key = n.h256_of(s.ledger_index).unwrap();
        if key == keylet::account(&alice.id) {
            assert_eq!(w.name(), "CreatedNode");
            let nf = n.get_object("NewFields").unwrap();
            let names: Vec<_> = nf.iter().map(|(f, _)| f.name()).collect();
            assert_eq!(names, ["Sequence", "Balance", "Account"]);
        } else {
            assert_eq!(key, keylet::account(&master.id));
            assert_eq!(w.name(), "ModifiedNode");
            let prev = n.get_object("PreviousFields").unwrap();
            let names: Vec<_> = prev.iter().map(|(f, _)| f.name()).collect();
            assert_eq!(names, ["Sequence", "Balance"]);
            let fin = n.get_object("FinalFields").unwrap();
            assert!(fin.has("OwnerCount") && fin.has("Flags") && !fin.has("PreviousTxnID"));
        }
    }
    // The next change of alice's root threads to the funding transaction.
    let fund_id = env.last_id.unwrap();
    env.apply(&alice, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    let meta = env.last_meta.clone().unwrap();
    let (_, node) = &meta.get_array("AffectedNodes").unwrap()[0];
    assert_eq!(node.h256_of(s.previous_txn_id), Some(fund_id));
    let prev = node.get_object("PreviousFields").unwrap();
    assert!(prev.has("Flags"));
}

#[test]
fn trust_line_metadata_threads_both_owners() {
    let mut env = Env::new();
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    env.fund(&gw, xrp(1000));
    env.fund(&alice, xrp(1000));
    env.apply(&alice, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
    let meta = env.last_meta.clone().unwrap();
    let kinds: Vec<_> = meta
        .get_array("AffectedNodes")
        .unwrap()
        .iter()
        .map(|(w, n)| (w.name(), n.u16_of(sf().ledger_entry_type).unwrap()))
        .collect();
    let count = |w: &str, t: u16| kinds.iter().filter(|k| **k == (w, t)).count();
    assert_eq!(count("CreatedNode", lt::RIPPLE_STATE), 1);
    assert_eq!(count("CreatedNode", lt::DIR_NODE), 2);
    assert_eq!(count("ModifiedNode", lt::ACCOUNT_ROOT), 2);
    let line = env.line(&alice, &gw, "USD").unwrap();
    assert_eq!(line.h256_of(sf().previous_txn_id), env.last_id);
    // The gateway's root was threaded without other changes.
    assert_eq!(
        env.root(&gw).unwrap().h256_of(sf().previous_txn_id),
        env.last_id
    );
}

#[test]
fn owner_directory_pages() {
    let mut env = Env::new();
    let gw = Account::new("gateway");
    env.fund(&gw, xrp(100_000));
    let mut holders = Vec::new();
    for i in 0..40 {
        let h = Account::new(&format!("holder{i}"));
        env.fund(&h, xrp(100));
        env.apply(&h, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
        holders.push(h);
    }
    let owned = env.owned(&gw);
    assert_eq!(owned.len(), 40);
    let root = keylet::owner_dir(&gw.id);
    let page1 = env.read(&keylet::dir_page(&root, 1)).expect("second page");
    assert_eq!(page1.v256_of(sf().indexes).unwrap().len(), 8);
    assert_eq!(
        env.read(&root).unwrap().u64_of(sf().index_previous),
        Some(1)
    );
    // Emptying the second page removes it and unlinks it from the root.
    for h in holders.iter().rev().take(8) {
        let t = env.submit(h, trust(gw.iou("USD", 0)).flags(0x0002_0000));
        assert_eq!(t, Ter::tesSUCCESS);
    }
    assert_eq!(env.owned(&gw).len(), 32);
}

#[test]
fn closed_ledgers_are_immutable_and_hashes_chain() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(1000));
    env.close();
    let l3 = env.store.closed();
    assert_eq!(l3.seq(), 3);
    let h3 = l3.ledger.as_ref().unwrap().header.clone();
    assert_eq!(h3.seq, 3);
    assert_eq!(h3.total_drops, 100_000_000_000_000_000 - 10);
    assert_eq!(h3.hash, h3.compute_hash());
    assert_ne!(h3.transaction_hash, ledgerd::protocol::types::Hash256::ZERO);
    let parent = env.store.by_seq(2).unwrap().ledger.unwrap().header.clone();
    assert_eq!(h3.parent_hash, parent.hash);
    assert_eq!(h3.parent_close_time, parent.close_time);
    assert!(h3.close_time > parent.close_time);

    env.fund(&bob, xrp(1000));
    env.apply(&alice, pay(&bob, xrp(5)), Ter::tesSUCCESS);
    // The closed ledger does not see the open ledger's changes.
    assert!(l3.view.read(&keylet::account(&bob.id)).is_none());
    assert_eq!(
        l3.view
            .read(&keylet::account(&alice.id))
            .unwrap()
            .drops_of(sf().balance),
        1_000_000_000
    );
    assert!(env
        .store
        .current()
        .view
        .read(&keylet::account(&bob.id))
        .is_some());
    env.close();
    let l4 = env.store.closed();
    assert_eq!(l4.ledger.as_ref().unwrap().txs.len(), 2);
    assert_ne!(
        l4.ledger.as_ref().unwrap().header.account_hash,
        h3.account_hash
    );
    assert_eq!(env.store.by_hash(&h3.hash).unwrap().seq(), 3);
    // Closing an empty ledger changes the state only by its skip list (rippled's
    // updateSkipList appends the parent's hash at every close).
    env.close();
    let l5_snapshot = env.store.closed();
    let l5 = l5_snapshot.ledger.clone().unwrap();
    let l4_header = l4.ledger.unwrap().header.clone();
    assert_ne!(l5.header.account_hash, l4_header.account_hash);
    let skip = l5_snapshot.view.read(&keylet::skip()).unwrap();
    match skip.get(sf().hashes) {
        Some(ledgerd::protocol::st::StValue::Vector256(v)) => {
            assert_eq!(v.last(), Some(&l4_header.hash))
        }
        _ => panic!("no Hashes"),
    }
    assert_eq!(
        l5.header.transaction_hash,
        ledgerd::protocol::types::Hash256::ZERO
    );
    let tx = env.store.tx(&env.last_id.unwrap()).unwrap();
    assert_eq!(tx.ledger_seq, 4);
    assert!(!l3.view.info().open);
}

#[test]
fn snapshot_round_trip_and_replay() {
    use ledgerd::ledgers::{Ledgers, SnapshotError};
    let mut env = Env::new();
    let alice = Account::new("alice");
    let gw = Account::new("gateway");
    env.fund(&alice, xrp(1000));
    env.fund(&gw, xrp(1000));
    env.apply(&alice, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
    env.close();
    let (header, entries) = env.store.export_closed();
    let owned: Vec<_> = entries.iter().map(|(k, v)| (*k, (**v).clone())).collect();
    let restored =
        Ledgers::from_snapshot(env.store.config().clone(), header.clone(), owned.clone())
            .expect("restores");
    assert_eq!(restored.closed().ledger.unwrap().header, header);
    assert_eq!(restored.current().seq(), header.seq + 1);
    // The same transaction on both gives the same ledger.
    let mut env2 = Env::new();
    env2.store = restored;
    env2.now = env.now;
    env.apply(&gw, pay(&alice, gw.iou("USD", 3)), Ter::tesSUCCESS);
    env2.apply(&gw, pay(&alice, gw.iou("USD", 3)), Ter::tesSUCCESS);
    env.close();
    env2.close();
    assert_eq!(
        env.store.closed().ledger.unwrap().header,
        env2.store.closed().ledger.unwrap().header
    );
    // A tampered snapshot is refused.
    let mut bad = owned;
    bad.pop();
    assert_eq!(
        Ledgers::from_snapshot(env.store.config().clone(), header, bad).err(),
        Some(SnapshotError::AccountHash)
    );
}

#[test]
fn a_future_sequence_is_held_and_applied_after_the_gap_fills() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(1000));
    env.fund(&bob, xrp(1000));
    let seq = env.seq(&alice);
    let bob_before = env.balance(&bob);
    env.apply(
        &alice,
        pay(&bob, xrp(2)).u32("Sequence", seq + 1),
        Ter::terPRE_SEQ,
    );
    assert_eq!(env.store.held().len(), 1);
    env.apply(&alice, pay(&bob, xrp(1)), Ter::tesSUCCESS);
    // Not yet: held transactions are retried when the next ledger opens.
    assert_eq!(env.seq(&alice), seq + 1);
    env.close();
    assert_eq!(env.seq(&alice), seq + 2);
    assert_eq!(env.balance(&bob), bob_before + 3_000_000);
    assert!(env.store.held().is_empty());
    assert_eq!(env.store.open_txs().len(), 1);
    // A gap that never fills expires after a few ledgers.
    env.apply(
        &alice,
        pay(&bob, xrp(2)).u32("Sequence", seq + 5),
        Ter::terPRE_SEQ,
    );
    for _ in 0..7 {
        env.close();
    }
    assert!(env.store.held().is_empty());
    assert_eq!(env.seq(&alice), seq + 2);
}

#[test]
fn multi_signed_transaction_without_a_signer_list() {
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::st::StObject;
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    let carol = Account::new("carol");
    env.fund(&alice, xrp(1000));
    env.fund(&bob, xrp(1000));
    let s = sf();
    let mut o = pay(&bob, xrp(1)).0;
    o.set(s.account, StValue::AccountId(alice.id));
    o.set(s.sequence, StValue::UInt32(env.seq(&alice)));
    o.set(s.fee, StValue::Amount(Amount::Xrp(30)));
    o.set(s.signing_pub_key, StValue::Blob(Vec::new()));
    let mut signers = Vec::new();
    let mut who = [&bob, &carol];
    who.sort_by_key(|a| a.id);
    for a in who {
        let sig =
            a.kp.sign(&ledgerd::protocol::tx::multisigning_data(&o, &a.id));
        let mut e = StObject::new();
        e.set(s.account, StValue::AccountId(a.id));
        e.set(
            s.signing_pub_key,
            StValue::Blob(a.kp.public.as_bytes().to_vec()),
        );
        e.set(s.txn_signature, StValue::Blob(sig));
        signers.push((Field::named("Signer"), e));
    }
    let mut good = o.clone();
    good.set(s.signers, StValue::Array(signers.clone()));
    let blob = ledgerd::protocol::codec::encode(&good);
    // Valid signatures, but alice has no SignerList.
    assert_eq!(
        env.store.apply_blob(&blob).unwrap().ter,
        Ter::tefNOT_MULTI_SIGNING
    );
    // Out of order signers fail the signature check.
    signers.reverse();
    let mut bad = o.clone();
    bad.set(s.signers, StValue::Array(signers));
    let blob = ledgerd::protocol::codec::encode(&bad);
    assert_eq!(env.store.apply_blob(&blob).unwrap().ter, Ter::temINVALID);
}

/// Memory's window of closed ledgers is bounded by bytes as well as by count: past
/// `history_bytes_max` the oldest ledgers leave (down to LEDGER_HISTORY_COUNT_MIN) long
/// before 256 are kept, the newest stay readable with their transactions, and a
/// transaction's entry keeps only its binary forms, which decode to what was applied.
#[test]
fn the_window_of_closed_ledgers_is_bounded_by_bytes() {
    let mut env = Env::with_config(ledgerd::ledgers::LedgerConfig {
        history_bytes_max: 256 * 1024,
        ..Default::default()
    });
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(1000));
    env.fund(&bob, xrp(1000));
    let mut last_id = None;
    for _ in 0..40 {
        for _ in 0..20 {
            env.apply(&alice, pay(&bob, drops(1_000)), Ter::tesSUCCESS);
            last_id = env.last_id;
        }
        env.close();
    }
    let bound = 256 * 1024;
    let newest = env.store.closed().seq();
    let (oldest, _) = env.store.complete_range();
    let kept = newest - oldest + 1;
    assert!(kept < 40, "the byte bound let ledgers go: {kept} kept");
    assert!(
        kept > ledgerd::limits::LEDGER_HISTORY_COUNT_MIN,
        "the bytes bound before the minimum count: {kept}"
    );
    assert!(
        env.store.window_bytes() <= bound,
        "{}",
        env.store.window_bytes()
    );
    assert!(env.store.by_seq(oldest).is_some());
    assert!(env.store.by_seq(oldest - 1).is_none(), "left memory");
    let entry = env.store.tx(&last_id.expect("applied")).expect("in memory");
    let tx = entry.tx();
    assert_eq!(tx.account_of(sf().account), Some(alice.id));
    assert_eq!(
        entry.meta().u8_of(sf().transaction_result),
        Some(0),
        "tesSUCCESS in the decoded metadata"
    );
    assert_eq!(
        entry.blob.as_ref(),
        ledgerd::protocol::codec::encode(&tx).as_slice()
    );
}
