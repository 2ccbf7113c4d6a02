//! Snapshots: the whole state at a ledger boundary, so a restart replays only the journal
//! after it.
//!
//! A snapshot is written to a temporary file, fsynced, renamed into place and the
//! directory fsynced, so a crash leaves either the old set of snapshots or the new one,
//! never a half file under a snapshot's name. Each file is checksummed; loading falls back
//! from a damaged newest snapshot to the one before it.
//!
//! File name `snapshot-<ledger_seq:010>-<through_record:020>.snap`, or
//! `snapshot-<ledger_seq:010>-<through_record:020>-revert.snap` for a *revert snapshot*:
//! the ledger a revert went back to, named after the revert's journal record. Replay from
//! any base older than that record meets the revert and continues from this file, so it
//! is kept as long as the journal holds that record (see `store/prune.rs`). Files are
//! listed in journal order (by `through_record`): after a revert, ledger sequences go back.
//! Layout (little-endian):
//! ```text
//!   0  magic           8 bytes  "LDGRSNAP"
//!   8  version         u32      1
//!  12  ledger_seq      u32      the ledger whose state this is
//!  16  through_record  u64      the last journal record the state includes
//!  24  payload_len     u64
//!  32  payload
//!  ..  crc32           u32      CRC-32 of everything before it
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::damage;
use super::error::{StoreError, StoreResult};
use super::storage::Storage;
use crate::limits::SNAPSHOT_BYTES_MAX;

const MAGIC: &[u8; 8] = b"LDGRSNAP";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 32;
const TRAILER_BYTES: usize = 4;
const PREFIX: &str = "snapshot-";
const SUFFIX: &str = ".snap";
const REVERT_SUFFIX: &str = "-revert.snap";
const TEMP_SUFFIX: &str = ".tmp";

/// A snapshot read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The ledger whose state this is.
    pub ledger_seq: u32,
    /// The last journal record the state includes: replay continues after it.
    pub through_record: u64,
    /// The state, as the server serialized it.
    pub bytes: Vec<u8>,
}

/// A snapshot file on disk, known by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotInfo {
    /// The ledger whose state it holds.
    pub ledger_seq: u32,
    /// The last journal record the state includes.
    pub through_record: u64,
    /// A revert snapshot: `through_record` is a revert record, and replay meeting that
    /// record continues from this file.
    pub revert: bool,
    /// The file.
    pub path: PathBuf,
}

/// The snapshot directory.
pub struct Snapshots {
    storage: Arc<dyn Storage>,
    dir: PathBuf,
}

impl std::fmt::Debug for Snapshots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshots").field("dir", &self.dir).finish()
    }
}

fn file_name(ledger_seq: u32, through_record: u64, revert: bool) -> String {
    let suffix = if revert { REVERT_SUFFIX } else { SUFFIX };
    format!("{PREFIX}{ledger_seq:010}-{through_record:020}{suffix}")
}

