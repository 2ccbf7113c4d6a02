//! The queue's core against rippled's `TxQ_test` (src/test/app/TxQ_test.cpp, develop):
//! each test names the rippled test it follows. Where the rippled test needs a ledger
//! (funding, signing, preclaim), the facts it would read are given here, and the numbers
//! are those rippled's formulas give for the test's configuration.

use super::*;
use crate::engine::Ter;
use crate::protocol::types::{AccountId, Hash256};
use proptest::prelude::*;

const BASE_FEE: u64 = 10;

fn account(n: u8) -> AccountId {
    AccountId([n; 20])
}

fn tx(owner: u8, seq: u32, fee_drops: u64) -> Candidate {
    let mut id = [0u8; 32];
    id[0] = owner;
    id[1..5].copy_from_slice(&seq.to_be_bytes());
    id[31] = (fee_drops % 251) as u8;
    Candidate {
        account: account(owner),
        seq_proxy: SeqProxy::Sequence(seq),
        sequences_consumed: 1,
        fee_drops,
        fee_level: to_fee_level(fee_drops, BASE_FEE),
        last_ledger_seq: None,
        blocker: false,
        potential_spend_drops: 0,
        id: Hash256(id),
    }
}

fn sub(tx: Candidate) -> Submission {
    Submission {
        tx,
        fail_hard: false,
        dry_run: false,
        names_prior_txn: false,
    }
}

fn rich(sequence: u32) -> AccountFacts {
    AccountFacts {
        sequence,
        balance_drops: 50_000_000_000,
        ticket_exists: true,
    }
}

fn open(tx_count: u64) -> OpenFacts {
    OpenFacts {
        seq: 5,
        tx_count,
        base_fee_drops: BASE_FEE,
        reserve_drops: 200_000_000,
    }
}

/// rippled's `makeConfig({{"minimum_txn_in_ledger_standalone", "3"}})`.
fn setup3() -> TxQSetup {
    TxQSetup {
        minimum_txn_in_ledger_standalone: 3,
        ..TxQSetup::default()
    }
}

/// Submit as `TxQ::apply` does after `tryDirectApply` declined: admit, (preclaim passes),
/// hold.
fn queue_it(
    q: &mut TxQueue,
    t: Candidate,
    facts: &AccountFacts,
    open: &OpenFacts,
) -> Result<(), Ter> {
    let s = sub(t);
    let admission = q.admit(&s, Some(facts), open)?;
    q.hold(&s, &admission, facts, open)
}

/// `testQueue` (setup3): 3 expected; 4 in the open ledger makes the 5th pay
/// 128000 * 4^2 / 3^2 = level 227555, 8889 drops at a 10-drop base (the test's
/// `openLedgerFee`); at or below 3 the base level.
#[test]
fn escalated_level_of_test_queue() {
    let metrics = FeeMetrics::new(&setup3());
    let snap = metrics.snapshot();
    assert_eq!(
        snap,
        MetricsSnapshot {
            txns_expected: 3,
            escalation_multiplier: 128_000
        }
    );
    assert_eq!(scale_fee_level(snap, 3), BASE_LEVEL);
    assert_eq!(scale_fee_level(snap, 4), 227_555);
    assert_eq!(to_drops_at_least(scale_fee_level(snap, 4), BASE_FEE), 8889);
    let four = MetricsSnapshot {
        txns_expected: 4,
        ..snap
    };
    assert_eq!(scale_fee_level(four, 5), 200_000);
}

/// `testQueue`'s closes: a 4-transaction ledger over 3 expected grows it by 20% (to 4);
/// an 8-transaction ledger to 9; a quiet ledger keeps it; the multiplier is the median
/// level, at least 128000.
#[test]
fn expected_size_grows_with_busy_closes() {
    let setup = setup3();
    let mut m = FeeMetrics::new(&setup);
    assert_eq!(m.update(&[256; 4], false, &setup), 4);
    assert_eq!(
        m.snapshot(),
        MetricsSnapshot {
            txns_expected: 4,
            escalation_multiplier: 128_000
        }
    );
    m.update(&[256; 8], false, &setup);
    assert_eq!(m.snapshot().txns_expected, 9);
    m.update(&[], false, &setup);
    assert_eq!(m.snapshot().txns_expected, 9);
    m.update(&[300_000, 200_000, 256], false, &setup);
    assert_eq!(m.snapshot().escalation_multiplier, 200_000);
    m.update(&[300_000, 200_001, 200_000, 256], false, &setup);
    assert_eq!(
        m.snapshot().escalation_multiplier,
        200_001,
        "even count: mean of the middle two, rounded up"
    );
}

/// `testScaling`'s shrink: after a burst, a close over the target but below the
/// expectation moves it a tenth of the way down (a quiet one leaves it); the standalone
/// and network minimums.
#[test]
fn expected_size_shrinks_slowly() {
    let setup = TxQSetup {
        ledgers_in_queue: 1,
        target_txn_in_ledger: 3,
        ..setup3()
    };
    let mut m = FeeMetrics::new(&setup);
    m.update(&[256; 100], false, &setup);
    assert_eq!(m.snapshot().txns_expected, 120);
    m.update(&[256; 10], false, &setup);
    assert_eq!(m.snapshot().txns_expected, (120 * 9 + 12) / 10);
    let network = TxQSetup {
        standalone: false,
        ..TxQSetup::default()
    };
    assert_eq!(FeeMetrics::new(&network).snapshot().txns_expected, 32);
    assert_eq!(
        FeeMetrics::new(&TxQSetup::default())
            .snapshot()
            .txns_expected,
        1000
    );
}

