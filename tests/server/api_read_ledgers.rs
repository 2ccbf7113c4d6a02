//! ledger, ledger_closed, ledger_current, tx, fee, server_info, server_definitions and
//! the command-line forms: shapes in api v1 and v2 and every error.

use crate::support;

use serde_json::json;
use support::engine::{pay, xrp, Account};
use support::reply::error_code;
use support::server::{cli, Node};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_and_tx_shapes() {
    let node = Node::start().await;
    let alice = Account::new("alice");
    node.fund(&alice, 500);
    let id = node.apply(&alice, pay(&Account::master(), xrp(1)));
    let seq = node.close();
    let header = node
        .state()
        .node
        .ledgers
        .by_seq(seq)
        .unwrap()
        .ledger
        .unwrap()
        .header
        .clone();

    // ledger by number, v1: ledger_index a string; transactions as hashes.
    let r = node.rpc("ledger", json!({"ledger_index": seq, "transactions": true}));
    let l = &r["ledger"];
    assert_eq!(l["ledger_index"], seq.to_string());
    assert_eq!(l["ledger_hash"], header.hash.to_hex());
    assert_eq!(l["closed"], true);
    assert_eq!(l["total_coins"], header.total_drops.to_string());
    assert_eq!(l["parent_hash"], header.parent_hash.to_hex());
    assert_eq!(l["close_time"], header.close_time);
    assert!(l["close_time_iso"].as_str().unwrap().ends_with('Z'));
    assert!(l["close_time_human"].as_str().unwrap().ends_with(" UTC"));
    assert_eq!(l["transactions"].as_array().unwrap().len(), 2);
    assert!(l["transactions"]
        .as_array()
        .unwrap()
        .contains(&json!(id.to_hex())));
    assert_eq!(r["ledger_index"], seq);
    assert_eq!(r["validated"], true);
    // By hash, v2 over WebSocket, expanded.
    let r = node
        .ws(
            "ledger",
            json!({"ledger_hash": header.hash.to_hex(), "transactions": true, "expand": true, "api_version": 2}),
        )
        .await;
    let l = &r["result"]["ledger"];
    assert_eq!(l["ledger_index"], seq);
    let t = l["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["hash"] == id.to_hex())
        .unwrap();
    assert_eq!(t["tx_json"]["TransactionType"], "Payment");
    assert_eq!(t["tx_json"]["DeliverMax"], "1000000");
    assert!(t["tx_json"].get("Amount").is_none());
    assert_eq!(t["meta"]["TransactionResult"], "tesSUCCESS");
    assert_eq!(t["meta"]["delivered_amount"], "1000000");
    // v1 expanded: metaData, Amount and DeliverMax.
    let r = node.rpc(
        "ledger",
        json!({"ledger_index": "validated", "transactions": true, "expand": true}),
    );
    let t = &r["ledger"]["transactions"][0];
    assert!(t["metaData"].is_object());
    assert_eq!(t["Amount"], t["DeliverMax"]);
    // Binary.
    let r = node.rpc(
        "ledger",
        json!({"ledger_index": "closed", "transactions": true, "expand": true, "binary": true}),
    );
    let t = &r["ledger"]["transactions"][0];
    assert!(t["tx_blob"].as_str().unwrap().len() > 100);
    assert!(t["meta"].is_string());
    // Current ledger; legacy shape with no selector.
    let r = node.rpc("ledger", json!({"ledger_index": "current"}));
    assert_eq!(r["ledger"]["closed"], false);
    assert_eq!(r["ledger"]["parent_hash"], header.hash.to_hex());
    assert_eq!(r["ledger_current_index"], seq + 1);
    let r = node.rpc("ledger", json!({}));
    assert_eq!(r["closed"]["ledger"]["ledger_hash"], header.hash.to_hex());
    assert_eq!(r["open"]["ledger"]["closed"], false);
    // Errors: full from a non-admin, queue on a closed ledger, unknown ledger.
    let r = node.http(
        node.public,
        "ledger",
        json!({"ledger_index": seq, "full": true}),
    );
    assert_eq!(error_code(&r), ("noPermission", 6));
    let r = node.rpc("ledger", json!({"ledger_index": seq, "accounts": true}));
    assert!(r["ledger"]["accountState"].as_array().unwrap().len() >= 3);
    let r = node.rpc("ledger", json!({"ledger_index": seq, "queue": true}));
    assert_eq!(error_code(&r), ("invalidParams", 31));
    let r = node.rpc("ledger", json!({"ledger_index": seq + 5}));
    assert_eq!(error_code(&r), ("lgrNotFound", 21));

    // ledger_closed / ledger_current.
    let r = node.rpc("ledger_closed", json!({}));
    assert_eq!(r["ledger_hash"], header.hash.to_hex());
    assert_eq!(r["ledger_index"], seq);
    let r = node.rpc("ledger_current", json!({}));
    assert_eq!(r["ledger_current_index"], seq + 1);

    // tx v1.
    let r = node.rpc("tx", json!({"transaction": id.to_hex()}));
    assert_eq!(r["status"], "success");
    assert_eq!(r["hash"], id.to_hex());
    assert_eq!(r["TransactionType"], "Payment");
    assert_eq!(r["Amount"], "1000000");
    assert_eq!(r["DeliverMax"], "1000000");
    assert_eq!(r["ledger_index"], seq);
    assert_eq!(r["inLedger"], seq);
    assert_eq!(r["date"], header.close_time);
    assert_eq!(r["validated"], true);
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");
    assert!(r["ctid"].as_str().unwrap().starts_with('C'));
    // tx v2.
    let r = node
        .ws("tx", json!({"transaction": id.to_hex(), "api_version": 2}))
        .await;
    let res = &r["result"];
    assert_eq!(res["hash"], id.to_hex());
    assert!(res["tx_json"].get("hash").is_none());
    assert_eq!(res["tx_json"]["DeliverMax"], "1000000");
    assert!(res["tx_json"].get("Amount").is_none());
    assert_eq!(res["ledger_hash"], header.hash.to_hex());
    assert_eq!(res["ledger_index"], seq);
    assert!(res["close_time_iso"].as_str().unwrap().ends_with('Z'));
    assert!(res.get("inLedger").is_none());
    // By CTID.
    let ctid = res["ctid"].as_str().unwrap().to_string();
    let r = node.rpc("tx", json!({"ctid": ctid}));
    assert_eq!(r["hash"], id.to_hex());
    // Binary, v1 and v2.
    let r = node.rpc("tx", json!({"transaction": id.to_hex(), "binary": true}));
    assert!(r["tx"].is_string() && r["meta"].is_string());
    let r = node
        .ws(
            "tx",
            json!({"transaction": id.to_hex(), "binary": true, "api_version": 2}),
        )
        .await;
    assert!(r["result"]["tx_blob"].is_string() && r["result"]["meta_blob"].is_string());
    // A transaction still in the open ledger.
    let open_id = node.apply(&alice, pay(&Account::master(), xrp(1)));
    let r = node.rpc("tx", json!({"transaction": open_id.to_hex()}));
    assert_eq!(r["validated"], false);
    assert!(r.get("meta").is_none());
    // tx errors.
    let r = node.rpc("tx", json!({"transaction": "ABCD"}));
    assert_eq!(error_code(&r), ("notImpl", 74));
    let r = node.rpc("tx", json!({"transaction": "00".repeat(32)}));
    assert_eq!(error_code(&r), ("txnNotFound", 29));
    assert!(r.get("searched_all").is_none());
    let r = node.rpc(
        "tx",
        json!({"transaction": "00".repeat(32), "min_ledger": 1, "max_ledger": seq}),
    );
    assert_eq!(error_code(&r), ("txnNotFound", 29));
    assert_eq!(r["searched_all"], true);
    let r = node.rpc(
        "tx",
        json!({"transaction": "00".repeat(32), "min_ledger": 1, "max_ledger": seq + 100}),
    );
    assert_eq!(r["searched_all"], false);
    let r = node.rpc(
        "tx",
        json!({"transaction": id.to_hex(), "min_ledger": 1, "max_ledger": 1002}),
    );
    assert_eq!(error_code(&r), ("excessiveLgrRange", 78));
    let r = node.rpc(
        "tx",
        json!({"transaction": id.to_hex(), "min_ledger": 5, "max_ledger": 4}),
    );
    assert_eq!(error_code(&r), ("invalidLgrRange", 79));
    let r = node.rpc(
        "tx",
        json!({"transaction": id.to_hex(), "min_ledger": -5, "max_ledger": 4}),
    );
    assert_eq!(error_code(&r), ("invalidLgrRange", 79));
    let r = node.rpc("tx", json!({}));
    assert_eq!(error_code(&r), ("invalidParams", 31));
    let r = node.rpc("tx", json!({"transaction": id.to_hex(), "ctid": ctid}));
    assert_eq!(error_code(&r), ("invalidParams", 31));
    let r = node.rpc("tx", json!({"ctid": "C000000100000001"}));
    assert_eq!(error_code(&r).0, "wrongNetwork");
    node.running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fee_server_info_definitions_and_cli() {
    let node = Node::start().await;
    let alice = Account::new("alice");
    node.fund(&alice, 500);
    let r = node.rpc("fee", json!({}));
    assert_eq!(r["current_ledger_size"], "1");
    assert_eq!(r["current_queue_size"], "0");
    assert_eq!(r["drops"]["base_fee"], "10");
    assert_eq!(r["drops"]["median_fee"], "5000");
    assert_eq!(r["drops"]["minimum_fee"], "10");
    assert_eq!(r["drops"]["open_ledger_fee"], "10");
    assert_eq!(r["levels"]["reference_level"], "256");
    assert_eq!(r["levels"]["median_level"], "128000");
    assert_eq!(r["expected_ledger_size"], "1000");
    // No limit before the first ledger_accept (rippled builds ledger 2 without a round).
    assert!(r.get("max_queue_size").is_none(), "{r}");
    let seq = node.close();
    assert_eq!(r["ledger_current_index"], seq);
    // 20 ledgers' worth of the expected 1000 once a ledger closed.
    let r = node.rpc("fee", json!({}));
    assert_eq!(r["max_queue_size"], "20000");

    let r = node.rpc("server_info", json!({}));
    let info = &r["info"];
    assert_eq!(info["validated_ledger"]["seq"], seq);
    assert_eq!(info["validated_ledger"]["base_fee_xrp"], 0.00001);
    assert_eq!(info["validated_ledger"]["reserve_base_xrp"], 10);
    assert_eq!(info["validated_ledger"]["reserve_inc_xrp"], 2);
    assert_eq!(info["complete_ledgers"], format!("1-{seq}"));
    assert_eq!(info["server_state"], "full");
    assert_eq!(info["load_factor"], 1);
    assert_eq!(info["peers"], 0);
    assert!(info["uptime"].is_u64());
    assert!(info["state_accounting"]["full"]["duration_us"].is_string());
    let r = node.rpc("server_state", json!({}));
    assert_eq!(r["state"]["validated_ledger"]["seq"], seq);
    assert_eq!(r["state"]["validated_ledger"]["base_fee"], 10);
    assert_eq!(r["state"]["load_base"], 256);

    let r = node.rpc("server_definitions", json!({}));
    let hash = r["hash"].as_str().unwrap().to_string();
    assert_eq!(hash.len(), 64);
    assert!(r["FIELDS"].is_array());
    assert!(r["TRANSACTION_TYPES"]["Payment"].is_number());
    let r = node.rpc("server_definitions", json!({"hash": hash}));
    assert_eq!(r["hash"], hash);
    assert!(r.get("FIELDS").is_none());
    let r = node.rpc("server_definitions", json!({"hash": "00".repeat(32)}));
    assert!(r["FIELDS"].is_array());
    let r = node.rpc("server_definitions", json!({"hash": 5}));
    assert_eq!(r["error_message"], "Invalid field 'hash'.");

    // The command line.
    let addr = node.admin;
    let a = alice.id.to_address();
    let (code, out) = tokio::task::spawn_blocking(move || {
        cli(addr, &["account_info", &a, "validated", "strict"])
    })
    .await
    .unwrap();
    assert_eq!(code, 0);
    assert_eq!(
        out["result"]["account_data"]["Account"],
        alice.id.to_address()
    );
    assert_eq!(out["result"]["validated"], true);
    let run = |args: Vec<String>| async move {
        tokio::task::spawn_blocking(move || {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            cli(addr, &refs)
        })
        .await
        .unwrap()
    };
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let (_, out) = run(s(&["account_lines", &alice.id.to_address(), "", "current"])).await;
    assert_eq!(out["result"]["lines"], json!([]));
    let (code, out) = run(s(&["account_lines", "rBad"])).await;
    assert_eq!(out["error"], "actMalformed");
    assert_ne!(code, 0);
    let (_, out) = run(s(&["account_objects", &alice.id.to_address()])).await;
    assert_eq!(out["result"]["account_objects"], json!([]));
    let (_, out) = run(s(&["account_channels", &alice.id.to_address()])).await;
    assert_eq!(out["result"]["channels"], json!([]));
    let (_, out) = run(s(&["ledger", &seq.to_string(), "tx"])).await;
    assert_eq!(out["result"]["ledger"]["ledger_index"], seq.to_string());
    assert!(out["result"]["ledger"]["transactions"][0].is_object());
    let (_, out) = run(s(&["ledger_closed"])).await;
    assert_eq!(out["result"]["ledger_index"], seq);
    let (_, out) = run(s(&["ledger_current"])).await;
    assert_eq!(out["result"]["ledger_current_index"], seq + 1);
    let (_, out) = run(s(&["fee"])).await;
    assert_eq!(out["result"]["drops"]["base_fee"], "10");
    let (_, out) = run(s(&["server_definitions"])).await;
    assert!(out["result"]["hash"].is_string());
    let (_, out) = run(s(&["tx", &"00".repeat(32)])).await;
    assert_eq!(out["result"]["error"], "txnNotFound");
    let (_, out) = run(s(&["tx", &"00".repeat(32), "binary", "1", "2"])).await;
    assert_eq!(out["result"]["searched_all"], true);
    node.running.stop().await;
}
