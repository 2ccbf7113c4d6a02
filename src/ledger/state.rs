//! The ledger state: every ledger entry of every ledger kept in history, in one
//! DashMap of small version lists (multi-version concurrency control).
//!
//! Each write is stamped with a [`Stamp`]: the ledger sequence in the high 32 bits and
//! the position of the transaction that made it (1-based; 0 for genesis) in the low 32.
//! The single writer pushes all versions of one transaction, then advances the
//! published watermark; a reader picks, for each key, the newest version at or below its
//! own stamp. So a reader of a closed ledger `N` (stamp `N:MAX`) never sees the open
//! ledger, and a reader of the open ledger never sees half of a transaction.
//!
//! Every version is kept serialized; decoded entries are shared through a bounded cache
//! keyed by version, so a state of a million accounts takes a few hundred bytes an
//! account, and the entries the engine touches are decoded once.
//!
//! Old versions are pruned as new ones are written (a version is dropped once a newer one
//! is at or below the history floor), and keys whose deletion left history are removed at
//! close, so closing is proportional to what changed, not to the state's size.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use dashmap::DashMap;
use parking_lot::Mutex;

use super::book_index::{is_book_root, is_nft_page, BookIndex};
use crate::limits::STATE_DECODED_CACHE_ENTRIES;
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// A point in the ledger's history: `(ledger seq << 32) | transaction position`.
pub type Stamp = u64;

/// The stamp of the state after transaction `tx_pos` (1-based) of ledger `seq`.
pub fn stamp(seq: u32, tx_pos: u32) -> Stamp {
    ((seq as u64) << 32) | tx_pos as u64
}

/// The stamp that sees all of ledger `seq` (a closed ledger).
pub fn stamp_closed(seq: u32) -> Stamp {
    stamp(seq, u32::MAX)
}

/// One version of one entry, stamped.
type Version = (Stamp, Value);

/// An entry's value in one version, kept serialized: an AccountRoot is about 130 bytes
/// serialized where the decoded object takes about 1.6 KB. Decoded objects live in the
/// state's bounded cache ([`State`]), keyed by key and version.
#[derive(Clone)]
enum Value {
    /// The entry, serialized.
    Stored(Arc<[u8]>),
    /// A deletion.
    Deleted,
}

impl Value {
    fn is_deleted(&self) -> bool {
        matches!(self, Value::Deleted)
    }

    fn bytes(&self) -> Option<&Arc<[u8]>> {
        match self {
            Value::Stored(b) => Some(b),
            Value::Deleted => None,
        }
    }
}

/// Decoded entries by (key, version stamp, epoch): what the engine and the readers of
/// recent ledgers read again and again, bounded by [`STATE_DECODED_CACHE_ENTRIES`]. A
/// revert starts a new epoch: the stamps after it are written again with other values,
/// and a reader that decoded an old version while the revert ran files it under the old
/// epoch, where no later reader looks.
type DecodedCache = quick_cache::sync::Cache<(Hash256, Stamp, u64), Arc<StObject>>;

/// The multi-version map of ledger entries. Cheap to share (`Arc<State>`).
pub struct State {
    /// Key -> versions, oldest first.
    map: DashMap<Hash256, Vec<Version>>,
    /// Decoded versions, bounded; a miss decodes the stored bytes again.
    decoded: DecodedCache,
    /// The decoded cache's epoch (advanced by each truncation).
    epoch: AtomicU64,
    /// The newest stamp whose writes are all in; readers of the open ledger read at it.
    published: AtomicU64,
    /// Versions at or below this stamp are only needed if they are the newest such.
    floor: AtomicU64,
    /// Keys deleted per ledger seq, so tombstones can be dropped when they leave history.
    deleted: Mutex<VecDeque<(u32, Vec<Hash256>)>>,
    /// Book directory roots in key order (the map above is unordered).
    books: BookIndex,
    /// NFTokenPages in key order.
    nft_pages: BookIndex,
    /// A lazy fork's upstream: where keys this map has never held are read.
    lazy: Option<Lazy>,
}

