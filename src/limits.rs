//! Every tuned bound of ledgerd, in one place. Prose elsewhere names the constant, never
//! the number. Units and qualifiers come last in the names (`frame_bytes_max`).

// ---------------------------------------------------------------------------------------
// store: the journal, group commit and snapshots (src/store/)
// ---------------------------------------------------------------------------------------

/// A journal segment is closed and a new one started once it holds at least this many
/// bytes. A segment can overshoot by at most one batch ([`JOURNAL_BATCH_BYTES_MAX`]),
/// because a batch is never split across segments. Segments are the unit of pruning.
pub const JOURNAL_SEGMENT_BYTES_MAX: u64 = 64 * 1024 * 1024;

/// Largest payload of one journal record (a transaction blob with its result and ledger
/// sequence, or a ledger header). Well above rippled's message bound of 1,000,000 bytes;
/// bigger appends are refused before they reach the disk, and recovery treats a larger
/// length field as corruption.
pub const JOURNAL_RECORD_PAYLOAD_BYTES_MAX: usize = 4 * 1024 * 1024;

/// Most bytes one group-commit batch writes with its single `write` and `fdatasync`.
/// Records queued beyond it wait for the next batch, so one fsync never carries an
/// unbounded write.
pub const JOURNAL_BATCH_BYTES_MAX: usize = 8 * 1024 * 1024;

/// Most records in one group-commit batch (each record stores its position in the batch,
/// which recovery uses to tell a torn last batch from corruption of an older one).
pub const JOURNAL_BATCH_RECORDS_MAX: usize = 65_536;

/// Bytes of records queued and not yet durable above which `Journal::append` blocks until
/// the writer catches up. Only a stalled disk gets here; blocking is the backpressure.
pub const JOURNAL_QUEUE_BYTES_MAX: usize = 64 * 1024 * 1024;

/// Default extra time the group-commit writer waits for more records after the first one
/// arrives, in microseconds. Zero: a batch is whatever queued while the previous fsync
/// ran, which already batches under load and adds no latency when idle.
pub const JOURNAL_GROUP_WAIT_MICROS_DEFAULT: u64 = 0;

/// Upper bound on the configurable group-commit wait, in microseconds (a longer wait only
/// adds latency: the fsync itself is the natural batching window).
pub const JOURNAL_GROUP_WAIT_MICROS_MAX: u64 = 10_000;

/// Replay reports progress to its callback every this many records.
pub const REPLAY_PROGRESS_RECORDS_INTERVAL: u64 = 100_000;

/// Largest snapshot file the store will read back into memory.
pub const SNAPSHOT_BYTES_MAX: u64 = 8 * 1024 * 1024 * 1024;

/// Default number of snapshots kept by pruning; journal segments needed to replay from the
/// oldest kept snapshot are kept too, so this is the depth of restartable history.
pub const SNAPSHOTS_KEPT_DEFAULT: usize = 3;
