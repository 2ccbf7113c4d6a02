//! Loans through the API, under the server's default rules (LendingProtocolV1_1 on, so
//! the broker is over a closed-ended vault in its Investment phase, reached by closing
//! a ledger past its SubscriptionDate): a LoanSet co-signed in CounterpartySignature
//! submitted as a blob (a forged co-signature fails rippled's local checks, naming the counterparty),
//! `ledger_entry`'s `loan` selector (an index or `{loan_broker_id, loan_seq}`, with
//! rippled 3.0's `malformedOwner` / `malformedSeq`), `account_objects` of type `loan`
//! and as a deletion blocker, the entry's JSON (STNumber fields as strings), and
//! `feature` reporting LendingProtocol enabled.

use crate::support;

use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::sf;
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{Hash256, Issue};
use serde_json::{json, Value};
use support::engine::{drops, xrp, Account, Tx};
use support::reply::error;
use support::server::Node;

/// A closed-ended XRP vault of `owner` that subscribes for ten minutes (taking the XRP of
/// `deposit` from its depositor meanwhile), then a close past its SubscriptionDate: the
/// vault invests, the phase in which LendingProtocolV1_1 (on in the server's default
/// rules) lets a broker open over it and lend. Its RedemptionDate is 30 days on.
pub fn investing_vault(node: &Node, owner: &Account, deposit: Option<(&Account, i64)>) -> Hash256 {
    use std::sync::atomic::Ordering;
    let ledgers = &node.state().node.ledgers;
    let vseq = support::accounts::sequence(ledgers, &owner.id).unwrap();
    let fee = ledgers.fees().reserve_inc_drops as i64;
    let subscription = node.now.load(Ordering::SeqCst) + 600;
    let mut create = Tx::new("VaultCreate")
        .amount("Fee", drops(fee))
        .u8("VaultKind", 1)
        .u32("SubscriptionDate", subscription)
        .u32("RedemptionDate", subscription + 30 * 86_400);
    create.0.set(sf().asset, StValue::Issue(Issue::XRP));
    node.apply(owner, create);
    let vault = keylet::vault(&owner.id, vseq);
    if let Some((depositor, n)) = deposit {
        let tx = Tx::new("VaultDeposit").h256("VaultID", vault);
        node.apply(depositor, tx.amount("Amount", xrp(n)));
    }
    node.now.store(subscription, Ordering::SeqCst);
    node.close();
    vault
}

/// An investing vault of `owner` holding 100 XRP of the depositor's and a broker over
/// it; returns the broker's key.
fn broker_world(node: &Node, owner: &Account) -> Hash256 {
    let depositor = Account::new("alnDepositor");
    node.fund(owner, 1000);
    node.fund(&depositor, 1000);
    let vault = investing_vault(node, owner, Some((&depositor, 100)));
    let ledgers = &node.state().node.ledgers;
    let seq = support::accounts::sequence(ledgers, &owner.id).unwrap();
    node.apply(owner, Tx::new("LoanBrokerSet").h256("VaultID", vault));
    node.close();
    keylet::loan_broker(&owner.id, seq)
}

/// A LoanSet of 5 XRP over 3 payments from `owner`'s broker to `borrower`, with the
/// owner's SigningPubKey, not yet signed. PrincipalRequested is serialized as the client
/// libraries serialize an STNumber (a 19-digit mantissa), so that the server's
/// re-serialization of its JSON keeps the signatures valid.
fn unsigned_loan(
    node: &Node,
    (owner, borrower): (&Account, &Account),
    broker: Hash256,
) -> StObject {
    let s = sf();
    let ledgers = &node.state().node.ledgers;
    let mut o = Tx::new("LoanSet")
        .h256("LoanBrokerID", broker)
        .account("Counterparty", &borrower.id)
        .u32("PaymentTotal", 3)
        .0;
    let (m, e) = ledgerd::protocol::number::Number::from_i64(5_000_000).to_st_parts();
    let mut principal = m.to_be_bytes().to_vec();
    principal.extend_from_slice(&e.to_be_bytes());
    o.set(
        Field::named("PrincipalRequested"),
        StValue::Fixed(principal),
    );
    o.set(s.account, StValue::AccountId(owner.id));
    let seq = support::accounts::sequence(ledgers, &owner.id).unwrap();
    o.set(s.sequence, StValue::UInt32(seq));
    o.set(s.fee, StValue::Amount(Amount::Xrp(20)));
    o.set(
        s.signing_pub_key,
        StValue::Blob(owner.kp.public.as_bytes().to_vec()),
    );
    o
}