impl Default for State {
    fn default() -> State {
        State {
            map: DashMap::new(),
            decoded: DecodedCache::new(STATE_DECODED_CACHE_ENTRIES),
            epoch: AtomicU64::new(0),
            published: AtomicU64::new(0),
            floor: AtomicU64::new(0),
            deleted: Mutex::new(VecDeque::new()),
            books: BookIndex::default(),
            nft_pages: BookIndex::default(),
            lazy: None,
        }
    }
}

/// Where a lazy fork's state reads the entries it does not hold yet: the upstream ledger
/// it forked. Implemented above the pure core (the app's blocking upstream client).
pub trait EntrySource: Send + Sync {
    /// The entry at `key` in the forked ledger: `Ok(None)` when it has none, `Err` when
    /// that cannot be known now (the upstream is unreachable).
    fn fetch(&self, key: &Hash256) -> Result<Option<StObject>, String>;
}

/// A lazy fork's read-through: the upstream, the stamp fetched entries are written at,
/// the keys known to be absent, and how many fetches failed.
struct Lazy {
    source: Arc<dyn EntrySource>,
    base: Stamp,
    absent: DashMap<Hash256, ()>,
    failures: AtomicU64,
}

impl State {
    /// An empty state.
    pub fn new() -> State {
        State::default()
    }

    /// The newest published stamp.
    pub fn published(&self) -> Stamp {
        self.published.load(Ordering::Acquire)
    }

    /// A lazy fork's state: keys it has never held are read from `source` (ledger
    /// `base_seq`) on first use, kept as that ledger's version, and absences remembered.
    pub fn lazy(source: Arc<dyn EntrySource>, base_seq: u32) -> State {
        State {
            lazy: Some(Lazy {
                source,
                base: stamp(base_seq, 0),
                absent: DashMap::new(),
                failures: AtomicU64::new(0),
            }),
            ..State::default()
        }
    }

    /// True for a lazy fork's state: it holds only what was read or written, so walks
    /// over every entry (`for_each_at`) see only part of the ledger.
    pub fn is_lazy(&self) -> bool {
        self.lazy.is_some()
    }

    /// Reads a lazy fork's upstream could not answer so far (each answered as absent).
    pub fn lazy_failures(&self) -> u64 {
        self.lazy
            .as_ref()
            .map_or(0, |l| l.failures.load(Ordering::Acquire))
    }

    /// The entry `key` as of `at`.
    pub fn read_at(&self, key: &Hash256, at: Stamp) -> Option<Arc<StObject>> {
        let epoch = self.epoch.load(Ordering::Acquire);
        let (stamp, bytes) = self.version_at(key, at)?;
        let slot = (*key, stamp, epoch);
        if let Some(o) = self.decoded.get(&slot) {
            return Some(o);
        }
        let o = Arc::new(decode(&bytes));
        self.decoded.insert(slot, o.clone());
        Some(o)
    }

    /// The entry `key` as of `at`, serialized (as the ledger's state tree hashes it).
    pub fn bytes_at(&self, key: &Hash256, at: Stamp) -> Option<Arc<[u8]>> {
        self.version_at(key, at).map(|(_, b)| b)
    }

    /// The stamp and bytes of the version of `key` a reader at `at` sees (None: absent or
    /// deleted then); a lazy fork reads a key it has never held from its upstream first.
    fn version_at(&self, key: &Hash256, at: Stamp) -> Option<(Stamp, Arc<[u8]>)> {
        if let Some(versions) = self.map.get(key) {
            return pick(&versions, at);
        }
        let lazy = self.lazy.as_ref()?;
        if at < lazy.base || lazy.absent.contains_key(key) {
            return None;
        }
        match lazy.source.fetch(key) {
            Ok(Some(entry)) => {
                let stored = Value::Stored(Arc::from(codec::encode(&entry)));
                let versions = self
                    .map
                    .entry(*key)
                    .or_insert_with(|| vec![(lazy.base, stored)]);
                pick(&versions, at)
            }
            Ok(None) => {
                lazy.absent.insert(*key, ());
                None
            }
            Err(_) => {
                lazy.failures.fetch_add(1, Ordering::AcqRel);
                None
            }
        }
    }

