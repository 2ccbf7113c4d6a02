//! Files at start.
//!
//! - The process's file-descriptor limit: every connection holds one, and a port has no
//!   connection `limit` by default (as rippled's), so the server raises its soft limit to
//!   the hard limit at start (as rippled does) and reports both (the log, admin
//!   `server_info`).
//! - [`read_bounded`]: how the server reads every file it is given at start (`--config`,
//!   `--genesis`, TLS certificates and keys): a regular file only, at most a bound. A FIFO,
//!   a device (`/dev/zero`, `/dev/urandom`), a directory or a socket is refused by kind
//!   without reading it (and without blocking: the file is opened `O_NONBLOCK`, and its
//!   kind checked on the open descriptor); a file is read through `take(bound + 1)`, so one
//!   whose size lies (`/proc`) or that grows while read is refused past the bound too.

use std::io::Read;
use std::path::Path;

/// The soft and hard `RLIMIT_NOFILE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLimit {
    /// The limit in force.
    pub soft: u64,
    /// The most the soft limit may be raised to.
    pub hard: u64,
}

/// The limit now; `None` where the platform has none.
pub fn current() -> Option<FileLimit> {
    rlimit::getrlimit(rlimit::Resource::NOFILE)
        .ok()
        .map(|(soft, hard)| FileLimit { soft, hard })
}

/// Raise the soft limit to the hard limit, and log the result.
pub fn raise() -> Option<FileLimit> {
    let before = current()?;
    if before.soft < before.hard {
        if let Err(e) = rlimit::setrlimit(rlimit::Resource::NOFILE, before.hard, before.hard) {
            tracing::warn!(
                soft = before.soft,
                hard = before.hard,
                "cannot raise the file limit: {e}"
            );
        }
    }
    let now = current()?;
    tracing::info!(
        soft = now.soft,
        hard = now.hard,
        "file limit (each connection holds one descriptor)"
    );
    Some(now)
}

/// What a non-regular file is, in words (`None` for a regular file).
fn special_kind(kind: std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_char_device() {
            return Some("a character device");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    (!kind.is_file()).then_some("not a regular file")
}

/// The error of a file that is not a regular file.
fn not_regular(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("is {what}, not a regular file"),
    )
}

/// Opens `path` for reading without blocking on a FIFO (`O_NONBLOCK`; no effect on a
/// regular file's reads).
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The contents of the regular file `path`, at most `max` bytes. A FIFO, device,
/// directory or socket is refused by kind before anything is read; a larger file is
/// refused with the bound. The errors say what is wrong but not the path: the caller
/// names the file and what it is for.
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    // Checked before opening (a socket cannot be opened; a FIFO is never opened) and
    // again on the descriptor (the path may have been replaced in between).
    if let Some(what) = special_kind(std::fs::metadata(path)?.file_type()) {
        return Err(not_regular(what));
    }
    let file = open_nonblocking(path)?;
    if let Some(what) = special_kind(file.metadata()?.file_type()) {
        return Err(not_regular(what));
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("is over {max} bytes, the most this file may hold"),
        ));
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text.
pub fn read_text_bounded(path: &Path, max: u64) -> std::io::Result<String> {
    String::from_utf8(read_bounded(path, max)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_up_to_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_bounded(&path, 5).unwrap(), b"12345");
        let err = read_bounded(&path, 4).unwrap_err().to_string();
        assert!(err.contains("over 4 bytes"), "{err}");
        assert_eq!(read_text_bounded(&path, 5).unwrap(), "12345");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_text_bounded(&path, 5).is_err());
    }

    #[test]
    fn special_files_are_refused_by_kind() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_bounded(dir.path(), 100).unwrap_err().to_string();
        assert!(err.contains("a directory"), "{err}");
        #[cfg(target_os = "linux")]
        for (path, kind) in [
            ("/dev/zero", "character device"),
            ("/dev/urandom", "character device"),
        ] {
            let err = read_bounded(Path::new(path), 100).unwrap_err().to_string();
            assert!(err.contains(kind), "{path}: {err}");
        }
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.unwrap().success());
            let err = read_bounded(&fifo, 100).unwrap_err().to_string();
            assert!(err.contains("FIFO"), "{err}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_whose_size_lies_is_bounded() {
        // /proc files report size 0 whatever they hold.
        let err = read_bounded(Path::new("/proc/self/maps"), 10)
            .unwrap_err()
            .to_string();
        assert!(err.contains("over 10 bytes"), "{err}");
        assert!(!read_bounded(Path::new("/proc/self/maps"), 1 << 20)
            .unwrap()
            .is_empty());
    }
}
