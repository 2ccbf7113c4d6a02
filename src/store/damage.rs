//! Judging what the opening scan found against the acknowledgement record: cut a torn,
//! never-acknowledged tail with a warning; refuse to open when acknowledged records are
//! missing or unreadable (naming the file, the records and the bytes); or, when asked to
//! repair, keep the verified prefix, set the rest aside and say what went.

use std::path::{Path, PathBuf};

use super::error::{StoreError, StoreResult};
use super::recovery::{cut_torn_tail, ScanOutcome};
use super::segment;
use super::storage::Storage;
use super::synced::{SyncedMark, SyncedState, FILE_NAME};

/// Suffix of the files a repair sets aside instead of deleting them.
pub const DISCARDED_SUFFIX: &str = ".discarded";

/// What a repair (`JournalOptions::repair`) discarded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discarded {
    /// The first record no longer in the journal: the journal goes on from this number.
    pub first_record: u64,
    /// The last record that had been acknowledged, when the acknowledgement record says so
    /// and it is at or after `first_record` (so records `first_record..=it` were lost).
    pub last_acknowledged: Option<u64>,
    /// The damage: the refusal an open without repair gives.
    pub damage: String,
    /// The segment cut back to its last whole record, and the bytes cut off.
    pub cut: Option<(PathBuf, u64)>,
    /// Files set aside (renamed with [`DISCARDED_SUFFIX`]): segments after the damage, and
    /// a copy of the cut segment as it was.
    pub set_aside: Vec<PathBuf>,
}

impl std::fmt::Display for Discarded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.last_acknowledged {
            Some(last) => write!(
                f,
                "discarded journal records {}..{} (acknowledged)",
                self.first_record, last
            )?,
            None => write!(f, "discarded journal records from {} on", self.first_record)?,
        }
        write!(f, "; damage: {}", self.damage)?;
        if let Some((file, bytes)) = &self.cut {
            write!(f, "; cut {} by {bytes} bytes", file.display())?;
        }
        if !self.set_aside.is_empty() {
            let names: Vec<String> = self
                .set_aside
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            write!(f, "; set aside: {}", names.join(", "))?;
        }
        write!(f, "; the journal continues at record {}", self.first_record)
    }
}

/// Judges `out` (from `recovery::scan`) against the acknowledgement record `state`: cuts
/// a torn tail, refuses with [`StoreError::Corrupt`], or with `repair` discards what is
/// past the verified prefix (recorded in `out.discarded`).
pub(crate) fn settle(
    storage: &dyn Storage,
    dir: &Path,
    out: &mut ScanOutcome,
    state: &SyncedState,
    repair: bool,
) -> StoreResult<()> {
    let mark = match state {
        SyncedState::Mark(mark, _) => Some(*mark),
        SyncedState::Missing => {
            if !out.segments.is_empty() || out.damage.is_some() {
                tracing::warn!(
                    dir = %dir.display(),
                    "journal: no acknowledgement record (a journal written before it existed, or the file was removed); judging damage by the scan alone"
                );
            }
            None
        }
        SyncedState::Unreadable(why) => {
            let refusal = StoreError::Corrupt {
                file: dir.join(FILE_NAME),
                offset: 0,
                reason: format!(
                    "the acknowledgement record is unreadable ({why}): which records were acknowledged is unknown"
                ),
            };
            if !repair {
                return Err(refusal);
            }
            tracing::warn!(error = %refusal, "journal repair: trusting the scan alone");
            None
        }
    };
    let lost = mark.filter(|m| m.next_record > out.next);
    let proven = out.damage.as_ref().is_some_and(|d| d.proven);
    if lost.is_none() && !proven {
        if let Some(d) = out.damage.take() {
            out.repaired = Some(cut_torn_tail(storage, &d)?);
        }
        return Ok(());
    }
    let refusal = refusal(dir, out, lost);
    if !repair {
        return Err(refusal);
    }
    let discarded = discard(storage, dir, out, lost, refusal.to_string())?;
    tracing::warn!("journal repair: {discarded}");
    out.discarded = Some(discarded);
    out.damage = None;
    out.beyond.clear();
    Ok(())
}

