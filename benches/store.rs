//! Durable records per second through the journal's group commit, on this disk.
//!
//! `cargo bench --bench store` (set `STORE_BENCH_SECS` to change the time per run, default
//! 2). Two shapes of load:
//! - closed loop: N appender threads, each appends one record and waits until it is
//!   durable before the next (like N clients with one request in flight each);
//! - pipelined: one thread keeps W records in flight (like the sequencer of a busy server,
//!   which appends as it applies and replies when each ticket completes).
//!
//! Records carry 300 bytes, about a signed payment with its result. The data directory is
//! under `target/`, on the real disk (never tmpfs).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ledgerd::store::{DiskStorage, Journal, JournalOptions, RecordKind};

const PAYLOAD_BYTES: usize = 300;

struct Outcome {
    records: u64,
    secs: f64,
    fsyncs: u64,
    fsync_ms: f64,
}

fn print(label: &str, o: &Outcome) {
    println!(
        "{label:<28} {:>9.0} records/s  {:>7.1} records/fsync  {:>6.0} fsyncs/s  {:>5.2} ms/write+fsync",
        o.records as f64 / o.secs,
        o.records as f64 / o.fsyncs.max(1) as f64,
        o.fsyncs as f64 / o.secs,
        o.fsync_ms,
    );
}

fn fresh_journal() -> (tempfile::TempDir, Journal) {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/store-bench");
    std::fs::create_dir_all(&base).expect("bench dir");
    let dir = tempfile::tempdir_in(&base).expect("tempdir");
    let (journal, _) = Journal::open(Arc::new(DiskStorage), dir.path(), JournalOptions::default())
        .expect("journal opens");
    (dir, journal)
}

fn outcome(journal: &Journal, records: u64, started: Instant) -> Outcome {
    let secs = started.elapsed().as_secs_f64();
    let s = journal.stats();
    Outcome {
        records,
        secs,
        fsyncs: s.fsyncs,
        fsync_ms: s.write_micros as f64 / 1000.0 / s.fsyncs.max(1) as f64,
    }
}

fn closed_loop(threads: usize, run: Duration) -> Outcome {
    let (_dir, journal) = fresh_journal();
    let journal = Arc::new(journal);
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (journal, stop, done) = (journal.clone(), stop.clone(), done.clone());
            std::thread::spawn(move || {
                let payload = vec![0xA5u8; PAYLOAD_BYTES];
                while !stop.load(Ordering::Relaxed) {
                    journal
                        .append(RecordKind::Transaction, payload.clone())
                        .wait()
                        .expect("durable");
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    std::thread::sleep(run);
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        h.join().expect("appender");
    }
    outcome(&journal, done.load(Ordering::Relaxed), started)
}

fn pipelined(window: usize, run: Duration) -> Outcome {
    let (_dir, journal) = fresh_journal();
    let payload = vec![0x5Au8; PAYLOAD_BYTES];
    let mut in_flight = VecDeque::with_capacity(window);
    let mut records = 0u64;
    let started = Instant::now();
    while started.elapsed() < run {
        while in_flight.len() < window {
            in_flight.push_back(journal.append(RecordKind::Transaction, payload.clone()));
        }
        if let Some(t) = in_flight.pop_front() {
            t.wait().expect("durable");
            records += 1;
        }
    }
    for t in in_flight {
        t.wait().expect("durable");
        records += 1;
    }
    outcome(&journal, records, started)
}

/// Writes `records` records, closes the journal, then times what a restart costs the
/// store: opening (the recovery scan checks every record) and replaying them all.
fn restart(records: u64) {
    let (dir, journal) = fresh_journal();
    let payload = vec![0x3Cu8; PAYLOAD_BYTES];
    let mut in_flight = VecDeque::new();
    for _ in 0..records {
        in_flight.push_back(journal.append(RecordKind::Transaction, payload.clone()));
        if in_flight.len() >= 8192 {
            if let Some(t) = in_flight.pop_front() {
                t.wait().expect("durable");
            }
        }
    }
    for t in in_flight {
        t.wait().expect("durable");
    }
    let bytes = journal.stats().bytes;
    drop(journal);
    let started = Instant::now();
    let (_journal, recovered) =
        Journal::open(Arc::new(DiskStorage), dir.path(), JournalOptions::default())
            .expect("reopens");
    let opened = started.elapsed();
    let mut replayed = 0u64;
    let mut payload_bytes = 0usize;
    for r in recovered.replay_from(1).expect("replay") {
        payload_bytes += r.expect("record").payload.len();
        replayed += 1;
    }
    assert_eq!(replayed, records);
    assert_eq!(payload_bytes, PAYLOAD_BYTES * records as usize);
    println!(
        "restart with {records} records ({:.0} MiB): open (scan) {:.2} s, open + replay {:.2} s",
        bytes as f64 / (1024.0 * 1024.0),
        opened.as_secs_f64(),
        started.elapsed().as_secs_f64(),
    );
}

fn main() {
    let secs: u64 = std::env::var("STORE_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let run = Duration::from_secs(secs);
    println!("journal group commit, {PAYLOAD_BYTES}-byte records, {secs} s per run");
    for threads in [1usize, 16, 64, 256] {
        print(
            &format!("closed loop, {threads} threads"),
            &closed_loop(threads, run),
        );
    }
    for window in [256usize, 4096] {
        print(
            &format!("pipelined, {window} in flight"),
            &pipelined(window, run),
        );
    }
    let restart_records: u64 = std::env::var("STORE_BENCH_RESTART_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    restart(restart_records);
}
