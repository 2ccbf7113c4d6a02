//! Reading directories: the owner directory of an account is a chain of pages, each
//! listing up to [`DIR_PAGE_ENTRIES_MAX`] keys. The engine changes them
//! (`engine/directory.rs`); readers (account_lines, account_objects) walk them with these
//! helpers.

use super::keylet;
use super::sf::{sf, StExt};
use super::view::ReadView;
use crate::protocol::types::{AccountId, Hash256};

/// Entries in one directory page (rippled `dirNodeMaxEntries`).
pub const DIR_PAGE_ENTRIES_MAX: usize = 32;

/// Pages in one directory before fixDirectoryLimit (rippled `dirNodeMaxPages`): without
/// the amendment a new page at this index or beyond is `tecDIR_FULL`; with it only the
/// page index overflowing a u64 is. Walkers also bound a chain's length by it, against a
/// malformed ledger that links its pages in a cycle (as rippled's manifest walk does).
pub const DIR_PAGES_MAX: u64 = 262_144;

/// True when the directory rooted at `root` has no entries (or does not exist).
pub fn is_empty(view: &dyn ReadView, root: &Hash256) -> bool {
    match view.read(root) {
        None => true,
        Some(page) => {
            page.v256_of(sf().indexes).is_none_or(|v| v.is_empty())
                && page.u64_of(sf().index_next).unwrap_or(0) == 0
        }
    }
}

/// The keys in `account`'s owner directory, page by page in chain order, starting at
/// page `start_page`. Calls `f(page, key)`; stop early by returning `false`.
pub fn for_each_owned(
    view: &dyn ReadView,
    account: &AccountId,
    start_page: u64,
    mut f: impl FnMut(u64, &Hash256) -> bool,
) {
    let root = keylet::owner_dir(account);
    let mut page = start_page;
    // The chain is finite in a well-formed ledger; the bound guards a malformed one.
    for _ in 0..=DIR_PAGES_MAX {
        let Some(node) = view.read(&keylet::dir_page(&root, page)) else {
            return;
        };
        for key in node.v256_of(sf().indexes).unwrap_or(&[]) {
            if !f(page, key) {
                return;
            }
        }
        page = node.u64_of(sf().index_next).unwrap_or(0);
        if page == 0 {
            return;
        }
    }
}

/// Every key in `account`'s owner directory.
pub fn owned(view: &dyn ReadView, account: &AccountId) -> Vec<Hash256> {
    let mut out = Vec::new();
    for_each_owned(view, account, 0, |_, k| {
        out.push(*k);
        true
    });
    out
}
