//! The transaction queue's reads (rippled `TxQ::doRPC`, `NetworkOPs::getServerInfo`,
//! `AccountInfo.cpp`, `LedgerToJson.cpp`'s `fillJsonQueue`, `Tx.cpp`), over a WebSocket
//! against an in-process server whose open ledger expects 3 transactions
//! (`minimum_txn_in_ledger_standalone = 3`, TxQ_test's `makeConfig`): a fourth applies, a
//! fifth must pay 227555 fee levels (128000 × 4² / 3²) or wait in the queue.

use crate::support;

use ledgerd::protocol::keys::KeyPair;
use serde_json::{json, Value};
use support::keys::{address, keys, GENESIS};
use support::payment::{payment, sign, TF_FULLY_CANONICAL_SIG};
use support::server::start_with;
use support::ws::Ws;

/// The open ledger's expected size in these tests.
const EXPECTED: u64 = 3;

/// A server escalating past [`EXPECTED`] transactions, with TxQ_test's small queue (2
/// ledgers' worth, at least 2) and no growth of the expected size, and a public port
/// beside the admin one: (server, admin socket, public socket).
async fn escalating() -> (ledgerd::app::Running, Ws, Ws) {
    let server = start_with(0, |c| {
        let q = &mut c.tx_queue;
        q.minimum_txn_in_ledger_standalone = EXPECTED;
        q.ledgers_in_queue = 2;
        q.minimum_queue_size = 2;
        q.normal_consensus_increase_percent = 0;
        let mut public = c.ports[0].clone();
        public.name = "public".into();
        public.admin = Vec::new();
        c.ports.push(public);
    })
    .await;
    let admin = Ws::connect_to(server.addrs[0].1).await;
    let public = Ws::connect_to(server.addrs[1].1).await;
    (server, admin, public)
}

async fn call(ws: &mut Ws, req: Value) -> Value {
    let r = ws.req(req).await;
    assert_eq!(r["status"], "success", "{r}");
    r["result"].clone()
}

/// An error reply (a WebSocket one carries its fields at the top).
async fn error(ws: &mut Ws, req: Value) -> Value {
    let r = ws.req(req).await;
    assert_eq!(r["status"], "error", "{r}");
    r
}

/// Submits a blob; the engine result.
async fn submit(ws: &mut Ws, blob: String) -> Value {
    call(ws, json!({"command": "submit", "tx_blob": blob})).await
}

/// A signed transaction from its JSON: `who` sends it at `seq` paying `fee` drops.
fn signed(who: &KeyPair, seq: u32, fee: u64, mut tx: Value) -> String {
    tx["Account"] = json!(who.account_id().to_address());
    tx["Sequence"] = json!(seq);
    tx["Fee"] = json!(fee.to_string());
    tx["Flags"] = json!(TF_FULLY_CANONICAL_SIG);
    sign(who, tx)
}

fn pay(to: &str, drops: u64) -> Value {
    json!({"TransactionType": "Payment", "Destination": to, "Amount": drops.to_string()})
}

async fn sequence(ws: &mut Ws, account: &str) -> u32 {
    let r = call(ws, json!({"command": "account_info", "account": account})).await;
    r["account_data"]["Sequence"].as_u64().expect("Sequence") as u32
}

/// Funds `names` from the genesis account (1000 XRP each), each payment applied to the
/// open ledger.
async fn fund(ws: &mut Ws, names: &[&str]) {
    let genesis = keys("masterpassphrase");
    let mut seq = sequence(ws, GENESIS).await;
    for name in names {
        let r = submit(ws, payment(&genesis, seq, &address(name), 1_000_000_000)).await;
        assert_eq!(r["engine_result"], "tesSUCCESS", "{name}: {r}");
        seq += 1;
    }
}

/// `n` transactions of `who`, from its next Sequence, paying `fee` drops: each queued.
async fn queue_noops(ws: &mut Ws, who: &str, n: u32, fee: u64) {
    let pair = keys(who);
    let first = sequence(ws, &address(who)).await;
    for seq in first..first + n {
        let blob = signed(&pair, seq, fee, json!({"TransactionType": "AccountSet"}));
        let r = submit(ws, blob).await;
        assert_eq!(r["engine_result"], "terQUEUED", "{who} {seq}: {r}");
    }
}

async fn fee(ws: &mut Ws) -> Value {
    call(ws, json!({"command": "fee"})).await
}

/// server_state's load fields: (load_factor, server, escalation, queue, reference, base).
async fn state_load(ws: &mut Ws) -> [u64; 6] {
    let s = call(ws, json!({"command": "server_state"})).await["state"].clone();
    [
        "load_factor",
        "load_factor_server",
        "load_factor_fee_escalation",
        "load_factor_fee_queue",
        "load_factor_fee_reference",
        "load_base",
    ]
    .map(|k| s[k].as_u64().unwrap_or_else(|| panic!("{k} in {s}")))
}

