//! The decision rippled's `TxQ::apply` makes for a submitted transaction, given the facts
//! its caller read from the open ledger: apply it directly, or check it may be queued
//! ([`TxQueue::admit`]), let the caller preclaim it against the trial account it names,
//! optionally clear the account's queue ahead of it ([`TxQueue::clear_plan`]), and hold
//! it ([`TxQueue::hold`], `terQUEUED`); or refuse it with rippled's code.

use super::fee_level::{increase, BASE_LEVEL};
use super::fee_metrics::{escalated_series_fee_level, scale_fee_level};
use super::queue::{QueuedTx, TxQueue, RETRIES_ALLOWED};
use super::{Candidate, SeqProxy};
use crate::engine::Ter;
use crate::protocol::types::AccountId;

/// A submitted transaction and how it was submitted.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The transaction.
    pub tx: Candidate,
    /// `fail_hard`: never queued.
    pub fail_hard: bool,
    /// A dry run (`simulate`): never queued.
    pub dry_run: bool,
    /// It carries PreviousTxnID or AccountTxnID, which the queue does not support.
    pub names_prior_txn: bool,
}

/// The sending account as the open ledger has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountFacts {
    /// Its Sequence.
    pub sequence: u32,
    /// Its XRP balance, in drops.
    pub balance_drops: u64,
    /// The transaction's ticket is in the ledger (ignored for a Sequence).
    pub ticket_exists: bool,
}

/// The open ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFacts {
    /// Its sequence.
    pub seq: u32,
    /// The transactions in it.
    pub tx_count: u64,
    /// The base fee, in drops.
    pub base_fee_drops: u64,
    /// The base reserve, in drops.
    pub reserve_drops: u64,
}

/// What [`TxQueue::admit`] found: the transaction may be queued once the caller's
/// preclaim says it is likely to claim a fee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    /// The queued transaction it replaces.
    pub replaces: Option<SeqProxy>,
    /// Preclaim against the account with this balance and Sequence (the queued
    /// transactions ahead of it having spent what they may), or against the ledger's
    /// account when `None`.
    pub trial: Option<TrialAccount>,
}

/// The account as preclaim sees it behind the account's queued transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrialAccount {
    /// The balance less the queued fees and potential spend, in drops.
    pub balance_drops: u64,
    /// The Sequence the transaction will meet.
    pub sequence: u32,
}

impl TxQueue {
    /// The transaction may go straight into the open ledger (rippled `tryDirectApply`):
    /// its Sequence is the account's (or it has a ticket) and it pays the open ledger's
    /// required level. The caller applies it and, if applied, calls
    /// [`TxQueue::applied_directly`]; its result is final either way.
    pub fn direct_apply_allowed(
        &self,
        tx: &Candidate,
        account_sequence: u32,
        open_count: u64,
    ) -> bool {
        if tx.seq_proxy.is_sequence() && tx.seq_proxy != SeqProxy::Sequence(account_sequence) {
            return false;
        }
        tx.fee_level >= scale_fee_level(self.snapshot(), open_count)
    }

    /// A directly applied transaction takes the place of the queued one with its SeqProxy.
    pub fn applied_directly(&mut self, tx: &Candidate) {
        self.remove(&tx.account, tx.seq_proxy);
    }

    /// May the transaction be queued? (rippled `TxQ::apply` after `tryDirectApply`, up to
    /// preclaim.) `account` is `None` when the account is not in the ledger.
    pub fn admit(
        &self,
        sub: &Submission,
        account: Option<&AccountFacts>,
        open: &OpenFacts,
    ) -> Result<Admission, Ter> {
        if sub.dry_run {
            return Err(Ter::telCAN_NOT_QUEUE);
        }
        let account = account.ok_or(Ter::terNO_ACCOUNT)?;
        check_ticket(&sub.tx, account)?;
        let ahead = self.ahead_of(sub, account);
        self.check_blocker(&sub.tx, &ahead)?;
        let replaces = self.replaced(&sub.tx);
        if !ahead.is_empty() {
            self.check_replacement(&sub.tx, &ahead, replaces)?;
        }
        let trial = if ahead.is_empty() {
            check_first_sequence(&sub.tx, account.sequence)?;
            None
        } else {
            self.trial_behind_queue(sub, account, open, &ahead, replaces)?
        };
        Ok(Admission { replaces, trial })
    }

