//! Full history against the real binary (issue 12): `account_tx` paging both ways with
//! markers, its error cases and clamps, `tx` of a transaction hundreds of ledgers old
//! (beyond the ledgers memory keeps), `complete_ledgers` from the first ledger, and all of
//! it again after a restart on the same data directory, and after a kill -9.

use crate::support;

use serde_json::{json, Value};
use std::net::SocketAddr;
use support::fill::{accept, call, pay, serve_args};
use support::keys::address;
use support::reply::error;
use support::server::Server;

const PAYMENTS: usize = 30;
/// More than the 256 closed ledgers memory keeps (`LEDGER_HISTORY_COUNT`).
const LATER_LEDGERS: usize = 300;

fn start(dir: &std::path::Path) -> Server {
    Server::start_args(&serve_args(dir, &[]), 1)
}

/// Every (ledger, hash) of `account`'s transactions, page by page with markers.
fn walk(
    addr: SocketAddr,
    account: &str,
    forward: bool,
    limit: u32,
    api: u32,
) -> Vec<(u64, String)> {
    let mut rows = Vec::new();
    let mut marker = Value::Null;
    for _ in 0..100 {
        let mut req = json!({"account": account, "forward": forward, "limit": limit,
            "api_version": api});
        if !marker.is_null() {
            req["marker"] = marker.clone();
        }
        let r = call(addr, "account_tx", req);
        assert_eq!(r["status"], "success", "account_tx: {r}");
        let page = r["transactions"].as_array().expect("transactions");
        assert!(
            page.len() <= limit as usize,
            "page of {} for limit {limit}",
            page.len()
        );
        for t in page {
            let hash = if api >= 2 {
                &t["hash"]
            } else {
                &t["tx"]["hash"]
            };
            rows.push((
                t["ledger_index"].as_u64().expect("ledger_index"),
                hash.as_str().expect("hash").to_owned(),
            ));
            assert_eq!(t["validated"], true);
        }
        marker = r["marker"].clone();
        if marker.is_null() {
            return rows;
        }
    }
    panic!("account_tx paging did not end");
}

/// What the history shows: checked the same before and after restarts.
fn check_history(addr: SocketAddr, dest: &str, hashes: &[String]) {
    let forward = walk(addr, dest, true, 7, 1);
    let got: Vec<&String> = forward.iter().map(|(_, h)| h).collect();
    let want: Vec<&String> = hashes.iter().collect();
    assert_eq!(
        got, want,
        "forward pages list every payment once, oldest first"
    );
    let mut backward = walk(addr, dest, false, 4, 2);
    backward.reverse();
    assert_eq!(
        backward, forward,
        "backward pages (v2) are the forward ones reversed"
    );

    // The first payment is hundreds of ledgers old: beyond memory, found in the store.
    let r = call(addr, "tx", json!({"transaction": hashes[0]}));
    assert_eq!(r["hash"], hashes[0].as_str(), "old tx: {r}");
    assert_eq!(r["validated"], true);
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");
    assert_eq!(r["ledger_index"].as_u64(), Some(forward[0].0));
    let v2 = call(
        addr,
        "tx",
        json!({"transaction": hashes[0], "api_version": 2}),
    );
    assert_eq!(v2["tx_json"]["DeliverMax"], "100000001", "v2: {v2}");
    assert!(v2["ledger_hash"].is_string() && v2["close_time_iso"].is_string());

    // One ledger by index: only that ledger's transaction.
    let one = call(
        addr,
        "account_tx",
        json!({"account": dest, "ledger_index": forward[0].0}),
    );
    assert_eq!(
        one["transactions"].as_array().map(Vec::len),
        Some(1),
        "{one}"
    );
    assert_eq!(one["ledger_index_min"], one["ledger_index_max"]);

    // That ledger, with its transactions expanded, by index and by hash.
    let ledger = call(
        addr,
        "ledger",
        json!({"ledger_index": forward[0].0, "transactions": true, "expand": true}),
    );
    assert_eq!(ledger["validated"], true, "{ledger}");
    let txs = &ledger["ledger"]["transactions"];
    assert_eq!(txs[0]["hash"], hashes[0].as_str(), "{ledger}");
    assert_eq!(txs[0]["metaData"]["TransactionResult"], "tesSUCCESS");
    let hash = ledger["ledger_hash"].clone();
    let by_hash = call(addr, "ledger", json!({"ledger_hash": hash}));
    assert_eq!(
        by_hash["ledger"]["ledger_index"],
        ledger["ledger"]["ledger_index"]
    );
    assert_eq!(
        by_hash["ledger"]["transaction_hash"],
        ledger["ledger"]["transaction_hash"]
    );

    // transaction_entry: in its (old) ledger; elsewhere not found; the open ledger not yet.
    let entry = call(
        addr,
        "transaction_entry",
        json!({"tx_hash": hashes[0], "ledger_index": forward[0].0}),
    );
    assert_eq!(entry["tx_json"]["hash"], hashes[0].as_str(), "{entry}");
    assert_eq!(entry["metadata"]["TransactionResult"], "tesSUCCESS");
    let v2 = json!({"tx_hash": hashes[0], "ledger_index": forward[0].0, "api_version": 2});
    let entry = call(addr, "transaction_entry", v2);
    assert_eq!(entry["hash"], hashes[0].as_str(), "{entry}");
    assert!(entry["meta"].is_object() && entry["close_time_iso"].is_string());
    let elsewhere = json!({"tx_hash": hashes[0], "ledger_index": forward[1].0});
    let r = call(addr, "transaction_entry", elsewhere);
    assert_eq!(r["error"], "transactionNotFound", "{r}");
    let r = call(addr, "transaction_entry", json!({"tx_hash": hashes[0]}));
    assert_eq!(r["error"], "notYetImplemented", "{r}");
    let r = call(
        addr,
        "transaction_entry",
        json!({"ledger_index": "validated"}),
    );
    assert_eq!(r["error"], "fieldNotFoundTransaction", "{r}");

    let info = call(addr, "server_info", json!({}));
    let complete = info["info"]["complete_ledgers"].as_str().unwrap_or("");
    assert!(complete.starts_with("1-"), "complete_ledgers {complete}");
}

