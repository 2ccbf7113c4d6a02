//! Faults under persistence: a torn tail is dropped, a damaged middle refuses to start
//! naming the file and offset, a failed fsync or a full disk fails the Durable and every
//! later write while reads keep working, and a replay that disagrees with the journal
//! refuses to start.

use crate::support;

use std::sync::Arc;

use ledgerd::node::persist::{PersistError, PersistOptions};
use ledgerd::store::{DiskStorage, FaultyStorage};
use support::accounts::{account_seq, balance};
use support::journal::segments;
use support::payment::payment_blob;
use support::persist::*;

fn faulty_options() -> (FaultyStorage, PersistOptions) {
    let faulty = FaultyStorage::new(Arc::new(DiskStorage));
    let opts = PersistOptions {
        storage: Arc::new(faulty.clone()),
        snapshot_interval_ledgers: 0,
        ..PersistOptions::default()
    };
    (faulty, opts)
}

/// Funds users and closes a few ledgers, every record acknowledged.
fn base(d: &mut Driver) -> Vec<ledgerd::protocol::keys::KeyPair> {
    let users = fund_users(d, 4);
    d.close().expect("close");
    for _ in 0..3 {
        for u in &users {
            d.pay(u, &users[0].account_id(), 1_000);
        }
        d.close().expect("close");
    }
    users
}

/// The disk failure is reported, later writes fail at once, reads keep working, and a
/// restart has every acknowledged transaction.
fn refuses_after(arm: impl FnOnce(&FaultyStorage), what: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (faulty, opts) = faulty_options();
    let mut d = Driver::open(dir.path(), cfg(32), opts).expect("open");
    let users = base(&mut d);
    let closed_before = d.store.closed().seq();
    arm(&faulty);
    let u = &users[1];
    d.pay(u, &users[2].account_id(), 5).expect("applied");
    let err = d.flush().expect_err("the record is not durable");
    assert!(err.to_string().contains(what), "{err}");
    let health = d.persist.health().expect_err("unhealthy");
    assert!(health.contains(what), "{health}");
    assert!(d.persist.stats_json()["failure"].is_string());
    // Further writes fail immediately.
    let seq = account_seq(&d.store, &u.account_id());
    let r = d
        .store
        .apply_blob(&payment_blob(u, seq, &users[2].account_id(), 6))
        .expect("decodes");
    let e = d
        .persist
        .record_tx(&[1, 2, 3], &r)
        .wait()
        .expect_err("refused");
    assert!(matches!(e, PersistError::Unhealthy(_)), "{e}");
    // Reads keep working.
    assert_eq!(d.store.closed().seq(), closed_before);
    assert!(balance(&d.store, &users[0].account_id()).is_some());
    let acked = d.acked.clone();
    drop(d);
    let d2 = Driver::open(dir.path(), cfg(32), PersistOptions::default()).expect("reopen");
    for a in &acked {
        assert!(
            d2.store.tx(&a.id).is_some(),
            "acknowledged {} present",
            a.id
        );
    }
    assert!(d2.persist.health().is_ok());
}

#[test]
fn a_failed_fsync_fails_the_write_and_every_later_one() {
    refuses_after(|f| f.fail_sync(f.syncs() + 1), "fdatasync");
}

#[test]
fn a_full_disk_fails_the_write_and_every_later_one() {
    refuses_after(|f| f.set_disk_full(true), "No space left");
}

#[test]
fn a_torn_tail_is_dropped_and_acknowledged_records_survive() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (faulty, opts) = faulty_options();
    let mut d = Driver::open(dir.path(), cfg(32), opts).expect("open");
    let users = base(&mut d);
    let state = closed_state(&d.store);
    // The next write reaches the disk only in part, then the machine is gone.
    faulty.tear_write(faulty.writes() + 1, 30);
    for u in &users {
        d.pay(u, &users[0].account_id(), 9);
    }
    assert!(d.flush().is_err(), "torn records are not acknowledged");
    let acked = d.acked.clone();
    drop(d);
    let seg = segments(&dir.path().join("journal")).remove(0);
    let torn_len = std::fs::metadata(&seg).expect("stat").len();
    let d2 = Driver::open(dir.path(), cfg(32), PersistOptions::default()).expect("reopen");
    assert!(
        std::fs::metadata(&seg).expect("stat").len() < torn_len,
        "tail cut"
    );
    assert_eq!(closed_state(&d2.store), state);
    assert!(d2.store.open_txs().is_empty(), "nothing torn was replayed");
    for a in &acked {
        assert!(d2.store.tx(&a.id).is_some());
    }
}

#[test]
fn damage_before_the_tail_refuses_to_start_naming_file_and_offset() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut d = Driver::open(dir.path(), cfg(32), PersistOptions::default()).expect("open");
    base(&mut d);
    drop(d);
    let seg = segments(&dir.path().join("journal")).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    let at = bytes.len() / 3;
    bytes[at] ^= 0x55;
    std::fs::write(&seg, &bytes).expect("write");
    let Err(e) = Driver::open(dir.path(), cfg(32), PersistOptions::default()) else {
        panic!("opened a journal damaged in the middle");
    };
    let msg = e.to_string();
    let name = seg.file_name().and_then(|n| n.to_str()).expect("name");
    assert!(msg.contains(name) && msg.contains("at byte"), "{msg}");
}

#[test]
fn a_replay_that_disagrees_with_the_journal_refuses_to_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut d = Driver::open(dir.path(), cfg(32), PersistOptions::default()).expect("open");
    base(&mut d);
    drop(d);
    // Rewrite the first transaction record's result (tesSUCCESS -> tecUNFUNDED_PAYMENT)
    // with a valid checksum: the damage is only visible to replay.
    let seg = segments(&dir.path().join("journal")).remove(0);
    let mut bytes = std::fs::read(&seg).expect("read");
    let mut at = 0;
    let mut changed = None;
    while at + 21 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4")) as usize;
        let end = at + 21 + len;
        if bytes[at + 20] == 1 {
            let number = u64::from_le_bytes(bytes[at + 8..at + 16].try_into().expect("8"));
            bytes[at + 21 + 2..at + 21 + 6].copy_from_slice(&104i32.to_le_bytes());
            let crc = crc32fast::hash(&bytes[at + 4..end]);
            bytes[at..at + 4].copy_from_slice(&crc.to_le_bytes());
            changed = Some(number);
            break;
        }
        at = end;
    }
    let number = changed.expect("a transaction record");
    std::fs::write(&seg, &bytes).expect("write");
    let Err(e) = Driver::open(dir.path(), cfg(32), PersistOptions::default()) else {
        panic!("started on a journal replay disagrees with");
    };
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("record {number}")) && msg.contains("refusing to start"),
        "{msg}"
    );
}
