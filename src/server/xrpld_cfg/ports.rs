//! `[server]` and the `[port_*]` sections it names, as xrpld reads them (`parse_Ports` in
//! `ServerHandler.cpp`, `parse_Port` in `Port.cpp`): the `key = value` lines of `[server]`
//! are every port's defaults (an `admin` or `secure_gateway` list there adds to each
//! port's), its other lines name the ports, in the order they are listed.

use super::ini::{Ini, Line, Section};
use super::{CfgError, Notes};
use crate::limits::{WS_PING_INTERVAL_SECS, WS_SEND_QUEUE_MESSAGES_MAX, WS_SEND_TIMEOUT_SECS};
use crate::server::config::{FaucetMode, PortConfig, TlsFiles, TlsSource};
use crate::server::role::AdminNet;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

/// The protocols a port may list (`Port.h`); `peer` and `grpc` are xrpld's peer-to-peer and
/// gRPC services, which ledgerd does not serve.
const PROTOCOLS: &[&str] = &["http", "https", "ws", "ws2", "wss", "wss2", "peer", "grpc"];

/// Port keys xrpld reads that ledgerd does not honour: logged, then ignored.
const KEYS_IGNORED: &[&str] = &[
    "ssl_ciphers",
    "permessage_deflate",
    "client_max_window_bits",
    "server_max_window_bits",
    "client_no_context_takeover",
    "server_no_context_takeover",
    "compress_level",
    "memory_level",
];

/// Port keys ledgerd reads.
const KEYS: &[&str] = &[
    "ip",
    "port",
    "protocol",
    "limit",
    "send_queue_limit",
    "admin",
    "secure_gateway",
    "user",
    "password",
    "admin_user",
    "admin_password",
    "ssl_key",
    "ssl_cert",
    "ssl_chain",
];

/// One port's settings as written, its `[server]` defaults applied (xrpld's `ParsedPort`).
#[derive(Clone, Default)]
struct Parsed {
    ip: Option<IpAddr>,
    port: Option<u16>,
    protocols: Vec<String>,
    limit: usize,
    send_queue_limit: Option<usize>,
    admin: Vec<AdminNet>,
    secure_gateway: Vec<AdminNet>,
    user: String,
    password: String,
    admin_user: String,
    admin_password: String,
    ssl_key: Option<PathBuf>,
    ssl_cert: Option<PathBuf>,
    ssl_chain: Option<PathBuf>,
}

/// Every port `[server]` names. `base` is the directory relative TLS paths are read from.
pub fn ports(ini: &Ini, base: &Path, notes: &mut Notes) -> Result<Vec<PortConfig>, CfgError> {
    let server = ini.section("server").ok_or_else(|| CfgError {
        line: 0,
        reason: "Required section [server] is missing".into(),
    })?;
    let mut common = Parsed::default();
    read_keys(&mut common, server, base, notes)?;
    let mut out = Vec::new();
    for name in &server.values {
        let Some(section) = ini.section(&name.text) else {
            return Err(CfgError::at(
                name,
                format!("Missing section: [{}]", name.text),
            ));
        };
        if name.text == "port_grpc" {
            notes.ignored(&format!("[{}]: ledgerd serves no gRPC", name.text));
            continue;
        }
        let mut parsed = common.clone();
        read_keys(&mut parsed, section, base, notes)?;
        if let Some(port) = port_config(&name.text, section, parsed, notes)? {
            out.push(port);
        }
    }
    if out.is_empty() {
        return Err(CfgError {
            line: server.opened_at,
            reason: "[server] names no port ledgerd can serve (http, https, ws, wss)".into(),
        });
    }
    Ok(out)
}

