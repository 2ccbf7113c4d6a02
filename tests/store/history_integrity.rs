//! The history database held to the journal's rule (issue 29): acknowledged history a
//! restart cannot reach refuses to start, naming the file, the ledgers missing and
//! `serve --repair-history`; the repair rebuilds what the journal still holds and says
//! what it could not. Against the real binary on real files:
//! - a deleted or emptied `history.sqlite` (defect 2);
//! - one byte flipped at half the file, and its last 40 KiB zeroed (defect 3);
//! - ledgers deleted from its `ledgers` table (a gap, defect 4);
//! - while it cannot be written (another process holds its write lock), reads end at
//!   the last ledger written and the waiting ledgers are written once it can be (defect 5);
//! - the repair over a journal pruned behind its snapshots, which no longer reaches the
//!   first ledgers; a store made before start markers, adopted as it is; online delete.

use crate::support;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use ledgerd::limits::LEDGER_HISTORY_COUNT;
use serde_json::json;
use support::fill::{accept, call, pay, serve_args, GENESIS};
use support::keys::address;
use support::reply::error;
use support::server::Server;

/// Payments, one a ledger, in ledgers 3 to 22.
const PAYMENTS: usize = 20;
/// Ledgers closed after them: more than memory keeps, so the payments' ledgers are in the
/// history database only.
const LATER_LEDGERS: usize = 300;
/// The last ledger [`build`] closes (a new ledger starts with ledgers 1 and 2 closed).
const LAST: u32 = 2 + PAYMENTS as u32 + LATER_LEDGERS as u32;

fn start(dir: &Path, extra: &[&str]) -> Server {
    Server::start_args(&serve_args(dir, extra), 1)
}

/// Starts the server expecting it to refuse: returns why (its `ledgerd: ...` line).
fn refused(dir: &Path) -> String {
    match Server::try_start_args(&serve_args(dir, &[]), 1) {
        Ok(server) => panic!("started; complete_ledgers {}", complete(server.addr())),
        Err((code, log)) => {
            assert_eq!(code, Some(2), "{log}");
            let why = log.lines().find(|l| l.starts_with("ledgerd: "));
            why.unwrap_or_else(|| panic!("no reason given: {log}"))
                .to_owned()
        }
    }
}

fn complete(addr: SocketAddr) -> String {
    let info = call(addr, "server_info", json!({}));
    info["info"]["complete_ledgers"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn history_file(dir: &Path) -> PathBuf {
    dir.join("history.sqlite")
}

fn dest() -> String {
    address("history integrity dest")
}

/// [`PAYMENTS`] payments to [`dest`], one a ledger, then [`LATER_LEDGERS`] ledgers; the
/// server stopped cleanly. Returns the payments' hashes.
fn build(dir: &Path) -> Vec<String> {
    let server = start(dir, &[]);
    let addr = server.addr();
    let dest = dest();
    let mut hashes = Vec::new();
    for i in 0..PAYMENTS {
        hashes.push(pay(addr, &dest, 100_000_000 + i as u64));
        accept(addr);
    }
    for _ in 0..LATER_LEDGERS {
        accept(addr);
    }
    assert_eq!(complete(addr), format!("1-{LAST}"));
    assert!(server.terminate().success());
    hashes
}

/// Every payment is found, validated, by `tx` and `account_tx`, and history starts at 1.
fn assert_whole(addr: SocketAddr, hashes: &[String]) {
    for h in hashes {
        let r = call(addr, "tx", json!({"transaction": h}));
        assert_eq!(r["validated"], true, "tx {h}: {r}");
    }
    let r = call(addr, "account_tx", json!({"account": dest(), "limit": 400}));
    assert_eq!(
        r["transactions"].as_array().map(Vec::len),
        Some(hashes.len()),
        "{r}"
    );
    assert_eq!(complete(addr), format!("1-{LAST}"));
}

/// The refusal names the database file, the ledgers missing and the repair.
fn assert_names(msg: &str, dir: &Path, what: &str) {
    let file = history_file(dir).display().to_string();
    assert!(msg.contains(&format!("history database {file}")), "{msg}");
    assert!(msg.contains(what), "wanted {what:?}: {msg}");
    assert!(msg.contains("--repair-history"), "{msg}");
}

/// The ledgers memory does not hold after a restart: the first `LAST - 256`.
fn older_than_memory() -> String {
    format!("ledgers 1-{}", LAST - LEDGER_HISTORY_COUNT)
}

fn sqlite(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(history_file(dir)).expect("open history.sqlite")
}

#[test]
fn a_deleted_or_emptied_history_database_refuses_then_repair_rebuilds_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hashes = build(dir.path());
    std::fs::remove_file(history_file(dir.path())).expect("delete");
    let msg = refused(dir.path());
    let missing = format!("lacks acknowledged {}", older_than_memory());
    assert_names(&msg, dir.path(), &missing);
    assert!(msg.contains("holds no ledgers"), "{msg}");
    assert_eq!(refused(dir.path()), msg, "refused again the same way");

    // Emptied (a zero-length file): the same.
    std::fs::write(history_file(dir.path()), b"").expect("empty");
    assert_names(&refused(dir.path()), dir.path(), &missing);

    let server = start(dir.path(), &["--repair-history"]);
    assert_whole(server.addr(), &hashes);
    let log = server.log_text();
    assert!(
        log.contains(&format!("rebuilt ledgers 1-{LAST} from the journal")),
        "{log}"
    );
    assert!(!log.contains("could not be rebuilt"), "{log}");
    assert!(server.terminate().success());
    let server = start(dir.path(), &[]);
    assert_whole(server.addr(), &hashes);
}

/// Flips every bit of the byte at the start of the page at half the file (a page's first
/// byte is its kind, or an overflow page's link: structure, which a check can see).
fn flip_half(file: &Path) {
    let mut bytes = std::fs::read(file).expect("read");
    let page = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    let at = bytes.len() / 2 / page * page;
    bytes[at] ^= 0xFF;
    std::fs::write(file, bytes).expect("write");
}

/// Writes the WAL back into the file, so the damage done to the file is what is read.
fn checkpoint(dir: &Path) {
    sqlite(dir)
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .expect("checkpoint");
}

#[test]
fn a_flipped_byte_refuses_then_repair_sets_the_file_aside_and_rebuilds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hashes = build(dir.path());
    checkpoint(dir.path());
    let file = history_file(dir.path());
    flip_half(&file);
    let damaged = std::fs::read(&file).expect("read");
    let msg = refused(dir.path());
    assert_names(&msg, dir.path(), "is damaged: ");

    let server = start(dir.path(), &["--repair-history"]);
    assert_whole(server.addr(), &hashes);
    let aside = dir.path().join("history.sqlite.discarded");
    assert_eq!(
        std::fs::read(&aside).expect("set aside"),
        damaged,
        "the damaged file is kept as it was"
    );
    assert!(
        server.log_text().contains("set aside as"),
        "{}",
        server.log_text()
    );
}

