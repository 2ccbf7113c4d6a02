//! The node: the single writer (sequencer), closing and publishing ledgers, persistence,
//! the history writer and subscriptions: everything between the RPC handlers and the
//! ledgers that changes state or makes a change visible.
//!
//! ```text
//! submit handler --Command::Submit (queued on arrival)--> sequencer thread
//!   meanwhile the CPU pool decodes and verifies; the sequencer takes the outcome in order:
//!   ledgers.apply_verified -> persist.record_tx -> (reply, Durable) back to the handler,
//!   which answers once Durable resolves
//! ledger_accept / close timer --> Command::Close --> ledgers.close -> persist.record_close
//!   -> publisher task, once durable: the history store write, the PostgreSQL copy offered
//!      the ledger, LedgerStatus, the consensus phases and this server's validation,
//!      ledgerClosed and validated transaction messages, path_find updates
//! ledger_snapshot / ledger_revert --> Command::Snapshot / Command::Revert (journaled)
//! ```
//!
//! - [`sequencer`]: the writer thread and its commands.
//! - [`close`]: the close timer and the publisher.
//! - [`subscriptions`]: streams, accounts and order books followed, fan-out.
//! - [`validator`]: this server's validation of each ledger it closes (stream
//!   `validations`), signed with its validation key.
//! - [`status`]: the status snapshot server_info and the preconditions read.
//! - [`persist`]: the journal and snapshots behind a small API, recovery and replay.
//! - [`history`]: validated ledgers and transactions beyond memory, in the history store:
//!   the write at each close, the backlog while it cannot be written, the check at start
//!   and `--repair-history`.
//! - [`memory`]: giving freed memory back to the operating system after closes.
//! - [`replica`]: the copy of validated history into PostgreSQL for read nodes.
//! - [`reader`]: a read node's follower of that database.
//! - [`cleaner`]: the ledger cleaner (`ledger_cleaner`), a background check of the
//!   history store's ledgers that rewrites a bad one from memory.

pub mod cleaner;
pub mod close;
pub mod history;
pub mod memory;
pub mod persist;
pub mod reader;
pub mod replica;
pub mod sequencer;
pub mod status;
pub mod subscriptions;
pub mod validator;

use crate::ledgers::Ledgers;
use parking_lot::{Mutex, RwLock};
use persist::Persistence;
use sequencer::{Command, SequencerHandle};
use status::LedgerStatus;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The ledgers and everything that changes them: what the RPC layer reaches through
/// `Services::node`.
pub struct Node {
    /// The open ledger, closed history, reads by ledger. Writes (apply, close) go through
    /// the single writer, never through handlers directly.
    pub ledgers: Arc<Ledgers>,
    /// Stream and account subscriptions of WebSocket sessions.
    pub subscriptions: Arc<subscriptions::Subscriptions>,
    /// This server's network id (0 for the main network and standalone defaults).
    pub network_id: u32,
    /// The status snapshot; the publisher replaces it after every close.
    status: RwLock<Arc<LedgerStatus>>,
    /// The writer and the journal, once [`start`] has started them.
    writer: OnceLock<Writer>,
    /// Every validated ledger and transaction, beyond the ledgers memory keeps.
    pub history: history::History,
    /// The copy of validated history into PostgreSQL (`serve --postgres`), once started.
    pub replica: OnceLock<replica::Replica>,
    /// The writer's validator, once the server sets it (a read node has none).
    pub validator: OnceLock<validator::Validator>,
    /// Validated ledgers the history store has not written yet (its writes failed).
    history_backlog: Mutex<history::Backlog>,
    /// Whether the store is behind (ledgers or a revert wait), and how many ledgers wait:
    /// for readers, which must not wait for the writer's lock.
    history_behind: AtomicBool,
    history_waiting: AtomicUsize,
    /// The last ledger kept when the backlog filled up (0: it did not).
    history_stopped_at: AtomicU32,
    /// Advanced whenever ledgers the history held may be gone or replaced (a read node's
    /// database deleted old ledgers or its chain changed): what readers kept of it under
    /// an older value is stale.
    history_epoch: AtomicU64,
    /// A read node's database replication lag in milliseconds, as its follower last read
    /// it (-1: not a standby, or not known).
    replication_lag_ms: std::sync::atomic::AtomicI64,
    /// A read node's indexes as its follower last read them ([`INDEXES_UNKNOWN`] until it
    /// has, and always on a writer, which asks its own store).
    indexes: std::sync::atomic::AtomicU8,
}

