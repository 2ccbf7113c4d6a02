//! Issue 32's three reported divergences, each checked against rippled's source:
//!
//! 1. Resubmitting a transaction already applied. rippled's preclaim runs `checkSeqProxy`
//!    before `checkPriorTxAndLastLedger` (where `txExists` gives tefALREADY), and the
//!    submit path (`NetworkOPsImp::apply` -> `TxQ::apply`) answers tefPAST_SEQ before
//!    that for a used sequence, so xrpld says tefPAST_SEQ (tefNO_TICKET for a used
//!    Ticket), in the open ledger and after it closed: these stories pin that answer.
//! 2. `fail_hard` (rippled's `tapFAIL_HARD`, `Transactor::operator()`): a tec is
//!    discarded whole, no fee, no sequence; a ter is not held for retry.

use crate::support;

use ledgerd::engine::transactor::{apply_transaction, ApplyConfig};
use ledgerd::engine::Ter;
use ledgerd::protocol::codec;
use ledgerd::protocol::st::StObject;
use ledgerd::protocol::tx::transaction_id;
use ledgerd::protocol::types::Hash256;
use std::sync::Arc;
use support::engine::*;

/// `tx` as `who` signs it with its next sequence: the object, its blob and its ID.
fn signed(env: &Env, who: &Account, tx: Tx) -> (Arc<StObject>, Arc<[u8]>, Hash256) {
    let o = tx.signed(&who.id, env.seq(who), FEE, &who.kp);
    let blob = codec::encode(&o);
    let id = transaction_id(&blob);
    (Arc::new(o), Arc::from(blob.as_slice()), id)
}

// --- 1. the same transaction again -------------------------------------------------

#[test]
fn the_same_transaction_again_is_past_its_sequence_never_already() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let (tx, blob, id) = signed(&env, &alice, pay(&bob, xrp(5)));
    let first = env.store.apply_verified(&tx, &blob, id);
    assert_eq!(first.ter, Ter::tesSUCCESS);
    assert!(first.applied);
    let balance = env.balance(&alice);
    // In the open ledger that holds it.
    let again = env.store.apply_verified(&tx, &blob, id);
    assert_eq!(again.ter, Ter::tefPAST_SEQ);
    assert!(!again.applied && !again.held && again.entry.is_none());
    assert_eq!(env.balance(&alice), balance, "no second fee");
    // Once that ledger closed.
    env.close();
    let after_close = env.store.apply_verified(&tx, &blob, id);
    assert_eq!(after_close.ter, Ter::tefPAST_SEQ);
    assert_eq!(env.balance(&alice), balance);
    assert_eq!(env.balance(&bob), 10_005_000_000);
}

#[test]
fn the_same_ticketed_transaction_again_finds_no_ticket() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let ticket = env.seq(&alice) + 1;
    env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
    let o = with_ticket(pay(&bob, xrp(1)), ticket).signed(&alice.id, 0, FEE, &alice.kp);
    assert_eq!(env.store.apply(&o).ter, Ter::tesSUCCESS);
    assert_eq!(env.store.apply(&o).ter, Ter::tefNO_TICKET);
}

// --- 2. fail_hard --------------------------------------------------------------------

#[test]
fn fail_hard_discards_a_tec_whole_no_fee_no_sequence() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let carol = Account::new("carol");
    // Too little XRP to create carol's account: tecNO_DST_INSUF_XRP.
    let (tx, blob, id) = signed(&env, &alice, pay(&carol, drops(5)));
    let (balance, seq, txs) = (env.balance(&alice), env.seq(&alice), env.store.open_txs());
    let hard = env.store.apply_submitted(&tx, &blob, id, true);
    assert_eq!(hard.ter, Ter::tecNO_DST_INSUF_XRP);
    assert!(!hard.applied && !hard.held && hard.entry.is_none());
    assert_eq!(env.balance(&alice), balance, "no fee claimed");
    assert_eq!(env.seq(&alice), seq, "no sequence consumed");
    assert_eq!(env.store.open_txs().len(), txs.len(), "not in the ledger");
    assert!(env.store.tx(&id).is_none());
    // The very same transaction without fail_hard is applied as the tec it is.
    let soft = env.store.apply_submitted(&tx, &blob, id, false);
    assert_eq!(soft.ter, Ter::tecNO_DST_INSUF_XRP);
    assert!(soft.applied);
    assert_eq!(env.balance(&alice), balance - FEE);
    assert_eq!(env.seq(&alice), seq + 1);
}

#[test]
fn fail_hard_discards_a_tec_found_before_apply_too() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gateway", "alice"]);
    // Selling USD alice does not have: the offer's preclaim answers tecUNFUNDED_OFFER.
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(10))
        .amount("TakerGets", gw.iou("USD", 10));
    let (tx, blob, id) = signed(&env, &alice, offer);
    let balance = env.balance(&alice);
    let hard = env.store.apply_submitted(&tx, &blob, id, true);
    assert_eq!(hard.ter, Ter::tecUNFUNDED_OFFER);
    assert!(!hard.applied);
    assert_eq!(env.balance(&alice), balance);
    let soft = env.store.apply_submitted(&tx, &blob, id, false);
    assert_eq!(soft.ter, Ter::tecUNFUNDED_OFFER);
    assert!(soft.applied);
    assert_eq!(env.balance(&alice), balance - FEE);
}

#[test]
fn fail_hard_in_the_engine_writes_nothing_and_burns_nothing() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let (tx, _, id) = signed(&env, &alice, pay(&Account::new("carol"), drops(5)));
    let view = env.store.current().view;
    let hard = ApplyConfig {
        fail_hard: true,
        ..ApplyConfig::default()
    };
    let out = apply_transaction(&view, &tx, &id, 0, &hard);
    assert_eq!(out.ter, Ter::tecNO_DST_INSUF_XRP);
    assert!(!out.applied && out.meta.is_none() && out.writes.is_empty());
    assert_eq!(out.fee_drops, 0);
    let out = apply_transaction(&view, &tx, &id, 0, &ApplyConfig::default());
    assert!(out.applied && !out.writes.is_empty());
    assert_eq!(out.fee_drops, FEE);
}

#[test]
fn fail_hard_holds_no_ter_and_applies_a_tes() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    // A sequence from the future: terPRE_SEQ, held only without fail_hard.
    let future = pay(&bob, xrp(1)).u32("Sequence", env.seq(&alice) + 1);
    let (tx, blob, id) = signed(&env, &alice, future);
    let hard = env.store.apply_submitted(&tx, &blob, id, true);
    assert_eq!(hard.ter, Ter::terPRE_SEQ);
    assert!(!hard.held);
    assert!(env.store.held().is_empty());
    let soft = env.store.apply_submitted(&tx, &blob, id, false);
    assert!(soft.held);
    assert_eq!(env.store.held(), vec![id]);
    // A tes is applied as usual.
    let (tx, blob, id) = signed(&env, &alice, pay(&bob, xrp(2)));
    let ok = env.store.apply_submitted(&tx, &blob, id, true);
    assert_eq!(ok.ter, Ter::tesSUCCESS);
    assert!(ok.applied);
}
