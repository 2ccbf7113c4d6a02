//! `server_info` (rippled `ServerInfo.cpp`, `NetworkOPs::getServerInfo`): the human form,
//! under `info`. Every field xrpl.js and xrpl-py read is present: `build_version`,
//! `complete_ledgers`, `network_id`, `server_state`, `load_factor` and
//! `validated_ledger.{seq, hash, age, base_fee_xrp, reserve_base_xrp, reserve_inc_xrp}`.
//! The load factors combine the server's load with the transaction queue's fee levels
//! (`load_factor_fee_escalation`, `load_factor_fee_queue`), as rippled's do.
//! Admin callers who ask (`storage: true`) also get `storage`, ledgerd's persistence health
//! and journal counters (an extension: rippled has no such field); admins of a read node
//! over a PostgreSQL hot standby get `database_replication_lag_seconds`.

use crate::node::status::{LedgerStatus, LOAD_BASE};
use crate::protocol::time::ripple_now_secs;
use crate::render::ledger::complete_ledgers;
use crate::rpc::context::Context;
use crate::rpc::role::Role;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Number, Value};
use std::sync::Arc;

/// The version string reported as `build_version`: the xrpld release whose rule book
/// ledgerd serves (every preset follows its amendment table,
/// [`crate::protocol::features::XRPLD_RELEASE`]), with ledgerd's own version as semver
/// build metadata (`3.4.1+ledgerd.0.3.0`). The client libraries compare it with xrpld
/// releases (xrpl.js and xrpl-py fill NetworkID only for servers at least 1.11.0; clients
/// gate newer features such as Vault and Lending on 3.x), so it must read as that xrpld.
pub const BUILD_VERSION: &str = concat!(
    crate::xrpld_release!(),
    "+ledgerd.",
    env!("CARGO_PKG_VERSION")
);

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

/// What every part of the body needs.
struct Ask<'a> {
    ctx: &'a Context,
    status: Arc<LedgerStatus>,
    admin: bool,
    human: bool,
    /// `storage: true` asked for ledgerd's own `storage` object (admin only).
    storage: bool,
    now: u64,
}

/// The body shared by server_info and server_state.
pub fn info(ctx: &Context, params: &Params, form: Form) -> Map<String, Value> {
    let ask = Ask {
        ctx,
        status: ctx.services.node.status(),
        admin: ctx.role == Role::Admin,
        human: form == Form::Human,
        storage: params.get("storage").is_some_and(crate::rpc::params::as_bool),
        now: ripple_now_secs(),
    };
    let mut info = Map::new();
    insert_identity(&ask, &mut info);
    insert_last_close(&ask, &mut info);
    if ask.admin {
        insert_admin(&ask, &mut info);
    }
    insert_load(&ask, &mut info);
    insert_network(&ask, &mut info);
    insert_state(&ask, &mut info);
    if let Some((name, ledger)) = validated_ledger(&ask) {
        info.insert(name.into(), ledger);
    }
    info.sort_keys();
    info
}

fn insert_identity(ask: &Ask, info: &mut Map<String, Value>) {
    let services = &ask.ctx.services;
    info.insert("build_version".into(), Value::from(BUILD_VERSION));
    let (lo, hi) = services.node.complete_range();
    let range = (lo != 0 && hi != 0).then_some((lo, hi));
    info.insert(
        "complete_ledgers".into(),
        Value::from(complete_ledgers(range)),
    );
    if ask.human {
        let host = if ask.admin {
            &services.host_name
        } else {
            &services.host_word
        };
        info.insert("hostid".into(), Value::from(host.as_str()));
    }
    info.insert("io_latency_ms".into(), Value::from(1));
    info.insert("jq_trans_overflow".into(), Value::from("0"));
    info.insert(
        "pubkey_node".into(),
        Value::from(services.node_public.as_str()),
    );
}

