//! Ledgers as rippled renders them: a header (`LedgerToJson.cpp`), an entry (`getJson` +
//! `index`), the `ledger` stream's fields and its `ledgerClosed` message
//! (`NetworkOPs::subLedger` / `pubLedger`), `complete_ledgers`.

use crate::ledger::header::LedgerHeader;
use crate::ledgers::ClosedLedger;
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::time;
use crate::protocol::types::Hash256;
use serde_json::{Map, Value};

/// An entry's JSON plus its `index`.
pub fn entry_json(key: &Hash256, entry: &StObject) -> Value {
    let mut v = codec::to_json(entry);
    if let Value::Object(o) = &mut v {
        o.insert("index".into(), Value::from(key.to_hex()));
        // `STLedgerEntry::getJson`: an issuance also shows its MPTID.
        if entry.get_u16("LedgerEntryType") == Some(crate::ledger::flags::lt::MPTOKEN_ISSUANCE) {
            if let (Some(seq), Some(issuer)) =
                (entry.get_u32("Sequence"), entry.get_account("Issuer"))
            {
                let id = crate::protocol::mpt::MptId::new(seq, &issuer);
                o.insert("mpt_issuance_id".into(), Value::from(id.to_hex()));
            }
        }
        o.sort_keys();
    }
    v
}

/// A closed ledger's header as the `ledger` method prints it (`ledger_index` a string in
/// v1, a number in v2).
pub fn header_json(h: &LedgerHeader, api_version: u32) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("account_hash".into(), Value::from(h.account_hash.to_hex()));
    o.insert("close_flags".into(), Value::from(h.close_flags));
    o.insert("close_time".into(), Value::from(h.close_time));
    o.insert(
        "close_time_human".into(),
        Value::from(time::human(h.close_time)),
    );
    o.insert(
        "close_time_iso".into(),
        Value::from(time::iso(h.close_time)),
    );
    if h.close_flags & 1 != 0 {
        o.insert("close_time_estimated".into(), Value::from(true));
    }
    o.insert(
        "close_time_resolution".into(),
        Value::from(h.close_time_resolution),
    );
    o.insert("closed".into(), Value::from(true));
    o.insert("ledger_hash".into(), Value::from(h.hash.to_hex()));
    o.insert("ledger_index".into(), seq_value(h.seq, api_version));
    o.insert("parent_close_time".into(), Value::from(h.parent_close_time));
    o.insert("parent_hash".into(), Value::from(h.parent_hash.to_hex()));
    o.insert("total_coins".into(), Value::from(h.total_drops.to_string()));
    o.insert(
        "transaction_hash".into(),
        Value::from(h.transaction_hash.to_hex()),
    );
    o
}

/// A closed ledger's header in binary: `closed` and the raw header as `ledger_data`.
pub fn header_binary_json(h: &LedgerHeader) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("closed".into(), Value::from(true));
    o.insert(
        "ledger_data".into(),
        Value::from(crate::protocol::types::hex_upper(h.raw())),
    );
    o
}

/// A ledger sequence in a header: a string in v1, a number from v2 on.
pub fn seq_value(seq: u32, api_version: u32) -> Value {
    if api_version >= 2 {
        Value::from(seq)
    } else {
        Value::from(seq.to_string())
    }
}

/// `complete_ledgers` / `validated_ledgers` as rippled prints a range: `"a-b"`, `"a"`, or
/// `"empty"`.
pub fn complete_ledgers(range: Option<(u32, u32)>) -> String {
    match range {
        None | Some((0, 0)) => "empty".into(),
        Some((a, b)) if a == b => a.to_string(),
        Some((a, b)) => format!("{a}-{b}"),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_print_like_rippled() {
        assert_eq!(complete_ledgers(None), "empty");
        assert_eq!(complete_ledgers(Some((0, 0))), "empty");
        assert_eq!(complete_ledgers(Some((3, 3))), "3");
        assert_eq!(complete_ledgers(Some((1, 9))), "1-9");
    }
}
