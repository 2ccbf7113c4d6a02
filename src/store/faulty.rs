//! A [`Storage`] that fails on purpose, for tests: fail the k-th write (appends and
//! positional writes alike), fsync or remove, tear a write (only a prefix reaches the file,
//! then the "machine" is dead), or report a full disk. It wraps a real storage, so what did get written can be reopened afterwards with
//! [`super::DiskStorage`], exactly as after a crash.

use std::io;
use std::path::Path;
use std::sync::Arc;

use parking_lot::Mutex;

use super::storage::{DiskStorage, Storage, StorageFile};

/// Linux's ENOSPC: what a full disk answers.
const ENOSPC: i32 = 28;

/// The schedule of faults and the counters they are keyed on. Write and fsync numbers are
/// 1-based and count every file write (or `sync_data`) since the storage was created.
#[derive(Debug, Default)]
struct Plan {
    writes: u64,
    syncs: u64,
    fail_write_at: Option<u64>,
    fail_sync_at: Option<u64>,
    tear_write_at: Option<(u64, usize)>,
    disk_full: bool,
    space_left_bytes: Option<u64>,
    removes: u64,
    fail_remove_at: Option<u64>,
    crashed: bool,
}

/// A fault-injecting storage. Clones share one fault plan, so a test keeps a clone to
/// arm faults after handing another to the journal.
#[derive(Clone)]
pub struct FaultyStorage {
    inner: Arc<dyn Storage>,
    plan: Arc<Mutex<Plan>>,
}

impl Default for FaultyStorage {
    fn default() -> Self {
        Self::new(Arc::new(DiskStorage))
    }
}

fn crashed_error() -> io::Error {
    io::Error::other("simulated crash: storage is gone")
}

impl FaultyStorage {
    /// Wraps `inner` with no faults armed.
    pub fn new(inner: Arc<dyn Storage>) -> Self {
        FaultyStorage {
            inner,
            plan: Arc::new(Mutex::new(Plan::default())),
        }
    }

    /// Number of file writes so far.
    pub fn writes(&self) -> u64 {
        self.plan.lock().writes
    }

    /// Number of `sync_data` calls so far.
    pub fn syncs(&self) -> u64 {
        self.plan.lock().syncs
    }

    /// The `k`-th write (1-based, counted since creation) fails with EIO and writes nothing.
    pub fn fail_write(&self, k: u64) {
        self.plan.lock().fail_write_at = Some(k);
    }

    /// The `k`-th `sync_data` fails with EIO (the data may or may not be on the disk).
    pub fn fail_sync(&self, k: u64) {
        self.plan.lock().fail_sync_at = Some(k);
    }

    /// The `k`-th write stores only its first `keep` bytes (fewer when the write is
    /// shorter) and the storage then behaves as a crashed machine: this and every later
    /// call fails, so nothing can clean up the torn bytes.
    pub fn tear_write(&self, k: u64, keep: usize) {
        self.plan.lock().tear_write_at = Some((k, keep));
    }

    /// From now on every write fails with ENOSPC and writes nothing (or, with `false`,
    /// the disk has room again).
    pub fn set_disk_full(&self, full: bool) {
        self.plan.lock().disk_full = full;
    }

    /// The disk has room for `bytes` more bytes; the write that crosses it stores what
    /// fits and fails with ENOSPC, like a real file system.
    pub fn set_space_left(&self, bytes: u64) {
        self.plan.lock().space_left_bytes = Some(bytes);
    }

    /// The `k`-th `remove` (1-based, counted since creation) fails with EIO and removes
    /// nothing.
    pub fn fail_remove(&self, k: u64) {
        self.plan.lock().fail_remove_at = Some(k);
    }

    /// Every later call fails, as if the machine had lost power.
    pub fn crash(&self) {
        self.plan.lock().crashed = true;
    }

    fn check_alive(&self) -> io::Result<()> {
        if self.plan.lock().crashed {
            return Err(crashed_error());
        }
        Ok(())
    }
}

struct FaultyFile {
    inner: Box<dyn StorageFile>,
    plan: Arc<Mutex<Plan>>,
}

