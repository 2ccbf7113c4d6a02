//! Server configuration: ports (bind address, protocols, admin networks, TLS, limits) and
//! server-wide switches, from a TOML file and command-line flags.
//!
//! ```toml
//! signing_support = false
//! network_id = 21337
//!
//! [[port]]
//! name = "public"
//! bind = "0.0.0.0:51233"
//! protocols = ["ws", "http"]
//! # no `admin` line: no admin callers on this port (as rippled)
//!
//! [[port]]
//! name = "admin_tls"
//! bind = "127.0.0.1:6443"
//! protocols = ["wss", "https"]
//! admin = ["127.0.0.1"]
//! tls_cert = "cert.pem"
//! tls_key = "key.pem"
//! limit = 100                     # connections (absent or 0: unlimited; excess get 503)
//! ip_limit = 20                   # connections from one address (absent or 0: unlimited)
//! send_queue_limit = 100          # queued messages per WebSocket client
//! send_timeout = 10               # seconds a stalled write may last
//! websocket_ping_frequency = 30   # seconds of silence before the server pings a client
//! admin_user = "ops"              # optional: admin requests must also carry
//! admin_password = "..."          #   "admin_user" and "admin_password"
//! secure_gateway = ["10.0.0.0/8"]  # proxies whose X-User / Forwarded headers count
//! faucet = "loopback"             # POST /accounts: "loopback" (default), "all" or "off"
//! explorer = true                 # the explorer at / for browsers (default; needs ws)
//!
//! [transaction_queue]             # xrpld's [transaction_queue] keys, over its defaults
//! minimum_txn_in_ledger_standalone = 5   # escalate fees past 5 transactions a ledger
//! ```

use crate::limits::{WS_PING_INTERVAL_SECS, WS_SEND_QUEUE_MESSAGES_MAX, WS_SEND_TIMEOUT_SECS};
use crate::server::role::{default_admin_nets, AdminNet};
use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The address `ledgerd serve` listens on when given no `--listen` and no config file.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:6006";

/// A configuration problem, reported before anything listens.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML for this schema.
    #[error("invalid configuration: {0}")]
    Toml(#[from] toml::de::Error),
    /// A value is out of range or inconsistent.
    #[error("invalid configuration: {0}")]
    Invalid(String),
    /// An xrpld configuration file refused at a line (0: the file as a whole).
    #[error("{}: {reason}", at(path, *line))]
    At {
        /// The file.
        path: PathBuf,
        /// The line's number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// `FILE:LINE`, or `FILE` for line 0.
fn at(path: &Path, line: usize) -> String {
    match line {
        0 => path.display().to_string(),
        n => format!("{}:{n}", path.display()),
    }
}

/// The TOML file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// Allow non-admin callers to sign with server-side secrets (rippled `[signing_support]`).
    pub signing_support: Option<bool>,
    /// The network id reported by server_info (and required in transactions above 1024).
    pub network_id: Option<u32>,
    /// Directory of the journal and snapshots.
    pub data_dir: Option<PathBuf>,
    /// Keep no journal: state lives in memory only.
    pub ephemeral: Option<bool>,
    /// Seconds between automatic ledger closes (0: close only on `ledger_accept`).
    pub close_interval: Option<u64>,
    /// Threads of the CPU pool (default: one per core).
    pub cpu_threads: Option<usize>,
    /// Keep only the newest this many validated ledgers' history (rippled `online_delete`;
    /// at least `ONLINE_DELETE_LEDGERS_MIN`); absent: keep every ledger.
    pub online_delete: Option<u32>,
    /// Megabytes of closed ledgers kept in memory (older ones are read from the history
    /// store); absent: `LEDGER_HISTORY_BYTES_MAX`.
    pub ledger_memory_mb: Option<u64>,
    /// The seed (`s...` or `sEd...`) of the account the faucet pays from; absent: the
    /// genesis account. It must exist and hold XRP (a genesis file's or prefunded account):
    /// `serve` refuses to start when it names no account.
    pub faucet_seed: Option<String>,
    /// The listening ports.
    #[serde(default, rename = "port")]
    pub ports: Vec<FilePort>,
    /// The transaction queue's settings (xrpld's `[transaction_queue]`, the same keys).
    pub transaction_queue: Option<FileTxQueue>,
}

/// The `[transaction_queue]` table: xrpld's keys (`setup_TxQ`), each over xrpld's default
/// ([`TxQueueConfig::default`]); the counts xrpld holds in 32 bits are 32-bit here too.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileTxQueue {
    /// The queue holds this many ledgers' worth of transactions.
    pub ledgers_in_queue: Option<u64>,
    /// The queue's size never goes below this.
    pub minimum_queue_size: Option<u64>,
    /// A replacement pays this percent more than the transaction it replaces.
    pub retry_sequence_percent: Option<u32>,
    /// The least escalation multiplier (a fee level).
    pub minimum_escalation_multiplier: Option<u64>,
    /// The least expected ledger size on a network.
    pub minimum_txn_in_ledger: Option<u32>,
    /// The least expected ledger size standalone (ledgerd's case).
    pub minimum_txn_in_ledger_standalone: Option<u32>,
    /// Above this many transactions the expected size grows.
    pub target_txn_in_ledger: Option<u32>,
    /// The most the expected size grows to (at least both minimums).
    pub maximum_txn_in_ledger: Option<u32>,
    /// How much a busy, timely close grows the expected size (percent; above 1000 counts
    /// as 1000).
    pub normal_consensus_increase_percent: Option<u32>,
    /// How much a slow close cuts it (percent; above 100 counts as 100).
    pub slow_consensus_decrease_percent: Option<u32>,
    /// The most transactions one account may have queued.
    pub maximum_txn_per_account: Option<u32>,
    /// A queued transaction's LastLedgerSequence must leave at least this many ledgers.
    pub minimum_last_ledger_buffer: Option<u32>,
}

