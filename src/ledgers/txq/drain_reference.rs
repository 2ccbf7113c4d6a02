//! rippled's walk of `TxQ::accept` as it is written (the whole fee order, waiting
//! transactions skipped, back to an account's next one): the reference the ready-only
//! walk of [`super`] is checked against, visit for visit.

use super::super::fee_metrics::scale_fee_level;
use super::super::queue::{FeeKey, TxQueue};
use super::super::QueuedTx;
use crate::engine::Ter;
use crate::protocol::types::Hash256;
use std::ops::Bound;

impl TxQueue {
    /// Drain into an open ledger already holding `open_count` transactions whose parent is
    /// `parent_hash`. `apply` applies a queued transaction to it and answers its result and
    /// whether it applied. Returns whether any applied.
    pub(crate) fn drain_reference(
        &mut self,
        open_count: u64,
        parent_hash: Hash256,
        mut apply: impl FnMut(&QueuedTx) -> (Ter, bool),
    ) -> bool {
        let snapshot = self.snapshot();
        let mut count = open_count;
        let mut changed = false;
        let mut cursor = self.by_fee.iter().next().copied();
        while let Some(key) = cursor {
            if self.waits_for_earlier_sequence(&key) {
                cursor = self.after(&key);
                continue;
            }
            if key.level.0 < scale_fee_level(snapshot, count) {
                break;
            }
            let Some(queued) = self.get(&key) else { break };
            let (ter, applied) = apply(queued);
            if applied {
                count += 1;
                changed = true;
                cursor = self.erase_and_advance_ref(&key);
            } else {
                cursor = self.after_failure_ref(&key, ter);
            }
        }
        self.reorder_ties(parent_hash);
        changed
    }

    /// Take the transaction out and continue with the better of its account's next one
    /// (skipped earlier, waiting for it) and the next in the fee order.
    fn erase_and_advance_ref(&mut self, key: &FeeKey) -> Option<FeeKey> {
        let account_next = self.accounts[&key.account]
            .txs
            .range((Bound::Excluded(key.seq_proxy), Bound::Unbounded))
            .next()
            .map(|(_, q)| self.key_of(&q.tx));
        let fee_next = self.after(key);
        self.remove(&key.account, key.seq_proxy);
        match (account_next, fee_next) {
            (Some(account_next), Some(fee_next)) if account_next < fee_next => Some(account_next),
            (Some(account_next), None) => Some(account_next),
            (_, fee_next) => fee_next,
        }
    }

    /// A queued transaction did not apply: a tef or tem, or no retries left, drops it;
    /// otherwise it stays with one retry fewer (one left if its account already used up a
    /// transaction's retries), and a penalized account of a nearly full queue loses its
    /// last transaction (or this one, if a ticket).
    fn after_failure_ref(&mut self, key: &FeeKey, ter: Ter) -> Option<FeeKey> {
        let account = self.accounts.get_mut(&key.account)?;
        let queued = account.txs.get_mut(&key.seq_proxy)?;
        if ter.is_tef() || ter.is_tem() || queued.retries_remaining <= 0 {
            if queued.retries_remaining <= 0 {
                account.retry_penalty = true;
            } else {
                account.drop_penalty = true;
            }
            return self.erase_and_advance_ref(key);
        }
        if account.retry_penalty && queued.retries_remaining > 2 {
            queued.retries_remaining = 1;
        } else {
            queued.retries_remaining -= 1;
        }
        queued.last_result = Some(ter);
        let crowded = account.drop_penalty && account.txs.len() > 1 && self.is_full_percent(95);
        if !crowded {
            return self.after(key);
        }
        if !key.seq_proxy.is_sequence() {
            return self.erase_and_advance_ref(key);
        }
        let last = *self.accounts[&key.account].txs.keys().next_back()?;
        if last != key.seq_proxy {
            self.remove(&key.account, last);
        }
        self.after(key)
    }
}
