//! The queue's data (rippled `TxQ`'s `byFee_` and `byAccount_`): each account's queued
//! transactions by SeqProxy, all of them by fee level (highest first; ties broken by the
//! transaction id XOR the open ledger's parent hash, so no sender can win every tie), the
//! queue's size limit, and the expiry of LastLedgerSequence at each close.

use std::collections::{BTreeMap, BTreeSet};

use super::fee_metrics::{FeeMetrics, MetricsSnapshot};
use super::{Candidate, SeqProxy, TxQSetup};
use crate::engine::Ter;
use crate::protocol::types::{AccountId, Hash256};

/// Tries a queued transaction gets at leaving the queue (rippled `MaybeTx::kRetriesAllowed`).
pub const RETRIES_ALLOWED: i32 = 10;

/// A queued transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedTx {
    /// The transaction.
    pub tx: Candidate,
    /// Tries left before a `ter`-like result drops it.
    pub retries_remaining: i32,
    /// Its last result when tried, if it was.
    pub last_result: Option<Ter>,
}

/// One account's place in the queue (rippled `TxQAccount`).
#[derive(Debug, Clone, Default)]
pub(super) struct AccountQueue {
    pub(super) txs: BTreeMap<SeqProxy, QueuedTx>,
    /// One of its transactions failed for good or expired: when the queue is nearly
    /// full, its last transaction goes.
    pub(super) drop_penalty: bool,
    /// One of its transactions used up its retries: the others get one more try.
    pub(super) retry_penalty: bool,
}

/// A queued transaction's place in the fee order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct FeeKey {
    /// The fee level, highest first.
    pub(super) level: std::cmp::Reverse<u64>,
    /// The id XOR the parent hash.
    pub(super) tie: [u8; 32],
    pub(super) account: AccountId,
    pub(super) seq_proxy: SeqProxy,
}

/// The transaction queue.
#[derive(Debug, Clone)]
pub struct TxQueue {
    pub(super) setup: TxQSetup,
    pub(super) metrics: FeeMetrics,
    pub(super) accounts: BTreeMap<AccountId, AccountQueue>,
    pub(super) by_fee: BTreeSet<FeeKey>,
    /// `None` until the first close (rippled's `maxSize_`).
    pub(super) max_size: Option<u64>,
    /// The tie-breaker of the fee order.
    pub(super) parent_hash: Hash256,
}

impl TxQueue {
    /// An empty queue.
    pub fn new(setup: TxQSetup) -> TxQueue {
        TxQueue {
            metrics: FeeMetrics::new(&setup),
            setup,
            accounts: BTreeMap::new(),
            by_fee: BTreeSet::new(),
            max_size: None,
            parent_hash: Hash256::default(),
        }
    }

    /// The settings.
    pub fn setup(&self) -> &TxQSetup {
        &self.setup
    }

    /// What the next transaction must pay to go straight into an open ledger holding
    /// `open_count` transactions (`fee`'s `open_ledger_level`).
    pub fn open_ledger_level(&self, open_count: u64) -> u64 {
        super::fee_metrics::scale_fee_level(self.snapshot(), open_count)
    }

    /// Takes what `other` learned of the escalation and its size limit (a queue emptied
    /// by a revert keeps them).
    pub fn adopt_metrics(&mut self, other: &TxQueue) {
        self.metrics = other.metrics.clone();
        self.max_size = other.max_size;
    }

    /// The escalation's current figures.
    pub fn snapshot(&self) -> MetricsSnapshot {
        self.metrics.snapshot()
    }

    /// Queued transactions (`current_queue_size`).
    pub fn len(&self) -> usize {
        self.by_fee.len()
    }

    /// No transaction queued.
    pub fn is_empty(&self) -> bool {
        self.by_fee.is_empty()
    }

    /// The queue's limit (`max_queue_size`), once a ledger has closed.
    pub fn max_size(&self) -> Option<u64> {
        self.max_size
    }

    /// The queue holds at least `percent` of its limit (rippled `isFull<N>`).
    pub fn is_full_percent(&self, percent: u64) -> bool {
        self.max_size
            .is_some_and(|max| self.by_fee.len() as u64 >= max * percent / 100)
    }

    /// The queue is at its limit.
    pub fn is_full(&self) -> bool {
        self.is_full_percent(100)
    }

    /// The least fee level a transaction must pay to be queued (`fee`'s `minimum_level`):
    /// one more than the cheapest queued when full, else the base level.
    pub fn minimum_level(&self) -> u64 {
        match self.by_fee.iter().next_back() {
            Some(cheapest) if self.is_full() => cheapest.level.0.saturating_add(1),
            _ => super::BASE_LEVEL,
        }
    }