/// Reads a section's port keys over `p` (xrpld's `parse_Port`).
fn read_keys(p: &mut Parsed, s: &Section, base: &Path, notes: &mut Notes) -> Result<(), CfgError> {
    let invalid = |line: &Line, key: &str| {
        CfgError::at(
            line,
            format!(
                "Invalid value '{}' for key '{key}' in [{}]",
                line.text, s.name
            ),
        )
    };
    if let Some(l) = s.get("ip") {
        p.ip = Some(l.text.parse().map_err(|_| invalid(l, "ip"))?);
    }
    if let Some(l) = s.get("port") {
        p.port = Some(l.text.parse().map_err(|_| invalid(l, "port"))?);
    }
    if let Some(l) = s.get("protocol") {
        p.protocols = protocols(l, &s.name)?;
    }
    if let Some(l) = s.get("limit") {
        p.limit = match l.text.eq_ignore_ascii_case("unlimited") {
            true => 0,
            false => l.text.parse::<u16>().map_err(|_| invalid(l, "limit"))? as usize,
        };
    }
    if let Some(l) = s.get("send_queue_limit") {
        let n = l.text.parse::<u16>().ok().filter(|n| *n > 0);
        p.send_queue_limit = Some(n.ok_or_else(|| invalid(l, "send_queue_limit"))? as usize);
    }
    if let Some(l) = s.get("admin") {
        p.admin.extend(networks(l, "admin", &s.name)?);
    }
    if let Some(l) = s.get("secure_gateway") {
        p.secure_gateway
            .extend(networks(l, "secure_gateway", &s.name)?);
    }
    let text = |key| s.get(key).map(|l| l.text.clone());
    for (key, slot) in [
        ("user", &mut p.user),
        ("password", &mut p.password),
        ("admin_user", &mut p.admin_user),
        ("admin_password", &mut p.admin_password),
    ] {
        if let Some(v) = text(key) {
            *slot = v;
        }
    }
    for (key, slot) in [
        ("ssl_key", &mut p.ssl_key),
        ("ssl_cert", &mut p.ssl_cert),
        ("ssl_chain", &mut p.ssl_chain),
    ] {
        if let Some(v) = text(key) {
            *slot = Some(base.join(v));
        }
    }
    note_other_keys(s, notes);
    Ok(())
}

/// Logs the keys of a port section that ledgerd does not read.
fn note_other_keys(s: &Section, notes: &mut Notes) {
    for (key, line) in &s.pairs {
        if KEYS.contains(&key.as_str()) {
            continue;
        }
        let why = match KEYS_IGNORED.contains(&key.as_str()) {
            true => "not applied by ledgerd",
            false => "not a port setting",
        };
        notes.ignored(&format!("[{}] {key} (line {}): {why}", s.name, line.number));
    }
}

