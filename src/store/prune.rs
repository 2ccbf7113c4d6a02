//! History depth: pruning snapshots and the journal segments only they made necessary.
//!
//! The newest `keep` snapshots (in journal order) decide where the journal may start:
//! after the oldest of them, once they reach back far enough that recovery would not
//! rebuild more history from further back. Then the older snapshots go, except a revert
//! snapshot whose revert record the journal still holds: replay from any older base
//! (genesis, or an older snapshot) meets that record and continues from that snapshot, so
//! it goes only with the record.

use super::error::StoreResult;
use super::journal::Journal;
use super::snapshot::{SnapshotInfo, Snapshots};

/// What [`prune_history`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// Snapshot files removed.
    pub snapshots_removed: usize,
    /// Journal segments removed.
    pub segments_removed: usize,
}

/// Keeps the newest `keep` snapshots (at least one); removes the journal segments only
/// older snapshots needed, once the kept ones reach back `history_ledgers` (or past a
/// revert, before which no history can be rebuilt); then removes the older snapshots but
/// the revert snapshots whose revert record is still in the journal. With no snapshot at
/// all nothing is removed: the journal is then the only copy of the state.
pub fn prune_history(
    journal: &Journal,
    snapshots: &Snapshots,
    keep: usize,
    history_ledgers: u32,
) -> StoreResult<PruneReport> {
    let infos = snapshots.list()?;
    let cut = infos.len().saturating_sub(keep.max(1));
    let (older, kept) = infos.split_at(cut);
    let segments_removed = match journal_start(kept, history_ledgers) {
        Some(record) => journal.prune_before(record)?,
        None => 0,
    };
    let first = journal.first_record();
    let mut snapshots_removed = 0;
    for info in older {
        if info.revert && info.through_record >= first {
            continue;
        }
        snapshots.remove(info)?;
        snapshots_removed += 1;
    }
    Ok(PruneReport {
        snapshots_removed,
        segments_removed,
    })
}

/// The first record the journal must keep for the snapshots `kept` (journal order), if
/// they reach back far enough: one of them is at least `history_ledgers` behind the
/// newest, or is a revert snapshot (replay from further back would jump to it anyway).
/// `None`: recovery rebuilds history from further back (genesis), keep everything.
fn journal_start(kept: &[SnapshotInfo], history_ledgers: u32) -> Option<u64> {
    let (oldest, newest) = (kept.first()?, kept.last()?);
    let target = newest.ledger_seq.saturating_sub(history_ledgers);
    kept.iter()
        .any(|i| i.revert || i.ledger_seq <= target)
        .then(|| oldest.through_record.saturating_add(1))
}