/// `testScaling`: a slow close halves the expectation (never below the minimum) and
/// `maximum_txn_in_ledger` caps growth.
#[test]
fn slow_close_cuts_and_maximum_caps() {
    let setup = TxQSetup {
        maximum_txn_in_ledger: Some(50),
        target_txn_in_ledger: 10,
        ..setup3()
    };
    let mut m = FeeMetrics::new(&setup);
    m.update(&[256; 100], false, &setup);
    assert_eq!(m.snapshot().txns_expected, 50);
    m.update(&[256; 40], true, &setup);
    assert_eq!(m.snapshot().txns_expected, 20);
    m.update(&[256; 2], true, &setup);
    assert_eq!(m.snapshot().txns_expected, 3);
}

/// `escalatedSeriesFeeLevel` is the sum of `scaleFeeLevel`'s terms (within the
/// rounding of one division), and overflows from 2^21 transactions.
#[test]
fn series_level_sums_the_terms() {
    let snap = MetricsSnapshot {
        txns_expected: 3,
        escalation_multiplier: 128_000,
    };
    let series = escalated_series_fee_level(snap, 4, 3).unwrap();
    assert_eq!(series, 128_000 * (16 + 25 + 36) / 9);
    let terms: u64 = (4..7).map(|n| scale_fee_level(snap, n)).sum();
    assert!(series >= terms && series - terms < 3);
    assert_eq!(escalated_series_fee_level(snap, 1 << 21, 1), None);
}

/// `testQueue`: below the open ledger's level a transaction is queued (`terQUEUED`);
/// paying the level applies it directly; a later Sequence never applies directly.
#[test]
fn queued_below_the_open_ledger_level() {
    let mut q = TxQueue::new(setup3());
    assert!(q.direct_apply_allowed(&tx(1, 1, 10), 1, 3));
    assert!(!q.direct_apply_allowed(&tx(1, 1, 10), 1, 4));
    assert!(q.direct_apply_allowed(&tx(1, 1, 8889), 1, 4));
    assert!(!q.direct_apply_allowed(&tx(1, 1, 8888), 1, 4));
    assert!(!q.direct_apply_allowed(&tx(1, 2, 1_000_000), 1, 0));
    queue_it(&mut q, tx(1, 1, 10), &rich(1), &open(4)).unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q.account_txs(&account(1)).count(), 1);
    assert_eq!(q.max_size(), None, "no limit before the first close");
}

/// `testLocalTxRetry` / `testQueueSeq`: sequences must follow the queued run:
/// a gap is telCAN_NOT_QUEUE, a first one ahead terPRE_SEQ, behind tefPAST_SEQ.
#[test]
fn sequence_rules() {
    let mut q = TxQueue::new(setup3());
    let facts = rich(5);
    assert_eq!(
        queue_it(&mut q, tx(1, 6, 10), &facts, &open(4)),
        Err(Ter::terPRE_SEQ)
    );
    assert_eq!(
        queue_it(&mut q, tx(1, 4, 10), &facts, &open(4)),
        Err(Ter::tefPAST_SEQ)
    );
    queue_it(&mut q, tx(1, 5, 10), &facts, &open(4)).unwrap();
    queue_it(&mut q, tx(1, 6, 10), &facts, &open(4)).unwrap();
    assert_eq!(q.next_queuable_seq(&account(1), 5), SeqProxy::Sequence(7));
    assert_eq!(
        queue_it(&mut q, tx(1, 8, 10), &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE)
    );
    assert_eq!(
        queue_it(&mut q, tx(1, 4, 10), &facts, &open(4)),
        Err(Ter::tefPAST_SEQ)
    );
    assert_eq!(q.len(), 2);
}

/// `testTicketsQueue`: a ticket not yet in the ledger is terPRE_TICKET, one that should
/// already be there tefNO_TICKET; one in the ledger queues.
#[test]
fn ticket_rules() {
    let mut q = TxQueue::new(setup3());
    let mut ticketed = tx(1, 9, 10);
    ticketed.seq_proxy = SeqProxy::Ticket(9);
    ticketed.sequences_consumed = 0;
    let missing = AccountFacts {
        ticket_exists: false,
        ..rich(5)
    };
    let s = sub(ticketed.clone());
    assert_eq!(
        q.admit(&s, Some(&missing), &open(4)),
        Err(Ter::terPRE_TICKET)
    );
    let old = AccountFacts {
        ticket_exists: false,
        ..rich(12)
    };
    assert_eq!(q.admit(&s, Some(&old), &open(4)), Err(Ter::tefNO_TICKET));
    queue_it(&mut q, ticketed, &rich(5), &open(4)).unwrap();
    assert_eq!(q.admit(&s, None, &open(4)), Err(Ter::terNO_ACCOUNT));
}

/// `testAcctTxnID`, `testFailHard` and `testLastLedgerSeq`: AccountTxnID, fail_hard, a
/// dry run, and a LastLedgerSequence inside the buffer are telCAN_NOT_QUEUE.
#[test]
fn cannot_queue() {
    let mut q = TxQueue::new(setup3());
    let o = open(4);
    let refused = |s: Submission| {
        let q = TxQueue::new(setup3());
        let admission = q.admit(&s, Some(&rich(1)), &o);
        let mut q2 = q.clone();
        admission.and_then(|a| q2.hold(&s, &a, &rich(1), &o))
    };
    let can_not = Err(Ter::telCAN_NOT_QUEUE);
    assert_eq!(
        refused(Submission {
            names_prior_txn: true,
            ..sub(tx(1, 1, 10))
        }),
        can_not
    );
    assert_eq!(
        refused(Submission {
            fail_hard: true,
            ..sub(tx(1, 1, 10))
        }),
        can_not
    );
    assert_eq!(
        refused(Submission {
            dry_run: true,
            ..sub(tx(1, 1, 10))
        }),
        can_not
    );
    let short = Candidate {
        last_ledger_seq: Some(6),
        ..tx(1, 1, 10)
    };
    assert_eq!(refused(sub(short)), can_not);
    let enough = Candidate {
        last_ledger_seq: Some(7),
        ..tx(1, 1, 10)
    };
    queue_it(&mut q, enough, &rich(1), &o).unwrap();
}