    /// The account's queued transactions from its Sequence on (those that slipped into
    /// the ledger are ignored).
    fn ahead_of(&self, sub: &Submission, account: &AccountFacts) -> Vec<&QueuedTx> {
        self.accounts
            .get(&sub.tx.account)
            .map(|queue| {
                let from = SeqProxy::Sequence(account.sequence);
                queue.txs.range(from..).map(|(_, q)| q).collect()
            })
            .unwrap_or_default()
    }

    /// A blocker is queued alone, or replaces the lone queued transaction.
    fn check_blocker(&self, tx: &Candidate, ahead: &[&QueuedTx]) -> Result<(), Ter> {
        if !tx.blocker {
            return Ok(());
        }
        match ahead {
            [] => Ok(()),
            [lone] if lone.tx.seq_proxy == tx.seq_proxy => Ok(()),
            _ => Err(Ter::telCAN_NOT_QUEUE_BLOCKS),
        }
    }

    fn replaced(&self, tx: &Candidate) -> Option<SeqProxy> {
        let queue = self.accounts.get(&tx.account)?;
        queue
            .txs
            .contains_key(&tx.seq_proxy)
            .then_some(tx.seq_proxy)
    }

    /// A queued blocker keeps others out; a replacement pays `retry_sequence_percent`
    /// more than the level it replaces.
    fn check_replacement(
        &self,
        tx: &Candidate,
        ahead: &[&QueuedTx],
        replaces: Option<SeqProxy>,
    ) -> Result<(), Ter> {
        if let [lone] = ahead {
            if lone.tx.blocker && lone.tx.seq_proxy != tx.seq_proxy {
                return Err(Ter::telCAN_NOT_QUEUE_BLOCKED);
            }
        }
        let Some(seq_proxy) = replaces else {
            return Ok(());
        };
        let old_level = self.accounts[&tx.account].txs[&seq_proxy].tx.fee_level;
        if tx.fee_level > increase(old_level, self.setup.retry_sequence_percent) {
            Ok(())
        } else {
            Err(Ter::telCAN_NOT_QUEUE_FEE)
        }
    }

    /// The checks for a transaction joining the account's queued ones, and the account
    /// preclaim sees behind them.
    fn trial_behind_queue(
        &self,
        sub: &Submission,
        account: &AccountFacts,
        open: &OpenFacts,
        ahead: &[&QueuedTx],
        replaces: Option<SeqProxy>,
    ) -> Result<Option<TrialAccount>, Ter> {
        let tx = &sub.tx;
        if SeqProxy::Sequence(account.sequence) > tx.seq_proxy {
            return Err(Ter::tefPAST_SEQ);
        }
        if ahead.len() == 1 && replaces.is_some() {
            return Ok(None);
        }
        self.can_be_held(sub, account, open, replaces)?;
        let next = self.next_queuable_seq(&tx.account, account.sequence);
        let before_all = self.accounts[&tx.account]
            .txs
            .keys()
            .next()
            .is_some_and(|first| tx.seq_proxy < *first);
        if before_all {
            check_first_sequence(tx, account.sequence)?;
        } else if replaces.is_none() && tx.seq_proxy.is_sequence() && next != tx.seq_proxy {
            return Err(Ter::telCAN_NOT_QUEUE);
        }
        let (spend, fees) = spend_and_fees(tx, ahead);
        let balance = account.balance_drops;
        let reserve = open.reserve_drops;
        if fees >= balance || (reserve > 10 * open.base_fee_drops && fees >= reserve) {
            return Err(Ter::telCAN_NOT_QUEUE_BALANCE);
        }
        let spendable = balance - balance.min(reserve);
        let total = fees + spendable.min(spend);
        let sequence = match tx.seq_proxy {
            SeqProxy::Sequence(n) => n,
            SeqProxy::Ticket(_) => next.value(),
        };
        Ok(Some(TrialAccount {
            balance_drops: balance - total,
            sequence,
        }))
    }

