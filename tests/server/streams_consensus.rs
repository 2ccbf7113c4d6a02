//! The `consensus` and `validations` streams: the phases of each close and this server's
//! signed validation of each ledger, as the one validator of a network publishes them
//! (rippled `NetworkOPs::pubConsensus`, `pubValidation`).

use crate::support;

use ledgerd::protocol::codec::decode;
use ledgerd::protocol::hash::{prefix, sha512_half};
use ledgerd::protocol::keys::{KeyPair, PublicKey};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::sign::verify_digest;
use ledgerd::protocol::types::Hash256;
use serde_json::{json, Value};
use support::http::rpc_async;
use support::keys::{address, keys};
use support::payment::payment;
use support::server::{addr, start, start_with};
use support::ws::Ws;

/// The public key of the seed of "masterpassphrase" as a validation key (rippled's
/// `validation_create` vector).
const MASTER_NODE_KEY: &str = "n94a1u4jAz288pZLtw6yFWVbi89YamiC6JBXPVUj5zmExe5fTVg9";

/// The hash of a transaction set holding one transaction, `id`: the root inner node of a
/// SHAMap with a single leaf (whose hash is the id itself) under the id's first nibble.
fn one_tx_set_hash(id: &Hash256) -> String {
    let mut inner = prefix::INNER_NODE.to_vec();
    for branch in 0..16u8 {
        if branch == id.0[0] >> 4 {
            inner.extend_from_slice(&id.0);
        } else {
            inner.extend_from_slice(&[0; 32]);
        }
    }
    sha512_half(&[&inner]).to_hex()
}

/// Checks a `validationReceived` message against the ledger it validates and returns the
/// decoded validation: the signature verifies with the published key over the signed
/// fields of `data`.
fn check_validation(m: &Value, ledger: &Value, key: &str) -> ledgerd::protocol::st::StObject {
    assert_eq!(m["type"], "validationReceived", "{m}");
    assert_eq!(m["validation_public_key"], key, "{m}");
    assert_eq!(m["ledger_hash"], ledger["ledger_hash"], "{m}");
    assert_eq!(m["flags"], 0x8000_0001u32, "{m}");
    assert_eq!(m["full"], true);
    assert_eq!(m["network_id"], 0);
    assert!(m["signing_time"].as_u64().is_some_and(|t| t > 0), "{m}");
    assert!(m.get("master_key").is_none() && m.get("amendments").is_none());
    let data = hex::decode(m["data"].as_str().expect("data")).expect("hex");
    let v = decode(&data).expect("a validation");
    assert_eq!(
        Some(v.get_h256("LedgerHash").unwrap().to_hex()),
        ledger["ledger_hash"].as_str().map(String::from)
    );
    assert_eq!(
        hex::encode_upper(v.get_blob("Signature").unwrap()),
        m["signature"]
    );
    let public = PublicKey::from_node_base58(key).expect("n... key");
    assert_eq!(v.get_blob("SigningPubKey"), Some(&public.as_bytes()[..]));
    let mut signed = prefix::VALIDATION.to_vec();
    let mut unsigned = v.clone();
    unsigned.remove(ledgerd::protocol::definitions::Field::named("Signature"));
    signed.extend_from_slice(&ledgerd::protocol::codec::encode(&unsigned));
    let digest = sha512_half(&[&signed]);
    let sig = v.get_blob("Signature").unwrap();
    assert!(verify_digest(&public, digest.as_bytes(), sig, true), "{m}");
    // A changed field no longer verifies.
    let mut forged = signed.clone();
    let last = forged.len() - 1;
    forged[last] ^= 1;
    assert!(!verify_digest(
        &public,
        sha512_half(&[&forged]).as_bytes(),
        sig,
        true
    ));
    v
}

