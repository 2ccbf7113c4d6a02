//! TxQ_test `testBlockersSeq` ("blockers sequence") and `testBlockersTicket` ("blockers
//! ticket"), minimum 3: a blocker (SetRegularKey, SignerListSet, AccountSet of
//! AccountTxnID) is queued alone or replaces its account's lone queued transaction, and
//! blocks what would follow it.

use super::env::*;
use crate::support::engine::{fset, regular_key, signer_list, ticket_create, xrp, Account};
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;

const QUEUED: Ter = Ter::terQUEUED;

fn signers(bob: &Account, charlie: &Account, daria: &Account) -> crate::support::engine::Tx {
    signer_list(2, &[(bob, 1), (charlie, 1), (daria, 1)])
}

/// Both tests' start: alice and bob funded, charlie and daria only named.
fn start() -> (TxqEnv, [Account; 4]) {
    let mut t = TxqEnv::new(3);
    t.check(0, None, 0, 3);
    let [alice, bob] = t.fund(xrp(50_000), ["alice", "bob"]);
    let (charlie, daria) = (Account::new("charlie"), Account::new("daria"));
    t.check(0, None, 2, 3);
    (t, [alice, bob, charlie, daria])
}

/// `testBlockersSeq`, its three blocks and their `checkMetrics`.
#[test]
fn blockers_by_sequence() {
    let (mut t, [alice, bob, charlie, daria]) = start();
    let base = t.base_fee();

    // 1. No blocker joins a queue holding two transactions.
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    t.expect(&alice, regular_key(&charlie), Ter::tesSUCCESS);
    t.check(0, None, 4, 3);
    let a = t.seq(&alice);
    t.expect(&alice, seq(noop(), a), QUEUED);
    t.expect(&alice, seq(noop(), a + 1), QUEUED);
    // Neither can be replaced by a blocker, nor a blocker appended.
    let blocks = Ter::telCAN_NOT_QUEUE_BLOCKS;
    t.expect(
        &alice,
        seq(fee(fset(asf::ACCOUNT_TXN_ID), base * 2), a),
        blocks,
    );
    t.expect(&alice, seq(fee(regular_key(&bob), base * 2), a + 1), blocks);
    let list = signers(&bob, &charlie, &daria);
    t.expect(&alice, seq(fee(list, base * 2), a + 2), blocks);
    // Others are not affected.
    t.expect(&bob, noop(), QUEUED);
    t.check(3, None, 4, 3);
    // The queue drains; the SignerListSet refused at a + 2 now has its Sequence and
    // applies from the local transactions.
    t.close();
    t.check(0, Some(8), 4, 4);
    assert_eq!(t.seq(&alice), a + 3);

    // 2. A lone queued transaction may be replaced by a blocker.
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    let a = t.seq(&alice);
    t.expect(&alice, seq(noop(), a), QUEUED);
    t.expect(&alice, seq(fee(regular_key(&bob), base * 2), a), QUEUED);
    // Nothing follows a queued blocker.
    let blocked = Ter::telCAN_NOT_QUEUE_BLOCKED;
    t.expect(&alice, seq(noop(), a + 1), blocked);
    t.expect(&bob, noop(), QUEUED);
    // A blocker replaces the blocker (26 drops: over 125% of 20).
    let list = signers(&bob, &charlie, &daria);
    t.expect(&alice, seq(fee(list, base * 26 / 10), a), QUEUED);
    t.expect(&alice, seq(noop(), a + 1), blocked);
    // A non-blocker replaces it (33 drops), and the queue takes followers again.
    t.expect(&alice, seq(fee(noop(), base * 33 / 10), a), QUEUED);
    t.expect(&alice, seq(noop(), a + 1), QUEUED);
    t.close();
    t.check(0, Some(10), 3, 5);
    assert_eq!(t.seq(&alice), a + 2);

    // 3. A blocker first in an empty queue.
    for _ in 0..3 {
        t.expect(&alice, noop(), Ter::tesSUCCESS);
    }
    let a = t.seq(&alice);
    t.expect(&alice, seq(fset(asf::ACCOUNT_TXN_ID), a), QUEUED);
    t.expect(&alice, seq(noop(), a + 1), blocked);
    t.expect(&bob, noop(), QUEUED);
    t.expect(&alice, seq(fee(noop(), base * 2), a), QUEUED);
    t.expect(&alice, seq(noop(), a + 1), QUEUED);
    t.close();
    t.check(0, Some(12), 3, 6);
}