#[test]
fn a_zeroed_tail_refuses_to_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    build(dir.path());
    checkpoint(dir.path());
    let file = history_file(dir.path());
    let mut bytes = std::fs::read(&file).expect("read");
    let n = bytes.len();
    assert!(n > 4 * 40 * 1024, "{n} bytes");
    bytes[n - 40 * 1024..].fill(0);
    std::fs::write(&file, bytes).expect("write");
    assert_names(&refused(dir.path()), dir.path(), "is damaged");
}

#[test]
fn a_gap_refuses_naming_the_ledgers_then_repair_fills_it_from_the_journal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hashes = build(dir.path());
    let deleted = sqlite(dir.path())
        .execute("DELETE FROM ledgers WHERE seq BETWEEN 10 AND 20", [])
        .expect("delete");
    assert_eq!(deleted, 11);
    let msg = refused(dir.path());
    assert_names(&msg, dir.path(), "lacks acknowledged ledgers 10-20");

    let server = start(dir.path(), &["--repair-history"]);
    let addr = server.addr();
    assert_whole(addr, &hashes);
    let r = call(
        addr,
        "ledger",
        json!({"ledger_index": 15, "transactions": true}),
    );
    assert_eq!(r["validated"], true, "{r}");
    assert_eq!(
        r["ledger"]["transactions"].as_array().map(Vec::len),
        Some(1)
    );
    assert!(
        server
            .log_text()
            .contains("rebuilt ledgers 10-20 from the journal"),
        "{}",
        server.log_text()
    );
}

#[test]
fn a_gap_memory_still_holds_is_written_again_at_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hashes = build(dir.path());
    let (a, b) = (LAST - 20, LAST - 10);
    sqlite(dir.path())
        .execute("DELETE FROM ledgers WHERE seq BETWEEN ?1 AND ?2", [a, b])
        .expect("delete");
    let server = start(dir.path(), &[]);
    assert_whole(server.addr(), &hashes);
    assert!(
        server.log_text().contains("written again"),
        "{}",
        server.log_text()
    );
    assert!(server.terminate().success());
    let held: u32 = sqlite(dir.path())
        .query_row(
            "SELECT COUNT(*) FROM ledgers WHERE seq BETWEEN ?1 AND ?2",
            [a, b],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(held, b - a + 1);
}

