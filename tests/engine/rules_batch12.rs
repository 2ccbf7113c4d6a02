//! fixBatchV1_2 (xrpld 3.4.1, DefaultYes), gated both ways. Its one spot, the release's
//! "Reject Batch inner txs with the wrong wrapper" (`Batch::preflight` of 3.4.1, commit
//! d147fccf): each element of a Batch's RawTransactions must be an object wrapped as
//! `RawTransaction`. With the fix another wrapper (a `CreatedNode`, say) is `temMALFORMED`
//! and nothing applies; before it the wrapper is not looked at and the batch applies.
//! The check comes first for each inner transaction, so an earlier inner transaction's
//! own error still wins.

use crate::support;

use ledgerd::engine::batch::tf;
use ledgerd::engine::transactor::verify_signature;
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::sf;
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use support::batch::{batch, inner};
use support::engine::*;

/// ledgerd's rule book with fixBatchV1_2 forced on or off (BatchV1_1 on), signatures
/// checked as the server checks them.
fn env(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    if on {
        cfg.rule_book.presets.insert(Feature::FixBatchV1_2);
    } else {
        cfg.rule_book.presets.remove(Feature::FixBatchV1_2);
    }
    cfg.apply.signature_check = Some(std::sync::Arc::new(verify_signature));
    let env = Env::with_config(cfg);
    let rules = env.store.rules();
    assert_eq!(rules.enabled(Feature::FixBatchV1_2), on, "the rule book");
    assert!(rules.enabled(Feature::BatchV1_1), "the rule book");
    env
}

/// Rewraps the Batch's inner transactions: element `i` under `wrappers[i]`.
fn rewrap(mut o: StObject, wrappers: &[&str]) -> StObject {
    let Some(StValue::Array(items)) = o.get(sf().raw_transactions).cloned() else {
        panic!("no RawTransactions");
    };
    let items = items
        .into_iter()
        .zip(wrappers)
        .map(|((_, t), w)| (Field::named(w), t))
        .collect();
    o.set(sf().raw_transactions, StValue::Array(items));
    o
}

/// Signs, round-trips through the binary form (which keeps the wrapper) and applies.
fn submit(env: &mut Env, who: &Account, mut o: StObject) -> (Ter, bool) {
    support::payment::sign_object(&mut o, &who.kp);
    let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
    assert_eq!(decoded, o, "binary round trip");
    let r = env.store.apply(&decoded);
    (r.ter, r.applied)
}

/// Two one-XRP payments from alice to bob, all or nothing (fee: 4 base fees).
fn two_payments(env: &Env, alice: &Account, bob: &Account) -> StObject {
    let seq = env.seq(alice);
    let inners = [
        inner(pay(bob, xrp(1)), alice, seq + 1),
        inner(pay(bob, xrp(1)), alice, seq + 2),
    ];
    batch(alice, seq, 4 * FEE, tf::ALL_OR_NOTHING, &inners)
}

#[test]
fn inner_transactions_wrapped_otherwise_apply_only_without_the_fix() {
    for wrapper in ["CreatedNode", "ModifiedNode", "Memo", "TransactionMetaData"] {
        for on in [false, true] {
            let mut env = env(on);
            let [alice, bob] = env.funded(["b12Alice", "b12Bob"]);
            let (seq, a0, b0) = (env.seq(&alice), env.balance(&alice), env.balance(&bob));
            let o = rewrap(two_payments(&env, &alice, &bob), &[wrapper, wrapper]);
            let got = submit(&mut env, &alice, o);
            let what = format!("{wrapper}, fix {on}");
            if on {
                assert_eq!(got, (Ter::temMALFORMED, false), "{what}");
                assert_eq!(env.seq(&alice), seq, "{what}");
                assert_eq!(env.balance(&alice), a0, "{what}");
                assert_eq!(env.balance(&bob), b0, "{what}");
            } else {
                assert_eq!(got, (Ter::tesSUCCESS, true), "{what}");
                assert_eq!(env.seq(&alice), seq + 3, "{what}");
                assert_eq!(env.balance(&alice), a0 - 2_000_000 - 4 * FEE, "{what}");
                assert_eq!(env.balance(&bob), b0 + 2_000_000, "{what}");
            }
        }
    }
}

#[test]
fn the_right_wrapper_applies_both_ways() {
    for on in [false, true] {
        let mut env = env(on);
        let [alice, bob] = env.funded(["b12Alice2", "b12Bob2"]);
        let b0 = env.balance(&bob);
        let o = rewrap(
            two_payments(&env, &alice, &bob),
            &["RawTransaction", "RawTransaction"],
        );
        assert_eq!(
            submit(&mut env, &alice, o),
            (Ter::tesSUCCESS, true),
            "fix {on}"
        );
        assert_eq!(env.balance(&bob), b0 + 2_000_000, "fix {on}");
    }
}

#[test]
fn the_wrapper_is_judged_inner_by_inner_in_order() {
    for on in [false, true] {
        let mut env = env(on);
        let [alice, bob] = env.funded(["b12Alice3", "b12Bob3"]);
        let seq = env.seq(&alice);
        // The first inner transaction pays a fee (temBAD_FEE), the second is miswrapped:
        // the first one's error wins either way.
        let mut first = inner(pay(&bob, xrp(1)), &alice, seq + 1);
        first.set(sf().fee, StValue::Amount(drops(1)));
        let second = inner(pay(&bob, xrp(1)), &alice, seq + 2);
        let o = batch(&alice, seq, 4 * FEE, tf::ALL_OR_NOTHING, &[first, second]);
        let o = rewrap(o, &["RawTransaction", "CreatedNode"]);
        assert_eq!(
            submit(&mut env, &alice, o),
            (Ter::temBAD_FEE, false),
            "fix {on}"
        );
        // The second repeats the first under another wrapper: a duplicate before the
        // fix (temREDUNDANT), miswrapped with it, judged before the repeat.
        let same = inner(pay(&bob, xrp(1)), &alice, seq + 1);
        let o = batch(
            &alice,
            seq,
            4 * FEE,
            tf::ALL_OR_NOTHING,
            &[same.clone(), same],
        );
        let o = rewrap(o, &["RawTransaction", "CreatedNode"]);
        let want = if on {
            Ter::temMALFORMED
        } else {
            Ter::temREDUNDANT
        };
        assert_eq!(submit(&mut env, &alice, o), (want, false), "fix {on}");
        assert_eq!(env.seq(&alice), seq, "fix {on}");
    }
}