/// One ledger's state as seen while memory still held it.
struct Seen {
    seq: u64,
    hash: String,
    balance: String,
    /// Every key, from ledger_data pages of 3 (JSON).
    keys: Vec<String>,
    /// Every entry in binary, from one admin page.
    binary: Vec<Value>,
}

/// Every key of ledger `seq` through ledger_data markers, pages of `limit`; the first page's
/// header must be the ledger's.
fn ledger_data_keys(addr: SocketAddr, seq: u64, limit: u32) -> Vec<String> {
    let mut keys = Vec::new();
    let mut marker = Value::Null;
    for page in 0..1000 {
        let mut req = json!({"ledger_index": seq, "limit": limit});
        if !marker.is_null() {
            req["marker"] = marker.clone();
        }
        let r = call(addr, "ledger_data", req);
        assert_eq!(r["ledger_index"].as_u64(), Some(seq), "{r}");
        assert_eq!(
            r["ledger"].is_object(),
            page == 0,
            "header on page 1 only: {r}"
        );
        let state = r["state"].as_array().expect("state");
        assert!(state.len() <= limit as usize, "{r}");
        keys.extend(
            state
                .iter()
                .map(|e| e["index"].as_str().expect("index").to_owned()),
        );
        marker = r["marker"].clone();
        if marker.is_null() {
            return keys;
        }
    }
    panic!("ledger_data paging did not end");
}

fn see(addr: SocketAddr, dest: &str) -> Seen {
    let info = call(
        addr,
        "account_info",
        json!({"account": dest, "ledger_index": "validated"}),
    );
    let seq = info["ledger_index"].as_u64().expect("ledger_index");
    let binary = call(
        addr,
        "ledger_data",
        json!({"ledger_index": seq, "binary": true}),
    );
    Seen {
        seq,
        hash: info["ledger_hash"].as_str().expect("hash").to_owned(),
        balance: info["account_data"]["Balance"]
            .as_str()
            .expect("Balance")
            .to_owned(),
        keys: ledger_data_keys(addr, seq, 3),
        binary: binary["state"].as_array().expect("state").clone(),
    }
}

