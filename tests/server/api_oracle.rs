//! DIDs and price oracles through the API: `ledger_entry`'s `did` and `oracle` selectors,
//! `account_objects` of types `did` and `oracle`, and `get_aggregate_price` against the
//! numbers of rippled's `GetAggregatePrice_test.cpp` (with 2.x's 16-digit `Number`),
//! including prices found in an oracle's earlier versions, the time threshold, and
//! rippled's errors.

use crate::support;

use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::time::RIPPLE_EPOCH_OFFSET_SECS;
use serde_json::{json, Value};
use support::engine::{cur, Account, Tx};
use support::reply::error;
use support::server::Node;

fn series(pairs: &[(&str, &str, u64, u8)]) -> StValue {
    let items = pairs
        .iter()
        .map(|(base, quote, price, scale)| {
            let mut o = StObject::new();
            o.set_named("BaseAsset", StValue::Currency(cur(base)));
            o.set_named("QuoteAsset", StValue::Currency(cur(quote)));
            o.set_named("AssetPrice", StValue::UInt64(*price));
            o.set_named("Scale", StValue::UInt8(*scale));
            (Field::named("PriceData"), o)
        })
        .collect();
    StValue::Array(items)
}

/// Unix time of the open ledger's parent close.
fn now(node: &Node) -> u32 {
    let view = node.state().node.ledgers.current().view;
    (u64::from(view.info().parent_close_time) + RIPPLE_EPOCH_OFFSET_SECS) as u32
}

fn oracle_set(node: &Node, doc: u32, pairs: &[(&str, &str, u64, u8)], create: bool) -> Tx {
    let mut tx = Tx::new("OracleSet")
        .u32("OracleDocumentID", doc)
        .u32("LastUpdateTime", now(node));
    tx.0.set_named("PriceDataSeries", series(pairs));
    if create {
        tx = tx
            .blob("Provider", b"provider")
            .blob("AssetClass", b"currency");
    }
    tx
}

/// rippled's `prep`: ten owners, oracle `100 + i` each, XRP/USD at 74.i and XRP/EUR 74.
fn ten_oracles(node: &Node) -> Vec<(Account, u32)> {
    let owners: Vec<(Account, u32)> = (0..10)
        .map(|i| (Account::new(&format!("owner{i}")), 100 + i))
        .collect();
    for (i, (owner, doc)) in owners.iter().enumerate() {
        node.fund(owner, 1_000);
        let pairs = [("XRP", "USD", 740 + i as u64, 1), ("XRP", "EUR", 740, 1)];
        node.apply(owner, oracle_set(node, *doc, &pairs, true));
    }
    node.close();
    owners
}

fn oracles_json(owners: &[(Account, u32)]) -> Value {
    owners
        .iter()
        .map(|(a, doc)| json!({"account": a.id.to_address(), "oracle_document_id": doc}))
        .collect()
}

