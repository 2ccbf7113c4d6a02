//! Opening a data directory: pick a base (a snapshot, or the genesis record), replay the
//! journal after it through the engine, and check every replayed result and ledger hash
//! against what the journal recorded.
//!
//! The base is chosen to rebuild history: the newest usable snapshot at least
//! `history_ledgers` behind the newest snapshot, so after replay the last
//! `history_ledgers` closed ledgers (with their transactions, for `ledger`, `tx` and reads
//! by index) exist again. A damaged snapshot is skipped for the next best one.
//!
//! Lost acknowledged records refuse to start ([`PersistError::Damaged`]): the journal
//! judges its own segments against its acknowledgement record (`store/damage.rs`); on top
//! of that, a snapshot covers only acknowledged records, so a journal ending before a
//! snapshot does lost some, and a journal with no records in a directory whose `CREATED`
//! marker says a ledger was made there lost all. `repair_journal` starts anyway: the
//! journal keeps its verified prefix, or starts over after a snapshot that holds more
//! than it does; what was discarded is logged and kept in `Disk::repaired`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use super::format::{decode_snapshot, CloseRecord, GenesisRecord, RevertRecord, TxRecord};
use super::{Disk, PersistError, PersistOptions, ReplaySink, SnapshotStatus};
use crate::ledgers::{LedgerConfig, Ledgers};
use crate::limits::{REPLAY_PROGRESS_LOG_RECORDS_INTERVAL, REPLAY_PROGRESS_QUIET_MILLIS};
use crate::store::{
    Journal, JournalOptions, Record, RecordKind, Recovered, SnapshotInfo, Snapshots, Storage,
    StoreError, DISCARDED_SUFFIX,
};

/// The last close replayed: (ledger seq, journal record).
type LastClose = Option<(u32, u64)>;

/// What recovery produced.
struct Outcome {
    store: Arc<Ledgers>,
    last_close: LastClose,
    /// A line saying what it did.
    from: String,
    /// The transaction records since the last close (the open ledger's).
    open_log: Vec<Vec<u8>>,
    /// The ledger the last revert replayed (or the base snapshot) went back to.
    reverted_to: Option<u32>,
}

/// Where replay starts.
enum Base {
    Snapshot(SnapshotInfo),
    Genesis,
}

/// Opens `dir` (creating it), recovers the store and starts the journal.
pub(super) fn open(
    dir: &Path,
    cfg: LedgerConfig,
    options: PersistOptions,
) -> Result<(Arc<Disk>, Arc<Ledgers>), PersistError> {
    let lock = lock_dir(dir)?;
    let snapshots = Snapshots::open(options.storage.clone(), &dir.join("snapshots"))?;
    let (journal, recovered, mut repaired) =
        open_journal(&dir.join("journal"), &snapshots, &options)?;
    let infos = snapshots.list()?;
    let newest_snapshot = infos.last().map_or(0, |i| i.ledger_seq);
    let history = options.history_ledgers.min(cfg.history_count);

    let outcome = if recovered.next_record == 1 && infos.is_empty() {
        // A new directory (or a repair that kept nothing): genesis, recorded first. Unless
        // the directory says a ledger was created in it already: then its journal is gone.
        if let Some(why) = created_before(dir, options.storage.as_ref())? {
            if !options.repair_journal {
                return Err(PersistError::Damaged(why));
            }
            tracing::warn!("journal repair: {why}; starting a new ledger");
            repaired.get_or_insert(why);
        }
        let now = super::genesis_time(&cfg);
        let g = GenesisRecord {
            now,
            fees: cfg.fees,
            network_id: cfg.apply.network_id,
        };
        journal.append(RecordKind::Meta, g.encode()).wait()?;
        tracing::info!(dir = %dir.display(), "created a new ledger (genesis)");
        Outcome {
            store: Arc::new(Ledgers::genesis(cfg, now)),
            last_close: None,
            from: "new ledger".to_owned(),
            open_log: Vec::new(),
            reverted_to: None,
        }
    } else {
        recover(
            &recovered,
            &snapshots,
            &infos,
            cfg,
            history,
            &options.replay_sink,
        )?
    };

    mark_created(dir, options.storage.as_ref())?;
    let store = outcome.store;
    let seq = store.current().seq();
    let disk = Arc::new(Disk {
        dir: dir.to_path_buf(),
        options,
        journal,
        snapshots,
        open_seq: AtomicU32::new(seq),
        last_close: Mutex::new(outcome.last_close),
        open_log: Mutex::new(outcome.open_log),
        reverted_to: outcome.reverted_to,
        durable_close: Default::default(),
        snapshot: Mutex::new(SnapshotStatus {
            last_seq: newest_snapshot,
            last_through_record: infos.last().map_or(0, |i| i.through_record),
            ..Default::default()
        }),
        recovered_from: outcome.from,
        repaired,
        _lock: lock,
    });
    // Everything recovered is durable.
    disk.durable_close
        .mark(recovered.next_record.saturating_sub(1));
    Ok((disk, store))
}

