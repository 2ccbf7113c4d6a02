//! Load generator: channel_authorize per second over N WebSocket connections with D requests
//! pipelined on each, for both key types, beside the bare-crypto ceiling measured in the same
//! run (the same claim signed in-process on every core, key derived once). Rounds alternate
//! network and bare; the ratio printed is the median of each pair's ratio, and p50/p99 are
//! the latencies (send to reply) of every 8th request.
//!
//! ```text
//! cargo run --release --example loadgen -- [--server HOST:PORT] [--connections 8]
//!     [--depth 32] [--seconds 2] [--rounds 5] [--key-type secp256k1|ed25519]
//!     [--io-threads N] [--cpu-threads N]
//! ```
//! Without `--server` it starts `ledgerd serve` from the same target directory on a free
//! port (and stops it afterwards).
//!
//! `--mode submit [--accounts 50] [--each 40]`: fund the accounts, then submit pre-signed
//! Payments from all of them pipelined over the connections (applied tx/s, p50/p99).
//! After a submit run it prints the server's storage counters (records per fsync) from
//! server_info.
//!
//! The spawned server is in memory (`--ephemeral`) unless `--durable` (a fresh data
//! directory under the target directory, removed afterwards) or `--data-dir DIR`.
//! `--mode soak [--seconds 600] [--accounts 100] [--server-pid PID]`: payments signed as
//! they are sent, for that long, the applied rate and the server's resident memory every
//! 30 s, then every acknowledged payment looked up with `tx` (`loadgen/soak.rs`).
//! `--mode submit-ab --before BIN [--rounds 5]`: the submit run against the release binary
//! `BIN` of another build and this one, interleaved, below the queue's escalation; medians
//! and ratio (`loadgen/ab.rs`).
//! `--mode reads [--count 20000]`: account_info and account_lines (reads/s, p50/p99).
//! `--mode history [--accounts 100] [--each 100] [--rounds 5] [--count 20000]`: the submit
//! run `rounds` times (every payment goes to the genesis account; each round closes the
//! last one's ledger), one close, then account_tx pages of 20 of the
//! genesis account's history, from the newest page to the oldest by marker (pages/s).
//! Then `tx` by hash over those transactions (reads/s) and `ledger_data` pages of 256 of
//! the validated ledger by marker (pages/s).
//! `--mode nft-history [--accounts 100] [--count 20000]`: genesis mints 10 x `accounts`
//! NFTokens, lists them with `nfts_by_issuer`, then asks `nft_history` of each in turn.
//! `--mode nft-history-read --server ADDR`: the same nft_history reads of tokens already
//! there (a read node over the writer a `--mode nft-history` run minted on).
//! `--mode history-read --server ADDR`: the reads alone, of a history already there (a
//! read node over the writer a `--mode history` run filled).
//! `--mode dex [--accounts 100] [--each 40] [--count 20000]`: crossing OfferCreates against
//! a 1,000-offer book (tx/s), then book_offers reads of that book (reads/s). The generator runs on one thread; it shares the machine's
//! cores with the server, so the ratio understates what a separate client machine would see.
//! `--mode fanout [--subscribers 10000] [--account-subscribers 100] [--closes 20] [--each 10]
//! [--sources 8] [--streams ledger,transactions]`: subscribers to those streams (and to
//! accounts) from several
//! loopback addresses, payments and closes; server memory per connection and the delay from
//! a close to its last subscriber (see `loadgen/fanout.rs`). `--idle-connections N` (any
//! mode) holds N idle subscribed connections open during the run; `--server-pid PID` names
//! the process of a `--server` for the memory figures.

#[path = "loadgen/ab.rs"]
mod ab;
#[path = "loadgen/dex.rs"]
mod dex;
#[path = "loadgen/fanout.rs"]
mod fanout;
#[path = "loadgen/ledger.rs"]
mod ledger;
#[path = "loadgen/soak.rs"]
mod soak;

