//! Journal pruning cadence: with small segments and frequent snapshots, segments older
//! than the oldest snapshot that pruning keeps are deleted as ledgers go on, the data
//! directory stays bounded, and a restart after pruning rebuilds the same ledgers and the
//! promised history.
//!
//! Why a long run may prune nothing: pruning runs after each snapshot and keeps the newest
//! `max(ceil(history / interval) + 2, SNAPSHOTS_KEPT_DEFAULT)` snapshots (the one replay
//! starts from, one spare, and the newest), plus every segment holding a record after the
//! oldest kept snapshot. With the defaults (a snapshot every 256 ledgers, 256 ledgers of
//! history) that is 3 snapshots, so the first segment can go only once the fourth
//! snapshot (ledger 1024) is written; 1,000 ledgers prune nothing.

use crate::support;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use ledgerd::node::persist::PersistOptions;
use ledgerd::protocol::types::Hash256;
use support::persist::*;

/// Small enough that a segment holds about two ledgers of three payments (~870 bytes).
const SEGMENT_BYTES: u64 = 2 * 1024;
const SNAPSHOT_EVERY: u32 = 4;
const HISTORY: u32 = 8;
/// Snapshots pruning keeps with these settings: ceil(8 / 4) + 2.
const SNAPSHOTS_KEPT: usize = 4;
const USERS: usize = 3;

fn options() -> PersistOptions {
    let mut o = small_options(SNAPSHOT_EVERY, HISTORY);
    o.journal.segment_bytes_max = SEGMENT_BYTES;
    o
}

/// What is on disk: segments by first record, snapshots by (ledger, through record).
#[derive(Debug, Default)]
struct DiskView {
    segments: Vec<u64>,
    snapshots: Vec<(u32, u64)>,
    journal_bytes: u64,
    snapshot_bytes: u64,
}

impl DiskView {
    fn bytes(&self) -> u64 {
        self.journal_bytes + self.snapshot_bytes
    }
}

fn files(dir: &Path) -> Vec<(String, u64)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.filter_map(Result::ok)
        .filter_map(|e| {
            let len = e.metadata().ok()?.len();
            Some((e.file_name().to_string_lossy().into_owned(), len))
        })
        .collect()
}

fn disk(dir: &Path) -> DiskView {
    let mut v = DiskView::default();
    for (name, len) in files(&dir.join("journal")) {
        v.journal_bytes += len;
        if let Some(n) = name
            .strip_prefix("journal-")
            .and_then(|s| s.strip_suffix(".seg"))
            .and_then(|s| s.parse().ok())
        {
            v.segments.push(n);
        }
    }
    for (name, len) in files(&dir.join("snapshots")) {
        v.snapshot_bytes += len;
        let parsed = name
            .strip_prefix("snapshot-")
            .and_then(|s| s.strip_suffix(".snap"))
            .and_then(|s| s.split_once('-'))
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
        if let Some(p) = parsed {
            v.snapshots.push(p);
        }
    }
    v.segments.sort_unstable();
    v.snapshots.sort_unstable();
    v
}

/// One ledger: a payment from each user to the next, then the close.
fn ledger(d: &mut Driver, users: &[ledgerd::protocol::keys::KeyPair], l: u32) {
    for (i, u) in users.iter().enumerate() {
        let to = users[(i + 1) % users.len()].account_id();
        let a = d.pay(u, &to, 1_000 + u64::from(l));
        assert!(a.is_some_and(|a| a.applied), "payment applies");
    }
    d.close().expect("close");
}

/// Once no snapshot is being written: the oldest segment holds the first record replay
/// from the oldest kept snapshot needs, and no older segment is left.
fn assert_pruned_exactly(v: &DiskView, when: &str) {
    assert_eq!(
        v.snapshots.len(),
        SNAPSHOTS_KEPT,
        "{when}: snapshots kept {:?}",
        v.snapshots
    );
    let (oldest_seq, through) = v.snapshots[0];
    let newest_seq = v.snapshots[SNAPSHOTS_KEPT - 1].0;
    assert!(
        newest_seq - oldest_seq >= HISTORY,
        "{when}: the oldest kept snapshot ({oldest_seq}) is at least the history behind the newest ({newest_seq})"
    );
    let needed = through + 1;
    assert!(
        v.segments[0] <= needed,
        "{when}: record {needed} (after snapshot {oldest_seq}) was pruned: segments {:?}",
        v.segments
    );
    assert!(
        v.segments.get(1).is_none_or(|&second| second > needed),
        "{when}: segment {} holds only records before {needed} and was kept: segments {:?}",
        v.segments[0],
        v.segments
    );
}

