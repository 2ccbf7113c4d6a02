//! LoanBrokers through the API: `ledger_entry`'s `loan_broker` selector (an index or
//! `{owner, seq}`, rippled's `parseLoanBroker` and its `malformedOwner` / `malformedSeq`),
//! `account_objects` of type `loan_broker` and as a deletion blocker, the entry's JSON
//! (its STNumber fields as strings), and a LoanDelete of a key holding no loan
//! answering tecNO_ENTRY.

use crate::support;

use ledgerd::ledger::keylet;
use ledgerd::protocol::types::Hash256;
use serde_json::json;
use support::engine::{xrp, Account, Tx};
use support::reply::error;
use support::server::Node;

/// owner creates a closed-ended XRP vault that invests (a broker's vault under the
/// server's default rules, LendingProtocolV1_1 on), a broker over it and deposits 25 XRP
/// of cover; returns (owner, the broker's seq).
fn broker_world(node: &Node) -> (Account, u32) {
    let owner = Account::new("albOwner");
    node.fund(&owner, 1000);
    let vault = crate::api_loan::investing_vault(node, &owner, None);
    let ledgers = &node.state().node.ledgers;
    let seq = support::accounts::sequence(ledgers, &owner.id).unwrap();
    let set = Tx::new("LoanBrokerSet")
        .h256("VaultID", vault)
        .u32("CoverRateMinimum", 1000)
        .u32("CoverRateLiquidation", 500);
    node.apply(&owner, set);
    let key = keylet::loan_broker(&owner.id, seq);
    let cover = Tx::new("LoanBrokerCoverDeposit")
        .h256("LoanBrokerID", key)
        .amount("Amount", xrp(25));
    node.apply(&owner, cover);
    node.close();
    (owner, seq)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_entry_reads_a_broker_by_index_and_by_owner_and_seq() {
    let node = Node::start().await;
    let (owner, seq) = broker_world(&node);
    let key = keylet::loan_broker(&owner.id, seq);
    let r = node.rpc("ledger_entry", json!({"loan_broker": key.to_hex()}));
    let b = &r["node"];
    assert_eq!(b["LedgerEntryType"], "LoanBroker", "{r}");
    assert_eq!(b["Owner"], owner.id.to_address());
    assert_eq!(b["CoverAvailable"], "25000000");
    assert_eq!(b["CoverRateMinimum"], 1000);
    assert_eq!(b["LoanSequence"], 1);
    assert_eq!(b["Sequence"], seq);
    let r2 = node.rpc(
        "ledger_entry",
        json!({"loan_broker": {"owner": owner.id.to_address(), "seq": seq}}),
    );
    assert_eq!(r2["index"], key.to_hex(), "{r2}");
    assert_eq!(r2["node"], r["node"]);
    // The pseudo-account names its broker.
    let pseudo = b["Account"].as_str().unwrap_or_default();
    let r = node.rpc("account_info", json!({"account": pseudo}));
    assert_eq!(r["account_data"]["LoanBrokerID"], key.to_hex(), "{r}");
    assert_eq!(r["account_data"]["Balance"], "25000000");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_entry_refuses_bad_broker_selectors() {
    let node = Node::start().await;
    let (owner, seq) = broker_world(&node);
    let o = owner.id.to_address();
    let r = node.rpc("ledger_entry", json!({"loan_broker": {"seq": seq}}));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
    let r = node.rpc(
        "ledger_entry",
        json!({"loan_broker": {"owner": "nobody", "seq": seq}}),
    );
    assert_eq!(error(&r).0, "malformedOwner", "{r}");
    let r = node.rpc(
        "ledger_entry",
        json!({"loan_broker": {"owner": o, "seq": "x"}}),
    );
    assert_eq!(error(&r).0, "malformedSeq", "{r}");
    let r = node.rpc(
        "ledger_entry",
        json!({"loan_broker": {"owner": o, "seq": seq + 9}}),
    );
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
    // A vault's key is no broker.
    let vault = keylet::vault(&owner.id, seq - 1);
    let r = node.rpc("ledger_entry", json!({"loan_broker": vault.to_hex()}));
    assert_eq!(error(&r).0, "unexpectedLedgerType", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_objects_lists_brokers_and_counts_them_as_blockers() {
    let node = Node::start().await;
    let (owner, seq) = broker_world(&node);
    let key = keylet::loan_broker(&owner.id, seq);
    let o = owner.id.to_address();
    let r = node.rpc(
        "account_objects",
        json!({"account": o, "type": "loan_broker"}),
    );
    let objects = r["account_objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 1, "{r}");
    assert_eq!(objects[0]["index"], key.to_hex());
    let r = node.rpc(
        "account_objects",
        json!({"account": o, "deletion_blockers_only": true}),
    );
    let types: Vec<_> = r["account_objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["LedgerEntryType"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(types.contains(&"LoanBroker".to_string()), "{r}");
    let r = node.rpc("account_info", json!({"account": o}));
    assert_eq!(
        r["account_data"]["OwnerCount"], 4,
        "vault, token, broker, pseudo"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loan_delete_of_no_loan_answers_tec_no_entry() {
    let node = Node::start().await;
    let owner = Account::new("albLoan");
    node.fund(&owner, 1000);
    let tx = Tx::new("LoanDelete").h256("LoanID", Hash256([4; 32]));
    let (ter, _) = node.submit(&owner, tx);
    assert_eq!(ter, ledgerd::engine::Ter::tecNO_ENTRY);
}
