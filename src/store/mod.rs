//! Durable storage: the journal, snapshots and recovery, behind a small Storage trait.
