//! The CPU pool's deferred writer wakes, seen from outside over real sockets: every pipelined
//! request answered exactly once (and with its own answer), clients that vanish with requests
//! in flight leave nothing behind, a trickle of requests beside a flood is not held back, and
//! shutdown with jobs in flight closes every connection with 1001 within the grace period.

use crate::support;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use support::keys::{CHANNEL, GENESIS_SEED};
use support::server::Server;
use support::ws::{Ws, WsStream};
use tokio_tungstenite::tungstenite::Message;

/// Distinct amounts the pipelined requests cycle through (each has its own signature).
const AMOUNTS: u64 = 8;

/// The signing fields of one key type.
fn secret(ed25519: bool) -> Value {
    if ed25519 {
        json!({"passphrase": "pool review", "key_type": "ed25519"})
    } else {
        json!({"secret": GENESIS_SEED})
    }
}

fn authorize(id: Value, ed25519: bool, amount: u64) -> Value {
    let mut r = json!({"id": id, "command": "channel_authorize", "channel_id": CHANNEL,
        "amount": amount.to_string()});
    for (k, v) in secret(ed25519).as_object().unwrap() {
        r[k] = v.clone();
    }
    r
}

/// The signature of each amount for one key type, asked one at a time.
async fn reference_signatures(url: &str, ed25519: bool) -> Vec<String> {
    let mut ws = Ws::connect(url).await;
    let mut sigs = Vec::new();
    for amount in 1..=AMOUNTS {
        let r = ws.call(authorize(json!(0), ed25519, amount)).await;
        assert_eq!(r["status"], "success", "{r}");
        sigs.push(r["result"]["signature"].as_str().unwrap().to_owned());
    }
    sigs
}

