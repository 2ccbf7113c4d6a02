//! Acknowledged transactions lost after the fact, through persistence (the sequencer's
//! role, as in the server): a journal segment truncated to half, zeroed, emptied or
//! deleted, and the whole journal deleted (or emptied) while a snapshot remains. Each
//! refuses to start, naming the file and the records missing; each starts with
//! `repair_journal`, which says what it discarded, with the surviving prefix.

use crate::support;

use std::path::{Path, PathBuf};

use ledgerd::node::persist::{PersistError, PersistOptions};
use support::keys::keys;
use support::payment::payment_blob;
use support::persist::*;

/// Journal records before the 20 payments: genesis, the funding payment, a close.
const BEFORE_PAYMENTS: u64 = 3;

fn options(repair: bool) -> PersistOptions {
    PersistOptions {
        snapshot_interval_ledgers: 0,
        repair_journal: repair,
        ..PersistOptions::default()
    }
}

/// Genesis, one funded user, a close, then 20 payments each acknowledged on its own (its
/// own batch and fdatasync), like 20 clients one after the other. Returns them in order.
fn twenty_acknowledged(dir: &Path) -> Vec<Acked> {
    let mut d = Driver::open(dir, cfg(32), options(false)).expect("open");
    let users = fund_users(&mut d, 1);
    d.close().expect("close");
    let master = keys("masterpassphrase");
    let before = d.acked.len();
    for _ in 0..20 {
        let seq = master_seq(&d.store);
        let a = d
            .submit(&payment_blob(&master, seq, &users[0].account_id(), 1_000))
            .expect("accepted");
        assert!(a.applied);
        d.flush().expect("acknowledged");
    }
    let stats = d.persist.stats_json();
    assert_eq!(stats["next_record"], BEFORE_PAYMENTS + 21, "{stats}");
    d.acked[before..].to_vec()
}

fn segment(dir: &Path) -> PathBuf {
    let segs: Vec<PathBuf> = std::fs::read_dir(dir.join("journal"))
        .expect("journal")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "seg"))
        .collect();
    assert_eq!(segs.len(), 1, "{segs:?}");
    segs[0].clone()
}

/// Opening refuses with [`PersistError::Damaged`], naming `file` and `records`, and
/// pointing at the repair option.
fn assert_refused(dir: &Path, file: &Path, records: &str) {
    let Err(e) = Driver::open(dir, cfg(32), options(false)) else {
        panic!("started with acknowledged records missing");
    };
    let msg = e.to_string();
    assert!(matches!(e, PersistError::Damaged(_)), "{msg}");
    assert!(msg.contains(&file.display().to_string()), "{msg}");
    assert!(msg.contains(records), "wanted {records:?}: {msg}");
    assert!(msg.contains("--repair-journal"), "{msg}");
    // Refusing twice refuses the same way: nothing was changed.
    let Err(again) = Driver::open(dir, cfg(32), options(false)) else {
        panic!("a second start went through");
    };
    assert_eq!(again.to_string(), msg);
}