/// `testTieBreaking` / `testBlockers` replacement: a queued transaction is replaced only
/// by one paying more than 125% of its level (level 256 -> more than 320).
#[test]
fn replacement_threshold() {
    let mut q = TxQueue::new(setup3());
    let facts = rich(1);
    queue_it(&mut q, tx(1, 1, 10), &facts, &open(4)).unwrap();
    queue_it(&mut q, tx(1, 2, 10), &facts, &open(4)).unwrap();
    assert_eq!(to_fee_level(12, BASE_FEE), 307);
    assert_eq!(to_fee_level(13, BASE_FEE), 332);
    let at_320 = Candidate {
        fee_level: 320,
        ..tx(1, 1, 12)
    };
    assert_eq!(
        queue_it(&mut q, at_320, &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_FEE)
    );
    let at_321 = Candidate {
        fee_level: 321,
        ..tx(1, 1, 13)
    };
    queue_it(&mut q, at_321, &facts, &open(4)).unwrap();
    let levels: Vec<u64> = q.account_txs(&account(1)).map(|t| t.tx.fee_level).collect();
    assert_eq!(levels, vec![321, 256]);
    assert_eq!(q.len(), 2);
}

/// `testBlockers`: a blocker may only be alone in its account's queue (BLOCKS), and
/// keeps others out (BLOCKED) except its own replacement.
#[test]
fn blockers() {
    let mut q = TxQueue::new(setup3());
    let facts = rich(1);
    queue_it(&mut q, tx(1, 1, 10), &facts, &open(4)).unwrap();
    let blocker = Candidate {
        blocker: true,
        ..tx(1, 2, 10)
    };
    assert_eq!(
        queue_it(&mut q, blocker, &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_BLOCKS)
    );
    let replacing = Candidate {
        blocker: true,
        ..tx(1, 1, 20)
    };
    queue_it(&mut q, replacing, &facts, &open(4)).unwrap();
    assert_eq!(
        queue_it(&mut q, tx(1, 2, 10), &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_BLOCKED)
    );
    let plain_again = tx(1, 1, 100);
    queue_it(&mut q, plain_again, &facts, &open(4)).unwrap();
    queue_it(&mut q, tx(1, 2, 10), &facts, &open(4)).unwrap();
}

/// `testMaximum` / `testAcctInQueueButEmpty`: `maximum_txn_per_account` queued, the next
/// is telCAN_NOT_QUEUE_FULL.
#[test]
fn per_account_limit() {
    let setup = TxQSetup {
        maximum_txn_per_account: 4,
        ..setup3()
    };
    let mut q = TxQueue::new(setup);
    let facts = rich(1);
    for seq in 1..=4 {
        queue_it(&mut q, tx(1, seq, 10), &facts, &open(4)).unwrap();
    }
    assert_eq!(
        queue_it(&mut q, tx(1, 5, 10), &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_FULL)
    );
    queue_it(&mut q, tx(2, 1, 10), &rich(1), &open(4)).unwrap();
}

/// `testConsequences` / `testSpendBalance`: the fees in flight reaching the reserve
/// (200 XRP, over 10 base fees) or the balance are telCAN_NOT_QUEUE_BALANCE; the trial
/// account is the balance less fees and spend.
#[test]
fn balance_in_flight() {
    let mut q = TxQueue::new(setup3());
    let facts = rich(1);
    let big = Candidate {
        fee_drops: 199_999_999,
        potential_spend_drops: 1_000_000,
        ..tx(1, 1, 10)
    };
    queue_it(&mut q, big, &facts, &open(4)).unwrap();
    let s = sub(tx(1, 2, 10));
    let admission = q.admit(&s, Some(&facts), &open(4)).unwrap();
    let trial = admission.trial.unwrap();
    assert_eq!(
        trial.balance_drops,
        50_000_000_000 - 199_999_999 - 1_000_000
    );
    assert_eq!(trial.sequence, 2);
    let over = Candidate {
        fee_drops: 200_000_000,
        ..tx(1, 2, 10)
    };
    queue_it(&mut q, tx(1, 2, 10), &facts, &open(4)).unwrap();
    assert_eq!(
        q.admit(
            &sub(Candidate {
                seq_proxy: SeqProxy::Sequence(3),
                ..over
            }),
            Some(&facts),
            &open(4)
        ),
        Err(Ter::telCAN_NOT_QUEUE_BALANCE)
    );
    let poor = AccountFacts {
        balance_drops: 100,
        ..facts
    };
    let mut q2 = TxQueue::new(setup3());
    queue_it(&mut q2, tx(1, 1, 100), &poor, &open(4)).unwrap();
    assert_eq!(
        q2.admit(&sub(tx(1, 2, 10)), Some(&poor), &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_BALANCE)
    );
}

/// A queue whose limit is `size` after one close (`ledgers_in_queue` 1, minimum `size`).
fn small_queue(size: u64) -> TxQueue {
    let setup = TxQSetup {
        ledgers_in_queue: 1,
        minimum_queue_size: size,
        ..setup3()
    };
    let mut q = TxQueue::new(setup);
    q.process_closed_ledger(&[], 3, false);
    q
}

