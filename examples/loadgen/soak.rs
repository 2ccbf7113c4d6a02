//! `--mode soak`: payments at the full rate for `--seconds`, with the server's resident
//! memory and the applied rate printed every 30 seconds; afterwards every acknowledged
//! transaction is looked up with `tx` and must be found validated.
//!
//! Each connection signs its own accounts' payments as it goes (`--depth` in flight),
//! so the run is not bounded by what can be signed beforehand.

use super::ledger::{call, connect, pair, signed_payment, Ws, GENESIS_SEED};
use futures::{SinkExt, StreamExt};
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::types::Hash256;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

const SINK: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
const REPORT_EVERY: Duration = Duration::from_secs(30);

/// What one soak needs: where, how wide, how long, and whose memory to read.
pub struct Soak {
    pub connections: usize,
    pub depth: usize,
    pub accounts: usize,
    pub seconds: u64,
    pub pid: Option<u32>,
}

/// Funds `n` accounts from genesis and returns each with its next sequence.
async fn funded(admin: &mut Ws, n: usize) -> Vec<(KeyPair, u32)> {
    let senders: Vec<KeyPair> = (0..n).map(|i| pair(&format!("soak-{i}"))).collect();
    for s in &senders {
        let r = call(
            admin,
            json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {
                "TransactionType": "Payment", "Account": SINK,
                "Destination": s.account_id().to_address(), "Amount": "10000000000"}}),
        )
        .await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "funding: {r}");
    }
    call(admin, json!({"command": "ledger_accept"})).await;
    let mut out = Vec::new();
    for s in senders {
        let r = call(
            admin,
            json!({"command": "account_info", "account": s.account_id().to_address()}),
        )
        .await;
        let seq = r["result"]["account_data"]["Sequence"]
            .as_u64()
            .unwrap_or(0) as u32;
        out.push((s, seq));
    }
    out
}

/// One connection's share: signs and submits its accounts' payments in turn until
/// `stop`, and returns the IDs of those acknowledged with tesSUCCESS.
async fn submitter(
    addr: String,
    mut accounts: Vec<(KeyPair, u32)>,
    depth: usize,
    stop: Arc<AtomicBool>,
    applied: Arc<AtomicU64>,
) -> Vec<Hash256> {
    let (mut sink, mut stream) = connect(&addr).await.split();
    let window = Arc::new(Semaphore::new(depth));
    let sent: Arc<Mutex<HashMap<u64, Hash256>>> = Arc::default();
    let (w2, s2, done) = (
        window.clone(),
        sent.clone(),
        Arc::new(AtomicBool::new(false)),
    );
    let done2 = done.clone();
    let reader = tokio::spawn(async move {
        let mut acked = Vec::new();
        loop {
            if done2.load(Ordering::Acquire) && s2.lock().map(|m| m.is_empty()).unwrap_or(true) {
                return acked;
            }
            let next = tokio::time::timeout(Duration::from_secs(1), stream.next()).await;
            let Ok(Some(Ok(Message::Text(t)))) = next else {
                continue;
            };
            let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
            let Some(id) = v["id"].as_u64() else { continue };
            let Some(hash) = s2.lock().ok().and_then(|mut m| m.remove(&id)) else {
                continue;
            };
            if v["result"]["engine_result"] == "tesSUCCESS" {
                acked.push(hash);
                applied.fetch_add(1, Ordering::Relaxed);
            }
            w2.add_permits(1);
        }
    });
    let mut id = 0u64;
    'outer: while !stop.load(Ordering::Acquire) {
        for (key, seq) in accounts.iter_mut() {
            let blob = signed_payment(key, *seq, SINK, 1_000);
            let hash = ledgerd::protocol::tx::transaction_id(&hex::decode(&blob).expect("hex"));
            *seq += 1;
            window.acquire().await.expect("window").forget();
            if let Ok(mut m) = sent.lock() {
                m.insert(id, hash);
            }
            let req = json!({"id": id, "command": "submit", "tx_blob": blob});
            id += 1;
            if sink.send(Message::text(req.to_string())).await.is_err()
                || stop.load(Ordering::Acquire)
            {
                break 'outer;
            }
        }
    }
    done.store(true, Ordering::Release);
    reader.await.unwrap_or_default()
}

