//! A revert on disk (`Persistence::record_revert`, what `ledger_revert` does through the
//! sequencer): reopening comes back to the reverted state, open ledger and held
//! transactions included, whether replay starts before the revert (it meets the revert
//! record and loads the revert's snapshot) or from that snapshot; snapshots written past
//! the restored ledger do not lead replay astray; a saved state older than the memory
//! window still reverts (it pins the state's history); and a revert whose snapshot never
//! reached the disk (a crash in between, so it was never answered) never happened, also
//! once the ledger went on after it.
//!
//! Issue 29: two reverts (the second used to delete the first one's snapshot, which
//! replay from genesis needs) come back as answered. A revert snapshot lost while the
//! journal goes on after the revert is damage: a base after it is used, else the start
//! is refused naming it, and `repair_journal` cuts the journal there. Revert snapshots
//! under the name they had before are recognised and renamed.

use crate::support;

use std::path::Path;

use ledgerd::ledgers::Ledgers;
use ledgerd::limits::{REVERT_SNAPSHOTS_RETAINED_MAX, SNAPSHOTS_KEPT_DEFAULT};
use ledgerd::node::history::History;
use ledgerd::node::persist::{PersistError, PersistOptions};
use ledgerd::protocol::types::Hash256;
use ledgerd::store::SqliteHistory;
use support::accounts::account_seq;
use support::payment::payment_blob;
use support::persist::*;

/// What must come back: the last closed ledger's state, the open ledger's transactions
/// (id, result, index) and the held ones.
type Picture = (
    (Hash256, Vec<(Hash256, Vec<u8>)>),
    Vec<(Hash256, String, u32)>,
    Vec<Hash256>,
);

fn picture(store: &Ledgers) -> Picture {
    let open = store
        .open_txs()
        .iter()
        .map(|e| (e.id, e.ter.to_string(), e.index))
        .collect();
    (closed_state(store), open, store.held())
}

/// Payments among users for `ledgers` ledgers.
fn payments(d: &mut Driver, users: &[ledgerd::protocol::keys::KeyPair], ledgers: u32) {
    for l in 0..ledgers {
        for (i, u) in users.iter().enumerate() {
            let to = users[(i + 1) % users.len()].account_id();
            d.pay(u, &to, 1_000 + u64::from(l));
        }
        d.close().expect("close");
    }
}

/// Funds users, closes a few ledgers, leaves applied and held transactions in the open
/// ledger, saves the state; returns the driver, the saved ID, its picture and the users.
fn saved_with_open_ledger(
    dir: &std::path::Path,
    snapshot_every: u32,
) -> (Driver, u64, Picture, Vec<ledgerd::protocol::keys::KeyPair>) {
    let mut d = Driver::open(dir, cfg(8), small_options(snapshot_every, 8)).expect("open");
    let users = fund_users(&mut d, 4);
    d.close().expect("close");
    payments(&mut d, &users, 3);
    let u = &users[0];
    let seq = account_seq(&d.store, &u.account_id());
    let to = users[1].account_id();
    let held = d.submit(&payment_blob(u, seq + 1, &to, 55)).expect("held");
    assert!(held.held);
    d.pay(&users[2], &to, 66).expect("applied");
    d.flush().expect("durable");
    let id = d.store.save_state();
    let saved = picture(&d.store);
    (d, id, saved, users)
}

/// A history store in the data directory, as the publisher keeps it.
fn history_in(dir: &Path) -> History {
    let file = dir.join("history.sqlite");
    History {
        store: std::sync::Arc::new(SqliteHistory::open(&file, 1).expect("history")),
        keep: None,
        advisory: None,
        cache: None,
    }
}

fn revert(d: &mut Driver, id: u64, log: &[Vec<u8>]) {
    let closed = d.store.revert(id).expect("saved state");
    d.persist
        .record_revert(&d.store, &closed, log)
        .expect("durable revert");
}

