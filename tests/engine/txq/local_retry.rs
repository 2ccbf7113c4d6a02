//! TxQ_test `testLocalTxRetry` ("local tx retry") and `testAcctTxnID` ("acct tx id"):
//! what the queue refused for the moment comes back at close from the local
//! transactions, through the queue's door again.

use super::env::*;
use crate::support::engine::xrp;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::protocol::types::Hash256;

const QUEUED: Ter = Ter::terQUEUED;

/// `testLocalTxRetry` (minimum 2): a Sequence too far ahead is telCAN_NOT_QUEUE, yet at
/// close, once the queue drained the two before it, it applies from the local
/// transactions: 4 in the new ledger.
#[test]
fn local_tx_retry_applies_what_the_queue_refused() {
    let mut t = TxqEnv::new(2);
    t.check(0, None, 0, 2);
    let [alice, bob, charlie] = t.fund(xrp(50_000), ["alice", "bob", "charlie"]);
    t.check(0, None, 3, 2);

    // A future transaction of alice's fails.
    let a = t.seq(&alice);
    let cost = t.open_ledger_cost();
    t.expect(&alice, seq(fee(noop(), cost), a + 1), Ter::terPRE_SEQ);
    t.check(0, None, 3, 2);

    // Her current one is held.
    t.expect(&alice, noop(), QUEUED);
    t.check(1, None, 3, 2);

    // Too far ahead: not queued.
    t.expect(&alice, seq(noop(), a + 2), Ter::telCAN_NOT_QUEUE);
    t.check(1, None, 3, 2);

    // Bob pays the open ledger's cost.
    let cost = t.open_ledger_cost();
    t.expect(&bob, fee(noop(), cost), Ter::tesSUCCESS);
    t.check(1, None, 4, 2);

    // Charlie with a low fee, alice's next with the base fee: queued.
    t.expect(&charlie, fee(noop(), 1000), QUEUED);
    t.check(2, None, 4, 2);
    t.expect(&alice, seq(noop(), a + 1), QUEUED);
    t.check(3, None, 4, 2);

    t.close();
    // The three queued applied, then alice's refused one from the local transactions.
    t.check(0, Some(8), 4, 4);
    assert_eq!(t.seq(&alice), a + 3);
}

/// `testAcctTxnID` (minimum 1): AccountTxnID cannot be queued (telCAN_NOT_QUEUE); at
/// close it is retried from the local transactions and applies.
#[test]
fn account_txn_id_is_not_queued_but_retried() {
    let mut t = TxqEnv::new(1);
    t.check(0, None, 0, 1);
    let [alice] = t.fund(xrp(50_000), ["alice"]);
    t.check(0, None, 1, 1);

    t.expect(
        &alice,
        crate::support::engine::fset(asf::ACCOUNT_TXN_ID),
        Ter::tesSUCCESS,
    );
    t.check(0, None, 2, 1);

    // Right after the fset the field is zero, so preclaim passes, and the queue refuses.
    let prior = |tx| -> crate::support::engine::Tx {
        crate::support::engine::Tx::h256(tx, "AccountTxnID", Hash256::ZERO)
    };
    t.expect(&alice, prior(noop()), Ter::telCAN_NOT_QUEUE);
    t.check(0, None, 2, 1);

    t.close();
    // Retried from the local transactions: applied.
    t.check(0, Some(4), 1, 2);

    t.expect(&alice, noop(), Ter::tesSUCCESS);
    t.check(0, Some(4), 2, 2);
    t.expect(&alice, prior(noop()), Ter::tefWRONG_PRIOR);
}

/// A queued transaction submitted again (the same id): TxQ::apply weighs it as a
/// replacement of itself, which does not pay 125% of itself (telCAN_NOT_QUEUE_FEE);
/// the queue keeps one copy and it applies once.
#[test]
fn a_queued_transaction_submitted_again() {
    let mut t = TxqEnv::new(2);
    let [alice, _bob] = t.fund(xrp(50_000), ["alice", "bob"]);
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    let a = t.seq(&alice);
    t.expect(&alice, seq(noop(), a), QUEUED);
    t.expect(&alice, seq(noop(), a), Ter::telCAN_NOT_QUEUE_FEE);
    t.check(1, None, 3, 2);
    assert_eq!(t.env.store.queued_of(&alice.id).len(), 1);
    t.close();
    t.check(0, Some(6), 1, 3);
    assert_eq!(t.seq(&alice), a + 1);
    t.close();
    t.check(0, Some(6), 0, 3);
}

/// rippled's `TxQ::apply` runs preflight before any queue check: a malformed
/// transaction behind the account's queued one gets its `tem`, not a queue code.
#[test]
fn preflight_before_the_queue() {
    let mut t = TxqEnv::new(2);
    let [alice, _bob] = t.fund(xrp(50_000), ["alice", "bob"]);
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    let a = t.seq(&alice);
    t.expect(&alice, seq(noop(), a), QUEUED);
    // A gap (telCAN_NOT_QUEUE once well formed) with a flag AccountSet does not know.
    t.expect(&alice, seq(noop().flags(1), a + 2), Ter::temINVALID_FLAG);
    t.expect(&alice, seq(noop(), a + 2), Ter::telCAN_NOT_QUEUE);
    t.check(1, None, 3, 2);
}

/// Where ledgerd differs: a transaction the engine answered `ter` (here terNO_ACCOUNT)
/// is held, journaled, and retried at close *before* the drain, straight into the new
/// ledger; rippled retries its local transactions after `TxQ::accept`, through
/// `TxQ::apply`, so there carol's noop would find the ledger past its expected size and
/// be queued while a sixth queued noop applied. The counts are rippled's either way.
#[test]
fn held_ter_retries_before_the_drain() {
    let mut t = TxqEnv::new(3);
    let accounts = t.fund(xrp(50_000), ["alice", "bob", "charlie"]);
    t.close();
    t.check(0, Some(6), 0, 3);
    let more = t.fund(xrp(50_000), ["daria", "elmo", "fred"]);
    let carol = crate::support::engine::Account::new("carol");
    let created_at = t.open_seq();
    let r = t.submit(&carol, seq(noop(), created_at));
    assert_eq!(r.ter, Ter::terNO_ACCOUNT);
    assert!(r.held, "held, not the queue's");
    let master = t.env.master.clone();
    let pay = crate::support::engine::pay(&carol, xrp(1000));
    t.expect(&master, pay, Ter::tesSUCCESS);
    let others: Vec<_> = accounts.iter().chain(more.iter()).collect();
    let before: u32 = others.iter().map(|a| t.seq(a)).sum();
    for who in &others {
        t.expect(who, fee(noop(), 100), QUEUED);
    }
    t.check_levels(6, Some(6), 4, 3, 2561, MEDIAN);
    t.close();
    t.check(2, Some(8), 5, 4);
    assert_eq!(t.seq(&carol), created_at + 1, "carol's applied first");
    let after: u32 = others.iter().map(|a| t.seq(a)).sum();
    assert_eq!(after - before, 4, "four of the six queued");
}
