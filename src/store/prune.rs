//! History depth: pruning snapshots and the journal segments only they made necessary.
//!
//! The newest `keep` snapshots (in journal order) decide where the journal may start:
//! after the oldest of them, once they reach back far enough that recovery would not
//! rebuild more history from further back. Then the older snapshots go, except a revert
//! snapshot whose revert record the journal still holds: replay from any older base
//! (genesis, or an older snapshot) meets that record and continues from that snapshot, so
//! it goes only with the record. The journal is pruned by whole segments: when more than
//! [`REVERT_SNAPSHOTS_RETAINED_MAX`] revert snapshots are held back so, the journal starts
//! a new segment, and the old one goes (with them) once the kept snapshots are past it.

use super::error::StoreResult;
use super::journal::Journal;
use super::snapshot::{SnapshotInfo, Snapshots};
use crate::limits::REVERT_SNAPSHOTS_RETAINED_MAX;

/// What [`prune_history`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// Snapshot files removed.
    pub snapshots_removed: usize,
    /// Journal segments removed.
    pub segments_removed: usize,
    /// Revert snapshots older than the kept ones, kept for their journal records.
    pub reverts_retained: usize,
}

/// Keeps the newest `keep` snapshots (at least one); removes the journal segments only
/// older snapshots needed, once the kept ones reach back `history_ledgers` (or past a
/// revert, before which no history can be rebuilt); then removes the older snapshots but
/// the revert snapshots whose revert record the journal still holds, and when those are
/// more than [`REVERT_SNAPSHOTS_RETAINED_MAX`] asks the journal for a new segment. With no
/// snapshot at all nothing is removed: the journal is then the only copy of the state.
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
    let (mut snapshots_removed, mut reverts_retained) = (0, 0);
    for info in older {
        if info.revert && info.through_record >= first {
            reverts_retained += 1;
            continue;
        }
        snapshots.remove(info)?;
        snapshots_removed += 1;
    }
    if reverts_retained > REVERT_SNAPSHOTS_RETAINED_MAX {
        journal.rotate_soon();
    }
    Ok(PruneReport {
        snapshots_removed,
        segments_removed,
        reverts_retained,
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
        s.write_as(2, ends[4], true, b"state").expect("written");
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
    fn a_revert_snapshot_outlives_its_count_while_replay_from_before_it_needs_it() {
        let root = tempfile::tempdir().expect("tempdir");
        let (journal, ends) = journal(&root.path().join("journal"));
        let s =
            Snapshots::open(Arc::new(DiskStorage), &root.path().join("snapshots")).expect("opens");
        // A revert to ledger 1 (record ends[1]), then ledgers 2..=9: the newest three are
        // not far enough back for a history of 5, so the journal stays from genesis, and
        // replay from it meets the revert record.
        s.write(1, ends[0], b"state").expect("written");
        s.write_as(1, ends[1], true, b"state").expect("written");
        for (i, end) in ends.iter().enumerate().skip(2) {
            s.write(i as u32, *end, b"state").expect("written");
        }
        let report = prune_history(&journal, &s, 3, 5).expect("prunes");
        assert_eq!(report.segments_removed, 0);
        assert_eq!(journal.first_record(), 1);
        assert_eq!(report.snapshots_removed, 6, "the periodic ones go");
        assert_eq!(report.reverts_retained, 1);
        assert_eq!(
            throughs(&s),
            vec![
                (ends[1], true),
                (ends[7], false),
                (ends[8], false),
                (ends[9], false)
            ]
        );
        // Once the kept ones reach back far enough, the journal goes past the revert, and
        // its snapshot with it.
        let report = prune_history(&journal, &s, 3, 2).expect("prunes");
        assert!(report.segments_removed > 0);
        assert!(journal.first_record() > ends[1]);
        assert_eq!(report.snapshots_removed, 1);
        assert_eq!(
            throughs(&s),
            vec![(ends[7], false), (ends[8], false), (ends[9], false)]
        );
    }

    #[test]
    fn many_retained_revert_snapshots_start_a_segment_and_go_with_the_old_one() {
        let root = tempfile::tempdir().expect("tempdir");
        let dir = root.path().join("journal");
        let (journal, _) =
            Journal::open(Arc::new(DiskStorage), &dir, JournalOptions::default()).expect("opens");
        let s =
            Snapshots::open(Arc::new(DiskStorage), &root.path().join("snapshots")).expect("opens");
        let record = || {
            journal
                .append(RecordKind::Transaction, b"a payment".to_vec())
                .wait()
                .expect("durable")
        };
        // Reverts, each after a record, all in one segment: every one of them stays.
        let reverts = REVERT_SNAPSHOTS_RETAINED_MAX + 4;
        for _ in 0..reverts {
            s.write_as(1, record(), true, b"state").expect("written");
        }
        let report = prune_history(&journal, &s, 3, 256).expect("prunes");
        assert_eq!((report.segments_removed, report.snapshots_removed), (0, 0));
        assert_eq!(report.reverts_retained, reverts - 3);
        assert_eq!(journal.stats().segments, 1);
        // Too many: the next record starts a new segment.
        let next = record();
        assert_eq!(journal.stats().segments, 2);
        // Once the kept ones are past it, the old segment goes, and they with it.
        for _ in 0..3 {
            s.write_as(1, record(), true, b"state").expect("written");
        }
        let report = prune_history(&journal, &s, 3, 256).expect("prunes");
        assert_eq!(report.segments_removed, 1);
        assert_eq!(journal.first_record(), next);
        assert_eq!(report.snapshots_removed, reverts);
        assert_eq!(report.reverts_retained, 0);
        assert_eq!(s.list().expect("list").len(), 3);
    }
}