fn aggregate(node: &Node, owners: &[(Account, u32)], extra: Value) -> Value {
    let mut params =
        json!({"base_asset": "XRP", "quote_asset": "USD", "oracles": oracles_json(owners)});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    node.rpc("get_aggregate_price", params)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_did_reads_back_by_ledger_entry_and_account_objects() {
    let node = Node::start().await;
    let alice = Account::new("alice");
    node.fund(&alice, 1000);
    let tx = Tx::new("DIDSet")
        .blob("URI", b"uri")
        .blob("Data", b"attest");
    node.apply(&alice, tx);
    node.close();
    let r = node.rpc("ledger_entry", json!({"did": alice.id.to_address()}));
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["node"]["LedgerEntryType"], "DID");
    assert_eq!(r["node"]["Account"], alice.id.to_address());
    assert_eq!(r["node"]["URI"], hex::encode_upper("uri"));
    assert_eq!(r["node"]["Data"], hex::encode_upper("attest"));
    assert!(r["node"].get("DIDDocument").is_none());
    let index = r["index"].clone();
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "did"}),
    );
    let objects = r["account_objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 1, "{r}");
    assert_eq!(objects[0]["index"], index);
    // Not a deletion blocker.
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "deletion_blockers_only": true}),
    );
    assert_eq!(r["account_objects"].as_array().unwrap().len(), 0, "{r}");
    let r = node.rpc("ledger_entry", json!({"did": "nope"}));
    assert_eq!(
        error(&r),
        ("malformedAddress", 31, "Invalid field 'did', not Account.")
    );
    let bob = Account::new("bob").id.to_address();
    let r = node.rpc("ledger_entry", json!({"did": bob}));
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oracle_reads_back_by_ledger_entry_and_account_objects() {
    let node = Node::start().await;
    let owner = Account::new("owner");
    node.fund(&owner, 1000);
    let pairs = [("XRP", "USD", 740, 1)];
    node.apply(&owner, oracle_set(&node, 7, &pairs, true));
    node.close();
    let addr = owner.id.to_address();
    let r = node.rpc(
        "ledger_entry",
        json!({"oracle": {"account": addr, "oracle_document_id": 7}}),
    );
    assert_eq!(r["status"], "success", "{r}");
    let entry = &r["node"];
    assert_eq!(entry["LedgerEntryType"], "Oracle");
    assert_eq!(entry["Owner"], addr);
    assert_eq!(entry["Provider"], hex::encode_upper("provider"));
    assert_eq!(entry["AssetClass"], hex::encode_upper("currency"));
    assert_eq!(
        entry["PriceDataSeries"],
        json!([{"PriceData": {"BaseAsset": "XRP", "QuoteAsset": "USD", "AssetPrice": "2e4", "Scale": 1}}])
    );
    // fixIncludeKeyletFields, in ledgerd's default rules: the key's document ID.
    assert_eq!(entry["OracleDocumentID"], 7);
    let index = r["index"].clone();
    // The document ID as a string, and the index itself.
    let r = node.rpc(
        "ledger_entry",
        json!({"oracle": {"account": addr, "oracle_document_id": "7"}}),
    );
    assert_eq!(r["index"], index, "{r}");
    let r = node.rpc("ledger_entry", json!({"oracle": index.clone()}));
    assert_eq!(r["node"]["Owner"], addr, "{r}");
    let r = node.rpc(
        "account_objects",
        json!({"account": addr, "type": "oracle"}),
    );
    assert_eq!(r["account_objects"][0]["index"], index, "{r}");
    // rippled's errors.
    let le = |params: Value| node.rpc("ledger_entry", params);
    let r = le(json!({"oracle": {"account": addr, "oracle_document_id": 8}}));
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
    let r = le(json!({"oracle": {"account": "nope", "oracle_document_id": 7}}));
    assert_eq!(error(&r).0, "malformedAccount", "{r}");
    let r = le(json!({"oracle": {"account": addr}}));
    assert_eq!(error(&r).2, "Missing field 'oracle_document_id'.", "{r}");
    let r = le(json!({"oracle": {"account": addr, "oracle_document_id": -1}}));
    assert_eq!(error(&r).0, "malformedDocumentID", "{r}");
    let r = le(json!({"oracle": "nothex"}));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_oracles_give_rippleds_mean_median_and_deviation() {
    let node = Node::start().await;
    let owners = ten_oracles(&node);
    let created = now(&node) - 10;
    let r = aggregate(&node, &owners, json!({}));
    assert_eq!(r["entire_set"]["mean"], "74.45", "{r}");
    assert_eq!(r["entire_set"]["size"], 10);
    // rippled 3.x's RPCs compute with its default 19-digit Number (GetAggregatePrice_test:
    // "RPC is controlled by the global mantissa size").
    assert_eq!(
        r["entire_set"]["standard_deviation"],
        "0.3027650354097491666"
    );
    assert_eq!(r["median"], "74.45");
    assert_eq!(r["time"], created);
    assert!(r.get("trimmed_set").is_none());
    assert!(r["ledger_current_index"].is_u64(), "{r}");
    let r = aggregate(&node, &owners, json!({"trim": 20, "time_threshold": 100}));
    assert_eq!(r["entire_set"]["mean"], "74.45", "{r}");
    assert_eq!(r["trimmed_set"]["mean"], "74.45");
    assert_eq!(r["trimmed_set"]["size"], 6);
    assert_eq!(
        r["trimmed_set"]["standard_deviation"],
        "0.1870828693386970693"
    );
    // A validated ledger may be named.
    let r = aggregate(&node, &owners, json!({"ledger_index": "validated"}));
    assert_eq!(r["validated"], true, "{r}");
    assert_eq!(r["median"], "74.45");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_more_than_three_versions_back_are_not_found() {
    let node = Node::start().await;
    let owners = ten_oracles(&node);
    let eur = [("XRP", "EUR", 740, 1)];
    // Three EUR-only updates (owners 0-2) push USD out of reach; two (owners 3-5) leave
    // it in the history, each in its own ledger.
    for round in 0..3 {
        for (i, (owner, doc)) in owners.iter().enumerate().take(6) {
            if i >= 3 && round == 2 {
                continue;
            }
            node.apply(owner, oracle_set(&node, *doc, &eur, false));
        }
        node.close();
    }
    let r = aggregate(&node, &owners, json!({"trim": 20, "time_threshold": "200"}));
    assert_eq!(r["entire_set"]["mean"], "74.6", "{r}");
    assert_eq!(r["entire_set"]["size"], 7);
    assert_eq!(
        r["entire_set"]["standard_deviation"],
        "0.2160246899469286744"
    );
    assert_eq!(r["median"], "74.6");
    assert_eq!(r["trimmed_set"]["mean"], "74.6");
    assert_eq!(r["trimmed_set"]["size"], 5);
    assert_eq!(
        r["trimmed_set"]["standard_deviation"],
        "0.1581138830084189666"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_threshold_keeps_the_recent_prices() {
    let node = Node::start().await;
    let owners = ten_oracles(&node);
    // Each oracle repriced at 74 in its own ledger, ten seconds apart.
    for (owner, doc) in &owners {
        node.apply(
            owner,
            oracle_set(&node, *doc, &[("XRP", "USD", 740, 1)], false),
        );
        node.close();
    }
    let latest = now(&node) - 10;
    let r = aggregate(&node, &owners, json!({"time_threshold": 75}));
    assert_eq!(r["entire_set"]["mean"], "74", "{r}");
    assert_eq!(r["entire_set"]["size"], 8);
    assert_eq!(r["entire_set"]["standard_deviation"], "0");
    assert_eq!(r["median"], "74");
    assert_eq!(r["time"], latest);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_aggregate_price_refuses_what_rippled_refuses() {
    let node = Node::start().await;
    let owner = Account::new("owner");
    node.fund(&owner, 1000);
    node.apply(
        &owner,
        oracle_set(&node, 1, &[("XRP", "EUR", 740, 1)], true),
    );
    node.close();
    let one = vec![(owner.clone(), 1u32)];
    let call = |params: Value| node.rpc("get_aggregate_price", params);
    let base = || json!({"base_asset": "XRP", "quote_asset": "USD", "oracles": oracles_json(&one)});
    let without = |field: &str| {
        let mut p = base();
        p.as_object_mut().unwrap().remove(field);
        p
    };
    for field in ["base_asset", "quote_asset", "oracles"] {
        let r = call(without(field));
        assert_eq!(
            error(&r),
            (
                "invalidParams",
                31,
                format!("Missing field '{field}'.").as_str()
            )
        );
    }
    let bad_assets = [
        json!(null),
        json!(1),
        json!(-1),
        json!(1.2),
        json!(""),
        json!("invalid"),
        json!("a"),
        json!("ab"),
        json!("A"),
        json!("AB"),
        json!("ABCD"),
        json!("010101"),
        json!("012345678901234567890123456789012345678"),
        json!("012345678901234567890123456789012345678G"),
    ];
    for v in &bad_assets {
        for field in ["base_asset", "quote_asset"] {
            let mut p = base();
            p[field] = v.clone();
            assert_eq!(error(&call(p)).0, "invalidParams", "{field} = {v}");
        }
    }
    let mut p = base();
    p["oracles"] = json!([]);
    assert_eq!(error(&call(p)).0, "oracleMalformed");
    let mut p = base();
    p["oracles"] = Value::Array(vec![
        json!({"account": owner.id.to_address(), "oracle_document_id": 1});
        201
    ]);
    assert_eq!(error(&call(p)).0, "oracleMalformed");
    // The oracle lacks the pair; no such document; no such owner.
    assert_eq!(
        error(&call(base())),
        ("objectNotFound", 92, "The requested object was not found.")
    );
    let some = Account::new("some").id.to_address();
    for oracle in [
        json!({"account": owner.id.to_address(), "oracle_document_id": 2}),
        json!({"account": some, "oracle_document_id": 1}),
    ] {
        let mut p = base();
        p["oracles"] = json!([oracle]);
        p["quote_asset"] = json!("EUR");
        assert_eq!(error(&call(p)).0, "objectNotFound");
    }
    for doc in [
        json!(null),
        json!(1.2),
        json!(-1),
        json!(""),
        json!("none"),
        json!("1.2"),
    ] {
        let mut p = base();
        p["oracles"] = json!([{"account": owner.id.to_address(), "oracle_document_id": doc}]);
        assert_eq!(error(&call(p)).0, "invalidParams", "{doc}");
    }
    let mut p = base();
    p["oracles"] = json!([{"account": owner.id.to_address()}]);
    assert_eq!(error(&call(p)).0, "oracleMalformed");
    let mut p = base();
    p["oracles"] = json!([{"oracle_document_id": 1}]);
    assert_eq!(error(&call(p)).0, "oracleMalformed");
    for trim in [
        json!(null),
        json!(0),
        json!(26),
        json!(-1),
        json!(1.2),
        json!(""),
        json!("none"),
        json!("1.2"),
    ] {
        let mut p = base();
        p["quote_asset"] = json!("EUR");
        p["trim"] = trim.clone();
        assert_eq!(error(&call(p)).0, "invalidParams", "trim {trim}");
    }
    for t in [
        json!(null),
        json!(-1),
        json!(1.2),
        json!(""),
        json!("none"),
        json!("1.2"),
    ] {
        let mut p = base();
        p["quote_asset"] = json!("EUR");
        p["time_threshold"] = t.clone();
        assert_eq!(error(&call(p)).0, "invalidParams", "time_threshold {t}");
    }
    // The pair it has.
    let mut p = base();
    p["quote_asset"] = json!("EUR");
    p["trim"] = json!("25");
    let r = call(p);
    assert_eq!(r["median"], "74", "{r}");
    assert_eq!(r["trimmed_set"]["size"], 1);
}
