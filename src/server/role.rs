//! Who is calling: admin or not, decided from the peer address and the port's admin networks
//! (rippled `Role.cpp`). The [`Role`] itself is the RPC layer's.

use crate::rpc::role::Role;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
