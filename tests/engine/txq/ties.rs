//! TxQ_test `testTieBreaking` ("tie breaking"), minimum 4: equal fees tie, and which of
//! them leaves a full queue or drains first follows the transaction id XOR the open
//! ledger's parent hash. rippled's exact winners follow its hashes (its test says they
//! "may change if TxQ ordering is changed"); these are its counts, which hold whatever
//! the hashes.

use std::collections::BTreeMap;

use super::env::*;
use crate::support::engine::{xrp, Account};
use ledgerd::engine::Ter;
use ledgerd::protocol::types::AccountId;

const QUEUED: Ter = Ter::terQUEUED;

fn queued_by_account(t: &TxqEnv) -> BTreeMap<AccountId, u32> {
    let mut counts = BTreeMap::new();
    for (q, _) in t.env.store.queued_all() {
        *counts.entry(q.tx.account).or_insert(0) += 1;
    }
    counts
}

fn sequences(t: &TxqEnv, accounts: &[Account]) -> u32 {
    accounts.iter().map(|a| t.seq(a)).sum()
}

#[test]
fn tie_breaking() {
    let mut t = TxqEnv::new(4);
    t.check(0, None, 0, 4);
    let first = t.fund(xrp(50_000), ["alice", "bob", "charlie", "daria"]);
    t.check(0, None, 4, 4);
    t.close();
    t.check(0, Some(8), 0, 4);
    let second = t.fund(xrp(50_000), ["elmo", "fred", "gwen", "hank"]);
    t.check(0, Some(8), 4, 4);
    t.close();
    t.check(0, Some(8), 0, 4);
    let [alice, bob, charlie, daria] = first;
    let [elmo, fred, gwen, hank] = second;
    let all = [
        alice.clone(),
        bob.clone(),
        charlie.clone(),
        daria.clone(),
        elmo.clone(),
        fred.clone(),
        gwen.clone(),
        hank.clone(),
    ];

    for who in [&gwen, &hank, &gwen, &fred, &elmo] {
        t.expect(who, noop(), Ter::tesSUCCESS);
    }
    t.check(0, Some(8), 5, 4);
    let before = sequences(&t, &all);
    let c = t.seq(&charlie);

    // Identical fees: all queue, and one leaves when a better one comes.
    for who in &all {
        t.expect(who, fee(noop(), 15), QUEUED);
    }
    let min_level = t.queued_level(&alice) + 1;
    t.check_levels(8, Some(8), 5, 4, min_level, MEDIAN);
    // The base fee cannot replace charlie's.
    t.expect(&charlie, noop(), Ter::telCAN_NOT_QUEUE_FEE);
    t.expect(&charlie, seq(fee(noop(), 100), c + 1), QUEUED);
    t.check_levels(8, Some(8), 5, 4, min_level, MEDIAN);

    // Six drain; the evicted one comes back from the local transactions.
    t.close();
    t.check(3, Some(10), 6, 5);
    assert_eq!(sequences(&t, &all), before + 6);
    let queued = queued_by_account(&t);
    assert!(queued.len() <= 3);

    // Fill the queue again, each after what it has queued.
    let before = sequences(&t, &all);
    let mut counts = queued.clone();
    for who in &all[..7] {
        let n = counts.entry(who.id).or_insert(0);
        t.expect(who, seq(fee(noop(), 15), t.seq(who) + *n), QUEUED);
        *n += 1;
    }
    let min_level = t.queued_level(&gwen) + 1;
    t.check_levels(10, Some(10), 6, 5, min_level, MEDIAN);
    let n = counts.entry(alice.id).or_insert(0);
    t.expect(&alice, seq(fee(noop(), 100), t.seq(&alice) + *n), QUEUED);
    t.check_levels(10, Some(10), 6, 5, min_level, MEDIAN);

    // Seven drain, three stay, and one dropped comes back.
    t.close();
    t.check(4, Some(12), 7, 6);
    assert_eq!(sequences(&t, &all), before + 7);
    assert!(queued_by_account(&t).len() <= 4);
}
