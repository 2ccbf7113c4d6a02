//! The journal on a real disk: round trips, group commit under concurrency, rotation,
//! torn tails and corruption.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use ledgerd::store::{Journal, JournalOptions, RecordKind, Recovered, StoreError};
use rand::{Rng, SeedableRng};
use support::journal::{
    open_journal as open, open_journal_with as open_with, replay_all, segments,
};

/// Bytes of a record header on disk (see src/store/record.rs).
const HEADER: u64 = 21;

fn payload(i: u64) -> Vec<u8> {
    let len = (i * 37 % 300) as usize;
    (0..len).map(|j| (i as usize * 7 + j) as u8).collect()
}

fn kind(i: u64) -> RecordKind {
    if i.is_multiple_of(10) {
        RecordKind::LedgerClose
    } else {
        RecordKind::Transaction
    }
}

#[test]
fn append_reopen_replay_round_trip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, rec) = open(dir.path());
    assert_eq!((rec.first_record, rec.next_record), (1, 1));
    assert_eq!(replay_all(&rec), vec![]);
    for i in 1..=100u64 {
        let n = journal.append(kind(i), payload(i)).wait().expect("durable");
        assert_eq!(n, i);
    }
    journal.close().expect("healthy");

    let (journal, rec) = open(dir.path());
    assert_eq!(
        (rec.first_record, rec.next_record, rec.record_count()),
        (1, 101, 100)
    );
    assert!(rec.repaired_tail.is_none());
    let all = replay_all(&rec);
    assert_eq!(all.len(), 100);
    for (i, r) in (1..).zip(&all) {
        assert_eq!((r.number, r.kind, &r.payload), (i, kind(i), &payload(i)));
    }
    let tail: Vec<u64> = rec
        .replay_after(90)
        .expect("replay")
        .map(|r| r.expect("record").number)
        .collect();
    assert_eq!(tail, (91..=100).collect::<Vec<_>>());
    // Numbers continue after a reopen.
    assert_eq!(
        journal
            .append(RecordKind::Meta, b"after".to_vec())
            .wait()
            .expect("ok"),
        101
    );
    drop(journal);
    let (_j, rec) = open(dir.path());
    let all = replay_all(&rec);
    assert_eq!(all.len(), 101);
    assert_eq!(all[100].payload, b"after");
}

#[test]
fn concurrent_appenders_share_fsyncs_and_all_survive_in_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, _) = open(dir.path());
    let journal = Arc::new(journal);
    let threads = 16u64;
    let per_thread = 300u64;
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let journal = journal.clone();
            std::thread::spawn(move || {
                let mut acked = Vec::new();
                // Windows of 20 in flight per thread, like a connection with pipelining.
                for window in 0..per_thread / 20 {
                    let tickets: Vec<_> = (0..20)
                        .map(|k| {
                            let body = format!("t{t}-{}", window * 20 + k).into_bytes();
                            (body.clone(), journal.append(RecordKind::Transaction, body))
                        })
                        .collect();
                    for (body, ticket) in tickets {
                        acked.push((ticket.wait().expect("acknowledged"), body));
                    }
                }
                acked
            })
        })
        .collect();
    let mut acked = Vec::new();
    for h in handles {
        let mine = h.join().expect("thread");
        // Each thread's records got increasing numbers, in its own order.
        assert!(mine.windows(2).all(|w| w[0].0 < w[1].0));
        acked.extend(mine);
    }
    let total = threads * per_thread;
    assert_eq!(acked.len() as u64, total);
    let stats = journal.stats();
    assert_eq!(stats.records, total);
    assert!(
        stats.fsyncs * 4 <= stats.records,
        "group commit should batch: {stats:?}"
    );
    assert!(stats.records_per_fsync >= 4.0);
    assert!(stats.failure.is_none());
    drop(journal);

    let (_j, rec) = open(dir.path());
    let all = replay_all(&rec);
    assert_eq!(all.len() as u64, total);
    acked.sort();
    for ((n, body), r) in acked.iter().zip(&all) {
        assert_eq!((r.number, &r.payload), (*n, body));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tickets_are_futures_and_callbacks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, _) = open(dir.path());
    let a = journal.append(RecordKind::Transaction, b"a".to_vec());
    let b = journal.append(RecordKind::Transaction, b"b".to_vec());
    assert_eq!(b.await.expect("b"), 2);
    assert_eq!(a.await.expect("a"), 1);
    let (tx, rx) = tokio::sync::oneshot::channel();
    journal
        .append(RecordKind::LedgerClose, b"close".to_vec())
        .on_complete(move |r| {
            let _ = tx.send(r);
        });
    assert_eq!(rx.await.expect("callback ran").expect("durable"), 3);
}