use futures::{SinkExt, StreamExt};
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::{parse_ripple_lib_seed, Seed};
use ledgerd::protocol::types::Hash256;
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const CHANNEL: &str = "5DB01B7FFED6B67E6B0414DED11E051D2EE2B7619CE0EAA6286D67A3A4D5BDB3";
const SECP_SEED: &str = "snoPBrXtMeMyMHUVTgbuqAfg1SUTb";
const ED_SEED: &str = "sEdVQ4wvD1AaTG6JA54qt38TengAuiz";

struct Options {
    server: Option<String>,
    connections: usize,
    depth: usize,
    seconds: f64,
    rounds: usize,
    /// `authorize` (default), `submit` or `reads`.
    mode: String,
    accounts: usize,
    each: u32,
    count: usize,
    /// `--key-type secp256k1|ed25519`: only that key type (default both).
    key_type: Option<String>,
    /// Extra arguments for the spawned `ledgerd serve`.
    serve_args: Vec<String>,
    /// `--durable`: the spawned server journals to a fresh temporary data directory.
    durable: bool,
    /// `--data-dir DIR`: the spawned server journals to `DIR`.
    data_dir: Option<String>,
    /// `--mode fanout`: subscribers to `--streams`, to one account each,
    /// loopback source addresses, closes.
    subscribers: usize,
    account_subscribers: usize,
    /// `--mode fanout`: the streams each subscriber follows (comma-separated).
    streams: String,
    sources: u8,
    closes: usize,
    /// Idle subscribed connections held open during any mode's run.
    idle_connections: usize,
    /// The process id of `--server` (for its memory).
    server_pid: Option<u32>,
    /// `--mode submit-ab`: the other build's `ledgerd`.
    before: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        server: None,
        connections: 8,
        depth: 32,
        seconds: 2.0,
        rounds: 5,
        mode: "authorize".into(),
        accounts: 50,
        each: 40,
        count: 20_000,
        key_type: None,
        serve_args: Vec::new(),
        durable: false,
        data_dir: None,
        subscribers: 10_000,
        account_subscribers: 100,
        streams: "ledger,transactions".into(),
        sources: 8,
        closes: 20,
        idle_connections: 0,
        server_pid: None,
        before: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        // Flags without a value.
        match args[i].as_str() {
            "--durable" => {
                o.durable = true;
                i += 1;
                continue;
            }
            "--ephemeral" => {
                o.durable = false;
                o.data_dir = None;
                i += 1;
                continue;
            }
            _ => {}
        }
        let Some(v) = args.get(i + 1) else {
            eprintln!("ignoring {} (no value)", args[i]);
            break;
        };
        match args[i].as_str() {
            "--data-dir" => o.data_dir = Some(v.clone()),
            "--server" => o.server = Some(v.clone()),
            "--connections" => o.connections = v.parse().unwrap_or(o.connections),
            "--depth" => o.depth = v.parse().unwrap_or(o.depth),
            "--seconds" => o.seconds = v.parse().unwrap_or(o.seconds),
            "--rounds" => o.rounds = v.parse().unwrap_or(o.rounds),
            "--mode" => o.mode = v.clone(),
            "--key-type" => o.key_type = Some(v.clone()),
            "--accounts" => o.accounts = v.parse().unwrap_or(o.accounts),
            "--each" => o.each = v.parse().unwrap_or(o.each),
            "--count" => o.count = v.parse().unwrap_or(o.count),
            "--subscribers" => o.subscribers = v.parse().unwrap_or(o.subscribers),
            "--account-subscribers" => {
                o.account_subscribers = v.parse().unwrap_or(o.account_subscribers)
            }
            "--streams" => o.streams = v.clone(),
            "--sources" => o.sources = v.parse().unwrap_or(o.sources).max(1),
            "--closes" => o.closes = v.parse().unwrap_or(o.closes),
            "--idle-connections" => o.idle_connections = v.parse().unwrap_or(0),
            "--server-pid" => o.server_pid = v.parse().ok(),
            "--before" => o.before = Some(v.clone()),
            "--io-threads" | "--cpu-threads" | "--close-interval" => {
                o.serve_args.push(args[i].clone());
                o.serve_args.push(v.clone());
            }
            other => eprintln!("ignoring unknown option {other}"),
        }
        i += 2;
    }
    o
}

