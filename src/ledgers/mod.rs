//! The ledgers: the shared state, memory's window of closed ledgers, and the open ledger
//! its single writer applies transactions to. Pure (no async runtime, no files, no
//! sockets); above the engine, below the renderings, the store and the node.
//!
//! ```text
//! let ledgers = Ledgers::genesis(LedgerConfig::default(), now_ripple_secs); // 1, 2 closed; 3 open
//! ledgers.apply(&tx) / ledgers.apply_verified(&tx, &blob, id) -> ApplyResult { ter, applied, id, entry, held, upstream_unknown }
//! ledgers.apply_submitted(&tx, &blob, id, fail_hard)                  // submit's fail_hard
//! ledgers.close(close_time_ripple_secs) -> Arc<ClosedLedger>          // ledger_accept
//! ledgers.current() / closed() / validated() / by_seq(n) / by_hash(&h) -> LedgerSnapshot
//! ledgers.tx(&id) -> Option<Arc<TxEntry>>; ledgers.open_txs(); ledgers.held()
//! ledgers.export_closed() / Ledgers::from_snapshot(cfg, header, entries)  // persistence
//! Ledgers::lazy_fork(cfg, header, source, prefetched)                // serve --fork-lazy
//! ledgers.into_follower(); ledgers.follow(snapshot)                  // a read node
//! ledgers.save_state() -> id; ledgers.revert(id) -> Arc<ClosedLedger>   // ledger_snapshot / ledger_revert
//! ```
//!
//! Readers call [`Ledgers::current`], [`Ledgers::closed`],
//! [`Ledgers::validated`], [`Ledgers::by_seq`] or [`Ledgers::by_hash`] and get
//! a [`LedgerSnapshot`]: a cheap, consistent view of exactly one ledger. The writer calls
//! [`Ledgers::apply`] and [`Ledgers::close`]; they serialize on an internal lock,
//! and readers never wait for them.
//!
//! A close re-applies the open ledger's transactions in rippled's canonical order
//! (`canonical`) when it differs from their arrival order, and retries held `ter`
//! transactions in the next open ledger. Memory keeps closed ledgers within a count and a
//! byte bound ([`LedgerConfig::history_count`], [`LedgerConfig::history_bytes_max`]), each
//! transaction in its binary forms only ([`TxEntry`]); older ledgers are the history
//! store's, one layer up.

mod canonical;
mod queueing;
mod saved;
pub mod txq;

pub use canonical::{canonical_order, tx_set_hash, Candidate};
pub use saved::{RevertError, SavedStates};

use std::collections::{BTreeSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use dashmap::DashMap;
use parking_lot::{Mutex, RwLock};

use crate::engine::entry::new_account_root;
use crate::engine::registry::ApplyInners;
use crate::engine::{apply_transaction, ApplyConfig, Ter};
use crate::ledger::fees::Fees;
use crate::ledger::flags::lt;
use crate::ledger::header::{
    effective_close_time, next_resolution, LedgerHeader, CLOSE_RESOLUTIONS_SECS,
};
use crate::ledger::keylet;
use crate::ledger::rules::{RuleBook, Rules, RulesError};
use crate::ledger::sf::sf;
use crate::ledger::shamap::{state_leaf_hash, tx_leaf_hash, ShaMap};
use crate::ledger::skip::skip_list_writes;
use crate::ledger::state::{stamp, stamp_closed, EntrySource, State};
use crate::ledger::view::{ReadView, StateView, ViewInfo};
use crate::protocol::amount::{Amount, DROPS_MAX};
use crate::protocol::codec;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::tx::transaction_id;
use crate::protocol::types::{AccountId, Hash256};

/// The genesis account, `rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh` (passphrase
/// `masterpassphrase`, secp256k1).
pub const GENESIS_ACCOUNT: AccountId = AccountId([
    0xB5, 0xF7, 0x62, 0x79, 0x8A, 0x53, 0xD5, 0x43, 0xA0, 0x14, 0xCA, 0xF8, 0xB2, 0x97, 0xCF, 0xF8,
    0xF2, 0xF9, 0x37, 0xE8,
]);

/// Why a snapshot was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// The header's fields do not hash to its hash.
    #[error("ledger header hash mismatch")]
    HeaderHash,
    /// The entries do not hash to the header's account hash.
    #[error("state does not match the header's account hash")]
    AccountHash,
    /// An entry's bytes do not decode.
    #[error("entry {0} does not decode: {1}")]
    Entry(Hash256, String),
    /// The Amendments entry enables amendments ledgerd cannot apply.
    #[error("{0}")]
    Rules(#[from] RulesError),
}

/// The fee schedule a FeeSettings entry records (legacy or XRPFees fields).
pub fn fees_of(o: &StObject, default: Fees) -> Fees {
    use crate::ledger::sf::StExt;
    let s = sf();
    let drops = |name: &str| match o.get(crate::protocol::definitions::Field::named(name)) {
        Some(StValue::Amount(Amount::Xrp(d))) => u64::try_from(*d).ok(),
        _ => None,
    };
    if let Some(base_drops) = drops("BaseFeeDrops") {
        // The XRPFees form (rippled `Ledger::setup`).
        return Fees {
            base_drops,
            reserve_base_drops: drops("ReserveBaseDrops").unwrap_or(default.reserve_base_drops),
            reserve_inc_drops: drops("ReserveIncrementDrops").unwrap_or(default.reserve_inc_drops),
        };
    }
    Fees {
        base_drops: o.u64_of(s.base_fee).unwrap_or(default.base_drops),
        reserve_base_drops: o
            .u32_of(s.reserve_base)
            .map(u64::from)
            .unwrap_or(default.reserve_base_drops),
        reserve_inc_drops: o
            .u32_of(s.reserve_increment)
            .map(u64::from)
            .unwrap_or(default.reserve_inc_drops),
    }
}

/// A genesis FeeSettings entry: the XRPFees form (`BaseFeeDrops`, `ReserveBaseDrops`,
/// `ReserveIncrementDrops`) when the genesis ledger records XRPFees, else the legacy one
/// (`BaseFee`, `ReferenceFeeUnits` 10, `ReserveBase`, `ReserveIncrement`), as rippled's.
fn genesis_fees(fees: Fees, xrp_fees: bool) -> StObject {
    let s = sf();
    let mut o = crate::engine::entry::new_entry(lt::FEE_SETTINGS);
    if xrp_fees {
        let field = crate::protocol::definitions::Field::named;
        let drops = |d: u64| StValue::Amount(Amount::Xrp(d.min(DROPS_MAX) as i64));
        o.set(field("BaseFeeDrops"), drops(fees.base_drops));
        o.set(field("ReserveBaseDrops"), drops(fees.reserve_base_drops));
        o.set(
            field("ReserveIncrementDrops"),
            drops(fees.reserve_inc_drops),
        );
        return o;
    }
    o.set(s.base_fee, StValue::UInt64(fees.base_drops));
    o.set(
        s.reference_fee_units,
        StValue::UInt32(crate::limits::FEE_BASE_DROPS_DEFAULT as u32),
    );
    let clamp = |v: u64| v.min(u32::MAX as u64) as u32;
    o.set(
        s.reserve_base,
        StValue::UInt32(clamp(fees.reserve_base_drops)),
    );
    o.set(
        s.reserve_increment,
        StValue::UInt32(clamp(fees.reserve_inc_drops)),
    );
    o
}

/// How the store is set up.
#[derive(Clone)]
pub struct LedgerConfig {
    /// Fee schedule written into the genesis FeeSettings.
    pub fees: Fees,
    /// Engine settings (network ID, in-engine signature checks).
    pub apply: ApplyConfig,
    /// Closed ledgers kept readable.
    pub history_count: u32,
    /// What those ledgers may hold in memory, in bytes ([`ClosedLedger::retained_bytes`]);
    /// the oldest leave first, down to [`crate::limits::LEDGER_HISTORY_COUNT_MIN`].
    pub history_bytes_max: u64,
    /// Deterministic close times (`serve --start-time`): genesis closes ledger 2 at the
    /// start time and every close not given a time advances by the step. None: the clock.
    pub fixed_clock: Option<FixedClock>,
    /// The amendments a genesis ledger records and the presets every ledger's rules hold
    /// (a snapshot or a fork takes its Amendments entry, with these presets).
    pub rule_book: RuleBook,
    /// The transaction queue's settings (`[transaction_queue]`).
    pub tx_queue: txq::TxQSetup,
}

/// A fixed close-time clock: where it starts and how far each close advances it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedClock {
    /// Ledger 2's close time (seconds since the ripple epoch).
    pub start: u32,
    /// Seconds each close advances the requested close time.
    pub step_secs: u32,
}

