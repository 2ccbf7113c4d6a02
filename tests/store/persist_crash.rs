//! THE crash test: the real binary on a data directory, several WebSocket clients
//! submitting pre-signed payments, `kill -9` at a random moment (after the first
//! published ledger with transactions, however slow the machine), restart on the same
//! directory, and check that every transaction acknowledged as applied is there with the
//! same result, nothing never submitted appears, and two restarts give identical hashes
//! and state (the state is a replay of the journal).
//!
//! It also checks *where* transactions are: a watcher subscribed to the `ledger` stream
//! records, before the crash, every published (so durable and validated) ledger's hash
//! and, through `ledger` with its transactions, the ledger each transaction is in; after
//! the restart each of those transactions must be in the same ledger with the same
//! result, and `ledger` at each of those indexes must have the same hash. A closer sends
//! `ledger_accept` every [`CLOSE_EVERY`] so that every iteration has closed ledgers to
//! check, and crashes also land in the middle of closes.
//!
//! The same run with a transaction queue that escalates after a few transactions per
//! ledger (xrpld.cfg `[transaction_queue]`): one client pays a fee above the escalated
//! level and is acknowledged as applied, the others pay the base fee and most of theirs are
//! queued (`terQUEUED`, never acknowledged: a crash may lose them, the queue is memory
//! only) and applied by the queue at a later close. Those the queue applied into a ledger
//! published before the crash must be in that ledger after the restart (the writer
//! journals them when they apply), and the run must have some.
//!
//! `PERSIST_CRASH_ITERATIONS` (default 3) sets how many crashes one run does.

use crate::support;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::tx::transaction_id;
use ledgerd::protocol::types::AccountId;
use serde_json::{json, Value};
use support::keys::keys;
use support::payment::{payment_blob, payment_blob_paying, PAYMENT_FEE};
use support::server::Server;
use support::ws::Ws;
use tokio_tungstenite::tungstenite::Message;

const CLIENTS: usize = 4;

/// What one client saw before the crash.
#[derive(Debug, Default)]
struct ClientRun {
    /// (hash, sequence, result) of each transaction acknowledged as applied.
    acked: Vec<(String, u32, String)>,
    /// The hashes of those answered `terQUEUED` (queued, not applied).
    queued: Vec<String>,
    /// The highest sequence sent.
    sent_max: u32,
}
const IN_FLIGHT: usize = 16;

/// How the server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `serve --data-dir`, the queue at its defaults (1,000 transactions expected per
    /// ledger, more than the clients send between two closes).
    Plain,
    /// `serve --conf xrpld.cfg` with [`QUEUE_SECTION`]: the open ledger escalates past
    /// 5 transactions to begin with; the expected size grows 20% a close while ledgers run
    /// over, to at most 50, so every iteration queues (however many busy ledgers the
    /// restart replayed).
    Queue,
}

/// The queue runs' `[transaction_queue]`.
const QUEUE_SECTION: &str = "[transaction_queue]\nminimum_txn_in_ledger = 5\n\
    minimum_txn_in_ledger_standalone = 5\ntarget_txn_in_ledger = 50\nmaximum_txn_in_ledger = 50\n";

/// Client `i`'s fee in drops: in a queue run client 0 pays 0.1 XRP (level 2,560,000: the
/// escalated level until the open ledger holds about 4.5 times its expected size, while
/// the multiplier stays at its least), so most of its payments apply at once; the
/// others pay the base fee, queued once the open ledger is past its expected size.
fn fee_of(mode: Mode, i: usize) -> u64 {
    match (mode, i) {
        (Mode::Queue, 0) => 100_000,
        _ => PAYMENT_FEE,
    }
}

/// How often the closer asks for a close (`ledger_accept`) while the clients submit.
const CLOSE_EVERY: Duration = Duration::from_millis(200);

/// What the streams published before the crash.
#[derive(Debug, Default)]
struct Published {
    /// `ledgerClosed`: ledger index -> ledger hash.
    ledgers: HashMap<u32, String>,
    /// Transactions of those ledgers: hash -> (ledger index, ledger hash, result).
    txs: HashMap<String, (u32, String, String)>,
}

