//! Reverts and crashes, through the real binary on a data directory (issue 29).
//!
//! - The reported sequence: `ledger_snapshot`, a payment, `ledger_revert`, a payment,
//!   `ledger_snapshot`, `ledger_revert`, then SIGTERM and start again, then `kill -9` and
//!   start again: each start serves what was answered before the stop.
//! - The crash loop: one client drives random payments, `ledger_accept`s,
//!   `ledger_snapshot`s and `ledger_revert`s (to a saved ID, or one the server does not
//!   have: saved states live in memory, so a restart forgets them and IDs start again at
//!   1), then the server is killed with `kill -9` (sometimes in the middle of a request,
//!   whose outcome is then either), sometimes stopped with SIGTERM, and started again on
//!   the same directory. A model of the surviving branch says what must be there: every
//!   account's sequence and balance, the last closed ledger's index (and hash, when a
//!   reply gave it), every acknowledged payment of the branch (found by `tx`), and none of
//!   those a revert undid.
//!
//! `LEDGERD_CRASH_ITERATIONS` (default 200) sets how many stops the loop makes;
//! `LEDGERD_CRASH_SEED` replays a run (the seed is printed).

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use ledgerd::limits::{
    LEDGER_SNAPSHOTS_MAX, REVERT_SNAPSHOTS_RETAINED_MAX, SNAPSHOTS_KEPT_DEFAULT,
};
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::tx::transaction_id;
use serde_json::{json, Value};
use support::keys::keys;
use support::payment::{payment_blob, PAYMENT_FEE};
use support::server::Server;
use support::ws::Ws;

const USERS: usize = 3;
/// Requests a server gets at most before it is stopped.
const STEPS_MAX: u64 = 50;
/// `ledger_accept`s in a burst (one in a hundred requests).
const BURST: usize = 64;
/// Snapshot files a data directory holds at most: those pruning keeps with the default
/// settings, the revert snapshots held back for their journal records until that makes
/// the journal start a new segment, those written until the kept ones are past it, and
/// one written by a revert or a close the kill stopped before it pruned.
const SNAPSHOTS_BOUND: usize =
    SNAPSHOTS_KEPT_DEFAULT + REVERT_SNAPSHOTS_RETAINED_MAX + SNAPSHOTS_KEPT_DEFAULT + 2;
/// What a start logs when the journal ended with a revert whose snapshot was never written.
const ABANDONED: &str = "it did not happen; journaled that";
/// Each user's starting balance, in drops.
const FUNDING: u64 = 100_000_000_000;

/// The binary on `dir`, closing only on `ledger_accept`.
fn start(dir: &Path) -> Server {
    let dir = dir.to_str().expect("a UTF-8 temp path");
    Server::start_quiet(&["--close-interval", "0", "--data-dir", dir])
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// One request; `Null` when the server is gone before it answers (or within 30 s).
async fn request(ws: &mut Ws, req: Value) -> Value {
    tokio::time::timeout(Duration::from_secs(30), ws.response(req))
        .await
        .unwrap_or(Value::Null)
}

/// An account in the open ledger: (sequence, balance in drops).
async fn account(ws: &mut Ws, who: &KeyPair) -> Option<(u32, u64)> {
    let r = request(
        ws,
        json!({"command": "account_info", "account": who.account_id().to_address(),
            "ledger_index": "current"}),
    )
    .await;
    let d = &r["result"]["account_data"];
    Some((
        d["Sequence"].as_u64()? as u32,
        d["Balance"].as_str()?.parse().ok()?,
    ))
}

/// The last closed ledger: (index, hash).
async fn closed(ws: &mut Ws) -> (u32, String) {
    let r = request(ws, json!({"command": "ledger_closed"})).await;
    let index = r["result"]["ledger_index"].as_u64().expect("ledger_closed");
    let hash = r["result"]["ledger_hash"].as_str().expect("ledger_hash");
    (index as u32, hash.to_owned())
}

/// Whether `tx` finds `hash`.
async fn found(ws: &mut Ws, hash: &str) -> bool {
    let r = request(ws, json!({"command": "tx", "transaction": hash})).await;
    if r["result"]["hash"].as_str() == Some(hash) {
        return true;
    }
    assert_eq!(r["error"], "txnNotFound", "tx {hash}: {r}");
    false
}

/// How many snapshot files `dir` holds.
fn snapshot_files(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("snapshots"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(".snap"))
                .count()
        })
        .unwrap_or(0)
}

