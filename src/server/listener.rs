//! Accepting connections on one port: a semaphore caps them (excess connections are closed
//! at once, as rippled drops them), TLS is negotiated within the handshake timeout, and each
//! connection gets its own task.

use crate::limits::HANDSHAKE_TIMEOUT_SECS;
use crate::server::config::PortConfig;
use crate::server::role::role_for;
use crate::server::shutdown::ShutdownSignal;
use crate::server::Shared;
use crate::server::{http, Connection};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

/// Accept connections on `listener` until shutdown.
pub async fn accept_loop(
    listener: TcpListener,
    port: Arc<PortConfig>,
    state: Arc<Shared>,
    tls: Option<TlsAcceptor>,
    mut shutdown: ShutdownSignal,
) {
    let slots = Arc::new(Semaphore::new(port.limit));
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
        let Ok(permit) = slots.clone().try_acquire_owned() else {
            tracing::warn!(port = %port.name, %peer, "connection limit reached, dropping");
            drop(socket);
            continue;
        };
        let _ = socket.set_nodelay(true);
        let conn = Arc::new(Connection {
            peer,
            role: role_for(peer.ip(), &port.admin),
            port: port.clone(),
            state: state.clone(),
            _permit: permit,
        });
        let tls = tls.clone();
        let signal = shutdown.clone();
        tokio::spawn(async move {
            match tls {
                None => http::serve(socket, conn, signal).await,
                Some(acceptor) => {
                    let handshake = tokio::time::timeout(
                        Duration::from_secs(HANDSHAKE_TIMEOUT_SECS),
                        acceptor.accept(socket),
                    )
                    .await;
                    match handshake {
                        Ok(Ok(stream)) => http::serve(stream, conn, signal).await,
                        Ok(Err(e)) => tracing::debug!(%peer, "TLS handshake failed: {e}"),
                        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                    }
                }
            }
        });
    }
}
