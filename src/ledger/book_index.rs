//! The ordered index of order-book directory pages (what rippled's `ReadView::succ` walks
//! in its SHAMap): the state map is unordered, so the keys of book directory roots are
//! also kept here, in key order, with the stamps at which each appeared and disappeared.
//! A second index of the same kind keeps the NFTokenPages, which rippled also finds with
//! `succ` (an owner's pages in key order: LedgerStateFix's repair of their links).
//!
//! A book's quality pages share the book's 192-bit base and differ in their low 64 bits
//! (the quality), so "the best page of a book" is the first key at or after the base and
//! before [`super::keylet::book_end`].

use std::collections::BTreeMap;
use std::ops::Bound;

use parking_lot::RwLock;

use super::sf::sf;
use super::state::Stamp;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// Presence versions of one key, oldest first: `(stamp, present)`.
type Versions = Vec<(Stamp, bool)>;

/// Book directory root keys by stamp.
#[derive(Default)]
pub struct BookIndex {
    keys: RwLock<BTreeMap<Hash256, Versions>>,
}

/// The key right after `k` (None after the last key).
pub fn next_key(k: &Hash256) -> Option<Hash256> {
    let mut n = *k;
    for b in n.0.iter_mut().rev() {
        let (v, carry) = b.overflowing_add(1);
        *b = v;
        if !carry {
            return Some(n);
        }
    }
    None
}

/// The key right before `k` (None before the first key).
pub fn prev_key(k: &Hash256) -> Option<Hash256> {
    let mut n = *k;
    for b in n.0.iter_mut().rev() {
        let (v, borrow) = b.overflowing_sub(1);
        *b = v;
        if !borrow {
            return Some(n);
        }
    }
    None
}

/// True for a book directory root page (it carries the book's ExchangeRate).
pub fn is_book_root(entry: &StObject) -> bool {
    entry.get(sf().exchange_rate).is_some()
}

/// True for an NFTokenPage.
pub fn is_nft_page(entry: &StObject) -> bool {
    use super::sf::StExt;
    entry.u16_of(sf().ledger_entry_type) == Some(super::flags::lt::NFTOKEN_PAGE)
}

/// True for an entry `ReadView::succ` finds: a book directory root or an NFTokenPage.
pub fn is_ordered(entry: &StObject) -> bool {
    is_book_root(entry) || is_nft_page(entry)
}

fn present_at(versions: &Versions, at: Stamp) -> bool {
    versions
        .iter()
        .rev()
        .find(|(s, _)| *s <= at)
        .is_some_and(|(_, p)| *p)
}

impl BookIndex {
    /// Records that `key` exists (or no longer does) from `at` on. A deletion of a key
    /// the index never held is ignored.
    pub fn note(&self, key: Hash256, at: Stamp, present: bool) {
        let mut keys = self.keys.write();
        if !present && !keys.contains_key(&key) {
            return;
        }
        let versions = keys.entry(key).or_default();
        if versions.last().map(|v| v.1) != Some(present) {
            versions.push((at, present));
        }
    }

    /// True when the index has ever held `key` (so its deletion must be noted).
    pub fn holds(&self, key: &Hash256) -> bool {
        self.keys.read().contains_key(key)
    }

    /// The first key in `[from, end)` present at `at`.
    pub fn succ(&self, from: &Hash256, end: &Hash256, at: Stamp) -> Option<Hash256> {
        let keys = self.keys.read();
        keys.range((Bound::Included(*from), Bound::Excluded(*end)))
            .find(|(_, v)| present_at(v, at))
            .map(|(k, _)| *k)
    }

    /// Every key present at `at`, in order.
    pub fn all_at(&self, at: Stamp) -> Vec<Hash256> {
        let keys = self.keys.read();
        keys.iter()
            .filter(|(_, v)| present_at(v, at))
            .map(|(k, _)| *k)
            .collect()
    }

    /// Forgets every version after `at` (a revert), and keys that only appeared after it.
    pub fn truncate_after(&self, at: Stamp) {
        let mut keys = self.keys.write();
        keys.retain(|_, v| {
            v.retain(|(s, _)| *s <= at);
            !v.is_empty()
        });
    }

    /// Drops versions no reader at or above `floor` can see, and keys that are gone for
    /// every such reader.
    pub fn prune(&self, floor: Stamp) {
        let mut keys = self.keys.write();
        keys.retain(|_, v| {
            let dead = v.windows(2).take_while(|w| w[1].0 <= floor).count();
            v.drain(..dead);
            !(v.len() == 1 && !v[0].1 && v[0].0 <= floor)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn succ_sees_its_stamp_only() {
        let ix = BookIndex::default();
        let (a, b, end) = (Hash256([1; 32]), Hash256([2; 32]), Hash256([3; 32]));
        ix.note(b, 10, true);
        ix.note(a, 20, true);
        assert_eq!(ix.succ(&Hash256([0; 32]), &end, 15), Some(b));
        assert_eq!(ix.succ(&Hash256([0; 32]), &end, 20), Some(a));
        ix.note(a, 30, false);
        assert_eq!(ix.succ(&Hash256([0; 32]), &end, 30), Some(b));
        assert_eq!(ix.succ(&Hash256([0; 32]), &b, 25), Some(a));
        assert_eq!(ix.succ(&Hash256([0; 32]), &b, 30), None);
        ix.prune(40);
        assert!(!ix.holds(&a));
        assert_eq!(ix.all_at(40), vec![b]);
    }
}