/// One `[[port]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilePort {
    /// A name for logs.
    pub name: Option<String>,
    /// `IP:PORT` to bind.
    pub bind: String,
    /// Any of `ws`, `ws2`, `wss`, `wss2`, `http`, `https`.
    pub protocols: Vec<String>,
    /// Admin networks (`ADDR` or `ADDR/BITS`); absent means nobody is admin, as in rippled.
    pub admin: Option<Vec<String>>,
    /// Secure gateways (`ADDR` or `ADDR/BITS`, xrpld `secure_gateway`): proxies whose
    /// callers are identified by `X-User` or charged by `Forwarded` / `X-Forwarded-For`.
    pub secure_gateway: Option<Vec<String>>,
    /// PEM certificate chain for wss/https.
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for wss/https.
    pub tls_key: Option<PathBuf>,
    /// Simultaneous connections (0 or absent: no limit but the process's file limit).
    pub limit: Option<usize>,
    /// Simultaneous connections from one address (0 or absent: no limit beyond `limit`).
    pub ip_limit: Option<usize>,
    /// Replies queued per WebSocket client before it is disconnected.
    pub send_queue_limit: Option<usize>,
    /// Seconds a write to a client (a WebSocket message or an HTTP reply) may make no
    /// progress before the client is disconnected.
    pub send_timeout: Option<u64>,
    /// Seconds of silence before the server pings a WebSocket client (0 or absent:
    /// [`WS_PING_INTERVAL_SECS`]).
    pub websocket_ping_frequency: Option<u64>,
    /// With `admin_password`: admin callers must also send these in each request.
    pub admin_user: Option<String>,
    /// With `admin_user`: admin callers must also send these in each request.
    pub admin_password: Option<String>,
    /// Who may use the faucet (`POST /accounts`): `loopback` (default), `all` or `off`.
    pub faucet: Option<String>,
    /// Serve the explorer at `/` to browsers (default true; a port without `ws` never does).
    pub explorer: Option<bool>,
}

/// Who may use a port's faucet (`POST /accounts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaucetMode {
    /// Callers from 127.0.0.0/8 and ::1 only; others get `403` (the default).
    Loopback,
    /// Every caller (a shared development server).
    All,
    /// Nobody: `POST /accounts` is `404`.
    Off,
}

impl FaucetMode {
    /// Parses the configuration's word.
    pub fn parse(word: &str) -> Option<FaucetMode> {
        match word {
            "loopback" => Some(FaucetMode::Loopback),
            "all" => Some(FaucetMode::All),
            "off" => Some(FaucetMode::Off),
            _ => None,
        }
    }
}

/// The development ledger's start-up options: prefunded accounts and a genesis file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevOptions {
    /// Accounts to fund at start (`--accounts N`, at most `DEV_ACCOUNTS_MAX`).
    pub accounts: u32,
    /// The text their seeds derive from (`--accounts-seed`).
    pub accounts_seed: String,
    /// Their key type (`--accounts-key-type`).
    pub accounts_ed25519: bool,
    /// Each one's balance in drops (`--accounts-balance`, given in XRP).
    pub accounts_drops: u64,
    /// A genesis file to start a new ledger from (`--genesis FILE`).
    pub genesis: Option<PathBuf>,
}