/// The binary on a data directory in `dir`, closing every `close_interval` seconds (0:
/// only on `ledger_accept`): `dir` itself, or in a queue run `dir/data`, named by the
/// `[database_path]` of `dir/xrpld.cfg`, which also has one admin port and [`QUEUE_SECTION`].
fn start(dir: &std::path::Path, close_interval: u32, mode: Mode) -> Server {
    let interval = close_interval.to_string();
    if mode == Mode::Plain {
        let dir = dir.to_str().expect("a UTF-8 temp path");
        return Server::start_quiet(&["--close-interval", &interval, "--data-dir", dir]);
    }
    let conf = dir.join("xrpld.cfg");
    let text = format!(
        "[server]\nport_admin\n\n[port_admin]\nport = 0\nip = 127.0.0.1\nadmin = 127.0.0.1\n\
         protocol = http,ws\n\n[database_path]\n{}\n\n{QUEUE_SECTION}",
        dir.join("data").display()
    );
    std::fs::write(&conf, text).expect("write xrpld.cfg");
    let conf = conf.to_str().expect("a UTF-8 temp path");
    let args = ["serve", "--conf", conf, "--close-interval", &interval];
    match Server::try_start_args(&args, 1) {
        Ok(server) => server,
        Err((code, log)) => panic!("ledgerd --conf did not start (exit {code:?}): {log}"),
    }
}

async fn account(ws: &mut Ws, address: &str) -> Option<(u32, String)> {
    let r = ws
        .response(json!({"command": "account_info", "account": address, "ledger_index": "current"}))
        .await;
    let d = &r["result"]["account_data"];
    Some((
        d["Sequence"].as_u64()? as u32,
        d["Balance"].as_str()?.to_owned(),
    ))
}

