//! Batch stories, after rippled's `Batch_test.cpp`: the fee (base x (2 + inner count) +
//! one base per BatchSigner signature), the four modes with the ledger's transactions in
//! order (the Batch, then each inner transaction kept with its own result, index and
//! ParentBatchID), preflight's codes for a malformed batch, BatchSigners for other
//! accounts, an inner transaction submitted alone, and the canonical rebuild at close.

use crate::support;

use ledgerd::engine::batch::tf;
use ledgerd::engine::transactor::{verify_signature, TF_INNER_BATCH_TXN};
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::codec;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::tx::{batch_signing_data, transaction_id_of};
use ledgerd::protocol::types::Hash256;
use support::batch::{batch, inner, with_signers};
use support::engine::*;

/// Signs the outer transaction with `who`'s key, round-trips it through the binary form
/// and applies it; returns the result and the Batch's ID.
fn submit(env: &mut Env, who: &Account, mut o: StObject) -> (Ter, Hash256) {
    support::payment::sign_object(&mut o, &who.kp);
    let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
    assert_eq!(decoded, o, "binary round trip");
    let r = env.store.apply(&decoded);
    (r.ter, r.id)
}

/// The fee rippled's tests compute (`calcBatchFee`): base x (2 + inner count) plus one
/// base per signature.
fn batch_fee(signers: i64, inners: i64) -> i64 {
    FEE * (2 + inners) + FEE * signers
}

/// The type and result of the batch and of each transaction recorded after it.
fn ledger_results(env: &Env, id: &Hash256) -> Vec<(String, Ter)> {
    ledger_rows(env, id)
        .into_iter()
        .map(|r| (r.0, r.1))
        .collect()
}

/// The open ledger's transactions from the Batch `id` on: (type, result, ParentBatchID).
fn ledger_rows(env: &Env, id: &Hash256) -> Vec<(String, Ter, Option<Hash256>, u32)> {
    let txs = env.store.open_txs();
    let start = txs
        .iter()
        .position(|t| t.id == *id)
        .expect("batch in ledger");
    txs[start..]
        .iter()
        .map(|t| {
            let name = ledgerd::protocol::tx::transaction_type_name(&t.tx()).unwrap_or("?");
            (
                name.to_string(),
                t.ter,
                t.meta().h256_of(sf().parent_batch_id),
                t.index,
            )
        })
        .collect()
}

fn pays(env: &Env, who: &Account, to: &Account, n: i64, seq: u32) -> StObject {
    let _ = env;
    inner(pay(to, xrp(n)), who, seq)
}

#[test]
fn all_or_nothing_applies_every_inner_with_its_own_metadata() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let (pre_a, pre_b) = (env.balance(&alice), env.balance(&bob));
    let seq = env.seq(&alice);
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &alice, &bob, 2, seq + 2),
    ];
    let ids: Vec<Hash256> = inners.iter().map(transaction_id_of).collect();
    let fee = batch_fee(0, 2);
    assert_eq!(fee, 40);
    let (ter, id) = submit(
        &mut env,
        &alice,
        batch(&alice, seq, fee, tf::ALL_OR_NOTHING, &inners),
    );
    assert_eq!(ter, Ter::tesSUCCESS);
    let rows = ledger_rows(&env, &id);
    assert_eq!(rows.len(), 3);
    assert_eq!(
        (rows[0].0.as_str(), rows[0].1, rows[0].2),
        ("Batch", Ter::tesSUCCESS, None)
    );
    for (row, inner_id) in rows[1..].iter().zip(&ids) {
        assert_eq!(
            (row.0.as_str(), row.1, row.2),
            ("Payment", Ter::tesSUCCESS, Some(id))
        );
        let entry = env
            .store
            .tx(inner_id)
            .expect("inner transaction found by its ID");
        assert_eq!(entry.meta().h256_of(sf().parent_batch_id), Some(id));
    }
    assert_eq!(rows[1].3, rows[0].3 + 1);
    assert_eq!(rows[2].3, rows[0].3 + 2);
    assert_eq!(env.balance(&alice), pre_a - 3_000_000 - fee);
    assert_eq!(env.balance(&bob), pre_b + 3_000_000);
    assert_eq!(env.seq(&alice), seq + 3);
    // The closed ledger keeps them, in the same order.
    env.close();
    let closed = env.store.closed();
    let entry = env.store.tx(&ids[1]).expect("kept after close");
    assert_eq!(entry.ledger_seq, closed.seq());
    assert_eq!(entry.ter, Ter::tesSUCCESS);
}

