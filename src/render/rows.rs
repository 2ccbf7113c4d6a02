//! Rendered rows: a validated transaction's finished JSON for one reply shape (an
//! `account_tx` row or an expanded `ledger` transaction, in API v1 or v2, JSON or binary),
//! kept so the next page that holds it
//! is a copy instead of a decode and a render. Bounded by bytes
//! ([`crate::limits::RENDERED_ROWS_BYTES`]).
//!
//! A row is named by the transaction's ID *and its ledger's hash*: the hash commits to
//! the ledger's transactions and their metadata, so a row can never outlive what it
//! shows; a transaction applied again in another ledger after a revert is another row.

use std::sync::Arc;

use crate::protocol::types::Hash256;

/// Which rendering of a transaction a row is.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub struct RowShape {
    /// The reply's API version.
    pub api_version: u32,
    /// Hex blobs instead of JSON.
    pub binary: bool,
    /// An expanded transaction of `ledger`'s `transactions` (its own shape: `metaData` in
    /// API v1, no `ledger_index`) rather than an account_tx row.
    pub in_ledger: bool,
}

/// A row's name: the transaction, its ledger, its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowKey {
    /// Transaction ID.
    pub id: Hash256,
    /// The hash of the ledger it is in.
    pub ledger_hash: Hash256,
    /// The rendering.
    pub shape: RowShape,
}

impl std::hash::Hash for RowKey {
    /// Both hashes are already uniform: eight bytes of each name the row well enough for a
    /// hash table (equality still compares them whole), and hashing all 64 bytes was a
    /// tenth of a cached page's time.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let word = |h: &Hash256| u64::from_le_bytes(h.0[..8].try_into().unwrap_or([0; 8]));
        state.write_u64(word(&self.id) ^ word(&self.ledger_hash).rotate_left(17));
        state.write_u32(self.shape.api_version);
        state.write_u8(u8::from(self.shape.binary) | u8::from(self.shape.in_ledger) << 1);
    }
}

/// What a row costs the cache: its text plus the key and bookkeeping.
const ROW_OVERHEAD_BYTES: u64 = 128;

#[derive(Clone)]
struct ByBytes;

impl quick_cache::Weighter<RowKey, Arc<str>> for ByBytes {
    fn weight(&self, _key: &RowKey, text: &Arc<str>) -> u64 {
        text.len() as u64 + ROW_OVERHEAD_BYTES
    }
}

/// The rendered rows, shared by every reader.
pub struct RowCache {
    rows: quick_cache::sync::Cache<RowKey, Arc<str>, ByBytes>,
}

impl RowCache {
    /// A cache holding at most about `bytes` of rows (0: none kept).
    pub fn new(bytes: u64) -> RowCache {
        let estimated = (bytes / 2048).max(16) as usize;
        RowCache {
            rows: quick_cache::sync::Cache::with_weighter(estimated, bytes.max(1), ByBytes),
        }
    }

    /// The row, when kept.
    pub fn get(&self, key: &RowKey) -> Option<Arc<str>> {
        self.rows.get(key)
    }

    /// Keeps a row.
    pub fn insert(&self, key: RowKey, text: Arc<str>) {
        self.rows.insert(key, text);
    }

    /// Rows kept, and their weight in bytes.
    pub fn usage(&self) -> (usize, u64) {
        (self.rows.len(), self.rows.weight())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8, ledger: u8) -> RowKey {
        RowKey {
            id: Hash256([n; 32]),
            ledger_hash: Hash256([ledger; 32]),
            shape: RowShape {
                api_version: 2,
                binary: false,
                in_ledger: false,
            },
        }
    }

    #[test]
    fn a_row_is_found_only_under_its_ledger() {
        let c = RowCache::new(1 << 20);
        c.insert(key(1, 7), Arc::from("{\"a\":1}"));
        assert_eq!(c.get(&key(1, 7)).as_deref(), Some("{\"a\":1}"));
        assert!(c.get(&key(1, 8)).is_none(), "another ledger's row");
        let mut other_shape = key(1, 7);
        other_shape.shape.binary = true;
        assert!(c.get(&other_shape).is_none());
    }

    #[test]
    fn the_cache_stays_within_its_bytes() {
        let c = RowCache::new(64 * 1024);
        let text: Arc<str> = Arc::from("x".repeat(1000));
        for n in 0..=255u8 {
            c.insert(key(n, 0), text.clone());
        }
        let (_, weight) = c.usage();
        assert!(weight <= 64 * 1024, "{weight}");
    }
}