/// The marker a data directory gets once a ledger was created in it (and its genesis
/// record is durable): a journal with no records beside it was emptied or deleted.
const CREATED: &str = "CREATED";

/// Whether `dir` already holds a ledger: its `CREATED` marker, or any journal segment.
/// (`serve --genesis` refuses such a directory: a genesis file starts a new ledger.)
pub fn holds_ledger(dir: &Path) -> bool {
    let journal_files = std::fs::read_dir(dir.join("journal"))
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    dir.join(CREATED).exists() || journal_files
}

/// Why starting a new ledger in `dir` would lose one, if its `CREATED` marker is there.
fn created_before(dir: &Path, storage: &dyn Storage) -> Result<Option<String>, PersistError> {
    let path = dir.join(CREATED);
    match storage.len(&path) {
        Ok(_) => Ok(Some(format!(
            "the journal {} holds no records (emptied or deleted) but {} says a ledger was created in this directory: every acknowledged record is missing",
            dir.join("journal").display(),
            path.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StoreError::io("stat", &path, e).into()),
    }
}

/// Writes the `CREATED` marker if it is missing (temporary file, fsync, rename, directory
/// fsync): once per data directory.
fn mark_created(dir: &Path, storage: &dyn Storage) -> Result<(), PersistError> {
    let path = dir.join(CREATED);
    if storage.len(&path).is_ok() {
        return Ok(());
    }
    let temp = dir.join(format!("{CREATED}.tmp"));
    let io = |op: &'static str, p: &Path| {
        let p = p.to_path_buf();
        move |e| PersistError::from(StoreError::io(op, p, e))
    };
    let mut file = storage.create(&temp).map_err(io("create", &temp))?;
    file.write_all(b"a ledger was created in this data directory; its journal holds it\n")
        .map_err(io("write", &temp))?;
    file.sync_data().map_err(io("fdatasync", &temp))?;
    drop(file);
    storage.rename(&temp, &path).map_err(io("rename", &temp))?;
    storage.sync_dir(dir).map_err(io("sync_dir", dir))
}

/// Creates `dir` and takes its `LOCK` (one server per directory).
fn lock_dir(dir: &Path) -> Result<File, PersistError> {
    let dir_err = |reason: String| PersistError::DataDir {
        path: dir.to_path_buf(),
        reason,
    };
    std::fs::create_dir_all(dir).map_err(|e| dir_err(format!("cannot create it: {e}")))?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("LOCK"))
        .map_err(|e| dir_err(format!("cannot open its LOCK file: {e}")))?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(dir_err("in use by another ledgerd (LOCK is held)".into()))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(dir_err(format!("cannot lock it: {e}"))),
    }
}