impl Default for LedgerConfig {
    fn default() -> LedgerConfig {
        LedgerConfig {
            fees: Fees::default(),
            apply: ApplyConfig::default(),
            history_count: crate::limits::LEDGER_HISTORY_COUNT,
            history_bytes_max: crate::limits::LEDGER_HISTORY_BYTES_MAX,
            fixed_clock: None,
            rule_book: RuleBook::default(),
            tx_queue: txq::TxQSetup::default(),
        }
    }
}

/// A transaction in a ledger, with its result, kept in its binary forms only: the
/// signed blob and the serialized metadata (about 0.75 KB for a payment, where the
/// decoded pair took about 12.5 KB). The metadata bytes are the ones the ledger's
/// transaction tree hashes, the history store writes and the streams render from; the
/// decoded forms are made when asked ([`TxEntry::tx`], [`TxEntry::meta`]) and not kept.
#[derive(Debug, Clone)]
pub struct TxEntry {
    /// Transaction ID.
    pub id: Hash256,
    /// Its signed binary form.
    pub blob: Arc<[u8]>,
    /// Its metadata, serialized.
    pub meta_blob: Arc<[u8]>,
    /// Result (tes or tec).
    pub ter: Ter,
    /// Ledger it is in.
    pub ledger_seq: u32,
    /// Position in that ledger.
    pub index: u32,
    /// What a payment delivered (for `delivered_amount`).
    pub delivered: Option<Amount>,
}

impl TxEntry {
    /// The entry of a transaction applied at `index` of ledger `ledger_seq` with `meta`.
    pub fn new(id: Hash256, blob: Arc<[u8]>, meta: &StObject, at: TxPosition) -> TxEntry {
        TxEntry {
            id,
            blob,
            meta_blob: Arc::from(codec::encode(meta)),
            ter: at.ter,
            ledger_seq: at.ledger_seq,
            index: at.index,
            delivered: at.delivered,
        }
    }

    /// The transaction, decoded from its blob (an empty object if the blob, made by this
    /// server's encoder or read from its own store, did not decode).
    pub fn tx(&self) -> Arc<StObject> {
        Arc::new(codec::decode(&self.blob).unwrap_or_default())
    }

    /// The metadata, decoded (empty if the bytes did not decode, as [`TxEntry::tx`]).
    pub fn meta(&self) -> StObject {
        codec::decode(&self.meta_blob).unwrap_or_default()
    }

    /// Both forms decoded once, for the renderings and indexes that read both.
    pub fn decoded(&self) -> DecodedTx<'_> {
        DecodedTx {
            entry: self,
            tx: self.tx(),
            meta: self.meta(),
        }
    }
}

/// A [`TxEntry`] with its transaction and metadata decoded: what a stream message, a
/// history row's account index and the order-book index read, decoded once for all of
/// them. It reads as the entry it borrows (`decoded.ter`, `decoded.id`).
pub struct DecodedTx<'a> {
    /// The entry.
    pub entry: &'a TxEntry,
    /// Its transaction.
    pub tx: Arc<StObject>,
    /// Its metadata.
    pub meta: StObject,
}

impl std::ops::Deref for DecodedTx<'_> {
    type Target = TxEntry;

    fn deref(&self) -> &TxEntry {
        self.entry
    }
}

/// Where and how a transaction applied: what [`TxEntry::new`] records beside its forms.
#[derive(Debug, Clone, Copy)]
pub struct TxPosition {
    /// Result (tes or tec).
    pub ter: Ter,
    /// Ledger it is in.
    pub ledger_seq: u32,
    /// Position in that ledger.
    pub index: u32,
    /// What a payment delivered.
    pub delivered: Option<Amount>,
}

/// A closed ledger.
pub struct ClosedLedger {
    /// Its header.
    pub header: LedgerHeader,
    /// Its transactions, in order.
    pub txs: Vec<Arc<TxEntry>>,
    /// Fees in force.
    pub fees: Fees,
    /// The amendments it was applied under.
    pub rules: Rules,
    /// The close time `close` was asked for, before rounding (replay passes it again;
    /// the header's rounded time would not always round to itself).
    pub close_time_requested: u32,
    state_map: ShaMap,
    /// Transactions held for retry when this ledger closed, before the retry into the
    /// next open ledger, with the last ledger each may be retried in: what a snapshot of
    /// this ledger needs to rebuild the next open ledger exactly.
    held_at_close: Vec<(Arc<StObject>, u32)>,
    /// The entries this ledger changed, as it left them: what the history store keeps.
    pub changes: LedgerChanges,
}

