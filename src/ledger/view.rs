//! Read views: a ledger's entries as of one moment, plus the facts about that ledger the
//! rules need (its sequence, its parent's close time, its fees).

use std::sync::Arc;

use super::book_index::prev_key;
use super::deferred::Deferred;
use super::fees::Fees;
use super::rules::Rules;
use super::state::{Stamp, State};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Currency, Hash256};

/// Facts about the ledger a view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewInfo {
    /// The ledger's sequence.
    pub seq: u32,
    /// The parent ledger's close time (seconds since the ripple epoch): the clock the
    /// expiration rules use.
    pub parent_close_time: u32,
    /// Fee schedule in force.
    pub fees: Fees,
    /// True for the open ledger (fee and partial-payment rules differ there).
    pub open: bool,
    /// The parent ledger's hash (pseudo-account addresses derive from it).
    pub parent_hash: Hash256,
    /// The amendments the ledger is applied under.
    pub rules: Rules,
}

#[cfg(test)]
impl ViewInfo {
    /// The open ledger 2 over a genesis closed at 0, default fees, under `rules`: the
    /// ledger a unit test of one rule reads.
    pub(crate) fn open_test(rules: Rules) -> ViewInfo {
        ViewInfo {
            seq: 2,
            parent_close_time: 0,
            fees: Fees::default(),
            open: true,
            parent_hash: Hash256::ZERO,
            rules,
        }
    }
}

/// Reads ledger entries by key.
pub trait ReadView {
    /// The entry at `key`, if present.
    fn read(&self, key: &Hash256) -> Option<Arc<StObject>>;
    /// The ledger this view shows.
    fn info(&self) -> &ViewInfo;
    /// The first order-book directory root or NFTokenPage with a key in `[from, end)`
    /// (rippled's `succ`, which the engine only asks within one book's range or one
    /// owner's pages).
    fn succ(&self, from: &Hash256, end: &Hash256) -> Option<Hash256>;
    /// The parent ledger's hash (rippled `info().parentHash`), which pseudo-account
    /// addresses derive from.
    fn parent_hash(&self) -> Hash256 {
        self.info().parent_hash
    }
    /// The deferred credits of a payment running over this view, for `account`'s
    /// holding of `issuer`'s `currency` (rippled `PaymentSandbox::balanceHook`); none
    /// outside a payment.
    fn deferred(
        &self,
        _account: &AccountId,
        _issuer: &AccountId,
        _currency: &Currency,
    ) -> Option<Deferred> {
        None
    }
    /// `account`'s owner count for reserves during a payment: the highest it reached
    /// (rippled `ownerCountHook`).
    fn owner_count_hook(&self, _account: &AccountId, count: u32) -> u32 {
        count
    }
}

/// The state of closed ledgers kept outside memory (the history store), read by ledger
/// sequence. Implemented above the pure core; a failed read is an absent entry.
pub trait StateSource: Send + Sync {
    /// The entry `key` as ledger `seq` left it.
    fn read_at(&self, key: &Hash256, seq: u32) -> Option<Arc<StObject>>;
    /// Ledger `seq`'s entries with keys after `after`, in key order, at most `limit`.
    fn page_at(
        &self,
        seq: u32,
        after: Option<&Hash256>,
        limit: usize,
    ) -> Vec<(Hash256, Arc<StObject>)>;
}

/// Where a view's entries come from.
#[derive(Clone)]
enum Backing {
    /// The shared in-memory state, at a stamp.
    Memory(Arc<State>, Stamp),
    /// A stored ledger's state, at the view's sequence.
    Stored(Arc<dyn StateSource>),
}

/// A snapshot of one ledger's state: the shared state at one stamp, or a stored
/// ledger's. Cheap to make and to clone.
#[derive(Clone)]
pub struct StateView {
    backing: Backing,
    info: ViewInfo,
}

/// Entries a stored view reads per step of a full walk.
const STORED_WALK_PAGE: usize = 512;

impl StateView {
    /// A view of `state` as of `at`.
    pub fn new(state: Arc<State>, at: Stamp, info: ViewInfo) -> StateView {
        StateView {
            backing: Backing::Memory(state, at),
            info,
        }
    }

