//! The single writer. One thread owns every `Ledgers::apply` and `Ledgers::close`;
//! handlers send it commands over a bounded channel. It never waits for the disk: each
//! accepted submission is journaled (`Persistence::record_tx`) and the reply travels with
//! its [`Durable`] back to the handler, which waits for it; each close is journaled and
//! handed to the publisher, which publishes it once durable.

use super::persist::{Durable, Persistence};
use super::subscriptions::Subscriptions;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::ledgers::{ApplyResult, ClosedLedger, Ledgers};
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use crate::render::server_status::FeeSummary;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// What a handler asks of the sequencer.
pub enum Command {
    /// Apply a signed transaction to the open ledger. The command is queued when the
    /// request arrives, before its signature is checked on the CPU pool, so submissions
    /// keep their arrival order (a client pipelining one account's sequence numbers)
    /// while their checks run in parallel; the sequencer takes the check's outcome when
    /// the command reaches the head of the queue.
    Submit {
        /// The decoded, verified transaction; `None` (or a dropped sender) when its checks
        /// failed: the submitter knows why, the sequencer only skips it.
        job: oneshot::Receiver<Option<Verified>>,
        /// Where the outcome goes.
        reply: oneshot::Sender<Result<Submitted, SubmitError>>,
    },
    /// Close the open ledger (ledger_accept, the close timer).
    Close {
        /// The close time asked for (seconds since the ripple epoch; ledger_accept's
        /// `close_time`), or None for the clock's. Later closes continue from it.
        close_time: Option<u32>,
        /// Gets the new open ledger's sequence once the close is durable and published,
        /// or why it failed.
        reply: Option<oneshot::Sender<Result<u32, CloseError>>>,
    },
    /// Save the state (ledger_snapshot).
    Snapshot {
        /// Gets the saved state's ID and where it stands.
        reply: oneshot::Sender<Result<SavedState, String>>,
    },
    /// Put back a saved state (ledger_revert), once it is durable and the history store
    /// forgot the ledgers after it.
    Revert {
        /// The saved state's ID.
        id: u64,
        /// Gets the restored last closed ledger's sequence, or why not.
        reply: oneshot::Sender<Result<u32, CloseError>>,
    },
    /// Finish: the thread ends after the commands queued before this one.
    Stop,
}

/// A transaction ready to apply.
pub struct Verified {
    /// The decoded transaction.
    pub tx: Arc<StObject>,
    /// Its canonical signed binary form (what the journal records).
    pub blob: Arc<[u8]>,
    /// Its transaction ID (the hash of `blob`), computed once by whoever verified it.
    pub id: Hash256,
    /// Submitted with `fail_hard`: a tec is not applied and a ter is not held.
    pub fail_hard: bool,
}

/// A state `ledger_snapshot` saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SavedState {
    /// Its ID, for `ledger_revert`.
    pub id: u64,
    /// The last closed ledger it holds.
    pub ledger_seq: u32,
    /// That ledger's hash.
    pub ledger_hash: Hash256,
    /// The open ledger it holds.
    pub current_seq: u32,
}

/// Why a close or a revert did not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CloseError {
    /// The request cannot be done (a close time before the parent's, an unknown saved
    /// state): the handler answers with the request's error.
    Refused(String),
    /// No saved state has this ID.
    NotFound(u64),
    /// The journal or the disk failed.
    Failed(String),
}

/// Why a submission was not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmitError {
    /// Its checks failed or never ran; the submitter holds the reason.
    Unchecked,
    /// The journal cannot take writes (it failed earlier): nothing is applied.
    Unhealthy(String),
}

/// The outcome of one submission.
pub struct Submitted {
    /// What the store did.
    pub result: ApplyResult,
    /// Resolves when the journal holds it (None: nothing to journal).
    pub durable: Option<Durable>,
    /// The account's Sequence in the open ledger after applying (None: no account).
    pub account_sequence: Option<u32>,
    /// The next Sequence the account may queue a transaction with
    /// (`account_sequence_available`; None: no account).
    pub sequence_available: Option<u32>,
    /// The open ledger's sequence it was applied to.
    pub open_seq: u32,
    /// The last validated ledger's sequence.
    pub validated_seq: u32,
}

/// A close on its way to being published.
pub struct ClosedWork {
    /// The ledger just closed.
    pub closed: Arc<ClosedLedger>,
    /// Its journal record.
    pub durable: Durable,
    /// Who asked, if anyone.
    pub reply: Option<oneshot::Sender<Result<u32, CloseError>>>,
}

/// A revert on its way to the history store and the subscribers.
pub struct RevertWork {
    /// The ledger that is the last closed one again.
    pub closed: Arc<ClosedLedger>,
    /// Who asked.
    pub reply: oneshot::Sender<Result<u32, CloseError>>,
}

/// What the sequencer hands the publisher, in order.
pub enum Published {
    /// A close, published once durable.
    Close(ClosedWork),
    /// A revert (already durable): the history store forgets the ledgers after it.
    Revert(RevertWork),
}

