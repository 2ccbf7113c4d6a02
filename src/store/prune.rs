//! History depth: pruning snapshots and the journal segments only they made necessary.

use super::error::StoreResult;
use super::journal::Journal;
use super::snapshot::Snapshots;

/// What [`prune_history`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// Snapshot files removed.
    pub snapshots_removed: usize,
    /// Journal segments removed.
    pub segments_removed: usize,
}

/// Keeps the newest `keep` snapshots (at least one) and removes older ones; then removes
/// the journal segments only older snapshots needed, but only once the oldest kept
/// snapshot is at least `history_ledgers` behind the newest: until then recovery rebuilds
/// the history window from further back (genesis), so the journal keeps everything. With
/// no snapshot at all nothing is removed: the journal is then the only copy of the state.
pub fn prune_history(
    journal: &Journal,
    snapshots: &Snapshots,
    keep: usize,
    history_ledgers: u32,
) -> StoreResult<PruneReport> {
    let removed = snapshots.prune(keep)?;
    let kept = snapshots.list()?;
    let newest = kept.last().map_or(0, |i| i.ledger_seq);
    let far_enough = |seq: u32| seq <= newest.saturating_sub(history_ledgers);
    let segments_removed = match kept.first() {
        Some(oldest) if far_enough(oldest.ledger_seq) => {
            journal.prune_before(oldest.through_record.saturating_add(1))?
        }
        _ => 0,
    };
    Ok(PruneReport {
        snapshots_removed: removed.len(),
        segments_removed,
    })
}
