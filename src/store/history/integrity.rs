//! What keeps a history database honest about what it holds: its start marker (the first
//! ledger it must hold, in a small file beside it, so that a deleted or emptied database is
//! told apart from a new one), SQLite's integrity check of its pages at open, and setting a
//! damaged file aside (renamed, never deleted) for a repair.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::params;

use super::SqliteHistory;
use crate::limits::{HISTORY_INTEGRITY_CHECK_BYTES_MAX, HISTORY_INTEGRITY_REPORT_LINES};
use crate::store::error::{StoreError, StoreResult};
use crate::store::DISCARDED_SUFFIX;

/// The start marker's name: the database file's with this extension (`history.start`
/// beside `history.sqlite`).
pub const START_SUFFIX: &str = "start";

/// The start marker of the database at `db`.
pub(super) fn start_file(db: &Path) -> PathBuf {
    db.with_extension(START_SUFFIX)
}

/// The first ledger the marker at `path` names (None: no marker). Err: it is unreadable.
pub(super) fn read_start(path: &Path) -> Result<Option<u32>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "its start marker {} is unreadable: {e}",
                path.display()
            ))
        }
    };
    text.lines()
        .next()
        .and_then(|l| l.trim().parse::<u32>().ok())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "its start marker {} does not name a ledger ({:?})",
                path.display(),
                text.chars().take(40).collect::<String>()
            )
        })
}

/// Writes the marker at `path` naming ledger `seq`: a temporary file, fsync, rename,
/// directory fsync, so that a crash leaves the old marker or the new one.
pub(super) fn write_start(path: &Path, seq: u32) -> StoreResult<()> {
    let temp = path.with_extension(format!("{START_SUFFIX}.tmp"));
    let io = |op: &'static str, p: &Path| {
        let p = p.to_path_buf();
        move |e| StoreError::io(op, p, e)
    };
    let mut file = File::create(&temp).map_err(io("create", &temp))?;
    let text = format!("{seq}\nthe first ledger the history database beside this file must hold\n");
    file.write_all(text.as_bytes())
        .map_err(io("write", &temp))?;
    file.sync_all().map_err(io("fsync", &temp))?;
    drop(file);
    std::fs::rename(&temp, path).map_err(io("rename", &temp))?;
    sync_dir(path)
}

/// Fsyncs the directory holding `path` (a rename in it is then durable).
fn sync_dir(path: &Path) -> StoreResult<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io("sync_dir", dir, e))
}

/// A name beside `path` that is free: `path` with [`DISCARDED_SUFFIX`], then `.1`, `.2` ...
fn free_name(path: &Path) -> PathBuf {
    let base = {
        let mut n = path.as_os_str().to_owned();
        n.push(DISCARDED_SUFFIX);
        PathBuf::from(n)
    };
    let mut candidate = base.clone();
    let mut i = 0u32;
    while candidate.exists() {
        i += 1;
        let mut n = base.as_os_str().to_owned();
        n.push(format!(".{i}"));
        candidate = PathBuf::from(n);
    }
    candidate
}

/// Sets the database at `db` aside (a repair over a damaged file): it and its `-wal` and
/// `-shm` files are renamed with [`DISCARDED_SUFFIX`], never deleted. Returns the new names.
/// Every connection to it must be closed.
pub fn set_aside(db: &Path) -> StoreResult<Vec<PathBuf>> {
    let mut moved = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        let from = PathBuf::from(name);
        if !from.exists() {
            continue;
        }
        let to = free_name(&from);
        std::fs::rename(&from, &to).map_err(|e| StoreError::io("rename", &from, e))?;
        moved.push(to);
    }
    sync_dir(db)?;
    Ok(moved)
}

impl SqliteHistory {
    /// SQLite's integrity check of every page, index and row of the file (up to
    /// [`HISTORY_INTEGRITY_CHECK_BYTES_MAX`]; a larger file is opened unchecked, and said so).
    /// `quick_check` would be cheaper, but it does not compare indexes with their tables:
    /// a byte flipped in an index page passes it and makes `account_tx` miss a row.
    pub(super) fn check_pages(&self, path: &Path) -> StoreResult<()> {
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if bytes > HISTORY_INTEGRITY_CHECK_BYTES_MAX {
            tracing::warn!(
                file = %self.file,
                bytes,
                "history database larger than the integrity check's bound: opened unchecked"
            );
            return Ok(());
        }
        let started = std::time::Instant::now();
        let lines: Vec<String> = {
            let conn = self.writer.lock();
            let sql = format!("PRAGMA integrity_check({HISTORY_INTEGRITY_REPORT_LINES})");
            let mut stmt = conn.prepare(&sql).map_err(|e| self.fail(e))?;
            let rows = stmt.query_map([], |r| r.get(0)).map_err(|e| self.fail(e))?;
            rows.collect::<rusqlite::Result<_>>()
                .map_err(|e| self.fail(e))?
        };
        tracing::debug!(
            file = %self.file,
            bytes,
            millis = started.elapsed().as_millis() as u64,
            "history database integrity check"
        );
        if lines.len() == 1 && lines[0] == "ok" {
            return Ok(());
        }
        Err(self.damaged(format!(
            "SQLite's integrity check: {}",
            lines.join("; ").replace('\n', " ")
        )))
    }

    /// A copy of the whole database beside it ([`DISCARDED_SUFFIX`]), before a repair
    /// deletes ledgers from it. Returns the copy's name.
    pub fn copy_aside(&self) -> StoreResult<PathBuf> {
        let to = free_name(Path::new(&self.file));
        let target = to.display().to_string();
        self.writer
            .lock()
            .execute("VACUUM INTO ?1", params![target])
            .map_err(|e| self.fail(e))?;
        File::open(&to)
            .and_then(|f| f.sync_all())
            .map_err(|e| StoreError::io("fsync", &to, e))?;
        sync_dir(&to)?;
        Ok(to)
    }
}