    /// An account's queued transactions in SeqProxy order (`account_info`'s `queue_data`).
    pub fn account_txs(&self, account: &AccountId) -> impl Iterator<Item = &QueuedTx> {
        self.accounts
            .get(account)
            .into_iter()
            .flat_map(|a| a.txs.values())
    }

    /// Every queued transaction, highest fee level first (`ledger`'s `queue`).
    pub fn txs_by_fee(&self) -> impl Iterator<Item = &QueuedTx> {
        self.by_fee.iter().filter_map(|key| self.get(key))
    }

    pub(super) fn get(&self, key: &FeeKey) -> Option<&QueuedTx> {
        self.accounts.get(&key.account)?.txs.get(&key.seq_proxy)
    }

    pub(super) fn key_of(&self, tx: &Candidate) -> FeeKey {
        let mut tie = tx.id.0;
        for (byte, parent) in tie.iter_mut().zip(self.parent_hash.0.iter()) {
            *byte ^= parent;
        }
        FeeKey {
            level: std::cmp::Reverse(tx.fee_level),
            tie,
            account: tx.account,
            seq_proxy: tx.seq_proxy,
        }
    }

    /// The next sequence a queued transaction of the account may take: the account's
    /// Sequence, or the first hole after the queued run starting there
    /// (rippled `nextQueuableSeq`).
    pub fn next_queuable_seq(&self, account: &AccountId, account_sequence: u32) -> SeqProxy {
        let start = SeqProxy::Sequence(account_sequence);
        let Some(queue) = self.accounts.get(account) else {
            return start;
        };
        let mut run = queue.txs.range(start..);
        match run.next() {
            Some((seq, queued)) if *seq == start => {
                let mut attempt = queued.tx.following_seq();
                for (seq, queued) in run {
                    if attempt < *seq {
                        break;
                    }
                    attempt = queued.tx.following_seq();
                }
                attempt
            }
            _ => start,
        }
    }

    /// Put a transaction in the queue (the caller has checked it may be).
    pub(super) fn insert(&mut self, tx: Candidate) {
        let key = self.key_of(&tx);
        let queued = QueuedTx {
            tx,
            retries_remaining: RETRIES_ALLOWED,
            last_result: None,
        };
        let account = self.accounts.entry(key.account).or_default();
        account.txs.insert(key.seq_proxy, queued);
        self.by_fee.insert(key);
    }

    /// Take a transaction out of the queue.
    pub(super) fn remove(&mut self, account: &AccountId, seq_proxy: SeqProxy) -> Option<QueuedTx> {
        let queued = self.accounts.get_mut(account)?.txs.remove(&seq_proxy)?;
        let key = self.key_of(&queued.tx);
        self.by_fee.remove(&key);
        Some(queued)
    }

    /// After a close (rippled `processClosedLedger`): learn from the closed ledger's fee
    /// levels, resize the queue (not after a slow close), drop the transactions whose
    /// LastLedgerSequence has passed, and forget accounts with nothing queued.
    pub fn process_closed_ledger(&mut self, fee_levels: &[u64], closed_seq: u32, time_leap: bool) {
        self.metrics.update(fee_levels, time_leap, &self.setup);
        if !time_leap {
            let expected = self.metrics.snapshot().txns_expected;
            let size = expected.saturating_mul(self.setup.ledgers_in_queue);
            self.max_size = Some(size.max(self.setup.minimum_queue_size));
        }
        let expired: Vec<(AccountId, SeqProxy)> = self
            .accounts
            .iter()
            .flat_map(|(account, queue)| queue.txs.values().map(move |q| (*account, q)))
            .filter(|(_, q)| q.tx.last_ledger_seq.is_some_and(|last| last <= closed_seq))
            .map(|(account, q)| (account, q.tx.seq_proxy))
            .collect();
        for (account, seq_proxy) in expired {
            self.remove(&account, seq_proxy);
            if let Some(queue) = self.accounts.get_mut(&account) {
                queue.drop_penalty = true;
            }
        }
        self.accounts.retain(|_, queue| !queue.txs.is_empty());
    }

    /// Re-sort the fee order's ties by a new open ledger's parent hash.
    pub(super) fn reorder_ties(&mut self, parent_hash: Hash256) {
        self.parent_hash = parent_hash;
        let txs: Vec<Candidate> = self
            .accounts
            .values()
            .flat_map(|queue| queue.txs.values().map(|q| q.tx.clone()))
            .collect();
        self.by_fee = txs.iter().map(|tx| self.key_of(tx)).collect();
    }
}