/// The blob of that LoanSet co-signed by the borrower (or with a forged co-signature)
/// and signed by the owner.
fn loan_blob(node: &Node, parties: (&Account, &Account), broker: Hash256, forge: bool) -> String {
    let s = sf();
    let (owner, borrower) = parties;
    let mut o = unsigned_loan(node, parties, broker);
    // The borrower signs behind `CPT\0`, as fixCleanup3_4_0 (ledgerd's book) asks.
    let [_, data] = ledgerd::protocol::tx::counterparty_signing_data(&o, None);
    let signed = if forge { b"not this".to_vec() } else { data };
    let mut sig = StObject::new();
    sig.set(
        s.signing_pub_key,
        StValue::Blob(borrower.kp.public.as_bytes().to_vec()),
    );
    sig.set(s.txn_signature, StValue::Blob(borrower.kp.sign(&signed)));
    o.set(s.counterparty_signature, StValue::Object(sig));
    support::payment::sign_object(&mut o, &owner.kp);
    hex::encode_upper(codec::encode(&o))
}

/// That LoanSet signed by the owner alone.
fn owner_signed(node: &Node, parties: (&Account, &Account), broker: Hash256) -> StObject {
    let mut o = unsigned_loan(node, parties, broker);
    support::payment::sign_object(&mut o, &parties.0.kp);
    o
}

/// The VaultID of `broker`.
fn vault_of(node: &Node, broker: &Hash256) -> String {
    let b = node.rpc("ledger_entry", json!({"index": broker.to_hex()}));
    b["node"]["VaultID"].as_str().expect("VaultID").to_string()
}