    /// Writes one transaction's changes at `at` and publishes them. Only the single
    /// writer calls this, with increasing stamps.
    pub fn commit<I>(&self, at: Stamp, writes: I)
    where
        I: IntoIterator<Item = (Hash256, Option<Arc<StObject>>)>,
    {
        let floor = self.floor.load(Ordering::Acquire);
        let epoch = self.epoch.load(Ordering::Acquire);
        let mut deleted = Vec::new();
        for (key, value) in writes {
            match &value {
                None => {
                    deleted.push(key);
                    for index in [&self.books, &self.nft_pages] {
                        if index.holds(&key) {
                            index.note(key, at, false);
                        }
                    }
                }
                Some(v) if is_book_root(v) => self.books.note(key, at, true),
                Some(v) if is_nft_page(v) => self.nft_pages.note(key, at, true),
                Some(_) => {}
            }
            let stored = match value {
                Some(v) => {
                    let bytes = Arc::from(codec::encode(&v));
                    self.decoded.insert((key, at, epoch), v);
                    Value::Stored(bytes)
                }
                None => Value::Deleted,
            };
            let mut versions = self.map.entry(key).or_default();
            // The version this one supersedes is read only by readers of older ledgers:
            // its decoded form leaves the cache (they decode it again if they come).
            if let Some((prev, _)) = versions.last() {
                self.decoded.remove(&(key, *prev, epoch));
            }
            versions.push((at, stored));
            prune(&mut versions, floor);
        }
        if !deleted.is_empty() {
            let seq = (at >> 32) as u32;
            let mut log = self.deleted.lock();
            match log.back_mut() {
                Some((s, keys)) if *s == seq => keys.extend(deleted),
                _ => log.push_back((seq, deleted)),
            }
        }
        self.published.store(at, Ordering::Release);
    }

    /// Writes a whole state read back in its serialized form (a snapshot) at `at` and
    /// publishes it, decoding nothing into the cache: `book_roots` names the order-book
    /// directory roots among the keys and `nft_pages` the NFTokenPages (the caller decoded
    /// each entry once to check it).
    pub fn commit_stored(
        &self,
        at: Stamp,
        entries: Vec<(Hash256, Arc<[u8]>)>,
        book_roots: &[Hash256],
        nft_pages: &[Hash256],
    ) {
        for key in book_roots {
            self.books.note(*key, at, true);
        }
        for key in nft_pages {
            self.nft_pages.note(*key, at, true);
        }
        for (key, bytes) in entries {
            self.map
                .entry(key)
                .or_default()
                .push((at, Value::Stored(bytes)));
        }
        self.published.store(at, Ordering::Release);
    }

    /// Marks ledger `seq` closed: publishes its full stamp, and forgets everything only
    /// ledgers before `oldest_kept` needed.
    pub fn close(&self, seq: u32, oldest_kept: u32) {
        self.published.store(stamp_closed(seq), Ordering::Release);
        let floor = stamp_closed(oldest_kept);
        self.floor.store(floor, Ordering::Release);
        self.books.prune(floor);
        self.nft_pages.prune(floor);
        let mut log = self.deleted.lock();
        while let Some((s, _)) = log.front() {
            if *s >= oldest_kept {
                break;
            }
            let Some((_, keys)) = log.pop_front() else {
                break;
            };
            for key in keys {
                let gone = match self.map.get_mut(&key) {
                    Some(mut versions) => {
                        prune(&mut versions, floor);
                        versions.len() == 1 && versions[0].1.is_deleted()
                    }
                    None => false,
                };
                if gone {
                    // A lazy fork must not read a deleted entry back from upstream.
                    if let Some(lazy) = &self.lazy {
                        lazy.absent.insert(key, ());
                    }
                    self.map
                        .remove_if(&key, |_, v| v.len() == 1 && v[0].1.is_deleted());
                }
            }
        }
    }

