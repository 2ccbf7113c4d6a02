//! `--mode submit` and `--mode reads` of the load generator: pre-signed Payments from many
//! funded accounts, pipelined over several connections (applied tx/s, p50/p99 latency),
//! and account_info / account_lines reads (reads/s, p50/p99).

use futures::{SinkExt, StreamExt};
use ledgerd::protocol::codec;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::st::StValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

pub const GENESIS_SEED: &str = "snoPBrXtMeMyMHUVTgbuqAfg1SUTb";

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket connection to the server. The generator shares the cores with the server, so
/// it keeps its own costs down: a 16 KiB read buffer (tungstenite zero-fills the free part of
/// its default 128 KiB buffer before every read).
pub async fn connect(addr: &str) -> Ws {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(16 * 1024);
    tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/"), Some(config), false)
        .await
        .expect("connect")
        .0
}

pub async fn call(ws: &mut Ws, req: Value) -> Value {
    ws.send(Message::text(req.to_string())).await.expect("send");
    while let Some(Ok(m)) = ws.next().await {
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
            if v["type"] == "response" {
                return v;
            }
        }
    }
    Value::Null
}

pub fn pair(passphrase: &str) -> KeyPair {
    KeyPair::from_seed(&Seed::from_passphrase(passphrase), KeyType::Secp256k1).expect("keys")
}

pub fn signed_payment(p: &KeyPair, seq: u32, dest: &str, drops: u64) -> String {
    let tx = json!({"TransactionType": "Payment", "Account": p.account_id().to_address(),
        "Destination": dest, "Amount": drops.to_string(), "Fee": "10", "Sequence": seq,
        "Flags": 2147483648u32, "SigningPubKey": p.public.to_hex()});
    let mut obj = codec::from_json(&tx).expect("tx");
    let sig = p.sign(&ledgerd::protocol::tx::signing_data(&obj));
    obj.set_named("TxnSignature", StValue::Blob(sig));
    hex::encode_upper(codec::encode(&obj))
}

