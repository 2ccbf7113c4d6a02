//! Acknowledged records lost after the fact: a journal segment truncated to half, zeroed,
//! emptied or deleted, or the acknowledgement record itself damaged. Each is refused,
//! naming the file, the records and the bytes missing; each is repaired with
//! `JournalOptions::repair`, which says what it discarded and keeps the surviving prefix.
//! A torn write whose fsync never returned is still cut silently (faults.rs).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ledgerd::store::{
    DiskStorage, FaultyStorage, Journal, JournalOptions, RecordKind, Recovered, StoreError,
};

/// Bytes of a record header on disk (see src/store/record.rs).
const HEADER: u64 = 21;

fn body(i: u64) -> Vec<u8> {
    format!("acknowledged transaction {i:04}, padded to a fixed length.....").into_bytes()
}

fn record_bytes() -> u64 {
    HEADER + body(1).len() as u64
}

fn options(repair: bool, segment_bytes_max: u64) -> JournalOptions {
    JournalOptions {
        repair,
        segment_bytes_max,
        ..JournalOptions::default()
    }
}

fn open(dir: &Path, repair: bool) -> Result<(Journal, Recovered), StoreError> {
    Journal::open(Arc::new(DiskStorage), dir, options(repair, 1 << 20))
}

/// Appends records `1..=n`, each acknowledged on its own (its own batch and fdatasync),
/// into segments of about `segment_bytes_max`.
fn acknowledge(dir: &Path, n: u64, segment_bytes_max: u64) {
    let (journal, _) = Journal::open(
        Arc::new(DiskStorage),
        dir,
        options(false, segment_bytes_max),
    )
    .expect("opens");
    for i in 1..=n {
        let got = journal
            .append(RecordKind::Transaction, body(i))
            .wait()
            .expect("durable");
        assert_eq!(got, i);
    }
    journal.close().expect("healthy");
}

fn segments(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "seg"))
        .collect();
    v.sort();
    v
}

fn payloads(rec: &Recovered) -> Vec<Vec<u8>> {
    rec.replay_from(rec.first_record)
        .expect("replay")
        .map(|r| r.expect("record").payload)
        .collect()
}

/// Opening refuses: the error names `file`, the byte, and `records`; nothing changes on
/// disk.
fn assert_refused(dir: &Path, file: &Path, offset: u64, records: &str, more: &str) -> String {
    let before: Vec<_> = segments(dir)
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let err = open(dir, false).expect_err("must refuse");
    let text = err.to_string();
    match &err {
        StoreError::Corrupt {
            file: f, offset: o, ..
        } => {
            assert_eq!((f.as_path(), *o), (file, offset), "{text}");
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    assert!(text.contains(&file.display().to_string()), "{text}");
    assert!(text.contains(records), "wanted {records:?}: {text}");
    assert!(text.contains(more), "wanted {more:?}: {text}");
    let after: Vec<_> = segments(dir)
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    assert_eq!(before, after, "refusing changes nothing");
    text
}

/// The repair opens, reports `first..=last` discarded, keeps records `1..first`, and the
/// journal goes on from `first`, then reopens without repair.
fn assert_repaired(dir: &Path, first: u64, last: u64) -> Recovered {
    let (journal, rec) = open(dir, true).expect("a repair opens");
    let d = rec
        .discarded
        .clone()
        .expect("the repair reports what it discarded");
    assert_eq!(
        (d.first_record, d.last_acknowledged),
        (first, Some(last)),
        "{d}"
    );
    let text = d.to_string();
    assert!(
        text.contains(&format!("discarded journal records {first}..{last}")),
        "{text}"
    );
    assert_eq!(rec.next_record, first);
    let kept = payloads(&rec);
    assert_eq!(kept, (1..first).map(body).collect::<Vec<_>>());
    let n = journal
        .append(RecordKind::Transaction, b"after the repair".to_vec())
        .wait()
        .expect("writes again");
    assert_eq!(n, first);
    journal.close().expect("healthy");
    let (_j, again) = open(dir, false).expect("reopens without repair");
    assert!(again.discarded.is_none() && again.repaired_tail.is_none());
    assert_eq!(again.next_record, first + 1);
    rec
}

#[test]
fn a_segment_truncated_to_half_refuses_naming_the_missing_records_and_repairs() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 20, 1 << 20);
    let seg = segments(dir.path()).remove(0);
    let full = 20 * record_bytes();
    assert_eq!(std::fs::metadata(&seg).expect("meta").len(), full);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&seg)
        .expect("open")
        .set_len(full / 2)
        .expect("truncate");
    let text = assert_refused(
        dir.path(),
        &seg,
        full / 2,
        "acknowledged records 11..20 are missing",
        &format!("ends at byte {} but {full} bytes", full / 2),
    );
    assert!(
        text.contains(&format!("({} bytes missing)", full / 2)),
        "{text}"
    );
    let rec = assert_repaired(dir.path(), 11, 20);
    // Cut at a record boundary: nothing to cut, only the missing records reported.
    assert_eq!(rec.discarded.expect("discarded").cut, None);
}