/// `testFullQueue` (`testQueueFull`): at its limit the queue takes a transaction paying
/// more than the cheapest other account's average and drops that account's last one;
/// otherwise telCAN_NOT_QUEUE_FULL. `minimum_level` is then one over the cheapest.
#[test]
fn full_queue_evicts_the_cheapest() {
    let mut q = small_queue(3);
    assert_eq!(q.max_size(), Some(3));
    queue_it(&mut q, tx(1, 1, 10), &rich(1), &open(4)).unwrap();
    queue_it(&mut q, tx(1, 2, 30), &rich(1), &open(4)).unwrap();
    queue_it(&mut q, tx(2, 1, 20), &rich(1), &open(4)).unwrap();
    assert!(q.is_full());
    assert_eq!(q.minimum_level(), 257);
    // Account 1's average is (256 + 768) / 2 = 512: 20 drops (512) is not more.
    assert_eq!(
        queue_it(&mut q, tx(3, 1, 20), &rich(1), &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_FULL)
    );
    queue_it(&mut q, tx(3, 1, 21), &rich(1), &open(4)).unwrap();
    assert_eq!(q.len(), 3);
    let left: Vec<(u8, u32)> = q
        .txs_by_fee()
        .map(|t| (t.tx.account.0[0], t.tx.seq_proxy.value()))
        .collect();
    assert_eq!(
        left,
        vec![(3, 1), (2, 1), (1, 1)],
        "account 1's last (seq 2) went"
    );
    let mut alone = small_queue(3);
    fill(&mut alone, 1, 3, 10);
    assert_eq!(
        queue_it(&mut alone, tx(1, 4, 1000), &rich(1), &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_FULL),
        "only its own account to evict"
    );
}

/// `testLastLedgerSeq` / `testExpirationReplacement`: at close, transactions whose
/// LastLedgerSequence is the closed ledger's or earlier leave; the queue's limit is
/// `ledgers_in_queue` times the expected size, at least `minimum_queue_size`, and a
/// slow close leaves it.
#[test]
fn close_expires_and_resizes() {
    let setup = TxQSetup {
        ledgers_in_queue: 2,
        minimum_queue_size: 5,
        ..setup3()
    };
    let mut q = TxQueue::new(setup);
    let o = open(4);
    queue_it(
        &mut q,
        Candidate {
            last_ledger_seq: Some(7),
            ..tx(1, 1, 10)
        },
        &rich(1),
        &o,
    )
    .unwrap();
    queue_it(
        &mut q,
        Candidate {
            last_ledger_seq: Some(8),
            ..tx(2, 1, 10)
        },
        &rich(1),
        &o,
    )
    .unwrap();
    q.process_closed_ledger(&[256; 4], 6, false);
    assert_eq!((q.len(), q.max_size()), (2, Some(8)));
    q.process_closed_ledger(&[], 7, true);
    assert_eq!((q.len(), q.max_size()), (1, Some(8)));
    q.process_closed_ledger(&[], 8, false);
    // The slow close cut the expectation to the minimum 3: the limit is max(2 * 3, 5).
    assert_eq!((q.len(), q.max_size()), (0, Some(6)));
    assert!(q.is_empty());
}

/// `testQueueSeq`'s "fee averaging": a transaction paying enough for itself and the
/// account's queued ones ahead of it at the escalated levels clears them together.
#[test]
fn clear_plan_when_the_fee_pays_the_run() {
    let mut q = TxQueue::new(setup3());
    let facts = rich(1);
    queue_it(&mut q, tx(1, 1, 10), &facts, &open(4)).unwrap();
    queue_it(&mut q, tx(1, 2, 10), &facts, &open(4)).unwrap();
    let snap = q.snapshot();
    let need = escalated_series_fee_level(snap, 4, 3).unwrap() - 2 * 256;
    let pays = |level: u64| {
        sub(Candidate {
            fee_level: level,
            ..tx(1, 3, 10)
        })
    };
    let enough = pays(need);
    let admission = q.admit(&enough, Some(&facts), &open(4)).unwrap();
    let plan = q.clear_plan(&enough, &admission, 1, 4).unwrap();
    assert_eq!(plan, vec![SeqProxy::Sequence(1), SeqProxy::Sequence(2)]);
    let short = pays(need - 1);
    assert_eq!(q.clear_plan(&short, &admission, 1, 4), None);
    assert_eq!(
        q.clear_plan(&enough, &admission, 1, 3),
        None,
        "no escalation: just queue"
    );
    q.cleared(&account(1), &plan, Some(SeqProxy::Sequence(3)));
    assert!(q.is_empty());
}

/// Queue `count` transactions of `owner` from Sequence 1 at `fee_drops`.
fn fill(q: &mut TxQueue, owner: u8, count: u32, fee_drops: u64) {
    for seq in 1..=count {
        queue_it(q, tx(owner, seq, fee_drops), &rich(1), &open(4)).unwrap();
    }
}

/// Drain into an open ledger holding `open_count`; the (account, Sequence) applied.
fn drain_all(q: &mut TxQueue, open_count: u64) -> Vec<(u8, u32)> {
    let mut applied = Vec::new();
    q.drain(open_count, Hash256::default(), |queued| {
        applied.push((queued.tx.account.0[0], queued.tx.seq_proxy.value()));
        (Ter::tesSUCCESS, true)
    });
    applied
}

