//! A Batch's delegated inner transaction (xrpl-py's `test_delegated_inner_transaction`,
//! rippled's BatchV1_1 `Batch.cpp`): an inner transaction sent by a Delegate on its
//! Account's behalf is authorized by the delegate, so the delegate (not the account
//! holder) is the BatchSigner it requires, unless the delegate is the outer account. The
//! inner transaction then needs the delegate's permission as any delegated one does.

use crate::support;

use ledgerd::engine::batch::tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::sf::sf;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::permission::value_of_name;
use ledgerd::protocol::st::{StObject, StValue};
use support::batch::{batch, inner, with_signers};
use support::engine::*;

/// The base fee x (2 + 2 inner transactions) + one base per BatchSigner signature.
const BATCH_FEE: i64 = FEE * (2 + 2) + FEE;

/// `owner` lets `to` send Payments on its behalf.
fn allow_payments(env: &mut Env, owner: &Account, to: &Account) {
    let mut p = StObject::new();
    let payment = value_of_name("Payment").expect("Payment");
    p.set(sf().permission_value, StValue::UInt32(payment));
    let mut tx = Tx::new("DelegateSet").account("Authorize", &to.id);
    tx.0.set(
        sf().permissions,
        StValue::Array(vec![(Field::named("Permission"), p)]),
    );
    env.apply(owner, tx, Ter::tesSUCCESS);
}

/// `outer` pays alice 1 XRP, and alice pays `outer` 2 XRP through her delegate bob; the
/// Batch, all or nothing, co-signed by each of `signers`; its result.
fn delegated_batch(env: &mut Env, [outer, alice, bob]: [&Account; 3], signers: &[&Account]) -> Ter {
    let (seq, aseq) = (env.seq(outer), env.seq(alice));
    let inners = [
        inner(pay(alice, xrp(1)), outer, seq + 1),
        inner(pay(outer, xrp(2)).account("Delegate", &bob.id), alice, aseq),
    ];
    let keys: Vec<_> = signers.iter().map(|a| (*a, &a.kp)).collect();
    let unsigned = batch(outer, seq, BATCH_FEE, tf::ALL_OR_NOTHING, &inners);
    let mut o = with_signers(unsigned, &keys);
    support::payment::sign_object(&mut o, &outer.kp);
    let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
    env.store.apply(&decoded).ter
}

#[test]
fn a_delegated_inner_transaction_is_signed_for_by_its_delegate() {
    let mut env = Env::new();
    let [walt, alice, bob] = env.funded(["walt", "alice", "bob"]);
    allow_payments(&mut env, &alice, &bob);
    let (pre_w, pre_a, pre_b) = (env.balance(&walt), env.balance(&alice), env.balance(&bob));
    let aseq = env.seq(&alice);
    let accounts = [&walt, &alice, &bob];
    // The account holder is not the signer the delegated inner transaction asks for.
    assert_eq!(
        delegated_batch(&mut env, accounts, &[&alice]),
        Ter::temBAD_SIGNER
    );
    // Nor are both.
    assert_eq!(
        delegated_batch(&mut env, accounts, &[&alice, &bob]),
        Ter::temBAD_SIGNER
    );
    assert_eq!(delegated_batch(&mut env, accounts, &[]), Ter::temBAD_SIGNER);
    // The delegate signs: both inner transactions apply, alice's sequence moves, bob's
    // balance and sequence do not.
    let bseq = env.seq(&bob);
    assert_eq!(
        delegated_batch(&mut env, accounts, &[&bob]),
        Ter::tesSUCCESS
    );
    assert_eq!(env.balance(&walt), pre_w - BATCH_FEE + 1_000_000);
    assert_eq!(env.balance(&alice), pre_a - 1_000_000);
    assert_eq!(env.balance(&bob), pre_b);
    assert_eq!((env.seq(&alice), env.seq(&bob)), (aseq + 1, bseq));
}

#[test]
fn without_the_permission_the_delegated_inner_transaction_fails() {
    let mut env = Env::new();
    let [walt, alice, bob] = env.funded(["walt", "alice", "bob"]);
    let (pre_w, pre_a) = (env.balance(&walt), env.balance(&alice));
    let aseq = env.seq(&alice);
    // The Batch is signed as it must be and applies; all or nothing keeps no inner
    // transaction, since alice never let bob pay for her.
    assert_eq!(
        delegated_batch(&mut env, [&walt, &alice, &bob], &[&bob]),
        Ter::tesSUCCESS
    );
    assert_eq!(env.balance(&walt), pre_w - BATCH_FEE);
    assert_eq!(env.balance(&alice), pre_a);
    assert_eq!(env.seq(&alice), aseq);
}
