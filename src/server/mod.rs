//! Listeners, WebSocket and HTTP transports, roles and shutdown.
//!
//! `serve` binds every configured port, then each accepted connection is served by
//! [`http::serve`] (JSON-RPC, the health page, and the WebSocket upgrade into [`ws::run`]).

pub mod client;
pub mod config;
pub mod cpu_pool;
pub mod http;
pub mod listener;
pub mod resource;
pub mod role;
pub mod shutdown;
pub mod tls;
pub mod ws;

use crate::limits::{CPU_QUEUE_JOBS_MAX, SHUTDOWN_GRACE_SECS};
use crate::rpc::context::ServerState;
use config::{PortConfig, ServerConfig};
use cpu_pool::CpuPool;
use role::Role;
use shutdown::Shutdown;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::OwnedSemaphorePermit;

/// What every request on one connection shares.
pub struct Connection {
    /// The client's address.
    pub peer: SocketAddr,
    /// The role the client's address earns on this port (its admin networks). With
    /// `admin_user`/`admin_password` configured, each request must also carry them: see
    /// [`Connection::role_for`].
    pub role: Role,
    /// The port it connected to.
    pub port: Arc<PortConfig>,
    /// The server.
    pub state: Arc<ServerState>,
    /// Holds one of the port's connection slots until the connection (and its WebSocket
    /// session, if upgraded) is gone.
    pub _permit: OwnedSemaphorePermit,
}

impl Connection {
    /// The caller's role for one request (rippled `requestRole`): admin when the address is
    /// in the port's admin networks and, if the port sets admin credentials, the request's
    /// `admin_user` and `admin_password` strings equal them.
    pub fn role_for(&self, request: &crate::rpc::Params) -> Role {
        if self.role != Role::Admin {
            return Role::User;
        }
        match &self.port.admin_credentials {
            None => Role::Admin,
            Some((user, password)) => {
                let field = |name| request.get(name).and_then(serde_json::Value::as_str);
                if field("admin_user") == Some(user.as_str())
                    && field("admin_password") == Some(password.as_str())
                {
                    Role::Admin
                } else {
                    Role::User
                }
            }
        }
    }

    /// Charge a caller with `role` the `cost` (admins are never charged) and say what its
    /// balance means.
    pub fn charge(&self, role: Role, cost: u32) -> resource::Disposition {
        if role == Role::Admin {
            resource::Disposition::Ok
        } else {
            self.state.resources.charge(self.peer.ip(), cost)
        }
    }
}

/// A server whose ports are bound and whose accept loops are running.
pub struct Running {
    /// Shared state (the ledger side publishes status through it).
    pub state: Arc<ServerState>,
    /// `(port name, bound address)` for each port.
    pub addrs: Vec<(String, SocketAddr)>,
    shutdown: Shutdown,
    node: crate::node::NodeTasks,
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

/// Bind every port of `config` and start accepting. Ports bound to port 0 report the
/// address they got in [`Running::addrs`] (and in server_info).
pub async fn start(mut config: ServerConfig) -> Result<Running, String> {
    let mut listeners = Vec::with_capacity(config.ports.len());
    let mut acceptors = Vec::with_capacity(config.ports.len());
    for port in &mut config.ports {
        let acceptor = match &port.tls {
            Some(files) => Some(tls::acceptor(files).map_err(|e| format!("[{}] {e}", port.name))?),
            None => None,
        };
        let listener = TcpListener::bind(port.bind)
            .await
            .map_err(|e| format!("[{}] cannot listen on {}: {e}", port.name, port.bind))?;
        port.bind = listener.local_addr().map_err(|e| e.to_string())?;
        listeners.push(listener);
        acceptors.push(acceptor);
    }
    let cpu = match config.cpu_threads {
        Some(n) => CpuPool::new(n, CPU_QUEUE_JOBS_MAX),
        None => CpuPool::per_core(CPU_QUEUE_JOBS_MAX),
    }
    .map_err(|e| format!("CPU pool: {e}"))?;
    let mut ledger_cfg = crate::ledger::store::LedgerConfig::default();
    ledger_cfg.apply.network_id = config.network_id.unwrap_or(0);
    let (persistence, ledgers) = match (&config.data_dir, config.ephemeral) {
        (Some(dir), false) => crate::node::persist::Persistence::open(dir, ledger_cfg)
            .map_err(|e| format!("data directory {}: {e}", dir.display()))?,
        _ => crate::node::persist::Persistence::ephemeral(ledger_cfg),
    };
    let state = Arc::new(ServerState::with_ledgers(config, cpu, ledgers));
    let node = crate::node::start(&state, persistence)?;
    let shutdown = Shutdown::new();
    let mut addrs = Vec::new();
    for ((listener, acceptor), port) in listeners
        .into_iter()
        .zip(acceptors)
        .zip(state.config.ports.iter())
    {
        let port = Arc::new(port.clone());
        addrs.push((port.name.clone(), port.bind));
        tokio::spawn(listener::accept_loop(
            listener,
            port,
            state.clone(),
            acceptor,
            shutdown.signal(),
        ));
    }
    Ok(Running {
        state,
        addrs,
        shutdown,
        node,
    })
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