/// Opens the journal in `dir` and checks it against the snapshots: every record a snapshot
/// covers was acknowledged (a snapshot is written only once its close record is durable),
/// so a journal that ends before a snapshot does has lost acknowledged records, and
/// opening refuses, as it does for damage the journal finds itself. With
/// `repair_journal` both are repaired instead; the third value says what was discarded.
fn open_journal(
    dir: &Path,
    snapshots: &Snapshots,
    options: &PersistOptions,
) -> Result<(Journal, Recovered, Option<String>), PersistError> {
    let storage = options.storage.clone();
    let journal_options = JournalOptions {
        repair: options.repair_journal,
        ..options.journal.clone()
    };
    let (journal, recovered) = Journal::open(storage.clone(), dir, journal_options.clone())
        .map_err(|e| match e {
            StoreError::Corrupt { .. } => PersistError::Damaged(e.to_string()),
            e => PersistError::Store(e),
        })?;
    if let Some(t) = &recovered.repaired_tail {
        tracing::warn!(
            file = %t.file.display(),
            offset = t.offset,
            dropped_bytes = t.dropped_bytes,
            "recovery: dropped a torn journal tail (never acknowledged): {}",
            t.reason
        );
    }
    let mut notes: Vec<String> = recovered.discarded.iter().map(|d| d.to_string()).collect();
    let ahead: Vec<SnapshotInfo> = snapshots
        .list()?
        .into_iter()
        .filter(|i| i.through_record >= recovered.next_record)
        .collect();
    let Some(newest) = ahead.last() else {
        return Ok((journal, recovered, joined(notes)));
    };
    if !options.repair_journal {
        return Err(PersistError::Damaged(behind(dir, &recovered, newest)));
    }
    notes.push(behind(dir, &recovered, newest));
    drop(journal);
    let note = repair_behind(storage.as_ref(), dir, snapshots, &ahead)?;
    tracing::warn!("journal repair: {note}");
    notes.push(note);
    let (journal, recovered) = Journal::open(storage, dir, journal_options)?;
    Ok((journal, recovered, joined(notes)))
}

fn joined(notes: Vec<String>) -> Option<String> {
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// Why a journal that ends before snapshot `newest` is refused.
fn behind(dir: &Path, recovered: &Recovered, newest: &SnapshotInfo) -> String {
    let held = if recovered.record_count() == 0 {
        format!(
            "the journal {} holds no records (emptied or deleted)",
            dir.display()
        )
    } else {
        format!(
            "the journal {} ends at record {}",
            dir.display(),
            recovered.next_record - 1
        )
    };
    format!(
        "{held} but snapshot {} (ledger {}) covers records through {}: acknowledged records {}..{} are missing",
        newest.path.display(),
        newest.ledger_seq,
        newest.through_record,
        recovered.next_record,
        newest.through_record
    )
}

/// Repairs a journal that ends before the snapshots `ahead` (oldest first): the newest of
/// them that loads holds more acknowledged records than the journal, so the journal starts
/// over after it (its segments set aside); when none loads they are set aside instead.
fn repair_behind(
    storage: &dyn Storage,
    dir: &Path,
    snapshots: &Snapshots,
    ahead: &[SnapshotInfo],
) -> Result<String, PersistError> {
    for info in ahead.iter().rev() {
        let usable = snapshots
            .load(info)
            .map_err(|e| e.to_string())
            .and_then(|s| decode_snapshot(&s.bytes).map(|_| ()));
        if let Err(e) = usable {
            tracing::warn!(file = %info.path.display(), error = %e, "journal repair: snapshot unusable");
            continue;
        }
        let aside = Journal::restart_at(storage, dir, info.through_record + 1)?;
        return Ok(format!(
            "the journal starts over at record {} after snapshot {} (ledger {}); set aside: {}",
            info.through_record + 1,
            info.path.display(),
            info.ledger_seq,
            names(&aside)
        ));
    }
    let mut aside = Vec::new();
    for info in ahead {
        let to = aside_path(&info.path);
        storage
            .rename(&info.path, &to)
            .map_err(|e| StoreError::io("rename", &info.path, e))?;
        aside.push(to);
    }
    Ok(format!(
        "no snapshot past the journal loads; set aside: {}",
        names(&aside)
    ))
}

fn names(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "nothing".to_owned();
    }
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

fn aside_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(DISCARDED_SUFFIX);
    PathBuf::from(name)
}

