//! Persistence: the journal of every accepted submission and every close, snapshots of the
//! state every [`SNAPSHOT_INTERVAL_LEDGERS`] ledgers, and the recovery that rebuilds the
//! ledger from them at startup.
//!
//! The sequencer (the single writer) calls [`Persistence::record_tx`] right after each
//! accepted apply and [`Persistence::record_close`] right after each close, in order; each
//! returns a [`Durable`] at once (the journal's group commit makes it durable with many
//! others in one fdatasync), and the reply waits for it, never the sequencer.
//! [`Persistence::after_close`] starts a snapshot on a background thread when one is due.
//!
//! On disk, under the data directory: `journal/` (the store's segments), `snapshots/`
//! (the store's snapshot files) and `LOCK` (an exclusive lock: one server per directory).
//! Record and snapshot payloads: `persist/format.rs`. Recovery: `persist/recovery.rs`.

mod durable;
pub mod format;
mod recovery;
mod replay;
mod snapshotter;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use parking_lot::{Condvar, Mutex};

pub use durable::Durable;
pub use recovery::holds_ledger;

use crate::ledgers::{ApplyResult, ClosedLedger, LedgerConfig, Ledgers};
use crate::limits::{PERSIST_HISTORY_LEDGERS_DEFAULT, SNAPSHOT_INTERVAL_LEDGERS};
use crate::store::{
    DiskStorage, Journal, JournalOptions, RecordKind, Snapshots, Storage, StoreError,
};
use format::{CloseRecord, TxRecord};

/// Where `ledgerd serve` keeps its ledger when neither `--data-dir` nor `--ephemeral` is
/// given: `./ledgerd-data`, relative to the working directory (as rippled's relative
/// `[database_path]`).
pub const DEFAULT_DATA_DIR: &str = "ledgerd-data";

