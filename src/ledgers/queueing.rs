//! The open ledger's door (rippled `TxQ::apply` and `TxQ::accept` around the queue's
//! pure core, [`super::txq`]): a submitted transaction that pays the open ledger's
//! escalated level and takes its account's Sequence applies at once; one that pays less,
//! or follows the account's queued ones, is checked against the queue, preclaimed
//! against its account as the queued ones ahead will leave it, and held (`terQUEUED`),
//! or refused with rippled's code. At each close the queue learns the closed ledger's
//! fee levels, drops the expired, and drains into the new open ledger; then the local
//! transactions (rippled's `LocalTxs`: submissions the queue took, or refused for the
//! moment with a `tel` or its own `ter`) go through the door again, so one evicted from
//! a full queue comes back. A `ter` the engine gives is held instead, as before the
//! queue: journaled, and retried first at the next close, straight into the ledger
//! (rippled retries it after the drain, through the door; replay needs it first).
//!
//! The queue and the local transactions are memory only, as xrpld's: a restart empties
//! them. A queued transaction is never journaled or acknowledged as applied; one the
//! queue (or a local retry) applies later is journaled then, as an ordinary transaction
//! record ([`Ledgers::take_from_queue`]), so replay meets it where it applied.
//! [`Ledgers::apply`] (replay, tests, tools) applies directly.

use std::collections::HashMap;
use std::sync::Arc;

use super::txq::{
    fee_level_paid, AccountFacts, Candidate, FeeReport, OpenFacts, QueuedTx, SeqProxy, Submission,
    TrialAccount, TxQSetup, TxQueue,
};
use super::{held_until, ApplyResult, Ledgers, Open};
use crate::engine::consequences;
use crate::engine::transactor::{base_fee_in, preclaim_result, preflight_result, ApplyConfig};
use crate::engine::Ter;
use crate::ledger::keylet;
use crate::ledger::overlay::Overlay;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::{ReadView, StateView};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// The queue and the transactions it holds, in the writer's state.
#[derive(Clone)]
pub(super) struct Queue {
    txq: TxQueue,
    /// The signed transactions the queue holds (and, until pruned, some it let go).
    held: HashMap<Hash256, QueuedBlob>,
    /// Transactions the queue applied that the journal has not been handed yet.
    applied: Vec<(Arc<[u8]>, ApplyResult)>,
    /// Submissions the queue took (`terQUEUED`) or refused with a `tel` code, rippled's
    /// local transactions: after each close's drain they go through the door again, so
    /// one evicted from a full queue or refused for the moment comes back.
    locals: Vec<Local>,
    /// The next close ends a slow consensus round (rippled's `timeLeap`).
    slow_close: bool,
}

/// A local transaction kept for retry through the queue.
#[derive(Clone)]
struct Local {
    queued: QueuedBlob,
    id: Hash256,
    /// The last open ledger it is retried into (rippled `LocalTxs`: a few ledgers, or its
    /// LastLedgerSequence).
    until_seq: u32,
}

#[derive(Clone)]
struct QueuedBlob {
    tx: Arc<StObject>,
    blob: Arc<[u8]>,
}

impl Queue {
    pub(super) fn new(setup: TxQSetup) -> Queue {
        Queue {
            txq: TxQueue::new(setup),
            held: HashMap::new(),
            applied: Vec::new(),
            locals: Vec::new(),
            slow_close: false,
        }
    }

    /// Lets every queued transaction go, keeping what the escalation learned (a revert).
    pub(super) fn forget_txs(&mut self) {
        let setup = self.txq.setup().clone();
        let mut emptied = TxQueue::new(setup);
        emptied.adopt_metrics(&self.txq);
        self.txq = emptied;
        self.held.clear();
        self.applied.clear();
        self.locals.clear();
    }

    /// Keeps a submission to go through the door again after the next closes (once,
    /// while there is room).
    fn keep_local(&mut self, tx: &Arc<StObject>, blob: &Arc<[u8]>, id: Hash256, open_seq: u32) {
        let full = self.locals.len() >= self.locals_max();
        if full || self.locals.iter().any(|l| l.id == id) {
            return;
        }
        self.locals.push(Local {
            queued: QueuedBlob {
                tx: tx.clone(),
                blob: blob.clone(),
            },
            id,
            until_seq: held_until(open_seq, tx),
        });
    }

