//! The `consensus` and `validations` stream messages: `consensusPhase` (rippled
//! `NetworkOPs::pubConsensus`) and `validationReceived` (`NetworkOPs::pubValidation`),
//! the latter in the API v1 (`ledger_index` a string) and v2 shapes.

use crate::protocol::amount::Amount;
use crate::protocol::codec::encode;
use crate::protocol::keys::PublicKey;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::hex_upper;
use crate::protocol::validation::VF_FULL_VALIDATION;
use serde_json::{Map, Value};

/// A phase of a consensus round, as the `consensus` stream names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The ledger is open: transactions are being collected.
    Open,
    /// The ledger closed; the validators agree on its transactions.
    Establish,
    /// The transaction set is agreed and the new ledger built.
    Accepted,
}

impl Phase {
    /// rippled's `to_string(ConsensusPhase)`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Open => "open",
            Phase::Establish => "establish",
            Phase::Accepted => "accepted",
        }
    }
}

/// The `consensusPhase` message.
pub fn consensus_phase(phase: Phase) -> Value {
    serde_json::json!({"type": "consensusPhase", "consensus": phase.as_str()})
}

/// The `validationReceived` message of validation `v` for a subscriber of
/// `api_version`, on a server of network `network_id`. No `master_key`: the signing key
/// is the master key (no manifest delegates it).
pub fn validation_received(v: &StObject, network_id: u32, api_version: u32) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from("validationReceived"));
    if let Some(key) = v
        .get_blob("SigningPubKey")
        .and_then(|k| PublicKey::from_slice(k).ok())
    {
        m.insert(
            "validation_public_key".into(),
            Value::from(key.to_node_base58()),
        );
    }
    let hash = v.get_h256("LedgerHash").unwrap_or_default();
    m.insert("ledger_hash".into(), Value::from(hash.to_hex()));
    let signature = v.get_blob("Signature").unwrap_or(&[]);
    m.insert("signature".into(), Value::from(hex_upper(signature)));
    let flags = v.get_u32("Flags").unwrap_or(0);
    m.insert("full".into(), Value::from(flags & VF_FULL_VALIDATION != 0));
    m.insert("flags".into(), Value::from(flags));
    if let Some(t) = v.get_u32("SigningTime") {
        m.insert("signing_time".into(), Value::from(t));
    }
    m.insert("data".into(), Value::from(hex_upper(encode(v))));
    m.insert("network_id".into(), Value::from(network_id));
    for (key, field) in [("server_version", "ServerVersion"), ("cookie", "Cookie")] {
        if let Some(n) = v.get_u64(field) {
            m.insert(key.into(), Value::from(n.to_string()));
        }
    }
    if let Some(h) = v.get_h256("ValidatedHash") {
        m.insert("validated_hash".into(), Value::from(h.to_hex()));
    }
    if let Some(seq) = v.get_u32("LedgerSequence") {
        let seq = match api_version {
            1 => Value::from(seq.to_string()),
            _ => Value::from(seq),
        };
        m.insert("ledger_index".into(), seq);
    }
    insert_votes(v, &mut m);
    Value::Object(m)
}

