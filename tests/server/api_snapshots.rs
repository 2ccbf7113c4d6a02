//! Snapshots, revert, time travel and deterministic runs (issue 17 part B):
//! `ledger_snapshot` / `ledger_revert` restore the ledger, the open ledger, history and the
//! sequence (in memory, in the history store, and across a restart of a data directory);
//! `ledger_accept`'s `close_time` moves the clock (escrows see it); `--start-time` makes
//! two runs of one script produce the same ledger hashes.

use crate::support;

use ledgerd::app::Running;
use serde_json::{json, Value};
use std::net::SocketAddr;
use support::http::rpc_async;
use support::keys::GENESIS_SEED;
use support::server::{start_with, Server};

const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
const ALICE: &str = "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe";
const BOB: &str = "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf";

/// `result` of one JSON-RPC call.
async fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc_async(addr, method, params).await["result"].clone()
}

/// Signs (server side, as admin) and submits `tx_json` for the genesis account.
async fn submit(addr: SocketAddr, tx_json: Value) -> Value {
    let r = call(
        addr,
        "submit",
        json!({"secret": GENESIS_SEED, "tx_json": tx_json}),
    )
    .await;
    assert_eq!(r["status"], "success", "{r}");
    r
}

async fn pay(addr: SocketAddr, to: &str, drops: u64) -> String {
    let r = submit(
        addr,
        json!({"TransactionType": "Payment", "Account": GENESIS, "Destination": to,
               "Amount": drops.to_string()}),
    )
    .await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    r["tx_json"]["hash"].as_str().expect("hash").to_owned()
}

async fn accept(addr: SocketAddr, params: Value) -> Value {
    call(addr, "ledger_accept", params).await
}

/// (closed hash, closed index, current index).
async fn tip(addr: SocketAddr) -> (String, u64, u64) {
    let closed = call(addr, "ledger", json!({"ledger_index": "closed"})).await;
    let current = call(addr, "ledger_current", json!({})).await;
    (
        closed["ledger_hash"].as_str().expect("hash").to_owned(),
        closed["ledger_index"].as_u64().expect("index"),
        current["ledger_current_index"].as_u64().expect("current"),
    )
}

/// account_info's AccountRoot in the open ledger (Null when missing).
async fn root(addr: SocketAddr, account: &str) -> Value {
    let r = call(
        addr,
        "account_info",
        json!({"account": account, "ledger_index": "current"}),
    )
    .await;
    r["account_data"].clone()
}

async fn snapshot(addr: SocketAddr) -> u64 {
    let r = call(addr, "ledger_snapshot", json!({})).await;
    assert_eq!(r["status"], "success", "{r}");
    r["snapshot"].as_u64().expect("snapshot id")
}

async fn revert(addr: SocketAddr, id: u64) -> Value {
    call(addr, "ledger_revert", json!({ "snapshot": id })).await
}

async fn server(data_dir: Option<&std::path::Path>) -> Running {
    start_with(0, |c| {
        if let Some(d) = data_dir {
            c.data_dir = Some(d.to_path_buf());
        } else {
            c.ephemeral = true;
        }
    })
    .await
}

fn addr(r: &Running) -> SocketAddr {
    r.addrs[0].1
}