/// The sending side handlers use.
#[derive(Clone)]
pub struct SequencerHandle {
    tx: mpsc::Sender<Command>,
}

/// Why a command was not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum SendError {
    /// The queue is full (answer tooBusy).
    Full,
    /// The sequencer has stopped (shutting down).
    Stopped,
}

impl SequencerHandle {
    /// Queue `cmd` without waiting.
    pub fn try_send(&self, cmd: Command) -> Result<(), SendError> {
        self.tx.try_send(cmd).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => SendError::Full,
            mpsc::error::TrySendError::Closed(_) => SendError::Stopped,
        })
    }

    /// Queue `cmd`, waiting for room.
    pub async fn send(&self, cmd: Command) -> Result<(), SendError> {
        self.tx.send(cmd).await.map_err(|_| SendError::Stopped)
    }
}

/// Start the sequencer thread. It runs until every handle is dropped; closes go to
/// `published` in order.
pub fn start(
    store: Arc<Ledgers>,
    persist: Arc<Persistence>,
    subs: Arc<Subscriptions>,
    published: mpsc::Sender<Published>,
) -> std::io::Result<(SequencerHandle, std::thread::JoinHandle<()>)> {
    let (tx, rx) = mpsc::channel(crate::limits::SEQUENCER_QUEUE_COMMANDS_MAX);
    let fee_summary = FeeSummary::of(&store.fee_report());
    let writer = Writer {
        fee_summary,
        store,
        persist,
        subs,
        published,
        clock_offset: 0,
        open_logs: BTreeMap::new(),
    };
    let join = std::thread::Builder::new()
        .name("sequencer".into())
        .spawn(move || writer.run(rx))?;
    Ok((SequencerHandle { tx }, join))
}

/// The sequencer thread's state.
struct Writer {
    store: Arc<Ledgers>,
    persist: Arc<Persistence>,
    subs: Arc<Subscriptions>,
    published: mpsc::Sender<Published>,
    /// Seconds the close clock runs ahead of the wall clock since a close was given a
    /// time (without a fixed clock).
    clock_offset: i64,
    /// The journal records of the open ledger when each saved state was taken, by ID:
    /// a revert journals them again after its marker.
    open_logs: BTreeMap<u64, Vec<Vec<u8>>>,
    /// The fee summary the `server` stream last heard (rippled `mLastFeeSummary`).
    fee_summary: FeeSummary,
}

