//! The `transaction` stream message (rippled `NetworkOPs::transJson`), proposed or
//! validated, in the API v1 and v2 shapes.

use super::tx::{ctid, insert_deliver_max, meta_json_nft, tx_json};
use crate::engine::funds::account_funds;
use crate::engine::tx_type::TxType;
use crate::engine::Ter;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::ledgers::{ClosedLedger, DecodedTx};
use crate::protocol::st::StObject;
use crate::protocol::time;
use serde_json::{Map, Value};

/// Where a transaction message comes from.
pub enum TxSource<'a> {
    /// Applied to the open ledger `seq` (streams `transactions_proposed`, `accounts_proposed`).
    Proposed {
        /// The open ledger's sequence.
        seq: u32,
    },
    /// In the validated ledger `closed`.
    Validated {
        /// The ledger.
        closed: &'a ClosedLedger,
        /// This server's network id (for `ctid`).
        network_id: u32,
    },
}

/// What the owner of an OfferCreate's TakerGets holds of it, for the streams (rippled
/// `transJson`: `accountFunds` ignoring freezes, when the offer is not self-funded).
pub fn owner_funds(view: &dyn ReadView, tx: &StObject) -> Option<String> {
    let s = sf();
    if tx.u16_of(s.transaction_type) != Some(TxType::OfferCreate as u16) {
        return None;
    }
    let owner = tx.account_of(s.account)?;
    let gets = tx.amount_of(s.taker_gets)?;
    if !gets.is_xrp() && gets.issue().issuer == owner {
        return None;
    }
    Some(account_funds(view, &owner, &gets, false).value_text())
}

/// A `transaction` stream message for `api_version` (rippled `transJson`), with the
/// offer owner's funds when given.
pub fn transaction_message(
    entry: &DecodedTx<'_>,
    source: &TxSource<'_>,
    api_version: u32,
    owner_funds: Option<&str>,
) -> Value {
    let mut m = Map::new();
    let decoded = &entry.tx;
    let mut tx = tx_json(decoded, &entry.id, 1);
    tx.remove("hash");
    if let Some(f) = owner_funds {
        tx.insert("owner_funds".into(), Value::from(f));
    }
    m.insert("type".into(), Value::from("transaction"));
    match source {
        TxSource::Validated { closed, network_id } => {
            let net = decoded.get_u32("NetworkID").unwrap_or(*network_id);
            insert_validated(&mut m, &mut tx, entry, closed, net)
        }
        TxSource::Proposed { seq } => {
            m.insert("validated".into(), Value::from(false));
            m.insert("ledger_current_index".into(), Value::from(*seq));
            m.insert("status".into(), Value::from("proposed"));
        }
    }
    insert_result(&mut m, entry.ter);
    tx.sort_keys();
    insert_deliver_max(&mut tx, api_version);
    if api_version >= 2 {
        m.insert("tx_json".into(), Value::Object(tx));
        m.insert("hash".into(), Value::from(entry.id.to_hex()));
    } else {
        tx.insert("hash".into(), Value::from(entry.id.to_hex()));
        tx.sort_keys();
        m.insert("transaction".into(), Value::Object(tx));
    }
    m.sort_keys();
    Value::Object(m)
}

fn insert_validated(
    m: &mut Map<String, Value>,
    tx: &mut Map<String, Value>,
    entry: &DecodedTx<'_>,
    closed: &ClosedLedger,
    network_id: u32,
) {
    m.insert("meta".into(), meta_json_nft(entry));
    let net = network_id;
    if let Some(ctid) = ctid(closed.header.seq, entry.index, net) {
        m.insert("ctid".into(), Value::from(ctid));
    }
    m.insert(
        "ledger_hash".into(),
        Value::from(closed.header.hash.to_hex()),
    );
    m.insert("ledger_index".into(), Value::from(closed.header.seq));
    tx.insert("date".into(), Value::from(closed.header.close_time));
    m.insert("validated".into(), Value::from(true));
    m.insert(
        "close_time_iso".into(),
        Value::from(time::iso(closed.header.close_time)),
    );
    m.insert("status".into(), Value::from("closed"));
}

fn insert_result(m: &mut Map<String, Value>, ter: Ter) {
    m.insert("engine_result".into(), Value::from(ter.name()));
    m.insert("engine_result_code".into(), Value::from(ter.code()));
    m.insert("engine_result_message".into(), Value::from(ter.message()));
}
