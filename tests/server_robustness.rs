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
        "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nsend_timeout = 1\n\
         admin = [\"127.0.0.1\"]\n";
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
    // The server's log reaches us through a pipe: give the line a moment to arrive.
    let mut logged = false;
    for _ in 0..100 {
        if server.log_text().contains("not reading") {
            logged = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(logged, "{}", server.log_text());
    let r = bystander.call(json!({"id": 99, "command": "ping"})).await;
    assert_eq!(r["status"], "success");
}

#[tokio::test]
async fn connections_beyond_the_port_limit_are_dropped() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nlimit = 2\n\
                admin = [\"127.0.0.1\"]\n";
    let (server, _dir) = Server::with_config(toml, 1);
    let mut a = Ws::connect(&server.ws_url()).await;
    let mut b = Ws::connect(&server.ws_url()).await;
    assert_eq!(
        a.call(json!({"command": "ping"})).await["status"],
        "success"
    );
    assert_eq!(
        b.call(json!({"command": "ping"})).await["status"],
        "success"
    );
    // A third connection is accepted by the kernel and closed at once by the server.
    assert!(tokio_tungstenite::connect_async(server.ws_url())
        .await
        .is_err());
    drop(a);
    // Its slot comes back once the first client is gone.
    let mut ok = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if let Ok((mut c, _)) = tokio_tungstenite::connect_async(server.ws_url()).await {
            c.send(Message::text(r#"{"command":"ping"}"#))
                .await
                .unwrap();
            ok = true;
            break;
        }
    }
    assert!(ok, "the freed slot was never reused");
    assert_eq!(
        b.call(json!({"command": "ping"})).await["status"],
        "success"
    );
}

#[tokio::test]
async fn an_abusive_guest_is_warned_then_cut_off_and_admins_are_not() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = []\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\n\
                admin = [\"127.0.0.1\"]\n";
    let (server, _dir) = Server::with_config(toml, 2);
    let guest_url = format!("ws://{}/", server.addrs[0]);
    let mut guest = Ws::connect(&guest_url).await;
    let mut warned = false;
    let mut closed = None;
    for i in 0..400 {
        let sent = guest.raw().send(Message::text("{oops")).await;
        if sent.is_err() {
            break;
        }
        match tokio::time::timeout(
            Duration::from_secs(5),
            futures::StreamExt::next(guest.raw()),
        )
        .await
        {
            Ok(Some(Ok(Message::Text(t)))) => {
                let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                assert_eq!(v["error"], "jsonInvalid", "message {i}");
            }
            Ok(Some(Ok(Message::Close(frame)))) => {
                closed = frame;
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
        if i % 10 == 0 {
            // A well-formed request in between shows the warning.
            guest.send(&json!({"id": i, "command": "ping"})).await;
            let r = guest.recv().await;
            if r.get("warning") == Some(&json!("load")) {
                warned = true;
            }
        }
    }
    assert!(warned, "never warned");
    let frame = closed.expect("the abusive client was never closed");
    assert_eq!(u16::from(frame.code), 1008);
    assert_eq!(frame.reason.as_str(), "threshold exceeded");
    // The same address over HTTP: 503 Server is overloaded.
    let r = server_common::post(server.addrs[0], r#"{"method":"ping"}"#);
    assert_eq!(
        (r.status, r.reason.as_str(), r.body.as_str()),
        (503, "Server is overloaded", "Server is overloaded\r\n")
    );
    // Admins are never charged.
    let mut admin = Ws::connect(&format!("ws://{}/", server.addrs[1])).await;
    for _ in 0..300 {
        admin.send_text("{oops").await;
        assert_eq!(admin.recv().await["error"], "jsonInvalid");
    }
    let r = admin.call(json!({"command": "ping"})).await;
    assert!(r.get("warning").is_none());
    assert_eq!(r["status"], "success");
}

#[tokio::test]
async fn silent_clients_are_pinged_kept_if_they_answer_and_dropped_if_not() {
    use futures::StreamExt;
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\n\
                websocket_ping_frequency = 1\nadmin = [\"127.0.0.1\"]\n";
    let (server, _dir) = Server::with_config(toml, 1);
    let url = server.ws_url();

    // A live client that never sends a request: its WebSocket stack answers the pings (it
    // only has to be reading), so it is still served after many intervals of silence.
    let (mut live, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    // A dead one: connected, then never read from again, so its pings go unanswered.
    let (mut dead, _) = tokio_tungstenite::connect_async(&url).await.unwrap();

    let mut pings = 0;
    let until = tokio::time::Instant::now() + Duration::from_secs(5);
    while let Ok(frame) = tokio::time::timeout_at(until, live.next()).await {
        match frame {
            Some(Ok(Message::Ping(_))) => pings += 1,
            other => panic!("the silent live client got {other:?}"),
        }
    }
    assert!(
        pings >= 2,
        "{pings} pings in 5 s of silence at a 1 s interval"
    );
    live.send(Message::text(r#"{"id":1,"command":"ping"}"#))
        .await
        .unwrap();
    let reply = loop {
        match live.next().await {
            Some(Ok(Message::Text(t))) => break t.to_string(),
            Some(Ok(Message::Ping(_))) => continue,
            other => panic!("no reply: {other:?}"),
        }
    };
    assert!(reply.contains("\"status\":\"success\""), "{reply}");

    // The dead client was pinged, did not answer, and was disconnected: reading now finds
    // the ping(s), then the end of the connection.
    let mut ended = false;
    for _ in 0..10 {
        match tokio::time::timeout(Duration::from_secs(5), dead.next()).await {
            Ok(Some(Ok(Message::Ping(_)))) => continue,
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                ended = true;
                break;
            }
            Ok(Some(Ok(other))) => panic!("the dead client got {other:?}"),
            Err(_) => break,
        }
    }
    assert!(
        ended,
        "a client that never answered its pings is still connected"
    );
}
