//! xrpld's configuration file (`xrpld.cfg`, `rippled.cfg`), read as xrpld reads it and
//! mapped onto the one [`ServerConfig`] the TOML file maps onto too.
//!
//! [`ini`] reads the format, [`ports`] `[server]` and its `[port_*]` sections, [`sections`]
//! the others. Sections that do not apply to a server with no peers (`[ips]`,
//! `[validators]`, `[node_size]`, ...) are logged once and ignored; a section no xrpld
//! reads is logged as unknown; a file xrpld would refuse, or that ledgerd cannot honour,
//! is refused naming the file, the line and the reason. docs/server.md lists every section.

pub mod ini;
pub mod ports;
pub mod sections;

use crate::ledger::rules::AmendmentConfig;
use crate::protocol::features::Feature;
use crate::server::config::{ConfigError, ServerConfig};
use ini::{Ini, Line};
use std::path::{Path, PathBuf};

/// A problem in the file, at a line (0: the file as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CfgError {
    /// The line's number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl CfgError {
    /// A problem at `line`.
    pub fn at(line: &Line, reason: String) -> CfgError {
        CfgError {
            line: line.number,
            reason,
        }
    }
}

/// What the server logs once it has a log: the sections and keys it ignores, each once.
#[derive(Debug, Default, Clone)]
pub struct Notes {
    /// One line each.
    pub lines: Vec<String>,
}

impl Notes {
    /// Notes `what`, once.
    pub fn ignored(&mut self, what: &str) {
        if !self.lines.iter().any(|l| l == what) {
            self.lines.push(what.to_owned());
        }
    }
}

/// How xrpld's command line asks the server to start.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// `-a` / `--standalone`: no peers; ledgers close on `ledger_accept` only.
    pub standalone: bool,
    /// `--load`: resume the ledger kept in `[database_path]`.
    pub load: bool,
    /// `--start`: a new ledger records the amendments this server wants.
    pub start: bool,
}

/// The rule book the file asks for, as xrpld reads it: `[amendments]` and
/// `[veto_amendments]` are votes (by id), `[features]` the amendments every ledger's rules
/// enable whatever the ledger records (none when the section is absent), and `--start`
/// records the desired set in a new ledger. A `[features]` name xrpld does not know is
/// refused with its line, as xrpld refuses it.
fn rule_book(ini: &Ini, mode: Mode) -> Result<AmendmentConfig, CfgError> {
    let ids = |lines: Vec<crate::server::config::AmendmentLine>| {
        lines.into_iter().map(|l| l.id).collect::<Vec<String>>()
    };
    let mut features = Vec::new();
    for line in sections::features(ini) {
        if Feature::parse(&line.name).is_none() {
            return Err(CfgError {
                line: line.line,
                reason: format!("Unknown feature: {} in config file.", line.name),
            });
        }
        features.push(line.name);
    }
    Ok(AmendmentConfig {
        up: ids(sections::amendment_lines(ini, "amendments")?),
        down: ids(sections::amendment_lines(ini, "veto_amendments")?),
        features: Some(features),
        start: mode.start,
        network: None,
    })
}

/// Sections xrpld reads that do not apply to ledgerd (peers, validators, the node store's
/// tuning, outgoing TLS checks, ...): logged once, then ignored.
const NOT_APPLICABLE: &[&str] = &[
    "node_size",
    "ips",
    "ips_fixed",
    "peer_private",
    "peers_max",
    "peers_in_max",
    "peers_out_max",
    "validators",
    "validators_file",
    "validator_keys",
    "validator_list_sites",
    "validator_list_keys",
    "validator_list_threshold",
    "validator_token",
    "cluster_nodes",
    "node_seed",
    "sntp_servers",
    "ssl_verify",
    "ssl_verify_file",
    "ssl_verify_dir",
    "overlay",
    "reduce_relay",
    "relay_validations",
    "relay_proposals",
    "network_quorum",
    "sweep_interval",
    "workers",
    "io_workers",
    "prefetch_workers",
    "path_search",
    "path_search_fast",
    "path_search_max",
    "path_search_old",
    "fetch_depth",
    "compression",
    "ledger_replay",
    "server_domain",
    "amendment_majority_time",
    "beta_rpc_api",
    "insight",
    "perf",
    "sqlite",
    "import_db",
    "ledger_tx_tables",
    "max_transactions",
    "elb_support",
    "crawl",
    "vl",
    "port_grpc",
    "shard_db",
    "history_shards",
    "websocket_ping_frequency",
];

/// Sections ledgerd reads (the ports are the ones `[server]` names).
const READ: &[&str] = &[
    "server",
    "network_id",
    "voting",
    "fee_default",
    "signing_support",
    "database_path",
    "node_db",
    "ledger_history",
    "rpc_startup",
    "debug_logfile",
    "amendments",
    "veto_amendments",
    "features",
    "transaction_queue",
    "validation_seed",
];