/// Three closes: each gives `establish`, `accepted`, the validation, then `open` on a v1
/// connection, and the validation before `ledgerClosed` on a v2 one; the validation names
/// the closed ledger, attests its parent as the last validated ledger, signs the hash of
/// the round's transaction set, and keeps its cookie while its signing time grows. The key
/// is `[validation_seed]`'s, and server_info and validator_info report it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_close_publishes_its_phases_and_a_signed_validation() {
    let seed = Seed::from_base58("snoPBrXtMeMyMHUVTgbuqAfg1SUTb").unwrap();
    let server = start_with(0, |c| {
        c.validation_key = Some(KeyPair::node_from_seed(&seed).unwrap());
    })
    .await;
    let a = addr(&server);
    let mut v1 = Ws::connect_to(a).await;
    let mut v2 = Ws::connect_to(a).await;
    let r = v1
        .req(json!({"command": "subscribe", "streams": ["consensus", "validations"]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let r = v2
        .req(json!({"command": "subscribe", "api_version": 2,
                    "streams": ["validations", "ledger"]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");

    let genesis = keys("masterpassphrase");
    let mut previous: Option<Value> = None;
    let mut cookie = Value::Null;
    let mut signing_time = 0;
    for round in 0..3 {
        let mut tx_id = None;
        if round == 1 {
            let blob = payment(&genesis, 1, &address("alice"), 100_000_000);
            let r = rpc_async(a, "submit", json!({"tx_blob": blob})).await;
            let id = r["result"]["tx_json"]["hash"]
                .as_str()
                .expect("hash")
                .to_owned();
            tx_id = Hash256::from_hex(&id);
        }
        let r = rpc_async(a, "ledger_accept", json!({})).await;
        assert!(r["result"]["ledger_current_index"].is_number(), "{r}");

        let v = v2.read().await.expect("validation");
        let ledger = v2.read().await.expect("ledgerClosed");
        assert_eq!(ledger["type"], "ledgerClosed", "{ledger}");
        assert_eq!(v["ledger_index"], ledger["ledger_index"], "{v}");
        let decoded = check_validation(&v, &ledger, MASTER_NODE_KEY);

        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(v1.read().await.expect("v1 message"));
        }
        let phases: Vec<&Value> = [0, 1, 3].iter().map(|i| &seen[*i]["consensus"]).collect();
        assert_eq!(phases, ["establish", "accepted", "open"], "{seen:?}");
        for i in [0, 1, 3] {
            assert_eq!(seen[i]["type"], "consensusPhase");
        }
        // API v1: ledger_index as a string; the same validation otherwise.
        let v1_validation = &seen[2];
        assert_eq!(
            v1_validation["ledger_index"],
            ledger["ledger_index"].to_string()
        );
        assert_eq!(v1_validation["data"], v["data"]);

        let set_hash = match tx_id {
            Some(id) => one_tx_set_hash(&id),
            None => "0".repeat(64),
        };
        assert_eq!(
            decoded.get_h256("ConsensusHash").unwrap().to_hex(),
            set_hash
        );
        if let Some(p) = &previous {
            assert_eq!(v["validated_hash"], p["ledger_hash"], "{v}");
            assert_eq!(v["cookie"], cookie);
        }
        assert!(v["cookie"].as_str().is_some_and(|c| c != "0"), "{v}");
        let t = v["signing_time"].as_u64().unwrap();
        assert!(t > signing_time, "{t} after {signing_time}");
        signing_time = t;
        cookie = v["cookie"].clone();
        previous = Some(ledger);
    }

    let info = rpc_async(a, "server_info", json!({})).await;
    assert_eq!(info["result"]["info"]["pubkey_validator"], MASTER_NODE_KEY);
    let r = rpc_async(a, "validator_info", json!({})).await;
    assert_eq!(r["result"]["master_key"], MASTER_NODE_KEY, "{r}");

    // Unsubscribed from validations: the next close's ledgerClosed comes alone.
    let r = v2
        .req(json!({"command": "unsubscribe", "streams": ["validations"]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    rpc_async(a, "ledger_accept", json!({})).await;
    let m = v2.read().await.expect("ledgerClosed");
    assert_eq!(m["type"], "ledgerClosed", "{m}");
    server.stop().await;
}

/// Without `[validation_seed]` the key is drawn at start: the validations carry the key
/// validator_info names (server_info reports `none`, as xrpld without validator keys), and
/// two servers draw different keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drawn_key_is_the_one_validator_info_names() {
    let mut keys_seen = Vec::new();
    for _ in 0..2 {
        let server = start(0).await;
        let a = addr(&server);
        let mut ws = Ws::connect_to(a).await;
        let r = ws
            .req(json!({"command": "subscribe", "streams": ["validations"]}))
            .await;
        assert_eq!(r["status"], "success", "{r}");
        let info = rpc_async(a, "server_info", json!({})).await;
        assert_eq!(info["result"]["info"]["pubkey_validator"], "none", "{info}");
        let named = rpc_async(a, "validator_info", json!({})).await;
        let key = named["result"]["master_key"]
            .as_str()
            .expect("a key")
            .to_owned();
        for _ in 0..3 {
            let r = rpc_async(a, "ledger_accept", json!({})).await;
            let seq = r["result"]["ledger_current_index"].as_u64().unwrap() - 1;
            let l = rpc_async(a, "ledger", json!({"ledger_index": seq})).await;
            let ledger = json!({"ledger_hash": l["result"]["ledger_hash"]});
            let m = ws.event("validationReceived").await;
            check_validation(&m, &ledger, &key);
        }
        keys_seen.push(key);
        server.stop().await;
    }
    assert_ne!(keys_seen[0], keys_seen[1]);
}
