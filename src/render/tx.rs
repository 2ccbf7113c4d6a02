//! A transaction and its metadata as rippled renders them (`STTx::getJson`,
//! `insertDeliverMax`, `insertDeliveredAmount`, `encodeCTID`).

use crate::engine::Ter;
use crate::ledger::flags::lt;
use crate::ledgers::DecodedTx;
use crate::protocol::codec;
use crate::protocol::mpt::MptId;
use crate::protocol::st::{StObject, StValue};
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
pub fn meta_json(entry: &DecodedTx<'_>) -> Value {
    let (tx, decoded) = (&entry.tx, &entry.meta);
    let mut meta = object(codec::to_json(decoded));
    if can_have_delivered_amount(tx) && entry.ter == Ter::tesSUCCESS {
        let delivered = entry
            .delivered
            .map(|a| a.to_json())
            .or_else(|| amount_json(decoded, "DeliveredAmount"))
            .or_else(|| amount_json(tx, "Amount"));
        if let Some(a) = delivered {
            meta.insert("delivered_amount".into(), a);
        }
    }
    if let Some(id) = created_mpt_issuance_id(tx, decoded, entry.ter) {
        meta.insert("mpt_issuance_id".into(), Value::from(id.to_hex()));
    }
    meta.sort_keys();
    Value::Object(meta)
}

/// An Amount field's JSON, XRP, IOU or MPT.
fn amount_json(o: &StObject, name: &str) -> Option<Value> {
    match o.get_named(name)? {
        StValue::Amount(a) => Some(a.to_json()),
        StValue::MptAmount(a) => Some(a.to_json()),
        _ => None,
    }
}

/// rippled's `insertMPTokenIssuanceID`: a successful MPTokenIssuanceCreate names the
/// issuance it created (from the created entry's Issuer and Sequence).
fn created_mpt_issuance_id(tx: &StObject, meta: &StObject, ter: Ter) -> Option<MptId> {
    if transaction_type_name(tx) != Some("MPTokenIssuanceCreate") || ter != Ter::tesSUCCESS {
        return None;
    }
    meta.get_array("AffectedNodes")?
        .iter()
        .filter(|(f, node)| {
            f.name() == "CreatedNode"
                && node.get_u16("LedgerEntryType") == Some(lt::MPTOKEN_ISSUANCE)
        })
        .find_map(|(_, node)| {
            let fields = node.get_object("NewFields")?;
            Some(MptId::new(
                fields.get_u32("Sequence")?,
                &fields.get_account("Issuer")?,
            ))
        })
}

/// [`meta_json`] with rippled's NFToken fields (`insertNFTSyntheticInJson`), as `tx`,
/// `account_tx` and the transaction stream show it.
pub fn meta_json_nft(entry: &DecodedTx<'_>) -> Value {
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