impl Default for DevOptions {
    fn default() -> DevOptions {
        DevOptions {
            accounts: 0,
            accounts_seed: crate::rpc::devnet::DEV_ACCOUNTS_SEED_DEFAULT.to_owned(),
            accounts_ed25519: false,
            accounts_drops: crate::limits::DEV_ACCOUNT_DROPS_DEFAULT,
            genesis: None,
        }
    }
}

/// TLS files of a secure port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// PEM certificate chain.
    pub cert: PathBuf,
    /// PEM private key.
    pub key: PathBuf,
    /// PEM certificates sent after `cert`'s (xrpld `ssl_chain`), if any.
    pub chain: Option<PathBuf>,
}

/// Where a secure port's certificate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsSource {
    /// PEM files the configuration names.
    Files(TlsFiles),
    /// A self-signed certificate made at start, which clients cannot verify: xrpld's for a
    /// secure port that names no `ssl_key`, `ssl_cert` or `ssl_chain` (`make_SSLContext`).
    SelfSigned,
}

/// One listening port, validated.
#[derive(Debug, Clone)]
pub struct PortConfig {
    /// A name for logs and server_info.
    pub name: String,
    /// Address to bind (port 0 picks a free port).
    pub bind: SocketAddr,
    /// Serves WebSocket upgrades.
    pub ws: bool,
    /// Serves JSON-RPC over HTTP POST.
    pub http: bool,
    /// The protocol names as configured (reported by server_info).
    pub protocols: Vec<String>,
    /// TLS, when the port is wss/https.
    pub tls: Option<TlsSource>,
    /// With `tls`: the port serves plain http/ws too (an xrpld port listing both kinds),
    /// each connection's first byte telling a TLS handshake from plain text.
    pub plain_too: bool,
    /// Callers from these networks are admin.
    pub admin: Vec<AdminNet>,
    /// Simultaneous connections; 0 means no limit but the process's file limit. Excess
    /// connections are answered `503` with the reason, then closed.
    pub limit: usize,
    /// Simultaneous connections from one address; 0 means no limit but `limit`. Excess
    /// connections are answered `503` with the reason, then closed.
    pub ip_limit: usize,
    /// Replies queued per WebSocket client before it is disconnected.
    pub send_queue_limit: usize,
    /// Seconds a write to a client (a WebSocket message or an HTTP reply) may make no
    /// progress before the client is disconnected.
    pub send_timeout_secs: u64,
    /// Seconds of silence before the server pings a WebSocket client; a client silent for
    /// as long again after the ping is disconnected.
    pub ping_interval_secs: u64,
    /// `(admin_user, admin_password)` an admin request must carry, if configured.
    pub admin_credentials: Option<(String, String)>,
    /// `(user, password)` every HTTP request must carry as `Authorization: Basic`, if
    /// configured (xrpld `user` / `password`; WebSocket sessions are not asked).
    pub user_credentials: Option<(String, String)>,
    /// Proxies whose callers are identified by the `X-User` header, or counted by the
    /// address in `Forwarded` / `X-Forwarded-For` (xrpld `secure_gateway`).
    pub secure_gateway: Vec<AdminNet>,
    /// Who may use the faucet on this port.
    pub faucet: FaucetMode,
    /// Serves the explorer (`server/explorer.rs`) at `/` to browsers (with `ws`).
    pub explorer: bool,
}