/// The last `HISTORY` closed ledgers' transactions: id -> (result, ledger, index).
fn recent_txs(d: &Driver) -> HashMap<Hash256, (String, u32, u32)> {
    let last = d.store.complete_range().1;
    d.acked_txs()
        .into_iter()
        .filter(|(_, (_, ledger_seq, _))| ledger_seq + HISTORY > last)
        .collect()
}

/// Restarts on `dir` and checks the same closed state, ledger hashes and the promised
/// history with its transactions.
fn restart_and_compare(dir: &Path, d: Driver) -> Driver {
    let hashes: HashMap<u32, _> = history_hashes(&d.store).into_iter().collect();
    let last = d.store.complete_range().1;
    let state = closed_state(&d.store);
    let txs = recent_txs(&d);
    assert_eq!(txs.len(), USERS * HISTORY as usize, "recent transactions");
    drop(d);

    let d2 = Driver::open(dir, cfg(HISTORY), options()).expect("reopen after pruning");
    let from = d2.persist.stats_json()["recovered_from"].to_string();
    assert!(from.contains("snapshot"), "recovered from {from}");
    assert_eq!(closed_state(&d2.store), state, "same closed state");
    let again = history_hashes(&d2.store);
    assert_eq!(again.last().map(|h| h.0), Some(last), "same last ledger");
    assert!(
        again.len() >= HISTORY as usize,
        "promised history of {HISTORY} ledgers rebuilt, got {}",
        again.len()
    );
    for (seq, h) in &again {
        assert_eq!(hashes.get(seq), Some(h), "ledger {seq} hash after restart");
    }
    for (id, want) in &txs {
        let e = d2
            .store
            .tx(id)
            .unwrap_or_else(|| panic!("transaction {id} of the history lost"));
        assert_eq!(
            &(e.ter.to_string(), e.ledger_seq, e.index),
            want,
            "transaction {id}"
        );
    }
    d2
}