/// The server's resident memory in MB, when its process is known.
fn rss_mb(pid: Option<u32>) -> String {
    pid.and_then(super::fanout::rss_kib)
        .map_or("?".into(), |k| format!("{}", k / 1024))
}

/// Prints the applied rate and the server's memory every 30 seconds until `stop`.
async fn reporter(applied: Arc<AtomicU64>, stop: Arc<AtomicBool>, pid: Option<u32>) {
    let start = Instant::now();
    let mut last = 0;
    println!("soak: t (s), applied in the last 30 s (tx/s), applied in all, server RSS (MB)");
    println!("soak: {:>4} {:>8} {:>10} {:>6}", 0, 0, 0, rss_mb(pid));
    while !stop.load(Ordering::Acquire) {
        tokio::time::sleep(REPORT_EVERY).await;
        let now = applied.load(Ordering::Relaxed);
        let rate = (now - last) as f64 / REPORT_EVERY.as_secs_f64();
        last = now;
        let t = start.elapsed().as_secs();
        println!("soak: {t:>4} {rate:>8.0} {now:>10} {:>6}", rss_mb(pid));
    }
}

/// Looks every acknowledged transaction up with `tx` over the connections, `depth` deep;
/// returns how many were found validated.
async fn found(addr: &str, acked: &[Hash256], connections: usize, depth: usize) -> u64 {
    let mut good = 0;
    for chunk in acked.chunks(200_000) {
        let mut lists: Vec<Vec<Value>> = vec![Vec::new(); connections.max(1)];
        for (i, h) in chunk.iter().enumerate() {
            let n = lists.len();
            lists[i % n].push(json!({"command": "tx", "transaction": h.to_hex()}));
        }
        let (_, g, _) =
            super::ledger::drive(addr, lists, depth, |t| t.contains("\"validated\":true")).await;
        good += g;
    }
    good
}

pub async fn soak_mode(addr: &str, o: Soak) {
    let mut admin = connect(addr).await;
    let accounts = funded(&mut admin, o.accounts).await;
    let (stop, applied) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
    );
    let mut shares: Vec<Vec<(KeyPair, u32)>> =
        (0..o.connections.max(1)).map(|_| Vec::new()).collect();
    for (i, a) in accounts.into_iter().enumerate() {
        let n = shares.len();
        shares[i % n].push(a);
    }
    let report = tokio::spawn(reporter(applied.clone(), stop.clone(), o.pid));
    let start = Instant::now();
    let tasks: Vec<_> = shares
        .into_iter()
        .map(|share| {
            tokio::spawn(submitter(
                addr.to_string(),
                share,
                o.depth,
                stop.clone(),
                applied.clone(),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(o.seconds)).await;
    stop.store(true, Ordering::Release);
    let mut acked = Vec::new();
    for t in tasks {
        acked.extend(t.await.unwrap_or_default());
    }
    let took = start.elapsed().as_secs_f64();
    report.abort();
    println!(
        "soak: {} payments acknowledged in {took:.0} s ({:.0} tx/s); server RSS {} MB",
        acked.len(),
        acked.len() as f64 / took,
        rss_mb(o.pid)
    );
    // Two closes, so the last acknowledged ones are validated.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let t = Instant::now();
    let good = found(addr, &acked, o.connections, o.depth).await;
    println!(
        "soak: {good} of {} acknowledged payments found validated with tx ({:.0} s); server RSS {} MB",
        acked.len(),
        t.elapsed().as_secs_f64(),
        rss_mb(o.pid)
    );
}
