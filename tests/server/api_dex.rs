//! The read side of the decentralized exchange over WebSocket, against an in-process
//! server: `account_offers` (paging with markers), `book_offers` (order, owner funds,
//! transfer fees, the taker, limits, errors), `book_changes`, the `books` stream of
//! `subscribe` (snapshots, `both`, which transactions it carries), the `book_changes`
//! stream and `ledger_entry` for offers and book directories. Offers are placed with real
//! OfferCreate transactions; shapes and errors are rippled's (`Book_test.cpp`,
//! `AccountOffers_test.cpp`, `BookChanges_test.cpp`).

use crate::support;

use serde_json::{json, Value};
use support::keys::{address, GENESIS};
use support::market::{err, usd, with, xrp, Market};
use support::server::addr;
use support::ws::Ws;

/// What only these tests read: order books.
impl Market {
    /// `book_offers` of the validated ledger for `pays`/`gets`, with `extra`'s fields.
    async fn book_offers(&mut self, pays: Value, gets: Value, extra: Value) -> Value {
        let p = json!({"taker_pays": pays, "taker_gets": gets, "ledger_index": "validated"});
        self.result("book_offers", with(p, extra)).await
    }
}

/// The USD of `gw` as a book side names it (no value).
fn usd_spec(gw: &str) -> Value {
    json!({"currency": "USD", "issuer": address(gw)})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn book_offers_errors_are_rippleds() {
    let mut d = Market::start().await;
    let gw = address("gw");
    let x = json!({"currency": "XRP"});
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"ledger_index": 10}), "lgrNotFound", "ledgerNotFound"),
        (json!({}), "invalidParams", "Missing field 'taker_pays'."),
        (
            json!({"taker_pays": {}}),
            "invalidParams",
            "Missing field 'taker_gets'.",
        ),
        (
            json!({"taker_pays": "x", "taker_gets": {}}),
            "invalidParams",
            "Invalid field 'taker_pays', not object.",
        ),
        (
            json!({"taker_pays": {}, "taker_gets": "x"}),
            "invalidParams",
            "Invalid field 'taker_gets', not object.",
        ),
        (
            json!({"taker_pays": {}, "taker_gets": {}}),
            "invalidParams",
            "Missing field 'taker_pays.currency'.",
        ),
        (
            json!({"taker_pays": {"currency": 1}, "taker_gets": {}}),
            "invalidParams",
            "Invalid field 'taker_pays.currency', not string.",
        ),
        (
            json!({"taker_pays": x, "taker_gets": {}}),
            "invalidParams",
            "Missing field 'taker_gets.currency'.",
        ),
        (
            json!({"taker_pays": x, "taker_gets": {"currency": 1}}),
            "invalidParams",
            "Invalid field 'taker_gets.currency', not string.",
        ),
        (
            json!({"taker_pays": {"currency": "NOT_VALID"}, "taker_gets": x}),
            "srcCurMalformed",
            "Invalid field 'taker_pays.currency', bad currency.",
        ),
        (
            json!({"taker_pays": x, "taker_gets": {"currency": "NOT_VALID"}}),
            "dstAmtMalformed",
            "Invalid field 'taker_gets.currency', bad currency.",
        ),
        (
            json!({"taker_pays": x, "taker_gets": {"currency": "USD", "issuer": 1}}),
            "invalidParams",
            "Invalid field 'taker_gets.issuer', not string.",
        ),
        (
            json!({"taker_pays": {"currency": "XRP", "issuer": 1}, "taker_gets": {"currency": "USD"}}),
            "invalidParams",
            "Invalid field 'taker_pays.issuer', not string.",
        ),
        (
            json!({"taker_pays": {"currency": "XRP", "issuer": format!("{gw}DEAD")}, "taker_gets": {"currency": "USD"}}),
            "srcIsrMalformed",
            "Invalid field 'taker_pays.issuer', bad issuer.",
        ),
        (
            json!({"taker_pays": {"currency": "XRP", "issuer": "rrrrrrrrrrrrrrrrrrrrBZbvji"}, "taker_gets": {"currency": "USD"}}),
            "srcIsrMalformed",
            "Invalid field 'taker_pays.issuer', bad issuer account one.",
        ),
        (
            json!({"taker_pays": x, "taker_gets": {"currency": "USD", "issuer": format!("{gw}DEAD")}}),
            "dstIsrMalformed",
            "Invalid field 'taker_gets.issuer', bad issuer.",
        ),
        (
            json!({"taker_pays": x, "taker_gets": {"currency": "USD", "issuer": "rrrrrrrrrrrrrrrrrrrrBZbvji"}}),
            "dstIsrMalformed",
            "Invalid field 'taker_gets.issuer', bad issuer account one.",
        ),
        (
            json!({"taker_pays": {"currency": "XRP", "issuer": address("alice")}, "taker_gets": {"currency": "USD", "issuer": gw}}),
            "srcIsrMalformed",
            "Unneeded field 'taker_pays.issuer' for XRP currency specification.",
        ),
        (
            json!({"taker_pays": {"currency": "USD", "issuer": "rrrrrrrrrrrrrrrrrrrrrhoLvTp"}, "taker_gets": {"currency": "USD", "issuer": gw}}),
            "srcIsrMalformed",
            "Invalid field 'taker_pays.issuer', expected non-XRP issuer.",
        ),
        (
            json!({"taker": 1, "taker_pays": x, "taker_gets": {"currency": "USD", "issuer": gw}}),
            "invalidParams",
            "Invalid field 'taker', not string.",
        ),
        (
            json!({"taker": format!("{GENESIS}DEAD"), "taker_pays": x, "taker_gets": {"currency": "USD", "issuer": gw}}),
            "invalidParams",
            "Invalid field 'taker'.",
        ),
        (
            json!({"taker": GENESIS, "taker_pays": {"currency": "USD", "issuer": gw}, "taker_gets": {"currency": "USD", "issuer": gw}}),
            "badMarket",
            "No such market.",
        ),
        (
            json!({"limit": "0", "taker_pays": x, "taker_gets": {"currency": "USD", "issuer": gw}}),
            "invalidParams",
            "Invalid field 'limit', not unsigned integer.",
        ),
        (
            json!({"taker_pays": {"currency": "USD", "issuer": gw}, "taker_gets": {"currency": "USD"}}),
            "dstIsrMalformed",
            "Invalid field 'taker_gets.issuer', expected non-XRP issuer.",
        ),
        (
            json!({"taker_pays": {"currency": "USD", "issuer": gw}, "taker_gets": {"currency": "XRP", "issuer": gw}}),
            "dstIsrMalformed",
            "Unneeded field 'taker_gets.issuer' for XRP currency specification.",
        ),
        (
            json!({"taker_pays": {"currency": "USD", "issuer": gw}, "taker_gets": {"currency": "EUR", "issuer": gw}, "domain": "badString"}),
            "domainMalformed",
            "Unable to parse domain.",
        ),
    ];
    for (mut params, error, message) in cases {
        if params.get("ledger_index").is_none() {
            params["ledger_index"] = json!("validated");
        }
        let r = d.call("book_offers", params.clone()).await;
        assert_eq!(err(&r), (error.into(), message.into()), "{params}: {r}");
    }
    // An empty book, and a null side read as an empty spec.
    let r = d
        .book_offers(json!({"currency": "XRP"}), usd_spec("gw"), json!({}))
        .await;
    assert_eq!(r["offers"], json!([]), "{r}");
    assert!(
        r["ledger_hash"].is_string() && r["validated"] == true,
        "{r}"
    );
    assert!(r.get("marker").is_none() && r.get("limit").is_none(), "{r}");
    let r = d
        .call("book_offers", json!({"taker_pays": null, "taker_gets": {}}))
        .await;
    assert_eq!(err(&r).1, "Missing field 'taker_pays.currency'.");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_offers_errors_and_an_account_without_offers() {
    let mut d = Market::start().await;
    d.fund("alice", 1000).await;
    d.close().await;
    let r = d.call("account_offers", json!({})).await;
    assert_eq!(
        err(&r),
        ("invalidParams".into(), "Missing field 'account'.".into())
    );
    let r = d.call("account_offers", json!({"account": 1})).await;
    assert_eq!(
        err(&r),
        ("invalidParams".into(), "Invalid field 'account'.".into())
    );
    let r = d
        .call(
            "account_offers",
            json!({"account": "rNotAnAccount", "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(err(&r).0, "actMalformed", "{r}");
    // rippled injects the error into the ledger lookup's result.
    assert!(
        r["result"]["ledger_hash"].is_string() || r["ledger_hash"].is_string(),
        "{r}"
    );
    let r = d
        .call("account_offers", json!({"account": address("nobody")}))
        .await;
    assert_eq!(err(&r), ("actNotFound".into(), "Account not found.".into()));
    let alice = address("alice");
    let r = d
        .result(
            "account_offers",
            json!({"account": alice, "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(r["account"], alice);
    assert_eq!(r["offers"], json!([]));
    assert!(
        r["ledger_index"].is_number() && r["validated"] == true,
        "{r}"
    );
    let r = d.result("account_offers", json!({"account": alice})).await;
    assert!(
        r["ledger_current_index"].is_number() && r["validated"] == false,
        "{r}"
    );
    for (marker, msg) in [
        (json!(5), "Invalid field 'marker', not string."),
        (json!("zz"), "Invalid field 'marker'."),
        (
            json!(format!("{},x", "A".repeat(64))),
            "Invalid field 'marker'.",
        ),
        (json!("A".repeat(64)), "Invalid field 'marker'."),
        // Parses, but names no entry of this account.
        (
            json!(format!("{},0", "A".repeat(64))),
            "Invalid parameters.",
        ),
    ] {
        let r = d
            .call(
                "account_offers",
                json!({"account": alice, "marker": marker}),
            )
            .await;
        assert_eq!(
            err(&r),
            ("invalidParams".into(), msg.into()),
            "{marker}: {r}"
        );
    }
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribe_books_errors_and_empty_snapshots() {
    let mut d = Market::start().await;
    let x = json!({"currency": "XRP"});
    let gw = usd_spec("gw");
    let cases: Vec<(Value, &str)> = vec![
        (json!("x"), "invalidParams"),
        (json!([1]), "invalidParams"),
        (json!([{"taker_pays": x}]), "invalidParams"),
        (
            json!([{"taker_pays": x, "taker_gets": "USD"}]),
            "invalidParams",
        ),
        (
            json!([{"taker_pays": {"currency": "NOT_VALID"}, "taker_gets": x}]),
            "srcCurMalformed",
        ),
        (
            json!([{"taker_pays": {"currency": "USD"}, "taker_gets": x}]),
            "srcIsrMalformed",
        ),
        (
            json!([{"taker_pays": x, "taker_gets": {"currency": "NOT_VALID"}}]),
            "dstAmtMalformed",
        ),
        (
            json!([{"taker_pays": x, "taker_gets": {"currency": "XRP", "issuer": address("gw")}}]),
            "dstIsrMalformed",
        ),
        (json!([{"taker_pays": gw, "taker_gets": gw}]), "badMarket"),
        (
            json!([{"taker_pays": x, "taker_gets": gw, "taker": "bad"}]),
            "badIssuer",
        ),
        (
            json!([{"taker_pays": x, "taker_gets": gw, "domain": "bad"}]),
            "domainMalformed",
        ),
    ];
    for (books, error) in cases {
        let r = d.call("subscribe", json!({"books": books})).await;
        assert_eq!(err(&r).0, error, "{books}: {r}");
        let r = d.call("unsubscribe", json!({"books": books})).await;
        if error != "badIssuer" && error != "domainMalformed" {
            assert_eq!(err(&r).0, error, "unsubscribe {books}: {r}");
        }
    }
    let r = d
        .result(
            "subscribe",
            json!({"books": [{"taker_pays": gw, "taker_gets": x, "snapshot": true}]}),
        )
        .await;
    assert_eq!(r, json!({"offers": []}));
    let r = d
        .result(
            "subscribe",
            json!({"books": [{"taker_pays": gw, "taker_gets": x, "snapshot": true, "both": true}]}),
        )
        .await;
    assert_eq!(r, json!({"asks": [], "bids": []}));
    let r = d
        .result(
            "subscribe",
            json!({"books": [{"taker_pays": gw, "taker_gets": x}]}),
        )
        .await;
    assert_eq!(r, json!({}));
    let r = d
        .result(
            "unsubscribe",
            json!({"books": [{"taker_pays": gw, "taker_gets": x, "both": true}]}),
        )
        .await;
    assert_eq!(r, json!({}));
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn book_changes_shapes_without_trades() {
    let mut d = Market::start().await;
    d.fund("alice", 1000).await;
    d.close().await;
    for (which, validated) in [("validated", true), ("closed", true), ("current", false)] {
        let r = d
            .result("book_changes", json!({"ledger_index": which}))
            .await;
        assert_eq!(r["type"], "bookChanges", "{r}");
        assert_eq!(r["validated"], validated, "{which}: {r}");
        assert_eq!(r["changes"], json!([]));
        assert!(
            r["ledger_index"].is_number() && r["ledger_time"].is_number(),
            "{r}"
        );
        assert_eq!(r["ledger_hash"].as_str().map(str::len), Some(64));
        assert!(r.get("ledger_current_index").is_none(), "{r}");
    }
    let r = d.result("book_changes", json!({})).await;
    assert_eq!(r["validated"], false);
    let r = d
        .call("book_changes", json!({"ledger_index": "non_conventional"}))
        .await;
    assert_eq!(err(&r).0, "invalidParams", "{r}");
    d.stop().await;
}

/// Needs OfferCreate (the lead's engine work): placed offers, paged, listed and streamed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]

async fn offers_paged_listed_funded_and_streamed() {
    let mut d = Market::start().await;
    for who in ["gw", "alice", "bob", "carol"] {
        d.fund(who, 10_000).await;
    }
    d.close().await;
    // gw (DefaultRipple from `fund`) charges a 25% transfer fee; alice holds 100 USD, bob 20.
    let rate = json!({"TransactionType": "AccountSet", "TransferRate": 1_250_000_000u32});
    d.submit("gw", rate).await;
    d.hold("alice", "USD", "gw", "100").await;
    d.hold("bob", "USD", "gw", "20").await;
    d.close().await;
    let mut watcher = Ws::connect_to(addr(&d.server)).await;
    // Follows the book where takers pay USD and get XRP: rippled publishes to it the
    // transactions touching offers that sell USD for XRP (the other side).
    let sub = json!({"command": "subscribe", "books": [{"taker_pays": usd_spec("gw"), "taker_gets": {"currency": "XRP"}, "snapshot": true}]});
    let r = watcher.req(sub).await;
    assert_eq!(r["result"]["offers"], json!([]), "{r}");

    // Quality 10 XRP/USD: alice 60 USD, then bob 10 USD; quality 20: alice 50, gw 5.
    // A close after each: within one ledger the canonical order decides, not arrival.
    let a1 = d.offer("alice", xrp(600), usd("gw", "60")).await;
    d.close().await;
    let b1 = d.offer("bob", xrp(100), usd("gw", "10")).await;
    d.close().await;
    let a2 = d.offer("alice", xrp(1000), usd("gw", "50")).await;
    d.close().await;
    let g1 = d.offer("gw", xrp(100), usd("gw", "5")).await;
    d.close().await;
    let msg = watcher.event("transaction").await;
    assert_eq!(
        msg["transaction"]["TransactionType"], "OfferCreate",
        "{msg}"
    );
    // rippled's transJson adds what the (non-issuer) owner holds of TakerGets.
    assert!(
        msg["transaction"]["owner_funds"].is_string(),
        "owner_funds on the OfferCreate message: {msg}"
    );

    let r = d
        .book_offers(json!({"currency": "XRP"}), usd_spec("gw"), json!({}))
        .await;
    let offers = r["offers"].as_array().unwrap();
    let seqs: Vec<_> = offers
        .iter()
        .map(|o| o["Sequence"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, [a1, b1, a2, g1], "quality, then time: {r}");
    assert_eq!(offers[0]["quality"], "10000000");
    assert_eq!(offers[0]["owner_funds"], "100");
    assert_eq!(offers[0]["LedgerEntryType"], "Offer");
    assert!(offers[0]["index"].is_string() && offers[0]["BookDirectory"].is_string());
    assert_eq!(offers[1]["owner_funds"], "20");
    assert!(offers[2].get("owner_funds").is_none(), "{r}");
    assert_eq!(offers[2]["taker_gets_funded"]["value"], "20", "{r}");
    assert_eq!(offers[2]["taker_pays_funded"], "400000000");
    assert_eq!(offers[3]["owner_funds"], "5");
    // The issuer as taker pays no transfer fee.
    let r = d
        .book_offers(
            json!({"currency": "XRP"}),
            usd_spec("gw"),
            json!({"taker": address("gw")}),
        )
        .await;
    assert_eq!(r["offers"][2]["taker_gets_funded"]["value"], "40", "{r}");
    let r = d
        .book_offers(
            json!({"currency": "XRP"}),
            usd_spec("gw"),
            json!({"limit": 2}),
        )
        .await;
    assert_eq!(r["offers"].as_array().map(Vec::len), Some(2));

    // account_offers, paged two entries at a time (alice's trust line is one of them).
    let alice = address("alice");
    let mut seen = Vec::new();
    let mut marker = Value::Null;
    for _ in 0..5 {
        let mut p = json!({"account": alice, "limit": 2, "ledger_index": "validated"});
        if !marker.is_null() {
            p["marker"] = marker.clone();
        }
        let r = d.result("account_offers", p).await;
        for o in r["offers"].as_array().unwrap() {
            assert!(o["quality"].is_string() && o["flags"].is_number(), "{o}");
            seen.push(o["seq"].as_u64().unwrap());
        }
        marker = r.get("marker").cloned().unwrap_or(Value::Null);
        if marker.is_null() {
            break;
        }
        assert_eq!(r["limit"], 2);
    }
    seen.sort_unstable();
    assert_eq!(seen, [a1, a2]);

    // ledger_entry by owner and sequence, and the book directory by its root.
    let r = d
        .result(
            "ledger_entry",
            json!({"offer": {"account": alice, "seq": a1}, "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(r["node"]["TakerGets"]["value"], "60", "{r}");
    let dir = r["node"]["BookDirectory"].clone();
    let r = d
        .result(
            "ledger_entry",
            json!({"directory": {"dir_root": dir}, "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(
        r["node"]["Indexes"].as_array().map(Vec::len),
        Some(2),
        "{r}"
    );

    // Carol takes 10 USD from alice: book_changes shows the trade.
    let mut changes = Ws::connect_to(addr(&d.server)).await;
    changes
        .req(json!({"command": "subscribe", "streams": ["book_changes"]}))
        .await;
    d.hold("carol", "USD", "gw", "0").await;
    let take = json!({"TransactionType": "OfferCreate", "TakerPays": usd("gw", "10"), "TakerGets": xrp(100)});
    d.submit("carol", take).await;
    d.close().await;
    let bc = changes.event("bookChanges").await;
    let r = d
        .result("book_changes", json!({"ledger_index": "validated"}))
        .await;
    assert_eq!(bc["changes"], r["changes"], "{bc}");
    let c = &r["changes"][0];
    assert_eq!(c["currency_a"], "XRP_drops", "{r}");
    assert_eq!(c["currency_b"], format!("{}/USD", address("gw")));
    assert_eq!(c["volume_a"], "100000000");
    assert_eq!(c["volume_b"], "10");
    assert_eq!(c["open"], "10000000");
    d.stop().await;
}
