//! Interop for MPTs: xrpl.js (pinned in `tests/interop/package.json`), unmodified, drives
//! the real `ledgerd` binary through the MPT flow of its own integration tests
//! (`tests/interop/mpt_flow.mjs`). Installs its packages as `tests/interop.rs` does; never
//! skips.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::server::Server;
use support::tools;

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

#[test]
fn xrpl_js_mpt_flow() {
    let nm = tools::node_modules(&interop_dir());
    let server = Server::start_quiet(&["--close-interval", "1"]);
    let out = Command::new("node")
        .arg(interop_dir().join("mpt_flow.mjs"))
        .arg(format!("ws://{}", server.addr()))
        .env("NODE_PATH", nm)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "xrpl.js MPT flow failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "did not finish:\n{stdout}"
    );
}