/// `testQueue`'s closes: into a new open ledger the queue applies by fee level while the
/// level beats the escalated requirement, each account's in Sequence order. With 3
/// expected and 1 in the ledger, three base-level ones fit and the next waits; past the
/// expectation 9000 drops (level 230400) beat 227555 and 8888 (227532) do not.
#[test]
fn drain_by_fee_in_sequence_order() {
    let mut q = TxQueue::new(setup3());
    fill(&mut q, 1, 3, 10);
    queue_it(&mut q, tx(2, 1, 20), &rich(1), &open(4)).unwrap();
    assert_eq!(drain_all(&mut q, 1), vec![(2, 1), (1, 1), (1, 2)]);
    assert_eq!(
        q.account_txs(&account(1))
            .map(|t| t.tx.seq_proxy.value())
            .collect::<Vec<_>>(),
        vec![3]
    );
    queue_it(&mut q, tx(3, 1, 9000), &rich(1), &open(4)).unwrap();
    queue_it(&mut q, tx(4, 1, 8888), &rich(1), &open(4)).unwrap();
    assert_eq!(drain_all(&mut q, 4), vec![(3, 1)]);
    assert_eq!(q.len(), 2);
    assert_eq!(drain_all(&mut q, 0), vec![(4, 1), (1, 3)]);
    assert!(q.is_empty());
}

/// `testRetriesWhenFailedTx` / `testClearQueuedAccountTxs`: a tef or tem drops a queued
/// transaction; a ter result keeps it with one retry fewer until none are left.
#[test]
fn drain_failures_and_retries() {
    let mut q = TxQueue::new(setup3());
    fill(&mut q, 1, 1, 10);
    queue_it(&mut q, tx(2, 1, 20), &rich(1), &open(4)).unwrap();
    q.drain(0, Hash256::default(), |queued| {
        match queued.tx.account.0[0] {
            1 => (Ter::terINSUF_FEE_B, false),
            _ => (Ter::tefBAD_AUTH, false),
        }
    });
    let left: Vec<_> = q
        .txs_by_fee()
        .map(|t| (t.tx.account.0[0], t.retries_remaining, t.last_result))
        .collect();
    assert_eq!(
        left,
        vec![(1, RETRIES_ALLOWED - 1, Some(Ter::terINSUF_FEE_B))]
    );
    for _ in 0..RETRIES_ALLOWED - 1 {
        q.drain(0, Hash256::default(), |_| (Ter::terINSUF_FEE_B, false));
    }
    assert_eq!(q.len(), 1);
    q.drain(0, Hash256::default(), |_| (Ter::terINSUF_FEE_B, false));
    assert!(q.is_empty(), "no retries left");
}

/// `testTieBreaking`: equal fee levels are ordered by id XOR the parent hash, so a new
/// parent reorders them.
#[test]
fn ties_follow_the_parent_hash() {
    let mut q = TxQueue::new(setup3());
    queue_it(&mut q, tx(1, 1, 10), &rich(1), &open(4)).unwrap();
    queue_it(&mut q, tx(2, 1, 10), &rich(1), &open(4)).unwrap();
    let order = |q: &TxQueue| {
        q.txs_by_fee()
            .map(|t| t.tx.account.0[0])
            .collect::<Vec<_>>()
    };
    assert_eq!(order(&q), vec![1, 2]);
    q.drain(0, Hash256([3; 32]), |_| (Ter::terINSUF_FEE_B, false));
    assert_eq!(order(&q), vec![2, 1], "1^3 = 2 > 2^3 = 1");
}

/// The codes' names and numbers (rippled TER.h).
#[test]
fn queue_codes() {
    assert_eq!(Ter::telCAN_NOT_QUEUE_FULL.code(), -387);
    assert_eq!(
        Ter::telCAN_NOT_QUEUE_BALANCE.name(),
        "telCAN_NOT_QUEUE_BALANCE"
    );
    assert_eq!(Ter::terQUEUED.code(), -89);
}

/// A random submission: owner 1..=4, Sequence 1..=14, fee 10..=400 drops.
fn arb_submission() -> impl Strategy<Value = (u8, u32, u64)> {
    (1u8..=4, 1u32..=14, 10u64..=400)
}

proptest! {
    /// The queue never holds more than its limit, nor an account more than its share.
    #[test]
    fn queue_within_limits(subs in proptest::collection::vec(arb_submission(), 1..80)) {
        let setup = TxQSetup { ledgers_in_queue: 1, minimum_queue_size: 12, maximum_txn_per_account: 5, ..setup3() };
        let mut q = TxQueue::new(setup);
        q.process_closed_ledger(&[], 3, false);
        for (owner, seq, fee) in subs {
            let _ = queue_it(&mut q, tx(owner, seq, fee), &rich(1), &open(4));
            prop_assert!(q.len() as u64 <= 12);
            for owner in 1..=4 {
                prop_assert!(q.account_txs(&account(owner)).count() <= 5);
            }
        }
    }

    /// Fee levels and the escalated level are monotone.
    #[test]
    fn levels_monotone(fee in 0u64..1_000_000_000, count in 0u64..5_000, expected in 1u64..2_000) {
        prop_assert!(to_fee_level(fee, BASE_FEE) <= to_fee_level(fee + 1, BASE_FEE));
        let snap = MetricsSnapshot { txns_expected: expected, escalation_multiplier: 128_000 };
        prop_assert!(scale_fee_level(snap, count) <= scale_fee_level(snap, count + 1));
        prop_assert!(scale_fee_level(snap, count) >= BASE_LEVEL);
        prop_assert!(to_fee_level(to_drops_at_least(scale_fee_level(snap, count), BASE_FEE), BASE_FEE) >= scale_fee_level(snap, count));
    }

    /// The drain never applies an account's Sequence-based transactions out of order.
    #[test]
    fn drain_in_sequence(subs in proptest::collection::vec(arb_submission(), 1..60), fails in proptest::collection::vec(any::<bool>(), 60)) {
        let mut q = TxQueue::new(setup3());
        for (owner, seq, fee) in subs {
            let _ = queue_it(&mut q, tx(owner, seq, fee * 100), &rich(1), &open(4));
        }
        let mut last = std::collections::BTreeMap::new();
        let mut tries = 0;
        q.drain(0, Hash256::default(), |queued| {
            let seq = queued.tx.seq_proxy.value();
            let previous = last.insert(queued.tx.account, seq).unwrap_or(0);
            assert!(seq >= previous, "{seq} after {previous}");
            tries += 1;
            if fails[tries % fails.len()] { (Ter::terINSUF_FEE_B, false) } else { (Ter::tesSUCCESS, true) }
        });
    }
}