/// Why persistence failed or refuses.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PersistError {
    /// The journal or snapshot store failed (names the file, and the offset for damage).
    #[error("{0}")]
    Store(#[from] StoreError),
    /// Writes are refused since an earlier failure (failed fsync, full disk, failed
    /// snapshot write); a restart recovers from what is on disk.
    #[error("persistence refuses writes: {0}")]
    Unhealthy(String),
    /// Acknowledged records are missing or unreadable: a journal segment truncated, zeroed,
    /// emptied or deleted, or a journal that ends before a snapshot does (emptied or
    /// deleted while snapshots remain). The server refuses to start;
    /// [`PersistOptions::repair_journal`] (`ledgerd serve --repair-journal`) discards what
    /// is missing and starts from what is left.
    #[error("{0}; refusing to start (`ledgerd serve --repair-journal` discards what is missing and starts from what is left)")]
    Damaged(String),
    /// Replay did not reproduce what the journal recorded: the server refuses to start
    /// rather than serve a different ledger than the one it acknowledged.
    #[error("journal replay diverged at record {record}: {detail}; refusing to start")]
    Diverged {
        /// The journal record number.
        record: u64,
        /// What differed.
        detail: String,
    },
    /// A record or snapshot could not be read or used.
    #[error("cannot recover the ledger: {0}")]
    Recovery(String),
    /// The data directory is in use or unusable.
    #[error("data directory {path}: {reason}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// How persistence is set up. `Default` writes to the real disk with the limits.rs values.
#[derive(Clone)]
pub struct PersistOptions {
    /// Every byte goes through this (tests pass a [`crate::store::FaultyStorage`]).
    pub storage: Arc<dyn Storage>,
    /// Journal batching and rotation.
    pub journal: JournalOptions,
    /// A snapshot every this many closed ledgers (0: never).
    pub snapshot_interval_ledgers: u32,
    /// Closed ledgers whose history a restart rebuilds and pruning keeps replayable.
    pub history_ledgers: u32,
    /// Start even when acknowledged records are missing or unreadable: keep the journal's
    /// verified prefix (or, when a snapshot holds more, start the journal over after that
    /// snapshot), set the rest aside and log what was discarded (`--repair-journal`).
    pub repair_journal: bool,
    /// Handed every ledger replay closes at start, in order (a ledger a revert undid comes
    /// again after the revert); with it, replay starts from the oldest base the journal
    /// still reaches (`serve --repair-history` rebuilds the history database from them). An
    /// error stops the start.
    pub replay_sink: Option<ReplaySink>,
}

/// See [`PersistOptions::replay_sink`]: the ledgers (the closed ledger is their newest) and
/// the ledger replay just closed.
pub type ReplaySink = Arc<dyn Fn(&Ledgers, &Arc<ClosedLedger>) -> Result<(), String> + Send + Sync>;

impl Default for PersistOptions {
    fn default() -> Self {
        PersistOptions {
            storage: Arc::new(DiskStorage),
            journal: JournalOptions::default(),
            snapshot_interval_ledgers: SNAPSHOT_INTERVAL_LEDGERS,
            history_ledgers: PERSIST_HISTORY_LEDGERS_DEFAULT,
            repair_journal: false,
            replay_sink: None,
        }
    }
}

impl PersistOptions {
    /// Snapshots to keep so that the oldest kept one is at least `history_ledgers`
    /// behind the newest, plus one spare in case the one replay wants is damaged.
    fn snapshots_kept(&self) -> usize {
        let interval = self.snapshot_interval_ledgers.max(1);
        let behind = self.history_ledgers.div_ceil(interval) as usize;
        (behind + 2).max(crate::limits::SNAPSHOTS_KEPT_DEFAULT)
    }
}

/// What the snapshot side has done, for `stats_json` and `health`.
#[derive(Default)]
pub(crate) struct SnapshotStatus {
    /// The ledger of the newest snapshot on disk.
    pub last_seq: u32,
    /// Its journal record.
    pub last_through_record: u64,
    /// Snapshots written since opening.
    pub written: u64,
    /// How long the last one took, in milliseconds.
    pub last_millis: u64,
    /// The last failure to write one (cleared by the next success).
    pub failure: Option<String>,
    /// The background thread, while one runs.
    pub running: Option<JoinHandle<()>>,
}

/// The on-disk side, shared with the snapshot thread.
pub(crate) struct Disk {
    pub dir: PathBuf,
    pub options: PersistOptions,
    pub journal: Journal,
    pub snapshots: Snapshots,
    /// The open ledger's sequence, recorded with held transactions.
    pub open_seq: AtomicU32,
    /// The last close journaled: (ledger seq, record number).
    pub last_close: Mutex<Option<(u32, u64)>>,
    /// The payloads of the transaction records journaled since the last close (the open
    /// ledger's): a revert to a state saved now journals them again.
    pub open_log: Mutex<Vec<Vec<u8>>>,
    /// The ledger the last revert recovery replayed went back to, if any (the history
    /// store may still hold the ledgers after it).
    pub reverted_to: Option<u32>,
    /// The highest close record known durable.
    pub durable_close: Arc<CloseWatermark>,
    pub snapshot: Mutex<SnapshotStatus>,
    /// What recovery started from and replayed, for `stats_json`.
    pub recovered_from: String,
    /// What a `--repair-journal` start discarded, for `stats_json`.
    pub repaired: Option<String>,
    /// Held for the life of the process: a second server on the same directory is refused.
    _lock: File,
}

impl Disk {
    fn refusal(&self) -> Option<String> {
        if let Err(e) = self.journal.health() {
            return Some(e.to_string());
        }
        self.snapshot
            .lock()
            .failure
            .as_ref()
            .map(|f| format!("snapshot write failed: {f}"))
    }
}

/// The highest close record known durable. Its own allocation, so the journal's writer
/// thread (which completes tickets) never holds the last reference to the journal.
#[derive(Default)]
pub(crate) struct CloseWatermark {
    record: Mutex<u64>,
    changed: Condvar,
}

impl CloseWatermark {
    pub(crate) fn mark(&self, record: u64) {
        let mut d = self.record.lock();
        if record > *d {
            *d = record;
        }
        drop(d);
        self.changed.notify_all();
    }

    /// Waits until `record` is durable; false on timeout.
    pub(crate) fn wait_for(&self, record: u64, timeout: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        let mut d = self.record.lock();
        while *d < record {
            if self.changed.wait_until(&mut d, deadline).timed_out() {
                return *d >= record;
            }
        }
        true
    }
}

/// The ledger's persistence: the journal, snapshots, and what recovery found. Shared as
/// `Arc<Persistence>` between the sequencer, the responders and `server_info`.
pub struct Persistence {
    disk: Option<Arc<Disk>>,
}

impl std::fmt::Debug for Persistence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Persistence")
            .field("dir", &self.disk.as_ref().map(|d| d.dir.clone()))
            .finish()
    }
}

