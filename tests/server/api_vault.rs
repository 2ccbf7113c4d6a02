//! Vaults through the API: `vault_info` by `vault_id` or by `owner` and `seq` (rippled's
//! `VaultInfo.cpp`, its shares under `shares`, every bad naming `malformedRequest`),
//! `ledger_entry`'s `vault` selector and `account_objects` of type `vault`.

use crate::support;

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

/// An issuer's transferable MPT, 1000 of it paid to a depositor who puts 250 in owner's
/// vault of it; returns (vault key, MPT id).
fn mpt_vault_world(node: &Node) -> (ledgerd::protocol::types::Hash256, String) {
    use ledgerd::ledger::sf::sf;
    use ledgerd::protocol::mpt::{MptAmount, MptId};
    let [issuer, owner, depositor] = ["amIssuer", "amOwner", "amDepositor"].map(Account::new);
    for a in [&issuer, &owner, &depositor] {
        node.fund(a, 1000);
    }
    let ledgers = &node.state().node.ledgers;
    let iseq = support::accounts::sequence(ledgers, &issuer.id).unwrap();
    // tfMPTCanTransfer
    node.apply(&issuer, Tx::new("MPTokenIssuanceCreate").flags(0x20));
    let id = MptId::new(iseq, &issuer.id);
    let mut opt_in = Tx::new("MPTokenAuthorize");
    opt_in
        .0
        .set(sf().mpt_issuance_id, StValue::Fixed(id.0.to_vec()));
    node.apply(&depositor, opt_in);
    let mpt = |v: u64| StValue::MptAmount(MptAmount::new(v, id));
    let mut pay = Tx::new("Payment").account("Destination", &depositor.id);
    pay.0.set(sf().amount, mpt(1000));
    node.apply(&issuer, pay);
    let seq = support::accounts::sequence(ledgers, &owner.id).unwrap();
    let fee = ledgers.fees().reserve_inc_drops as i64;
    let mut create = Tx::new("VaultCreate").amount("Fee", drops(fee));
    create.0.set(sf().asset, StValue::MptIssue(id));
    node.apply(&owner, create);
    let key = keylet::vault(&owner.id, seq);
    let mut dep = Tx::new("VaultDeposit").h256("VaultID", key);
    dep.0.set(sf().amount, mpt(250));
    node.apply(&depositor, dep);
    node.close();
    (key, id.to_hex())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mpt_vault_reads_back_with_its_asset_and_the_pseudo_accounts_mptoken() {
    let node = Node::start().await;
    let (key, id) = mpt_vault_world(&node);
    let r = node.rpc("vault_info", json!({"vault_id": key.to_hex()}));
    let v = &r["vault"];
    let pseudo = v["Account"].as_str().unwrap_or_default().to_string();
    assert_eq!(v["Asset"], json!({"mpt_issuance_id": id}), "{r}");
    assert_eq!(v["AssetsTotal"], "250");
    assert_eq!(v["shares"]["OutstandingAmount"], "250");
    assert!(v.get("Scale").is_none(), "{r}");
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": id, "account": pseudo}}),
    );
    assert_eq!(r["node"]["MPTAmount"], "250", "{r}");
    // With fixCleanup3_2_0 (in this server's rules) the shares name that MPToken.
    assert!(r["index"].is_string(), "{r}");
    assert_eq!(v["shares"]["ReferenceHolding"], r["index"], "{v}");
    let r = node.rpc(
        "account_objects",
        json!({"account": pseudo, "type": "mptoken"}),
    );
    assert_eq!(
        r["account_objects"].as_array().map(Vec::len),
        Some(1),
        "{r}"
    );
    let r = node.rpc("account_info", json!({"account": pseudo}));
    assert_eq!(r["account_data"]["Sequence"], 0, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_asset_vault_is_reported_enabled() {
    let node = Node::start().await;
    let r = node.rpc("feature", json!({"feature": "SingleAssetVault"}));
    let entry = r
        .as_object()
        .and_then(|m| m.values().find(|v| v["name"] == "SingleAssetVault"))
        .cloned();
    let entry = entry.expect("SingleAssetVault listed");
    assert_eq!(entry["enabled"], true, "{r}");
}