#[test]
fn a_revert_far_behind_with_snapshots_past_it_reopens_reverted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, id, saved, users) = saved_with_open_ledger(dir.path(), 4);
    let log = d.persist.open_log();
    assert_eq!(log.len(), 2, "the held and the applied payment");
    // Far more ledgers than memory keeps (8), with snapshots written past the saved one.
    payments(&mut d, &users, 20);
    d.persist.wait_snapshot();
    assert_ne!(picture(&d.store), saved);
    revert(&mut d, id, &log);
    assert_eq!(picture(&d.store), saved, "memory is back");
    // The revert's snapshot is the newest; the older ones stay valid bases (replay from
    // them meets the revert record) until pruning lets them go: ceil(8 / 4) + 2 are kept.
    let files = snapshot_files(dir.path());
    assert!(files.len() <= 4, "{files:?}");
    let reverts: Vec<_> = files
        .iter()
        .filter(|(_, p)| p.to_string_lossy().ends_with("-revert.snap"))
        .collect();
    assert_eq!(reverts.len(), 1, "{files:?}");
    assert_eq!(Some(reverts[0]), files.last(), "{files:?}");
    drop(d);

    let mut d = Driver::open(dir.path(), cfg(8), small_options(4, 8)).expect("reopen");
    assert_eq!(picture(&d.store), saved, "the disk is back");
    // The ledger goes on from there, and comes back again after another restart.
    payments(&mut d, &users, 2);
    let after = picture(&d.store);
    drop(d);
    let d = Driver::open(dir.path(), cfg(8), small_options(4, 8)).expect("reopen");
    assert_eq!(picture(&d.store), after);
}

#[test]
fn replay_from_genesis_meets_the_revert_and_loads_its_snapshot() {
    let dir = tempfile::tempdir().expect("tempdir");
    // No periodic snapshots: the only base before the revert is genesis.
    let (mut d, id, saved, users) = saved_with_open_ledger(dir.path(), 0);
    let log = d.persist.open_log();
    payments(&mut d, &users, 5);
    revert(&mut d, id, &log);
    payments(&mut d, &users, 2);
    let after = picture(&d.store);
    drop(d);
    // Recovery starts from a revert snapshot it knows as one: under the name snapshots had
    // before revert snapshots were named so, genesis is the base and replay meets the
    // revert record, loads the snapshot and renames it.
    let old_names = unmark_revert_snapshots(dir.path());
    assert_eq!(old_names, 1);
    let d = Driver::open(dir.path(), cfg(8), small_options(0, 8)).expect("reopen");
    assert_eq!(picture(&d.store), after);
    assert!(
        d.persist.stats_json()["recovered_from"]
            .as_str()
            .is_some_and(|s| s.starts_with("genesis")),
        "{}",
        d.persist.stats_json()
    );
    assert_ne!(after, saved);
    drop(d);
    assert_eq!(unmark_revert_snapshots(dir.path()), 1, "renamed");
    let d = Driver::open(dir.path(), cfg(8), small_options(0, 8)).expect("reopen");
    assert_eq!(picture(&d.store), after);
}

#[test]
fn a_revert_whose_snapshot_never_reached_the_disk_never_happened() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, id, _saved, users) = saved_with_open_ledger(dir.path(), 0);
    let log = d.persist.open_log();
    payments(&mut d, &users, 3);
    d.pay(&users[3], &users[0].account_id(), 99)
        .expect("applied");
    d.flush().expect("durable");
    let before_revert = picture(&d.store);
    revert(&mut d, id, &log);
    drop(d);
    // A crash after the revert record and its transaction records were durable, before
    // the snapshot was written.
    for f in std::fs::read_dir(dir.path().join("snapshots")).expect("snapshots") {
        std::fs::remove_file(f.expect("entry").path()).expect("remove");
    }
    let d = Driver::open(dir.path(), cfg(8), small_options(0, 8)).expect("reopen");
    assert_eq!(picture(&d.store), before_revert);
}

