//! Replaying the journal after a base (a snapshot, or genesis) through the engine, and
//! checking every replayed result and ledger hash against what the journal recorded.
//!
//! A revert record continues from its revert snapshot: the ledger the revert went back
//! to, named after the record. Without that snapshot, whether the revert happened is read
//! from the journal, never guessed: the sequencer journals a revert, writes its snapshot
//! and only then answers or does anything else, so
//! - a revert whose own records (itself and the `following` transaction records) end the
//!   journal, or are followed by an abandoned-revert record naming it, never finished: it
//!   was never answered and did not happen; its records are skipped. (Recovery journals
//!   the abandoned-revert record for one that ends the journal, so what comes after it
//!   later does not make it look finished.)
//! - a revert followed by anything else happened, and its snapshot was lost (deleted or
//!   damaged): replay cannot get past it from this base ([`Stop::Broken`]); a base after
//!   it may still work.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::format::{decode_snapshot, CloseRecord, Meta, RevertRecord, TxRecord};
use super::{PersistError, ReplaySink};
use crate::ledgers::{LedgerConfig, Ledgers};
use crate::limits::{REPLAY_PROGRESS_LOG_RECORDS_INTERVAL, REPLAY_PROGRESS_QUIET_MILLIS};
use crate::store::{Record, RecordKind, Recovered, SnapshotInfo, Snapshots};

/// The last close replayed: (ledger seq, journal record).
pub(super) type LastClose = Option<(u32, u64)>;

/// Where replay finds the snapshot a revert record continues from.
pub(super) struct Jumps<'a> {
    pub snapshots: &'a Snapshots,
    /// The usable snapshots, in journal order.
    pub infos: &'a [SnapshotInfo],
    pub cfg: LedgerConfig,
}

/// A revert replay cannot get past: it happened (the journal goes on after it) or its
/// snapshot exists, but the snapshot is missing or unusable.
#[derive(Debug, Clone)]
pub(super) struct BrokenRevert {
    /// The revert record.
    pub record: u64,
    /// The ledger it went back to.
    pub ledger: u32,
    /// The snapshot it continues from.
    pub file: PathBuf,
    /// What is wrong with it.
    pub problem: String,
    /// The first record after the revert's own, which shows it happened.
    pub proof: Option<u64>,
}

impl fmt::Display for BrokenRevert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "journal record {} reverts to ledger {}, but its snapshot {} {}",
            self.record,
            self.ledger,
            self.file.display(),
            self.problem
        )?;
        if let Some(p) = self.proof {
            write!(
                f,
                " and the journal goes on after the revert (record {p}), so it happened"
            )?;
        }
        Ok(())
    }
}

/// Why a replay stopped short.
pub(super) enum Stop {
    /// At a broken revert, with the ledger as replayed up to just before it.
    Broken(BrokenRevert, Box<Replaying>),
    /// Anything else: damage, divergence, an unreadable record.
    Failed(PersistError),
}

/// Why one record could not be replayed.
enum Halt {
    Broken(BrokenRevert),
    Failed(PersistError),
}

impl From<PersistError> for Halt {
    fn from(e: PersistError) -> Self {
        Halt::Failed(e)
    }
}

/// A revert met without its snapshot, not yet known to have happened or not.
struct Unfinished {
    record: u64,
    ledger: u32,
    file: PathBuf,
    /// Its own transaction records still to skip.
    remaining: u32,
}

/// Replay's progress.
pub(super) struct Replaying {
    pub store: Ledgers,
    pub last_close: LastClose,
    /// The transaction records since the last close (the open ledger's).
    pub open_log: Vec<Vec<u8>>,
    /// The ledger the last revert replayed (or the base snapshot) went back to.
    pub reverted_to: Option<u32>,
    /// Revert snapshots met under a periodic snapshot's name (written before revert
    /// snapshots were named so), to rename.
    pub unmarked: Vec<SnapshotInfo>,
    /// Gets every ledger closed ([`super::PersistOptions::replay_sink`]).
    pub sink: Option<ReplaySink>,
    unfinished: Option<Unfinished>,
    txs: u64,
    closes: u64,
    abandoned: u64,
}