/// Everything `ledgerd serve` runs with.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The listening ports.
    pub ports: Vec<PortConfig>,
    /// Allow non-admin callers to sign with server-side secrets.
    pub signing_support: bool,
    /// Network id reported by server_info.
    pub network_id: Option<u32>,
    /// Keep no journal.
    pub ephemeral: bool,
    /// Journal and snapshot directory.
    pub data_dir: Option<PathBuf>,
    /// Start even when acknowledged journal records are missing or unreadable, discarding
    /// them (`--repair-journal`; command line only, never in the file: it is a one-off).
    pub repair_journal: bool,
    /// Start even when the history database lost acknowledged history or is damaged:
    /// set a damaged file aside, rebuild what the journal still holds, say what it could
    /// not (`--repair-history`; command line only, a one-off).
    pub repair_history: bool,
    /// Seconds between automatic closes (0: only `ledger_accept`).
    pub close_interval_secs: u64,
    /// Threads of the CPU pool (signing, verification); `None`: one per core.
    pub cpu_threads: Option<usize>,
    /// Keep only the newest this many validated ledgers' history (`online_delete`).
    pub online_delete: Option<u32>,
    /// Bytes of closed ledgers kept in memory (`--ledger-memory-mb`, `ledger_memory_mb`).
    pub ledger_memory_bytes: u64,
    /// Start from another server's ledger (`serve --fork`; command line only).
    pub fork: Option<ForkConfig>,
    /// Prefunded accounts and a genesis file (command line only).
    pub dev: DevOptions,
    /// The key the faucet pays with (`faucet_seed`); `None`: the genesis account's. Its
    /// `Debug` shows only the public key.
    pub faucet_key: Option<crate::protocol::keys::KeyPair>,
    /// The validation key (xrpld's `[validation_seed]`); `None`: one is drawn at start.
    /// Its `Debug` shows only the public key.
    pub validation_key: Option<crate::protocol::keys::KeyPair>,
    /// A new ledger's fee schedule (rippled `[voting]`, which a standalone genesis takes;
    /// `--reference-fee`, `--account-reserve`, `--owner-reserve`). A data directory keeps
    /// the schedule its ledger was created with.
    pub fees: crate::ledger::fees::Fees,
    /// Which of `fees` the configuration sets itself: a preset's schedule (`mainnet`) fills
    /// in the others at start.
    pub fees_set: crate::ledger::fees::FeesSet,
    /// Deterministic close times (`--start-time`, `--close-step`; command line only).
    pub fixed_clock: Option<crate::ledgers::FixedClock>,
    /// Copy validated history into this PostgreSQL database (`--postgres URL`; command
    /// line only), or, with `read_only`, serve from it.
    pub postgres: Option<String>,
    /// Serve reads from `postgres` and forward submissions to `writer` (`--read-only`).
    pub read_only: bool,
    /// The writer a read node forwards to and relays streams from (`--writer ws://...`).
    pub writer: Option<String>,
    /// Run as xrpld's `-a` / `--standalone`: no peers, ledgers close on `ledger_accept`.
    pub standalone: bool,
    /// The xrpld configuration file read (`--conf`), for messages naming its lines.
    pub config_file: Option<PathBuf>,
    /// `[node_db] advisory_delete`: online deletion waits for `can_delete`.
    pub advisory_delete: bool,
    /// `[rpc_startup]`: requests run as an admin once the server has started.
    pub rpc_startup: Vec<StartupCommand>,
    /// `[debug_logfile]`: the log is written to this file too.
    pub debug_logfile: Option<PathBuf>,
    /// The rule book: amendment votes, presets and whether a new ledger records the
    /// desired amendments (xrpld's `[amendments]`, `[veto_amendments]`, `[features]`,
    /// `--start`; `--amendment-preset`).
    pub amendments: crate::ledger::rules::AmendmentConfig,
    /// `[transaction_queue]`, over xrpld's defaults.
    pub tx_queue: TxQueueConfig,
}

/// One line of `[amendments]` or `[veto_amendments]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmendmentLine {
    /// The amendment id, 64 hexadecimal digits (upper case).
    pub id: String,
    /// The name written after it.
    pub name: String,
    /// The line's number in the configuration file.
    pub line: usize,
}

/// One line of `[features]`: an amendment's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureLine {
    /// The name.
    pub name: String,
    /// The line's number in the configuration file.
    pub line: usize,
}

/// One `[rpc_startup]` request.
#[derive(Debug, Clone, PartialEq)]
pub struct StartupCommand {
    /// The request object.
    pub request: serde_json::Map<String, serde_json::Value>,
    /// The line's number in the configuration file.
    pub line: usize,
}

/// `[transaction_queue]` (xrpld `TxQ::Setup`), with xrpld's defaults: the queue's own
/// settings (standalone, as ledgerd closes ledgers itself).
pub type TxQueueConfig = crate::ledgers::txq::TxQSetup;

/// `serve --fork ws://HOST:PORT [--fork-ledger N]`: the upstream server and its ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkConfig {
    /// The upstream's WebSocket URL (`ws://HOST:PORT`).
    pub upstream: String,
    /// The ledger to fork at; `None`: the upstream's newest validated ledger.
    pub ledger: Option<u32>,
    /// Read entries from the upstream by key on first use instead of copying the state
    /// whole at start (`--fork-lazy`; a larger upstream is forked lazily anyway).
    pub lazy: bool,
    /// Most entries copied whole; an upstream ledger with more is forked lazily
    /// ([`crate::limits::FORK_WHOLE_ENTRIES_MAX`] from the command line).
    pub copy_entries_max: usize,
}

impl ServerConfig {
    /// One plain ws+http port on `bind` with loopback admins, and defaults elsewhere: what
    /// `ledgerd serve` runs without a configuration file. (A configured port has admins only
    /// if its `admin` line names them.)
    pub fn single(bind: SocketAddr) -> ServerConfig {
        ServerConfig::base(vec![PortConfig {
            name: "default".into(),
            bind,
            ws: true,
            http: true,
            protocols: vec!["http".into(), "ws".into()],
            tls: None,
            plain_too: false,
            admin: default_admin_nets(),
            limit: 0,
            ip_limit: 0,
            send_queue_limit: WS_SEND_QUEUE_MESSAGES_MAX,
            send_timeout_secs: WS_SEND_TIMEOUT_SECS,
            ping_interval_secs: WS_PING_INTERVAL_SECS,
            admin_credentials: None,
            user_credentials: None,
            secure_gateway: Vec::new(),
            faucet: FaucetMode::Loopback,
            explorer: true,
        }])
    }