#[test]
fn a_history_store_left_ahead_by_a_crash_forgets_the_undone_ledgers_at_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, id, _saved, users) = saved_with_open_ledger(dir.path(), 4);
    let restored = d.store.closed().seq();
    let log = d.persist.open_log();
    payments(&mut d, &users, 3);
    let history = history_in(dir.path());
    history.catch_up(&d.store, "h", false).expect("written");
    let stored_last = |h: &History| h.store.range().expect("range").map(|r| r.1);
    assert_eq!(stored_last(&history), Some(restored + 3));
    // The revert is durable, then the process dies before the publisher told the history
    // store.
    revert(&mut d, id, &log);
    drop(d);
    let d = Driver::open(dir.path(), cfg(8), small_options(4, 8)).expect("reopen");
    assert_eq!(d.persist.reverted_to(), Some(restored));
    let refused = history.catch_up(&d.store, "h", false);
    assert!(refused.is_err(), "a store ahead of the journal is refused");
    history
        .forget_reverted(&d.store, restored)
        .expect("forgotten");
    history.catch_up(&d.store, "h", false).expect("caught up");
    assert_eq!(stored_last(&history), Some(restored));
}

/// The crash test's seed 1795816378012190457: after a revert, more ledgers closed than
/// memory keeps, all written to the history store; at the next start replay rebuilds them
/// and memory lets the oldest go again. Those stored ledgers are on memory's timeline
/// (its oldest ledger's parent-hash chain reaches them) and must stay: forgetting them left
/// a gap no catch-up could fill, and the server refused to start.
#[test]
fn stored_ledgers_older_than_memory_after_a_revert_are_kept_at_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, id, _saved, users) = saved_with_open_ledger(dir.path(), 0);
    let restored = d.store.closed().seq();
    let log = d.persist.open_log();
    let history = history_in(dir.path());
    // The publisher writes each ledger as it closes, and forgets what a revert undoes.
    let close_and_write = |d: &mut Driver, n: u32| {
        for _ in 0..n {
            payments(d, &users, 1);
            history.catch_up(&d.store, "h", false).expect("written");
        }
    };
    close_and_write(&mut d, 2);
    revert(&mut d, id, &log);
    history.forget_after(restored).expect("forgotten");
    // Twelve ledgers after the revert, memory keeping eight.
    close_and_write(&mut d, 12);
    let range = |h: &History| h.store.range().expect("range");
    let written = range(&history);
    assert_eq!(written.map(|r| r.1), Some(restored + 12));
    d.flush().expect("durable");
    drop(d);
    let d = Driver::open(dir.path(), cfg(8), small_options(0, 8)).expect("reopen");
    assert_eq!(d.persist.reverted_to(), Some(restored));
    let (oldest, newest) = d.store.complete_range();
    assert_eq!(
        (oldest, newest),
        (restored + 5, restored + 12),
        "memory keeps eight"
    );
    history
        .forget_reverted(&d.store, restored)
        .expect("forgotten");
    assert_eq!(
        range(&history),
        written,
        "nothing on the timeline is forgotten"
    );
    history.catch_up(&d.store, "h", false).expect("caught up");
    // The stored ledger just before memory's oldest is the one memory's oldest follows.
    let before = history
        .store
        .header(restored + 4)
        .expect("read")
        .expect("stored");
    let oldest_parent = d.store.by_seq(restored + 5).and_then(|s| s.ledger);
    assert_eq!(
        Some(before.hash),
        oldest_parent.map(|l| l.header.parent_hash)
    );
}

/// Options with no periodic snapshot and the default history depth: with a few ledgers
/// replay starts from genesis, as a new server's would (issue 29).
fn reverts_only(repair: bool) -> PersistOptions {
    PersistOptions {
        repair_journal: repair,
        ..small_options(0, 256)
    }
}

