//! Black-box WebSocket tests: rippled's envelopes and errors, and channel_authorize /
//! channel_verify against the claim vectors, over a real socket.

use crate::support;

use ledgerd::protocol::keys::{KeyType, PublicKey};
use serde_json::{json, Value};
use support::http::post;
use support::keys::{CHANNEL, GENESIS_SEED};
use support::server::Server;
use support::vectors::{self, claim_vectors};
use support::ws::Ws;

/// The four secret forms of a vector: (fields, key_type or none).
fn secret_forms(case: &Value) -> Vec<Value> {
    let seed_b58 = case["signer_seed"].as_str().unwrap();
    let key_type = case["key_type"].as_str().unwrap();
    let seed = vectors::seed(seed_b58);
    let passphrase = case["signer_passphrase"].as_str().unwrap_or(seed_b58);
    vec![
        json!({"secret": seed_b58}),
        json!({"seed": seed.to_base58(KeyType::Secp256k1), "key_type": key_type}),
        json!({"seed_hex": seed.to_hex(), "key_type": key_type}),
        json!({"passphrase": passphrase, "key_type": key_type}),
    ]
}

fn with(base: Value, extra: &Value) -> Value {
    let mut b = base;
    for (k, v) in extra.as_object().unwrap() {
        b[k] = v.clone();
    }
    b
}

#[tokio::test]
async fn claim_signatures_match_the_vectors_for_every_secret_form() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let cases = claim_vectors();
    assert!(cases.len() >= 30);
    let mut checked = 0;
    for case in &cases {
        let expected = case["signature_hex"].as_str().unwrap();
        for form in secret_forms(case) {
            let req = with(
                json!({"id": checked, "command": "channel_authorize",
                       "channel_id": case["channel_id"], "amount": case["amount_drops"]}),
                &form,
            );
            let r = ws.call(req).await;
            assert_eq!(r["status"], "success", "{form}: {r}");
            assert_eq!(r["result"]["signature"], expected, "{form}");
            assert_eq!(r["id"], checked);
            checked += 1;
        }
        // channel_verify accepts it with the hex and the base58 public key ...
        let pk_hex = case["public_key_hex"].as_str().unwrap();
        let pk_b58 = PublicKey::from_hex(pk_hex).unwrap().to_base58();
        for pk in [pk_hex.to_owned(), pk_b58] {
            let r = ws
                .call(json!({"command": "channel_verify", "public_key": pk,
                    "channel_id": case["channel_id"], "amount": case["amount_drops"],
                    "signature": expected}))
                .await;
            assert_eq!(r["result"]["signature_verified"], true, "{r}");
        }
        // ... and rejects a changed amount, a changed channel and a changed signature.
        let amount: u64 = case["amount_drops"].as_str().unwrap().parse().unwrap();
        let other_amount = amount.wrapping_add(1).to_string();
        let mut sig = hex::decode(expected).unwrap();
        let last = sig.len() - 1;
        sig[last] ^= 1;
        for (amount, channel, signature) in [
            (
                other_amount.as_str(),
                case["channel_id"].as_str().unwrap(),
                expected.to_owned(),
            ),
            (
                case["amount_drops"].as_str().unwrap(),
                CHANNEL,
                expected.to_owned(),
            ),
            (
                case["amount_drops"].as_str().unwrap(),
                case["channel_id"].as_str().unwrap(),
                hex::encode(&sig),
            ),
        ] {
            let r = ws
                .call(json!({"command": "channel_verify", "public_key": pk_hex,
                    "channel_id": channel, "amount": amount, "signature": signature}))
                .await;
            assert_eq!(r["result"]["signature_verified"], false, "{r}");
        }
        // An odd number of hex digits is still hex to rippled (strUnHex reads the first
        // digit alone): "0" + the signature reads as a zero byte before it, which does not verify.
        let r = ws
            .call(json!({"command": "channel_verify", "public_key": pk_hex,
                "channel_id": case["channel_id"], "amount": case["amount_drops"],
                "signature": format!("0{expected}")}))
            .await;
        assert_eq!(r["result"]["signature_verified"], false, "{r}");
        let r = ws
            .call(json!({"command": "channel_verify", "public_key": pk_hex,
                "channel_id": case["channel_id"], "amount": case["amount_drops"],
                "signature": "3G"}))
            .await;
        assert_eq!(r["error"], "invalidParams", "{r}");
    }
    assert_eq!(checked, cases.len() * 4);
}