fn submit_req(blob: &[u8]) -> Value {
    json!({"command": "submit", "tx_blob": hex::encode_upper(blob)})
}

#[test]
fn the_reported_sequence_survives_sigterm_and_kill_9() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = runtime();
    let master = keys("masterpassphrase");
    let dest = keys("issue29");
    let server = start(dir.path());
    let (answered, kept) = rt.block_on(async {
        let mut ws = Ws::connect_to(server.addr()).await;
        let (seq, _) = account(&mut ws, &master).await.expect("genesis account");
        let first = request(&mut ws, json!({"command": "ledger_snapshot"})).await;
        let first = first["result"]["snapshot"].clone();
        let pay = |seq, drops| submit_req(&payment_blob(&master, seq, &dest.account_id(), drops));
        let r = request(&mut ws, pay(seq, 100_000_000)).await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
        let r = request(
            &mut ws,
            json!({"command": "ledger_revert", "snapshot": first}),
        )
        .await;
        assert_eq!(r["status"], "success", "{r}");
        let blob = payment_blob(&master, seq, &dest.account_id(), 200_000_000);
        let r = request(&mut ws, submit_req(&blob)).await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
        let second = request(&mut ws, json!({"command": "ledger_snapshot"})).await;
        let second = second["result"]["snapshot"].clone();
        let r = request(
            &mut ws,
            json!({"command": "ledger_revert", "snapshot": second}),
        )
        .await;
        assert_eq!(r["status"], "success", "{r}");
        let seen = (
            closed(&mut ws).await,
            account(&mut ws, &master).await,
            account(&mut ws, &dest).await,
        );
        (seen, transaction_id(&blob).to_string())
    });
    assert_eq!(answered.2.map(|a| a.1), Some(200_000_000), "{answered:?}");
    assert!(server.terminate().success(), "SIGTERM stops it cleanly");
    for stop in ["SIGTERM", "kill -9"] {
        let server = start(dir.path());
        rt.block_on(async {
            let mut ws = Ws::connect_to(server.addr()).await;
            let seen = (
                closed(&mut ws).await,
                account(&mut ws, &master).await,
                account(&mut ws, &dest).await,
            );
            assert_eq!(seen, answered, "after {stop}");
            assert!(found(&mut ws, &kept).await, "after {stop}: {kept}");
        });
        server.kill9();
    }
}

/// What must be there: the surviving branch.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Model {
    /// Each user's (sequence, balance).
    accounts: Vec<(u32, u64)>,
    /// The acknowledged payments of this branch.
    txs: BTreeSet<String>,
    /// The last closed ledger's index.
    closed: u32,
    /// Its hash, when a reply gave it.
    closed_hash: Option<String>,
}

impl Model {
    fn paid(&self, from: usize, to: usize, drops: u64, hash: &str) -> Model {
        let mut m = self.clone();
        m.accounts[from].0 += 1;
        m.accounts[from].1 -= drops + PAYMENT_FEE;
        m.accounts[to].1 += drops;
        m.txs.insert(hash.to_owned());
        m
    }

    fn accepted(&self) -> Model {
        let mut m = self.clone();
        m.closed += 1;
        m.closed_hash = None;
        m
    }
}

/// One server process: the saved states it holds (by ID) and the last ID it gave.
#[derive(Default)]
struct Process {
    saved: BTreeMap<u64, Model>,
    last_id: u64,
}

