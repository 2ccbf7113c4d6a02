//! Listeners, WebSocket and HTTP transports, admin networks, load accounting and shutdown.
//!
//! [`bind`] binds every configured port and [`accept_all`] starts their accept loops; each
//! accepted connection is served by [`http::serve`] (JSON-RPC, the health page, and the
//! WebSocket upgrade into [`ws::run`]). The wiring of the whole server is `crate::app`.

pub mod budget;
pub mod charge;
pub mod client;
pub mod config;
pub mod explorer;
pub mod faucet;
pub mod files;
pub mod http;
pub mod listener;
pub mod metrics;
pub mod resource;
pub mod role;
pub mod shutdown;
pub mod stall;
pub mod tls;
pub mod ws;
pub mod xrpld_cfg;

use crate::rpc::context::Services;
use crate::rpc::role::{Forwarded, Role};
use config::{PortConfig, ServerConfig, TlsSource};
use role::Payer;
use shutdown::ShutdownSignal;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::OwnedSemaphorePermit;
use tokio_rustls::TlsAcceptor;

/// What every connection of every port shares.
pub struct Shared {
    /// The configuration the server runs with (ports, limits, credentials).
    pub config: ServerConfig,
    /// What the handlers share (the node, the CPU pool, ...).
    pub services: Arc<Services>,
    /// Per-client-address load accounting (non-admin clients).
    pub resources: resource::ResourceManager,
    /// Memory reserved by HTTP request bodies still arriving
    /// ([`HTTP_BODIES_BYTES_MAX`](crate::limits::HTTP_BODIES_BYTES_MAX)).
    pub bodies: Arc<budget::InputBudget>,
    /// The development faucet (`POST /accounts`) and its callers' buckets.
    pub faucet: faucet::Faucet,
}

impl Shared {
    /// The transports' state over `services`.
    pub fn new(config: ServerConfig, services: Arc<Services>) -> Shared {
        let faucet = match &config.faucet_key {
            Some(key) => faucet::Faucet::new(key.clone()),
            None => faucet::Faucet::genesis(),
        };
        Shared {
            config,
            services,
            resources: resource::ResourceManager::new(),
            bodies: budget::InputBudget::new(crate::limits::HTTP_BODIES_BYTES_MAX),
            faucet,
        }
    }
}

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
    /// What every connection shares.
    pub state: Arc<Shared>,
    /// Holds one of the port's connection slots (when it has a `limit`) until the
    /// connection (and its WebSocket session, if upgraded) is gone.
    pub _permit: Option<OwnedSemaphorePermit>,
    /// Counts the connection in `ledgerd_connections` while it lives.
    pub _open: crate::metrics::OpenConnection,
}

impl Connection {
    /// The caller's role for one request (rippled `requestRole`): admin when the address is
    /// in the port's admin networks and, if the port sets admin credentials, the request's
    /// `admin_user` and `admin_password` strings equal them, unless it comes from a web
    /// page of another site ([`role::from_another_site`]); else PROXY or IDENTIFIED when
    /// a secure gateway said something of it, else a guest.
    pub fn role_for(&self, request: &crate::rpc::Params, caller: &Caller) -> Role {
        if !caller.another_site && self.is_admin(request) {
            Role::Admin
        } else {
            role::non_admin_role(caller.said.as_deref())
        }
    }

    fn is_admin(&self, request: &crate::rpc::Params) -> bool {
        if self.role != Role::Admin {
            return false;
        }
        match &self.port.admin_credentials {
            None => true,
            Some((user, password)) => {
                let field = |name| request.get(name).and_then(serde_json::Value::as_str);
                field("admin_user") == Some(user.as_str())
                    && field("admin_password") == Some(password.as_str())
            }
        }
    }

    /// What the requests carrying `headers` (an HTTP request, or a WebSocket session's
    /// opening request) say of their caller: see [`role::gateway_says`] and
    /// [`role::payer_of`].
    pub fn caller(&self, headers: &hyper::HeaderMap) -> Caller {
        let peer = self.peer.ip();
        let said = role::gateway_says(peer, &self.port.secure_gateway, headers);
        Caller {
            payer: role::payer_of(peer, said.as_ref()),
            said: said.map(Arc::new),
            another_site: role::from_another_site(headers),
        }
    }

