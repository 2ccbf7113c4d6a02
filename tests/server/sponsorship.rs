//! Sponsor (XLS-68) through the API: `ledger_entry`'s `sponsorship` selector
//! (`{sponsor, sponsee}` or an index, with rippled's `LedgerEntry.cpp` errors) and
//! `account_objects`' `type: "sponsorship"` filter and `sponsored` partition, on empty
//! accounts and on a served Sponsorship with an object it carries (the entry's rules are
//! the engine's stories, `tests/engine/sponsor_*.rs`).

use crate::support;

use ledgerd::engine::sponsor::SPF_SPONSOR_RESERVE;
use ledgerd::ledger::keylet;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::StValue;
use serde_json::{json, Value};
use support::engine::{check_create, xrp, Account, Tx};
use support::reply::error;
use support::server::Node;
use support::sponsor::SponsorTx;

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

/// A SponsorshipSet by `sponsor` for `sponsee`: 10 XRP of fees and two owner counts.
fn prefund(sponsee: &Account) -> Tx {
    let mut tx = Tx::new("SponsorshipSet")
        .account("Sponsee", &sponsee.id)
        .amount("FeeAmountDelta", xrp(10));
    tx.0.set(Field::named("RemainingOwnerCountDelta"), StValue::Int32(2));
    tx
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_sponsorship_and_the_object_it_carries() {
    let node = Node::start().await;
    let [alice, bob, carol] = ["spAlice3", "spBob3", "spCarol3"].map(Account::new);
    for a in [&alice, &bob, &carol] {
        node.fund(a, 1000);
    }
    node.apply(&alice, prefund(&bob));
    node.close();
    let (a, b) = (alice.id.to_address(), bob.id.to_address());
    let r = node.rpc(
        "ledger_entry",
        json!({"sponsorship": {"sponsor": a, "sponsee": b}, "ledger_index": "validated"}),
    );
    let entry = &r["node"];
    assert_eq!(entry["LedgerEntryType"], "Sponsorship", "{r}");
    assert_eq!((&entry["Owner"], &entry["Sponsee"]), (&json!(a), &json!(b)));
    assert_eq!(entry["FeeAmount"], "10000000", "{r}");
    assert_eq!(entry["RemainingOwnerCount"], 2, "{r}");
    let by_index = node.rpc(
        "ledger_entry",
        json!({"sponsorship": keylet::sponsorship(&alice.id, &bob.id).to_hex()}),
    );
    assert_eq!(by_index["node"], *entry, "{by_index}");
    // Both sides list it.
    for who in [&a, &b] {
        let r = objects(&node, json!({"account": who, "type": "sponsorship"}));
        assert_eq!(count(&r), 1, "{who}: {r}");
    }
    // bob's check, its reserve carried by alice's Sponsorship.
    node.apply(
        &bob,
        check_create(&carol, xrp(5)).sponsor(&alice, SPF_SPONSOR_RESERVE),
    );
    node.apply(&bob, check_create(&carol, xrp(6)));
    node.close();
    // Two checks: the Sponsorship counts toward its sponsor's OwnerCount only.
    let info = node.rpc("account_info", json!({"account": b}));
    let root = &info["account_data"];
    assert_eq!(
        (&root["OwnerCount"], &root["SponsoredOwnerCount"]),
        (&json!(2), &json!(1))
    );
    let info = node.rpc("account_info", json!({"account": a}));
    assert_eq!(info["account_data"]["SponsoringOwnerCount"], 1, "{info}");
    let sponsored = objects(&node, json!({"account": b, "sponsored": true}));
    assert_eq!(count(&sponsored), 1, "{sponsored}");
    assert_eq!(sponsored["account_objects"][0]["Sponsor"], a, "{sponsored}");
    assert_eq!(sponsored["account_objects"][0]["SendMax"], "5000000");
    let own = objects(&node, json!({"account": b, "sponsored": false}));
    // The other check and the Sponsorship, which is never "sponsored".
    assert_eq!(count(&own), 2, "{own}");
    let r = node.rpc(
        "ledger_entry",
        json!({"sponsorship": {"sponsor": a, "sponsee": b}}),
    );
    assert_eq!(r["node"]["RemainingOwnerCount"], 1, "{r}");
}