/// The state of a ledger hundreds of ledgers old (beyond memory) reads as it did then.
fn check_old_state(addr: SocketAddr, dest: &str, seen: &Seen) {
    for at in [
        json!({"ledger_index": seen.seq}),
        json!({"ledger_hash": seen.hash}),
    ] {
        let mut req = json!({"account": dest});
        req.as_object_mut()
            .expect("object")
            .extend(at.as_object().expect("o").clone());
        let info = call(addr, "account_info", req);
        assert_eq!(
            info["account_data"]["Balance"],
            seen.balance.as_str(),
            "{info}"
        );
        assert_eq!(info["ledger_index"].as_u64(), Some(seen.seq));
        assert_eq!(info["validated"], true);
    }
    let entry = call(
        addr,
        "ledger_entry",
        json!({"account_root": dest, "ledger_index": seen.seq}),
    );
    assert_eq!(entry["node"]["Balance"], seen.balance.as_str(), "{entry}");
    let lines = call(
        addr,
        "account_lines",
        json!({"account": dest, "ledger_index": seen.seq}),
    );
    assert_eq!(lines["lines"], json!([]), "{lines}");
    let before = call(
        addr,
        "account_info",
        json!({"account": dest, "ledger_index": 2}),
    );
    assert_eq!(
        before["error"], "actNotFound",
        "dest did not exist yet: {before}"
    );

    assert_eq!(ledger_data_keys(addr, seen.seq, 3), seen.keys);
    let binary = call(
        addr,
        "ledger_data",
        json!({"ledger_index": seen.seq, "binary": true}),
    );
    assert_eq!(binary["state"].as_array(), Some(&seen.binary));
    assert_eq!(binary["ledger"]["closed"], true);
    // limit 0: no entries, a marker just before the first key.
    let none = call(
        addr,
        "ledger_data",
        json!({"ledger_index": seen.seq, "limit": 0}),
    );
    assert_eq!(none["state"], json!([]), "{none}");
    assert!(none["marker"]
        .as_str()
        .is_some_and(|m| m < seen.keys[0].as_str()));
    let accounts = call(
        addr,
        "ledger_data",
        json!({"ledger_index": seen.seq, "type": "account"}),
    );
    let roots = accounts["state"].as_array().expect("state");
    assert!(
        roots.iter().all(|e| e["LedgerEntryType"] == "AccountRoot"),
        "{accounts}"
    );
    assert!(roots.iter().any(|e| e["Account"] == dest));

    let full = call(
        addr,
        "ledger",
        json!({"ledger_index": seen.seq, "accounts": true}),
    );
    let state = full["ledger"]["accountState"]
        .as_array()
        .expect("accountState");
    let mut keys: Vec<&str> = state.iter().map(|k| k.as_str().expect("key")).collect();
    keys.sort();
    assert_eq!(keys, seen.keys, "ledger accounts lists the same entries");

    let header = call(addr, "ledger_header", json!({"ledger_index": seen.seq}));
    let raw = header["ledger_data"].as_str().expect("ledger_data");
    assert_eq!(raw.len(), 236, "118 bytes: {header}");
    assert!(raw.starts_with(&format!("{:08X}", seen.seq)), "{raw}");
    assert_eq!(header["ledger"]["ledger_hash"], seen.hash.as_str());
    let v2 = call(
        addr,
        "ledger_header",
        json!({"ledger_index": seen.seq, "api_version": 2}),
    );
    assert_eq!(error(&v2).0, "unknownCmd", "v1 only: {v2}");
}

fn expect_error(addr: SocketAddr, params: Value, token: &str, message: &str) {
    let r = call(addr, "account_tx", params.clone());
    let (got, _, text) = error(&r);
    assert_eq!((got, text), (token, message), "account_tx {params}: {r}");
}

fn check_errors(addr: SocketAddr, dest: &str) {
    expect_error(addr, json!({}), "invalidParams", "Missing field 'account'.");
    expect_error(
        addr,
        json!({"account": 7}),
        "invalidParams",
        "Invalid field 'account'.",
    );
    expect_error(
        addr,
        json!({"account": "rBad"}),
        "actMalformed",
        "Account malformed.",
    );
    let v2 = |mut p: Value| {
        p["account"] = json!(dest);
        p["api_version"] = json!(2);
        p
    };
    expect_error(
        addr,
        v2(json!({"binary": "yes"})),
        "invalidParams",
        "Invalid field 'binary'.",
    );
    expect_error(
        addr,
        v2(json!({"ledger_index_min": 1, "ledger_index": 5})),
        "invalidParams",
        "invalidParams",
    );
    expect_error(
        addr,
        v2(json!({"ledger_index_max": 100_000})),
        "lgrIdxMalformed",
        "Ledger index malformed.",
    );
    expect_error(
        addr,
        v2(json!({"ledger_index_min": 20, "ledger_index_max": 10})),
        "invalidLgrRange",
        "Ledger range is invalid.",
    );
    let v1 = json!({"account": dest, "ledger_index_min": 20, "ledger_index_max": 10});
    expect_error(addr, v1, "lgrIdxsInvalid", "Ledger indexes invalid.");
    let current = json!({"account": dest, "ledger_index": "current"});
    expect_error(addr, current, "lgrNotValidated", "Ledger not validated.");
    let bad_marker = json!({"account": dest, "marker": "x"});
    let r = call(addr, "account_tx", bad_marker);
    assert_eq!(error(&r).0, "invalidParams", "{r}");
    // rippled's readLimitField: a negative limit is not an unsigned integer.
    let negative = json!({"account": dest, "limit": -1});
    let r = call(addr, "account_tx", negative);
    assert_eq!(
        error(&r),
        (
            "invalidParams",
            31,
            "Invalid field 'limit', not unsigned integer."
        ),
        "{r}"
    );

    // -1 means unbounded; v1 clamps a range beyond the validated ledgers.
    let r = call(
        addr,
        "account_tx",
        json!({"account": dest, "ledger_index_min": -1, "ledger_index_max": 100_000}),
    );
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["ledger_index_min"], 1);
    // An account without transactions is an empty list, not an error.
    let nobody = call(
        addr,
        "account_tx",
        json!({"account": address("nobody here")}),
    );
    assert_eq!(nobody["transactions"], json!([]), "{nobody}");
}

