//! Path finding over WebSocket against an in-process server: `ripple_path_find` (through
//! an order book, rippling through a gateway, across currencies, no path, errors) and
//! `path_find` (create, status, the update pushed after a close, close). Every found path
//! is then sent in a real Payment to prove the engine accepts it. Shapes and errors are
//! rippled's (`Path_test.cpp`, `RipplePathFind.cpp`, `PathRequest.cpp`).

use crate::support;

use serde_json::{json, Value};
use support::keys::address;
use support::market::{err, iou, with, xrp, Market};
use support::server::addr;

/// What only these tests do: find paths and pay along them.
impl Market {
    /// `ripple_path_find` from `src` to `dst` for `amount`, with `extra`'s fields.
    async fn find(&mut self, src: &str, dst: &str, amount: Value, extra: Value) -> Value {
        let p = json!({
            "source_account": address(src),
            "destination_account": address(dst),
            "destination_amount": amount,
        });
        self.result("ripple_path_find", with(p, extra)).await
    }

    /// Pays with the alternative's paths and source amount (plus 1%) as SendMax.
    async fn pay_along(&mut self, src: &str, dst: &str, amount: Value, alt: &Value) {
        let mut send_max = alt["source_amount"].clone();
        match &mut send_max {
            Value::String(s) => {
                let d: i64 = s.parse().expect("drops");
                *s = (d + d / 100).to_string();
            }
            Value::Object(o) => {
                let v: f64 = o["value"].as_str().unwrap_or("0").parse().expect("value");
                o.insert("value".into(), json!(format!("{}", v * 1.01)));
            }
            _ => panic!("source_amount {alt}"),
        }
        let mut tx = json!({"TransactionType": "Payment", "Destination": address(dst), "Amount": amount, "SendMax": send_max});
        if alt["paths_computed"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
        {
            tx["Paths"] = alt["paths_computed"].clone();
        }
        self.submit(src, tx).await;
    }
}

/// gw issues USD; carol sells 50 USD for 100 XRP; bob trusts gw; alice has only XRP.
async fn market() -> Market {
    let mut p = Market::start().await;
    for who in ["gw", "alice", "bob", "carol"] {
        p.fund(who, 10_000).await;
    }
    p.close().await;
    p.hold("carol", "USD", "gw", "500").await;
    p.hold("bob", "USD", "gw", "0").await;
    p.offer("carol", xrp(100), iou("USD", "gw", "50")).await;
    p.close().await;
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xrp_to_usd_through_a_book_then_paid_along_it() {
    let mut p = market().await;
    let r = p
        .find("alice", "bob", iou("USD", "gw", "10"), json!({}))
        .await;
    assert_eq!(r["source_account"], address("alice"));
    assert_eq!(r["destination_account"], address("bob"));
    assert_eq!(r["destination_amount"], iou("USD", "gw", "10"));
    let mut currencies: Vec<String> = r["destination_currencies"]
        .as_array()
        .expect("destination_currencies")
        .iter()
        .map(|c| c.as_str().unwrap_or("").to_string())
        .collect();
    currencies.sort();
    assert_eq!(currencies, ["USD", "XRP"], "{r}");
    assert_eq!(r["full_reply"], true);
    assert_eq!(r["validated"], false);
    assert!(r["ledger_current_index"].is_u64(), "{r}");
    let alts = r["alternatives"].as_array().expect("alternatives");
    assert_eq!(alts.len(), 1, "{r}");
    let alt = &alts[0];
    assert_eq!(alt["source_amount"], "20000000", "{r}");
    assert_eq!(
        alt["paths_computed"],
        json!([[{"currency": "USD", "issuer": address("gw"), "type": 48}]])
    );
    assert_eq!(alt["paths_canonical"], json!([]));
    p.pay_along("alice", "bob", iou("USD", "gw", "10"), alt)
        .await;
    assert_eq!(p.balance("bob", "USD", "gw").await, "10");
    p.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usd_to_usd_ripples_through_the_gateway_on_the_default_path() {
    let mut p = market().await;
    p.fund("dave", 10_000).await;
    p.close().await;
    p.hold("dave", "USD", "gw", "100").await;
    p.close().await;
    let r = p
        .find(
            "dave",
            "bob",
            iou("USD", "gw", "10"),
            json!({"source_currencies": [{"currency": "USD"}]}),
        )
        .await;
    let alts = r["alternatives"].as_array().expect("alternatives");
    assert_eq!(alts.len(), 1, "{r}");
    assert_eq!(alts[0]["paths_computed"], json!([]), "{r}");
    assert_eq!(alts[0]["source_amount"], iou("USD", "dave", "10"));
    p.pay_along("dave", "bob", iou("USD", "gw", "10"), &alts[0])
        .await;
    assert_eq!(p.balance("bob", "USD", "gw").await, "10");
    // Without source_currencies every currency dave can spend is tried: XRP (through
    // carol's offer) and USD.
    let r = p
        .find("dave", "bob", iou("USD", "gw", "5"), json!({}))
        .await;
    let sources: Vec<Value> = r["alternatives"]
        .as_array()
        .expect("alternatives")
        .iter()
        .map(|a| a["source_amount"].clone())
        .collect();
    assert_eq!(
        sources,
        vec![json!("10000000"), iou("USD", "dave", "5")],
        "{r}"
    );
    p.stop().await;
}

/// gw2 issues EUR; frank sells EUR.gw2 for USD.gw; dan holds USD.gw; eve trusts gw2.
async fn two_gateways(p: &mut Market) {
    for who in ["gw2", "dan", "eve", "frank"] {
        p.fund(who, 10_000).await;
    }
    p.close().await;
    p.hold("dan", "USD", "gw", "100").await;
    p.hold("frank", "USD", "gw", "0").await;
    p.hold("frank", "EUR", "gw2", "100").await;
    p.hold("frank", "USD", "gw2", "100").await;
    p.hold("eve", "EUR", "gw2", "0").await;
    p.hold("eve", "USD", "gw2", "0").await;
    p.offer("frank", iou("USD", "gw", "50"), iou("EUR", "gw2", "50"))
        .await;
    p.offer("frank", iou("USD", "gw", "50"), iou("USD", "gw2", "50"))
        .await;
    p.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_gateways_through_an_offer() {
    let mut p = market().await;
    two_gateways(&mut p).await;
    let usd_only = json!({"source_currencies": [{"currency": "USD"}]});
    // USD.gw -> EUR.gw2: found at the default level (`safd`).
    let r = p
        .find("dan", "eve", iou("EUR", "gw2", "10"), usd_only.clone())
        .await;
    let alts = r["alternatives"].as_array().expect("alternatives");
    assert_eq!(alts.len(), 1, "{r}");
    assert_eq!(
        alts[0]["paths_computed"],
        json!([[
            {"account": address("gw"), "type": 1},
            {"currency": "EUR", "issuer": address("gw2"), "type": 48}
        ]])
    );
    assert_eq!(alts[0]["source_amount"], iou("USD", "dan", "10"));
    p.pay_along("dan", "eve", iou("EUR", "gw2", "10"), &alts[0])
        .await;
    assert_eq!(p.balance("eve", "EUR", "gw2").await, "10");
    // USD.gw -> USD.gw2 from a holder needs `safd`, level 4 for a same-currency payment:
    // rippled's default level (2) finds nothing, and neither does this server.
    let r = p
        .find("dan", "eve", iou("USD", "gw2", "10"), usd_only.clone())
        .await;
    assert_eq!(r["alternatives"], json!([]), "{r}");
    // The gateway itself reaches the book directly (`sfd`).
    let r = p.find("gw", "eve", iou("USD", "gw2", "10"), usd_only).await;
    let alts = r["alternatives"].as_array().expect("alternatives");
    assert_eq!(alts.len(), 1, "{r}");
    // Through frank's offer, and rippling through frank's own lines (gw.USD in, gw2.USD
    // out): frank set no NoRipple, so both are paths.
    let paths = alts[0]["paths_computed"].as_array().expect("paths");
    assert!(
        paths.contains(&json!([{"currency": "USD", "issuer": address("gw2"), "type": 48}])),
        "{r}"
    );
    assert!(
        paths.contains(&json!([{"account": address("frank"), "type": 1}])),
        "{r}"
    );
    p.pay_along("gw", "eve", iou("USD", "gw2", "10"), &alts[0])
        .await;
    assert_eq!(p.balance("eve", "USD", "gw2").await, "10");
    p.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_path_and_as_much_as_possible() {
    let mut p = market().await;
    // Nobody trusts gw for EUR: no alternative.
    let r = p
        .find("alice", "bob", iou("EUR", "gw", "10"), json!({}))
        .await;
    assert_eq!(r["alternatives"], json!([]), "{r}");
    // XRP to XRP: rippled's engine never runs a direct XRP strand (`isDirectXrpToXrp`),
    // so there is no alternative (xrpl.js `path_find stream succeeds`).
    let r = p.find("alice", "bob", xrp(100), json!({})).await;
    assert_eq!(r["alternatives"], json!([]), "{r}");
    // "-1": as much as possible for at most 10 XRP through carol's offer (5 USD).
    let r = p
        .find(
            "alice",
            "bob",
            iou("USD", "gw", "-1"),
            json!({"send_max": xrp(10)}),
        )
        .await;
    let alts = r["alternatives"].as_array().expect("alternatives");
    assert_eq!(alts.len(), 1, "{r}");
    assert_eq!(alts[0]["destination_amount"], iou("USD", "gw", "5"), "{r}");
    assert_eq!(alts[0]["source_amount"], "10000000", "{r}");
    assert_eq!(r["destination_amount"], iou("USD", "gw", "-1"));
    p.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ripple_path_find_errors_are_rippleds() {
    let mut p = market().await;
    let (alice, bob) = (address("alice"), address("bob"));
    let usd = iou("USD", "gw", "10");
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "srcActMissing"),
        (json!({"source_account": alice}), "dstActMissing"),
        (
            json!({"source_account": alice, "destination_account": bob}),
            "dstAmtMissing",
        ),
        (
            json!({"source_account": "xx", "destination_account": bob, "destination_amount": usd}),
            "srcActMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": 7, "destination_amount": usd}),
            "dstActMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": "x"}),
            "dstAmtMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": "0"}),
            "dstAmtMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "send_max": xrp(1)}),
            "dstAmtMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": "-1", "send_max": "0"}),
            "sendMaxMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "source_currencies": []}),
            "srcCurMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "source_currencies": [{"currency": "XRP", "issuer": address("gw")}]}),
            "srcCurMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "source_currencies": [{"currency": "USD", "issuer": "bad"}]}),
            "srcIsrMalformed",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "domain": "zz"}),
            "domainMalformed",
        ),
        (
            json!({"source_account": address("nobody"), "destination_account": bob, "destination_amount": usd}),
            "srcActNotFound",
        ),
        (
            json!({"source_account": alice, "destination_account": address("nobody"), "destination_amount": usd}),
            "actNotFound",
        ),
        (
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "ledger_index": 999}),
            "lgrNotFound",
        ),
    ];
    for (params, want) in cases {
        let r = p.call("ripple_path_find", params.clone()).await;
        assert_eq!(err(&r).0, want, "{params}: {r}");
    }
    let many: Vec<Value> = (0..19).map(|_| json!({"currency": "XRP"})).collect();
    let r = p
        .call(
            "ripple_path_find",
            json!({"source_account": alice, "destination_account": bob, "destination_amount": usd, "source_currencies": many}),
        )
        .await;
    assert_eq!(err(&r).0, "srcCurMalformed");
    // An error after the ledger was chosen still names it.
    let r = p
        .call(
            "ripple_path_find",
            json!({"source_account": address("nobody"), "destination_account": bob, "destination_amount": usd, "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(err(&r).0, "srcActNotFound", "{r}");
    assert!(r["ledger_index"].is_u64(), "{r}");
    assert_eq!(r["validated"], true, "{r}");
    p.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn path_find_create_status_update_close() {
    let mut p = market().await;
    let create = json!({
        "subcommand": "create",
        "source_account": address("alice"),
        "destination_account": address("bob"),
        "destination_amount": iou("USD", "gw", "10"),
    });
    let r = p.call("path_find", create.clone()).await;
    assert_eq!(r["status"], "success", "{r}");
    let res = &r["result"];
    assert_eq!(res["full_reply"], false, "{r}");
    assert_eq!(res["id"], r["id"], "{r}");
    assert!(res.get("destination_currencies").is_none(), "{r}");
    assert_eq!(res["alternatives"][0]["source_amount"], "20000000", "{r}");
    assert!(res["alternatives"][0].get("paths_canonical").is_none());
    let status = p.result("path_find", json!({"subcommand": "status"})).await;
    assert_eq!(status["status"], "success");
    assert_eq!(status["alternatives"], res["alternatives"]);
    // A close pushes a full update.
    p.close().await;
    let update = p.ws.event("path_find").await;
    assert_eq!(update["full_reply"], true, "{update}");
    assert_eq!(update["id"], r["id"], "{update}");
    assert_eq!(update["source_account"], address("alice"));
    assert_eq!(update["alternatives"][0]["source_amount"], "20000000");
    let closed = p.result("path_find", json!({"subcommand": "close"})).await;
    assert_eq!(closed["closed"], true, "{closed}");
    for sub in ["status", "close"] {
        let r = p.call("path_find", json!({"subcommand": sub})).await;
        assert_eq!(err(&r).0, "noPathRequest", "{r}");
    }
    for bad in [
        json!({}),
        json!({"subcommand": 1}),
        json!({"subcommand": "x"}),
    ] {
        let r = p.call("path_find", bad).await;
        assert_eq!(err(&r).0, "invalidParams", "{r}");
    }
    // A failed create leaves no request behind.
    let mut bad = create.clone();
    bad["source_account"] = json!(address("nobody"));
    let r = p.call("path_find", bad).await;
    assert_eq!(err(&r).0, "srcActNotFound", "{r}");
    let r = p.call("path_find", json!({"subcommand": "status"})).await;
    assert_eq!(err(&r).0, "noPathRequest", "{r}");
    // Over HTTP there are no events.
    let http = support::http::rpc_async(addr(&p.server), "path_find", create).await;
    assert_eq!(err(&http).0, "noEvents", "{http}");
    p.stop().await;
}

/// `sign` and `submit` with `build_path` fill `Paths` from a path search (rippled
/// `checkPayment`), and the payment delivers along them; XRP to XRP and a `Paths` of its
/// own are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn build_path_fills_paths_for_sign_and_submit() {
    let mut p = market().await;
    let tx = json!({"TransactionType": "Payment", "Account": address("alice"),
        "Destination": address("bob"), "Amount": iou("USD", "gw", "10"), "SendMax": xrp(25)});
    let secret = support::keys::secret("alice");
    let signed = p
        .result(
            "sign",
            json!({"tx_json": tx, "secret": secret, "build_path": true}),
        )
        .await;
    assert_eq!(
        signed["tx_json"]["Paths"],
        json!([[{"currency": "USD", "issuer": address("gw"), "type": 48}]]),
        "{signed}"
    );
    let r = p
        .result(
            "submit",
            json!({"tx_json": tx, "secret": secret, "build_path": true}),
        )
        .await;
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    p.close().await;
    assert_eq!(p.balance("bob", "USD", "gw").await, "10");
    let xrp_only = json!({"TransactionType": "Payment", "Account": address("alice"),
        "Destination": address("bob"), "Amount": xrp(1)});
    let r = p
        .call(
            "sign",
            json!({"tx_json": xrp_only, "secret": secret, "build_path": true}),
        )
        .await;
    assert_eq!(err(&r).1, "Cannot build XRP to XRP paths.", "{r}");
    let mut own = tx.clone();
    own["Paths"] = json!([[{"currency": "USD", "issuer": address("gw")}]]);
    let r = p
        .call(
            "sign",
            json!({"tx_json": own, "secret": secret, "build_path": true}),
        )
        .await;
    assert_eq!(
        err(&r).1,
        "Cannot specify both 'tx_json.Paths' and 'build_path'",
        "{r}"
    );
    p.stop().await;
}