/// `Node::indexes` before a follower has read them.
const INDEXES_UNKNOWN: u8 = 0x80;
/// `Node::indexes`: the NFT index is built.
const NFT_INDEX: u8 = 1;
/// `Node::indexes`: the MPT holder index is built.
const MPT_INDEX: u8 = 2;

/// The ledgers this server answers for in full: the history store's (every validated
/// ledger is written there, and `account_tx` reads only there) joined with memory's newer
/// ones; while the store is `behind` (its writes failed), only up to the last one it has
/// written.
fn joined_range(ledgers: &Ledgers, history: &history::History, behind: bool) -> (u32, u32) {
    if ledgers.is_follower() {
        let tip = ledgers.tip().map_or(0, |t| t.seq());
        return match history.range() {
            Some((first, _)) if tip > 0 => (first, tip),
            _ => (0, 0),
        };
    }
    let (lo, hi) = ledgers.complete_range();
    match history.range() {
        Some((first, last)) if lo != 0 && behind => (first, last.min(hi)),
        Some((first, _)) if lo != 0 => (first, hi),
        _ => (lo, hi),
    }
}

/// The single writer's handles.
pub struct Writer {
    /// The journal (health, stats).
    pub persistence: Arc<Persistence>,
    /// The writer's command queue.
    pub sequencer: SequencerHandle,
}

impl Node {
    /// A node over `ledgers`, its status that of a standalone server; the writer starts
    /// with [`start`].
    pub fn new(ledgers: Arc<Ledgers>, network_id: u32) -> Arc<Node> {
        let store = crate::store::SqliteHistory::in_memory().expect("an in-memory database opens");
        let history = history::History {
            store: Arc::new(store),
            keep: Some(crate::limits::EPHEMERAL_HISTORY_LEDGERS_MAX),
            advisory: None,
            cache: None,
        };
        Node::with_history(ledgers, network_id, history, ":memory:", false)
            .expect("an empty in-memory history catches up")
    }

    /// A node over `ledgers` whose validated history is kept in `history` (the database
    /// `file`, for messages): the closed ledgers in memory that the store lacks are written
    /// first; a store ahead of them or with a gap before them is refused (with `repair`,
    /// the ledgers beyond them are discarded instead; see [`history::History::catch_up`]).
    pub fn with_history(
        ledgers: Arc<Ledgers>,
        network_id: u32,
        history: history::History,
        file: &str,
        repair: bool,
    ) -> Result<Arc<Node>, String> {
        history.catch_up(&ledgers, file, repair)?;
        let mut status = LedgerStatus::from_store(&ledgers);
        status.complete = Some(joined_range(&ledgers, &history, false));
        Ok(Arc::new(Node {
            ledgers,
            subscriptions: Arc::new(subscriptions::Subscriptions::new()),
            network_id,
            status: RwLock::new(Arc::new(status)),
            writer: OnceLock::new(),
            history,
            replica: OnceLock::new(),
            validator: OnceLock::new(),
            history_backlog: Mutex::new(history::Backlog::default()),
            history_behind: AtomicBool::new(false),
            history_waiting: AtomicUsize::new(0),
            history_stopped_at: AtomicU32::new(0),
            history_epoch: AtomicU64::new(0),
            replication_lag_ms: std::sync::atomic::AtomicI64::new(-1),
            indexes: std::sync::atomic::AtomicU8::new(INDEXES_UNKNOWN),
        }))
    }

