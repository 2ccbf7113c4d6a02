//! Interop: xrpl-py (over HTTP and over WebSocket), xrpl.js and wscat drive the real
//! `ledgerd` binary, unmodified, through the authorized-trust-line and payment-channel flows,
//! through the MPT, DID, price-oracle and credential flows of their own integration tests
//! (`mpt_flow.mjs`, `py_mpt_flow.py`, `confidential_flow.mjs`, `py_confidential_flow.py`, `did_oracle_flow.mjs`, `py_did_oracle_flow.py`,
//! `credential_flow.mjs`, `py_credential_flow.py`, `dynamic_mpt_flow.mjs`,
//! `permissioned_dex_flow.mjs`, `py_permissioned_dex_flow.py`,
//! `py_dynamic_mpt_flow.py`) and the delegation flows (`delegate_flow.mjs`,
//! `py_delegate_flow.py`), the Sponsor flows (`sponsor_flow.mjs`, `py_sponsor_flow.py`) and
//! through a single-asset vault (`vault_flow.mjs`,
//! `py_vault_flow.py`), a loan broker (`loan_broker_flow.mjs`, `py_loan_broker_flow.py`),
//! loans (`loan_flow.mjs`, `py_loan_flow.py`), token escrows (`token_escrow_flow.mjs`,
//! `py_token_escrow_flow.py`)
//! and Batch (`py_batch_flow.py`), through XChain account creation
//! (`xchain_account_flow.mjs`, `py_xchain_account_flow.py`),
//! across a fork of a second ledgerd (`py_fork_flow.py`), through the development faucet
//! and prefunded accounts (`faucet.mjs`, `faucet.py`: `fundWallet` and
//! `generate_faucet_wallet`); both libraries travel in time past a 30-day escrow and
//! snapshot and revert the ledger through their generic requests (`time_travel.mjs`,
//! `time_travel.py`); and through read nodes over PostgreSQL (`read_node.py`,
//! `read_node.mjs`: submissions forwarded to the writer, streams from another read node).
//!
//! The suite installs its own pinned packages (`support/tools.rs`): a virtualenv with
//! `tests/interop/requirements.txt` and `npm ci` of `tests/interop/package-lock.json` into
//! `tests/interop/node_modules`, each redone only when its manifest changes. Without the
//! registries it fails loudly; it never skips.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use support::postgres::PgCluster;
use support::server::Server;
use support::tools;

/// Where the scripts are.
pub fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// The virtualenv's python, installed once per run.
pub fn python() -> PathBuf {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| tools::python_venv(&interop_dir()))
        .clone()
}

/// The pinned xrpl.js and wscat, installed once per run.
pub fn node_modules() -> PathBuf {
    static NM: OnceLock<PathBuf> = OnceLock::new();
    NM.get_or_init(|| tools::node_modules(&interop_dir()))
        .clone()
}

/// A running server on a free loopback port, closing every second; killed on drop.
fn start_server() -> Server {
    Server::start_quiet(&["--close-interval", "1"])
}

/// Runs a script; it must exit 0 and print its summary line with no failure.
pub fn run_script(mut cmd: Command, what: &str) {
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

/// `node SCRIPT ws://ADDR` with the pinned xrpl.js, against a fresh server.
fn xrpl_js_on_a_fresh_server(script: &str, what: &str) {
    xrpl_js_on(&start_server(), script, what);
}

/// `node SCRIPT ws://ADDR` with the pinned xrpl.js, against `server`.
fn xrpl_js_on(server: &Server, script: &str, what: &str) {
    let nm = node_modules();
    let mut cmd = Command::new("node");
    cmd.arg(interop_dir().join(script))
        .arg(format!("ws://{}", server.addr()))
        .env("NODE_PATH", nm);
    run_script(cmd, what);
}

/// `python SCRIPT http://ADDR` with the pinned xrpl-py, against a fresh server.
fn xrpl_py_on_a_fresh_server(script: &str, what: &str) {
    xrpl_py_on(&start_server(), script, what);
}

/// `python SCRIPT http://ADDR` with the pinned xrpl-py, against `server`.
fn xrpl_py_on(server: &Server, script: &str, what: &str) {
    let py = python();
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join(script))
        .arg(format!("http://{}", server.addr()));
    run_script(cmd, what);
}