    /// Forgets every write after `at` and publishes `at` again: the state as it was when
    /// `at` was published (a revert). Only the single writer calls this; versions at or
    /// below `at` that a reader of `at` needs are still there as long as `at` is above the
    /// history floor (`Ledgers` pins the floor below every saved snapshot).
    pub fn truncate_after(&self, at: Stamp) {
        self.map.retain(|_, versions| {
            versions.retain(|(s, _)| *s <= at);
            !versions.is_empty()
        });
        // Stamps after `at` will be written again, with other values.
        self.epoch.fetch_add(1, Ordering::AcqRel);
        self.decoded.clear();
        self.books.truncate_after(at);
        self.nft_pages.truncate_after(at);
        let seq = (at >> 32) as u32;
        self.deleted.lock().retain(|(s, _)| *s <= seq);
        self.published.store(at, Ordering::Release);
    }

    /// Every entry present at `at`, in no particular order, decoded (not through the
    /// cache: a walk would evict what the engine reads).
    pub fn for_each_at(&self, at: Stamp, mut f: impl FnMut(&Hash256, &Arc<StObject>)) {
        self.for_each_bytes_at(at, |k, b| f(k, &Arc::new(decode(b))));
    }

    /// Every entry present at `at`, in no particular order, serialized.
    pub fn for_each_bytes_at(&self, at: Stamp, mut f: impl FnMut(&Hash256, &Arc<[u8]>)) {
        for item in self.map.iter() {
            if let Some((_, b)) = pick(item.value(), at) {
                f(item.key(), &b);
            }
        }
    }

    /// Every key present at `at`, in no particular order.
    pub fn for_each_key_at(&self, at: Stamp, mut f: impl FnMut(&Hash256)) {
        for item in self.map.iter() {
            if pick(item.value(), at).is_some() {
                f(item.key());
            }
        }
    }

    /// The first book directory root or NFTokenPage in `[from, end)` as of `at`.
    pub fn book_succ(&self, from: &Hash256, end: &Hash256, at: Stamp) -> Option<Hash256> {
        let book = self.books.succ(from, end, at);
        let page = self.nft_pages.succ(from, end, at);
        match (book, page) {
            (Some(b), Some(p)) => Some(b.min(p)),
            (b, p) => b.or(p),
        }
    }

    /// Every book directory root as of `at`, in key order.
    pub fn book_roots(&self, at: Stamp) -> Vec<Hash256> {
        self.books.all_at(at)
    }

    /// Number of keys held (all versions of one key count once).
    pub fn key_count(&self) -> usize {
        self.map.len()
    }

    /// Number of decoded entries the cache holds.
    pub fn decoded_count(&self) -> usize {
        self.decoded.len()
    }
}

/// The stamp and bytes of the newest of `versions` at or before `at` (None: absent or
/// deleted then).
fn pick(versions: &[Version], at: Stamp) -> Option<(Stamp, Arc<[u8]>)> {
    let (stamp, value) = versions.iter().rev().find(|(s, _)| *s <= at)?;
    value.bytes().map(|b| (*stamp, b.clone()))
}

/// A stored entry, decoded. The bytes were encoded by this process from a valid object
/// (or read from its own store); should they not decode, the entry reads as empty.
fn decode(bytes: &[u8]) -> StObject {
    codec::decode(bytes).unwrap_or_default()
}

