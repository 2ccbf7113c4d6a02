//! What a handler sees besides its parameters: who is calling, which API version, over which
//! transport, and the state shared by the whole server.
//!
//! Later handlers (submit, account_info, ...) reach the ledger and the sequencer through
//! [`ServerState`]; adding a field there changes no handler signature and no table row.

use crate::ledger::store::{LedgerConfig, LedgerStore};
use crate::rpc::ledger_status::{ripple_now_secs, LedgerStatus};
use crate::server::config::ServerConfig;
use crate::server::cpu_pool::CpuPool;
use crate::server::role::Role;
use parking_lot::RwLock;
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

/// State shared by every connection and handler.
pub struct ServerState {
    /// The configuration the server runs with.
    pub config: ServerConfig,
    /// The ledger snapshot; the ledger side replaces it after every close.
    ledger: RwLock<Arc<LedgerStatus>>,
    /// The ledgers themselves: the open ledger, closed history, reads by ledger. Writes
    /// (apply, close) go through the node's single writer, never through handlers directly.
    pub ledgers: Arc<LedgerStore>,
    /// Signing and verification run here, never on the I/O threads.
    pub cpu: CpuPool,
    /// Derived channel_authorize keys, bounded and zeroizing.
    pub keys: crate::rpc::key_cache::KeyCache,
    /// Per-client-address load accounting (non-admin clients).
    pub resources: crate::server::resource::ResourceManager,
    /// When the server started (server_info `uptime`).
    pub started: Instant,
    /// The node's public key, base58 `n...` (server_info `pubkey_node`).
    pub node_public: String,
    /// The host name admins see as server_info `hostid`.
    pub host_name: String,
    /// The one-word host id non-admins see (derived from the node key, as rippled does).
    pub host_word: String,
    /// The writer and the journal, once `server::start` (or a test) has started them.
    pub node: std::sync::OnceLock<Arc<crate::node::Node>>,
    /// Stream and account subscriptions of WebSocket sessions.
    pub subscriptions: Arc<crate::node::subscriptions::Subscriptions>,
}

impl ServerState {
    /// Shared state for `config`, with a fresh node identity and a standalone genesis status.
    pub fn new(config: ServerConfig, cpu: CpuPool) -> ServerState {
        let mut cfg = LedgerConfig::default();
        cfg.apply.network_id = config.network_id.unwrap_or(0);
        let ledgers = Arc::new(LedgerStore::genesis(cfg, ripple_now_secs() as u32));
        ServerState::with_ledgers(config, cpu, ledgers)
    }

    /// Shared state over an existing ledger store (one recovered from disk, say).
    pub fn with_ledgers(
        config: ServerConfig,
        cpu: CpuPool,
        ledgers: Arc<LedgerStore>,
    ) -> ServerState {
        let node = crate::rpc::node_identity::NodeIdentity::random();
        let status = LedgerStatus::from_store(&ledgers);
        ServerState {
            config,
            ledger: RwLock::new(Arc::new(status)),
            ledgers,
            cpu,
            keys: crate::rpc::key_cache::KeyCache::new(crate::limits::KEY_CACHE_ENTRIES_MAX),
            resources: crate::server::resource::ResourceManager::new(),
            started: Instant::now(),
            node_public: node.public_base58,
            host_name: node.host_name,
            host_word: node.host_word,
            node: std::sync::OnceLock::new(),
            subscriptions: Arc::new(crate::node::subscriptions::Subscriptions::new()),
        }
    }

    /// The current ledger snapshot (cheap: an `Arc` clone).
    pub fn ledger_status(&self) -> Arc<LedgerStatus> {
        self.ledger.read().clone()
    }

    /// The node (sequencer, persistence), if started.
    pub fn node(&self) -> Option<&Arc<crate::node::Node>> {
        self.node.get()
    }

    /// Publish a new ledger snapshot (called by the ledger side after each close).
    pub fn set_ledger_status(&self, status: LedgerStatus) {
        *self.ledger.write() = Arc::new(status);
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
    /// The whole server's state.
    pub server: Arc<ServerState>,
}

impl Context {
    /// Whether the caller may sign with a server-side secret (admin, or `signing_support`).
    pub fn may_sign(&self) -> bool {
        self.role == Role::Admin || self.server.config.signing_support
    }
}
