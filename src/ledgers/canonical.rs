//! rippled's canonical transaction order at close (`CanonicalTXSet.cpp`, `BuildLedger.cpp`
//! `applyTransactions`): a closing ledger applies its transactions to its parent's state
//! sorted by account XOR a salt (the hash of the transaction set), then by sequence
//! (sequences before tickets), then by ID; in up to three passes, where a transaction
//! that got a tec or ter in a pass that can still retry waits for the next pass. The open
//! ledger applied them in arrival order; when the two orders differ the closed ledger is
//! rebuilt in the canonical one, so its transaction indexes, metadata and hash are what
//! rippled computes for the same transactions.

use std::collections::HashMap;
use std::sync::Arc;

use super::{TxEntry, TxPosition};
use crate::engine::{apply_transaction, ApplyConfig};
use crate::ledger::overlay::Overlay;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::shamap::ShaMap;
use crate::ledger::view::{ReadView, StateView, ViewInfo};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// Passes over the transactions (`LEDGER_TOTAL_PASSES`), and how many of them may still
/// hold back a tec for a later pass (`LEDGER_RETRY_PASSES`).
const TOTAL_PASSES: usize = 3;
const RETRY_PASSES: usize = 1;

/// A transaction's place among its account's: sequences before tickets (rippled
/// `SeqProxy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum SeqProxy {
    Sequence(u32),
    Ticket(u32),
}

/// The hash of the set of these transaction IDs: a SHAMap whose leaves (transactions
/// without metadata) hash to the IDs themselves.
pub fn tx_set_hash(ids: impl IntoIterator<Item = Hash256>) -> Hash256 {
    let mut map = ShaMap::new();
    for id in ids {
        map.insert(id, id);
    }
    map.hash()
}

/// A transaction of the closing set with its decoded form, decoded once for the order,
/// the rebuild and the held set.
#[derive(Clone)]
pub struct Candidate {
    /// The entry the open ledger applied.
    pub entry: Arc<TxEntry>,
    /// Its transaction, decoded.
    pub tx: Arc<StObject>,
}

impl Candidate {
    /// The entry with its transaction decoded.
    pub fn new(entry: &Arc<TxEntry>) -> Candidate {
        Candidate {
            entry: entry.clone(),
            tx: entry.tx(),
        }
    }
}

/// The positions of `txs` in canonical order.
pub fn canonical_order(txs: &[Candidate]) -> Vec<usize> {
    let s = sf();
    let salt = tx_set_hash(txs.iter().map(|t| t.entry.id));
    let key = |t: &Candidate| {
        let tx = &t.tx;
        let mut account = [0u8; 32];
        account[..20].copy_from_slice(&tx.account_of(s.account).unwrap_or(AccountId::ZERO).0);
        for (a, b) in account.iter_mut().zip(salt.0.iter()) {
            *a ^= b;
        }
        let seq = match tx.u32_of(s.ticket_sequence) {
            Some(ticket) => SeqProxy::Ticket(ticket),
            None => SeqProxy::Sequence(tx.u32_of(s.sequence).unwrap_or(0)),
        };
        (account, seq, t.entry.id)
    };
    let mut order: Vec<usize> = (0..txs.len()).collect();
    order.sort_by_cached_key(|&i| key(&txs[i]));
    order
}

/// The closed ledger rebuilt in canonical order.
pub struct Rebuilt {
    /// Its transactions, in their new order, with new indexes and metadata.
    pub txs: Vec<Arc<TxEntry>>,
    /// The final value of every entry they wrote (None: deleted).
    pub writes: HashMap<Hash256, Option<Arc<StObject>>>,
    /// Drops destroyed as fees.
    pub fees_destroyed: u64,
    /// Transactions left out: still retriable after the last pass, or failed in this
    /// order. Like rippled's local transactions, they are tried again in the next open
    /// ledger (where a failure drops them).
    pub retry: Vec<Candidate>,
}

/// What one attempt did (rippled `ApplyTransactionResult`).
enum Attempt {
    /// Applied: the entries (a Batch's inner transactions after it) and the fee
    /// destroyed.
    Success(Vec<Arc<TxEntry>>, u64),
    Fail,
    Retry,
}

/// Applies `txs` in `order` to `parent` (ledger `info.seq`, closed), as rippled builds a
/// ledger from its consensus set.
pub fn rebuild(
    parent: &StateView,
    info: ViewInfo,
    txs: &[Candidate],
    order: &[usize],
    cfg: &ApplyConfig,
) -> Rebuilt {
    let mut view = Overlay::new(parent, info);
    let mut pending: Vec<Candidate> = order.iter().map(|&i| txs[i].clone()).collect();
    let (mut applied, mut fees, mut failed) = (Vec::new(), 0u64, Vec::new());
    let mut certain_retry = true;
    for pass in 0..TOTAL_PASSES {
        let mut changes = 0;
        let mut left = Vec::new();
        for t in pending {
            match attempt(&mut view, &t, applied.len() as u32, certain_retry, cfg) {
                Attempt::Success(entries, fee) => {
                    fees += fee;
                    applied.extend(entries);
                    changes += 1;
                }
                Attempt::Fail => failed.push(t),
                Attempt::Retry => left.push(t),
            }
        }
        pending = left;
        if changes == 0 && !certain_retry {
            break;
        }
        if changes == 0 || pass >= RETRY_PASSES {
            certain_retry = false;
        }
    }
    Rebuilt {
        txs: applied,
        writes: view.writes,
        fees_destroyed: fees,
        retry: failed.into_iter().chain(pending).collect(),
    }
}

/// Applies one transaction to the overlay (rippled `applyTransaction`): a tec waits for a
/// later pass while passes may still retry; tef, tem and tel results fail for good.
fn attempt(
    view: &mut Overlay,
    candidate: &Candidate,
    index: u32,
    certain_retry: bool,
    cfg: &ApplyConfig,
) -> Attempt {
    let (t, tx) = (&candidate.entry, &candidate.tx);
    let out = apply_transaction(&*view, tx, &t.id, index, cfg);
    if out.applied && !(certain_retry && out.ter.is_tec()) {
        view.apply(out.writes);
        let seq = view.info().seq;
        let at = TxPosition {
            ter: out.ter,
            ledger_seq: seq,
            index,
            delivered: out.delivered,
        };
        let meta = out.meta.unwrap_or_default();
        let mut entries = vec![Arc::new(TxEntry::new(t.id, t.blob.clone(), &meta, at))];
        if let Some(apply_inners) = crate::engine::transactor::inner_transactions(tx, out.ter) {
            let inners = apply_inners(&*view, tx, &t.id, index + 1, cfg);
            for inner in inners {
                view.apply(inner.outcome.writes);
                let at = TxPosition {
                    ter: inner.outcome.ter,
                    ledger_seq: seq,
                    index: index + entries.len() as u32,
                    delivered: inner.outcome.delivered,
                };
                let meta = inner.outcome.meta.unwrap_or_default();
                let blob = Arc::from(inner.blob.as_slice());
                entries.push(Arc::new(TxEntry::new(inner.id, blob, &meta, at)));
            }
        }
        return Attempt::Success(entries, out.fee_drops.max(0) as u64);
    }
    if out.ter.is_tef() || out.ter.is_tem() || out.ter.is_tel() {
        return Attempt::Fail;
    }
    Attempt::Retry
}
