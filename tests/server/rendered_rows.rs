//! account_tx from rendered rows (issue 37): the pages the transports write from cached,
//! pre-rendered rows are byte for byte the pages rendered from the history store, cold and
//! warm, in API v1 and v2, JSON and binary, both directions, one page and many (and so
//! are `ledger`'s expanded transactions); and a
//! transaction applied again in another ledger after a revert shows its new ledger.

use crate::support;

use ledgerd::rpc::context::{Context, Transport};
use ledgerd::rpc::role::Role;
use ledgerd::rpc::Params;
use serde_json::{json, Value};
use support::engine::{pay, trust, xrp, Account, Tx};
use support::mpt::{pay_mpt, with_id};
use support::server::Node;

/// One account_tx call in-process; the reply's `result` as the transports write it
/// (`raw`: from rendered rows) or as serde_json writes the handler's tree.
async fn page_text(node: &Node, raw: bool, params: &Value) -> String {
    call_text(node, "account_tx", raw, params).await
}

/// [`page_text`] for any method.
async fn call_text(node: &Node, method: &str, raw: bool, params: &Value) -> String {
    let ctx = Context {
        role: Role::Admin,
        api_version: params["api_version"].as_u64().unwrap_or(1) as u32,
        transport: Transport::WebSocket,
        session: None,
        services: node.state().services.clone(),
        forwarded: None,
        raw_json: raw,
    };
    let mut p: Params = params.as_object().expect("object").clone();
    p.insert("command".into(), json!(method));
    let (result, _) = ledgerd::rpc::call(ctx, p).await;
    let result = Value::Object(result.expect(method));
    match raw {
        true => ledgerd::rpc::raw::to_text(&result),
        false => serde_json::to_string(&result).expect("json"),
    }
}

/// Every page of `account`'s history in one shape, following markers.
async fn pages(node: &Node, raw: bool, base: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut params = base.clone();
    loop {
        let text = page_text(node, raw, &params).await;
        let v: Value = serde_json::from_str(&text).expect("valid JSON");
        out.push(text);
        match v.get("marker") {
            Some(m) => params["marker"] = m.clone(),
            None => return out,
        }
    }
}

/// Closes the open ledger through the sequencer (`ledger_accept`), at `close_time` when
/// given; the closed ledger's index.
fn accept(node: &Node, close_time: Option<&str>) -> u64 {
    let params = match close_time {
        Some(t) => json!({ "close_time": t }),
        None => json!({}),
    };
    let r = node.rpc("ledger_accept", params);
    r["ledger_current_index"].as_u64().expect("closed") - 1
}

