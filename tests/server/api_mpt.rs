//! MPTs through the API, as xrpl.js's and xrpl-py's MPT integration tests read them back:
//! the `mpt_issuance_id` of a created issuance in the tx metadata, account_objects of
//! types `mpt_issuance` and `mptoken`, ledger_entry's `mpt_issuance` and `mptoken`
//! selectors with rippled's errors, and an MPT `delivered_amount`.

use crate::support;

use ledgerd::ledger::keylet;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;
use serde_json::{json, Value};
use support::engine::{Account, Tx};
use support::mpt::{pay_mpt, with_id};
use support::reply::error;
use support::server::Node;

fn objects(node: &Node, who: &Account, kind: &str) -> Vec<Value> {
    let r = node.rpc(
        "account_objects",
        json!({"account": who.id.to_address(), "type": kind}),
    );
    assert_eq!(r["status"], "success", "{r}");
    r["account_objects"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issuances_and_tokens_read_back_as_rippled_shows_them() {
    let node = Node::start().await;
    let (alice, bob) = (Account::new("alice"), Account::new("bob"));
    node.fund(&alice, 1000);
    node.fund(&bob, 1000);
    let create = Tx::new("MPTokenIssuanceCreate")
        .flags(0x24)
        .u8("AssetScale", 2)
        .blob("MPTokenMetadata", b"meta");
    let mut create = create;
    create.0.set(
        Field::named("MaximumAmount"),
        StValue::UInt64(9_223_372_036_854_775_807),
    );
    let info = node.rpc("account_info", json!({"account": alice.id.to_address()}));
    let seq = info["account_data"]["Sequence"].as_u64().unwrap() as u32;
    let create_hash = node.apply(&alice, create);
    let id = MptId::new(seq, &alice.id);
    node.apply(&bob, with_id(Tx::new("MPTokenAuthorize"), &id));
    node.apply(
        &alice,
        with_id(Tx::new("MPTokenAuthorize"), &id).account("Holder", &bob.id),
    );
    let pay_hash = node.apply(&alice, pay_mpt(&bob, &id, 100));
    // A partial payment limited by SendMax delivers 60 of 100.
    let mut partial = pay_mpt(&bob, &id, 100).flags(0x0002_0000);
    partial.0.set(
        Field::named("SendMax"),
        StValue::MptAmount(MptAmount::new(60, id)),
    );
    let partial_hash = node.apply(&alice, partial);
    node.close();
    let r = node.rpc("tx", json!({"transaction": partial_hash.to_hex()}));
    let sixty = json!({"mpt_issuance_id": id.to_hex(), "value": "60"});
    assert_eq!(r["meta"]["DeliveredAmount"], sixty, "{r}");
    assert_eq!(r["meta"]["delivered_amount"], sixty);

    // tx: the created issuance's ID in the metadata (v1 and v2).
    for v in [1, 2] {
        let r = node.rpc(
            "tx",
            json!({"transaction": create_hash.to_hex(), "api_version": v}),
        );
        assert_eq!(r["meta"]["TransactionResult"], "tesSUCCESS", "{r}");
        assert_eq!(r["meta"]["mpt_issuance_id"], id.to_hex());
    }
    let r = node.rpc("tx", json!({"transaction": pay_hash.to_hex()}));
    assert_eq!(
        r["meta"]["delivered_amount"],
        json!({"mpt_issuance_id": id.to_hex(), "value": "100"})
    );
    assert_eq!(
        r["Amount"],
        json!({"mpt_issuance_id": id.to_hex(), "value": "100"})
    );
    assert!(r["meta"].get("mpt_issuance_id").is_none());

    // account_objects by type.
    let iss = objects(&node, &alice, "mpt_issuance");
    assert_eq!(iss.len(), 1);
    assert_eq!(iss[0]["LedgerEntryType"], "MPTokenIssuance");
    assert_eq!(iss[0]["MaximumAmount"], "9223372036854775807");
    assert_eq!(iss[0]["OutstandingAmount"], "160");
    assert_eq!(iss[0]["AssetScale"], 2);
    assert_eq!(iss[0]["Flags"], 0x24);
    assert_eq!(iss[0]["Issuer"], alice.id.to_address());
    assert_eq!(iss[0]["mpt_issuance_id"], id.to_hex());
    assert_eq!(iss[0]["index"], keylet::mpt_issuance(&id).to_hex());
    assert!(objects(&node, &alice, "mptoken").is_empty());
    let toks = objects(&node, &bob, "mptoken");
    assert_eq!(toks.len(), 1);
    assert_eq!(toks[0]["MPTokenIssuanceID"], id.to_hex());
    assert_eq!(toks[0]["MPTAmount"], "160");
    assert_eq!(toks[0]["Flags"], 2, "lsfMPTAuthorized");
    assert_eq!(toks[0]["Account"], bob.id.to_address());
    // Both block AccountDelete.
    let r = node.rpc(
        "account_objects",
        json!({"account": bob.id.to_address(), "deletion_blockers_only": true}),
    );
    assert_eq!(r["account_objects"].as_array().unwrap().len(), 1);

    // ledger_entry: the issuance by MPTID, the token by ID and account or by index.
    let r = node.rpc("ledger_entry", json!({"mpt_issuance": id.to_hex()}));
    assert_eq!(r["index"], keylet::mpt_issuance(&id).to_hex(), "{r}");
    assert_eq!(r["node"]["OutstandingAmount"], "160");
    let token_key = keylet::mptoken(&id, &bob.id).to_hex();
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": id.to_hex(), "account": bob.id.to_address()}}),
    );
    assert_eq!(r["index"], token_key, "{r}");
    assert_eq!(r["node"]["MPTAmount"], "160");
    let r = node.rpc("ledger_entry", json!({"mptoken": token_key}));
    assert_eq!(r["node"]["LedgerEntryType"], "MPToken");
    let r = node.rpc(
        "ledger_entry",
        json!({"mpt_issuance": id.to_hex(), "binary": true}),
    );
    let blob = hex::decode(r["node_binary"].as_str().unwrap()).unwrap();
    let decoded = ledgerd::protocol::codec::decode(&blob).unwrap();
    assert_eq!(decoded.get_u64("OutstandingAmount"), Some(160));

    // Errors, as rippled's parsers give them.
    let r = node.rpc("ledger_entry", json!({"mpt_issuance": "ABCD"}));
    assert_eq!(
        error(&r),
        (
            "malformedMPTokenIssuance",
            31,
            "Invalid field 'mpt_issuance', not Hash192."
        )
    );
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"account": bob.id.to_address()}}),
    );
    assert_eq!(error(&r).0, "malformedRequest");
    assert_eq!(error(&r).2, "Missing field 'mpt_issuance_id'.");
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": "12", "account": bob.id.to_address()}}),
    );
    assert_eq!(error(&r).0, "malformedMPTIssuanceID");
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": id.to_hex(), "account": "nobody"}}),
    );
    assert_eq!(error(&r).0, "malformedAccount");
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": id.to_hex(), "account": alice.id.to_address()}}),
    );
    assert_eq!(error(&r).0, "entryNotFound");
    let r = node.rpc(
        "ledger_entry",
        json!({"mptoken": keylet::mpt_issuance(&id).to_hex()}),
    );
    assert_eq!(error(&r).0, "unexpectedLedgerType");
    let missing = MptId::new(999, &alice.id);
    let r = node.rpc("ledger_entry", json!({"mpt_issuance": missing.to_hex()}));
    assert_eq!(error(&r).0, "entryNotFound");
}