    /// The most local transactions kept: twice what the queue may hold, and at least
    /// [`LOCALS_MIN`] (rippled keeps them all; here a flood of refused submissions
    /// cannot grow them past the queue's own bound: the surplus is just not retried).
    fn locals_max(&self) -> usize {
        let queue_max = self
            .txq
            .max_size()
            .unwrap_or(self.txq.setup().minimum_queue_size);
        usize::try_from(queue_max.saturating_mul(2))
            .unwrap_or(usize::MAX)
            .max(LOCALS_MIN)
    }

    /// Drops the blobs of transactions no longer queued, once they are as many again as
    /// the queued ones (so the sweep costs O(1) per submission, amortized).
    fn prune(&mut self) {
        if self.held.len() <= 2 * self.txq.len() + 64 {
            return;
        }
        let queued: std::collections::HashSet<Hash256> =
            self.txq.txs_by_fee().map(|q| q.tx.id).collect();
        self.held.retain(|id, _| queued.contains(id));
    }
}

/// The least bound of the local transactions, whatever the queue's size.
const LOCALS_MIN: usize = 1000;

/// Where a submission goes.
enum Route {
    /// The engine decides alone, as without a queue (its account has nothing queued
    /// and it pays the open ledger's level, or it is not a transaction the queue can
    /// weigh).
    Plain,
    /// It pays the open ledger's level with its account's Sequence or a ticket: applied
    /// now, and it takes the place of a queued one with the same SeqProxy.
    Direct(Candidate),
    /// The queue decides.
    Queue(Candidate, AccountFacts),
}

impl Ledgers {
    /// [`Ledgers::apply_verified`] for a submission, through the transaction queue; with
    /// `fail_hard` (submit's, rippled's `tapFAIL_HARD`) a `tec` result is not applied (no
    /// fee, no sequence), a `ter` result is not held for retry and nothing is queued.
    pub fn apply_submitted(
        &self,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        id: Hash256,
        fail_hard: bool,
    ) -> ApplyResult {
        let mut open = self.writer.lock();
        // The engine's `ter` is held for retry (journaled, retried first at the next
        // close) unless fail_hard; a `ter` the queue gives (its preclaim behind the
        // account's queued transactions) is the queue's, kept local with them.
        let (r, by_queue) = self.through_door(&mut open, tx, blob, id, fail_hard);
        let r = if by_queue {
            r
        } else {
            self.hold_if_retriable(&mut open, tx, blob, r, fail_hard)
        };
        let held_already = open.held.iter().any(|h| h.id == id);
        if !fail_hard && !held_already && is_local(&r) {
            let open_seq = open.info.seq;
            open.queue.keep_local(tx, blob, id, open_seq);
        }
        r
    }

    /// The door: route the submission, apply it, queue it or refuse it. Answers the
    /// result and whether the queue decided.
    fn through_door(
        &self,
        open: &mut Open,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        id: Hash256,
        fail_hard: bool,
    ) -> (ApplyResult, bool) {
        let cfg = self.apply_config(fail_hard);
        match self.route(open, tx, id) {
            Route::Plain => (self.apply_locked(open, tx, blob, id, &cfg), false),
            Route::Direct(candidate) => {
                let r = self.apply_locked(open, tx, blob, id, &cfg);
                if r.applied {
                    open.queue.txq.applied_directly(&candidate);
                }
                (r, false)
            }
            Route::Queue(candidate, account) => {
                let sub = Submission {
                    tx: candidate,
                    fail_hard,
                    dry_run: false,
                    names_prior_txn: tx.get(sf().previous_txn_id).is_some()
                        || tx.get(sf().account_txn_id).is_some(),
                };
                (
                    self.through_queue(open, tx, blob, &sub, &account, &cfg),
                    true,
                )
            }
        }
    }

    fn apply_config(&self, fail_hard: bool) -> ApplyConfig {
        ApplyConfig {
            fail_hard,
            ..self.cfg.apply.clone()
        }
    }

    fn open_view(&self, open: &Open) -> StateView {
        StateView::new(self.state.clone(), self.state.published(), open.info)
    }

