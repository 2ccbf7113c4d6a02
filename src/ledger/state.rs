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

/// One version of one entry: `None` is a deletion.
type Version = (Stamp, Option<Arc<StObject>>);

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

    /// The entry `key` as of `at`.
    pub fn read_at(&self, key: &Hash256, at: Stamp) -> Option<Arc<StObject>> {
        let versions = self.map.get(key)?;
        versions
            .iter()
            .rev()
            .find(|(s, _)| *s <= at)
            .and_then(|(_, v)| v.clone())
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
            versions.push((at, value));
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
                        versions.len() == 1 && versions[0].1.is_none()
                    }
                    None => false,
                };
                if gone {
                    self.map
                        .remove_if(&key, |_, v| v.len() == 1 && v[0].1.is_none());
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
        self.books.truncate_after(at);
        let seq = (at >> 32) as u32;
        self.deleted.lock().retain(|(s, _)| *s <= seq);
        self.published.store(at, Ordering::Release);
    }

    /// Every entry present at `at`, in no particular order.
    pub fn for_each_at(&self, at: Stamp, mut f: impl FnMut(&Hash256, &Arc<StObject>)) {
        for item in self.map.iter() {
            if let Some((_, Some(v))) = item.value().iter().rev().find(|(s, _)| *s <= at) {
                f(item.key(), v);
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
