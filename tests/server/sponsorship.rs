//! Sponsor (XLS-68) through the API: `ledger_entry`'s `sponsorship` selector
//! (`{sponsor, sponsee}` or an index, with rippled's `LedgerEntry.cpp` errors) and
//! `account_objects`' `type: "sponsorship"` filter and `sponsored` partition. The
//! amendment is `Lacking`, so a served ledger holds no Sponsorship yet: the entry itself,
//! its keylet and its directory links are the engine's stories (`tests/engine/sponsor_set.rs`).

use crate::support;

use ledgerd::ledger::keylet;
use serde_json::{json, Value};
use support::engine::{check_create, xrp, Account};
use support::reply::error;
use support::server::Node;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_entry_sponsorship_selector() {
    let node = Node::start().await;
    let [alice, bob] = ["spAlice", "spBob"].map(Account::new);
    for a in [&alice, &bob] {
        node.fund(a, 1000);
    }
    let (a, b) = (alice.id.to_address(), bob.id.to_address());
    let cases = [
        (json!({"sponsee": b}), "malformedRequest"),
        (json!({"sponsor": a}), "malformedRequest"),
        (json!({"sponsor": a, "sponsee": "rBad"}), "malformedAddress"),
        (json!({"sponsor": 5, "sponsee": b}), "malformedAddress"),
        (json!("zz"), "malformedRequest"),
        (json!(7), "malformedRequest"),
        // Well formed, and nothing there.
        (json!({"sponsor": a, "sponsee": b}), "entryNotFound"),
        (
            json!(keylet::sponsorship(&alice.id, &bob.id).to_hex()),
            "entryNotFound",
        ),
    ];
    for (v, want) in cases {
        let r = node.rpc("ledger_entry", json!({"sponsorship": v}));
        assert_eq!(error(&r).0, want, "{v}: {r}");
    }
    let r = node.rpc("ledger_entry", json!({"sponsorship": {"sponsor": a}}));
    assert_eq!(error(&r).2, "Missing field 'sponsee'.", "{r}");
    // The index selector of another type's key: found, and not a Sponsorship.
    let root = keylet::account(&alice.id).to_hex();
    let r = node.rpc("ledger_entry", json!({"sponsorship": root}));
    assert_eq!(error(&r).0, "unexpectedLedgerType", "{r}");
}

fn objects(node: &Node, params: Value) -> Value {
    node.rpc("account_objects", params)
}

fn count(r: &Value) -> usize {
    r["account_objects"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_objects_sponsorship_filters() {
    let node = Node::start().await;
    let [alice, bob] = ["spAlice2", "spBob2"].map(Account::new);
    for a in [&alice, &bob] {
        node.fund(a, 1000);
    }
    node.apply(&alice, check_create(&bob, xrp(5)));
    node.apply(&alice, check_create(&bob, xrp(6)));
    node.close();
    let a = alice.id.to_address();
    let all = objects(&node, json!({"account": a}));
    assert_eq!(count(&all), 2, "{all}");
    // A valid type filter; nobody sponsors alice yet.
    for t in ["sponsorship", "Sponsorship"] {
        let r = objects(&node, json!({"account": a, "type": t}));
        assert!(r.get("error").is_none(), "{r}");
        assert_eq!(count(&r), 0, "{r}");
    }
    // `sponsored` partitions the owned objects: none carries a Sponsor.
    let r = objects(&node, json!({"account": a, "sponsored": true}));
    assert_eq!(count(&r), 0, "{r}");
    let r = objects(&node, json!({"account": a, "sponsored": false}));
    assert_eq!(count(&r), 2, "{r}");
    assert!(r["account_objects"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o.get("Sponsor").is_none()));
    let r = objects(
        &node,
        json!({"account": a, "sponsored": false, "type": "check", "limit": 10}),
    );
    assert_eq!(count(&r), 2, "{r}");
    let r = objects(&node, json!({"account": a, "sponsored": "yes"}));
    let (token, _, message) = error(&r);
    assert_eq!(token, "invalidParams", "{r}");
    assert_eq!(message, "Invalid field 'sponsored', not bool.");
}
