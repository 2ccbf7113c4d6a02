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
        /// Gets the new open ledger's sequence once the close is durable and published,
        /// or why it failed.
        reply: Option<oneshot::Sender<Result<u32, String>>>,
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
    pub reply: Option<oneshot::Sender<Result<u32, String>>>,
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
    published: mpsc::Sender<ClosedWork>,
) -> std::io::Result<(SequencerHandle, std::thread::JoinHandle<()>)> {
    let (tx, rx) = mpsc::channel(crate::limits::SEQUENCER_QUEUE_COMMANDS_MAX);
    let join = std::thread::Builder::new()
        .name("sequencer".into())
        .spawn(move || run(rx, store, persist, subs, published))?;
    Ok((SequencerHandle { tx }, join))
}

fn run(
    mut rx: mpsc::Receiver<Command>,
    store: Arc<Ledgers>,
    persist: Arc<Persistence>,
    subs: Arc<Subscriptions>,
    published: mpsc::Sender<ClosedWork>,
) {
    while let Some(cmd) = rx.blocking_recv() {
        match cmd {
            Command::Stop => break,
            Command::Submit { job, reply } => {
                let outcome = match job.blocking_recv() {
                    Ok(Some(v)) => {
                        submit(&store, &persist, &subs, &v).map_err(SubmitError::Unhealthy)
                    }
                    Ok(None) | Err(_) => Err(SubmitError::Unchecked),
                };
                let _ = reply.send(outcome);
            }
            Command::Close { reply } => {
                if let Err(why) = persist.health() {
                    if let Some(r) = reply {
                        let _ = r.send(Err(why));
                    }
                    continue;
                }
                let now = crate::protocol::time::ripple_now_secs();
                let started = std::time::Instant::now();
                let closed = store.close(u32::try_from(now).unwrap_or(u32::MAX));
                crate::metrics::get()
                    .close
                    .observe(started.elapsed().as_secs_f64());
                let durable = persist.record_close(&closed);
                persist.after_close(&store);
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
                if published.blocking_send(work).is_err() {
                    tracing::warn!("publisher gone; close not published");
                }
            }
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
    let result = store.apply_verified(&v.tx, &v.blob, v.id);
    if result.applied {
        crate::metrics::get().applied.inc();
    }
    let durable = (result.applied || result.held).then(|| persist.record_tx(&v.blob, &result));
    let tx = &v.tx;
    let current = store.current();
    let open_seq = current.seq();
    let account_sequence = tx
        .account_of(sf().account)
        .and_then(|a| current.view.read(&keylet::account(&a)))
        .and_then(|root| root.u32_of(sf().sequence));
    if let Some(entry) = &result.entry {
        subs.publish_proposed(entry, entry.ledger_seq, &current.view);
    }
    Ok(Submitted {
        result,
        durable,
        account_sequence,
        open_seq,
        validated_seq: store.validated().seq(),
    })
}