#[tokio::test]
async fn envelopes_follow_rippled() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;

    // Success: id echoed verbatim whatever its JSON type; api_version echoed when sent.
    for id in [
        json!(1),
        json!("a"),
        json!({"x": [1, null]}),
        json!([true]),
        json!(null),
        json!(1.5),
    ] {
        let r = ws.call(json!({"id": id, "command": "ping"})).await;
        assert_eq!(
            r,
            json!({"id": id, "result": {"role": "admin", "unlimited": true},
            "status": "success", "type": "response"})
        );
    }
    let r = ws
        .call(json!({"id": 2, "method": "ping", "api_version": 2}))
        .await;
    assert_eq!(r["api_version"], 2);
    assert_eq!(r["status"], "success");
    let r = ws.call(json!({"command": "ping"})).await;
    assert!(r.get("id").is_none());

    // jsonInvalid: no id, no status, the raw text as value.
    for bad in ["{not json", "[1,2]", "42", "\"str\""] {
        ws.send_text(bad).await;
        assert_eq!(
            ws.recv().await,
            json!({"error": "jsonInvalid", "type": "error", "value": bad})
        );
    }

    // missingCommand and invalid_API_version: bare, with the request echoed.
    for req in [
        json!({"id": 5}),
        json!({"id": 5, "command": 7}),
        json!({"id": 5, "command": "ping", "method": "random"}),
    ] {
        let r = ws.call(req.clone()).await;
        assert_eq!(
            r,
            json!({"error": "missingCommand", "id": 5, "request": req,
            "status": "error", "type": "response"})
        );
    }
    for v in [json!(0), json!(3), json!("2"), json!(2.0)] {
        let req = json!({"id": 6, "command": "ping", "api_version": v});
        let r = ws.call(req.clone()).await;
        assert_eq!(
            r,
            json!({"api_version": v, "error": "invalid_API_version", "id": 6,
            "request": req, "status": "error", "type": "response"})
        );
    }

    // unknownCmd: a table error, hoisted, connection stays open.
    let r = ws
        .call(json!({"id": 7, "command": "no_such_thing", "api_version": 2}))
        .await;
    assert_eq!(
        r,
        json!({"api_version": 2, "error": "unknownCmd", "error_code": 32,
        "error_message": "Unknown method.", "id": 7,
        "request": {"api_version": 2, "command": "no_such_thing", "id": 7},
        "status": "error", "type": "response"})
    );
    let r = ws.call(json!({"id": 8, "command": "random"})).await;
    let random = r["result"]["random"].as_str().unwrap();
    assert_eq!(random.len(), 64);
    assert!(random
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b)));
}