/// Picks the base and replays; returns the store and the last close replayed.
fn recover(
    recovered: &Recovered,
    snapshots: &Snapshots,
    infos: &[SnapshotInfo],
    cfg: LedgerConfig,
    history: u32,
    sink: &Option<ReplaySink>,
) -> Result<Outcome, PersistError> {
    // A snapshot is usable when the journal still holds every record after it and none
    // it claims is missing (a snapshot is written only after its record is durable).
    let mut usable = Vec::new();
    for i in infos {
        if i.through_record.saturating_add(1) < recovered.first_record {
            continue;
        }
        if i.through_record >= recovered.next_record {
            tracing::warn!(
                file = %i.path.display(),
                next_record = recovered.next_record,
                "recovery: skipping a snapshot that claims journal records the journal does not hold"
            );
            continue;
        }
        usable.push(i.clone());
    }
    let genesis_ok = recovered.first_record == 1 && recovered.next_record > 1;
    let newest = usable.last().map_or(0, |i| i.ledger_seq);
    // A sink wants every ledger the journal still reaches: the oldest base first.
    let target = if sink.is_some() {
        0
    } else {
        newest.saturating_sub(history)
    };
    let mut order: Vec<Base> = Vec::new();
    for i in usable.iter().rev().filter(|i| i.ledger_seq <= target) {
        order.push(Base::Snapshot(i.clone()));
    }
    if genesis_ok {
        order.push(Base::Genesis);
    }
    for i in usable.iter().filter(|i| i.ledger_seq > target) {
        order.push(Base::Snapshot(i.clone()));
    }
    let mut last_error = None;
    for base in order {
        let loaded = match &base {
            Base::Genesis => genesis_from_journal(recovered, cfg.clone()).map(|s| (s, 1)),
            Base::Snapshot(info) => {
                load_snapshot(snapshots, info, cfg.clone()).map(|s| (s, info.through_record))
            }
        };
        match loaded {
            Ok((store, through)) => {
                let mut state = Replaying::new(store);
                state.sink = sink.clone();
                if let Base::Snapshot(info) = &base {
                    tracing::info!(file = %info.path.display(), seq = info.ledger_seq, "recovery: loaded snapshot");
                    state.reverted_to = revert_at(recovered, through)?;
                }
                let jumps = Jumps {
                    snapshots,
                    infos: &usable,
                    cfg: cfg.clone(),
                };
                let (state, replayed) = replay(recovered, state, through, &jumps)?;
                let from = match &base {
                    Base::Genesis => "genesis".to_owned(),
                    Base::Snapshot(info) => format!("snapshot of ledger {}", info.ledger_seq),
                };
                return Ok(Outcome {
                    store: Arc::new(state.store),
                    last_close: state.last_close,
                    from: format!("{from}, then {replayed} journal records"),
                    open_log: state.open_log,
                    reverted_to: state.reverted_to,
                });
            }
            Err(e) => {
                tracing::warn!(error = %e, "recovery: base unusable, trying the next one");
                last_error = Some(e);
            }
        }
    }
    Err(last_error.unwrap_or_else(|| {
        PersistError::Recovery(format!(
            "no usable snapshot, and the journal no longer starts at genesis (oldest record {})",
            recovered.first_record
        ))
    }))
}

fn load_snapshot(
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

fn genesis_from_journal(recovered: &Recovered, cfg: LedgerConfig) -> Result<Ledgers, PersistError> {
    let first = recovered
        .replay_from(1)?
        .next()
        .ok_or_else(|| PersistError::Recovery("the journal is empty".into()))??;
    if first.kind != RecordKind::Meta {
        return Err(PersistError::Recovery(
            "journal record 1 is not the genesis record".into(),
        ));
    }
    let g = GenesisRecord::decode(&first.payload)
        .map_err(|e| PersistError::Recovery(format!("journal record 1 (genesis): {e}")))?;
    let mut cfg = cfg;
    if cfg.fees != g.fees || cfg.apply.network_id != g.network_id {
        tracing::warn!(
            "recovery: the ledger was created with other fees or network id than configured now; replaying with the recorded ones"
        );
        cfg.fees = g.fees;
        cfg.apply.network_id = g.network_id;
    }
    Ok(Ledgers::genesis(cfg, g.now))
}

/// The ledger a revert record numbered `record` went back to (None: another record).
fn revert_at(recovered: &Recovered, record: u64) -> Result<Option<u32>, PersistError> {
    if record < recovered.first_record || record >= recovered.next_record {
        return Ok(None);
    }
    let Some(first) = recovered.replay_from(record)?.next() else {
        return Ok(None);
    };
    let first = first?;
    if first.number != record || first.kind != RecordKind::Meta {
        return Ok(None);
    }
    Ok(RevertRecord::decode(&first.payload)
        .ok()
        .flatten()
        .map(|r| r.seq))
}

/// Where replay finds the snapshot a revert record names.
struct Jumps<'a> {
    snapshots: &'a Snapshots,
    infos: &'a [SnapshotInfo],
    cfg: LedgerConfig,
}

