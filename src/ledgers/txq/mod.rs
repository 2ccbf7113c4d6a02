//! The transaction queue's pure core (rippled's `TxQ`, fee escalation): the open ledger's
//! expected size and escalated fee level (`fee_metrics`, `fee_level`), the queue's
//! candidates and limits (`queue`), the decision `TxQ::apply` makes for a submitted
//! transaction given the facts its caller read (`admission`), the close-time drain of the
//! queue into a new open ledger (`drain`), and the `fee` method's figures (`fee_report`).
//! Not wired yet: nothing here reads a ledger or applies a transaction; the caller hands
//! in the facts and an `apply` closure.
//!
//! ```text
//! let mut q = TxQueue::new(TxQSetup::default());
//! q.direct_apply_allowed(&candidate, account_sequence, open_count) -> bool
//! q.admit(&submission, Some(&account), &open) -> Result<Admission, Ter>   // then preclaim
//! q.clear_plan(&submission, &admission, account_sequence, open_count) -> Option<Vec<SeqProxy>>
//! q.cleared(&account, &run, seq_proxy)            // the caller applied the run and the tx
//! q.hold(&submission, &admission, &account, &open) -> Result<(), Ter>       // terQUEUED
//! q.process_closed_ledger(&fee_levels, closed_seq, time_leap)                     // at close
//! q.drain(open_count, parent_hash, |queued| apply(queued)) -> bool                // new open ledger
//! q.fee_report(open_count, base_fee_drops) -> FeeReport                            // `fee`
//! ```

mod admission;
mod drain;
mod fee_level;
mod fee_metrics;
mod fee_report;
mod queue;

pub use admission::{AccountFacts, Admission, OpenFacts, Submission, TrialAccount};
pub use fee_level::{
    fee_level_paid, increase, mul_div, to_drops, to_drops_at_least, to_fee_level, BASE_LEVEL,
};
pub use fee_metrics::{escalated_series_fee_level, scale_fee_level, FeeMetrics, MetricsSnapshot};
pub use fee_report::FeeReport;
pub use queue::{QueuedTx, TxQueue, RETRIES_ALLOWED};

use crate::protocol::types::{AccountId, Hash256};

/// The queue's settings (rippled `TxQ::Setup`, xrpld's `[transaction_queue]`), with
/// xrpld's defaults. The server's configuration maps onto it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxQSetup {
    /// The queue holds this many ledgers' worth of transactions.
    pub ledgers_in_queue: u64,
    /// The queue's size never goes below this.
    pub minimum_queue_size: u64,
    /// A replacement pays this percent more than the transaction it replaces.
    pub retry_sequence_percent: u64,
    /// The least escalation multiplier (a fee level).
    pub minimum_escalation_multiplier: u64,
    /// The least expected ledger size on a network.
    pub minimum_txn_in_ledger: u64,
    /// The least expected ledger size standalone.
    pub minimum_txn_in_ledger_standalone: u64,
    /// Above this many transactions the expected size grows.
    pub target_txn_in_ledger: u64,
    /// The most the expected size grows to, if set.
    pub maximum_txn_in_ledger: Option<u64>,
    /// How much a busy, timely close grows the expected size (percent, at most 1000).
    pub normal_consensus_increase_percent: u64,
    /// How much a slow close cuts it (percent, at most 100).
    pub slow_consensus_decrease_percent: u64,
    /// The most transactions one account may have queued.
    pub maximum_txn_per_account: u64,
    /// A queued transaction's LastLedgerSequence must leave at least this many ledgers.
    pub minimum_last_ledger_buffer: u64,
    /// Standalone (the standalone minimum applies).
    pub standalone: bool,
}

impl Default for TxQSetup {
    /// xrpld's `TxQ::Setup` defaults (standalone, as ledgerd runs).
    fn default() -> TxQSetup {
        TxQSetup {
            ledgers_in_queue: 20,
            minimum_queue_size: 2000,
            retry_sequence_percent: 25,
            minimum_escalation_multiplier: BASE_LEVEL * 500,
            minimum_txn_in_ledger: 32,
            minimum_txn_in_ledger_standalone: 1000,
            target_txn_in_ledger: 256,
            maximum_txn_in_ledger: None,
            normal_consensus_increase_percent: 20,
            slow_consensus_decrease_percent: 50,
            maximum_txn_per_account: 10,
            minimum_last_ledger_buffer: 2,
            standalone: true,
        }
    }
}

/// What a transaction consumes of its account's numbering (rippled `SeqProxy`): every
/// sequence sorts before every ticket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SeqProxy {
    /// The account's Sequence.
    Sequence(u32),
    /// A TicketSequence.
    Ticket(u32),
}

impl SeqProxy {
    /// A Sequence, not a ticket.
    pub fn is_sequence(self) -> bool {
        matches!(self, SeqProxy::Sequence(_))
    }

    /// The number.
    pub fn value(self) -> u32 {
        match self {
            SeqProxy::Sequence(n) | SeqProxy::Ticket(n) => n,
        }
    }
}

/// A transaction as the queue sees it: what rippled's `MaybeTx` and its
/// `TxConsequences` carry, so the core needs no engine types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The sending account.
    pub account: AccountId,
    /// Its Sequence or ticket.
    pub seq_proxy: SeqProxy,
    /// The sequence numbers it consumes (1, or 1 + the tickets a TicketCreate makes; 0 for
    /// a ticket), so the queue knows the next sequence after it.
    pub sequences_consumed: u32,
    /// The Fee, in drops.
    pub fee_drops: u64,
    /// The fee level paid ([`fee_level_paid`]).
    pub fee_level: u64,
    /// LastLedgerSequence, if any.
    pub last_ledger_seq: Option<u32>,
    /// A blocker (SetRegularKey, SignerListSet, AccountDelete, ...): it changes what
    /// later transactions of the account may do, so it is queued alone.
    pub blocker: bool,
    /// The most XRP it can spend besides the fee, in drops.
    pub potential_spend_drops: u64,
    /// The transaction id.
    pub id: Hash256,
}

impl Candidate {
    /// The next SeqProxy after it (rippled `TxConsequences::followingSeq`).
    pub fn following_seq(&self) -> SeqProxy {
        match self.seq_proxy {
            SeqProxy::Sequence(n) => SeqProxy::Sequence(n.saturating_add(self.sequences_consumed)),
            ticket => ticket,
        }
    }
}

#[cfg(test)]
mod tests;
