//! The administration methods and the standalone answers of issue 31, as xrpld gives them
//! in standalone mode: admin-only methods refused to other callers; `stop` answering and
//! then shutting the process down with status 0 (its data directory intact); `log_level`
//! read back and changing a running server's log; `validation_create` against rippled's
//! vector; `can_delete`, `get_counts`, `print`, `consensus_info`, `ledger_request`,
//! `ledger_cleaner`, `owner_info` and the peer and validator methods.

use crate::support;

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use support::http::rpc_async;
use support::keys::{address, secret, GENESIS, GENESIS_SEED};
use support::reply::error;
use support::server::{cli, Node, Server};
use support::ws::Ws;

/// Every admin-only method of the issue (rippled's `Handler.cpp` roles).
const ADMIN_ONLY: &[&str] = &[
    "can_delete",
    "connect",
    "consensus_info",
    "fetch_info",
    "get_counts",
    "ledger_cleaner",
    "ledger_request",
    "log_level",
    "logrotate",
    "peers",
    "print",
    "stop",
    "unl_list",
    "validation_create",
    "validator_info",
    "validator_list_sites",
    "validators",
];

/// `result` of one JSON-RPC call, without `status`.
async fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    let mut r = rpc_async(addr, method, params).await["result"].clone();
    if r["status"] == "success" {
        if let Some(o) = r.as_object_mut() {
            o.remove("status");
        }
    }
    r
}

/// Signs with `who`'s secret (server side, admin port) and submits; asserts tesSUCCESS.
async fn submit(addr: SocketAddr, who_secret: &str, tx: Value) {
    let r = call(addr, "submit", json!({"secret": who_secret, "tx_json": tx})).await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{tx}: {r}");
}

