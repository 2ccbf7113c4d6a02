//! Interop: xrpl-py (over HTTP and over WebSocket), xrpl.js and wscat drive the real
//! `ledgerd` binary, unmodified, through the authorized-trust-line and payment-channel flows.
//!
//! The suite installs its own pinned packages: a virtualenv with `tests/interop/requirements.txt`
//! and `npm install` of `tests/interop/package.json` into `tests/interop/node_modules`. Without
//! the registries it fails loudly; it never skips.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The virtualenv's python, created once per run.
fn python() -> PathBuf {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        let dir = interop_dir();
        let venv = dir.join(".venv");
        let py = venv.join("bin/python");
        if !py.exists() {
            run(
                Command::new("python3").args(["-m", "venv"]).arg(&venv),
                "python3 -m venv",
            );
        }
        run(
            Command::new(&py)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--disable-pip-version-check",
                    "-r",
                ])
                .arg(dir.join("requirements.txt")),
            "pip install -r tests/interop/requirements.txt",
        );
        py
    })
    .clone()
}

/// `npm install` of the pinned xrpl.js and wscat, once per run.
fn node_modules() -> PathBuf {
    static NM: OnceLock<PathBuf> = OnceLock::new();
    NM.get_or_init(|| {
        let dir = interop_dir();
        run(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&dir),
            "npm install in tests/interop",
        );
        dir.join("node_modules")
    })
    .clone()
}

/// A running server on a free loopback port; killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--ephemeral",
                "--close-interval",
                "1",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ledgerd");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the listening line");
        let addr = line
            .split_whitespace()
            .find(|w| w.starts_with("127.0.0.1:"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The suites share one machine of two cores: run them one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static M: Mutex<()> = Mutex::new(());
    M.lock().unwrap_or_else(|p| p.into_inner())
}

fn run_script(mut cmd: Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "{what} did not finish:\n{stdout}"
    );
}

fn py_flow(mode: &str) {
    let py = python();
    let _g = serial();
    let server = Server::start();
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join("py_flow.py"))
        .arg(format!("http://{}", server.addr))
        .arg(format!("ws://{}", server.addr))
        .arg(mode);
    run_script(cmd, &format!("xrpl-py flow over {mode}"));
}

#[test]
fn xrpl_py_over_http() {
    py_flow("http");
}

#[test]
fn xrpl_py_over_websocket() {
    py_flow("ws");
}

#[test]
fn xrpl_js_over_websocket() {
    let nm = node_modules();
    let _g = serial();
    let server = Server::start();
    let mut cmd = Command::new("node");
    cmd.arg(interop_dir().join("js_flow.mjs"))
        .arg(format!("ws://{}", server.addr))
        .env("NODE_PATH", nm);
    run_script(cmd, "xrpl.js flow");
}

#[test]
fn wscat_session() {
    let nm = node_modules();
    let _g = serial();
    let server = Server::start();
    let wscat = nm.join("wscat/bin/wscat");
    let url = format!("ws://{}", server.addr);
    // wscat prints what it receives only to a terminal: run it under `script`, as a person
    // at a terminal would, and read the JSON out of the terminal output.
    let ask = |frame: &str| -> serde_json::Value {
        assert!(
            !frame.contains('\''),
            "frames are single-quoted for the shell"
        );
        let cmd = format!("node '{}' -c '{url}' -x '{frame}' -w 2", wscat.display());
        let out = Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .output()
            .expect("run wscat under script");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text
            .lines()
            .find_map(|l| {
                let start = l.find("{\"")?;
                let end = l.rfind('}')?;
                (end > start).then(|| l[start..=end].to_string())
            })
            .unwrap_or_else(|| panic!("no reply from wscat: {text:?}"));
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("wscat printed {line:?}: {e}"))
    };
    let info =
        ask(r#"{"id":1,"command":"account_info","account":"rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}"#);
    assert_eq!(info["id"], 1);
    assert_eq!(info["status"], "success");
    assert_eq!(
        info["result"]["account_data"]["Account"],
        "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
    );
    let claim = ask(
        r#"{"id":"c","command":"channel_authorize","channel_id":"5DB01B7FFED6B67E6B0414DED11E051D2EE2B7619CE0EAA6286D67A3A4D5BDB3","amount":"1000000","passphrase":"masterpassphrase","key_type":"secp256k1"}"#,
    );
    assert_eq!(claim["id"], "c");
    assert_eq!(claim["status"], "success");
    let sig = claim["result"]["signature"].as_str().expect("signature");
    assert!(
        sig.len() >= 140 && sig.chars().all(|c| c.is_ascii_hexdigit()),
        "{sig}"
    );
    let bad = ask(
        r#"{"id":2,"command":"channel_authorize","channel_id":"nothex","amount":"1","secret":"masterpassphrase"}"#,
    );
    assert_eq!(bad["status"], "error");
    assert_eq!(bad["error"], "channelMalformed");
    std::thread::sleep(Duration::from_millis(10));
}
