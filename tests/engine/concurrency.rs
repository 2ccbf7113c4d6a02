//! Readers never see half a transaction or half a ledger: reader threads take snapshots
//! of the open and the last closed ledger while the writer applies payments and closes
//! ledgers, and check that each snapshot is self-consistent.

use crate::support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::ledgers::{LedgerSnapshot, Ledgers};
use ledgerd::protocol::codec;
use support::engine::*;

const PAY_DROPS: i64 = 7;
const FEE_DROPS: i64 = 10;

/// alice pays bob 7 drops per transaction: in any consistent snapshot, with k payments
/// applied, alice's sequence moved by k and both balances moved by exactly k payments.
fn check(snap: &LedgerSnapshot, alice: &Account, bob: &Account, base: (i64, i64, u32)) -> u32 {
    let s = sf();
    let a = snap.view.read(&keylet::account(&alice.id)).expect("alice");
    let b = snap.view.read(&keylet::account(&bob.id)).expect("bob");
    let k = a.u32_of(s.sequence).unwrap() - base.2;
    assert_eq!(
        a.drops_of(s.balance),
        base.0 - k as i64 * (PAY_DROPS + FEE_DROPS)
    );
    assert_eq!(b.drops_of(s.balance), base.1 + k as i64 * PAY_DROPS);
    k
}

#[test]
fn snapshots_are_consistent_under_writes() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, xrp(10_000));
    env.fund(&bob, xrp(10_000));
    env.close();
    let base = (env.balance(&alice), env.balance(&bob), env.seq(&alice));
    let store: Arc<Ledgers> = Arc::new(std::mem::replace(
        &mut env.store,
        Ledgers::genesis(Default::default(), START_TIME),
    ));
    let done = Arc::new(AtomicBool::new(false));
    let mut readers = Vec::new();
    for _ in 0..2 {
        let (store, done) = (store.clone(), done.clone());
        let (alice, bob) = (Account::new("alice"), Account::new("bob"));
        readers.push(thread::spawn(move || {
            let mut seen = 0u32;
            let mut last_closed = 0u32;
            while !done.load(Ordering::Acquire) {
                let k = check(&store.current(), &alice, &bob, base);
                assert!(k >= seen, "the open ledger only moves forward");
                seen = k;
                let closed = store.closed();
                let kc = check(&closed, &alice, &bob, base);
                assert!(kc <= seen + 1000);
                let seq = closed.seq();
                assert!(seq >= last_closed);
                last_closed = seq;
                // A closed snapshot read twice gives the same answer.
                assert_eq!(check(&closed, &alice, &bob, base), kc);
            }
            seen
        }));
    }
    let mut now = START_TIME + 100;
    for i in 0..600u32 {
        let o = pay(&bob, drops(PAY_DROPS)).signed(&alice.id, base.2 + i, FEE_DROPS, &alice.kp);
        let r = store.apply_blob(&codec::encode(&o)).expect("decodes");
        assert_eq!(r.ter, Ter::tesSUCCESS);
        if i % 50 == 49 {
            now += 10;
            store.close(now);
        }
    }
    done.store(true, Ordering::Release);
    for r in readers {
        let seen = r.join().expect("reader");
        assert!(seen <= 600);
    }
    assert_eq!(check(&store.current(), &alice, &bob, base), 600);
    assert_eq!(check(&store.closed(), &alice, &bob, base), 600);
    // Every closed ledger still in history shows its own state.
    for seq in store.complete_range().0..=store.complete_range().1 {
        let snap = store.by_seq(seq).unwrap();
        if snap.view.read(&keylet::account(&bob.id)).is_some() && seq >= 4 {
            let k = check(&snap, &alice, &bob, base);
            assert_eq!(
                k as usize % 50,
                0,
                "ledger {seq} closed after a multiple of 50"
            );
        }
    }
}