/// Replay's progress.
struct Replaying {
    store: Ledgers,
    last_close: LastClose,
    open_log: Vec<Vec<u8>>,
    reverted_to: Option<u32>,
    /// Records still to skip: those of a revert that never happened.
    skip: u32,
    txs: u64,
    closes: u64,
    /// Gets every ledger closed ([`PersistOptions::replay_sink`]).
    sink: Option<ReplaySink>,
}

impl Replaying {
    fn new(store: Ledgers) -> Replaying {
        Replaying {
            store,
            last_close: None,
            open_log: Vec::new(),
            reverted_to: None,
            skip: 0,
            txs: 0,
            closes: 0,
            sink: None,
        }
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

    /// A revert record: the store becomes the snapshot named after it; without that
    /// snapshot (a crash before it was written) the revert never happened, and the
    /// records it counts after itself are skipped.
    fn revert(&mut self, record: &Record, jumps: &Jumps<'_>) -> Result<(), PersistError> {
        let n = record.number;
        let rec = match RevertRecord::decode(&record.payload) {
            Ok(Some(rec)) => rec,
            Ok(None) => {
                return Err(PersistError::Recovery(format!(
                    "journal record {n}: a genesis record in the middle of the journal"
                )))
            }
            Err(e) => return Err(PersistError::Recovery(format!("journal record {n}: {e}"))),
        };
        let Some(info) = jumps.infos.iter().find(|i| i.through_record == n) else {
            tracing::warn!(
                record = n,
                ledger = rec.seq,
                "recovery: a revert whose snapshot was never written did not happen; skipping it"
            );
            self.skip = rec.following;
            return Ok(());
        };
        let store = load_snapshot(jumps.snapshots, info, jumps.cfg.clone())?;
        let hash = store.closed().ledger.map(|l| l.header.hash);
        if info.ledger_seq != rec.seq || hash != Some(rec.hash) {
            return Err(PersistError::Diverged {
                record: n,
                detail: format!(
                    "revert to ledger {} ({}): snapshot {} holds another ledger",
                    rec.seq,
                    rec.hash,
                    info.path.display()
                ),
            });
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
fn replay(
    recovered: &Recovered,
    mut state: Replaying,
    through: u64,
    jumps: &Jumps<'_>,
) -> Result<(Replaying, u64), PersistError> {
    let started = Instant::now();
    let quiet = Duration::from_millis(REPLAY_PROGRESS_QUIET_MILLIS);
    let replay = recovered.replay_after(through)?.with_progress_every(
        REPLAY_PROGRESS_LOG_RECORDS_INTERVAL,
        move |p| {
            if started.elapsed() >= quiet && p.done < p.total {
                tracing::info!("replaying the journal: {} of {} records", p.done, p.total);
            }
        },
    );
    let total = replay.total();
    for record in replay {
        let record = record?;
        if state.skip > 0 {
            state.skip -= 1;
            continue;
        }
        match record.kind {
            RecordKind::Transaction => state.transaction(&record)?,
            RecordKind::LedgerClose => state.close(&record)?,
            RecordKind::Meta => state.revert(&record, jumps)?,
        }
    }
    let (first, last) = state.store.complete_range();
    tracing::info!(
        records = total,
        transactions = state.txs,
        closes = state.closes,
        ledgers = %format!("{first}-{last}"),
        millis = started.elapsed().as_millis() as u64,
        "recovery: journal replayed"
    );
    Ok((state, total))
}