/// The entries a closed ledger changed, in their binary form, as it left them (None:
/// deleted). The close encodes each changed entry to hash it; the bytes are kept here.
#[derive(Default)]
pub struct LedgerChanges {
    /// Key and binary entry, in key order (the bytes are the state's own, shared).
    pub entries: Vec<(Hash256, Option<Arc<[u8]>>)>,
    /// True when `entries` is the whole state (genesis, or a ledger rebuilt from a
    /// snapshot), not only what changed.
    pub whole_state: bool,
}

impl LedgerChanges {
    fn whole(entries: Vec<(Hash256, Option<Arc<[u8]>>)>) -> LedgerChanges {
        LedgerChanges {
            entries,
            whole_state: true,
        }
    }

    /// The whole state these entries make, and its SHAMap.
    fn whole_with_map<'a>(
        entries: impl IntoIterator<Item = (&'a Hash256, &'a StObject)>,
    ) -> (LedgerChanges, ShaMap) {
        let mut map = ShaMap::new();
        let mut rows = Vec::new();
        for (k, v) in entries {
            let bytes = codec::encode(v);
            map.insert(*k, state_leaf_hash(k, &bytes));
            rows.push((*k, Some(Arc::from(bytes))));
        }
        rows.sort_by_key(|r| r.0);
        (LedgerChanges::whole(rows), map)
    }
}

impl ClosedLedger {
    /// A ledger read back from the history store: its header and fee schedule. Its
    /// transactions and entries stay in the store (read them there and through a stored
    /// [`StateView`]).
    pub fn stored(header: LedgerHeader, fees: Fees, rules: Rules) -> ClosedLedger {
        ClosedLedger::stored_with_txs(header, fees, rules, Vec::new())
    }

    /// [`ClosedLedger::stored`] with its transactions read back too (a read node's newest
    /// ledger, which it publishes and serves as the current one).
    pub fn stored_with_txs(
        header: LedgerHeader,
        fees: Fees,
        rules: Rules,
        txs: Vec<Arc<TxEntry>>,
    ) -> ClosedLedger {
        ClosedLedger {
            close_time_requested: header.close_time,
            header,
            txs,
            fees,
            rules,
            state_map: ShaMap::new(),
            held_at_close: Vec::new(),
            changes: LedgerChanges::default(),
        }
    }

    /// The transactions held for retry when this ledger closed (before the retry into
    /// the next open ledger), each with the last ledger it may be retried in.
    pub fn held_at_close(&self) -> &[(Arc<StObject>, u32)] {
        &self.held_at_close
    }

    /// An estimate of the bytes this ledger keeps in memory: its transactions' blobs and
    /// metadata with their entries, and the entries it changed (their serialized forms,
    /// once here and once as the state's superseded version, with the SHAMap's share).
    pub fn retained_bytes(&self) -> u64 {
        use crate::limits::{CHANGED_ENTRY_OVERHEAD_BYTES, TX_ENTRY_OVERHEAD_BYTES};
        let txs: usize = self
            .txs
            .iter()
            .map(|t| t.blob.len() + t.meta_blob.len() + TX_ENTRY_OVERHEAD_BYTES)
            .sum();
        let changes: usize = self
            .changes
            .entries
            .iter()
            .map(|(_, b)| b.as_ref().map_or(0, |b| b.len()) + CHANGED_ENTRY_OVERHEAD_BYTES)
            .sum();
        (txs + changes) as u64
    }
}

/// What a last closed ledger read from outside (a snapshot, a fork) is: its header, its
/// fee schedule and its rules.
struct ClosedParts {
    header: LedgerHeader,
    fees: Fees,
    rules: Rules,
}

/// A consistent read view of one ledger.
#[derive(Clone)]
pub struct LedgerSnapshot {
    /// Entries of that ledger.
    pub view: StateView,
    /// The closed ledger (None for the open ledger).
    pub ledger: Option<Arc<ClosedLedger>>,
}

impl LedgerSnapshot {
    /// The ledger's sequence.
    pub fn seq(&self) -> u32 {
        use crate::ledger::view::ReadView;
        self.view.info().seq
    }
    /// True for a closed ledger.
    pub fn is_closed(&self) -> bool {
        self.ledger.is_some()
    }
}

/// What applying one transaction did, for the caller's reply.
#[derive(Debug, Clone)]
pub struct ApplyResult {
    /// Result code.
    pub ter: Ter,
    /// True when it is in the open ledger (tes or tec).
    pub applied: bool,
    /// Transaction ID.
    pub id: Hash256,
    /// The entry recorded (when applied).
    pub entry: Option<Arc<TxEntry>>,
    /// True when the engine's ter result was kept (and journaled) to retry after the
    /// next close (rippled holds such transactions and applies them to the next open
    /// ledger). A ter the queue gave is kept as a local transaction instead, unjournaled.
    pub held: bool,
    /// True when a lazy fork's upstream could not say what an entry the transaction read
    /// is: nothing of it is kept (`tefFAILURE`), and its result is unknowable.
    pub upstream_unknown: bool,
    /// True when the transaction queue holds it (`terQUEUED`): not applied, not
    /// journaled; it applies from the queue to a later open ledger, or expires.
    pub queued: bool,
}

impl ApplyResult {
    /// Not applied, not held, not queued: `ter` is final.
    pub fn refused(ter: Ter, id: Hash256) -> ApplyResult {
        ApplyResult {
            ter,
            applied: false,
            id,
            entry: None,
            held: false,
            upstream_unknown: false,
            queued: false,
        }
    }
}

/// The last open ledger a transaction submitted into open ledger `open_seq` is retried
/// into: [`crate::limits::HELD_TX_LEDGERS`] on, or its LastLedgerSequence if sooner.
fn held_until(open_seq: u32, tx: &StObject) -> u32 {
    let hold_until = open_seq.saturating_add(crate::limits::HELD_TX_LEDGERS);
    match tx.get(sf().last_ledger_sequence) {
        Some(StValue::UInt32(last)) => hold_until.min(*last),
        _ => hold_until,
    }
}

/// A transaction that got a retry (ter) result, kept for the next open ledgers.
#[derive(Clone)]
struct Held {
    tx: Arc<StObject>,
    blob: Arc<[u8]>,
    id: Hash256,
    /// Last open ledger it may be retried in.
    until_seq: u32,
}