#[tokio::test]
async fn channel_authorize_errors() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let ok = json!({"command": "channel_authorize", "channel_id": CHANNEL, "amount": "1000"});
    let cases: Vec<(Value, u32, &str, &str)> = vec![
        (
            json!({"amount": "1", "secret": GENESIS_SEED}),
            1,
            "invalidParams",
            "Missing field 'channel_id'.",
        ),
        (
            json!({"channel_id": CHANNEL, "secret": GENESIS_SEED}),
            1,
            "invalidParams",
            "Missing field 'amount'.",
        ),
        (
            json!({"channel_id": CHANNEL, "amount": "1", "seed": GENESIS_SEED}),
            1,
            "invalidParams",
            "Missing field 'secret'.",
        ),
        (
            json!({"channel_id": CHANNEL, "amount": "1"}),
            1,
            "invalidParams",
            "Missing field 'secret'.",
        ),
        (
            with(
                ok.clone(),
                &json!({"secret": GENESIS_SEED, "passphrase": "x"}),
            ),
            1,
            "invalidParams",
            "Exactly one of the following must be specified: passphrase, secret, seed or seed_hex",
        ),
        (
            with(
                ok.clone(),
                &json!({"seed": GENESIS_SEED, "key_type": "rsa"}),
            ),
            1,
            "invalidParams",
            "Invalid field 'key_type'.",
        ),
        (
            with(
                ok.clone(),
                &json!({"seed": GENESIS_SEED, "key_type": "rsa"}),
            ),
            2,
            "badKeyType",
            "Bad key type.",
        ),
        (
            with(ok.clone(), &json!({"seed": GENESIS_SEED, "key_type": 5})),
            2,
            "invalidParams",
            "Invalid field 'key_type', not string.",
        ),
        (
            with(
                ok.clone(),
                &json!({"secret": GENESIS_SEED, "key_type": "secp256k1"}),
            ),
            1,
            "invalidParams",
            "The secret field is not allowed if key_type is used.",
        ),
        (
            with(
                ok.clone(),
                &json!({"seed": "sEdVQ4wvD1AaTG6JA54qt38TengAuiz", "key_type": "secp256k1"}),
            ),
            1,
            "badSeed",
            "Specified seed is for an Ed25519 wallet.",
        ),
        (
            with(
                ok.clone(),
                &json!({"seed": "not a seed", "key_type": "secp256k1"}),
            ),
            1,
            "badSeed",
            "Disallowed seed.",
        ),
        (
            with(
                ok.clone(),
                &json!({"seed_hex": "ABCD", "key_type": "ed25519"}),
            ),
            1,
            "badSeed",
            "Disallowed seed.",
        ),
        (
            with(ok.clone(), &json!({"seed": 12, "key_type": "ed25519"})),
            1,
            "invalidParams",
            "Invalid field 'seed', not string.",
        ),
        (
            with(ok.clone(), &json!({"secret": 12})),
            1,
            "invalidParams",
            "Invalid field 'secret', not string.",
        ),
        (
            with(
                ok.clone(),
                &json!({"secret": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}),
            ),
            1,
            "badSeed",
            "Invalid field 'secret'.",
        ),
        (
            with(
                ok.clone(),
                &json!({"secret": GENESIS_SEED, "channel_id": "ABC"}),
            ),
            1,
            "channelMalformed",
            "Payment channel is malformed.",
        ),
        (
            with(ok.clone(), &json!({"secret": GENESIS_SEED, "amount": 1000})),
            1,
            "channelAmtMalformed",
            "Payment channel amount is malformed.",
        ),
        (
            with(ok.clone(), &json!({"secret": GENESIS_SEED, "amount": "-1"})),
            1,
            "channelAmtMalformed",
            "Payment channel amount is malformed.",
        ),
        (
            with(
                ok.clone(),
                &json!({"secret": GENESIS_SEED, "amount": "18446744073709551616"}),
            ),
            1,
            "channelAmtMalformed",
            "Payment channel amount is malformed.",
        ),
    ];
    for (i, (fields, api, token, message)) in cases.into_iter().enumerate() {
        let req = with(
            json!({"id": i, "command": "channel_authorize", "api_version": api}),
            &fields,
        );
        let r = ws.call(req).await;
        assert_eq!(r["status"], "error", "case {i}: {r}");
        assert_eq!(r["error"], token, "case {i}: {r}");
        assert_eq!(r["error_message"], message, "case {i}: {r}");
        assert_eq!(r["id"], i, "case {i}");
        assert_eq!(r["type"], "response");
        let request = &r["request"];
        for f in ["secret", "seed", "seed_hex", "passphrase"] {
            if let Some(v) = request.get(f) {
                assert_eq!(v, "<masked>", "case {i}");
            }
        }
    }
    // Any u64 is signed, even above the XRP supply.
    let r = ws
        .call(with(
            ok,
            &json!({"secret": GENESIS_SEED, "amount": "+18446744073709551615"}),
        ))
        .await;
    assert_eq!(r["status"], "success", "{r}");
}

#[tokio::test]
async fn channel_verify_errors() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let pk = "0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020";
    let full = json!({"command": "channel_verify", "public_key": pk, "channel_id": CHANNEL,
        "amount": "1", "signature": "3044"});
    for (drop, msg) in [
        ("public_key", "Missing field 'public_key'."),
        ("channel_id", "Missing field 'channel_id'."),
        ("amount", "Missing field 'amount'."),
        ("signature", "Missing field 'signature'."),
    ] {
        let mut req = full.clone();
        req.as_object_mut().unwrap().remove(drop);
        let r = ws.call(req).await;
        assert_eq!(r["error"], "invalidParams");
        assert_eq!(r["error_message"], msg);
    }
    for (field, value, token) in [
        ("public_key", json!("04AB"), "publicMalformed"),
        (
            "public_key",
            json!("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"),
            "publicMalformed",
        ),
        ("channel_id", json!("XYZ"), "channelMalformed"),
        ("amount", json!(1), "channelAmtMalformed"),
        ("signature", json!("ZZ"), "invalidParams"),
        ("signature", json!(""), "invalidParams"),
    ] {
        let r = ws.call(with(full.clone(), &json!({field: value}))).await;
        assert_eq!(r["error"], token, "{field}={value}: {r}");
    }
    // Well-formed but wrong: false, not an error.
    let r = ws.call(full).await;
    assert_eq!(r["result"], json!({"signature_verified": false}));
}