#[test]
fn all_or_nothing_keeps_nothing_when_one_fails() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let (pre_a, pre_b) = (env.balance(&alice), env.balance(&bob));
    let seq = env.seq(&alice);
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &alice, &bob, 999_999, seq + 2),
    ];
    let fee = batch_fee(0, 2);
    let (ter, id) = submit(
        &mut env,
        &alice,
        batch(&alice, seq, fee, tf::ALL_OR_NOTHING, &inners),
    );
    assert_eq!(ter, Ter::tesSUCCESS);
    let rows = ledger_rows(&env, &id);
    assert_eq!(rows.len(), 1, "only the Batch: {rows:?}");
    assert_eq!(env.balance(&alice), pre_a - fee);
    assert_eq!(env.balance(&bob), pre_b);
    assert_eq!(env.seq(&alice), seq + 1);
    assert!(env.store.tx(&transaction_id_of(&inners[0])).is_none());
}

#[test]
fn only_one_stops_at_the_first_success() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let (pre_a, pre_b) = (env.balance(&alice), env.balance(&bob));
    let seq = env.seq(&alice);
    let inners = [
        pays(&env, &alice, &bob, 999_999, seq + 1),
        pays(&env, &alice, &bob, 1, seq + 2),
        pays(&env, &alice, &bob, 2, seq + 3),
    ];
    let fee = batch_fee(0, 3);
    let (ter, id) = submit(
        &mut env,
        &alice,
        batch(&alice, seq, fee, tf::ONLY_ONE, &inners),
    );
    assert_eq!(ter, Ter::tesSUCCESS);
    let rows = ledger_results(&env, &id);
    assert_eq!(
        rows,
        vec![
            ("Batch".into(), Ter::tesSUCCESS),
            ("Payment".into(), Ter::tecUNFUNDED_PAYMENT),
            ("Payment".into(), Ter::tesSUCCESS),
        ]
    );
    assert_eq!(env.balance(&alice), pre_a - 1_000_000 - fee);
    assert_eq!(env.balance(&bob), pre_b + 1_000_000);
    assert_eq!(env.seq(&alice), seq + 3);
}

#[test]
fn until_failure_stops_after_the_first_failure() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let (pre_a, pre_b) = (env.balance(&alice), env.balance(&bob));
    let seq = env.seq(&alice);
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &alice, &bob, 999_999, seq + 2),
        pays(&env, &alice, &bob, 2, seq + 3),
    ];
    let fee = batch_fee(0, 3);
    let (ter, id) = submit(
        &mut env,
        &alice,
        batch(&alice, seq, fee, tf::UNTIL_FAILURE, &inners),
    );
    assert_eq!(ter, Ter::tesSUCCESS);
    let rows = ledger_results(&env, &id);
    assert_eq!(
        rows,
        vec![
            ("Batch".into(), Ter::tesSUCCESS),
            ("Payment".into(), Ter::tesSUCCESS),
            ("Payment".into(), Ter::tecUNFUNDED_PAYMENT),
        ]
    );
    assert_eq!(env.balance(&alice), pre_a - 1_000_000 - fee);
    assert_eq!(env.balance(&bob), pre_b + 1_000_000);
}