    /// A read node's node: `ledgers` follow the shared database `history`
    /// ([`reader::follow`]); there is no writer.
    pub fn read_only(
        ledgers: Arc<Ledgers>,
        network_id: u32,
        history: history::History,
    ) -> Arc<Node> {
        let mut status = LedgerStatus::from_store(&ledgers);
        status.complete = None;
        Arc::new(Node {
            ledgers,
            subscriptions: Arc::new(subscriptions::Subscriptions::new()),
            network_id,
            status: RwLock::new(Arc::new(status)),
            writer: OnceLock::new(),
            history,
            replica: OnceLock::new(),
            validator: OnceLock::new(),
            history_backlog: Mutex::new(history::Backlog::default()),
            history_behind: AtomicBool::new(false),
            history_waiting: AtomicUsize::new(0),
            history_stopped_at: AtomicU32::new(0),
            history_epoch: AtomicU64::new(0),
            replication_lag_ms: std::sync::atomic::AtomicI64::new(-1),
            indexes: std::sync::atomic::AtomicU8::new(INDEXES_UNKNOWN),
        })
    }

    /// See `history_epoch`: what was read from the history under another value may be stale.
    pub fn history_epoch(&self) -> u64 {
        self.history_epoch.load(Ordering::Acquire)
    }

    /// A read node's database replication lag in seconds (None: its database is no
    /// standby, or it is not known).
    pub fn replication_lag(&self) -> Option<f64> {
        let ms = self.replication_lag_ms.load(Ordering::Acquire);
        (ms >= 0).then(|| ms as f64 / 1000.0)
    }

    /// Notes what a read node's follower read of its database: the replication lag (None:
    /// not a standby) and whether the indexes are built.
    pub fn set_follower_status(&self, status: crate::store::history::FollowerStatus) {
        let ms = status
            .replication_lag
            .map_or(-1, |s| (s.max(0.0) * 1000.0).round() as i64);
        self.replication_lag_ms.store(ms, Ordering::Release);
        let nft = if status.nft_index_ready { NFT_INDEX } else { 0 };
        let mpt = if status.mpt_index_ready { MPT_INDEX } else { 0 };
        let flags = nft | mpt;
        self.indexes.store(flags, Ordering::Release);
    }

    /// Whether the NFT index is built: as a read node's follower last read it (no database
    /// round trip per request), else from the store.
    pub fn nft_index_ready(&self) -> crate::store::error::StoreResult<bool> {
        self.index_ready(NFT_INDEX, || self.history.store.nft_index_ready())
    }

    /// Whether the MPT holder index is built (as [`Node::nft_index_ready`]).
    pub fn mpt_index_ready(&self) -> crate::store::error::StoreResult<bool> {
        self.index_ready(MPT_INDEX, || self.history.store.mpt_index_ready())
    }

    fn index_ready(
        &self,
        flag: u8,
        ask_store: impl FnOnce() -> crate::store::error::StoreResult<bool>,
    ) -> crate::store::error::StoreResult<bool> {
        match self.indexes.load(Ordering::Acquire) {
            INDEXES_UNKNOWN => ask_store(),
            flags => Ok(flags & flag != 0),
        }
    }

    /// Marks everything read from the history so far as possibly stale.
    pub fn advance_history_epoch(&self) {
        self.history_epoch.fetch_add(1, Ordering::AcqRel);
    }

    /// The ledgers this server can answer for: the history store's joined with memory's,
    /// up to the last one the store has written.
    pub fn complete_range(&self) -> (u32, u32) {
        if self.ledgers.is_follower() {
            // A read node's follower notes the database's first ledger in the status at
            // each poll: no database round trip per request.
            let tip = self.ledgers.tip().map_or(0, |t| t.seq());
            return match self.status().complete {
                Some((first, _)) if tip > 0 => (first, tip),
                _ => (0, 0),
            };
        }
        let behind = self.history_behind.load(Ordering::Acquire);
        joined_range(&self.ledgers, &self.history, behind)
    }

    /// Writes a validated ledger to the history store, after the ones still waiting; on a
    /// failure it waits with them for the next close (the publisher's thread, blocking).
    pub fn record_history(&self, closed: &Arc<crate::ledgers::ClosedLedger>) {
        let mut backlog = self.history_backlog.lock();
        backlog.push(closed.clone());
        // Readers see the ledger as waiting until it is written.
        self.note_backlog(&backlog);
        if let Err(e) = self.history.write_backlog(&mut backlog) {
            tracing::error!(
                ledger = closed.header.seq,
                waiting = backlog.len(),
                "history not written: {e}; the ledgers waiting are written at the next close"
            );
        }
        self.note_backlog(&backlog);
    }

