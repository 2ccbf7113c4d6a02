//! What a read node keeps of its database's rows for `tx`: transactions by ID and ledger
//! headers by sequence, each filed under the node's history epoch
//! ([`crate::node::Node::history_epoch`]), which its follower advances whenever the
//! database may have dropped or replaced ledgers. A writer reads these from memory or its
//! own SQLite file and keeps nothing here. Bounded by [`crate::limits::READ_NODE_TX_CACHE`].

use std::sync::Arc;

use crate::ledgers::TxEntry;
use crate::protocol::types::Hash256;

/// A ledger's hash (hex) and close time.
pub type HeaderFacts = (String, u32);

/// The kept rows.
pub struct ReadCache {
    txs: quick_cache::sync::Cache<(Hash256, u64), Arc<TxEntry>>,
    headers: quick_cache::sync::Cache<(u32, u64), HeaderFacts>,
}

impl ReadCache {
    /// Caches of at most `entries` transactions and as many headers.
    pub fn new(entries: usize) -> ReadCache {
        ReadCache {
            txs: quick_cache::sync::Cache::new(entries.max(1)),
            headers: quick_cache::sync::Cache::new(entries.max(1)),
        }
    }

    /// The transaction `id` kept in `epoch`.
    pub fn tx(&self, id: &Hash256, epoch: u64) -> Option<Arc<TxEntry>> {
        self.txs.get(&(*id, epoch))
    }

    /// Keeps a transaction read in `epoch`.
    pub fn keep_tx(&self, epoch: u64, entry: Arc<TxEntry>) {
        self.txs.insert((entry.id, epoch), entry);
    }

    /// Ledger `seq`'s hash and close time kept in `epoch`.
    pub fn header(&self, seq: u32, epoch: u64) -> Option<HeaderFacts> {
        self.headers.get(&(seq, epoch))
    }

    /// Keeps a header's facts read in `epoch`.
    pub fn keep_header(&self, seq: u32, epoch: u64, facts: HeaderFacts) {
        self.headers.insert((seq, epoch), facts);
    }
}