/// Where a write goes: the end of the file, or an offset (an overwrite in place).
#[derive(Clone, Copy)]
enum At {
    End,
    Offset(u64),
}

impl FaultyFile {
    fn put(&mut self, at: At, buf: &[u8]) -> io::Result<()> {
        match at {
            At::End => self.inner.write_all(buf),
            At::Offset(o) => self.inner.write_at(o, buf),
        }
    }

    /// One write under the plan: counted, then failed, torn, refused for a full disk, or
    /// passed on. An overwrite in place takes no new space, so only appends count against
    /// [`FaultyStorage::set_space_left`].
    fn write(&mut self, at: At, buf: &[u8]) -> io::Result<()> {
        let plan = self.plan.clone();
        let mut plan = plan.lock();
        if plan.crashed {
            return Err(crashed_error());
        }
        plan.writes += 1;
        let n = plan.writes;
        if plan.fail_write_at == Some(n) {
            return Err(io::Error::other(format!("injected failure of write {n}")));
        }
        if let Some((k, keep)) = plan.tear_write_at {
            if k == n {
                plan.crashed = true;
                let keep = keep.min(buf.len().saturating_sub(1));
                self.put(at, &buf[..keep])?;
                return Err(io::Error::other(format!(
                    "injected tear of write {n} after {keep} bytes"
                )));
            }
        }
        if plan.disk_full {
            return Err(io::Error::from_raw_os_error(ENOSPC));
        }
        if let (Some(left), At::End) = (plan.space_left_bytes, at) {
            let len = buf.len() as u64;
            if len > left {
                plan.space_left_bytes = Some(0);
                let fits = usize::try_from(left).unwrap_or(buf.len()).min(buf.len());
                self.put(at, &buf[..fits])?;
                return Err(io::Error::from_raw_os_error(ENOSPC));
            }
            plan.space_left_bytes = Some(left - len);
        }
        drop(plan);
        self.put(at, buf)
    }
}

impl StorageFile for FaultyFile {
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write(At::End, buf)
    }

    fn write_at(&mut self, offset: u64, buf: &[u8]) -> io::Result<()> {
        self.write(At::Offset(offset), buf)
    }

    fn sync_data(&mut self) -> io::Result<()> {
        let mut plan = self.plan.lock();
        if plan.crashed {
            return Err(crashed_error());
        }
        plan.syncs += 1;
        let n = plan.syncs;
        if plan.fail_sync_at == Some(n) {
            return Err(io::Error::other(format!("injected failure of fsync {n}")));
        }
        drop(plan);
        self.inner.sync_data()
    }
}

impl Storage for FaultyStorage {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.check_alive()?;
        self.inner.create_dir_all(dir)
    }

    fn open_append(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        self.check_alive()?;
        Ok(Box::new(FaultyFile {
            inner: self.inner.open_append(path)?,
            plan: self.plan.clone(),
        }))
    }

    fn open_write(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        self.check_alive()?;
        Ok(Box::new(FaultyFile {
            inner: self.inner.open_write(path)?,
            plan: self.plan.clone(),
        }))
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        self.check_alive()?;
        Ok(Box::new(FaultyFile {
            inner: self.inner.create(path)?,
            plan: self.plan.clone(),
        }))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.check_alive()?;
        self.inner.read(path)
    }

    fn len(&self, path: &Path) -> io::Result<u64> {
        self.check_alive()?;
        self.inner.len(path)
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        self.check_alive()?;
        self.inner.list(dir)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.check_alive()?;
        self.inner.rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.check_alive()?;
        let mut plan = self.plan.lock();
        plan.removes += 1;
        let n = plan.removes;
        if plan.fail_remove_at == Some(n) {
            return Err(io::Error::other(format!("injected failure of remove {n}")));
        }
        drop(plan);
        self.inner.remove(path)
    }

    fn truncate(&self, path: &Path, len: u64) -> io::Result<()> {
        self.check_alive()?;
        self.inner.truncate(path, len)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.check_alive()?;
        self.inner.sync_dir(dir)
    }
}
