//! Snapshots: write and load, fallback from a damaged newest one, pruning with the
//! journal segments that only older snapshots needed.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use ledgerd::store::{
    prune_history, DiskStorage, JournalOptions, RecordKind, Snapshots, StoreError,
};
use support::journal::{open_journal, open_journal_with};

fn snaps(dir: &Path) -> Snapshots {
    Snapshots::open(Arc::new(DiskStorage), dir).expect("opens")
}

fn state(seq: u32) -> Vec<u8> {
    (0..1000u32).map(|i| (i * seq) as u8).collect()
}

#[test]
fn write_list_load_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = snaps(dir.path());
    assert_eq!(s.load_newest_valid().expect("loads"), None);
    for seq in [3u32, 10, 7] {
        s.write(seq, u64::from(seq) * 100, &state(seq))
            .expect("written");
    }
    let seqs: Vec<u32> = s
        .list()
        .expect("list")
        .iter()
        .map(|i| i.ledger_seq)
        .collect();
    assert_eq!(seqs, vec![3, 7, 10]);
    let newest = s.load_newest_valid().expect("loads").expect("some");
    assert_eq!((newest.ledger_seq, newest.through_record), (10, 1000));
    assert_eq!(newest.bytes, state(10));
    // An empty state is a valid snapshot too.
    s.write(11, 1100, &[]).expect("written");
    assert_eq!(
        s.load_newest_valid().expect("loads").expect("some").bytes,
        Vec::<u8>::new()
    );
}

#[test]
fn damaged_newest_falls_back_to_the_previous() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = snaps(dir.path());
    s.write(5, 50, &state(5)).expect("written");
    s.write(6, 60, &state(6)).expect("written");
    let p7 = s.write(7, 70, &state(7)).expect("written");
    // Flip one byte in the middle of the newest.
    let mut bytes = std::fs::read(&p7).expect("read");
    bytes[500] ^= 0x80;
    std::fs::write(&p7, &bytes).expect("write");
    let infos = s.list().expect("list");
    let err = s.load(&infos[2]).expect_err("damaged");
    assert!(matches!(err, StoreError::SnapshotCorrupt { .. }), "{err}");
    let got = s.load_newest_valid().expect("loads").expect("some");
    assert_eq!((got.ledger_seq, got.bytes), (6, state(6)));
    // And a truncated one (a crash could not cause it: rename is atomic; a bad disk could).
    let p6 = &infos[1].path;
    let len = std::fs::metadata(p6).expect("meta").len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(p6)
        .expect("open")
        .set_len(len / 2)
        .expect("cut");
    let got = s.load_newest_valid().expect("loads").expect("some");
    assert_eq!(got.ledger_seq, 5);
}

#[test]
fn a_file_renamed_to_another_ledger_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = snaps(dir.path());
    let p = s.write(5, 50, &state(5)).expect("written");
    let wrong = dir
        .path()
        .join("snapshot-0000000009-00000000000000000090.snap");
    std::fs::rename(&p, &wrong).expect("rename");
    assert_eq!(s.load_newest_valid().expect("loads"), None);
}

#[test]
fn prune_history_keeps_snapshots_and_the_journal_they_need() {
    let root = tempfile::tempdir().expect("tempdir");
    let jdir = root.path().join("journal");
    let options = JournalOptions {
        segment_bytes_max: 1024,
        ..JournalOptions::default()
    };
    let (journal, _) = open_journal_with(&jdir, options.clone()).expect("opens");
    let s = snaps(&root.path().join("snapshots"));
    // Ten ledgers of 20 transactions and a close each; a snapshot after every close.
    let mut closes = Vec::new();
    for ledger in 1..=10u32 {
        for t in 0..20 {
            journal
                .append(
                    RecordKind::Transaction,
                    format!("l{ledger} t{t} ........").into_bytes(),
                )
                .wait()
                .expect("durable");
        }
        let close = journal
            .append(
                RecordKind::LedgerClose,
                format!("header {ledger}").into_bytes(),
            )
            .wait()
            .expect("durable");
        closes.push(close);
        s.write(ledger, close, &state(ledger)).expect("snapshot");
    }
    let segments_before = journal.stats().segments;
    // Snapshots 8, 9 and 10 are kept: the oldest is 2 ledgers behind the newest, so a
    // history of 3 keeps the journal; a history of 2 lets it go.
    let report = prune_history(&journal, &s, 3, 3).expect("prunes");
    assert_eq!(report.snapshots_removed, 7);
    assert_eq!(
        report.segments_removed, 0,
        "the history window needs the journal"
    );
    let report = prune_history(&journal, &s, 3, 2).expect("prunes");
    assert_eq!(report.snapshots_removed, 0);
    assert!(report.segments_removed > 0);
    assert_eq!(
        journal.stats().segments,
        segments_before - report.segments_removed as u64
    );
    let kept: Vec<u32> = s
        .list()
        .expect("list")
        .iter()
        .map(|i| i.ledger_seq)
        .collect();
    assert_eq!(kept, vec![8, 9, 10]);
    drop(journal);

    // After a restart, replay from the oldest kept snapshot still works; older is gone.
    let (_j, rec) = open_journal_with(&jdir, options).expect("reopens");
    let oldest = &s.list().expect("list")[0];
    assert!(rec.first_record <= oldest.through_record + 1);
    let replayed: Vec<u64> = rec
        .replay_after(oldest.through_record)
        .expect("replay")
        .map(|r| r.expect("record").number)
        .collect();
    assert_eq!(replayed, ((closes[7] + 1)..=closes[9]).collect::<Vec<_>>());
    assert!(matches!(rec.replay_from(1), Err(StoreError::Pruned { .. })));
}

#[test]
fn replay_reports_progress() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (journal, _) = open_journal(dir.path());
        let tickets: Vec<_> = (0..1000)
            .map(|i| journal.append(RecordKind::Transaction, vec![i as u8; 10]))
            .collect();
        for t in tickets {
            t.wait().expect("durable");
        }
    }
    let (_j, rec) = open_journal(dir.path());
    let seen = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let sink = seen.clone();
    let replay = rec
        .replay_after(100)
        .expect("replay")
        .with_progress_every(300, move |p| sink.lock().push((p.done, p.total)));
    assert_eq!(replay.total(), 900);
    assert_eq!(replay.count(), 900);
    assert_eq!(*seen.lock(), vec![(300, 900), (600, 900), (900, 900)]);
}
