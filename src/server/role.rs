//! Who is calling: admin or not, decided from the peer address and the port's admin networks,
//! and whom the load is charged to: behind a secure gateway, the client the gateway names
//! (rippled `Role.cpp`). The [`Role`] itself is the RPC layer's.

use crate::rpc::role::{Forwarded, Role};
use hyper::HeaderMap;
use std::net::IpAddr;

/// One admin network: an address and a prefix length (`127.0.0.1`, `10.0.0.0/8`, `::1/128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdminNet {
    addr: IpAddr,
    prefix_bits: u8,
}

impl AdminNet {
    /// Parse `ADDR` or `ADDR/PREFIX`. `0.0.0.0` alone means every IPv4 address and `::`
    /// every IPv6 address, as in rippled's `admin = 0.0.0.0`.
    pub fn parse(text: &str) -> Option<AdminNet> {
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a.trim(), Some(p.trim().parse::<u8>().ok()?)),
            None => (text.trim(), None),
        };
        let addr: IpAddr = addr.parse().ok()?;
        let full = if addr.is_ipv4() { 32 } else { 128 };
        let prefix_bits = match prefix {
            Some(p) if p <= full => p,
            Some(_) => return None,
            None if addr.is_unspecified() => 0,
            None => full,
        };
        Some(AdminNet { addr, prefix_bits })
    }

    /// Whether the address is the network's own: no bit set past the prefix (`10.1.2.0/24`,
    /// not `10.1.2.3/24`, which xrpld refuses).
    pub fn is_canonical(&self) -> bool {
        let octets = match self.addr {
            IpAddr::V4(a) => a.octets().to_vec(),
            IpAddr::V6(a) => a.octets().to_vec(),
        };
        let prefix = usize::from(self.prefix_bits);
        octets.iter().enumerate().all(|(i, byte)| {
            let kept = prefix.saturating_sub(i * 8).min(8);
            let host_bits = if kept == 8 { 0 } else { 0xFFu8 >> kept };
            byte & host_bits == 0
        })
    }

    /// Whether `ip` lies inside this network (IPv4-mapped IPv6 peers count as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                prefix_eq(&net.octets(), &ip.octets(), self.prefix_bits)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                prefix_eq(&net.octets(), &ip.octets(), self.prefix_bits)
            }
            _ => false,
        }
    }
}

fn prefix_eq(a: &[u8], b: &[u8], bits: u8) -> bool {
    let bits = bits as usize;
    let whole = bits / 8;
    if a[..whole] != b[..whole] {
        return false;
    }
    let rest = bits % 8;
    if rest == 0 {
        return true;
    }
    let mask = 0xFFu8 << (8 - rest);
    (a[whole] & mask) == (b[whole] & mask)
}

/// The admin networks a port has when its configuration names none: loopback only.
pub fn default_admin_nets() -> Vec<AdminNet> {
    ["127.0.0.0/8", "::1"]
        .iter()
        .filter_map(|s| AdminNet::parse(s))
        .collect()
}

/// The caller's role on a port with these admin networks.
pub fn role_for(peer: IpAddr, admin: &[AdminNet]) -> Role {
    if admin.iter().any(|n| n.contains(peer)) {
        Role::Admin
    } else {
        Role::User
    }
}

/// Whom a caller's load is charged to, when the caller is not an admin (rippled's resource
/// consumer, `requestInboundEndpoint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payer {
    /// Nobody: a caller a secure gateway identified by `X-User` (rippled's IDENTIFIED
    /// role, unlimited like an admin).
    Unlimited,
    /// This address's balance: the caller's own, or, from a secure gateway, the address
    /// it forwards for (rippled's PROXY role).
    Address(IpAddr),
}

/// What a request from `peer` with these headers says of its client, when `peer` is one
/// of the port's secure gateways `gateways` (rippled `WSInfoSub`, `processSession`): its
/// `X-User` and the client address of `Forwarded: for=` (or of `X-Forwarded-For`), see
/// [`forwarded_for`]. `None` for anyone else, whose such headers count for nothing.
pub fn gateway_says(peer: IpAddr, gateways: &[AdminNet], headers: &HeaderMap) -> Option<Forwarded> {
    if !gateways.iter().any(|n| n.contains(peer)) {
        return None;
    }
    let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
    Some(Forwarded {
        user: headers
            .get("x-user")
            .map(|v| text(v.as_bytes()))
            .unwrap_or_default(),
        client: forwarded_for(headers).map(text).unwrap_or_default(),
    })
}

