//! What the server counts for operators, served as Prometheus text on admin ports
//! (`GET /metrics`, see `server/http.rs`).
//!
//! One process-wide set of collectors ([`get`]), fed where things happen: connections by port
//! (the listener), requests and errors by method (`rpc::execute`), journal fsync latency (the
//! store), ledger close duration and applied transactions (the node). Gauges that are a
//! reading rather than a count (CPU-pool queue depth, subscribers by stream) are set when the
//! page is rendered. Like `limits`, this module sits below every layer and imports none.

use prometheus::{
    exponential_buckets, Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};
use std::sync::LazyLock;

/// The collectors.
pub struct Metrics {
    registry: Registry,
    /// `ledgerd_connections{port}`: open connections per configured port.
    pub connections: IntGaugeVec,
    /// `ledgerd_connections_refused_total{port,reason}`: connections answered 503 or dropped.
    pub refused: IntCounterVec,
    /// `ledgerd_requests_total{method}`: requests answered, by method.
    pub requests: IntCounterVec,
    /// `ledgerd_request_errors_total{method,error}`: requests answered with an error.
    pub errors: IntCounterVec,
    /// `ledgerd_cpu_queue_jobs`: jobs waiting for the CPU pool (read when rendered).
    pub cpu_queue: IntGauge,
    /// `ledgerd_journal_fsync_seconds`: time of each journal group commit's fsync.
    pub fsync: Histogram,
    /// `ledgerd_ledger_close_seconds`: time to close a ledger (apply to header and hashes).
    pub close: Histogram,
    /// `ledgerd_transactions_applied_total`: transactions applied to the open ledger
    /// (`rate()` of it is applied tx/s).
    pub applied: IntCounter,
    /// `ledgerd_subscribers{stream}`: sessions subscribed, by stream (read when rendered).
    pub subscribers: IntGaugeVec,
    /// `ledgerd_explorer_files_total{file}`: explorer files served (`page` is a page view).
    pub explorer_files: IntCounterVec,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// The process's collectors.
pub fn get() -> &'static Metrics {
    &METRICS
}

/// Everything as Prometheus text (exposition format 0.0.4).
pub fn render() -> String {
    let mut out = Vec::new();
    // Encoding registered collectors into a Vec cannot fail.
    let _ = TextEncoder::new().encode(&get().registry.gather(), &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4";

fn opts(name: &str, help: &str) -> Opts {
    Opts::new(name, help).namespace("ledgerd")
}

fn seconds(name: &str, help: &str, start: f64) -> Histogram {
    let buckets = exponential_buckets(start, 2.0, 16).unwrap_or_default();
    Histogram::with_opts(
        HistogramOpts::new(name, help)
            .namespace("ledgerd")
            .buckets(buckets),
    )
    .expect("valid histogram")
}

impl Metrics {
    fn new() -> Metrics {
        let m = Metrics {
            registry: Registry::new(),
            connections: IntGaugeVec::new(opts("connections", "Open connections"), &["port"])
                .expect("valid"),
            refused: IntCounterVec::new(
                opts("connections_refused_total", "Connections refused"),
                &["port", "reason"],
            )
            .expect("valid"),
            requests: IntCounterVec::new(opts("requests_total", "Requests answered"), &["method"])
                .expect("valid"),
            errors: IntCounterVec::new(
                opts("request_errors_total", "Requests answered with an error"),
                &["method", "error"],
            )
            .expect("valid"),
            cpu_queue: IntGauge::with_opts(opts("cpu_queue_jobs", "Jobs waiting for the CPU pool"))
                .expect("valid"),
            fsync: seconds("journal_fsync_seconds", "Journal fsync time", 0.000_05),
            close: seconds("ledger_close_seconds", "Ledger close time", 0.000_1),
            applied: IntCounter::with_opts(opts(
                "transactions_applied_total",
                "Transactions applied to the open ledger",
            ))
            .expect("valid"),
            subscribers: IntGaugeVec::new(opts("subscribers", "Subscribed sessions"), &["stream"])
                .expect("valid"),
            explorer_files: IntCounterVec::new(
                opts("explorer_files_total", "Explorer files served"),
                &["file"],
            )
            .expect("valid"),
        };
        m.register_all();
        m
    }

    fn register_all(&self) {
        let r = &self.registry;
        let all: [Box<dyn prometheus::core::Collector>; 10] = [
            Box::new(self.connections.clone()),
            Box::new(self.refused.clone()),
            Box::new(self.requests.clone()),
            Box::new(self.errors.clone()),
            Box::new(self.cpu_queue.clone()),
            Box::new(self.fsync.clone()),
            Box::new(self.close.clone()),
            Box::new(self.applied.clone()),
            Box::new(self.subscribers.clone()),
            Box::new(self.explorer_files.clone()),
        ];
        for c in all {
            r.register(c).expect("distinct metric names");
        }
    }

    /// Count one answered request of `method`, and its error token if it failed.
    pub fn request(&self, method: &str, error: Option<&str>) {
        self.requests.with_label_values(&[method]).inc();
        if let Some(e) = error {
            self.errors.with_label_values(&[method, e]).inc();
        }
    }
}

/// One open connection of a port, counted in `ledgerd_connections` while it lives.
pub struct OpenConnection {
    gauge: IntGauge,
}

impl OpenConnection {
    /// Count a connection on the port called `port`.
    pub fn new(port: &str) -> OpenConnection {
        let gauge = get().connections.with_label_values(&[port]);
        gauge.inc();
        OpenConnection { gauge }
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.gauge.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_show_in_the_text() {
        get().request("ping", None);
        get().request("ledger_entry", Some("entryNotFound"));
        let open = OpenConnection::new("unit");
        let text = render();
        assert!(
            text.contains("ledgerd_requests_total{method=\"ping\"}"),
            "{text}"
        );
        assert!(text.contains(
            "ledgerd_request_errors_total{error=\"entryNotFound\",method=\"ledger_entry\"}"
        ));
        assert!(
            text.contains("ledgerd_connections{port=\"unit\"} 1"),
            "{text}"
        );
        drop(open);
        assert!(render().contains("ledgerd_connections{port=\"unit\"} 0"));
    }
}
