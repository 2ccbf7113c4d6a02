//! Permission delegation through the API: DelegateSet signed and submitted from JSON
//! with permission names, a Payment sent by the delegate (`sign` checks the delegate's
//! secret: delegateActNotFound, srcActMalformed, badSecret), `ledger_entry`'s `delegate`
//! selector (rippled's `LedgerEntry.cpp` errors), `account_objects` of type `delegate`,
//! and the amendment `feature` reports.

use crate::support;

use ledgerd::ledger::keylet;
use serde_json::{json, Value};
use support::engine::Account;
use support::keys::secret;
use support::reply::error;
use support::server::Node;

fn submit(node: &Node, passphrase: &str, tx: Value) -> Value {
    node.rpc(
        "submit",
        json!({"secret": secret(passphrase), "tx_json": tx}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delegate_set_and_a_delegated_payment_through_json() {
    let node = Node::start().await;
    let [alice, bob, carol] = ["dgAlice", "dgBob", "dgCarol"].map(Account::new);
    for a in [&alice, &bob, &carol] {
        node.fund(a, 1000);
    }
    let set = json!({
        "TransactionType": "DelegateSet",
        "Account": alice.id.to_address(),
        "Authorize": bob.id.to_address(),
        "Permissions": [
            {"Permission": {"PermissionValue": "Payment"}},
            {"Permission": {"PermissionValue": "AccountDomainSet"}},
        ],
    });
    let r = submit(&node, "dgAlice", set);
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    assert_eq!(
        r["tx_json"]["Permissions"][1]["Permission"]["PermissionValue"],
        "AccountDomainSet"
    );
    node.close();

    let key = keylet::delegate(&alice.id, &bob.id);
    let r = node.rpc(
        "ledger_entry",
        json!({"delegate": {"account": alice.id.to_address(), "authorize": bob.id.to_address()}}),
    );
    assert_eq!(r["index"], key.to_hex(), "{r}");
    let n = &r["node"];
    assert_eq!(n["LedgerEntryType"], "Delegate");
    assert_eq!(n["Account"], alice.id.to_address());
    assert_eq!(n["Authorize"], bob.id.to_address());
    assert_eq!(
        n["Permissions"][0]["Permission"]["PermissionValue"],
        "Payment"
    );
    assert_eq!(n["OwnerNode"], "0");
    let r = node.rpc("ledger_entry", json!({"delegate": key.to_hex()}));
    assert_eq!(r["node"]["LedgerEntryType"], "Delegate", "{r}");
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "delegate"}),
    );
    assert_eq!(r["account_objects"].as_array().unwrap().len(), 1, "{r}");

    let pay = |delegate: Value| {
        json!({
            "TransactionType": "Payment",
            "Account": alice.id.to_address(),
            "Destination": carol.id.to_address(),
            "Amount": "1000000",
            "Delegate": delegate,
        })
    };
    let r = submit(&node, "dgBob", pay(json!(bob.id.to_address())));
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    assert_eq!(r["tx_json"]["Delegate"], bob.id.to_address());
    assert_eq!(
        r["tx_json"]["SigningPubKey"],
        hex::encode_upper(bob.kp.public.as_bytes())
    );
    // The account's own secret does not sign for the delegate.
    let r = submit(&node, "dgAlice", pay(json!(bob.id.to_address())));
    assert_eq!(error(&r).0, "badSecret", "{r}");
    let r = submit(
        &node,
        "dgBob",
        pay(json!(Account::new("dgNobody").id.to_address())),
    );
    assert_eq!(error(&r).0, "delegateActNotFound", "{r}");
    let r = submit(&node, "dgBob", pay(json!(7)));
    assert_eq!(error(&r).0, "srcActMalformed", "{r}");
    // A permission not given.
    let email = json!({
        "TransactionType": "AccountSet",
        "Account": alice.id.to_address(),
        "Delegate": bob.id.to_address(),
        "EmailHash": "10000000002000000000300000000012",
    });
    let r = submit(&node, "dgBob", email);
    assert_eq!(r["engine_result"], "terNO_DELEGATE_PERMISSION", "{r}");
    // An unknown permission name.
    let bad = json!({
        "TransactionType": "DelegateSet",
        "Account": alice.id.to_address(),
        "Authorize": bob.id.to_address(),
        "Permissions": [{"Permission": {"PermissionValue": "Nope"}}],
    });
    let r = submit(&node, "dgAlice", bad);
    assert_eq!(error(&r).0, "invalidParams", "{r}");

    let r = node.rpc("feature", json!({"feature": "PermissionDelegationV1_1"}));
    let enabled = r
        .as_object()
        .unwrap()
        .values()
        .any(|v| v["enabled"] == true);
    assert!(enabled, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_entry_delegate_errors() {
    let node = Node::start().await;
    let alice = Account::new("dgAlice2");
    node.fund(&alice, 1000);
    let a = alice.id.to_address();
    let cases = [
        (json!({"authorize": a}), "malformedRequest"),
        (json!({"account": a}), "malformedRequest"),
        (
            json!({"account": a, "authorize": "rBad"}),
            "malformedAddress",
        ),
        (json!({"account": 5, "authorize": a}), "malformedAddress"),
        (json!("zz"), "malformedRequest"),
        (json!({"account": a, "authorize": a}), "entryNotFound"),
    ];
    for (v, want) in cases {
        let r = node.rpc("ledger_entry", json!({"delegate": v}));
        assert_eq!(error(&r).0, want, "{v}: {r}");
    }
}
