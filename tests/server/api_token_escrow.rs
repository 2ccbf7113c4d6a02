//! Token escrows through the API: account_info's `allowTrustLineLocking`, an issued
//! currency escrow listed in its issuer's account_objects (as rippled puts it in the
//! issuer's directory) with its `IssuerNode` and the `TransferRate` recorded at creation
//! and summed in the issuer's gateway_balances `locked`,
//! an MPT escrow's `LockedAmount` on the MPToken and the issuance through ledger_entry,
//! and `feature` reporting TokenEscrow and fixTokenEscrowV1 enabled.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::sf;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;
use serde_json::{json, Value};
use support::engine::{fset, pay, trust, Account, Tx};
use support::server::Node;

fn flags_of(node: &Node, who: &Account) -> Value {
    node.rpc("account_info", json!({"account": who.id.to_address()}))["account_flags"].clone()
}

fn timed(node: &Node, tx: Tx) -> Tx {
    let now = node.now.load(std::sync::atomic::Ordering::SeqCst);
    tx.u32("FinishAfter", now + 100)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_issued_currency_escrow_shows_in_the_issuers_objects() {
    let node = Node::start().await;
    let (alice, bob, gw) = (
        Account::new("teAlice"),
        Account::new("teBob"),
        Account::new("teGw"),
    );
    for who in [&alice, &bob, &gw] {
        node.fund(who, 1000);
    }
    node.close();
    assert_eq!(flags_of(&node, &gw)["allowTrustLineLocking"], false);
    node.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING));
    node.apply(
        &gw,
        Tx::new("AccountSet").u32("TransferRate", 1_200_000_000),
    );
    node.apply(&alice, trust(gw.iou("USD", 1000)));
    node.close();
    node.apply(&gw, pay(&alice, gw.iou("USD", 500)));
    node.close();
    assert_eq!(flags_of(&node, &gw)["allowTrustLineLocking"], true);
    let create = Tx::new("EscrowCreate")
        .account("Destination", &bob.id)
        .amount("Amount", gw.iou("USD", 120));
    node.apply(&alice, timed(&node, create));
    node.close();
    let objects = node.rpc(
        "account_objects",
        json!({"account": gw.id.to_address(), "type": "escrow"}),
    );
    let list = objects["account_objects"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(list.len(), 1, "{objects}");
    let e = &list[0];
    assert_eq!(e["Amount"]["value"], "120", "{e}");
    assert_eq!(e["TransferRate"], 1_200_000_000, "{e}");
    assert_eq!(e["IssuerNode"], "0", "{e}");
    assert_eq!(e["Account"], alice.id.to_address(), "{e}");
    let lines = node.rpc("account_lines", json!({"account": alice.id.to_address()}));
    assert_eq!(lines["lines"][0]["balance"], "380", "{lines}");
    // gateway_balances: the escrowed 120 are locked, no longer an obligation.
    let gb = node.rpc("gateway_balances", json!({"account": gw.id.to_address()}));
    assert_eq!(gb["locked"], json!({"USD": "120"}), "{gb}");
    assert_eq!(gb["obligations"]["USD"], "380", "{gb}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mpt_escrow_shows_its_locked_amounts() {
    let node = Node::start().await;
    let (alice, bob, gw) = (
        Account::new("tmAlice"),
        Account::new("tmBob"),
        Account::new("tmGw"),
    );
    for who in [&alice, &bob, &gw] {
        node.fund(who, 1000);
    }
    node.close();
    let ledgers = &node.state().node.ledgers;
    let seq = support::accounts::sequence(ledgers, &gw.id).unwrap();
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRANSFER;
    node.apply(&gw, Tx::new("MPTokenIssuanceCreate").flags(flags));
    node.close();
    let id = MptId::new(seq, &gw.id);
    let mut opt_in = Tx::new("MPTokenAuthorize");
    opt_in.0.set(
        Field::named("MPTokenIssuanceID"),
        StValue::Fixed(id.0.to_vec()),
    );
    node.apply(&alice, opt_in);
    node.close();
    let mut issue = Tx::new("Payment").account("Destination", &alice.id);
    issue
        .0
        .set(sf().amount, StValue::MptAmount(MptAmount::new(900, id)));
    node.apply(&gw, issue);
    node.close();
    let mut create = Tx::new("EscrowCreate").account("Destination", &bob.id);
    create
        .0
        .set(sf().amount, StValue::MptAmount(MptAmount::new(250, id)));
    node.apply(&alice, timed(&node, create));
    node.close();
    let token = node.rpc(
        "ledger_entry",
        json!({"index": keylet::mptoken(&id, &alice.id).to_hex()}),
    );
    assert_eq!(token["node"]["MPTAmount"], "650", "{token}");
    assert_eq!(token["node"]["LockedAmount"], "250", "{token}");
    let issuance = node.rpc("ledger_entry", json!({"mpt_issuance": id.to_hex()}));
    assert_eq!(issuance["node"]["LockedAmount"], "250", "{issuance}");
    assert_eq!(issuance["node"]["OutstandingAmount"], "900", "{issuance}");
    let objects = node.rpc(
        "account_objects",
        json!({"account": bob.id.to_address(), "type": "escrow"}),
    );
    let e = &objects["account_objects"][0];
    assert_eq!(e["Amount"]["mpt_issuance_id"], id.to_hex(), "{objects}");
    assert_eq!(e["Amount"]["value"], "250", "{objects}");
    assert!(e.get("IssuerNode").is_none(), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_escrow_is_reported_enabled() {
    let node = Node::start().await;
    for name in ["TokenEscrow", "fixTokenEscrowV1"] {
        let r = node.rpc("feature", json!({"feature": name}));
        let entry = r
            .as_object()
            .and_then(|o| o.values().next())
            .cloned()
            .unwrap_or_default();
        assert_eq!(entry["name"], name, "{r}");
        assert_eq!(entry["enabled"], true, "{r}");
    }
}