impl Persistence {
    /// No disk at all (`--ephemeral`, tests): a genesis store; every [`Durable`] is
    /// immediately `Ok`.
    pub fn ephemeral(cfg: LedgerConfig) -> (Arc<Persistence>, Arc<Ledgers>) {
        let now = genesis_time(&cfg);
        (
            Arc::new(Persistence { disk: None }),
            Arc::new(Ledgers::genesis(cfg, now)),
        )
    }

    /// No disk, over ledgers built elsewhere (`serve --fork`: another server's ledger).
    pub fn ephemeral_over(ledgers: Ledgers) -> (Arc<Persistence>, Arc<Ledgers>) {
        (Arc::new(Persistence { disk: None }), Arc::new(ledgers))
    }

    /// Open or create `dir`: the newest usable snapshot old enough to rebuild the history
    /// depth, then the journal after it replayed and checked -> the recovered store.
    pub fn open(
        dir: &Path,
        cfg: LedgerConfig,
    ) -> Result<(Arc<Persistence>, Arc<Ledgers>), PersistError> {
        Self::open_with(dir, cfg, PersistOptions::default())
    }

    /// [`Persistence::open`] with explicit options (a fault-injecting storage, small
    /// segments, a short snapshot interval): the constructor tests use.
    pub fn open_with(
        dir: &Path,
        cfg: LedgerConfig,
        options: PersistOptions,
    ) -> Result<(Arc<Persistence>, Arc<Ledgers>), PersistError> {
        let (disk, store) = recovery::open(dir, cfg, options)?;
        store.restart_queue();
        Ok((Arc::new(Persistence { disk: Some(disk) }), store))
    }

    /// What `ledgerd serve` does: in memory when `ephemeral`, otherwise
    /// [`Persistence::open`] on `data_dir` (default [`DEFAULT_DATA_DIR`]).
    pub fn from_config(
        ephemeral: bool,
        data_dir: Option<&Path>,
        cfg: LedgerConfig,
    ) -> Result<(Arc<Persistence>, Arc<Ledgers>), PersistError> {
        if ephemeral {
            return Ok(Self::ephemeral(cfg));
        }
        let dir = data_dir.unwrap_or(Path::new(DEFAULT_DATA_DIR));
        Self::open(dir, cfg)
    }

    /// True when nothing is written to disk.
    pub fn is_ephemeral(&self) -> bool {
        self.disk.is_none()
    }

    /// Journal a submission the store accepted (`ApplyResult.applied || held`), in apply
    /// order. Fails at once when persistence is unhealthy.
    pub fn record_tx(&self, blob: &[u8], result: &ApplyResult) -> Durable {
        let Some(d) = &self.disk else {
            return Durable::ready(Ok(()));
        };
        if let Some(why) = d.refusal() {
            return Durable::ready(Err(PersistError::Unhealthy(why)));
        }
        let rec = TxRecord::of(blob, result, d.open_seq.load(Ordering::Acquire)).encode();
        d.open_log.lock().push(rec.clone());
        Durable::ticket(d.journal.append(RecordKind::Transaction, rec))
    }

    /// Journal a close (call right after `Ledgers::close`, before anything else is
    /// applied).
    pub fn record_close(&self, closed: &ClosedLedger) -> Durable {
        let Some(d) = &self.disk else {
            return Durable::ready(Ok(()));
        };
        if let Some(why) = d.refusal() {
            return Durable::ready(Err(PersistError::Unhealthy(why)));
        }
        let seq = closed.header.seq;
        d.open_seq.store(seq.saturating_add(1), Ordering::Release);
        d.open_log.lock().clear();
        let ticket = d
            .journal
            .append(RecordKind::LedgerClose, CloseRecord::of(closed).encode());
        if let Some(n) = ticket.record_number() {
            *d.last_close.lock() = Some((seq, n));
        }
        let (durable, slot) = Durable::slot();
        let watermark = d.durable_close.clone();
        ticket.on_complete(move |r| {
            if let Ok(n) = &r {
                watermark.mark(*n);
            }
            slot.complete(r.map(|_| ()).map_err(PersistError::from));
        });
        durable
    }

    /// The transaction records journaled since the last close (what a saved state keeps
    /// to journal again if it is reverted to).
    pub fn open_log(&self) -> Vec<Vec<u8>> {
        self.disk
            .as_ref()
            .map(|d| d.open_log.lock().clone())
            .unwrap_or_default()
    }