    /// `ports` with every other setting at its default.
    pub fn base(ports: Vec<PortConfig>) -> ServerConfig {
        ServerConfig {
            ports,
            signing_support: false,
            network_id: None,
            ephemeral: false,
            data_dir: None,
            repair_journal: false,
            repair_history: false,
            close_interval_secs: crate::limits::CLOSE_INTERVAL_SECS_DEFAULT,
            cpu_threads: None,
            online_delete: None,
            ledger_memory_bytes: crate::limits::LEDGER_HISTORY_BYTES_MAX,
            fork: None,
            dev: DevOptions::default(),
            faucet_key: None,
            validation_key: None,
            fees: crate::ledger::fees::Fees::default(),
            fees_set: Default::default(),
            fixed_clock: None,
            postgres: None,
            read_only: false,
            writer: None,
            standalone: false,
            config_file: None,
            advisory_delete: false,
            rpc_startup: Vec::new(),
            debug_logfile: None,
            amendments: Default::default(),
            tx_queue: TxQueueConfig::default(),
        }
    }

    /// Read (a regular file of at most [`crate::limits::CONFIG_FILE_BYTES_MAX`] bytes) and
    /// validate a TOML file.
    pub fn from_file(path: &Path) -> Result<ServerConfig, ConfigError> {
        let max = crate::limits::CONFIG_FILE_BYTES_MAX;
        let text = crate::server::files::read_text_bounded(path, max).map_err(|source| {
            ConfigError::Read {
                path: path.to_owned(),
                source,
            }
        })?;
        ServerConfig::from_toml(&text)
    }

    /// Parse and validate TOML text.
    pub fn from_toml(text: &str) -> Result<ServerConfig, ConfigError> {
        let file: FileConfig = toml::from_str(text)?;
        let mut ports = Vec::with_capacity(file.ports.len());
        for (i, p) in file.ports.into_iter().enumerate() {
            ports.push(port_from_file(i, p)?);
        }
        if ports.is_empty() {
            return Err(ConfigError::Invalid("no [[port]] configured".into()));
        }
        Ok(ServerConfig {
            signing_support: file.signing_support.unwrap_or(false),
            network_id: file.network_id,
            ephemeral: file.ephemeral.unwrap_or(false),
            data_dir: file.data_dir,
            close_interval_secs: file
                .close_interval
                .unwrap_or(crate::limits::CLOSE_INTERVAL_SECS_DEFAULT),
            cpu_threads: file.cpu_threads,
            online_delete: check_online_delete(file.online_delete)?,
            ledger_memory_bytes: check_ledger_memory_mb(file.ledger_memory_mb)?,
            faucet_key: faucet_key(file.faucet_seed.as_deref())?,
            tx_queue: tx_queue_from_file(file.transaction_queue)?,
            ..ServerConfig::base(ports)
        })
    }
}

/// The `[transaction_queue]` table over xrpld's defaults, with xrpld's checks: the two
/// percentages clamped, a maximum ledger size no smaller than either minimum.
fn tx_queue_from_file(file: Option<FileTxQueue>) -> Result<TxQueueConfig, ConfigError> {
    let mut q = TxQueueConfig::default();
    let f = file.unwrap_or_default();
    let wide = [
        (&mut q.ledgers_in_queue, f.ledgers_in_queue),
        (&mut q.minimum_queue_size, f.minimum_queue_size),
        (
            &mut q.minimum_escalation_multiplier,
            f.minimum_escalation_multiplier,
        ),
    ];
    for (slot, value) in wide {
        *slot = value.unwrap_or(*slot);
    }
    let narrow = [
        (&mut q.retry_sequence_percent, f.retry_sequence_percent),
        (&mut q.minimum_txn_in_ledger, f.minimum_txn_in_ledger),
        (
            &mut q.minimum_txn_in_ledger_standalone,
            f.minimum_txn_in_ledger_standalone,
        ),
        (&mut q.target_txn_in_ledger, f.target_txn_in_ledger),
        (
            &mut q.normal_consensus_increase_percent,
            f.normal_consensus_increase_percent,
        ),
        (
            &mut q.slow_consensus_decrease_percent,
            f.slow_consensus_decrease_percent,
        ),
        (&mut q.maximum_txn_per_account, f.maximum_txn_per_account),
        (
            &mut q.minimum_last_ledger_buffer,
            f.minimum_last_ledger_buffer,
        ),
    ];
    for (slot, value) in narrow {
        *slot = value.map_or(*slot, u64::from);
    }
    q.normal_consensus_increase_percent = q.normal_consensus_increase_percent.min(1000);
    q.slow_consensus_decrease_percent = q.slow_consensus_decrease_percent.min(100);
    if let Some(max) = f.maximum_txn_in_ledger.map(u64::from) {
        let minimums = [
            ("minimum_txn_in_ledger", q.minimum_txn_in_ledger),
            (
                "minimum_txn_in_ledger_standalone",
                q.minimum_txn_in_ledger_standalone,
            ),
        ];
        if let Some((key, min)) = minimums.into_iter().find(|(_, min)| max < *min) {
            return Err(ConfigError::Invalid(format!(
                "[transaction_queue] {key} {min} exceeds maximum_txn_in_ledger {max}"
            )));
        }
        q.maximum_txn_in_ledger = Some(max);
    }
    Ok(q)
}