impl Replaying {
    pub(super) fn new(store: Ledgers) -> Replaying {
        Replaying {
            store,
            last_close: None,
            open_log: Vec::new(),
            reverted_to: None,
            unmarked: Vec::new(),
            sink: None,
            unfinished: None,
            txs: 0,
            closes: 0,
            abandoned: 0,
        }
    }

    /// The revert record that ends the journal unfinished (replay ended while skipping
    /// its records): recovery journals that it never happened.
    pub(super) fn unfinished_revert(&self) -> Option<u64> {
        self.unfinished.as_ref().map(|u| u.record)
    }

    fn step(&mut self, record: &Record, jumps: &Jumps<'_>) -> Result<(), Halt> {
        if self.unfinished.is_some() {
            return self.after_unfinished(record);
        }
        match record.kind {
            RecordKind::Transaction => self.transaction(record)?,
            RecordKind::LedgerClose => self.close(record)?,
            RecordKind::Meta => self.meta(record, jumps)?,
        }
        Ok(())
    }

    /// A record after a revert without its snapshot: one of the revert's own transaction
    /// records (skipped), the abandoned-revert record naming it (it never happened), or
    /// anything else (it happened: its snapshot is lost).
    fn after_unfinished(&mut self, record: &Record) -> Result<(), Halt> {
        let Some(u) = self.unfinished.as_mut() else {
            return Ok(());
        };
        if record.kind == RecordKind::Meta {
            if let Ok(Meta::RevertAbandoned(a)) = Meta::decode(&record.payload) {
                if a.record == u.record {
                    self.unfinished = None;
                    self.abandoned += 1;
                    return Ok(());
                }
            }
        }
        if record.kind == RecordKind::Transaction && u.remaining > 0 {
            u.remaining -= 1;
            return Ok(());
        }
        let Some(u) = self.unfinished.take() else {
            return Ok(());
        };
        Err(Halt::Broken(BrokenRevert {
            record: u.record,
            ledger: u.ledger,
            file: u.file,
            problem: "is missing".into(),
            proof: Some(record.number),
        }))
    }

    fn transaction(&mut self, record: &Record) -> Result<(), PersistError> {
        let n = record.number;
        let diverged = |detail: String| PersistError::Diverged { record: n, detail };
        let rec = TxRecord::decode(&record.payload)
            .map_err(|e| PersistError::Recovery(format!("journal record {n}: {e}")))?;
        let r = self
            .store
            .apply_blob(&rec.blob)
            .map_err(|e| diverged(format!("transaction does not decode: {e}")))?;
        let got = TxRecord::of(&rec.blob, &r, self.store.current().seq());
        if got != rec {
            return Err(diverged(format!(
                "transaction {}: replay gave {} (ledger {}, index {}, applied {}, held {}) where the journal has {} (ledger {}, index {}, applied {}, held {})",
                rec.id,
                got.ter().map_or(got.ter.to_string(), |t| t.to_string()),
                got.ledger_seq, got.index, got.applied, got.held,
                rec.ter().map_or(rec.ter.to_string(), |t| t.to_string()),
                rec.ledger_seq, rec.index, rec.applied, rec.held,
            )));
        }
        self.open_log.push(record.payload.clone());
        self.txs += 1;
        Ok(())
    }

    fn close(&mut self, record: &Record) -> Result<(), PersistError> {
        let n = record.number;
        let rec = CloseRecord::decode(&record.payload)
            .map_err(|e| PersistError::Recovery(format!("journal record {n}: {e}")))?;
        let closed = self.store.close(rec.close_time_requested);
        let got = CloseRecord::of(&closed);
        if got != rec {
            return Err(PersistError::Diverged {
                record: n,
                detail: format!(
                    "ledger {} replayed to hash {} where the journal has ledger {} with hash {}",
                    got.seq, got.hash, rec.seq, rec.hash
                ),
            });
        }
        self.last_close = Some((rec.seq, n));
        self.open_log.clear();
        self.closes += 1;
        if let Some(sink) = &self.sink {
            sink(&self.store, &closed).map_err(PersistError::Recovery)?;
        }
        Ok(())
    }

