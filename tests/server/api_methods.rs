//! The account and server methods of issue 14 against the real binary:
//! `account_currencies`, `gateway_balances`, `noripple_check`, `feature`, `version` and
//! `manifest`, with rippled's shapes and errors.

use crate::support;

use serde_json::{json, Value};
use std::net::SocketAddr;
use support::http::rpc;
use support::keys::{address, secret};
use support::reply::error;
use support::server::Server;

fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc(addr, method, params).json()["result"].clone()
}

/// Signs with `who`'s secret and submits; asserts tesSUCCESS.
fn submit(addr: SocketAddr, who: &str, tx: Value) {
    let mut tx = tx;
    tx["Account"] = Value::from(address(who));
    let r = call(
        addr,
        "submit",
        json!({"secret": secret(who), "tx_json": tx}),
    );
    assert_eq!(r["engine_result"], "tesSUCCESS", "{tx}: {r}");
}

fn usd(issuer: &str, value: &str, currency: &str) -> Value {
    json!({"currency": currency, "issuer": address(issuer), "value": value})
}

/// A gateway with two holders and a hot wallet: alice holds 100 USD and 5 EUR, bob 20 USD
/// (frozen), hot 300 USD; then alice pays back 107 USD: her 100 and 7 of her own issue,
/// which the gateway holds.
fn gateway(addr: SocketAddr) {
    for who in ["gw", "alice", "bob", "hot"] {
        let pay = json!({"TransactionType": "Payment", "Destination": address(who), "Amount": "1000000000"});
        submit(addr, "masterpassphrase", pay);
    }
    submit(
        addr,
        "gw",
        json!({"TransactionType": "AccountSet", "SetFlag": 8}),
    );
    // The gateway ripples before its holders' lines exist: a close in between, since a
    // close orders one ledger's transactions canonically, not by arrival.
    assert_eq!(call(addr, "ledger_accept", json!({}))["status"], "success");
    for (who, cur) in [
        ("alice", "USD"),
        ("alice", "EUR"),
        ("bob", "USD"),
        ("hot", "USD"),
    ] {
        submit(
            addr,
            who,
            json!({"TransactionType": "TrustSet", "LimitAmount": usd("gw", "1000", cur)}),
        );
    }
    for (who, value, cur) in [
        ("alice", "100", "USD"),
        ("alice", "5", "EUR"),
        ("bob", "20", "USD"),
        ("hot", "300", "USD"),
    ] {
        submit(
            addr,
            "gw",
            json!({"TransactionType": "Payment", "Destination": address(who), "Amount": usd("gw", value, cur)}),
        );
    }
    submit(
        addr,
        "gw",
        json!({"TransactionType": "TrustSet", "LimitAmount": usd("bob", "0", "USD"), "Flags": 0x0010_0000}),
    );
    submit(
        addr,
        "gw",
        json!({"TransactionType": "TrustSet", "LimitAmount": usd("alice", "10", "USD")}),
    );
    submit(
        addr,
        "alice",
        json!({"TransactionType": "Payment", "Destination": address("gw"), "Amount": usd("alice", "107", "USD")}),
    );
    assert_eq!(call(addr, "ledger_accept", json!({}))["status"], "success");
}