/// Megabytes of closed ledgers kept in memory, as bytes: `None` is the default
/// ([`crate::limits::LEDGER_HISTORY_BYTES_MAX`]); a value must lie within
/// [`crate::limits::LEDGER_MEMORY_MB_MIN`]..=[`crate::limits::LEDGER_MEMORY_MB_MAX`].
pub fn check_ledger_memory_mb(mb: Option<u64>) -> Result<u64, ConfigError> {
    use crate::limits::{LEDGER_HISTORY_BYTES_MAX, LEDGER_MEMORY_MB_MAX, LEDGER_MEMORY_MB_MIN};
    match mb {
        None => Ok(LEDGER_HISTORY_BYTES_MAX),
        Some(mb) if (LEDGER_MEMORY_MB_MIN..=LEDGER_MEMORY_MB_MAX).contains(&mb) => Ok(mb << 20),
        Some(mb) => Err(ConfigError::Invalid(format!(
            "ledger_memory_mb {mb} is outside {LEDGER_MEMORY_MB_MIN}..={LEDGER_MEMORY_MB_MAX}"
        ))),
    }
}

fn port_from_file(index: usize, p: FilePort) -> Result<PortConfig, ConfigError> {
    let name = p.name.unwrap_or_else(|| format!("port_{index}"));
    let bind: SocketAddr = p
        .bind
        .parse()
        .map_err(|_| ConfigError::Invalid(format!("[{name}] bind '{}' is not IP:PORT", p.bind)))?;
    let mut ws = false;
    let mut http = false;
    let mut secure = false;
    let mut plain = false;
    for proto in &p.protocols {
        match proto.as_str() {
            "ws" | "ws2" => (ws, plain) = (true, true),
            "wss" | "wss2" => (ws, secure) = (true, true),
            "http" => (http, plain) = (true, true),
            "https" => (http, secure) = (true, true),
            other => {
                return Err(ConfigError::Invalid(format!(
                    "[{name}] unknown protocol '{other}'"
                )))
            }
        }
    }
    if !ws && !http {
        return Err(ConfigError::Invalid(format!(
            "[{name}] needs at least one protocol"
        )));
    }
    if secure && plain {
        return Err(ConfigError::Invalid(format!(
            "[{name}] mixes TLS and plain protocols; use two ports"
        )));
    }
    let tls = toml_tls(&name, secure, p.tls_cert, p.tls_key)?;
    // rippled: a port without an `admin` line has no admin callers.
    let admin = toml_networks(&name, "admin", p.admin)?;
    let secure_gateway = toml_networks(&name, "secure_gateway", p.secure_gateway)?;
    // rippled: a port's `limit` defaults to 0, unlimited.
    let limit = p.limit.unwrap_or(0);
    let faucet = match p.faucet.as_deref() {
        None => FaucetMode::Loopback,
        Some(word) => FaucetMode::parse(word).ok_or_else(|| {
            ConfigError::Invalid(format!(
                "[{name}] faucet = '{word}': use \"loopback\", \"all\" or \"off\""
            ))
        })?,
    };
    let send_queue_limit = match p.send_queue_limit {
        None | Some(0) => WS_SEND_QUEUE_MESSAGES_MAX,
        Some(n) => n,
    };
    Ok(PortConfig {
        name,
        bind,
        ws,
        http,
        protocols: p.protocols,
        tls,
        plain_too: false,
        admin,
        limit,
        ip_limit: p.ip_limit.unwrap_or(0),
        send_queue_limit,
        send_timeout_secs: match p.send_timeout {
            None | Some(0) => WS_SEND_TIMEOUT_SECS,
            Some(n) => n,
        },
        ping_interval_secs: match p.websocket_ping_frequency {
            None | Some(0) => WS_PING_INTERVAL_SECS,
            Some(n) => n,
        },
        // rippled requires both fields when either is configured (an absent one is empty).
        admin_credentials: match (p.admin_user, p.admin_password) {
            (None, None) => None,
            (u, pw) => Some((u.unwrap_or_default(), pw.unwrap_or_default())),
        },
        user_credentials: None,
        secure_gateway,
        faucet,
        explorer: p.explorer.unwrap_or(true),
    })
}

