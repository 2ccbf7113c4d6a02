//! A bridge through the API, as xrpl-py's integration set-up creates and reads it:
//! XChainCreateBridge applied through the binary form, the Bridge read back by
//! `ledger_entry`'s `bridge` selector (with `bridge_account`) and by `account_objects`
//! of type `bridge`, with rippled's errors for a malformed selector; an account create
//! commit read back by `tx`, and a waiting account create attestation read back by the
//! `xchain_owned_create_account_claim_id` selector and account_objects type.

use crate::support;

use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Issue;
use ledgerd::protocol::xchain::XChainBridge;
use serde_json::{json, Value};
use support::engine::{signer_list, xrp, Account, Tx};
use support::reply::error;
use support::server::Node;
use support::xchain::{create_bridge, xrp_bridge, CreateAttestation};

fn bridge_json(door: &Account) -> Value {
    json!({
        "LockingChainDoor": door.id.to_address(),
        "LockingChainIssue": {"currency": "XRP"},
        "IssuingChainDoor": Account::master().id.to_address(),
        "IssuingChainIssue": {"currency": "XRP"}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_bridge_reads_back_by_ledger_entry_and_account_objects() {
    let node = Node::start().await;
    let door = Account::new("door");
    node.fund(&door, 1000);
    let b = XChainBridge {
        locking_door: door.id,
        locking_issue: Issue::XRP,
        issuing_door: Account::master().id,
        issuing_issue: Issue::XRP,
    };
    let mut tx = Tx::new("XChainCreateBridge")
        .amount("SignatureReward", xrp(1))
        .amount("MinAccountCreateAmount", xrp(10));
    tx.0.set_named("XChainBridge", StValue::XChainBridge(b));
    let hash = node.apply(&door, tx);
    node.close();

    let r = node.rpc("tx", json!({"transaction": hash.to_hex()}));
    assert_eq!(r["XChainBridge"], bridge_json(&door), "{r}");
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");

    let r = node.rpc(
        "ledger_entry",
        json!({"bridge_account": door.id.to_address(), "bridge": bridge_json(&door)}),
    );
    assert_eq!(r["status"], "success", "{r}");
    let node_json = &r["node"];
    assert_eq!(node_json["LedgerEntryType"], "Bridge");
    assert_eq!(node_json["Account"], door.id.to_address());
    assert_eq!(node_json["XChainBridge"], bridge_json(&door));
    assert_eq!(node_json["SignatureReward"], "1000000");
    assert_eq!(node_json["MinAccountCreateAmount"], "10000000");
    assert_eq!(node_json["XChainClaimID"], "0");
    assert_eq!(node_json["XChainAccountCreateCount"], "0");
    assert_eq!(node_json["XChainAccountClaimCount"], "0");
    assert_eq!(node_json["index"], r["index"]);
    let index = r["index"].clone();

    let r = node.rpc(
        "account_objects",
        json!({"account": door.id.to_address(), "type": "bridge"}),
    );
    let objects = r["account_objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 1, "{r}");
    assert_eq!(objects[0]["index"], index);
    let r = node.rpc(
        "account_objects",
        json!({"account": door.id.to_address(), "deletion_blockers_only": true}),
    );
    assert_eq!(
        r["account_objects"].as_array().unwrap().len(),
        1,
        "a blocker"
    );
    let info = node.rpc("account_info", json!({"account": door.id.to_address()}));
    assert_eq!(info["account_data"]["OwnerCount"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_selector_refuses_what_rippled_refuses() {
    let node = Node::start().await;
    let door = Account::new("door");
    node.fund(&door, 1000);
    let le = |params: Value| node.rpc("ledger_entry", params);
    // No such bridge yet.
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": bridge_json(&door)}));
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
    // bridge_account must be one of the doors.
    let other = Account::new("other").id.to_address();
    let r = le(json!({"bridge_account": other, "bridge": bridge_json(&door)}));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
    // A missing bridge_account.
    let r = le(json!({"bridge": bridge_json(&door)}));
    assert_eq!(
        error(&r),
        ("malformedRequest", 31, "Missing field 'bridge_account'.")
    );
    // A missing part of the bridge.
    let mut part = bridge_json(&door);
    part.as_object_mut().unwrap().remove("IssuingChainIssue");
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": part}));
    assert_eq!(error(&r).2, "Missing field 'IssuingChainIssue'.", "{r}");
    // A bad door and a bad issue.
    let mut bad = bridge_json(&door);
    bad["LockingChainDoor"] = json!("nope");
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": bad}));
    assert_eq!(error(&r).0, "malformedLockingChainDoor", "{r}");
    let mut bad = bridge_json(&door);
    bad["LockingChainIssue"] = json!({"currency": "USD"});
    let r = le(json!({"bridge_account": door.id.to_address(), "bridge": bad}));
    assert_eq!(error(&r).0, "malformedIssue", "{r}");
    // A string is never taken as an index here (rippled checks the request itself).
    let r = le(json!({"bridge": "00".repeat(32)}));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'bridge', not hex string."
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_create_commit_reads_back_by_tx_and_counts_on_the_bridge() {
    let node = Node::start().await;
    let [door, carol] = [Account::new("door"), Account::new("carol")];
    node.fund(&door, 1000);
    node.fund(&carol, 1000);
    let b = xrp_bridge(&door.id, &Account::master().id);
    node.apply(&door, create_bridge(&b, xrp(1), Some(xrp(10))));
    let ua = Account::new("ua");
    let mut tx = Tx::new("XChainAccountCreateCommit")
        .amount("Amount", xrp(20))
        .amount("SignatureReward", xrp(1))
        .account("Destination", &ua.id);
    tx.0.set_named("XChainBridge", StValue::XChainBridge(b));
    let hash = node.apply(&carol, tx);
    node.close();
    let r = node.rpc("tx", json!({"transaction": hash.to_hex()}));
    assert_eq!(r["TransactionType"], "XChainAccountCreateCommit", "{r}");
    assert_eq!(r["Destination"], ua.id.to_address());
    assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS");
    let r = node.rpc(
        "ledger_entry",
        json!({"bridge_account": door.id.to_address(), "bridge": bridge_json(&door)}),
    );
    assert_eq!(r["node"]["XChainAccountCreateCount"], "1", "{r}");
    let info = node.rpc("account_info", json!({"account": door.id.to_address()}));
    let balance: i64 = info["account_data"]["Balance"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(balance, 1_021_000_000 - 10, "{info}");
    let r = node.rpc("feature", json!({"feature": "XChainBridge"}));
    let (_, f) = r.as_object().unwrap().iter().next().expect("the feature");
    assert_eq!(f["enabled"], true, "{r}");
}

/// A witness's signed account create attestation of create 1 (40 XRP to `dst`).
fn attestation(b: &XChainBridge, witness: &Account, dst: &Account) -> Tx {
    CreateAttestation {
        bridge: *b,
        witness: witness.clone(),
        source: Account::new("mcCarol").id,
        amount: xrp(40),
        reward: xrp(1),
        reward_account: witness.id,
        was_locking: true,
        count: 1,
        dst: dst.id,
    }
    .tx()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_account_create_reads_back_by_its_selector_and_type() {
    let node = Node::start().await;
    let master = Account::master();
    let b = xrp_bridge(&(Account::new("mcDoor")).id, &Account::master().id);
    node.apply(&master, create_bridge(&b, xrp(1), Some(xrp(10))));
    let witnesses = [Account::new("w0"), Account::new("w1")];
    node.apply(
        &master,
        signer_list(2, &[(&witnesses[0], 1), (&witnesses[1], 1)]),
    );
    let attester = Account::new("attester");
    node.fund(&attester, 1000);
    let ua = Account::new("ua");
    node.apply(&attester, attestation(&b, &witnesses[0], &ua));
    node.close();

    let mut sel = bridge_json(&Account::new("mcDoor"));
    sel["xchain_owned_create_account_claim_id"] = json!(1);
    let r = node.rpc(
        "ledger_entry",
        json!({"xchain_owned_create_account_claim_id": sel.clone()}),
    );
    assert_eq!(r["status"], "success", "{r}");
    let e = &r["node"];
    assert_eq!(e["LedgerEntryType"], "XChainOwnedCreateAccountClaimID");
    assert_eq!(e["Account"], master.id.to_address());
    assert_eq!(e["XChainAccountCreateCount"], "1");
    let atts = e["XChainCreateAccountAttestations"]
        .as_array()
        .expect("atts");
    assert_eq!(atts.len(), 1, "{r}");
    let proof = &atts[0]["XChainCreateAccountProofSig"];
    assert_eq!(
        proof["AttestationSignerAccount"],
        witnesses[0].id.to_address()
    );
    assert_eq!(proof["Destination"], ua.id.to_address());
    assert_eq!(proof["Amount"], "40000000");
    assert_eq!(proof["SignatureReward"], "1000000");
    let index = r["index"].clone();
    let r = node.rpc(
        "ledger_entry",
        json!({"xchain_owned_create_account_claim_id": index.clone()}),
    );
    assert_eq!(r["node"]["XChainAccountCreateCount"], "1", "{r}");
    let r = node.rpc(
        "account_objects",
        json!({"account": master.id.to_address(), "type": "xchain_owned_create_account_claim_id"}),
    );
    let objects = r["account_objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 1, "{r}");
    assert_eq!(objects[0]["index"], index);

    // rippled's errors: no such count, a bad count, a missing bridge part.
    sel["xchain_owned_create_account_claim_id"] = json!(2);
    let r = node.rpc(
        "ledger_entry",
        json!({"xchain_owned_create_account_claim_id": sel.clone()}),
    );
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
    sel["xchain_owned_create_account_claim_id"] = json!("x");
    let r = node.rpc(
        "ledger_entry",
        json!({"xchain_owned_create_account_claim_id": sel.clone()}),
    );
    assert_eq!(
        error(&r).0,
        "malformedXChainOwnedCreateAccountClaimID",
        "{r}"
    );
    sel.as_object_mut().unwrap().remove("LockingChainDoor");
    let r = node.rpc(
        "ledger_entry",
        json!({"xchain_owned_create_account_claim_id": sel}),
    );
    assert_eq!(error(&r).2, "Missing field 'LockingChainDoor'.", "{r}");

    // The second witness reaches the quorum: the account is created, the entry gone.
    node.apply(&attester, attestation(&b, &witnesses[1], &ua));
    node.close();
    let info = node.rpc("account_info", json!({"account": ua.id.to_address()}));
    assert_eq!(info["account_data"]["Balance"], "40000000", "{info}");
    let r = node.rpc(
        "ledger_entry",
        json!({"xchain_owned_create_account_claim_id": index}),
    );
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
}
