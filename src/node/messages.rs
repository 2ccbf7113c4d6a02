//! The JSON rippled sends on streams and in the signing replies: transaction JSON in the
//! v1 and v2 shapes, `ledgerClosed`, `transaction` messages (`NetworkOPs::transJson`,
//! `pubLedger`), and the accounts a transaction touches.

use crate::engine::Ter;
use crate::ledger::store::{ClosedLedger, LedgerStore, TxEntry};
use crate::protocol::codec;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A transaction's JSON (`STTx::getJson`): v1 carries `hash` inside, v2 does not (the
/// caller puts it at the top level).
pub fn tx_json(tx: &StObject, id: &Hash256, api_version: u32) -> Map<String, Value> {
    let mut obj = match codec::to_json(tx) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    if api_version < 2 {
        obj.insert("hash".into(), Value::from(id.to_hex()));
    }
    obj
}

/// rippled's `insertDeliverMax`: for a Payment, v1 shows `DeliverMax` next to `Amount`,
/// v2 renames `Amount` to `DeliverMax`.
pub fn insert_deliver_max(obj: &mut Map<String, Value>, api_version: u32) {
    if obj.get("TransactionType").and_then(Value::as_str) != Some("Payment") {
        return;
    }
    let Some(amount) = obj.get("Amount").cloned() else {
        return;
    };
    if api_version >= 2 {
        obj.remove("Amount");
    }
    obj.insert("DeliverMax".into(), amount);
    obj.sort_keys();
}

/// The fields of a closed ledger that `subscribe` (stream `ledger`) answers and the
/// `ledgerClosed` message carries (`NetworkOPs::subLedger` / `pubLedger`).
pub fn ledger_fields(closed: &ClosedLedger, network_id: u32, complete: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("fee_base".into(), Value::from(closed.fees.base_drops));
    // The ledger keeps the legacy fee fields (ReferenceFeeUnits): XRPFees is not enabled,
    // so rippled adds fee_ref.
    m.insert(
        "fee_ref".into(),
        Value::from(crate::limits::FEE_BASE_DROPS_DEFAULT),
    );
    m.insert(
        "ledger_hash".into(),
        Value::from(closed.header.hash.to_hex()),
    );
    m.insert("ledger_index".into(), Value::from(closed.header.seq));
    m.insert("ledger_time".into(), Value::from(closed.header.close_time));
    m.insert("network_id".into(), Value::from(network_id));
    m.insert(
        "reserve_base".into(),
        Value::from(closed.fees.reserve_base_drops),
    );
    m.insert(
        "reserve_inc".into(),
        Value::from(closed.fees.reserve_inc_drops),
    );
    m.insert("validated_ledgers".into(), Value::from(complete));
    m
}

/// The `ledgerClosed` message.
pub fn ledger_closed(closed: &ClosedLedger, network_id: u32, complete: &str) -> Value {
    let mut m = ledger_fields(closed, network_id, complete);
    m.insert("type".into(), Value::from("ledgerClosed"));
    m.insert("txn_count".into(), Value::from(closed.txs.len()));
    m.sort_keys();
    Value::Object(m)
}

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

/// A `transaction` stream message for `api_version` (rippled `transJson`).
pub fn transaction_message(entry: &TxEntry, source: &TxSource<'_>, api_version: u32) -> Value {
    let mut m = Map::new();
    let mut tx = tx_json(&entry.tx, &entry.id, 1);
    tx.remove("hash");
    let ter: Ter = entry.ter;
    m.insert("type".into(), Value::from("transaction"));
    match source {
        TxSource::Validated { closed, network_id } => {
            m.insert("meta".into(), meta_json(entry));
            let net = entry.tx.get_u32("NetworkID").unwrap_or(*network_id);
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
                Value::from(iso_time(closed.header.close_time)),
            );
            m.insert("status".into(), Value::from("closed"));
        }
        TxSource::Proposed { seq } => {
            m.insert("validated".into(), Value::from(false));
            m.insert("ledger_current_index".into(), Value::from(*seq));
            m.insert("status".into(), Value::from("proposed"));
        }
    }
    m.insert("engine_result".into(), Value::from(ter.name()));
    m.insert("engine_result_code".into(), Value::from(ter.code()));
    m.insert("engine_result_message".into(), Value::from(ter.message()));
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