#[derive(Clone)]
struct Open {
    info: ViewInfo,
    txs: Vec<Arc<TxEntry>>,
    dirty: BTreeSet<Hash256>,
    fees_destroyed: u64,
    held: Vec<Held>,
    queue: queueing::Queue,
}

/// What [`Ledgers::counts`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryCounts {
    /// Closed ledgers memory's window holds.
    pub closed_ledgers: usize,
    /// Keys the state holds (each key once, whatever its versions).
    pub state_keys: usize,
    /// Decoded entries cached.
    pub decoded_entries: usize,
}

/// The state, its history and the open ledger.
pub struct Ledgers {
    state: Arc<State>,
    cfg: LedgerConfig,
    history: RwLock<VecDeque<Arc<ClosedLedger>>>,
    /// The bytes `history` holds ([`ClosedLedger::retained_bytes`], summed).
    window_bytes: AtomicU64,
    open_info: RwLock<ViewInfo>,
    txs: DashMap<Hash256, Arc<TxEntry>>,
    writer: Mutex<Open>,
    saved: Mutex<SavedStates>,
    /// A read node's ledgers: no open ledger and no closed history of their own; the
    /// current, closed and validated ledger are all `tip`, the newest the shared database
    /// holds (also what `by_seq` and `by_hash` find), and every other ledger is read from
    /// the database.
    follower: bool,
    tip: RwLock<Option<LedgerSnapshot>>,
}

impl Ledgers {
    /// A standalone store: genesis ledger 1, ledger 2 closed at `now` (seconds since the
    /// ripple epoch), ledger 3 open, as rippled's `startGenesisLedger`.
    pub fn genesis(cfg: LedgerConfig, now: u32) -> Ledgers {
        let state = Arc::new(State::new());
        let book = cfg.rule_book;
        let root = new_account_root(&GENESIS_ACCOUNT, DROPS_MAX as i64, 1);
        let mut writes = vec![(keylet::account(&GENESIS_ACCOUNT), Some(Arc::new(root)))];
        if !book.genesis.is_empty() {
            let mut amendments = crate::engine::entry::new_entry(lt::AMENDMENTS);
            amendments.set(
                crate::ledger::rules::amendments_field(),
                StValue::Vector256(book.genesis_ids()),
            );
            writes.push((keylet::amendments(), Some(Arc::new(amendments))));
        }
        // Whether XRPFees is in the recorded amendments decides the form (rippled's
        // create_genesis Ledger constructor); a preset does not.
        let xrp_fees = book.genesis.contains(Feature::XRPFees);
        writes.push((
            keylet::fees(),
            Some(Arc::new(genesis_fees(cfg.fees, xrp_fees))),
        ));
        let (changes, map) = LedgerChanges::whole_with_map(
            writes.iter().filter_map(|(k, v)| Some((k, v.as_deref()?))),
        );
        state.commit(stamp(1, 0), writes);
        state.close(1, 1);
        let mut header = LedgerHeader {
            seq: 1,
            total_drops: DROPS_MAX,
            parent_hash: Hash256::ZERO,
            transaction_hash: Hash256::ZERO,
            account_hash: map.hash(),
            parent_close_time: 0,
            close_time: 0,
            close_time_resolution: CLOSE_RESOLUTIONS_SECS[0],
            close_flags: 0,
            hash: Hash256::ZERO,
        };
        header.hash = header.compute_hash();
        let rules = book.genesis_rules();
        let genesis = Arc::new(ClosedLedger {
            header,
            txs: Vec::new(),
            fees: cfg.fees,
            rules,
            close_time_requested: 0,
            state_map: map,
            held_at_close: Vec::new(),
            changes,
        });
        let info = ViewInfo {
            seq: 2,
            parent_close_time: 0,
            fees: cfg.fees,
            open: true,
            parent_hash: genesis.header.hash,
            rules,
        };
        let store = Ledgers::around(cfg, state, genesis, info);
        store.close(now);
        store.queue_from_scratch();
        store
    }

    /// A store whose history is the one closed ledger `last`, with `info`'s ledger open
    /// and empty: where genesis and a snapshot both start.
    fn around(
        cfg: LedgerConfig,
        state: Arc<State>,
        last: Arc<ClosedLedger>,
        info: ViewInfo,
    ) -> Ledgers {
        Ledgers {
            state,
            window_bytes: AtomicU64::new(last.retained_bytes()),
            history: RwLock::new(VecDeque::from([last])),
            open_info: RwLock::new(info),
            txs: DashMap::new(),
            writer: Mutex::new(Open {
                info,
                txs: Vec::new(),
                dirty: BTreeSet::new(),
                fees_destroyed: 0,
                held: Vec::new(),
                queue: queueing::Queue::new(cfg.tx_queue.clone()),
            }),
            saved: Mutex::new(SavedStates::default()),
            cfg,
            follower: false,
            tip: RwLock::new(None),
        }
    }

    /// These ledgers as a read node's: their own history is dropped, and the ledger
    /// [`Ledgers::follow`] is given becomes the current, closed and validated one.
    pub fn into_follower(mut self) -> Ledgers {
        self.history.write().clear();
        self.window_bytes.store(0, Ordering::Release);
        self.txs.clear();
        self.follower = true;
        self
    }

    /// True for a read node's ledgers ([`Ledgers::into_follower`]).
    pub fn is_follower(&self) -> bool {
        self.follower
    }

    /// Makes `snap` (a closed ledger read from the database) the newest ledger.
    pub fn follow(&self, snap: LedgerSnapshot) {
        *self.tip.write() = Some(snap);
    }

    /// A read node's newest ledger, once it has one.
    pub fn tip(&self) -> Option<LedgerSnapshot> {
        self.tip.read().clone()
    }

    /// The follower's tip, when these are a follower's ledgers and it has one.
    fn followed(&self) -> Option<LedgerSnapshot> {
        if self.follower {
            self.tip()
        } else {
            None
        }
    }

    /// Every entry of the last closed ledger, with its header: what a snapshot stores.
    pub fn export_closed(&self) -> (LedgerHeader, Vec<(Hash256, Arc<StObject>)>) {
        let snap = self.closed();
        let header = match &snap.ledger {
            Some(l) => l.header.clone(),
            None => return (Self::empty_header(), Vec::new()),
        };
        let mut entries = Vec::new();
        snap.view.for_each(|k, v| entries.push((*k, v.clone())));
        entries.sort_by_key(|e| e.0);
        (header, entries)
    }