#[test]
fn account_and_gateway_methods() {
    let server = Server::start_quiet(&["--close-interval", "0"]);
    let addr = server.addr();
    gateway(addr);

    let c = call(
        addr,
        "account_currencies",
        json!({"account": address("alice"), "ledger_index": "validated"}),
    );
    assert_eq!(c["receive_currencies"], json!(["EUR", "USD"]), "{c}");
    // Alice can send EUR (she holds some) and USD (the gateway trusts her USD up to 10).
    assert_eq!(c["send_currencies"], json!(["EUR", "USD"]), "{c}");
    assert_eq!(c["validated"], true);
    let c = call(
        addr,
        "account_currencies",
        json!({"account": address("bob")}),
    );
    assert_eq!(c["receive_currencies"], json!(["USD"]), "{c}");
    assert_eq!(
        error(&call(
            addr,
            "account_currencies",
            json!({"account": "rBad"})
        ))
        .0,
        "actMalformed"
    );
    assert_eq!(
        error(&call(
            addr,
            "account_currencies",
            json!({"account": address("nobody")})
        ))
        .0,
        "actNotFound"
    );
    assert_eq!(
        error(&call(addr, "account_currencies", json!({}))).0,
        "invalidParams"
    );

    let g = call(
        addr,
        "gateway_balances",
        json!({"account": address("gw"), "hotwallet": address("hot"), "ledger_index": "validated"}),
    );
    assert_eq!(
        g["obligations"],
        json!({"EUR": "5"}),
        "bob frozen, hot apart, alice owes: {g}"
    );
    assert_eq!(
        g["balances"][address("hot")],
        json!([{"currency": "USD", "value": "300"}]),
        "{g}"
    );
    assert_eq!(
        g["frozen_balances"][address("bob")],
        json!([{"currency": "USD", "value": "20"}]),
        "{g}"
    );
    assert_eq!(
        g["assets"][address("alice")],
        json!([{"currency": "USD", "value": "7"}]),
        "{g}"
    );
    assert_eq!(g["account"], address("gw"));
    let g2 = call(
        addr,
        "gateway_balances",
        json!({"account": address("gw"), "hotwallet": [address("hot"), address("bob")]}),
    );
    assert_eq!(g2["obligations"], json!({"EUR": "5"}), "{g2}");
    assert!(
        g2.get("frozen_balances").is_none(),
        "bob is a named hot wallet now: {g2}"
    );
    assert_eq!(
        error(&call(
            addr,
            "gateway_balances",
            json!({"account": address("gw"), "hotwallet": "nope"})
        ))
        .0,
        "invalidHotWallet"
    );
    assert_eq!(
        error(&call(
            addr,
            "gateway_balances",
            json!({"account": address("gw"), "hotwallet": 7})
        ))
        .0,
        "invalidHotWallet"
    );

    let n = call(
        addr,
        "noripple_check",
        json!({"account": address("gw"), "role": "gateway", "transactions": true}),
    );
    assert_eq!(
        n["problems"],
        json!([]),
        "a rippling gateway with rippling lines: {n}"
    );
    let n = call(
        addr,
        "noripple_check",
        json!({"account": address("alice"), "role": "user", "transactions": true}),
    );
    let problems = n["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 2, "{n}");
    assert!(
        problems[0]
            .as_str()
            .unwrap()
            .starts_with("You should probably set the no ripple flag on your "),
        "{n}"
    );
    let tx = &n["transactions"][0];
    assert_eq!(tx["TransactionType"], "TrustSet");
    assert_eq!(tx["Flags"], 0x0002_0000);
    assert_eq!(tx["Fee"], 10);
    assert_eq!(
        n["transactions"][1]["Sequence"],
        tx["Sequence"].as_u64().unwrap() + 1
    );
    let n = call(
        addr,
        "noripple_check",
        json!({"account": address("hot"), "role": "gateway"}),
    );
    assert_eq!(
        n["problems"][0], "You should immediately set your default ripple flag",
        "{n}"
    );
    assert!(n.get("transactions").is_none());
    assert_eq!(
        error(&call(
            addr,
            "noripple_check",
            json!({"account": address("gw")})
        ))
        .0,
        "invalidParams"
    );
    let bad_role = call(
        addr,
        "noripple_check",
        json!({"account": address("gw"), "role": "banker"}),
    );
    assert_eq!(
        error(&bad_role),
        ("invalidParams", 31, "Invalid field 'role'.")
    );
}

#[test]
fn server_methods() {
    let server = Server::start_quiet(&["--close-interval", "0"]);
    let addr = server.addr();
    let all = call(addr, "feature", json!({}));
    let features = all["features"].as_object().expect("features");
    let ms = &features["4C97EBA926031A7CF7D7B36FDE3ED66DDA5421192D63DE53FFB46E43B9DC8373"];
    assert_eq!(ms["name"], "MultiSign");
    assert_eq!(
        (ms["enabled"].clone(), ms["supported"].clone()),
        (json!(true), json!(true))
    );
    let named = |name: &str| {
        features
            .values()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("{name} listed"))
            .clone()
    };
    assert_eq!(named("DID")["enabled"], true);
    assert_eq!(named("PriceOracle")["enabled"], true);
    assert_eq!(named("ConfidentialTransfer")["enabled"], true);
    let one = call(addr, "feature", json!({"feature": "MultiSign"}));
    assert_eq!(
        one["4C97EBA926031A7CF7D7B36FDE3ED66DDA5421192D63DE53FFB46E43B9DC8373"]["name"],
        "MultiSign",
        "{one}"
    );
    assert_eq!(
        error(&call(addr, "feature", json!({"feature": "NoSuchThing"}))).0,
        "badFeature"
    );

    let v1 = call(addr, "version", json!({}));
    assert_eq!(
        v1["version"],
        json!({"first": "1.0.0", "good": "1.0.0", "last": "1.0.0"})
    );
    let v2 = call(addr, "version", json!({"api_version": 2}));
    assert_eq!(v2["version"], json!({"first": 1, "last": 2}));

    let key = "n9KAa2zVWjPHgfzsE3iZ8HAbzJtPrnoh4H2M2HgE7dfqtvyEb1KJ";
    let m = call(addr, "manifest", json!({"public_key": key}));
    assert_eq!(m["requested"], key, "{m}");
    assert_eq!(
        error(&call(addr, "manifest", json!({"public_key": "junk"}))).0,
        "invalidParams"
    );
    assert_eq!(error(&call(addr, "manifest", json!({}))).0, "invalidParams");
}

