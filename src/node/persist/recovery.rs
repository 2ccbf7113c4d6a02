//! Opening a data directory: pick a base (a snapshot, or the genesis record), replay the
//! journal after it through the engine (`replay.rs`), and check every replayed result and
//! ledger hash against what the journal recorded.
//!
//! The base is chosen to rebuild history: the newest usable snapshot at least
//! `history_ledgers` behind the newest snapshot (or a newer revert snapshot: no history
//! before a revert can be rebuilt), so after replay the last `history_ledgers` closed
//! ledgers (with their transactions, for `ledger`, `tx` and reads by index) exist again.
//! A damaged snapshot is skipped for the next best one; so is a base whose replay meets a
//! revert that happened but whose snapshot is lost (then only bases after that revert).
//!
//! Lost acknowledged records refuse to start ([`PersistError::Damaged`]): the journal
//! judges its own segments against its acknowledgement record (`store/damage.rs`); on top
//! of that, a snapshot covers only acknowledged records, so a journal ending before a
//! snapshot does lost some, a journal with no records in a directory whose `CREATED`
//! marker says a ledger was made there lost all, and a revert no base can replay past
//! loses what follows it. `repair_journal` starts anyway: the journal keeps its verified
//! prefix, starts over after a snapshot that holds more than it does, or is cut back to
//! before that revert; what was discarded is logged and kept in `Disk::repaired`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

use parking_lot::Mutex;

use super::format::{decode_snapshot, GenesisRecord, RevertAbandoned, RevertRecord};
use super::replay::{load_snapshot, replay, BrokenRevert, Jumps, LastClose, Replaying, Stop};
use super::{Disk, PersistError, PersistOptions, SnapshotStatus};
use crate::ledger::rules::{GenesisOrder, RuleBook};
use crate::ledgers::{LedgerConfig, Ledgers};
use crate::protocol::features::{Feature, FeatureSet};
use crate::store::{
    Journal, JournalOptions, RecordKind, Recovered, SnapshotInfo, Snapshots, Storage, StoreError,
};

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
    /// A revert record that ends the journal unfinished: it never happened, and an
    /// abandoned-revert record must say so before anything else is journaled.
    abandon: Option<u64>,
    /// Revert snapshots under a periodic snapshot's name, to rename.
    unmarked: Vec<SnapshotInfo>,
    /// A repair's cut: the journal from this revert record on goes.
    cut: Option<Cut>,
}

impl Outcome {
    fn of(state: Replaying, from: String) -> Outcome {
        Outcome {
            abandon: state.unfinished_revert(),
            store: Arc::new(state.store),
            last_close: state.last_close,
            from,
            open_log: state.open_log,
            reverted_to: state.reverted_to,
            unmarked: state.unmarked,
            cut: None,
        }
    }
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
    let history = options.history_ledgers.min(cfg.history_count);

    let outcome = if recovered.next_record == 1 && infos.is_empty() {
        new_ledger(dir, &journal, cfg, &options, &mut repaired)?
    } else {
        let mut cfg = cfg;
        cfg.rule_book = recorded_rules(dir, options.storage.as_ref(), cfg.rule_book)?;
        recover(&recovered, &snapshots, &infos, cfg, history, &options)?
    };
    let (journal, recovered) = settle(
        dir,
        &options,
        &snapshots,
        (journal, recovered),
        &outcome,
        &mut repaired,
    )?;

