//! Sponsor (XLS-68) through the API: `ledger_entry`'s `sponsorship` selector
//! (`{sponsor, sponsee}` or an index, with rippled's `LedgerEntry.cpp` errors) and
//! `account_objects`' `type: "sponsorship"` filter and `sponsored` partition, on empty
//! accounts and on a served Sponsorship with an object it carries (the entry's rules are
//! the engine's stories, `tests/engine/sponsor_*.rs`); the sponsor's co-signature made by
//! `sign` and `sign_for` with `signature_target: "SponsorSignature"` and submitted.

use crate::support;

use ledgerd::engine::sponsor::SPF_SPONSOR_RESERVE;
use ledgerd::ledger::keylet;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::PublicKey;
use ledgerd::protocol::sign::verify;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::tx::{signing_data, sponsor_signing_data};
use serde_json::{json, Value};
use support::engine::{check_create, signer_list, xrp, Account, Tx};
use support::reply::error;
use support::server::Node;
use support::sponsor::SponsorTx;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ledger_entry_sponsorship_selector() {
    let node = Node::start().await;
    let [alice, bob] = ["spAlice", "spBob"].map(Account::new);
    for a in [&alice, &bob] {
        node.fund(a, 1000);
    }
    let (a, b) = (alice.id.to_address(), bob.id.to_address());
    let cases = [
        (json!({"sponsee": b}), "malformedRequest"),
        (json!({"sponsor": a}), "malformedRequest"),
        (json!({"sponsor": a, "sponsee": "rBad"}), "malformedAddress"),
        (json!({"sponsor": 5, "sponsee": b}), "malformedAddress"),
        (json!("zz"), "malformedRequest"),
        (json!(7), "malformedRequest"),
        // Well formed, and nothing there.
        (json!({"sponsor": a, "sponsee": b}), "entryNotFound"),
        (
            json!(keylet::sponsorship(&alice.id, &bob.id).to_hex()),
            "entryNotFound",
        ),
    ];
    for (v, want) in cases {
        let r = node.rpc("ledger_entry", json!({"sponsorship": v}));
        assert_eq!(error(&r).0, want, "{v}: {r}");
    }
    let r = node.rpc("ledger_entry", json!({"sponsorship": {"sponsor": a}}));
    assert_eq!(error(&r).2, "Missing field 'sponsee'.", "{r}");
    // The index selector of another type's key: found, and not a Sponsorship.
    let root = keylet::account(&alice.id).to_hex();
    let r = node.rpc("ledger_entry", json!({"sponsorship": root}));
    assert_eq!(error(&r).0, "unexpectedLedgerType", "{r}");
}

fn objects(node: &Node, params: Value) -> Value {
    node.rpc("account_objects", params)
}

