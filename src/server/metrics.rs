//! `GET /metrics` on a port: the Prometheus text of [`crate::metrics`], for callers whose
//! address is in the port's admin networks (others get 403). The readings that are not
//! counts (CPU-pool queue depth, subscribers by stream) are taken now.

use crate::rpc::role::Role;
use crate::server::Connection;

/// The path the page is served on.
pub const PATH: &str = "/metrics";

/// The page for `conn`'s caller; `None` when the caller is not admin.
pub fn page(conn: &Connection) -> Option<String> {
    if conn.role != Role::Admin {
        return None;
    }
    let services = &conn.state.services;
    let m = crate::metrics::get();
    m.cpu_queue
        .set(i64::try_from(services.cpu.queued()).unwrap_or(i64::MAX));
    for (stream, n) in services.node.subscriptions.counts_by_stream() {
        m.subscribers
            .with_label_values(&[stream])
            .set(i64::try_from(n).unwrap_or(i64::MAX));
    }
    Some(crate::metrics::render())
}
