//! The journal: the append side. Appends are queued in order and numbered at once; the
//! group-commit writer thread (`group_commit.rs`) makes them durable in batches.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use super::damage;
use super::error::{StoreError, StoreResult};
use super::group_commit::{self, ActiveSegment};
use super::record::{encoded_len, RecordKind};
use super::recovery::{self, Recovered};
use super::segment::{self, SegmentInfo};
use super::storage::Storage;
use super::synced::{self, SyncedFile, SyncedMark};
use super::ticket::{Slot, Ticket};
use crate::limits;

/// How the journal batches and rotates. `Default` takes the values in `limits.rs`.
#[derive(Debug, Clone)]
pub struct JournalOptions {
    /// A segment is closed once it holds this many bytes (`JOURNAL_SEGMENT_BYTES_MAX`).
    pub segment_bytes_max: u64,
    /// Extra time to gather records after the first one arrives; zero takes whatever
    /// queued while the previous fsync ran. Capped at `JOURNAL_GROUP_WAIT_MICROS_MAX`.
    pub group_wait: Duration,
    /// Most bytes one batch writes (`JOURNAL_BATCH_BYTES_MAX`).
    pub batch_bytes_max: usize,
    /// Most records in one batch (`JOURNAL_BATCH_RECORDS_MAX`).
    pub batch_records_max: usize,
    /// Queued bytes above which `append` blocks (`JOURNAL_QUEUE_BYTES_MAX`).
    pub queue_bytes_max: usize,
    /// Largest record payload accepted (`JOURNAL_RECORD_PAYLOAD_BYTES_MAX`).
    pub payload_bytes_max: usize,
    /// Open a damaged journal anyway: keep its verified prefix, set the rest aside, even
    /// acknowledged records, and say so in [`Recovered::discarded`]. Off by default:
    /// opening then refuses when acknowledged records are missing or unreadable.
    pub repair: bool,
}

impl Default for JournalOptions {
    fn default() -> Self {
        JournalOptions {
            segment_bytes_max: limits::JOURNAL_SEGMENT_BYTES_MAX,
            group_wait: Duration::from_micros(limits::JOURNAL_GROUP_WAIT_MICROS_DEFAULT),
            batch_bytes_max: limits::JOURNAL_BATCH_BYTES_MAX,
            batch_records_max: limits::JOURNAL_BATCH_RECORDS_MAX,
            queue_bytes_max: limits::JOURNAL_QUEUE_BYTES_MAX,
            payload_bytes_max: limits::JOURNAL_RECORD_PAYLOAD_BYTES_MAX,
            repair: false,
        }
    }
}

impl JournalOptions {
    /// The options with every value clamped to its limit.
    fn clamped(mut self) -> Self {
        let wait_max = Duration::from_micros(limits::JOURNAL_GROUP_WAIT_MICROS_MAX);
        self.group_wait = self.group_wait.min(wait_max);
        self.batch_records_max = self
            .batch_records_max
            .clamp(1, limits::JOURNAL_BATCH_RECORDS_MAX);
        self.payload_bytes_max = self
            .payload_bytes_max
            .min(limits::JOURNAL_RECORD_PAYLOAD_BYTES_MAX);
        // A batch must fit at least one largest record.
        self.batch_bytes_max = self
            .batch_bytes_max
            .max(encoded_len(self.payload_bytes_max));
        self.queue_bytes_max = self.queue_bytes_max.max(self.payload_bytes_max);
        self
    }
}

/// Counters of the journal, for `server_info` and benchmarks.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalStats {
    /// Records made durable since the journal was opened.
    pub records: u64,
    /// Group-commit batches written, each with one write and one `fdatasync`.
    pub fsyncs: u64,
    /// Average records per fsync (0 before the first).
    pub records_per_fsync: f64,
    /// Largest batch so far, in records.
    pub batch_records_max: u64,
    /// Bytes made durable since the journal was opened.
    pub bytes: u64,
    /// Time spent in write + fdatasync, in microseconds.
    pub write_micros: u64,
    /// Records queued and not yet durable.
    pub queued_records: u64,
    /// The number the next append will get.
    pub next_record: u64,
    /// Segment files in the journal.
    pub segments: u64,
    /// Why the journal refuses writes, if it does.
    pub failure: Option<String>,
}