fn submit(node: &Node, blob: String) -> Value {
    node.rpc("submit", json!({ "tx_blob": blob }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cosigned_loan_is_submitted_read_and_listed() {
    let node = Node::start().await;
    let (owner, borrower) = (Account::new("alnOwner"), Account::new("alnBorrower"));
    let broker = broker_world(&node, &owner);
    node.fund(&borrower, 1000);
    let forged = submit(&node, loan_blob(&node, (&owner, &borrower), broker, true));
    assert_eq!(forged["error"], "invalidTransaction", "{forged}");
    assert_eq!(
        forged["error_exception"],
        "fails local checks: Counterparty: Invalid signature."
    );
    let r = submit(&node, loan_blob(&node, (&owner, &borrower), broker, false));
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    assert!(
        r["tx_json"]["CounterpartySignature"]["TxnSignature"].is_string(),
        "{r}"
    );
    node.close();

    let key = keylet::loan(&broker, 1);
    let by_index = node.rpc("ledger_entry", json!({"loan": key.to_hex()}));
    let l = &by_index["node"];
    assert_eq!(l["LedgerEntryType"], "Loan", "{by_index}");
    assert_eq!(l["Borrower"], borrower.id.to_address());
    assert_eq!(l["LoanBrokerID"], broker.to_hex());
    assert_eq!(l["PrincipalOutstanding"], "5000000");
    assert_eq!(l["TotalValueOutstanding"], "5000000");
    assert_eq!(l["PeriodicPayment"], "1666666.666666667");
    assert_eq!(l["PaymentRemaining"], 3);
    // The vault keeps cash-basis accounts (LEVersion 1): nothing booked but the debt.
    let vault = node.rpc("ledger_entry", json!({"index": vault_of(&node, &broker)}));
    assert_eq!(vault["node"]["LEVersion"], 1, "{vault}");
    assert_eq!(vault["node"]["AssetsTotal"], "100000000", "{vault}");
    let by_parts = node.rpc(
        "ledger_entry",
        json!({"loan": {"loan_broker_id": broker.to_hex(), "loan_seq": 1}}),
    );
    assert_eq!(by_parts["index"], key.to_hex(), "{by_parts}");

    let objects = node.rpc(
        "account_objects",
        json!({"account": borrower.id.to_address(), "type": "loan"}),
    );
    let list = objects["account_objects"].as_array().expect("objects");
    assert_eq!(list.len(), 1, "{objects}");
    assert_eq!(list[0]["index"], key.to_hex());
    let blockers = node.rpc(
        "account_objects",
        json!({"account": borrower.id.to_address(), "deletion_blockers_only": true}),
    );
    assert_eq!(
        blockers["account_objects"].as_array().map(Vec::len),
        Some(1),
        "{blockers}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loan_selector_refuses_malformed_parts() {
    let node = Node::start().await;
    let broker = Hash256([9; 32]).to_hex();
    let bad_broker = node.rpc(
        "ledger_entry",
        json!({"loan": {"loan_broker_id": "zz", "loan_seq": 1}}),
    );
    assert_eq!(error(&bad_broker).0, "malformedOwner", "{bad_broker}");
    let bad_seq = node.rpc(
        "ledger_entry",
        json!({"loan": {"loan_broker_id": broker, "loan_seq": "x"}}),
    );
    assert_eq!(error(&bad_seq).0, "malformedSeq", "{bad_seq}");
    let missing = node.rpc("ledger_entry", json!({"loan": {"loan_broker_id": broker}}));
    assert_eq!(error(&missing).0, "malformedRequest", "{missing}");
    let absent = node.rpc(
        "ledger_entry",
        json!({"loan": {"loan_broker_id": broker, "loan_seq": 1}}),
    );
    assert_eq!(error(&absent).0, "entryNotFound", "{absent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lending_protocol_is_reported_enabled() {
    let node = Node::start().await;
    let r = node.rpc("feature", json!({"feature": "LendingProtocol"}));
    let entry = r
        .as_object()
        .and_then(|o| o.values().next())
        .cloned()
        .unwrap_or_default();
    assert_eq!(entry["name"], "LendingProtocol", "{r}");
    assert_eq!(entry["enabled"], true, "{r}");
}

/// rippled's `sign` with `signature_target`: the borrower's key signs into the LoanSet's
/// CounterpartySignature, leaving the broker owner's signature; the blob then submits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_with_a_signature_target_co_signs_a_loan() {
    let node = Node::start().await;
    let (owner, borrower) = (Account::new("alnsOwner"), Account::new("alnsBorrower"));
    let broker = broker_world(&node, &owner);
    node.fund(&borrower, 1000);
    let tx_json = codec::to_json(&owner_signed(&node, (&owner, &borrower), broker));
    let bad = node.rpc(
        "sign",
        json!({"passphrase": "alnsBorrower", "signature_target": "Destination", "tx_json": tx_json.clone()}),
    );
    assert_eq!(error(&bad).0, "invalidParams", "{bad}");
    assert_eq!(error(&bad).2, "Destination");
    let r = node.rpc(
        "sign",
        json!({"passphrase": "alnsBorrower", "key_type": "secp256k1", "signature_target": "CounterpartySignature", "tx_json": tx_json.clone()}),
    );
    let cs = &r["tx_json"]["CounterpartySignature"];
    assert_eq!(
        cs["SigningPubKey"],
        hex::encode_upper(borrower.kp.public.as_bytes()),
        "{r}"
    );
    assert!(cs["TxnSignature"].is_string(), "{r}");
    assert_eq!(
        r["tx_json"]["TxnSignature"], tx_json["TxnSignature"],
        "the owner's signature stays"
    );
    let sign_for = node.rpc(
        "sign_for",
        json!({"account": borrower.id.to_address(), "passphrase": "alnsBorrower", "key_type": "secp256k1", "signature_target": "CounterpartySignature", "tx_json": tx_json.clone()}),
    );
    // The owner signed alone: a signer cannot be added beside it (rippled's order of
    // checks: `alreadySingleSig` before the target's Signers).
    assert_eq!(error(&sign_for).0, "alreadySingleSig", "{sign_for}");
    let blob = r["tx_blob"].as_str().expect("tx_blob").to_string();
    let sub = submit(&node, blob);
    assert_eq!(sub["engine_result"], "tesSUCCESS", "{sub}");
}
