//! The figures the `fee` method answers (rippled `TxQ::getMetrics` and `TxQ::doRPC`):
//! levels and their drops at the open ledger's base fee, the queue's size and limit,
//! the expected ledger size.

use super::fee_level::{to_drops, to_drops_at_least, BASE_LEVEL};
use super::fee_metrics::scale_fee_level;
use super::queue::TxQueue;

/// `fee`'s answer, as numbers (the method renders them as strings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeReport {
    /// `current_ledger_size`: transactions in the open ledger.
    pub current_ledger_size: u64,
    /// `current_queue_size`.
    pub current_queue_size: u64,
    /// `expected_ledger_size`.
    pub expected_ledger_size: u64,
    /// `max_queue_size`, once a ledger has closed.
    pub max_queue_size: Option<u64>,
    /// `levels.reference_level`.
    pub reference_level: u64,
    /// `levels.minimum_level`: what a transaction must pay to be queued.
    pub minimum_level: u64,
    /// `levels.median_level`: the escalation multiplier.
    pub median_level: u64,
    /// `levels.open_ledger_level`: what the next transaction must pay to apply now.
    pub open_ledger_level: u64,
    /// `drops.base_fee`.
    pub base_fee: u64,
    /// `drops.median_fee`.
    pub median_fee: u64,
    /// `drops.minimum_fee`.
    pub minimum_fee: u64,
    /// `drops.open_ledger_fee`, rounded up to reach the open ledger's level.
    pub open_ledger_fee: u64,
}

impl TxQueue {
    /// `fee`'s figures for an open ledger holding `open_count` transactions at a base fee
    /// of `base_fee_drops`. A zero base fee counts as 1 drop once escalated, and for the
    /// minimum fee when the queue is full, as rippled does.
    pub fn fee_report(&self, open_count: u64, base_fee_drops: u64) -> FeeReport {
        let snapshot = self.snapshot();
        let open_ledger_level = scale_fee_level(snapshot, open_count);
        let minimum_level = self.minimum_level();
        let effective_base = if base_fee_drops == 0 && open_ledger_level != BASE_LEVEL {
            1
        } else {
            base_fee_drops
        };
        let queue_size = self.len() as u64;
        let at_limit = self.max_size().is_none_or(|max| queue_size >= max);
        let minimum_base = if at_limit {
            effective_base
        } else {
            base_fee_drops
        };
        FeeReport {
            current_ledger_size: open_count,
            current_queue_size: queue_size,
            expected_ledger_size: snapshot.txns_expected,
            max_queue_size: self.max_size(),
            reference_level: BASE_LEVEL,
            minimum_level,
            median_level: snapshot.escalation_multiplier,
            open_ledger_level,
            base_fee: base_fee_drops,
            median_fee: to_drops(snapshot.escalation_multiplier, base_fee_drops),
            minimum_fee: to_drops(minimum_level, minimum_base),
            open_ledger_fee: to_drops_at_least(open_ledger_level, effective_base),
        }
    }
}