fn py_flow(mode: &str) {
    let py = python();
    let server = start_server();
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join("py_flow.py"))
        .arg(format!("http://{}", server.addr()))
        .arg(format!("ws://{}", server.addr()))
        .arg(mode);
    run_script(cmd, &format!("xrpl-py flow over {mode}"));
}

fn xrpl_py_over_http() {
    py_flow("http");
}

fn xrpl_py_over_websocket() {
    py_flow("ws");
}

fn xrpl_js_over_websocket() {
    xrpl_js_on_a_fresh_server("js_flow.mjs", "xrpl.js flow");
}

fn xrpl_js_mpt_flow() {
    xrpl_js_on_a_fresh_server("mpt_flow.mjs", "xrpl.js MPT flow");
}

fn xrpl_py_mpt_flow() {
    xrpl_py_on_a_fresh_server("py_mpt_flow.py", "xrpl-py MPT flow");
}

/// xrpl-py funds two accounts on one ledgerd, then pays between them on a second ledgerd
/// forked from it (`--fork ws://...`, then again lazily with `--fork-lazy`): the fork sees
/// them, the payment validates there, and the upstream's accounts stay as they were.
fn xrpl_py_pays_on_a_fork_of_a_second_ledgerd() {
    let py = python();
    let upstream = start_server();
    let state = tempfile::tempdir().expect("tempdir");
    let state_file = state.path().join("fork_flow.json");
    let script = interop_dir().join("py_fork_flow.py");
    let up_http = format!("http://{}", upstream.addr());
    let mut cmd = Command::new(&py);
    cmd.arg(&script)
        .arg("upstream")
        .arg(&up_http)
        .arg(&state_file);
    run_script(cmd, "xrpl-py on the upstream");
    for lazy in [None, Some("--fork-lazy")] {
        let mut args = vec!["--close-interval", "1", "--fork"];
        let url = upstream.ws_url();
        args.push(&url);
        args.extend(lazy);
        let fork = Server::start_quiet(&args);
        let mut cmd = Command::new(&py);
        cmd.arg(&script)
            .arg("fork")
            .arg(&up_http)
            .arg(format!("http://{}", fork.addr()))
            .arg(&state_file);
        run_script(cmd, &format!("xrpl-py on the fork {lazy:?}"));
    }
}

/// The DID and oracle flows assert what the libraries' own tests assert against their CI's
/// xrpld, whose `[features]` lack fixPriceOracleOrder (a new oracle keeps its series in the
/// transaction's order): they run under the `ci` preset.
fn ci_server() -> Server {
    Server::start_quiet(&["--close-interval", "1", "--amendment-preset", "ci"])
}

fn xrpl_js_did_and_oracle_flow() {
    xrpl_js_on(
        &ci_server(),
        "did_oracle_flow.mjs",
        "xrpl.js DID and oracle flow",
    );
}

fn xrpl_py_did_and_oracle_flow() {
    xrpl_py_on(
        &ci_server(),
        "py_did_oracle_flow.py",
        "xrpl-py DID and oracle flow",
    );
}

/// On `--network-id 21337` (above 1024) both libraries autofill NetworkID: they read
/// `build_version` as a rippled of at least 1.11.0.
fn both_libraries_autofill_network_id_above_1024() {
    let (py, nm) = (python(), node_modules());
    let server = Server::start_quiet(&["--close-interval", "1", "--network-id", "21337"]);
    let url = format!("ws://{}", server.addr());
    let mut js = Command::new("node");
    js.arg(interop_dir().join("network_id.mjs"))
        .arg(&url)
        .arg("21337")
        .env("NODE_PATH", nm);
    run_script(js, "xrpl.js on network 21337");
    let mut pyc = Command::new(py);
    pyc.arg(interop_dir().join("network_id.py"))
        .arg(&url)
        .arg("21337");
    run_script(pyc, "xrpl-py on network 21337");
}

