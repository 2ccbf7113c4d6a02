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

/// Keeps the newest `keep` snapshots (at least one) and the journal segments needed to
/// replay from the oldest of them; removes older snapshots and segments. With no snapshot
/// at all nothing is removed: the journal is then the only copy of the state.
pub fn prune_history(
    journal: &Journal,
    snapshots: &Snapshots,
    keep: usize,
) -> StoreResult<PruneReport> {
    let removed = snapshots.prune(keep)?;
    let oldest_kept = snapshots.list()?.into_iter().next();
    let segments_removed = match oldest_kept {
        Some(info) => journal.prune_before(info.through_record.saturating_add(1))?,
        None => 0,
    };
    Ok(PruneReport {
        snapshots_removed: removed.len(),
        segments_removed,
    })
}