#[test]
fn a_segment_cut_inside_a_record_refuses_and_the_repair_cuts_the_partial_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 20, 1 << 20);
    let seg = segments(dir.path()).remove(0);
    let keep = 7 * record_bytes() + 10;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&seg)
        .expect("open")
        .set_len(keep)
        .expect("truncate");
    assert_refused(
        dir.path(),
        &seg,
        7 * record_bytes(),
        "acknowledged records 8..20 are missing or unreadable",
        "the file ends inside the record",
    );
    let rec = assert_repaired(dir.path(), 8, 20);
    let d = rec.discarded.expect("discarded");
    assert_eq!(d.cut, Some((seg.clone(), 10)));
    // The segment as it was is kept beside it.
    let copy = d.set_aside.first().expect("a copy");
    assert_eq!(std::fs::metadata(copy).expect("copy").len(), keep);
}

#[test]
fn a_zeroed_segment_refuses_and_repairs_to_an_empty_journal() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 20, 1 << 20);
    let seg = segments(dir.path()).remove(0);
    let full = 20 * record_bytes();
    std::fs::write(&seg, vec![0u8; full as usize]).expect("zero");
    assert_refused(
        dir.path(),
        &seg,
        0,
        "acknowledged records 1..20 are missing or unreadable",
        &format!("({full} bytes of it were acknowledged, {full} of them from byte 0 on)"),
    );
    let rec = assert_repaired(dir.path(), 1, 20);
    assert_eq!(rec.discarded.expect("discarded").cut, Some((seg, full)));
}

#[test]
fn an_emptied_segment_refuses_and_repairs() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 20, 1 << 20);
    let seg = segments(dir.path()).remove(0);
    let full = 20 * record_bytes();
    std::fs::write(&seg, b"").expect("empty");
    assert_refused(
        dir.path(),
        &seg,
        0,
        "acknowledged records 1..20 are missing",
        &format!("ends at byte 0 but {full} bytes of it were acknowledged ({full} bytes missing)"),
    );
    assert_repaired(dir.path(), 1, 20);
}

#[test]
fn a_deleted_segment_refuses_and_repairs() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 20, 1 << 20);
    let seg = segments(dir.path()).remove(0);
    let full = 20 * record_bytes();
    std::fs::remove_file(&seg).expect("delete");
    assert_refused(
        dir.path(),
        &seg,
        0,
        "acknowledged records 1..20 are missing",
        &format!("the segment file is missing ({full} bytes of it were acknowledged)"),
    );
    assert_repaired(dir.path(), 1, 20);
}

#[test]
fn the_deleted_last_of_several_segments_refuses_and_repairs_to_the_ones_before() {
    let dir = tempfile::tempdir().expect("tempdir");
    // About 8 records per segment.
    acknowledge(dir.path(), 40, 8 * record_bytes() - 1);
    let segs = segments(dir.path());
    assert!(segs.len() >= 4, "{segs:?}");
    let last = segs.last().expect("last").clone();
    let name = last.file_name().and_then(|n| n.to_str()).expect("name");
    let first_of_last: u64 = name["journal-".len()..name.len() - ".seg".len()]
        .parse()
        .expect("number");
    std::fs::remove_file(&last).expect("delete");
    assert_refused(
        dir.path(),
        &last,
        0,
        &format!("acknowledged records {first_of_last}..40 are missing"),
        "the segment file is missing",
    );
    assert_repaired(dir.path(), first_of_last, 40);
}