    /// rippled `canBeHeld`: fail_hard and PreviousTxnID/AccountTxnID are never queued; a
    /// LastLedgerSequence must leave `minimum_last_ledger_buffer` ledgers; an account
    /// past `maximum_txn_per_account` may only fill its first sequence gap.
    fn can_be_held(
        &self,
        sub: &Submission,
        account: &AccountFacts,
        open: &OpenFacts,
        replaces: Option<SeqProxy>,
    ) -> Result<(), Ter> {
        let tx = &sub.tx;
        if sub.names_prior_txn || sub.fail_hard {
            return Err(Ter::telCAN_NOT_QUEUE);
        }
        let buffer = u64::from(open.seq) + self.setup.minimum_last_ledger_buffer;
        if tx
            .last_ledger_seq
            .is_some_and(|last| u64::from(last) < buffer)
        {
            return Err(Ter::telCAN_NOT_QUEUE);
        }
        let Some(queue) = self.accounts.get(&tx.account) else {
            return Ok(());
        };
        if replaces.is_some() || (queue.txs.len() as u64) < self.setup.maximum_txn_per_account {
            return Ok(());
        }
        let next = self.next_queuable_seq(&tx.account, account.sequence);
        if !tx.seq_proxy.is_sequence() || tx.seq_proxy != next {
            return Err(Ter::telCAN_NOT_QUEUE_FULL);
        }
        let fills_gap = queue
            .txs
            .range((std::ops::Bound::Excluded(next), std::ops::Bound::Unbounded))
            .next()
            .is_some_and(|(seq, _)| seq.is_sequence());
        if fills_gap {
            Ok(())
        } else {
            Err(Ter::telCAN_NOT_QUEUE_FULL)
        }
    }

    /// The queued transactions ahead of it the caller may apply together with it, in
    /// order, when its fee pays for the whole run at the escalated levels (rippled's
    /// heuristic before `tryClearAccountQueueUpThruTx`; its `telINSUF_FEE_P` is `None`
    /// here: the caller just queues it).
    pub fn clear_plan(
        &self,
        sub: &Submission,
        admission: &Admission,
        account_sequence: u32,
        open_count: u64,
    ) -> Option<Vec<SeqProxy>> {
        let tx = &sub.tx;
        let required = scale_fee_level(self.snapshot(), open_count);
        let worth_trying = tx.seq_proxy.is_sequence()
            && admission.trial.is_some()
            && tx.fee_level > required
            && required > BASE_LEVEL;
        if !worth_trying {
            return None;
        }
        let queue = self.accounts.get(&tx.account)?;
        let from = SeqProxy::Sequence(account_sequence);
        let (_, head) = queue.txs.range(from..).next()?;
        if head.retries_remaining != RETRIES_ALLOWED {
            return None;
        }
        let run: Vec<&QueuedTx> = queue
            .txs
            .range(from..tx.seq_proxy)
            .map(|(_, q)| q)
            .collect();
        let series = escalated_series_fee_level(self.snapshot(), open_count, run.len() as u64 + 1)?;
        let paid = run
            .iter()
            .fold(tx.fee_level, |sum, q| sum.saturating_add(q.tx.fee_level));
        (paid >= series).then(|| run.iter().map(|q| q.tx.seq_proxy).collect())
    }

    /// Hold the transaction (`terQUEUED`), after the caller's preclaim found it likely to
    /// claim a fee: the last checks, the eviction of the cheapest account's last
    /// transaction when the queue is full, and the replacement.
    pub fn hold(
        &mut self,
        sub: &Submission,
        admission: &Admission,
        account: &AccountFacts,
        open: &OpenFacts,
    ) -> Result<(), Ter> {
        if admission.trial.is_none() {
            self.can_be_held(sub, account, open, admission.replaces)?;
        }
        if admission.replaces.is_none() && self.is_full() {
            self.make_room(&sub.tx)?;
        }
        if let Some(seq_proxy) = admission.replaces {
            self.remove(&sub.tx.account, seq_proxy);
        }
        self.insert(sub.tx.clone());
        Ok(())
    }

