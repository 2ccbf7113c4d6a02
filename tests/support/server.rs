//! Servers to test against: the real binary (`ledgerd serve` on 127.0.0.1:0, its log
//! kept, killed on drop), the CLI, and in-process servers (`ledgerd::server::start`), one of
//! them a [`Node`] with an admin and a public port whose ledger tests build by applying
//! signed transactions to its store.

use super::accounts;
use super::engine::{self, Account, Tx};
use super::http::rpc;
use super::ws::Ws;
use ledgerd::app::Running;
use ledgerd::app::ServerState;
use ledgerd::engine::Ter;
use ledgerd::protocol::codec;
use ledgerd::protocol::types::{AccountId, Hash256};
use ledgerd::server::config::ServerConfig;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `ledgerd serve`, killed on drop.
pub struct Server {
    child: Child,
    /// Bound addresses, in config order.
    pub addrs: Vec<SocketAddr>,
    /// Every line the server wrote to stderr (its log) and stdout.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// `ledgerd serve --listen 127.0.0.1:0 <extra args>`.
    pub fn start(extra: &[&str]) -> Server {
        let mut args = vec!["serve", "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        Server::spawn(&args, 1, true)
    }

    /// `ledgerd serve --config <toml written to a temp file>`.
    pub fn with_config(toml: &str, ports: usize) -> (Server, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("ledgerd.toml");
        std::fs::write(&path, toml).expect("write config");
        let path = path.to_string_lossy().into_owned();
        (
            Server::start_args(&["serve", "--config", &path], ports),
            dir,
        )
    }

    /// `ledgerd serve --listen 127.0.0.1:0 <extra args>` logging at its default level
    /// (`RUST_LOG` from the environment, else info): for long runs whose log nobody reads.
    pub fn start_quiet(extra: &[&str]) -> Server {
        let mut args = vec!["serve", "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        Server::spawn(&args, 1, false)
    }

    /// Run the binary with `args`, waiting for `ports` "listening" lines.
    pub fn start_args(args: &[&str], ports: usize) -> Server {
        Server::spawn(args, ports, true)
    }

    /// `ledgerd serve --listen 127.0.0.1:0 <extra args>` started by a shell that first
    /// lowers its soft file-descriptor limit to `soft` (`ulimit -S -n`).
    pub fn start_with_file_limit(soft: u64, extra: &[&str]) -> Server {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &format!("ulimit -S -n {soft} && exec \"$0\" \"$@\"")])
            .arg(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["serve", "--listen", "127.0.0.1:0", "--ephemeral"])
            .args(extra)
            .env("RUST_LOG", "info");
        Server::spawn_cmd(cmd, 1)
    }

    /// Run the binary with `args` (in memory unless they name a `--data-dir`), at log level
    /// trace if `trace`; wait for `ports` "listening" lines.
    fn spawn(args: &[&str], ports: usize, trace: bool) -> Server {
        // These servers are throwaway: in memory, not in ./ledgerd-data (the default).
        let ephemeral = (!args.contains(&"--data-dir")).then_some("--ephemeral");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ledgerd"));
        cmd.args(args).args(ephemeral);
        if trace {
            cmd.env("RUST_LOG", "trace");
        }
        Server::spawn_cmd(cmd, ports)
    }

    /// Run the binary with `args` (as [`Server::start_args`]) when it may refuse to start:
    /// the server once it listens on `ports` ports, or its exit code and everything it
    /// wrote when it exits first.
    pub fn try_start_args(args: &[&str], ports: usize) -> Result<Server, (Option<i32>, String)> {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ledgerd"));
        cmd.args(args).env("RUST_LOG", "info");
        Server::try_spawn_cmd(cmd, ports)
    }

    /// Run `cmd`, keeping its output; wait for `ports` "listening" lines.
    fn spawn_cmd(cmd: Command, ports: usize) -> Server {
        match Server::try_spawn_cmd(cmd, ports) {
            Ok(server) => server,
            Err((code, log)) => panic!("server did not start (exit {code:?}): {log}"),
        }
    }

