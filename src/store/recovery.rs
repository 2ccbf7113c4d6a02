//! Recovery: what opening the journal finds on disk, and the replay of it.
//!
//! Segments are scanned in order and every record is checked (checksum, length, record
//! number); the scan stops at the first damage and changes nothing. Judging it is
//! `damage.rs`:
//! - Every record the acknowledgement record (`synced.rs`) says was acknowledged must be
//!   there and whole. A segment truncated, zeroed, emptied or deleted under them refuses to
//!   open with [`StoreError::Corrupt`], naming the file and the records and bytes missing.
//! - Past them, damage inside the **last group-commit batch** of the last segment is a torn
//!   write: that batch was being written when the process or machine died, so its fsync
//!   never returned and none of it was acknowledged. It is cut off with a warning.
//! - Damage in a closed segment, or in an older batch of the last one, refuses to open as
//!   well, so an operator decides instead of the store silently dropping records.
//! - With `JournalOptions::repair` a refusal becomes a repair: the verified prefix is kept,
//!   the rest is cut or set aside (renamed `*.discarded`), and [`Recovered::discarded`]
//!   says what went.
//!
//! Which batch a damaged record belonged to is not readable from the record itself, so the
//! scan looks past it for any whole record: each record stores its position in its batch,
//! so a record found later whose batch starts after the damaged slot proves the damaged
//! batch was followed by another one, which the writer only starts after the previous
//! fsync returned.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::damage::{aside_path, write_copy, Discarded};
use super::error::{StoreError, StoreResult};
use super::record::{decode_at, Record, Undecodable, HEADER_BYTES};
use super::segment::{self, SegmentInfo};
use super::storage::Storage;
use super::synced::{self, SyncedFile, SyncedMark};
use crate::limits::REPLAY_PROGRESS_RECORDS_INTERVAL;

/// A torn tail that recovery cut off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TailRepair {
    /// The segment that was cut.
    pub file: PathBuf,
    /// Its new length: the offset of the first damaged record.
    pub offset: u64,
    /// How many bytes were dropped.
    pub dropped_bytes: u64,
    /// What was wrong with the first dropped record.
    pub reason: String,
}

/// Damage the scan stopped at: the first byte of the journal that is not the next record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Damage {
    /// The segment file.
    pub file: PathBuf,
    /// Offset of the first bad byte (0 for a segment that starts at the wrong record).
    pub offset: u64,
    /// The file's length.
    pub file_len: u64,
    /// What is wrong there.
    pub reason: String,
    /// The damaged records were acknowledged whatever the acknowledgement record says: the
    /// segment was closed, a later batch follows, or the numbering is wrong.
    pub proven: bool,
}

