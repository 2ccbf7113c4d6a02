//! Clio's own methods (rippled has none of them), with Clio's request and reply shapes:
//! `ledger_index`, a validated ledger by its close time.

use crate::support;

use ledgerd::app::Running;
use serde_json::{json, Value};
use std::net::SocketAddr;
use support::http::rpc_async;
use support::server::start_with;

async fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc_async(addr, method, params).await["result"].clone()
}

async fn server() -> Running {
    start_with(0, |c| c.ephemeral = true).await
}

/// Closes ledgers at 2030-01-01T00:00:00Z, 00:01:00Z and 00:03:00Z; their indexes.
async fn three_closes(addr: SocketAddr) -> Vec<u64> {
    let mut seqs = Vec::new();
    for t in [
        "2030-01-01T00:00:00Z",
        "2030-01-01T00:01:00Z",
        "2030-01-01T00:03:00Z",
    ] {
        let r = call(addr, "ledger_accept", json!({ "close_time": t })).await;
        assert_eq!(r["status"], "success", "{r}");
        seqs.push(r["ledger_current_index"].as_u64().expect("index") - 1);
    }
    seqs
}

#[tokio::test]
async fn ledger_index_finds_the_last_ledger_closed_by_a_date() {
    let running = server().await;
    let a = running.addrs[0].1;
    let seqs = three_closes(a).await;
    let at = |date: &str| call(a, "ledger_index", json!({ "date": date }));
    // Exactly at a close time, between two, after the last.
    for (date, want, closed) in [
        ("2030-01-01T00:01:00Z", seqs[1], "2030-01-01T00:01:00Z"),
        ("2030-01-01T00:02:59Z", seqs[1], "2030-01-01T00:01:00Z"),
        ("2030-01-01T00:00:30Z", seqs[0], "2030-01-01T00:00:00Z"),
        ("2099-12-31T23:59:59Z", seqs[2], "2030-01-01T00:03:00Z"),
    ] {
        let r = at(date).await;
        assert_eq!(r["ledger_index"], want, "{date}: {r}");
        assert_eq!(r["closed"], closed, "{date}");
        assert_eq!(r["validated"], true);
        let ledger = call(a, "ledger", json!({ "ledger_index": want })).await;
        assert_eq!(r["ledger_hash"], ledger["ledger_hash"], "{date}");
    }
    // Without a date: the latest validated ledger.
    let latest = call(a, "ledger_index", json!({})).await;
    assert_eq!(latest["ledger_index"], seqs[2], "{latest}");
    // The genesis ledger closed at the ripple epoch; before it: lgrNotFound,
    // "ledgerNotInRange".
    let first = at("2001-01-01T00:00:00Z").await;
    assert_eq!(first["ledger_index"], 1, "{first}");
    let r = at("1999-12-31T23:59:59Z").await;
    assert_eq!(r["error"], "lgrNotFound", "{r}");
    assert_eq!(r["error_message"], "ledgerNotInRange");
    // Clio's one format, and a string.
    for bad in [
        json!("2030-01-01 00:00:00Z"),
        json!("2030-01-01T00:00:00+00:00"),
        json!("2030-02-30T00:00:00Z"),
        json!("yesterday"),
        json!(946_684_800),
    ] {
        let r = call(a, "ledger_index", json!({ "date": bad })).await;
        assert_eq!(r["error"], "invalidParams", "{bad}: {r}");
    }
    running.stop().await;
}