    /// [`Server::spawn_cmd`], or the exit code and output of a server that exits first.
    fn try_spawn_cmd(mut cmd: Command, ports: usize) -> Result<Server, (Option<i32>, String)> {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn ledgerd");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr");
        let err_log = log.clone();
        let err_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                err_log.lock().unwrap().push(line);
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        let out_log = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("ledgerd listening on ") {
                    if let Some(addr) = rest.split_whitespace().next() {
                        let _ = tx.send(addr.parse::<SocketAddr>().expect("address"));
                    }
                }
                out_log.lock().unwrap().push(line);
            }
        });
        let mut addrs = Vec::new();
        for _ in 0..ports {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(a) => addrs.push(a),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    // Its stdout closed: it exited (or is exiting) without listening.
                    let status = child.wait().expect("wait for ledgerd");
                    let _ = err_reader.join();
                    let text = log.lock().unwrap().join("\n");
                    return Err((status.code(), text));
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    panic!("server did not start: {:?}", log.lock().unwrap());
                }
            }
        }
        Ok(Server { child, addrs, log })
    }

    /// The server process's id (for /proc/<pid>/status).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident memory now, in KiB (VmRSS in /proc/<pid>/status).
    pub fn rss_kib(&self) -> u64 {
        let path = format!("/proc/{}/status", self.pid());
        let status = std::fs::read_to_string(&path).expect("read /proc/<pid>/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/<pid>/status")
    }

    /// The first port's address.
    pub fn addr(&self) -> SocketAddr {
        self.addrs[0]
    }

    /// `ws://addr/`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/", self.addr())
    }

    /// Everything logged so far.
    pub fn log_text(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill9(self) {
        drop(self);
    }

    /// Waits up to `within` for the process to exit by itself; its status, or None (the
    /// process is then killed when dropped).
    pub fn wait_exit(mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGTERM, then wait for the exit status.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("server did not exit after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Run the CLI against `addr`; returns (exit code, stdout JSON).
pub fn cli(addr: SocketAddr, args: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .arg("--server")
        .arg(addr.to_string())
        .args(args)
        .output()
        .expect("run ledgerd");
    let text = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("CLI printed non-JSON ({e}): {text}"));
    (out.status.code().unwrap_or(-1), json)
}

/// An in-process server with `close_interval` seconds between closes (0: only
/// ledger_accept).
pub async fn start(close_interval: u64) -> Running {
    start_with(close_interval, |_| {}).await
}

/// An in-process server with the config tweaked by `f`.
pub async fn start_with(close_interval: u64, f: impl FnOnce(&mut ServerConfig)) -> Running {
    let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
    config.close_interval_secs = close_interval;
    f(&mut config);
    ledgerd::app::start(config).await.expect("server starts")
}

/// The first port's address.
pub fn addr(r: &Running) -> SocketAddr {
    r.addrs[0].1
}

/// An account's balance in drops and sequence in the open ledger, read from the store.
pub fn account(r: &Running, address: &str) -> Option<(i64, u32)> {
    let id = AccountId::from_address(address).ok()?;
    let store = &r.state.node.ledgers;
    Some((
        accounts::balance(store, &id)?,
        accounts::sequence(store, &id)?,
    ))
}

/// A running in-process server with an admin and a public port.
pub struct Node {
    pub running: Running,
    /// Port where 127.0.0.1 is admin.
    pub admin: SocketAddr,
    /// Port with no admin networks.
    pub public: SocketAddr,
    pub now: std::sync::atomic::AtomicU32,
}

impl Node {
    pub async fn start() -> Node {
        let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
        let mut public = config.ports[0].clone();
        public.name = "public".into();
        public.admin = Vec::new();
        config.ports.push(public);
        config.cpu_threads = Some(2);
        let running = ledgerd::app::start(config).await.expect("start");
        let admin = running.addrs[0].1;
        let public = running.addrs[1].1;
        let now = running
            .state
            .node
            .ledgers
            .closed()
            .ledger
            .unwrap()
            .header
            .close_time;
        Node {
            running,
            admin,
            public,
            now: now.into(),
        }
    }

    pub fn state(&self) -> &Arc<ServerState> {
        &self.running.state
    }

    /// Signs `tx` for `who` (filling Account, Sequence, Fee, SigningPubKey), applies it
    /// through the binary form and returns (result, id).
    pub fn submit(&self, who: &Account, tx: Tx) -> (Ter, Hash256) {
        submit_to(self.state(), who, tx)
    }

    pub fn apply(&self, who: &Account, tx: Tx) -> Hash256 {
        let (ter, id) = self.submit(who, tx);
        assert_eq!(ter, Ter::tesSUCCESS, "{}", who.name);
        id
    }

    /// Closes the open ledger 10 s after the last.
    pub fn close(&self) -> u32 {
        use std::sync::atomic::Ordering;
        let now = self.now.fetch_add(10, Ordering::SeqCst) + 10;
        self.state().node.ledgers.close(now).header.seq
    }

    pub fn fund(&self, who: &Account, xrp: i64) {
        self.apply(&Account::master(), engine::pay(who, engine::xrp(xrp)));
    }

    /// One request over HTTP to `addr`; returns `result`.
    pub fn http(&self, addr: SocketAddr, method: &str, params: Value) -> Value {
        let reply = rpc(addr, method, params);
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json()["result"].clone()
    }

    /// One request over HTTP on the admin port.
    pub fn rpc(&self, method: &str, params: Value) -> Value {
        self.http(self.admin, method, params)
    }

    /// One request over WebSocket (admin port).
    pub async fn ws(&self, method: &str, mut params: Value) -> Value {
        let mut ws = Ws::connect_to(self.admin).await;
        params["command"] = json!(method);
        ws.call(params).await
    }
}

/// Signs `tx` for `who` (see [`Tx::signed`]) and applies it, in binary, to the store of
/// `state`.
pub fn submit_to(state: &ServerState, who: &Account, tx: Tx) -> (Ter, Hash256) {
    let store = &state.node.ledgers;
    let seq = accounts::sequence(store, &who.id).unwrap_or(0);
    let o = tx.signed(&who.id, seq, store.fees().base_drops as i64, &who.kp);
    let r = store.apply_blob(&codec::encode(&o)).expect("decodes");
    (r.ter, r.id)
}