/// One queued append.
pub(crate) struct Pending {
    pub number: u64,
    pub kind: RecordKind,
    pub payload: Vec<u8>,
    pub slot: Arc<Slot>,
}

/// The queue between appenders and the writer thread.
pub(crate) struct Queue {
    pub pending: VecDeque<Pending>,
    /// Encoded bytes of `pending`, for the backpressure bound.
    pub bytes: usize,
    pub next_number: u64,
    /// Set once and never cleared: the first write or fsync failure.
    pub poisoned: Option<Arc<StoreError>>,
    pub shutdown: bool,
}

/// Counters the writer updates and `stats` reads without taking the queue lock.
#[derive(Default)]
pub(crate) struct Counters {
    pub records: AtomicU64,
    pub fsyncs: AtomicU64,
    pub bytes: AtomicU64,
    pub batch_records_max: AtomicU64,
    pub write_micros: AtomicU64,
}

/// State shared by the journal handle and its writer thread.
pub(crate) struct Shared {
    pub storage: Arc<dyn Storage>,
    pub dir: PathBuf,
    pub options: JournalOptions,
    pub queue: Mutex<Queue>,
    /// Signalled when records are queued or on shutdown.
    pub queued: Condvar,
    /// Signalled when the writer takes records off the queue.
    pub drained: Condvar,
    /// The segments, oldest first; the last is the one being written.
    pub segments: Mutex<Vec<SegmentInfo>>,
    pub counters: Counters,
    /// [`Journal::rotate_soon`] asked for a new segment before the next batch.
    pub rotate: AtomicBool,
}

/// The append-only journal of records, with group commit. Dropping it writes what is
/// queued and stops the writer thread.
pub struct Journal {
    shared: Arc<Shared>,
    writer: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Journal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Journal")
            .field("dir", &self.shared.dir)
            .finish()
    }
}

impl Journal {
    /// Opens (or creates) the journal in `dir`: recovers what is on disk, cutting off a
    /// torn last batch, refusing when acknowledged records are missing or unreadable (or,
    /// with [`JournalOptions::repair`], discarding them), and starts the writer.
    pub fn open(
        storage: Arc<dyn Storage>,
        dir: &Path,
        options: JournalOptions,
    ) -> StoreResult<(Journal, Recovered)> {
        let options = options.clamped();
        storage
            .create_dir_all(dir)
            .map_err(|e| StoreError::io("create_dir_all", dir, e))?;
        sync_dir_and_parent(storage.as_ref(), dir)?;
        let state = synced::read(storage.as_ref(), dir)?;
        let mut outcome = recovery::scan(storage.as_ref(), dir, options.payload_bytes_max)?;
        damage::settle(storage.as_ref(), dir, &mut outcome, &state, options.repair)?;
        let recovered = Recovered::new(storage.clone(), &outcome, options.payload_bytes_max);
        let mut segments = outcome.segments;
        if segments.is_empty() {
            let path = segment::path_in(dir, outcome.next);
            segments.push(SegmentInfo {
                first: outcome.next,
                path,
                len: 0,
            });
        }
        let last = segments
            .last()
            .cloned()
            .ok_or_else(|| StoreError::io("open", dir, std::io::Error::other("no segment")))?;
        let file = storage
            .open_append(&last.path)
            .map_err(|e| StoreError::io("open", &last.path, e))?;
        storage
            .sync_dir(dir)
            .map_err(|e| StoreError::io("sync_dir", dir, e))?;
        let mark = SyncedMark {
            next_record: outcome.next,
            segment: last.first,
            segment_len: last.len,
        };
        let synced = SyncedFile::create_or_update(storage.as_ref(), dir, &state, mark)?;
        let active = ActiveSegment {
            file,
            first: last.first,
            path: last.path,
            len: last.len,
        };
        let journal = Self::start(
            storage,
            dir,
            options,
            outcome.next,
            segments,
            active,
            synced,
        )?;
        Ok((journal, recovered))
    }