/// The error that names what is missing: the file, the byte, the records and the bytes.
fn refusal(dir: &Path, out: &ScanOutcome, lost: Option<SyncedMark>) -> StoreError {
    let first = out.next;
    let records = match lost {
        Some(m) => format!(
            "acknowledged records {first}..{} are missing or unreadable",
            m.next_record - 1
        ),
        None => format!("records from {first} on cannot be read"),
    };
    if let Some(d) = &out.damage {
        let held = lost
            .filter(|m| segment::path_in(dir, m.segment) == d.file)
            .map(|m| {
                format!(
                    " ({} bytes of it were acknowledged, {} of them from byte {} on)",
                    m.segment_len,
                    m.segment_len.saturating_sub(d.offset),
                    d.offset
                )
            })
            .unwrap_or_default();
        return StoreError::Corrupt {
            file: d.file.clone(),
            offset: d.offset,
            reason: format!("{}; {records}{held}", d.reason),
        };
    }
    // No bad byte: the records are simply not there.
    let m = lost.unwrap_or(SyncedMark {
        next_record: first,
        segment: first,
        segment_len: 0,
    });
    let file = segment::path_in(dir, m.segment);
    match out.segments.iter().find(|s| s.first == m.segment) {
        Some(s) => StoreError::Corrupt {
            file,
            offset: s.len,
            reason: format!(
                "the file ends at byte {} but {} bytes of it were acknowledged ({} bytes missing); {records}",
                s.len,
                m.segment_len,
                m.segment_len.saturating_sub(s.len)
            ),
        },
        None => StoreError::Corrupt {
            file,
            offset: 0,
            reason: format!(
                "the segment file is missing ({} bytes of it were acknowledged); {records}",
                m.segment_len
            ),
        },
    }
}

/// Keeps the verified prefix: the last kept segment is cut back to its last whole record
/// (a copy of it as it was is set aside first) and every segment file after it is set
/// aside.
fn discard(
    storage: &dyn Storage,
    dir: &Path,
    out: &ScanOutcome,
    lost: Option<SyncedMark>,
    damage: String,
) -> StoreResult<Discarded> {
    let mut set_aside = Vec::new();
    let mut cut = None;
    if let Some(last) = out.segments.last() {
        let len = storage
            .len(&last.path)
            .map_err(|e| StoreError::io("stat", &last.path, e))?;
        if len > last.len {
            let copy = aside_path(&last.path);
            let bytes = storage
                .read(&last.path)
                .map_err(|e| StoreError::io("read", &last.path, e))?;
            write_copy(storage, &copy, &bytes)?;
            set_aside.push(copy);
            storage
                .truncate(&last.path, last.len)
                .map_err(|e| StoreError::io("truncate", &last.path, e))?;
            cut = Some((last.path.clone(), len - last.len));
        }
    }
    for path in &out.beyond {
        let to = aside_path(path);
        storage
            .rename(path, &to)
            .map_err(|e| StoreError::io("rename", path, e))?;
        set_aside.push(to);
    }
    storage
        .sync_dir(dir)
        .map_err(|e| StoreError::io("sync_dir", dir, e))?;
    Ok(Discarded {
        first_record: out.next,
        last_acknowledged: lost.map(|m| m.next_record - 1),
        damage,
        cut,
        set_aside,
    })
}

/// `<file>.discarded`.
pub(crate) fn aside_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(DISCARDED_SUFFIX);
    PathBuf::from(name)
}

/// Writes `bytes` to a new file at `path`, durably (a copy set aside).
pub(crate) fn write_copy(storage: &dyn Storage, path: &Path, bytes: &[u8]) -> StoreResult<()> {
    let mut file = storage
        .create(path)
        .map_err(|e| StoreError::io("create", path, e))?;
    file.write_all(bytes)
        .map_err(|e| StoreError::io("write", path, e))?;
    file.sync_data()
        .map_err(|e| StoreError::io("fdatasync", path, e))
}
