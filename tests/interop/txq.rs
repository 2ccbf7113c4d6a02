//! Interop: the transaction queue seen by xrpl.js (`txq_flow.mjs`, over WebSocket) and
//! xrpl-py (`py_txq_flow.py`, over HTTP), unmodified, against `ledgerd --conf xrpld.cfg -a`
//! whose `[transaction_queue]` expects 3 transactions per ledger (minimum, target and
//! maximum), so a fifth transaction in an open ledger meets the escalated fee. Each script
//! has two parts, one server each:
//! - `autofill`: the libraries' autofill pays the escalated fee (xrpl.js from
//!   `server_info`'s `load_factor`, xrpl-py from `fee`'s `drops.open_ledger_fee`) and their
//!   submit-and-wait helpers finish;
//! - `queue`: a burst from one account is queued up to `maximum_txn_per_account` (10,
//!   `terQUEUED`, `queued: true`, `applied: false`) and the next refused
//!   `telCAN_NOT_QUEUE_FULL` (`kept: true`: xrpld retries a locally submitted transaction
//!   after each close's drain, so it applies once the queue has room); a replacement under
//!   125% of the queued fee is `telCAN_NOT_QUEUE_FEE`, one over it is queued in its place;
//!   `ledger_accept` drains the queue in Sequence order and `tx` finds each one validated,
//!   and never the payment the replacement took the place of.

use crate::flows::{interop_dir, node_modules, python, run_script};
use crate::support;

use std::process::Command;
use support::server::Server;

/// xrpld.cfg: one admin port serving http and ws on loopback, and a queue that expects
/// 3 transactions per ledger whatever the closes (the expected size never grows).
const CONFIG: &str = "[server]\nport_admin\n\n\
    [port_admin]\nport = 0\nip = 127.0.0.1\nadmin = 127.0.0.1\nprotocol = http,ws\n\n\
    [transaction_queue]\nminimum_txn_in_ledger = 3\nminimum_txn_in_ledger_standalone = 3\n\
    target_txn_in_ledger = 3\nmaximum_txn_in_ledger = 3\n";

/// `ledgerd --conf xrpld.cfg -a` (closes on `ledger_accept` only) with [`CONFIG`]; the
/// directory holding the file lives as long as the server.
fn queue_server() -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let conf = dir.path().join("xrpld.cfg");
    std::fs::write(&conf, CONFIG).expect("write xrpld.cfg");
    let conf = conf.to_string_lossy().into_owned();
    match Server::try_start_args(&["--conf", &conf, "-a"], 1) {
        Ok(server) => (server, dir),
        Err((code, log)) => panic!("ledgerd --conf did not start (exit {code:?}): {log}"),
    }
}

fn xrpl_js(part: &str) {
    let nm = node_modules();
    let (server, _dir) = queue_server();
    let mut cmd = Command::new("node");
    cmd.arg(interop_dir().join("txq_flow.mjs"))
        .arg(format!("ws://{}", server.addr()))
        .arg(part)
        .env("NODE_PATH", nm);
    run_script(cmd, &format!("xrpl.js transaction queue, {part}"));
}

fn xrpl_py(part: &str) {
    let py = python();
    let (server, _dir) = queue_server();
    let mut cmd = Command::new(py);
    cmd.arg(interop_dir().join("py_txq_flow.py"))
        .arg(format!("http://{}", server.addr()))
        .arg(part);
    run_script(cmd, &format!("xrpl-py transaction queue, {part}"));
}

fn xrpl_js_autofill_pays_the_escalated_fee() {
    xrpl_js("autofill");
}

fn xrpl_py_autofill_pays_the_escalated_fee() {
    xrpl_py("autofill");
}

fn xrpl_js_queues_replaces_and_drains() {
    xrpl_js("queue");
}

fn xrpl_py_queues_replaces_and_drains() {
    xrpl_py("queue");
}

/// This module's trials.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    crate::trials![
        "txq";
        xrpl_js_queues_replaces_and_drains,
        xrpl_py_queues_replaces_and_drains,
        xrpl_js_autofill_pays_the_escalated_fee,
        xrpl_py_autofill_pays_the_escalated_fee,
    ]
}
