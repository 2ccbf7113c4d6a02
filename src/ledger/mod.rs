//! The pure ledger: entries, keylets, the DashMap-backed state, headers and close.
//! No async runtime, no files, no sockets.
//!
//! # The API the server uses
//! ```text
//! let store = LedgerStore::genesis(LedgerConfig::default(), now_ripple_secs); // 1, 2 closed; 3 open
//! store.apply(&tx) / store.apply_blob(&blob) -> ApplyResult { ter, applied, id, entry, held }
//! store.close(close_time_ripple_secs) -> Arc<ClosedLedger>          // ledger_accept
//! store.current() / closed() / validated() / by_seq(n) / by_hash(&h) -> LedgerSnapshot
//! snapshot.view.read(&keylet::account(&id)) -> Option<Arc<StObject>> // ReadView
//! directory::for_each_owned(&snapshot.view, &id, start_page, |page, key| ...)
//! TrustLine::from_entry(&ripple_state, &viewer)                      // account_lines
//! store.tx(&id) -> Option<Arc<TxEntry>>; store.open_txs(); store.held()
//! store.export_closed() / LedgerStore::from_snapshot(cfg, header, entries)
//! ```
//! A snapshot is consistent (one ledger, never half a transaction) and cheap; reads
//! never wait for the writer. `apply` and `close` serialize on the store's writer lock.
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