/// A `protocol` list: comma-separated names, blanks around them dropped, each once, in
/// xrpld's order (a sorted set).
fn protocols(line: &Line, section: &str) -> Result<Vec<String>, CfgError> {
    let mut out: Vec<String> = Vec::new();
    for name in line
        .text
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        if !PROTOCOLS.contains(&name) {
            return Err(CfgError::at(
                line,
                format!(
                    "Unknown protocol '{name}' in [{section}] (known: {})",
                    PROTOCOLS.join(", ")
                ),
            ));
        }
        if !out.iter().any(|p| p == name) {
            out.push(name.to_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// An `admin` or `secure_gateway` list: comma-separated addresses (one host each) or
/// networks `ADDR/BITS` whose address is the network's own (`10.1.2.0/24`, not
/// `10.1.2.3/24`). An unspecified address (`0.0.0.0` or `::`) means every address, IPv4
/// and IPv6, as in xrpld.
fn networks(line: &Line, key: &str, section: &str) -> Result<Vec<AdminNet>, CfgError> {
    let mut out = Vec::new();
    for entry in line.text.split(',').map(str::trim) {
        let bad = |why: &str| {
            CfgError::at(
                line,
                format!("Invalid value '{entry}' for key '{key}' in [{section}]{why}"),
            )
        };
        if entry.parse::<IpAddr>().is_ok_and(|ip| ip.is_unspecified()) {
            out.extend(
                ["0.0.0.0/0", "::/0"]
                    .iter()
                    .filter_map(|n| AdminNet::parse(n)),
            );
            break;
        }
        let net = AdminNet::parse(entry).ok_or_else(|| bad(""))?;
        if !net.is_canonical() {
            return Err(bad(": the address is not the network's own address"));
        }
        out.push(net);
    }
    Ok(out)
}

/// The port's configuration, or `None` when it has no protocol ledgerd serves (xrpld
/// drops the peer protocol in standalone mode, and a port left with none).
fn port_config(
    name: &str,
    section: &Section,
    p: Parsed,
    notes: &mut Notes,
) -> Result<Option<PortConfig>, CfgError> {
    let missing = |key: &str| CfgError {
        line: section.opened_at,
        reason: format!("Missing '{key}' in [{name}]"),
    };
    let ip = p.ip.ok_or_else(|| missing("ip"))?;
    let port = p.port.ok_or_else(|| missing("port"))?;
    if p.protocols.is_empty() {
        return Err(missing("protocol"));
    }
    let served: Vec<String> = p
        .protocols
        .iter()
        .filter(|proto| !matches!(proto.as_str(), "peer" | "grpc"))
        .cloned()
        .collect();
    if served.len() < p.protocols.len() {
        notes.ignored(&format!(
            "[{name}] protocol peer/grpc: ledgerd has no peers and no gRPC"
        ));
    }
    if served.is_empty() {
        return Ok(None);
    }
    let has = |names: &[&str]| served.iter().any(|s| names.contains(&s.as_str()));
    let secure = has(&["https", "wss", "wss2"]);
    let tls = tls_source(name, section, secure, &p)?;
    Ok(Some(PortConfig {
        name: name.to_owned(),
        bind: SocketAddr::new(ip, port),
        ws: has(&["ws", "ws2", "wss", "wss2"]),
        http: has(&["http", "https"]),
        plain_too: secure && has(&["http", "ws", "ws2"]),
        protocols: served,
        tls,
        admin: p.admin,
        limit: p.limit,
        ip_limit: 0,
        send_queue_limit: p.send_queue_limit.unwrap_or(WS_SEND_QUEUE_MESSAGES_MAX),
        send_timeout_secs: WS_SEND_TIMEOUT_SECS,
        ping_interval_secs: WS_PING_INTERVAL_SECS,
        admin_credentials: (!p.admin_user.is_empty() || !p.admin_password.is_empty())
            .then_some((p.admin_user, p.admin_password)),
        user_credentials: (!p.user.is_empty() && !p.password.is_empty())
            .then_some((p.user, p.password)),
        secure_gateway: p.secure_gateway,
        faucet: FaucetMode::Loopback,
        explorer: true,
    }))
}

/// Where a port serving https or wss gets its certificate, as xrpld decides it
/// (`ServerHandler::Setup::makeContexts`): naming none of `ssl_key`, `ssl_cert` and
/// `ssl_chain`, a self-signed certificate made at start; else the files, the chain's first
/// certificate being the server's own when `ssl_cert` is absent. A certificate without its
/// key, or a key without a certificate, is refused (xrpld stops at start: "Invalid key in
/// SSL private key file").
fn tls_source(
    name: &str,
    section: &Section,
    secure: bool,
    p: &Parsed,
) -> Result<Option<TlsSource>, CfgError> {
    if !secure {
        return Ok(None);
    }
    let files = |cert: &PathBuf, key: &PathBuf, chain: Option<PathBuf>| {
        Ok(Some(TlsSource::Files(TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
            chain,
        })))
    };
    match (&p.ssl_key, &p.ssl_cert, &p.ssl_chain) {
        (None, None, None) => Ok(Some(TlsSource::SelfSigned)),
        (Some(key), Some(cert), chain) => files(cert, key, chain.clone()),
        (Some(key), None, Some(chain)) => files(chain, key, None),
        (None, _, _) => Err(CfgError {
            line: section.opened_at,
            reason: format!(
                "[{name}] names a certificate (ssl_cert or ssl_chain) but no ssl_key: xrpld \
                 refuses it (\"Invalid key in SSL private key file\")"
            ),
        }),
        (Some(_), None, None) => Err(CfgError {
            line: section.opened_at,
            reason: format!(
                "[{name}] names ssl_key but no ssl_cert or ssl_chain: xrpld refuses it \
                 (\"Invalid key in SSL private key file\")"
            ),
        }),
    }
}