/// Whom a request from `peer` with these headers is charged to, on a port whose secure
/// gateways are `gateways` (rippled `requestRole` and `requestInboundEndpoint`): see
/// [`payer_of`].
pub fn payer(peer: IpAddr, gateways: &[AdminNet], headers: &HeaderMap) -> Payer {
    payer_of(peer, gateway_says(peer, gateways, headers).as_ref())
}

/// Whom a request from `peer` is charged to, given what a gateway said of its client
/// (`None`: `peer` is no gateway, and pays). From a gateway, a non-empty `X-User` makes
/// the caller unlimited, else the client address it names is charged, or the gateway's
/// own when it names no address.
pub fn payer_of(peer: IpAddr, said: Option<&Forwarded>) -> Payer {
    let Some(said) = said else {
        return Payer::Address(peer);
    };
    if !said.user.is_empty() {
        return Payer::Unlimited;
    }
    match said.client.parse() {
        Ok(client) => Payer::Address(client),
        Err(_) => {
            tracing::debug!(%peer, "a secure gateway's request names no client address");
            Payer::Address(peer)
        }
    }
}

/// Whether a request comes from a web page of another site: it carries an `Origin` (a
/// browser always sends one on a WebSocket handshake and a cross-site POST) that is not
/// a loopback page (`localhost`, 127.0.0.0/8, `[::1]`, any port) and not this server's own
/// origin reached by IP address (the explorer opened at `http://10.0.0.5:6006/`). Such a
/// request is never admin: otherwise any site open in a developer's browser could send
/// `ledger_accept`, `ledger_revert` or `stop` to `ws://127.0.0.1:6006`, or reach it by a
/// host name it points at 127.0.0.1 (DNS rebinding, why a same-origin page reached by
/// name does not count either). Clients that are not browsers send no `Origin`.
pub fn from_another_site(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(hyper::header::ORIGIN) else {
        return false;
    };
    let Some(host) = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest)
    else {
        return true;
    };
    let name = host_name(host);
    if name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
    {
        return false;
    }
    let own = headers
        .get(hyper::header::HOST)
        .and_then(|h| h.to_str().ok());
    !(own.is_some_and(|own| own.eq_ignore_ascii_case(host)) && by_address(host))
}

