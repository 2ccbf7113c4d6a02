//! A real server's ledgers filled over JSON-RPC, as the tests of history beyond memory
//! build them: a server that closes only when told (`--close-interval 0`), payments from
//! genesis and closes by `ledger_accept`.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::http::rpc;
use super::keys::{address, secret};

/// The genesis account's passphrase: it holds every XRP of a new ledger.
pub const GENESIS: &str = "masterpassphrase";

/// `serve` on a free local port with its data in `dir`, closing only on `ledger_accept`,
/// then `extra`.
pub fn serve_args<'a>(dir: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let dir = dir.to_str().expect("a UTF-8 temp path");
    let mut args = vec!["serve", "--listen", "127.0.0.1:0", "--data-dir", dir];
    args.extend(["--close-interval", "0"]);
    args.extend_from_slice(extra);
    args
}

/// One JSON-RPC call; its `result`.
pub fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc(addr, method, params).json()["result"].clone()
}

/// Closes the open ledger.
pub fn accept(addr: SocketAddr) {
    let r = call(addr, "ledger_accept", json!({}));
    assert_eq!(r["status"], "success", "ledger_accept: {r}");
}

/// Pays `dest` from genesis; returns the transaction's hash.
pub fn pay(addr: SocketAddr, dest: &str, drops: u64) -> String {
    let tx = json!({"TransactionType": "Payment", "Account": address(GENESIS),
        "Destination": dest, "Amount": drops.to_string()});
    let r = call(
        addr,
        "submit",
        json!({"secret": secret(GENESIS), "tx_json": tx}),
    );
    assert_eq!(r["engine_result"], "tesSUCCESS", "payment: {r}");
    r["tx_json"]["hash"].as_str().expect("hash").to_owned()
}

/// The validated ledger's index on `addr` (0 when none).
pub fn validated(addr: SocketAddr) -> u64 {
    let r = call(addr, "ledger", json!({"ledger_index": "validated"}));
    r["ledger_index"].as_u64().unwrap_or(0)
}

/// Waits until the read node serves the writer's validated ledger.
pub fn caught_up(reader: SocketAddr, writer: SocketAddr) -> u64 {
    let want = validated(writer);
    let deadline = Instant::now() + Duration::from_secs(60);
    while validated(reader) < want {
        assert!(
            Instant::now() < deadline,
            "the read node never reached ledger {want}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    want
}