fn count(r: &Value) -> usize {
    r["account_objects"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_objects_sponsorship_filters() {
    let node = Node::start().await;
    let [alice, bob] = ["spAlice2", "spBob2"].map(Account::new);
    for a in [&alice, &bob] {
        node.fund(a, 1000);
    }
    node.apply(&alice, check_create(&bob, xrp(5)));
    node.apply(&alice, check_create(&bob, xrp(6)));
    node.close();
    let a = alice.id.to_address();
    let all = objects(&node, json!({"account": a}));
    assert_eq!(count(&all), 2, "{all}");
    // A valid type filter; nobody sponsors alice yet.
    for t in ["sponsorship", "Sponsorship"] {
        let r = objects(&node, json!({"account": a, "type": t}));
        assert!(r.get("error").is_none(), "{r}");
        assert_eq!(count(&r), 0, "{r}");
    }
    // `sponsored` partitions the owned objects: none carries a Sponsor.
    let r = objects(&node, json!({"account": a, "sponsored": true}));
    assert_eq!(count(&r), 0, "{r}");
    let r = objects(&node, json!({"account": a, "sponsored": false}));
    assert_eq!(count(&r), 2, "{r}");
    assert!(r["account_objects"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o.get("Sponsor").is_none()));
    let r = objects(
        &node,
        json!({"account": a, "sponsored": false, "type": "check", "limit": 10}),
    );
    assert_eq!(count(&r), 2, "{r}");
    let r = objects(&node, json!({"account": a, "sponsored": "yes"}));
    let (token, _, message) = error(&r);
    assert_eq!(token, "invalidParams", "{r}");
    assert_eq!(message, "Invalid field 'sponsored', not bool.");
}

/// A SponsorshipSet by `sponsor` for `sponsee`: 10 XRP of fees and two owner counts.
fn prefund(sponsee: &Account) -> Tx {
    let mut tx = Tx::new("SponsorshipSet")
        .account("Sponsee", &sponsee.id)
        .amount("FeeAmountDelta", xrp(10));
    tx.0.set(Field::named("RemainingOwnerCountDelta"), StValue::Int32(2));
    tx
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_sponsorship_and_the_object_it_carries() {
    let node = Node::start().await;
    let [alice, bob, carol] = ["spAlice3", "spBob3", "spCarol3"].map(Account::new);
    for a in [&alice, &bob, &carol] {
        node.fund(a, 1000);
    }
    node.apply(&alice, prefund(&bob));
    node.close();
    let (a, b) = (alice.id.to_address(), bob.id.to_address());
    let r = node.rpc(
        "ledger_entry",
        json!({"sponsorship": {"sponsor": a, "sponsee": b}, "ledger_index": "validated"}),
    );
    let entry = &r["node"];
    assert_eq!(entry["LedgerEntryType"], "Sponsorship", "{r}");
    assert_eq!((&entry["Owner"], &entry["Sponsee"]), (&json!(a), &json!(b)));
    assert_eq!(entry["FeeAmount"], "10000000", "{r}");
    assert_eq!(entry["RemainingOwnerCount"], 2, "{r}");
    let by_index = node.rpc(
        "ledger_entry",
        json!({"sponsorship": keylet::sponsorship(&alice.id, &bob.id).to_hex()}),
    );
    assert_eq!(by_index["node"], *entry, "{by_index}");
    // Both sides list it.
    for who in [&a, &b] {
        let r = objects(&node, json!({"account": who, "type": "sponsorship"}));
        assert_eq!(count(&r), 1, "{who}: {r}");
    }
    // bob's check, its reserve carried by alice's Sponsorship.
    node.apply(
        &bob,
        check_create(&carol, xrp(5)).sponsor(&alice, SPF_SPONSOR_RESERVE),
    );
    node.apply(&bob, check_create(&carol, xrp(6)));
    node.close();
    // Two checks: the Sponsorship counts toward its sponsor's OwnerCount only.
    let info = node.rpc("account_info", json!({"account": b}));
    let root = &info["account_data"];
    assert_eq!(
        (&root["OwnerCount"], &root["SponsoredOwnerCount"]),
        (&json!(2), &json!(1))
    );
    let info = node.rpc("account_info", json!({"account": a}));
    assert_eq!(info["account_data"]["SponsoringOwnerCount"], 1, "{info}");
    let sponsored = objects(&node, json!({"account": b, "sponsored": true}));
    assert_eq!(count(&sponsored), 1, "{sponsored}");
    assert_eq!(sponsored["account_objects"][0]["Sponsor"], a, "{sponsored}");
    assert_eq!(sponsored["account_objects"][0]["SendMax"], "5000000");
    let own = objects(&node, json!({"account": b, "sponsored": false}));
    // The other check and the Sponsorship, which is never "sponsored".
    assert_eq!(count(&own), 2, "{own}");
    let r = node.rpc(
        "ledger_entry",
        json!({"sponsorship": {"sponsor": a, "sponsee": b}}),
    );
    assert_eq!(r["node"]["RemainingOwnerCount"], 1, "{r}");
}

/// A signed reply's tx_json, without the `hash` (v1) a request's tx_json cannot carry.
fn tx_json_of(r: &Value) -> Value {
    let mut t = r["tx_json"].clone();
    t.as_object_mut().expect("tx_json").remove("hash");
    t
}

/// `who`'s balance in the open ledger, in drops.
fn balance(node: &Node, who: &Account) -> u64 {
    let r = node.rpc(
        "account_info",
        json!({"account": who.id.to_address(), "ledger_index": "current"}),
    );
    r["account_data"]["Balance"]
        .as_str()
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("{r}"))
}

/// A TrustSet by `sponsee` to `gw` whose fee `sponsor` pays.
fn fee_sponsored_line(sponsee: &Account, sponsor: &Account, gw: &Account) -> Value {
    json!({
        "TransactionType": "TrustSet",
        "Account": sponsee.id.to_address(),
        "LimitAmount": {"currency": "USD", "issuer": gw.id.to_address(), "value": "100"},
        "Sponsor": sponsor.id.to_address(),
        "SponsorFlags": 1,
    })
}

/// `method` with `name`'s passphrase (secp256k1) and these parameters.
fn signed_by(node: &Node, method: &str, name: &str, mut params: Value) -> Value {
    params["passphrase"] = json!(name);
    params["key_type"] = json!("secp256k1");
    node.rpc(method, params)
}

/// rippled's `sign` with `signature_target: "SponsorSignature"`: the sponsee signs its
/// TrustSet first, then the sponsor's key signs into the SponsorSignature over the
/// transaction's body behind the sponsor's prefix (`SPN\0`: fixCleanup3_4_0 is in ledgerd's book), the sponsee's
/// signature kept; the blob submits and the sponsor pays the fee.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_with_the_sponsor_signature_target() {
    let node = Node::start().await;
    let [sponsor, sponsee, gw] = ["spsSponsor", "spsSponsee", "spsGw"].map(Account::new);
    for a in [&sponsor, &sponsee, &gw] {
        node.fund(a, 1000);
    }
    let line = fee_sponsored_line(&sponsee, &sponsor, &gw);
    let mine = signed_by(&node, "sign", "spsSponsee", json!({"tx_json": line}));
    let signed = tx_json_of(&mine);
    assert!(signed["TxnSignature"].is_string(), "{mine}");
    // A field that holds no signature: rippled's error names it.
    let bad = signed_by(
        &node,
        "sign",
        "spsSponsor",
        json!({"signature_target": "Sponsor", "tx_json": signed.clone()}),
    );
    assert_eq!(error(&bad).0, "invalidParams", "{bad}");
    assert_eq!(error(&bad).2, "Sponsor");
    // Before the sponsee's signature the transaction does not verify.
    let mut unsigned = signed.clone();
    unsigned.as_object_mut().map(|o| o.remove("TxnSignature"));
    let early = signed_by(
        &node,
        "sign",
        "spsSponsor",
        json!({"signature_target": "SponsorSignature", "tx_json": unsigned}),
    );
    assert_eq!(error(&early).0, "internal", "{early}");
    assert_eq!(error(&early).2, "Invalid signature.");

    let r = signed_by(
        &node,
        "sign",
        "spsSponsor",
        json!({"signature_target": "SponsorSignature", "tx_json": signed.clone()}),
    );
    let ss = &r["tx_json"]["SponsorSignature"];
    let key = hex::encode_upper(sponsor.kp.public.as_bytes());
    assert_eq!(ss["SigningPubKey"], key, "{r}");
    assert_eq!(r["tx_json"]["TxnSignature"], signed["TxnSignature"], "{r}");
    let tx = codec::from_json(&tx_json_of(&r)).expect("signed tx_json");
    let sig = hex::decode(ss["TxnSignature"].as_str().expect("TxnSignature")).expect("hex");
    let pk = PublicKey::from_slice(sponsor.kp.public.as_bytes()).expect("key");
    // The open ledger has fixCleanup3_4_0 (ledgerd's book): the sponsor's own prefix.
    let [_, spn] = sponsor_signing_data(&tx, None);
    assert!(verify(&pk, &spn, &sig, true), "over SPN");
    assert!(!verify(&pk, &signing_data(&tx), &sig, true), "not over STX");

    let (sponsor_before, sponsee_before) = (balance(&node, &sponsor), balance(&node, &sponsee));
    let sub = node.rpc("submit", json!({"tx_blob": r["tx_blob"]}));
    assert_eq!(sub["engine_result"], "tesSUCCESS", "{sub}");
    let fee: u64 = signed["Fee"]
        .as_str()
        .and_then(|f| f.parse().ok())
        .expect("Fee");
    assert_eq!(
        balance(&node, &sponsee),
        sponsee_before,
        "the sponsee pays nothing"
    );
    assert_eq!(
        balance(&node, &sponsor),
        sponsor_before - fee,
        "the sponsor pays {fee}"
    );
}

/// rippled's `sign_for` with `signature_target: "SponsorSignature"`: the sponsee's signer
/// signs the transaction, then each of the sponsor's two signers adds a Signer to the
/// SponsorSignature (its SigningPubKey empty); `submit_multisigned` applies it and the
/// sponsor pays the fee. A single-signed transaction is refused (`alreadySingleSig`), and
/// the transaction's own Account may not sign for its sponsor.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_for_into_a_multi_signed_sponsor_signature() {
    let node = Node::start().await;
    let [sponsor, sponsee, gw] = ["spmSponsor", "spmSponsee", "spmGw"].map(Account::new);
    let [s1, q1, q2] = ["spmS1", "spmQ1", "spmQ2"].map(Account::new);
    for a in [&sponsor, &sponsee, &gw] {
        node.fund(a, 1000);
    }
    node.apply(&sponsee, signer_list(1, &[(&s1, 1)]));
    node.apply(&sponsor, signer_list(2, &[(&q1, 1), (&q2, 1)]));
    node.close();
    let info = node.rpc("account_info", json!({"account": sponsee.id.to_address()}));
    let mut line = fee_sponsored_line(&sponsee, &sponsor, &gw);
    line["Sequence"] = info["account_data"]["Sequence"].clone();
    line["Fee"] = json!("100");

    let target = |name: &str, who: &Account, tx_json: Value| {
        let params = json!({"account": who.id.to_address(), "signature_target": "SponsorSignature", "tx_json": tx_json});
        signed_by(&node, "sign_for", name, params)
    };
    let single = signed_by(
        &node,
        "sign",
        "spmSponsee",
        json!({"tx_json": line.clone()}),
    );
    let refused = target("spmQ1", &q1, tx_json_of(&single));
    assert_eq!(error(&refused).0, "alreadySingleSig", "{refused}");

    let params = json!({"account": s1.id.to_address(), "tx_json": line});
    let root = tx_json_of(&signed_by(&node, "sign_for", "spmS1", params));
    let own = target("spmSponsee", &sponsee, root.clone());
    assert_eq!(error(&own).0, "invalidParams", "{own}");
    let one = tx_json_of(&target("spmQ2", &q2, root.clone()));
    let both = target("spmQ1", &q1, one);
    let ss = &both["tx_json"]["SponsorSignature"];
    assert_eq!(ss["SigningPubKey"], "", "{both}");
    let signers: Vec<_> = ss["Signers"]
        .as_array()
        .expect("Signers")
        .iter()
        .map(|s| s["Signer"]["Account"].clone())
        .collect();
    let mut want = [q1.id, q2.id];
    want.sort();
    let want: Vec<Value> = want.iter().map(|a| json!(a.to_address())).collect();
    assert_eq!(signers, want, "sorted: {both}");
    assert_eq!(
        both["tx_json"]["Signers"], root["Signers"],
        "the sponsee's signer stays"
    );

    let (sponsor_before, sponsee_before) = (balance(&node, &sponsor), balance(&node, &sponsee));
    let sub = node.rpc("submit_multisigned", json!({"tx_json": tx_json_of(&both)}));
    assert_eq!(sub["engine_result"], "tesSUCCESS", "{sub}");
    assert_eq!(balance(&node, &sponsee), sponsee_before);
    assert_eq!(balance(&node, &sponsor), sponsor_before - 100);
}