/// Issue 29: ledger_snapshot, a payment, ledger_revert, a payment, ledger_snapshot,
/// ledger_revert. Returns the driver, the surviving payment and the users.
fn two_reverts(dir: &Path) -> (Driver, Acked, Vec<ledgerd::protocol::keys::KeyPair>) {
    let mut d = Driver::open(dir, cfg(8), reverts_only(false)).expect("open");
    let users = fund_users(&mut d, 2);
    d.close().expect("close");
    let to = users[1].account_id();
    let first = d.store.save_state();
    let log = d.persist.open_log();
    d.pay(&users[0], &to, 100).expect("applied");
    d.flush().expect("durable");
    revert(&mut d, first, &log);
    let kept = d.pay(&users[0], &to, 200).expect("applied");
    d.flush().expect("durable");
    let second = d.store.save_state();
    let log = d.persist.open_log();
    assert_eq!(log.len(), 1, "the surviving payment is the open ledger's");
    revert(&mut d, second, &log);
    (d, kept, users)
}

/// What a client saw of an account: (balance, sequence).
fn account(store: &Ledgers, id: &ledgerd::protocol::types::AccountId) -> (i64, u32) {
    (
        support::accounts::balance(store, id).expect("account"),
        account_seq(store, id),
    )
}

#[test]
fn two_reverts_then_a_restart_come_back_as_answered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (d, kept, users) = two_reverts(dir.path());
    let answered = picture(&d.store);
    let accounts: Vec<_> = users
        .iter()
        .map(|u| account(&d.store, &u.account_id()))
        .collect();
    drop(d);
    for restart in 0..2 {
        let d = Driver::open(dir.path(), cfg(8), reverts_only(false))
            .unwrap_or_else(|e| panic!("restart {restart}: {e}"));
        assert_eq!(picture(&d.store), answered, "restart {restart}");
        let tx = d.store.tx(&kept.id).expect("the surviving payment");
        assert_eq!(tx.ter.to_string(), "tesSUCCESS");
        for (u, want) in users.iter().zip(&accounts) {
            assert_eq!(&account(&d.store, &u.account_id()), want);
        }
        // Both reverts' snapshots are there: the newest, and the one before it, from which a
        // replay reaches it.
        let reverts = snapshot_names(dir.path())
            .iter()
            .filter(|n| n.ends_with("-revert.snap"))
            .count();
        assert_eq!(reverts, 2, "{:?}", snapshot_names(dir.path()));
    }
}

fn snapshot_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("snapshots"))
        .expect("snapshots")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The snapshot files: (through record, path), in journal order.