/// The next message, text parsed as JSON; `Err` with the close frame's code (or 0 for a
/// connection that ended without one).
async fn next(s: &mut WsStream, wait: Duration) -> Result<Value, u16> {
    loop {
        match tokio::time::timeout(wait, s.next()).await {
            Err(_) => panic!("no message within {wait:?}"),
            Ok(None) | Ok(Some(Err(_))) => return Err(0),
            Ok(Some(Ok(Message::Text(t)))) => {
                return Ok(serde_json::from_str(t.as_str()).expect("JSON"))
            }
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Err(frame.map(|f| u16::from(f.code)).unwrap_or(0))
            }
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// How many log lines contain `needle`.
fn count(server: &Server, needle: &str) -> usize {
    server
        .log_text()
        .lines()
        .filter(|l| l.contains(needle))
        .count()
}

/// Wait (up to 10 s) until every WebSocket session the server opened has ended.
async fn all_sessions_end(server: &Server) {
    for _ in 0..500 {
        if count(server, "websocket open") == count(server, "websocket closed") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "{} sessions opened, {} ended",
        count(server, "websocket open"),
        count(server, "websocket closed")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_pipelines_on_many_connections_answer_every_id_once_with_its_own_answer() {
    const CONNECTIONS: usize = 8;
    const DEPTH: usize = 240;
    let server = Server::start(&[]);
    let url = server.ws_url();
    let refs = [
        reference_signatures(&url, false).await,
        reference_signatures(&url, true).await,
    ];
    let mut tasks = Vec::new();
    for c in 0..CONNECTIONS {
        let url = url.clone();
        let refs = refs.clone();
        tasks.push(tokio::spawn(async move {
            let ed25519 = c % 2 == 1;
            let mut ws = Ws::connect(&url).await;
            // id -> what its reply must be
            let mut expected: HashMap<String, Option<String>> = HashMap::new();
            let mut json_invalid = 0;
            for i in 0..DEPTH {
                let id = format!("{c}-{i}");
                let amount = (i as u64 % AMOUNTS) + 1;
                match i % 10 {
                    3 => {
                        ws.send(&json!({"id": id, "command": "ping"})).await;
                        expected.insert(id, None);
                    }
                    6 => {
                        let mut r = authorize(json!(id), ed25519, amount);
                        r["amount"] = json!("-1");
                        ws.send(&r).await;
                        expected.insert(id, Some("channelAmtMalformed".into()));
                    }
                    9 => {
                        ws.send_text("{not json").await;
                        json_invalid += 1;
                    }
                    _ => {
                        ws.send(&authorize(json!(id), ed25519, amount)).await;
                        let sig = refs[usize::from(ed25519)][(amount - 1) as usize].clone();
                        expected.insert(id, Some(sig));
                    }
                }
            }
            let mut seen_invalid = 0;
            for _ in 0..DEPTH {
                let r = ws.recv().await;
                if r["error"] == "jsonInvalid" {
                    seen_invalid += 1;
                    continue;
                }
                let id = r["id"].as_str().expect("id").to_owned();
                let want = expected
                    .remove(&id)
                    .unwrap_or_else(|| panic!("{id} answered twice, or never asked: {r}"));
                match want {
                    None => assert_eq!(r["status"], "success", "{r}"),
                    Some(e) if e == "channelAmtMalformed" => assert_eq!(r["error"], e, "{r}"),
                    Some(sig) => {
                        assert_eq!(r["status"], "success", "{r}");
                        assert_eq!(r["result"]["signature"], json!(sig), "{id}: someone else's");
                    }
                }
            }
            assert!(expected.is_empty(), "never answered: {expected:?}");
            assert_eq!(seen_invalid, json_invalid);
            // Nothing more comes.
            let extra = tokio::time::timeout(Duration::from_millis(200), ws.raw().next()).await;
            assert!(extra.is_err(), "an extra message: {extra:?}");
        }));
    }
    for t in tasks {
        t.await.expect("connection task");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_vanish_with_requests_in_flight_leave_nothing_behind() {
    const LIMIT: usize = 4;
    let toml = format!(
        "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nlimit = {LIMIT}\n\
         admin = [\"127.0.0.1\"]\n"
    );
    let (server, _dir) = Server::with_config(&toml, 1);
    let url = server.ws_url();
    // More rounds than the port has slots: a session left behind would keep its slot.
    for round in 0..3 {
        let mut clients = Vec::new();
        for c in 0..LIMIT {
            let started = Instant::now();
            let mut ws = loop {
                match tokio_tungstenite::connect_async(&url).await {
                    Ok((ws, _)) => break ws,
                    Err(e) if started.elapsed() < Duration::from_secs(10) => {
                        let _ = e;
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    Err(e) => panic!("round {round}: no slot for client {c}: {e}"),
                }
            };
            // A prompt answer proves the slot is really ours (a refused connection closes).
            ws.send(Message::text(r#"{"command":"ping"}"#))
                .await
                .unwrap();
            let r = next(&mut ws, Duration::from_secs(10)).await;
            assert_eq!(r.map(|r| r["status"].clone()), Ok(json!("success")));
            for i in 0..150u64 {
                let r = authorize(json!(i), c % 2 == 1, i % AMOUNTS + 1);
                ws.feed(Message::text(r.to_string())).await.unwrap();
            }
            ws.flush().await.unwrap();
            clients.push(ws);
        }
        // Half leave with a reset, half with a plain FIN, none with a close frame.
        for (c, mut ws) in clients.into_iter().enumerate() {
            if c % 2 == 0 {
                if let tokio_tungstenite::MaybeTlsStream::Plain(s) = ws.get_mut() {
                    // A zero linger never blocks on drop (the deprecation's concern): it turns
                    // the close into a reset.
                    #[allow(deprecated)]
                    s.set_linger(Some(Duration::ZERO)).unwrap();
                }
            }
            drop(ws);
        }
    }
    all_sessions_end(&server).await;
    let mut ws = Ws::connect(&url).await;
    let r = ws.call(authorize(json!("after"), false, 1)).await;
    assert_eq!(r["status"], "success", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickle_beside_a_flood_is_answered_promptly() {
    const FLOODERS: usize = 3;
    const IN_FLIGHT: usize = 64;
    const TRICKLE: usize = 60;
    let server = Server::start(&[]);
    let url = server.ws_url();
    // Alone: each reply comes as soon as it is made (the worker's queue runs dry).
    let mut trickle = Ws::connect(&url).await;
    let mut idle_worst = Duration::ZERO;
    for i in 0..20u64 {
        let sent = Instant::now();
        let r = trickle.call(authorize(json!(i), i % 2 == 1, 1)).await;
        idle_worst = idle_worst.max(sent.elapsed());
        assert_eq!(r["status"], "success", "{r}");
    }
    // Flooders keep the pool's queue full of signatures for as long as the trickle runs.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flood_replies = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut flooders = Vec::new();
    for f in 0..FLOODERS {
        let (url, stop, replies) = (url.clone(), stop.clone(), flood_replies.clone());
        flooders.push(tokio::spawn(async move {
            let mut ws = Ws::connect(&url).await;
            let mut sent = 0u64;
            for _ in 0..IN_FLIGHT {
                ws.send(&authorize(json!(sent), f % 2 == 1, sent % AMOUNTS + 1))
                    .await;
                sent += 1;
            }
            let mut answered = 0u64;
            while answered < sent {
                let r = ws.recv().await;
                assert_eq!(r["status"], "success", "{r}");
                answered += 1;
                replies.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    ws.send(&authorize(json!(sent), f % 2 == 1, sent % AMOUNTS + 1))
                        .await;
                    sent += 1;
                }
            }
            answered
        }));
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Promptly means in turn, not in time (the machine is shared): while one trickle
    // request waits, the flood gets about what was queued ahead of it answered (every
    // flooder's window; about 1.5 windows measured, replies in transit included). The
    // bound is 8 windows, a small part of the whole flood (over 10,000 requests): a
    // request held back until some later event would watch the flood go by.
    let mut worst = Duration::ZERO;
    let mut most_passed = 0u64;
    for i in 0..TRICKLE as u64 {
        let sent = Instant::now();
        let before = flood_replies.load(std::sync::atomic::Ordering::SeqCst);
        let r = trickle.call(authorize(json!(i), i % 2 == 0, 2)).await;
        let passed = flood_replies.load(std::sync::atomic::Ordering::SeqCst) - before;
        most_passed = most_passed.max(passed);
        worst = worst.max(sent.elapsed());
        assert_eq!(r["status"], "success", "{r}");
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut flooded = 0;
    for f in flooders {
        flooded += f.await.expect("flooder");
    }
    eprintln!("trickle: worst {idle_worst:?} alone, {worst:?} and at most {most_passed} flood replies beside {flooded} flooded requests");
    let window = (FLOODERS * IN_FLIGHT) as u64;
    assert!(
        most_passed <= 8 * window,
        "{most_passed} flood replies went by one trickle request (window {window})"
    );
    assert!(flooded > TRICKLE as u64, "the flood never ran ({flooded})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_with_jobs_in_flight_closes_every_connection_with_1001_in_time() {
    const CONNECTIONS: usize = 4;
    const DEPTH: u64 = 300;
    let server = Server::start(&[]);
    let url = server.ws_url();
    let mut clients = Vec::new();
    for c in 0..CONNECTIONS {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        for i in 0..DEPTH {
            let r = authorize(json!(i), c % 2 == 1, i % AMOUNTS + 1);
            ws.feed(Message::text(r.to_string())).await.unwrap();
        }
        ws.flush().await.unwrap();
        clients.push(ws);
    }
    // Wait until the signing is under way on every connection, then stop the server.
    for ws in &mut clients {
        let r = next(ws, Duration::from_secs(10))
            .await
            .expect("first reply");
        assert_eq!(r["status"], "success", "{r}");
    }
    let readers: Vec<_> = clients
        .into_iter()
        .map(|mut ws| {
            tokio::spawn(async move {
                let mut seen = std::collections::HashSet::new();
                loop {
                    match next(&mut ws, Duration::from_secs(15)).await {
                        Ok(r) => {
                            assert_eq!(r["status"], "success", "{r}");
                            assert!(seen.insert(r["id"].as_u64().unwrap()), "twice: {r}");
                        }
                        Err(code) => return (code, seen.len()),
                    }
                }
            })
        })
        .collect();
    let started = Instant::now();
    let log = server.log.clone();
    let status = tokio::task::spawn_blocking(move || server.terminate())
        .await
        .unwrap();
    let took = started.elapsed();
    let log = log.lock().unwrap().join("\n");
    assert!(status.success(), "{status:?}");
    assert!(
        !log.contains("still open after the shutdown grace period"),
        "shutdown waited out its grace period"
    );
    assert!(took < Duration::from_secs(5), "shutdown took {took:?}");
    let mut answered = Vec::new();
    for r in readers {
        let (code, n) = r.await.expect("reader");
        assert_eq!(code, 1001, "closed without 'going away' after {n} replies");
        answered.push(n);
    }
    eprintln!("shutdown took {took:?}; replies before the close: {answered:?} of {DEPTH} each");
}
