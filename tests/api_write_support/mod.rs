//! Shared helpers for the api_write tests: an in-process server on 127.0.0.1:0, a
//! WebSocket client that keeps stream messages apart from replies, HTTP posts, and locally
//! signed transactions.

#![allow(dead_code)]

use futures::{SinkExt, StreamExt};
use ledgerd::app::Running;
use ledgerd::protocol::codec;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::st::StValue;
use ledgerd::server::config::ServerConfig;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// The genesis account's secret (passphrase `masterpassphrase`).
pub const GENESIS_SECRET: &str = "snoPBrXtMeMyMHUVTgbuqAfg1SUTb";
/// The genesis account.
pub const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";

/// A server with `close_interval` seconds between closes (0: only ledger_accept).
pub async fn start(close_interval: u64) -> Running {
    start_with(close_interval, |_| {}).await
}

/// A server with the config tweaked by `f`.
pub async fn start_with(close_interval: u64, f: impl FnOnce(&mut ServerConfig)) -> Running {
    let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
    config.close_interval_secs = close_interval;
    f(&mut config);
    ledgerd::app::start(config).await.expect("server starts")
}

/// The first port's address.
pub fn addr(r: &Running) -> SocketAddr {
    r.addrs[0].1
}

type Stream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client.
pub struct Ws {
    pub stream: Stream,
    next_id: u64,
    /// Stream messages received while waiting for replies.
    pub events: VecDeque<Value>,
    /// Replies that arrived before they were asked for, by id.
    early: std::collections::HashMap<u64, Value>,
}

impl Ws {
    /// Connect.
    pub async fn connect(addr: SocketAddr) -> Ws {
        let (stream, _) = tokio_tungstenite::connect_async(format!("ws://{addr}"))
            .await
            .expect("ws connect");
        Ws {
            stream,
            next_id: 1,
            events: VecDeque::new(),
            early: std::collections::HashMap::new(),
        }
    }

    /// Send without waiting; returns the id.
    pub async fn send(&mut self, mut req: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        req["id"] = json!(id);
        self.stream
            .send(Message::text(req.to_string()))
            .await
            .expect("ws send");
        id
    }

    /// Read the next text message.
    pub async fn read(&mut self) -> Option<Value> {
        loop {
            match tokio::time::timeout(Duration::from_secs(20), self.stream.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => {
                    return None
                }
                Ok(Some(Ok(_))) => continue,
            }
        }
    }

    /// The reply with `id` (stream messages in between are kept in `events`).
    pub async fn reply(&mut self, id: u64) -> Value {
        if let Some(m) = self.early.remove(&id) {
            return m;
        }
        loop {
            let m = self.read().await.expect("reply");
            if m["type"] == "response" {
                match m["id"].as_u64() {
                    Some(got) if got == id => return m,
                    Some(got) => {
                        self.early.insert(got, m);
                    }
                    None => {}
                }
            } else {
                self.events.push_back(m);
            }
        }
    }

    /// Send and wait for the reply.
    pub async fn req(&mut self, req: Value) -> Value {
        let id = self.send(req).await;
        self.reply(id).await
    }

    /// The next stream message of `kind` (`ledgerClosed`, `transaction`), within 20 s.
    pub async fn event(&mut self, kind: &str) -> Value {
        if let Some(pos) = self.events.iter().position(|e| e["type"] == kind) {
            return self.events.remove(pos).unwrap_or_default();
        }
        loop {
            let m = self
                .read()
                .await
                .unwrap_or_else(|| panic!("no {kind} message"));
            if m["type"] == kind {
                return m;
            }
            if m["type"] == "response" {
                if let Some(got) = m["id"].as_u64() {
                    self.early.insert(got, m);
                }
            } else {
                self.events.push_back(m);
            }
        }
    }
}

/// POST a JSON-RPC request; the parsed body.
pub async fn http(addr: SocketAddr, method: &str, params: Value) -> Value {
    let body = json!({"method": method, "params": [params]}).to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(body.trim()).unwrap_or(Value::Null)
}

/// A secp256k1 key pair from a passphrase.
pub fn keys(passphrase: &str) -> KeyPair {
    KeyPair::from_seed(&Seed::from_passphrase(passphrase), KeyType::Secp256k1).expect("keys")
}

/// The secret (family seed) of a passphrase.
pub fn secret(passphrase: &str) -> String {
    Seed::from_passphrase(passphrase).to_base58(KeyType::Secp256k1)
}

/// The classic address of a passphrase's account.
pub fn address(passphrase: &str) -> String {
    keys(passphrase).account_id().to_address()
}

/// Sign `tx` (JSON without SigningPubKey / TxnSignature) with `pair`; the blob in hex.
pub fn sign(pair: &KeyPair, mut tx: Value) -> String {
    tx["SigningPubKey"] = json!(pair.public.to_hex());
    let mut obj = codec::from_json(&tx).expect("tx json");
    let sig = pair.sign(&ledgerd::protocol::tx::signing_data(&obj));
    obj.set_named("TxnSignature", StValue::Blob(sig));
    hex::encode_upper(codec::encode(&obj))
}

/// A signed XRP Payment blob.
pub fn payment(pair: &KeyPair, seq: u32, dest: &str, drops: u64) -> String {
    sign(
        pair,
        json!({
            "TransactionType": "Payment",
            "Account": pair.account_id().to_address(),
            "Destination": dest,
            "Amount": drops.to_string(),
            "Fee": "10",
            "Sequence": seq,
            "Flags": 2147483648u32,
        }),
    )
}

/// An account's balance in drops and sequence in the open ledger, read from the store.
pub fn account(r: &Running, address: &str) -> Option<(i64, u32)> {
    use ledgerd::ledger::sf::{sf, StExt};
    use ledgerd::ledger::view::ReadView;
    let id = ledgerd::protocol::types::AccountId::from_address(address).ok()?;
    let root = r
        .state
        .node
        .ledgers
        .current()
        .view
        .read(&ledgerd::ledger::keylet::account(&id))?;
    Some((
        root.amount_of(sf().balance)?.as_drops()?,
        root.u32_of(sf().sequence)?,
    ))
}