/// `simulate` answers what a transaction would do, and the ledger stays as it was.
#[test]
fn simulate_changes_nothing() {
    let server = Server::start_quiet(&["--close-interval", "0"]);
    let addr = server.addr();
    let genesis = address("masterpassphrase");
    let balance = |a: &str| {
        call(addr, "account_info", json!({"account": a}))["account_data"]["Balance"].clone()
    };
    let before = balance(&genesis);
    let pay = json!({"TransactionType": "Payment", "Account": genesis, "Destination": address("sim dest"), "Amount": "50000000"});
    let r = call(addr, "simulate", json!({"tx_json": pay}));
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    assert_eq!(
        r["applied"], false,
        "a dry run applies nothing, as rippled says"
    );
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");
    assert!(
        r["meta"]["AffectedNodes"]
            .as_array()
            .is_some_and(|n| n.len() == 2),
        "{r}"
    );
    assert_eq!(r["tx_json"]["Fee"], "10", "autofilled: {r}");
    assert_eq!(r["tx_json"]["SigningPubKey"], "");
    assert_eq!(balance(&genesis), before, "nothing kept");
    assert_eq!(
        error(&call(
            addr,
            "account_info",
            json!({"account": address("sim dest")})
        ))
        .0,
        "actNotFound"
    );

    let bin = call(addr, "simulate", json!({"tx_json": pay, "binary": true}));
    assert!(
        bin["meta_blob"].is_string() && bin["tx_blob"].is_string(),
        "{bin}"
    );
    let again = call(addr, "simulate", json!({"tx_blob": bin["tx_blob"]}));
    assert_eq!(
        again["engine_result"], "tesSUCCESS",
        "a blob simulates too: {again}"
    );
    let small = json!({"TransactionType": "Payment", "Account": genesis, "Destination": address("sim dest"), "Amount": "5"});
    let r = call(addr, "simulate", json!({"tx_json": small}));
    assert_eq!(
        (r["engine_result"].clone(), r["applied"].clone()),
        (json!("tecNO_DST_INSUF_XRP"), json!(false)),
        "{r}"
    );
    let bad = json!({"TransactionType": "Payment", "Account": genesis, "Destination": genesis, "Amount": "5"});
    let r = call(addr, "simulate", json!({"tx_json": bad}));
    assert_eq!(r["engine_result"], "temREDUNDANT", "{r}");
    assert_eq!(r["applied"], false);
    assert!(r.get("meta").is_none());

    let mut signed = pay.clone();
    signed["TxnSignature"] = json!("ABCD");
    assert_eq!(
        error(&call(addr, "simulate", json!({"tx_json": signed}))).0,
        "transactionSigned"
    );
    let neither = call(addr, "simulate", json!({}));
    assert_eq!(
        error(&neither).2,
        "Neither `tx_blob` nor `tx_json` included."
    );
    let both = call(addr, "simulate", json!({"tx_json": pay, "tx_blob": "00"}));
    assert_eq!(
        error(&both).2,
        "Can only include one of `tx_blob` and `tx_json`."
    );
    let secret_given = call(
        addr,
        "simulate",
        json!({"tx_json": pay, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"}),
    );
    assert_eq!(error(&secret_given).0, "invalidParams");
    assert_eq!(
        error(&call(addr, "simulate", json!({"tx_blob": "zz"}))).0,
        "invalidParams"
    );
    assert_eq!(balance(&genesis), before);
}
