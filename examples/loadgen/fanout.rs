//! `--mode fanout` of the load generator: many WebSocket subscribers, as a wallet back end
//! holds them. `--subscribers N` connections subscribe to the `ledger` and `transactions`
//! streams and `--account-subscribers M` more to one account each, opened from
//! `--sources K` loopback addresses (127.0.0.1, 127.0.0.2, ...) so that they are not bound
//! by one address's ephemeral ports. Then `--closes C` times: `--each P` payments are
//! submitted and a ledger is closed (`ledger_accept`); the delay from sending the close to
//! each subscriber's receipt of `ledgerClosed` is recorded. It reports the server's resident
//! memory per connection (VmRSS before and after opening them, idle), the delivery delays
//! (p50, p99, max over every receipt, and the median over closes of the last receipt), and
//! how many transaction and account messages arrived.
//!
//! `--idle-connections N` (any mode): hold N idle subscribed connections open during the
//! run, to compare a mode's throughput with and without them.

use super::ledger::{call, connect, pair, percentile, GENESIS_SEED};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// What the fan-out run is asked to do.
pub struct Fanout {
    pub subscribers: usize,
    pub account_subscribers: usize,
    /// The streams each of the `subscribers` follows.
    pub streams: Vec<String>,
    pub sources: u8,
    pub closes: usize,
    pub each: u32,
    /// The server's process id, for its resident memory (None: not measured).
    pub pid: Option<u32>,
}

type Sub = WebSocketStream<tokio::net::TcpStream>;

/// Receipts of `ledgerClosed`, by ledger sequence.
type Receipts = Arc<Mutex<HashMap<u64, Vec<Instant>>>>;

/// The server's resident memory in KiB (VmRSS).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// CPU time a process has used, in milliseconds (utime + stime of /proc/PID/stat, at the
/// kernel's 100 ticks a second).
pub fn cpu_ms(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces), from field 3 on.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10)
}

/// One subscriber connection from `127.0.0.<source>` (a small read buffer: the generator
/// holds thousands).
async fn open(addr: SocketAddr, source: u8) -> Sub {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    let from = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, source)), 0);
    socket.bind(from).expect("bind a loopback source address");
    let stream = socket.connect(addr).await.expect("connect");
    let _ = stream.set_nodelay(true);
    let config = WebSocketConfig::default().read_buffer_size(4096);
    tokio_tungstenite::client_async_with_config(format!("ws://{addr}/"), stream, Some(config))
        .await
        .expect("handshake")
        .0
}

/// Send `request` and wait for its response, skipping stream messages.
async fn subscribe(ws: &mut Sub, request: &Value) {
    ws.send(Message::text(request.to_string()))
        .await
        .expect("send");
    while let Some(Ok(m)) = ws.next().await {
        if let Message::Text(t) = m {
            if t.as_str().contains("\"type\":\"response\"") {
                assert!(t.as_str().contains("\"status\":\"success\""), "{t}");
                return;
            }
        }
    }
    panic!("subscribe: the connection ended");
}

/// `count` connections, each subscribed with `request_for(i)`, opened 200 at a time.
async fn open_many(
    addr: SocketAddr,
    sources: u8,
    count: usize,
    request_for: impl Fn(usize) -> Value,
) -> Vec<Sub> {
    let mut out = Vec::with_capacity(count);
    let mut i = 0;
    while i < count {
        let batch: Vec<_> = (i..(i + 200).min(count))
            .map(|k| {
                let request = request_for(k);
                let source = 1 + (k % sources.max(1) as usize) as u8;
                async move {
                    let mut ws = open(addr, source).await;
                    subscribe(&mut ws, &request).await;
                    ws
                }
            })
            .collect();
        i += batch.len();
        out.extend(futures::future::join_all(batch).await);
    }
    out
}

