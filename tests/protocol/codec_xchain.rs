//! The XChainBridge field type (rippled's `STXChainBridge`) against bytes made by an
//! outside library: every XChain transaction in xrpl.js's `codec-fixtures.json`
//! (`tests/vectors/xchain_codec.json`), decoded, re-encoded byte-exact and printed as the
//! fixture; and the JSON forms rippled refuses.

use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::xchain::XChainBridge;
use serde_json::{json, Value};

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string("tests/vectors/xchain_codec.json").expect("vectors");
    let v: Value = serde_json::from_str(&text).expect("json");
    v["cases"].as_array().expect("cases").clone()
}

#[test]
fn every_xchain_fixture_round_trips_byte_exact() {
    let cases = cases();
    assert_eq!(cases.len(), 8, "the eight XChain transaction types");
    for case in cases {
        let hex_bytes = case["binary"].as_str().unwrap();
        let tx = &case["json"];
        let name = tx["TransactionType"].as_str().unwrap();
        let obj = decode(&hex::decode(hex_bytes).unwrap()).expect(name);
        assert_eq!(
            hex::encode_upper(encode(&obj)),
            hex_bytes,
            "{name} re-encodes"
        );
        let parsed = from_json(tx).expect(name);
        assert_eq!(parsed, obj, "{name}: JSON and binary agree");
        assert_eq!(
            hex::encode_upper(encode(&parsed)),
            hex_bytes,
            "{name} encodes"
        );
        let mut printed = to_json(&obj);
        let mut want = tx.clone();
        // The fixtures' Flags 0 and missing keys aside, the bridge prints as the fixture.
        assert_eq!(
            printed["XChainBridge"], want["XChainBridge"],
            "{name} bridge"
        );
        printed.as_object_mut().unwrap().remove("XChainBridge");
        want.as_object_mut().unwrap().remove("XChainBridge");
        assert_eq!(from_json(&printed).unwrap(), from_json(&want).unwrap());
    }
}

fn iou_bridge() -> Value {
    json!({
        "LockingChainDoor": "rGzx83BVoqTYbGn7tiVAnFw7cbxjin13jL",
        "LockingChainIssue": {"currency": "USD", "issuer": "rGzx83BVoqTYbGn7tiVAnFw7cbxjin13jL"},
        "IssuingChainDoor": "r3kmLJN5D28dHuH8vZNUZpMC43pEHpaocV",
        "IssuingChainIssue": {"currency": "USD", "issuer": "r3kmLJN5D28dHuH8vZNUZpMC43pEHpaocV"}
    })
}

#[test]
fn an_iou_bridge_is_door_vl_then_forty_byte_issues() {
    let b = XChainBridge::from_json(&iou_bridge()).expect("parses");
    let mut out = Vec::new();
    b.write(&mut out);
    assert_eq!(out.len(), 2 * (21 + 40));
    assert_eq!(out[0], 20, "the door carries its length prefix");
    assert_eq!(out[61], 20);
    assert_eq!(b.to_json(), iou_bridge());
    let tx = json!({
        "TransactionType": "XChainCreateBridge",
        "Account": "rGzx83BVoqTYbGn7tiVAnFw7cbxjin13jL",
        "XChainBridge": iou_bridge(),
        "SignatureReward": "1000",
        "Fee": "10",
        "Sequence": 1,
    });
    let obj = from_json(&tx).unwrap();
    assert_eq!(
        obj.get_named("XChainBridge"),
        Some(&StValue::XChainBridge(b))
    );
    assert_eq!(decode(&encode(&obj)).unwrap(), obj);
    assert_eq!(to_json(&obj)["XChainBridge"], iou_bridge());
}

#[test]
fn rippled_refuses_extra_keys_missing_parts_and_bad_issues() {
    let mut extra = iou_bridge();
    extra["Extra"] = json!(1);
    let mut missing = iou_bridge();
    missing.as_object_mut().unwrap().remove("IssuingChainIssue");
    let mut xrp_issuer = iou_bridge();
    xrp_issuer["LockingChainIssue"] =
        json!({"currency": "XRP", "issuer": "rGzx83BVoqTYbGn7tiVAnFw7cbxjin13jL"});
    let mut bad_door = iou_bridge();
    bad_door["LockingChainDoor"] = json!(5);
    for (label, bridge) in [
        ("extra", extra),
        ("missing", missing),
        ("xrp issuer", xrp_issuer),
        ("bad door", bad_door),
        ("not an object", json!("bridge")),
    ] {
        assert!(XChainBridge::from_json(&bridge).is_none(), "{label}");
        let tx = json!({"TransactionType": "XChainCreateBridge", "XChainBridge": bridge});
        let err = from_json(&tx).expect_err(label).to_string();
        assert!(err.contains("XChainBridge"), "{label}: {err}");
    }
}

#[test]
fn a_truncated_bridge_does_not_decode() {
    let case = &cases()[0];
    let hex_bytes = case["binary"].as_str().unwrap();
    let bytes = hex::decode(hex_bytes).unwrap();
    assert!(decode(&bytes[..bytes.len() - 5]).is_err());
}
