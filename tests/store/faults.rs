//! The journal and snapshots under injected faults: a torn write, a failed write or
//! fsync, a full disk. After any of them nothing more is acknowledged, and a reopen on the
//! real disk finds every acknowledged record and none that was reported failed.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use ledgerd::store::{
    DiskStorage, FaultyStorage, Journal, JournalOptions, RecordKind, Snapshots, StoreError, Ticket,
};
use support::journal::{open_faulty, open_journal, replay_all, segments};

fn body(i: u64) -> Vec<u8> {
    format!("transaction number {i} with some bytes").into_bytes()
}

/// Appends records `from..=to` one at a time, each acknowledged.
fn ack(journal: &Journal, from: u64, to: u64) {
    for i in from..=to {
        assert_eq!(
            journal
                .append(RecordKind::Transaction, body(i))
                .wait()
                .expect("durable"),
            i
        );
    }
}

/// Appends `count` records without waiting; returns their tickets.
fn burst(journal: &Journal, from: u64, count: u64) -> Vec<Ticket> {
    (from..from + count)
        .map(|i| journal.append(RecordKind::Transaction, body(i)))
        .collect()
}

fn assert_poisoned(journal: &Journal, tickets: Vec<Ticket>) {
    for t in tickets {
        let err = t.wait().expect_err("must not be acknowledged");
        assert!(matches!(err, StoreError::Poisoned { .. }), "{err:?}");
    }
    // Later appends fail at once; health and stats report the failure.
    let later = journal.append(RecordKind::Transaction, b"later".to_vec());
    assert!(matches!(
        later.try_result(),
        Some(Err(StoreError::Poisoned { .. }))
    ));
    assert!(journal.health().is_err());
    assert!(journal.stats().failure.is_some());
}

fn assert_exactly(dir: &Path, acknowledged: u64) {
    let (_j, rec) = open_journal(dir);
    let all = replay_all(&rec);
    assert_eq!(all.len() as u64, acknowledged);
    for (i, r) in (1..).zip(&all) {
        assert_eq!(r.payload, body(i));
    }
}

#[test]
fn torn_write_then_crash_recovers_to_the_last_acknowledged_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, faults) = open_faulty(dir.path());
    ack(&journal, 1, 10);
    // The next write stores 30 bytes (one whole header and part of a payload), then the
    // machine is gone: nothing can clean up.
    faults.tear_write(faults.writes() + 1, 30);
    let tickets = burst(&journal, 11, 5);
    assert_poisoned(&journal, tickets);
    assert_eq!(journal.stats().records, 10);
    drop(journal);

    let (_j, rec) = open_journal(dir.path());
    let repair = rec.repaired_tail.clone().expect("the torn bytes were cut");
    assert_eq!(repair.dropped_bytes, 30);
    assert_eq!(rec.next_record, 11);
    assert_eq!(replay_all(&rec).len(), 10);
}

#[test]
fn failed_fsync_poisons_and_reopen_sees_only_acknowledged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, faults) = open_faulty(dir.path());
    ack(&journal, 1, 10);
    faults.fail_sync(faults.syncs() + 1);
    let tickets = burst(&journal, 11, 50);
    assert_poisoned(&journal, tickets);
    let stats = journal.stats();
    assert_eq!(stats.records, 10);
    assert!(
        stats.failure.as_deref().unwrap_or("").contains("fsync"),
        "{stats:?}"
    );
    // The storage works again, but the journal never retries or accepts more.
    let again = journal.append(RecordKind::Transaction, b"retry".to_vec());
    assert!(again.wait().is_err());
    assert!(journal.close().is_err());
    assert_exactly(dir.path(), 10);
}

#[test]
fn failed_write_poisons_the_same_way() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, faults) = open_faulty(dir.path());
    ack(&journal, 1, 7);
    faults.fail_write(faults.writes() + 1);
    let tickets = burst(&journal, 8, 20);
    assert_poisoned(&journal, tickets);
    drop(journal);
    assert_exactly(dir.path(), 7);
}

#[test]
fn full_disk_poisons_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, faults) = open_faulty(dir.path());
    ack(&journal, 1, 5);
    faults.set_disk_full(true);
    let err = journal
        .append(RecordKind::Transaction, body(6))
        .wait()
        .expect_err("disk is full");
    assert!(err.is_disk_full(), "{err}");
    assert!(err.to_string().contains("No space left"), "{err}");
    // Room again does not bring the journal back: it never claims what it cannot prove.
    faults.set_disk_full(false);
    assert_poisoned(&journal, burst(&journal, 7, 3));
    drop(journal);
    assert_exactly(dir.path(), 5);
}

#[test]
fn disk_filling_mid_write_leaves_no_partial_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, faults) = open_faulty(dir.path());
    ack(&journal, 1, 5);
    // Room for a little more than one record: the write that crosses it stores a prefix.
    faults.set_space_left(80);
    ack(&journal, 6, 6);
    let err = journal
        .append(RecordKind::Transaction, body(7))
        .wait()
        .expect_err("disk is full");
    assert!(err.is_disk_full(), "{err}");
    drop(journal);
    let (_j, rec) = open_journal(dir.path());
    // The partial write was cut back by the journal itself, not by recovery.
    assert!(rec.repaired_tail.is_none());
    assert_eq!(replay_all(&rec).len(), 6);
}

#[test]
fn failed_snapshot_fsync_leaves_the_previous_snapshot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let faults = FaultyStorage::default();
    let snaps = Snapshots::open(Arc::new(faults.clone()), dir.path()).expect("opens");
    snaps.write(10, 100, b"state at 10").expect("written");
    faults.fail_sync(faults.syncs() + 1);
    assert!(snaps.write(11, 120, b"state at 11").is_err());
    let newest = snaps
        .load_newest_valid()
        .expect("loads")
        .expect("one snapshot");
    assert_eq!(
        (newest.ledger_seq, newest.bytes.as_slice()),
        (10, &b"state at 10"[..])
    );
    // The temporary file is cleaned up by the next open.
    drop(snaps);
    let snaps = Snapshots::open(Arc::new(DiskStorage), dir.path()).expect("opens");
    assert_eq!(snaps.list().expect("list").len(), 1);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn a_failed_segment_removal_does_not_stop_pruning_for_good() {
    let dir = tempfile::tempdir().expect("tempdir");
    let faults = FaultyStorage::default();
    let options = JournalOptions {
        segment_bytes_max: 512,
        ..JournalOptions::default()
    };
    let (journal, _) = Journal::open(Arc::new(faults.clone()), dir.path(), options).expect("opens");
    ack(&journal, 1, 200);
    let seg_files = || segments(dir.path()).len();
    let before = seg_files();
    assert!(before > 6, "rotated into {before} segments");
    // The second removal fails: the first segment is gone, the rest stay.
    faults.fail_remove(2);
    let Err(e) = journal.prune_before(u64::MAX) else {
        panic!("the injected removal failure was not reported");
    };
    assert!(e.to_string().contains("remove"), "{e}");
    assert_eq!(seg_files(), before - 1);
    assert_eq!(
        journal.stats().segments as usize,
        before - 1,
        "what is left"
    );
    // The next prune goes on from there (the first segment is not tried again).
    assert_eq!(journal.prune_before(u64::MAX).expect("prunes"), before - 2);
    assert_eq!(seg_files(), 1);
    assert_eq!(journal.stats().segments, 1);
    ack(&journal, 201, 210);
    drop(journal);
    let (_j, rec) = open_journal(dir.path());
    assert_eq!(rec.next_record, 211);
}