    fn meta(&mut self, record: &Record, jumps: &Jumps<'_>) -> Result<(), Halt> {
        let n = record.number;
        let bad = |why: String| {
            Halt::Failed(PersistError::Recovery(format!("journal record {n}: {why}")))
        };
        match Meta::decode(&record.payload).map_err(bad)? {
            Meta::Revert(rec) => self.revert(n, &rec, jumps),
            Meta::Genesis(_) => Err(bad("a genesis record in the middle of the journal".into())),
            Meta::RevertAbandoned(a) => Err(bad(format!(
                "says the revert journaled as record {} never happened, but replay went through it",
                a.record
            ))),
        }
    }

    /// A revert record: the store becomes its revert snapshot; without one, it is
    /// unfinished until the records after it tell.
    fn revert(&mut self, n: u64, rec: &RevertRecord, jumps: &Jumps<'_>) -> Result<(), Halt> {
        let Some(info) = jumps.infos.iter().find(|i| i.through_record == n) else {
            self.unfinished = Some(Unfinished {
                record: n,
                ledger: rec.seq,
                file: jumps.snapshots.revert_path(rec.seq, n),
                remaining: rec.following,
            });
            return Ok(());
        };
        let broken = |problem: String| {
            Halt::Broken(BrokenRevert {
                record: n,
                ledger: rec.seq,
                file: info.path.clone(),
                problem,
                proof: None,
            })
        };
        let store = load_snapshot(jumps.snapshots, info, jumps.cfg.clone())
            .map_err(|e| broken(format!("is unusable ({e})")))?;
        let hash = store.closed().ledger.map(|l| l.header.hash);
        if info.ledger_seq != rec.seq || hash != Some(rec.hash) {
            return Err(broken(format!(
                "holds another ledger than the revert's ({})",
                rec.hash
            )));
        }
        if !info.revert {
            self.unmarked.push(info.clone());
        }
        self.store = store;
        self.last_close = Some((rec.seq, n));
        self.open_log.clear();
        self.reverted_to = Some(rec.seq);
        Ok(())
    }
}

/// Replays records after `through` into the store, checking each against the journal.
/// Returns the progress and the number of records read.
pub(super) fn replay(
    recovered: &Recovered,
    mut state: Replaying,
    through: u64,
    jumps: &Jumps<'_>,
) -> Result<(Replaying, u64), Stop> {
    let started = Instant::now();
    let quiet = Duration::from_millis(REPLAY_PROGRESS_QUIET_MILLIS);
    let replay = recovered
        .replay_after(through)
        .map_err(|e| Stop::Failed(e.into()))?
        .with_progress_every(REPLAY_PROGRESS_LOG_RECORDS_INTERVAL, move |p| {
            if started.elapsed() >= quiet && p.done < p.total {
                tracing::info!("replaying the journal: {} of {} records", p.done, p.total);
            }
        });
    let total = replay.total();
    for record in replay {
        let record = record.map_err(|e| Stop::Failed(e.into()))?;
        match state.step(&record, jumps) {
            Ok(()) => {}
            Err(Halt::Failed(e)) => return Err(Stop::Failed(e)),
            Err(Halt::Broken(b)) => return Err(Stop::Broken(b, Box::new(state))),
        }
    }
    let (first, last) = state.store.complete_range();
    tracing::info!(
        records = total,
        transactions = state.txs,
        closes = state.closes,
        abandoned_reverts = state.abandoned,
        ledgers = %format!("{first}-{last}"),
        millis = started.elapsed().as_millis() as u64,
        "recovery: journal replayed"
    );
    Ok((state, total))
}

/// Loads and checks one snapshot.
pub(super) fn load_snapshot(
    snapshots: &Snapshots,
    info: &SnapshotInfo,
    cfg: LedgerConfig,
) -> Result<Ledgers, PersistError> {
    let snap = snapshots.load(info)?;
    let bad =
        |why: String| PersistError::Recovery(format!("snapshot {}: {why}", info.path.display()));
    let state = decode_snapshot(&snap.bytes).map_err(bad)?;
    if state.header.seq != info.ledger_seq {
        return Err(bad(format!(
            "holds ledger {} but is named for {}",
            state.header.seq, info.ledger_seq
        )));
    }
    Ledgers::from_snapshot_with_held(cfg, state.header, state.entries, state.held)
        .map_err(|e| bad(e.to_string()))
}