    /// Publishes the backlog's state to readers.
    fn note_backlog(&self, backlog: &history::Backlog) {
        let behind = !backlog.is_empty() || backlog.full_at().is_some();
        self.history_behind.store(behind, Ordering::Release);
        self.history_waiting.store(backlog.len(), Ordering::Release);
        let stopped = backlog.full_at().unwrap_or(0);
        self.history_stopped_at.store(stopped, Ordering::Release);
    }

    /// A revert to ledger `seq`: the history store forgets the ledgers after it (now, or
    /// before anything else once it can be written).
    pub fn revert_history(&self, seq: u32) {
        let mut backlog = self.history_backlog.lock();
        backlog.revert_to(seq);
        if let Err(e) = self.history.write_backlog(&mut backlog) {
            tracing::error!(
                ledger = seq,
                "history not reverted: {e}; retried at the next close"
            );
        }
        self.note_backlog(&backlog);
    }

    /// The history writer's state for server_info's `storage`: the last ledger written and
    /// how many validated ledgers wait.
    pub fn history_json(&self) -> serde_json::Value {
        let stopped = self.history_stopped_at.load(Ordering::Acquire);
        serde_json::json!({
            "last_written": self.history.range().map(|r| r.1),
            "waiting": self.history_waiting.load(Ordering::Acquire),
            "stopped_at": (stopped > 0).then_some(stopped),
        })
    }

    /// The current status snapshot (cheap: an `Arc` clone).
    pub fn status(&self) -> Arc<LedgerStatus> {
        self.status.read().clone()
    }

    /// Publish a new status snapshot (the publisher, after each close; tests).
    pub fn set_status(&self, status: LedgerStatus) {
        *self.status.write() = Arc::new(status);
    }

    /// The writer, if started.
    pub fn writer(&self) -> Option<&Writer> {
        self.writer.get()
    }
}

/// The node's running parts, for an orderly stop.
pub struct NodeTasks {
    sequencer: SequencerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
    publisher: tokio::task::JoinHandle<()>,
    timer: Option<tokio::task::JoinHandle<()>>,
}

/// Start the sequencer, the publisher and (unless `close_interval_secs` is 0) the close
/// timer over `node.ledgers`, and make the writer reachable through [`Node::writer`].
/// Call once, inside the tokio runtime.
pub fn start(
    node: &Arc<Node>,
    persistence: Arc<Persistence>,
    close_interval_secs: u64,
) -> Result<NodeTasks, String> {
    let (pub_tx, pub_rx) = tokio::sync::mpsc::channel(crate::limits::PUBLISH_QUEUE_CLOSES_MAX);
    let (handle, thread) = sequencer::start(
        node.ledgers.clone(),
        persistence.clone(),
        node.subscriptions.clone(),
        pub_tx,
    )
    .map_err(|e| format!("cannot start the sequencer: {e}"))?;
    let publisher = tokio::spawn(close::publisher(pub_rx, node.clone()));
    let timer = (close_interval_secs > 0)
        .then(|| tokio::spawn(close::timer(handle.clone(), close_interval_secs)));
    let writer = Writer {
        persistence,
        sequencer: handle.clone(),
    };
    if node.writer.set(writer).is_err() {
        return Err("the node is already started".into());
    }
    Ok(NodeTasks {
        sequencer: handle,
        thread: Some(thread),
        publisher,
        timer,
    })
}

impl NodeTasks {
    /// Stop the timer, let the sequencer finish what is queued, and wait for the last
    /// publication.
    pub async fn stop(mut self) {
        if let Some(t) = self.timer.take() {
            t.abort();
        }
        let _ = self.sequencer.send(Command::Stop).await;
        if let Some(thread) = self.thread.take() {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        let _ = self.publisher.await;
    }
}
