//! `server_info` (rippled `ServerInfo.cpp`, `NetworkOPs::getServerInfo`): the human form,
//! under `info`. Every field xrpl.js and xrpl-py read is present: `build_version`,
//! `complete_ledgers`, `network_id`, `server_state`, `load_factor` and
//! `validated_ledger.{seq, hash, age, base_fee_xrp, reserve_base_xrp, reserve_inc_xrp}`.
//! Admin callers also get `storage`, ledgerd's persistence health and journal counters.

use crate::rpc::context::Context;
use crate::rpc::ledger_status::{ripple_now_secs, LOAD_BASE, RIPPLE_EPOCH_OFFSET_SECS};
use crate::rpc::{HandlerResult, Params};
use crate::server::role::Role;
use serde_json::{Map, Number, Value};

/// The version string reported as `build_version`.
pub const BUILD_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Drops per XRP.
const DROPS_PER_XRP: f64 = 1_000_000.0;

/// Which of rippled's two renderings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// server_info: XRP amounts, ratios, seconds.
    Human,
    /// server_state: drops, integers over `load_base`, milliseconds.
    Machine,
}

/// Answer `{"info": {...}}`.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let mut result = Map::new();
    result.insert("info".into(), Value::Object(info(ctx, params, Form::Human)));
    Ok(result)
}

/// A number the way rippled's JSON writer prints a double: integral values without a
/// fraction.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        Number::from_f64(x)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// The body shared by server_info and server_state.
pub fn info(ctx: &Context, _params: &Params, form: Form) -> Map<String, Value> {
    let server = &ctx.server;
    let status = server.ledger_status();
    let admin = ctx.role == Role::Admin;
    let human = form == Form::Human;
    let now = ripple_now_secs();
    let uptime = server.started.elapsed();
    let mut info = Map::new();

    info.insert("build_version".into(), Value::from(BUILD_VERSION));
    let (lo, hi) = server.ledgers.complete_range();
    let complete = match (lo, hi) {
        (0, _) | (_, 0) => "empty".to_string(),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}-{b}"),
    };
    info.insert("complete_ledgers".into(), Value::from(complete));
    if human {
        let host = if admin {
            &server.host_name
        } else {
            &server.host_word
        };
        info.insert("hostid".into(), Value::from(host.as_str()));
    }
    info.insert("io_latency_ms".into(), Value::from(1));
    info.insert("jq_trans_overflow".into(), Value::from("0"));

    let mut last_close = Map::new();
    if human {
        last_close.insert(
            "converge_time_s".into(),
            number(status.last_close_converge_ms as f64 / 1000.0),
        );
    } else {
        last_close.insert(
            "converge_time".into(),
            Value::from(status.last_close_converge_ms),
        );
    }
    last_close.insert("proposers".into(), Value::from(status.last_close_proposers));
    info.insert("last_close".into(), Value::Object(last_close));

    if admin {
        let mut load = Map::new();
        load.insert("job_types".into(), Value::Array(Vec::new()));
        load.insert("threads".into(), Value::from(server.cpu.threads()));
        info.insert("load".into(), Value::Object(load));
        info.insert("node_size".into(), Value::from("tiny"));
        info.insert("pubkey_validator".into(), Value::from("none"));
        if let Some(storage) = storage(ctx) {
            info.insert("storage".into(), storage);
        }
    }
    if human {
        info.insert(
            "load_factor".into(),
            number(status.load_factor as f64 / LOAD_BASE as f64),
        );
    } else {
        for key in [
            "load_factor",
            "load_factor_server",
            "load_factor_fee_escalation",
            "load_factor_fee_queue",
            "load_factor_fee_reference",
        ] {
            let v = if key == "load_factor" || key == "load_factor_server" {
                status.load_factor
            } else {
                LOAD_BASE
            };
            info.insert(key.into(), Value::from(v));
        }
        info.insert("load_base".into(), Value::from(LOAD_BASE));
    }
    if let Some(id) = server.config.network_id {
        info.insert("network_id".into(), Value::from(id));
    }
    info.insert("peer_disconnects".into(), Value::from("0"));
    info.insert("peer_disconnects_resources".into(), Value::from("0"));
    info.insert("peers".into(), Value::from(0));

    let ports: Vec<Value> = server
        .config
        .ports
        .iter()
        // rippled hides ports that have admin networks from non-admin callers.
        .filter(|p| admin || p.admin.is_empty())
        .map(|p| {
            let mut o = Map::new();
            o.insert("port".into(), Value::from(p.bind.port().to_string()));
            o.insert(
                "protocol".into(),
                Value::Array(
                    p.protocols
                        .iter()
                        .map(|s| Value::from(s.as_str()))
                        .collect(),
                ),
            );
            Value::Object(o)
        })
        .collect();
    info.insert("ports".into(), Value::Array(ports));
    info.insert(
        "pubkey_node".into(),
        Value::from(server.node_public.as_str()),
    );
    info.insert("server_state".into(), Value::from(status.mode.as_str()));
    let uptime_us = uptime.as_micros().to_string();
    info.insert(
        "server_state_duration_us".into(),
        Value::from(uptime_us.as_str()),
    );
    let mut accounting = Map::new();
    for mode in ["disconnected", "connected", "syncing", "tracking", "full"] {
        let mut o = Map::new();
        let current = mode == status.mode.as_str();
        o.insert(
            "duration_us".into(),
            Value::from(if current { uptime_us.as_str() } else { "0" }),
        );
        o.insert(
            "transitions".into(),
            Value::from(if current { "1" } else { "0" }),
        );
        accounting.insert(mode.into(), Value::Object(o));
    }
    accounting.sort_keys();
    info.insert("state_accounting".into(), Value::Object(accounting));
    info.insert("time".into(), Value::from(format_time(now)));
    info.insert("uptime".into(), Value::from(uptime.as_secs()));
    info.insert(
        "validation_quorum".into(),
        Value::from(if status.standalone { 1 } else { 0 }),
    );
    if status.amendment_blocked {
        info.insert("amendment_blocked".into(), Value::from(true));
    }

    // The validated (in standalone: last closed) ledger, read from the store itself.
    let validated = server.ledgers.validated().ledger;
    if let Some(l) = validated {
        let mut v = Map::new();
        v.insert("hash".into(), Value::from(l.header.hash.to_hex()));
        v.insert("seq".into(), Value::from(l.header.seq));
        let close_time = l.header.close_time as u64;
        if human {
            v.insert("age".into(), Value::from(now.saturating_sub(close_time)));
            v.insert(
                "base_fee_xrp".into(),
                number(l.fees.base_drops as f64 / DROPS_PER_XRP),
            );
            v.insert(
                "reserve_base_xrp".into(),
                number(l.fees.reserve_base_drops as f64 / DROPS_PER_XRP),
            );
            v.insert(
                "reserve_inc_xrp".into(),
                number(l.fees.reserve_inc_drops as f64 / DROPS_PER_XRP),
            );
        } else {
            v.insert("base_fee".into(), Value::from(l.fees.base_drops));
            v.insert("close_time".into(), Value::from(close_time));
            v.insert(
                "reserve_base".into(),
                Value::from(l.fees.reserve_base_drops),
            );
            v.insert("reserve_inc".into(), Value::from(l.fees.reserve_inc_drops));
        }
        v.sort_keys();
        // rippled names it closed_ledger when nothing is validated yet; a standalone
        // server validates every ledger it closes.
        let name = if status.standalone || status.validated.is_some() {
            "validated_ledger"
        } else {
            "closed_ledger"
        };
        info.insert(name.into(), Value::Object(v));
    }
    info.sort_keys();
    info
}

