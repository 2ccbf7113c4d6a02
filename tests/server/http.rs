//! Black-box HTTP JSON-RPC tests: rippled's `{result:{..., status}}` bodies, HTTP 200 for
//! method errors, plain-text 400/403 for transport errors, the health page.

use crate::support;

use serde_json::json;
use std::io::{Read, Write};
use support::http::{http, parse_reply, post};
use support::keys::{CHANNEL, GENESIS_SEED};
use support::server::Server;

#[test]
fn success_and_method_errors_are_200_json() {
    let server = Server::start(&[]);
    let r = post(server.addr(), r#"{"method":"ping","params":[{"id":9}]}"#);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("application/json; charset=UTF-8")
    );
    assert!(r.body.ends_with("}\n\r\n"), "{:?}", r.body);
    assert_eq!(
        r.json(),
        json!({"id": 9, "result": {"role": "admin", "status": "success"}})
    );

    // No params at all is an empty object.
    let r = post(server.addr(), r#"{"method":"random"}"#);
    assert_eq!(r.json()["result"]["status"], "success");

    let body = json!({"method": "channel_authorize", "params": [{"secret": GENESIS_SEED, "channel_id": CHANNEL, "amount": 5}]});
    let r = post(server.addr(), &body.to_string());
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({"result": {
        "error": "channelAmtMalformed", "error_code": 46,
        "error_message": "Payment channel amount is malformed.",
        "request": {"amount": 5, "channel_id": CHANNEL, "command": "channel_authorize", "secret": "<masked>"},
        "status": "error"}})
    );

    let r = post(
        server.addr(),
        r#"{"method":"nope","params":[{"api_version":2}]}"#,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"]["error"], "unknownCmd");
    assert_eq!(
        r.json()["result"]["request"],
        json!({"api_version": 2, "command": "nope"})
    );

    // api_version 2 changes the key_type error.
    let body = json!({"method": "channel_authorize", "params": [{"seed": GENESIS_SEED, "key_type": "x",
        "channel_id": CHANNEL, "amount": "1", "api_version": 2}]});
    assert_eq!(
        post(server.addr(), &body.to_string()).json()["result"]["error"],
        "badKeyType"
    );
    let body = json!({"method": "channel_authorize", "params": [{"seed": GENESIS_SEED, "key_type": "x",
        "channel_id": CHANNEL, "amount": "1"}]});
    assert_eq!(
        post(server.addr(), &body.to_string()).json()["result"]["error"],
        "invalidParams"
    );

    let body = json!({"method": "channel_authorize", "params": [{"secret": GENESIS_SEED, "channel_id": CHANNEL, "amount": "1000000"}]});
    let r = post(server.addr(), &body.to_string()).json();
    assert_eq!(r["result"]["status"], "success");
    assert_eq!(r["result"]["signature"].as_str().unwrap().len() % 2, 0);
}

#[test]
fn transport_errors_are_plain_text() {
    let server = Server::start(&[]);
    let cases = [
        ("{oops", 400, "Unable to parse request: "),
        ("[1]", 400, "Unable to parse request: "),
        (r#"{"params":[{}]}"#, 400, "Null method"),
        (r#"{"method":null}"#, 400, "Null method"),
        (r#"{"method":5}"#, 400, "method is not string"),
        (r#"{"method":""}"#, 400, "method is empty"),
        (r#"{"method":"ping","params":{}}"#, 400, "params unparsable"),
        (
            r#"{"method":"ping","params":[{},{}]}"#,
            400,
            "params unparsable",
        ),
        (
            r#"{"method":"ping","params":[3]}"#,
            400,
            "params unparsable",
        ),
        (
            r#"{"method":"ping","params":[{"api_version":3}]}"#,
            400,
            "invalid_API_version",
        ),
        (
            r#"{"method":"ping","params":[{"api_version":"1"}]}"#,
            400,
            "invalid_API_version",
        ),
        (
            r#"{"method":"ping","params":[{"ripplerpc":2}]}"#,
            400,
            "ripplerpc is not a string",
        ),
    ];
    for (body, status, text) in cases {
        let r = post(server.addr(), body);
        assert_eq!(r.status, status, "{body}: {r:?}");
        assert!(r.body.starts_with(text), "{body}: {:?}", r.body);
        assert!(r.body.ends_with("\r\n"));
        assert_eq!(
            r.header("content-type"),
            Some("application/json; charset=UTF-8")
        );
    }
    // Bodies over the limit are refused before parsing.
    let big = format!(
        "{{\"method\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(1_000_001)
    );
    let r = post(server.addr(), &big);
    assert_eq!(r.status, 400);
    assert!(r.body.starts_with("Unable to parse request"));
    // So is deep nesting.
    let deep = format!(
        "{{\"method\":\"ping\",\"x\":{}{}}}",
        "[".repeat(100),
        "]".repeat(100)
    );
    assert_eq!(post(server.addr(), &deep).status, 400);
    // The server still answers.
    assert_eq!(post(server.addr(), r#"{"method":"ping"}"#).status, 200);
}

#[test]
fn health_page_forbidden_and_protocol_checks() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = []\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\"]\nadmin = [\"127.0.0.1\"]\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\"]\nadmin = [\"127.0.0.1\"]\n";
    let (server, _dir) = Server::with_config(toml, 3);
    let (public, ws_only, http_only) = (server.addrs[0], server.addrs[1], server.addrs[2]);

    let r = http(public, "GET", "");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Test page for ledgerd"));
    assert_eq!(r.header("content-type"), Some("text/html"));

    // Admin-only method from a non-admin: 403 Forbidden.
    let r = post(public, r#"{"method":"wallet_propose","params":[{}]}"#);
    assert_eq!((r.status, r.body.as_str()), (403, "Forbidden\r\n"));
    // Signing from a non-admin without signing_support: notSupported (a method error, 200).
    let body = json!({"method": "channel_authorize", "params": [{"secret": GENESIS_SEED, "channel_id": CHANNEL, "amount": "1"}]});
    let r = post(public, &body.to_string());
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"]["error"], "notSupported");
    let r = post(public, r#"{"method":"ping"}"#);
    assert_eq!(r.json()["result"], json!({"status": "success"}));

    // JSON-RPC on a ws-only port: 403; a WebSocket upgrade on an http-only port: 401.
    let r = post(ws_only, r#"{"method":"ping"}"#);
    assert_eq!((r.status, r.body.as_str()), (403, "Forbidden\r\n"));
    let mut s = std::net::TcpStream::connect(http_only).unwrap();
    s.write_all(
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    .unwrap();
    let mut raw = Vec::new();
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let _ = s.read_to_end(&mut raw);
    let r = parse_reply(&raw);
    assert_eq!(r.status, 401);
    assert!(r.body.starts_with("Invalid protocol."));
    // wallet_propose from loopback on an admin port works over HTTP.
    let r = post(
        http_only,
        r#"{"method":"wallet_propose","params":[{"passphrase":"masterpassphrase"}]}"#,
    );
    assert_eq!(
        r.json()["result"]["account_id"],
        "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
    );
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection() {
    let server = Server::start(&[]);
    let mut s = std::net::TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    for i in 0..3 {
        let body = format!("{{\"method\":\"ping\",\"params\":[{{\"id\":{i}}}]}}");
        let req = format!(
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        let mut buf = vec![0u8; 4096];
        let mut got = Vec::new();
        loop {
            let n = s.read(&mut buf).unwrap();
            assert!(n > 0, "connection closed");
            got.extend_from_slice(&buf[..n]);
            if got.ends_with(b"\r\n")
                && got.windows(4).any(|w| w == b"\r\n\r\n")
                && got.ends_with(b"}\n\r\n")
            {
                break;
            }
        }
        let r = parse_reply(&got);
        assert_eq!(r.json()["id"], i);
    }
}
