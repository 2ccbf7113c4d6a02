//! account_tx pages' places, kept: which rows a page holds (transaction, ledger, position)
//! and its marker, named by the request and by the hash of the newest ledger it searched.
//! That hash commits to every earlier ledger, so a kept page can never outlive what it
//! lists (a revert or a repaired history makes another hash). With the rendered rows
//! ([`crate::render::rows`]) a page asked again is served without the database: what a
//! read node needs, whose every database read is a round trip. Bounded by
//! [`crate::limits::ACCOUNT_TX_PLACES_PAGES`].

use std::sync::Arc;

use crate::protocol::types::{AccountId, Hash256};
use crate::store::{AccountTxPlaces, AccountTxQuery};

/// A page's name: the query and the newest ledger's hash.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub struct PlacesKey {
    account: AccountId,
    min: u32,
    max: u32,
    max_hash: Hash256,
    forward: bool,
    rows: u32,
    marker: Option<(u32, u32)>,
}

impl PlacesKey {
    /// The name of `q`'s page, whose newest ledger (`q.max`) has hash `max_hash`.
    pub fn new(q: &AccountTxQuery, max_hash: Hash256) -> PlacesKey {
        PlacesKey {
            account: q.account,
            min: q.min,
            max: q.max,
            max_hash,
            forward: q.forward,
            rows: q.rows,
            marker: q.marker,
        }
    }
}

/// The kept pages.
pub struct PlacesCache {
    pages: quick_cache::sync::Cache<PlacesKey, Arc<AccountTxPlaces>>,
}

impl PlacesCache {
    /// A cache of at most `pages` pages.
    pub fn new(pages: usize) -> PlacesCache {
        PlacesCache {
            pages: quick_cache::sync::Cache::new(pages.max(1)),
        }
    }

    /// The page, when kept.
    pub fn get(&self, key: &PlacesKey) -> Option<Arc<AccountTxPlaces>> {
        self.pages.get(key)
    }

    /// Keeps a page.
    pub fn insert(&self, key: PlacesKey, page: Arc<AccountTxPlaces>) {
        self.pages.insert(key, page);
    }
}
