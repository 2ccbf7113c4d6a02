//! Hostile input leaves the server answering everyone else: oversized messages, invalid
//! JSON, deep nesting, binary frames, and a client that never reads.

mod server_common;

use futures::SinkExt;
use serde_json::json;
use server_common::{Server, Ws};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn bad_messages_get_json_invalid_and_the_connection_lives() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let mut bystander = Ws::connect(&server.ws_url()).await;

    // Just over rippled's 1,000,000-byte limit: jsonInvalid, connection kept.
    let big = format!(
        "{{\"command\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(1_000_000)
    );
    ws.send_text(&big).await;
    let r = ws.recv().await;
    assert_eq!(r["error"], "jsonInvalid");
    assert_eq!(r["value"].as_str().map(str::len), Some(big.len()));

    let deep = format!(
        "{{\"command\":\"ping\",\"x\":{}1{}}}",
        "[".repeat(30),
        "]".repeat(30)
    );
    ws.send_text(&deep).await;
    assert_eq!(ws.recv().await["error"], "jsonInvalid");
    // serde_json's own recursion limit is never reached: 100,000 levels is refused early.
    let very_deep = "[".repeat(100_000);
    ws.send_text(&very_deep).await;
    assert_eq!(ws.recv().await["error"], "jsonInvalid");

    ws.send_text("not json at all").await;
    assert_eq!(ws.recv().await["value"], "not json at all");
    ws.raw()
        .send(Message::binary(b"{\"id\":1,\"command\":\"ping\"}".to_vec()))
        .await
        .unwrap();
    assert_eq!(ws.recv().await["status"], "success");

    let r = ws.call(json!({"id": 1, "command": "ping"})).await;
    assert_eq!(r["status"], "success");
    let r = bystander.call(json!({"id": 2, "command": "ping"})).await;
    assert_eq!(r["status"], "success");

    // Beyond the socket limit the sender is cut off; others carry on.
    let huge = "x".repeat(5_000_000);
    let _ = ws.raw().send(Message::text(huge)).await;
    let r = bystander.call(json!({"id": 3, "command": "ping"})).await;
    assert_eq!(r["status"], "success");
}

#[tokio::test]
async fn a_client_that_never_reads_is_disconnected() {
    let toml =
        "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nsend_timeout = 1\n";
    let (server, _dir) = Server::with_config(toml, 1);
    let url = server.ws_url();
    let mut bystander = Ws::connect(&url).await;

    // A raw client that upgrades, then only writes.
    let (mut stuck, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let writer = tokio::spawn(async move {
        // A masked client frame holding a ping request with a large id, so replies are big.
        let body = format!("{{\"id\":\"{}\",\"command\":\"ping\"}}", "i".repeat(60_000));
        let payload = body.as_bytes();
        let mut frame = vec![0x81u8, 0x80 | 127];
        frame.extend_from_slice(&(payload.len() as u64).to_be_bytes());
        frame.extend_from_slice(&[0, 0, 0, 0]); // zero mask: payload unchanged
        frame.extend_from_slice(payload);
        let mut sent = 0usize;
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_secs(8) {
            let tokio_tungstenite::MaybeTlsStream::Plain(s) = stuck.get_mut() else {
                unreachable!()
            };
            match tokio::time::timeout(Duration::from_secs(5), s.write_all(&frame)).await {
                Ok(Ok(())) => sent += 1,
                _ => return (sent, true),
            }
        }
        (sent, false)
    });
    // Meanwhile everyone else is served.
    for i in 0..20 {
        let r = bystander.call(json!({"id": i, "command": "ping"})).await;
        assert_eq!(r["status"], "success");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (sent, cut_off) = writer.await.unwrap();
    assert!(
        cut_off,
        "the non-reading client was never disconnected (sent {sent} frames): {}",
        server
            .log_text()
            .lines()
            .filter(|l| !l.contains("websocket request"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let log = server.log_text();
    assert!(log.contains("not reading"), "{log}");
    let r = bystander.call(json!({"id": 99, "command": "ping"})).await;
    assert_eq!(r["status"], "success");
}
