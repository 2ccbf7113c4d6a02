//! The small surface the store writes through. Everything durable goes through these
//! calls, so a fault-injecting implementation ([`super::FaultyStorage`]) can fail or tear
//! any of them in tests.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// An open file the store appends to.
pub trait StorageFile: Send {
    /// Writes all of `buf` at the end of the file.
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()>;
    /// Makes the written data durable (`fdatasync`).
    fn sync_data(&mut self) -> io::Result<()>;
    /// Writes all of `buf` at `offset` (a positional write). Only for files opened with
    /// [`Storage::open_write`]: on an append-only file Linux appends instead.
    fn write_at(&mut self, offset: u64, buf: &[u8]) -> io::Result<()>;
}

/// The file-system calls the store needs, and nothing more.
pub trait Storage: Send + Sync + 'static {
    /// Creates a directory and its parents.
    fn create_dir_all(&self, dir: &Path) -> io::Result<()>;
    /// Opens a file for appending, creating it when missing.
    fn open_append(&self, path: &Path) -> io::Result<Box<dyn StorageFile>>;
    /// Opens an existing file for positional writes ([`StorageFile::write_at`]), keeping
    /// its content.
    fn open_write(&self, path: &Path) -> io::Result<Box<dyn StorageFile>>;
    /// Creates a file (truncating any old one) for writing from the start.
    fn create(&self, path: &Path) -> io::Result<Box<dyn StorageFile>>;
    /// Reads a whole file.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// Size of a file in bytes.
    fn len(&self, path: &Path) -> io::Result<u64>;
    /// Names of the regular files in a directory (not paths), in no particular order.
    fn list(&self, dir: &Path) -> io::Result<Vec<String>>;
    /// Renames a file, replacing the target.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes a file.
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Cuts a file to `len` bytes and makes the new length durable.
    fn truncate(&self, path: &Path, len: u64) -> io::Result<()>;
    /// Makes a directory's entries (creations, renames, removals) durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
}

/// The real file system, through `std::fs`.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiskStorage;

struct DiskFile(File);

impl StorageFile for DiskFile {
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf)
    }

    fn sync_data(&mut self) -> io::Result<()> {
        self.0.sync_data()
    }

    fn write_at(&mut self, offset: u64, buf: &[u8]) -> io::Result<()> {
        self.0.write_all_at(buf, offset)
    }
}

impl Storage for DiskStorage {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }

    fn open_append(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Box::new(DiskFile(file)))
    }

    fn open_write(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let file = OpenOptions::new().write(true).open(path)?;
        Ok(Box::new(DiskFile(file)))
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn StorageFile>> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(path)?;
        Ok(Box::new(DiskFile(file)))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    fn len(&self, path: &Path) -> io::Result<u64> {
        Ok(fs::metadata(path)?.len())
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                if let Some(name) = entry.file_name().to_str() {
                    names.push(name.to_owned());
                }
            }
        }
        Ok(names)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn truncate(&self, path: &Path, len: u64) -> io::Result<()> {
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(len)?;
        file.sync_all()
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }
}