    /// Rebuilds a store whose last closed ledger is `header` with these entries (a
    /// snapshot), the next ledger open. Fails when the entries do not hash to the header's
    /// account hash, or the header's own hash does not check.
    pub fn from_snapshot(
        cfg: LedgerConfig,
        header: LedgerHeader,
        entries: Vec<(Hash256, StObject)>,
    ) -> Result<Ledgers, SnapshotError> {
        let stored = entries
            .into_iter()
            .map(|(k, v)| (k, codec::encode(&v)))
            .collect();
        Ledgers::from_snapshot_bytes(cfg, header, stored)
    }

    /// [`Ledgers::from_snapshot`] from the entries' serialized forms, as a snapshot file
    /// holds them: the state keeps these bytes (each entry is decoded once, to check it
    /// and to find the fee schedule and the order books, and not kept decoded).
    pub fn from_snapshot_bytes(
        cfg: LedgerConfig,
        header: LedgerHeader,
        entries: Vec<(Hash256, Vec<u8>)>,
    ) -> Result<Ledgers, SnapshotError> {
        if header.compute_hash() != header.hash {
            return Err(SnapshotError::HeaderHash);
        }
        let mut map = ShaMap::new();
        let (mut fees, mut books, mut nft_pages) = (cfg.fees, Vec::new(), Vec::new());
        let mut rules = Rules::from_entry(cfg.rule_book.presets, None)?;
        let mut rows: Vec<(Hash256, Arc<[u8]>)> = Vec::with_capacity(entries.len());
        for (k, bytes) in entries {
            let entry =
                codec::decode(&bytes).map_err(|e| SnapshotError::Entry(k, e.to_string()))?;
            if k == keylet::fees() {
                fees = fees_of(&entry, fees);
            }
            if k == keylet::amendments() {
                rules = Rules::from_entry(cfg.rule_book.presets, Some(&entry))?;
            }
            if crate::ledger::book_index::is_book_root(&entry) {
                books.push(k);
            } else if crate::ledger::book_index::is_nft_page(&entry) {
                nft_pages.push(k);
            }
            map.insert(k, state_leaf_hash(&k, &bytes));
            rows.push((k, Arc::from(bytes)));
        }
        if map.hash() != header.account_hash {
            return Err(SnapshotError::AccountHash);
        }
        rows.sort_unstable_by_key(|r| r.0);
        let changes =
            LedgerChanges::whole(rows.iter().map(|(k, b)| (*k, Some(b.clone()))).collect());
        let state = Arc::new(State::new());
        state.commit_stored(stamp(header.seq, 0), rows, &books, &nft_pages);
        state.close(header.seq, header.seq);
        let parts = ClosedParts {
            header,
            fees,
            rules,
        };
        Ok(Ledgers::over_closed(cfg, state, parts, map, changes))
    }

    /// Ledgers whose last closed ledger is `header` (with no transactions of its own here)
    /// and whose open ledger follows it: what a snapshot or a fork starts from.
    fn over_closed(
        cfg: LedgerConfig,
        state: Arc<State>,
        parts: ClosedParts,
        state_map: ShaMap,
        changes: LedgerChanges,
    ) -> Ledgers {
        let ClosedParts {
            header,
            fees,
            rules,
        } = parts;
        let info = ViewInfo {
            seq: header.seq.saturating_add(1),
            parent_close_time: header.close_time,
            fees,
            open: true,
            parent_hash: header.hash,
            rules,
        };
        let closed = Arc::new(ClosedLedger {
            close_time_requested: header.close_time,
            header,
            txs: Vec::new(),
            fees,
            rules,
            state_map,
            held_at_close: Vec::new(),
            changes,
        });
        Ledgers::around(cfg, state, closed, info)
    }

    /// A lazy fork of the ledger `header` names: entries are read from `source` on first
    /// use (`State::lazy`); `prefetched` (at least every book directory, so order books
    /// can be walked in key order) is written as that ledger's. The fee schedule is its
    /// FeeSettings entry's. The state's SHAMap starts empty: ledgers closed on top hash
    /// only the entries the fork changed (docs/compat.md, "Forking").
    pub fn lazy_fork(
        cfg: LedgerConfig,
        header: LedgerHeader,
        source: Arc<dyn EntrySource>,
        prefetched: Vec<(Hash256, StObject)>,
    ) -> Result<Ledgers, SnapshotError> {
        if header.compute_hash() != header.hash {
            return Err(SnapshotError::HeaderHash);
        }
        let state = Arc::new(State::lazy(source, header.seq));
        let writes = prefetched.into_iter().map(|(k, v)| (k, Some(Arc::new(v))));
        state.commit(stamp(header.seq, 0), writes);
        state.close(header.seq, header.seq);
        let at = stamp_closed(header.seq);
        let fees = match state.read_at(&keylet::fees(), at) {
            Some(o) => fees_of(&o, cfg.fees),
            None => cfg.fees,
        };
        // The upstream's Amendments entry, with the configured presets.
        let amendments = state.read_at(&keylet::amendments(), at);
        let rules = Rules::from_entry(cfg.rule_book.presets, amendments.as_deref())?;
        // Read now, while the upstream answers: every close updates the skip lists.
        state.read_at(&keylet::skip(), at);
        state.read_at(&keylet::skip_long(header.seq.saturating_add(1)), at);
        let parts = ClosedParts {
            header,
            fees,
            rules,
        };
        Ok(Ledgers::over_closed(
            cfg,
            state,
            parts,
            ShaMap::new(),
            LedgerChanges::default(),
        ))
    }

    /// True for a lazy fork ([`Ledgers::lazy_fork`]): walks over every entry of a ledger
    /// in memory see only what was read or written.
    pub fn is_lazy(&self) -> bool {
        self.state.is_lazy()
    }

    /// Reads a lazy fork's upstream could not answer so far.
    pub fn lazy_failures(&self) -> u64 {
        self.state.lazy_failures()
    }