    mark_created(dir, options.storage.as_ref())?;
    let infos = snapshots.list()?;
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
            last_seq: infos.last().map_or(0, |i| i.ledger_seq),
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

/// A new directory (or a repair that kept nothing): genesis, recorded first. Unless the
/// directory says a ledger was created in it already: then its journal is gone.
fn new_ledger(
    dir: &Path,
    journal: &Journal,
    cfg: LedgerConfig,
    options: &PersistOptions,
    repaired: &mut Option<String>,
) -> Result<Outcome, PersistError> {
    if let Some(why) = created_before(dir, options.storage.as_ref())? {
        if !options.repair_journal {
            return Err(PersistError::Damaged(why));
        }
        tracing::warn!("journal repair: {why}; starting a new ledger");
        repaired.get_or_insert(why);
    }
    write_durably(
        dir,
        RULES,
        rules_text(&cfg.rule_book).as_bytes(),
        options.storage.as_ref(),
    )?;
    let now = super::genesis_time(&cfg);
    let g = GenesisRecord {
        now,
        fees: cfg.fees,
        network_id: cfg.apply.network_id,
    };
    journal.append(RecordKind::Meta, g.encode()).wait()?;
    tracing::info!(dir = %dir.display(), "created a new ledger (genesis)");
    Ok(Outcome {
        store: Arc::new(Ledgers::genesis(cfg, now)),
        last_close: None,
        from: "new ledger".to_owned(),
        open_log: Vec::new(),
        reverted_to: None,
        abandon: None,
        unmarked: Vec::new(),
        cut: None,
    })
}

/// Makes what recovery decided durable before anything else is journaled: a repair's cut
/// (the journal back to before the revert no replay gets past, the snapshots past it set
/// aside, the journal reopened), the abandoned-revert record for a revert that never
/// finished, and revert snapshots renamed as such.
fn settle(
    dir: &Path,
    options: &PersistOptions,
    snapshots: &Snapshots,
    (journal, recovered): (Journal, Recovered),
    outcome: &Outcome,
    repaired: &mut Option<String>,
) -> Result<(Journal, Recovered), PersistError> {
    let (journal, recovered) = match &outcome.cut {
        Some(cut) => {
            drop(journal);
            let note = cut_journal(dir, snapshots, &recovered, cut)?;
            tracing::warn!("journal repair: {note}");
            *repaired = Some(match repaired.take() {
                Some(before) => format!("{before}; {note}"),
                None => note,
            });
            let dir = dir.join("journal");
            Journal::open(options.storage.clone(), &dir, journal_options(options))?
        }
        None => (journal, recovered),
    };
    if let Some(record) = outcome.abandon {
        let marker = RevertAbandoned { record };
        journal.append(RecordKind::Meta, marker.encode()).wait()?;
        tracing::warn!(
            record,
            "recovery: the journal ended with a revert whose snapshot was never written (it was never answered): it did not happen; journaled that"
        );
    }
    for info in &outcome.unmarked {
        if let Err(e) = snapshots.mark_revert(info) {
            tracing::warn!(file = %info.path.display(), error = %e, "cannot rename a revert snapshot as one");
        }
    }
    Ok((journal, recovered))
}

/// Cuts the journal from `cut.record` on and sets aside the snapshots past it (none of
/// them was usable); returns what was discarded.
fn cut_journal(
    dir: &Path,
    snapshots: &Snapshots,
    recovered: &Recovered,
    cut: &Cut,
) -> Result<String, PersistError> {
    let mut aside = recovered.cut_from(&dir.join("journal"), cut.record)?;
    for info in snapshots.list()? {
        if info.through_record >= cut.record {
            aside.push(snapshots.set_aside(&info)?);
        }
    }
    Ok(format!(
        "{}; discarded journal records {}..{} (acknowledged): the journal goes on at record {}; set aside: {}",
        cut.damage,
        cut.record,
        recovered.next_record.saturating_sub(1),
        cut.record,
        names(&aside)
    ))
}

/// The journal's options for `options`.
fn journal_options(options: &PersistOptions) -> JournalOptions {
    JournalOptions {
        repair: options.repair_journal,
        ..options.journal.clone()
    }
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

/// Writes the `CREATED` marker if it is missing: once per data directory.
fn mark_created(dir: &Path, storage: &dyn Storage) -> Result<(), PersistError> {
    if storage.len(&dir.join(CREATED)).is_ok() {
        return Ok(());
    }
    write_durably(
        dir,
        CREATED,
        b"a ledger was created in this data directory; its journal holds it\n",
        storage,
    )
}

/// Writes `dir/name` whole or not at all (temporary file, fsync, rename, directory fsync).
fn write_durably(
    dir: &Path,
    name: &str,
    text: &[u8],
    storage: &dyn Storage,
) -> Result<(), PersistError> {
    let path = dir.join(name);
    let temp = dir.join(format!("{name}.tmp"));
    let io = |op: &'static str, p: &Path| {
        let p = p.to_path_buf();
        move |e| PersistError::from(StoreError::io(op, p, e))
    };
    let mut file = storage.create(&temp).map_err(io("create", &temp))?;
    file.write_all(text).map_err(io("write", &temp))?;
    file.sync_data().map_err(io("fdatasync", &temp))?;
    drop(file);
    storage.rename(&temp, &path).map_err(io("rename", &temp))?;
    storage.sync_dir(dir).map_err(io("sync_dir", dir))
}

/// The file holding the rule book a data directory's ledger was created with: its genesis
/// amendments and its presets, one line each (`genesis NAME...`, `presets NAME...`), and
/// `order mainnet` when the genesis Amendments entry lists them as mainnet enabled them
/// (no line: by ID). A restart replays the journal under those rules whatever the
/// configuration says now, so every ledger comes back with the hash it had. A directory
/// made before the file existed ran ledgerd's own rule book ([`RuleBook::default`]).
const RULES: &str = "RULES";

fn rules_text(book: &RuleBook) -> String {
    let names = |set: FeatureSet| {
        set.iter()
            .map(|f| f.name())
            .collect::<Vec<&str>>()
            .join(" ")
    };
    let order = match book.order {
        GenesisOrder::ById => "",
        GenesisOrder::Mainnet => "order mainnet\n",
    };
    format!(
        "genesis {}\npresets {}\n{order}",
        names(book.genesis),
        names(book.presets)
    )
}

fn parse_rules(text: &str) -> Option<RuleBook> {
    let mut book = RuleBook {
        presets: FeatureSet::EMPTY,
        genesis: FeatureSet::EMPTY,
        order: GenesisOrder::ById,
    };
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let set = match words.next()? {
            "genesis" => &mut book.genesis,
            "presets" => &mut book.presets,
            "order" if line.trim_end() == "order mainnet" => {
                book.order = GenesisOrder::Mainnet;
                continue;
            }
            _ => return None,
        };
        for name in words {
            set.insert(Feature::parse(name)?);
        }
    }
    Some(book)
}