#[tokio::test]
async fn revert_restores_ledgers_accounts_and_forgets_undone_transactions() {
    let running = server(None).await;
    let a = addr(&running);
    pay(a, ALICE, 50_000_000).await;
    accept(a, json!({})).await;
    // A transaction in the open ledger when the snapshot is taken stays after the revert.
    let kept = pay(a, ALICE, 1_000_000).await;
    let before = tip(a).await;
    let (genesis_before, alice_before) = (root(a, GENESIS).await, root(a, ALICE).await);
    let id = snapshot(a).await;

    let undone = pay(a, BOB, 30_000_000).await;
    accept(a, json!({})).await;
    let undone2 = pay(a, ALICE, 2_000_000).await;
    accept(a, json!({})).await;
    accept(a, json!({})).await;
    let moved = tip(a).await;
    assert_eq!(moved.1, before.1 + 3);
    assert!(root(a, BOB).await.is_object());

    let r = revert(a, id).await;
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["ledger_index"].as_u64(), Some(before.1), "{r}");
    assert_eq!(r["ledger_hash"].as_str(), Some(before.0.as_str()), "{r}");
    assert_eq!(tip(a).await, before);
    assert_eq!(root(a, GENESIS).await, genesis_before);
    assert_eq!(root(a, ALICE).await, alice_before);
    let bob = call(a, "account_info", json!({"account": BOB})).await;
    assert_eq!(bob["error"], "actNotFound", "{bob}");
    for id in [&undone, &undone2] {
        let r = call(a, "tx", json!({ "transaction": id })).await;
        assert_eq!(r["error"], "txnNotFound", "{r}");
    }
    // The kept transaction is in the open ledger again, not in an undone closed one.
    let r = call(a, "tx", json!({ "transaction": kept })).await;
    assert_eq!(r["hash"].as_str(), Some(kept.as_str()), "{r}");
    assert_eq!(r["validated"], false, "{r}");
    let gone = call(a, "ledger", json!({"ledger_index": moved.1})).await;
    assert_eq!(gone["error"], "lgrNotFound", "{gone}");
    let atx = call(a, "account_tx", json!({"account": BOB})).await;
    assert_eq!(
        atx["transactions"].as_array().map(Vec::len),
        Some(0),
        "{atx}"
    );

    // The next close makes the same ledger the kept transaction made the first time?
    // Not necessarily (close times differ); but the chain continues from the restored tip.
    accept(a, json!({})).await;
    let next = call(a, "ledger", json!({"ledger_index": "closed"})).await;
    assert_eq!(
        next["ledger"]["parent_hash"].as_str(),
        Some(before.0.as_str())
    );
    assert_eq!(next["ledger_index"].as_u64(), Some(before.1 + 1));
    running.stop().await;
}

#[tokio::test]
async fn revert_drops_the_snapshot_and_later_ones_and_refuses_bad_ids() {
    let running = server(None).await;
    let a = addr(&running);
    let first = snapshot(a).await;
    accept(a, json!({})).await;
    let second = snapshot(a).await;
    assert!(second > first);
    accept(a, json!({})).await;
    let third = snapshot(a).await;

    let r = revert(a, second).await;
    assert_eq!(r["status"], "success", "{r}");
    for id in [second, third, 999] {
        let r = revert(a, id).await;
        assert_eq!(r["error"], "snapshotNotFound", "{r}");
        assert_eq!(r["error_code"], 31, "{r}");
    }
    // An earlier snapshot survives a revert to a later one.
    let r = revert(a, first).await;
    assert_eq!(r["status"], "success", "{r}");
    for params in [
        json!({}),
        json!({"snapshot": "x"}),
        json!({"snapshot": -1}),
        json!({"snapshot": 0}),
    ] {
        let r = call(a, "ledger_revert", params.clone()).await;
        assert_eq!(r["error"], "invalidParams", "{params} {r}");
    }
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshot_and_revert_are_admin_only() {
    let node = support::server::Node::start().await;
    for (method, params) in [
        ("ledger_snapshot", json!({})),
        ("ledger_revert", json!({"snapshot": 1})),
    ] {
        let mut ws = support::ws::Ws::connect_to(node.public).await;
        let mut req = params.clone();
        req["command"] = json!(method);
        let r = ws.call(req).await;
        assert_eq!(r["error"], "forbidden", "{method} {r}");
        // Over HTTP a non-admin caller of an admin method gets rippled's bare 403.
        let public = node.public;
        let r = tokio::task::spawn_blocking(move || support::http::rpc(public, method, params))
            .await
            .expect("request");
        assert_eq!(r.status, 403, "{method}");
    }
}

#[tokio::test]
async fn a_revert_survives_a_restart_of_its_data_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let running = server(Some(&data)).await;
    let a = addr(&running);
    pay(a, ALICE, 50_000_000).await;
    accept(a, json!({})).await;
    let kept = pay(a, ALICE, 1_000_000).await;
    let before = tip(a).await;
    let alice_before = root(a, ALICE).await;
    let id = snapshot(a).await;
    let undone = pay(a, BOB, 30_000_000).await;
    accept(a, json!({})).await;
    accept(a, json!({})).await;
    let r = revert(a, id).await;
    assert_eq!(r["status"], "success", "{r}");
    running.stop().await;

    let running = server(Some(&data)).await;
    let a = addr(&running);
    assert_eq!(tip(a).await, before);
    assert_eq!(root(a, ALICE).await, alice_before);
    let r = call(a, "tx", json!({ "transaction": undone })).await;
    assert_eq!(r["error"], "txnNotFound", "{r}");
    let r = call(a, "tx", json!({ "transaction": kept })).await;
    assert_eq!(r["hash"].as_str(), Some(kept.as_str()), "{r}");
    assert_eq!(r["validated"], false, "{r}");
    // The chain continues, and a second restart comes back to the same place.
    accept(a, json!({})).await;
    let after = tip(a).await;
    running.stop().await;
    let running = server(Some(&data)).await;
    assert_eq!(tip(addr(&running)).await, after);
    running.stop().await;
}

