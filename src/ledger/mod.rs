//! The pure ledger: entries, keylets, the DashMap-backed state, headers and close.
//! No tokio, no files, no sockets.
//!
//! - [`keylet`]: the index of every ledger entry, as rippled computes it.
//! - [`sf`]: cached field handles and typed accessors.
//! - [`flags`]: entry types and lsf flags.
//! - [`fees`]: base fee and reserves.
//! - [`state`]: the multi-version map of entries (every ledger in history, one map).
//! - [`view`]: read views of one ledger.
//! - [`directory`]: reading owner directories.

pub mod directory;
pub mod fees;
pub mod flags;
pub mod keylet;
pub mod sf;
pub mod state;
pub mod view;