#[test]
fn independent_applies_every_inner_whatever_the_others_did() {
    let mut env = Env::new();
    let [alice, bob, carol, gw] = env.funded(["alice", "bob", "carol", "gw"]);
    let (pre_a, pre_b, pre_c) = (env.balance(&alice), env.balance(&bob), env.balance(&carol));
    let seq = env.seq(&alice);
    const TF_IMMEDIATE_OR_CANCEL: u32 = 0x0002_0000;
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", gw.iou("USD", 100))
        .amount("TakerGets", xrp(100))
        .flags(TF_IMMEDIATE_OR_CANCEL);
    let inners = [
        pays(&env, &alice, &bob, 100, seq + 1),
        pays(&env, &alice, &carol, 100, seq + 2),
        inner(offer, &alice, seq + 3),
    ];
    let fee = batch_fee(0, 3);
    let (ter, id) = submit(
        &mut env,
        &alice,
        batch(&alice, seq, fee, tf::INDEPENDENT, &inners),
    );
    assert_eq!(ter, Ter::tesSUCCESS);
    let rows = ledger_results(&env, &id);
    assert_eq!(
        rows,
        vec![
            ("Batch".into(), Ter::tesSUCCESS),
            ("Payment".into(), Ter::tesSUCCESS),
            ("Payment".into(), Ter::tesSUCCESS),
            ("OfferCreate".into(), Ter::tecKILLED),
        ]
    );
    assert_eq!(env.balance(&alice), pre_a - 200_000_000 - fee);
    assert_eq!(env.balance(&bob), pre_b + 100_000_000);
    assert_eq!(env.balance(&carol), pre_c + 100_000_000);
}

#[test]
fn the_fee_must_cover_every_inner_and_signer() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let seq = env.seq(&alice);
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &alice, &bob, 2, seq + 2),
    ];
    let short = batch(
        &alice,
        seq,
        batch_fee(0, 2) - 1,
        tf::ALL_OR_NOTHING,
        &inners,
    );
    assert_eq!(submit(&mut env, &alice, short).0, Ter::telINSUF_FEE_P);
    // With bob's payment inside, bob's signature costs one more base fee.
    let bseq = env.seq(&bob);
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &bob, &alice, 5, bseq),
    ];
    let short = with_signers(
        batch(&alice, seq, batch_fee(0, 2), tf::ALL_OR_NOTHING, &inners),
        &[(&bob, &bob.kp)],
    );
    assert_eq!(submit(&mut env, &alice, short).0, Ter::telINSUF_FEE_P);
}

#[test]
fn batch_signers_let_other_accounts_take_part() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let (pre_a, pre_b) = (env.balance(&alice), env.balance(&bob));
    let (seq, bseq) = (env.seq(&alice), env.seq(&bob));
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &bob, &alice, 5, bseq),
    ];
    let fee = batch_fee(1, 2);
    assert_eq!(fee, 50);
    let o = with_signers(
        batch(&alice, seq, fee, tf::ALL_OR_NOTHING, &inners),
        &[(&bob, &bob.kp)],
    );
    let (ter, id) = submit(&mut env, &alice, o);
    assert_eq!(ter, Ter::tesSUCCESS);
    assert_eq!(ledger_rows(&env, &id).len(), 3);
    assert_eq!(env.balance(&alice), pre_a - fee + 4_000_000);
    assert_eq!(env.balance(&bob), pre_b - 4_000_000);
    assert_eq!(env.seq(&bob), bseq + 1);

    // Without bob's signature, or signed by the wrong key.
    let (seq, bseq) = (env.seq(&alice), env.seq(&bob));
    let inners = [
        pays(&env, &alice, &bob, 1, seq + 1),
        pays(&env, &bob, &alice, 5, bseq),
    ];
    let unsigned = batch(&alice, seq, fee, tf::ALL_OR_NOTHING, &inners);
    assert_eq!(
        submit(&mut env, &alice, unsigned.clone()).0,
        Ter::temBAD_SIGNER
    );
    let carol = Account::new("carol");
    let mut forged = with_signers(unsigned.clone(), &[(&bob, &carol.kp)]);
    assert_eq!(submit(&mut env, &alice, forged.clone()).0, Ter::tefBAD_AUTH);
    // A signature over other data.
    let s = sf();
    if let Some(StValue::Array(list)) = forged.get(s.batch_signers).cloned() {
        let mut list = list;
        let data = batch_signing_data(&unsigned, &[], &bob.id, None);
        list[0].1.set(
            s.signing_pub_key,
            StValue::Blob(bob.kp.public.as_bytes().to_vec()),
        );
        list[0]
            .1
            .set(s.txn_signature, StValue::Blob(bob.kp.sign(&data)));
        forged.set(s.batch_signers, StValue::Array(list));
    }
    assert_eq!(submit(&mut env, &alice, forged).0, Ter::temBAD_SIGNATURE);
    // The outer account may not sign as a BatchSigner.
    let own = with_signers(unsigned, &[(&bob, &bob.kp), (&alice, &alice.kp)]);
    assert_eq!(submit(&mut env, &alice, own).0, Ter::temBAD_SIGNER);
}

