//! What a transaction may do to its account's later transactions (rippled's
//! `TxConsequences`), which the transaction queue weighs before holding it: the fee, the
//! XRP it may spend besides, the sequence numbers it consumes, and whether it is a
//! blocker (it changes what the account's later transactions may do, so it is queued
//! alone). A type's registry row says how its transactions figure them
//! ([`super::registry::Consequences`]).

use super::registry::{self, Consequences};
use crate::ledger::sf::{sf, StExt};
use crate::protocol::definitions::Field;
use crate::protocol::st::StObject;

/// A transaction's consequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxConsequences {
    /// It changes what the account's later transactions may do.
    pub blocker: bool,
    /// The fee, in drops (0 when not XRP or negative).
    pub fee_drops: u64,
    /// The most XRP it may spend besides the fee, in drops.
    pub potential_spend_drops: u64,
    /// The account sequence numbers it consumes (1 for a Sequence, 0 for a ticket; a
    /// TicketCreate's count).
    pub sequences_consumed: u32,
}

impl TxConsequences {
    /// A transaction that only pays its fee and takes its sequence (rippled's `normal`).
    pub fn normal(tx: &StObject) -> TxConsequences {
        let uses_ticket = tx.u32_of(sf().sequence) == Some(0);
        TxConsequences {
            blocker: false,
            fee_drops: xrp_drops(tx, sf().fee),
            potential_spend_drops: 0,
            sequences_consumed: u32::from(!uses_ticket),
        }
    }

    /// A normal transaction that may spend the XRP amount in `field`.
    pub fn spending(tx: &StObject, field: Field) -> TxConsequences {
        TxConsequences {
            potential_spend_drops: xrp_drops(tx, field),
            ..TxConsequences::normal(tx)
        }
    }
}

/// The consequences of `tx`, as its type's registry row says (normal for a type the
/// registry does not know: the engine refuses it anyway).
pub fn of(tx: &StObject) -> TxConsequences {
    let row = tx
        .u16_of(sf().transaction_type)
        .and_then(registry::transactor);
    match row.map(|t| t.rules.consequences) {
        Some(Consequences::Blocker) => TxConsequences {
            blocker: true,
            ..TxConsequences::normal(tx)
        },
        Some(Consequences::Custom(figure)) => figure(tx),
        Some(Consequences::Normal) | None => TxConsequences::normal(tx),
    }
}

/// The drops of an XRP amount field; 0 when absent, not XRP or negative.
pub fn xrp_drops(tx: &StObject, field: Field) -> u64 {
    tx.amount_of(field)
        .and_then(|a| a.as_drops())
        .map_or(0, |d| d.max(0) as u64)
}