/// (ledger_seq, through_record, revert) from a snapshot file name.
fn parse_name(name: &str) -> Option<(u32, u64, bool)> {
    let body = name.strip_prefix(PREFIX)?;
    let (body, revert) = match body.strip_suffix(REVERT_SUFFIX) {
        Some(b) => (b, true),
        None => (body.strip_suffix(SUFFIX)?, false),
    };
    let (seq, through) = body.split_once('-')?;
    if seq.len() != 10 || through.len() != 20 {
        return None;
    }
    if !seq
        .bytes()
        .chain(through.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((seq.parse().ok()?, through.parse().ok()?, revert))
}

impl Snapshots {
    /// Opens (or creates) the snapshot directory and removes temporary files a crash
    /// left behind.
    pub fn open(storage: Arc<dyn Storage>, dir: &Path) -> StoreResult<Snapshots> {
        storage
            .create_dir_all(dir)
            .map_err(|e| StoreError::io("create_dir_all", dir, e))?;
        let names = storage
            .list(dir)
            .map_err(|e| StoreError::io("list", dir, e))?;
        for name in names.iter().filter(|n| n.ends_with(TEMP_SUFFIX)) {
            let path = dir.join(name);
            storage
                .remove(&path)
                .map_err(|e| StoreError::io("remove", &path, e))?;
        }
        storage
            .sync_dir(dir)
            .map_err(|e| StoreError::io("sync_dir", dir, e))?;
        Ok(Snapshots {
            storage,
            dir: dir.to_path_buf(),
        })
    }

    /// Writes the state of ledger `ledger_seq`, which includes journal records up to
    /// `through_record`, durably. Returns the snapshot's path.
    pub fn write(
        &self,
        ledger_seq: u32,
        through_record: u64,
        state: &[u8],
    ) -> StoreResult<PathBuf> {
        self.write_as(ledger_seq, through_record, false, state)
    }

    /// Where the revert snapshot of ledger `ledger_seq` for the revert record
    /// `through_record` is (or would be).
    pub fn revert_path(&self, ledger_seq: u32, through_record: u64) -> PathBuf {
        self.dir.join(file_name(ledger_seq, through_record, true))
    }

    /// Renames a snapshot found to be a revert snapshot (written before revert snapshots
    /// were named so) to a revert snapshot's name; returns it as renamed.
    pub fn mark_revert(&self, info: &SnapshotInfo) -> StoreResult<SnapshotInfo> {
        if info.revert {
            return Ok(info.clone());
        }
        let path = self.revert_path(info.ledger_seq, info.through_record);
        self.storage
            .rename(&info.path, &path)
            .map_err(|e| StoreError::io("rename", &info.path, e))?;
        self.storage
            .sync_dir(&self.dir)
            .map_err(|e| StoreError::io("sync_dir", &self.dir, e))?;
        Ok(SnapshotInfo {
            revert: true,
            path,
            ..info.clone()
        })
    }

    /// [`Snapshots::write`], of a revert snapshot when `revert`: the ledger the revert
    /// journaled as record `through_record` went back to.
    pub fn write_as(
        &self,
        ledger_seq: u32,
        through_record: u64,
        revert: bool,
        state: &[u8],
    ) -> StoreResult<PathBuf> {
        let name = file_name(ledger_seq, through_record, revert);
        let path = self.dir.join(&name);
        let temp = self.dir.join(format!("{name}{TEMP_SUFFIX}"));
        let mut header = Vec::with_capacity(HEADER_BYTES);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&ledger_seq.to_le_bytes());
        header.extend_from_slice(&through_record.to_le_bytes());
        header.extend_from_slice(&(state.len() as u64).to_le_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header);
        crc.update(state);
        let trailer = crc.finalize().to_le_bytes();
        let mut file = self
            .storage
            .create(&temp)
            .map_err(|e| StoreError::io("create", &temp, e))?;
        file.write_all(&header)
            .map_err(|e| StoreError::io("write", &temp, e))?;
        file.write_all(state)
            .map_err(|e| StoreError::io("write", &temp, e))?;
        file.write_all(&trailer)
            .map_err(|e| StoreError::io("write", &temp, e))?;
        file.sync_data()
            .map_err(|e| StoreError::io("fdatasync", &temp, e))?;
        drop(file);
        self.storage
            .rename(&temp, &path)
            .map_err(|e| StoreError::io("rename", &temp, e))?;
        self.storage
            .sync_dir(&self.dir)
            .map_err(|e| StoreError::io("sync_dir", &self.dir, e))?;
        Ok(path)
    }

    /// The snapshots on disk, oldest first in journal order (by `through_record`; ledger
    /// sequences go back after a revert).
    pub fn list(&self) -> StoreResult<Vec<SnapshotInfo>> {
        let names = self
            .storage
            .list(&self.dir)
            .map_err(|e| StoreError::io("list", &self.dir, e))?;
        let mut infos: Vec<SnapshotInfo> = names
            .iter()
            .filter_map(|n| {
                parse_name(n).map(|(ledger_seq, through_record, revert)| SnapshotInfo {
                    ledger_seq,
                    through_record,
                    revert,
                    path: self.dir.join(n),
                })
            })
            .collect();
        infos.sort_by_key(|i| (i.through_record, i.ledger_seq));
        Ok(infos)
    }

    /// Reads and checks one snapshot.
    pub fn load(&self, info: &SnapshotInfo) -> StoreResult<Snapshot> {
        let corrupt = |reason: String| StoreError::SnapshotCorrupt {
            file: info.path.clone(),
            reason,
        };
        let len = self
            .storage
            .len(&info.path)
            .map_err(|e| StoreError::io("stat", &info.path, e))?;
        if len > SNAPSHOT_BYTES_MAX {
            return Err(corrupt(format!(
                "{len} bytes exceeds SNAPSHOT_BYTES_MAX ({SNAPSHOT_BYTES_MAX})"
            )));
        }
        let bytes = self
            .storage
            .read(&info.path)
            .map_err(|e| StoreError::io("read", &info.path, e))?;
        if bytes.len() < HEADER_BYTES + TRAILER_BYTES {
            return Err(corrupt(format!("only {} bytes", bytes.len())));
        }
        let body_end = bytes.len() - TRAILER_BYTES;
        let mut stored = [0u8; 4];
        stored.copy_from_slice(&bytes[body_end..]);
        let stored = u32::from_le_bytes(stored);
        let actual = crc32fast::hash(&bytes[..body_end]);
        if stored != actual {
            return Err(corrupt(format!(
                "checksum mismatch (stored {stored:08x}, computed {actual:08x})"
            )));
        }
        let field = |at: usize, n: usize| &bytes[at..at + n];
        if field(0, 8) != MAGIC {
            return Err(corrupt("not a snapshot (bad magic)".into()));
        }
        let mut b4 = [0u8; 4];
        let mut b8 = [0u8; 8];
        b4.copy_from_slice(field(8, 4));
        let version = u32::from_le_bytes(b4);
        if version != VERSION {
            return Err(corrupt(format!("unknown version {version}")));
        }
        b4.copy_from_slice(field(12, 4));
        let ledger_seq = u32::from_le_bytes(b4);
        b8.copy_from_slice(field(16, 8));
        let through_record = u64::from_le_bytes(b8);
        b8.copy_from_slice(field(24, 8));
        let payload_len = u64::from_le_bytes(b8);
        if payload_len != (body_end - HEADER_BYTES) as u64 {
            return Err(corrupt(format!(
                "payload length {payload_len} does not match the file"
            )));
        }
        if (ledger_seq, through_record) != (info.ledger_seq, info.through_record) {
            return Err(corrupt("header does not match the file name".into()));
        }
        let mut bytes = bytes;
        bytes.truncate(body_end);
        bytes.drain(..HEADER_BYTES);
        Ok(Snapshot {
            ledger_seq,
            through_record,
            bytes,
        })
    }

    /// The newest snapshot that passes its checks; a damaged one is skipped with a warning
    /// and the one before it is tried. `None` when there is no usable snapshot.
    pub fn load_newest_valid(&self) -> StoreResult<Option<Snapshot>> {
        for info in self.list()?.iter().rev() {
            match self.load(info) {
                Ok(s) => return Ok(Some(s)),
                Err(e) => {
                    tracing::warn!(error = %e, "snapshot: skipping a damaged snapshot, trying the previous one");
                }
            }
        }
        Ok(None)
    }

    /// Renames one snapshot aside (its name and [`crate::store::DISCARDED_SUFFIX`]), out of
    /// [`Snapshots::list`]'s sight; returns where it went. The directory is not synced:
    /// a crash before the next sync finds it where it was, to be set aside again.
    pub fn set_aside(&self, info: &SnapshotInfo) -> StoreResult<PathBuf> {
        let to = damage::aside_path(&info.path);
        self.storage
            .rename(&info.path, &to)
            .map_err(|e| StoreError::io("rename", &info.path, e))?;
        Ok(to)
    }

    /// Removes one snapshot file (and syncs the directory).
    pub fn remove(&self, info: &SnapshotInfo) -> StoreResult<()> {
        self.storage
            .remove(&info.path)
            .map_err(|e| StoreError::io("remove", &info.path, e))?;
        self.storage
            .sync_dir(&self.dir)
            .map_err(|e| StoreError::io("sync_dir", &self.dir, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(parse_name(&file_name(7, 42, false)), Some((7, 42, false)));
        assert_eq!(parse_name(&file_name(7, 42, true)), Some((7, 42, true)));
        assert_eq!(
            parse_name(&file_name(u32::MAX, u64::MAX, true)),
            Some((u32::MAX, u64::MAX, true))
        );
        assert_eq!(parse_name("snapshot-7-42.snap"), None);
        assert_eq!(parse_name("snapshot-7-42-revert.snap"), None);
        assert_eq!(
            parse_name(&format!("{}.tmp", file_name(7, 42, false))),
            None
        );
        assert_eq!(parse_name(&format!("{}.tmp", file_name(7, 42, true))), None);
    }
}
