//! Issue 32's submit answers, over a WebSocket against an in-process server, as rippled's
//! `Submit.cpp` reports them from `NetworkOPsImp::apply`: the same transaction submitted
//! again (tefPAST_SEQ, whose status is OBSOLETE: kept as a local transaction, not
//! broadcast), `fail_hard` (a tec is not applied, no fee, no sequence; nothing is kept or
//! broadcast; a ter is not held), and path finding from XRP through a book to a holder of
//! an issuer without DefaultRipple (no path, as rippled's flow refuses it; found once the
//! issuer ripples on that line). See tests/engine/divergences32.rs for the engine side.

use crate::support;

use serde_json::{json, Value};
use support::keys::{address, keys, secret, GENESIS};
use support::market::{iou, xrp, Market};
use support::payment::payment;
use support::server::{account, addr, start};
use support::ws::Ws;

fn result(reply: &Value) -> &Value {
    &reply["result"]
}

/// The submit answer's status flags, in the order accepted, applied, broadcast, kept,
/// queued.
fn flags(r: &Value) -> [bool; 5] {
    let res = result(r);
    ["accepted", "applied", "broadcast", "kept", "queued"]
        .map(|k| res[k].as_bool().unwrap_or_else(|| panic!("{k} in {r}")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_blob_again_is_past_its_sequence_kept_not_broadcast() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let genesis = keys("masterpassphrase");
    let alice = address("alice");
    let blob = payment(&genesis, 1, &alice, 100_000_000);
    let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
    assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
    let after = account(&server, GENESIS).expect("genesis");
    for close in [false, true] {
        if close {
            let r = ws.req(json!({"command": "ledger_accept"})).await;
            assert_eq!(r["status"], "success", "{r}");
        }
        let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
        let res = result(&r);
        assert_eq!(res["engine_result"], "tefPAST_SEQ", "{r}");
        assert_eq!(res["engine_result_code"], -190);
        assert_eq!(
            res["engine_result_message"],
            "This sequence number has already passed."
        );
        assert_eq!(flags(&r), [true, false, false, true, false], "{r}");
        assert_eq!(res["account_sequence_next"], 2);
        assert_eq!(account(&server, GENESIS), Some(after), "nothing charged");
    }
    // With fail_hard the tef is neither kept nor broadcast: not accepted at all.
    let r = ws
        .req(json!({"command": "submit", "tx_blob": blob, "fail_hard": true}))
        .await;
    assert_eq!(result(&r)["engine_result"], "tefPAST_SEQ", "{r}");
    assert_eq!(flags(&r), [false; 5], "{r}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fail_hard_leaves_a_tec_out_of_the_ledger() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let genesis = keys("masterpassphrase");
    // Too little XRP to create bob's account: tecNO_DST_INSUF_XRP.
    let blob = payment(&genesis, 1, &address("bob"), 5);
    let before = account(&server, GENESIS).expect("genesis");
    let r = ws
        .req(json!({"command": "submit", "tx_blob": blob, "fail_hard": true}))
        .await;
    let res = result(&r);
    assert_eq!(res["engine_result"], "tecNO_DST_INSUF_XRP", "{r}");
    assert_eq!(res["engine_result_code"], 125);
    assert_eq!(flags(&r), [false; 5], "{r}");
    assert_eq!(res["account_sequence_next"], 1, "no sequence consumed");
    assert_eq!(account(&server, GENESIS), Some(before), "no fee claimed");
    let hash = res["tx_json"]["hash"].clone();
    let r = ws.req(json!({"command": "tx", "transaction": hash})).await;
    assert_eq!(r["error"], "txnNotFound", "{r}");
    // The same blob without fail_hard is applied as the tec it is: fee and sequence.
    let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
    assert_eq!(result(&r)["engine_result"], "tecNO_DST_INSUF_XRP", "{r}");
    assert_eq!(flags(&r), [true, true, true, true, false], "{r}");
    assert_eq!(result(&r)["account_sequence_next"], 2);
    assert_eq!(account(&server, GENESIS), Some((before.0 - 10, 2)));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fail_hard_holds_no_ter_and_signs_and_submits_the_same_way() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let genesis = keys("masterpassphrase");
    let alice = address("alice");
    // Sequence 2 before 1: terPRE_SEQ, not held under fail_hard.
    let early = payment(&genesis, 2, &alice, 100_000_000);
    let r = ws
        .req(json!({"command": "submit", "tx_blob": early, "fail_hard": true}))
        .await;
    assert_eq!(result(&r)["engine_result"], "terPRE_SEQ", "{r}");
    assert_eq!(flags(&r), [false; 5], "{r}");
    let r = ws
        .req(json!({"command": "submit", "tx_blob": payment(&genesis, 1, &alice, 100_000_000)}))
        .await;
    assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
    ws.req(json!({"command": "ledger_accept"})).await;
    // Had sequence 2 been held, the close would have applied it.
    assert_eq!(account(&server, GENESIS).map(|a| a.1), Some(2));
    assert_eq!(account(&server, &alice), Some((100_000_000, 3)));
    // Sign-and-submit with fail_hard: the tec of alice paying too little to a new
    // account leaves her untouched.
    let before = account(&server, &alice).expect("alice");
    let r = ws
        .req(
            json!({"command": "submit", "secret": secret("alice"), "fail_hard": true,
                    "tx_json": {"TransactionType": "Payment", "Account": alice,
                                "Destination": address("carol"), "Amount": "5"}}),
        )
        .await;
    assert_eq!(result(&r)["engine_result"], "tecNO_DST_INSUF_XRP", "{r}");
    assert_eq!(account(&server, &alice), Some(before));
    server.stop().await;
}

/// `ripple_path_find` from alice (XRP) to bob for 10 USD of `gw`: the alternatives.
async fn alternatives(p: &mut Market, gw: &str) -> Vec<Value> {
    let params = json!({
        "source_account": address("alice"),
        "destination_account": address("bob"),
        "destination_amount": iou("USD", gw, "10"),
    });
    let r = p.result("ripple_path_find", params).await;
    r["alternatives"]
        .as_array()
        .unwrap_or_else(|| panic!("alternatives: {r}"))
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_path_from_a_book_to_a_holder_of_an_issuer_that_does_not_ripple() {
    let mut p = Market::start().await;
    // "issuer" gets no DefaultRipple (Market::fund gives it to "gw..." names only).
    for who in ["issuer", "alice", "bob", "carol"] {
        p.fund(who, 10_000).await;
    }
    p.close().await;
    p.hold("carol", "USD", "issuer", "500").await;
    p.hold("bob", "USD", "issuer", "0").await;
    p.offer("carol", xrp(100), iou("USD", "issuer", "50")).await;
    p.close().await;
    assert_eq!(alternatives(&mut p, "issuer").await, Vec::<Value>::new());
    // The payment on the book's path is dry as well.
    let pay = json!({"TransactionType": "Payment", "Account": address("alice"),
        "Destination": address("bob"), "Amount": iou("USD", "issuer", "10"),
        "SendMax": xrp(20),
        "Paths": [[{"currency": "USD", "issuer": address("issuer")}]]});
    let r = p
        .result("submit", json!({"secret": secret("alice"), "tx_json": pay}))
        .await;
    assert_eq!(r["engine_result"], "tecPATH_DRY", "{r}");
    // The issuer lets its USD ripple to bob (NoRipple cleared on that line only).
    let clear = json!({"TransactionType": "TrustSet", "Flags": 0x0004_0000,
        "LimitAmount": iou("USD", "bob", "0")});
    p.submit("issuer", clear).await;
    p.close().await;
    let alts = alternatives(&mut p, "issuer").await;
    assert_eq!(alts.len(), 1, "{alts:?}");
    assert_eq!(alts[0]["source_amount"], "20000000");
    assert_eq!(
        alts[0]["paths_computed"],
        json!([[{"currency": "USD", "issuer": address("issuer"), "type": 48}]])
    );
    let mut pay = pay;
    pay["SendMax"] = json!("20200000");
    p.submit("alice", pay).await;
    assert_eq!(p.balance("bob", "USD", "issuer").await, "10");
    p.stop().await;
}