/// Submits payments from `p` paying `fee` starting at `seq`, `IN_FLIGHT` deep, until the
/// connection dies or `stop` passes; returns what the replies said. After a refusal (a
/// full queue, a sequence ahead of the account's) it lets the replies in flight come in,
/// waits a little for a close, and goes on from the `account_sequence_available` the
/// server gave.
async fn client(
    addr: SocketAddr,
    p: KeyPair,
    (mut seq, fee): (u32, u64),
    dest: AccountId,
    stop: Instant,
) -> ClientRun {
    let mut ws = Ws::connect_to(addr).await;
    let mut run = ClientRun {
        sent_max: seq.saturating_sub(1),
        ..ClientRun::default()
    };
    let mut pending: HashMap<u64, (String, u32)> = HashMap::new();
    let mut resume: Option<u32> = None;
    loop {
        while resume.is_none() && pending.len() < IN_FLIGHT && Instant::now() < stop {
            let blob = payment_blob_paying(&p, seq, &dest, 1_000, fee);
            let hash = transaction_id(&blob).to_string();
            let req = json!({"id": seq, "command": "submit", "tx_blob": hex::encode_upper(&blob)});
            if ws.raw().send(Message::text(req.to_string())).await.is_err() {
                return run;
            }
            pending.insert(seq as u64, (hash, seq));
            run.sent_max = run.sent_max.max(seq);
            seq += 1;
        }
        if pending.is_empty() {
            match resume.take() {
                Some(next) if Instant::now() < stop => {
                    tokio::time::sleep(CLOSE_EVERY / 2).await;
                    seq = next;
                    continue;
                }
                _ => return run,
            }
        }
        match tokio::time::timeout(Duration::from_secs(5), ws.raw().next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
                if v["type"] != "response" {
                    continue;
                }
                let Some(entry) = v["id"].as_u64().and_then(|id| pending.remove(&id)) else {
                    continue;
                };
                let r = &v["result"];
                if r["applied"] == true {
                    // Acknowledged as applied: in the open ledger, with this result.
                    let ter = r["engine_result"].as_str().unwrap_or("").to_owned();
                    run.acked.push((entry.0, entry.1, ter));
                } else if r["queued"] == true {
                    run.queued.push(entry.0);
                } else {
                    let next = r["account_sequence_available"]
                        .as_u64()
                        .map_or(entry.1, |n| n as u32);
                    resume = Some(resume.map_or(next, |r| r.max(next)));
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => return run,
        }
    }
}

/// Subscribes to the `ledger` stream; returns the connection once the subscription is
/// acknowledged. (Not the `transactions` stream: a ledger of a thousand payments is a
/// burst of a thousand messages, over `send_queue_limit`, and the server rightly drops a
/// subscriber that far behind.)
async fn subscribe(addr: SocketAddr) -> Ws {
    let mut ws = Ws::connect_to(addr).await;
    let r = ws
        .response(json!({"command": "subscribe", "streams": ["ledger"]}))
        .await;
    assert_eq!(r["status"], "success", "subscribe: {r}");
    ws
}

/// Records, until the connection dies (the crash), each `ledgerClosed` (published only
/// once the close is durable) and, by asking `ledger` for that index with its
/// transactions, the ledger each of its transactions is in; `busy` counts the published
/// ledgers that hold transactions.
async fn watch(mut ws: Ws, busy: Arc<AtomicUsize>) -> Published {
    let mut seen = Published::default();
    while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_secs(10), ws.raw().next()).await
    {
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
        if v["type"] == "ledgerClosed" {
            let (Some(index), Some(hash)) = (v["ledger_index"].as_u64(), v["ledger_hash"].as_str())
            else {
                panic!("ledgerClosed without index or hash: {v}");
            };
            seen.ledgers.insert(index as u32, hash.to_owned());
            let req = json!({"id": index, "command": "ledger", "ledger_index": index,
                "transactions": true, "expand": true});
            if ws.raw().send(Message::text(req.to_string())).await.is_err() {
                break;
            }
        } else if v["type"] == "response" {
            let r = &v["result"];
            let (Some(index), Some(hash)) = (v["id"].as_u64(), r["ledger_hash"].as_str()) else {
                panic!("ledger request failed before the crash: {v}");
            };
            let index = index as u32;
            assert_eq!(
                seen.ledgers.get(&index).map(String::as_str),
                Some(hash),
                "ledger {index}: the stream and the ledger command disagree"
            );
            let txs = r["ledger"]["transactions"].as_array();
            if txs.is_some_and(|t| !t.is_empty()) {
                busy.fetch_add(1, Ordering::SeqCst);
            }
            for tx in txs.into_iter().flatten() {
                let (Some(id), Some(ter)) = (
                    tx["hash"].as_str(),
                    tx["metaData"]["TransactionResult"].as_str(),
                ) else {
                    panic!("ledger {index}: a transaction without hash or result: {tx}");
                };
                seen.txs
                    .insert(id.to_owned(), (index, hash.to_owned(), ter.to_owned()));
            }
        }
    }
    seen
}

/// Asks for a close every [`CLOSE_EVERY`] until the connection dies or `stop` passes.
async fn closer(addr: SocketAddr, stop: Instant) {
    let mut ws = Ws::connect_to(addr).await;
    while Instant::now() < stop {
        tokio::time::sleep(CLOSE_EVERY).await;
        let r = tokio::time::timeout(
            Duration::from_secs(5),
            ws.response(json!({"command": "ledger_accept"})),
        )
        .await;
        if !matches!(r, Ok(v) if v["status"] == "success") {
            return;
        }
    }
}

/// `account`'s transactions from ledger `from` on (every page): hash -> ledger index.
async fn account_tx_window(ws: &mut Ws, account: &KeyPair, from: u64) -> HashMap<String, u64> {
    let mut listed = HashMap::new();
    let mut marker = Value::Null;
    loop {
        let mut req = json!({"command": "account_tx", "account": account.account_id().to_address(),
            "ledger_index_min": from, "forward": true, "limit": 400});
        if !marker.is_null() {
            req["marker"] = marker.clone();
        }
        let r = ws.response(req).await;
        for t in r["result"]["transactions"].as_array().into_iter().flatten() {
            if let (Some(h), Some(l)) = (t["tx"]["hash"].as_str(), t["ledger_index"].as_u64()) {
                listed.insert(h.to_owned(), l);
            }
        }
        marker = r["result"]["marker"].clone();
        if marker.is_null() {
            return listed;
        }
    }
}

