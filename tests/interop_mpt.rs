//! Interop for MPTs: xrpl.js and xrpl-py (pinned in `tests/interop/package.json` and
//! `requirements.txt`), unmodified, drive the real `ledgerd` binary through the MPT flows
//! of their own integration tests (`tests/interop/mpt_flow.mjs`, `py_mpt_flow.py`).
//! Installs its packages as `tests/interop.rs` does; never skips.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::server::Server;
use support::tools;

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// The suites share one machine of two cores: one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static M: std::sync::Mutex<()> = std::sync::Mutex::new(());
    M.lock().unwrap_or_else(|p| p.into_inner())
}

fn run(mut cmd: Command, what: &str) {
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

#[test]
fn xrpl_js_mpt_flow() {
    let nm = tools::node_modules(&interop_dir());
    let _g = serial();
    let server = Server::start_quiet(&["--close-interval", "1"]);
    let mut cmd = Command::new("node");
    cmd.arg(interop_dir().join("mpt_flow.mjs"))
        .arg(format!("ws://{}", server.addr()))
        .env("NODE_PATH", nm);
    run(cmd, "xrpl.js MPT flow");
}

#[test]
fn xrpl_py_mpt_flow() {
    let py = tools::python_venv(&interop_dir());
    let _g = serial();
    let server = Server::start_quiet(&["--close-interval", "1"]);
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join("py_mpt_flow.py"))
        .arg(format!("http://{}", server.addr()));
    run(cmd, "xrpl-py MPT flow");
}