    fn route(&self, open: &Open, tx: &StObject, id: Hash256) -> Route {
        let view = self.open_view(open);
        let Some(candidate) = candidate_of(&view, tx, id) else {
            return Route::Plain;
        };
        let Some(root) = view.read(&keylet::account(&candidate.account)) else {
            return Route::Plain;
        };
        let txq = &open.queue.txq;
        let account = AccountFacts {
            sequence: root.u32_of(sf().sequence).unwrap_or(0),
            balance_drops: root
                .amount_of(sf().balance)
                .and_then(|a| a.as_drops())
                .map_or(0, |d| d.max(0) as u64),
            ticket_exists: match candidate.seq_proxy {
                SeqProxy::Ticket(n) => view.read(&keylet::ticket(&candidate.account, n)).is_some(),
                SeqProxy::Sequence(_) => false,
            },
        };
        let count = open.txs.len() as u64;
        if txq.direct_apply_allowed(&candidate, account.sequence, count) {
            return Route::Direct(candidate);
        }
        let level = txq.open_ledger_level(count);
        let nothing_queued = txq.account_txs(&candidate.account).next().is_none();
        if nothing_queued && candidate.fee_level >= level {
            // Its Sequence is past or ahead: the engine's tefPAST_SEQ or terPRE_SEQ, as
            // the queue would say.
            return Route::Plain;
        }
        Route::Queue(candidate, account)
    }

    /// rippled `TxQ::apply` past `tryDirectApply`: preflight, the queue's checks,
    /// preclaim against the account the queued transactions ahead leave, then either
    /// the account's queue cleared through this one (its fee pays for them all) or
    /// this one held.
    fn through_queue(
        &self,
        open: &mut Open,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        sub: &Submission,
        account: &AccountFacts,
        cfg: &ApplyConfig,
    ) -> ApplyResult {
        let refused = |ter: Ter| ApplyResult::refused(ter, sub.tx.id);
        let view = self.open_view(open);
        if let Err(ter) = preflight_result(&view, tx, cfg) {
            return refused(ter);
        }
        let facts = self.open_facts(open);
        let admission = match open.queue.txq.admit(sub, Some(account), &facts) {
            Ok(admission) => admission,
            Err(ter) => return refused(ter),
        };
        let preclaimed = preclaim_behind(&view, tx, &sub.tx.account, admission.trial, cfg);
        if !(preclaimed.is_tes() || preclaimed.is_tec()) {
            return refused(preclaimed);
        }
        let plan = open
            .queue
            .txq
            .clear_plan(sub, &admission, account.sequence, facts.tx_count);
        if let Some(run) = plan {
            if let Some(r) = self.clear_through(open, tx, blob, &sub.tx, &run, cfg) {
                return r;
            }
        }
        if let Err(ter) = open.queue.txq.hold(sub, &admission, account, &facts) {
            return refused(ter);
        }
        open.queue.held.insert(
            sub.tx.id,
            QueuedBlob {
                tx: tx.clone(),
                blob: blob.clone(),
            },
        );
        open.queue.prune();
        ApplyResult {
            queued: true,
            ..refused(Ter::terQUEUED)
        }
    }

    /// rippled `tryClearAccountQueueUpThruTx`: apply the account's queued run, then the
    /// transaction. `None` when a queued one does not apply (those before it did and
    /// leave the queue): the transaction is then queued.
    fn clear_through(
        &self,
        open: &mut Open,
        tx: &Arc<StObject>,
        blob: &Arc<[u8]>,
        candidate: &Candidate,
        run: &[SeqProxy],
        cfg: &ApplyConfig,
    ) -> Option<ApplyResult> {
        let ids: HashMap<SeqProxy, Hash256> = open
            .queue
            .txq
            .account_txs(&candidate.account)
            .map(|q| (q.tx.seq_proxy, q.tx.id))
            .collect();
        let mut cleared = Vec::new();
        for seq_proxy in run {
            let queued = ids
                .get(seq_proxy)
                .and_then(|id| open.queue.held.get(id).cloned().map(|q| (*id, q)));
            let Some((id, queued)) = queued else { break };
            let r = self.apply_locked(open, &queued.tx, &queued.blob, id, cfg);
            if !r.applied {
                break;
            }
            open.queue.applied.push((queued.blob.clone(), r));
            cleared.push(*seq_proxy);
        }
        let all = cleared.len() == run.len();
        let result = all.then(|| self.apply_locked(open, tx, blob, candidate.id, cfg));
        let applied = result.as_ref().is_some_and(|r| r.applied);
        let seq_proxy = applied.then_some(candidate.seq_proxy);
        open.queue
            .txq
            .cleared(&candidate.account, &cleared, seq_proxy);
        result.filter(|r| r.applied)
    }

    fn open_facts(&self, open: &Open) -> OpenFacts {
        OpenFacts {
            seq: open.info.seq,
            tx_count: open.txs.len() as u64,
            base_fee_drops: open.info.fees.base_drops,
            reserve_drops: open.info.fees.reserve_base_drops,
        }
    }

