//! Vaults through the API: `vault_info` by `vault_id` or by `owner` and `seq` (rippled's
//! `VaultInfo.cpp`, its shares under `shares`, every bad naming `malformedRequest`),
//! `ledger_entry`'s `vault` selector and `account_objects` of type `vault`.

mod support;

use ledgerd::ledger::keylet;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Issue;
use serde_json::json;
use support::engine::{drops, xrp, Account, Tx};
use support::reply::error;
use support::server::Node;

/// owner creates an XRP vault and alice deposits 100 XRP; returns (owner, seq).
fn vault_world(node: &Node) -> (Account, u32) {
    let [owner, alice] = ["avOwner", "avAlice"].map(Account::new);
    for a in [&owner, &alice] {
        node.fund(a, 1000);
    }
    let seq = support::accounts::sequence(&node.state().node.ledgers, &owner.id).unwrap();
    let fee = node.state().node.ledgers.fees().reserve_inc_drops as i64;
    let mut create = Tx::new("VaultCreate").amount("Fee", drops(fee));
    create
        .0
        .set(ledgerd::ledger::sf::sf().asset, StValue::Issue(Issue::XRP));
    node.apply(&owner, create);
    let key = keylet::vault(&owner.id, seq);
    node.apply(
        &alice,
        Tx::new("VaultDeposit")
            .h256("VaultID", key)
            .amount("Amount", xrp(100)),
    );
    node.close();
    (owner, seq)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vault_info_reads_the_vault_and_its_shares_both_ways() {
    let node = Node::start().await;
    let (owner, seq) = vault_world(&node);
    let key = keylet::vault(&owner.id, seq);
    let by_id = node.rpc("vault_info", json!({"vault_id": key.to_hex()}));
    assert_eq!(by_id["status"], "success", "{by_id}");
    let v = &by_id["vault"];
    assert_eq!(v["LedgerEntryType"], "Vault");
    assert_eq!(v["index"], key.to_hex());
    assert_eq!(v["Owner"], owner.id.to_address());
    assert_eq!(v["Asset"], json!({"currency": "XRP"}));
    assert_eq!(v["AssetsTotal"], "100000000");
    assert_eq!(v["AssetsAvailable"], "100000000");
    assert_eq!(v["LossUnrealized"], "0");
    assert_eq!(v["WithdrawalPolicy"], 1);
    assert_eq!(v["shares"]["LedgerEntryType"], "MPTokenIssuance");
    assert_eq!(v["shares"]["OutstandingAmount"], "100000000");
    assert_eq!(v["shares"]["Issuer"], v["Account"]);
    let by_owner = node.rpc(
        "vault_info",
        json!({"owner": owner.id.to_address(), "seq": seq}),
    );
    assert_eq!(by_owner["vault"], by_id["vault"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vault_info_refuses_bad_namings() {
    let node = Node::start().await;
    let (owner, seq) = vault_world(&node);
    let key = keylet::vault(&owner.id, seq);
    let o = owner.id.to_address();
    for params in [
        json!({}),
        json!({"vault_id": "zz"}),
        json!({"vault_id": key.to_hex(), "owner": o}),
        json!({"owner": o}),
        json!({"owner": "nobody", "seq": seq}),
        json!({"owner": o, "seq": 0}),
        json!({"owner": o, "seq": "1"}),
        json!({"vault_id": "0".repeat(64)}),
    ] {
        let r = node.rpc("vault_info", params.clone());
        assert_eq!(error(&r).0, "malformedRequest", "{params} {r}");
    }
    let r = node.rpc("vault_info", json!({"owner": o, "seq": seq + 7}));
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_entry_and_account_objects_know_vaults() {
    let node = Node::start().await;
    let (owner, seq) = vault_world(&node);
    let key = keylet::vault(&owner.id, seq);
    let r = node.rpc("ledger_entry", json!({"vault": key.to_hex()}));
    assert_eq!(r["node"]["LedgerEntryType"], "Vault", "{r}");
    let r = node.rpc(
        "ledger_entry",
        json!({"vault": {"owner": owner.id.to_address(), "seq": seq}}),
    );
    assert_eq!(r["index"], key.to_hex(), "{r}");
    let r = node.rpc("ledger_entry", json!({"vault": {"seq": seq}}));
    assert_eq!(
        error(&r),
        ("malformedRequest", 31, "Missing field 'owner'.")
    );
    let r = node.rpc(
        "ledger_entry",
        json!({"vault": {"owner": "nobody", "seq": seq}}),
    );
    assert_eq!(error(&r).0, "malformedOwner", "{r}");
    let r = node.rpc(
        "account_objects",
        json!({"account": owner.id.to_address(), "type": "vault"}),
    );
    let objects = r["account_objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 1, "{r}");
    assert_eq!(objects[0]["index"], key.to_hex());
    let r = node.rpc(
        "account_objects",
        json!({"account": owner.id.to_address(), "deletion_blockers_only": true}),
    );
    let types: Vec<_> = r["account_objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["LedgerEntryType"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(types.contains(&"Vault".to_string()), "{r}");
}