#[test]
fn oversized_payload_is_refused_before_the_disk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = JournalOptions {
        payload_bytes_max: 1000,
        ..JournalOptions::default()
    };
    let (journal, _) = open_with(dir.path(), options).expect("opens");
    let t = journal.append(RecordKind::Transaction, vec![0u8; 1001]);
    assert_eq!(t.record_number(), None);
    assert!(matches!(
        t.wait(),
        Err(StoreError::PayloadTooLarge {
            bytes: 1001,
            max: 1000
        })
    ));
    // Nothing was used up: the next record is number 1.
    assert_eq!(
        journal
            .append(RecordKind::Transaction, vec![1])
            .wait()
            .expect("ok"),
        1
    );
}

#[test]
fn segments_rotate_replay_across_them_and_prune() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = JournalOptions {
        segment_bytes_max: 2048,
        ..JournalOptions::default()
    };
    let (journal, _) = open_with(dir.path(), options.clone()).expect("opens");
    for i in 1..=200u64 {
        journal.append(kind(i), payload(i)).wait().expect("durable");
    }
    let count = segments(dir.path()).len();
    assert!(count > 5, "expected rotation, got {count} segments");
    for seg in segments(dir.path()) {
        // A segment overshoots its bound by at most one batch (here one record).
        assert!(std::fs::metadata(&seg).expect("meta").len() <= 2048 + HEADER + 300);
    }
    assert_eq!(journal.stats().segments as usize, count);
    drop(journal);

    let (journal, rec) = open_with(dir.path(), options.clone()).expect("reopens");
    let all = replay_all(&rec);
    assert_eq!(
        all.iter().map(|r| r.number).collect::<Vec<_>>(),
        (1..=200).collect::<Vec<_>>()
    );
    let removed = journal.prune_before(150).expect("prunes");
    assert!(removed > 0 && removed < count);
    // Never the segment being written, even when asked to prune everything.
    journal.prune_before(u64::MAX).expect("prunes");
    assert_eq!(segments(dir.path()).len(), 1);
    assert_eq!(
        journal
            .append(RecordKind::Meta, vec![9])
            .wait()
            .expect("ok"),
        201
    );
    drop(journal);

    let (_j, rec) = open_with(dir.path(), options).expect("reopens");
    let only = segments(dir.path()).remove(0);
    let name = only
        .file_name()
        .and_then(|n| n.to_str())
        .expect("name")
        .to_owned();
    assert_eq!(name, format!("journal-{:020}.seg", rec.first_record));
    assert!(rec.first_record > 150);
    assert!(matches!(
        rec.replay_from(1),
        Err(StoreError::Pruned { wanted: 1, .. })
    ));
    let last: Vec<u64> = rec
        .replay_from(rec.first_record)
        .expect("replay")
        .map(|r| r.expect("record").number)
        .collect();
    assert_eq!(last.last(), Some(&201));
}

/// Writes `n` records, each acknowledged on its own (one batch each); returns the end
/// offset of every record in the (single) segment.
fn write_individually(dir: &Path, n: u64) -> Vec<u64> {
    let (journal, _) = open(dir);
    let mut ends = Vec::new();
    let mut end = 0;
    for i in 1..=n {
        journal.append(kind(i), payload(i)).wait().expect("durable");
        end += HEADER + payload(i).len() as u64;
        ends.push(end);
    }
    journal.close().expect("healthy");
    ends
}

fn open_repairing(dir: &Path) -> (Journal, Recovered) {
    let options = JournalOptions {
        repair: true,
        ..JournalOptions::default()
    };
    open_with(dir, options).expect("a repair opens")
}