/// A TOML port's `admin` or `secure_gateway` list (absent: none).
fn toml_networks(
    name: &str,
    key: &str,
    entries: Option<Vec<String>>,
) -> Result<Vec<AdminNet>, ConfigError> {
    entries
        .unwrap_or_default()
        .iter()
        .map(|entry| {
            AdminNet::parse(entry).ok_or_else(|| {
                ConfigError::Invalid(format!("[{name}] {key} entry '{entry}' is not ADDR[/BITS]"))
            })
        })
        .collect()
}

/// A TOML port's TLS files: both for wss/https, neither otherwise.
fn toml_tls(
    name: &str,
    secure: bool,
    cert: Option<PathBuf>,
    key: Option<PathBuf>,
) -> Result<Option<TlsSource>, ConfigError> {
    let tls = match (secure, cert, key) {
        (true, Some(cert), Some(key)) => Some(TlsSource::Files(TlsFiles {
            cert,
            key,
            chain: None,
        })),
        (true, _, _) => {
            return Err(ConfigError::Invalid(format!(
                "[{name}] wss/https need tls_cert and tls_key"
            )))
        }
        (false, None, None) => None,
        (false, _, _) => {
            return Err(ConfigError::Invalid(format!(
                "[{name}] tls_cert/tls_key given but no wss/https protocol"
            )))
        }
    };
    Ok(tls)
}

/// The faucet's key from `faucet_seed` (the error never shows the seed).
fn faucet_key(seed: Option<&str>) -> Result<Option<crate::protocol::keys::KeyPair>, ConfigError> {
    let Some(text) = seed else { return Ok(None) };
    let bad = || ConfigError::Invalid("faucet_seed is not a seed (s... or sEd...)".into());
    let (seed, key_type) = crate::rpc::devnet::parse_seed(text).ok_or_else(bad)?;
    crate::protocol::keys::KeyPair::from_seed(&seed, key_type)
        .map(Some)
        .map_err(|_| bad())
}

/// Check a fee schedule: a positive reference fee, and reserves that fit rippled's 32-bit
/// FeeSettings fields with the owner reserve at most the account reserve.
pub fn check_fees(
    fees: crate::ledger::fees::Fees,
) -> Result<crate::ledger::fees::Fees, ConfigError> {
    let fits = |v: u64| v <= u32::MAX as u64;
    if fees.base_drops == 0 || fees.base_drops > crate::protocol::amount::DROPS_MAX {
        return Err(ConfigError::Invalid(format!(
            "reference fee {} drops: must be positive and at most the XRP supply",
            fees.base_drops
        )));
    }
    if !fits(fees.reserve_base_drops) || !fits(fees.reserve_inc_drops) {
        return Err(ConfigError::Invalid(format!(
            "reserves {} and {} drops: each must be below 2^32",
            fees.reserve_base_drops, fees.reserve_inc_drops
        )));
    }
    if fees.reserve_inc_drops > fees.reserve_base_drops {
        return Err(ConfigError::Invalid(format!(
            "owner reserve {} drops above the account reserve {} drops",
            fees.reserve_inc_drops, fees.reserve_base_drops
        )));
    }
    Ok(fees)
}

