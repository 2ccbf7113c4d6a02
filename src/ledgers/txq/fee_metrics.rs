//! rippled's `TxQ::FeeMetrics`: how many transactions the open ledger takes at the base
//! fee level (`txns_expected`), how that grows and shrinks at each close, the escalation
//! multiplier (the closed ledger's median fee level), and the escalated fee level of the
//! n-th transaction in the open ledger.

use std::collections::VecDeque;

use super::fee_level::{mul_div, BASE_LEVEL};
use super::TxQSetup;

/// The figures the escalation reads (rippled `FeeMetrics::Snapshot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricsSnapshot {
    /// Transactions the open ledger takes before the fee escalates.
    pub txns_expected: u64,
    /// The fee level the escalation scales (at least `minimum_escalation_multiplier`).
    pub escalation_multiplier: u64,
}

/// The escalation's state across closes.
#[derive(Debug, Clone)]
pub struct FeeMetrics {
    /// The floor of `txns_expected` (the standalone minimum when standalone).
    minimum_txn_count: u64,
    /// Above this many transactions in a closed ledger, the expected count grows.
    target_txn_count: u64,
    /// The ceiling of `txns_expected`, if configured.
    maximum_txn_count: Option<u64>,
    txns_expected: u64,
    /// The last closes' grown counts (a ring of `ledgers_in_queue`), so the expected
    /// count shrinks slowly after a burst.
    recent_txn_counts: VecDeque<u64>,
    recent_capacity: usize,
    escalation_multiplier: u64,
}

impl FeeMetrics {
    /// The metrics before any close (rippled's `FeeMetrics` constructor).
    pub fn new(setup: &TxQSetup) -> FeeMetrics {
        let minimum_txn_count = if setup.standalone {
            setup.minimum_txn_in_ledger_standalone
        } else {
            setup.minimum_txn_in_ledger
        };
        let target_txn_count = setup.target_txn_in_ledger.max(minimum_txn_count);
        FeeMetrics {
            minimum_txn_count,
            target_txn_count,
            maximum_txn_count: setup
                .maximum_txn_in_ledger
                .map(|max| max.max(target_txn_count)),
            txns_expected: minimum_txn_count,
            recent_txn_counts: VecDeque::new(),
            recent_capacity: usize::try_from(setup.ledgers_in_queue).unwrap_or(usize::MAX),
            escalation_multiplier: setup.minimum_escalation_multiplier,
        }
    }

    /// The current figures.
    pub fn snapshot(&self) -> MetricsSnapshot {
        MetricsSnapshot {
            txns_expected: self.txns_expected,
            escalation_multiplier: self.escalation_multiplier,
        }
    }

    /// Learn from a closed ledger (rippled `FeeMetrics::update`): `fee_levels` are its
    /// transactions' fee levels paid, `time_leap` says the close was slow. Returns the
    /// ledger's transaction count.
    pub fn update(&mut self, fee_levels: &[u64], time_leap: bool, setup: &TxQSetup) -> u64 {
        let size = fee_levels.len() as u64;
        if time_leap {
            self.shrink_after_slow_close(size, setup.slow_consensus_decrease_percent);
        } else if size > self.txns_expected || size > self.target_txn_count {
            self.grow_after_busy_close(size, setup.normal_consensus_increase_percent);
        }
        self.escalation_multiplier = median_level(fee_levels)
            .map_or(setup.minimum_escalation_multiplier, |median| {
                median.max(setup.minimum_escalation_multiplier)
            });
        size
    }

    /// A slow close cuts the expected count to `100 - decrease` percent of the closed
    /// ledger's size, between the minimum and that share of the current expectation.
    fn shrink_after_slow_close(&mut self, size: u64, decrease_percent: u64) {
        let cut_percent = 100 - decrease_percent.min(100);
        let upper = mul_div(self.txns_expected, cut_percent, 100)
            .unwrap_or(u64::MAX)
            .max(self.minimum_txn_count);
        let cut = mul_div(size, cut_percent, 100).unwrap_or(u64::MAX);
        self.txns_expected = cut.clamp(self.minimum_txn_count, upper);
        self.recent_txn_counts.clear();
    }

    /// A busy close on time grows quickly (to the largest recent grown count) and shrinks
    /// slowly (a tenth of the way towards it), never past the maximum.
    fn grow_after_busy_close(&mut self, size: u64, increase_percent: u64) {
        let grown = mul_div(size, 100 + increase_percent, 100).unwrap_or(u64::MAX);
        if self.recent_capacity > 0 {
            if self.recent_txn_counts.len() == self.recent_capacity {
                self.recent_txn_counts.pop_front();
            }
            self.recent_txn_counts.push_back(grown);
        }
        let recent_max = self
            .recent_txn_counts
            .iter()
            .copied()
            .max()
            .unwrap_or(grown);
        let next = if recent_max >= self.txns_expected {
            recent_max
        } else {
            (self.txns_expected * 9 + recent_max) / 10
        };
        self.txns_expected = self.maximum_txn_count.map_or(next, |max| next.min(max));
    }
}

/// The median of the levels (the mean of the two middle ones, rounded up, for an even
/// count), or `None` for an empty ledger.
fn median_level(fee_levels: &[u64]) -> Option<u64> {
    if fee_levels.is_empty() {
        return None;
    }
    let mut sorted = fee_levels.to_vec();
    sorted.sort_unstable();
    let size = sorted.len();
    let sum = u128::from(sorted[size / 2]) + u128::from(sorted[(size - 1) / 2]) + 1;
    Some(u64::try_from(sum / 2).unwrap_or(u64::MAX))
}

/// The fee level the open ledger requires of its next transaction when it already holds
/// `open_count` (rippled `scaleFeeLevel`): the base level up to the expected count, then
/// `multiplier * open_count^2 / expected^2`, saturating.
pub fn scale_fee_level(snapshot: MetricsSnapshot, open_count: u64) -> u64 {
    let target = snapshot.txns_expected;
    if open_count <= target {
        return BASE_LEVEL;
    }
    let scaled = u128::from(snapshot.escalation_multiplier) * u128::from(open_count).pow(2)
        / u128::from(target).pow(2).max(1);
    u64::try_from(scaled).unwrap_or(u64::MAX)
}

/// `1^2 + 2^2 + ... + x^2`, or `None` from 2^21 on (rippled `sumOfFirstSquares` treats
/// that as an overflow).
fn sum_of_first_squares(x: u64) -> Option<u64> {
    if x >= 1 << 21 {
        return None;
    }
    Some(x * (x + 1) * (2 * x + 1) / 6)
}

/// The total fee level a run of `series_size` transactions must pay to enter an open
/// ledger already holding `open_count` (rippled `escalatedSeriesFeeLevel`, the caller
/// having checked the ledger is past its expected count): the sum of
/// [`scale_fee_level`]'s terms over the run. `None` on overflow.
pub fn escalated_series_fee_level(
    snapshot: MetricsSnapshot,
    open_count: u64,
    series_size: u64,
) -> Option<u64> {
    let last = open_count + series_size.max(1) - 1;
    let sum_last = sum_of_first_squares(last)?;
    let sum_before = sum_of_first_squares(open_count.saturating_sub(1))?;
    let target = snapshot.txns_expected;
    let total = u128::from(snapshot.escalation_multiplier) * u128::from(sum_last - sum_before)
        / u128::from(target).pow(2).max(1);
    u64::try_from(total).ok()
}
