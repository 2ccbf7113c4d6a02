//! Hostile input leaves the server answering everyone else: oversized messages, invalid
//! JSON, deep nesting, binary frames, and a client that never reads.

use crate::support;

use futures::SinkExt;
use serde_json::json;
use std::time::Duration;
use support::http::post;
use support::server::Server;
use support::ws::Ws;
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
    let r = post(server.addrs[0], r#"{"method":"ping"}"#);
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

/// The next frame that is not a ping, within 10 s.
async fn next_non_ping(ws: &mut Ws) -> Option<Message> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), futures::StreamExt::next(ws.raw()))
            .await
            .expect("no frame within 10 s");
        match m {
            Some(Ok(Message::Ping(_))) => continue,
            Some(Ok(m)) => return Some(m),
            _ => return None,
        }
    }
}

/// A client's close frame is answered with a close frame carrying the same code (and
/// reason), then the connection ends: the client sees a clean close, not 1006.
#[tokio::test]
async fn a_client_close_is_answered_with_the_same_code() {
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    let server = Server::start(&[]);
    // 1000 from a plain client; 4000 is what xrpl.js sends on `disconnect()`.
    for code in [1000u16, 4000] {
        let mut ws = Ws::connect(&server.ws_url()).await;
        let r = ws.call(json!({"id": 1, "command": "ping"})).await;
        assert_eq!(r["status"], "success");
        let frame = CloseFrame {
            code: CloseCode::from(code),
            reason: "bye".into(),
        };
        ws.raw().close(Some(frame)).await.expect("send close");
        match next_non_ping(&mut ws).await {
            Some(Message::Close(Some(f))) => {
                assert_eq!(u16::from(f.code), code);
                assert_eq!(f.reason.as_str(), "bye");
            }
            other => panic!("close {code} answered with {other:?}"),
        }
        // Then the server ends the connection.
        assert!(next_non_ping(&mut ws).await.is_none());
    }
}

/// Invalid UTF-8 in a text message closes the connection with 1007, whether the message
/// comes whole or in fragments (the first bad fragment is enough); others carry on.
#[tokio::test]
async fn invalid_utf8_in_text_closes_with_1007() {
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
    use tokio_tungstenite::tungstenite::protocol::frame::Frame;
    let server = Server::start(&[]);
    let mut bystander = Ws::connect(&server.ws_url()).await;
    let bad = b"{\"command\":\"ping\",\"x\":\"\xff\xfe\"}".to_vec();
    for fin in [true, false] {
        let mut ws = Ws::connect(&server.ws_url()).await;
        let frame = Frame::message(bad.clone(), OpCode::Data(Data::Text), fin);
        ws.raw().send(Message::Frame(frame)).await.expect("send");
        match next_non_ping(&mut ws).await {
            Some(Message::Close(Some(f))) => assert_eq!(u16::from(f.code), 1007, "fin {fin}"),
            other => panic!("invalid UTF-8 (fin {fin}) answered with {other:?}"),
        }
        let r = bystander.call(json!({"id": 1, "command": "ping"})).await;
        assert_eq!(r["status"], "success");
    }
}

/// A message that stays unfinished is dropped after its time, even while its bytes keep
/// trickling in: the connection is closed with 1008, well before the ping timer would.
#[tokio::test]
async fn an_unfinished_message_trickling_in_is_dropped_after_its_time() {
    use ledgerd::limits::WS_UNFINISHED_MESSAGE_SECS_MAX;
    let server = Server::start(&[]);
    let (mut ws, _) = tokio_tungstenite::connect_async(server.ws_url())
        .await
        .unwrap();
    let started = std::time::Instant::now();
    // A text frame's first part declaring 1000 bytes, then a byte a second.
    let tokio_tungstenite::MaybeTlsStream::Plain(s) = ws.get_mut() else {
        unreachable!()
    };
    s.write_all(&[0x81u8, 0x80 | 126, 0x03, 0xe8, 0, 0, 0, 0, b'{'])
        .await
        .unwrap();
    let close = loop {
        let next = futures::StreamExt::next(&mut ws);
        match tokio::time::timeout(Duration::from_secs(1), next).await {
            Ok(frame) => break frame,
            Err(_) if started.elapsed().as_secs() > 2 * WS_UNFINISHED_MESSAGE_SECS_MAX => {
                panic!("still open after {:?}", started.elapsed())
            }
            Err(_) => {
                let tokio_tungstenite::MaybeTlsStream::Plain(s) = ws.get_mut() else {
                    unreachable!()
                };
                s.write_all(b" ").await.unwrap();
            }
        }
    };
    let elapsed = started.elapsed().as_secs();
    match close {
        Some(Ok(Message::Close(Some(f)))) => {
            assert_eq!(u16::from(f.code), 1008);
            assert!(f.reason.contains("not completed in time"), "{}", f.reason);
        }
        other => panic!("after {elapsed} s: {other:?}"),
    }
    assert!(
        (WS_UNFINISHED_MESSAGE_SECS_MAX..WS_UNFINISHED_MESSAGE_SECS_MAX + 5).contains(&elapsed),
        "closed after {elapsed} s"
    );
}

/// Requests too large to parse on the I/O thread are parsed and answered on the CPU pool,
/// whatever runs them next: inline handlers (answered in order with the small requests
/// around them), a method that runs as its own task (`ledger_accept`, `submit`), an invalid
/// request, an over-limit one.
#[tokio::test]
async fn large_requests_are_answered_whatever_runs_them() {
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    let pad = "x".repeat(200_000);
    let requests = [
        json!({"id": 1, "command": "ping", "pad": pad}),
        json!({"id": 2, "command": "ping"}),
        json!({"id": 3, "command": "ledger_accept", "pad": pad}),
        json!({"id": 4, "command": "submit", "tx_blob": "00", "pad": pad}),
        json!({"id": 5, "command": "server_info", "pad": pad}),
    ];
    for r in &requests {
        ws.send(r).await;
    }
    ws.send_text(&format!("{{\"id\":6,{pad}")).await;
    ws.send_text(&format!(
        "{{\"id\":7,\"pad\":\"{}\"}}",
        "y".repeat(1_500_000)
    ))
    .await;
    let mut seen = Vec::new();
    for _ in 0..7 {
        let r = ws.recv().await;
        match r.get("id").and_then(|v| v.as_u64()) {
            Some(id @ (1 | 2 | 3 | 5)) => assert_eq!(r["status"], "success", "{id}: {r}"),
            Some(4) => assert_eq!(r["status"], "error", "{r}"),
            _ => {
                assert_eq!(r["error"], "jsonInvalid");
                let value = r["value"].as_str().unwrap_or_default();
                seen.push(if value.len() > 1_000_000 { 7 } else { 6 });
                continue;
            }
        }
        seen.push(r["id"].as_u64().unwrap());
    }
    let at = |id| seen.iter().position(|&x| x == id).unwrap();
    assert!(at(1) < at(2) && at(2) < at(5), "{seen:?}");
    seen.sort();
    assert_eq!(seen, [1, 2, 3, 4, 5, 6, 7]);
}
