//! The store's journal on disk: open it (on the real disk or on fault-injecting storage),
//! replay everything, list the segment files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ledgerd::store::{
    DiskStorage, FaultyStorage, Journal, JournalOptions, Record, Recovered, StoreError,
};

/// The journal in `dir` on the real disk, with `options`.
pub fn open_journal_with(
    dir: &Path,
    options: JournalOptions,
) -> Result<(Journal, Recovered), StoreError> {
    Journal::open(Arc::new(DiskStorage), dir, options)
}

/// The journal in `dir` on the real disk, with the default options.
pub fn open_journal(dir: &Path) -> (Journal, Recovered) {
    open_journal_with(dir, JournalOptions::default()).expect("journal opens")
}

/// The journal in `dir` on storage whose faults the test arms, with the default options.
pub fn open_faulty(dir: &Path) -> (Journal, FaultyStorage) {
    let faults = FaultyStorage::default();
    let (journal, _) =
        Journal::open(Arc::new(faults.clone()), dir, JournalOptions::default()).expect("opens");
    (journal, faults)
}

/// Every record from the first.
pub fn replay_all(rec: &Recovered) -> Vec<Record> {
    rec.replay_from(1)
        .expect("replay starts")
        .collect::<Result<Vec<_>, _>>()
        .expect("replay reads")
}

/// The segment files in `dir`, oldest first.
pub fn segments(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "seg"))
        .collect();
    v.sort();
    v
}
