//! The store's one error type. It is `Clone` because a single failed fsync has to be
//! handed to every waiter of the batch it failed, and to every append after it.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// Everything the store can refuse or fail with.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// A storage call failed. `op` names the call, `path` the file or directory.
    #[error("store: {op} {path} failed: {source}")]
    Io {
        /// The storage operation that failed (`write`, `fdatasync`, `rename`, ...).
        op: &'static str,
        /// The file or directory it was applied to.
        path: PathBuf,
        /// The operating system's error, shared so the error can be cloned to every waiter.
        #[source]
        source: Arc<io::Error>,
    },
    /// The journal refuses writes because an earlier write or fsync failed: once the disk
    /// has said no, nothing more is reported durable until an operator restarts the server
    /// (which recovers the journal from what is really on disk).
    #[error("store: journal refuses writes since an earlier failure: {cause}")]
    Poisoned {
        /// The first failure (the same one for every refused append).
        cause: Arc<StoreError>,
    },
    /// Recovery found damage before the tail of the journal: records that were already
    /// acknowledged are unreadable, so the store refuses to open rather than lose them.
    #[error("store: journal corrupt in {file} at byte {offset}: {reason}")]
    Corrupt {
        /// The damaged segment file.
        file: PathBuf,
        /// Byte offset of the first damaged record in that file.
        offset: u64,
        /// What was wrong (checksum, length, record number, ...).
        reason: String,
    },
    /// A snapshot file failed its checks.
    #[error("store: snapshot {file} unusable: {reason}")]
    SnapshotCorrupt {
        /// The snapshot file.
        file: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// An append carried a payload above `JOURNAL_RECORD_PAYLOAD_BYTES_MAX`.
    #[error("store: record payload of {bytes} bytes exceeds the limit of {max} bytes")]
    PayloadTooLarge {
        /// Size of the refused payload.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// Replay asked for records that were pruned away.
    #[error("store: record {wanted} is no longer in the journal (oldest kept is {oldest})")]
    Pruned {
        /// The record number asked for.
        wanted: u64,
        /// The oldest record still in the journal.
        oldest: u64,
    },
    /// The journal was closed (dropped) before this append became durable.
    #[error("store: journal closed before the record was written")]
    Closed,
    /// The history database failed or holds something it should not.
    #[error("store: history database {file}: {reason}")]
    History {
        /// The database file (`:memory:` for an ephemeral server).
        file: String,
        /// What failed.
        reason: String,
    },
    /// The history database is damaged: a page, an index or a row does not read back as it
    /// was written (SQLite's integrity check, a corrupt page, a header whose hash does not
    /// match), or its start marker is unreadable.
    #[error("store: history database {file} is damaged: {reason}")]
    HistoryDamaged {
        /// The database file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// The history database cannot be reached now (PostgreSQL down, restarting, or slower
    /// than [`crate::limits::PG_CALL_TIMEOUT_SECS`]): a later call may succeed.
    #[error("store: history database {store} unavailable: {reason}")]
    Unavailable {
        /// The database (host, port and name; never the password).
        store: String,
        /// What failed.
        reason: String,
    },
}

impl StoreError {
    /// Wraps an I/O error with the operation and path it came from.
    pub fn io(op: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        StoreError::Io {
            op,
            path: path.into(),
            source: Arc::new(source),
        }
    }

    /// True when this error says the history database is damaged.
    pub fn is_history_damage(&self) -> bool {
        matches!(self, StoreError::HistoryDamaged { .. })
    }

    /// True when this error (or the failure that poisoned the journal) is a full disk.
    pub fn is_disk_full(&self) -> bool {
        match self {
            StoreError::Io { source, .. } => {
                source.kind() == io::ErrorKind::StorageFull || source.raw_os_error() == Some(28)
            }
            StoreError::Poisoned { cause } => cause.is_disk_full(),
            _ => false,
        }
    }
}

/// Result alias of the store.
pub type StoreResult<T> = Result<T, StoreError>;