fn wscat_session() {
    let nm = node_modules();
    let server = start_server();
    let wscat = nm.join("wscat/bin/wscat");
    let url = format!("ws://{}", server.addr());
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

/// xrpl.js `client.fundWallet` with a wallet, with an amount and without a wallet, against
/// the faucet on the server's own port, and the balances it reports and the ledger holds.
fn xrpl_js_fund_wallet() {
    let nm = node_modules();
    let server = start_server();
    let mut cmd = Command::new("node");
    cmd.arg(interop_dir().join("faucet.mjs"))
        .arg(format!("ws://{}", server.addr()))
        .arg(server.addr().to_string())
        .env("NODE_PATH", nm);
    run_script(cmd, "xrpl.js fundWallet");
}

/// xrpl-py `generate_faucet_wallet` (a new wallet, then the same one again), and a seed
/// `serve --accounts` printed used as an xrpl-py wallet.
fn xrpl_py_generate_faucet_wallet() {
    let py = python();
    let server = Server::start_quiet(&["--close-interval", "1", "--accounts", "2"]);
    let seed = server
        .log
        .lock()
        .unwrap()
        .iter()
        .find_map(|l| {
            let words: Vec<&str> = l.strip_prefix("(0) ")?.split_whitespace().collect();
            (words.get(1) == Some(&"seed")).then(|| words[2].to_owned())
        })
        .expect("serve printed the prefunded accounts");
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join("faucet.py"))
        .arg(format!("http://{}", server.addr()))
        .arg(format!("http://{}", server.addr()))
        .arg(seed);
    run_script(cmd, "xrpl-py generate_faucet_wallet");
}

/// Time travel and snapshots: a server that closes only on ledger_accept; each library
/// finishes a 30-day escrow after one `ledger_accept` with `close_time` past FinishAfter,
/// and reverts to a snapshot through its generic request, getting the same ledger hash.
fn both_libraries_travel_in_time_and_revert_to_a_snapshot() {
    let (py, nm) = (python(), node_modules());
    let server = Server::start_quiet(&["--close-interval", "0"]);
    let mut js = Command::new("node");
    js.arg(interop_dir().join("time_travel.mjs"))
        .arg(format!("ws://{}", server.addr()))
        .env("NODE_PATH", nm);
    run_script(js, "xrpl.js time travel");
    let mut pyc = Command::new(py);
    pyc.arg(interop_dir().join("time_travel.py"))
        .arg(format!("http://{}", server.addr()));
    run_script(pyc, "xrpl-py time travel");
}

fn xrpl_js_credential_flow() {
    xrpl_js_on_a_fresh_server("credential_flow.mjs", "xrpl.js credential flow");
}

fn xrpl_py_credential_flow() {
    xrpl_py_on_a_fresh_server("py_credential_flow.py", "xrpl-py credential flow");
}

fn xrpl_js_permissioned_dex_flow() {
    xrpl_js_on_a_fresh_server("permissioned_dex_flow.mjs", "xrpl.js permissioned DEX flow");
}

fn xrpl_py_permissioned_dex_flow() {
    xrpl_py_on_a_fresh_server(
        "py_permissioned_dex_flow.py",
        "xrpl-py permissioned DEX flow",
    );
}

/// A writer closing every second and copying its history into a throwaway PostgreSQL, and
/// two read nodes over it.
pub fn read_nodes() -> (PgCluster, Server, Server, Server) {
    let pg = PgCluster::start();
    let url = pg.url();
    let writer = Server::start_quiet(&["--close-interval", "1", "--postgres", &url]);
    let ws = writer.ws_url();
    let reader = || Server::start_quiet(&["--read-only", "--postgres", &url, "--writer", &ws]);
    let (a, b) = (reader(), reader());
    (pg, writer, a, b)
}

fn xrpl_py_through_a_read_node() {
    let py = python();
    let (_pg, _writer, a, _b) = read_nodes();
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join("read_node.py"))
        .arg(format!("ws://{}", a.addr()));
    run_script(cmd, "xrpl-py through a read node");
}

fn xrpl_js_through_one_read_node_and_the_stream_of_another() {
    let nm = node_modules();
    let (_pg, _writer, a, b) = read_nodes();
    let mut cmd = Command::new("node");
    cmd.arg(interop_dir().join("read_node.mjs"))
        .arg(format!("ws://{}", a.addr()))
        .arg(format!("ws://{}", b.addr()))
        .env("NODE_PATH", nm);
    run_script(cmd, "xrpl.js through two read nodes");
}