/// `testRPC` / `testQueue`'s `fee` figures: 4 in a 3-expected open ledger, before any
/// close: open ledger level 227555 (8889 drops), median 128000 (5000 drops), minimum the
/// base level; after a close the queue's limit, and a full queue's minimum one level over
/// its cheapest.
#[test]
fn fee_report_figures() {
    let mut q = TxQueue::new(setup3());
    let report = q.fee_report(4, BASE_FEE);
    assert_eq!(
        report,
        FeeReport {
            current_ledger_size: 4,
            current_queue_size: 0,
            expected_ledger_size: 3,
            max_queue_size: None,
            reference_level: 256,
            minimum_level: 256,
            median_level: 128_000,
            open_ledger_level: 227_555,
            base_fee: 10,
            median_fee: 5000,
            minimum_fee: 10,
            open_ledger_fee: 8889,
        }
    );
    let mut full = small_queue(3);
    fill(&mut full, 1, 3, 20);
    let report = full.fee_report(0, BASE_FEE);
    assert_eq!(
        (
            report.max_queue_size,
            report.minimum_level,
            report.minimum_fee
        ),
        (Some(3), 513, 20)
    );
    assert_eq!(
        (report.open_ledger_level, report.open_ledger_fee),
        (256, 10)
    );
    assert_eq!(
        q.fee_report(4, 0).open_ledger_fee,
        889,
        "a zero base fee counts as 1 drop once escalated"
    );
    q.process_closed_ledger(&[], 3, false);
    assert_eq!(q.fee_report(0, BASE_FEE).max_queue_size, Some(2000));
}

/// A ledger story over the queue alone: the open ledger's fee levels, the accounts'
/// Sequences, and the facts `TxQ::apply` would read.
struct Story {
    q: TxQueue,
    open_levels: Vec<u64>,
    sequences: std::collections::BTreeMap<u8, u32>,
    closed_seq: u32,
}

#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Applied,
    Queued,
}

impl Story {
    /// rippled's TxQ_test `makeConfig` (develop): `ledgers_in_queue` 2,
    /// `minimum_queue_size` 2, `normal_consensus_increase_percent` 0.
    fn new(minimum_txn_in_ledger_standalone: u64) -> Story {
        let setup = TxQSetup {
            ledgers_in_queue: 2,
            minimum_queue_size: 2,
            normal_consensus_increase_percent: 0,
            minimum_txn_in_ledger_standalone,
            ..TxQSetup::default()
        };
        let q = TxQueue::new(setup);
        Story {
            q,
            open_levels: Vec::new(),
            sequences: Default::default(),
            closed_seq: 2,
        }
    }

    /// The master funds `count` accounts at the base fee (`env.fund`).
    fn fund(&mut self, count: usize) {
        self.open_levels
            .extend(std::iter::repeat_n(BASE_LEVEL, count));
    }

    /// A noop of `owner` with its ledger Sequence paying `fee_drops` (`env(noop(..))`).
    fn noop(&mut self, owner: u8, fee_drops: u64) -> Result<Outcome, Ter> {
        let sequence = *self.sequences.entry(owner).or_insert(1);
        let t = tx(owner, sequence, fee_drops);
        let count = self.open_levels.len() as u64;
        if self.q.direct_apply_allowed(&t, sequence, count) {
            self.q.applied_directly(&t);
            self.open_levels.push(t.fee_level);
            self.sequences.insert(owner, sequence + 1);
            return Ok(Outcome::Applied);
        }
        let s = sub(t);
        let facts = rich(sequence);
        let o = OpenFacts {
            seq: self.closed_seq + 1,
            tx_count: count,
            ..open(count)
        };
        let admission = self.q.admit(&s, Some(&facts), &o)?;
        self.q.hold(&s, &admission, &facts, &o)?;
        Ok(Outcome::Queued)
    }

    /// `env.close()` (a time leap when `slow`): the queue learns from the closed ledger
    /// and drains into the next.
    fn close(&mut self, slow: bool) {
        self.closed_seq += 1;
        self.q
            .process_closed_ledger(&self.open_levels, self.closed_seq, slow);
        let (levels, sequences) = (&mut self.open_levels, &mut self.sequences);
        levels.clear();
        self.q
            .drain(0, Hash256([self.closed_seq as u8; 32]), |queued| {
                levels.push(queued.tx.fee_level);
                sequences.insert(queued.tx.account.0[0], queued.tx.seq_proxy.value() + 1);
                (Ter::tesSUCCESS, true)
            });
    }

    /// rippled's `checkMetrics`: queued, limit, in the open ledger, expected, minimum
    /// level, median level.
    fn metrics(&self) -> (usize, Option<u64>, usize, u64, u64, u64) {
        let r = self.q.fee_report(self.open_levels.len() as u64, BASE_FEE);
        let min = r.minimum_level;
        (
            self.q.len(),
            r.max_queue_size,
            self.open_levels.len(),
            r.expected_ledger_size,
            min,
            r.median_level,
        )
    }