    /// After a close, before the held transactions are retried: the queue learns the
    /// closed ledger's fee levels, resizes, and drops what expired with it.
    pub(super) fn queue_after_close(&self, open: &mut Open, closed: &super::ClosedLedger) {
        let view = self.open_view(open);
        let base = open.info.fees.base_drops;
        let levels: Vec<u64> = closed
            .txs
            .iter()
            .map(|t| {
                let tx = t.tx();
                let fee = consequences::of(&tx).fee_drops;
                fee_level_paid(fee, base_fee_in(&view, &tx), base)
            })
            .collect();
        let slow = std::mem::take(&mut open.queue.slow_close);
        open.queue
            .txq
            .process_closed_ledger(&levels, closed.header.seq, slow);
    }

    /// A fresh queue, as if no ledger had closed: rippled builds ledger 2 from genesis
    /// without a consensus round, so the queue learns nothing from it (no limit until
    /// the first `ledger_accept`).
    pub(super) fn queue_from_scratch(&self) {
        self.writer.lock().queue = Queue::new(self.cfg.tx_queue.clone());
    }

    /// A restart starts the queue afresh, as xrpld's: no queued or local transaction,
    /// and escalation from the minimum, whatever the replayed closes taught it.
    pub fn restart_queue(&self) {
        self.queue_from_scratch();
    }

    /// The next close ends a slow consensus round (rippled's `timeLeap`, a round over
    /// five seconds): the queue cuts its expected ledger size and keeps its limit.
    /// `ledger_accept` is never slow; rippled's tests make it so with a consensus delay.
    pub fn next_close_is_slow(&self) {
        self.writer.lock().queue.slow_close = true;
    }

    /// rippled `TxQ::accept`: the queued transactions that pay the new open ledger's
    /// escalated level apply to it, highest level first; then the local transactions
    /// go through the door again ([`Ledgers::retry_locals`]).
    pub(super) fn drain_queue(&self, open: &mut Open) {
        self.drain_queued(open);
        self.retry_locals(open);
    }

    fn drain_queued(&self, open: &mut Open) {
        if open.queue.txq.is_empty() {
            return;
        }
        let mut queue = std::mem::replace(&mut open.queue, Queue::new(TxQSetup::default()));
        let count = open.txs.len() as u64;
        let parent = open.info.parent_hash;
        let cfg = self.cfg.apply.clone();
        queue.txq.drain(count, parent, |queued: &QueuedTx| {
            let Some(q) = queue.held.get(&queued.tx.id) else {
                return (Ter::tefINTERNAL, false);
            };
            let r = self.apply_locked(open, &q.tx, &q.blob, queued.tx.id, &cfg);
            let outcome = (r.ter, r.applied);
            if r.applied {
                queue.applied.push((q.blob.clone(), r));
            }
            outcome
        });
        queue.prune();
        open.queue = queue;
    }

    /// rippled `OpenLedger::accept`'s local transactions, after `TxQ::accept`: each goes
    /// through the door again (applied, queued again, or still refused); one still
    /// queued waits, one that fails for good (`tef`, `tem`) or expired leaves. What
    /// applies is journaled after the close with what the queue drained, and a `ter`
    /// result is not held: it stays local.
    fn retry_locals(&self, open: &mut Open) {
        let mut locals = std::mem::take(&mut open.queue.locals);
        // By account, then sequence, as rippled's canonical set of them.
        locals.sort_by_key(|l| {
            let tx = &l.queued.tx;
            let account = tx.account_of(sf().account).unwrap_or(AccountId::ZERO);
            let sequence = tx.u32_of(sf().sequence).unwrap_or(0);
            let ticket = tx.u32_of(sf().ticket_sequence).unwrap_or(0);
            (account, sequence == 0, sequence, ticket)
        });
        let seq = open.info.seq;
        for local in locals {
            if local.until_seq < seq {
                continue;
            }
            if is_queued(&open.queue.txq, &local) {
                open.queue.locals.push(local);
                continue;
            }
            let (tx, blob) = (&local.queued.tx, &local.queued.blob);
            let (r, _) = self.through_door(open, tx, blob, local.id, false);
            if r.applied {
                open.queue.applied.push((blob.clone(), r));
            } else if is_local(&r) {
                open.queue.locals.push(local);
            }
        }
    }

    /// The transactions the queue applied since the last call, in the order they
    /// applied: the caller journals them (and publishes them) as applied transactions.
    pub fn take_from_queue(&self) -> Vec<(Arc<[u8]>, ApplyResult)> {
        std::mem::take(&mut self.writer.lock().queue.applied)
    }

    /// `fee`'s figures for the open ledger.
    pub fn fee_report(&self) -> FeeReport {
        let open = self.writer.lock();
        open.queue
            .txq
            .fee_report(open.txs.len() as u64, open.info.fees.base_drops)
    }

