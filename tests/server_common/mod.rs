//! Shared helpers for the black-box server tests: run the real binary on 127.0.0.1:0, talk
//! to it over WebSocket and raw HTTP, and keep everything it logs.

#![allow(dead_code)]

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

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
        Server::start_args(&args, 1)
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

    /// Run the binary with `args`, waiting for `ports` "listening" lines.
    pub fn start_args(args: &[&str], ports: usize) -> Server {
        // These servers are throwaway: in memory, not in ./ledgerd-data (the default).
        let ephemeral = (!args.contains(&"--data-dir")).then_some("--ephemeral");
        let mut child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args(args)
            .args(ephemeral)
            .env("RUST_LOG", "trace")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn ledgerd");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr");
        let err_log = log.clone();
        std::thread::spawn(move || {
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
                Err(_) => {
                    let _ = child.kill();
                    panic!("server did not start: {:?}", log.lock().unwrap());
                }
            }
        }
        Server { child, addrs, log }
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

/// A WebSocket client.
pub struct Ws {
    inner: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Ws {
    /// Connect to `url`.
    pub async fn connect(url: &str) -> Ws {
        let (inner, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connect");
        Ws { inner }
    }

    /// Send raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.inner.send(Message::text(text)).await.expect("ws send");
    }

    /// Send a JSON value.
    pub async fn send(&mut self, v: &Value) {
        self.send_text(&v.to_string()).await;
    }

    /// The next text message as JSON (10 s timeout).
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.inner.next())
                .await
                .expect("reply timeout")
                .expect("stream ended")
                .expect("ws error");
            match msg {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("reply JSON"),
                Message::Close(c) => panic!("closed: {c:?}"),
                _ => continue,
            }
        }
    }

    /// Send one request and wait for its reply.
    pub async fn call(&mut self, v: Value) -> Value {
        self.send(&v).await;
        self.recv().await
    }

    /// The raw stream (for tests that need frames).
    pub fn raw(
        &mut self,
    ) -> &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    > {
        &mut self.inner
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct HttpReply {
    /// Status code.
    pub status: u16,
    /// The status line's reason phrase.
    pub reason: String,
    /// Headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
}

impl HttpReply {
    /// The body parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(self.body.trim_end()).expect("JSON body")
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request with `Connection: close`, read to the end.
pub fn http(addr: SocketAddr, method: &str, body: &str) -> HttpReply {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let req = format!(
        "{method} / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_reply(&raw)
}

/// Parse one complete HTTP response.
pub fn parse_reply(raw: &[u8]) -> HttpReply {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("header end");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let _version = parts.next();
    let status = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let reason = parts.next().unwrap_or_default().to_owned();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    HttpReply {
        status,
        reason,
        headers,
        body: body.to_owned(),
    }
}

/// POST a JSON-RPC body.
pub fn post(addr: SocketAddr, body: &str) -> HttpReply {
    http(addr, "POST", body)
}

/// The claim vectors.
pub fn claim_vectors() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/claims.json"
    ))
    .expect("claims.json");
    let v: Value = serde_json::from_str(&text).expect("claims JSON");
    v["cases"].as_array().expect("cases").clone()
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