/// What the scan found: the verified prefix of the journal and where it ends.
pub(crate) struct ScanOutcome {
    /// The segments of the verified prefix; the last one's `len` ends at the damage.
    pub segments: Vec<SegmentInfo>,
    /// The record after the verified prefix.
    pub next: u64,
    /// Where the prefix ends short of the files, if it does.
    pub damage: Option<Damage>,
    /// Segment files after the damage: whole, perhaps, but not replayable past it.
    pub beyond: Vec<PathBuf>,
    /// The torn tail that was cut off (set once the damage was judged).
    pub repaired: Option<TailRepair>,
    /// What a repair discarded (set once the damage was judged).
    pub discarded: Option<Discarded>,
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Looks for a whole record after the damaged one at `from` that belongs to a later batch
/// than the record numbered `expected` (the damaged slot). Returns its offset.
fn later_batch_after(
    bytes: &[u8],
    from: usize,
    expected: u64,
    payload_max: usize,
) -> Option<usize> {
    // A record needs HEADER_BYTES at least, which bounds how many could follow.
    let most = (bytes.len() - from) as u64 / HEADER_BYTES as u64 + 1;
    let mut at = from + 1;
    while at + HEADER_BYTES <= bytes.len() {
        // Cheap filters first: the number must be plausible before the checksum is run.
        let number = u64_at(bytes, at + 8);
        if number > expected && number <= expected.saturating_add(most) {
            let batch_first = number.saturating_sub(u64::from(u32_at(bytes, at + 16)));
            if batch_first > expected {
                if let Ok(d) = decode_at(bytes, at, payload_max) {
                    if d.number == number
                        && number.saturating_sub(u64::from(d.batch_pos)) > expected
                    {
                        return Some(at);
                    }
                }
            }
        }
        at += 1;
    }
    None
}

/// Scans the journal directory and checks every record, changing nothing: the scan stops
/// at the first damage, which [`super::damage::settle`] then judges.
pub(crate) fn scan(
    storage: &dyn Storage,
    dir: &Path,
    payload_max: usize,
) -> StoreResult<ScanOutcome> {
    let firsts = segment_firsts(storage, dir)?;
    let mut out = ScanOutcome {
        segments: Vec::with_capacity(firsts.len()),
        next: firsts.first().copied().unwrap_or(1),
        damage: None,
        beyond: Vec::new(),
        repaired: None,
        discarded: None,
    };
    let count = firsts.len();
    for (i, first) in firsts.into_iter().enumerate() {
        let path = segment::path_in(dir, first);
        if out.damage.is_some() {
            out.beyond.push(path);
            continue;
        }
        if first != out.next {
            let file_len = storage
                .len(&path)
                .map_err(|e| StoreError::io("stat", &path, e))?;
            out.damage = Some(Damage {
                file: path.clone(),
                offset: 0,
                file_len,
                reason: format!(
                    "segment starts at record {first} but the journal continues at record {}: records {}..{} are missing",
                    out.next,
                    out.next,
                    first.saturating_sub(1)
                ),
                proven: true,
            });
            out.beyond.push(path);
            continue;
        }
        let (len, damage) =
            scan_segment(storage, &path, i + 1 == count, &mut out.next, payload_max)?;
        out.segments.push(SegmentInfo { first, path, len });
        out.damage = damage;
    }
    Ok(out)
}

/// The first record numbers of the segments in `dir`, in order.
fn segment_firsts(storage: &dyn Storage, dir: &Path) -> StoreResult<Vec<u64>> {
    let names = storage
        .list(dir)
        .map_err(|e| StoreError::io("list", dir, e))?;
    let mut firsts: Vec<u64> = names
        .iter()
        .filter_map(|n| segment::parse_name(n))
        .collect();
    firsts.sort_unstable();
    Ok(firsts)
}

/// Checks one segment's records in order, numbered from `*expected` on (advanced past
/// each). Returns the length of whole records, and the damage that ends them, if any:
/// proven acknowledged in a closed segment, or when a later batch follows it.
fn scan_segment(
    storage: &dyn Storage,
    path: &Path,
    is_last: bool,
    expected: &mut u64,
    payload_max: usize,
) -> StoreResult<(u64, Option<Damage>)> {
    let bytes = storage
        .read(path)
        .map_err(|e| StoreError::io("read", path, e))?;
    let mut offset = 0usize;
    while offset < bytes.len() {
        let damage = |reason: String, proven: bool| Damage {
            file: path.to_path_buf(),
            offset: offset as u64,
            file_len: bytes.len() as u64,
            reason,
            proven,
        };
        let why = match decode_at(&bytes, offset, payload_max) {
            Ok(d) if d.number == *expected => {
                *expected += 1;
                offset = d.end;
                continue;
            }
            Ok(d) => {
                let reason = format!(
                    "record number {} where {} was expected",
                    d.number, *expected
                );
                return Ok((offset as u64, Some(damage(reason, true))));
            }
            Err(why) => why,
        };
        let reason = match why {
            Undecodable::Short => "the file ends inside the record".to_owned(),
            Undecodable::Bad(r) => r,
        };
        let found = if !is_last {
            damage(format!("{reason}, in a segment that was closed"), true)
        } else if let Some(later) = later_batch_after(&bytes, offset, *expected, payload_max) {
            damage(
                format!("{reason}, and a later batch follows at byte {later}, so this record was acknowledged"),
                true,
            )
        } else {
            damage(reason, false)
        };
        return Ok((offset as u64, Some(found)));
    }
    Ok((offset as u64, None))
}

/// Cuts the last segment at the damage, the first record of a batch that was never
/// acknowledged.
pub(crate) fn cut_torn_tail(storage: &dyn Storage, damage: &Damage) -> StoreResult<TailRepair> {
    let path = &damage.file;
    let dropped = damage.file_len - damage.offset;
    tracing::warn!(
        file = %path.display(),
        offset = damage.offset,
        dropped_bytes = dropped,
        reason = %damage.reason,
        "journal: dropping a torn last batch (it was never acknowledged)"
    );
    storage
        .truncate(path, damage.offset)
        .map_err(|e| StoreError::io("truncate", path, e))?;
    Ok(TailRepair {
        file: path.clone(),
        offset: damage.offset,
        dropped_bytes: dropped,
        reason: damage.reason.clone(),
    })
}

/// What the journal held when it was opened, for the server to replay.
pub struct Recovered {
    storage: Arc<dyn Storage>,
    segments: Vec<SegmentInfo>,
    payload_max: usize,
    /// The oldest record still in the journal (older ones were pruned).
    pub first_record: u64,
    /// The number the first append after opening gets; records before it were recovered.
    pub next_record: u64,
    /// The torn tail that was cut off, if there was one.
    pub repaired_tail: Option<TailRepair>,
    /// What `JournalOptions::repair` discarded, if anything.
    pub discarded: Option<Discarded>,
}

impl std::fmt::Debug for Recovered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recovered")
            .field("first_record", &self.first_record)
            .field("next_record", &self.next_record)
            .field("segments", &self.segments.len())
            .field("repaired_tail", &self.repaired_tail)
            .field("discarded", &self.discarded)
            .finish()
    }
}