    /// The queue's transactions of `account`, in SeqProxy order, with the signed
    /// transactions (`account_info`'s `queue_data`).
    pub fn queued_of(&self, account: &AccountId) -> Vec<(QueuedTx, Arc<StObject>)> {
        let open = self.writer.lock();
        open.queue
            .txq
            .account_txs(account)
            .filter_map(|q| Some((q.clone(), open.queue.held.get(&q.tx.id)?.tx.clone())))
            .collect()
    }

    /// Every queued transaction, highest fee level first (`ledger`'s `queue`).
    pub fn queued_all(&self) -> Vec<(QueuedTx, Arc<StObject>)> {
        let open = self.writer.lock();
        open.queue
            .txq
            .txs_by_fee()
            .filter_map(|q| Some((q.clone(), open.queue.held.get(&q.tx.id)?.tx.clone())))
            .collect()
    }

    /// A queued transaction by ID (`tx` of a transaction not yet in a ledger).
    pub fn queued_tx(&self, id: &Hash256) -> Option<Arc<StObject>> {
        let open = self.writer.lock();
        let queued = open.queue.txq.txs_by_fee().any(|q| q.tx.id == *id);
        queued.then(|| open.queue.held.get(id).map(|q| q.tx.clone()))?
    }

    /// The next Sequence a transaction of `account`, whose open-ledger Sequence is
    /// `sequence`, may be queued with (`account_sequence_available`).
    pub fn next_queuable_seq(&self, account: &AccountId, sequence: u32) -> u32 {
        let open = self.writer.lock();
        open.queue.txq.next_queuable_seq(account, sequence).value()
    }
}

/// The local transaction is in the queue (rippled would answer telCAN_NOT_QUEUE_FEE: it
/// does not replace itself).
fn is_queued(txq: &TxQueue, local: &Local) -> bool {
    let Some(account) = local.queued.tx.account_of(sf().account) else {
        return false;
    };
    txq.account_txs(&account).any(|q| q.tx.id == local.id)
}

/// A submission the queue took, or that was refused for the moment (`tel`, or a `ter`
/// not held): kept local.
fn is_local(r: &ApplyResult) -> bool {
    !r.applied && !r.held && (r.queued || r.ter.is_tel() || r.ter.is_ter())
}

/// The queue's view of a transaction; `None` when it lacks what the queue weighs (the
/// engine refuses it).
fn candidate_of(view: &dyn ReadView, tx: &StObject, id: Hash256) -> Option<Candidate> {
    let s = sf();
    let account = tx.account_of(s.account)?;
    let fee = tx.amount_of(s.fee)?.as_drops()?;
    let sequence = tx.u32_of(s.sequence)?;
    let seq_proxy = match (sequence, tx.u32_of(s.ticket_sequence)) {
        (0, Some(ticket)) => SeqProxy::Ticket(ticket),
        (0, None) => return None,
        (n, _) => SeqProxy::Sequence(n),
    };
    let c = consequences::of(tx);
    let base = view.info().fees.base_drops;
    Some(Candidate {
        account,
        seq_proxy,
        sequences_consumed: c.sequences_consumed,
        fee_drops: c.fee_drops,
        fee_level: fee_level_paid(fee.max(0) as u64, base_fee_in(view, tx), base),
        last_ledger_seq: tx.u32_of(s.last_ledger_sequence),
        blocker: c.blocker,
        potential_spend_drops: c.potential_spend_drops,
        id,
    })
}

/// Preclaim against the open ledger, its account as the queued transactions ahead leave
/// it (`trial`: their fees and potential spend taken, its Sequence theirs after).
fn preclaim_behind(
    view: &StateView,
    tx: &StObject,
    account: &AccountId,
    trial: Option<TrialAccount>,
    cfg: &ApplyConfig,
) -> Ter {
    let Some(trial) = trial else {
        return preclaim_result(view, tx, cfg);
    };
    let key = keylet::account(account);
    let Some(root) = view.read(&key) else {
        return preclaim_result(view, tx, cfg);
    };
    let mut root = (*root).clone();
    root.set(
        sf().balance,
        StValue::Amount(crate::protocol::amount::Amount::drops(
            trial.balance_drops as i64,
        )),
    );
    root.set(sf().sequence, StValue::UInt32(trial.sequence));
    let mut overlay = Overlay::new(view, *view.info());
    overlay.apply([(key, Some(Arc::new(root)))]);
    preclaim_result(&overlay, tx, cfg)
}