/// A reply's envelope: its id and type (the rest is skipped, not built).
#[derive(serde::Deserialize, Default)]
struct Head {
    id: Option<u64>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

/// True for a reply with `"status":"success"` (rippled's compact form).
pub fn succeeded(text: &str) -> bool {
    text.contains("\"status\":\"success\"")
}

/// True for a submit reply whose engine result is tesSUCCESS.
pub fn applied(text: &str) -> bool {
    text.contains("\"engine_result\":\"tesSUCCESS\"")
}

/// Send `requests[i]` (one list per connection) pipelined `depth` deep; returns the
/// replies' latencies and how many satisfied `ok`, and the elapsed time.
pub async fn drive(
    addr: &str,
    requests: Vec<Vec<Value>>,
    depth: usize,
    ok: fn(&str) -> bool,
) -> (Vec<Duration>, u64, Duration) {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for list in requests {
        let ws = connect(addr).await;
        tasks.push(tokio::spawn(async move {
            let (mut sink, mut stream) = ws.split();
            let window = Arc::new(Semaphore::new(depth));
            let sent: Arc<Mutex<HashMap<u64, Instant>>> = Arc::default();
            let n = list.len();
            let (w2, s2) = (window.clone(), sent.clone());
            let reader = tokio::spawn(async move {
                let mut lat = Vec::with_capacity(n);
                let mut good = 0u64;
                while lat.len() < n {
                    let Some(Ok(m)) = stream.next().await else {
                        break;
                    };
                    let Message::Text(t) = m else { continue };
                    // Only the envelope is decoded: the generator shares the cores with
                    // the server, and large replies (book pages) would cost it as much to
                    // build into a tree as they cost the server to write.
                    let head: Head = serde_json::from_str(t.as_str()).unwrap_or_default();
                    if head.kind.as_deref() != Some("response") {
                        continue;
                    }
                    if let Some(at) = head
                        .id
                        .and_then(|id| s2.lock().ok().and_then(|mut m| m.remove(&id)))
                    {
                        lat.push(at.elapsed());
                    }
                    if ok(t.as_str()) {
                        good += 1;
                    }
                    w2.add_permits(1);
                }
                (lat, good)
            });
            for (i, mut req) in list.into_iter().enumerate() {
                window.acquire().await.expect("window").forget();
                req["id"] = json!(i as u64);
                if let Ok(mut m) = sent.lock() {
                    m.insert(i as u64, Instant::now());
                }
                if sink.send(Message::text(req.to_string())).await.is_err() {
                    break;
                }
            }
            reader.await.unwrap_or_default()
        }));
    }
    let mut all = Vec::new();
    let mut good = 0;
    for t in tasks {
        let (lat, g) = t.await.unwrap_or_default();
        all.extend(lat);
        good += g;
    }
    (all, good, start.elapsed())
}

pub fn percentile(v: &mut [Duration], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

/// Fund `accounts` accounts, then submit `each` pre-signed payments from each; the
/// applied transactions per second (0 when the funding fails).
pub async fn submit_mode(
    addr: &str,
    connections: usize,
    depth: usize,
    accounts: usize,
    each: u32,
) -> f64 {
    let mut admin = connect(addr).await;
    let senders: Vec<KeyPair> = (0..accounts)
        .map(|i| pair(&format!("loadgen-{i}")))
        .collect();
    let mut fund = Vec::new();
    for s in &senders {
        fund.push(
            json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {
            "TransactionType": "Payment", "Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
            "Destination": s.account_id().to_address(), "Amount": "1000000000"}}),
        );
    }
    for req in fund {
        let r = call(&mut admin, req).await;
        if r["result"]["engine_result"] != "tesSUCCESS" {
            eprintln!("funding failed: {r}");
            return 0.0;
        }
    }
    call(&mut admin, json!({"command": "ledger_accept"})).await;
    // Let that close reach its subscribers (`--idle-connections`) before the run is timed.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut seqs = Vec::new();
    for s in &senders {
        let r = call(
            &mut admin,
            json!({"command": "account_info",
            "account": s.account_id().to_address()}),
        )
        .await;
        seqs.push(
            r["result"]["account_data"]["Sequence"]
                .as_u64()
                .unwrap_or(0) as u32,
        );
    }
    let sink = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    let sign_start = Instant::now();
    let mut lists: Vec<Vec<Value>> = vec![Vec::new(); connections.max(1)];
    for (i, (s, seq)) in senders.iter().zip(seqs).enumerate() {
        for k in 0..each {
            let blob = signed_payment(s, seq + k, sink, 1_000);
            let c = i % lists.len();
            lists[c].push(json!({"command": "submit", "tx_blob": blob}));
        }
    }
    let total: usize = lists.iter().map(Vec::len).sum();
    println!(
        "submit: {total} Payments from {accounts} accounts pre-signed in {:.2} s; {} connections x {} in flight",
        sign_start.elapsed().as_secs_f64(),
        lists.len(),
        depth
    );
    let before = storage(&mut admin).await;
    let (mut lat, good, took) = drive(addr, lists, depth, applied).await;
    let after = storage(&mut admin).await;
    let rate = good as f64 / took.as_secs_f64();
    println!(
        "applied {good}/{total} in {:.2} s: {rate:.0} tx/s, latency p50 {:.2} ms, p99 {:.2} ms",
        took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
    print_storage(&before, &after);
    rate
}

/// server_info's `storage` object (admin callers only; Null when absent).
async fn storage(ws: &mut Ws) -> Value {
    let r = call(ws, json!({"command": "server_info", "storage": true})).await;
    r["result"]["info"]["storage"].clone()
}

/// The journal's work during the run: records and fsyncs, and their ratio.
fn print_storage(before: &Value, after: &Value) {
    if after.is_null() {
        println!("storage: not reported (not an admin connection?)");
        return;
    }
    if after["durable"] != true {
        println!("storage: ephemeral (nothing journaled)");
        return;
    }
    let delta = |k: &str| {
        after[k]
            .as_u64()
            .unwrap_or(0)
            .saturating_sub(before[k].as_u64().unwrap_or(0))
    };
    let (records, fsyncs) = (delta("records"), delta("fsyncs"));
    println!(
        "storage during the run: {records} journal records in {fsyncs} fsyncs = {:.1} records/fsync \
         (largest batch {}; since start: {} records/fsync); healthy {}",
        records as f64 / fsyncs.max(1) as f64,
        after["batch_records_max"],
        after["records_per_fsync"],
        after["healthy"]
    );
}

/// account_info and account_lines on the genesis account, `count` of each.
pub async fn reads_mode(addr: &str, connections: usize, depth: usize, count: usize) {
    for method in ["account_info", "account_lines"] {
        let per = count / connections.max(1);
        let lists: Vec<Vec<Value>> = (0..connections.max(1))
            .map(|_| {
                (0..per)
                    .map(|_| {
                        json!({"command": method,
                        "account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
                        "ledger_index": "validated"})
                    })
                    .collect()
            })
            .collect();
        let (mut lat, good, took) = drive(addr, lists, depth, succeeded).await;
        println!(
            "{method}: {good} ok in {:.2} s: {:.0} reads/s, latency p50 {:.2} ms, p99 {:.2} ms",
            took.as_secs_f64(),
            good as f64 / took.as_secs_f64(),
            percentile(&mut lat, 0.5),
            percentile(&mut lat, 0.99)
        );
    }
}

/// account_tx pages of 20 of the genesis account (every submit-mode payment goes to it),
/// each request resuming at one of the markers of a walk through its whole history.
/// `tx` by hash over `hashes`, then `ledger_data` pages of 256 of the validated ledger by
/// marker (requests/s each), as the history mode's account_tx pages are measured.
async fn other_reads(
    addr: &str,
    connections: usize,
    depth: usize,
    count: usize,
    hashes: &[String],
    admin: &mut Ws,
) {
    let per = count / connections.max(1);
    let lists: Vec<Vec<Value>> = (0..connections.max(1))
        .map(|c| {
            (0..per)
                .map(|i| json!({"command": "tx", "transaction": hashes[(c * per + i) % hashes.len()]}))
                .collect()
        })
        .collect();
    let found = |t: &str| t.contains("\"status\":\"success\"") && t.contains("\"meta\":{");
    let (mut lat, good, took) = drive(addr, lists, depth, found).await;
    println!(
        "tx by hash: {good} ok in {:.2} s: {:.0} reads/s, latency p50 {:.2} ms, p99 {:.2} ms",
        took.as_secs_f64(),
        good as f64 / took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
    let seq = call(
        admin,
        json!({"command": "ledger", "ledger_index": "validated"}),
    )
    .await["result"]["ledger_index"]
        .clone();
    let mut markers = vec![Value::Null];
    loop {
        let mut req = json!({"command": "ledger_data", "ledger_index": seq, "limit": 256});
        if let Some(m) = markers.last().filter(|m| !m.is_null()) {
            req["marker"] = m.clone();
        }
        match call(admin, req).await["result"]["marker"].clone() {
            Value::Null => break,
            m => markers.push(m),
        }
    }
    let lists: Vec<Vec<Value>> = (0..connections.max(1))
        .map(|c| {
            (0..per / 4)
                .map(|i| {
                    let mut req =
                        json!({"command": "ledger_data", "ledger_index": seq, "limit": 256});
                    let m = &markers[(c * per + i) % markers.len()];
                    if !m.is_null() {
                        req["marker"] = m.clone();
                    }
                    req
                })
                .collect()
        })
        .collect();
    let page = |t: &str| t.contains("\"status\":\"success\"") && t.contains("\"state\":[{");
    let (mut lat, good, took) = drive(addr, lists, depth, page).await;
    println!(
        "ledger_data pages of 256 ({} pages): {good} ok in {:.2} s: {:.0} pages/s, latency p50 {:.2} ms, p99 {:.2} ms",
        markers.len(),
        took.as_secs_f64(),
        good as f64 / took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
}

/// `--mode nft-history`: genesis mints `tokens` NFTokens (closing every 50), lists them
/// with `nfts_by_issuer` by marker, then asks `nft_history` of each in turn (requests/s).
pub async fn nft_history_mode(
    addr: &str,
    connections: usize,
    depth: usize,
    tokens: usize,
    count: usize,
) {
    const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    let mut admin = connect(addr).await;
    // `tokens` 0: the tokens are there already (a read node over the writer that minted).
    for i in 0..tokens {
        let tx = json!({"TransactionType": "NFTokenMint", "Account": GENESIS,
            "NFTokenTaxon": i % 7, "Flags": 8});
        let r = call(
            &mut admin,
            json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": tx}),
        )
        .await;
        if r["result"]["engine_result"] != "tesSUCCESS" {
            eprintln!("mint failed: {r}");
            return;
        }
        if i % 50 == 49 {
            call(&mut admin, json!({"command": "ledger_accept"})).await;
        }
    }
    if tokens > 0 {
        call(&mut admin, json!({"command": "ledger_accept"})).await;
    }
    let mut ids: Vec<String> = Vec::new();
    let mut marker = Value::Null;
    loop {
        let mut req = json!({"command": "nfts_by_issuer", "issuer": GENESIS, "limit": 100});
        if !marker.is_null() {
            req["marker"] = marker.clone();
        }
        let r = call(&mut admin, req).await;
        for n in r["result"]["nfts"].as_array().into_iter().flatten() {
            ids.extend(n["nft_id"].as_str().map(str::to_owned));
        }
        marker = r["result"]["marker"].clone();
        if marker.is_null() {
            break;
        }
    }
    println!("nfts_by_issuer: {} tokens listed", ids.len());
    if ids.is_empty() {
        return;
    }
    let per = count / connections.max(1);
    let lists: Vec<Vec<Value>> = (0..connections.max(1))
        .map(|c| {
            (0..per)
                .map(
                    |i| json!({"command": "nft_history", "nft_id": ids[(c * per + i) % ids.len()]}),
                )
                .collect()
        })
        .collect();
    let page = |t: &str| t.contains("\"status\":\"success\"") && t.contains("\"transactions\":[{");
    let (mut lat, good, took) = drive(addr, lists, depth, page).await;
    println!(
        "nft_history pages: {good} ok in {:.2} s: {:.0} pages/s, latency p50 {:.2} ms, p99 {:.2} ms",
        took.as_secs_f64(),
        good as f64 / took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
}

/// Closes the open ledger (`ledger_accept`).
pub async fn close(addr: &str) {
    let mut admin = connect(addr).await;
    call(&mut admin, json!({"command": "ledger_accept"})).await;
}

pub async fn history_mode(addr: &str, connections: usize, depth: usize, count: usize) {
    const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    let mut admin = connect(addr).await;
    call(&mut admin, json!({"command": "ledger_accept"})).await;
    let mut markers = vec![Value::Null];
    let mut hashes: Vec<String> = Vec::new();
    let walk_start = Instant::now();
    loop {
        let mut req = json!({"command": "account_tx", "account": GENESIS, "limit": 20});
        if let Some(m) = markers.last().filter(|m| !m.is_null()) {
            req["marker"] = m.clone();
        }
        let r = call(&mut admin, req).await;
        for t in r["result"]["transactions"].as_array().into_iter().flatten() {
            if let Some(h) = t["tx"]["hash"].as_str() {
                hashes.push(h.to_owned());
            }
        }
        match r["result"]["marker"].clone() {
            Value::Null => break,
            m => markers.push(m),
        }
    }
    let rows = markers.len() * 20;
    println!(
        "account_tx: {} pages of 20 (about {rows} transactions) walked in {:.2} s",
        markers.len(),
        walk_start.elapsed().as_secs_f64()
    );
    let per = count / connections.max(1);
    let lists: Vec<Vec<Value>> = (0..connections.max(1))
        .map(|c| {
            (0..per)
                .map(|i| {
                    let m = &markers[(c * per + i) % markers.len()];
                    let mut req = json!({"command": "account_tx", "account": GENESIS, "limit": 20});
                    if !m.is_null() {
                        req["marker"] = m.clone();
                    }
                    req
                })
                .collect()
        })
        .collect();
    // A page with rows, found without parsing 30 KB of JSON per reply: the generator shares
    // the server's cores, and parsing would measure the generator.
    let full = |t: &str| t.contains("\"status\":\"success\"") && t.contains("\"transactions\":[{");
    let (mut lat, good, took) = drive(addr, lists, depth, full).await;
    println!(
        "account_tx pages of 20: {good} ok in {:.2} s: {:.0} pages/s, latency p50 {:.2} ms, p99 {:.2} ms",
        took.as_secs_f64(),
        good as f64 / took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
    if !hashes.is_empty() {
        other_reads(addr, connections, depth, count, &hashes, &mut admin).await;
    }
}