/// The votes a flag ledger's validation carries: amendments, the load fee, and fees in
/// their legacy (`BaseFee`, `ReserveBase`, `ReserveIncrement`) or XRPFees (`..Drops`)
/// fields, both printed under `base_fee`, `reserve_base`, `reserve_inc`.
fn insert_votes(v: &StObject, m: &mut Map<String, Value>) {
    if let Some(ids) = v.get_vector256("Amendments") {
        let ids = ids.iter().map(|id| Value::from(id.to_hex())).collect();
        m.insert("amendments".into(), Value::Array(ids));
    }
    for (key, field) in [("close_time", "CloseTime"), ("load_fee", "LoadFee")] {
        if let Some(n) = v.get_u32(field) {
            m.insert(key.into(), Value::from(n));
        }
    }
    if let Some(fee) = v.get_u64("BaseFee") {
        // rippled prints it as a double.
        m.insert("base_fee".into(), Value::from(fee as f64));
    }
    for (key, field) in [
        ("reserve_base", "ReserveBase"),
        ("reserve_inc", "ReserveIncrement"),
    ] {
        if let Some(n) = v.get_u32(field) {
            m.insert(key.into(), Value::from(n));
        }
    }
    for (key, field) in [
        ("base_fee", "BaseFeeDrops"),
        ("reserve_base", "ReserveBaseDrops"),
        ("reserve_inc", "ReserveIncrementDrops"),
    ] {
        if let Some(StValue::Amount(Amount::Xrp(drops))) = v.get_named(field) {
            // `XRPAmount::jsonClipped`: an int, clipped to 32 bits.
            let clipped = (*drops).clamp(i64::from(i32::MIN), i64::from(i32::MAX));
            m.insert(key.into(), Value::from(clipped));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::codec::decode;
    use crate::protocol::keys::KeyPair;
    use crate::protocol::seed::Seed;
    use crate::protocol::types::Hash256;
    use crate::protocol::validation::{is_valid, sign};

    fn validation(fill: impl FnOnce(&mut StObject)) -> StObject {
        let keys = KeyPair::node_from_seed(&Seed::from_passphrase("masterpassphrase")).unwrap();
        sign(&keys, 812_345_678, |v| {
            v.set_named("LedgerHash", StValue::Hash256(Hash256([0xAB; 32])));
            v.set_named("LedgerSequence", StValue::UInt32(77));
            v.set_named("Flags", StValue::UInt32(VF_FULL_VALIDATION));
            v.set_named("Cookie", StValue::UInt64(u64::MAX));
            fill(v);
        })
        .unwrap()
    }

    #[test]
    fn phases_are_named_as_rippled_names_them() {
        let names: Vec<Value> = [Phase::Open, Phase::Establish, Phase::Accepted]
            .into_iter()
            .map(|p| consensus_phase(p)["consensus"].clone())
            .collect();
        assert_eq!(names, ["open", "establish", "accepted"]);
        assert_eq!(consensus_phase(Phase::Open)["type"], "consensusPhase");
    }

    /// The message's fields, `ledger_index` by API version, and `data` decodes to the
    /// signed validation.
    #[test]
    fn a_validation_message_carries_the_signed_object() {
        let v = validation(|_| {});
        let m = validation_received(&v, 21338, 2);
        assert_eq!(m["type"], "validationReceived");
        assert_eq!(
            m["validation_public_key"],
            "n94a1u4jAz288pZLtw6yFWVbi89YamiC6JBXPVUj5zmExe5fTVg9"
        );
        assert_eq!(m["ledger_hash"], "AB".repeat(32));
        assert_eq!(m["ledger_index"], 77);
        assert_eq!(m["flags"], 0x8000_0001u32);
        assert_eq!(m["full"], true);
        assert_eq!(m["signing_time"], 812_345_678);
        assert_eq!(m["cookie"], u64::MAX.to_string());
        assert_eq!(m["network_id"], 21338);
        assert!(m.get("server_version").is_none() && m.get("amendments").is_none());
        assert_eq!(validation_received(&v, 0, 1)["ledger_index"], "77");
        let data = hex::decode(m["data"].as_str().unwrap()).unwrap();
        let back = decode(&data).unwrap();
        assert!(is_valid(&back));
        assert_eq!(
            hex_upper(back.get_blob("Signature").unwrap()),
            m["signature"]
        );
    }

    #[test]
    fn flag_ledger_votes_are_printed() {
        let v = validation(|v| {
            v.set_named("ServerVersion", StValue::UInt64(7));
            v.set_named("Amendments", StValue::Vector256(vec![Hash256([1; 32])]));
            v.set_named("BaseFeeDrops", StValue::Amount(Amount::Xrp(20)));
            v.set_named(
                "ReserveBaseDrops",
                StValue::Amount(Amount::Xrp(5_000_000_000)),
            );
        });
        let m = validation_received(&v, 0, 2);
        assert_eq!(m["server_version"], "7");
        assert_eq!(m["amendments"], serde_json::json!(["01".repeat(32)]));
        assert_eq!(m["base_fee"], 20);
        assert_eq!(m["reserve_base"], i32::MAX);
        assert!(m.get("reserve_inc").is_none());
    }
}
