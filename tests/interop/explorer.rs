//! The explorer in a real browser: Debian's chromium, headless, driven by Playwright for
//! Python (`explorer/explorer_browser.py`) while xrpl-py changes the ledger: the page loads
//! with no console errors; a payment appears live; the authorized flag after the issuer's
//! tfSetfAuth; a channel's claimable amount after a claim; search by hash, CTID, ledger
//! index and hash, address; the order book and an AMM pool; the admin actions (snapshot,
//! faucet, close, revert) on a loopback admin port and their absence on a public port; the
//! requests of a page view, as the page and the server count them; and the same page on a
//! read node over PostgreSQL and on a fork of the writer. Screenshots of each view
//! go to `target/tmp/explorer-screenshots/` (not committed).
//!
//! The browser (`tools::chromium`) and the pinned Playwright and xrpl-py
//! (`explorer/requirements.txt`, a virtualenv of their own) are installed by the test;
//! without them it fails, never skips.

use crate::flows::{interop_dir, read_nodes, run_script};
use crate::support::fill::{call, pay};
use crate::support::server::Server;
use crate::support::tools;
use serde_json::json;

use std::path::PathBuf;
use std::process::Command;

pub fn trials() -> Vec<libtest_mimic::Trial> {
    crate::trials!["explorer"; in_chromium, on_a_read_node_and_a_fork]
}

/// The explorer's virtualenv (Playwright, xrpl-py), installed once per run: the two
/// trials run side by side, and two installs into one directory at once break it.
fn python() -> PathBuf {
    static PY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PY.get_or_init(|| tools::python_venv(&interop_dir().join("explorer")))
        .clone()
}

/// Where the screenshots go.
fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explorer-screenshots")
}

fn in_chromium() {
    let chromium = tools::chromium();
    let dir = interop_dir().join("explorer");
    let python = python();
    // One server with an admin port and a public one (no admin callers, no faucet) ...
    let toml = "close_interval = 1\n\
                [[port]]\nname = \"admin\"\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = [\"127.0.0.1\"]\n\
                [[port]]\nname = \"public\"\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nfaucet = \"off\"\n";
    let (server, _dir) = Server::with_config(toml, 2);
    // ... and one that closes no ledger by itself, whose requests are counted.
    let quiet = Server::start_quiet(&["--close-interval", "0"]);
    let mut cmd = Command::new(python);
    cmd.arg(dir.join("explorer_browser.py"))
        .arg(format!("http://{}", server.addrs[0]))
        .arg(format!("http://{}", server.addrs[1]))
        .arg(format!("http://{}", quiet.addr()))
        .arg(screenshots())
        .arg(chromium);
    run_script(cmd, "the explorer in chromium");
    println!("screenshots: {}", screenshots().display());
}

/// The same page on a read node (over PostgreSQL) and on a fork of the writer: what the
/// writer validated is found on both; the read node offers no actions, the fork does.
fn on_a_read_node_and_a_fork() {
    let chromium = tools::chromium();
    let dir = interop_dir().join("explorer");
    let python = python();
    let (_pg, writer, reader, _other) = read_nodes();
    let dest = crate::support::keys::address("explorer on a read node");
    let hash = pay(writer.addr(), &dest, 123_000_000);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while call(writer.addr(), "tx", json!({"transaction": hash}))["validated"] != true {
        assert!(
            std::time::Instant::now() < deadline,
            "the payment was not validated"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let fork = Server::start_quiet(&["--close-interval", "1", "--fork", &writer.ws_url()]);
    let mut cmd = Command::new(python);
    cmd.arg(dir.join("explorer_browser.py"))
        .arg("follow")
        .arg(format!("http://{}", reader.addr()))
        .arg(format!("http://{}", fork.addr()))
        .arg(&hash)
        .arg(&dest)
        .arg(screenshots())
        .arg(chromium);
    run_script(cmd, "the explorer on a read node and a fork");
}