    /// rippled's `openLedgerFee(env)`: the escalated level's drops, plus one.
    fn open_ledger_fee(&self) -> u64 {
        let level = self
            .q
            .fee_report(self.open_levels.len() as u64, BASE_FEE)
            .open_ledger_level;
        to_drops(level, BASE_FEE) + 1
    }
}

const MEDIAN: u64 = 128_000;
const ALICE: u8 = 1;
const BOB: u8 = 2;
const CHARLIE: u8 = 3;
const DARIA: u8 = 4;
const ELMO: u8 = 5;
const FRED: u8 = 6;
const GWEN: u8 = 7;
const HANK: u8 = 8;

/// TxQ_test `testQueue`, its first half with its numbers: 3 expected; the held
/// transactions apply at close; the expected size follows the closed ledgers (5, 6, 8);
/// a replacement must pay over 125% (develop answers telCAN_NOT_QUEUE_FEE where the
/// 2017 test read telINSUF_FEE_P); a time leap cuts the expectation to the minimum.
#[test]
fn test_queue_story_first_half() {
    use Outcome::{Applied, Queued};
    let mut s = Story::new(3);
    assert_eq!(s.metrics(), (0, None, 0, 3, 256, MEDIAN));
    s.fund(4);
    assert_eq!(s.noop(ALICE, 10), Ok(Queued));
    assert_eq!(s.open_ledger_fee(), 8889);
    assert_eq!(s.noop(BOB, s.open_ledger_fee()), Ok(Applied));
    assert_eq!(s.noop(DARIA, 1000), Ok(Queued));
    assert_eq!(s.metrics(), (2, None, 5, 3, 256, MEDIAN));
    s.close(false);
    assert_eq!(s.metrics(), (0, Some(10), 2, 5, 256, MEDIAN));
    s.fund(4);
    for (who, fee) in [
        (ALICE, 12),
        (BOB, 10),
        (CHARLIE, 20),
        (DARIA, 15),
        (ELMO, 11),
        (FRED, 19),
        (GWEN, 16),
        (HANK, 18),
    ] {
        assert_eq!(s.noop(who, fee), Ok(Queued));
    }
    assert_eq!(s.metrics(), (8, Some(10), 6, 5, 256, MEDIAN));
    s.close(false);
    assert_eq!(
        s.metrics(),
        (1, Some(12), 7, 6, 256, MEDIAN),
        "bob's is still stuck"
    );
    assert_eq!(s.noop(HANK, 10), Ok(Queued));
    assert_eq!(s.noop(HANK, 11), Err(Ter::telCAN_NOT_QUEUE_FEE));
    assert_eq!(s.noop(HANK, 6000), Ok(Queued));
    assert_eq!(s.metrics(), (2, Some(12), 7, 6, 256, MEDIAN));
    assert_eq!(s.noop(HANK, s.open_ledger_fee()), Ok(Applied));
    assert_eq!(s.metrics(), (1, Some(12), 8, 6, 256, MEDIAN));
    assert_eq!(s.noop(HANK, 6000), Ok(Queued));
    s.close(false);
    assert_eq!(s.metrics(), (0, Some(16), 2, 8, 256, MEDIAN));
    s.close(true);
    assert_eq!(s.metrics(), (0, Some(16), 0, 3, 256, MEDIAN));
    s.close(false);
    assert_eq!(s.metrics(), (0, Some(6), 0, 3, 256, MEDIAN));
}

/// TxQ_test `testQueue`, its second half: a full queue (6) refuses a base-fee
/// transaction (develop: telCAN_NOT_QUEUE_FULL; the 2017 test: telINSUF_FEE_P), takes a
/// 100-drop one and drops the cheapest (minimum level 385, then 410); the next close's
/// median is 256 * 700. It starts where the first half ends (3 expected, a limit of 6).
/// rippled's test then counts daria's dropped transaction back from its local
/// transactions, which are the caller's, not the queue's: 1 queued here (2 there), and
/// 1 in the next open ledger (2 there).
#[test]
fn test_queue_story_second_half() {
    use Outcome::{Applied, Queued};
    let mut s = Story::new(3);
    s.q.process_closed_ledger(&[], 2, false);
    for who in [HANK, GWEN, FRED, ELMO] {
        assert_eq!(s.noop(who, 7000), Ok(Applied));
    }
    assert_eq!(s.metrics(), (0, Some(6), 4, 3, 256, MEDIAN));
    for (who, fee) in [
        (DARIA, 15),
        (ELMO, 16),
        (FRED, 17),
        (GWEN, 18),
        (HANK, 19),
        (ALICE, 20),
    ] {
        assert_eq!(s.noop(who, fee), Ok(Queued));
    }
    assert_eq!(s.metrics(), (6, Some(6), 4, 3, 385, MEDIAN));
    assert_eq!(s.noop(CHARLIE, 10), Err(Ter::telCAN_NOT_QUEUE_FULL));
    assert_eq!(s.noop(CHARLIE, 100), Ok(Queued));
    assert_eq!(s.metrics(), (6, Some(6), 4, 3, 410, MEDIAN));
    s.close(false);
    assert_eq!(s.metrics(), (1, Some(8), 5, 4, 256, 256 * 700));
    s.close(false);
    assert_eq!(
        s.metrics(),
        (0, Some(10), 1, 5, 256, MEDIAN),
        "rippled: 2 in the ledger, daria's local one too"
    );
}

