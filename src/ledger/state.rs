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
//! Old versions are pruned as new ones are written (a version is dropped once a newer one
//! is at or below the history floor), and keys whose deletion left history are removed at
//! close, so closing is proportional to what changed, not to the state's size.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use dashmap::DashMap;
use parking_lot::Mutex;

use super::book_index::{is_book_root, BookIndex};
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

/// An entry's value in one version. The newest version of a key is kept decoded (the
/// engine and the readers of the open and newest ledgers read it); once a newer version
/// supersedes it, it is kept serialized (a tenth of the size: an AccountRoot is about
/// 130 bytes serialized where the decoded object takes about 1.6 KB) and decoded again
/// only by the readers of older ledgers.
#[derive(Clone)]
enum Value {
    /// The newest version, decoded.
    Decoded(Arc<StObject>),
    /// A superseded version, serialized.
    Compact(Arc<[u8]>),
    /// A deletion.
    Deleted,
}

impl Value {
    fn of(v: Option<Arc<StObject>>) -> Value {
        v.map_or(Value::Deleted, Value::Decoded)
    }

    fn is_deleted(&self) -> bool {
        matches!(self, Value::Deleted)
    }

    /// The entry (None: deleted). A serialized version that does not decode (it was
    /// encoded by this process from a valid object) reads as an empty object.
    fn get(&self) -> Option<Arc<StObject>> {
        match self {
            Value::Decoded(o) => Some(o.clone()),
            Value::Compact(b) => Some(Arc::new(codec::decode(b).unwrap_or_default())),
            Value::Deleted => None,
        }
    }

    /// The serialized form of a decoded version (the others are as they are).
    fn compacted(&self) -> Option<Value> {
        match self {
            Value::Decoded(o) => Some(Value::Compact(Arc::from(codec::encode(o)))),
            _ => None,
        }
    }
}

/// The multi-version map of ledger entries. Cheap to share (`Arc<State>`).
#[derive(Default)]
pub struct State {
    /// Key -> versions, oldest first.
    map: DashMap<Hash256, Vec<Version>>,
    /// The newest stamp whose writes are all in; readers of the open ledger read at it.
    published: AtomicU64,
    /// Versions at or below this stamp are only needed if they are the newest such.
    floor: AtomicU64,
    /// Keys deleted per ledger seq, so tombstones can be dropped when they leave history.
    deleted: Mutex<VecDeque<(u32, Vec<Hash256>)>>,
    /// Book directory roots in key order (the map above is unordered).
    books: BookIndex,
    /// A lazy fork's upstream: where keys this map has never held are read.
    lazy: Option<Lazy>,
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
        if let Some(versions) = self.map.get(key) {
            return pick(&versions, at);
        }
        let lazy = self.lazy.as_ref()?;
        if at < lazy.base || lazy.absent.contains_key(key) {
            return None;
        }
        match lazy.source.fetch(key) {
            Ok(Some(entry)) => {
                let versions = self
                    .map
                    .entry(*key)
                    .or_insert_with(|| vec![(lazy.base, Value::Decoded(Arc::new(entry)))]);
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
        let mut deleted = Vec::new();
        for (key, value) in writes {
            match &value {
                None => {
                    deleted.push(key);
                    if self.books.holds(&key) {
                        self.books.note(key, at, false);
                    }
                }
                Some(v) if is_book_root(v) => self.books.note(key, at, true),
                Some(_) => {}
            }
            let mut versions = self.map.entry(key).or_default();
            compact_newest(&mut versions);
            versions.push((at, Value::of(value)));
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

    /// Marks ledger `seq` closed: publishes its full stamp, and forgets everything only
    /// ledgers before `oldest_kept` needed.
    pub fn close(&self, seq: u32, oldest_kept: u32) {
        self.published.store(stamp_closed(seq), Ordering::Release);
        let floor = stamp_closed(oldest_kept);
        self.floor.store(floor, Ordering::Release);
        self.books.prune(floor);
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
            expand_newest(versions);
            !versions.is_empty()
        });
        self.books.truncate_after(at);
        let seq = (at >> 32) as u32;
        self.deleted.lock().retain(|(s, _)| *s <= seq);
        self.published.store(at, Ordering::Release);
    }

    /// Every entry present at `at`, in no particular order.
    pub fn for_each_at(&self, at: Stamp, mut f: impl FnMut(&Hash256, &Arc<StObject>)) {
        for item in self.map.iter() {
            if let Some(v) = pick(item.value(), at) {
                f(item.key(), &v);
            }
        }
    }

    /// The first book directory root in `[from, end)` as of `at`.
    pub fn book_succ(&self, from: &Hash256, end: &Hash256, at: Stamp) -> Option<Hash256> {
        self.books.succ(from, end, at)
    }

    /// Every book directory root as of `at`, in key order.
    pub fn book_roots(&self, at: Stamp) -> Vec<Hash256> {
        self.books.all_at(at)
    }

    /// Number of keys held (all versions of one key count once).
    pub fn key_count(&self) -> usize {
        self.map.len()
    }
}

/// The newest of `versions` at or before `at` (None: absent or deleted then).
fn pick(versions: &[Version], at: Stamp) -> Option<Arc<StObject>> {
    versions
        .iter()
        .rev()
        .find(|(s, _)| *s <= at)
        .and_then(|(_, v)| v.get())
}

/// Serializes the newest version before a newer one is pushed after it.
fn compact_newest(versions: &mut [Version]) {
    if let Some(last) = versions.last_mut() {
        if let Some(compact) = last.1.compacted() {
            last.1 = compact;
        }
    }
}

/// Decodes the newest version again after a truncation made a serialized one newest.
fn expand_newest(versions: &mut [Version]) {
    if let Some(last) = versions.last_mut() {
        if let Value::Compact(_) = last.1 {
            last.1 = Value::of(last.1.get());
        }
    }
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