/// Starts with the repair: the report names `discarded`, exactly the payments journaled
/// before the damage are there (the first `kept`), and the server writes and restarts.
fn assert_repaired(dir: &Path, acked: &[Acked], kept: usize, discarded: &str) -> Driver {
    let mut d = Driver::open(dir, cfg(32), options(true)).expect("the repair starts");
    let stats = d.persist.stats_json();
    let report = stats["journal_repair"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(report.contains(discarded), "wanted {discarded:?}: {stats}");
    if kept == 0 {
        assert_eq!(stats["recovered_from"], "new ledger", "{stats}");
    }
    for (i, a) in acked.iter().enumerate() {
        assert_eq!(
            d.store.tx(&a.id).is_some(),
            i < kept,
            "payment {i} of {kept} kept"
        );
    }
    // It serves: a new payment is journaled and a ledger closes.
    let master = keys("masterpassphrase");
    let dest = keys("after the repair").account_id();
    let a = d
        .submit(&payment_blob(
            &master,
            master_seq(&d.store),
            &dest,
            50_000_000,
        ))
        .expect("accepted");
    d.close().expect("close");
    let state = closed_state(&d.store);
    drop(d);
    let d = Driver::open(dir, cfg(32), options(false)).expect("restarts without repair");
    assert!(d.persist.stats_json()["journal_repair"].is_null());
    assert!(d.store.tx(&a.id).is_some());
    assert_eq!(closed_state(&d.store), state);
    d
}

#[test]
fn a_segment_truncated_to_half_refuses_then_repairs_to_the_first_half() {
    let dir = tempfile::tempdir().expect("tempdir");
    let acked = twenty_acknowledged(dir.path());
    let seg = segment(dir.path());
    let len = std::fs::metadata(&seg).expect("meta").len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&seg)
        .expect("open")
        .set_len(len / 2)
        .expect("truncate");
    let Err(e) = Driver::open(dir.path(), cfg(32), options(false)) else {
        panic!("started on a journal cut in half");
    };
    // Which record the half falls in depends on the payload sizes: read it off the message
    // and check it against what the repair keeps.
    let msg = e.to_string();
    let first: u64 = msg
        .split("acknowledged records ")
        .nth(1)
        .and_then(|r| r.split("..").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no record range in {msg}"));
    let last = BEFORE_PAYMENTS + 20;
    assert!(first > BEFORE_PAYMENTS + 5 && first < last - 5, "{msg}");
    assert_refused(
        dir.path(),
        &seg,
        &format!("acknowledged records {first}..{last}"),
    );
    let kept = (first - 1 - BEFORE_PAYMENTS) as usize;
    assert_repaired(
        dir.path(),
        &acked,
        kept,
        &format!("discarded journal records {first}..{last} (acknowledged)"),
    );
}

#[test]
fn a_zeroed_segment_refuses_then_repairs_to_a_new_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let acked = twenty_acknowledged(dir.path());
    let seg = segment(dir.path());
    let len = std::fs::metadata(&seg).expect("meta").len();
    std::fs::write(&seg, vec![0u8; len as usize]).expect("zero");
    assert_refused(dir.path(), &seg, "acknowledged records 1..23");
    assert_repaired(dir.path(), &acked, 0, "discarded journal records 1..23");
}

#[test]
fn an_emptied_segment_refuses_then_repairs_to_a_new_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let acked = twenty_acknowledged(dir.path());
    let seg = segment(dir.path());
    std::fs::write(&seg, b"").expect("empty");
    assert_refused(dir.path(), &seg, "acknowledged records 1..23");
    assert_repaired(dir.path(), &acked, 0, "discarded journal records 1..23");
}

#[test]
fn a_deleted_segment_refuses_then_repairs_to_a_new_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let acked = twenty_acknowledged(dir.path());
    let seg = segment(dir.path());
    std::fs::remove_file(&seg).expect("delete");
    assert_refused(dir.path(), &seg, "acknowledged records 1..23");
    assert_repaired(dir.path(), &acked, 0, "discarded journal records 1..23");
}

/// Twenty payments, a snapshot of the ledger closing the first ten, then ten more
/// acknowledged. Returns the payments, the snapshot's closed state and its file.
fn with_a_snapshot(dir: &Path) -> (Vec<Acked>, ClosedState, PathBuf) {
    let mut d = Driver::open(dir, cfg(32), options(false)).expect("open");
    let users = fund_users(&mut d, 1);
    d.close().expect("close");
    let master = keys("masterpassphrase");
    let pay = |d: &mut Driver| {
        let seq = master_seq(&d.store);
        d.submit(&payment_blob(&master, seq, &users[0].account_id(), 1_000))
            .expect("accepted");
        d.flush().expect("acknowledged");
    };
    let before = d.acked.len();
    for _ in 0..10 {
        pay(&mut d);
    }
    d.close().expect("close");
    assert!(d.persist.snapshot_now(&d.store).expect("snapshot"));
    let state = closed_state(&d.store);
    for _ in 0..10 {
        pay(&mut d);
    }
    let acked = d.acked[before..].to_vec();
    drop(d);
    let snap = std::fs::read_dir(dir.join("snapshots"))
        .expect("snapshots")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "snap"))
        .expect("a snapshot");
    (acked, state, snap)
}

type ClosedState = (
    ledgerd::protocol::types::Hash256,
    Vec<(ledgerd::protocol::types::Hash256, Vec<u8>)>,
);

/// The snapshot covers records 1..=14 (genesis, funding, close, ten payments, close).
const SNAPSHOT_THROUGH: u64 = 14;