/// Metadata JSON with `delivered_amount` (rippled `insertDeliveredAmount`: Payments with
/// tesSUCCESS).
pub fn meta_json(entry: &TxEntry) -> Value {
    let mut meta = match codec::to_json(&entry.meta) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    let is_payment = crate::protocol::tx::transaction_type_name(&entry.tx) == Some("Payment");
    if is_payment && entry.ter.is_tes() {
        let delivered = entry
            .delivered
            .or_else(|| entry.meta.get_amount("DeliveredAmount"))
            .or_else(|| entry.tx.get_amount("Amount"));
        if let Some(a) = delivered {
            meta.insert("delivered_amount".into(), a.to_json());
        }
    }
    meta.sort_keys();
    Value::Object(meta)
}

/// rippled's `encodeCTID`: `C` + 16 hex digits of (0xC, ledger seq: 28 bits, index: 16
/// bits, network id: 16 bits), or none when a part does not fit.
pub fn ctid(ledger_seq: u32, index: u32, network_id: u32) -> Option<String> {
    if ledger_seq >= 0x1000_0000 || index > 0xFFFF || network_id > 0xFFFF {
        return None;
    }
    let v = ((0xC000_0000u64 | u64::from(ledger_seq)) << 32)
        | (u64::from(index) << 16)
        | u64::from(network_id);
    Some(format!("{v:016X}"))
}

/// A ripple-epoch time as rippled's `to_string_iso`: `2000-01-01T00:00:00Z`.
pub fn iso_time(ripple_secs: u32) -> String {
    let unix = i64::from(ripple_secs) + crate::rpc::ledger_status::RIPPLE_EPOCH_OFFSET_SECS as i64;
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

/// The accounts a transaction mentions (`STTx::getMentionedAccounts`: account fields and
/// issuers of amounts), plus, when it has metadata, the accounts of the entries it
/// touched (`TxMeta::getAffectedAccounts`).
pub fn affected_accounts(entry: &TxEntry, with_meta: bool) -> BTreeSet<AccountId> {
    let mut out = BTreeSet::new();
    collect_accounts(&entry.tx, &mut out);
    if with_meta {
        collect_accounts(&entry.meta, &mut out);
    }
    out.remove(&AccountId::ZERO);
    out
}

fn collect_accounts(obj: &StObject, out: &mut BTreeSet<AccountId>) {
    for (_, v) in obj.iter() {
        match v {
            StValue::AccountId(a) => {
                out.insert(*a);
            }
            StValue::Amount(a) if !a.is_xrp() => {
                out.insert(a.issue().issuer);
            }
            StValue::Object(o) => collect_accounts(o, out),
            StValue::Array(items) => {
                for (_, o) in items {
                    collect_accounts(o, out);
                }
            }
            _ => {}
        }
    }
}

/// The `validated_ledgers` text of a store (`a-b`).
pub fn complete_ledgers(store: &LedgerStore) -> String {
    match store.complete_range() {
        (0, 0) => "empty".into(),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}-{b}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_and_ctids() {
        assert_eq!(iso_time(0), "2000-01-01T00:00:00Z");
        assert_eq!(iso_time(455_751_310), "2014-06-10T21:35:10Z");
        assert_eq!(ctid(1, 0, 0).as_deref(), Some("C000000100000000"));
        assert_eq!(
            ctid(0x0FFF_FFFF, 0xFFFF, 0xFFFF).as_deref(),
            Some("CFFFFFFFFFFFFFFF")
        );
        assert_eq!(ctid(0x1000_0000, 0, 0), None);
    }

    #[test]
    fn deliver_max_by_version() {
        let mut v1 = Map::new();
        v1.insert("TransactionType".into(), Value::from("Payment"));
        v1.insert("Amount".into(), Value::from("10"));
        let mut v2 = v1.clone();
        insert_deliver_max(&mut v1, 1);
        insert_deliver_max(&mut v2, 2);
        assert_eq!(v1["Amount"], "10");
        assert_eq!(v1["DeliverMax"], "10");
        assert!(!v2.contains_key("Amount"));
        assert_eq!(v2["DeliverMax"], "10");
    }
}
