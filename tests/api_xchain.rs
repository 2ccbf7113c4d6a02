//! A bridge through the API, as xrpl-py's integration set-up creates and reads it:
//! XChainCreateBridge applied through the binary form, the Bridge read back by
//! `ledger_entry`'s `bridge` selector (with `bridge_account`) and by `account_objects`
//! of type `bridge`, with rippled's errors for a malformed selector.

mod support;

use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Issue;
use ledgerd::protocol::xchain::XChainBridge;
use serde_json::{json, Value};
use support::engine::{xrp, Account, Tx};
use support::reply::error;
use support::server::Node;

fn bridge_json(door: &Account) -> Value {
    json!({
        "LockingChainDoor": door.id.to_address(),
        "LockingChainIssue": {"currency": "XRP"},
        "IssuingChainDoor": Account::master().id.to_address(),
        "IssuingChainIssue": {"currency": "XRP"}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_bridge_reads_back_by_ledger_entry_and_account_objects() {
    let node = Node::start().await;
    let door = Account::new("door");
    node.fund(&door, 1000);
    let b = XChainBridge {
        locking_door: door.id,
        locking_issue: Issue::XRP,
        issuing_door: Account::master().id,
        issuing_issue: Issue::XRP,
    };
    let mut tx = Tx::new("XChainCreateBridge")
        .amount("SignatureReward", xrp(1))
        .amount("MinAccountCreateAmount", xrp(10));
    tx.0.set_named("XChainBridge", StValue::XChainBridge(b));
    let hash = node.apply(&door, tx);
    node.close();

    let r = node.rpc("tx", json!({"transaction": hash.to_hex()}));
    assert_eq!(r["XChainBridge"], bridge_json(&door), "{r}");
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");

    let r = node.rpc(
        "ledger_entry",
        json!({"bridge_account": door.id.to_address(), "bridge": bridge_json(&door)}),
    );
    assert_eq!(r["status"], "success", "{r}");
    let node_json = &r["node"];
    assert_eq!(node_json["LedgerEntryType"], "Bridge");
    assert_eq!(node_json["Account"], door.id.to_address());
    assert_eq!(node_json["XChainBridge"], bridge_json(&door));
    assert_eq!(node_json["SignatureReward"], "1000000");
    assert_eq!(node_json["MinAccountCreateAmount"], "10000000");
    assert_eq!(node_json["XChainClaimID"], "0");
    assert_eq!(node_json["XChainAccountCreateCount"], "0");
    assert_eq!(node_json["XChainAccountClaimCount"], "0");
    assert_eq!(node_json["index"], r["index"]);
    let index = r["index"].clone();

    let r = node.rpc(
        "account_objects",
        json!({"account": door.id.to_address(), "type": "bridge"}),
    );
    let objects = r["account_objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 1, "{r}");
    assert_eq!(objects[0]["index"], index);
    let r = node.rpc(
        "account_objects",
        json!({"account": door.id.to_address(), "deletion_blockers_only": true}),
    );
    assert_eq!(
        r["account_objects"].as_array().unwrap().len(),
        1,
        "a blocker"
    );
    let info = node.rpc("account_info", json!({"account": door.id.to_address()}));
    assert_eq!(info["account_data"]["OwnerCount"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_selector_refuses_what_rippled_refuses() {
    let node = Node::start().await;
    let door = Account::new("door");
    node.fund(&door, 1000);
    let le = |params: Value| node.rpc("ledger_entry", params);
    // No such bridge yet.
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": bridge_json(&door)}));
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
    // bridge_account must be one of the doors.
    let other = Account::new("other").id.to_address();
    let r = le(json!({"bridge_account": other, "bridge": bridge_json(&door)}));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
    // A missing bridge_account.
    let r = le(json!({"bridge": bridge_json(&door)}));
    assert_eq!(
        error(&r),
        ("malformedRequest", 31, "Missing field 'bridge_account'.")
    );
    // A missing part of the bridge.
    let mut part = bridge_json(&door);
    part.as_object_mut().unwrap().remove("IssuingChainIssue");
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": part}));
    assert_eq!(error(&r).2, "Missing field 'IssuingChainIssue'.", "{r}");
    // A bad door and a bad issue.
    let mut bad = bridge_json(&door);
    bad["LockingChainDoor"] = json!("nope");
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": bad}));
    assert_eq!(error(&r).0, "malformedLockingChainDoor", "{r}");
    let mut bad = bridge_json(&door);
    bad["LockingChainIssue"] = json!({"currency": "USD"});
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": bad}));
    assert_eq!(error(&r).0, "malformedIssue", "{r}");
    // A string is never taken as an index here (rippled checks the request itself).
    let r = le(json!({"bridge": "00".repeat(32)}));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'bridge', not hex string."
        )
    );
}
