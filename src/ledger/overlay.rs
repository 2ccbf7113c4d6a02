//! A view of a parent with a set of writes on top: what the transactions applied so far
//! changed (a canonical rebuild at close, the inner transactions of a Batch).

use std::collections::HashMap;
use std::sync::Arc;

use super::book_index::{is_ordered, next_key};
use super::view::{ReadView, ViewInfo};
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// `parent` with `writes` applied (None: deleted), shown as ledger `info`.
pub struct Overlay<'a> {
    parent: &'a dyn ReadView,
    /// The final value of every entry written so far.
    pub writes: HashMap<Hash256, Option<Arc<StObject>>>,
    info: ViewInfo,
}

impl<'a> Overlay<'a> {
    /// An overlay with no writes yet.
    pub fn new(parent: &'a dyn ReadView, info: ViewInfo) -> Overlay<'a> {
        Overlay {
            parent,
            writes: HashMap::new(),
            info,
        }
    }

    /// Applies one transaction's writes on top.
    pub fn apply(&mut self, writes: impl IntoIterator<Item = (Hash256, Option<Arc<StObject>>)>) {
        for (k, v) in writes {
            self.writes.insert(k, v);
        }
    }
}

impl ReadView for Overlay<'_> {
    fn read(&self, key: &Hash256) -> Option<Arc<StObject>> {
        match self.writes.get(key) {
            Some(v) => v.clone(),
            None => self.parent.read(key),
        }
    }
    fn info(&self) -> &ViewInfo {
        &self.info
    }
    fn succ(&self, from: &Hash256, end: &Hash256) -> Option<Hash256> {
        let mine = self
            .writes
            .iter()
            .filter(|(k, v)| *k >= from && *k < end && v.as_deref().is_some_and(is_ordered))
            .map(|(k, _)| *k)
            .min();
        let mut cursor = *from;
        let theirs = loop {
            let Some(k) = self.parent.succ(&cursor, end) else {
                break None;
            };
            match self.writes.get(&k) {
                Some(None) => match next_key(&k) {
                    Some(n) => cursor = n,
                    None => break None,
                },
                _ => break Some(k),
            }
        };
        match (mine, theirs) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