/// A seeded xorshift.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// The loop's state across processes.
struct Run {
    users: Vec<KeyPair>,
    model: Model,
    process: Process,
    rng: Rng,
    /// Every payment ever acknowledged.
    acked: BTreeSet<String>,
    /// Payments acknowledged since the last check.
    fresh: BTreeSet<String>,
    /// Unique amounts, so that no two payments have the same hash.
    counter: u64,
    ops: BTreeMap<&'static str, usize>,
    /// The request being made.
    current: &'static str,
    /// Requests the server died during, by kind: (how many, how many took effect).
    lost: BTreeMap<&'static str, (usize, usize)>,
}

/// How a request ended: answered, or the server died first.
enum Outcome {
    Answered(Value),
    Lost,
}

impl Run {
    fn op(&mut self, name: &'static str) {
        *self.ops.entry(name).or_default() += 1;
        self.current = name;
    }

    /// Sends `req` and returns its answer; with `kill` (the server, microseconds), kills
    /// the server that long after sending instead (the answer is lost, whatever the server
    /// did).
    async fn send(
        &mut self,
        ws: &mut Ws,
        req: Value,
        kill: Option<(&mut Option<Server>, u64)>,
    ) -> Outcome {
        match kill {
            None => match request(ws, req).await {
                Value::Null => panic!("the server died unasked"),
                v => Outcome::Answered(v),
            },
            Some((server, after)) => {
                ws.send(&req).await;
                // Blocking: the timer's millisecond would miss the short windows.
                std::thread::sleep(Duration::from_micros(after));
                if let Some(s) = server.take() {
                    s.kill9();
                }
                self.lost.entry(self.current).or_default().0 += 1;
                Outcome::Lost
            }
        }
    }

    /// One random request; with `kill`, the server dies while it is in flight. Returns the
    /// model if the request took effect, when that is in doubt.
    async fn step(
        &mut self,
        ws: &mut Ws,
        kill: Option<(&mut Option<Server>, u64)>,
    ) -> Option<Model> {
        // The request the server dies during is a revert to a saved state half the time:
        // the windows between its journal records, its snapshot and its answer.
        if kill.is_some() && !self.process.saved.is_empty() && self.rng.below(2) == 0 {
            return self.revert(ws, kill).await;
        }
        match self.rng.below(100) {
            0 if kill.is_none() => {
                self.burst(ws).await;
                None
            }
            0..=44 => self.pay(ws, kill).await,
            45..=57 => {
                self.op("ledger_accept");
                let after = self.model.accepted();
                match self
                    .send(ws, json!({"command": "ledger_accept"}), kill)
                    .await
                {
                    Outcome::Answered(r) => {
                        assert_eq!(r["status"], "success", "{r}");
                        self.model = after;
                        None
                    }
                    Outcome::Lost => Some(after),
                }
            }
            58..=74 => {
                self.op("ledger_snapshot");
                if let Outcome::Answered(r) = self
                    .send(ws, json!({"command": "ledger_snapshot"}), kill)
                    .await
                {
                    self.saved(&r);
                }
                None
            }
            _ => self.revert(ws, kill).await,
        }
    }

    async fn pay(
        &mut self,
        ws: &mut Ws,
        kill: Option<(&mut Option<Server>, u64)>,
    ) -> Option<Model> {
        self.op("payment");
        let from = self.rng.below(USERS as u64) as usize;
        let to = (from + 1 + self.rng.below(USERS as u64 - 1) as usize) % USERS;
        self.counter += 1;
        let drops = 1_000 + self.counter;
        let seq = self.model.accounts[from].0;
        let blob = payment_blob(&self.users[from], seq, &self.users[to].account_id(), drops);
        let hash = transaction_id(&blob).to_string();
        let after = self.model.paid(from, to, drops, &hash);
        match self.send(ws, submit_req(&blob), kill).await {
            Outcome::Answered(r) => {
                assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
                assert_eq!(r["result"]["applied"], true, "{r}");
                self.model = after;
                self.acked.insert(hash.clone());
                self.fresh.insert(hash);
                None
            }
            Outcome::Lost => Some(after),
        }
    }