/// Another process holds the database's write lock: the server's writes fail as they
/// would on a read-only file or a full disk.
#[test]
fn while_history_cannot_be_written_reads_end_at_the_last_ledger_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(dir.path(), &[]);
    let addr = server.addr();
    let dest = dest();
    for i in 0..5 {
        pay(addr, &dest, 100_000_000 + i);
        accept(addr);
    }
    let written = call(addr, "ledger_closed", json!({}))["ledger_index"]
        .as_u64()
        .expect("ledger_index") as u32;
    let lock = sqlite(dir.path());
    lock.execute_batch("BEGIN IMMEDIATE;").expect("lock");
    let mut unwritten = Vec::new();
    for i in 0..3 {
        unwritten.push(pay(addr, &dest, 200_000_000 + i));
        accept(addr);
    }
    let validated = written + 3;
    assert_eq!(complete(addr), format!("1-{written}"), "what is written");
    let r = call(addr, "account_tx", json!({"account": dest}));
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["ledger_index_max"], written, "{r}");
    assert_eq!(r["transactions"].as_array().map(Vec::len), Some(5), "{r}");
    let v2 = json!({"account": dest, "ledger_index_max": validated, "api_version": 2});
    assert_eq!(error(&call(addr, "account_tx", v2)).0, "lgrIdxMalformed");
    let one = json!({"account": dest, "ledger_index": validated});
    assert_eq!(error(&call(addr, "account_tx", one)).0, "lgrNotValidated");
    let storage = call(addr, "server_info", json!({"storage": true}));
    assert_eq!(
        storage["info"]["storage"]["history"]["waiting"], 3,
        "{storage}"
    );
    assert!(server.log_text().contains("history not written"));

    // Writable again: the next close writes the three waiting first.
    lock.execute_batch("ROLLBACK;").expect("unlock");
    drop(lock);
    let last = pay(addr, &dest, 300_000_000);
    accept(addr);
    assert_eq!(complete(addr), format!("1-{}", validated + 1));
    let r = call(addr, "account_tx", json!({"account": dest}));
    assert_eq!(r["transactions"].as_array().map(Vec::len), Some(9), "{r}");
    for h in unwritten.iter().chain([&last]) {
        let r = call(addr, "tx", json!({"transaction": h}));
        assert_eq!(r["validated"], true, "{r}");
    }
    let storage = call(addr, "server_info", json!({"storage": true}));
    assert_eq!(
        storage["info"]["storage"]["history"]["waiting"], 0,
        "{storage}"
    );
    // And the store holds them without a gap: a restart is not refused.
    assert!(server.terminate().success());
    let server = start(dir.path(), &[]);
    assert_eq!(complete(server.addr()), format!("1-{}", validated + 1));
}

#[test]
fn a_store_made_before_start_markers_is_adopted_as_it_is() {
    let dir = tempfile::tempdir().expect("tempdir");
    build(dir.path());
    // What an earlier ledgerd left: history from ledger 11 on, and no marker.
    let marker = dir.path().join("history.start");
    assert!(marker.exists(), "a marker beside the database");
    std::fs::remove_file(&marker).expect("remove the marker");
    sqlite(dir.path())
        .execute_batch(
            "DELETE FROM account_txs WHERE seq < 11; DELETE FROM txs WHERE seq < 11; \
             DELETE FROM ledgers WHERE seq < 11;",
        )
        .expect("delete");
    let server = start(dir.path(), &[]);
    assert_eq!(complete(server.addr()), format!("11-{LAST}"));
    assert!(server.terminate().success());
    assert_eq!(
        std::fs::read_to_string(&marker)
            .expect("marker")
            .lines()
            .next(),
        Some("11")
    );
    // From now on it is held to it.
    std::fs::remove_file(history_file(dir.path())).expect("delete");
    let msg = refused(dir.path());
    let missing = format!(
        "lacks acknowledged ledgers 11-{}",
        LAST - LEDGER_HISTORY_COUNT
    );
    assert_names(&msg, dir.path(), &missing);
}

#[test]
fn online_delete_moves_the_start_and_restarts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(dir.path(), &["--online-delete", "256"]);
    let addr = server.addr();
    for _ in 0..300 {
        accept(addr);
    }
    let (first, last) = (302 - 255, 302);
    assert_eq!(complete(addr), format!("{first}-{last}"));
    assert!(server.terminate().success());
    let marker = dir.path().join("history.start");
    let text = std::fs::read_to_string(&marker).expect("marker");
    assert_eq!(text.lines().next(), Some(first.to_string().as_str()));
    let server = start(dir.path(), &["--online-delete", "256"]);
    assert_eq!(complete(server.addr()), format!("{first}-{last}"));
}

