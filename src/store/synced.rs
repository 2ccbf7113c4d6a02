//! The acknowledgement record: the journal's own note of how far it acknowledged, so that
//! recovery can tell a torn, never-acknowledged tail (cut it) from acknowledged records that
//! were lost later (a segment truncated, zeroed, emptied or deleted: refuse).
//!
//! The file `synced` in the journal directory holds two slots of [`SLOT_BYTES`]; each
//! update writes the next slot (alternating) in place, and reading takes the valid slot
//! with the higher generation, so a torn update leaves the previous one readable:
//! ```text
//!   0  crc32        u32   CRC-32 of bytes 4..40 of the slot
//!   4  magic        4     "LDSY"
//!   8  generation   u64   +1 per update
//!  16  next_record  u64   every record before it was acknowledged (fdatasync returned)
//!  24  segment      u64   the segment holding the last of them (its first record number)
//!  32  segment_len  u64   that segment's length after them
//! ```
//!
//! The group-commit writer updates it after a batch's `fdatasync` returned and before the
//! batch's tickets complete, with one positional `write` and **no fsync**: the update sits
//! in the page cache, which survives the process being killed, and reaches the disk with
//! the kernel's writeback, the journal's close (which syncs it) or the next open (which
//! rewrites and syncs it). After a power loss it may therefore lag behind what was
//! acknowledged; a lagging record only claims less, so it never makes recovery refuse a
//! journal that is whole (the data it names was synced before it was written). It is
//! created once per journal through a temporary file, fsync, rename and directory fsync,
//! so the file is either absent or whole.

use std::path::{Path, PathBuf};

use super::error::{StoreError, StoreResult};
use super::storage::{Storage, StorageFile};

/// The file name, in the journal directory.
pub(crate) const FILE_NAME: &str = "synced";
const TEMP_NAME: &str = "synced.tmp";
const MAGIC: &[u8; 4] = b"LDSY";
/// Bytes of one slot.
const SLOT_BYTES: usize = 40;

/// How far the journal acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SyncedMark {
    /// Every record numbered below it was acknowledged.
    pub next_record: u64,
    /// First record number of the segment holding the last acknowledged record (or the
    /// empty segment the next record goes to).
    pub segment: u64,
    /// That segment's length in bytes once those records were written.
    pub segment_len: u64,
}

/// What the journal directory holds of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SyncedState {
    /// No `synced` file: a new journal, or one written before the record existed.
    Missing,
    /// The file is there but neither slot passes its checks.
    Unreadable(String),
    /// The newest valid slot.
    Mark(SyncedMark, u64),
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

fn encode(mark: SyncedMark, generation: u64) -> [u8; SLOT_BYTES] {
    let mut slot = [0u8; SLOT_BYTES];
    slot[4..8].copy_from_slice(MAGIC);
    slot[8..16].copy_from_slice(&generation.to_le_bytes());
    slot[16..24].copy_from_slice(&mark.next_record.to_le_bytes());
    slot[24..32].copy_from_slice(&mark.segment.to_le_bytes());
    slot[32..40].copy_from_slice(&mark.segment_len.to_le_bytes());
    let crc = crc32fast::hash(&slot[4..]);
    slot[..4].copy_from_slice(&crc.to_le_bytes());
    slot
}

fn decode(slot: &[u8]) -> Option<(SyncedMark, u64)> {
    if slot.len() < SLOT_BYTES || &slot[4..8] != MAGIC {
        return None;
    }
    let mut crc = [0u8; 4];
    crc.copy_from_slice(&slot[..4]);
    if u32::from_le_bytes(crc) != crc32fast::hash(&slot[4..SLOT_BYTES]) {
        return None;
    }
    let mark = SyncedMark {
        next_record: u64_at(slot, 16),
        segment: u64_at(slot, 24),
        segment_len: u64_at(slot, 32),
    };
    Some((mark, u64_at(slot, 8)))
}

/// Reads the record in `dir`.
pub(crate) fn read(storage: &dyn Storage, dir: &Path) -> StoreResult<SyncedState> {
    let path = dir.join(FILE_NAME);
    let bytes = match storage.read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(SyncedState::Missing),
        Err(e) => return Err(StoreError::io("read", &path, e)),
    };
    let best = bytes
        .chunks(SLOT_BYTES)
        .take(2)
        .filter_map(decode)
        .max_by_key(|(_, generation)| *generation);
    Ok(match best {
        Some((mark, generation)) => SyncedState::Mark(mark, generation),
        None => SyncedState::Unreadable(format!(
            "{} bytes, no slot passes its checksum",
            bytes.len()
        )),
    })
}

/// The open record, updated by the group-commit writer.
pub(crate) struct SyncedFile {
    file: Box<dyn StorageFile>,
    path: PathBuf,
    generation: u64,
}

