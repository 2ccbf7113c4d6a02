//! Reads of closed ledgers never see a partial state while another thread applies
//! transactions to the open ledger and closes ledgers: in every closed ledger read, the
//! balances of all accounts add up to that ledger's total_coins (the fees destroyed are
//! exactly what left), and a ledger read twice by number reads the same.

use crate::support;

use ledgerd::engine::Ter;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::engine::{drops, pay, Account};
use support::http::rpc;
use support::server::{submit_to, Node};

fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc(addr, method, params).json()["result"].clone()
}

fn balance(r: &Value) -> u128 {
    r["account_data"]["Balance"]
        .as_str()
        .expect("balance")
        .parse()
        .expect("drops")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_ledgers_are_never_partial() {
    let node = Node::start().await;
    let names = ["w0", "w1", "w2", "w3"];
    let accounts: Vec<Account> = names.iter().map(|n| Account::new(n)).collect();
    for a in &accounts {
        node.fund(a, 10_000);
    }
    node.close();
    let mut everyone: Vec<String> = accounts.iter().map(|a| a.id.to_address()).collect();
    everyone.push(Account::master().id.to_address());

    let state = node.state().clone();
    let stop = Arc::new(AtomicBool::new(false));
    let now = Arc::new(AtomicU32::new(node.now.load(Ordering::SeqCst)));
    let writer = {
        let stop = stop.clone();
        let now = now.clone();
        std::thread::spawn(move || {
            let mut applied = 0u32;
            let mut closes = 0u32;
            let mut i = 0usize;
            while !stop.load(Ordering::SeqCst) {
                let from = &accounts[i % 4];
                let to = &accounts[(i + 1) % 4];
                let (ter, _) = submit_to(&state, from, pay(to, drops(1 + i as i64 % 7)));
                assert_eq!(ter, Ter::tesSUCCESS);
                applied += 1;
                i += 1;
                if i.is_multiple_of(10) {
                    let t = now.fetch_add(10, Ordering::SeqCst) + 10;
                    state.node.ledgers.close(t);
                    closes += 1;
                }
            }
            (applied, closes)
        })
    };

    let addr = node.admin;
    let reader = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(3);
        let mut checked = 0;
        while Instant::now() < deadline {
            // The validated ledger, by name; then every read pinned to its number.
            let first = call(
                addr,
                "account_info",
                json!({"account": everyone[0], "ledger_index": "validated"}),
            );
            let seq = first["ledger_index"].as_u64().expect("seq");
            assert_eq!(first["validated"], true);
            let mut sum = balance(&first);
            for a in &everyone[1..] {
                let r = call(
                    addr,
                    "account_info",
                    json!({"account": a, "ledger_index": seq}),
                );
                assert_eq!(r["ledger_hash"], first["ledger_hash"]);
                sum += balance(&r);
            }
            let l = call(
                addr,
                "ledger",
                json!({"ledger_index": seq, "transactions": true}),
            );
            let total: u128 = l["ledger"]["total_coins"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(sum, total, "ledger {seq}: balances do not add up");
            // Read again by number: identical.
            let again = call(
                addr,
                "ledger",
                json!({"ledger_index": seq, "transactions": true}),
            );
            assert_eq!(l, again);
            let a2 = call(
                addr,
                "account_info",
                json!({"account": everyone[0], "ledger_index": seq}),
            );
            assert_eq!(first["account_data"], a2["account_data"]);
            checked += 1;
        }
        checked
    });
    let checked = tokio::task::spawn_blocking(move || reader.join().expect("reader"))
        .await
        .unwrap();
    stop.store(true, Ordering::SeqCst);
    let (applied, closes) = writer.join().expect("writer");
    assert!(checked > 10, "only {checked} ledgers checked");
    assert!(
        closes > 5 && applied > 50,
        "writer did too little: {applied} / {closes}"
    );
    println!("checked {checked} ledgers while {applied} transactions applied over {closes} closes");
    node.running.stop().await;
}