/// TxQ_test `testFullQueueGapFill`: past `maximum_txn_per_account` an account may only
/// queue the Sequence that fills the first gap an expired transaction left before a
/// later queued Sequence; a ticket, or a Sequence at the end, is telCAN_NOT_QUEUE_FULL.
#[test]
fn full_account_fills_its_gap() {
    let setup = TxQSetup {
        maximum_txn_per_account: 3,
        ..setup3()
    };
    let mut q = TxQueue::new(setup);
    let facts = rich(1);
    let ticket = |n: u32| Candidate {
        seq_proxy: SeqProxy::Ticket(n),
        sequences_consumed: 0,
        ..tx(1, n, 10)
    };
    queue_it(&mut q, tx(1, 1, 10), &facts, &open(4)).unwrap();
    queue_it(
        &mut q,
        Candidate {
            last_ledger_seq: Some(8),
            ..tx(1, 2, 10)
        },
        &facts,
        &open(4),
    )
    .unwrap();
    queue_it(&mut q, tx(1, 3, 10), &facts, &open(4)).unwrap();
    q.process_closed_ledger(&[], 8, false);
    queue_it(&mut q, ticket(20), &facts, &open(4)).unwrap();
    assert_eq!(q.account_txs(&account(1)).count(), 3);
    assert_eq!(q.next_queuable_seq(&account(1), 1), SeqProxy::Sequence(2));
    assert_eq!(
        queue_it(&mut q, ticket(21), &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_FULL)
    );
    queue_it(&mut q, tx(1, 2, 10), &facts, &open(4)).unwrap();
    assert_eq!(q.account_txs(&account(1)).count(), 4);
    assert_eq!(q.next_queuable_seq(&account(1), 1), SeqProxy::Sequence(4));
    assert_eq!(
        queue_it(&mut q, tx(1, 4, 10), &facts, &open(4)),
        Err(Ter::telCAN_NOT_QUEUE_FULL)
    );
}

/// A queued transaction for the drain's equivalence check: owner 1..=6, a Sequence or a
/// ticket, one of a few fee levels (ties are common), the retries it has left.
fn arb_queued() -> impl Strategy<Value = (u8, bool, u32, u64, i32)> {
    (1u8..=6, any::<bool>(), 1u32..=12, 0usize..4, 0i32..=3).prop_map(
        |(owner, ticket, n, level, retries)| {
            let levels = [256, 512, 100_000, 300_000];
            (owner, ticket, n, levels[level], retries)
        },
    )
}

/// What a drain did: the transactions it tried, in order, with what `apply` answered, and
/// the queue it left (each transaction's retries and last result, each account's
/// penalties).
type DrainTrace = (
    Vec<(Hash256, bool)>,
    Vec<(Hash256, i32, Option<Ter>)>,
    Vec<(bool, bool)>,
);

fn traced_drain(mut q: TxQueue, open_count: u64, outcomes: &[u8], reference: bool) -> DrainTrace {
    let mut tried = Vec::new();
    let apply = |queued: &QueuedTx| {
        let outcome = outcomes[tried.len() % outcomes.len()];
        let answer = match outcome {
            0 | 1 => (Ter::tesSUCCESS, true),
            2 => (Ter::terINSUF_FEE_B, false),
            3 => (Ter::tefPAST_SEQ, false),
            _ => (Ter::terPRE_SEQ, false),
        };
        tried.push((queued.tx.id, answer.1));
        answer
    };
    let parent = Hash256([7; 32]);
    if reference {
        q.drain_reference(open_count, parent, apply);
    } else {
        q.drain(open_count, parent, apply);
    }
    let left = q
        .txs_by_fee()
        .map(|queued| (queued.tx.id, queued.retries_remaining, queued.last_result))
        .collect();
    let penalties = q
        .accounts
        .values()
        .map(|a| (a.drop_penalty, a.retry_penalty))
        .collect();
    (tried, left, penalties)
}

proptest! {
    /// The drain walks only the ready transactions but visits exactly what rippled's walk
    /// of the whole fee order visits, in its order, and leaves the same queue: with
    /// tickets, ties, failures that keep or drop a transaction, exhausted retries, a
    /// nearly full queue of penalized accounts, and the escalated level cutting it short.
    #[test]
    fn the_ready_walk_is_rippleds_walk(
        queued in proptest::collection::vec(arb_queued(), 1..70),
        outcomes in proptest::collection::vec(0u8..5, 1..40),
        penalized in proptest::collection::vec(any::<(bool, bool)>(), 6),
        open_count in 0u64..8,
        limit in 1u64..80,
    ) {
        let mut q = TxQueue::new(setup3());
        for (owner, ticket, n, level, retries) in queued {
            let mut t = tx(owner, n, 10);
            t.fee_level = level;
            t.id.0[5] = u8::from(ticket);
            if ticket {
                t.seq_proxy = SeqProxy::Ticket(n + 100);
                t.sequences_consumed = 0;
            }
            let taken = q.account_txs(&t.account).any(|q| q.tx.seq_proxy == t.seq_proxy);
            if taken {
                continue;
            }
            q.insert(t.clone());
            if let Some(a) = q.accounts.get_mut(&t.account) {
                if let Some(entry) = a.txs.get_mut(&t.seq_proxy) {
                    entry.retries_remaining = retries;
                }
            }
        }
        for (owner, (drop_penalty, retry_penalty)) in penalized.into_iter().enumerate() {
            if let Some(a) = q.accounts.get_mut(&account(owner as u8 + 1)) {
                a.drop_penalty = drop_penalty;
                a.retry_penalty = retry_penalty;
            }
        }
        q.max_size = Some(limit);
        let ours = traced_drain(q.clone(), open_count, &outcomes, false);
        let rippleds = traced_drain(q, open_count, &outcomes, true);
        prop_assert_eq!(ours, rippleds);
    }
}