/// Reads `path` (a regular file of at most [`crate::limits::CONFIG_FILE_BYTES_MAX`] bytes)
/// as xrpld would under `mode`.
pub fn load(path: &Path, mode: Mode) -> Result<(ServerConfig, Notes), ConfigError> {
    let (text, dir) = read_file(path)?;
    let (mut config, notes) = from_text(&text, &dir, mode).map_err(at_line(path))?;
    config.config_file = Some(path.to_owned());
    Ok((config, notes))
}

/// The file's text (a regular file of at most [`crate::limits::CONFIG_FILE_BYTES_MAX`]
/// bytes) and the directory its relative paths start from.
fn read_file(path: &Path) -> Result<(String, PathBuf), ConfigError> {
    let max = crate::limits::CONFIG_FILE_BYTES_MAX;
    let text =
        crate::server::files::read_text_bounded(path, max).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok((text, dir))
}

/// A line's error as the file's.
fn at_line(path: &Path) -> impl Fn(CfgError) -> ConfigError + '_ {
    move |e| ConfigError::At {
        path: path.to_owned(),
        line: e.line,
        reason: e.reason,
    }
}

/// Where xrpld's command-line client sends a request given `--conf FILE`
/// (`setup_Client`): the first port serving http (an unspecified address read as the
/// loopback one), with its admin credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientTarget {
    /// The port's address.
    pub addr: std::net::SocketAddr,
    /// `admin_user` and `admin_password`, added to the request.
    pub admin_credentials: Option<(String, String)>,
}

/// The [`ClientTarget`] of the file at `path`.
pub fn client_target(path: &Path) -> Result<ClientTarget, ConfigError> {
    let (text, dir) = read_file(path)?;
    let at = at_line(path);
    let ports = ports::ports(&Ini::parse(&text), &dir, &mut Notes::default()).map_err(&at)?;
    let port = ports.iter().find(|p| p.http).ok_or_else(|| {
        at(CfgError {
            line: 0,
            reason: "no port serves http for the command line".into(),
        })
    })?;
    if port.tls.is_some() && !port.plain_too {
        return Err(at(CfgError {
            line: 0,
            reason: format!(
                "[{}] serves https only; ledgerd's command line speaks plain http",
                port.name
            ),
        }));
    }
    let mut addr = port.bind;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            std::net::SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            std::net::SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    Ok(ClientTarget {
        addr,
        admin_credentials: port.admin_credentials.clone(),
    })
}

/// Maps the text of a file whose directory is `dir` (relative TLS and log paths are read
/// from there, as xrpld reads them).
pub fn from_text(text: &str, dir: &Path, mode: Mode) -> Result<(ServerConfig, Notes), CfgError> {
    let ini = Ini::parse(text);
    let mut notes = Notes::default();
    let ports = ports::ports(&ini, dir, &mut notes)?;
    let mut config = ServerConfig::base(ports);
    config.standalone = mode.standalone;
    config.network_id = sections::network_id(&ini)?;
    config.signing_support = sections::flag(&ini, "signing_support")?.unwrap_or(false);
    sections::voting(&ini, &mut config.fees, &mut config.fees_set)?;
    config.fees = crate::server::config::check_fees(config.fees).map_err(|e| CfgError {
        line: ini.section("voting").map_or(0, |s| s.opened_at),
        reason: e.to_string(),
    })?;
    storage(&ini, mode, &mut config, &mut notes)?;
    config.rpc_startup = sections::rpc_startup(&ini)?;
    config.debug_logfile = sections::single(&ini, "debug_logfile")?.map(|l| dir.join(&l.text));
    config.amendments = rule_book(&ini, mode)?;
    config.tx_queue = sections::transaction_queue(&ini)?;
    config.validation_key = validation_key(&ini)?;
    if mode.standalone {
        // xrpld -a: ledgers close on ledger_accept only.
        config.close_interval_secs = 0;
    }
    note_other_sections(&ini, &config, &mut notes);
    Ok((config, notes))
}