#[tokio::test]
async fn a_revert_is_durable_before_its_reply_even_when_killed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data").to_string_lossy().into_owned();
    let args = ["--data-dir", data.as_str(), "--close-interval", "0"];
    let server = Server::start(&args);
    let a = server.addr();
    pay(a, ALICE, 50_000_000).await;
    accept(a, json!({})).await;
    let before = tip(a).await;
    let id = snapshot(a).await;
    let undone = pay(a, BOB, 30_000_000).await;
    for _ in 0..3 {
        accept(a, json!({})).await;
    }
    assert_eq!(revert(a, id).await["status"], "success");
    server.kill9();

    let server = Server::start(&args);
    let a = server.addr();
    assert_eq!(tip(a).await, before);
    let r = call(a, "tx", json!({ "transaction": undone })).await;
    assert_eq!(r["error"], "txnNotFound", "{r}");
    let r = call(a, "ledger", json!({"ledger_index": before.1 + 2})).await;
    assert_eq!(r["error"], "lgrNotFound", "{r}");
}

/// The closed ledger's header close time.
async fn close_time(addr: SocketAddr) -> u64 {
    let r = call(addr, "ledger", json!({"ledger_index": "closed"})).await;
    r["ledger"]["close_time"].as_u64().expect("close_time")
}

#[tokio::test]
async fn ledger_accept_takes_a_close_time_as_a_number_or_iso_8601() {
    let running = server(None).await;
    let a = addr(&running);
    // 2030-01-01T00:00:00Z is 946,684,800 s after the ripple epoch.
    let r = accept(a, json!({"close_time": 946_684_800u64})).await;
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(close_time(a).await, 946_684_800);
    let r = accept(a, json!({"close_time": "2031-01-01T00:00:00Z"})).await;
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(close_time(a).await, 978_307_200);
    let closed = call(a, "ledger", json!({"ledger_index": "closed"})).await;
    assert_eq!(closed["ledger"]["close_time_iso"], "2031-01-01T00:00:00Z");
    // Later closes continue from there, never back to the wall clock.
    accept(a, json!({})).await;
    assert!(close_time(a).await >= 978_307_200);
    // Earlier than the parent: refused, nothing closes.
    let seq = tip(a).await.1;
    let r = accept(a, json!({"close_time": "2030-06-01T00:00:00Z"})).await;
    assert_eq!(r["error"], "invalidParams", "{r}");
    for bad in [
        json!("tomorrow"),
        json!(-5),
        json!(1.5),
        json!(true),
        json!("2031-02-30T00:00:00Z"),
    ] {
        let r = accept(a, json!({ "close_time": bad })).await;
        assert_eq!(r["error"], "invalidParams", "{bad} {r}");
    }
    assert_eq!(tip(a).await.1, seq);
    running.stop().await;
}

