//! Walking an order book (rippled's `BookDirs` / `OfferStream` iteration order): quality
//! pages from the best (lowest rate) up, and within a page the offers in the order they
//! were placed.

use std::sync::Arc;

use super::book_index::next_key;
use super::keylet;
use super::sf::{sf, StExt};
use super::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::{Hash256, Issue};

/// The keys of a directory's pages and their entries, page by page from the root.
pub fn directory_entries(view: &dyn ReadView, root: &Hash256) -> Vec<(u64, Hash256)> {
    let mut out = Vec::new();
    let mut page = 0u64;
    for _ in 0..=crate::ledger::directory::DIR_PAGES_MAX {
        let Some(node) = view.read(&keylet::dir_page(root, page)) else {
            break;
        };
        for k in node.v256_of(sf().indexes).unwrap_or(&[]) {
            out.push((page, *k));
        }
        page = node.u64_of(sf().index_next).unwrap_or(0);
        if page == 0 {
            break;
        }
    }
    out
}

/// The quality directories of the book at `base`, best first.
pub fn quality_dirs<'a>(
    view: &'a dyn ReadView,
    base: &Hash256,
) -> impl Iterator<Item = Hash256> + 'a {
    let end = keylet::book_end(base);
    let mut cursor = Some(*base);
    std::iter::from_fn(move || {
        let from = cursor?;
        let dir = view.succ(&from, &end)?;
        cursor = next_key(&dir);
        Some(dir)
    })
}

/// Calls `f(directory, offer_key, offer)` for each offer of the book where takers pay
/// `pays` and get `gets`, best quality first; stops when `f` returns false.
pub fn for_each_book_offer(
    view: &dyn ReadView,
    pays: &Issue,
    gets: &Issue,
    f: impl FnMut(&Hash256, &Hash256, &Arc<StObject>) -> bool,
) {
    for_each_book_offer_in(view, pays, gets, None, f)
}

/// [`for_each_book_offer`] over a permissioned domain's book (`None`: the open book).
pub fn for_each_book_offer_in(
    view: &dyn ReadView,
    pays: &Issue,
    gets: &Issue,
    domain: Option<&Hash256>,
    mut f: impl FnMut(&Hash256, &Hash256, &Arc<StObject>) -> bool,
) {
    let base = keylet::book_base_in(pays, gets, domain);
    for dir in quality_dirs(view, &base) {
        for (_, key) in directory_entries(view, &dir) {
            let Some(offer) = view.read(&key) else {
                continue;
            };
            if !f(&dir, &key, &offer) {
                return;
            }
        }
    }
}

/// True when the book has at least one offer.
pub fn book_exists(view: &dyn ReadView, pays: &Issue, gets: &Issue) -> bool {
    let base = keylet::book_base(pays, gets);
    quality_dirs(view, &base).next().is_some()
}