#[tokio::test]
async fn wallet_propose_and_server_info() {
    let server = Server::start(&["--network-id", "21337"]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let r = ws
        .call(json!({"command": "wallet_propose", "passphrase": "masterpassphrase"}))
        .await;
    assert_eq!(
        r["result"],
        json!({
            "account_id": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
            "key_type": "secp256k1",
            "master_key": "I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE",
            "master_seed": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb",
            "master_seed_hex": "DEDCE9CE67B451D852FD4E846FCDE31C",
            "public_key": "aBQG8RQAzjs1eTKFEAQXr2gS4utcDiEC9wmi7pfUPTi27VCahwgw",
            "public_key_hex": "0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020",
            "warning": "This wallet was generated using a user-supplied passphrase that has low entropy and is vulnerable to brute-force attacks."
        })
    );
    // A seed given as passphrase is not warned about; the same seed in every form agrees.
    for fields in [
        json!({"passphrase": GENESIS_SEED}),
        json!({"seed": GENESIS_SEED}),
        json!({"seed_hex": "DEDCE9CE67B451D852FD4E846FCDE31C"}),
        json!({"passphrase": "I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE"}),
    ] {
        let r = ws
            .call(with(json!({"command": "wallet_propose"}), &fields))
            .await;
        assert_eq!(
            r["result"]["account_id"], "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
            "{fields}"
        );
        assert!(r["result"].get("warning").is_none(), "{fields}");
    }
    let r = ws
        .call(json!({"command": "wallet_propose", "seed": GENESIS_SEED, "key_type": "ed25519"}))
        .await;
    assert_eq!(
        r["result"]["account_id"],
        "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf"
    );
    assert_eq!(r["result"]["key_type"], "ed25519");
    let r = ws
        .call(json!({"command": "wallet_propose", "key_type": "ed25519"}))
        .await;
    assert!(r["result"]["public_key_hex"]
        .as_str()
        .unwrap()
        .starts_with("ED"));
    let r = ws
        .call(json!({"command": "wallet_propose", "key_type": "dsa"}))
        .await;
    assert_eq!(
        (r["error"].as_str(), r["error_message"].as_str()),
        (Some("invalidParams"), Some("Invalid parameters."))
    );
    let r = ws.call(json!({"command": "wallet_propose", "seed": "sEdVQ4wvD1AaTG6JA54qt38TengAuiz", "key_type": "secp256k1"})).await;
    assert_eq!(r["error"], "badSeed");
    let r = ws
        .call(json!({"command": "wallet_propose", "seed": "x", "seed_hex": "y"}))
        .await;
    assert_eq!(
        r["error_message"],
        "Exactly one of the following must be specified: passphrase, seed or seed_hex"
    );

    let r = ws.call(json!({"command": "server_info"})).await;
    let info = &r["result"]["info"];
    for field in [
        "build_version",
        "complete_ledgers",
        "server_state",
        "load_factor",
        "hostid",
        "pubkey_node",
        "uptime",
        "time",
    ] {
        assert!(
            info.get(field).is_some(),
            "server_info lacks {field}: {info}"
        );
    }
    assert_eq!(info["network_id"], 21337);
    assert_eq!(info["server_state"], "full");
    assert_eq!(info["load_factor"], 1);
    let v = &info["validated_ledger"];
    for field in [
        "seq",
        "hash",
        "age",
        "base_fee_xrp",
        "reserve_base_xrp",
        "reserve_inc_xrp",
    ] {
        assert!(v.get(field).is_some(), "validated_ledger lacks {field}");
    }
    assert_eq!(v["base_fee_xrp"].as_f64(), Some(0.00001));
    assert_eq!(v["reserve_base_xrp"], 10);
    assert_eq!(v["reserve_inc_xrp"], 2);
    assert_eq!(info["ports"][0]["port"], server.addr().port().to_string());
    let r = ws.call(json!({"command": "server_state"})).await;
    let state = &r["result"]["state"];
    assert_eq!(state["load_base"], 256);
    assert_eq!(state["load_factor"], 256);
    assert_eq!(state["validated_ledger"]["base_fee"], 10);
    assert_eq!(state["validated_ledger"]["reserve_base"], 10_000_000);
    assert!(state["validated_ledger"].get("close_time").is_some());
}

#[tokio::test]
async fn non_admin_roles_and_signing_gate() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = []\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\"]\nadmin = [\"127.0.0.1\"]\n";
    let (server, _dir) = Server::with_config(toml, 2);
    let mut public = Ws::connect(&format!("ws://{}/", server.addrs[0])).await;
    let r = public.call(json!({"id": 1, "command": "ping"})).await;
    assert_eq!(r["result"], json!({}));
    let r = public
        .call(json!({"id": 2, "command": "wallet_propose", "seed": GENESIS_SEED}))
        .await;
    assert_eq!(
        r,
        json!({"error": "forbidden", "error_code": 3, "error_message": "Bad credentials.",
        "id": 2, "request": {"command": "wallet_propose", "id": 2, "seed": "<masked>"},
        "status": "error", "type": "response"})
    );
    let r = public
        .call(json!({"command": "channel_authorize", "secret": GENESIS_SEED, "channel_id": CHANNEL, "amount": "1"}))
        .await;
    assert_eq!(r["error"], "notSupported");
    assert_eq!(r["error_code"], 75);
    assert_eq!(
        r["error_message"],
        "Signing is not supported by this server."
    );
    // channel_verify is never gated.
    let r = public
        .call(json!({"command": "channel_verify", "public_key": "ED8BF56ECD59C18F7B03986D225992650D0ACF29D965E3851AD84462CC28AA404E",
            "channel_id": CHANNEL, "amount": "1", "signature": "00"}))
        .await;
    assert_eq!(r["status"], "success");
    // server_info hides admin ports from non-admins.
    let r = public.call(json!({"command": "server_info"})).await;
    assert_eq!(r["result"]["info"]["ports"].as_array().unwrap().len(), 1);
    // The loopback-admin port signs.
    let mut admin = Ws::connect(&format!("ws://{}/", server.addrs[1])).await;
    let r = admin
        .call(json!({"command": "channel_authorize", "secret": GENESIS_SEED, "channel_id": CHANNEL, "amount": "1"}))
        .await;
    assert_eq!(r["status"], "success");
    let r = admin.call(json!({"command": "server_info"})).await;
    assert_eq!(r["result"]["info"]["ports"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn signing_support_opens_signing_to_everyone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(&path, "signing_support = true\n[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\"]\nadmin = []\n").unwrap();
    let server = Server::start_args(&["serve", "--config", path.to_str().unwrap()], 1);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let r = ws
        .call(json!({"command": "channel_authorize", "secret": GENESIS_SEED, "channel_id": CHANNEL, "amount": "1"}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
}

#[tokio::test]
async fn pipelined_requests_all_answer() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let n = 500;
    for i in 0..n {
        let amount = (i as u64).to_string();
        ws.send(
            &json!({"id": i, "command": "channel_authorize", "secret": GENESIS_SEED,
            "channel_id": CHANNEL, "amount": amount}),
        )
        .await;
    }
    let mut seen = vec![false; n];
    for _ in 0..n {
        let r = ws.recv().await;
        assert_eq!(r["status"], "success");
        let id = r["id"].as_u64().unwrap() as usize;
        assert!(!seen[id]);
        seen[id] = true;
    }
    assert!(seen.iter().all(|s| *s));
}

#[tokio::test]
async fn admin_credentials_when_the_port_sets_them() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\n\
                admin = [\"127.0.0.1\"]\nadmin_user = \"ops\"\nadmin_password = \"hunter2hunter2\"\n";
    let (server, _dir) = Server::with_config(toml, 1);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let r = ws.call(json!({"id": 1, "command": "wallet_propose"})).await;
    assert_eq!(r["error"], "forbidden");
    let r = ws
        .call(json!({"id": 2, "command": "wallet_propose", "admin_user": "ops", "admin_password": "wrong"}))
        .await;
    assert_eq!(r["error"], "forbidden");
    assert_eq!(r["request"]["admin_password"], "<masked>");
    let r = ws
        .call(json!({"id": 3, "command": "wallet_propose", "admin_user": "ops", "admin_password": "hunter2hunter2"}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let r = ws.call(json!({"id": 4, "command": "ping"})).await;
    assert_eq!(
        r["result"],
        json!({}),
        "without credentials the caller is a guest"
    );
    let body = json!({"method": "wallet_propose", "params": [{"admin_user": "ops", "admin_password": "hunter2hunter2"}]});
    assert_eq!(post(server.addr(), &body.to_string()).status, 200);
    let body = json!({"method": "wallet_propose", "params": [{}]});
    assert_eq!(post(server.addr(), &body.to_string()).status, 403);
    assert!(!server.log_text().contains("hunter2"));
}
