//! A bounded cache of derived key pairs for channel_authorize.
//!
//! Deriving a key from a secret costs one extra scalar multiplication, about half of
//! channel_authorize's work (perf.md). A client that authorizes many claims sends the same
//! secret each time, so the derived pair is kept, keyed by a hash of the secret field's name,
//! its value and the requested key type, for at most
//! [`KEY_CACHE_ENTRIES_MAX`](crate::limits::KEY_CACHE_ENTRIES_MAX) secrets. Entries leave in
//! insertion order; a `KeyPair` wipes its secret when its last reference is dropped, and the
//! lookup hashes are wiped on eviction too.

use crate::protocol::hash::sha512_half;
use crate::protocol::keys::{KeyPair, KeyType};
use parking_lot::RwLock;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use zeroize::Zeroize;

/// The lookup key: SHA512Half of the inputs that decide the derived pair.
type CacheKey = [u8; 32];

struct Entries {
    map: HashMap<CacheKey, Arc<KeyPair>>,
    order: VecDeque<CacheKey>,
}

/// The cache; shared by every CPU pool thread. Lookups take a read lock, so pool threads
/// signing with cached keys never wait for each other.
pub struct KeyCache {
    entries: RwLock<Entries>,
    capacity: usize,
}

impl KeyCache {
    /// A cache for at most `capacity` secrets (0 disables it).
    pub fn new(capacity: usize) -> KeyCache {
        KeyCache {
            entries: RwLock::new(Entries {
                map: HashMap::new(),
                order: VecDeque::new(),
            }),
            capacity,
        }
    }

    /// The lookup key of a secret field, its value and the explicit key type, if any.
    pub fn key(field: &str, value: &str, key_type: Option<KeyType>) -> CacheKey {
        let kt: &[u8] = match key_type {
            None => b"-",
            Some(KeyType::Secp256k1) => b"s",
            Some(KeyType::Ed25519) => b"e",
        };
        sha512_half(&[
            b"ledgerd key cache\0",
            field.as_bytes(),
            b"\0",
            kt,
            b"\0",
            value.as_bytes(),
        ])
        .0
    }

    /// The pair cached under `key`.
    pub fn get(&self, key: &CacheKey) -> Option<Arc<KeyPair>> {
        self.entries.read().map.get(key).cloned()
    }

    /// Remember `pair` under `key`, evicting the oldest entry when full.
    pub fn insert(&self, key: CacheKey, pair: Arc<KeyPair>) {
        if self.capacity == 0 {
            return;
        }
        let mut e = self.entries.write();
        if e.map.contains_key(&key) {
            return;
        }
        while e.map.len() >= self.capacity {
            let Some(mut old) = e.order.pop_front() else {
                break;
            };
            e.map.remove(&old);
            old.zeroize();
        }
        e.map.insert(key, pair);
        e.order.push_back(key);
    }

    /// Number of cached pairs.
    pub fn len(&self) -> usize {
        self.entries.read().map.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::seed::Seed;

    #[test]
    fn bounded_and_keyed_by_every_input() {
        let cache = KeyCache::new(2);
        let pair = |p: &str| {
            Arc::new(KeyPair::from_seed(&Seed::from_passphrase(p), KeyType::Ed25519).unwrap())
        };
        let k1 = KeyCache::key("secret", "a", None);
        assert_ne!(k1, KeyCache::key("passphrase", "a", None));
        assert_ne!(k1, KeyCache::key("secret", "a", Some(KeyType::Ed25519)));
        assert_ne!(k1, KeyCache::key("secret", "b", None));
        cache.insert(k1, pair("a"));
        cache.insert(KeyCache::key("secret", "b", None), pair("b"));
        cache.insert(KeyCache::key("secret", "c", None), pair("c"));
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&k1).is_none(), "the oldest entry is evicted");
        assert!(cache.get(&KeyCache::key("secret", "c", None)).is_some());
    }
}
