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
//! - [`trust_line`]: a trust line from one side (what account_lines shows).
//! - [`shamap`]: rippled's tree hashing, persistent and incremental.
//! - [`header`]: ledger headers, their hash, close-time rules.
//! - [`store`]: the ledger store: history, the open ledger, apply and close (the API
//!   the server uses).

pub mod directory;
pub mod fees;
pub mod flags;
pub mod header;
pub mod keylet;
pub mod sf;
pub mod shamap;
pub mod state;
pub mod store;
pub mod trust_line;
pub mod view;
