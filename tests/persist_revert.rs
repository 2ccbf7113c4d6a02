//! A revert on disk (`Persistence::record_revert`, what `ledger_revert` does through the
//! sequencer): reopening comes back to the reverted state, open ledger and held
//! transactions included, whether replay starts before the revert (it meets the revert
//! record and loads the revert's snapshot) or from that snapshot; snapshots written past
//! the restored ledger do not lead replay astray; a saved state older than the memory
//! window still reverts (it pins the state's history); and a revert whose snapshot never
//! reached the disk (a crash in between) never happened.

mod support;

use ledgerd::ledgers::Ledgers;
use ledgerd::protocol::types::Hash256;
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
    let files = std::fs::read_dir(dir.path().join("snapshots"))
        .expect("snapshots")
        .count();
    assert_eq!(files, 1, "only the revert's snapshot is left");
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
    use ledgerd::node::history::History;
    use ledgerd::store::SqliteHistory;
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut d, id, _saved, users) = saved_with_open_ledger(dir.path(), 4);
    let restored = d.store.closed().seq();
    let log = d.persist.open_log();
    payments(&mut d, &users, 3);
    let file = dir.path().join("history.sqlite");
    let history = History {
        store: std::sync::Arc::new(SqliteHistory::open(&file, 1).expect("history")),
        keep: None,
        cache: None,
    };
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
