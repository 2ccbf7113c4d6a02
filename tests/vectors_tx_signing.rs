//! Transaction serialization, signing data and IDs against `tests/vectors/tx_signing.json`
//! (xrpl-py 5.2.0, checked with xrpl.js 5.3.0): 23 single-signed cases and one
//! two-signer multisign case.

use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use ledgerd::protocol::hash::sha512_half;
use ledgerd::protocol::st::StObject;
use ledgerd::protocol::tx::{
    multisigning_data, signing_data, signing_hash, transaction_id, transaction_id_of,
};
use ledgerd::protocol::types::AccountId;
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("vectors/tx_signing.json")).expect("tx_signing.json parses")
}

fn all_cases(v: &Value) -> Vec<Value> {
    let mut out: Vec<Value> = v["cases"].as_array().expect("cases").clone();
    out.extend(
        v["multisign_cases"]
            .as_array()
            .expect("multisign")
            .iter()
            .cloned(),
    );
    out
}

fn parse(label: &str, j: &Value) -> StObject {
    from_json(j).unwrap_or_else(|e| panic!("{label}: {e}"))
}

#[test]
fn blobs_json_signing_data_and_ids() {
    let v = vectors();
    let cases = all_cases(&v);
    assert_eq!(cases.len(), 24);
    for case in &cases {
        let label = case["label"].as_str().unwrap_or("?");
        let blob_hex = case["signed_blob_hex"].as_str().expect("blob");
        let blob = hex::decode(blob_hex).expect("hex");

        // JSON -> binary.
        let tx = parse(label, &case["tx_json_signed"]);
        assert_eq!(hex::encode_upper(encode(&tx)), blob_hex, "{label}: blob");

        // Binary -> JSON (field order ignored: Value maps compare as maps).
        let decoded = decode(&blob).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(decoded, tx, "{label}: decoded object");
        assert_eq!(
            to_json(&decoded),
            case["tx_json_signed"],
            "{label}: to_json"
        );

        // Transaction ID.
        let id = transaction_id(&blob);
        assert_eq!(
            id.to_hex(),
            case["hash"].as_str().expect("hash"),
            "{label}: id"
        );
        assert_eq!(transaction_id_of(&decoded), id, "{label}: id of object");

        // Signing data (single-signed cases).
        if let Some(sd_hex) = case["signing_data_hex"].as_str() {
            let sd = signing_data(&decoded);
            assert_eq!(hex::encode_upper(&sd), sd_hex, "{label}: signing data");
            if let Some(h) = case["signing_hash_hex"].as_str() {
                assert_eq!(sha512_half(&[&sd]).to_hex(), h, "{label}: signing hash");
                assert_eq!(
                    signing_hash(&decoded).to_hex(),
                    h,
                    "{label}: signing_hash()"
                );
            }
        }
    }
}

#[test]
fn multisigning_data_per_signer() {
    let v = vectors();
    let ms = v["multisign_cases"].as_array().expect("multisign");
    assert_eq!(ms.len(), 1);
    for case in ms {
        let label = case["label"].as_str().unwrap_or("?");
        let unsigned = parse(label, &case["tx_json"]);
        let signed = parse(label, &case["tx_json_signed"]);
        let signers = case["signers"].as_array().expect("signers");
        assert_eq!(signers.len(), 2);
        for s in signers {
            let account =
                AccountId::from_address(s["account"].as_str().expect("account")).expect("address");
            let want = s["multisigning_data_hex"].as_str().expect("data");
            // Signers (not a signing field) makes no difference to what each signer signs.
            assert_eq!(
                hex::encode_upper(multisigning_data(&unsigned, &account)),
                want,
                "{label}"
            );
            assert_eq!(
                hex::encode_upper(multisigning_data(&signed, &account)),
                want,
                "{label}"
            );
        }
        // The Signers array keeps its (ascending AccountID) order in the blob.
        let arr = signed.get_array("Signers").expect("Signers");
        let ids: Vec<AccountId> = arr
            .iter()
            .map(|(_, o)| o.get_account("Account").expect("signer account"))
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
}