#[test]
fn malformed_batches_get_rippleds_codes() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let seq = env.seq(&alice);
    let fee = batch_fee(0, 2);
    let p = |n: i64, q: u32| inner(pay(&bob, xrp(n)), &alice, q);
    let two = [p(1, seq + 1), p(2, seq + 2)];
    let cases: Vec<(StObject, Ter)> = vec![
        (batch(&alice, seq, fee, 0, &two), Ter::temINVALID_FLAG),
        (
            batch(&alice, seq, fee, tf::ALL_OR_NOTHING | tf::ONLY_ONE, &two),
            Ter::temINVALID_FLAG,
        ),
        (
            batch(&alice, seq, fee, tf::INDEPENDENT | 0x1, &two),
            Ter::temINVALID_FLAG,
        ),
        (
            batch(&alice, seq, fee, tf::INDEPENDENT, &two[..1]),
            Ter::temARRAY_EMPTY,
        ),
        (
            batch(
                &alice,
                seq,
                1000,
                tf::INDEPENDENT,
                &(1..=9).map(|i| p(1, seq + i)).collect::<Vec<_>>(),
            ),
            Ter::temARRAY_TOO_LARGE,
        ),
        (
            batch(
                &alice,
                seq,
                fee,
                tf::INDEPENDENT,
                &[p(1, seq + 1), p(1, seq + 1)],
            ),
            Ter::temREDUNDANT,
        ),
        (
            batch(
                &alice,
                seq,
                fee,
                tf::ALL_OR_NOTHING,
                &[p(1, seq + 1), p(2, seq + 1)],
            ),
            Ter::temREDUNDANT,
        ),
        (
            batch(
                &alice,
                seq,
                fee,
                tf::INDEPENDENT,
                &[p(0, seq + 1), p(2, seq + 2)],
            ),
            Ter::temINVALID_INNER_BATCH,
        ),
        (
            batch(&alice, seq, fee, tf::INDEPENDENT, &[p(1, 0), p(2, seq + 2)]),
            Ter::temSEQ_AND_TICKET,
        ),
    ];
    for (i, (o, want)) in cases.into_iter().enumerate() {
        assert_eq!(submit(&mut env, &alice, o).0, want, "case {i}");
    }
    let s = sf();
    let mut no_flag = p(1, seq + 1);
    no_flag.set(s.flags, StValue::UInt32(0));
    let mut with_fee = p(1, seq + 1);
    with_fee.set(s.fee, StValue::Amount(drops(10)));
    let mut signed = p(1, seq + 1);
    signed.set(
        s.signing_pub_key,
        StValue::Blob(alice.kp.public.as_bytes().to_vec()),
    );
    let mut nested = batch(&alice, seq + 1, 0, tf::INDEPENDENT, &two);
    nested.set(
        s.flags,
        StValue::UInt32(tf::INDEPENDENT | TF_INNER_BATCH_TXN),
    );
    nested.set(s.signing_pub_key, StValue::Blob(Vec::new()));
    for (first, want) in [
        (no_flag, Ter::temINVALID_FLAG),
        (with_fee, Ter::temBAD_FEE),
        (signed, Ter::temBAD_REGKEY),
        (nested, Ter::temINVALID),
    ] {
        let o = batch(&alice, seq, fee, tf::INDEPENDENT, &[first, p(2, seq + 2)]);
        assert_eq!(submit(&mut env, &alice, o).0, want);
    }
    assert_eq!(env.seq(&alice), seq, "nothing applied");
}