fn assert_starts_from_the_snapshot(dir: &Path, acked: &[Acked], state: &ClosedState) {
    let d = Driver::open(dir, cfg(32), options(true)).expect("the repair starts");
    let stats = d.persist.stats_json();
    let report = stats["journal_repair"].as_str().unwrap_or_default();
    assert!(
        report.contains(&format!(
            "the journal starts over at record {}",
            SNAPSHOT_THROUGH + 1
        )),
        "{stats}"
    );
    assert!(
        stats["recovered_from"]
            .as_str()
            .is_some_and(|s| s.contains("snapshot")),
        "{stats}"
    );
    assert_eq!(&closed_state(&d.store), state, "the snapshot's ledger");
    for a in &acked[10..] {
        assert!(d.store.tx(&a.id).is_none(), "after the snapshot: lost");
    }
    drop(d);
    let d = Driver::open(dir, cfg(32), options(false)).expect("restarts without repair");
    assert_eq!(&closed_state(&d.store), state);
}

#[test]
fn the_whole_journal_deleted_with_a_snapshot_refuses_then_repairs_from_the_snapshot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (acked, state, snap) = with_a_snapshot(dir.path());
    std::fs::remove_dir_all(dir.path().join("journal")).expect("delete the journal");
    let Err(e) = Driver::open(dir.path(), cfg(32), options(false)) else {
        panic!("started a new ledger beside a snapshot");
    };
    let msg = e.to_string();
    assert!(matches!(e, PersistError::Damaged(_)), "{msg}");
    assert!(
        msg.contains("holds no records (emptied or deleted)"),
        "{msg}"
    );
    assert!(msg.contains(&snap.display().to_string()), "{msg}");
    assert!(
        msg.contains(&format!(
            "acknowledged records 1..{SNAPSHOT_THROUGH} are missing"
        )),
        "{msg}"
    );
    assert!(msg.contains("--repair-journal"), "{msg}");
    assert_starts_from_the_snapshot(dir.path(), &acked, &state);
}

#[test]
fn an_emptied_journal_directory_with_a_snapshot_refuses_then_repairs_from_the_snapshot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (acked, state, _) = with_a_snapshot(dir.path());
    let seg = segment(dir.path());
    for e in std::fs::read_dir(dir.path().join("journal")).expect("journal") {
        std::fs::remove_file(e.expect("entry").path()).expect("remove");
    }
    // With the acknowledgement record gone too, the snapshot still says data existed.
    let Err(e) = Driver::open(dir.path(), cfg(32), options(false)) else {
        panic!("started a new ledger beside a snapshot");
    };
    let msg = e.to_string();
    assert!(msg.contains("holds no records"), "{msg}");
    // With only the segment deleted, the acknowledgement record names it.
    let dir2 = tempfile::tempdir().expect("tempdir");
    let (acked2, state2, _) = with_a_snapshot(dir2.path());
    let seg2 = segment(dir2.path());
    std::fs::remove_file(&seg2).expect("remove");
    assert_refused(dir2.path(), &seg2, "acknowledged records 1..24");
    assert_starts_from_the_snapshot(dir2.path(), &acked2, &state2);
    assert_starts_from_the_snapshot(dir.path(), &acked, &state);
    assert!(!seg.exists());
}

#[test]
fn the_whole_journal_deleted_before_any_snapshot_refuses_then_repairs_to_a_new_ledger() {
    // No snapshot yet: the data directory's CREATED marker says a ledger was made here.
    let dir = tempfile::tempdir().expect("tempdir");
    let acked = twenty_acknowledged(dir.path());
    std::fs::remove_dir_all(dir.path().join("journal")).expect("delete the journal");
    let Err(e) = Driver::open(dir.path(), cfg(32), options(false)) else {
        panic!("started a new ledger where one had been created");
    };
    let msg = e.to_string();
    assert!(matches!(e, PersistError::Damaged(_)), "{msg}");
    assert!(
        msg.contains("holds no records (emptied or deleted)")
            && msg.contains(&dir.path().join("CREATED").display().to_string())
            && msg.contains("every acknowledged record is missing"),
        "{msg}"
    );
    assert_repaired(
        dir.path(),
        &acked,
        0,
        "every acknowledged record is missing",
    );
}
