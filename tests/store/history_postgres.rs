//! The PostgreSQL history store against a real PostgreSQL (issue 18): every read gives
//! what the SQLite store gives for the same ledgers; writes are idempotent (a writer that
//! restarts resumes), refuse a different ledger or a gap, and migrations run once; calls
//! while the database is down fail as unavailable, and the store works again once it is
//! back, without reopening.

use crate::support;

use ledgerd::ledger::header::LedgerHeader;
use ledgerd::protocol::types::{AccountId, Hash256};
use ledgerd::store::{
    AccountTxQuery, HistoryLedger, HistoryStore, HistoryTx, PgHistory, SqliteHistory, StateChanges,
    StoreError,
};
use support::postgres::PgCluster;

fn header(seq: u32, parent: Hash256) -> LedgerHeader {
    let mut h = LedgerHeader {
        seq,
        total_drops: 100_000_000_000,
        parent_hash: parent,
        transaction_hash: Hash256([seq as u8; 32]),
        account_hash: Hash256([7; 32]),
        parent_close_time: seq * 10,
        close_time: seq * 10 + 10,
        close_time_resolution: 10,
        close_flags: 0,
        hash: Hash256::ZERO,
    };
    h.hash = h.compute_hash();
    h
}

fn key(n: u32) -> Hash256 {
    let mut k = [0u8; 32];
    k[..4].copy_from_slice(&n.to_be_bytes());
    Hash256(k)
}

/// Ledgers 1..=n with `per` transactions each (every one under account A, the odd ones
/// under B too); each ledger rewrites key 0, creates key `seq` and deletes key `seq - 2`.
fn ledgers(n: u32, per: u32) -> Vec<HistoryLedger> {
    let mut parent = Hash256::ZERO;
    let mut out = Vec::new();
    for seq in 1..=n {
        let header = header(seq, parent);
        parent = header.hash;
        let txs = (0..per)
            .map(|i| {
                let mut id = [0u8; 32];
                id[..8].copy_from_slice(&(u64::from(seq) << 32 | u64::from(i)).to_be_bytes());
                HistoryTx {
                    id: Hash256(id),
                    index: i,
                    blob: vec![seq as u8, i as u8, 1],
                    meta: vec![i as u8, 2],
                    delivered: (i % 3 == 0).then(|| vec![0x40, i as u8]),
                    accounts: if i % 2 == 1 {
                        vec![AccountId([0xA; 20]), AccountId([0xB; 20])]
                    } else {
                        vec![AccountId([0xA; 20])]
                    },
                }
            })
            .collect();
        let mut state: Vec<(Hash256, Option<std::sync::Arc<[u8]>>)> = vec![
            (key(0), Some(vec![seq as u8].into())),
            (key(seq), Some(vec![seq as u8, 0xEE].into())),
        ];
        if seq > 2 {
            state.push((key(seq - 2), None));
        }
        let changes = if seq == 1 {
            StateChanges::Full
        } else {
            StateChanges::Delta
        };
        out.push(HistoryLedger {
            header,
            txs,
            state,
            changes,
        });
    }
    out
}

fn all_pages(s: &dyn HistoryStore, account: u8, forward: bool, rows: u32) -> Vec<(u32, u32)> {
    let mut seen = Vec::new();
    let mut marker = None;
    loop {
        let p = s
            .account_tx(&AccountTxQuery {
                account: AccountId([account; 20]),
                min: 2,
                max: 11,
                forward,
                rows,
                marker,
            })
            .expect("page");
        seen.extend(p.txs.iter().map(|t| (t.ledger_seq, t.index)));
        match p.marker {
            Some(m) => marker = Some(m),
            None => return seen,
        }
    }
}

fn state_walk(s: &dyn HistoryStore, seq: u32, page: usize) -> Vec<(Hash256, Vec<u8>)> {
    let mut out = Vec::new();
    let mut after = None;
    loop {
        let rows = s.state_page(seq, after.as_ref(), page).expect("state page");
        let Some(last) = rows.last() else {
            return out;
        };
        after = Some(last.0);
        out.extend(rows);
    }
}

