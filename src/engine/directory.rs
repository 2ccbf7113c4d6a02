//! Changing owner directories, as rippled's `ApplyView::dirInsert` / `dirRemove` do:
//! pages of up to `DIR_PAGE_ENTRIES_MAX` sorted keys chained by IndexNext/IndexPrevious,
//! the root page's IndexPrevious naming the last page.

use super::entry::new_entry;
use super::sandbox::Sandbox;
use crate::ledger::directory::{DIR_PAGES_MAX, DIR_PAGE_ENTRIES_MAX};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// Writes what a directory is about onto each of its new pages (rippled's describer).
pub type Describe<'d> = &'d dyn Fn(&mut StObject);

fn new_page(root: &Hash256, describe: Describe, key: Hash256) -> StObject {
    let mut page = new_entry(lt::DIR_NODE);
    page.set(sf().root_index, StValue::Hash256(*root));
    page.set(sf().indexes, StValue::Vector256(vec![key]));
    describe(&mut page);
    page
}

fn indexes(page: &StObject) -> Vec<Hash256> {
    page.v256_of(sf().indexes)
        .map(|v| v.to_vec())
        .unwrap_or_default()
}

/// Adds `key` to `owner`'s owner directory. Returns the page it went to, or `None` when
/// the directory is full (`tecDIR_FULL`: the last page is full and a new one would be
/// page `DIR_PAGES_MAX` or beyond without fixDirectoryLimit, past `u64::MAX` with it).
pub fn insert_owned(sb: &mut Sandbox, owner: &AccountId, key: Hash256) -> Option<u64> {
    let describe = |p: &mut StObject| p.set(sf().owner, StValue::AccountId(*owner));
    dir_add(sb, &keylet::owner_dir(owner), key, true, &describe)
}

/// Adds `key` to the directory rooted at `root_key` (rippled `dirAdd`): sorted within
/// its page when `sorted` (`dirInsert`, owner directories), else appended in arrival
/// order (`dirAppend`, order books). Returns the page, or `None` when full.
pub fn dir_add(
    sb: &mut Sandbox,
    root_key: &Hash256,
    key: Hash256,
    sorted: bool,
    describe: Describe,
) -> Option<u64> {
    let root_key = *root_key;
    let Some(mut root) = sb.peek(&root_key) else {
        sb.insert(root_key, new_page(&root_key, describe, key));
        return Some(0);
    };
    let last = root.u64_of(sf().index_previous).unwrap_or(0);
    let (last_key, mut node) = if last == 0 {
        (root_key, root.clone())
    } else {
        let k = keylet::dir_page(&root_key, last);
        (k, sb.peek(&k)?)
    };
    let mut keys = indexes(&node);
    if keys.len() < DIR_PAGE_ENTRIES_MAX {
        if sorted {
            // A legacy page may be unsorted: sort before the ordered insert, as rippled does.
            keys.sort();
            let pos = keys.partition_point(|k| *k < key);
            if keys.get(pos) != Some(&key) {
                keys.insert(pos, key);
            }
        } else if !keys.contains(&key) {
            keys.push(key);
        }
        node.set(sf().indexes, StValue::Vector256(keys));
        sb.update(last_key, node);
        return Some(last);
    }
    // Out of pages when the index overflows; before fixDirectoryLimit also at
    // `dirNodeMaxPages` (rippled `directory::insertPage`).
    let page = last.checked_add(1)?;
    if page >= DIR_PAGES_MAX && !sb.info().rules.enabled(Feature::FixDirectoryLimit) {
        return None;
    }
    // Link the new page in: the old last page points to it, the root names it last.
    node.set(sf().index_next, StValue::UInt64(page));
    if last == 0 {
        node.set(sf().index_previous, StValue::UInt64(page));
        sb.update(root_key, node);
    } else {
        sb.update(last_key, node);
        root.set(sf().index_previous, StValue::UInt64(page));
        sb.update(root_key, root);
    }
    let mut fresh = new_page(&root_key, describe, key);
    if page != 1 {
        fresh.set(sf().index_previous, StValue::UInt64(page - 1));
    }
    sb.insert(keylet::dir_page(&root_key, page), fresh);
    Some(page)
}

/// Removes `key` from page `page` of `owner`'s owner directory, deleting pages that
/// become empty (and the root too when it is the last one left, unless `keep_root`).
/// False when the key is not on that page.
pub fn remove_owned(
    sb: &mut Sandbox,
    owner: &AccountId,
    page: u64,
    key: &Hash256,
    keep_root: bool,
) -> bool {
    dir_remove(sb, &keylet::owner_dir(owner), page, key, keep_root)
}