fn insert_last_close(ask: &Ask, info: &mut Map<String, Value>) {
    let status = &ask.status;
    let mut last_close = Map::new();
    if ask.human {
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
}

fn insert_admin(ask: &Ask, info: &mut Map<String, Value>) {
    let mut load = Map::new();
    load.insert("job_types".into(), Value::Array(Vec::new()));
    load.insert(
        "threads".into(),
        Value::from(ask.ctx.services.cpu.threads()),
    );
    // Inside `load`, which rippled's admin reply also carries: clients that compare the
    // reply's top-level keys with rippled's (xrpl.js's server_info and server_state tests)
    // find none they do not know.
    if let Some(files) = file_limit() {
        load.insert("file_limit".into(), files);
    }
    info.insert("load".into(), Value::Object(load));
    info.insert("node_size".into(), Value::from("tiny"));
    // The configured key this server signs its validations with (xrpld: `none` without
    // one, which xrpl.js's server_info test expects of the libraries' CI server).
    let validator = ask.ctx.services.node.validator.get();
    let pubkey = validator
        .and_then(|v| v.reported_key())
        .map_or("none".into(), |k| k.to_node_base58());
    info.insert("pubkey_validator".into(), Value::from(pubkey));
    // A read node over a PostgreSQL hot standby: how far the standby's replay is behind
    // its primary (ledgerd's; never on a writer, so clients comparing a writer's keys with
    // rippled's see none they do not know).
    if let Some(lag) = ask.ctx.services.node.replication_lag() {
        info.insert("database_replication_lag_seconds".into(), number(lag));
    }
    if ask.storage {
        if let Some(storage) = storage(ask.ctx) {
            info.insert("storage".into(), storage);
        }
    }
}

/// ledgerd's addition (admin only, in `load`): the process's file-descriptor limit, soft and hard,
/// which bounds the connections of ports without a `limit` (the server raises the soft limit
/// to the hard one at start).
fn file_limit() -> Option<Value> {
    let (soft, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).ok()?;
    Some(serde_json::json!({ "soft": soft, "hard": hard }))
}

/// The server's load and the queue's fee levels, combined as rippled's
/// `NetworkOPs::getServerInfo` combines them.
struct Load {
    /// The server's own load factor, over [`LOAD_BASE`].
    server: u64,
    /// The open ledger's escalated level over the reference level, as a load factor.
    escalation: u64,
    /// `load_factor`: the larger of the two.
    factor: u64,
    /// The queue's levels (`open_ledger_level`, `minimum_level`, `reference_level`).
    open_ledger_level: u64,
    minimum_level: u64,
    reference_level: u64,
}

impl Load {
    fn of(ask: &Ask) -> Load {
        let fees = ask.ctx.services.node.ledgers.fee_report();
        let server = u64::from(ask.status.load_factor);
        let escalation = crate::render::server_status::FeeSummary::of(&fees).escalation();
        Load {
            server,
            escalation,
            factor: server.max(escalation),
            open_ledger_level: fees.open_ledger_level,
            minimum_level: fees.minimum_level,
            reference_level: fees.reference_level,
        }
    }

    /// A level over the reference level, as rippled's `decimalFromReference`.
    fn over_reference(&self, level: u64) -> Value {
        number(level as f64 / self.reference_level as f64)
    }
}

/// JSON has no 64-bit unsigned integers in rippled's writer: it clips to 32 bits.
fn clipped(n: u64) -> Value {
    Value::from(n.min(u64::from(u32::MAX)))
}

fn insert_load(ask: &Ask, info: &mut Map<String, Value>) {
    let load = Load::of(ask);
    let base = f64::from(LOAD_BASE);
    if !ask.human {
        info.insert("load_base".into(), Value::from(LOAD_BASE));
        info.insert("load_factor".into(), clipped(load.factor));
        info.insert("load_factor_server".into(), Value::from(load.server));
        for (key, level) in [
            ("load_factor_fee_escalation", load.open_ledger_level),
            ("load_factor_fee_queue", load.minimum_level),
            ("load_factor_fee_reference", load.reference_level),
        ] {
            info.insert(key.into(), clipped(level));
        }
        return;
    }
    info.insert("load_factor".into(), number(load.factor as f64 / base));
    if load.server != load.factor {
        info.insert(
            "load_factor_server".into(),
            number(load.server as f64 / base),
        );
    }
    // Only an admin sees the escalation when it is what `load_factor` already says.
    let escalated = load.open_ledger_level != load.reference_level;
    if escalated && (ask.admin || load.escalation != load.factor) {
        info.insert(
            "load_factor_fee_escalation".into(),
            load.over_reference(load.open_ledger_level),
        );
    }
    if load.minimum_level != load.reference_level {
        info.insert(
            "load_factor_fee_queue".into(),
            load.over_reference(load.minimum_level),
        );
    }
}

fn insert_network(ask: &Ask, info: &mut Map<String, Value>) {
    let config = &ask.ctx.services.config;
    // rippled reports its configured network id, 0 by default.
    info.insert("network_id".into(), Value::from(config.network_id.unwrap_or(0)));
    info.insert("peer_disconnects".into(), Value::from("0"));
    info.insert("peer_disconnects_resources".into(), Value::from("0"));
    info.insert("peers".into(), Value::from(0));
    let ports: Vec<Value> = config
        .ports
        .iter()
        // rippled hides ports that have admin networks from non-admin callers.
        .filter(|p| ask.admin || !p.has_admin)
        .map(|p| {
            let mut o = Map::new();
            o.insert("port".into(), Value::from(p.port.to_string()));
            let protocols = p.protocols.iter().map(|s| Value::from(s.as_str()));
            o.insert("protocol".into(), Value::Array(protocols.collect()));
            Value::Object(o)
        })
        .collect();
    info.insert("ports".into(), Value::Array(ports));
}

fn insert_state(ask: &Ask, info: &mut Map<String, Value>) {
    let status = &ask.status;
    let uptime = ask.ctx.services.started.elapsed();
    info.insert("server_state".into(), Value::from(status.mode.as_str()));
    let uptime_us = uptime.as_micros().to_string();
    info.insert(
        "server_state_duration_us".into(),
        Value::from(uptime_us.as_str()),
    );
    let mut accounting = Map::new();
    for mode in ["disconnected", "connected", "syncing", "tracking", "full"] {
        let current = mode == status.mode.as_str();
        let mut o = Map::new();
        let duration = if current { uptime_us.as_str() } else { "0" };
        o.insert("duration_us".into(), Value::from(duration));
        o.insert(
            "transitions".into(),
            Value::from(if current { "1" } else { "0" }),
        );
        accounting.insert(mode.into(), Value::Object(o));
    }
    accounting.sort_keys();
    info.insert("state_accounting".into(), Value::Object(accounting));
    info.insert("time".into(), Value::from(format_time(ask.now)));
    info.insert("uptime".into(), Value::from(uptime.as_secs()));
    info.insert(
        "validation_quorum".into(),
        Value::from(0),
    );
    // No validator list is configured (standalone): rippled's answer for that.
    if ask.human {
        let mut list = Map::new();
        list.insert("count".into(), Value::from(0));
        list.insert("expiration".into(), Value::from("unknown"));
        list.insert("status".into(), Value::from("unknown"));
        info.insert("validator_list".into(), Value::Object(list));
    } else {
        info.insert("validator_list_expires".into(), Value::from(0));
    }
    if status.amendment_blocked {
        info.insert("amendment_blocked".into(), Value::from(true));
    }
}

/// The validated (in standalone: last closed) ledger, read from the ledgers themselves,
/// and the name rippled gives it.
fn validated_ledger(ask: &Ask) -> Option<(&'static str, Value)> {
    let l = ask.ctx.services.node.ledgers.validated().ledger?;
    let mut v = Map::new();
    v.insert("hash".into(), Value::from(l.header.hash.to_hex()));
    v.insert("seq".into(), Value::from(l.header.seq));
    let close_time = l.header.close_time as u64;
    let fees = &l.fees;
    if ask.human {
        let xrp = |drops: u64| number(drops as f64 / DROPS_PER_XRP);
        v.insert(
            "age".into(),
            Value::from(ask.now.saturating_sub(close_time)),
        );
        v.insert("base_fee_xrp".into(), xrp(fees.base_drops));
        v.insert("reserve_base_xrp".into(), xrp(fees.reserve_base_drops));
        v.insert("reserve_inc_xrp".into(), xrp(fees.reserve_inc_drops));
    } else {
        v.insert("base_fee".into(), Value::from(fees.base_drops));
        v.insert("close_time".into(), Value::from(close_time));
        v.insert("reserve_base".into(), Value::from(fees.reserve_base_drops));
        v.insert("reserve_inc".into(), Value::from(fees.reserve_inc_drops));
    }
    v.sort_keys();
    // rippled names it closed_ledger when nothing is validated yet; a standalone
    // server validates every ledger it closes.
    let name = if ask.status.standalone || ask.status.validated.is_some() {
        "validated_ledger"
    } else {
        "closed_ledger"
    };
    Some((name, Value::Object(v)))
}

/// ledgerd's own `storage` object (admin only; rippled has no such field): whether
/// submissions are durable, why writes are refused if they are, and the journal's
/// counters (records, fsyncs, records per fsync, last snapshot) from
/// [`crate::node::persist::Persistence::stats_json`], and the history writer's (`history`:
/// the last ledger written, the validated ledgers waiting to be). `None` before the node
/// starts.
fn storage(ctx: &Context) -> Option<Value> {
    let node = ctx.services.node.writer()?;
    let p = &node.persistence;
    let mut o = match p.stats_json() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    o.insert("durable".into(), Value::from(!p.is_ephemeral()));
    o.insert("history".into(), ctx.services.node.history_json());
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
    crate::protocol::time::human_micros(ripple_secs, micros)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_version_names_the_xrpld_release_whose_rule_book_is_served() {
        let want = format!(
            "{}+ledgerd.{}",
            crate::protocol::features::XRPLD_RELEASE,
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(BUILD_VERSION, want);
        let major: u32 = BUILD_VERSION
            .split('.')
            .next()
            .and_then(|m| m.parse().ok())
            .expect("semver");
        assert!(major >= 3, "Vault and Lending are 3.x: {BUILD_VERSION}");
    }

    #[test]
    fn dates() {
        assert!(format_time(0).starts_with("2000-Jan-01 00:00:00."));
    }

    #[test]
    fn numbers_print_like_rippled() {
        assert_eq!(number(10.0).to_string(), "10");
        assert_eq!(number(0.00001).as_f64(), Some(0.00001));
        assert_eq!(number(1.5).to_string(), "1.5");
    }
}