#[tokio::test]
async fn an_escrow_finishes_after_a_jump_past_its_finish_after() {
    let running = server(None).await;
    let a = addr(&running);
    pay(a, ALICE, 50_000_000).await;
    accept(a, json!({})).await;
    let now = close_time(a).await;
    let finish_after = now + 30 * 86_400;
    let r = submit(
        a,
        json!({"TransactionType": "EscrowCreate", "Account": GENESIS, "Destination": ALICE,
               "Amount": "25000000", "FinishAfter": finish_after}),
    )
    .await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    let seq = r["tx_json"]["Sequence"].as_u64().expect("sequence");
    accept(a, json!({})).await;
    let finish = json!({"TransactionType": "EscrowFinish", "Account": GENESIS,
                        "Owner": GENESIS, "OfferSequence": seq});
    let r = submit(a, finish.clone()).await;
    assert_eq!(r["engine_result"], "tecNO_PERMISSION", "{r}");
    accept(a, json!({ "close_time": finish_after + 60 })).await;
    let r = submit(a, finish).await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    running.stop().await;
}

/// One scripted run against a fresh `ledgerd serve --start-time`: the closed ledger hashes.
async fn scripted_run() -> Vec<String> {
    let server = Server::start(&["--start-time", "2030-01-01T00:00:00Z", "--close-step", "7"]);
    let a = server.addr();
    let mut hashes = vec![tip(a).await.0];
    pay(a, ALICE, 50_000_000).await;
    accept(a, json!({})).await;
    hashes.push(tip(a).await.0);
    pay(a, BOB, 40_000_000).await;
    pay(a, ALICE, 1_000).await;
    accept(a, json!({})).await;
    hashes.push(tip(a).await.0);
    accept(a, json!({"close_time": "2030-02-01T00:00:00Z"})).await;
    hashes.push(tip(a).await.0);
    accept(a, json!({})).await;
    hashes.push(tip(a).await.0);
    let closed = call(a, "ledger", json!({"ledger_index": "closed"})).await;
    // 2030-02-01T00:00:00Z + one step of 7 s, rounded to the 10 s resolution.
    assert_eq!(
        closed["ledger"]["close_time_iso"], "2030-02-01T00:00:10Z",
        "{closed}"
    );
    hashes
}

#[tokio::test]
async fn two_deterministic_runs_give_identical_ledger_hashes() {
    let first = scripted_run().await;
    let second = scripted_run().await;
    assert_eq!(first.len(), 5);
    assert_eq!(first, second);
    // Not a constant: every close made a new ledger.
    let distinct: std::collections::BTreeSet<_> = first.iter().collect();
    assert_eq!(distinct.len(), first.len());
}

