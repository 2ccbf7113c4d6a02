//! Accepting connections on one port: the port's `limit` (none by default, as rippled's: the
//! process's file limit bounds them) caps them, its `ip_limit` caps those of one address;
//! a connection beyond either is answered 503 with the reason, then closed (at most
//! [`CONNECTION_REFUSALS_IN_FLIGHT_MAX`] such answers at once; beyond that it is closed at
//! accept). TLS is negotiated within the handshake timeout, and each connection gets its
//! own task.

use crate::limits::{CONNECTION_REFUSALS_IN_FLIGHT_MAX, HANDSHAKE_TIMEOUT_SECS};
use crate::metrics::OpenConnection;
use crate::server::config::PortConfig;
use crate::server::role::role_for;
use crate::server::shutdown::ShutdownSignal;
use crate::server::Shared;
use crate::server::{http, Connection};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_rustls::TlsAcceptor;

/// The body of the 503 a connection beyond the port's `ip_limit` gets.
pub const IP_LIMIT_REASON: &str = "Server is overloaded: too many connections from your address";

/// The body of the 503 a connection beyond the port's `limit` gets.
pub const PORT_LIMIT_REASON: &str = "Server is overloaded: too many connections on this port";

/// Open connections per client address on one port with an `ip_limit`.
pub struct AddressCounts {
    counts: Mutex<HashMap<IpAddr, usize>>,
    limit: usize,
}

/// One of an address's connection slots on a port, given back when dropped (when the
/// connection, and its WebSocket session if it upgraded, are gone).
pub struct IpSlot {
    counts: Arc<AddressCounts>,
    ip: IpAddr,
}

impl AddressCounts {
    /// Counts for a port allowing `limit` connections per address; `None` for 0 (no limit).
    pub fn for_limit(limit: usize) -> Option<Arc<AddressCounts>> {
        (limit > 0).then(|| {
            Arc::new(AddressCounts {
                counts: Mutex::new(HashMap::new()),
                limit,
            })
        })
    }

