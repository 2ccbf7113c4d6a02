//! Shared helpers for the reading-API tests: an in-process server with an admin port and a
//! public port, ledger state built by applying signed transactions to its store, and
//! requests over WebSocket and HTTP.
#![allow(dead_code)]

#[path = "../engine_env/mod.rs"]
pub mod engine_env;
#[path = "../server_common/mod.rs"]
pub mod server_common;

use engine_env::{Account, Tx};
use ledgerd::app::Running;
use ledgerd::app::ServerState;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::tx::signing_data;
use ledgerd::protocol::types::Hash256;
use ledgerd::server::config::ServerConfig;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

pub use server_common::{post, Ws};

/// A running in-process server.
pub struct Node {
    pub running: Running,
    /// Port where 127.0.0.1 is admin.
    pub admin: SocketAddr,
    /// Port with no admin networks.
    pub public: SocketAddr,
    pub now: std::sync::atomic::AtomicU32,
}

impl Node {
    pub async fn start() -> Node {
        let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
        let mut public = config.ports[0].clone();
        public.name = "public".into();
        public.admin = Vec::new();
        config.ports.push(public);
        config.cpu_threads = Some(2);
        let running = ledgerd::app::start(config).await.expect("start");
        let admin = running.addrs[0].1;
        let public = running.addrs[1].1;
        let now = running
            .state
            .node
            .ledgers
            .closed()
            .ledger
            .unwrap()
            .header
            .close_time;
        Node {
            running,
            admin,
            public,
            now: now.into(),
        }
    }

    pub fn state(&self) -> &Arc<ServerState> {
        &self.running.state
    }

    /// Signs `tx` for `who` (filling Account, Sequence, Fee, SigningPubKey), applies it
    /// through the binary form and returns (result, id).
    pub fn submit(&self, who: &Account, tx: Tx) -> (Ter, Hash256) {
        submit_to(self.state(), who, tx)
    }

    pub fn apply(&self, who: &Account, tx: Tx) -> Hash256 {
        let (ter, id) = self.submit(who, tx);
        assert_eq!(ter, Ter::tesSUCCESS, "{}", who.name);
        id
    }

    /// Closes the open ledger 10 s after the last.
    pub fn close(&self) -> u32 {
        use std::sync::atomic::Ordering;
        let now = self.now.fetch_add(10, Ordering::SeqCst) + 10;
        self.state().node.ledgers.close(now).header.seq
    }

    pub fn fund(&self, who: &Account, xrp: i64) {
        self.apply(
            &Account::master(),
            engine_env::pay(who, engine_env::xrp(xrp)),
        );
    }

    /// One request over HTTP to `addr`; returns `result`.
    pub fn http(&self, addr: SocketAddr, method: &str, params: Value) -> Value {
        let body = json!({"method": method, "params": [params]}).to_string();
        let reply = post(addr, &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json()["result"].clone()
    }

    /// One request over HTTP on the admin port.
    pub fn rpc(&self, method: &str, params: Value) -> Value {
        self.http(self.admin, method, params)
    }

    /// One request over WebSocket (admin port).
    pub async fn ws(&self, method: &str, mut params: Value) -> Value {
        let mut ws = Ws::connect(&format!("ws://{}/", self.admin)).await;
        params["command"] = json!(method);
        ws.call(params).await
    }
}

/// Signs and applies `tx` to the store of `state`.
pub fn submit_to(state: &ServerState, who: &Account, tx: Tx) -> (Ter, Hash256) {
    let store = &state.node.ledgers;
    let mut o = tx.0;
    let s = sf();
    o.set(s.account, StValue::AccountId(who.id));
    if o.get(s.sequence).is_none() {
        let seq = store
            .current()
            .view
            .read(&keylet::account(&who.id))
            .and_then(|r| r.u32_of(s.sequence))
            .unwrap_or(0);
        o.set(s.sequence, StValue::UInt32(seq));
    }
    if o.get(s.fee).is_none() {
        o.set(
            s.fee,
            StValue::Amount(Amount::Xrp(store.fees().base_drops as i64)),
        );
    }
    o.set(
        s.signing_pub_key,
        StValue::Blob(who.kp.public.as_bytes().to_vec()),
    );
    let sig = who.kp.sign(&signing_data(&o));
    o.set(s.txn_signature, StValue::Blob(sig));
    let blob = codec::encode(&o);
    let r = store.apply_blob(&blob).expect("decodes");
    (r.ter, r.id)
}

/// tfSetfAuth on TrustSet.
pub const TF_SETF_AUTH: u32 = 0x0001_0000;
/// asfRequireAuth.
pub const ASF_REQUIRE_AUTH: u32 = 2;