    /// A full queue takes the transaction only if it pays more than the cheapest other
    /// account's average level; that account's last transaction leaves.
    fn make_room(&mut self, tx: &Candidate) -> Result<(), Ter> {
        let cheapest = self
            .by_fee
            .iter()
            .rev()
            .find(|key| key.account != tx.account)
            .copied()
            .ok_or(Ter::telCAN_NOT_QUEUE_FULL)?;
        let end_account = &self.accounts[&cheapest.account];
        let effective = if cheapest.level.0 > tx.fee_level || end_account.txs.len() == 1 {
            cheapest.level.0
        } else {
            average_level(
                end_account.txs.values().map(|q| q.tx.fee_level),
                end_account.txs.len(),
            )
        };
        if tx.fee_level <= effective {
            return Err(Ter::telCAN_NOT_QUEUE_FULL);
        }
        let last = *end_account
            .txs
            .keys()
            .next_back()
            .expect("a queued account has a transaction");
        self.remove(&cheapest.account, last);
        Ok(())
    }

    /// The caller applied the cleared run (or its first part) and, when given, the
    /// transaction (replacing a queued one with its SeqProxy): they leave the queue.
    pub fn cleared(&mut self, account: &AccountId, run: &[SeqProxy], tx: Option<SeqProxy>) {
        for seq_proxy in run.iter().chain(tx.as_ref()) {
            self.remove(account, *seq_proxy);
        }
    }
}

/// A ticket must be in the ledger to be queued.
fn check_ticket(tx: &Candidate, account: &AccountFacts) -> Result<(), Ter> {
    match tx.seq_proxy {
        SeqProxy::Ticket(n) if !account.ticket_exists && n < account.sequence => {
            Err(Ter::tefNO_TICKET)
        }
        SeqProxy::Ticket(_) if !account.ticket_exists => Err(Ter::terPRE_TICKET),
        _ => Ok(()),
    }
}

/// The first queued Sequence must be the account's.
fn check_first_sequence(tx: &Candidate, account_sequence: u32) -> Result<(), Ter> {
    match tx.seq_proxy {
        SeqProxy::Sequence(n) if n < account_sequence => Err(Ter::tefPAST_SEQ),
        SeqProxy::Sequence(n) if n > account_sequence => Err(Ter::terPRE_SEQ),
        _ => Ok(()),
    }
}

/// The XRP the account's queued transactions may spend and their fees (rippled
/// `calcSpendAndFee`): a replaced transaction counts as its replacement, and only when
/// others follow it.
fn spend_and_fees(tx: &Candidate, ahead: &[&QueuedTx]) -> (u64, u64) {
    let mut spend = 0u64;
    let mut fees = 0u64;
    for (index, queued) in ahead.iter().enumerate() {
        let counted = if queued.tx.seq_proxy != tx.seq_proxy {
            &queued.tx
        } else if index + 1 < ahead.len() {
            tx
        } else {
            continue;
        };
        spend = spend.saturating_add(counted.potential_spend_drops);
        fees = fees.saturating_add(counted.fee_drops);
    }
    (spend, fees)
}

/// The average of `count` levels as rippled sums it (quotients and remainders apart, so
/// the sum cannot overflow; a sum that would saturates).
fn average_level(levels: impl Iterator<Item = u64>, count: usize) -> u64 {
    let count = count as u64;
    let mut quotients = 0u64;
    let mut remainders = 0u64;
    for level in levels {
        let (next, rest) = (level / count, level % count);
        if quotients >= u64::MAX - next || remainders >= u64::MAX - rest {
            return u64::MAX;
        }
        quotients += next;
        remainders += rest;
    }
    quotients + remainders / count
}
