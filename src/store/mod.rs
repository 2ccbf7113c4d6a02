//! Durable storage: the journal, snapshots and recovery, behind a small Storage trait.
//!
//! - [`storage`]: the [`Storage`] trait every byte goes through, and [`DiskStorage`].
//! - [`faulty`]: [`FaultyStorage`], which fails or tears writes and fsyncs for tests.
//! - [`record`]: the checksummed record format and its [`RecordKind`]s.
//! - `segment`: segment file naming.
//! - [`journal`]: [`Journal`], the append side: ordered, numbered, with [`Ticket`]s.
//! - `group_commit`: the writer thread: one write and one fdatasync per batch.
//! - `synced`: the acknowledgement record, how far the journal acknowledged.
//! - [`recovery`]: what opening finds ([`Recovered`]), and [`Replay`].
//! - [`damage`]: judging it: cut a torn tail, refuse lost acknowledged records, or repair
//!   ([`Discarded`]).
//! - [`snapshot`]: [`Snapshots`]: temp file, fsync, rename, directory fsync; fallback.
//! - [`prune`]: [`prune_history`], how many snapshots and journal segments are kept.
//! - [`history`]: [`HistoryStore`], every validated ledger, transaction and changed entry,
//!   queryable ([`SqliteHistory`]), with its start marker and integrity check.
//! - [`postgres`]: [`PgHistory`], the same store in PostgreSQL, shared by the writer and
//!   read nodes.
//! - [`ticket`]: [`Ticket`], the receipt of an append (blocking wait, future, callback).
//! - [`error`]: [`StoreError`], the one error type.
//!
//! Every call blocks its caller and none needs a tokio runtime, so the store works from any
//! context: the journal, snapshots and SQLite use threads and `std::fs`, and a tokio task
//! awaits a [`Ticket`] directly (it is a plain future). The one exception inside is
//! [`PgHistory`]: tokio-postgres is asynchronous, so it owns a small tokio runtime of its
//! own for its connections and blocks each call until the database answers.

pub mod damage;
pub mod error;
pub mod faulty;
mod group_commit;
pub mod history;
pub mod journal;
pub mod nft_index;
pub mod postgres;
pub mod prune;
pub mod record;
pub mod recovery;
mod segment;
pub mod snapshot;
pub mod storage;
mod synced;
pub mod ticket;

pub use damage::{Discarded, DISCARDED_SUFFIX};
pub use error::{StoreError, StoreResult};
pub use faulty::FaultyStorage;
pub use history::{
    set_aside, AccountTxPage, AccountTxPlaces, AccountTxQuery, HistoryLedger, HistoryStore,
    HistoryTx, NftRecord, SqliteHistory, StateChanges, StateRow, StoredTx, TxPlace,
};
pub use journal::{Journal, JournalOptions, JournalStats};
pub use postgres::PgHistory;
pub use prune::{prune_history, PruneReport};
pub use record::{Record, RecordKind};
pub use recovery::{Recovered, Replay, ReplayProgress, TailRepair};
pub use snapshot::{Snapshot, SnapshotInfo, Snapshots};
pub use storage::{DiskStorage, Storage, StorageFile};
pub use ticket::{Ticket, TicketFuture};