#[test]
fn a_random_cut_into_acknowledged_records_refuses_and_repair_keeps_the_whole_ones() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    for _ in 0..12 {
        let dir = tempfile::tempdir().expect("tempdir");
        let ends = write_individually(dir.path(), 30);
        let seg = segments(dir.path()).remove(0);
        let total = *ends.last().expect("records");
        let cut = rng.gen_range(1..=total);
        let new_len = total - cut;
        std::fs::OpenOptions::new()
            .write(true)
            .open(&seg)
            .expect("open")
            .set_len(new_len)
            .expect("cut");
        let whole = ends.iter().filter(|&&e| e <= new_len).count() as u64;
        let whole_end = if whole == 0 {
            0
        } else {
            ends[whole as usize - 1]
        };
        // Every record was acknowledged on its own: any cut loses acknowledged ones.
        let err = open_with(dir.path(), JournalOptions::default()).expect_err("must refuse");
        let text = err.to_string();
        match &err {
            StoreError::Corrupt { file, offset, .. } => {
                assert_eq!(file, &seg, "{text}");
                assert_eq!(*offset, whole_end, "{text}");
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
        let records = format!("acknowledged records {}..30", whole + 1);
        assert!(text.contains(&records), "cut {cut} of {total}: {text}");
        assert!(
            text.contains(&format!("{total} bytes of it were acknowledged")),
            "{text}"
        );
        assert_eq!(
            std::fs::metadata(&seg).expect("meta").len(),
            new_len,
            "untouched"
        );

        let (journal, rec) = open_repairing(dir.path());
        assert!(rec.repaired_tail.is_none());
        let d = rec
            .discarded
            .clone()
            .expect("the repair says what it discarded");
        assert_eq!((d.first_record, d.last_acknowledged), (whole + 1, Some(30)));
        assert_eq!(
            d.cut.is_some(),
            new_len != whole_end,
            "cut {cut} of {total}"
        );
        assert_eq!(rec.next_record, whole + 1);
        let all = replay_all(&rec);
        assert_eq!(all.len() as u64, whole);
        for (i, r) in (1..).zip(&all) {
            assert_eq!(r.payload, payload(i));
        }
        // The journal goes on from the cut, and reopens cleanly without repair.
        let n = journal
            .append(RecordKind::Meta, b"next".to_vec())
            .wait()
            .expect("ok");
        assert_eq!(n, whole + 1);
        drop(journal);
        let (_j, rec) = open(dir.path());
        assert!(rec.repaired_tail.is_none() && rec.discarded.is_none());
        assert_eq!(rec.next_record, whole + 2);
    }
}

#[test]
fn zero_filled_tail_is_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ends = write_individually(dir.path(), 10);
    let seg = segments(dir.path()).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    bytes.extend_from_slice(&[0u8; 4096]);
    std::fs::write(&seg, &bytes).expect("write");
    let (_j, rec) = open(dir.path());
    assert_eq!(rec.next_record, 11);
    let t = rec.repaired_tail.expect("repaired");
    assert_eq!((t.offset, t.dropped_bytes), (ends[9], 4096));
}

#[test]
fn corrupt_early_record_refuses_to_open_naming_file_and_offset() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ends = write_individually(dir.path(), 30);
    let seg = segments(dir.path()).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    // Record 4 starts where record 3 ends; flip a byte of its payload.
    let start = ends[2];
    bytes[(start + HEADER + 2) as usize] ^= 0x01;
    std::fs::write(&seg, &bytes).expect("write");
    let err = open_with(dir.path(), JournalOptions::default()).expect_err("must refuse");
    match &err {
        StoreError::Corrupt { file, offset, .. } => {
            assert_eq!(file, &seg);
            assert_eq!(*offset, start);
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains(&seg.display().to_string()), "{text}");
    assert!(text.contains(&format!("byte {start}")), "{text}");
    // The file is untouched: refusing never truncates.
    assert_eq!(std::fs::read(&seg).expect("read"), bytes);
}

#[test]
fn corrupt_length_field_of_early_record_also_refuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ends = write_individually(dir.path(), 30);
    let seg = segments(dir.path()).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    bytes[(ends[4] + 5) as usize] ^= 0x10;
    std::fs::write(&seg, &bytes).expect("write");
    let err = open_with(dir.path(), JournalOptions::default()).expect_err("must refuse");
    assert!(matches!(err, StoreError::Corrupt { offset, .. } if offset == ends[4]));
}