#[tokio::test]
async fn ledger_subscribers_get_a_ledger_closed_for_the_restored_ledger() {
    let running = server(None).await;
    let a = addr(&running);
    accept(a, json!({})).await;
    let before = tip(a).await;
    let id = snapshot(a).await;
    accept(a, json!({})).await;
    accept(a, json!({})).await;
    let mut ws = support::ws::Ws::connect_to(a).await;
    let r = ws
        .req(json!({"command": "subscribe", "streams": ["ledger"]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let r = ws
        .req(json!({"command": "ledger_revert", "snapshot": id}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let m = ws.event("ledgerClosed").await;
    assert_eq!(m["ledger_index"].as_u64(), Some(before.1), "{m}");
    assert_eq!(m["ledger_hash"].as_str(), Some(before.0.as_str()), "{m}");
    let info = call(a, "server_info", json!({})).await;
    let validated = &info["info"]["validated_ledger"];
    assert_eq!(validated["seq"].as_u64(), Some(before.1), "{info}");
    assert_eq!(
        validated["hash"].as_str(),
        Some(before.0.as_str()),
        "{info}"
    );
    running.stop().await;
}

#[tokio::test]
async fn under_a_fixed_clock_replaying_after_a_revert_remakes_the_same_ledgers() {
    let running = start_with(0, |c| {
        c.ephemeral = true;
        c.fixed_clock = Some(ledgerd::ledgers::FixedClock {
            start: 946_684_800,
            step_secs: 10,
        });
    })
    .await;
    let a = addr(&running);
    // Ledger 2 closed at the start time, not the wall clock.
    assert_eq!(close_time(a).await, 946_684_800);
    let id = snapshot(a).await;
    let mut first = Vec::new();
    for drops in [20_000_000, 30_000_000] {
        pay(a, ALICE, drops).await;
        accept(a, json!({})).await;
        first.push(tip(a).await.0);
    }
    assert_eq!(close_time(a).await, 946_684_800 + 20);
    assert_eq!(revert(a, id).await["status"], "success");
    let mut second = Vec::new();
    for drops in [20_000_000, 30_000_000] {
        pay(a, ALICE, drops).await;
        accept(a, json!({})).await;
        second.push(tip(a).await.0);
    }
    assert_eq!(first, second);
    running.stop().await;
}

#[test]
fn serve_refuses_a_start_time_it_cannot_read() {
    for bad in ["tomorrow", "2030-13-01T00:00:00Z", "0"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args([
                "serve",
                "--ephemeral",
                "--listen",
                "127.0.0.1:0",
                "--start-time",
                bad,
            ])
            .output()
            .expect("run ledgerd");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--start-time"), "{bad}: {err}");
    }
}

async fn offers(addr: SocketAddr) -> Vec<Value> {
    let r = call(
        addr,
        "book_offers",
        json!({"taker_gets": {"currency": "XRP"},
               "taker_pays": {"currency": "USD", "issuer": ALICE},
               "ledger_index": "current"}),
    )
    .await;
    r["offers"].as_array().cloned().expect("offers")
}

#[tokio::test]
async fn a_revert_puts_back_the_order_book() {
    let running = server(None).await;
    let a = addr(&running);
    pay(a, ALICE, 50_000_000).await;
    accept(a, json!({})).await;
    let offer = |drops: u64| {
        json!({"TransactionType": "OfferCreate", "Account": GENESIS,
               "TakerGets": drops.to_string(),
               "TakerPays": {"currency": "USD", "issuer": ALICE, "value": "5"}})
    };
    let r = submit(a, offer(10_000_000)).await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    let first_seq = r["tx_json"]["Sequence"].as_u64().expect("sequence");
    accept(a, json!({})).await;
    let before = offers(a).await;
    assert_eq!(before.len(), 1);
    let id = snapshot(a).await;
    let r = submit(
        a,
        json!({"TransactionType": "OfferCancel", "Account": GENESIS, "OfferSequence": first_seq}),
    )
    .await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    let r = submit(a, offer(20_000_000)).await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    accept(a, json!({})).await;
    let moved = offers(a).await;
    assert_eq!(moved.len(), 1);
    assert_ne!(moved, before);
    assert_eq!(revert(a, id).await["status"], "success");
    assert_eq!(offers(a).await, before);
    running.stop().await;
}

#[tokio::test]
async fn saving_beyond_the_bound_forgets_the_oldest_snapshot() {
    let running = server(None).await;
    let a = addr(&running);
    let max = ledgerd::limits::LEDGER_SNAPSHOTS_MAX;
    let mut ids = Vec::new();
    for _ in 0..=max {
        ids.push(snapshot(a).await);
    }
    let r = revert(a, ids[0]).await;
    assert_eq!(r["error"], "snapshotNotFound", "{r}");
    let r = revert(a, ids[1]).await;
    assert_eq!(r["status"], "success", "{r}");
    running.stop().await;
}
