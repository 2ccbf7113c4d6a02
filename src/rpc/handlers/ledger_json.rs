//! JSON renderings the reading handlers share: a ledger entry (`getJson` + `index`), a
//! ledger header (`LedgerToJson.cpp`), a transaction with its metadata in the v1 and v2
//! shapes (`Transaction::getJson`, `insertDeliverMax`, `insertDeliveredAmount`), and close
//! times as rippled prints them.

use crate::engine::Ter;
use crate::ledger::header::LedgerHeader;
use crate::ledger::store::TxEntry;
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::tx::transaction_type_name;
use crate::protocol::types::Hash256;
use crate::rpc::ledger_status::RIPPLE_EPOCH_OFFSET_SECS;
use serde_json::{Map, Value};

/// An entry's JSON plus its `index`.
pub fn entry_json(key: &Hash256, entry: &StObject) -> Value {
    let mut v = codec::to_json(entry);
    if let Value::Object(o) = &mut v {
        o.insert("index".into(), Value::from(key.to_hex()));
        o.sort_keys();
    }
    v
}

/// (year, month 1..=12, day, hour, minute, second) of a ripple-epoch time.
fn civil(ripple_secs: u32) -> (i64, u32, u32, u64, u64, u64) {
    let unix = ripple_secs as u64 + RIPPLE_EPOCH_OFFSET_SECS;
    let z = (unix / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    let s = unix % 86_400;
    (y, m, d, s / 3600, s / 60 % 60, s % 60)
}

/// `2024-11-01T23:59:01Z` (`to_string_iso`).
pub fn time_iso(ripple_secs: u32) -> String {
    let (y, m, d, hh, mm, ss) = civil(ripple_secs);
    format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
}

/// `2024-Nov-01 23:59:01.000000000 UTC` (`to_string` of a NetClock time point).
pub fn time_human(ripple_secs: u32) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (y, m, d, hh, mm, ss) = civil(ripple_secs);
    format!(
        "{y:04}-{}-{d:02} {hh:02}:{mm:02}:{ss:02}.000000000 UTC",
        MONTHS[(m as usize + 11) % 12]
    )
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
        Value::from(time_human(h.close_time)),
    );
    o.insert("close_time_iso".into(), Value::from(time_iso(h.close_time)));
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

/// A ledger sequence in a header: a string in v1, a number from v2 on.
pub fn seq_value(seq: u32, api_version: u32) -> Value {
    if api_version >= 2 {
        Value::from(seq)
    } else {
        Value::from(seq.to_string())
    }
}

/// The transaction's JSON with Payment's `DeliverMax` (v1: beside `Amount`; v2: instead).
pub fn tx_fields(tx: &StObject, api_version: u32) -> Map<String, Value> {
    let mut o = match codec::to_json(tx) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    if transaction_type_name(tx) == Some("Payment") {
        if let Some(amount) = o.get("Amount").cloned() {
            if api_version >= 2 {
                o.remove("Amount");
            }
            o.insert("DeliverMax".into(), amount);
        }
    }
    o.sort_keys();
    o
}

/// The metadata JSON with rippled's synthetic `delivered_amount`.
pub fn meta_json(e: &TxEntry) -> Value {
    let mut v = codec::to_json(&e.meta);
    if let Value::Object(o) = &mut v {
        let kind = transaction_type_name(&e.tx);
        let can_deliver = matches!(kind, Some("Payment" | "CheckCash" | "AccountDelete"));
        if can_deliver && e.ter == Ter::tesSUCCESS {
            let delivered = e
                .delivered
                .as_ref()
                .map(|a| a.to_json())
                .or_else(|| o.get("DeliveredAmount").cloned())
                .or_else(|| codec::to_json(&e.tx).get("Amount").cloned());
            if let Some(d) = delivered {
                o.insert("delivered_amount".into(), d);
            }
        }
        o.sort_keys();
    }
    v
}

/// The compact transaction id (`encodeCTID`), when its parts fit.
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
    fn times_print_like_rippled() {
        assert_eq!(time_iso(0), "2000-01-01T00:00:00Z");
        assert_eq!(time_human(0), "2000-Jan-01 00:00:00.000000000 UTC");
        // 2024-11-01T23:59:01Z
        let t = (1_730_505_541 - RIPPLE_EPOCH_OFFSET_SECS) as u32;
        assert_eq!(time_iso(t), "2024-11-01T23:59:01Z");
        assert_eq!(time_human(t), "2024-Nov-01 23:59:01.000000000 UTC");
    }

    #[test]
    fn ctid_round_trip() {
        let c = ctid(7, 3, 21337).unwrap();
        assert_eq!(c, "C000000700035359");
        assert_eq!(parse_ctid(&c), Some((7, 3, 21337)));
        assert_eq!(ctid(0x1000_0000, 0, 0), None);
        assert_eq!(parse_ctid("B000000700035359"), None);
    }
}