    /// A snapshot's answer: its ID and ledger, saved with the model.
    fn saved(&mut self, r: &Value) {
        let id = r["result"]["snapshot"].as_u64().expect("an ID");
        assert_eq!(id, self.process.last_id + 1, "IDs are 1, 2, ...: {r}");
        assert_eq!(
            r["result"]["ledger_index"].as_u64(),
            Some(u64::from(self.model.closed)),
            "{r}"
        );
        let hash = r["result"]["ledger_hash"]
            .as_str()
            .expect("hash")
            .to_owned();
        if let Some(known) = &self.model.closed_hash {
            assert_eq!(known, &hash, "{r}");
        }
        self.model.closed_hash = Some(hash);
        self.process.last_id = id;
        self.process.saved.insert(id, self.model.clone());
        while self.process.saved.len() > LEDGER_SNAPSHOTS_MAX {
            self.process.saved.pop_first();
        }
    }

    /// [`BURST`] closes in a row, so that ledgers pass the snapshot interval now and then
    /// (periodic snapshots and pruning among the reverts).
    async fn burst(&mut self, ws: &mut Ws) {
        *self.ops.entry("ledger_accept").or_default() += BURST;
        for _ in 0..BURST {
            let r = request(ws, json!({"command": "ledger_accept"})).await;
            assert_eq!(r["status"], "success", "{r}");
            self.model = self.model.accepted();
        }
    }

    /// A revert to a saved ID, or to a random ID this process gave (or one past them): the
    /// server has it exactly when the model does.
    async fn revert(
        &mut self,
        ws: &mut Ws,
        kill: Option<(&mut Option<Server>, u64)>,
    ) -> Option<Model> {
        let saved: Vec<u64> = self.process.saved.keys().copied().collect();
        let id = if !saved.is_empty() && self.rng.below(8) != 0 {
            saved[self.rng.below(saved.len() as u64) as usize]
        } else {
            1 + self.rng.below(self.process.last_id + 1)
        };
        let target = self.process.saved.get(&id).cloned();
        let name = if target.is_some() {
            "ledger_revert"
        } else {
            "ledger_revert (unknown ID)"
        };
        self.op(name);
        let req = json!({"command": "ledger_revert", "snapshot": id});
        match (self.send(ws, req, kill).await, target) {
            (Outcome::Answered(r), None) => {
                assert_eq!(r["error"], "snapshotNotFound", "snapshot {id}: {r}");
                None
            }
            (Outcome::Answered(r), Some(target)) => {
                assert_eq!(r["status"], "success", "snapshot {id}: {r}");
                assert_eq!(
                    r["result"]["ledger_index"].as_u64(),
                    Some(u64::from(target.closed)),
                    "{r}"
                );
                assert_eq!(
                    r["result"]["ledger_hash"].as_str(),
                    target.closed_hash.as_deref(),
                    "{r}"
                );
                self.model = target;
                self.process.saved.retain(|k, _| *k < id);
                None
            }
            (Outcome::Lost, target) => target,
        }
    }