#[test]
fn old_segments_are_pruned_the_directory_stays_bounded_and_restart_keeps_history() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut d = Driver::open(dir.path(), cfg(HISTORY), options()).expect("open");
    let users = fund_users(&mut d, USERS);
    d.close().expect("close");

    const LEDGERS: u32 = 150;
    let mut seen: BTreeSet<u64> = BTreeSet::new();
    let mut first_pruned_at = None;
    // Largest directory between ledgers 30-90 and 90-150 (pruning is in steady state
    // long before ledger 30: it keeps about 16 ledgers of journal).
    let (mut max_a, mut max_b) = (0u64, 0u64);
    for l in 1..=LEDGERS {
        ledger(&mut d, &users, l);
        // In step with the background snapshots, so that a loaded machine (a snapshot
        // finishing ledgers late) cannot move what the bounds below measure.
        d.persist.wait_snapshot();
        let v = disk(dir.path());
        seen.extend(v.segments.iter().copied());
        if first_pruned_at.is_none() && !v.segments.contains(&1) {
            first_pruned_at = Some(d.store.complete_range().1);
        }
        match l {
            30..=89 => max_a = max_a.max(v.bytes()),
            90.. => max_b = max_b.max(v.bytes()),
            _ => {}
        }
    }
    let written = d.persist.stats_json()["bytes"].as_u64().unwrap_or(0);
    // Let the last background snapshot (and its prune) finish: snapshot_now joins it and
    // then writes the same last ledger again.
    assert!(d.persist.snapshot_now(&d.store).expect("snapshot"));
    let v = disk(dir.path());
    eprintln!(
        "{LEDGERS} ledgers: {} segments created, {} left ({:?}); journal {} B on disk of {written} B written, snapshots {} B ({} files); directory max {max_a} B (ledgers 30-89), {max_b} B (90-150); segment 1 pruned at ledger {first_pruned_at:?}",
        seen.len(),
        v.segments.len(),
        v.segments,
        v.journal_bytes,
        v.snapshot_bytes,
        v.snapshots.len(),
    );

    // (a) Old segments are deleted, exactly up to what the oldest kept snapshot needs.
    assert!(
        seen.len() >= 40,
        "the run rotated through many segments: {}",
        seen.len()
    );
    assert!(!v.segments.contains(&1), "the first segment was pruned");
    assert!(
        v.segments.len() * 4 < seen.len(),
        "{} of {} segments left",
        v.segments.len(),
        seen.len()
    );
    assert_pruned_exactly(&v, "after the run");
    // Not before the snapshots pruning keeps span past it: snapshots of ledgers 4, 8, 12
    // and 16 are all kept, so the first segment can go at the fifth snapshot (ledger 20)
    // at the earliest, and (it holds two ledgers) not much later.
    let first = first_pruned_at.expect("a segment was pruned during the run");
    let earliest = SNAPSHOT_EVERY * (SNAPSHOTS_KEPT as u32 + 1);
    assert!(
        (earliest..=earliest + 3 * SNAPSHOT_EVERY).contains(&first),
        "segment 1 pruned at ledger {first}, expected from ledger {earliest}"
    );

    // (b) Bounded: the second half of the run is no bigger than the first (up to one
    // segment and one snapshot of slack), and far below what was written.
    // The state itself grows by the short skip list (32 B of hash per ledger until it
    // holds 256), in every snapshot on disk (the kept ones and one being written).
    let skip_growth = (SNAPSHOTS_KEPT as u64 + 1) * 32 * u64::from(LEDGERS - 89);
    assert!(
        max_b <= max_a + SEGMENT_BYTES + v.snapshot_bytes / SNAPSHOTS_KEPT as u64 + skip_growth,
        "directory grew from {max_a} B to {max_b} B"
    );
    assert!(
        written > 4 * v.journal_bytes,
        "journal on disk {} B of {written} B written",
        v.journal_bytes
    );

    // (c) A restart after pruning: same ledgers and history; then pruning goes on from the
    // segments recovery found, and a second restart agrees too.
    let mut d = restart_and_compare(dir.path(), d);
    let oldest_before = v.segments[0];
    for l in 1..=40 {
        ledger(&mut d, &users, LEDGERS + l);
    }
    assert!(d.persist.snapshot_now(&d.store).expect("snapshot"));
    let v2 = disk(dir.path());
    assert!(
        v2.segments[0] > oldest_before,
        "pruning continued after the restart: oldest segment {} then {}",
        oldest_before,
        v2.segments[0]
    );
    assert_pruned_exactly(&v2, "after the restart");
    let skip_growth = (SNAPSHOTS_KEPT as u64 + 1) * 32 * u64::from(LEDGERS + 40 - 89);
    assert!(
        v2.bytes()
            <= max_a + SEGMENT_BYTES + v.snapshot_bytes / SNAPSHOTS_KEPT as u64 + skip_growth,
        "directory {} B after the restart",
        v2.bytes()
    );
    let d = restart_and_compare(dir.path(), d);
    drop(d);
}

/// A young data directory (its first snapshots, fewer than the history behind the newest)
/// keeps its journal, so a restart rebuilds the whole history window from genesis: every
/// ledger closed before the crash test's restart is readable again (found by the crash
/// test at iteration 65 of 200: a first snapshot at ledger 256 pruned the journal before
/// it, and a restart served ledgers 256 on only).
#[test]
fn a_young_directory_keeps_the_journal_its_history_window_needs() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Segments of a few records, so that whole segments lie before the first snapshot.
    let mut opts = options();
    opts.journal.segment_bytes_max = 256;
    let mut d = Driver::open(dir.path(), cfg(HISTORY), opts.clone()).expect("open");
    let users = fund_users(&mut d, USERS);
    d.close().expect("close");
    // Fewer ledgers than the history: snapshots, and ledgers before the oldest of them
    // still in the history window.
    for l in 1..HISTORY {
        ledger(&mut d, &users, l);
        d.persist.wait_snapshot();
    }
    let (first, last) = d.store.complete_range();
    assert!(
        last - first < HISTORY,
        "fewer closed ledgers than the history"
    );
    let v = disk(dir.path());
    assert!(
        v.snapshots.first().is_some_and(|s| s.0 > first),
        "ledger {first} is older than the oldest snapshot: {:?}",
        v.snapshots
    );
    assert!(v.segments.len() > 2, "several segments: {:?}", v.segments);
    let hashes = history_hashes(&d.store);
    drop(d);
    let d = Driver::open(dir.path(), cfg(HISTORY), opts).expect("reopen");
    assert_eq!(
        history_hashes(&d.store),
        hashes,
        "the restart rebuilt every ledger from ledger {first}"
    );
}