/// Where the ledger lives, and how much history it keeps: `[database_path]`, `[node_db]`
/// `online_delete` / `advisory_delete`, `[ledger_history]`.
///
/// xrpld `-a` starts a new ledger every time unless `--load` (its `--start` and the
/// default alike), so a standalone server keeps its ledger in memory; with `--load` it
/// resumes the one in `[database_path]`. Without `-a` the ledger is kept in
/// `[database_path]` (ledgerd's own default directory when the file names none).
fn storage(
    ini: &Ini,
    mode: Mode,
    config: &mut ServerConfig,
    notes: &mut Notes,
) -> Result<(), CfgError> {
    let database_path = sections::single(ini, "database_path")?.map(|l| PathBuf::from(&l.text));
    if mode.standalone && !mode.load {
        config.ephemeral = true;
        if database_path.is_some() {
            notes.ignored("[database_path]: -a without --load starts a new ledger, kept in memory");
        }
    } else {
        config.data_dir = match database_path {
            Some(dir) => Some(dir),
            None if mode.load => {
                return Err(CfgError {
                    line: 0,
                    reason: "--load resumes the ledger in [database_path], and the file has none"
                        .into(),
                })
            }
            None => Some(crate::node::persist::DEFAULT_DATA_DIR.into()),
        };
    }
    // xrpld: standalone servers fetch no history, so ledger_history is 0 there.
    let history = match mode.standalone {
        true => 0,
        false => sections::ledger_history(ini)?.unwrap_or(256),
    };
    if mode.standalone {
        sections::ledger_history(ini)?;
    }
    node_db(ini, mode, history, config, notes)
}

/// `[node_db]`: `online_delete` (at least 256, or 8 under `-a`; ledgerd keeps at least the
/// 256 it holds in memory) and `advisory_delete` (an integer, non-zero: on).
fn node_db(
    ini: &Ini,
    mode: Mode,
    ledger_history: u32,
    config: &mut ServerConfig,
    notes: &mut Notes,
) -> Result<(), CfgError> {
    let Some(s) = ini.section("node_db") else {
        return Ok(());
    };
    if let Some(line) = s.get("advisory_delete") {
        let n: Option<i64> = line.text.parse().ok();
        config.advisory_delete = n.ok_or_else(|| {
            CfgError::at(
                line,
                format!(
                    "[node_db] advisory_delete = '{}' is not an integer",
                    line.text
                ),
            )
        })? != 0;
    }
    let keep = sections::key_number::<u32>(s, "online_delete")?.unwrap_or(0);
    if keep != 0 {
        let line = s.get("online_delete").map_or(s.opened_at, |l| l.number);
        let min = if mode.standalone { 8 } else { 256 };
        if keep < min {
            let reason = format!("online_delete must be at least {min}");
            return Err(CfgError { line, reason });
        }
        if ledger_history > keep {
            let reason = format!(
                "online_delete must not be less than ledger_history (currently {ledger_history})"
            );
            return Err(CfgError { line, reason });
        }
        let floor = crate::limits::ONLINE_DELETE_LEDGERS_MIN;
        if keep < floor {
            notes.ignored(&format!("[node_db] online_delete = {keep}: ledgerd keeps {floor}, the ledgers it holds in memory"));
        }
        config.online_delete = Some(keep.max(floor));
    }
    for (key, line) in &s.pairs {
        if !matches!(key.as_str(), "online_delete" | "advisory_delete") {
            notes.ignored(&format!(
                "[node_db] {key} (line {}): ledgerd keeps its own store in [database_path]",
                line.number
            ));
        }
    }
    Ok(())
}

/// `[validation_seed]` (its first line, as xrpld's `ValidatorKeys` reads it): a base58
/// family seed whose secp256k1 root key signs this server's validations. A bad seed, or
/// the section beside a `[validator_token]` one (even empty, as xrpld's `exists`), is
/// refused as xrpld refuses it. The error never shows the seed.
fn validation_key(ini: &Ini) -> Result<Option<crate::protocol::keys::KeyPair>, CfgError> {
    let Some(section) = ini.section("validation_seed") else {
        return Ok(None);
    };
    if ini.section("validator_token").is_some() {
        return Err(CfgError {
            line: section.opened_at,
            reason: "Cannot specify both [validation_seed] and [validator_token]".into(),
        });
    }
    let Some(line) = section.lines.first() else {
        return Ok(None);
    };
    let bad = || CfgError::at(line, "Invalid seed specified in [validation_seed]".into());
    let seed = crate::protocol::seed::Seed::from_base58(line.text.trim()).map_err(|_| bad())?;
    crate::protocol::keys::KeyPair::node_from_seed(&seed)
        .map(Some)
        .map_err(|_| bad())
}

/// Logs every section the file has that ledgerd does not read, once each.
fn note_other_sections(ini: &Ini, config: &ServerConfig, notes: &mut Notes) {
    for s in ini.sections.iter().skip(1) {
        let name = s.name.as_str();
        let is_port = config.ports.iter().any(|p| p.name == name)
            || ini
                .section("server")
                .is_some_and(|server| server.values.iter().any(|v| v.text == name));
        if READ.contains(&name) || is_port {
            continue;
        }
        let why = if NOT_APPLICABLE.contains(&name) {
            "does not apply to a server without peers"
        } else if name.starts_with("port_") {
            "a port [server] does not list"
        } else {
            "not an xrpld section"
        };
        notes.ignored(&format!("[{name}] (line {}): {why}; ignored", s.opened_at));
    }
}

#[cfg(test)]
mod tests;
