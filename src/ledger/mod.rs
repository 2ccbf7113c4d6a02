//! The pure ledger: entries, keylets, the DashMap-backed state, views and headers.
//! No async runtime, no files, no sockets. The open ledger and closed history built on it
//! are one layer up, in [`crate::ledgers`].
//!
//! ```text
//! snapshot.view.read(&keylet::account(&id)) -> Option<Arc<StObject>> // ReadView
//! directory::for_each_owned(&snapshot.view, &id, start_page, |page, key| ...)
//! TrustLine::from_entry(&ripple_state, &viewer)                      // account_lines
//! ```
//!
//! - [`keylet`]: the index of every ledger entry, as rippled computes it.
//! - [`entry_types`]: one row per ledger entry type: codes, RPC names, keylets, threading,
//!   AccountDelete, invariants.
//! - [`entry_key`]: whether an entry read from outside can be the one at its key.
//! - [`sf`]: cached field handles and typed accessors.
//! - [`flags`]: lsf flags.
//! - [`fees`]: base fee and reserves.
//! - [`rules`]: the amendments a ledger is applied under (xrpld's `Rules`).
//! - [`state`]: the multi-version map of entries (every ledger in history, one map).
//! - [`view`]: read views of one ledger.
//! - [`book_index`]: book directory roots in key order (for `ReadView::succ`).
//! - [`book`]: walking an order book best quality first.
//! - [`deferred`]: deferred credits of a payment in progress (rippled `PaymentSandbox`).
//! - [`directory`]: reading owner directories.
//! - [`trust_line`]: a trust line from one side (what account_lines shows).
//! - [`shamap`]: rippled's tree hashing, persistent and incremental.
//! - [`header`]: ledger headers, their hash, close-time rules.

pub mod book;
pub mod book_index;
pub mod deferred;
pub mod directory;
pub mod entry_key;
pub mod entry_types;
pub mod fees;
pub mod flags;
pub mod header;
pub mod keylet;
pub mod overlay;
pub mod rules;
pub mod sf;
pub mod shamap;
pub mod skip;
pub mod state;
pub mod trust_line;
pub mod view;
