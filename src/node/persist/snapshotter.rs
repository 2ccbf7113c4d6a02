//! Writing snapshots off the sequencer's path, and pruning behind them.
//!
//! A snapshot holds the ledger of the last journaled close, tagged with that close
//! record's number. It is written only once that record is durable (otherwise a crash
//! could leave a snapshot claiming records the journal lost, and record numbers would be
//! reused). The entries are read from the store's multi-version state at that ledger's
//! stamp while the sequencer goes on; their root is checked against the header before
//! the file is written, so a snapshot on disk always loads.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::format::{encode_snapshot, RevertRecord};
use super::{Disk, PersistError};
use crate::ledger::shamap::{state_leaf_hash, ShaMap};
use crate::ledgers::{ClosedLedger, Ledgers};
use crate::limits::SNAPSHOT_DURABLE_WAIT_MILLIS_MAX;
use crate::store::{prune_history, RecordKind, SnapshotInfo};

/// Starts a background snapshot when one is due and none is running.
pub(super) fn maybe_start(d: &Arc<Disk>, store: &Arc<Ledgers>) {
    let interval = d.options.snapshot_interval_ledgers;
    if interval == 0 {
        return;
    }
    let Some((seq, through)) = *d.last_close.lock() else {
        return;
    };
    let mut status = d.snapshot.lock();
    if seq < status.last_seq.saturating_add(interval) {
        return;
    }
    if status.running.as_ref().is_some_and(|h| !h.is_finished()) {
        return;
    }
    if let Some(h) = status.running.take() {
        let _ = h.join();
    }
    let (disk, store) = (d.clone(), store.clone());
    let spawned = std::thread::Builder::new()
        .name("ledgerd-snapshot".into())
        .spawn(move || {
            if let Err(e) = write(&disk, &store, seq, through) {
                tracing::error!(error = %e, seq, "snapshot failed");
            }
        });
    match spawned {
        Ok(h) => status.running = Some(h),
        Err(e) => tracing::warn!(error = %e, "cannot start the snapshot thread"),
    }
}

/// Waits for the background snapshot in progress (and its pruning), if any.
pub(super) fn wait(d: &Disk) {
    let running = d.snapshot.lock().running.take();
    if let Some(h) = running {
        let _ = h.join();
    }
}

/// Writes a snapshot of the last journaled close on this thread.
pub(super) fn write_now(d: &Arc<Disk>, store: &Arc<Ledgers>) -> Result<bool, PersistError> {
    wait(d);
    let Some((seq, through)) = *d.last_close.lock() else {
        return Ok(false);
    };
    write(d, store, seq, through)
}

/// Writes the snapshot of ledger `seq` (close record `through`), then prunes. `Ok(false)`
/// when it was skipped without harm (the ledger left history first, or its record never
/// became durable because the journal failed).
fn write(d: &Disk, store: &Ledgers, seq: u32, through: u64) -> Result<bool, PersistError> {
    let written = write_file(d, store, seq, through, false)?;
    if written {
        prune(d);
    }
    Ok(written)
}

/// [`super::Persistence::record_revert`]: the revert record and the restored open
/// ledger's records, durable; then the restored ledger's revert snapshot, named after the
/// revert record. Older snapshots stay valid bases (replay from them meets the revert
/// record and continues from this snapshot); pruning decides when they go, and keeps this
/// one while the journal holds its revert record.
pub(super) fn write_revert(
    d: &Arc<Disk>,
    store: &Ledgers,
    closed: &ClosedLedger,
    log: &[Vec<u8>],
) -> Result<(), PersistError> {
    wait(d);
    let seq = closed.header.seq;
    let marker = RevertRecord {
        seq,
        hash: closed.header.hash,
        following: log.len() as u32,
    };
    let ticket = d.journal.append(RecordKind::Meta, marker.encode());
    let tickets: Vec<_> = log
        .iter()
        .map(|p| d.journal.append(RecordKind::Transaction, p.clone()))
        .collect();
    let through = ticket.wait()?;
    let mut last = through;
    for t in tickets {
        last = t.wait()?;
    }
    d.open_seq.store(seq.saturating_add(1), Ordering::Release);
    *d.open_log.lock() = log.to_vec();
    *d.last_close.lock() = Some((seq, through));
    d.durable_close.mark(last);
    let failed = |why: String| {
        d.snapshot.lock().failure = Some(why.clone());
        PersistError::Unhealthy(why)
    };
    if !write_file(d, store, seq, through, true)? {
        return Err(failed(format!(
            "the snapshot of reverted ledger {seq} could not be written"
        )));
    }
    prune(d);
    Ok(())
}

/// Writes the snapshot file of ledger `seq` (record `through`, a revert record when
/// `revert`); `Ok(false)` as [`write`].
fn write_file(
    d: &Disk,
    store: &Ledgers,
    seq: u32,
    through: u64,
    revert: bool,
) -> Result<bool, PersistError> {
    let started = Instant::now();
    if let Err(e) = d.journal.health() {
        tracing::warn!(seq, error = %e, "snapshot skipped: the journal refuses writes");
        return Ok(false);
    }
    let wait = Duration::from_millis(SNAPSHOT_DURABLE_WAIT_MILLIS_MAX);
    if !d.durable_close.wait_for(through, wait) {
        tracing::warn!(
            seq,
            through,
            "snapshot skipped: its close record is not durable"
        );
        return Ok(false);
    }
    let reverted = |i: &SnapshotInfo| i.revert && i.through_record == through;
    if !revert && d.snapshots.list()?.iter().any(reverted) {
        // The revert snapshot of a revert with no close after it holds this ledger.
        return Ok(false);
    }
    let Some(view) = store.by_seq(seq) else {
        tracing::warn!(seq, "snapshot skipped: the ledger left history first");
        return Ok(false);
    };
    let Some(ledger) = view.ledger.clone() else {
        return Ok(false);
    };
    let mut entries = Vec::new();
    view.view
        .for_each_bytes(|k, b| entries.push((*k, b.to_vec())));
    entries.sort_by_key(|e| e.0);
    let mut map = ShaMap::new();
    for (k, bytes) in &entries {
        map.insert(*k, state_leaf_hash(k, bytes));
    }
    if map.hash() != ledger.header.account_hash {
        // The history window moved past this ledger while it was read.
        tracing::warn!(
            seq,
            "snapshot skipped: the state read does not match the ledger"
        );
        return Ok(false);
    }
    let payload = encode_snapshot(&ledger.header, ledger.held_at_close(), &entries);
    drop(entries);
    let written = d.snapshots.write_as(seq, through, revert, &payload);
    let mut status = d.snapshot.lock();
    match written {
        Ok(path) => {
            status.last_seq = seq;
            status.last_through_record = through;
            status.written += 1;
            status.last_millis = started.elapsed().as_millis() as u64;
            status.failure = None;
            drop(status);
            tracing::info!(seq, through, bytes = payload.len(), file = %path.display(), "snapshot written");
        }
        Err(e) => {
            status.failure = Some(e.to_string());
            return Err(e.into());
        }
    }
    Ok(true)
}

/// Prunes snapshots and journal segments behind the newest snapshots.
fn prune(d: &Disk) {
    match prune_history(
        &d.journal,
        &d.snapshots,
        d.options.snapshots_kept(),
        d.options.history_ledgers,
    ) {
        Ok(r) if r.snapshots_removed + r.segments_removed > 0 => tracing::info!(
            snapshots = r.snapshots_removed,
            segments = r.segments_removed,
            "pruned history"
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "pruning history failed"),
    }
}