    /// [`Ledgers::from_snapshot`], then the transactions that were held when that
    /// ledger closed (`ClosedLedger::held_at_close`) are retried into the new open ledger
    /// exactly as `close` retried them, so the store continues as the original did.
    pub fn from_snapshot_with_held(
        cfg: LedgerConfig,
        header: LedgerHeader,
        entries: Vec<(Hash256, Vec<u8>)>,
        held: Vec<(StObject, u32)>,
    ) -> Result<Ledgers, SnapshotError> {
        let store = Ledgers::from_snapshot_bytes(cfg, header, entries)?;
        {
            let mut open = store.writer.lock();
            open.held = held
                .into_iter()
                .map(|(tx, until_seq)| {
                    let blob = codec::encode(&tx);
                    Held {
                        id: transaction_id(&blob),
                        blob: Arc::from(blob.as_slice()),
                        tx: Arc::new(tx),
                        until_seq,
                    }
                })
                .collect();
            if let Some(last) = store.history.write().back_mut() {
                if let Some(l) = Arc::get_mut(last) {
                    l.held_at_close = open
                        .held
                        .iter()
                        .map(|h| (h.tx.clone(), h.until_seq))
                        .collect();
                }
            }
            store.retry_held(&mut open);
        }
        Ok(store)
    }