/// DynamicMPT (XLS-94) with xrpl.js: ImmutableFlags, tfMPTSet* capabilities, metadata and
/// fee replaced, removed and frozen (`dynamic_mpt_flow.mjs`).
fn xrpl_js_dynamic_mpt_flow() {
    xrpl_js_on_a_fresh_server("dynamic_mpt_flow.mjs", "xrpl.js DynamicMPT flow");
}

/// The same with xrpl-py over HTTP (`py_dynamic_mpt_flow.py`).
fn xrpl_py_dynamic_mpt_flow() {
    xrpl_py_on_a_fresh_server("py_dynamic_mpt_flow.py", "xrpl-py DynamicMPT flow");
}

fn xrpl_js_delegate_flow() {
    xrpl_js_on_a_fresh_server("delegate_flow.mjs", "xrpl.js delegate flow");
}

fn xrpl_py_delegate_flow() {
    xrpl_py_on_a_fresh_server("py_delegate_flow.py", "xrpl-py delegate flow");
}

/// Sponsor (XLS-68) with xrpl.js (`sponsor_flow.mjs`).
fn xrpl_js_sponsor_flow() {
    xrpl_js_on_a_fresh_server("sponsor_flow.mjs", "xrpl.js sponsor flow");
}

/// The same story with xrpl-py over HTTP, co-signed with `sign_as_sponsor`
/// (`py_sponsor_flow.py`).
fn xrpl_py_sponsor_flow() {
    xrpl_py_on_a_fresh_server("py_sponsor_flow.py", "xrpl-py sponsor flow");
}

fn xrpl_js_vault_flow() {
    xrpl_js_on_a_fresh_server("vault_flow.mjs", "xrpl.js vault flow");
}

fn xrpl_py_vault_flow() {
    xrpl_py_on_a_fresh_server("py_vault_flow.py", "xrpl-py vault flow");
}

fn xrpl_py_batch_flow() {
    xrpl_py_on_a_fresh_server("py_batch_flow.py", "xrpl-py batch flow");
}

fn xrpl_js_xchain_account_flow() {
    xrpl_js_on_a_fresh_server(
        "xchain_account_flow.mjs",
        "xrpl.js XChain account create flow",
    );
}

fn xrpl_py_xchain_account_flow() {
    xrpl_py_on_a_fresh_server(
        "py_xchain_account_flow.py",
        "xrpl-py XChain account create flow",
    );
}

/// A vault of an MPT asset and an issuance's DomainID with xrpl.js (`vault_mpt_flow.mjs`).
fn xrpl_js_vault_mpt_flow() {
    xrpl_js_on_a_fresh_server("vault_mpt_flow.mjs", "xrpl.js MPT vault flow");
}

/// A vault of an MPT asset with xrpl-py over HTTP (`py_vault_mpt_flow.py`).
fn xrpl_py_vault_mpt_flow() {
    xrpl_py_on_a_fresh_server("py_vault_mpt_flow.py", "xrpl-py MPT vault flow");
}

/// A LoanBroker over an XRP vault with xrpl.js: set, cover deposit and withdraw, update,
/// delete (`loan_broker_flow.mjs`). Its vault is open-ended, as in xrpl.js's own test
/// against its CI's xrpld, whose `[features]` lack LendingProtocolV1_1 (under which a new
/// broker needs a closed-ended vault): it runs under the `ci` preset.
fn xrpl_js_loan_broker_flow() {
    let what = "xrpl.js loan broker flow";
    xrpl_js_on(&ci_server(), "loan_broker_flow.mjs", what);
}

/// A loan's life with xrpl.js over WebSocket under the default rules: a closed-ended
/// vault that invests after time travel lends, co-signed with signLoanSetByCounterparty,
/// booked on a cash basis, impaired, paid and deleted (`loan_flow.mjs`).
fn xrpl_js_loan_flow() {
    xrpl_js_on_a_fresh_server("loan_flow.mjs", "xrpl.js loan flow");
}

