//! Credentials and permissioned domains through the API: `ledger_entry`'s `credential`,
//! `deposit_preauth` with `authorized_credentials` and `permissioned_domain` selectors
//! (rippled's `LedgerEntry.cpp` parsing and errors), `account_objects` of type
//! `credential` / `permissioned_domain`, `deposit_authorized` with `credentials`
//! (rippled's `DepositAuthorized.cpp` errors), and the amendments `feature` reports.

use crate::support;

use ledgerd::ledger::keylet;
use serde_json::{json, Value};
use support::credentials::creds_array;
use support::engine::{Account, Tx};
use support::reply::error;
use support::server::Node;

const KYC_HEX: &str = "4B5943";

/// issuer issues KYC to alice, who accepts; bob requires deposit authorization and
/// preauthorizes issuer's KYC.
fn kyc_world(node: &Node) -> [Account; 3] {
    let [issuer, alice, bob] = ["apIssuer", "apAlice", "apBob"].map(Account::new);
    for a in [&issuer, &alice, &bob] {
        node.fund(a, 1000);
    }
    node.apply(
        &issuer,
        Tx::new("CredentialCreate")
            .account("Subject", &alice.id)
            .blob("CredentialType", b"KYC")
            .blob("URI", b"https://kyc"),
    );
    node.apply(
        &alice,
        Tx::new("CredentialAccept")
            .account("Issuer", &issuer.id)
            .blob("CredentialType", b"KYC"),
    );
    node.apply(&bob, Tx::new("AccountSet").u32("SetFlag", 9));
    let mut preauth = Tx::new("DepositPreauth");
    preauth
        .0
        .set_named("AuthorizeCredentials", creds_array(&[(issuer.id, b"KYC")]));
    node.apply(&bob, preauth);
    node.close();
    [issuer, alice, bob]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_reads_back_by_ledger_entry_and_account_objects() {
    let node = Node::start().await;
    let [issuer, alice, _bob] = kyc_world(&node);
    let key = keylet::credential(&alice.id, &issuer.id, b"KYC");
    let r = node.rpc(
        "ledger_entry",
        json!({"credential": {
            "subject": alice.id.to_address(),
            "issuer": issuer.id.to_address(),
            "credential_type": KYC_HEX,
        }}),
    );
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["index"], key.to_hex());
    let n = &r["node"];
    assert_eq!(n["LedgerEntryType"], "Credential");
    assert_eq!(n["Subject"], alice.id.to_address());
    assert_eq!(n["Issuer"], issuer.id.to_address());
    assert_eq!(n["CredentialType"], KYC_HEX);
    assert_eq!(n["URI"], hex::encode_upper("https://kyc"));
    assert_eq!(n["Flags"], 0x0001_0000, "lsfAccepted");
    // By index too.
    let r = node.rpc("ledger_entry", json!({"credential": key.to_hex()}));
    assert_eq!(r["node"]["LedgerEntryType"], "Credential", "{r}");
    // Listed for both, owned by the subject once accepted.
    for who in [&alice, &issuer] {
        let r = node.rpc(
            "account_objects",
            json!({"account": who.id.to_address(), "type": "credential"}),
        );
        let objects = r["account_objects"].as_array().expect("objects");
        assert_eq!(objects.len(), 1, "{r}");
        assert_eq!(objects[0]["index"], key.to_hex());
    }
    let info = node.rpc("account_info", json!({"account": alice.id.to_address()}));
    assert_eq!(info["account_data"]["OwnerCount"], 1);
    let info = node.rpc("account_info", json!({"account": issuer.id.to_address()}));
    assert_eq!(info["account_data"]["OwnerCount"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_credential_selectors_refuse_what_rippled_refuses() {
    let node = Node::start().await;
    let [issuer, alice, bob] = kyc_world(&node);
    let le = |params: Value| node.rpc("ledger_entry", params);
    let cred = |subject: Value, issuer: Value, t: Value| json!({"credential": {"subject": subject, "issuer": issuer, "credential_type": t}});
    let (a, i) = (json!(alice.id.to_address()), json!(issuer.id.to_address()));
    let r = le(cred(a.clone(), i.clone(), json!("414D4C")));
    assert_eq!(error(&r).0, "entryNotFound", "{r}");
    let r = le(json!({"credential": {"subject": a, "credential_type": KYC_HEX}}));
    assert_eq!(
        error(&r),
        ("malformedRequest", 31, "Missing field 'issuer'.")
    );
    let r = le(cred(json!("nope"), i.clone(), json!(KYC_HEX)));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'subject', not AccountID."
        )
    );
    let r = le(cred(a.clone(), i.clone(), json!("XYZ")));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'credential_type', not hex string."
        )
    );
    let r = le(cred(a.clone(), i.clone(), json!("")));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
    let r = le(json!({"credential": "beef"}));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
    // A credential key naming another entry type.
    let r = le(json!({"credential": keylet::account(&alice.id).to_hex()}));
    assert_eq!(error(&r).0, "unexpectedLedgerType", "{r}");

    // deposit_preauth by a credential set.
    let dp = |v: Value| le(json!({"deposit_preauth": v}));
    let good = json!([{"issuer": issuer.id.to_address(), "credential_type": KYC_HEX}]);
    let r = dp(json!({"owner": bob.id.to_address(), "authorized_credentials": good}));
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["node"]["LedgerEntryType"], "DepositPreauth");
    assert_eq!(
        r["node"]["AuthorizeCredentials"],
        json!([{"Credential": {"Issuer": issuer.id.to_address(), "CredentialType": KYC_HEX}}])
    );
    let r = dp(json!({"owner": bob.id.to_address()}));
    assert_eq!(
        error(&r).2,
        "Must have exactly one of `authorized` and `authorized_credentials`."
    );
    let r = dp(json!({
        "owner": bob.id.to_address(),
        "authorized": alice.id.to_address(),
        "authorized_credentials": good,
    }));
    assert_eq!(error(&r).0, "malformedRequest", "{r}");
    let r = dp(json!({"owner": bob.id.to_address(), "authorized_credentials": []}));
    assert_eq!(
        error(&r),
        (
            "malformedAuthorizedCredentials",
            31,
            "Invalid field 'authorized_credentials', array empty."
        )
    );
    let nine: Vec<Value> = (0..9)
        .map(|n| json!({"issuer": issuer.id.to_address(), "credential_type": format!("4{n}")}))
        .collect();
    let r = dp(json!({"owner": bob.id.to_address(), "authorized_credentials": nine}));
    assert_eq!(
        error(&r).2,
        "Invalid field 'authorized_credentials', array too long."
    );
    let r = dp(json!({"owner": bob.id.to_address(), "authorized_credentials": "x"}));
    assert_eq!(
        error(&r),
        (
            "malformedAuthorizedCredentials",
            31,
            "Invalid field 'authorized_credentials', not array."
        )
    );
    let dup = json!([good[0], good[0]]);
    let r = dp(json!({"owner": bob.id.to_address(), "authorized_credentials": dup}));
    assert_eq!(error(&r).0, "malformedAuthorizedCredentials", "{r}");
    let r = dp(json!({
        "owner": bob.id.to_address(),
        "authorized_credentials": [{"issuer": "nope", "credential_type": KYC_HEX}],
    }));
    assert_eq!(error(&r).0, "malformedAuthorizedCredentials", "{r}");
    let r = dp(json!({
        "owner": bob.id.to_address(),
        "authorized_credentials": [{"issuer": issuer.id.to_address()}],
    }));
    assert_eq!(
        error(&r),
        (
            "malformedAuthorizedCredentials",
            31,
            "Missing field 'credential_type'."
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deposit_authorized_takes_credentials() {
    let node = Node::start().await;
    let [issuer, alice, bob] = kyc_world(&node);
    let key = keylet::credential(&alice.id, &issuer.id, b"KYC").to_hex();
    let da = |creds: Option<Value>| {
        let mut p = json!({
            "source_account": alice.id.to_address(),
            "destination_account": bob.id.to_address(),
        });
        if let Some(c) = creds {
            p["credentials"] = c;
        }
        node.rpc("deposit_authorized", p)
    };
    let r = da(None);
    assert_eq!(r["deposit_authorized"], false, "{r}");
    let r = da(Some(json!([key])));
    assert_eq!(r["deposit_authorized"], true, "{r}");
    assert_eq!(r["credentials"], json!([key]));
    // Errors, as rippled words them.
    let msg = |c: Value| error(&da(Some(c))).2.to_string();
    assert_eq!(msg(json!([])), "credentials must be non-empty array");
    assert_eq!(msg(json!("x")), "credentials must be non-empty array");
    assert_eq!(msg(json!([1])), "credentials must be strings");
    assert_eq!(msg(json!(["zz"])), "credentials must be hex strings");
    let nine: Vec<String> = (0..9).map(|n| format!("{n:064X}")).collect();
    assert_eq!(msg(json!(nine)), "credentials array too long");
    let r = da(Some(json!(["AB".repeat(32)])));
    assert_eq!(error(&r), ("badCredentials", 95, "credentials don't exist"));
    // The error carries the ledger the check read, as rippled's `inject_error`.
    assert!(
        r.get("ledger_current_index").is_some() || r.get("ledger_index").is_some(),
        "{r}"
    );
    assert_eq!(msg(json!([key, key])), "duplicates in credentials");
    // Someone else presenting alice's credential.
    let r = node.rpc(
        "deposit_authorized",
        json!({
            "source_account": issuer.id.to_address(),
            "destination_account": bob.id.to_address(),
            "credentials": [key],
        }),
    );
    assert_eq!(
        error(&r).2,
        "credentials doesn't belong to the root account"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_permissioned_domain_reads_back_and_the_amendments_are_enabled() {
    let node = Node::start().await;
    let [issuer, alice, _bob] = kyc_world(&node);
    let seq = node.rpc("account_info", json!({"account": alice.id.to_address()}))["account_data"]
        ["Sequence"]
        .as_u64()
        .unwrap() as u32;
    let mut set = Tx::new("PermissionedDomainSet");
    set.0
        .set_named("AcceptedCredentials", creds_array(&[(issuer.id, b"KYC")]));
    node.apply(&alice, set);
    node.close();
    let key = keylet::permissioned_domain(&alice.id, seq);
    let r = node.rpc(
        "ledger_entry",
        json!({"permissioned_domain": {"account": alice.id.to_address(), "seq": seq}}),
    );
    assert_eq!(r["index"], key.to_hex(), "{r}");
    assert_eq!(r["node"]["LedgerEntryType"], "PermissionedDomain");
    assert_eq!(r["node"]["Owner"], alice.id.to_address());
    assert_eq!(r["node"]["Sequence"], seq);
    assert_eq!(
        r["node"]["AcceptedCredentials"],
        json!([{"Credential": {"Issuer": issuer.id.to_address(), "CredentialType": KYC_HEX}}])
    );
    let r = node.rpc("ledger_entry", json!({"permissioned_domain": key.to_hex()}));
    assert_eq!(r["node"]["LedgerEntryType"], "PermissionedDomain", "{r}");
    let r = node.rpc(
        "ledger_entry",
        json!({"permissioned_domain": {"account": alice.id.to_address()}}),
    );
    assert_eq!(error(&r), ("malformedRequest", 31, "Missing field 'seq'."));
    let r = node.rpc("ledger_entry", json!({"permissioned_domain": 7}));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'permissioned_domain', not hex string or object."
        )
    );
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "permissioned_domain"}),
    );
    assert_eq!(r["account_objects"].as_array().unwrap().len(), 1, "{r}");
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "deletion_blockers_only": true}),
    );
    let blockers = r["account_objects"].as_array().unwrap();
    assert_eq!(
        blockers.len(),
        1,
        "the domain blocks, the credential does not: {r}"
    );
    assert_eq!(blockers[0]["LedgerEntryType"], "PermissionedDomain");

    for name in ["Credentials", "PermissionedDomains"] {
        let r = node.rpc("feature", json!({"feature": name}));
        let (_, v) = r
            .as_object()
            .unwrap()
            .iter()
            .find(|(k, _)| k.len() == 64)
            .unwrap_or_else(|| panic!("{r}"));
        assert_eq!(v["enabled"], true, "{name}: {r}");
    }
}