    fn empty_header() -> LedgerHeader {
        LedgerHeader {
            seq: 0,
            total_drops: 0,
            parent_hash: Hash256::ZERO,
            transaction_hash: Hash256::ZERO,
            account_hash: Hash256::ZERO,
            parent_close_time: 0,
            close_time: 0,
            close_time_resolution: 0,
            close_flags: 0,
            hash: Hash256::ZERO,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &LedgerConfig {
        &self.cfg
    }

    /// The fee schedule of the open ledger.
    pub fn fees(&self) -> Fees {
        if let Some(tip) = self.followed() {
            return tip.view.info().fees;
        }
        self.open_info.read().fees
    }

    /// The rules of the open ledger.
    pub fn rules(&self) -> Rules {
        if let Some(tip) = self.followed() {
            return tip.view.info().rules;
        }
        self.open_info.read().rules
    }

    /// The open ledger, as of the last applied transaction.
    pub fn current(&self) -> LedgerSnapshot {
        if let Some(tip) = self.followed() {
            return tip;
        }
        let info = *self.open_info.read();
        LedgerSnapshot {
            view: StateView::new(self.state.clone(), self.state.published(), info),
            ledger: None,
        }
    }

    fn snapshot_of(&self, l: &Arc<ClosedLedger>) -> LedgerSnapshot {
        let info = ViewInfo {
            seq: l.header.seq,
            parent_close_time: l.header.parent_close_time,
            fees: l.fees,
            open: false,
            parent_hash: l.header.parent_hash,
            rules: l.rules,
        };
        LedgerSnapshot {
            view: StateView::new(self.state.clone(), stamp_closed(l.header.seq), info),
            ledger: Some(l.clone()),
        }
    }

    /// The last closed ledger.
    pub fn closed(&self) -> LedgerSnapshot {
        if let Some(tip) = self.followed() {
            return tip;
        }
        let h = self.history.read();
        let last = h.back().cloned();
        drop(h);
        match last {
            Some(l) => self.snapshot_of(&l),
            None => self.current(),
        }
    }

    /// The last validated ledger (standalone: the last closed one).
    pub fn validated(&self) -> LedgerSnapshot {
        self.closed()
    }

    /// A closed ledger in history, by sequence.
    pub fn by_seq(&self, seq: u32) -> Option<LedgerSnapshot> {
        if self.follower {
            return self.tip().filter(|t| t.seq() == seq);
        }
        let l = {
            let h = self.history.read();
            let first = h.front()?.header.seq;
            h.get(seq.checked_sub(first)? as usize).cloned()?
        };
        Some(self.snapshot_of(&l))
    }

    /// A closed ledger in history, by hash.
    pub fn by_hash(&self, hash: &Hash256) -> Option<LedgerSnapshot> {
        if self.follower {
            let tip = self.tip()?;
            let same = tip.ledger.as_ref().is_some_and(|l| l.header.hash == *hash);
            return same.then_some(tip);
        }
        let l = self
            .history
            .read()
            .iter()
            .find(|l| l.header.hash == *hash)
            .cloned()?;
        Some(self.snapshot_of(&l))
    }

    /// Sequences of the oldest and newest closed ledgers kept (`complete_ledgers`).
    pub fn complete_range(&self) -> (u32, u32) {
        let h = self.history.read();
        (
            h.front().map(|l| l.header.seq).unwrap_or(0),
            h.back().map(|l| l.header.seq).unwrap_or(0),
        )
    }

    /// A transaction applied to the open ledger or any ledger still indexed.
    pub fn tx(&self, id: &Hash256) -> Option<Arc<TxEntry>> {
        self.txs.get(id).map(|e| e.clone())
    }

    /// Transactions applied to the open ledger so far, in order.
    pub fn open_txs(&self) -> Vec<Arc<TxEntry>> {
        self.writer.lock().txs.clone()
    }

    /// Decodes a signed transaction blob and applies it ([`Ledgers::apply`]).
    pub fn apply_blob(&self, blob: &[u8]) -> Result<ApplyResult, codec::CodecError> {
        let tx = codec::decode(blob)?;
        Ok(self.apply(&tx))
    }

    /// Applies a decoded signed transaction to the open ledger. Its ID and stored binary
    /// form come from its canonical serialization, as rippled's `STTx` does.
    pub fn apply(&self, tx: &StObject) -> ApplyResult {
        let blob = codec::encode(tx);
        let id = transaction_id(&blob);
        self.apply_verified(&Arc::new(tx.clone()), &Arc::from(blob.as_slice()), id)
    }

    /// Applies a transaction whose canonical binary form and ID were computed already
    /// (the submit path does that once, on the CPU pool): the single writer neither
    /// encodes nor hashes it again. Straight to the engine, past the transaction queue
    /// (replay, tests, tools); a `ter` result is held for retry.
    pub fn apply_verified(&self, tx: &Arc<StObject>, blob: &Arc<[u8]>, id: Hash256) -> ApplyResult {
        let mut open = self.writer.lock();
        let cfg = self.cfg.apply.clone();
        self.apply_or_hold(&mut open, tx, blob, id, &cfg)
    }

    /// Applies to the open ledger; a `ter` result is held for retry unless `cfg` is
    /// fail-hard.
    fn apply_or_hold(
        &self,
        open: &mut Open,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        id: Hash256,
        cfg: &ApplyConfig,
    ) -> ApplyResult {
        let r = self.apply_locked(open, tx, blob, id, cfg);
        self.hold_if_retriable(open, tx, blob, r, cfg.fail_hard)
    }

    /// A `ter` result (but `terQUEUED`) is held for retry after the next close, unless
    /// fail-hard or held already.
    fn hold_if_retriable(
        &self,
        open: &mut Open,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        r: ApplyResult,
        fail_hard: bool,
    ) -> ApplyResult {
        let retriable = r.ter.is_ter() && r.ter != Ter::terQUEUED;
        if !retriable || fail_hard || open.held.iter().any(|h| h.id == r.id) {
            return r;
        }
        open.held.push(Held {
            tx: tx.clone(),
            blob: blob.clone(),
            id: r.id,
            until_seq: held_until(open.info.seq, tx),
        });
        ApplyResult { held: true, ..r }
    }

    /// Transactions held for retry (IDs), oldest first.
    pub fn held(&self) -> Vec<Hash256> {
        self.writer.lock().held.iter().map(|h| h.id).collect()
    }

    fn apply_locked(
        &self,
        open: &mut Open,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        id: Hash256,
        cfg: &ApplyConfig,
    ) -> ApplyResult {
        let index = open.txs.len() as u32;
        let view = StateView::new(self.state.clone(), self.state.published(), open.info);
        let failures = self.state.lazy_failures();
        let mut out = apply_transaction(&view, tx, &id, index, cfg);
        let upstream_unknown = self.state.lazy_failures() != failures;
        if upstream_unknown {
            // A lazy fork's upstream could not say whether an entry the transaction read
            // exists: its result is unknowable, so nothing of it is kept.
            out.applied = false;
            out.ter = Ter::tefFAILURE;
        }
        if !out.applied {
            return ApplyResult {
                upstream_unknown,
                ..ApplyResult::refused(out.ter, id)
            };
        }
        let seq = open.info.seq;
        for (k, _) in &out.writes {
            open.dirty.insert(*k);
        }
        self.state.commit(stamp(seq, index + 1), out.writes);
        open.fees_destroyed += out.fee_drops.max(0) as u64;
        let at = TxPosition {
            ter: out.ter,
            ledger_seq: seq,
            index,
            delivered: out.delivered,
        };
        let entry = Arc::new(TxEntry::new(
            id,
            blob.clone(),
            &out.meta.unwrap_or_default(),
            at,
        ));
        open.txs.push(entry.clone());
        self.txs.insert(id, entry.clone());
        if let Some(apply_inners) = crate::engine::transactor::inner_transactions(tx, out.ter) {
            self.apply_inners(open, tx, id, apply_inners);
        }
        ApplyResult {
            ter: out.ter,
            applied: true,
            id,
            entry: Some(entry),
            held: false,
            upstream_unknown: false,
            queued: false,
        }
    }

    /// The inner transactions of a successful Batch (or any type whose registry row
    /// carries them), each recorded after it with its own index and metadata (rippled
    /// applies them in the same open view).
    fn apply_inners(
        &self,
        open: &mut Open,
        batch: &StObject,
        batch_id: Hash256,
        apply_inners: ApplyInners,
    ) {
        let seq = open.info.seq;
        let view = StateView::new(self.state.clone(), self.state.published(), open.info);
        let first = open.txs.len() as u32;
        let inners = apply_inners(&view, batch, &batch_id, first, &self.cfg.apply);
        for inner in inners {
            let index = open.txs.len() as u32;
            for (k, _) in &inner.outcome.writes {
                open.dirty.insert(*k);
            }
            self.state
                .commit(stamp(seq, index + 1), inner.outcome.writes);
            let at = TxPosition {
                ter: inner.outcome.ter,
                ledger_seq: seq,
                index,
                delivered: inner.outcome.delivered,
            };
            let entry = Arc::new(TxEntry::new(
                inner.id,
                Arc::from(inner.blob.as_slice()),
                &inner.outcome.meta.unwrap_or_default(),
                at,
            ));
            open.txs.push(entry.clone());
            self.txs.insert(inner.id, entry);
        }
    }

    /// Closes the open ledger at `close_time` (seconds since the ripple epoch; rounded to
    /// the resolution and kept after the parent's) and opens the next one.
    pub fn close(&self, close_time: u32) -> Arc<ClosedLedger> {
        let mut open = self.writer.lock();
        let parent = {
            let h = self.history.read();
            h.back().cloned()
        };
        let Some(parent) = parent else {
            // Unreachable: a store always holds its genesis.
            return Arc::new(ClosedLedger {
                header: Self::empty_header(),
                txs: Vec::new(),
                fees: open.info.fees,
                rules: open.info.rules,
                close_time_requested: close_time,
                state_map: ShaMap::new(),
                held_at_close: Vec::new(),
                changes: LedgerChanges::default(),
            });
        };
        let seq = open.info.seq;
        self.apply_canonically(&mut open, &parent);
        self.write_skip_lists(&mut open, seq, parent.header.hash);
        let at = self.state.published();
        let mut map = parent.state_map.clone();
        let mut changes = LedgerChanges::default();
        for key in std::mem::take(&mut open.dirty) {
            let bytes = self.state.bytes_at(&key, at);
            match &bytes {
                Some(b) => map.insert(key, state_leaf_hash(&key, b)),
                None => map.remove(&key),
            }
            changes.entries.push((key, bytes));
        }
        let mut tx_map = ShaMap::new();
        for t in &open.txs {
            tx_map.insert(t.id, tx_leaf_hash(&t.id, &t.blob, &t.meta_blob));
        }
        let resolution = next_resolution(parent.header.close_time_resolution, true, seq);
        let close = if parent.header.close_time == 0 {
            crate::ledger::header::round_close_time(close_time, resolution)
        } else {
            effective_close_time(close_time, resolution, parent.header.close_time)
        };
        let mut header = LedgerHeader {
            seq,
            total_drops: parent
                .header
                .total_drops
                .saturating_sub(open.fees_destroyed),
            parent_hash: parent.header.hash,
            transaction_hash: tx_map.hash(),
            account_hash: map.hash(),
            parent_close_time: parent.header.close_time,
            close_time: close,
            close_time_resolution: resolution,
            close_flags: 0,
            hash: Hash256::ZERO,
        };
        header.hash = header.compute_hash();
        let closed = Arc::new(ClosedLedger {
            header,
            txs: std::mem::take(&mut open.txs),
            fees: open.info.fees,
            rules: open.info.rules,
            close_time_requested: close_time,
            state_map: map,
            held_at_close: open
                .held
                .iter()
                .map(|h| (h.tx.clone(), h.until_seq))
                .collect(),
            changes,
        });
        let oldest_kept = self.keep_in_window(&closed);
        self.state.close(seq, oldest_kept.min(self.pinned_seq()));
        open.info = ViewInfo {
            seq: seq.saturating_add(1),
            parent_close_time: close,
            fees: open.info.fees,
            open: true,
            parent_hash: closed.header.hash,
            rules: open.info.rules,
        };
        open.fees_destroyed = 0;
        *self.open_info.write() = open.info;
        self.queue_after_close(&mut open, &closed);
        self.retry_held(&mut open);
        self.drain_queue(&mut open);
        closed
    }

    /// Adds a closed ledger to memory's window and lets the oldest leave while the window
    /// holds more than `history_count` ledgers or more than `history_bytes_max` bytes
    /// (never fewer than [`crate::limits::LEDGER_HISTORY_COUNT_MIN`]). Returns the oldest
    /// ledger kept.
    fn keep_in_window(&self, closed: &Arc<ClosedLedger>) -> u32 {
        let keep = self.cfg.history_count.max(1) as usize;
        let keep_min = keep.min(crate::limits::LEDGER_HISTORY_COUNT_MIN as usize);
        let mut h = self.history.write();
        h.push_back(closed.clone());
        let mut bytes = self
            .window_bytes
            .fetch_add(closed.retained_bytes(), Ordering::AcqRel)
            + closed.retained_bytes();
        while h.len() > keep || (bytes > self.cfg.history_bytes_max && h.len() > keep_min) {
            let Some(old) = h.pop_front() else {
                break;
            };
            for t in &old.txs {
                self.txs.remove(&t.id);
            }
            bytes = bytes.saturating_sub(old.retained_bytes());
        }
        self.window_bytes.store(bytes, Ordering::Release);
        h.front().map_or(closed.header.seq, |l| l.header.seq)
    }

    /// Counts the window's bytes again (after a revert or a rebuild changed it).
    fn recount_window(&self, h: &VecDeque<Arc<ClosedLedger>>) {
        let bytes = h.iter().map(|l| l.retained_bytes()).sum();
        self.window_bytes.store(bytes, Ordering::Release);
    }

    /// What memory holds, counted (`get_counts`): closed ledgers in the window, keys in
    /// the state, decoded entries cached.
    pub fn counts(&self) -> MemoryCounts {
        MemoryCounts {
            closed_ledgers: self.history.read().len(),
            state_keys: self.state.key_count(),
            decoded_entries: self.state.decoded_count(),
        }
    }

    /// The bytes memory's window of closed ledgers holds, as
    /// [`ClosedLedger::retained_bytes`] estimates them.
    pub fn window_bytes(&self) -> u64 {
        self.window_bytes.load(Ordering::Acquire)
    }

    /// Rebuilds the closing ledger from its parent in canonical order when that differs from
    /// the order the open ledger applied ([`canonical`]): the rebuilt entries are written
    /// over the open ledger's (each key it or the rebuild touched gets its final value),
    /// the transactions get their new indexes and metadata, and those still retriable go
    /// back to the held set for the next open ledger.
    fn apply_canonically(&self, open: &mut Open, parent: &ClosedLedger) {
        // A Batch's inner transactions are not in the set: they apply again with it.
        let outer: Vec<Candidate> = open
            .txs
            .iter()
            .map(Candidate::new)
            .filter(|c| !crate::engine::batch::is_inner(&c.tx))
            .collect();
        let order = canonical_order(&outer);
        if order.iter().enumerate().all(|(i, &j)| i == j) {
            return;
        }
        let seq = open.info.seq;
        let info = ViewInfo {
            seq,
            parent_close_time: parent.header.close_time,
            fees: open.info.fees,
            open: false,
            parent_hash: parent.header.hash,
            rules: open.info.rules,
        };
        let parent_view = StateView::new(self.state.clone(), stamp_closed(parent.header.seq), info);
        let rebuilt = canonical::rebuild(&parent_view, info, &outer, &order, &self.cfg.apply);
        let mut keys: BTreeSet<Hash256> = std::mem::take(&mut open.dirty);
        keys.extend(rebuilt.writes.keys().copied());
        let finals: Vec<_> = keys
            .iter()
            .map(|k| match rebuilt.writes.get(k) {
                Some(v) => (*k, v.clone()),
                None => (*k, parent_view.read(k)),
            })
            .collect();
        let pos = (open.txs.len() as u32).saturating_add(1);
        self.state.commit(stamp(seq, pos), finals);
        open.dirty = keys;
        for t in &open.txs {
            self.txs.remove(&t.id);
        }
        for t in &rebuilt.txs {
            self.txs.insert(t.id, t.clone());
        }
        open.txs = rebuilt.txs;
        open.fees_destroyed = rebuilt.fees_destroyed;
        for Candidate { entry: t, tx } in rebuilt.retry {
            open.held.push(Held {
                until_seq: held_until(seq, &tx),
                tx,
                blob: t.blob.clone(),
                id: t.id,
            });
        }
    }

    /// Updates the skip lists after the last transaction of ledger `seq`, as rippled's
    /// `updateSkipList` does before the ledger is flushed (no metadata records it).
    fn write_skip_lists(&self, open: &mut Open, seq: u32, parent_hash: Hash256) {
        let at = self.state.published();
        let writes = skip_list_writes(seq, parent_hash, |k| self.state.read_at(k, at));
        for (k, _) in &writes {
            open.dirty.insert(*k);
        }
        // After the last write of this ledger (transactions, or their canonical rebuild).
        let published = self.state.published();
        let pos = if (published >> 32) as u32 == seq {
            (published as u32).saturating_add(1)
        } else {
            1
        };
        self.state.commit(
            stamp(seq, pos),
            writes.into_iter().map(|(k, v)| (k, Some(v))),
        );
    }

    /// Applies held transactions to the new open ledger, by account then sequence (so a
    /// filled gap lets a chain through); keeps those still retriable and not expired.
    fn retry_held(&self, open: &mut Open) {
        let s = sf();
        let mut held = std::mem::take(&mut open.held);
        let key = |h: &Held| {
            let acct = match h.tx.get(s.account) {
                Some(StValue::AccountId(a)) => *a,
                _ => AccountId::ZERO,
            };
            let seq = match h.tx.get(s.sequence) {
                Some(StValue::UInt32(q)) => *q,
                _ => 0,
            };
            (acct, seq)
        };
        held.sort_by_key(key);
        let seq = open.info.seq;
        for h in held {
            if h.until_seq < seq {
                continue;
            }
            let r = self.apply_locked(open, &h.tx, &h.blob, h.id, &self.cfg.apply);
            if r.ter.is_ter() {
                open.held.push(h);
            }
        }
    }
}