/// The `ledgerd` of this example's target directory.
fn own_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe.parent().and_then(|p| p.parent()).expect("target dir");
    dir.join("ledgerd")
}

/// Start `ledgerd serve` from this example's target directory; returns it and its address.
fn spawn_server(extra: &[String]) -> (Child, String) {
    let mut args: Vec<String> = ["serve", "--listen", "127.0.0.1:0"]
        .map(String::from)
        .into();
    args.extend_from_slice(extra);
    spawn_binary(&own_binary(), &args)
}

/// Start `bin args`; returns it and the address of the first port it listens on.
fn spawn_binary(bin: &std::path::Path, args: &[String]) -> (Child, String) {
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {}: {e} (build it: cargo build --release)",
                bin.display()
            )
        });
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("server output");
    let addr = line
        .strip_prefix("ledgerd listening on ")
        .and_then(|r| r.split_whitespace().next())
        .expect("listening line")
        .to_owned();
    (child, addr)
}

/// Every this many requests is timed (send to reply), for the latency percentiles.
const LATENCY_SAMPLE_EVERY: u64 = 8;

/// The `id` of a reply: ledgerd sorts the envelope's keys and the generator sends no
/// `api_version`, so a reply starts `{"id":<n>,`.
fn reply_id(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("{\"id\":")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

/// One round over the network: replies per second, errors, and sampled latencies (ms).
async fn network_round(addr: &str, secret: &str, o: &Options) -> (f64, u64, Vec<f64>) {
    let done = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    let mut sockets = Vec::new();
    for _ in 0..o.connections {
        sockets.push(ledger::connect(addr).await);
    }
    let start = Instant::now();
    for (c, ws) in sockets.into_iter().enumerate() {
        let (done, errors, stop) = (done.clone(), errors.clone(), stop.clone());
        let secret = secret.to_owned();
        let depth = o.depth;
        tasks.push(tokio::spawn(async move {
            let (mut tx, mut rx) = ws.split();
            let mut next_id: u64 = (c as u64) << 40;
            let mut sent_at = std::collections::HashMap::new();
            let mut latencies = Vec::new();
            let request = |id: u64| {
                Message::text(format!(
                    "{{\"id\":{id},\"command\":\"channel_authorize\",\"secret\":\"{secret}\",\
                     \"channel_id\":\"{CHANNEL}\",\"amount\":\"{id}\"}}"
                ))
            };
            for _ in 0..depth {
                next_id += 1;
                if next_id.is_multiple_of(LATENCY_SAMPLE_EVERY) {
                    sent_at.insert(next_id, Instant::now());
                }
                let _ = tx.feed(request(next_id)).await;
            }
            let _ = tx.flush().await;
            let mut outstanding = depth;
            while outstanding > 0 {
                let Some(Ok(first)) = rx.next().await else {
                    break;
                };
                // Handle every reply that is already here, then flush once (batched writes).
                let mut ready = vec![first];
                while let Some(Some(Ok(more))) = futures::FutureExt::now_or_never(rx.next()) {
                    ready.push(more);
                }
                for msg in ready {
                    let Message::Text(text) = msg else { continue };
                    outstanding -= 1;
                    if let Some(at) = reply_id(text.as_str()).and_then(|id| sent_at.remove(&id)) {
                        latencies.push(at.elapsed().as_secs_f64() * 1e3);
                    }
                    if text.as_str().contains("\"status\":\"success\"") {
                        done.fetch_add(1, Ordering::Relaxed);
                    } else {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                    if !stop.load(Ordering::Relaxed) {
                        next_id += 1;
                        outstanding += 1;
                        if next_id.is_multiple_of(LATENCY_SAMPLE_EVERY) {
                            sent_at.insert(next_id, Instant::now());
                        }
                        let _ = tx.feed(request(next_id)).await;
                    }
                }
                let _ = tx.flush().await;
            }
            latencies
        }));
    }
    tokio::time::sleep(Duration::from_secs_f64(o.seconds)).await;
    let counted = done.load(Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap_or_default());
    }
    (
        counted as f64 / elapsed,
        errors.load(Ordering::Relaxed),
        latencies,
    )
}

/// One round in-process: the same claims signed on every core with the key derived once.
fn crypto_round(pair: &Arc<KeyPair>, seconds: f64) -> f64 {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let channel = Hash256::from_hex(CHANNEL).expect("channel id");
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let pair = pair.clone();
            std::thread::spawn(move || {
                let mut n: u64 = 0;
                let deadline = Instant::now() + Duration::from_secs_f64(seconds);
                while Instant::now() < deadline {
                    for _ in 0..64 {
                        let sig = sign_claim(&pair, &channel, ((t as u64) << 40) + n);
                        std::hint::black_box(hex::encode_upper(sig));
                        n += 1;
                    }
                }
                n
            })
        })
        .collect();
    let total: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
    total as f64 / start.elapsed().as_secs_f64()
}