#[test]
fn a_deleted_middle_segment_refuses_and_the_repair_sets_the_later_ones_aside() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 40, 8 * record_bytes() - 1);
    let segs = segments(dir.path());
    std::fs::remove_file(&segs[1]).expect("delete");
    let err = open(dir.path(), false).expect_err("must refuse");
    let text = err.to_string();
    assert!(text.contains(&segs[2].display().to_string()), "{text}");
    assert!(text.contains("records 9..16 are missing"), "{text}");
    let (_j, rec) = open(dir.path(), true).expect("repairs");
    let d = rec.discarded.expect("discarded");
    assert_eq!((d.first_record, d.last_acknowledged), (9, Some(40)));
    assert_eq!(d.set_aside.len(), segs.len() - 2, "{d}");
    for p in &d.set_aside {
        assert!(p.to_string_lossy().ends_with(".seg.discarded"), "{p:?}");
        assert!(p.exists());
    }
    assert_eq!(rec.next_record, 9);
}

#[test]
fn a_torn_update_of_the_acknowledgement_record_keeps_the_previous_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let faults = FaultyStorage::default();
    let (journal, _) = Journal::open(
        Arc::new(faults.clone()),
        dir.path(),
        JournalOptions::default(),
    )
    .expect("opens");
    for i in 1..=5 {
        journal
            .append(RecordKind::Transaction, body(i))
            .wait()
            .expect("durable");
    }
    // Write k+1 is the next batch's data, k+2 its acknowledgement record: tear that one
    // after 12 bytes. The batch was synced but is reported failed (never acknowledged).
    faults.tear_write(faults.writes() + 2, 12);
    let t = journal.append(RecordKind::Transaction, body(6)).wait();
    assert!(t.is_err(), "the batch is not acknowledged: {t:?}");
    drop(journal);
    // The record still reads (its previous slot): 1..=5 acknowledged, and record 6, whole
    // on disk, is kept as a whole record past them.
    let (_j, rec) = open(dir.path(), false).expect("opens");
    assert!(rec.discarded.is_none() && rec.repaired_tail.is_none());
    assert_eq!(payloads(&rec), (1..=6).map(body).collect::<Vec<_>>());
}

#[test]
fn an_unreadable_acknowledgement_record_refuses_and_the_repair_trusts_the_scan() {
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 10, 1 << 20);
    let path = dir.path().join("synced");
    let len = std::fs::metadata(&path).expect("synced").len() as usize;
    std::fs::write(&path, vec![0x5Au8; len]).expect("damage");
    let err = open(dir.path(), false).expect_err("must refuse");
    let text = err.to_string();
    assert!(
        text.contains("synced") && text.contains("acknowledgement record is unreadable"),
        "{text}"
    );
    let (_j, rec) = open(dir.path(), true).expect("repairs");
    assert_eq!(payloads(&rec), (1..=10).map(body).collect::<Vec<_>>());
}

#[test]
fn a_journal_without_an_acknowledgement_record_opens_by_the_old_rule() {
    // A journal written before the record existed: the scan alone judges, and the record
    // is written from then on.
    let dir = tempfile::tempdir().expect("tempdir");
    acknowledge(dir.path(), 10, 1 << 20);
    std::fs::remove_file(dir.path().join("synced")).expect("remove");
    let (journal, rec) = open(dir.path(), false).expect("opens");
    assert_eq!(rec.next_record, 11);
    drop(journal);
    assert!(dir.path().join("synced").exists());
    let seg = segments(dir.path()).remove(0);
    std::fs::write(&seg, b"").expect("empty");
    assert!(open(dir.path(), false).is_err(), "now it is known");
}