    /// The ledger the last revert found at start went back to (see
    /// [`crate::node::history::History::forget_reverted`]).
    pub fn reverted_to(&self) -> Option<u32> {
        self.disk.as_ref().and_then(|d| d.reverted_to)
    }

    /// Makes a revert durable, on the sequencer's thread, before it is answered (and before
    /// anything else is journaled): a revert record in the journal, the open ledger's
    /// transaction records again after it (`log`), and once they are durable a revert
    /// snapshot of the restored ledger named after the revert record. Older snapshots stay
    /// valid bases (replay from them meets the revert record and continues from its
    /// snapshot), and pruning keeps a revert snapshot as long as the journal holds its
    /// record (see `store/prune.rs`). A revert
    /// without its snapshot that ends the journal (a crash before it was written) never
    /// happened: the next start journals that. One the journal goes on after lost its
    /// snapshot: damage (see `persist/replay.rs`). A failure leaves persistence refusing
    /// writes (memory is reverted, the disk is not).
    pub fn record_revert(
        &self,
        store: &Arc<Ledgers>,
        closed: &ClosedLedger,
        log: &[Vec<u8>],
    ) -> Result<(), PersistError> {
        let Some(d) = &self.disk else {
            return Ok(());
        };
        if let Some(why) = d.refusal() {
            return Err(PersistError::Unhealthy(why));
        }
        snapshotter::write_revert(d, store, closed, log)
    }

    /// Called by the sequencer after each close: starts a snapshot of the last journaled
    /// close on a background thread when [`PersistOptions::snapshot_interval_ledgers`]
    /// ledgers passed since the last one (and none is being written).
    pub fn after_close(&self, store: &Arc<Ledgers>) {
        if let Some(d) = &self.disk {
            snapshotter::maybe_start(d, store);
        }
    }

    /// Waits for the background snapshot in progress, and the pruning behind it, if any
    /// (tests and benchmarks that need the directory in a settled state).
    pub fn wait_snapshot(&self) {
        if let Some(d) = &self.disk {
            snapshotter::wait(d);
        }
    }

    /// Writes a snapshot of the last journaled close now and waits for it (tests,
    /// benchmarks, shutdown). `Ok(false)` when there is nothing to snapshot.
    pub fn snapshot_now(&self, store: &Arc<Ledgers>) -> Result<bool, PersistError> {
        match &self.disk {
            Some(d) => snapshotter::write_now(d, store),
            None => Ok(false),
        }
    }

    /// Ok, or why writes are refused (failed fsync, full disk, failed snapshot write).
    /// `server_info` reports it.
    pub fn health(&self) -> Result<(), String> {
        match self.disk.as_ref().and_then(|d| d.refusal()) {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// Journal records, fsyncs, records per fsync, bytes, snapshots and failure, as JSON
    /// (for server_info and the load generator).
    pub fn stats_json(&self) -> serde_json::Value {
        let Some(d) = &self.disk else {
            return serde_json::json!({ "mode": "ephemeral" });
        };
        let j = d.journal.stats();
        let failure = d.refusal();
        let s = d.snapshot.lock();
        serde_json::json!({
            "mode": "disk",
            "data_dir": d.dir.display().to_string(),
            "records": j.records,
            "fsyncs": j.fsyncs,
            "records_per_fsync": (j.records_per_fsync * 100.0).round() / 100.0,
            "batch_records_max": j.batch_records_max,
            "bytes": j.bytes,
            "write_micros": j.write_micros,
            "queued_records": j.queued_records,
            "next_record": j.next_record,
            "segments": j.segments,
            "last_snapshot": {
                "ledger_seq": s.last_seq,
                "through_record": s.last_through_record,
                "millis": s.last_millis,
            },
            "snapshots_written": s.written,
            "recovered_from": d.recovered_from,
            "journal_repair": d.repaired,
            "failure": failure,
        })
    }
}

/// Ledger 2's close time for a new ledger: the fixed clock's start, else now.
pub(crate) fn genesis_time(cfg: &LedgerConfig) -> u32 {
    match cfg.fixed_clock {
        Some(clock) => clock.start,
        None => crate::protocol::time::ripple_now_secs() as u32,
    }
}

impl Drop for Persistence {
    fn drop(&mut self) {
        // Let a running snapshot finish, so a reopen of the same directory sees either
        // the whole file or none of it and the lock is free.
        if let Some(d) = &self.disk {
            let running = d.snapshot.lock().running.take();
            if let Some(h) = running {
                let _ = h.join();
            }
        }
    }
}