    /// After a restart: the ledger is the model, or `doubt` (what the lost request would
    /// have made); the one it is becomes the model. Checks the payments, then forgets the
    /// process's saved states. True when the lost request took effect.
    async fn check(&mut self, ws: &mut Ws, doubt: Option<Model>, iteration: usize) -> bool {
        let mut accounts = Vec::new();
        for u in &self.users {
            accounts.push(account(ws, u).await.expect("account"));
        }
        let (index, hash) = closed(ws).await;
        let matches = |m: &Model| {
            m.accounts == accounts
                && m.closed == index
                && m.closed_hash.as_ref().is_none_or(|h| *h == hash)
        };
        let before = self.model.clone();
        let taken = match doubt {
            Some(d) if matches(&d) && !matches(&before) => {
                self.model = d;
                self.lost.entry(self.current).or_default().1 += 1;
                true
            }
            d => {
                assert!(
                matches(&before),
                "iteration {iteration} (seed {}): the ledger is not what was answered: accounts {accounts:?}, closed {index} {hash}; model {before:?}; in doubt {d:?}",
                self.seed()
                );
                false
            }
        };
        self.model.closed_hash = Some(hash);
        if let Some(lost) = self.model.txs.difference(&before.txs).next() {
            self.acked.insert(lost.clone());
            self.fresh.insert(lost.clone());
        }
        let present: Vec<String> = self.fresh.intersection(&self.model.txs).cloned().collect();
        let older: Vec<&String> = self.model.txs.difference(&self.fresh).collect();
        let mut sample: Vec<String> = (0..older.len().min(10))
            .map(|_| older[self.rng.below(older.len() as u64) as usize].clone())
            .collect();
        sample.extend(present);
        for h in &sample {
            assert!(
                found(ws, h).await,
                "iteration {iteration} (seed {}): acknowledged payment {h} lost",
                self.seed()
            );
        }
        let gone: Vec<String> = self.acked.difference(&self.model.txs).cloned().collect();
        let recent: Vec<&String> = gone.iter().filter(|h| self.fresh.contains(*h)).collect();
        let mut sample: Vec<String> = recent.into_iter().cloned().collect();
        for _ in 0..gone.len().min(5) {
            sample.push(gone[self.rng.below(gone.len() as u64) as usize].clone());
        }
        for h in &sample {
            assert!(
                !found(ws, h).await,
                "iteration {iteration} (seed {}): reverted payment {h} is back",
                self.seed()
            );
        }
        self.fresh.clear();
        self.process = Process::default();
        taken
    }

    fn seed(&self) -> String {
        std::env::var("LEDGERD_CRASH_SEED").unwrap_or_else(|_| "printed at the start".into())
    }
}

/// Funds the users (acknowledged, then a close) and returns the model of that ledger.
async fn fund(addr: SocketAddr, users: &[KeyPair]) -> Model {
    let master = keys("masterpassphrase");
    let mut ws = Ws::connect_to(addr).await;
    let (seq, _) = account(&mut ws, &master).await.expect("genesis account");
    for (i, u) in users.iter().enumerate() {
        let blob = payment_blob(&master, seq + i as u32, &u.account_id(), FUNDING);
        let r = request(&mut ws, submit_req(&blob)).await;
        assert_eq!(r["result"]["engine_result"], "tesSUCCESS", "{r}");
    }
    let r = request(&mut ws, json!({"command": "ledger_accept"})).await;
    assert_eq!(r["status"], "success", "{r}");
    let mut accounts = Vec::new();
    for u in users {
        accounts.push(account(&mut ws, u).await.expect("funded"));
    }
    let (closed, hash) = closed(&mut ws).await;
    Model {
        accounts,
        txs: BTreeSet::new(),
        closed,
        closed_hash: Some(hash),
    }
}