/// Records 1..=5 acknowledged one by one, then 6..=15 in one batch; returns the end
/// offsets of 1..=5 and the acknowledgement record as it was before the batch.
fn five_then_a_batch_of_ten(dir: &Path) -> (Vec<u64>, Vec<u8>) {
    let ends = write_individually(dir, 5);
    let before = std::fs::read(dir.join("synced")).expect("acknowledgement record");
    // Queue 6..=15 before the writer takes the first, with a tiny group wait.
    let options = JournalOptions {
        group_wait: std::time::Duration::from_millis(5),
        ..JournalOptions::default()
    };
    let (journal, _) = open_with(dir, options).expect("opens");
    let tickets: Vec<_> = (6..=15u64)
        .map(|i| journal.append(kind(i), payload(i)))
        .collect();
    for t in tickets {
        t.wait().expect("durable");
    }
    assert_eq!(journal.stats().fsyncs, 1, "one batch expected");
    (ends, before)
}

#[test]
fn damage_inside_an_unacknowledged_last_batch_is_a_torn_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ends, before) = five_then_a_batch_of_ten(dir.path());
    // As if the batch's fdatasync never returned: the acknowledgement record still ends
    // at record 5 (it is written only after the fdatasync).
    std::fs::write(dir.path().join("synced"), before).expect("restore");
    let seg = segments(dir.path()).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    let rec7 = ends[4] + HEADER + payload(6).len() as u64;
    bytes[(rec7 + HEADER) as usize] ^= 0x01;
    std::fs::write(&seg, &bytes).expect("write");
    // Nothing after the damaged record proves its batch was fsynced, so it is treated as
    // the torn last batch: cut at the damaged record.
    let (_j, rec) = open(dir.path());
    assert_eq!(rec.next_record, 7);
    assert_eq!(rec.repaired_tail.expect("repaired").offset, rec7);
}

#[test]
fn damage_inside_an_acknowledged_last_batch_refuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ends, _) = five_then_a_batch_of_ten(dir.path());
    let seg = segments(dir.path()).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    let rec7 = ends[4] + HEADER + payload(6).len() as u64;
    bytes[(rec7 + HEADER) as usize] ^= 0x01;
    std::fs::write(&seg, &bytes).expect("write");
    let err = open_with(dir.path(), JournalOptions::default()).expect_err("must refuse");
    assert!(
        matches!(&err, StoreError::Corrupt { file, offset, .. } if file == &seg && *offset == rec7),
        "{err}"
    );
    assert!(
        err.to_string().contains("acknowledged records 7..15"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&seg).expect("read"),
        bytes,
        "refusing never truncates"
    );
}

#[test]
fn damage_in_a_closed_segment_refuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = JournalOptions {
        segment_bytes_max: 1024,
        ..JournalOptions::default()
    };
    {
        let (journal, _) = open_with(dir.path(), options.clone()).expect("opens");
        for i in 1..=60u64 {
            journal.append(kind(i), payload(i)).wait().expect("durable");
        }
    }
    let segs = segments(dir.path());
    assert!(segs.len() >= 3);
    // Cut the tail of the first segment: it was closed, so this is damage, not a tear.
    let len = std::fs::metadata(&segs[0]).expect("meta").len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&segs[0])
        .expect("open")
        .set_len(len - 3)
        .expect("cut");
    let err = open_with(dir.path(), options).expect_err("must refuse");
    assert!(
        matches!(&err, StoreError::Corrupt { file, .. } if file == &segs[0]),
        "{err}"
    );
}

#[test]
fn a_full_queue_makes_append_wait_instead_of_growing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = JournalOptions {
        payload_bytes_max: 1000,
        queue_bytes_max: 2000,
        ..JournalOptions::default()
    };
    let (journal, _) = open_with(dir.path(), options).expect("opens");
    // 300 appends of 900 bytes with no waiting: only about two fit in the queue at once,
    // so append blocks for the writer; every record still arrives, in order.
    let tickets: Vec<_> = (0..300u64)
        .map(|i| journal.append(RecordKind::Transaction, vec![i as u8; 900]))
        .collect();
    for (i, t) in (1..).zip(tickets) {
        assert_eq!(t.wait().expect("durable"), i);
    }
    let stats = journal.stats();
    assert_eq!((stats.records, stats.queued_records), (300, 0));
    assert!(stats.batch_records_max <= 3, "{stats:?}");
}