fn snapshot_files(dir: &Path) -> Vec<(u64, std::path::PathBuf)> {
    let mut files: Vec<(u64, std::path::PathBuf)> = snapshot_names(dir)
        .iter()
        .filter_map(|n| {
            let through = n
                .split('-')
                .nth(2)?
                .trim_end_matches(".snap")
                .parse()
                .ok()?;
            Some((through, dir.join("snapshots").join(n)))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_lost_revert_snapshot_the_journal_goes_on_after_is_damage_and_repair_cuts_there() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, kept, users) = two_reverts(dir.path());
    let before_first = d.acked[d.acked.len() - 2].clone();
    d.pay(&users[1], &users[0].account_id(), 300)
        .expect("applied");
    d.close().expect("close");
    assert!(d.persist.snapshot_now(&d.store).expect("snapshot"));
    let answered = picture(&d.store);
    drop(d);
    let files = snapshot_files(dir.path());
    assert_eq!(files.len(), 3, "two reverts and the newest: {files:?}");
    let (first, lost) = files[0].clone();
    // Both revert snapshots lost: genesis meets the first revert, which the journal goes on
    // after. The newest snapshot is after both, so the start goes on from it: nothing
    // acknowledged is missing.
    std::fs::remove_file(&lost).expect("remove");
    std::fs::remove_file(&files[1].1).expect("remove");
    let d = Driver::open(dir.path(), cfg(8), reverts_only(false)).expect("a later base");
    assert_eq!(picture(&d.store), answered);
    let from = d.persist.stats_json()["recovered_from"].to_string();
    assert!(from.contains(&lost.display().to_string()), "{from}");
    drop(d);
    // Without that one too, no base gets past the first revert: refused, naming it.
    std::fs::remove_file(&files[2].1).expect("remove");
    let Err(e) = Driver::open(dir.path(), cfg(8), reverts_only(false)) else {
        panic!("a start past a revert no base gets past");
    };
    let msg = e.to_string();
    assert!(matches!(e, PersistError::Damaged(_)), "{msg}");
    assert!(
        msg.contains(&format!("journal record {first} reverts to ledger")),
        "{msg}"
    );
    assert!(msg.contains(&lost.display().to_string()), "{msg}");
    assert!(msg.contains("--repair-journal"), "{msg}");
    // The repair keeps the ledger as it was before the first revert and says what went.
    let d = Driver::open(dir.path(), cfg(8), reverts_only(true)).expect("repaired");
    let stats = d.persist.stats_json();
    let note = stats["journal_repair"].as_str().unwrap_or_default();
    assert!(
        note.contains(&format!("discarded journal records {first}..")),
        "{stats}"
    );
    assert!(d.store.tx(&kept.id).is_none(), "after the cut");
    assert!(d.store.tx(&before_first.id).is_some(), "before the cut");
    let repaired = picture(&d.store);
    drop(d);
    let d = Driver::open(dir.path(), cfg(8), reverts_only(false)).expect("starts again");
    assert_eq!(picture(&d.store), repaired);
}

#[test]
fn an_abandoned_revert_stays_abandoned_when_the_ledger_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, id, _saved, users) = saved_with_open_ledger(dir.path(), 0);
    let log = d.persist.open_log();
    payments(&mut d, &users, 2);
    let before_revert = picture(&d.store);
    revert(&mut d, id, &log);
    drop(d);
    // A crash after the revert's records were durable, before its snapshot was written.
    for f in std::fs::read_dir(dir.path().join("snapshots")).expect("snapshots") {
        std::fs::remove_file(f.expect("entry").path()).expect("remove");
    }
    let mut d = Driver::open(dir.path(), cfg(8), small_options(0, 8)).expect("reopen");
    assert_eq!(picture(&d.store), before_revert);
    // The ledger goes on after the revert that never happened; restarts keep it so.
    payments(&mut d, &users, 2);
    let after = picture(&d.store);
    drop(d);
    for restart in 0..2 {
        let d = Driver::open(dir.path(), cfg(8), small_options(0, 8))
            .unwrap_or_else(|e| panic!("restart {restart}: {e}"));
        assert_eq!(picture(&d.store), after, "restart {restart}");
    }
}

/// Renames the revert snapshots as data directories written before revert snapshots had
/// their own name have them; returns how many.
fn unmark_revert_snapshots(dir: &Path) -> usize {
    let snaps = dir.join("snapshots");
    let mut renamed = 0;
    for name in snapshot_names(dir) {
        if let Some(base) = name.strip_suffix("-revert.snap") {
            std::fs::rename(snaps.join(&name), snaps.join(format!("{base}.snap"))).expect("rename");
            renamed += 1;
        }
    }
    renamed
}

#[test]
fn a_revert_snapshot_under_an_older_name_is_renamed_and_used() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (d, _kept, _users) = two_reverts(dir.path());
    let answered = picture(&d.store);
    drop(d);
    assert_eq!(unmark_revert_snapshots(dir.path()), 2);
    let d = Driver::open(dir.path(), cfg(8), reverts_only(false)).expect("reopen");
    assert_eq!(picture(&d.store), answered);
    let from = d.persist.stats_json()["recovered_from"].to_string();
    assert!(from.starts_with("\"genesis"), "{from}");
    let names = snapshot_names(dir.path());
    assert!(
        names.iter().all(|n| n.ends_with("-revert.snap")),
        "{names:?}"
    );
}

/// The journal's segments, by first record.
fn segment_firsts(dir: &Path) -> Vec<u64> {
    let mut firsts: Vec<u64> = std::fs::read_dir(dir.join("journal"))
        .expect("journal")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_prefix("journal-")?
                .strip_suffix(".seg")?
                .parse()
                .ok()
        })
        .collect();
    firsts.sort_unstable();
    firsts
}

