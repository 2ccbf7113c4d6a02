//! Secrets never leave the server: every signing path and every error path is run with a
//! known secret, and no reply, no CLI output and no log line (at trace level) contains it in
//! any of its spellings.

use crate::support;

use ledgerd::protocol::keys::KeyType;
use ledgerd::protocol::seed::Seed;
use serde_json::{json, Value};
use support::http::post;
use support::keys::CHANNEL;
use support::server::{cli, Server};
use support::ws::Ws;

const PASSPHRASE: &str = "ledgerd secret test passphrase 7f3a";

fn spellings() -> Vec<String> {
    let seed = Seed::from_passphrase(PASSPHRASE);
    vec![
        PASSPHRASE.to_owned(),
        seed.to_base58(KeyType::Secp256k1),
        seed.to_base58(KeyType::Ed25519),
        seed.to_hex(),
        seed.to_hex().to_lowercase(),
        seed.to_rfc1751(),
        // The hex of the passphrase bytes (what a frame dump would show).
        hex::encode(PASSPHRASE.as_bytes()),
        hex::encode(seed.to_base58(KeyType::Secp256k1).as_bytes()),
    ]
}

/// Every request shape that carries the secret: signing paths and error paths.
fn requests() -> Vec<Value> {
    let seed = Seed::from_passphrase(PASSPHRASE);
    let forms = [
        json!({"secret": seed.to_base58(KeyType::Secp256k1)}),
        json!({"secret": seed.to_base58(KeyType::Ed25519)}),
        json!({"secret": PASSPHRASE}),
        json!({"secret": seed.to_hex()}),
        json!({"secret": seed.to_rfc1751()}),
        json!({"seed": seed.to_base58(KeyType::Secp256k1), "key_type": "secp256k1"}),
        json!({"seed": seed.to_base58(KeyType::Ed25519), "key_type": "ed25519"}),
        json!({"seed_hex": seed.to_hex(), "key_type": "ed25519"}),
        json!({"passphrase": PASSPHRASE, "key_type": "secp256k1"}),
        json!({"passphrase": seed.to_rfc1751(), "key_type": "ed25519"}),
    ];
    let mut out = Vec::new();
    for (i, form) in forms.iter().enumerate() {
        for api in [1, 2] {
            let base = |extra: Value| {
                let mut r = json!({"id": i, "command": "channel_authorize", "api_version": api});
                for (k, v) in form
                    .as_object()
                    .unwrap()
                    .iter()
                    .chain(extra.as_object().unwrap())
                {
                    r[k] = v.clone();
                }
                r
            };
            out.push(base(json!({"channel_id": CHANNEL, "amount": "1000"})));
            out.push(base(json!({"channel_id": "XYZ", "amount": "1000"})));
            out.push(base(json!({"channel_id": CHANNEL, "amount": 1000})));
            out.push(base(json!({"channel_id": CHANNEL})));
            out.push(base(json!({"amount": "1"})));
            out.push(base(
                json!({"channel_id": CHANNEL, "amount": "1", "key_type": "rsa"}),
            ));
            out.push(base(json!({"channel_id": CHANNEL, "amount": "1", "key_type": "secp256k1", "secret": PASSPHRASE})));
            out.push(base(json!({"channel_id": CHANNEL, "amount": "1", "passphrase": PASSPHRASE, "seed_hex": seed.to_hex()})));
            out.push(base(json!({"command": "no_such_method"})));
            out.push(base(
                json!({"command": "wallet_propose", "key_type": "dsa"}),
            ));
            out.push(base(
                json!({"command": "wallet_propose", "seed_hex": "zz", "passphrase": PASSPHRASE}),
            ));
            out.push(base(
                json!({"command": "channel_authorize", "method": "ping"}),
            ));
            out.push(base(json!({"api_version": 7})));
        }
    }
    out
}

fn assert_clean(what: &str, text: &str) {
    for s in spellings() {
        assert!(
            !text.contains(&s),
            "{what} contains the secret ({s}):\n{text}"
        );
    }
}

#[tokio::test]
async fn no_secret_in_any_reply_or_log_line() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\n\
                admin = [\"127.0.0.1\"]\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = []\n";
    let (server, _dir) = Server::with_config(toml, 2);
    let requests = requests();
    let mut signed = 0;
    for addr in server.addrs.clone() {
        let mut ws = Ws::connect(&format!("ws://{addr}/")).await;
        for req in &requests {
            let reply = ws.call(req.clone()).await;
            if reply["result"].get("signature").is_some() {
                signed += 1;
            }
            assert_clean("WebSocket reply", &reply.to_string());
            // The same request over HTTP.
            let mut params = req.clone();
            let method = params["command"].clone();
            params.as_object_mut().unwrap().remove("command");
            let body = json!({"method": method, "params": [params]});
            let r = post(addr, &body.to_string());
            assert_clean("HTTP reply", &r.body);
        }
        // Unparsable text naming a secret field, and binary frames.
        let seed_b58 = Seed::from_passphrase(PASSPHRASE).to_base58(KeyType::Secp256k1);
        ws.send_text(&format!(
            "{{\"command\":\"channel_authorize\",\"secret\":\"{seed_b58}\""
        ))
        .await;
        assert_clean("jsonInvalid reply", &ws.recv().await.to_string());
        let r = post(
            addr,
            &format!(
                "{{\"method\":\"channel_authorize\",\"params\":[{{\"secret\":\"{seed_b58}\"}}"
            ),
        );
        assert_clean("HTTP 400 reply", &r.body);
    }
    assert!(
        signed >= 20,
        "the admin port signs every good form ({signed})"
    );
    // The command line: local errors and server replies.
    let seed = Seed::from_passphrase(PASSPHRASE);
    let b58 = seed.to_base58(KeyType::Secp256k1);
    for args in [
        vec!["channel_authorize", b58.as_str(), CHANNEL, "1"],
        vec!["channel_authorize", PASSPHRASE, "ed25519", CHANNEL, "1"],
        vec!["channel_authorize", b58.as_str(), "rsa", CHANNEL, "1"],
        vec!["channel_authorize", b58.as_str(), "XYZ", "1"],
        vec!["channel_authorize", b58.as_str(), CHANNEL, "-1"],
        vec!["channel_authorize", b58.as_str(), CHANNEL],
        vec!["wallet_propose", PASSPHRASE, "extra"],
    ] {
        let (_, out) = cli(server.addrs[0], &args);
        assert_clean("CLI output", &out.to_string());
    }
    // Give the logger a moment, then read every line the server wrote.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let log = server.log_text();
    assert!(
        log.contains("websocket request"),
        "trace logging was on: {log}"
    );
    assert_clean("server log", &log);
}
