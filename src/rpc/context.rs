//! What a handler sees besides its parameters: who is calling, which API version, over which
//! transport, from which WebSocket session, and the [`Services`] shared by every handler.
//!
//! Later handlers reach the ledgers and the writer through [`Services::node`]; adding a field
//! there changes no handler signature and no table row.

use crate::ledgers::{LedgerConfig, Ledgers};
use crate::node::cleaner::LedgerCleaner;
use crate::node::subscriptions::Session;
use crate::node::Node;
use crate::protocol::time::ripple_now_secs;
use crate::rpc::cpu_pool::CpuPool;
use crate::rpc::key_cache::KeyCache;
use crate::rpc::node_identity::NodeIdentity;
use crate::rpc::role::{Forwarded, Role};
use std::sync::Arc;
use std::time::Instant;

/// How the request arrived (some replies differ, e.g. ping's `unlimited` on WebSocket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// A WebSocket message.
    WebSocket,
    /// An HTTP JSON-RPC POST (the command-line client uses it too).
    Http,
}

/// One listening port as server_info lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortInfo {
    /// The bound port number.
    pub port: u16,
    /// Its protocols (`http`, `ws`, `https`, `wss`).
    pub protocols: Vec<String>,
    /// Whether it has admin networks (rippled hides those ports from non-admins).
    pub has_admin: bool,
}

/// What the handlers need of the server's configuration.
#[derive(Clone, Debug, Default)]
pub struct RpcConfig {
    /// The configured network id, if any (server_info shows it only when set).
    pub network_id: Option<u32>,
    /// `signing_support`: non-admin callers may sign with a secret they send.
    pub signing_support: bool,
    /// The listening ports, for server_info.
    pub ports: Vec<PortInfo>,
    /// A read node's writer (`--writer ws://...`): writes are forwarded to it.
    pub writer: Option<String>,
}

/// State shared by every handler.
pub struct Services {
    /// The configuration handlers read.
    pub config: RpcConfig,
    /// The ledgers, the writer, the status snapshot and the subscriptions.
    pub node: Arc<Node>,
    /// Signing and verification run here, never on the I/O threads.
    pub cpu: CpuPool,
    /// Derived channel_authorize keys, bounded and zeroizing.
    pub keys: KeyCache,
    /// When the server started (server_info `uptime`).
    pub started: Instant,
    /// The node's public key, base58 `n...` (server_info `pubkey_node`).
    pub node_public: String,
    /// The host name admins see as server_info `hostid`.
    pub host_name: String,
    /// The one-word host id non-admins see (derived from the node key, as rippled does).
    pub host_word: String,
    /// Set by `stop`: whoever runs the server waits for it and shuts down.
    pub stop: StopRequest,
    /// The ledger cleaner (`ledger_cleaner`), idle until asked.
    pub cleaner: Arc<LedgerCleaner>,
    /// This server's amendment votes (`feature`).
    pub votes: Arc<crate::rpc::amendments::VoteBook>,
    /// Rendered account_tx rows.
    pub rows: crate::render::rows::RowCache,
    /// account_tx pages' places.
    pub places: crate::rpc::tx_places::PlacesCache,
    /// A read node's kept transactions and headers for `tx`.
    pub read_cache: crate::rpc::read_cache::ReadCache,
}

/// A request to stop the server (the `stop` method), which whoever runs the server awaits
/// ([`StopRequest::requested`]) to shut down as on SIGTERM.
pub struct StopRequest(tokio::sync::watch::Sender<bool>);

impl Default for StopRequest {
    fn default() -> StopRequest {
        StopRequest(tokio::sync::watch::Sender::new(false))
    }
}

impl StopRequest {
    /// Asks for the stop (again is harmless).
    pub fn request(&self) {
        self.0.send_replace(true);
    }

    /// Whether a stop was asked for.
    pub fn is_requested(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once a stop is asked for.
    pub async fn requested(&self) {
        let mut rx = self.0.subscribe();
        let _ = rx.wait_for(|asked| *asked).await;
    }
}

impl Services {
    /// Services over `node` with a fresh node identity.
    pub fn new(config: RpcConfig, node: Arc<Node>, cpu: CpuPool) -> Services {
        let identity = NodeIdentity::random();
        Services {
            config,
            cleaner: Arc::new(LedgerCleaner::new(node.clone())),
            stop: StopRequest::default(),
            node,
            cpu,
            keys: KeyCache::new(crate::limits::KEY_CACHE_ENTRIES_MAX),
            started: Instant::now(),
            node_public: identity.public_base58,
            host_name: identity.host_name,
            host_word: identity.host_word,
            votes: Arc::new(crate::rpc::amendments::VoteBook::in_memory(
                crate::ledger::rules::Votes::default(),
            )),
            rows: crate::render::rows::RowCache::new(crate::limits::RENDERED_ROWS_BYTES),
            places: crate::rpc::tx_places::PlacesCache::new(crate::limits::ACCOUNT_TX_PLACES_PAGES),
            read_cache: crate::rpc::read_cache::ReadCache::new(crate::limits::READ_NODE_TX_CACHE),
        }
    }

    /// Services over a fresh genesis ledger with no writer started (unit tests, benches).
    pub fn standalone(config: RpcConfig, cpu: CpuPool) -> Services {
        let mut cfg = LedgerConfig::default();
        cfg.apply.network_id = config.network_id.unwrap_or(0);
        let network_id = cfg.apply.network_id;
        let ledgers = Arc::new(Ledgers::genesis(cfg, ripple_now_secs() as u32));
        Services::new(config, Node::new(ledgers, network_id), cpu)
    }

    /// The ledgers (shorthand for `node.ledgers`).
    pub fn ledgers(&self) -> &Arc<Ledgers> {
        &self.node.ledgers
    }
}

/// The per-request context handed to every handler.
#[derive(Clone)]
pub struct Context {
    /// The caller's role.
    pub role: Role,
    /// The request's API version (1 or 2).
    pub api_version: u32,
    /// How the request arrived.
    pub transport: Transport,
    /// The WebSocket session the request came on (subscribe, unsubscribe); HTTP has none.
    pub session: Option<Arc<Session>>,
    /// The state every handler shares.
    pub services: Arc<Services>,
    /// What a secure gateway said of a PROXY or IDENTIFIED caller (`None` for others).
    pub forwarded: Option<Arc<Forwarded>>,
    /// Whether the reply is written by [`crate::rpc::raw`]'s writers (the WebSocket and
    /// HTTP transports), so a handler may return pre-rendered JSON.
    pub raw_json: bool,
}

impl Context {
    /// Whether the caller may sign with a server-side secret (admin, or `signing_support`).
    pub fn may_sign(&self) -> bool {
        self.role == Role::Admin || self.services.config.signing_support
    }
}