/// `online_delete` must keep at least the ledgers memory keeps (rippled: at least 256).
pub fn check_online_delete(keep: Option<u32>) -> Result<Option<u32>, ConfigError> {
    match keep {
        Some(n) if n < crate::limits::ONLINE_DELETE_LEDGERS_MIN => {
            Err(ConfigError::Invalid(format!(
                "online_delete = {n}: it must be at least {}",
                crate::limits::ONLINE_DELETE_LEDGERS_MIN
            )))
        }
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_several_ports() {
        let c = ServerConfig::from_toml(
            r#"
signing_support = true
network_id = 21337
[[port]]
bind = "127.0.0.1:0"
protocols = ["ws", "http"]
admin = []
[[port]]
name = "tls"
bind = "[::1]:0"
protocols = ["wss"]
tls_cert = "c.pem"
tls_key = "k.pem"
limit = 3
ip_limit = 2
admin = ["127.0.0.1", "::1"]
secure_gateway = ["10.0.0.0/8"]
"#,
        )
        .unwrap();
        assert!(c.signing_support);
        assert_eq!(c.network_id, Some(21337));
        assert_eq!(c.ports.len(), 2);
        assert!(c.ports[0].admin.is_empty());
        assert!(c.ports[0].ws && c.ports[0].http && c.ports[0].tls.is_none());
        assert!(c.ports[1].ws && !c.ports[1].http && c.ports[1].tls.is_some());
        assert_eq!(c.ports[1].limit, 3);
        assert_eq!((c.ports[0].ip_limit, c.ports[1].ip_limit), (0, 2));
        assert_eq!(c.ports[1].admin.len(), 2);
        assert!(c.ports[0].secure_gateway.is_empty());
        assert_eq!(
            c.ports[1].secure_gateway,
            [AdminNet::parse("10.0.0.0/8").unwrap()]
        );
    }

    #[test]
    fn ledger_memory_mb_is_bounded_and_read_as_bytes() {
        let port = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\"]\n";
        let c = ServerConfig::from_toml(port).unwrap();
        assert_eq!(
            c.ledger_memory_bytes,
            crate::limits::LEDGER_HISTORY_BYTES_MAX
        );
        let c = ServerConfig::from_toml(&format!("ledger_memory_mb = 64\n{port}")).unwrap();
        assert_eq!(c.ledger_memory_bytes, 64 << 20);
        for bad in [0, 15, (1 << 20) + 1] {
            let e = ServerConfig::from_toml(&format!("ledger_memory_mb = {bad}\n{port}"));
            assert!(e.is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn a_port_without_an_admin_line_has_no_admins() {
        let c = ServerConfig::from_toml("[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\"]\n")
            .unwrap();
        assert!(c.ports[0].admin.is_empty());
        // Only the no-configuration default port keeps loopback admins.
        let single = ServerConfig::single(([127, 0, 0, 1], 0).into());
        assert_eq!(single.ports[0].admin, default_admin_nets());
    }

    #[test]
    fn faucet_modes() {
        let port = |line: &str| {
            let text = format!("[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\"]\n{line}");
            ServerConfig::from_toml(&text).unwrap().ports[0].faucet
        };
        assert_eq!(port(""), FaucetMode::Loopback);
        assert_eq!(port("faucet = \"all\""), FaucetMode::All);
        assert_eq!(port("faucet = \"off\""), FaucetMode::Off);
        assert_eq!(port("faucet = \"loopback\""), FaucetMode::Loopback);
    }

    #[test]
    fn rejects_bad_ports() {
        for bad in [
            "[[port]]\nbind = \"x\"\nprotocols = [\"ws\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"gopher\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"wss\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\", \"https\"]\ntls_cert=\"a\"\ntls_key=\"b\"",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\"]\nadmin = [\"1.2.3.4/40\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\"]\nsecure_gateway = [\"proxy\"]",
            "signing_support = true",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\"]\nbogus = 1",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\"]\nfaucet = \"everyone\"",
        ] {
            assert!(ServerConfig::from_toml(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn transaction_queue_table_over_xrpld_defaults() {
        let port = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\"]\n";
        let queue = |table: &str| {
            ServerConfig::from_toml(&format!("{port}[transaction_queue]\n{table}"))
                .map(|c| c.tx_queue)
        };
        assert_eq!(
            ServerConfig::from_toml(port).unwrap().tx_queue,
            TxQueueConfig::default()
        );
        let q = queue(
            "minimum_txn_in_ledger_standalone = 3\nledgers_in_queue = 2\n\
             maximum_txn_in_ledger = 40\nslow_consensus_decrease_percent = 400\n",
        )
        .unwrap();
        assert_eq!(q.minimum_txn_in_ledger_standalone, 3);
        assert_eq!(q.ledgers_in_queue, 2);
        assert_eq!(q.maximum_txn_in_ledger, Some(40));
        assert_eq!(q.slow_consensus_decrease_percent, 100, "clamped as xrpld");
        assert_eq!(
            q.minimum_queue_size,
            TxQueueConfig::default().minimum_queue_size
        );
        // Below a minimum, unknown keys, values out of 32 bits: refused.
        for bad in [
            "maximum_txn_in_ledger = 10\n",
            "minimum_txn_in_ledger_standalone = 50\nmaximum_txn_in_ledger = 40\n",
            "minimum_txn_in_ledgers = 3\n",
            "minimum_txn_in_ledger = 4294967296\n",
            "ledgers_in_queue = -1\n",
        ] {
            assert!(queue(bad).is_err(), "{bad}");
        }
    }
}