/// An engine checking signatures as the server does, under rules with BatchV1_1 on or off.
fn env_with_batch(on: bool) -> Env {
    let mut cfg = ledgerd::ledgers::LedgerConfig::default();
    if !on {
        cfg.rule_book.presets.remove(Feature::BatchV1_1);
    }
    cfg.apply.signature_check = Some(std::sync::Arc::new(verify_signature));
    Env::with_config(cfg)
}

#[test]
fn an_inner_transaction_alone_is_refused_by_the_rules_either_way() {
    for on in [true, false] {
        let mut env = env_with_batch(on);
        let [alice, bob] = env.funded(["alice", "bob"]);
        let seq = env.seq(&alice);
        let mut o = inner(pay(&bob, xrp(1)), &alice, seq);
        o.set(sf().fee, StValue::Amount(drops(FEE)));
        // No signature is ever valid for it (rippled 3.4's checkValidity), BatchV1_1 or not.
        assert!(!verify_signature(&o, &env.store.rules()), "batch on: {on}");
        // preflight1: without BatchV1_1 the flag itself is refused; with it, the flag
        // outside a Batch (xrpld's NetworkOPs answer for a submission).
        let r = env.store.apply(&o);
        assert_eq!(
            (r.ter, r.applied),
            (Ter::temINVALID_FLAG, false),
            "batch on: {on}"
        );
        // Signed, it is still refused: the flag belongs to a Batch's inner transactions.
        let t = Tx::new("Payment")
            .account("Destination", &bob.id)
            .amount("Amount", xrp(1))
            .flags(TF_INNER_BATCH_TXN);
        assert_eq!(
            env.submit(&alice, t),
            Ter::temINVALID_FLAG,
            "batch on: {on}"
        );
        // A Batch carrying it applies only under BatchV1_1; there the engine asks no
        // signature of its inner transaction.
        let fee = batch_fee(0, 2);
        let inners = [
            inner(pay(&bob, xrp(1)), &alice, seq + 1),
            inner(pay(&bob, xrp(2)), &alice, seq + 2),
        ];
        let (ter, _) = submit(
            &mut env,
            &alice,
            batch(&alice, seq, fee, tf::ALL_OR_NOTHING, &inners),
        );
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::temDISABLED
        };
        assert_eq!(ter, want, "batch on: {on}");
        let after = if on { seq + 3 } else { seq };
        assert_eq!(env.seq(&alice), after, "batch on: {on}");
    }
}

#[test]
fn a_canonical_rebuild_at_close_applies_the_inner_transactions_again() {
    let mut env = Env::new();
    let names = ["alice", "bob", "carol", "dave", "erin", "frank"];
    let accounts = env.funded(names);
    env.close();
    // Several senders in arrival order, one of them a Batch: the close reorders them.
    let (alice, bob) = (&accounts[0], &accounts[1]);
    for a in &accounts[2..] {
        env.apply(a, pay(bob, xrp(1)), Ter::tesSUCCESS);
    }
    let seq = env.seq(alice);
    let inners = [
        pays(&env, alice, bob, 1, seq + 1),
        pays(&env, alice, bob, 2, seq + 2),
    ];
    let ids: Vec<Hash256> = inners.iter().map(transaction_id_of).collect();
    let (ter, id) = submit(
        &mut env,
        alice,
        batch(alice, seq, batch_fee(0, 2), tf::INDEPENDENT, &inners),
    );
    assert_eq!(ter, Ter::tesSUCCESS);
    env.close();
    let outer = env.store.tx(&id).expect("batch");
    let firsts: Vec<_> = ids
        .iter()
        .map(|i| env.store.tx(i).expect("inner"))
        .collect();
    assert_eq!(firsts[0].index, outer.index + 1);
    assert_eq!(firsts[1].index, outer.index + 2);
    assert_eq!(
        firsts[0].meta().u32_of(sf().transaction_index),
        Some(outer.index + 1)
    );
    assert_eq!(firsts[1].ter, Ter::tesSUCCESS);
    assert_eq!(env.store.closed().seq(), outer.ledger_seq);
    // Seven transactions in the closed ledger, indexed 0..7, the inner ones right
    // after their Batch; the arrival order was not the canonical one.
    let closed = env.store.closed().ledger.expect("closed");
    let order: Vec<Hash256> = closed.txs.iter().map(|t| t.id).collect();
    assert_eq!(order.len(), 7);
    assert!(closed
        .txs
        .iter()
        .enumerate()
        .all(|(i, t)| t.index == i as u32));
    let at = order.iter().position(|i| *i == id).expect("batch");
    assert_eq!(&order[at + 1..at + 3], &ids[..]);
    assert_ne!(at, 3, "the Batch arrived fourth; canonical order moved it");
}