/// Drops versions no reader in history can pick: a version is dead once the next one is
/// at or below the floor (every reader still served reads at or above it).
fn prune(versions: &mut Vec<Version>, floor: Stamp) {
    let dead = versions.windows(2).take_while(|w| w[1].0 <= floor).count();
    if dead > 0 {
        versions.drain(..dead);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::st::StValue;

    fn obj(n: u32) -> Option<Arc<StObject>> {
        let mut o = StObject::new();
        o.set_named("Sequence", StValue::UInt32(n));
        Some(Arc::new(o))
    }

    #[test]
    fn readers_see_their_ledger_only() {
        let s = State::new();
        let k = Hash256([7; 32]);
        s.commit(stamp(1, 0), [(k, obj(1))]);
        s.close(1, 1);
        s.commit(stamp(2, 1), [(k, obj(2))]);
        assert_eq!(s.read_at(&k, stamp_closed(1)), obj(1));
        assert_eq!(s.read_at(&k, s.published()), obj(2));
        s.commit(stamp(2, 2), [(k, None)]);
        assert_eq!(s.read_at(&k, s.published()), None);
        assert_eq!(s.read_at(&k, stamp(2, 1)), obj(2));
        s.close(2, 1);
        s.close(3, 3);
        // Ledger 2's deletion left history: the key is gone.
        assert_eq!(s.key_count(), 0);
    }

    #[test]
    fn succ_finds_nft_pages_and_book_roots_but_lists_only_the_books() {
        let s = State::new();
        let page = || {
            let mut o = StObject::new();
            o.set_named(
                "LedgerEntryType",
                StValue::UInt16(crate::ledger::flags::lt::NFTOKEN_PAGE),
            );
            Some(Arc::new(o))
        };
        let root = || {
            let mut o = StObject::new();
            o.set_named("ExchangeRate", StValue::UInt64(1));
            Some(Arc::new(o))
        };
        let (p, b, other) = (Hash256([2; 32]), Hash256([4; 32]), Hash256([3; 32]));
        s.commit(stamp(1, 0), [(p, page()), (b, root()), (other, obj(1))]);
        let (lo, hi) = (Hash256([0; 32]), Hash256([0xFF; 32]));
        let at = s.published();
        assert_eq!(s.book_succ(&lo, &hi, at), Some(p));
        assert_eq!(s.book_succ(&Hash256([3; 32]), &hi, at), Some(b));
        assert_eq!(s.book_roots(at), vec![b]);
        s.commit(stamp(1, 1), [(p, None)]);
        assert_eq!(s.book_succ(&lo, &hi, s.published()), Some(b));
        assert_eq!(
            s.book_succ(&lo, &hi, at),
            Some(p),
            "older readers still see it"
        );
        s.truncate_after(at);
        assert_eq!(s.book_succ(&lo, &hi, s.published()), Some(p));
    }

    struct Upstream(Hash256);
    impl EntrySource for Upstream {
        fn fetch(&self, key: &Hash256) -> Result<Option<StObject>, String> {
            match *key == self.0 {
                true => Ok(obj(1).map(|o| (*o).clone())),
                false if key.0[0] == 0xEE => Err("gone".into()),
                false => Ok(None),
            }
        }
    }

    #[test]
    fn a_lazy_state_reads_through_once_and_never_resurrects_a_deletion() {
        let k = Hash256([7; 32]);
        let s = State::lazy(Arc::new(Upstream(k)), 5);
        s.close(5, 5);
        assert_eq!(
            s.read_at(&k, stamp_closed(4)),
            None,
            "before the fork: nothing"
        );
        assert_eq!(s.read_at(&k, stamp_closed(5)), obj(1));
        assert_eq!(s.key_count(), 1, "cached");
        assert_eq!(s.read_at(&Hash256([8; 32]), stamp_closed(5)), None);
        assert_eq!(s.lazy_failures(), 0);
        assert_eq!(s.read_at(&Hash256([0xEE; 32]), stamp_closed(5)), None);
        assert_eq!(s.lazy_failures(), 1);
        s.commit(stamp(6, 1), [(k, None)]);
        s.close(6, 6);
        s.close(7, 7);
        assert_eq!(s.key_count(), 0, "the tombstone left history");
        assert_eq!(
            s.read_at(&k, stamp_closed(7)),
            None,
            "not read back from upstream"
        );
    }

    #[test]
    fn truncation_restores_an_earlier_stamp() {
        let s = State::new();
        let (k, j) = (Hash256([3; 32]), Hash256([4; 32]));
        s.commit(stamp(1, 0), [(k, obj(1))]);
        s.close(1, 1);
        s.commit(stamp(2, 1), [(k, obj(2))]);
        let saved = s.published();
        s.commit(stamp(2, 2), [(k, None), (j, obj(5))]);
        s.close(2, 1);
        s.commit(stamp(3, 1), [(j, obj(6))]);
        s.truncate_after(saved);
        assert_eq!(s.published(), saved);
        assert_eq!(s.read_at(&k, saved), obj(2));
        assert_eq!(s.read_at(&j, stamp_closed(9)), None);
        assert_eq!(s.key_count(), 1);
    }

    #[test]
    fn a_stamp_written_again_after_a_truncation_reads_its_new_value() {
        let s = State::new();
        let k = Hash256([5; 32]);
        s.commit(stamp(1, 0), [(k, obj(1))]);
        s.close(1, 1);
        let saved = s.published();
        s.commit(stamp(2, 1), [(k, obj(2))]);
        assert_eq!(s.read_at(&k, s.published()), obj(2));
        s.truncate_after(saved);
        s.commit(stamp(2, 1), [(k, obj(3))]);
        assert_eq!(s.read_at(&k, stamp(2, 1)), obj(3));
    }

    #[test]
    fn every_version_reads_back_whatever_the_cache_holds() {
        let s = State {
            decoded: DecodedCache::new(16),
            ..State::default()
        };
        let keys: Vec<Hash256> = (0..200u8).map(|i| Hash256([i; 32])).collect();
        for (n, k) in keys.iter().enumerate() {
            s.commit(stamp(1, 0), [(*k, obj(n as u32))]);
        }
        s.close(1, 1);
        for (n, k) in keys.iter().enumerate() {
            s.commit(stamp(2, 1), [(*k, obj(1000 + n as u32))]);
        }
        for (n, k) in keys.iter().enumerate().rev() {
            assert_eq!(s.read_at(k, stamp_closed(1)), obj(n as u32));
            assert_eq!(s.read_at(k, s.published()), obj(1000 + n as u32));
            assert_eq!(
                s.bytes_at(k, stamp_closed(1)).as_deref(),
                obj(n as u32).map(|o| codec::encode(&o)).as_deref()
            );
        }
        let mut walked = 0;
        s.for_each_at(stamp_closed(1), |_, _| walked += 1);
        assert_eq!(walked, 200);
    }

    #[test]
    fn a_stored_state_reads_as_written() {
        let s = State::new();
        let (k, j) = (Hash256([1; 32]), Hash256([2; 32]));
        let bytes = |n| Arc::from(codec::encode(&obj(n).unwrap()));
        s.commit_stored(stamp(4, 0), vec![(k, bytes(1)), (j, bytes(2))], &[], &[]);
        s.close(4, 4);
        assert_eq!(s.read_at(&k, stamp_closed(4)), obj(1));
        assert_eq!(s.read_at(&j, stamp_closed(4)), obj(2));
        assert_eq!(s.read_at(&j, stamp_closed(3)), None);
    }

    #[test]
    fn old_versions_are_pruned() {
        let s = State::new();
        let k = Hash256([1; 32]);
        for seq in 1..10u32 {
            s.commit(stamp(seq, 1), [(k, obj(seq))]);
            s.close(seq, seq.saturating_sub(2).max(1));
        }
        assert!(s.map.get(&k).map(|v| v.len()).unwrap_or(0) <= 4);
        assert_eq!(s.read_at(&k, stamp_closed(8)), obj(8));
        assert_eq!(s.read_at(&k, stamp_closed(7)), obj(7));
    }
}