/// Signing and submitting: an MPT Payment signs and applies from tx_json; build_path is
/// refused for it; an MPT amount where a template does not allow one fails rippled's
/// local checks ("Amount can not be MPT."): invalidParams from tx_json,
/// invalidTransaction from a signed blob.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mpt_amounts_through_sign_and_submit() {
    let node = Node::start().await;
    let (alice, bob) = (Account::new("alice"), Account::new("bob"));
    node.fund(&alice, 1000);
    node.fund(&bob, 1000);
    let info = node.rpc("account_info", json!({"account": alice.id.to_address()}));
    let seq = info["account_data"]["Sequence"].as_u64().unwrap() as u32;
    node.apply(&alice, Tx::new("MPTokenIssuanceCreate"));
    let id = MptId::new(seq, &alice.id);
    node.apply(&bob, with_id(Tx::new("MPTokenAuthorize"), &id));
    let mpt = json!({"mpt_issuance_id": id.to_hex(), "value": "25"});
    let payment = json!({"TransactionType": "Payment", "Account": alice.id.to_address(),
                         "Destination": bob.id.to_address(), "Amount": mpt});
    let r = node.rpc(
        "submit",
        json!({"secret": "alice", "tx_json": payment.clone()}),
    );
    assert_eq!(r["engine_result"], "tesSUCCESS", "{r}");
    assert_eq!(r["tx_json"]["Amount"], mpt);
    let r = node.rpc(
        "sign",
        json!({"secret": "alice", "tx_json": payment, "build_path": true}),
    );
    assert_eq!(
        error(&r),
        (
            "invalidParams",
            31,
            "Field 'build_path' not allowed in this context."
        )
    );
    let offer = json!({"TransactionType": "OfferCreate", "Account": bob.id.to_address(),
                       "TakerPays": mpt, "TakerGets": "1000000"});
    for method in ["sign", "submit"] {
        let r = node.rpc(method, json!({"secret": "bob", "tx_json": offer.clone()}));
        assert_eq!(
            error(&r),
            ("invalidParams", 31, "Amount can not be MPT."),
            "{method}"
        );
    }
    // A signed blob: rejected before the engine sees it.
    let mut tx = Tx::new("OfferCreate");
    tx.0.set(
        Field::named("TakerPays"),
        StValue::MptAmount(MptAmount::new(25, id)),
    );
    tx = tx.amount("TakerGets", support::engine::xrp(1));
    let seq = node.rpc("account_info", json!({"account": bob.id.to_address()}))["account_data"]
        ["Sequence"]
        .as_u64()
        .unwrap() as u32;
    let signed = tx.signed(&bob.id, seq, 10, &bob.kp);
    let blob = hex::encode_upper(ledgerd::protocol::codec::encode(&signed));
    let r = node.rpc("submit", json!({"tx_blob": blob}));
    assert_eq!(error(&r).0, "invalidTransaction", "{r}");
    assert_eq!(
        r["error_exception"],
        "fails local checks: Amount can not be MPT."
    );
}