/// The rule book `dir`'s ledger was created with (see [`RULES`]); a configured one that
/// differs is set aside, with a warning.
fn recorded_rules(
    dir: &Path,
    storage: &dyn Storage,
    configured: RuleBook,
) -> Result<RuleBook, PersistError> {
    let path = dir.join(RULES);
    let book = match storage.read(&path) {
        Ok(bytes) => parse_rules(&String::from_utf8_lossy(&bytes)).ok_or_else(|| {
            PersistError::Damaged(format!(
                "{} does not read as a rule book (or names an amendment this ledgerd does not know)",
                path.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => RuleBook::default(),
        Err(e) => return Err(StoreError::io("read", &path, e).into()),
    };
    if book != configured {
        tracing::warn!(
            file = %path.display(),
            "this ledger keeps the amendments it was created with; the configured ones apply to a new data directory"
        );
    }
    Ok(book)
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
    let deadline = std::time::Instant::now() + LOCK_WAIT;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(dir_err("in use by another ledgerd (LOCK is held)".into()));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(dir_err(format!("cannot lock it: {e}")));
            }
        }
    }
}

/// How long a start waits for a held `LOCK` before refusing. The lock belongs to the open
/// file, so a process forked by this one (a hook, a test's child server) holds a copy of
/// it until its `exec` closes it, and a server that is exiting holds it until it is gone:
/// a moment's wait tells those from a second server, which holds it for good.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

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
    let journal_options = journal_options(options);
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
        aside.push(snapshots.set_aside(info)?);
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

/// Where replay starts.
enum Base {
    Snapshot(SnapshotInfo),
    Genesis,
}

impl Base {
    /// The last journal record the base includes: replay continues after it.
    fn through(&self) -> u64 {
        match self {
            Base::Snapshot(info) => info.through_record,
            Base::Genesis => 1,
        }
    }

    fn describe(&self) -> String {
        match self {
            Base::Snapshot(info) => format!("snapshot of ledger {}", info.ledger_seq),
            Base::Genesis => "genesis".to_owned(),
        }
    }
}

/// The snapshots a replay can start from: the journal holds every record after each,
/// and none claims a record the journal does not hold (a snapshot is written only after
/// its record is durable). Journal order.
fn usable_snapshots(recovered: &Recovered, infos: &[SnapshotInfo]) -> Vec<SnapshotInfo> {
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
    usable
}

/// The bases to try, best first. The history base is the newest snapshot at least
/// `history` ledgers behind the newest one, or a newer revert snapshot (replay from further
/// back would continue from it anyway, and no history before it can be rebuilt): it, then
/// the older ones newest first; then genesis (when the journal starts there); then the
/// newer ones oldest first (less history, but a ledger).
fn base_order(usable: &[SnapshotInfo], genesis_ok: bool, history: u32) -> Vec<Base> {
    let newest = usable.last().map_or(0, |i| i.ledger_seq);
    let target = newest.saturating_sub(history);
    let at = usable
        .iter()
        .rposition(|i| i.revert || i.ledger_seq <= target);
    let (older, newer) = usable.split_at(at.map_or(0, |h| h + 1));
    let mut order: Vec<Base> = older.iter().rev().cloned().map(Base::Snapshot).collect();
    if genesis_ok {
        order.push(Base::Genesis);
    }
    order.extend(newer.iter().cloned().map(Base::Snapshot));
    order
}

/// Every base, the oldest first ([`PersistOptions::replay_sink`]).
fn oldest_first(usable: &[SnapshotInfo], genesis_ok: bool) -> Vec<Base> {
    let genesis = genesis_ok.then_some(Base::Genesis);
    genesis
        .into_iter()
        .chain(usable.iter().cloned().map(Base::Snapshot))
        .collect()
}

/// What a `--repair-journal` start cuts: the journal from a revert no replay gets past.
struct Cut {
    record: u64,
    damage: String,
}

/// Picks the base and replays; returns the store and the last close replayed. A base
/// whose replay meets a broken revert (see `replay.rs`) is given up for one after that
/// revert; when none works the start is refused as damage, or with `repair` the ledger
/// replayed up to the revert is kept and the journal cut there.
fn recover(
    recovered: &Recovered,
    snapshots: &Snapshots,
    infos: &[SnapshotInfo],
    cfg: LedgerConfig,
    history: u32,
    options: &PersistOptions,
) -> Result<Outcome, PersistError> {
    let (repair, sink) = (options.repair_journal, &options.replay_sink);
    let usable = usable_snapshots(recovered, infos);
    let genesis_ok = recovered.first_record == 1 && recovered.next_record > 1;
    let jumps = Jumps {
        snapshots,
        infos: &usable,
        cfg: cfg.clone(),
    };
    // Bases before a broken revert meet it too.
    let mut floor = 0;
    let mut broken: Vec<BrokenRevert> = Vec::new();
    let mut furthest: Option<(Box<Replaying>, String)> = None;
    let mut last_error = None;
    let order = match sink {
        // A sink wants every ledger the journal still reaches: the oldest base first.
        Some(_) => oldest_first(&usable, genesis_ok),
        None => base_order(&usable, genesis_ok, history),
    };
    for base in order {
        if base.through() < floor {
            continue;
        }
        let mut state = match load_base(recovered, snapshots, &base, cfg.clone()) {
            Ok(state) => state,
            Err(e) => {
                tracing::warn!(error = %e, "recovery: base unusable, trying the next one");
                last_error = Some(e);
                continue;
            }
        };
        state.sink = sink.clone();
        match replay(recovered, state, base.through(), &jumps) {
            Ok((state, replayed)) => {
                let mut from = format!("{}, then {replayed} journal records", base.describe());
                if !broken.is_empty() {
                    from.push_str(&format!(" (older bases unusable: {})", listed(&broken)));
                }
                return Ok(Outcome::of(state, from));
            }
            Err(Stop::Failed(e)) => return Err(e),
            Err(Stop::Broken(b, state)) => {
                tracing::warn!(base = %base.describe(), "recovery: {b}; trying a base after it");
                floor = b.record.saturating_add(1);
                if repair {
                    furthest = Some((state, base.describe()));
                }
                broken.push(b);
            }
        }
    }
    let Some(last) = broken.last() else {
        return Err(last_error.unwrap_or_else(|| {
            PersistError::Recovery(format!(
                "no usable snapshot, and the journal no longer starts at genesis (oldest record {})",
                recovered.first_record
            ))
        }));
    };
    let damage = format!(
        "{}: no replay gets past it, and no snapshot after it is usable",
        listed(&broken)
    );
    let Some((state, from)) = furthest.filter(|_| repair) else {
        return Err(PersistError::Damaged(damage));
    };
    let record = last.record;
    let mut outcome = Outcome::of(
        *state,
        format!("{from}, then the journal up to record {}", record - 1),
    );
    outcome.cut = Some(Cut { record, damage });
    Ok(outcome)
}

fn listed(broken: &[BrokenRevert]) -> String {
    let all: Vec<String> = broken.iter().map(ToString::to_string).collect();
    all.join("; ")
}

/// Loads a base: genesis from the journal's first record, or a snapshot (for a revert
/// snapshot, noting the ledger it went back to).
fn load_base(
    recovered: &Recovered,
    snapshots: &Snapshots,
    base: &Base,
    cfg: LedgerConfig,
) -> Result<Replaying, PersistError> {
    let info = match base {
        Base::Genesis => return Ok(Replaying::new(genesis_from_journal(recovered, cfg)?)),
        Base::Snapshot(info) => info,
    };
    let store = load_snapshot(snapshots, info, cfg)?;
    tracing::info!(file = %info.path.display(), seq = info.ledger_seq, "recovery: loaded snapshot");
    let mut state = Replaying::new(store);
    state.reverted_to = if info.revert {
        Some(info.ledger_seq)
    } else {
        let at = revert_at(recovered, info.through_record)?;
        if at.is_some() {
            state.unmarked.push(info.clone());
        }
        at
    };
    Ok(state)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_book_reads_back_as_written() {
        let mut book = RuleBook::default();
        book.genesis.insert(Feature::XRPFees);
        book.presets.remove(Feature::XRPFees);
        assert_eq!(parse_rules(&rules_text(&book)), Some(book));
        let empty = RuleBook {
            presets: FeatureSet::EMPTY,
            genesis: FeatureSet::EMPTY,
            order: GenesisOrder::ById,
        };
        assert_eq!(parse_rules(&rules_text(&empty)), Some(empty));
        let mainnet = RuleBook {
            order: GenesisOrder::Mainnet,
            ..book
        };
        assert!(rules_text(&mainnet).ends_with("order mainnet\n"));
        assert_eq!(parse_rules(&rules_text(&mainnet)), Some(mainnet));
        assert_eq!(parse_rules("order sideways\n"), None);
        assert_eq!(parse_rules("genesis NoSuchAmendment\n"), None);
        assert_eq!(parse_rules("amendments AMM\n"), None);
    }
}
