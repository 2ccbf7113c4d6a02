//! Issue 32's three reported divergences, each checked against rippled's source:
//!
//! 1. Resubmitting a transaction already applied. rippled's preclaim runs `checkSeqProxy`
//!    before `checkPriorTxAndLastLedger` (where `txExists` gives tefALREADY), and the
//!    submit path (`NetworkOPsImp::apply` -> `TxQ::apply`) answers tefPAST_SEQ before
//!    that for a used sequence, so xrpld says tefPAST_SEQ (tefNO_TICKET for a used
//!    Ticket), in the open ledger and after it closed: these stories pin that answer.
//! 2. `fail_hard` (rippled's `tapFAIL_HARD`, `Transactor::operator()`): a tec is
//!    discarded whole, no fee, no sequence; a ter is not held for retry.
//! 3. XRP through a book to a holder of an issuer without DefaultRipple. rippled's
//!    `DirectIPaymentStep::check` refuses a direct step after a book step when its source
//!    set NoRipple on the line (`prevStep->bookStepBook()`: terNO_RIPPLE), and a line
//!    created while its issuer lacks DefaultRipple carries the issuer's NoRipple
//!    (`trustCreate`); Payment turns the ter into tecPATH_DRY. So xrpld refuses that
//!    payment too: these stories pin it, and the cases that do pay.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::transactor::{apply_transaction, ApplyConfig};
use ledgerd::engine::trust_set::tf as trust_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf;
use ledgerd::ledger::sf::StExt;
use ledgerd::protocol::codec;
use ledgerd::protocol::st::{PathStep, StObject};
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

// --- 3. NoRipple after a book --------------------------------------------------------

/// gw issues USD (with DefaultRipple when `ripples`, before any line); mm holds 100 USD
/// and sells 50 of them for 50 XRP; bob trusts gw; alice has only XRP.
fn book_market(ripples: bool) -> (Env, Account, Account, Account, Account) {
    let mut env = Env::new();
    let [gw, alice, bob, mm] = env.funded(["gateway", "alice", "bob", "mm"]);
    if ripples {
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
    env.apply(&mm, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&mm, gw.iou("USD", 100)), Ter::tesSUCCESS);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(50))
        .amount("TakerGets", gw.iou("USD", 50));
    env.apply(&mm, offer, Ter::tesSUCCESS);
    (env, gw, alice, bob, mm)
}

/// alice pays bob 10 USD with up to 20 XRP, on the default path or through the USD book.
fn buy_usd(gw: &Account, bob: &Account, through_book: bool) -> Tx {
    let tx = pay(bob, gw.iou("USD", 10)).amount("SendMax", xrp(20));
    if !through_book {
        return tx;
    }
    tx.paths(vec![vec![PathStep {
        account: None,
        currency: Some(cur("USD")),
        issuer: Some(gw.id),
    }]])
}

/// The issuer's NoRipple bit on its line with `holder`.
fn issuer_no_ripple(env: &Env, gw: &Account, holder: &Account) -> bool {
    let line = env.line(gw, holder, "USD").expect("line");
    let bit = if gw.id > holder.id {
        lsf::HIGH_NO_RIPPLE
    } else {
        lsf::LOW_NO_RIPPLE
    };
    line.flags() & bit != 0
}

#[test]
fn xrp_through_a_book_to_a_holder_of_an_issuer_without_default_ripple_is_dry() {
    for through_book in [false, true] {
        let (mut env, gw, alice, bob, mm) = book_market(false);
        assert!(
            issuer_no_ripple(&env, &gw, &bob),
            "trustCreate's peer default"
        );
        let balance = env.balance(&alice);
        env.apply(&alice, buy_usd(&gw, &bob, through_book), Ter::tecPATH_DRY);
        assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
        assert_eq!(env.iou_balance(&mm, &gw, "USD"), val("100"));
        assert_eq!(env.balance(&alice), balance - FEE, "only the fee");
    }
}

#[test]
fn the_same_payment_goes_through_once_the_issuer_ripples_on_that_line() {
    for through_book in [false, true] {
        let (mut env, gw, alice, bob, mm) = book_market(false);
        // The issuer clears its NoRipple on bob's line (DefaultRipple still off).
        let clear = trust(bob.iou("USD", 0)).flags(trust_tf::CLEAR_NO_RIPPLE);
        env.apply(&gw, clear, Ter::tesSUCCESS);
        assert!(!issuer_no_ripple(&env, &gw, &bob));
        assert!(env.flags(&gw) & lsf::DEFAULT_RIPPLE == 0);
        let (alice_xrp, mm_xrp) = (env.balance(&alice), env.balance(&mm));
        env.apply(&alice, buy_usd(&gw, &bob, through_book), Ter::tesSUCCESS);
        assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("10"));
        assert_eq!(env.iou_balance(&mm, &gw, "USD"), val("90"));
        assert_eq!(env.balance(&alice), alice_xrp - 10_000_000 - FEE);
        assert_eq!(env.balance(&mm), mm_xrp + 10_000_000);
    }
}

#[test]
fn xrp_through_a_book_to_a_holder_of_a_rippling_issuer_delivers() {
    for through_book in [false, true] {
        let (mut env, gw, alice, bob, mm) = book_market(true);
        assert!(!issuer_no_ripple(&env, &gw, &bob));
        let alice_xrp = env.balance(&alice);
        env.apply(&alice, buy_usd(&gw, &bob, through_book), Ter::tesSUCCESS);
        assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("10"));
        assert_eq!(env.iou_balance(&mm, &gw, "USD"), val("90"));
        assert_eq!(env.balance(&alice), alice_xrp - 10_000_000 - FEE);
        let id = env.last_id.expect("payment id");
        let entry = env.store.tx(&id).expect("in the ledger");
        assert_eq!(entry.delivered, Some(gw.iou("USD", 10)), "delivered_amount");
    }
}
