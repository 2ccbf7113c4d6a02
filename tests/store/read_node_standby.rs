//! A read node on a PostgreSQL hot standby (issue 37): a primary and a streaming replica
//! made by `pg_basebackup -R`, the writer copying its history into the primary, a read
//! node reading the standby. Its answers are the writer's byte for byte, server_info
//! reports the standby's replication lag, and when the standby is killed and restarted
//! while the writer goes on, the read node serves every transaction once: none lost, none
//! duplicated.

use crate::support;

use serde_json::{json, Value};
use std::net::SocketAddr;
use support::fill::{accept, call, caught_up, pay, GENESIS};
use support::http::rpc;
use support::keys::address;
use support::postgres::PgCluster;
use support::server::Server;

fn same(writer: SocketAddr, reader: SocketAddr, method: &str, params: Value) -> Value {
    let (w, r) = (
        rpc(writer, method, params.clone()),
        rpc(reader, method, params.clone()),
    );
    assert_eq!(
        w.body, r.body,
        "{method} {params}: the writer's reply, then the read node's"
    );
    w.json()["result"].clone()
}

/// Every transaction hash of `account`'s history on `addr`, oldest first.
fn history(addr: SocketAddr, account: &str) -> Vec<String> {
    let r = call(
        addr,
        "account_tx",
        json!({"account": account, "forward": true, "limit": 400}),
    );
    r["transactions"]
        .as_array()
        .expect("transactions")
        .iter()
        .map(|t| t["tx"]["hash"].as_str().expect("hash").to_owned())
        .collect()
}

#[test]
fn a_read_node_on_a_hot_standby_answers_as_the_writer_across_a_standby_restart() {
    let primary = PgCluster::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let writer = Server::start_args(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            dir.path().to_str().expect("utf-8"),
            "--close-interval",
            "0",
            "--postgres",
            &primary.url(),
        ],
        1,
    );
    let w = writer.addr();
    // The writer has made the schema on the primary; the standby copies it.
    let dest = address("standby payee");
    let mut paid = Vec::new();
    paid.push(pay(w, &dest, 50_000_000));
    accept(w);
    let standby = PgCluster::standby_of(&primary);
    let reader = Server::start_args(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--read-only",
            "--postgres",
            &standby.url(),
            "--writer",
            &writer.ws_url(),
        ],
        1,
    );
    let r = reader.addr();
    for i in 0..5u64 {
        paid.push(pay(w, &dest, 1_000_000 + i));
        accept(w);
    }
    caught_up(r, w);
    assert_eq!(history(r, &dest), paid);
    for hash in &paid {
        same(w, r, "tx", json!({"transaction": hash}));
    }
    same(w, r, "account_tx", json!({"account": dest, "limit": 3}));
    same(
        w,
        r,
        "account_info",
        json!({"account": address(GENESIS), "ledger_index": "validated"}),
    );
    // The lag, from the standby: a number, small once it has replayed what it received.
    let info = call(r, "server_info", json!({}));
    let lag = info["info"]["database_replication_lag_seconds"]
        .as_f64()
        .unwrap_or_else(|| panic!("no replication lag in {info}"));
    assert!((0.0..60.0).contains(&lag), "lag {lag}");
    let writer_info = call(w, "server_info", json!({}));
    assert!(writer_info["info"]
        .get("database_replication_lag_seconds")
        .is_none());

    // The standby dies; the writer goes on; the standby comes back and catches up.
    standby.stop_server();
    for i in 0..4u64 {
        paid.push(pay(w, &dest, 2_000_000 + i));
        accept(w);
    }
    standby.start_server();
    caught_up(r, w);
    let seen = history(r, &dest);
    assert_eq!(
        seen, paid,
        "every payment once, in order, after the standby's restart"
    );
    assert_eq!(history(w, &dest), paid);
    for hash in &paid[paid.len() - 4..] {
        same(w, r, "tx", json!({"transaction": hash}));
    }
    same(
        w,
        r,
        "account_tx",
        json!({"account": dest, "forward": true}),
    );
}