impl Writer {
    fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        while let Some(cmd) = rx.blocking_recv() {
            match cmd {
                Command::Stop => break,
                Command::Submit { job, reply } => {
                    let outcome = match job.blocking_recv() {
                        Ok(Some(v)) => submit(&self.store, &self.persist, &self.subs, &v)
                            .map_err(SubmitError::Unhealthy),
                        Ok(None) | Err(_) => Err(SubmitError::Unchecked),
                    };
                    let changed = outcome
                        .as_ref()
                        .is_ok_and(|s| s.result.applied || s.result.queued);
                    let _ = reply.send(outcome);
                    if changed {
                        self.report_fee_change();
                    }
                }
                Command::Close { close_time, reply } => {
                    self.close(close_time, reply);
                    self.report_fee_change();
                }
                Command::Snapshot { reply } => {
                    let _ = reply.send(self.save_state());
                }
                Command::Revert { id, reply } => self.revert(id, reply),
            }
        }
    }

    /// rippled `reportFeeChange`: a `serverStatus` to the `server` stream when the fee
    /// summary moved since the last one.
    fn report_fee_change(&mut self) {
        let now = FeeSummary::of(&self.store.fee_report());
        if now != self.fee_summary {
            self.fee_summary = now;
            self.subs.publish_server_status(&now);
        }
    }

    /// The close time to ask `close` for: `given` (which must not be before the last
    /// closed ledger's close time), else the fixed clock's next step, else the wall
    /// clock plus the offset a given time left.
    fn close_time(&mut self, given: Option<u32>) -> Result<u32, CloseError> {
        let parent = self.store.closed().ledger;
        let now = crate::protocol::time::ripple_now_secs() as i64;
        if let Some(t) = given {
            let parent_time = parent.as_ref().map_or(0, |l| l.header.close_time);
            if t < parent_time {
                return Err(CloseError::Refused(format!(
                    "close_time {t} is before the last closed ledger's close time {parent_time}"
                )));
            }
            self.clock_offset = i64::from(t) - now;
            return Ok(t);
        }
        if let Some(clock) = self.store.config().fixed_clock {
            let last = parent.map_or(clock.start, |l| l.close_time_requested);
            return Ok(last.saturating_add(clock.step_secs));
        }
        Ok((now + self.clock_offset).clamp(0, i64::from(u32::MAX)) as u32)
    }

    fn close(
        &mut self,
        close_time: Option<u32>,
        reply: Option<oneshot::Sender<Result<u32, CloseError>>>,
    ) {
        let refused = self
            .persist
            .health()
            .map_err(CloseError::Failed)
            .and_then(|()| self.close_time(close_time));
        let at = match refused {
            Ok(at) => at,
            Err(e) => {
                if let Some(r) = reply {
                    let _ = r.send(Err(e));
                }
                return;
            }
        };
        let (store, persist, subs) = (&self.store, &self.persist, &self.subs);
        let started = std::time::Instant::now();
        let oldest = store.complete_range().0;
        let closed = store.close(at);
        if store.complete_range().0 != oldest {
            crate::node::memory::window_moved();
        }
        crate::metrics::get()
            .close
            .observe(started.elapsed().as_secs_f64());
        let durable = persist.record_close(&closed);
        // What the queue drained into the new open ledger, after the close record:
        // replay closes (retrying the held transactions, as here) and then meets them.
        // The proposed stream gets them below, with the retried ones.
        for (blob, result) in store.take_from_queue() {
            crate::metrics::get().applied.inc();
            drop(persist.record_tx(&blob, &result));
        }
        persist.after_close(store);
        // Held transactions retried into the new open ledger are proposed now.
        if subs.wants_proposed() {
            let current = store.current();
            for entry in store.open_txs() {
                subs.publish_proposed(&entry, current.seq(), &current.view);
            }
        }
        let work = ClosedWork {
            closed,
            durable,
            reply,
        };
        // Waits only when PUBLISH_QUEUE_CLOSES_MAX closes are not yet durable.
        if self
            .published
            .blocking_send(Published::Close(work))
            .is_err()
        {
            tracing::warn!("publisher gone; close not published");
        }
    }

    fn save_state(&mut self) -> Result<SavedState, String> {
        self.persist.health()?;
        let id = self.store.save_state();
        self.open_logs.insert(id, self.persist.open_log());
        let kept = self.store.saved_ids();
        self.open_logs.retain(|id, _| kept.contains(id));
        let closed = self.store.closed().ledger;
        Ok(SavedState {
            id,
            ledger_seq: closed.as_ref().map_or(0, |l| l.header.seq),
            ledger_hash: closed.map_or(Hash256::ZERO, |l| l.header.hash),
            current_seq: self.store.current().seq(),
        })
    }

    fn revert(&mut self, id: u64, reply: oneshot::Sender<Result<u32, CloseError>>) {
        if let Err(why) = self.persist.health() {
            let _ = reply.send(Err(CloseError::Failed(why)));
            return;
        }
        let closed = match self.store.revert(id) {
            Ok(closed) => closed,
            Err(_) => {
                let _ = reply.send(Err(CloseError::NotFound(id)));
                return;
            }
        };
        let log = self.open_logs.remove(&id).unwrap_or_default();
        self.open_logs.retain(|k, _| *k < id);
        if let Err(e) = self.persist.record_revert(&self.store, &closed, &log) {
            let _ = reply.send(Err(CloseError::Failed(e.to_string())));
            return;
        }
        let work = RevertWork { closed, reply };
        if self
            .published
            .blocking_send(Published::Revert(work))
            .is_err()
        {
            tracing::warn!("publisher gone; revert not published");
        }
    }
}

fn submit(
    store: &Arc<Ledgers>,
    persist: &Persistence,
    subs: &Subscriptions,
    v: &Verified,
) -> Result<Submitted, String> {
    persist.health()?;
    let result = store.apply_submitted(&v.tx, &v.blob, v.id, v.fail_hard);
    let current = store.current();
    // The account's queued transactions its fee cleared applied first.
    journal_from_queue(store, persist, subs, &current);
    if result.applied {
        crate::metrics::get().applied.inc();
    }
    let durable = (result.applied || result.held).then(|| persist.record_tx(&v.blob, &result));
    let tx = &v.tx;
    let open_seq = current.seq();
    let account = tx.account_of(sf().account);
    let account_sequence = account
        .and_then(|a| current.view.read(&keylet::account(&a)))
        .and_then(|root| root.u32_of(sf().sequence));
    let sequence_available = account
        .zip(account_sequence)
        .map(|(a, seq)| store.next_queuable_seq(&a, seq));
    if let Some(entry) = &result.entry {
        subs.publish_proposed(entry, entry.ledger_seq, &current.view);
    }
    Ok(Submitted {
        result,
        durable,
        account_sequence,
        sequence_available,
        open_seq,
        validated_seq: store.validated().seq(),
    })
}

/// Journals the transactions the queue applied (they were never acknowledged: nothing
/// waits on their records) and proposes them.
fn journal_from_queue(
    store: &Ledgers,
    persist: &Persistence,
    subs: &Subscriptions,
    current: &crate::ledgers::LedgerSnapshot,
) {
    for (blob, result) in store.take_from_queue() {
        crate::metrics::get().applied.inc();
        drop(persist.record_tx(&blob, &result));
        if let Some(entry) = &result.entry {
            subs.publish_proposed(entry, entry.ledger_seq, &current.view);
        }
    }
}