    /// Charge a caller with `role` the `cost` to `payer` (admins and unlimited callers are
    /// never charged) and say what the balance means.
    pub fn charge(&self, role: Role, payer: Payer, cost: u32) -> resource::Disposition {
        match (role, payer) {
            (Role::Admin, _) | (_, Payer::Unlimited) => resource::Disposition::Ok,
            (_, Payer::Address(ip)) => self.state.resources.charge(ip, cost),
        }
    }

    /// Whether a caller with `role` charged to `payer` is cut off already (its balance is
    /// past the drop level): its request is refused before it is read further.
    pub fn cut_off(&self, role: Role, payer: Payer) -> bool {
        match (role, payer) {
            (Role::Admin, _) | (_, Payer::Unlimited) => false,
            (_, Payer::Address(ip)) => {
                self.state.resources.disposition(ip) == resource::Disposition::Drop
            }
        }
    }
}

/// What a request's headers say of its caller: what a secure gateway said of it (`None`
/// when the caller is no gateway) and whom its load is charged to.
#[derive(Clone, Debug)]
pub struct Caller {
    /// What a secure gateway said of its client.
    pub said: Option<Arc<Forwarded>>,
    /// Whom the load is charged to.
    pub payer: Payer,
    /// The request comes from a web page of another site: never admin.
    pub another_site: bool,
}

impl Caller {
    /// What the handlers of a request with `role` are told of the gateway's words: only
    /// PROXY and IDENTIFIED callers' (rippled clears them for everyone else).
    pub fn forwarded(&self, role: Role) -> Option<Arc<Forwarded>> {
        match role {
            Role::Proxy | Role::Identified => self.said.clone(),
            Role::User | Role::Admin => None,
        }
    }
}

/// A port that is bound and ready to accept: its listener and TLS acceptor.
pub struct Bound {
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
}

/// Bind every port of `config`. Ports bound to port 0 get the address they were given
/// written back into `config` (server_info and `Running::addrs` report it).
pub async fn bind(config: &mut ServerConfig) -> Result<Vec<Bound>, String> {
    let mut bound = Vec::with_capacity(config.ports.len());
    // One certificate made for every port that names none, as xrpld makes one per process.
    let mut made: Option<TlsAcceptor> = None;
    for port in &mut config.ports {
        let tls = match &port.tls {
            Some(TlsSource::Files(files)) => {
                Some(tls::acceptor(files).map_err(|e| format!("[{}] {e}", port.name))?)
            }
            Some(TlsSource::SelfSigned) => {
                if made.is_none() {
                    made = Some(tls::self_signed()?);
                }
                tracing::info!(
                    port = %port.name,
                    "no certificate files: serving TLS with a self-signed certificate made at start"
                );
                made.clone()
            }
            None => None,
        };
        let listener = TcpListener::bind(port.bind)
            .await
            .map_err(|e| format!("[{}] cannot listen on {}: {e}", port.name, port.bind))?;
        port.bind = listener.local_addr().map_err(|e| e.to_string())?;
        bound.push(Bound { listener, tls });
    }
    Ok(bound)
}

/// Start accepting on every bound port (in the order of `shared.config.ports`) until
/// `shutdown`; returns `(port name, bound address)` for each.
pub fn accept_all(
    bound: Vec<Bound>,
    shared: &Arc<Shared>,
    shutdown: &shutdown::Shutdown,
) -> Vec<(String, SocketAddr)> {
    let mut addrs = Vec::with_capacity(bound.len());
    for (b, port) in bound.into_iter().zip(shared.config.ports.iter()) {
        let port = Arc::new(port.clone());
        addrs.push((port.name.clone(), port.bind));
        let signal: ShutdownSignal = shutdown.signal();
        tokio::spawn(listener::accept_loop(
            b.listener,
            port,
            shared.clone(),
            b.tls,
            signal,
        ));
    }
    addrs
}