/// Whether `host[:port]` (a `Host` header's value) names an IP address or `localhost`,
/// not a name DNS could point anywhere.
pub fn by_address(host: &str) -> bool {
    let name = host_name(host);
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// The host of `host[:port]` or `[v6]:port`, without brackets or port.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

/// The role of a caller that is not an admin (rippled `requestRole` past its admin
/// test), given what a gateway said of it: PROXY from a gateway, IDENTIFIED when the
/// gateway also names a user (a non-empty `X-User`), a guest otherwise.
pub fn non_admin_role(said: Option<&Forwarded>) -> Role {
    match said {
        None => Role::User,
        Some(f) if f.user.is_empty() => Role::Proxy,
        Some(_) => Role::Identified,
    }
}

/// The client address a proxy names, as rippled reads it (`forwardedFor`): the first
/// `for=` parameter (any case, at the start of an element or parameter) of the first
/// `Forwarded` header, up to the next `,` or `;`; without a `Forwarded` header, the first
/// entry of `X-Forwarded-For`. Blanks and quotes around it, IPv6 brackets and an IPv4
/// address's port are taken off (RFC 7239 `for="[2001:db8::1]:4711"`).
pub fn forwarded_for(headers: &HeaderMap) -> Option<&[u8]> {
    if let Some(value) = headers.get("forwarded") {
        let v = value.as_bytes();
        let start = (0..v.len()).find(|&i| {
            v[i..].len() >= 4
                && v[i..i + 4].eq_ignore_ascii_case(b"for=")
                && (i == 0 || matches!(v[i - 1], b';' | b',' | b' ' | b'\t'))
        })? + 4;
        let rest = &v[start..];
        let end = rest
            .iter()
            .position(|&b| b == b',' || b == b';')
            .unwrap_or(rest.len());
        return address_of(&rest[..end]);
    }
    let v = headers.get("x-forwarded-for")?.as_bytes();
    let end = v.iter().position(|&b| b == b',').unwrap_or(v.len());
    address_of(&v[..end])
}

/// Leading spaces and trailing spaces and line ends off.
fn trimmed(mut s: &[u8]) -> &[u8] {
    while let [b' ', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\r' | b'\n'] = s {
        s = rest;
    }
    s
}

/// The address in one `for=` value or `X-Forwarded-For` entry (rippled
/// `extractIpAddrFromField`); `None` when nothing is left of it.
fn address_of(field: &[u8]) -> Option<&[u8]> {
    let mut s = trimmed(field);
    if let [b'"', inner @ ..] = s {
        // Quotes must close.
        let [inner @ .., b'"'] = inner else {
            return None;
        };
        s = trimmed(inner);
    }
    if let [b'[', inner @ ..] = s {
        // A bracketed IPv6 address: hex digits, colons, dots (and blanks) up to `]`.
        let close = inner
            .iter()
            .position(|&b| !(b.is_ascii_hexdigit() || matches!(b, b':' | b'.' | b' ')))?;
        if inner[close] != b']' {
            return None;
        }
        s = trimmed(&inner[..close]);
    }
    if s.is_empty() {
        return None;
    }
    // Hex digits then a colon (or nothing else): IPv6, which carries no port here.
    let after_hex = s
        .iter()
        .position(|&b| !(b.is_ascii_hexdigit() || b == b' '));
    match after_hex {
        None => Some(s),
        Some(i) if s[i] == b':' => Some(s),
        // An IPv4 address or a name: a port after a colon is dropped.
        Some(_) => Some(match s.iter().position(|&b| b == b':') {
            Some(colon) => &s[..colon],
            None => s,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Header lines, `(name, value)`.
    type Lines<'a> = &'a [(&'static str, &'a str)];

    fn headers(pairs: Lines) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, value.parse().unwrap());
        }
        h
    }

    fn client(pairs: Lines) -> Option<String> {
        let h = headers(pairs);
        forwarded_for(&h).map(|a| String::from_utf8_lossy(a).into_owned())
    }

    #[test]
    fn the_forwarded_client_address_is_read_as_rippled_reads_it() {
        let cases: &[(Lines, Option<&str>)] = &[
            (&[("forwarded", "for=192.0.2.60")], Some("192.0.2.60")),
            (
                &[("forwarded", "For=\"192.0.2.60:4711\"")],
                Some("192.0.2.60"),
            ),
            (
                &[("forwarded", "for=\"[2001:db8::1]:4711\"")],
                Some("2001:db8::1"),
            ),
            (
                &[("forwarded", "for=2001:db8::1;proto=http")],
                Some("2001:db8::1"),
            ),
            (
                &[("forwarded", "proto=https; for=198.51.100.17, for=10.0.0.1")],
                Some("198.51.100.17"),
            ),
            // `for=` inside another parameter's value is no `for=`.
            (
                &[("forwarded", "by=x;notfor=1.1.1.1;for=2.2.2.2")],
                Some("2.2.2.2"),
            ),
            (&[("forwarded", "for= 192.0.2.1 ")], Some("192.0.2.1")),
            (&[("forwarded", "for=\"192.0.2.1")], None),
            (&[("forwarded", "for=[2001:db8::1")], None),
            (&[("forwarded", "for=\"\"")], None),
            (&[("forwarded", "proto=http")], None),
            // A Forwarded header without `for=` hides X-Forwarded-For, as in rippled.
            (
                &[("forwarded", "proto=http"), ("x-forwarded-for", "1.2.3.4")],
                None,
            ),
            (&[("forwarded", "for=unknown")], Some("unknown")),
            (
                &[("x-forwarded-for", " 203.0.113.9:80 , 10.0.0.1")],
                Some("203.0.113.9"),
            ),
            (&[("x-forwarded-for", "::1")], Some("::1")),
            (&[], None),
        ];
        for (pairs, want) in cases {
            assert_eq!(client(pairs).as_deref(), *want, "{pairs:?}");
        }
    }

    #[test]
    fn only_a_gateway_names_the_payer() {
        let gateway: IpAddr = "127.0.0.1".parse().unwrap();
        let other: IpAddr = "127.0.0.2".parse().unwrap();
        let nets = [AdminNet::parse("127.0.0.1").unwrap()];
        let fwd = headers(&[("forwarded", "for=10.1.2.3")]);
        let client: IpAddr = "10.1.2.3".parse().unwrap();
        assert_eq!(payer(gateway, &nets, &fwd), Payer::Address(client));
        assert_eq!(payer(other, &nets, &fwd), Payer::Address(other));
        assert_eq!(payer(gateway, &[], &fwd), Payer::Address(gateway));
        // An address that does not parse leaves the gateway paying.
        let bad = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(payer(gateway, &nets, &bad), Payer::Address(gateway));
        assert_eq!(
            payer(gateway, &nets, &HeaderMap::new()),
            Payer::Address(gateway)
        );
        // X-User: identified, unlimited; an empty one identifies nobody.
        let user = headers(&[("x-user", "alice"), ("forwarded", "for=10.1.2.3")]);
        assert_eq!(payer(gateway, &nets, &user), Payer::Unlimited);
        assert_eq!(payer(other, &nets, &user), Payer::Address(other));
        let empty = headers(&[("x-user", ""), ("forwarded", "for=10.1.2.3")]);
        assert_eq!(payer(gateway, &nets, &empty), Payer::Address(client));
    }

    #[test]
    fn a_gateway_s_caller_is_proxied_or_identified() {
        let gateway: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        let nets = [AdminNet::parse("10.0.0.0/31").unwrap()];
        let both = headers(&[
            ("x-user", "alice"),
            ("x-forwarded-for", "192.0.2.7, 10.9.9.9"),
        ]);
        let said = gateway_says(gateway, &nets, &both).expect("a gateway");
        assert_eq!(
            (said.user.as_str(), said.client.as_str()),
            ("alice", "192.0.2.7")
        );
        assert_eq!(non_admin_role(Some(&said)), Role::Identified);
        // No X-User (or an empty one): proxied; nothing named: empty.
        let none = gateway_says(gateway, &nets, &HeaderMap::new()).expect("a gateway");
        assert_eq!(none, Forwarded::default());
        assert_eq!(non_admin_role(Some(&none)), Role::Proxy);
        let empty = gateway_says(gateway, &nets, &headers(&[("x-user", "")])).unwrap();
        assert_eq!(non_admin_role(Some(&empty)), Role::Proxy);
        // Anyone else says nothing: a guest.
        assert_eq!(gateway_says(other, &nets, &both), None);
        assert_eq!(non_admin_role(None), Role::User);
        // Unlimited: admins and identified callers only.
        let unlimited: Vec<Role> = [Role::User, Role::Proxy, Role::Identified, Role::Admin]
            .into_iter()
            .filter(|r| r.is_unlimited())
            .collect();
        assert_eq!(unlimited, [Role::Identified, Role::Admin]);
    }

    #[test]
    fn networks_match_by_prefix() {
        let lo = default_admin_nets();
        assert_eq!(role_for("127.0.0.1".parse().unwrap(), &lo), Role::Admin);
        assert_eq!(
            role_for("::ffff:127.0.0.1".parse().unwrap(), &lo),
            Role::Admin
        );
        assert_eq!(role_for("::1".parse().unwrap(), &lo), Role::Admin);
        assert_eq!(role_for("10.0.0.1".parse().unwrap(), &lo), Role::User);
        let ten = [AdminNet::parse("10.1.0.0/20").unwrap()];
        assert_eq!(role_for("10.1.15.255".parse().unwrap(), &ten), Role::Admin);
        assert_eq!(role_for("10.1.16.0".parse().unwrap(), &ten), Role::User);
        let all = [AdminNet::parse("0.0.0.0").unwrap()];
        assert_eq!(role_for("8.8.8.8".parse().unwrap(), &all), Role::Admin);
        assert!(AdminNet::parse("1.2.3.4/33").is_none());
        assert!(AdminNet::parse("nonsense").is_none());
        assert!(AdminNet::parse("10.1.2.0/24").unwrap().is_canonical());
        assert!(!AdminNet::parse("10.1.2.3/24").unwrap().is_canonical());
        assert!(AdminNet::parse("10.1.2.3").unwrap().is_canonical());
        assert!(AdminNet::parse("10.1.2.128/25").unwrap().is_canonical());
        assert!(!AdminNet::parse("10.1.2.129/25").unwrap().is_canonical());
        assert!(AdminNet::parse("fd00::/8").unwrap().is_canonical());
        assert!(!AdminNet::parse("fd00::1/64").unwrap().is_canonical());
    }

    #[test]
    fn pages_of_other_sites_are_told_apart() {
        let headers = |origin: Option<&str>, host: &str| {
            let mut h = HeaderMap::new();
            h.insert(hyper::header::HOST, host.parse().unwrap());
            if let Some(o) = origin {
                h.insert(hyper::header::ORIGIN, o.parse().unwrap());
            }
            h
        };
        let local = "127.0.0.1:6006";
        assert!(!from_another_site(&headers(None, local)));
        for page in [
            "http://localhost:3000",
            "http://127.0.0.1:6006",
            "http://[::1]:8080",
            "https://127.0.0.2",
        ] {
            assert!(!from_another_site(&headers(Some(page), local)), "{page}");
        }
        assert!(!from_another_site(&headers(
            Some("http://10.0.0.5:6006"),
            "10.0.0.5:6006"
        )));
        for page in [
            "https://evil.example",
            "http://evil.example:6006",
            "null",
            "http://10.0.0.9:6006",
        ] {
            assert!(from_another_site(&headers(Some(page), local)), "{page}");
        }
        // DNS rebinding: the page's own origin, but by a name.
        let by_name = "rebind.example:6006";
        assert!(from_another_site(&headers(
            Some("http://rebind.example:6006"),
            by_name
        )));
    }
}
