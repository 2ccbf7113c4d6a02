//! The transaction queue's entries as rippled prints them (`TxQ::TxDetails` in
//! `AccountInfo.cpp` and `LedgerToJson.cpp`'s `fillJsonQueue`): fee level, fee, what the
//! transaction may spend, whether it changes the account's authorization.

use crate::ledgers::txq::Candidate;
use serde_json::{Map, Value};

/// What a queued transaction may cost its account: its fee and the XRP it may spend
/// besides (rippled `potentialSpend() + fee()`).
pub fn max_spend_drops(tx: &Candidate) -> u64 {
    tx.potential_spend_drops.saturating_add(tx.fee_drops)
}

/// The fields both methods print of a queued transaction: `fee_level`,
/// `LastLedgerSequence` (if it has one), `fee`, `max_spend_drops`, `auth_change`.
pub fn queued_fields(tx: &Candidate) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("auth_change".into(), Value::from(tx.blocker));
    o.insert("fee".into(), Value::from(tx.fee_drops.to_string()));
    o.insert("fee_level".into(), Value::from(tx.fee_level.to_string()));
    if let Some(last) = tx.last_ledger_seq {
        o.insert("LastLedgerSequence".into(), Value::from(last));
    }
    o.insert(
        "max_spend_drops".into(),
        Value::from(max_spend_drops(tx).to_string()),
    );
    o
}
