//! ledger_accept, the close timer, subscriptions (ledger, transactions,
//! transactions_proposed, accounts) in api v1 and v2, a subscriber that never reads, and
//! many concurrent submitters.

use crate::support;

use serde_json::json;
use std::time::Duration;
use support::http::rpc_async;
use support::keys::{address, keys};
use support::payment::payment;
use support::server::{account, addr, start, start_with};
use support::ws::Ws;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_accept_and_close_timer() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let before = server.state.node.ledgers.current().seq();
    let r = ws.req(json!({"command": "ledger_accept"})).await;
    assert_eq!(r["result"]["ledger_current_index"], before + 1, "{r}");
    let status = server.state.node.status();
    assert_eq!(status.validated.map(|v| v.seq), Some(before));
    assert_eq!(status.open_seq, Some(before + 1));
    let r = rpc_async(addr(&server), "ledger_accept", json!({})).await;
    assert_eq!(r["result"]["ledger_current_index"], before + 2, "{r}");
    server.stop().await;

    let server = start(1).await;
    let first = server.state.node.ledgers.current().seq();
    tokio::time::sleep(Duration::from_millis(2600)).await;
    let later = server.state.node.status().open_seq.unwrap_or(0);
    assert!(later >= first + 2, "{first} -> {later}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_in_both_versions() {
    let server = start(0).await;
    let a = addr(&server);
    let mut v1 = Ws::connect_to(a).await;
    let mut v2 = Ws::connect_to(a).await;
    let mut acct = Ws::connect_to(a).await;
    let alice = address("alice");
    let r = v1
        .req(json!({"command": "subscribe", "streams": ["ledger", "transactions"]}))
        .await;
    let res = &r["result"];
    assert_eq!(res["ledger_index"], 2, "{r}");
    assert_eq!(res["ledger_hash"].as_str().map(str::len), Some(64));
    for k in [
        "ledger_time",
        "fee_base",
        "reserve_base",
        "reserve_inc",
        "network_id",
    ] {
        assert!(res[k].is_number(), "{k}: {r}");
    }
    assert_eq!(res["validated_ledgers"], "1-2");
    let r = v2
        .req(json!({"command": "subscribe", "api_version": 2,
                    "streams": ["transactions_proposed", "server"]}))
        .await;
    assert_eq!(r["result"]["server_status"], "full", "{r}");
    assert_eq!(r["result"]["load_base"], 256);
    let r = acct
        .req(json!({"command": "subscribe", "accounts": [alice]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");

    let genesis = keys("masterpassphrase");
    let blob = payment(&genesis, 1, &alice, 100_000_000);
    let r = v1.req(json!({"command": "submit", "tx_blob": blob})).await;
    let hash = r["result"]["tx_json"]["hash"].clone();
    // Proposed (v2): at once, not validated.
    let m = v2.event("transaction").await;
    assert_eq!(m["validated"], false, "{m}");
    assert_eq!(m["status"], "proposed");
    assert_eq!(m["ledger_current_index"], 3);
    assert_eq!(m["hash"], hash);
    assert_eq!(m["tx_json"]["DeliverMax"], "100000000");
    assert!(m["tx_json"].get("Amount").is_none());
    assert!(m.get("meta").is_none());

    let r = v1.req(json!({"command": "ledger_accept"})).await;
    assert_eq!(r["result"]["ledger_current_index"], 4);
    let closed = v1.event("ledgerClosed").await;
    assert_eq!(closed["ledger_index"], 3, "{closed}");
    assert_eq!(closed["txn_count"], 1);
    assert_eq!(closed["validated_ledgers"], "1-3");
    let m = v1.event("transaction").await;
    assert_eq!(m["validated"], true, "{m}");
    assert_eq!(m["status"], "closed");
    assert_eq!(m["ledger_index"], 3);
    assert_eq!(m["ledger_hash"], closed["ledger_hash"]);
    assert_eq!(m["engine_result"], "tesSUCCESS");
    assert_eq!(m["transaction"]["hash"], hash);
    assert_eq!(m["transaction"]["Amount"], "100000000");
    assert_eq!(m["transaction"]["DeliverMax"], "100000000");
    assert_eq!(m["transaction"]["date"], closed["ledger_time"]);
    assert_eq!(m["meta"]["TransactionResult"], "tesSUCCESS");
    assert_eq!(m["meta"]["delivered_amount"], "100000000");
    assert!(m["close_time_iso"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    assert!(m["ctid"].is_string());
    // Validated (v2) reaches the proposed subscriber too.
    let m = v2.event("transaction").await;
    assert_eq!(m["validated"], true, "{m}");
    assert_eq!(m["tx_json"]["date"], closed["ledger_time"]);
    // The accounts subscriber sees only validated ones.
    let m = acct.event("transaction").await;
    assert_eq!(m["validated"], true, "{m}");
    assert_eq!(m["transaction"]["Destination"], alice);

    // Unsubscribing stops the ledger messages.
    let r = v1
        .req(json!({"command": "unsubscribe", "streams": ["ledger"]}))
        .await;
    assert_eq!(r["status"], "success");
    v1.events.clear();
    v1.req(json!({"command": "ledger_accept"})).await;
    let r = v1.req(json!({"command": "ping"})).await;
    assert_eq!(r["status"], "success");
    assert!(v1.events.iter().all(|e| e["type"] != "ledgerClosed"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribe_errors() {
    let server = start(0).await;
    let a = addr(&server);
    let mut ws = Ws::connect_to(a).await;
    for (req, token) in [
        (json!({"streams": "ledger"}), "invalidParams"),
        (json!({"streams": ["nope"]}), "malformedStream"),
        (json!({"streams": [5]}), "malformedStream"),
        (json!({"accounts": "r"}), "invalidParams"),
        (json!({"accounts": []}), "actMalformed"),
        (json!({"accounts_proposed": ["rBad"]}), "actMalformed"),
    ] {
        let mut req = req;
        req["command"] = json!("subscribe");
        let r = ws.req(req.clone()).await;
        assert_eq!(r["error"], token, "{req} -> {r}");
    }
    let r = rpc_async(a, "subscribe", json!({"streams": ["ledger"]})).await;
    assert_eq!(r["result"]["error"], "invalidParams", "{r}");
    let r = rpc_async(a, "unsubscribe", json!({"streams": ["ledger"]})).await;
    assert_eq!(r["result"]["error"], "invalidParams", "{r}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_that_never_reads_is_dropped() {
    // Up to 10,000 payments in one open ledger: no fee escalation past xrpld's 1000 here.
    let server = start_with(0, |c| {
        c.ports[0].send_queue_limit = 8;
        c.tx_queue.minimum_txn_in_ledger_standalone = 20_000;
    })
    .await;
    let a = addr(&server);
    let mut idle = Ws::connect_to(a).await;
    idle.req(json!({"command": "subscribe", "streams": ["transactions_proposed", "ledger"]}))
        .await;
    let mut live = Ws::connect_to(a).await;
    assert_eq!(server.state.node.subscriptions.len(), 1);
    // Fund accounts, then flood: every submission is a proposed message to `idle`.
    let genesis = keys("masterpassphrase");
    let mut seq = 1;
    let mut dropped = false;
    for round in 0..200 {
        let mut ids = Vec::new();
        for _ in 0..50 {
            let blob = payment(&genesis, seq, &address(&format!("sink{round}")), 20_000_000);
            seq += 1;
            ids.push(
                live.send_req(json!({"command": "submit", "tx_blob": blob}))
                    .await,
            );
        }
        for id in ids {
            let r = live.reply(id).await;
            assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
        }
        if server.state.node.subscriptions.is_empty() {
            dropped = true;
            break;
        }
    }
    assert!(dropped, "the idle subscriber was never dropped");
    let r = live.req(json!({"command": "ping"})).await;
    assert_eq!(r["status"], "success");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_beyond_the_send_queue_closes_with_rippleds_1008() {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::Message;
    let server = start_with(0, |c| c.ports[0].send_queue_limit = 8).await;
    let a = addr(&server);
    let mut live = Ws::connect_to(a).await;
    // 300 payments wait in the open ledger; the close publishes one `transaction` message for
    // each to the subscriber at once, far beyond its queue (8 + the in-flight replies).
    let genesis = keys("masterpassphrase");
    const BURST: u32 = 300;
    let mut ids = Vec::new();
    for seq in 1..=BURST {
        let blob = payment(&genesis, seq, &address("burst sink"), 20_000_000);
        ids.push(
            live.send_req(json!({"command": "submit", "tx_blob": blob}))
                .await,
        );
    }
    for id in ids {
        let r = live.reply(id).await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
    }
    let mut sub = Ws::connect_to(a).await;
    let r = sub
        .req(json!({"command": "subscribe", "streams": ["transactions"]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    live.req(json!({"command": "ledger_accept"})).await;
    // The subscriber reads everything it is sent: some transactions, then the close frame.
    let mut transactions = 0;
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(20), sub.stream.next()).await {
            Ok(Some(Ok(Message::Text(_)))) => transactions += 1,
            Ok(Some(Ok(Message::Close(frame)))) => break frame,
            Ok(Some(Ok(_))) => {}
            other => panic!("no close frame after {transactions} messages: {other:?}"),
        }
    };
    let frame = close.expect("a close frame with a code");
    assert_eq!(frame.code, CloseCode::Policy);
    assert_eq!(frame.reason.as_str(), "Policy error: client is too slow.");
    assert!(
        transactions < BURST,
        "{transactions} of {BURST} transactions before the close"
    );
    // The subscription is gone; everyone else is served.
    for _ in 0..200 {
        if server.state.node.subscriptions.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(server.state.node.subscriptions.is_empty());
    let r = live.req(json!({"command": "ping"})).await;
    assert_eq!(r["status"], "success");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_concurrent_submitters_add_up() {
    const SENDERS: usize = 6;
    const EACH: u32 = 40;
    const AMOUNT: u64 = 1_000_000;
    const FUND: u64 = 1_000_000_000;
    let server = start(0).await;
    let a = addr(&server);
    let mut admin = Ws::connect_to(a).await;
    let genesis = keys("masterpassphrase");
    let sink = address("sink");
    let senders: Vec<_> = (0..SENDERS).map(|i| keys(&format!("sender{i}"))).collect();
    for (i, s) in senders.iter().enumerate() {
        let blob = payment(&genesis, i as u32 + 1, &s.account_id().to_address(), FUND);
        let r = admin
            .req(json!({"command": "submit", "tx_blob": blob}))
            .await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS");
    }
    let blob = payment(&genesis, SENDERS as u32 + 1, &sink, FUND);
    admin
        .req(json!({"command": "submit", "tx_blob": blob}))
        .await;
    admin.req(json!({"command": "ledger_accept"})).await;
    let mut tasks = Vec::new();
    for s in senders {
        let sink = sink.clone();
        tasks.push(tokio::spawn(async move {
            let blobs: Vec<String> = (0..EACH)
                .map(|k| payment(&s, 3 + k, &sink, AMOUNT))
                .collect();
            let mut ws = Ws::connect_to(a).await;
            let mut ids = Vec::new();
            for b in blobs {
                ids.push(
                    ws.send_req(json!({"command": "submit", "tx_blob": b}))
                        .await,
                );
            }
            let mut ok = 0;
            for id in ids {
                let r = ws.reply(id).await;
                if r["result"]["engine_result"] == "tesSUCCESS" {
                    ok += 1;
                }
            }
            ok
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), EACH);
    }
    admin.req(json!({"command": "ledger_accept"})).await;
    let total = SENDERS as u64 * EACH as u64;
    assert_eq!(
        account(&server, &sink).map(|a| a.0 as u64),
        Some(FUND + total * AMOUNT)
    );
    for i in 0..SENDERS {
        let (bal, seq) = account(&server, &address(&format!("sender{i}"))).unwrap();
        assert_eq!(bal as u64, FUND - EACH as u64 * (AMOUNT + 10));
        assert_eq!(seq, 3 + EACH);
    }
    assert_eq!(
        server
            .state
            .node
            .ledgers
            .closed()
            .ledger
            .map(|l| l.txs.len()),
        Some(total as usize)
    );
    server.stop().await;
}

/// rippled `reportFeeChange` / `pubServer`: the `server` stream hears a `serverStatus`
/// when the open ledger's fee level moves (here past `minimum_txn_in_ledger_standalone` 3:
/// 128000 x 4^2 / 3^2 = 227555 with four transactions), not when a cheaper payment is
/// only queued, and again when a close brings the level back to the reference.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_stream_hears_the_escalation() {
    let server = start_with(0, |c| c.tx_queue.minimum_txn_in_ledger_standalone = 3).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let r = ws
        .req(json!({"command": "subscribe", "streams": ["server"]}))
        .await;
    assert_eq!(r["result"]["load_factor"], 256, "{r}");
    let genesis = keys("masterpassphrase");
    let submit = |seq| {
        let blob = payment(&genesis, seq, &address("alice"), 200_000_000);
        json!({"command": "submit", "tx_blob": blob})
    };
    for seq in 1..=4 {
        let r = ws.req(submit(seq)).await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
    }
    // Three payments left the level at the reference: the message is the fourth's.
    let first = ws.event("serverStatus").await;
    assert_eq!(first["load_factor_fee_escalation"], 227_555, "{first}");
    assert_eq!(first["load_factor"], 227_555, "{first}");
    assert_eq!(first["load_factor_fee_queue"], 256, "{first}");
    assert_eq!(first["load_factor_fee_reference"], 256, "{first}");
    assert_eq!(first["load_factor_server"], 256, "{first}");
    assert_eq!(first["base_fee"], 10, "{first}");
    assert_eq!(first["server_status"], "full", "{first}");
    let r = ws.req(submit(5)).await;
    assert_eq!(r["result"]["engine_result"], "terQUEUED", "{r}");
    ws.req(json!({"command": "ledger_accept"})).await;
    let next = ws.event("serverStatus").await;
    assert_eq!(next["load_factor_fee_escalation"], 256, "{next}");
    assert_eq!(next["load_factor"], 256, "{next}");
    server.stop().await;
}