/// `testBlockersTicket`: the same with tickets, where ticketed transactions queue in any
/// order and a blocker by ticket blocks Sequence and ticket followers alike.
#[test]
fn blockers_by_ticket() {
    let (mut t, [alice, bob, charlie, daria]) = start();
    let base = t.base_fee();
    let mut tkt = t.seq(&alice) + 1;

    // 1. No blocker joins a queue holding two transactions.
    t.expect(&alice, seq(ticket_create(250), tkt - 1), Ter::tesSUCCESS);
    t.expect(&alice, regular_key(&charlie), Ter::tesSUCCESS);
    t.check(0, None, 4, 3);
    let a = t.seq(&alice);
    t.expect(&alice, ticket(noop(), tkt + 2), QUEUED);
    t.expect(&alice, ticket(noop(), tkt + 1), QUEUED);
    let blocks = Ter::telCAN_NOT_QUEUE_BLOCKS;
    let acct_txn_id = || fset(asf::ACCOUNT_TXN_ID);
    t.expect(
        &alice,
        ticket(fee(acct_txn_id(), base * 2), tkt + 1),
        blocks,
    );
    t.expect(
        &alice,
        ticket(fee(regular_key(&bob), base * 2), tkt + 2),
        blocks,
    );
    let list = || signers(&bob, &charlie, &daria);
    t.expect(&alice, fee(list(), base * 2), blocks);
    t.expect(&alice, ticket(fee(list(), base * 2), tkt), blocks);
    t.expect(&bob, noop(), QUEUED);
    t.check(3, None, 4, 3);
    // The queue and the local transactions drain: 5 in the ledger.
    t.close();
    t.check(0, Some(8), 5, 4);
    assert_eq!(t.seq(&alice), a + 1);
    for n in tkt..tkt + 3 {
        t.expect(&alice, ticket(noop(), n), Ter::tefNO_TICKET);
    }
    tkt += 3;

    // 2. A lone queued transaction may be replaced by a blocker.
    let a = t.seq(&alice);
    t.expect(&alice, ticket(noop(), tkt), QUEUED);
    t.expect(&alice, fee(regular_key(&bob), base * 2), blocks);
    t.expect(
        &alice,
        ticket(fee(regular_key(&bob), base * 2), tkt + 1),
        blocks,
    );
    t.expect(
        &alice,
        ticket(fee(regular_key(&bob), base * 2), tkt),
        QUEUED,
    );
    let blocked = Ter::telCAN_NOT_QUEUE_BLOCKED;
    t.expect(&alice, noop(), blocked);
    t.expect(&alice, ticket(noop(), tkt + 1), blocked);
    t.expect(&bob, noop(), QUEUED);
    t.expect(&alice, ticket(fee(list(), base * 26 / 10), tkt), QUEUED);
    t.expect(&alice, noop(), blocked);
    t.expect(&alice, ticket(noop(), tkt + 1), blocked);
    t.expect(&alice, ticket(fee(noop(), base * 33 / 10), tkt), QUEUED);
    t.expect(&alice, ticket(noop(), tkt + 1), QUEUED);
    t.expect(&alice, seq(noop(), a), QUEUED);
    t.close();
    t.check(0, Some(10), 4, 5);
    assert_eq!(t.seq(&alice), a + 1);
    t.expect(&alice, ticket(noop(), tkt), Ter::tefNO_TICKET);
    t.expect(&alice, ticket(noop(), tkt + 1), Ter::tefNO_TICKET);
    tkt += 2;

    // 3. A blocker first in an empty queue.
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    t.expect(&alice, noop(), Ter::tesSUCCESS);
    t.expect(&alice, ticket(acct_txn_id(), tkt + 2), QUEUED);
    t.expect(&alice, ticket(noop(), tkt + 1), blocked);
    t.expect(&bob, noop(), QUEUED);
    t.expect(&alice, ticket(fee(noop(), base * 2), tkt + 2), QUEUED);
    t.expect(&alice, ticket(noop(), tkt + 1), QUEUED);
    t.close();
    t.check(0, Some(12), 3, 6);
}