/// Hold `n` idle connections subscribed to `ledger` (their messages are read and dropped).
pub async fn idle_connections(
    addr: &str,
    n: usize,
    sources: u8,
) -> Vec<tokio::task::JoinHandle<()>> {
    let addr: SocketAddr = addr.parse().expect("server address");
    let started = Instant::now();
    let subs = open_many(
        addr,
        sources,
        n,
        |_| json!({"command": "subscribe", "streams": ["ledger"]}),
    )
    .await;
    println!(
        "{n} idle subscribed connections opened in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    subs.into_iter()
        .map(|mut ws| tokio::spawn(async move { while let Some(Ok(_)) = ws.next().await {} }))
        .collect()
}

/// The ledger sequence of a `ledgerClosed` message, read without parsing the rest.
fn closed_ledger_index(text: &str) -> Option<u64> {
    if !text.contains("\"type\":\"ledgerClosed\"") {
        return None;
    }
    let rest = &text[text.find("\"ledger_index\":")? + "\"ledger_index\":".len()..];
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

/// Read each subscriber's messages: `ledgerClosed` receipts into `receipts`, anything else
/// (transactions) counted in `others`.
fn listen(subs: Vec<Sub>, receipts: &Receipts, others: &Arc<AtomicU64>) {
    for mut ws in subs {
        let (receipts, others) = (receipts.clone(), others.clone());
        tokio::spawn(async move {
            while let Some(Ok(m)) = ws.next().await {
                let Message::Text(t) = m else { continue };
                match closed_ledger_index(t.as_str()) {
                    Some(seq) => {
                        let now = Instant::now();
                        receipts.lock().unwrap().entry(seq).or_default().push(now);
                    }
                    None => {
                        others.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        });
    }
}

/// The payers: `count` accounts funded from genesis, with their next sequences.
async fn fund(
    admin: &mut super::ledger::Ws,
    count: usize,
) -> Vec<(ledgerd::protocol::keys::KeyPair, u32)> {
    let payers: Vec<_> = (0..count).map(|i| pair(&format!("fanout-{i}"))).collect();
    for p in &payers {
        let r = call(
            admin,
            json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {
            "TransactionType": "Payment", "Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
            "Destination": p.account_id().to_address(), "Amount": "1000000000"}}),
        )
        .await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "funding: {r}");
    }
    call(admin, json!({"command": "ledger_accept"})).await;
    let mut out = Vec::new();
    for p in payers {
        let r = call(
            admin,
            json!({"command": "account_info",
            "account": p.account_id().to_address()}),
        )
        .await;
        let seq = r["result"]["account_data"]["Sequence"]
            .as_u64()
            .unwrap_or(0) as u32;
        out.push((p, seq));
    }
    out
}

/// Run the fan-out measurement against the server at `addr`.
pub async fn fanout_mode(addr: &str, f: &Fanout) {
    let sock: SocketAddr = addr.parse().expect("server address");
    let mut admin = connect(addr).await;
    let payers = fund(&mut admin, f.each.max(1) as usize).await;
    let rss0 = f.pid.and_then(rss_kib);
    let started = Instant::now();
    let subs = open_many(
        sock,
        f.sources,
        f.subscribers,
        |_| json!({"command": "subscribe", "streams": f.streams}),
    )
    .await;
    let accounts: Vec<String> = payers
        .iter()
        .map(|(p, _)| p.account_id().to_address())
        .collect();
    let account_subs = open_many(
        sock,
        f.sources,
        f.account_subscribers,
        |i| json!({"command": "subscribe", "accounts": [accounts[i % accounts.len()]]}),
    )
    .await;
    let total = f.subscribers + f.account_subscribers;
    println!(
        "{total} connections ({} {}, {} accounts) from {} source addresses opened in {:.1} s",
        f.subscribers,
        f.streams.join("+"),
        f.account_subscribers,
        f.sources,
        started.elapsed().as_secs_f64()
    );
    report_memory(f.pid, rss0, total).await;
    let receipts: Receipts = Arc::default();
    let (others, account_msgs) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    listen(subs, &receipts, &others);
    listen(account_subs, &Arc::default(), &account_msgs);
    run_closes(&mut admin, f, payers, &receipts, &others).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!(
        "stream messages received: {} transactions (on the stream subscribers), {} on account subscribers",
        others.load(Ordering::Relaxed),
        account_msgs.load(Ordering::Relaxed)
    );
}

/// Wait for the server to settle, then print its memory per connection.
async fn report_memory(pid: Option<u32>, before: Option<u64>, connections: usize) {
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (Some(pid), Some(before)) = (pid, before) else {
        println!("server memory: not measured (no --server-pid)");
        return;
    };
    let after = rss_kib(pid).unwrap_or(0);
    println!(
        "server RSS {:.1} MiB -> {:.1} MiB: {:.2} KiB per idle subscribed connection",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        after.saturating_sub(before) as f64 / connections.max(1) as f64
    );
}

/// `f.closes` rounds of payments and a close, each timed to its last subscriber.
async fn run_closes(
    admin: &mut super::ledger::Ws,
    f: &Fanout,
    mut payers: Vec<(ledgerd::protocol::keys::KeyPair, u32)>,
    receipts: &Receipts,
    others: &AtomicU64,
) {
    let mut all = Vec::new();
    let mut last = Vec::new();
    let mut incomplete = 0;
    let server_cpu = f.pid.and_then(cpu_ms);
    let own_cpu = cpu_ms(std::process::id());
    for round in 0..f.closes {
        for (p, seq) in payers.iter_mut() {
            let blob =
                super::ledger::signed_payment(p, *seq, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", 1_000);
            *seq += 1;
            call(admin, json!({"command": "submit", "tx_blob": blob})).await;
        }
        let sent = Instant::now();
        let r = call(admin, json!({"command": "ledger_accept"})).await;
        let seq = r["result"]["ledger_current_index"].as_u64().unwrap_or(1) - 1;
        let deadline = sent + Duration::from_secs(20);
        loop {
            let got = receipts.lock().unwrap().get(&seq).map_or(0, Vec::len);
            if got >= f.subscribers || Instant::now() > deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let times = receipts.lock().unwrap().remove(&seq).unwrap_or_default();
        if times.len() < f.subscribers {
            incomplete += 1;
        }
        let delays: Vec<Duration> = times
            .iter()
            .map(|t| t.saturating_duration_since(sent))
            .collect();
        last.push(delays.iter().max().copied().unwrap_or_default());
        all.extend(delays);
        // Let the transactions' messages drain before the next round, so each close is
        // timed on its own.
        let follows_transactions = f.streams.iter().any(|s| s == "transactions");
        let expected = (round as u64 + 1) * f.each as u64 * f.subscribers as u64;
        let expected = if follows_transactions { expected } else { 0 };
        let deadline = Instant::now() + Duration::from_secs(20);
        while others.load(Ordering::Relaxed) < expected && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    if f.closes == 0 {
        return;
    }
    let per_close = |before: Option<u64>, pid: Option<u32>| match (before, pid.and_then(cpu_ms)) {
        (Some(b), Some(a)) => format!("{:.0} ms", a.saturating_sub(b) as f64 / f.closes as f64),
        _ => "not measured".into(),
    };
    println!(
        "CPU per round (payments, close, ledgerClosed and every transaction message delivered): server {}, this generator {}",
        per_close(server_cpu, f.pid),
        per_close(own_cpu, Some(std::process::id()))
    );
    println!(
        "ledgerClosed to {} subscribers, {} closes with {} payments each: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         last subscriber per close: median {:.1} ms; closes not reaching everyone: {incomplete}",
        f.subscribers,
        f.closes,
        f.each,
        percentile(&mut all, 0.5),
        percentile(&mut all, 0.99),
        percentile(&mut all, 1.0),
        percentile(&mut last, 0.5),
    );
}