impl Recovered {
    pub(crate) fn new(
        storage: Arc<dyn Storage>,
        outcome: &ScanOutcome,
        payload_max: usize,
    ) -> Self {
        let first_record = outcome.segments.first().map_or(outcome.next, |s| s.first);
        Recovered {
            storage,
            segments: outcome.segments.clone(),
            payload_max,
            first_record,
            next_record: outcome.next,
            repaired_tail: outcome.repaired.clone(),
            discarded: outcome.discarded.clone(),
        }
    }

    /// Number of records recovered.
    pub fn record_count(&self) -> u64 {
        self.next_record - self.first_record
    }

    /// Replays the records numbered `from` and up, in order. Fails with
    /// [`StoreError::Pruned`] when some of them were pruned away.
    pub fn replay_from(&self, from: u64) -> StoreResult<Replay> {
        let from = from.max(1);
        if from < self.first_record {
            return Err(StoreError::Pruned {
                wanted: from,
                oldest: self.first_record,
            });
        }
        Ok(Replay {
            storage: self.storage.clone(),
            segments: self.segments.clone(),
            payload_max: self.payload_max,
            segment: 0,
            bytes: Vec::new(),
            offset: 0,
            loaded: false,
            from,
            next: from,
            end: self.next_record,
            progress: None,
            failed: false,
        })
    }

    /// Replays the records after a snapshot that covers records up to `through_record`.
    pub fn replay_after(&self, through_record: u64) -> StoreResult<Replay> {
        self.replay_from(through_record.saturating_add(1))
    }

    /// Cuts the journal in `dir` (not open) back to the records before `record`, for a
    /// repair that cannot replay past it: the segment holding it is copied aside as it was
    /// (`*.discarded`) and cut where `record` starts, every later segment is set aside,
    /// and the acknowledgement record says the journal goes on at `record`. Returns the
    /// files set aside.
    pub fn cut_from(&self, dir: &Path, record: u64) -> StoreResult<Vec<PathBuf>> {
        let Some(pos) = self.segments.iter().rposition(|s| s.first <= record) else {
            return Ok(Vec::new());
        };
        let seg = &self.segments[pos];
        let offset = self.offset_of(seg, record)?;
        let storage = self.storage.as_ref();
        let mut set_aside = Vec::new();
        let len = storage
            .len(&seg.path)
            .map_err(|e| StoreError::io("stat", &seg.path, e))?;
        if len > offset {
            let copy = aside_path(&seg.path);
            let bytes = storage
                .read(&seg.path)
                .map_err(|e| StoreError::io("read", &seg.path, e))?;
            write_copy(storage, &copy, &bytes)?;
            set_aside.push(copy);
            storage
                .truncate(&seg.path, offset)
                .map_err(|e| StoreError::io("truncate", &seg.path, e))?;
        }
        for later in &self.segments[pos + 1..] {
            let to = aside_path(&later.path);
            storage
                .rename(&later.path, &to)
                .map_err(|e| StoreError::io("rename", &later.path, e))?;
            set_aside.push(to);
        }
        storage
            .sync_dir(dir)
            .map_err(|e| StoreError::io("sync_dir", dir, e))?;
        let state = synced::read(storage, dir)?;
        let mark = SyncedMark {
            next_record: record,
            segment: seg.first,
            segment_len: offset,
        };
        SyncedFile::create_or_update(storage, dir, &state, mark)?;
        Ok(set_aside)
    }

