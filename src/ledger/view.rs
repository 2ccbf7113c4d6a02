//! Read views: a ledger's entries as of one moment, plus the facts about that ledger the
//! rules need (its sequence, its parent's close time, its fees).

use std::sync::Arc;

use super::fees::Fees;
use super::state::{Stamp, State};
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

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
}

/// Reads ledger entries by key.
pub trait ReadView {
    /// The entry at `key`, if present.
    fn read(&self, key: &Hash256) -> Option<Arc<StObject>>;
    /// The ledger this view shows.
    fn info(&self) -> &ViewInfo;
}

/// A snapshot of the shared state at one stamp. Cheap to make and to clone.
#[derive(Clone)]
pub struct StateView {
    state: Arc<State>,
    at: Stamp,
    info: ViewInfo,
}

impl StateView {
    /// A view of `state` as of `at`.
    pub fn new(state: Arc<State>, at: Stamp, info: ViewInfo) -> StateView {
        StateView { state, at, info }
    }

    /// The stamp this view reads at.
    pub fn stamp(&self) -> Stamp {
        self.at
    }

    /// Every entry of this view, in no particular order (for full-state walks).
    pub fn for_each(&self, f: impl FnMut(&Hash256, &Arc<StObject>)) {
        self.state.for_each_at(self.at, f)
    }
}

impl ReadView for StateView {
    fn read(&self, key: &Hash256) -> Option<Arc<StObject>> {
        self.state.read_at(key, self.at)
    }
    fn info(&self) -> &ViewInfo {
        &self.info
    }
}
