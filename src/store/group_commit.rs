//! The group-commit writer: one thread that takes everything queued since its last fsync,
//! writes it with one `write` and one `fdatasync`, notes it in the acknowledgement record
//! (`synced.rs`: one positional write of 40 bytes, no fsync), then completes every waiter
//! of it.
//!
//! While an fsync runs (about 4 ms on this disk) new appends pile up in the queue, so the
//! next batch is as large as the load: batching needs no timer. After the first failed
//! write or fsync the journal is poisoned: the failed batch and everything queued or
//! appended later fail, and nothing is retried, because after a failed fsync the kernel
//! may have dropped the dirty pages and a retry that succeeds proves nothing.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use super::error::StoreError;
use super::journal::{Pending, Shared};
use super::record::{encode_into, encoded_len};
use super::segment::{self, SegmentInfo};
use super::storage::StorageFile;
use super::synced::{SyncedFile, SyncedMark};

/// The segment the writer appends to.
pub(crate) struct ActiveSegment {
    pub file: Box<dyn StorageFile>,
    /// Its first record number (its name).
    pub first: u64,
    pub path: PathBuf,
    /// Bytes in the file that are durable.
    pub len: u64,
}

/// The writer thread's loop; returns once the journal is dropped and the queue is empty,
/// after making the acknowledgement record durable.
pub(crate) fn run(shared: Arc<Shared>, mut active: ActiveSegment, mut synced: SyncedFile) {
    let mut batch: Vec<Pending> = Vec::new();
    let mut buf: Vec<u8> = Vec::new();
    while let Some(poisoned) = take_batch(&shared, &mut batch) {
        if let Some(cause) = poisoned {
            fail_all(&mut batch, &cause);
            continue;
        }
        match write_batch(&shared, &mut active, &mut synced, &batch, &mut buf) {
            Ok(()) => {
                for p in batch.drain(..) {
                    p.slot.complete(Ok(p.number));
                }
            }
            Err(e) => {
                let cause = Arc::new(e);
                tracing::error!(error = %cause, "journal: write failed; refusing all further writes");
                // Best effort: cut the file back to what is durable, so a restart does not
                // find records that were reported failed. If this fails too, recovery
                // still finds only a prefix of the appends.
                let _ = shared.storage.truncate(&active.path, active.len);
                let rest: Vec<Pending> = {
                    let mut q = shared.queue.lock();
                    q.poisoned = Some(cause.clone());
                    q.bytes = 0;
                    shared.drained.notify_all();
                    q.pending.drain(..).collect()
                };
                batch.extend(rest);
                fail_all(&mut batch, &cause);
            }
        }
    }
    if let Err(e) = synced.sync() {
        tracing::warn!(error = %e, "journal: the acknowledgement record could not be synced at close");
    }
}

/// Waits for appends and moves the next batch into `batch`. `None` once the journal is
/// shut down and nothing is queued; otherwise the poisoning failure, if any.
fn take_batch(shared: &Shared, batch: &mut Vec<Pending>) -> Option<Option<Arc<StoreError>>> {
    let mut q = shared.queue.lock();
    while q.pending.is_empty() && !q.shutdown {
        shared.queued.wait(&mut q);
    }
    if q.pending.is_empty() {
        return None;
    }
    if !shared.options.group_wait.is_zero() && !q.shutdown {
        // Optional extra gathering time; the fsync window usually suffices.
        let deadline = Instant::now() + shared.options.group_wait;
        while q.bytes < shared.options.batch_bytes_max
            && q.pending.len() < shared.options.batch_records_max
            && !shared.queued.wait_until(&mut q, deadline).timed_out()
        {}
    }
    let mut bytes = 0usize;
    while let Some(p) = q.pending.front() {
        let size = encoded_len(p.payload.len());
        if !batch.is_empty()
            && (bytes + size > shared.options.batch_bytes_max
                || batch.len() >= shared.options.batch_records_max)
        {
            break;
        }
        bytes += size;
        if let Some(p) = q.pending.pop_front() {
            batch.push(p);
        }
    }
    q.bytes -= bytes;
    shared.drained.notify_all();
    Some(q.poisoned.clone())
}

fn fail_all(batch: &mut Vec<Pending>, cause: &Arc<StoreError>) {
    for p in batch.drain(..) {
        p.slot.complete(Err(StoreError::Poisoned {
            cause: cause.clone(),
        }));
    }
}

/// Writes one batch with one write and one fdatasync, rotating the segment first when it
/// is full (or a rotation was asked for), then notes it in the acknowledgement record (a positional write, no fsync).
/// On `Ok` every record of the batch is durable.
fn write_batch(
    shared: &Shared,
    active: &mut ActiveSegment,
    synced: &mut SyncedFile,
    batch: &[Pending],
    buf: &mut Vec<u8>,
) -> Result<(), StoreError> {
    let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
        return Ok(());
    };
    let asked = active.len > 0 && shared.rotate.swap(false, Ordering::AcqRel);
    if active.len >= shared.options.segment_bytes_max || asked {
        rotate(shared, active, first.number)?;
    }
    buf.clear();
    for (pos, p) in batch.iter().enumerate() {
        // pos < batch_records_max <= JOURNAL_BATCH_RECORDS_MAX, far below u32::MAX.
        encode_into(buf, p.number, pos as u32, p.kind, &p.payload);
    }
    let started = Instant::now();
    active
        .file
        .write_all(buf)
        .map_err(|e| StoreError::io("write", &active.path, e))?;
    let sync_started = Instant::now();
    active
        .file
        .sync_data()
        .map_err(|e| StoreError::io("fdatasync", &active.path, e))?;
    crate::metrics::get()
        .fsync
        .observe(sync_started.elapsed().as_secs_f64());
    let len = active.len + buf.len() as u64;
    synced.record(SyncedMark {
        next_record: last.number + 1,
        segment: active.first,
        segment_len: len,
    })?;
    let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    active.len = len;
    if let Some(seg) = shared.segments.lock().last_mut() {
        seg.len = active.len;
    }
    let c = &shared.counters;
    c.records.fetch_add(batch.len() as u64, Ordering::Relaxed);
    c.fsyncs.fetch_add(1, Ordering::Relaxed);
    c.bytes.fetch_add(buf.len() as u64, Ordering::Relaxed);
    c.write_micros.fetch_add(micros, Ordering::Relaxed);
    c.batch_records_max
        .fetch_max(batch.len() as u64, Ordering::Relaxed);
    // Do not keep a huge buffer around after a burst.
    if buf.capacity() > shared.options.batch_bytes_max {
        *buf = Vec::new();
    }
    Ok(())
}

/// Starts a new segment whose first record is `first`, and makes its name durable before
/// anything is written to it.
fn rotate(shared: &Shared, active: &mut ActiveSegment, first: u64) -> Result<(), StoreError> {
    let path = segment::path_in(&shared.dir, first);
    let file = shared
        .storage
        .open_append(&path)
        .map_err(|e| StoreError::io("create", &path, e))?;
    shared
        .storage
        .sync_dir(&shared.dir)
        .map_err(|e| StoreError::io("sync_dir", &shared.dir, e))?;
    *active = ActiveSegment {
        file,
        first,
        path: path.clone(),
        len: 0,
    };
    shared.segments.lock().push(SegmentInfo {
        first,
        path,
        len: 0,
    });
    Ok(())
}
