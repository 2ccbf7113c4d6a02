//! Transaction serialization, signing data and IDs against `tests/vectors/tx_signing.json`
//! (xrpl-py 5.2.0, checked with xrpl.js 5.3.0): 23 single-signed cases and one
//! two-signer multisign case. Signatures are re-made with the crypto module
//! (`KeyPair::from_seed`) and must match byte for byte (RFC 6979 / ed25519 are
//! deterministic), then verify.

use crate::support;

use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use ledgerd::protocol::hash::sha512_half;
use ledgerd::protocol::keys::{KeyPair, KeyType};

use ledgerd::protocol::sign::verify;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::tx::{
    multisigning_data, signing_data, signing_hash, transaction_id, transaction_id_of,
};
use ledgerd::protocol::types::AccountId;
use serde_json::Value;
use support::vectors;

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
    let v = vectors::load("tx_signing");
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
    let v = vectors::load("tx_signing");
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

fn key_pair(seed: &str, key_type: &str) -> KeyPair {
    let kt = KeyType::from_name(key_type).expect("key type");
    KeyPair::from_seed(&vectors::seed(seed), kt).expect("key pair")
}

#[test]
fn re_sign_and_verify() {
    let v = vectors::load("tx_signing");
    for case in v["cases"].as_array().expect("cases") {
        let label = case["label"].as_str().unwrap_or("?");
        let kp = key_pair(
            case["signer_seed"].as_str().expect("seed"),
            case["key_type"].as_str().expect("key type"),
        );
        let pk_hex = case["signer_public_key_hex"].as_str().expect("pk");
        assert_eq!(kp.public.to_hex(), pk_hex, "{label}: public key");

        // Sign the unsigned tx_json with SigningPubKey filled in, as `sign` does.
        let mut unsigned = case["tx_json"].clone();
        unsigned["SigningPubKey"] = Value::String(pk_hex.to_string());
        let tx = parse(label, &unsigned);
        let sd = signing_data(&tx);
        let sig = kp.sign(&sd);
        let want = case["tx_json_signed"]["TxnSignature"]
            .as_str()
            .expect("sig");
        assert_eq!(hex::encode_upper(&sig), want, "{label}: TxnSignature");
        assert!(verify(&kp.public, &sd, &sig, true), "{label}: verifies");

        // The signature over the signed blob's own signing data verifies too, and a
        // changed transaction does not.
        let signed =
            decode(&hex::decode(case["signed_blob_hex"].as_str().expect("blob")).expect("hex"))
                .expect("decodes");
        let blob_sig = signed.get_blob("TxnSignature").expect("TxnSignature");
        assert!(
            verify(&kp.public, &signing_data(&signed), blob_sig, true),
            "{label}"
        );
        let mut changed = signed.clone();
        changed.set_named(
            "Sequence",
            StValue::UInt32(signed.get_u32("Sequence").unwrap_or(0) + 1),
        );
        assert!(
            !verify(&kp.public, &signing_data(&changed), blob_sig, true),
            "{label}"
        );
    }
}

#[test]
fn multisign_re_sign_and_verify() {
    let v = vectors::load("tx_signing");
    for case in v["multisign_cases"].as_array().expect("multisign") {
        let label = case["label"].as_str().unwrap_or("?");
        let tx = parse(label, &case["tx_json"]);
        for s in case["signers"].as_array().expect("signers") {
            let seed = s["seed"].as_str().expect("seed");
            let kt = if seed.starts_with("sEd") {
                "ed25519"
            } else {
                "secp256k1"
            };
            let kp = key_pair(seed, kt);
            assert_eq!(
                kp.public.to_hex(),
                s["public_key_hex"].as_str().expect("pk")
            );
            let account = kp.account_id();
            assert_eq!(
                account.to_address(),
                s["account"].as_str().expect("account")
            );
            let data = multisigning_data(&tx, &account);
            let sig = kp.sign(&data);
            assert_eq!(
                hex::encode_upper(&sig),
                s["signature_hex"].as_str().expect("sig"),
                "{label}"
            );
            assert!(verify(&kp.public, &data, &sig, true), "{label}");
            // Signed for another account, the same signature does not verify.
            assert!(!verify(
                &kp.public,
                &multisigning_data(&tx, &AccountId::ONE),
                &sig,
                true
            ));
        }
    }
}