/// What a restart shows: the last closed ledger's hash and every client's account.
async fn observe(addr: SocketAddr, users: &[KeyPair]) -> (String, Vec<Option<(u32, String)>>) {
    let mut ws = Ws::connect_to(addr).await;
    let closed = ws.response(json!({"command": "ledger_closed"})).await;
    let hash = closed["result"]["ledger_hash"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let mut accounts = Vec::new();
    for u in users {
        accounts.push(account(&mut ws, &u.account_id().to_address()).await);
    }
    (hash, accounts)
}

#[test]
fn kill_9_loses_nothing_acknowledged() {
    crash_runs(Mode::Plain);
}

#[test]
fn kill_9_loses_nothing_acknowledged_with_queued_transactions() {
    crash_runs(Mode::Queue);
}

/// The crashes of one run, in `mode`.
fn crash_runs(mode: Mode) {
    let iterations: usize = std::env::var("PERSIST_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let master = keys("masterpassphrase");
    let users: Vec<KeyPair> = (0..CLIENTS).map(|i| keys(&format!("crash{i}"))).collect();

    // Fund the clients' accounts, acknowledged, then crash right away.
    let server = start(dir.path(), 1, mode);
    rt.block_on(async {
        let mut ws = Ws::connect_to(server.addr()).await;
        let (seq, _) = account(&mut ws, &master.account_id().to_address())
            .await
            .expect("genesis account");
        for (i, u) in users.iter().enumerate() {
            let blob = payment_blob(&master, seq + i as u32, &u.account_id(), 10_000_000_000);
            let r = ws
                .response(json!({"command": "submit", "tx_blob": hex::encode_upper(&blob)}))
                .await;
            assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
        }
    });
    server.kill9();

    let mut rng_state = 0x9E37_79B9_7F4A_7C15u64 ^ std::process::id() as u64;
    let mut total_acked = 0usize;
    let (mut total_ledgers, mut total_placed) = (0usize, 0usize);
    let mut total_account_tx = 0usize;
    let (mut total_queued, mut total_from_queue) = (0usize, 0usize);
    for iteration in 0..iterations {
        let server = start(dir.path(), 1, mode);
        let addr = server.addr();
        let before = rt.block_on(observe(addr, &users)).1;
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        let kill_after = Duration::from_millis(rng_state % 1200);
        let stop = Instant::now() + Duration::from_secs(60);
        let stream = rt.block_on(subscribe(addr));
        let busy = Arc::new(AtomicUsize::new(0));
        let watcher = rt.spawn(watch(stream, busy.clone()));
        let closing = rt.spawn(closer(addr, stop));
        let handles: Vec<_> = users
            .iter()
            .zip(&before)
            .enumerate()
            .map(|(i, (u, b))| {
                let (seq, _) = b.clone().expect("client account exists");
                let dest = users[(i + 1) % CLIENTS].account_id();
                let fee = fee_of(mode, i);
                rt.spawn(client(addr, u.clone(), (seq, fee), dest, stop))
            })
            .collect();
        // A busy machine can close slowly: crash at a random moment after the first
        // published ledger with transactions, so every iteration has some to check (in a
        // queue run after the third: the second holds what the first close drained).
        let needed = if mode == Mode::Queue { 3 } else { 1 };
        let published_by = Instant::now() + Duration::from_secs(30);
        while busy.load(Ordering::SeqCst) < needed && Instant::now() < published_by {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(kill_after);
        server.kill9();
        let results: Vec<ClientRun> = rt.block_on(async {
            let mut out = Vec::new();
            for h in handles {
                out.push(h.await.expect("client task"));
            }
            out
        });
        let published = rt.block_on(async {
            let _ = closing.await;
            watcher.await.expect("watcher task")
        });
        let acked: usize = results.iter().map(|r| r.acked.len()).sum();
        total_acked += acked;
        let queued: HashSet<&String> = results.iter().flat_map(|r| &r.queued).collect();
        // Queued, then applied by the queue at a close and published before the crash.
        let from_queue = published.txs.keys().filter(|h| queued.contains(h)).count();
        total_queued += queued.len();
        total_from_queue += from_queue;
        assert!(
            mode == Mode::Plain || from_queue > 0,
            "iteration {iteration}: none of the {} queued transactions in a published ledger",
            queued.len()
        );

        // Restart without a close timer: nothing changes between the two restarts.
        let server = start(dir.path(), 0, mode);
        let mut closed_checked = 0usize;
        let mut placed_checked = 0usize;
        let mut account_tx_checked = 0usize;
        let (hash1, accounts1) = rt.block_on(async {
            let mut ws = Ws::connect_to(server.addr()).await;
            let mut looked_up: HashMap<String, Value> = HashMap::new();
            for run in &results {
                for (hash, seq, ter) in &run.acked {
                    let r = ws
                        .response(json!({"command": "tx", "transaction": hash}))
                        .await;
                    looked_up.insert(hash.clone(), r.clone());
                    assert_eq!(
                        r["result"]["hash"].as_str(),
                        Some(hash.as_str()),
                        "iteration {iteration}: acknowledged tx {hash} (seq {seq}) lost: {r}"
                    );
                    // In a closed ledger the result is in the metadata; in the open
                    // ledger rippled shows none.
                    if let Some(got) = r["result"]["meta"]["TransactionResult"].as_str() {
                        assert_eq!(got, ter, "iteration {iteration}: {hash} result changed");
                        closed_checked += 1;
                    }
                }
            }
            // Every transaction published in a validated ledger before the crash is in
            // that same ledger, with the same result, and the ledger has the same hash.
            for (hash, (index, ledger_hash, ter)) in &published.txs {
                assert_eq!(
                    published.ledgers.get(index).unwrap_or(ledger_hash),
                    ledger_hash,
                    "iteration {iteration}: ledger {index} published with two hashes"
                );
                let r = match looked_up.get(hash) {
                    Some(r) => r.clone(),
                    None => {
                        ws.response(json!({"command": "tx", "transaction": hash}))
                            .await
                    }
                };
                assert_eq!(
                    r["result"]["ledger_index"].as_u64(),
                    Some(u64::from(*index)),
                    "iteration {iteration}: {hash} was in ledger {index} before the crash: {r}"
                );
                assert_eq!(
                    r["result"]["meta"]["TransactionResult"].as_str(),
                    Some(ter.as_str()),
                    "iteration {iteration}: {hash} result changed"
                );
                placed_checked += 1;
            }
            // Every acknowledged transaction in a closed ledger is in its account's
            // account_tx, in that same ledger.
            for (i, run) in results.iter().enumerate() {
                let placed: HashMap<&str, u64> = run
                    .acked
                    .iter()
                    .filter_map(|(hash, _, _)| {
                        let r = &looked_up.get(hash)?["result"];
                        Some((
                            hash.as_str(),
                            r["ledger_index"]
                                .as_u64()
                                .filter(|_| r["validated"] == true)?,
                        ))
                    })
                    .collect();
                let Some(from) = placed.values().min() else {
                    continue;
                };
                let listed = account_tx_window(&mut ws, &users[i], *from).await;
                for (hash, ledger) in &placed {
                    assert_eq!(
                        listed.get(*hash),
                        Some(ledger),
                        "iteration {iteration}: {hash} missing from account_tx or in another ledger"
                    );
                    account_tx_checked += 1;
                }
            }
            let mut indexes: Vec<(&u32, &String)> = published.ledgers.iter().collect();
            indexes.sort();
            for (index, want) in indexes {
                let r = ws
                    .response(json!({"command": "ledger", "ledger_index": index}))
                    .await;
                assert_eq!(
                    r["result"]["ledger_hash"].as_str(),
                    Some(want.as_str()),
                    "iteration {iteration}: ledger {index} changed its hash across the crash: {r}"
                );
            }
            observe(server.addr(), &users).await
        });
        for (i, run) in results.iter().enumerate() {
            let (seq, _) = accounts1[i].clone().expect("account");
            let (acked_max, sent_max) = (
                run.acked.iter().map(|a| a.1).max().unwrap_or(0),
                run.sent_max,
            );
            assert!(
                seq > acked_max,
                "iteration {iteration}: client {i} sequence {seq} <= acked {acked_max}"
            );
            assert!(seq <= sent_max + 1, "iteration {iteration}: client {i} sequence {seq} beyond anything sent ({sent_max})");
        }
        server.kill9();
        let server = start(dir.path(), 0, mode);
        let (hash2, accounts2) = rt.block_on(observe(server.addr(), &users));
        assert_eq!(
            hash1, hash2,
            "iteration {iteration}: two restarts, two ledgers"
        );
        assert_eq!(
            accounts1, accounts2,
            "iteration {iteration}: two restarts, two states"
        );
        server.kill9();
        eprintln!(
            "crash iteration {iteration} ({mode:?}): killed {} ms after {needed} published ledger(s) with transactions, {acked} acknowledged, all present ({closed_checked} in closed ledgers, results checked); {} published ledgers with the same hash, {placed_checked} published transactions in the same ledger ({from_queue} of the {} queued); {account_tx_checked} in account_tx in the same ledger",
            kill_after.as_millis(),
            published.ledgers.len(),
            queued.len()
        );
        total_ledgers += published.ledgers.len();
        total_placed += placed_checked;
        total_account_tx += account_tx_checked;
    }
    eprintln!("{mode:?}: {iterations} crashes, {total_acked} acknowledged transactions, 0 lost; {total_ledgers} published ledgers and {total_placed} published transactions in place after restart, {total_from_queue} of them queued first ({total_queued} queued); {total_account_tx} found by account_tx in their ledger");
    assert!(total_acked > 0, "the clients got acknowledgements");
    assert!(
        total_ledgers > 0 && total_placed > 0 && total_account_tx > 0,
        "ledgers closed and were published before the crashes"
    );
    if mode == Mode::Queue {
        assert!(
            total_queued > 0 && total_from_queue > 0,
            "the queue held transactions and applied some into published ledgers: {total_queued} queued, {total_from_queue} published"
        );
    }
}

/// `fee`'s `expected_ledger_size` on the server at `addr`.
async fn expected_ledger_size(addr: SocketAddr) -> String {
    let mut ws = Ws::connect_to(addr).await;
    let r = ws.response(json!({"command": "fee"})).await;
    r["result"]["expected_ledger_size"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// xrpld's queue starts afresh (`TxQ`'s `FeeMetrics` at the minimum expected size) when
/// the server starts, whatever ledgers it loads: after 12 payments in one ledger (over the
/// 5 expected) the expected size is 14, and after a restart on the same data directory it
/// is 5 again.
#[test]
fn a_restart_starts_the_fee_escalation_afresh() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let master = keys("masterpassphrase");
    let dest = keys("restart0").account_id();
    let server = start(dir.path(), 0, Mode::Queue);
    let before = rt.block_on(async {
        let mut ws = Ws::connect_to(server.addr()).await;
        let (seq, _) = account(&mut ws, &master.account_id().to_address())
            .await
            .expect("genesis account");
        for i in 0..12 {
            let blob = payment_blob_paying(&master, seq + i, &dest, 1_000_000_000, 100_000);
            let r = ws
                .response(json!({"command": "submit", "tx_blob": hex::encode_upper(&blob)}))
                .await;
            assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
        }
        let r = ws.response(json!({"command": "ledger_accept"})).await;
        assert_eq!(r["status"], "success", "{r}");
        expected_ledger_size(server.addr()).await
    });
    assert_eq!(
        before, "14",
        "12 transactions in a ledger over 5 expected: 12 x 1.2"
    );
    server.kill9();
    let server = start(dir.path(), 0, Mode::Queue);
    let after = rt.block_on(expected_ledger_size(server.addr()));
    assert_eq!(after, "5", "a restart starts the escalation afresh");
}