    /// Starts the writer thread on what `open` recovered.
    fn start(
        storage: Arc<dyn Storage>,
        dir: &Path,
        options: JournalOptions,
        next: u64,
        segments: Vec<SegmentInfo>,
        active: ActiveSegment,
        synced: SyncedFile,
    ) -> StoreResult<Journal> {
        let shared = Arc::new(Shared {
            storage,
            dir: dir.to_path_buf(),
            options,
            queue: Mutex::new(Queue {
                pending: VecDeque::new(),
                bytes: 0,
                next_number: next,
                poisoned: None,
                shutdown: false,
            }),
            queued: Condvar::new(),
            drained: Condvar::new(),
            segments: Mutex::new(segments),
            counters: Counters::default(),
            rotate: AtomicBool::new(false),
        });
        let writer_shared = shared.clone();
        let writer = std::thread::Builder::new()
            .name("ledgerd-journal".into())
            .spawn(move || group_commit::run(writer_shared, active, synced))
            .map_err(|e| StoreError::io("spawn writer for", dir, e))?;
        Ok(Journal {
            shared,
            writer: Some(writer),
        })
    }

    /// Starts the journal in `dir` over, empty, at record `next`: every segment file is set
    /// aside (renamed `*.discarded`), an empty segment named for `next` is created and the
    /// acknowledgement record says so. A repair uses it to go on after a snapshot that
    /// holds more than the journal does. Returns the files set aside.
    pub fn restart_at(storage: &dyn Storage, dir: &Path, next: u64) -> StoreResult<Vec<PathBuf>> {
        storage
            .create_dir_all(dir)
            .map_err(|e| StoreError::io("create_dir_all", dir, e))?;
        let names = storage
            .list(dir)
            .map_err(|e| StoreError::io("list", dir, e))?;
        let mut set_aside = Vec::new();
        for name in names.iter().filter(|n| segment::parse_name(n).is_some()) {
            let from = dir.join(name);
            let to = damage::aside_path(&from);
            storage
                .rename(&from, &to)
                .map_err(|e| StoreError::io("rename", &from, e))?;
            set_aside.push(to);
        }
        let path = segment::path_in(dir, next);
        drop(
            storage
                .open_append(&path)
                .map_err(|e| StoreError::io("create", &path, e))?,
        );
        storage
            .sync_dir(dir)
            .map_err(|e| StoreError::io("sync_dir", dir, e))?;
        let state = synced::read(storage, dir)?;
        let mark = SyncedMark {
            next_record: next,
            segment: next,
            segment_len: 0,
        };
        SyncedFile::create_or_update(storage, dir, &state, mark)?;
        Ok(set_aside)
    }

    /// Queues a record and returns at once with its ticket; records are numbered and
    /// written in the order `append` was called. Blocks only when more than
    /// `JOURNAL_QUEUE_BYTES_MAX` bytes are already waiting for the disk.
    pub fn append(&self, kind: RecordKind, payload: impl Into<Vec<u8>>) -> Ticket {
        let payload = payload.into();
        let max = self.shared.options.payload_bytes_max;
        if payload.len() > max {
            return Ticket::failed(StoreError::PayloadTooLarge {
                bytes: payload.len(),
                max,
            });
        }
        let size = encoded_len(payload.len());
        let mut q = self.shared.queue.lock();
        loop {
            if let Some(cause) = &q.poisoned {
                return Ticket::failed(StoreError::Poisoned {
                    cause: cause.clone(),
                });
            }
            if q.shutdown {
                return Ticket::failed(StoreError::Closed);
            }
            if q.pending.is_empty() || q.bytes + size <= self.shared.options.queue_bytes_max {
                break;
            }
            self.shared.drained.wait(&mut q);
        }
        let number = q.next_number;
        q.next_number += 1;
        q.bytes += size;
        let slot = Arc::new(Slot::default());
        q.pending.push_back(Pending {
            number,
            kind,
            payload,
            slot: slot.clone(),
        });
        drop(q);
        self.shared.queued.notify_one();
        Ticket::pending(slot, number)
    }

