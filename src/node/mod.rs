//! The node: the single writer (sequencer) and what hangs off it.
//!
//! - [`persist`]: the journal, snapshots and recovery of the ledger.

pub mod persist;