/// A data directory whose journal was pruned behind its snapshots (small segments, a
/// snapshot every 4 ledgers), with history written as the publisher writes it: returns
/// each payment's (hash, ledger) and the last ledger.
fn pruned(dir: &Path) -> (Vec<(String, u32)>, u32) {
    use ledgerd::node::history::History;
    use ledgerd::store::SqliteHistory;
    use support::keys::keys;
    use support::persist::{cfg, fund_users, small_options, Driver};
    let mut options = small_options(4, 8);
    options.journal.segment_bytes_max = 2 * 1024;
    let mut d = Driver::open(dir, cfg(8), options).expect("open");
    let store = SqliteHistory::open(&history_file(dir), 1).expect("history");
    let history = History {
        store: std::sync::Arc::new(store),
        keep: None,
        advisory: None,
        cache: None,
    };
    let file = history_file(dir).display().to_string();
    history.catch_up(&d.store, &file, false).expect("history");
    let users = fund_users(&mut d, 1);
    d.close().expect("close");
    let master = keys(GENESIS);
    let mut payments = Vec::new();
    for i in 0..60 {
        let a = d
            .pay(&master, &users[0].account_id(), 1_000 + i)
            .expect("paid");
        d.close().expect("close");
        d.persist.wait_snapshot();
        history.catch_up(&d.store, &file, false).expect("history");
        payments.push((a.id.to_hex(), a.ledger_seq.expect("in a ledger")));
    }
    (payments, d.store.closed().seq())
}

/// The first number of the first range after `after` in `text` (`... ledgers 1-17 ...`).
fn range_after(text: &str, after: &str) -> (u32, u32) {
    let rest = text
        .split(after)
        .nth(1)
        .unwrap_or_else(|| panic!("no {after:?} in {text}"));
    let range: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    let (a, b) = range.split_once('-').unwrap_or((&range, &range));
    (a.parse().expect("a number"), b.parse().expect("a number"))
}

#[test]
fn repair_rebuilds_what_the_pruned_journal_holds_and_names_what_it_cannot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (payments, last) = pruned(dir.path());
    std::fs::remove_file(history_file(dir.path())).expect("delete");
    let msg = refused(dir.path());
    let (from, to) = range_after(&msg, "lacks acknowledged ledgers ");
    assert_eq!(from, 1, "{msg}");
    assert!(
        to > 1 && to < last,
        "the journal still rebuilds the newest: {msg}"
    );

    let server = start(dir.path(), &["--repair-history"]);
    let addr = server.addr();
    let log = server.log_text();
    // The journal no longer reaches the first ledgers: they are named, history starts
    // after them, and every ledger after them is rebuilt.
    let line = log
        .lines()
        .find(|l| {
            l.contains("could not be rebuilt: the journal no longer holds their transactions")
        })
        .unwrap_or_else(|| panic!("no ledgers named as lost: {log}"));
    let lost = range_after(line, "ledgers ");
    assert_eq!(lost.0, 1, "{line}");
    let start_at = lost.1 + 1;
    assert!(
        log.contains(&format!("history now starts at ledger {start_at}")),
        "{log}"
    );
    assert!(start_at <= to + 1, "memory's ledgers are rebuilt: {log}");
    assert!(log.contains("rebuilt ledgers "), "{log}");
    assert_eq!(complete(addr), format!("{start_at}-{last}"));
    for (hash, seq) in &payments {
        let r = call(addr, "tx", json!({"transaction": hash}));
        if *seq >= start_at {
            assert_eq!(r["validated"], true, "ledger {seq}: {r}");
        } else {
            assert_eq!(error(&r).0, "txnNotFound", "ledger {seq}: {r}");
        }
    }
    assert!(server.terminate().success());
    let server = start(dir.path(), &[]);
    assert_eq!(complete(server.addr()), format!("{start_at}-{last}"));
}

/// The database damaged under a running server (everything but its first page zeroed): a
/// read of an old transaction answers `dbDeserialization` saying the history database is
/// damaged, not "not found" and not SQLite's own text.
#[test]
fn a_read_of_a_damaged_database_answers_db_deserialization() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hashes = build(dir.path());
    let server = start(dir.path(), &[]);
    let addr = server.addr();
    let file = history_file(dir.path());
    let mut bytes = std::fs::read(&file).expect("read");
    let page = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    bytes[page..].fill(0);
    std::fs::write(&file, bytes).expect("write");
    let r = call(addr, "tx", json!({"transaction": hashes[0]}));
    let (token, code, message) = error(&r);
    assert_eq!((token, code), ("dbDeserialization", 77), "{r}");
    assert!(message.contains("history database is damaged"), "{r}");
    assert!(
        !message.contains("sqlite") && !message.contains("malformed"),
        "{r}"
    );
    let r = call(addr, "account_tx", json!({"account": dest()}));
    assert_eq!(error(&r).0, "dbDeserialization", "{r}");
}
