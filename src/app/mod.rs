//! The wiring: from a [`ServerConfig`] to a running server. It opens the data directory
//! (or an in-memory ledger), starts the node (the single writer, the close timer, the
//! publisher), builds the handlers' [`Services`] and the transports' [`Shared`] state, and
//! binds the ports. The only module that knows every layer; `main.rs` only parses the
//! command line and calls [`start`].

use crate::ledgers::{LedgerConfig, Ledgers};
use crate::limits::{CPU_QUEUE_JOBS_MAX, HISTORY_READERS, SHUTDOWN_GRACE_SECS};
use crate::node::history::History;
use crate::node::persist::{PersistOptions, Persistence};
use crate::node::{Node, NodeTasks};
use crate::rpc::context::{PortInfo, RpcConfig, Services};
use crate::rpc::cpu_pool::CpuPool;
use crate::server::config::ServerConfig;
use crate::server::shutdown::Shutdown;
use crate::server::Shared;
use crate::store::SqliteHistory;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Everything a running server is made of, from the bottom layer up.
pub struct ServerState {
    /// The ledgers, the writer, the status and the subscriptions.
    pub node: Arc<Node>,
    /// What the handlers share.
    pub services: Arc<Services>,
    /// What the transports share (the configuration as bound, load accounting).
    pub shared: Arc<Shared>,
}

impl ServerState {
    /// The ledgers (shorthand for `node.ledgers`).
    pub fn ledgers(&self) -> &Arc<Ledgers> {
        &self.node.ledgers
    }

    /// The configuration, with the addresses the ports were actually bound to.
    pub fn config(&self) -> &ServerConfig {
        &self.shared.config
    }
}

/// A server whose ports are bound and whose accept loops are running.
pub struct Running {
    /// The server's parts (tests read the ledgers and the status through it).
    pub state: Arc<ServerState>,
    /// `(port name, bound address)` for each port.
    pub addrs: Vec<(String, SocketAddr)>,
    /// Tells every connection to finish.
    pub shutdown: Shutdown,
    node: NodeTasks,
}

/// The I/O threads `ledgerd serve` runs without `--io-threads`: one per two cores, at least one.
/// Signing is the heavy work and has its own pool (one thread per core); per request the I/O
/// side costs a few microseconds, and more I/O threads than it needs only add thread wake-ups.
/// On 2 cores, one I/O thread served channel_authorize 10 to 15% faster than two, and reads
/// and submissions no slower (README, figures).
pub fn default_io_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get() / 2)
        .unwrap_or(1)
        .max(1)
}

/// Bind every port of `config`, open the ledgers, start the node and start accepting.
/// Ports bound to port 0 report the address they got in [`Running::addrs`] (and in
/// server_info).
pub async fn start(mut config: ServerConfig) -> Result<Running, String> {
    crate::server::files::raise();
    let bound = crate::server::bind(&mut config).await?;
    let cpu = cpu_pool(&config)?;
    let (persistence, ledgers) = open_ledgers(&config)?;
    let node = open_node(&config, ledgers)?;
    let services = Arc::new(Services::new(rpc_config(&config), node.clone(), cpu));
    let node_tasks = crate::node::start(&node, persistence, config.close_interval_secs)?;
    let shared = Arc::new(Shared::new(config, services.clone()));
    let shutdown = Shutdown::new();
    let addrs = crate::server::accept_all(bound, &shared, &shutdown);
    let state = Arc::new(ServerState {
        node,
        services,
        shared,
    });
    Ok(Running {
        state,
        addrs,
        shutdown,
        node: node_tasks,
    })
}

fn cpu_pool(config: &ServerConfig) -> Result<CpuPool, String> {
    match config.cpu_threads {
        Some(n) => CpuPool::new(n, CPU_QUEUE_JOBS_MAX),
        None => CpuPool::per_core(CPU_QUEUE_JOBS_MAX),
    }
    .map_err(|e| format!("CPU pool: {e}"))
}

/// The data directory's ledgers and journal, or an in-memory ledger (`--ephemeral`).
fn open_ledgers(config: &ServerConfig) -> Result<(Arc<Persistence>, Arc<Ledgers>), String> {
    let mut ledger_cfg = LedgerConfig::default();
    ledger_cfg.apply.network_id = config.network_id.unwrap_or(0);
    match (&config.data_dir, config.ephemeral) {
        (Some(dir), false) => {
            let options = PersistOptions {
                repair_journal: config.repair_journal,
                ..PersistOptions::default()
            };
            Persistence::open_with(dir, ledger_cfg, options)
                .map_err(|e| format!("data directory {}: {e}", dir.display()))
        }
        _ => Ok(Persistence::ephemeral(ledger_cfg)),
    }
}

/// The history database's file in the data directory.
pub const HISTORY_FILE: &str = "history.sqlite";

/// The node over `ledgers`, with the data directory's history database (`history.sqlite`)
/// or, for `--ephemeral`, an in-memory one bounded by
/// [`crate::limits::EPHEMERAL_HISTORY_LEDGERS_MAX`].
fn open_node(config: &ServerConfig, ledgers: Arc<Ledgers>) -> Result<Arc<Node>, String> {
    let network_id = config.network_id.unwrap_or(0);
    match (&config.data_dir, config.ephemeral) {
        (Some(dir), false) => {
            let path = dir.join(HISTORY_FILE);
            let store = SqliteHistory::open(&path, HISTORY_READERS).map_err(|e| e.to_string())?;
            let history = History {
                store: Arc::new(store),
                keep: config.online_delete,
            };
            let file = path.display().to_string();
            Node::with_history(ledgers, network_id, history, &file, config.repair_journal)
        }
        _ => Ok(Node::new(ledgers, network_id)),
    }
}

/// What the handlers need of the configuration.
pub fn rpc_config(config: &ServerConfig) -> RpcConfig {
    RpcConfig {
        network_id: config.network_id,
        signing_support: config.signing_support,
        ports: config
            .ports
            .iter()
            .map(|p| PortInfo {
                port: p.bind.port(),
                protocols: p.protocols.clone(),
                has_admin: !p.admin.is_empty(),
            })
            .collect(),
    }
}

impl Running {
    /// Stop accepting, tell every connection to finish, and wait for them (at most
    /// [`SHUTDOWN_GRACE_SECS`]).
    pub async fn stop(mut self) {
        self.shutdown.trigger();
        let grace = Duration::from_secs(SHUTDOWN_GRACE_SECS);
        if tokio::time::timeout(grace, self.shutdown.finished())
            .await
            .is_err()
        {
            tracing::warn!("connections still open after the shutdown grace period");
        }
        // Replies already owed are written; then the writer finishes what is queued.
        self.node.stop().await;
    }
}