impl SyncedFile {
    /// Writes `mark` durably as the newest record (after `generation`, the newest one on
    /// disk, 0 when none) and opens the file for later updates. A missing file is created
    /// whole (temporary file, fsync, rename, directory fsync).
    pub(crate) fn create_or_update(
        storage: &dyn Storage,
        dir: &Path,
        state: &SyncedState,
        mark: SyncedMark,
    ) -> StoreResult<SyncedFile> {
        let path = dir.join(FILE_NAME);
        let generation = match state {
            SyncedState::Mark(_, generation) => *generation,
            SyncedState::Missing | SyncedState::Unreadable(_) => {
                create(storage, dir, mark)?;
                1
            }
        };
        let file = storage
            .open_write(&path)
            .map_err(|e| StoreError::io("open", &path, e))?;
        let mut synced = SyncedFile {
            file,
            path,
            generation,
        };
        if let SyncedState::Mark(..) = state {
            synced.record(mark)?;
            synced.sync()?;
        }
        Ok(synced)
    }

    /// Notes `mark` as the newest record: one positional write, no fsync.
    pub(crate) fn record(&mut self, mark: SyncedMark) -> StoreResult<()> {
        let generation = self.generation + 1;
        let slot = (generation % 2) * SLOT_BYTES as u64;
        self.file
            .write_at(slot, &encode(mark, generation))
            .map_err(|e| StoreError::io("write", &self.path, e))?;
        self.generation = generation;
        Ok(())
    }

    /// Makes the newest record durable (at close and open, never per batch).
    pub(crate) fn sync(&mut self) -> StoreResult<()> {
        self.file
            .sync_data()
            .map_err(|e| StoreError::io("fdatasync", &self.path, e))
    }
}

/// Creates the file with `mark` in slot 1 (generation 1) and an empty slot 0.
fn create(storage: &dyn Storage, dir: &Path, mark: SyncedMark) -> StoreResult<()> {
    let temp = dir.join(TEMP_NAME);
    let path = dir.join(FILE_NAME);
    let mut bytes = vec![0u8; SLOT_BYTES];
    bytes.extend_from_slice(&encode(mark, 1));
    let mut file = storage
        .create(&temp)
        .map_err(|e| StoreError::io("create", &temp, e))?;
    file.write_all(&bytes)
        .map_err(|e| StoreError::io("write", &temp, e))?;
    file.sync_data()
        .map_err(|e| StoreError::io("fdatasync", &temp, e))?;
    drop(file);
    storage
        .rename(&temp, &path)
        .map_err(|e| StoreError::io("rename", &temp, e))?;
    storage
        .sync_dir(dir)
        .map_err(|e| StoreError::io("sync_dir", dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_round_trip_and_a_damaged_slot_is_ignored() {
        let mark = SyncedMark {
            next_record: 21,
            segment: 1,
            segment_len: 2480,
        };
        let slot = encode(mark, 7);
        assert_eq!(decode(&slot), Some((mark, 7)));
        for i in 0..SLOT_BYTES {
            let mut bad = slot;
            bad[i] ^= 0x08;
            assert_eq!(decode(&bad), None, "flip at {i} not caught");
        }
        assert_eq!(decode(&[0u8; SLOT_BYTES]), None);
    }

    #[test]
    fn the_newer_valid_slot_wins_and_a_torn_update_leaves_the_older() {
        let dir = tempfile::tempdir().expect("tempdir");
        let storage = super::super::DiskStorage;
        let mark = |n| SyncedMark {
            next_record: n,
            segment: 1,
            segment_len: n * 10,
        };
        let mut f =
            SyncedFile::create_or_update(&storage, dir.path(), &SyncedState::Missing, mark(1))
                .expect("created");
        assert_eq!(
            read(&storage, dir.path()).expect("read"),
            SyncedState::Mark(mark(1), 1)
        );
        f.record(mark(5)).expect("record");
        f.record(mark(9)).expect("record");
        assert_eq!(
            read(&storage, dir.path()).expect("read"),
            SyncedState::Mark(mark(9), 3)
        );
        // Tear the newest slot (generation 3 lives in slot 1): the older one is read.
        let path = dir.path().join(FILE_NAME);
        let mut bytes = std::fs::read(&path).expect("read");
        bytes[SLOT_BYTES + 20] ^= 0xFF;
        std::fs::write(&path, &bytes).expect("write");
        assert_eq!(
            read(&storage, dir.path()).expect("read"),
            SyncedState::Mark(mark(5), 2)
        );
        bytes[20] ^= 0xFF;
        std::fs::write(&path, &bytes).expect("write");
        assert!(matches!(
            read(&storage, dir.path()).expect("read"),
            SyncedState::Unreadable(_)
        ));
    }
}
