//! A transaction and its metadata as rippled renders them (`STTx::getJson`,
//! `insertDeliverMax`, `insertDeliveredAmount`, `encodeCTID`).

use crate::engine::Ter;
use crate::ledgers::TxEntry;
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::tx::transaction_type_name;
use crate::protocol::types::Hash256;
use serde_json::{Map, Value};

fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(o) => o,
        _ => Map::new(),
    }
}

/// A transaction's JSON (`STTx::getJson`): v1 carries `hash` inside, v2 does not (the
/// caller puts it at the top level). No `DeliverMax`: see [`insert_deliver_max`].
pub fn tx_json(tx: &StObject, id: &Hash256, api_version: u32) -> Map<String, Value> {
    let mut obj = object(codec::to_json(tx));
    if api_version < 2 {
        obj.insert("hash".into(), Value::from(id.to_hex()));
    }
    obj
}

/// The transaction's fields with Payment's `DeliverMax` (v1: beside `Amount`; v2: instead),
/// keys sorted.
pub fn tx_fields(tx: &StObject, api_version: u32) -> Map<String, Value> {
    let mut o = object(codec::to_json(tx));
    insert_deliver_max(&mut o, api_version);
    o.sort_keys();
    o
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

/// rippled's `canHaveDeliveredAmount`: the types whose successful results say what they
/// delivered.
fn can_have_delivered_amount(tx: &StObject) -> bool {
    matches!(
        transaction_type_name(tx),
        Some("Payment" | "CheckCash" | "AccountDelete")
    )
}

/// The metadata JSON with rippled's synthetic `delivered_amount` (`insertDeliveredAmount`:
/// the amount the engine recorded, else the metadata's `DeliveredAmount`, else the
/// transaction's `Amount`).
pub fn meta_json(entry: &TxEntry) -> Value {
    let mut meta = object(codec::to_json(&entry.meta));
    if can_have_delivered_amount(&entry.tx) && entry.ter == Ter::tesSUCCESS {
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

/// [`meta_json`] with rippled's NFToken fields (`insertNFTSyntheticInJson`), as `tx`,
/// `account_tx` and the transaction stream show it.
pub fn meta_json_nft(entry: &TxEntry) -> Value {
    let mut meta = object(meta_json(entry));
    super::nft::insert_nft_synthetic(&mut meta, entry);
    meta.sort_keys();
    Value::Object(meta)
}

/// rippled's `encodeCTID`: `C` + 16 hex digits of (0xC, ledger seq: 28 bits, index: 16
/// bits, network id: 16 bits), or none when a part does not fit.
pub fn ctid(ledger_seq: u32, index: u32, network_id: u32) -> Option<String> {
    if ledger_seq > 0x0FFF_FFFF || index > 0xFFFF || network_id > 0xFFFF {
        return None;
    }
    let v = 0xC000_0000_0000_0000u64
        | (u64::from(ledger_seq) << 32)
        | (u64::from(index) << 16)
        | u64::from(network_id);
    Some(format!("{v:016X}"))
}

/// Decodes a CTID string into (ledger sequence, index, network id).
pub fn parse_ctid(text: &str) -> Option<(u32, u32, u32)> {
    if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u64::from_str_radix(text, 16).ok()?;
    if v >> 60 != 0xC {
        return None;
    }
    Some((
        ((v >> 32) & 0x0FFF_FFFF) as u32,
        ((v >> 16) & 0xFFFF) as u32,
        (v & 0xFFFF) as u32,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctids() {
        assert_eq!(ctid(1, 0, 0).as_deref(), Some("C000000100000000"));
        assert_eq!(
            ctid(0x0FFF_FFFF, 0xFFFF, 0xFFFF).as_deref(),
            Some("CFFFFFFFFFFFFFFF")
        );
        let c = ctid(7, 3, 21337).unwrap();
        assert_eq!(c, "C000000700035359");
        assert_eq!(parse_ctid(&c), Some((7, 3, 21337)));
        assert_eq!(ctid(0x1000_0000, 0, 0), None);
        assert_eq!(parse_ctid("B000000700035359"), None);
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