/// `--mode submit-ab`: this build against `--before`, each server started by the run.
fn submit_ab(o: &Options) {
    let Some(before) = &o.before else {
        eprintln!("--mode submit-ab needs --before PATH (another build's ledgerd)");
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(ab::submit_ab(ab::Ab {
        before: before.into(),
        after: own_binary(),
        rounds: o.rounds,
        connections: o.connections,
        depth: o.depth,
        accounts: o.accounts,
        each: o.each,
    }));
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

fn main() {
    let mut o = options();
    if o.mode == "submit-ab" {
        return submit_ab(&o);
    }
    // The temporary data directory of `--durable`, removed when this drops.
    let mut temp_dir = None;
    if o.server.is_none() {
        let exe = std::env::current_exe().expect("current exe");
        let target = exe.parent().and_then(|p| p.parent()).expect("target dir");
        let data_dir = match (&o.data_dir, o.durable) {
            (Some(d), _) => Some(d.clone()),
            (None, true) => {
                let t = tempfile::Builder::new()
                    .prefix("loadgen-data-")
                    .tempdir_in(target)
                    .expect("temporary data directory");
                let d = t.path().join("data").to_string_lossy().into_owned();
                temp_dir = Some(t);
                Some(d)
            }
            (None, false) => None,
        };
        match data_dir {
            Some(d) => {
                println!("server data directory: {d} (durable)");
                o.serve_args.extend(["--data-dir".into(), d]);
            }
            None => {
                println!("server in memory (--ephemeral)");
                o.serve_args.push("--ephemeral".into());
            }
        }
    }
    let (child, addr) = match &o.server {
        Some(a) => (None, a.clone()),
        None => {
            let (c, a) = spawn_server(&o.serve_args);
            (Some(c), a)
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let pid = child.as_ref().map(Child::id).or(o.server_pid);
    // Held (and read) for the whole run.
    let _idle = (o.idle_connections > 0).then(|| {
        runtime.block_on(fanout::idle_connections(
            &addr,
            o.idle_connections,
            o.sources,
        ))
    });
    if o.mode != "authorize" {
        let d = o.depth;
        match o.mode.as_str() {
            "submit" => {
                runtime.block_on(ledger::submit_mode(
                    &addr,
                    o.connections,
                    d,
                    o.accounts,
                    o.each,
                ));
            }
            "reads" => runtime.block_on(ledger::reads_mode(&addr, o.connections, d, o.count)),
            "soak" => runtime.block_on(soak::soak_mode(
                &addr,
                soak::Soak {
                    connections: o.connections,
                    depth: d,
                    accounts: o.accounts,
                    seconds: o.seconds as u64,
                    pid,
                },
            )),
            "nft-history" => runtime.block_on(ledger::nft_history_mode(
                &addr,
                o.connections,
                d,
                o.accounts * 10,
                o.count,
            )),
            // nft_history of tokens already there (a read node over the writer that minted).
            "nft-history-read" => runtime.block_on(ledger::nft_history_mode(
                &addr,
                o.connections,
                d,
                0,
                o.count,
            )),
            // account_tx pages of history already there (a read node over a writer's).
            "history-read" => {
                runtime.block_on(ledger::history_mode(&addr, o.connections, d, o.count))
            }
            "history" => runtime.block_on(async {
                // Several rounds, each closing the last one's ledger: the queue takes about
                // one open ledger's worth of payments at a time.
                for _ in 0..o.rounds.max(1) {
                    ledger::submit_mode(&addr, o.connections, d, o.accounts, o.each).await;
                    ledger::close(&addr).await;
                }
                ledger::history_mode(&addr, o.connections, d, o.count).await;
            }),
            "dex" => runtime.block_on(dex::dex_mode(
                &addr,
                o.connections,
                d,
                o.accounts,
                o.each,
                o.count,
            )),
            "fanout" => runtime.block_on(fanout::fanout_mode(
                &addr,
                &fanout::Fanout {
                    subscribers: o.subscribers,
                    account_subscribers: o.account_subscribers,
                    streams: o.streams.split(',').map(str::to_string).collect(),
                    sources: o.sources,
                    closes: o.closes,
                    each: o.each,
                    pid,
                },
            )),
            other => eprintln!("unknown mode {other}"),
        }
        if let Some(mut c) = child {
            let _ = c.kill();
            let _ = c.wait();
        }
        drop(temp_dir);
        return;
    }
    println!(
        "channel_authorize over WebSocket at {addr}: {} connections x {} in flight, {} rounds of {} s",
        o.connections, o.depth, o.rounds, o.seconds
    );
    println!(
        "{:<10} {:>14} {:>16} {:>8} {:>7} {:>8} {:>8}",
        "key type", "server (/s)", "bare crypto (/s)", "ratio", "errors", "p50 ms", "p99 ms"
    );
    for (key_type, secret) in [(KeyType::Secp256k1, SECP_SEED), (KeyType::Ed25519, ED_SEED)] {
        if o.key_type
            .as_deref()
            .is_some_and(|k| k != key_type.as_str())
        {
            continue;
        }
        let seed = parse_ripple_lib_seed(secret)
            .or_else(|| Seed::from_base58(secret).ok())
            .expect("seed");
        let pair = Arc::new(KeyPair::from_seed(&seed, key_type).expect("key pair"));
        let mut net = Vec::new();
        let mut bare = Vec::new();
        let mut errors = 0;
        let mut latencies = Vec::new();
        for _ in 0..o.rounds {
            let (rate, e, l) = runtime.block_on(network_round(&addr, secret, &o));
            net.push(rate);
            errors += e;
            latencies.extend(l);
            bare.push(crypto_round(&pair, o.seconds));
        }
        // Each network round is followed by a bare round, so a pair shares the machine's
        // conditions (it is shared and noisy): the ratio is the median of the pairs' ratios.
        let ratio = median(net.iter().zip(&bare).map(|(n, b)| n / b).collect());
        let (n, b) = (median(net), median(bare));
        latencies.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let pct = |p: f64| {
            latencies
                .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
                .copied()
                .unwrap_or(f64::NAN)
        };
        println!(
            "{:<10} {:>14.0} {:>16.0} {:>7.0}% {:>7} {:>8.2} {:>8.2}",
            key_type.as_str(),
            n,
            b,
            100.0 * ratio,
            errors,
            pct(0.50),
            pct(0.99)
        );
    }
    if let Some(mut c) = child {
        let _ = c.kill();
        let _ = c.wait();
    }
}
