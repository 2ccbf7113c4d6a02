//! Journal segment files: naming, and the list of segments the journal is made of.
//!
//! A segment is named after the number of its first record (`journal-00000000000000000001.seg`),
//! so an empty segment still says which record comes next, and pruning can tell from the
//! names alone which segments hold only old records.

use std::path::{Path, PathBuf};

const PREFIX: &str = "journal-";
const SUFFIX: &str = ".seg";

/// One segment of the journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SegmentInfo {
    /// Number of its first record (or of the next record, while it is empty).
    pub first: u64,
    /// Its file.
    pub path: PathBuf,
    /// Bytes of whole, verified records (recovery) or written and synced (the writer).
    pub len: u64,
}

/// The file name of the segment whose first record is `first`.
pub(crate) fn file_name(first: u64) -> String {
    format!("{PREFIX}{first:020}{SUFFIX}")
}

/// The first record number a segment file name encodes, if it is a segment's name.
pub(crate) fn parse_name(name: &str) -> Option<u64> {
    let digits = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    if digits.len() != 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The path of the segment whose first record is `first`, in `dir`.
pub(crate) fn path_in(dir: &Path, first: u64) -> PathBuf {
    dir.join(file_name(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_strangers_are_ignored() {
        assert_eq!(parse_name(&file_name(1)), Some(1));
        assert_eq!(parse_name(&file_name(u64::MAX)), Some(u64::MAX));
        assert_eq!(parse_name("journal-1.seg"), None);
        assert_eq!(parse_name("journal-0000000000000000000x.seg"), None);
        assert_eq!(parse_name("snapshot-1.snap"), None);
    }
}