    /// A view of closed ledger `info.seq` as `source` keeps it.
    pub fn stored(source: Arc<dyn StateSource>, info: ViewInfo) -> StateView {
        StateView {
            backing: Backing::Stored(source),
            info,
        }
    }

    /// False for a lazy fork's in-memory state, which holds only the entries read or
    /// written so far: a walk over every entry ([`StateView::for_each`],
    /// [`StateView::page`]) would miss the rest. Reads by key are complete either way.
    pub fn is_complete(&self) -> bool {
        match &self.backing {
            Backing::Memory(state, _) => !state.is_lazy(),
            Backing::Stored(_) => true,
        }
    }

    /// Every entry of this view, in no particular order (for full-state walks).
    pub fn for_each(&self, mut f: impl FnMut(&Hash256, &Arc<StObject>)) {
        match &self.backing {
            Backing::Memory(state, at) => state.for_each_at(*at, f),
            Backing::Stored(source) => {
                let mut after = None;
                loop {
                    let page = source.page_at(self.info.seq, after.as_ref(), STORED_WALK_PAGE);
                    for (k, v) in &page {
                        f(k, v);
                    }
                    match page.last() {
                        Some((k, _)) if page.len() == STORED_WALK_PAGE => after = Some(*k),
                        _ => return,
                    }
                }
            }
        }
    }

    /// Every entry of this view, serialized, in no particular order (for full-state walks
    /// that write the entries out: a state in memory hands its stored bytes over).
    pub fn for_each_bytes(&self, mut f: impl FnMut(&Hash256, &Arc<[u8]>)) {
        match &self.backing {
            Backing::Memory(state, at) => state.for_each_bytes_at(*at, f),
            Backing::Stored(_) => {
                self.for_each(|k, v| f(k, &Arc::from(crate::protocol::codec::encode(v))))
            }
        }
    }

    /// Every order-book directory root of this view, in key order.
    pub fn book_roots(&self) -> Vec<Hash256> {
        match &self.backing {
            Backing::Memory(state, at) => state.book_roots(*at),
            Backing::Stored(_) => {
                let mut out = Vec::new();
                self.for_each(|k, v| {
                    if super::book_index::is_book_root(v) {
                        out.push(*k);
                    }
                });
                out.sort_unstable();
                out
            }
        }
    }

    /// The entries with keys after `after`, in key order, at most `limit` (ledger_data).
    pub fn page(&self, after: Option<&Hash256>, limit: usize) -> Vec<(Hash256, Arc<StObject>)> {
        match &self.backing {
            Backing::Memory(state, at) => {
                // Keys first: only the page's entries are decoded.
                let mut keys = Vec::new();
                state.for_each_key_at(*at, |k| {
                    if after.is_none_or(|a| k > a) {
                        keys.push(*k);
                    }
                });
                if keys.len() > limit {
                    keys.select_nth_unstable(limit);
                    keys.truncate(limit);
                }
                keys.sort_unstable();
                keys.into_iter()
                    .filter_map(|k| state.read_at(&k, *at).map(|v| (k, v)))
                    .collect()
            }
            Backing::Stored(source) => source.page_at(self.info.seq, after, limit),
        }
    }
}

impl ReadView for StateView {
    fn read(&self, key: &Hash256) -> Option<Arc<StObject>> {
        match &self.backing {
            Backing::Memory(state, at) => state.read_at(key, *at),
            Backing::Stored(source) => source.read_at(key, self.info.seq),
        }
    }
    fn info(&self) -> &ViewInfo {
        &self.info
    }
    fn succ(&self, from: &Hash256, end: &Hash256) -> Option<Hash256> {
        match &self.backing {
            Backing::Memory(state, at) => state.book_succ(from, end, *at),
            Backing::Stored(source) => {
                let after = prev_key(from);
                let (k, _) = source.page_at(self.info.seq, after.as_ref(), 1).pop()?;
                (k < *end).then_some(k)
            }
        }
    }
}
