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
    /// The listening ports.
    #[serde(default, rename = "port")]
    pub ports: Vec<FilePort>,
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
}

/// TLS files of a secure port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// PEM certificate chain.
    pub cert: PathBuf,
    /// PEM private key.
    pub key: PathBuf,
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
    pub tls: Option<TlsFiles>,
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
    /// Seconds between automatic closes (0: only `ledger_accept`).
    pub close_interval_secs: u64,
    /// Threads of the CPU pool (signing, verification); `None`: one per core.
    pub cpu_threads: Option<usize>,
    /// Keep only the newest this many validated ledgers' history (`online_delete`).
    pub online_delete: Option<u32>,
}

impl ServerConfig {
    /// One plain ws+http port on `bind` with loopback admins, and defaults elsewhere: what
    /// `ledgerd serve` runs without a configuration file. (A configured port has admins only
    /// if its `admin` line names them.)
    pub fn single(bind: SocketAddr) -> ServerConfig {
        ServerConfig {
            ports: vec![PortConfig {
                name: "default".into(),
                bind,
                ws: true,
                http: true,
                protocols: vec!["http".into(), "ws".into()],
                tls: None,
                admin: default_admin_nets(),
                limit: 0,
                ip_limit: 0,
                send_queue_limit: WS_SEND_QUEUE_MESSAGES_MAX,
                send_timeout_secs: WS_SEND_TIMEOUT_SECS,
                ping_interval_secs: WS_PING_INTERVAL_SECS,
                admin_credentials: None,
            }],
            signing_support: false,
            network_id: None,
            ephemeral: false,
            data_dir: None,
            repair_journal: false,
            close_interval_secs: crate::limits::CLOSE_INTERVAL_SECS_DEFAULT,
            cpu_threads: None,
            online_delete: None,
        }
    }

    /// Read and validate a TOML file.
    pub fn from_file(path: &Path) -> Result<ServerConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
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
            ports,
            signing_support: file.signing_support.unwrap_or(false),
            network_id: file.network_id,
            ephemeral: file.ephemeral.unwrap_or(false),
            data_dir: file.data_dir,
            repair_journal: false,
            close_interval_secs: file
                .close_interval
                .unwrap_or(crate::limits::CLOSE_INTERVAL_SECS_DEFAULT),
            cpu_threads: file.cpu_threads,
            online_delete: check_online_delete(file.online_delete)?,
        })
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
    let tls = match (secure, p.tls_cert, p.tls_key) {
        (true, Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
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
    // rippled: a port without an `admin` line has no admin callers.
    let mut admin = Vec::new();
    for entry in p.admin.unwrap_or_default() {
        admin.push(AdminNet::parse(&entry).ok_or_else(|| {
            ConfigError::Invalid(format!("[{name}] admin entry '{entry}' is not ADDR[/BITS]"))
        })?);
    }
    // rippled: a port's `limit` defaults to 0, unlimited.
    let limit = p.limit.unwrap_or(0);
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
    })
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
    fn rejects_bad_ports() {
        for bad in [
            "[[port]]\nbind = \"x\"\nprotocols = [\"ws\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"gopher\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"wss\"]",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\", \"https\"]\ntls_cert=\"a\"\ntls_key=\"b\"",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\"]\nadmin = [\"1.2.3.4/40\"]",
            "signing_support = true",
            "[[port]]\nbind = \"127.0.0.1:1\"\nprotocols = [\"ws\"]\nbogus = 1",
        ] {
            assert!(ServerConfig::from_toml(bad).is_err(), "{bad}");
        }
    }
}