    /// The byte offset in `seg` where `record` starts (its verified length when the
    /// records end before it).
    fn offset_of(&self, seg: &SegmentInfo, record: u64) -> StoreResult<u64> {
        let mut bytes = self
            .storage
            .read(&seg.path)
            .map_err(|e| StoreError::io("read", &seg.path, e))?;
        bytes.truncate(usize::try_from(seg.len).unwrap_or(usize::MAX));
        let mut at = 0;
        while at < bytes.len() {
            let d = decode_at(&bytes, at, self.payload_max).map_err(|why| StoreError::Corrupt {
                file: seg.path.clone(),
                offset: at as u64,
                reason: format!("changed since recovery: {why:?}"),
            })?;
            if d.number >= record {
                break;
            }
            at = d.end;
        }
        Ok(at as u64)
    }
}

/// Where a replay is, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayProgress {
    /// Records replayed so far.
    pub done: u64,
    /// Records the replay will yield in all.
    pub total: u64,
}

type ProgressFn = Box<dyn FnMut(ReplayProgress) + Send>;

/// An iterator over recovered records, reading one segment at a time. Every record is
/// checked again as it is read.
pub struct Replay {
    storage: Arc<dyn Storage>,
    segments: Vec<SegmentInfo>,
    payload_max: usize,
    segment: usize,
    bytes: Vec<u8>,
    offset: usize,
    loaded: bool,
    from: u64,
    next: u64,
    end: u64,
    progress: Option<(u64, ProgressFn)>,
    failed: bool,
}

impl Replay {
    /// Calls `report` every `REPLAY_PROGRESS_RECORDS_INTERVAL` records and once at the end.
    pub fn with_progress(self, report: impl FnMut(ReplayProgress) + Send + 'static) -> Self {
        self.with_progress_every(REPLAY_PROGRESS_RECORDS_INTERVAL, report)
    }

    /// Calls `report` every `every` records (at least 1) and once at the end.
    pub fn with_progress_every(
        mut self,
        every: u64,
        report: impl FnMut(ReplayProgress) + Send + 'static,
    ) -> Self {
        self.progress = Some((every.max(1), Box::new(report)));
        self
    }

    /// Records this replay will yield in all.
    pub fn total(&self) -> u64 {
        self.end.saturating_sub(self.from)
    }

    fn fail(&mut self, e: StoreError) -> Option<StoreResult<Record>> {
        self.failed = true;
        Some(Err(e))
    }

    fn report(&mut self) {
        let done = self.next - self.from;
        let total = self.total();
        if let Some((every, report)) = self.progress.as_mut() {
            if done.is_multiple_of(*every) || done == total {
                report(ReplayProgress { done, total });
            }
        }
    }
}

impl Iterator for Replay {
    type Item = StoreResult<Record>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.next >= self.end {
            return None;
        }
        loop {
            let seg = self.segments.get(self.segment)?.clone();
            if !self.loaded {
                // Skip whole segments that end before `next`.
                let next_first = self.segments.get(self.segment + 1).map(|s| s.first);
                if next_first.is_some_and(|nf| nf <= self.next) {
                    self.segment += 1;
                    continue;
                }
                match self.storage.read(&seg.path) {
                    Ok(mut bytes) => {
                        // Only what recovery verified counts, even if the file grew since.
                        bytes.truncate(usize::try_from(seg.len).unwrap_or(usize::MAX));
                        self.bytes = bytes;
                    }
                    Err(e) => return self.fail(StoreError::io("read", &seg.path, e)),
                }
                self.offset = 0;
                self.loaded = true;
            }
            if self.offset >= self.bytes.len() {
                self.segment += 1;
                self.loaded = false;
                self.bytes = Vec::new();
                continue;
            }
            let d = match decode_at(&self.bytes, self.offset, self.payload_max) {
                Ok(d) => d,
                Err(why) => {
                    return self.fail(StoreError::Corrupt {
                        file: seg.path,
                        offset: self.offset as u64,
                        reason: format!("changed since recovery: {why:?}"),
                    })
                }
            };
            self.offset = d.end;
            if d.number < self.next {
                continue;
            }
            if d.number != self.next {
                return self.fail(StoreError::Corrupt {
                    file: seg.path,
                    offset: (d.end - (d.payload.end - d.payload.start) - HEADER_BYTES) as u64,
                    reason: format!("record {} where {} was expected", d.number, self.next),
                });
            }
            let record = Record {
                number: d.number,
                kind: d.kind,
                payload: self.bytes[d.payload].to_vec(),
            };
            self.next += 1;
            self.report();
            return Some(Ok(record));
        }
    }
}
