//! WebSocket hardening against a real `ledgerd` child process on loopback: what unfinished
//! messages may cost in memory and for how long, and whether large requests from a few
//! clients stall everyone else.
//!
//! The two tests are heavy (hundreds of megabytes, both cores): they run one at a time.
//! `LEDGERD_TEST_BIN` names another build of the binary to run them against (an older one,
//! to see its numbers); by default they run the one cargo built.

use futures::StreamExt;
use ledgerd::limits::{
    WS_MESSAGE_BYTES_MAX, WS_UNFINISHED_BYTES_TOTAL_MAX, WS_UNFINISHED_BYTES_UNCHARGED_MAX,
    WS_UNFINISHED_MESSAGE_SECS_MAX,
};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const MIB: u64 = 1024 * 1024;

/// A `ledgerd serve` child with an ordinary log level, killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let bin = std::env::var("LEDGERD_TEST_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_ledgerd").to_string());
        let mut child = Command::new(bin)
            .args(["serve", "--listen", "127.0.0.1:0", "--ephemeral"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn ledgerd");
        let out = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(out).lines();
        let addr = loop {
            let line = lines.next().expect("ledgerd exited").expect("read");
            if let Some(rest) = line.strip_prefix("ledgerd listening on ") {
                break rest.split(' ').next().expect("addr").to_owned();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Server { child, addr }
    }

    fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }

    /// Resident memory, from /proc/<pid>/status.
    fn rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read /proc/<pid>/status");
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmRSS");
        kib * 1024
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A masked client frame (the mask key is zero, so the payload goes as is).
fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![if fin { 0x80 } else { 0 } | opcode];
    match payload.len() {
        n @ 0..=125 => f.push(0x80 | n as u8),
        n @ 126..=0xffff => {
            f.push(0x80 | 126);
            f.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            f.push(0x80 | 127);
            f.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    f.extend_from_slice(&[0; 4]);
    f.extend_from_slice(payload);
    f
}

/// A raw socket past the WebSocket upgrade.
async fn upgraded(addr: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        head.push(s.read_u8().await.unwrap());
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{head:?}");
    s
}

/// Write raw bytes under a connected client.
async fn write_raw(ws: &mut Ws, bytes: &[u8]) -> std::io::Result<()> {
    let MaybeTlsStream::Plain(s) = ws.get_mut() else {
        unreachable!("plain ws://")
    };
    s.write_all(bytes).await
}

/// The close frame the server sends (code, reason), if any, within `wait`.
async fn close_code(ws: &mut Ws, wait: Duration) -> Option<(u16, String)> {
    let until = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(until, ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(f))))) => {
                return Some((f.code.into(), f.reason.to_string()))
            }
            Ok(Some(Ok(Message::Close(None)))) => return Some((1005, String::new())),
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

/// Many connections each leave a large fragmented message unfinished. Memory stays within
/// the unfinished-message budget (about three times it, as tungstenite holds a frame while
/// it grows the message's buffer), the connections past the budget are closed with 1008 at
/// once, the others with 1008 when their time runs out, and the memory comes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_fragmented_messages_are_bounded_in_memory_and_time() {
    const ATTACKERS: usize = 400;
    // Just under the socket limit (old or new): every frame is accepted on its own.
    const FRAGMENT: usize = 64 * 1024;
    let fragments = (WS_MESSAGE_BYTES_MAX - 100 * 1024) / FRAGMENT;
    let _alone = crate::ALONE.lock().await;
    let server = Server::start();
    let mut warm = tokio_tungstenite::connect_async(server.url())
        .await
        .unwrap()
        .0;
    write_raw(&mut warm, &frame(true, 1, br#"{"command":"ping"}"#))
        .await
        .unwrap();
    assert!(matches!(warm.next().await, Some(Ok(Message::Text(_)))));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = server.rss();

    let mut first = frame(false, 1, &[b' '; FRAGMENT]);
    first.extend(frame(false, 0, &[b' '; FRAGMENT]));
    let more = frame(false, 0, &[b' '; FRAGMENT]);
    let started = Instant::now();
    let mut attackers = Vec::new();
    for _ in 0..ATTACKERS {
        let (mut ws, _) = tokio_tungstenite::connect_async(server.url())
            .await
            .unwrap();
        let own_start = Instant::now();
        // Writes to a connection the server refused fail: that is the point.
        if write_raw(&mut ws, &first).await.is_ok() {
            for _ in 2..fragments {
                if write_raw(&mut ws, &more).await.is_err() {
                    break;
                }
            }
        }
        attackers.push((ws, own_start));
    }
    let sent = started.elapsed();
    let mut during = 0;
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        during = during.max(server.rss());
    }
    // What the meter lets the attackers hold, about three times over in memory (tungstenite
    // holds a frame while it doubles the message's buffer), and the connections themselves.
    let held = WS_UNFINISHED_BYTES_TOTAL_MAX + ATTACKERS * WS_UNFINISHED_BYTES_UNCHARGED_MAX;
    let bound = 3 * held as u64 + 32 * MIB;
    eprintln!(
        "{ATTACKERS} x {} KiB unfinished, sent in {sent:?}: RSS before {} MiB, during {} MiB \
         (bound: before + {} MiB)",
        fragments * FRAGMENT / 1024,
        before / MIB,
        during / MIB,
        bound / MIB
    );
    assert!(
        during < before + bound,
        "RSS grew {} MiB under the attack",
        (during - before) / MIB
    );
    // Meanwhile a new client's ordinary request is served.
    let mut fresh = tokio_tungstenite::connect_async(server.url())
        .await
        .unwrap()
        .0;
    write_raw(&mut fresh, &frame(true, 1, br#"{"command":"ping"}"#))
        .await
        .unwrap();
    let reply = tokio::time::timeout(Duration::from_secs(10), fresh.next()).await;
    assert!(matches!(reply, Ok(Some(Ok(Message::Text(_))))), "{reply:?}");
    let closes = gather_closes(attackers).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = server.rss();
    eprintln!("RSS after every attacker was dropped: {} MiB", after / MIB);
    check_closes(&closes);
    assert!(
        after < before + 32 * MIB,
        "memory not returned: before {} MiB, after {} MiB",
        before / MIB,
        after / MIB
    );
    // The server still serves.
    write_raw(&mut warm, &frame(true, 1, br#"{"command":"ping"}"#))
        .await
        .unwrap();
    assert!(matches!(warm.next().await, Some(Ok(Message::Text(_)))));
}

/// Each attacker's close (code, reason, seconds since its message began), read concurrently.
async fn gather_closes(attackers: Vec<(Ws, Instant)>) -> Vec<Option<(u16, String, f64)>> {
    let wait = Duration::from_secs(WS_UNFINISHED_MESSAGE_SECS_MAX + 15);
    let tasks: Vec<_> = attackers
        .into_iter()
        .map(|(mut ws, started)| {
            tokio::spawn(async move {
                let close = close_code(&mut ws, wait).await;
                close.map(|(c, r)| (c, r, started.elapsed().as_secs_f64()))
            })
        })
        .collect();
    let mut closes = Vec::new();
    for t in tasks {
        closes.push(t.await.unwrap());
    }
    closes
}

/// Every attacker was closed with 1008: past the budget at once, the rest once their
/// time ran out (not before it, and well before the ping timer would have).
fn check_closes(closes: &[Option<(u16, String, f64)>]) {
    let limit = WS_UNFINISHED_MESSAGE_SECS_MAX as f64;
    let (mut budget, mut timeout) = (0, Vec::new());
    for c in closes {
        let (code, reason, at) = c.as_ref().expect("an attacker was never closed");
        assert_eq!(*code, 1008, "{reason}");
        if reason.contains("too many unfinished") {
            budget += 1;
        } else {
            assert!(reason.contains("not completed in time"), "{reason}");
            timeout.push(*at);
        }
    }
    let first = timeout.iter().cloned().fold(f64::MAX, f64::min);
    let last = timeout.iter().cloned().fold(0.0, f64::max);
    eprintln!(
        "closed: {budget} over the budget, {} timed out between {first:.1} s and {last:.1} s",
        timeout.len()
    );
    assert!(budget > 0 && !timeout.is_empty());
    assert!(first >= limit - 1.0 && last < limit + 10.0);
}

/// Four clients send 1 MB requests as fast as the server takes them; a fifth, healthy client
/// pings. Parsing a 1 MB request takes milliseconds: done on the I/O thread it stalled every
/// other connection; on the CPU pool the healthy client is answered promptly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_healthy_client_is_answered_promptly_beside_clients_sending_large_requests() {
    const ATTACKERS: usize = 4;
    const PINGS: usize = 150;
    let _alone = crate::ALONE.lock().await;
    let server = Server::start();
    let mut healthy = tokio_tungstenite::connect_async(server.url())
        .await
        .unwrap()
        .0;
    let alone = ping_worst(&mut healthy, 20).await;
    // A valid request of about 1 MB, costly to parse: 110,000 small objects.
    let pad = vec![r#"{"k":1}"#; 110_000].join(",");
    let request = format!(r#"{{"id":1,"command":"ping","pad":[{pad}]}}"#);
    assert!(request.len() < 1_000_000, "{}", request.len());
    let message = std::sync::Arc::new(frame(true, 1, request.as_bytes()));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut attackers = Vec::new();
    for _ in 0..ATTACKERS {
        let (message, stop) = (message.clone(), stop.clone());
        let raw = upgraded(&server.addr).await;
        attackers.push(tokio::spawn(flood(raw, message, stop)));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let worst = ping_worst(&mut healthy, PINGS).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut answered = 0;
    for a in attackers {
        answered += a.await.unwrap();
    }
    eprintln!(
        "healthy client's worst ping: {alone:?} alone, {worst:?} beside {ATTACKERS} clients \
         whose {answered} replies to 1 MB requests came meanwhile"
    );
    assert!(
        answered >= 2 * ATTACKERS,
        "the flood never ran ({answered})"
    );
    assert!(
        worst < Duration::from_millis(400),
        "{worst:?} beside the large requests"
    );
}

/// Sends `message` again and again, reading (and counting) replies, until `stop`.
async fn flood(
    stream: TcpStream,
    message: std::sync::Arc<Vec<u8>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (mut rx, mut tx) = stream.into_split();
    let replies = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = replies.clone();
    let reader = tokio::spawn(async move {
        let mut buf = vec![0u8; 64 * 1024];
        while let Ok(n) = rx.read(&mut buf).await {
            if n == 0 {
                break;
            }
            let seen = buf[..n]
                .windows(17)
                .filter(|w| w == b"\"type\":\"response\"");
            counted.fetch_add(seen.count(), Ordering::Relaxed);
        }
    });
    while !stop.load(Ordering::Relaxed) {
        if tx.write_all(&message).await.is_err() {
            break;
        }
    }
    reader.abort();
    replies.load(Ordering::Relaxed)
}

/// The worst round trip of `n` ping requests, 20 ms apart (30 s if one goes unanswered that
/// long: the pinging stops there).
async fn ping_worst(ws: &mut Ws, n: usize) -> Duration {
    let mut worst = Duration::ZERO;
    for i in 0..n {
        let sent = Instant::now();
        write_raw(
            ws,
            &frame(
                true,
                1,
                format!(r#"{{"id":{i},"command":"ping"}}"#).as_bytes(),
            ),
        )
        .await
        .unwrap();
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => assert!(t.contains("success"), "{t}"),
            Err(_) => return Duration::from_secs(30),
            other => panic!("no answer to ping {i}: {other:?}"),
        }
        worst = worst.max(sent.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    worst
}