/// What rippled's modes keep of inner payments that succeed (`true`) or fail: the
/// positions kept, or none for a failed all-or-nothing batch.
fn model(mode: u32, ok: &[bool]) -> Vec<usize> {
    let mut kept = Vec::new();
    for (i, &good) in ok.iter().enumerate() {
        kept.push(i);
        if !good {
            if mode == tf::ALL_OR_NOTHING {
                return Vec::new();
            }
            if mode == tf::UNTIL_FAILURE {
                break;
            }
        } else if mode == tf::ONLY_ONE {
            break;
        }
    }
    kept
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 32, .. Default::default() })]

    /// Random modes and inner payments (small ones succeed, huge ones are unfunded): the
    /// ledger keeps what the mode says, in order after the Batch with ParentBatchID,
    /// balances and sequences follow, and the closed ledger keeps the same.
    #[test]
    fn modes_keep_what_rippled_keeps(
        mode in proptest::sample::select(vec![
            tf::ALL_OR_NOTHING, tf::ONLY_ONE, tf::UNTIL_FAILURE, tf::INDEPENDENT,
        ]),
        amounts in proptest::collection::vec(
            proptest::prop_oneof![1i64..5, proptest::strategy::Just(1_000_000i64)], 2..=6),
    ) {
        let mut env = Env::new();
        let [alice, bob] = env.funded(["alice", "bob"]);
        let pre = env.balance(&alice);
        let seq = env.seq(&alice);
        let inners: Vec<StObject> = amounts
            .iter()
            .enumerate()
            .map(|(i, n)| inner(pay(&bob, xrp(*n)), &alice, seq + 1 + i as u32))
            .collect();
        let fee = batch_fee(0, inners.len() as i64);
        let (ter, id) = submit(&mut env, &alice, batch(&alice, seq, fee, mode, &inners));
        proptest::prop_assert_eq!(ter, Ter::tesSUCCESS);
        let ok: Vec<bool> = amounts.iter().map(|n| *n < 1_000_000).collect();
        let kept = model(mode, &ok);
        let rows = ledger_rows(&env, &id);
        proptest::prop_assert_eq!(rows.len(), 1 + kept.len());
        for (pos, (row, &k)) in rows[1..].iter().zip(&kept).enumerate() {
            let want = if ok[k] { Ter::tesSUCCESS } else { Ter::tecUNFUNDED_PAYMENT };
            proptest::prop_assert_eq!(row.1, want);
            proptest::prop_assert_eq!(row.2, Some(id));
            proptest::prop_assert_eq!(row.3, rows[0].3 + 1 + pos as u32);
        }
        let paid: i64 = kept.iter().filter(|&&k| ok[k]).map(|&k| amounts[k] * 1_000_000).sum();
        proptest::prop_assert_eq!(env.balance(&alice), pre - fee - paid);
        proptest::prop_assert_eq!(env.seq(&alice), seq + 1 + kept.len() as u32);
        env.close();
        let closed = env.store.closed().ledger.expect("closed");
        let ids: Vec<Hash256> = kept.iter().map(|&k| transaction_id_of(&inners[k])).collect();
        let at = closed.txs.iter().position(|t| t.id == id).expect("batch closed");
        let after: Vec<Hash256> = closed.txs[at + 1..].iter().map(|t| t.id).collect();
        proptest::prop_assert_eq!(after, ids);
    }
}