/// A history of many kinds: XRP and IOU payments, an offer, NFT mints, an MPT, escrow.
fn varied_history(node: &Node) -> (Account, Account) {
    let (gw, alice) = (Account::new("gw"), Account::new("alice"));
    node.fund(&gw, 10_000);
    node.fund(&alice, 10_000);
    node.apply(&alice, trust(gw.iou("USD", 1_000)));
    node.apply(&gw, pay(&alice, gw.iou("USD", 50)));
    accept(node, None);
    node.apply(
        &alice,
        Tx::new("OfferCreate")
            .amount("TakerPays", xrp(10))
            .amount("TakerGets", gw.iou("USD", 5)),
    );
    for taxon in 0..3 {
        node.apply(&alice, Tx::new("NFTokenMint").u32("NFTokenTaxon", taxon));
    }
    let info = node.rpc("account_info", json!({"account": gw.id.to_address()}));
    let seq = info["account_data"]["Sequence"].as_u64().unwrap() as u32;
    node.apply(&gw, Tx::new("MPTokenIssuanceCreate").flags(0x20));
    let id = ledgerd::protocol::mpt::MptId::new(seq, &gw.id);
    node.apply(&alice, with_id(Tx::new("MPTokenAuthorize"), &id));
    node.apply(&gw, pay_mpt(&alice, &id, 42));
    accept(node, None);
    for n in 1..=4 {
        node.apply(&gw, pay(&alice, xrp(n)));
    }
    node.apply(
        &alice,
        support::engine::escrow_create(&gw, xrp(1)).u32("FinishAfter", 2_000_000_000),
    );
    accept(node, None);
    (gw, alice)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_from_rendered_rows_are_byte_identical() {
    let node = Node::start().await;
    let (gw, alice) = varied_history(&node);
    let mut shapes = 0;
    for account in [&gw, &alice] {
        for api_version in [1, 2] {
            for binary in [false, true] {
                for forward in [false, true] {
                    for limit in [3, 200] {
                        let base = json!({
                            "account": account.id.to_address(),
                            "api_version": api_version,
                            "binary": binary,
                            "forward": forward,
                            "limit": limit,
                        });
                        let plain = pages(&node, false, &base).await;
                        let cold = pages(&node, true, &base).await;
                        let warm = pages(&node, true, &base).await;
                        assert!(plain.iter().any(|p| p.contains("\"transactions\":[{")));
                        assert_eq!(cold, plain, "cold {base}");
                        assert_eq!(warm, plain, "warm {base}");
                        shapes += 1;
                    }
                }
            }
        }
    }
    assert_eq!(shapes, 32);
    // ledger with its transactions expanded: every validated ledger, every shape.
    let last = node.rpc("ledger", json!({"ledger_index": "validated"}))["ledger_index"]
        .as_u64()
        .expect("validated");
    let mut expanded = 0;
    for seq in 2..=last {
        for api_version in [1, 2] {
            for binary in [false, true] {
                let params = json!({"ledger_index": seq, "transactions": true, "expand": true,
                    "binary": binary, "api_version": api_version});
                let plain = call_text(&node, "ledger", false, &params).await;
                let cold = call_text(&node, "ledger", true, &params).await;
                let warm = call_text(&node, "ledger", true, &params).await;
                assert_eq!(cold, plain, "cold {params}");
                assert_eq!(warm, plain, "warm {params}");
                expanded += usize::from(plain.contains("\"transactions\":[{"));
            }
        }
    }
    assert!(
        expanded >= 12,
        "{expanded} ledgers with transactions compared"
    );
    let (rows, bytes) = node.state().services.rows.usage();
    assert!(
        rows > 0 && bytes > 0,
        "rows were kept: {rows} rows, {bytes} bytes"
    );
}

/// A row is kept under its ledger's hash: after a revert, the same signed payment applied
/// in a ledger that closed at another time shows that ledger, not the forgotten one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revert_never_serves_a_forgotten_ledgers_row() {
    let node = Node::start().await;
    let (gw, alice) = (Account::new("gw"), Account::new("alice"));
    node.fund(&gw, 10_000);
    node.fund(&alice, 10_000);
    accept(&node, None);
    let snap = node.rpc("ledger_snapshot", json!({}));
    let id = snap["snapshot"].clone();
    assert!(!id.is_null(), "{snap}");
    let hash = node.apply(&gw, pay(&alice, xrp(5)));
    let first = accept(&node, Some("2030-01-01T00:00:00Z"));
    let query = json!({"account": alice.id.to_address(), "api_version": 2, "limit": 1});
    let row = |text: String| -> Value {
        let v: Value = serde_json::from_str(&text).expect("json");
        v["transactions"][0].clone()
    };
    let before = row(page_text(&node, true, &query).await);
    assert_eq!(before["hash"], hash.to_hex(), "{before}");
    assert_eq!(before["ledger_index"], first);
    let reverted = node.rpc("ledger_revert", json!({"snapshot": id}));
    assert!(reverted.get("error").is_none(), "{reverted}");
    // The same payment again: the same signed blob, in the same ledger index closed at
    // another time.
    let again = node.apply(&gw, pay(&alice, xrp(5)));
    assert_eq!(again, hash);
    let second = accept(&node, Some("2030-01-01T00:05:00Z"));
    assert_eq!(second, first);
    let ledger = node.rpc("ledger", json!({"ledger_index": second}));
    let after = row(page_text(&node, true, &query).await);
    assert_eq!(after["hash"], hash.to_hex());
    assert_eq!(after["ledger_index"], second, "{after}");
    assert_eq!(after["ledger_hash"], ledger["ledger_hash"], "{after}");
    assert_ne!(after["ledger_hash"], before["ledger_hash"]);
    let plain = row(page_text(&node, false, &query).await);
    assert_eq!(after, plain);
}
