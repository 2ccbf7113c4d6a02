//! `get_counts` (rippled `GetCounts.cpp`): admin; what the server holds, counted, in
//! rippled's shape, with ledgerd's own numbers:
//! - objects counted at least `min_count` times (default 10): `Ledger` (closed ledgers
//!   memory holds), `STLedgerEntry` (decoded ledger entries cached), `Transaction` (in the
//!   open ledger), `InfoSub` (WebSocket sessions that subscribed);
//! - `dbKBTotal`, when known and not 0: the history database's size on disk (rippled
//!   reports the memory SQLite uses, which ledgerd cannot read); `local_txs`: transactions
//!   held for the next ledger, when there are any;
//! - `write_load`: journal records waiting for their group commit; `node_writes`,
//!   `node_written_bytes`: the journal's records and bytes written (ledgerd's node store);
//!   `node_reads_*`, `read_*`: 0, the journal is read only at start;
//! - `historical_perminute`: 0, ledgerd fetches no ledgers; the caches rippled reports
//!   (`SLE_hit_rate`, `ledger_hit_rate`, `AL_size`, `AL_hit_rate`, `fullbelow_size`,
//!   `treenode_cache_size`, `treenode_track_size`) ledgerd does not have: 0;
//! - `uptime`: rippled's text ("1 hour, 5 minutes, 3 seconds"; empty in the first second).

use crate::limits::GET_COUNTS_MIN_DEFAULT;
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::params::lenient_uint;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer the counts.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let min = match params.get("min_count") {
        None => GET_COUNTS_MIN_DEFAULT,
        Some(v) => u64::from(lenient_uint(v).ok_or_else(|| RpcError::invalid_field("min_count"))?),
    };
    let mut out = Map::new();
    for (name, count) in object_counts(ctx) {
        if count >= min {
            out.insert(name.into(), Value::from(count));
        }
    }
    insert_store(ctx, &mut out);
    for absent in [
        "historical_perminute",
        "SLE_hit_rate",
        "ledger_hit_rate",
        "AL_size",
        "AL_hit_rate",
        "fullbelow_size",
        "treenode_cache_size",
        "treenode_track_size",
        "read_queue",
        "read_threads_total",
        "read_threads_running",
    ] {
        out.insert(absent.into(), Value::from(0));
    }
    out.insert(
        "uptime".into(),
        Value::from(uptime_text(ctx.services.started.elapsed().as_secs())),
    );
    out.sort_keys();
    Ok(out)
}

/// The objects counted.
fn object_counts(ctx: &Context) -> [(&'static str, u64); 4] {
    let node = &ctx.services.node;
    let memory = node.ledgers.counts();
    [
        ("Ledger", memory.closed_ledgers as u64),
        ("STLedgerEntry", memory.decoded_entries as u64),
        ("Transaction", node.ledgers.open_txs().len() as u64),
        ("InfoSub", node.subscriptions.len() as u64),
    ]
}

/// The history database's size, the held transactions and the journal's counters.
fn insert_store(ctx: &Context, out: &mut Map<String, Value>) {
    let node = &ctx.services.node;
    if let Ok(Some(kib)) = node.history.store.size_kib() {
        if kib > 0 {
            out.insert("dbKBTotal".into(), Value::from(kib));
        }
    }
    let held = node.ledgers.held().len();
    if held > 0 {
        out.insert("local_txs".into(), Value::from(held));
    }
    let journal = node
        .writer()
        .map(|w| w.persistence.stats_json())
        .unwrap_or(Value::Null);
    let read = |k: &str| journal.get(k).and_then(Value::as_u64).unwrap_or(0);
    out.insert("write_load".into(), Value::from(read("queued_records")));
    out.insert("node_writes".into(), Value::from(read("records").to_string()));
    out.insert("node_written_bytes".into(), Value::from(read("bytes").to_string()));
    for k in ["node_reads_total", "node_reads_hit", "node_read_bytes", "node_reads_duration_us"] {
        out.insert(k.into(), Value::from("0"));
    }
}

/// rippled's `textTime` chain: years (365 days), days, hours, minutes, seconds, each only
/// when not 0, plural past 1, joined by ", ".
fn uptime_text(mut secs: u64) -> String {
    let mut parts = Vec::new();
    for (unit, size) in [
        ("year", 365 * 86_400),
        ("day", 86_400),
        ("hour", 3_600),
        ("minute", 60),
        ("second", 1),
    ] {
        let n = secs / size;
        if n == 0 {
            continue;
        }
        secs -= n * size;
        let plural = if n > 1 { "s" } else { "" };
        parts.push(format!("{n} {unit}{plural}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::uptime_text;

    #[test]
    fn uptime_reads_as_rippled_writes_it() {
        assert_eq!(uptime_text(0), "");
        assert_eq!(uptime_text(1), "1 second");
        assert_eq!(uptime_text(3_723), "1 hour, 2 minutes, 3 seconds");
        assert_eq!(uptime_text(366 * 86_400 + 60), "1 year, 1 day, 1 minute");
    }
}
