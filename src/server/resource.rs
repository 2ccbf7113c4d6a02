//! Per-client resource accounting, as rippled's resource manager does it: every request
//! charges the client's address a cost; the balance decays over
//! [`RESOURCE_DECAY_WINDOW_SECS`]; above [`RESOURCE_BALANCE_WARNING`] replies carry
//! `warning: "load"`, above [`RESOURCE_BALANCE_DROP`] the client is cut off. Admin clients
//! are never charged.

use crate::limits::{
    RESOURCE_BALANCE_DROP, RESOURCE_BALANCE_WARNING, RESOURCE_DECAY_WINDOW_SECS,
    RESOURCE_ENTRIES_MAX, RESOURCE_ENTRY_IDLE_SECS,
};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

/// What a client's balance means for its next reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// Nothing special.
    Ok,
    /// Add `warning: "load"`.
    Warn,
    /// Cut the client off.
    Drop,
}

struct Entry {
    balance: f64,
    last: Instant,
}

/// Balances per client address.
pub struct ResourceManager {
    entries: Mutex<HashMap<IpAddr, Entry>>,
}

impl Default for ResourceManager {
    fn default() -> Self {
        ResourceManager::new()
    }
}

fn decayed(entry: &Entry, now: Instant) -> f64 {
    let secs = now.saturating_duration_since(entry.last).as_secs_f64();
    let keep = 1.0 - 1.0 / RESOURCE_DECAY_WINDOW_SECS as f64;
    entry.balance * keep.powf(secs)
}

fn disposition(balance: f64) -> Disposition {
    if balance > RESOURCE_BALANCE_DROP as f64 {
        Disposition::Drop
    } else if balance > RESOURCE_BALANCE_WARNING as f64 {
        Disposition::Warn
    } else {
        Disposition::Ok
    }
}

impl ResourceManager {
    /// No client charged yet.
    pub fn new() -> ResourceManager {
        ResourceManager {
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// Charge `cost` to `ip` and say what its balance now means.
    pub fn charge(&self, ip: IpAddr, cost: u32) -> Disposition {
        self.charge_at(ip, cost, Instant::now())
    }

    /// [`ResourceManager::charge`] at a given time (tests).
    pub fn charge_at(&self, ip: IpAddr, cost: u32, now: Instant) -> Disposition {
        let mut entries = self.entries.lock();
        if entries.len() >= RESOURCE_ENTRIES_MAX && !entries.contains_key(&ip) {
            sweep(&mut entries, now);
        }
        let entry = entries.entry(ip).or_insert(Entry {
            balance: 0.0,
            last: now,
        });
        entry.balance = decayed(entry, now) + f64::from(cost);
        entry.last = now;
        disposition(entry.balance)
    }

    /// What `ip`'s balance means now, without charging.
    pub fn disposition(&self, ip: IpAddr) -> Disposition {
        let now = Instant::now();
        self.entries
            .lock()
            .get(&ip)
            .map(|e| disposition(decayed(e, now)))
            .unwrap_or(Disposition::Ok)
    }
}

/// Forget idle entries; if still full, forget the smaller half of the balances.
fn sweep(entries: &mut HashMap<IpAddr, Entry>, now: Instant) {
    entries
        .retain(|_, e| now.saturating_duration_since(e.last).as_secs() < RESOURCE_ENTRY_IDLE_SECS);
    if entries.len() >= RESOURCE_ENTRIES_MAX {
        let mut balances: Vec<f64> = entries.values().map(|e| decayed(e, now)).collect();
        balances.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let median = balances[balances.len() / 2];
        entries.retain(|_, e| decayed(e, now) > median);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{RESOURCE_CHARGE_MALFORMED, RESOURCE_CHARGE_REFERENCE};
    use std::time::Duration;

    #[test]
    fn warns_then_drops_then_recovers() {
        let m = ResourceManager::new();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let t0 = Instant::now();
        let mut seen = Vec::new();
        for _ in 0..300 {
            seen.push(m.charge_at(ip, RESOURCE_CHARGE_MALFORMED, t0));
        }
        assert_eq!(seen[0], Disposition::Ok);
        assert!(seen.contains(&Disposition::Warn));
        assert_eq!(seen[299], Disposition::Drop);
        // Another client is unaffected.
        assert_eq!(
            m.charge_at("10.0.0.2".parse().unwrap(), RESOURCE_CHARGE_REFERENCE, t0),
            Disposition::Ok
        );
        // Two minutes later the balance has decayed below the warning level.
        let later = t0 + Duration::from_secs(120);
        assert_eq!(
            m.charge_at(ip, RESOURCE_CHARGE_REFERENCE, later),
            Disposition::Ok
        );
    }
}