#[test]
fn history_outlives_memory_and_restarts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = address("history dest");
    let server = start(dir.path());
    let addr = server.addr();
    let mut hashes = Vec::new();
    let mut seen = None;
    for i in 0..PAYMENTS {
        hashes.push(pay(addr, &dest, 100_000_001 + i as u64));
        accept(addr);
        if i == PAYMENTS / 2 {
            seen = Some(see(addr, &dest));
        }
    }
    let seen = seen.expect("seen");
    for _ in 0..LATER_LEDGERS {
        accept(addr);
    }
    check_history(addr, &dest, &hashes);
    check_old_state(addr, &dest, &seen);
    check_tx_history(addr, &hashes);
    check_errors(addr, &dest);

    // A clean restart, then a kill -9: the same history each time.
    assert!(server.terminate().success());
    let server = start(dir.path());
    check_history(server.addr(), &dest, &hashes);
    check_old_state(server.addr(), &dest, &seen);
    hashes.push(pay(server.addr(), &dest, 2_000_000));
    accept(server.addr());
    server.kill9();
    let server = start(dir.path());
    check_history(server.addr(), &dest, &hashes);
    check_old_state(server.addr(), &dest, &seen);
}

/// tx_history (v1): 20 a page from `start`, newest first; the page past the end is empty;
/// a non-admin may not start beyond 10,000.
fn check_tx_history(addr: SocketAddr, hashes: &[String]) {
    let r = call(addr, "tx_history", json!({"start": 0}));
    assert_eq!(r["index"], 0, "{r}");
    let txs = r["txs"].as_array().expect("txs");
    assert_eq!(txs.len(), 20, "{r}");
    assert_eq!(txs[0]["hash"], hashes[hashes.len() - 1].as_str());
    assert_eq!(txs[0]["DeliverMax"], txs[0]["Amount"]);
    assert!(txs[0]["inLedger"].as_u64().is_some() && txs[0]["meta"].is_null());
    let r = call(addr, "tx_history", json!({"start": 20}));
    assert_eq!(
        r["txs"].as_array().map(Vec::len),
        Some(hashes.len() - 20),
        "{r}"
    );
    let r = call(addr, "tx_history", json!({}));
    assert_eq!(error(&r).0, "invalidParams", "{r}");
    let r = call(addr, "tx_history", json!({"start": 0, "api_version": 2}));
    assert_eq!(error(&r).0, "unknownCmd", "{r}");
}

/// `--online-delete N` keeps the newest N ledgers' history: older transactions are gone
/// from `tx` and `account_tx`, and `complete_ledgers` starts N-1 ledgers back; a value below
/// rippled's minimum (256) is refused at start.
#[test]
fn online_delete_keeps_the_newest_ledgers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().to_str().expect("a UTF-8 temp path");
    let serve = ["serve", "--listen", "127.0.0.1:0", "--data-dir", path];
    let mut refused: Vec<&str> = serve.to_vec();
    refused.extend(["--online-delete", "10"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(&refused)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("online_delete = 10") && err.contains("256"),
        "{err}"
    );

    let mut args: Vec<&str> = serve.to_vec();
    args.extend(["--close-interval", "0", "--online-delete", "256"]);
    let server = Server::start_args(&args, 1);
    let addr = server.addr();
    let dest = address("online delete dest");
    let old = pay(addr, &dest, 100_000_000);
    for _ in 0..LATER_LEDGERS {
        accept(addr);
    }
    let recent = pay(addr, &dest, 100_000_001);
    accept(addr);
    let info = call(addr, "server_info", json!({}));
    let complete = info["info"]["complete_ledgers"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let (first, last) = complete.split_once('-').expect("a range");
    let (first, last): (u32, u32) = (first.parse().expect("n"), last.parse().expect("n"));
    assert_eq!(last - first + 1, 256, "complete_ledgers {complete}");
    let r = call(addr, "tx", json!({"transaction": old}));
    assert_eq!(error(&r).0, "txnNotFound", "{r}");
    let rows = walk(addr, &dest, true, 10, 1);
    let hashes: Vec<&str> = rows.iter().map(|(_, h)| h.as_str()).collect();
    assert_eq!(hashes, [recent.as_str()], "only the recent payment is kept");
}
