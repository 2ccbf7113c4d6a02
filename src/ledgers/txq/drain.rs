//! The close-time drain (rippled `TxQ::accept`): into a new open ledger, try the queued
//! transactions from the highest fee level down while they pay the escalated level, each
//! account's Sequence-based ones in order, dropping those that fail for good or run out
//! of retries; then re-sort the ties by the new parent hash.

use super::fee_metrics::scale_fee_level;
use super::queue::{FeeKey, TxQueue};
use super::QueuedTx;
use crate::engine::Ter;
use crate::protocol::types::Hash256;
use std::collections::BTreeSet;
use std::ops::Bound;

impl TxQueue {
    /// Drain into an open ledger already holding `open_count` transactions whose parent is
    /// `parent_hash`. `apply` applies a queued transaction to it and answers its result and
    /// whether it applied. Returns whether any applied.
    ///
    /// rippled walks its whole fee order and skips the transactions waiting for an
    /// earlier Sequence of their account, going back to an account's next one once its
    /// earlier one applied: with many transactions per account that walk is quadratic.
    /// This one visits the same transactions in the same order but walks only those not
    /// waiting (`ready`: an account's first Sequence, and tickets), kept as they change.
    pub fn drain(
        &mut self,
        open_count: u64,
        parent_hash: Hash256,
        mut apply: impl FnMut(&QueuedTx) -> (Ter, bool),
    ) -> bool {
        let snapshot = self.snapshot();
        let mut count = open_count;
        let mut changed = false;
        let mut ready: BTreeSet<FeeKey> = self
            .by_fee
            .iter()
            .filter(|key| !self.waits_for_earlier_sequence(key))
            .copied()
            .collect();
        let mut cursor = ready.iter().next().copied();
        while let Some(key) = cursor {
            if key.level.0 < scale_fee_level(snapshot, count) {
                break;
            }
            let Some(queued) = self.get(&key) else { break };
            let (ter, applied) = apply(queued);
            if applied {
                count += 1;
                changed = true;
                cursor = self.erase_and_advance(&key, &mut ready);
            } else {
                cursor = self.after_failure(&key, ter, &mut ready);
            }
        }
        self.reorder_ties(parent_hash);
        changed
    }

    /// A Sequence-based transaction behind a queued earlier one of its account waits.
    fn waits_for_earlier_sequence(&self, key: &FeeKey) -> bool {
        let first = self.accounts[&key.account].txs.keys().next().copied();
        key.seq_proxy.is_sequence() && first.is_some_and(|first| key.seq_proxy > first)
    }

    /// The next key in the fee order.
    fn after(&self, key: &FeeKey) -> Option<FeeKey> {
        self.by_fee
            .range((Bound::Excluded(*key), Bound::Unbounded))
            .next()
            .copied()
    }

    /// Take the transaction out and continue with the better of its account's next one
    /// (now ready; skipped earlier when it sorts before the next in the fee order) and
    /// the next ready one in the fee order.
    fn erase_and_advance(&mut self, key: &FeeKey, ready: &mut BTreeSet<FeeKey>) -> Option<FeeKey> {
        let account_next = self.accounts[&key.account]
            .txs
            .range((Bound::Excluded(key.seq_proxy), Bound::Unbounded))
            .next()
            .map(|(_, q)| self.key_of(&q.tx));
        let fee_next = self.after(key);
        self.remove(&key.account, key.seq_proxy);
        ready.remove(key);
        if let Some(account_next) = account_next {
            ready.insert(account_next);
        }
        match (account_next, fee_next) {
            (Some(account_next), Some(fee_next)) if account_next < fee_next => Some(account_next),
            (Some(account_next), None) => Some(account_next),
            (_, None) => None,
            (_, Some(_)) => next_ready(ready, key),
        }
    }

    /// A queued transaction did not apply: a tef or tem, or no retries left, drops it;
    /// otherwise it stays with one retry fewer (one left if its account already used up a
    /// transaction's retries), and a penalized account of a nearly full queue loses its
    /// last transaction (or this one, if a ticket).
    fn after_failure(
        &mut self,
        key: &FeeKey,
        ter: Ter,
        ready: &mut BTreeSet<FeeKey>,
    ) -> Option<FeeKey> {
        let account = self.accounts.get_mut(&key.account)?;
        let queued = account.txs.get_mut(&key.seq_proxy)?;
        if ter.is_tef() || ter.is_tem() || queued.retries_remaining <= 0 {
            if queued.retries_remaining <= 0 {
                account.retry_penalty = true;
            } else {
                account.drop_penalty = true;
            }
            return self.erase_and_advance(key, ready);
        }
        if account.retry_penalty && queued.retries_remaining > 2 {
            queued.retries_remaining = 1;
        } else {
            queued.retries_remaining -= 1;
        }
        queued.last_result = Some(ter);
        let crowded = account.drop_penalty && account.txs.len() > 1 && self.is_full_percent(95);
        if !crowded {
            return next_ready(ready, key);
        }
        if !key.seq_proxy.is_sequence() {
            return self.erase_and_advance(key, ready);
        }
        let last = *self.accounts[&key.account].txs.keys().next_back()?;
        if last != key.seq_proxy {
            if let Some(gone) = self.remove(&key.account, last) {
                ready.remove(&self.key_of(&gone.tx));
            }
        }
        next_ready(ready, key)
    }
}

/// The first ready key after `key`.
fn next_ready(ready: &BTreeSet<FeeKey>, key: &FeeKey) -> Option<FeeKey> {
    ready
        .range((Bound::Excluded(*key), Bound::Unbounded))
        .next()
        .copied()
}

#[cfg(test)]
#[path = "drain_reference.rs"]
mod reference;
