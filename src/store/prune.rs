//! History depth: pruning snapshots and the journal segments only they made necessary.
//!
//! The newest `keep` snapshots (in journal order) decide where the journal may start:
//! after the oldest of them, once they reach back far enough that recovery would not
//! rebuild more history from further back. Then the older snapshots go, but two:
//!
//! Replay never needs to start before the newest revert snapshot: from an older base it
//! would reach that revert and continue from its snapshot anyway (the same ledger, no
//! more history). So no replay needs an older revert snapshot, and they go (keeping every
//! revert snapshot while the journal holds its record would keep one per revert, without
//! bound, until the journal's segment fills). What a replay does need is kept while the
//! journal holds the newest revert record: that revert's snapshot, and the snapshot
//! before it, from which a replay reaches the revert record directly (what a repair
//! replays when the revert's snapshot is lost; see `node/persist/recovery.rs`).

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
/// the newest revert snapshot whose record the journal still holds and the snapshot
/// before it ([`revert_bases`]). With no snapshot at all nothing is removed: the journal
/// is then the only copy of the state.
pub fn prune_history(
    journal: &Journal,
    snapshots: &Snapshots,
    keep: usize,
    history_ledgers: u32,
) -> StoreResult<PruneReport> {
    let infos = snapshots.list()?;
    let cut = infos.len().saturating_sub(keep.max(1));
    let segments_removed = match journal_start(&infos[cut..], history_ledgers) {
        Some(record) => journal.prune_before(record)?,
        None => 0,
    };
    let spared = revert_bases(&infos, journal.first_record());
    let mut snapshots_removed = 0;
    for (i, info) in infos[..cut].iter().enumerate() {
        if spared.contains(&i) {
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

/// In `infos` (journal order), for a journal starting at `first_record`: the newest revert
/// snapshot whose revert record the journal holds, and the snapshot before it when a
/// replay can start there (the journal holds every record after it). Their positions.
fn revert_bases(infos: &[SnapshotInfo], first_record: u64) -> Vec<usize> {
    let Some(r) = infos.iter().rposition(|i| i.revert) else {
        return Vec::new();
    };
    if infos[r].through_record < first_record {
        return Vec::new();
    }
    match r.checked_sub(1) {
        Some(b) if infos[b].through_record.saturating_add(1) >= first_record => vec![b, r],
        _ => vec![r],
    }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::store::{DiskStorage, JournalOptions, RecordKind};

    /// A journal of ten "ledgers" of 20 records each in small segments; returns it and the
    /// last record of each ledger.
    fn journal(dir: &std::path::Path) -> (Journal, Vec<u64>) {
        let options = JournalOptions {
            segment_bytes_max: 1024,
            ..JournalOptions::default()
        };
        let (journal, _) = Journal::open(Arc::new(DiskStorage), dir, options).expect("opens");
        let mut ends = Vec::new();
        for ledger in 0..10u32 {
            let mut last = 0;
            for r in 0..20 {
                last = journal
                    .append(
                        RecordKind::Transaction,
                        format!("{ledger} {r} ......").into_bytes(),
                    )
                    .wait()
                    .expect("durable");
            }
            ends.push(last);
        }
        (journal, ends)
    }

    fn throughs(s: &Snapshots) -> Vec<(u64, bool)> {
        let list = s.list().expect("list");
        list.iter().map(|i| (i.through_record, i.revert)).collect()
    }

    #[test]
    fn a_revert_snapshot_goes_with_its_record() {
        let root = tempfile::tempdir().expect("tempdir");
        let (journal, ends) = journal(&root.path().join("journal"));
        let s =
            Snapshots::open(Arc::new(DiskStorage), &root.path().join("snapshots")).expect("opens");
        // Ledgers 1..=4, a revert back to ledger 2 (record ends[4]), then ledgers 3..=7.
        for (i, end) in ends.iter().enumerate().take(4) {
            s.write(i as u32 + 1, *end, b"state").expect("written");
        }
        s.write_revert(2, ends[4], b"state").expect("written");
        for (i, end) in ends.iter().enumerate().skip(5) {
            s.write(i as u32 - 2, *end, b"state").expect("written");
        }
        // The newest three are all after the revert and reach back far enough: the journal
        // goes up to the oldest of them, and the revert's record with it.
        let report = prune_history(&journal, &s, 3, 2).expect("prunes");
        assert!(report.segments_removed > 0);
        let first = journal.first_record();
        assert!(first > ends[4] && first <= ends[7] + 1, "{first}");
        assert_eq!(
            report.snapshots_removed, 7,
            "the revert's too: its record is gone"
        );
        assert_eq!(
            throughs(&s),
            vec![(ends[7], false), (ends[8], false), (ends[9], false)]
        );
    }

    #[test]
    fn the_newest_revert_snapshot_and_the_one_before_it_outlive_their_count() {
        let root = tempfile::tempdir().expect("tempdir");
        let (journal, ends) = journal(&root.path().join("journal"));
        let s =
            Snapshots::open(Arc::new(DiskStorage), &root.path().join("snapshots")).expect("opens");
        // Ledger 1, reverts to it at ends[1] and ends[2], then ledgers 2..=8: the newest
        // three are not far enough back for a history of 5, so the journal stays from
        // genesis. Replay needs no base before the newest revert (ends[2]); the one before
        // it (the first revert's) replays up to it.
        s.write(1, ends[0], b"state").expect("written");
        s.write_revert(1, ends[1], b"state").expect("written");
        s.write_revert(1, ends[2], b"state").expect("written");
        for (i, end) in ends.iter().enumerate().skip(3) {
            s.write(i as u32 - 1, *end, b"state").expect("written");
        }
        let report = prune_history(&journal, &s, 3, 5).expect("prunes");
        assert_eq!(report.segments_removed, 0);
        assert_eq!(journal.first_record(), 1);
        assert_eq!(report.snapshots_removed, 5);
        assert_eq!(
            throughs(&s),
            vec![
                (ends[1], true),
                (ends[2], true),
                (ends[7], false),
                (ends[8], false),
                (ends[9], false)
            ]
        );
        // Once the kept ones reach back far enough, the journal goes past the reverts, and
        // their snapshots with it.
        let report = prune_history(&journal, &s, 3, 2).expect("prunes");
        assert!(report.segments_removed > 0);
        assert!(journal.first_record() > ends[2]);
        assert_eq!(report.snapshots_removed, 2);
        assert_eq!(
            throughs(&s),
            vec![(ends[7], false), (ends[8], false), (ends[9], false)]
        );
    }
}
