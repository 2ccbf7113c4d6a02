//! A market over WebSocket, for the decentralized exchange's API tests: an in-process
//! server (closing only on `ledger_accept`) and one connection to it, on which accounts
//! named by passphrase are funded, trust gateways, hold their IOUs and place offers with
//! real transactions signed by the server (`submit` with the account's secret). A test
//! file adds its own methods in an `impl Market` block of its own (the module is part of
//! each test crate).

use super::keys::{address, secret, GENESIS_SEED};
use super::server::{addr, start};
use super::ws::Ws;
use ledgerd::app::Running;
use serde_json::{json, Value};

/// An in-process server and a WebSocket connected to it.
pub struct Market {
    /// The server, for more connections (`addr(&market.server)`).
    pub server: Running,
    /// The connection requests go over; stream messages wait in it (`ws.event`).
    pub ws: Ws,
}

/// An IOU amount: `v` of `code` issued by `gw`'s account.
pub fn iou(code: &str, gw: &str, v: &str) -> Value {
    json!({"currency": code, "issuer": address(gw), "value": v})
}

/// `v` USD issued by `gw`'s account.
pub fn usd(gw: &str, v: &str) -> Value {
    iou("USD", gw, v)
}

/// `n` XRP, in drops as the API writes them.
pub fn xrp(n: i64) -> Value {
    Value::from((n * 1_000_000).to_string())
}

/// `(error, error_message)` of a reply, wherever the API version put them (in `result`
/// or at the top); empty where absent.
pub fn err(r: &Value) -> (String, String) {
    let o = if r["result"].is_object() {
        &r["result"]
    } else {
        r
    };
    (
        o["error"].as_str().unwrap_or("").to_string(),
        o["error_message"].as_str().unwrap_or("").to_string(),
    )
}

/// `params` with every field of `extra` (an object; anything else adds nothing) set on it.
pub fn with(mut params: Value, extra: Value) -> Value {
    if let Value::Object(o) = extra {
        for (k, v) in o {
            params[k] = v;
        }
    }
    params
}

impl Market {
    /// A server that closes only on `ledger_accept`, and a connection to it.
    pub async fn start() -> Market {
        let server = start(0).await;
        let ws = Ws::connect_to(addr(&server)).await;
        Market { server, ws }
    }

    /// The whole reply to `method` with `params`.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let mut p = params;
        p["command"] = json!(method);
        self.ws.req(p).await
    }

    /// The `result` of `method` with `params`, asserting success.
    pub async fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params).await;
        assert_eq!(r["status"], "success", "{method}: {r}");
        r["result"].clone()
    }

    /// Sets `tx`'s Account to `who`, signs with `who`'s secret (the genesis seed for
    /// `masterpassphrase`) and submits; returns the result, asserting tesSUCCESS.
    pub async fn submit(&mut self, who: &str, tx: Value) -> Value {
        let mut tx = tx;
        tx["Account"] = json!(address(who));
        let secret = if who == "masterpassphrase" {
            GENESIS_SEED.to_string()
        } else {
            secret(who)
        };
        let r = self
            .result("submit", json!({"secret": secret, "tx_json": tx}))
            .await;
        assert_eq!(r["engine_result"], "tesSUCCESS", "{tx}: {r}");
        r
    }

    /// Closes the open ledger (`ledger_accept`).
    pub async fn close(&mut self) {
        self.result("ledger_accept", json!({})).await;
    }

    /// Pays `who` `xrp_amount` XRP from the genesis account. A gateway (`gw...`) also gets
    /// DefaultRipple (in the next ledger), as rippled's test environment gives every
    /// account: without it, IOUs cannot ripple through it, nor leave it after a book
    /// (terNO_RIPPLE).
    pub async fn fund(&mut self, who: &str, xrp_amount: i64) {
        let tx = json!({"TransactionType": "Payment", "Destination": address(who), "Amount": xrp(xrp_amount)});
        self.submit("masterpassphrase", tx).await;
        if who.starts_with("gw") {
            self.close().await;
            let set = json!({"TransactionType": "AccountSet", "SetFlag": 8});
            self.submit(who, set).await;
        }
    }

    /// `who` trusts `gw` for 1000 `code`, then `gw` pays it `v` (nothing for "0").
    pub async fn hold(&mut self, who: &str, code: &str, gw: &str, v: &str) {
        let trust = json!({"TransactionType": "TrustSet", "LimitAmount": iou(code, gw, "1000")});
        self.submit(who, trust).await;
        if v != "0" {
            let pay = json!({"TransactionType": "Payment", "Destination": address(who), "Amount": iou(code, gw, v)});
            self.submit(gw, pay).await;
        }
    }

    /// `who` offers `gets` for `pays` (OfferCreate); returns the offer's sequence.
    pub async fn offer(&mut self, who: &str, pays: Value, gets: Value) -> u64 {
        let tx = json!({"TransactionType": "OfferCreate", "TakerPays": pays, "TakerGets": gets});
        let r = self.submit(who, tx).await;
        r["tx_json"]["Sequence"]
            .as_u64()
            .unwrap_or_else(|| panic!("offer sequence: {r}"))
    }

    /// `who`'s balance of `code` with `gw` in the open ledger, from account_lines (empty
    /// without such a line).
    pub async fn balance(&mut self, who: &str, code: &str, gw: &str) -> String {
        let r = self
            .result(
                "account_lines",
                json!({"account": address(who), "peer": address(gw), "ledger_index": "current"}),
            )
            .await;
        r["lines"]
            .as_array()
            .and_then(|l| l.iter().find(|x| x["currency"] == code))
            .map(|x| x["balance"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    }

    /// Stops the server.
    pub async fn stop(self) {
        self.server.stop().await;
    }
}