/// server_info's load fields (absent: Null), as `ws`'s caller sees them.
async fn info_load(ws: &mut Ws) -> [Value; 4] {
    let i = call(ws, json!({"command": "server_info"})).await["info"].clone();
    [
        "load_factor",
        "load_factor_server",
        "load_factor_fee_escalation",
        "load_factor_fee_queue",
    ]
    .map(|k| i[k].clone())
}

/// fee's levels and drops: (open_ledger_level, minimum_level, median_level,
/// open_ledger_fee, minimum_fee, median_fee).
fn figures(f: &Value) -> [&str; 6] {
    let l = &f["levels"];
    let d = &f["drops"];
    [
        &l["open_ledger_level"],
        &l["minimum_level"],
        &l["median_level"],
        &d["open_ledger_fee"],
        &d["minimum_fee"],
        &d["median_fee"],
    ]
    .map(|v| v.as_str().unwrap_or_else(|| panic!("a string in {f}")))
}

/// fee's sizes: (current_ledger_size, current_queue_size, expected_ledger_size,
/// max_queue_size).
fn sizes(f: &Value) -> [&str; 4] {
    [
        "current_ledger_size",
        "current_queue_size",
        "expected_ledger_size",
        "max_queue_size",
    ]
    .map(|k| f[k].as_str().unwrap_or("absent"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fee_and_load_factors_follow_the_open_ledger_and_the_queue() {
    let (_server, mut ws, mut public) = escalating().await;
    // Below the expected size: every level is the reference level, 10 drops.
    let f = fee(&mut ws).await;
    assert_eq!(f["expected_ledger_size"], "3");
    assert_eq!(f["levels"]["reference_level"], "256");
    assert_eq!(f["drops"]["base_fee"], "10");
    assert_eq!(figures(&f), ["256", "256", "128000", "10", "10", "5000"]);
    assert_eq!(state_load(&mut ws).await, [256; 6]);
    let calm = [json!(1), Value::Null, Value::Null, Value::Null];
    assert_eq!(info_load(&mut ws).await, calm);
    assert_eq!(info_load(&mut public).await, calm);

    // Three transactions fill the expected size and a fourth still applies; the fifth
    // would pay 128000 × 4² / 3² = 227555 levels, 8889 drops (rounded up to reach it).
    fund(&mut ws, &["alice", "bob", "carol", "dave"]).await;
    let f = fee(&mut ws).await;
    assert_eq!(sizes(&f)[..3], ["4", "0", "3"]);
    assert_eq!(
        figures(&f),
        ["227555", "256", "128000", "8889", "10", "5000"]
    );
    assert_eq!(f["ledger_current_index"], 3);
    // TxQ_test's testServerInfo: server_state scales nothing, server_info divides by 256;
    // only an admin sees the escalation that load_factor already is.
    assert_eq!(
        state_load(&mut ws).await,
        [227555, 256, 227555, 256, 256, 256]
    );
    let escalated = 227555.0 / 256.0;
    assert_eq!(
        info_load(&mut ws).await,
        [json!(escalated), json!(1), json!(escalated), Value::Null]
    );
    assert_eq!(
        info_load(&mut public).await,
        [json!(escalated), json!(1), Value::Null, Value::Null]
    );

    // The close learns 4 transactions a ledger (no growth configured) and sizes the queue
    // at 2 ledgers' worth.
    call(&mut ws, json!({"command": "ledger_accept"})).await;
    let f = fee(&mut ws).await;
    assert_eq!(sizes(&f), ["0", "0", "4", "8"]);
    assert_eq!(figures(&f), ["256", "256", "128000", "10", "10", "5000"]);

    // Five in the open ledger: 128000 × 5² / 4² = 200000 levels, 7813 drops. Eight
    // queued fill the queue: the next must pay one level more than its cheapest.
    fund(&mut ws, &["erin", "frank", "grace", "heidi", "ivan"]).await;
    queue_noops(&mut ws, "carol", 4, 10).await;
    queue_noops(&mut ws, "dave", 4, 10).await;
    let f = fee(&mut ws).await;
    assert_eq!(sizes(&f), ["5", "8", "4", "8"]);
    assert_eq!(
        figures(&f),
        ["200000", "257", "128000", "7813", "10", "5000"]
    );
    let alice = keys("alice");
    let seq = sequence(&mut ws, &address("alice")).await;
    let full = submit(
        &mut ws,
        signed(&alice, seq, 10, json!({"TransactionType": "AccountSet"})),
    )
    .await;
    assert_eq!(full["engine_result"], "telCAN_NOT_QUEUE_FULL", "{full}");
    assert_eq!(
        state_load(&mut ws).await,
        [200000, 256, 200000, 257, 256, 256]
    );
    let escalated = 200000.0 / 256.0;
    let queue = json!(257.0 / 256.0);
    assert_eq!(
        info_load(&mut ws).await,
        [json!(escalated), json!(1), json!(escalated), queue.clone()]
    );
    assert_eq!(
        info_load(&mut public).await,
        [json!(escalated), json!(1), Value::Null, queue]
    );
}

/// A server past its expected size with alice's payment (10 drops) and AccountSet (20
/// drops, LastLedgerSequence 20) and bob's SetRegularKey (a blocker, free by its base
/// fee: its 15 drops pay (15 + 10) × 256 / 10 = 640 levels) in the queue: the ids.
async fn three_queued(ws: &mut Ws) -> [String; 3] {
    fund(ws, &["alice", "bob", "carol", "dave"]).await;
    let (alice, bob) = (keys("alice"), keys("bob"));
    let seq = sequence(ws, &address("alice")).await;
    let txs = [
        signed(&alice, seq, 10, pay(&address("bob"), 1000)),
        signed(
            &alice,
            seq + 1,
            20,
            json!({"TransactionType": "AccountSet", "LastLedgerSequence": 20}),
        ),
        signed(
            &bob,
            sequence(ws, &address("bob")).await,
            15,
            json!({"TransactionType": "SetRegularKey", "RegularKey": address("carol")}),
        ),
    ];
    let mut ids = Vec::new();
    for blob in txs {
        let r = submit(ws, blob).await;
        assert_eq!(r["engine_result"], "terQUEUED", "{r}");
        ids.push(r["tx_json"]["hash"].as_str().expect("hash").to_owned());
    }
    ids.try_into().expect("three")
}

fn queue_of(ws_result: &Value) -> &Value {
    &ws_result["queue_data"]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_info_and_ledger_list_the_queue() {
    let (_server, mut ws, mut public) = escalating().await;
    let ids = three_queued(&mut ws).await;
    let info =
        |who: &str| json!({"command": "account_info", "account": address(who), "queue": true});

    // AccountInfo.cpp: counts, SeqProxy bounds, totals, each transaction.
    let r = call(&mut ws, info("alice")).await;
    let seq = r["account_data"]["Sequence"].as_u64().unwrap();
    assert_eq!(
        queue_of(&r),
        &json!({
            "txn_count": 2, "sequence_count": 2,
            "lowest_sequence": seq, "highest_sequence": seq + 1,
            "auth_change_queued": false, "max_spend_drops_total": "1030",
            "transactions": [
                {"seq": seq, "fee": "10", "fee_level": "256", "max_spend_drops": "1010",
                 "auth_change": false},
                {"seq": seq + 1, "fee": "20", "fee_level": "512", "max_spend_drops": "20",
                 "auth_change": false, "LastLedgerSequence": 20},
            ]
        })
    );
    let r = call(&mut public, info("bob")).await;
    let q = queue_of(&r);
    assert_eq!(q["auth_change_queued"], true);
    assert_eq!(q["max_spend_drops_total"], "15");
    assert_eq!(q["transactions"][0]["fee_level"], "640");
    assert_eq!(q["transactions"][0]["auth_change"], true);
    let r = call(&mut ws, info("carol")).await;
    assert_eq!(queue_of(&r), &json!({"txn_count": 0}));
    // The queue belongs to the open ledger only.
    let mut closed = json!({"command": "account_info", "account": GENESIS, "queue": true});
    closed["ledger_index"] = json!("validated");
    let e = error(&mut ws, closed).await;
    assert_eq!(e["error"], "invalidParams", "{e}");
    assert_eq!(e["error_message"], "Invalid parameters.");

    // LedgerToJson.cpp's fillJsonQueue, highest fee level first; the transaction under
    // `tx` (API v1) as its hash, expanded, or binary.
    let ledger = |extra: Value| {
        let mut req = json!({"command": "ledger", "ledger_index": "current", "queue": true});
        req.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        req
    };
    let r = call(&mut public, ledger(json!({}))).await;
    let q = queue_of(&r).as_array().expect("queue_data");
    let levels: Vec<_> = q.iter().map(|t| t["fee_level"].clone()).collect();
    assert_eq!(levels, [json!("640"), json!("512"), json!("256")]);
    assert_eq!(
        q[1],
        json!({
            "account": address("alice"), "fee": "20", "fee_level": "512",
            "max_spend_drops": "20", "auth_change": false, "LastLedgerSequence": 20,
            "retries_remaining": 10, "preflight_result": "tesSUCCESS", "tx": ids[1],
        })
    );
    assert_eq!(q[0]["auth_change"], true);
    assert_eq!(q[0]["tx"], ids[2]);
    let r = call(&mut ws, ledger(json!({"expand": true}))).await;
    let tx = &queue_of(&r)[2]["tx"];
    assert_eq!(tx["hash"], ids[0]);
    assert_eq!(tx["TransactionType"], "Payment");
    assert!(tx.get("metaData").is_none(), "{tx}");
    let r = call(&mut ws, ledger(json!({"expand": true, "binary": true}))).await;
    let blob = queue_of(&r)[2]["tx"]["tx_blob"].as_str().expect("tx_blob");
    assert!(blob.starts_with("120000"), "a Payment: {blob}");
    // API v2 merges the transaction in: tx_json, hash, validated.
    let r = call(&mut ws, ledger(json!({"expand": true, "api_version": 2}))).await;
    let t = &queue_of(&r)[2];
    assert_eq!(t["hash"], ids[0]);
    assert_eq!(t["tx_json"]["DeliverMax"], "1000");
    assert_eq!(t["validated"], false);
    assert!(t.get("tx").is_none(), "{t}");
    let r = call(&mut ws, ledger(json!({"api_version": 2}))).await;
    let t = &queue_of(&r)[2];
    assert_eq!(t["hash"], ids[0]);
    assert!(t.get("tx").is_none() && t.get("tx_json").is_none(), "{t}");
    // Not for a closed ledger.
    let e = error(
        &mut ws,
        json!({"command": "ledger", "ledger_index": "validated", "queue": true}),
    )
    .await;
    assert_eq!(e["error"], "invalidParams", "{e}");

    // The close applies them all: nothing queued, no queue_data.
    call(&mut ws, json!({"command": "ledger_accept"})).await;
    let r = call(&mut ws, info("alice")).await;
    assert_eq!(queue_of(&r), &json!({"txn_count": 0}));
    let r = call(&mut ws, ledger(json!({}))).await;
    assert!(r.get("queue_data").is_none(), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tx_finds_a_queued_transaction_in_no_ledger() {
    let (_server, mut ws, _) = escalating().await;
    let ids = three_queued(&mut ws).await;
    let tx = |extra: Value| {
        let mut req = json!({"command": "tx", "transaction": ids[0]});
        req.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        req
    };
    // Tx.cpp for a transaction whose ledger is 0: the transaction, its hash, validated
    // false; no ledger, no date, no metadata, no ctid.
    for extra in [json!({}), json!({"min_ledger": 1, "max_ledger": 2})] {
        let r = call(&mut ws, tx(extra)).await;
        assert_eq!(r["hash"], ids[0]);
        assert_eq!(r["TransactionType"], "Payment");
        assert_eq!(r["DeliverMax"], "1000");
        assert_eq!(r["validated"], false);
        for absent in [
            "ledger_index",
            "inLedger",
            "date",
            "meta",
            "ctid",
            "ledger_hash",
        ] {
            assert!(r.get(absent).is_none(), "{absent}: {r}");
        }
    }
    let r = call(&mut ws, tx(json!({"binary": true}))).await;
    assert!(
        r["tx"].as_str().is_some_and(|b| b.starts_with("120000")),
        "{r}"
    );
    assert!(r.get("meta").is_none(), "{r}");
    let r = call(&mut ws, tx(json!({"api_version": 2}))).await;
    assert_eq!(r["tx_json"]["DeliverMax"], "1000");
    assert_eq!(
        (&r["hash"], &r["validated"]),
        (&json!(ids[0]), &json!(false))
    );
    assert!(
        r.get("ledger_index").is_none() && r.get("close_time_iso").is_none(),
        "{r}"
    );
    let r = call(&mut ws, tx(json!({"api_version": 2, "binary": true}))).await;
    assert!(r["tx_blob"].as_str().is_some(), "{r}");
    assert!(r.get("meta_blob").is_none(), "{r}");
    // Out of the queue at the close, into a ledger.
    call(&mut ws, json!({"command": "ledger_accept"})).await;
    call(&mut ws, json!({"command": "ledger_accept"})).await;
    let r = call(&mut ws, tx(json!({}))).await;
    assert_eq!(r["validated"], true, "{r}");
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");
}

#[test]
fn the_toml_files_transaction_queue_table_sets_the_expected_ledger_size() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\", \"ws\"]\n\
                admin = [\"127.0.0.1\"]\n\n[transaction_queue]\n\
                minimum_txn_in_ledger_standalone = 5\n";
    let (server, _dir) = support::server::Server::with_config(toml, 1);
    let fee = support::http::rpc(server.addrs[0], "fee", json!({})).json();
    assert_eq!(fee["result"]["expected_ledger_size"], "5", "{fee}");
}