/// A loan co-signed by the borrower's signer list with xrpl-py over HTTP, from a
/// closed-ended vault that invests after time travel, impaired and paid off under the
/// default rules (`py_loan_flow.py`).
fn xrpl_py_loan_flow() {
    xrpl_py_on_a_fresh_server("py_loan_flow.py", "xrpl-py loan flow");
}

/// A LoanBroker over an open-ended XRP vault with xrpl-py over HTTP
/// (`py_loan_broker_flow.py`), under the `ci` preset as `xrpl_js_loan_broker_flow`.
fn xrpl_py_loan_broker_flow() {
    let what = "xrpl-py loan broker flow";
    xrpl_py_on(&ci_server(), "py_loan_broker_flow.py", what);
}

/// Escrows of an issued currency (with a transfer rate) and of an MPT with xrpl.js over
/// WebSocket: AllowTrustLineLocking, the issuer's objects, LockedAmount, a cancel
/// (`token_escrow_flow.mjs`).
fn xrpl_js_token_escrow_flow() {
    xrpl_js_on_a_fresh_server("token_escrow_flow.mjs", "xrpl.js token escrow flow");
}

/// Escrows of an issued currency (the destination's line made on its own finish) and of
/// an MPT with xrpl-py over HTTP (`py_token_escrow_flow.py`).
fn xrpl_py_token_escrow_flow() {
    xrpl_py_on_a_fresh_server("py_token_escrow_flow.py", "xrpl-py token escrow flow");
}

/// A confidential MPT lifecycle with xrpl.js and `@xrplf/mpt-crypto`
/// (`confidential_flow.mjs`): convert, merge, send, convert back, claw back; each party
/// decrypts what it expects; a tampered proof is tecBAD_PROOF.
fn xrpl_js_confidential_flow() {
    xrpl_js_on_a_fresh_server("confidential_flow.mjs", "xrpl.js confidential MPT flow");
}

/// The same lifecycle with xrpl-py and xrpl-py-confidential over HTTP
/// (`py_confidential_flow.py`).
fn xrpl_py_confidential_flow() {
    xrpl_py_on_a_fresh_server("py_confidential_flow.py", "xrpl-py confidential MPT flow");
}

/// This module's trials, slowest first so the last to start are short.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    crate::trials![
        "flows";
        xrpl_py_pays_on_a_fork_of_a_second_ledgerd,
        both_libraries_travel_in_time_and_revert_to_a_snapshot,
        xrpl_py_through_a_read_node,
        xrpl_js_through_one_read_node_and_the_stream_of_another,
        xrpl_js_loan_broker_flow,
        xrpl_js_loan_flow,
        xrpl_py_loan_flow,
        xrpl_py_loan_broker_flow,
        xrpl_py_over_http,
        xrpl_py_over_websocket,
        xrpl_js_over_websocket,
        xrpl_js_confidential_flow,
        xrpl_py_confidential_flow,
        xrpl_js_mpt_flow,
        xrpl_py_mpt_flow,
        xrpl_js_did_and_oracle_flow,
        xrpl_py_did_and_oracle_flow,
        both_libraries_autofill_network_id_above_1024,
        wscat_session,
        xrpl_js_fund_wallet,
        xrpl_py_generate_faucet_wallet,
        xrpl_js_credential_flow,
        xrpl_py_credential_flow,
        xrpl_js_permissioned_dex_flow,
        xrpl_py_permissioned_dex_flow,
        xrpl_js_dynamic_mpt_flow,
        xrpl_py_dynamic_mpt_flow,
        xrpl_js_delegate_flow,
        xrpl_py_delegate_flow,
        xrpl_js_sponsor_flow,
        xrpl_py_sponsor_flow,
        xrpl_js_vault_flow,
        xrpl_py_vault_flow,
        xrpl_py_batch_flow,
        xrpl_js_xchain_account_flow,
        xrpl_py_xchain_account_flow,
        xrpl_js_vault_mpt_flow,
        xrpl_py_vault_mpt_flow,
        xrpl_js_token_escrow_flow,
        xrpl_py_token_escrow_flow,
    ]
}
