//! TxQ_test `testClearQueuedAccountTxs` ("clear queued acct txs"), minimum 3: a
//! transaction whose fee pays for its account's queued run at the escalated levels
//! (rippled's `tryClearAccountQueueUpThruTx`) applies them all and itself; a fee a drop
//! short is queued. Its fourth part ("clear queue failure (load)") raises the server's
//! load fee, which ledgerd does not have.

use super::env::*;
use crate::support::engine::{fset, xrp, Account};
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledgers::txq::{to_drops, BASE_LEVEL};

const QUEUED: Ter = Ter::terQUEUED;

/// rippled's `calcTotalFee`: the drops that pay for `count` transactions from the open
/// ledger's count on (the queued ones and the new one when `None`), less what the
/// queued ones paid, plus one.
fn total_fee(t: &TxqEnv, already_paid: i64, count: Option<u64>) -> i64 {
    let m = t.metrics();
    let count = count.unwrap_or(m.queued + 1);
    let factor: u64 = (0..count).map(|i| (m.in_ledger + i).pow(2)).sum();
    let den = m.per_ledger * m.per_ledger;
    let level = (m.median_level * factor).div_ceil(den);
    to_drops(level, t.base_fee() as u64) as i64 - already_paid + 1
}

/// `env.fund(XRP(50000000), alice, bob)`: a payment and DefaultRipple each.
fn fund_rippling(t: &mut TxqEnv) -> [Account; 2] {
    let accounts = t.fund(xrp(50_000_000), ["alice", "bob"]);
    for who in &accounts {
        t.expect(who, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
    accounts
}

#[test]
fn clear_queued_account_txs() {
    let mut t = TxqEnv::new(3);
    let base = t.base_fee();
    t.check(0, None, 0, 3);
    let [alice, _bob] = fund_rippling(&mut t);
    t.fill_ledger(&alice);

    // The straightforward case: two queued at a too-low fee, one at the open
    // ledger's cost (queued: it cannot pay for the two ahead).
    let mut a = t.seq(&alice);
    let mut paid = 0;
    for _ in 0..2 {
        t.expect(&alice, seq(fee(noop(), base * 10), a), QUEUED);
        a += 1;
        paid += base * 10;
    }
    let cost = t.open_ledger_cost();
    assert_eq!(cost, 8889);
    t.expect(&alice, seq(fee(noop(), cost), a), QUEUED);
    a += 1;
    paid += cost;
    t.check(3, None, 4, 3);
    // One drop short of the run's levels (they round down): queued.
    let short = total_fee(&t, paid, None) - 1;
    assert_eq!(short, 60_911);
    t.expect(&alice, seq(fee(noop(), short), a), QUEUED);
    a += 1;
    t.check(4, None, 4, 3);
    // Enough: the four queued and this one apply.
    paid += short;
    let enough = total_fee(&t, paid, None);
    assert_eq!(enough, 35_556);
    t.expect(&alice, seq(fee(noop(), enough), a), Ter::tesSUCCESS);
    t.check(0, None, 9, 3);

    // The last queued one replaced by one paying for the run.
    let mut a = t.seq(&alice);
    for _ in 0..2 {
        t.expect(&alice, seq(fee(noop(), base * 10), a), QUEUED);
        a += 1;
    }
    let cost = t.open_ledger_cost();
    t.expect(&alice, seq(fee(noop(), cost), a), QUEUED);
    t.check(3, None, 9, 3);
    let replacement = total_fee(&t, base * 10 * 2, Some(3));
    t.expect(&alice, seq(fee(noop(), replacement), a), Ter::tesSUCCESS);
    t.check(0, None, 12, 3);
    t.close();
    t.check(0, Some(24), 0, 12);

    // A middle one replaced: those before it and it apply, those after stay queued.
    t.fill_ledger(&alice);
    let first = t.seq(&alice);
    for n in 0..5 {
        t.expect(&alice, seq(fee(noop(), base * 10), first + n), QUEUED);
    }
    t.check(5, Some(24), 13, 12);
    let replacement = total_fee(&t, base * 10 * 2, Some(3));
    t.expect(
        &alice,
        seq(fee(noop(), replacement), first + 2),
        Ter::tesSUCCESS,
    );
    t.check(2, Some(24), 16, 12);
    let left = t.env.store.queued_of(&alice.id);
    let left: Vec<(u32, u64)> = left
        .iter()
        .map(|(q, _)| (q.tx.seq_proxy.value(), q.tx.fee_level))
        .collect();
    assert_eq!(
        left,
        [(first + 3, BASE_LEVEL * 10), (first + 4, BASE_LEVEL * 10)]
    );
    t.close();
    t.check(0, Some(32), 2, 16);
}