/// Every read of `a` equals `b`'s.
fn same_reads(a: &dyn HistoryStore, b: &dyn HistoryStore, all: &[HistoryLedger]) {
    assert_eq!(a.range().expect("range"), b.range().expect("range"));
    assert_eq!(a.state_from().expect("from"), b.state_from().expect("from"));
    for l in all {
        let seq = l.header.seq;
        assert_eq!(a.header(seq).expect("h"), b.header(seq).expect("h"));
        let by_hash = a.header_by_hash(&l.header.hash).expect("h");
        assert_eq!(by_hash, b.header_by_hash(&l.header.hash).expect("h"));
        assert_eq!(a.ledger_txs(seq).expect("t"), b.ledger_txs(seq).expect("t"));
        for t in &l.txs {
            assert_eq!(a.tx(&t.id).expect("tx"), b.tx(&t.id).expect("tx"));
        }
        for k in 0..=all.len() as u32 + 1 {
            let (x, y) = (a.state_entry(&key(k), seq), b.state_entry(&key(k), seq));
            assert_eq!(x.expect("entry"), y.expect("entry"), "key {k} at {seq}");
        }
        assert_eq!(
            state_walk(a, seq, 2),
            state_walk(b, seq, 3),
            "state at {seq}"
        );
    }
    for (account, forward, rows) in [(0xA, true, 4), (0xA, false, 7), (0xB, true, 1)] {
        let (x, y) = (
            all_pages(a, account, forward, rows),
            all_pages(b, account, forward, rows),
        );
        assert!(!x.is_empty());
        assert_eq!(x, y, "account_tx {account:x} forward {forward} rows {rows}");
    }
    assert_eq!(
        a.recent_txs(5, 20).expect("recent"),
        b.recent_txs(5, 20).expect("recent")
    );
}

#[test]
fn postgres_reads_what_sqlite_reads_and_writes_resume() {
    let pg = PgCluster::start();
    let all = ledgers(12, 5);
    let sqlite = SqliteHistory::in_memory().expect("sqlite");
    sqlite.write(&all).expect("sqlite write");
    {
        let store = PgHistory::open(&pg.url()).expect("open");
        store.write(&all[..7]).expect("write");
    }
    // Reopening migrates nothing twice; writing ledgers again resumes after the stored.
    let store = PgHistory::open(&pg.url()).expect("reopen");
    store.write(&all[3..]).expect("resume");
    same_reads(&store, &sqlite, &all);

    // A different ledger 5, or a ledger after a gap, is refused and changes nothing.
    let mut other = all[4].clone();
    other.header.close_time += 1;
    other.header.hash = other.header.compute_hash();
    let err = store.write(&[other]).expect_err("another ledger 5");
    assert!(matches!(err, StoreError::History { .. }), "{err}");
    let mut far = ledgers(14, 1).pop().expect("ledger 14");
    far.changes = StateChanges::Delta;
    assert!(store.write(&[far]).is_err(), "ledger 14 after 12");
    assert_eq!(store.range().expect("range"), Some((1, 12)));

    // Online deletion and cutting the newest ledgers agree with SQLite too.
    for s in [&store as &dyn HistoryStore, &sqlite] {
        s.delete_before(4).expect("delete before");
        s.delete_after(10).expect("delete after");
    }
    same_reads(&store, &sqlite, &all[3..10]);
}