    /// A slot for `ip`, or `None` when it already has `limit` connections.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Option<IpSlot> {
        let ip = ip.to_canonical();
        let mut counts = self.counts.lock();
        let n = counts.entry(ip).or_insert(0);
        if *n >= self.limit {
            return None;
        }
        *n += 1;
        Some(IpSlot {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.counts.lock();
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// What an accepted connection gets.
enum Admission {
    /// Served, holding its address's slot (if the port counts them).
    Serve(Arc<Connection>, Option<IpSlot>),
    /// Beyond the port's `limit` or its address's `ip_limit`: answered 503 with the reason
    /// (holding a port or refusal slot while it is), then closed.
    Refuse(&'static str, Option<OwnedSemaphorePermit>),
}

/// A port's connection bounds.
struct Gate {
    port: Arc<PortConfig>,
    state: Arc<Shared>,
    /// The port's `limit`, if it has one.
    slots: Option<Arc<Semaphore>>,
    /// The 503 answers being written to connections beyond `limit`.
    refusals: Arc<Semaphore>,
    per_address: Option<Arc<AddressCounts>>,
}

impl Gate {
    fn new(port: Arc<PortConfig>, state: Arc<Shared>) -> Gate {
        Gate {
            slots: (port.limit > 0).then(|| Arc::new(Semaphore::new(port.limit))),
            refusals: Arc::new(Semaphore::new(CONNECTION_REFUSALS_IN_FLIGHT_MAX)),
            per_address: AddressCounts::for_limit(port.ip_limit),
            port,
            state,
        }
    }

    /// What `peer` gets; `None`: closed at once (too many refusals in flight already).
    fn admit(&self, peer: SocketAddr) -> Option<Admission> {
        let refused = |reason: &'static str| {
            crate::metrics::get()
                .refused
                .with_label_values(&[&self.port.name, reason])
                .inc();
        };
        let permit = match &self.slots {
            None => None,
            Some(slots) => match slots.clone().try_acquire_owned() {
                Ok(p) => Some(p),
                Err(_) => {
                    let Ok(refusal) = self.refusals.clone().try_acquire_owned() else {
                        tracing::warn!(port = %self.port.name, %peer, "limit reached, dropping");
                        refused("dropped");
                        return None;
                    };
                    tracing::info!(port = %self.port.name, %peer, "limit reached, refusing");
                    refused("limit");
                    return Some(Admission::Refuse(PORT_LIMIT_REASON, Some(refusal)));
                }
            },
        };
        match self.per_address.as_ref().map(|c| c.take(peer.ip())) {
            Some(None) => {
                tracing::info!(port = %self.port.name, %peer, "ip_limit reached, refusing");
                refused("ip_limit");
                Some(Admission::Refuse(IP_LIMIT_REASON, permit))
            }
            slot => Some(Admission::Serve(
                Arc::new(Connection {
                    peer,
                    role: role_for(peer.ip(), &self.port.admin),
                    port: self.port.clone(),
                    state: self.state.clone(),
                    _permit: permit,
                    _open: OpenConnection::new(&self.port.name),
                }),
                slot.flatten(),
            )),
        }
    }
}

/// Accept connections on `listener` until shutdown.
pub async fn accept_loop(
    listener: TcpListener,
    port: Arc<PortConfig>,
    state: Arc<Shared>,
    tls: Option<TlsAcceptor>,
    mut shutdown: ShutdownSignal,
) {
    let gate = Gate::new(port.clone(), state);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = shutdown.recv() => break,
        };
        let (socket, peer) = match accepted {
            Ok(x) => x,
            Err(e) => {
                // Usually out of file descriptors: back off instead of spinning.
                tracing::warn!(port = %port.name, "accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(admission) = gate.admit(peer) else {
            drop(socket);
            continue;
        };
        let _ = socket.set_nodelay(true);
        tokio::spawn(start(
            socket,
            peer,
            tls.clone().map(|t| (t, port.plain_too)),
            admission,
            shutdown.clone(),
        ));
    }
}

/// The first byte of a TLS connection: a handshake record (RFC 8446 5.1).
const TLS_HANDSHAKE_RECORD: u8 = 0x16;

/// Whether a connection to a port serving TLS and plain text alike starts a TLS handshake
/// (xrpld's universal ports look at the first bytes the same way); `None`: the client
/// sent nothing within the handshake timeout, or went away.
async fn starts_tls(socket: &TcpStream) -> Option<bool> {
    let mut first = [0u8; 1];
    let peeked = tokio::time::timeout(
        Duration::from_secs(HANDSHAKE_TIMEOUT_SECS),
        socket.peek(&mut first),
    )
    .await;
    match peeked {
        Ok(Ok(1)) => Some(first[0] == TLS_HANDSHAKE_RECORD),
        _ => None,
    }
}

/// Negotiates TLS if the port has it (and, on a port serving plain text too, the client
/// starts a handshake), then serves or refuses the connection.
async fn start(
    socket: TcpStream,
    peer: SocketAddr,
    tls: Option<(TlsAcceptor, bool)>,
    admission: Admission,
    signal: ShutdownSignal,
) {
    let acceptor = match tls {
        None => return run(socket, admission, signal).await,
        Some((acceptor, false)) => acceptor,
        Some((acceptor, true)) => match starts_tls(&socket).await {
            Some(true) => acceptor,
            Some(false) => return run(socket, admission, signal).await,
            None => return tracing::debug!(%peer, "nothing received before the handshake timeout"),
        },
    };
    let handshake = tokio::time::timeout(
        Duration::from_secs(HANDSHAKE_TIMEOUT_SECS),
        acceptor.accept(socket),
    )
    .await;
    match handshake {
        Ok(Ok(stream)) => run(stream, admission, signal).await,
        Ok(Err(e)) => tracing::debug!(%peer, "TLS handshake failed: {e}"),
        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
    }
}

async fn run<IO>(io: IO, admission: Admission, signal: ShutdownSignal)
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    match admission {
        Admission::Serve(conn, slot) => http::serve(io, conn, slot, signal).await,
        Admission::Refuse(reason, permit) => {
            http::refuse(io, reason).await;
            drop(permit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_get_ip_limit_slots_each_and_get_them_back() {
        assert!(AddressCounts::for_limit(0).is_none());
        let counts = AddressCounts::for_limit(2).unwrap();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        let first = counts.take(a).expect("first");
        let second = counts.take(mapped).expect("second (the same address)");
        assert!(counts.take(a).is_none());
        assert!(counts.take("10.0.0.2".parse().unwrap()).is_some());
        drop(first);
        let third = counts.take(a).expect("a slot came back");
        drop((second, third));
        assert!(counts.counts.lock().is_empty());
    }
}