    /// `Err` with the failure once the journal refuses writes; `Ok` while it is healthy.
    pub fn health(&self) -> StoreResult<()> {
        match &self.shared.queue.lock().poisoned {
            Some(cause) => Err(StoreError::Poisoned {
                cause: cause.clone(),
            }),
            None => Ok(()),
        }
    }

    /// The journal's counters.
    pub fn stats(&self) -> JournalStats {
        let c = &self.shared.counters;
        let records = c.records.load(Ordering::Relaxed);
        let fsyncs = c.fsyncs.load(Ordering::Relaxed);
        let (queued, next, failure) = {
            let q = self.shared.queue.lock();
            (
                q.pending.len() as u64,
                q.next_number,
                q.poisoned.as_ref().map(|e| e.to_string()),
            )
        };
        JournalStats {
            records,
            fsyncs,
            records_per_fsync: if fsyncs == 0 {
                0.0
            } else {
                records as f64 / fsyncs as f64
            },
            batch_records_max: c.batch_records_max.load(Ordering::Relaxed),
            bytes: c.bytes.load(Ordering::Relaxed),
            write_micros: c.write_micros.load(Ordering::Relaxed),
            queued_records: queued,
            next_record: next,
            segments: self.shared.segments.lock().len() as u64,
            failure,
        }
    }

    /// Starts a new segment before the next batch is written (if the one being written
    /// holds anything by then), so that pruning can let the records before it go without
    /// waiting for the segment to fill.
    pub fn rotate_soon(&self) {
        self.shared.rotate.store(true, Ordering::Release);
    }

    /// The oldest record the journal holds (those before it were pruned or never
    /// written): a replay can start no earlier.
    pub fn first_record(&self) -> u64 {
        let first = self.shared.segments.lock().first().map(|s| s.first);
        first.unwrap_or_else(|| self.shared.queue.lock().next_number)
    }

    /// Removes the segments whose records all come before `record` (never the segment
    /// being written), oldest first. Returns how many were removed. When a removal fails,
    /// the segments removed before it are still forgotten (so the next prune does not
    /// stumble on a file that is gone and stop pruning for good), and a segment already
    /// gone counts as removed.
    pub fn prune_before(&self, record: u64) -> StoreResult<usize> {
        let mut segments = self.shared.segments.lock();
        let mut removable = 0;
        while removable + 1 < segments.len() && segments[removable + 1].first <= record {
            removable += 1;
        }
        let mut removed = 0;
        let mut failure = None;
        for seg in segments.iter().take(removable) {
            match self.shared.storage.remove(&seg.path) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => removed += 1,
                Err(e) => {
                    failure = Some(StoreError::io("remove", &seg.path, e));
                    break;
                }
            }
        }
        segments.drain(..removed);
        drop(segments);
        if removed > 0 {
            self.shared
                .storage
                .sync_dir(&self.shared.dir)
                .map_err(|e| StoreError::io("sync_dir", &self.shared.dir, e))?;
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(removed),
        }
    }

    /// Writes what is queued, stops the writer, and reports whether the journal was
    /// healthy to the end.
    pub fn close(mut self) -> StoreResult<()> {
        self.stop();
        self.health()
    }

    fn stop(&mut self) {
        self.shared.queue.lock().shutdown = true;
        self.shared.queued.notify_all();
        self.shared.drained.notify_all();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Syncs `dir` and its parent, so a newly created journal directory survives a crash.
fn sync_dir_and_parent(storage: &dyn Storage, dir: &Path) -> StoreResult<()> {
    storage
        .sync_dir(dir)
        .map_err(|e| StoreError::io("sync_dir", dir, e))?;
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        storage
            .sync_dir(parent)
            .map_err(|e| StoreError::io("sync_dir", parent, e))?;
    }
    Ok(())
}
