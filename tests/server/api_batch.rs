//! Batch through the API: a Batch with another account's BatchSigner submitted as a blob,
//! its inner transactions found by `tx` with their own metadata (ParentBatchID) and in
//! the closed ledger after it; `submit` refusing an inner transaction alone as rippled
//! 3.4 does with BatchV1_1 on and off (`invalidTransaction` for a blob, signed or not;
//! `temINVALID_FLAG` for sign-and-submit); `sign`
//! autofilling a Batch's fee; BatchV1_1 enabled in `feature`.

use crate::support;

use ledgerd::engine::batch::tf;
use ledgerd::protocol::codec;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::tx::transaction_id_of;
use serde_json::json;
use support::batch::{batch, inner, with_signers};
use support::engine::{pay, xrp, Account, Tx};
use support::server::{submit_to, Node};

fn blob(o: &ledgerd::protocol::st::StObject) -> String {
    hex::encode_upper(codec::encode(o))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_and_its_inner_transactions_read_back_by_tx() {
    let node = Node::start().await;
    let [alice, bob] = ["btAlice", "btBob"].map(Account::new);
    node.fund(&alice, 1000);
    node.fund(&bob, 1000);
    node.close();
    let seq = support::accounts::sequence(&node.state().node.ledgers, &alice.id).unwrap();
    let bseq = support::accounts::sequence(&node.state().node.ledgers, &bob.id).unwrap();
    let inners = [
        inner(pay(&bob, xrp(1)), &alice, seq + 1),
        inner(pay(&alice, xrp(5)), &bob, bseq),
    ];
    let mut o = with_signers(
        batch(&alice, seq, 50, tf::ALL_OR_NOTHING, &inners),
        &[(&bob, &bob.kp)],
    );
    support::payment::sign_object(&mut o, &alice.kp);
    let r = node.rpc("submit", json!({"tx_blob": blob(&o)}));
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    let batch_id = r["tx_json"]["hash"].as_str().unwrap().to_owned();
    assert_eq!(r["tx_json"]["RawTransactions"].as_array().unwrap().len(), 2);
    let r = node.rpc("ledger_accept", json!({}));
    assert_eq!(r["status"], "success", "{r}");
    for (i, t) in inners.iter().enumerate() {
        let id = transaction_id_of(t).to_hex();
        let r = node.rpc("tx", json!({"transaction": id}));
        assert_eq!(r["status"], "success", "{r}");
        assert_eq!(r["meta"]["ParentBatchID"], batch_id.as_str(), "{r}");
        assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");
        assert_eq!(r["meta"]["TransactionIndex"], i as u64 + 1);
        assert_eq!(r["Fee"], "0");
        assert_eq!(r["SigningPubKey"], "");
        assert_eq!(r["Flags"], 0x4000_0000u32);
    }
    let r = node.rpc("tx", json!({"transaction": batch_id}));
    assert_eq!(r["meta"]["TransactionIndex"], 0, "{r}");
    assert!(r["meta"].get("ParentBatchID").is_none());
    // The closed ledger lists all three.
    let r = node.rpc(
        "ledger",
        json!({"ledger_index": "validated", "transactions": true}),
    );
    let txs = r["ledger"]["transactions"].as_array().expect("txs").clone();
    assert_eq!(txs.len(), 3, "{r}");
    let r = node.rpc("account_info", json!({"account": bob.id.to_address()}));
    assert_eq!(r["account_data"]["Sequence"], bseq + 1);
}

/// A transaction flagged `tfInnerBatchTxn` submitted alone, on a server at `addr` whose
/// state is `state`: rippled 3.4's `checkValidity` refuses the blob, signed or not,
/// whatever the rules; sign-and-submit reaches the engine and gets `temINVALID_FLAG`
/// (xrpld's NetworkOPs refusal with BatchV1_1, its preflight1 without). Nothing applies.
fn inner_alone_is_refused(state: &ledgerd::app::ServerState, addr: std::net::SocketAddr) {
    let [alice, bob] = ["biAlice", "biBob"].map(Account::new);
    for who in [&alice, &bob] {
        let (ter, _) = submit_to(state, &Account::master(), pay(who, xrp(1000)));
        assert_eq!(ter, ledgerd::engine::Ter::tesSUCCESS);
    }
    let rpc = |method: &str, params: serde_json::Value| {
        let reply = support::http::rpc(addr, method, params);
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json()["result"].clone()
    };
    let seq = support::accounts::sequence(&state.node.ledgers, &alice.id).unwrap();
    let mut bare = inner(pay(&bob, xrp(1)), &alice, seq);
    bare.set_named(
        "Fee",
        ledgerd::protocol::st::StValue::Amount(support::engine::drops(10)),
    );
    let signed = Tx::new("Payment")
        .account("Destination", &bob.id)
        .amount("Amount", xrp(1))
        .flags(0x4000_0000)
        .signed(&alice.id, seq, 10, &alice.kp);
    for o in [&bare, &signed] {
        let r = rpc("submit", json!({"tx_blob": blob(o)}));
        assert_eq!(r["error"], "invalidTransaction", "{r}");
        assert_eq!(
            r["error_exception"],
            "fails local checks: Batch inner transactions are never considered validly signed.",
            "{r}"
        );
    }
    let tx_json = json!({
        "TransactionType": "Payment",
        "Account": alice.id.to_address(),
        "Destination": bob.id.to_address(),
        "Amount": "1000000",
        "Flags": 0x4000_0000u32,
    });
    let r = rpc(
        "submit",
        json!({"tx_json": tx_json, "passphrase": "biAlice", "key_type": "secp256k1"}),
    );
    assert_eq!(r["engine_result"], "temINVALID_FLAG", "{r}");
    assert!(support::accounts::sequence(&state.node.ledgers, &alice.id) == Some(seq));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submit_refuses_an_inner_transaction_alone_with_batch_on() {
    let node = Node::start().await;
    let r = node.rpc("feature", json!({"feature": "BatchV1_1"}));
    let entry = r.as_object().and_then(|o| o.values().next()).cloned();
    assert_eq!(
        entry.map(|e| e["enabled"].clone()),
        Some(json!(true)),
        "{r}"
    );
    inner_alone_is_refused(node.state(), node.admin);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submit_refuses_an_inner_transaction_alone_with_batch_off() {
    let presets = ledgerd::ledger::rules::RuleBook::default().presets;
    let names = presets
        .iter()
        .filter(|f| *f != Feature::BatchV1_1)
        .map(|f| f.name().to_string())
        .collect();
    let running = support::server::start_with(0, |c| {
        c.ephemeral = true;
        c.amendments.features = Some(names);
    })
    .await;
    let addr = support::server::addr(&running);
    let r = support::http::rpc(addr, "feature", json!({"feature": "BatchV1_1"})).json();
    let entry = r["result"]
        .as_object()
        .and_then(|o| o.values().next())
        .cloned();
    assert_eq!(
        entry.map(|e| e["enabled"].clone()),
        Some(json!(false)),
        "{r}"
    );
    inner_alone_is_refused(&running.state, addr);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_fills_a_batch_fee_and_feature_reports_batch() {
    let node = Node::start().await;
    let alice = Account::new("bsAlice");
    node.fund(&alice, 1000);
    let seq = support::accounts::sequence(&node.state().node.ledgers, &alice.id).unwrap();
    let inners: Vec<serde_json::Value> = (1..=3)
        .map(|i| {
            let t = inner(pay(&Account::master(), xrp(1)), &alice, seq + i);
            json!({"RawTransaction": codec::to_json(&t)})
        })
        .collect();
    let tx = json!({"TransactionType": "Batch", "Account": alice.id.to_address(),
        "Flags": tf::INDEPENDENT, "RawTransactions": inners});
    let r = node.rpc(
        "sign",
        json!({"tx_json": tx, "passphrase": alice.name, "key_type": "secp256k1"}),
    );
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["tx_json"]["Fee"], "50", "base x (2 + 3)");
    let r = node.rpc("submit", json!({"tx_blob": r["tx_blob"]}));
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    let r = node.rpc("feature", json!({"feature": "BatchV1_1"}));
    let entry = r
        .as_object()
        .unwrap()
        .values()
        .find(|v| v["name"] == "BatchV1_1");
    let entry = entry.expect("BatchV1_1 listed");
    assert_eq!(entry["enabled"], true, "{r}");
}
