//! server_info's `storage` object: a server with a data directory reports durable, healthy
//! storage and journal counters that grow with what it journals; an ephemeral one says so.

use crate::support;

use serde_json::{json, Value};
use support::server::Server;
use support::ws::Ws;

async fn storage(ws: &mut Ws) -> Value {
    let r = ws
        .call(json!({"command": "server_info", "storage": true}))
        .await;
    r["result"]["info"]["storage"].clone()
}

#[tokio::test]
async fn server_info_reports_the_journal_of_a_persistent_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("data");
    let path = path.to_string_lossy().into_owned();
    let server = Server::start(&["--data-dir", &path, "--close-interval", "0"]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let before = storage(&mut ws).await;
    assert_eq!(before["durable"], true, "{before}");
    assert_eq!(before["healthy"], true, "{before}");
    assert!(
        before.get("failure").is_some_and(Value::is_null),
        "{before}"
    );
    assert_eq!(before["data_dir"], path.as_str());
    let records = before["records"].as_u64().expect("records");

    let r = ws
        .call(
            json!({"command": "submit", "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb",
            "tx_json": {"TransactionType": "Payment",
                "Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
                "Destination": "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "Amount": "100000000"}}),
        )
        .await;
    assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
    let r = ws.call(json!({"command": "ledger_accept"})).await;
    assert_eq!(r["status"], "success", "{r}");

    let after = storage(&mut ws).await;
    // The payment and the close, both acknowledged, so both fsynced.
    assert!(
        after["records"].as_u64().expect("records") >= records + 2,
        "{after}"
    );
    assert!(after["fsyncs"].as_u64().expect("fsyncs") >= 1, "{after}");
    assert!(
        after["records_per_fsync"].as_f64().expect("ratio") > 0.0,
        "{after}"
    );
    assert!(after["last_snapshot"].is_object(), "{after}");
}

#[tokio::test]
async fn server_info_says_an_ephemeral_server_is_not_durable() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let s = storage(&mut ws).await;
    assert_eq!(s["durable"], false, "{s}");
    assert_eq!(s["mode"], "ephemeral", "{s}");
}