/// Removes `key` from page `page` of the directory rooted at `root_key` (rippled
/// `dirRemove`), as [`remove_owned`] does for owner directories.
pub fn dir_remove(
    sb: &mut Sandbox,
    root_key: &Hash256,
    page: u64,
    key: &Hash256,
    keep_root: bool,
) -> bool {
    let root_key = *root_key;
    let node_key = keylet::dir_page(&root_key, page);
    let Some(mut node) = sb.peek(&node_key) else {
        return false;
    };
    let mut keys = indexes(&node);
    let Some(pos) = keys.iter().position(|k| k == key) else {
        return false;
    };
    keys.remove(pos);
    let now_empty = keys.is_empty();
    node.set(sf().indexes, StValue::Vector256(keys));
    if !now_empty {
        sb.update(node_key, node);
        return true;
    }
    let prev = node.u64_of(sf().index_previous).unwrap_or(0);
    let next = node.u64_of(sf().index_next).unwrap_or(0);
    if page == 0 {
        if next == prev && next != 0 {
            // A legacy empty last page: drop it if it is empty too.
            let last_key = keylet::dir_page(&root_key, next);
            match sb.peek(&last_key) {
                Some(last) if indexes(&last).is_empty() => {
                    sb.erase(last_key);
                    node.set(sf().index_next, StValue::UInt64(0));
                    node.set(sf().index_previous, StValue::UInt64(0));
                    sb.update(node_key, node);
                    if !keep_root {
                        sb.erase(node_key);
                    }
                }
                _ => sb.update(node_key, node),
            }
            return true;
        }
        if next == 0 && prev == 0 && !keep_root {
            sb.update(node_key, node);
            sb.erase(node_key);
        } else {
            sb.update(node_key, node);
        }
        return true;
    }
    sb.update(node_key, node);
    // Unlink this page.
    let prev_key = keylet::dir_page(&root_key, prev);
    let next_key = keylet::dir_page(&root_key, next);
    let Some(mut prev_node) = sb.peek(&prev_key) else {
        return false;
    };
    prev_node.set(sf().index_next, StValue::UInt64(next));
    sb.update(prev_key, prev_node.clone());
    let Some(mut next_node) = sb.peek(&next_key) else {
        return false;
    };
    next_node.set(sf().index_previous, StValue::UInt64(prev));
    sb.update(next_key, next_node.clone());
    sb.erase(node_key);
    let mut next = next;
    // If the next page is now an empty last page, drop it too.
    if next != 0
        && next_node.u64_of(sf().index_next).unwrap_or(0) == 0
        && indexes(&next_node).is_empty()
    {
        sb.erase(next_key);
        if let Some(mut p) = sb.peek(&prev_key) {
            p.set(sf().index_next, StValue::UInt64(0));
            sb.update(prev_key, p);
        }
        if let Some(mut r) = sb.peek(&root_key) {
            r.set(sf().index_previous, StValue::UInt64(prev));
            sb.update(root_key, r);
        }
        next = 0;
    }
    // Only the root is left and it is empty: drop it.
    if !keep_root && next == 0 && prev == 0 {
        if let Some(r) = sb.peek(&root_key) {
            if indexes(&r).is_empty() {
                sb.erase(root_key);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::ledger::fees::Fees;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};

    fn empty_view() -> StateView {
        let info = ViewInfo {
            seq: 2,
            parent_close_time: 0,
            fees: Fees::default(),
            open: true,
            parent_hash: crate::protocol::types::Hash256::ZERO,
            rules: Default::default(),
        };
        StateView::new(Arc::new(State::new()), stamp(1, 0), info)
    }

    fn key(i: u8) -> Hash256 {
        Hash256([i; 32])
    }

    #[test]
    fn pages_fill_link_and_unlink() {
        let view = empty_view();
        let mut sb = Sandbox::new(&view);
        let owner = AccountId([9; 20]);
        let root = keylet::owner_dir(&owner);
        let pages: Vec<u64> = (0..70u8)
            .map(|i| insert_owned(&mut sb, &owner, key(i)).unwrap())
            .collect();
        assert_eq!(pages[31], 0);
        assert_eq!(pages[32], 1);
        assert_eq!(pages[69], 2);
        let r = sb.peek(&root).unwrap();
        assert_eq!(r.u64_of(sf().index_next), Some(1));
        assert_eq!(r.u64_of(sf().index_previous), Some(2));
        let p2 = sb.peek(&keylet::dir_page(&root, 2)).unwrap();
        assert_eq!(p2.u64_of(sf().index_previous), Some(1));
        // Keys on a page are sorted.
        let p0 = sb.peek(&root).unwrap();
        let v = p0.v256_of(sf().indexes).unwrap();
        assert!(v.windows(2).all(|w| w[0] < w[1]));

        // Empty the middle page: it is unlinked and deleted.
        for i in 32..64u8 {
            assert!(remove_owned(&mut sb, &owner, 1, &key(i), false));
        }
        assert!(!sb.exists(&keylet::dir_page(&root, 1)));
        assert_eq!(sb.peek(&root).unwrap().u64_of(sf().index_next), Some(2));
        let p2 = sb.peek(&keylet::dir_page(&root, 2)).unwrap();
        assert_eq!(p2.u64_of(sf().index_previous), Some(0));
        // A key not on that page.
        assert!(!remove_owned(&mut sb, &owner, 2, &key(0), false));
        // Empty the last page: the root points to itself again.
        for i in 64..70u8 {
            assert!(remove_owned(&mut sb, &owner, 2, &key(i), false));
        }
        assert!(!sb.exists(&keylet::dir_page(&root, 2)));
        let r = sb.peek(&root).unwrap();
        assert_eq!(r.u64_of(sf().index_next).unwrap_or(0), 0);
        assert_eq!(r.u64_of(sf().index_previous).unwrap_or(0), 0);
        // Empty the root: gone, unless kept.
        for i in 0..31u8 {
            assert!(remove_owned(&mut sb, &owner, 0, &key(i), false));
        }
        assert!(remove_owned(&mut sb, &owner, 0, &key(31), true));
        assert!(sb.exists(&root));
        assert!(sb
            .peek(&root)
            .unwrap()
            .v256_of(sf().indexes)
            .unwrap()
            .is_empty());
        insert_owned(&mut sb, &owner, key(1)).unwrap();
        assert!(remove_owned(&mut sb, &owner, 0, &key(1), false));
        assert!(!sb.exists(&root));
    }
}