async fn accept(addr: SocketAddr) -> u32 {
    let r = call(addr, "ledger_accept", json!({})).await;
    r["ledger_current_index"].as_u64().expect("ledger_accept") as u32 - 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_methods_are_refused_to_other_callers() {
    let node = Node::start().await;
    for method in ADMIN_ONLY {
        let mut ws = Ws::connect_to(node.public).await;
        let r = ws.call(json!({"command": method})).await;
        assert_eq!(r["error"], "forbidden", "{method} {r}");
        let public = node.public;
        let r = tokio::task::spawn_blocking(move || support::http::rpc(public, method, json!({})))
            .await
            .expect("request");
        assert_eq!(r.status, 403, "{method}");
    }
    // The public methods answer anyone.
    let r = call(node.public, "tx_reduce_relay", json!({})).await;
    assert_eq!(r.as_object().map(|o| o.len()), Some(14), "{r}");
    assert!(r.as_object().unwrap().values().all(|v| v == "0"), "{r}");
    assert_eq!(r["txr_missing_tx_freq"], "0");
    let r = call(node.public, "owner_info", json!({"account": GENESIS})).await;
    assert!(r["accepted"].is_object() && r["current"].is_object(), "{r}");
    // A stop refused to a non-admin stops nothing.
    assert!(!node.state().services.stop.is_requested());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peer_and_validator_methods_answer_as_a_standalone_xrpld() {
    let node = Node::start().await;
    let a = node.admin;
    assert_eq!(
        call(a, "peers", json!({})).await,
        json!({"cluster": {}, "peers": null})
    );
    assert_eq!(call(a, "unl_list", json!({})).await, json!({"unl": null}));
    assert_eq!(
        call(a, "validator_list_sites", json!({})).await,
        json!({"validator_sites": []})
    );
    let v = call(a, "validators", json!({})).await;
    assert_eq!(v["validation_quorum"], 0, "{v}");
    assert_eq!(
        v["validator_list"],
        json!({"count": 0, "expiration": "unknown", "status": "unknown"})
    );
    for empty in [
        "local_static_keys",
        "publisher_lists",
        "trusted_validator_keys",
    ] {
        assert_eq!(v[empty], json!([]), "{empty}");
    }
    assert_eq!(v["signing_keys"], json!({}));
    // The validation key drawn at start: validator_info names it; server_info reports
    // `none`, as xrpld without validator keys.
    let r = call(a, "validator_info", json!({})).await;
    let info = call(a, "server_info", json!({})).await;
    assert_eq!(info["info"]["pubkey_validator"], "none", "{info}");
    let key = &r["master_key"];
    assert!(key.as_str().is_some_and(|k| k.starts_with('n')), "{r}");
    assert_eq!(r, json!({"master_key": key}));
    assert_eq!(call(a, "fetch_info", json!({})).await, json!({"info": {}}));
    assert_eq!(
        call(a, "fetch_info", json!({"clear": true})).await,
        json!({"clear": true, "info": {}})
    );
    // connect in standalone: notSynced before any parameter is read.
    for params in [json!({}), json!({"ip": "127.0.0.1", "port": 51235})] {
        let r = call(a, "connect", params).await;
        assert_eq!(error(&r), ("notSynced", 18, "Not synced to the network."));
    }
    let r = call(a, "logrotate", json!({})).await;
    assert_eq!(
        r["message"],
        "The log file could not be closed and reopened."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consensus_info_describes_the_last_close() {
    let node = Node::start().await;
    let a = node.admin;
    let seq = accept(a).await;
    let ledger = call(a, "ledger", json!({"ledger_index": seq})).await["ledger"].clone();
    let info = call(a, "consensus_info", json!({})).await["info"].clone();
    assert_eq!(info["ledger_seq"], seq, "{info}");
    assert_eq!(info["phase"], "accepted");
    // The writer validates each ledger it closes (stream `validations`).
    assert_eq!(
        (info["proposing"].clone(), info["validating"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(info["proposers"], 0);
    assert_eq!(info["synched"], true);
    assert_eq!(info["close_granularity"], ledger["close_time_resolution"]);
    assert_eq!(
        info["our_position"]["previous_ledger"],
        ledger["parent_hash"]
    );
    assert_eq!(
        info["our_position"]["transaction_hash"],
        ledger["transaction_hash"]
    );
    assert_eq!(info["our_position"]["propose_seq"], 0);
    assert!(info["our_position"]["close_time"].is_string(), "{info}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validation_create_matches_rippleds_vector() {
    let node = Node::start().await;
    let a = node.admin;
    let r = call(
        a,
        "validation_create",
        json!({"secret": "masterpassphrase"}),
    )
    .await;
    assert_eq!(
        r,
        json!({
            "validation_key": "I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE",
            "validation_private_key": "pnen77YEeUd4fFKG7iycBWcwKpTaeFRkW2WFostaATy1DSupwXe",
            "validation_public_key": "n94a1u4jAz288pZLtw6yFWVbi89YamiC6JBXPVUj5zmExe5fTVg9",
            "validation_seed": GENESIS_SEED,
        })
    );
    let one = call(a, "validation_create", json!({})).await;
    let two = call(a, "validation_create", json!({})).await;
    assert_ne!(one["validation_seed"], two["validation_seed"]);
    // A random seed's keys are its seed's: asking with the seed gives them back.
    let again = call(
        a,
        "validation_create",
        json!({"secret": one["validation_seed"]}),
    )
    .await;
    assert_eq!(again, one);
    for bad in ["", GENESIS] {
        let r = call(a, "validation_create", json!({"secret": bad})).await;
        assert_eq!(error(&r), ("badSeed", 44, "Disallowed seed."), "{bad}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn can_delete_needs_advisory_deletion() {
    let node = Node::start().await;
    for params in [
        json!({}),
        json!({"can_delete": "now"}),
        json!({"can_delete": 5}),
    ] {
        let r = call(node.admin, "can_delete", params).await;
        assert_eq!(
            error(&r),
            ("notEnabled", 12, "Not enabled in configuration.")
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_counts_counts_what_the_server_holds() {
    let node = Node::start().await;
    let a = node.admin;
    accept(a).await;
    let r = call(a, "get_counts", json!({"min_count": 0})).await;
    assert!(r["Ledger"].as_u64().is_some_and(|n| n >= 2), "{r}");
    for n in [
        "STLedgerEntry",
        "Transaction",
        "InfoSub",
        "write_load",
        "AL_size",
    ] {
        assert!(r[n].is_u64(), "{n}: {r}");
    }
    assert!(r["dbKBTotal"].as_u64().is_some_and(|n| n > 0), "{r}");
    for s in [
        "node_writes",
        "node_written_bytes",
        "node_reads_total",
        "uptime",
    ] {
        assert!(r[s].is_string(), "{s}: {r}");
    }
    let r = call(a, "get_counts", json!({})).await;
    assert!(r.get("Ledger").is_none(), "fewer than 10 ledgers: {r}");
    let r = call(a, "get_counts", json!({"min_count": "x"})).await;
    assert_eq!(error(&r).0, "invalidParams");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_level_reads_back_what_it_sets() {
    let node = Node::start().await;
    let a = node.admin;
    let levels = call(a, "log_level", json!({})).await["levels"].clone();
    for p in ["base", "app", "node", "rpc", "server", "store"] {
        assert!(levels[p].is_string(), "{p}: {levels}");
    }
    assert_eq!(
        call(
            a,
            "log_level",
            json!({"severity": "debug", "partition": "RPC"})
        )
        .await,
        json!({})
    );
    let levels = call(a, "log_level", json!({})).await["levels"].clone();
    assert_eq!(levels["rpc"], "Debug", "{levels}");
    call(a, "log_level", json!({"severity": "WARN"})).await;
    let levels = call(a, "log_level", json!({})).await["levels"].clone();
    assert!(
        levels.as_object().unwrap().values().all(|v| v == "Warning"),
        "the base sets every partition: {levels}"
    );
    for bad in [json!({"severity": "loud"}), json!({"severity": 3})] {
        let r = call(a, "log_level", bad.clone()).await;
        assert_eq!(
            error(&r),
            ("invalidParams", 31, "Invalid parameters."),
            "{bad}"
        );
    }
    call(
        a,
        "log_level",
        json!({"severity": "info", "partition": "base"}),
    )
    .await;
    let levels = call(a, "log_level", json!({})).await["levels"].clone();
    assert_eq!(levels["base"], "Info");
}

/// How many lines of the server's log contain `text`.
fn count(server: &Server, text: &str) -> usize {
    server.log_text().matches(text).count()
}

/// Opens and closes one WebSocket session (logged at debug level by `ledgerd::server`).
async fn open_session(server: &Server) {
    let mut ws = Ws::connect_to(server.addr()).await;
    let _ = ws.call(json!({"command": "ping"})).await;
}

async fn wait_for_count(server: &Server, text: &str, at_least: usize) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if count(server, text) >= at_least {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_level_changes_a_running_servers_log() {
    let args = ["serve", "--listen", "127.0.0.1:0", "--ephemeral"];
    let server = Server::try_start_args(&args, 1).expect("server starts");
    let a = server.addr();
    open_session(&server).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        count(&server, "websocket open"),
        0,
        "info hides debug lines"
    );
    call(
        a,
        "log_level",
        json!({"partition": "server", "severity": "debug"}),
    )
    .await;
    open_session(&server).await;
    assert!(
        wait_for_count(&server, "websocket open", 1).await,
        "the server partition at debug shows its debug lines:\n{}",
        server.log_text()
    );
    // At trace level a validation_create is logged by its method name only: no secret.
    call(a, "log_level", json!({"severity": "trace"})).await;
    let keys = call(
        a,
        "validation_create",
        json!({"secret": "masterpassphrase"}),
    )
    .await;
    assert!(
        wait_for_count(&server, "validation_create", 1).await,
        "{}",
        server.log_text()
    );
    for secret in [
        "masterpassphrase",
        GENESIS_SEED,
        "pnen77YEeUd4fFKG7iycBWcwKpTaeFRkW2WFostaATy1DSupwXe",
    ] {
        assert_eq!(
            count(&server, secret),
            0,
            "{secret} logged:\n{}",
            server.log_text()
        );
    }
    assert_eq!(keys["validation_seed"], GENESIS_SEED);
    call(a, "log_level", json!({"severity": "warning"})).await;
    let seen = count(&server, "websocket open");
    open_session(&server).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        count(&server, "websocket open"),
        seen,
        "warning hides them again"
    );
    let levels = call(a, "log_level", json!({})).await["levels"].clone();
    assert_eq!(
        (levels["base"].clone(), levels["server"].clone()),
        (json!("Warning"), json!("Warning"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_answers_then_the_process_exits_and_its_data_survives() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let args = ["serve", "--listen", "127.0.0.1:0", "--data-dir", data];
    let server = Server::try_start_args(&args, 1).expect("server starts");
    let a = server.addr();
    let pay = json!({"TransactionType": "Payment", "Account": GENESIS, "Destination": address("alice"), "Amount": "50000000"});
    submit(a, GENESIS_SEED, pay).await;
    let closed = accept(a).await;
    let mut ws = Ws::connect_to(a).await;
    let r = ws.call(json!({"command": "stop", "id": 7})).await;
    assert_eq!(r["result"]["message"], "ripple server stopping", "{r}");
    assert_eq!(
        (r["id"].clone(), r["status"].clone()),
        (json!(7), json!("success"))
    );
    let log = server.log.clone();
    let status = tokio::task::spawn_blocking(move || server.wait_exit(Duration::from_secs(15)))
        .await
        .unwrap();
    let status = status.expect("the server exits after stop");
    assert!(status.success(), "{status:?}");
    assert!(log.lock().unwrap().join("\n").contains("stop requested"));
    // What it had written is there when it starts again.
    let again = Server::try_start_args(&args, 1).expect("server restarts");
    let r = call(
        again.addr(),
        "account_info",
        json!({"account": address("alice"), "ledger_index": closed}),
    )
    .await;
    assert_eq!(r["account_data"]["Balance"], "50000000", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_stops_a_server() {
    let args = ["serve", "--listen", "127.0.0.1:0", "--ephemeral"];
    let server = Server::try_start_args(&args, 1).expect("server starts");
    let a = server.addr();
    let (code, out) = tokio::task::spawn_blocking(move || cli(a, &["stop"]))
        .await
        .unwrap();
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["result"]["message"], "ripple server stopping", "{out}");
    let status = tokio::task::spawn_blocking(move || server.wait_exit(Duration::from_secs(15)))
        .await
        .unwrap();
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owner_info_lists_offers_and_lines_closed_and_open() {
    let node = Node::start().await;
    let a = node.admin;
    for who in ["alice", "gw"] {
        let pay = json!({"TransactionType": "Payment", "Account": GENESIS, "Destination": address(who), "Amount": "1000000000"});
        submit(a, GENESIS_SEED, pay).await;
    }
    accept(a).await;
    let usd = json!({"currency": "USD", "issuer": address("gw"), "value": "100"});
    let trust =
        json!({"TransactionType": "TrustSet", "Account": address("alice"), "LimitAmount": usd});
    submit(a, &secret("alice"), trust).await;
    let offer = json!({"TransactionType": "OfferCreate", "Account": address("alice"), "TakerPays": usd, "TakerGets": "1000000"});
    submit(a, &secret("alice"), offer).await;
    let r = call(a, "owner_info", json!({"account": address("alice")})).await;
    assert_eq!(
        r["accepted"],
        json!({}),
        "not in the closed ledger yet: {r}"
    );
    assert_eq!(
        r["current"]["ripple_lines"][0]["LedgerEntryType"], "RippleState",
        "{r}"
    );
    assert_eq!(r["current"]["offers"][0]["LedgerEntryType"], "Offer", "{r}");
    assert!(r["current"]["offers"][0]["index"].is_string(), "{r}");
    accept(a).await;
    let r = call(a, "owner_info", json!({"ident": address("alice")})).await;
    assert_eq!(r["accepted"], r["current"], "{r}");
    assert_eq!(r["accepted"]["offers"].as_array().map(Vec::len), Some(1));
    let r = call(a, "owner_info", json!({"account": "not an address"})).await;
    for part in ["accepted", "current"] {
        assert_eq!(
            error(&r[part]),
            ("actMalformed", 35, "Account malformed."),
            "{r}"
        );
    }
    let r = call(a, "owner_info", json!({})).await;
    assert_eq!(error(&r), ("invalidParams", 31, "Missing field 'account'."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_request_follows_rippleds_rules() {
    let node = Node::start().await;
    let a = node.admin;
    for _ in 0..3 {
        accept(a).await;
    }
    let top = call(a, "ledger", json!({"ledger_index": "validated"})).await;
    let v = top["ledger_index"].as_u64().unwrap() as u32;
    let below = call(a, "ledger", json!({"ledger_index": v - 1})).await["ledger"].clone();
    let r = call(a, "ledger_request", json!({"ledger_index": v - 1})).await;
    assert_eq!(r["ledger_index"], v - 1, "{r}");
    assert_eq!(r["ledger"], below, "{r}");
    let r = rpc_async(
        a,
        "ledger_request",
        json!({"ledger_index": v - 1, "api_version": 2}),
    )
    .await;
    assert_eq!(r["result"]["ledger"]["ledger_index"], v - 1, "{r}");
    let r = call(
        a,
        "ledger_request",
        json!({"ledger_hash": top["ledger_hash"]}),
    )
    .await;
    assert_eq!(
        r["ledger_index"], v,
        "by hash, the validated ledger too: {r}"
    );
    let cases = [
        (
            json!({"ledger_index": v}),
            "invalidParams",
            "Ledger index too large",
        ),
        (
            json!({"ledger_index": 0}),
            "invalidParams",
            "Ledger index too small",
        ),
        (
            json!({"ledger_index": "2"}),
            "invalidParams",
            "Invalid field 'ledger_index'.",
        ),
        (
            json!({"ledger_hash": "xyz"}),
            "invalidParams",
            "Invalid field 'ledger_hash'.",
        ),
        (
            json!({}),
            "invalidParams",
            "Exactly one of ledger_hash and ledger_index can be set.",
        ),
        (
            json!({"ledger_index": 2, "ledger_hash": top["ledger_hash"]}),
            "invalidParams",
            "Exactly one of ledger_hash and ledger_index can be set.",
        ),
        (
            json!({"ledger_hash": "00".repeat(32)}),
            "notReady",
            "findCreate failed to return an inbound ledger",
        ),
    ];
    for (params, token, message) in cases {
        let r = call(a, "ledger_request", params.clone()).await;
        assert_eq!((error(&r).0, error(&r).2), (token, message), "{params}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_cleaner_runs_and_print_shows_it() {
    let node = Node::start().await;
    let a = node.admin;
    for _ in 0..3 {
        accept(a).await;
    }
    let r = call(a, "ledger_cleaner", json!({"full": true})).await;
    assert_eq!(r, json!({"message": "Cleaner configured"}));
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let p = call(a, "print", json!({"params": ["ledgercleaner"]})).await;
        if p["ledgercleaner"]["status"] == "idle" {
            break;
        }
        assert_eq!(p["ledgercleaner"]["status"], "running", "{p}");
        assert!(p["ledgercleaner"].get("fail_counts").is_none(), "{p}");
        assert!(Instant::now() < deadline, "the cleaner never finished: {p}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = call(a, "ledger_cleaner", json!({"ledger": "x"})).await;
    assert_eq!(error(&r).0, "invalidParams");
    // The whole tree, one part, and a path that names none.
    let p = call(a, "print", json!({})).await;
    for part in [
        "cpu",
        "history",
        "ledgercleaner",
        "ledgers",
        "logs",
        "server",
        "subscriptions",
    ] {
        assert!(p["app"][part].is_object(), "{part}: {p}");
    }
    let validated = call(a, "ledger_closed", json!({})).await["ledger_index"].clone();
    assert_eq!(p["app"]["ledgers"]["validated"], validated);
    let one = call(a, "print", json!({"params": ["app/ledgers/*"]})).await;
    assert_eq!(
        one.as_object().map(|o| o.keys().collect::<Vec<_>>()),
        Some(vec![&"ledgers".to_string()])
    );
    assert_eq!(
        call(a, "print", json!({"params": ["nothing"]})).await,
        json!({})
    );
}