/// DynamicMPT through JSON: ImmutableFlags and the tfMPTSet* flags in `submit`'s tx_json,
/// the issuance's ImmutableFlags, Flags, TransferFee and metadata in account_objects and
/// ledger_entry, a refused change answered `tecNO_PERMISSION`, and `feature` reporting
/// DynamicMPT enabled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamic_mpt_through_submit_and_reads() {
    let node = Node::start().await;
    let alice = Account::new("alice");
    node.fund(&alice, 1000);
    let addr = alice.id.to_address();
    let submit = |tx: Value| {
        let r = node.rpc("submit", json!({"secret": "alice", "tx_json": tx}));
        r["engine_result"].as_str().unwrap_or("").to_string()
    };
    let create = json!({"TransactionType": "MPTokenIssuanceCreate", "Account": addr,
                        "MPTokenMetadata": "AB", "ImmutableFlags": 0x0001_0002});
    assert_eq!(submit(create), "tesSUCCESS");
    node.close();
    let iss = objects(&node, &alice, "mpt_issuance").pop().unwrap();
    assert_eq!(iss["ImmutableFlags"], 0x0001_0002, "{iss}");
    let id = iss["mpt_issuance_id"].as_str().unwrap().to_string();
    let set = |extra: Value| {
        let mut tx = json!({"TransactionType": "MPTokenIssuanceSet", "Account": addr,
                            "MPTokenIssuanceID": id});
        tx.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        tx
    };
    // tfMPTSetCanLock against tifMPTCanLock; metadata against tifMPTMetadata.
    assert_eq!(submit(set(json!({"Flags": 4}))), "tecNO_PERMISSION");
    assert_eq!(
        submit(set(json!({"MPTokenMetadata": "CD"}))),
        "tecNO_PERMISSION"
    );
    assert_eq!(
        submit(set(json!({"ImmutableFlags": 0x0008_0000}))),
        "temINVALID_FLAG"
    );
    // tfMPTSetCanTransfer with a fee, then the fee frozen.
    let r = submit(set(
        json!({"Flags": 0x40, "TransferFee": 700, "ImmutableFlags": 0x0002_0000}),
    ));
    assert_eq!(r, "tesSUCCESS");
    node.close();
    let entry = node.rpc("ledger_entry", json!({"mpt_issuance": id}));
    let node_json = &entry["node"];
    assert_eq!(node_json["Flags"], 0x20, "{entry}");
    assert_eq!(node_json["TransferFee"], 700);
    assert_eq!(node_json["ImmutableFlags"], 0x0003_0002);
    assert_eq!(node_json["MPTokenMetadata"], "AB");
    assert_eq!(submit(set(json!({"TransferFee": 0}))), "tecNO_PERMISSION");
    let feature = node.rpc("feature", json!({"feature": "DynamicMPT"}));
    let enabled = feature
        .as_object()
        .unwrap()
        .values()
        .find_map(|v| v.get("enabled"));
    assert_eq!(enabled, Some(&json!(true)), "{feature}");
}