/// ledgerd's own `storage` object (admin only; rippled has no such field): whether
/// submissions are durable, why writes are refused if they are, and the journal's
/// counters (records, fsyncs, records per fsync, last snapshot) from
/// [`crate::node::persist::Persistence::stats_json`]. `None` before the node starts.
fn storage(ctx: &Context) -> Option<Value> {
    let node = ctx.server.node()?;
    let p = &node.persistence;
    let mut o = match p.stats_json() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    o.insert("durable".into(), Value::from(!p.is_ephemeral()));
    o.insert("healthy".into(), Value::from(p.health().is_ok()));
    if let Err(why) = p.health() {
        o.insert("failure".into(), Value::from(why));
    }
    o.sort_keys();
    Some(Value::Object(o))
}

/// rippled's server_info `time`: `"2024-Nov-01 23:59:01.123456 UTC"`.
pub fn format_time(ripple_secs: u64) -> String {
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_micros())
        .unwrap_or(0);
    let unix = ripple_secs + RIPPLE_EPOCH_OFFSET_SECS;
    let (y, m, d) = civil_from_days((unix / 86_400) as i64);
    let secs = unix % 86_400;
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{y:04}-{}-{d:02} {:02}:{:02}:{:02}.{micros:06} UTC",
        MONTHS[(m - 1) as usize % 12],
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Days since 1970-01-01 to (year, month 1..=12, day 1..=31), proleptic Gregorian
/// (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(10_957), (2000, 1, 1));
        assert_eq!(civil_from_days(20_028), (2024, 11, 1));
        assert!(format_time(0).starts_with("2000-Jan-01 00:00:00."));
    }

    #[test]
    fn numbers_print_like_rippled() {
        assert_eq!(number(10.0).to_string(), "10");
        assert_eq!(number(0.00001).as_f64(), Some(0.00001));
        assert_eq!(number(1.5).to_string(), "1.5");
    }
}