/// Many snapshots and reverts with small snapshot interval and segments, so pruning runs
/// after most closes: every revert snapshot whose revert record the journal holds stays,
/// the journal is pruned all the same (and they with it), and restarts come back as the
/// ledger was.
#[test]
fn pruning_keeps_the_revert_snapshots_the_journal_needs_and_still_prunes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = || {
        let mut o = small_options(2, 4);
        o.journal.segment_bytes_max = 2 * 1024;
        o
    };
    let mut d = Driver::open(dir.path(), cfg(8), options()).expect("open");
    let users = fund_users(&mut d, 3);
    d.close().expect("close");
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    // The sequencer's bookkeeping: each saved state's open-ledger records.
    let mut logs: std::collections::BTreeMap<u64, Vec<Vec<u8>>> = Default::default();
    let mut revert_records = Vec::new();
    let (mut restarts, mut reverts, mut most_files) = (0, 0, 0);
    for step in 0..300u64 {
        match next(10) {
            0 | 1 => {
                let id = d.store.save_state();
                logs.insert(id, d.persist.open_log());
                let kept = d.store.saved_ids();
                logs.retain(|id, _| kept.contains(id));
            }
            2 if !logs.is_empty() => {
                let ids: Vec<u64> = logs.keys().copied().collect();
                let id = ids[next(ids.len() as u64) as usize];
                let log = logs.remove(&id).expect("saved");
                logs.retain(|k, _| *k < id);
                revert(&mut d, id, &log);
                reverts += 1;
                let through = d.persist.stats_json()["last_snapshot"]["through_record"]
                    .as_u64()
                    .expect("through");
                revert_records.push(through);
            }
            3 if step % 7 == 0 => {
                let before = picture(&d.store);
                drop(d);
                d = Driver::open(dir.path(), cfg(8), options()).expect("restart");
                assert_eq!(picture(&d.store), before, "step {step}: restart");
                logs.clear();
                restarts += 1;
            }
            _ => {
                let from = next(3) as usize;
                let to = users[(from + 1) % 3].account_id();
                d.pay(&users[from], &to, 1_000 + step);
                d.close().expect("close");
            }
        }
        d.flush().expect("durable");
        d.persist.wait_snapshot();
        // Every revert record the journal holds has its snapshot: replay from any older
        // base meets it.
        let journal_start = segment_firsts(dir.path())[0];
        let files = snapshot_files(dir.path());
        for r in revert_records.iter().filter(|r| **r >= journal_start) {
            assert!(
                files.iter().any(|f| f.0 == *r),
                "step {step}: revert record {r} is in the journal (from {journal_start}) but its snapshot is gone: {files:?}"
            );
        }
        most_files = most_files.max(files.len());
    }
    let journal_start = segment_firsts(dir.path())[0];
    let before = picture(&d.store);
    drop(d);
    let d = Driver::open(dir.path(), cfg(8), options()).expect("restart");
    assert_eq!(picture(&d.store), before, "the last restart");
    let names = snapshot_names(dir.path());
    eprintln!(
        "{reverts} reverts, {restarts} restarts; the journal starts at record {journal_start}; at most {most_files} snapshot files, {} left: {names:?}",
        names.len()
    );
    assert!(
        reverts >= 10 && restarts >= 3,
        "{reverts} reverts, {restarts} restarts"
    );
    assert!(journal_start > 1, "the journal was pruned");
    assert!(
        revert_records.iter().any(|r| *r < journal_start),
        "revert records were pruned with the journal"
    );
    assert!(
        most_files <= files_bound(4),
        "{most_files} snapshot files at once"
    );
}

/// Snapshot files a data directory holds at most with `keep` kept by pruning: those, the
/// revert snapshots held back for their journal records until that makes the journal start
/// a new segment, those written until `keep` snapshots are past it, and the one being
/// written.
fn files_bound(keep: usize) -> usize {
    keep + REVERT_SNAPSHOTS_RETAINED_MAX + keep + 1
}