#[test]
fn kill_9_while_reverting_loses_nothing_acknowledged() {
    let iterations: usize = std::env::var("LEDGERD_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let seed: u64 = std::env::var("LEDGERD_CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64);
            t ^ u64::from(std::process::id())
        })
        | 1;
    eprintln!(
        "crash_revert: seed {seed} (LEDGERD_CRASH_SEED={seed} replays it), {iterations} iterations"
    );
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = runtime();
    let users: Vec<KeyPair> = (0..USERS).map(|i| keys(&format!("revert{i}"))).collect();
    let server = start(dir.path());
    let model = rt.block_on(fund(server.addr(), &users));
    server.kill9();
    let mut run = Run {
        users,
        model,
        process: Process::default(),
        rng: Rng(seed),
        acked: BTreeSet::new(),
        fresh: BTreeSet::new(),
        counter: 0,
        ops: BTreeMap::new(),
        current: "",
        lost: BTreeMap::new(),
    };
    let (mut in_flight, mut sigterms, mut doubts_taken, mut abandoned) = (0, 0, 0, 0);
    let mut most_snapshots = 0;
    let mut doubt = None;
    for iteration in 0..iterations {
        let mut server = Some(start(dir.path()));
        let addr = server.as_ref().map(Server::addr).expect("server");
        let log = server.as_ref().map(Server::log_text).unwrap_or_default();
        abandoned += usize::from(log.contains(ABANDONED));
        let snapshots = snapshot_files(dir.path());
        most_snapshots = most_snapshots.max(snapshots);
        assert!(
            snapshots <= SNAPSHOTS_BOUND,
            "iteration {iteration}: {snapshots} snapshot files"
        );
        let steps = 1 + run.rng.below(STEPS_MAX) as usize;
        // The request the server dies during (none: it dies after the last answer).
        let dies_at = (run.rng.below(4) != 0).then(|| run.rng.below(steps as u64) as usize);
        // Microseconds between sending that request and the kill: none a quarter of the
        // time, else up to 12 ms (a revert's fsyncs and snapshot take a few).
        let after = match run.rng.below(4) {
            0 => 0,
            _ => run.rng.below(12_000),
        };
        let term = dies_at.is_none() && run.rng.below(4) == 0;
        let taken = rt.block_on(async {
            let mut ws = Ws::connect_to(addr).await;
            let taken = run.check(&mut ws, doubt.take(), iteration).await;
            for step in 0..steps {
                if dies_at == Some(step) {
                    doubt = run.step(&mut ws, Some((&mut server, after))).await;
                    return taken;
                }
                run.step(&mut ws, None).await;
            }
            taken
        });
        doubts_taken += usize::from(taken);
        match server.take() {
            Some(s) if term => {
                assert!(s.terminate().success(), "SIGTERM stops it cleanly");
                sigterms += 1;
            }
            Some(s) => s.kill9(),
            None => in_flight += 1,
        }
    }
    let server = start(dir.path());
    rt.block_on(async {
        let mut ws = Ws::connect_to(server.addr()).await;
        let taken = run.check(&mut ws, doubt.take(), iterations).await;
        doubts_taken += usize::from(taken);
        // Everything, once: every payment of the branch is there, none it lost.
        for h in run.model.txs.clone() {
            assert!(
                found(&mut ws, &h).await,
                "the end: acknowledged payment {h} lost"
            );
        }
        for h in run
            .acked
            .difference(&run.model.txs)
            .cloned()
            .collect::<Vec<_>>()
        {
            assert!(
                !found(&mut ws, &h).await,
                "the end: reverted payment {h} is back"
            );
        }
    });
    eprintln!(
        "crash_revert: seed {seed}: {iterations} stops ({in_flight} kill -9 during a request, {doubts_taken} of those requests took effect: {:?} (killed, took effect), {abandoned} reverts abandoned at the next start (journaled, snapshot never written); {sigterms} SIGTERM; the rest kill -9 between requests), {} restarts, 0 failures; at most {most_snapshots} snapshot files; requests {:?}; {} payments acknowledged, {} on the surviving branch; ledger {}; {:.1} s",
        run.lost,
        iterations + 1,
        run.ops,
        run.acked.len(),
        run.model.txs.len(),
        run.model.closed,
        started.elapsed().as_secs_f64()
    );
    assert!(
        run.ops.get("ledger_revert").copied().unwrap_or(0) > iterations / 10,
        "reverts ran: {:?}",
        run.ops
    );
}