#[test]
fn a_database_restart_fails_calls_meanwhile_and_then_serves_again() {
    let pg = PgCluster::start();
    let all = ledgers(4, 2);
    let store = PgHistory::open(&pg.url()).expect("open");
    store.write(&all[..2]).expect("write");
    pg.stop_server();
    match store.range() {
        Err(StoreError::Unavailable { store: name, .. }) => {
            assert!(name.contains("127.0.0.1"), "{name}");
            assert!(!name.contains("postgres@"), "{name}");
        }
        other => panic!("expected unavailable while down, got {other:?}"),
    }
    assert!(store.write(&all[2..3]).is_err());
    // Right after a failure calls fail at once (PG_DOWN_HOLD_MS), without a connection
    // attempt each.
    let started = std::time::Instant::now();
    for _ in 0..100 {
        assert!(store.range().is_err());
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    pg.start_server();
    std::thread::sleep(std::time::Duration::from_millis(300));
    store.write(&all[2..]).expect("write after the restart");
    assert_eq!(store.range().expect("range"), Some((1, 4)));
    assert_eq!(
        store
            .tx(&all[3].txs[1].id)
            .expect("tx")
            .map(|t| t.ledger_seq),
        Some(4)
    );
}

#[test]
fn an_unreachable_database_is_an_error_at_open_and_a_bad_url_is_refused() {
    let err = PgHistory::open("postgresql://postgres@127.0.0.1:1/x").err();
    assert!(
        matches!(err, Some(StoreError::Unavailable { .. })),
        "{err:?}"
    );
    let err = PgHistory::open("not a url at all ::").err();
    assert!(matches!(err, Some(StoreError::History { .. })), "{err:?}");
}

// ---- The writer's copy (`serve --postgres URL`) ----

mod writer_copy {
    use super::*;
    use serde_json::json;
    use std::net::SocketAddr;
    use std::path::Path;
    use std::time::{Duration, Instant};
    use support::fill::{call, serve_args, GENESIS};
    use support::keys::{address, secret};
    use support::server::Server;

    fn start_writer(dir: &Path, url: &str) -> Server {
        Server::start_args(&serve_args(dir, &["--postgres", url]), 1)
    }

    /// Pays a fresh account from genesis `n` times, closing after each; returns the last
    /// validated ledger.
    fn pay_and_close(addr: SocketAddr, n: u32, seed: u32) -> u32 {
        let mut last = 0;
        for i in 0..n {
            let dest = address(&format!("replica {seed} {i}"));
            let tx = json!({"TransactionType": "Payment", "Account": address(GENESIS),
                "Destination": dest, "Amount": "50000000"});
            let r = call(
                addr,
                "submit",
                json!({"secret": secret(GENESIS), "tx_json": tx}),
            );
            assert_eq!(r["engine_result"], "tesSUCCESS", "payment: {r}");
            let started = Instant::now();
            let r = call(addr, "ledger_accept", json!({}));
            assert_eq!(r["status"], "success", "ledger_accept: {r}");
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the close waited"
            );
            last = r["ledger_current_index"].as_u64().expect("index") as u32 - 1;
        }
        last
    }

    fn wait_for(store: &PgHistory, seq: u32) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some((_, last))) = store.range() {
                if last >= seq {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "PostgreSQL never reached ledger {seq}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The database holds what the writer's own store holds, ledger for ledger.
    fn same_as_writer(pg: &PgHistory, dir: &Path, last: u32) {
        let own = SqliteHistory::open(&dir.join("history.sqlite"), 1).expect("writer's store");
        let (first, _) = own.range().expect("range").expect("some ledgers");
        assert_eq!(pg.range().expect("range").map(|r| r.0), Some(first));
        for seq in first..=last {
            assert_eq!(pg.header(seq).expect("h"), own.header(seq).expect("h"));
            assert_eq!(
                pg.ledger_txs(seq).expect("t"),
                own.ledger_txs(seq).expect("t")
            );
        }
        let q = AccountTxQuery {
            account: AccountId::from_address(&address(GENESIS)).expect("address"),
            min: first,
            max: last,
            forward: false,
            rows: 400,
            marker: None,
        };
        let (a, b) = (
            pg.account_tx(&q).expect("pg"),
            own.account_tx(&q).expect("own"),
        );
        assert!(!a.txs.is_empty());
        assert_eq!(a, b);
        let at = |s: &dyn HistoryStore| state_walk(s, last, 64);
        assert_eq!(at(pg), at(&own), "state at {last}");
    }

    #[test]
    fn the_writer_copies_history_through_database_and_writer_restarts() {
        let pg = PgCluster::start();
        let dir = tempfile::tempdir().expect("tempdir");
        let writer = start_writer(dir.path(), &pg.url());
        let last = pay_and_close(writer.addr(), 5, 1);
        let store = PgHistory::open(&pg.url()).expect("open");
        wait_for(&store, last);
        same_as_writer(&store, dir.path(), last);

        // The database goes away: the writer closes ledgers as fast as before.
        pg.stop_server();
        let last = pay_and_close(writer.addr(), 4, 2);
        pg.start_server();
        wait_for(&store, last);
        same_as_writer(&store, dir.path(), last);

        // The writer restarts: the copy resumes after what the database holds.
        assert!(writer.terminate().success());
        let writer = start_writer(dir.path(), &pg.url());
        let last = pay_and_close(writer.addr(), 3, 3);
        wait_for(&store, last);
        same_as_writer(&store, dir.path(), last);
        assert!(
            writer
                .log_text()
                .contains("PostgreSQL history copy connected"),
            "{}",
            writer.log_text()
        );

        // A revert would leave the database serving forgotten ledgers: refused.
        let snap = call(writer.addr(), "ledger_snapshot", json!({}));
        let id = snap["snapshot"].clone();
        assert!(id.is_u64(), "{snap}");
        let r = call(writer.addr(), "ledger_revert", json!({"snapshot": id}));
        assert_eq!(r["error"], "notSupported", "{r}");
    }
}