/// Anvil-style use: a snapshot and a revert around every "test", hundreds of times, with
/// 64 MiB journal segments that a few hundred records do not fill. The revert snapshots
/// stay while the journal holds their records, but their number stays bounded: too many
/// start a new segment, and the old one goes with them. Restarts come back as the ledger
/// was.
#[test]
fn many_reverts_before_a_segment_fills_stay_bounded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = || {
        let mut o = PersistOptions::default();
        o.journal.segment_bytes_max = 64 * 1024 * 1024;
        o
    };
    let mut d = Driver::open(dir.path(), cfg(8), options()).expect("open");
    let users = fund_users(&mut d, 2);
    d.close().expect("close");
    let to = users[1].account_id();
    for round in 0..200u64 {
        let id = d.store.save_state();
        let log = d.persist.open_log();
        d.pay(&users[0], &to, 1_000 + round).expect("applied");
        d.close().expect("close");
        if round % 3 == 0 {
            // Some rounds keep what they did.
            d.pay(&users[1], &users[0].account_id(), 5)
                .expect("applied");
            d.flush().expect("durable");
            continue;
        }
        revert(&mut d, id, &log);
        if round % 50 == 49 {
            let before = picture(&d.store);
            drop(d);
            d = Driver::open(dir.path(), cfg(8), options()).expect("restart");
            assert_eq!(picture(&d.store), before, "round {round}");
        }
        let files = snapshot_files(dir.path());
        let bound = files_bound(SNAPSHOTS_KEPT_DEFAULT);
        assert!(files.len() <= bound, "round {round}: {files:?}");
    }
    let segments = segment_firsts(dir.path());
    assert!(segments[0] > 1, "the first segment went: {segments:?}");
    assert!(segments.len() <= 4, "{segments:?}");
    let before = picture(&d.store);
    drop(d);
    let d = Driver::open(dir.path(), cfg(8), options()).expect("restart");
    assert_eq!(picture(&d.store), before);
    let from = d.persist.stats_json()["recovered_from"].to_string();
    assert!(from.starts_with("\"snapshot"), "{from}");
}

/// A replay sink (`serve --repair-history`) replays from the oldest base the journal
/// reaches, genesis here: through both reverts, each continuing from its snapshot, to the
/// ledger as answered, handing over every ledger a close record replays.
#[test]
fn a_replay_sink_replays_from_genesis_through_the_reverts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (d, _kept, _users) = two_reverts(dir.path());
    let answered = picture(&d.store);
    drop(d);
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = seen.clone();
    let options = PersistOptions {
        replay_sink: Some(std::sync::Arc::new(move |_store: &Ledgers, closed| {
            sink.lock().expect("sink").push(closed.header.seq);
            Ok(())
        })),
        ..reverts_only(false)
    };
    let d = Driver::open(dir.path(), cfg(8), options).expect("reopen");
    assert_eq!(picture(&d.store), answered);
    let from = d.persist.stats_json()["recovered_from"].to_string();
    assert!(from.starts_with("\"genesis"), "{from}");
    assert!(
        !seen.lock().expect("sink").is_empty(),
        "the sink got the closes"
    );
}

/// A data directory the old code left unstartable (the second revert deleted the first
/// one's snapshot; snapshots had no revert name): genesis meets the first revert without
/// its snapshot while the journal goes on after it, so the start goes on from the second
/// revert's snapshot, and comes back as answered.
#[test]
fn a_directory_the_second_revert_broke_starts_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (d, kept, _users) = two_reverts(dir.path());
    let answered = picture(&d.store);
    drop(d);
    let files = snapshot_files(dir.path());
    assert_eq!(files.len(), 2, "{files:?}");
    std::fs::remove_file(&files[0].1).expect("remove");
    assert_eq!(unmark_revert_snapshots(dir.path()), 1);
    let d = Driver::open(dir.path(), cfg(8), reverts_only(false)).expect("starts");
    assert_eq!(picture(&d.store), answered);
    assert!(d.store.tx(&kept.id).is_some());
    let from = d.persist.stats_json()["recovered_from"].to_string();
    assert!(from.contains(&files[0].1.display().to_string()), "{from}");
}
