//! account_info, account_lines, account_channels, account_objects and ledger_entry over
//! HTTP and WebSocket: success shapes and every error rippled gives.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::ledger::keylet;
use ledgerd::ledger::view::ReadView;
use serde_json::{json, Value};
use support::engine::{authorize, fset, pay, trust, xrp, Account, Tx};
use support::reply::error;
use support::server::Node;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_info_shapes_and_errors() {
    let node = Node::start().await;
    let alice = Account::new("alice");
    node.fund(&alice, 1000);
    node.apply(&alice, fset(asf::REQUIRE_AUTH));
    let closed = node.close();

    // Open ledger (default), v1 over HTTP.
    let r = node.rpc("account_info", json!({"account": alice.id.to_address()}));
    assert_eq!(r["status"], "success");
    let d = &r["account_data"];
    assert_eq!(d["Account"], alice.id.to_address());
    assert_eq!(d["Balance"], "999999990");
    assert_eq!(d["LedgerEntryType"], "AccountRoot");
    let seq = node
        .state()
        .node
        .ledgers
        .current()
        .view
        .read(&keylet::account(&alice.id))
        .unwrap();
    assert_eq!(
        d["Sequence"],
        ledgerd::ledger::sf::StExt::u32_of(&*seq, ledgerd::ledger::sf::sf().sequence).unwrap()
    );
    assert_eq!(d["OwnerCount"], 0);
    assert_eq!(d["index"], keylet::account(&alice.id).to_hex());
    assert!(d["Flags"].as_u64().unwrap() & 0x0004_0000 != 0);
    assert_eq!(r["account_flags"]["requireAuthorization"], true);
    assert_eq!(r["account_flags"]["defaultRipple"], false);
    assert_eq!(r["account_flags"].as_object().unwrap().len(), 15);
    assert_eq!(r["ledger_current_index"], closed + 1);
    assert_eq!(r["validated"], false);
    assert!(r.get("ledger_hash").is_none());

    // Validated ledger by name and by number; v2 signer_lists at root.
    let r = node
        .ws(
            "account_info",
            json!({"account": alice.id.to_address(), "ledger_index": "validated",
                   "signer_lists": true, "api_version": 2}),
        )
        .await;
    assert_eq!(r["status"], "success");
    let res = &r["result"];
    assert_eq!(res["ledger_index"], closed);
    assert_eq!(res["validated"], true);
    assert_eq!(
        res["ledger_hash"],
        node.state()
            .node
            .ledgers
            .by_seq(closed)
            .unwrap()
            .ledger
            .unwrap()
            .header
            .hash
            .to_hex()
    );
    assert_eq!(res["signer_lists"], json!([]));
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_index": closed.to_string(), "signer_lists": true}),
    );
    assert_eq!(r["account_data"]["signer_lists"], json!([]));
    assert_eq!(r["ledger_index"], closed);

    // Errors.
    let r = node.rpc("account_info", json!({}));
    assert_eq!(error(&r), ("invalidParams", 31, "Missing field 'account'."));
    let r = node.rpc("account_info", json!({"account": 5}));
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid field 'account'."));
    let r = node.rpc("account_info", json!({"account": "rNotAnAddress"}));
    assert_eq!(error(&r), ("actMalformed", 35, "Account malformed."));
    assert_eq!(r["ledger_current_index"], closed + 1);
    assert_eq!(r["validated"], false);
    let nobody = Account::new("nobody");
    let r = node.rpc(
        "account_info",
        json!({"account": nobody.id.to_address(), "ledger_index": "validated"}),
    );
    assert_eq!(error(&r), ("actNotFound", 19, "Account not found."));
    assert_eq!(r["account"], nobody.id.to_address());
    assert_eq!(r["ledger_index"], closed);
    assert_eq!(r["validated"], true);
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_index": 99999}),
    );
    assert_eq!(error(&r), ("lgrNotFound", 21, "ledgerNotFound"));
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_index": "nope"}),
    );
    assert_eq!(error(&r), ("invalidParams", 31, "ledgerIndexMalformed"));
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_index": 1.5}),
    );
    assert_eq!(
        error(&r),
        ("invalidParams", 31, "Invalid field 'ledger_index'.")
    );
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_hash": "ABC"}),
    );
    assert_eq!(error(&r), ("invalidParams", 31, "ledgerHashMalformed"));
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_hash": "00".repeat(32)}),
    );
    assert_eq!(error(&r), ("lgrNotFound", 21, "ledgerNotFound"));
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_hash": "00".repeat(32), "ledger_index": 3}),
    );
    assert_eq!(
        error(&r),
        (
            "invalidParams",
            31,
            "Exactly one of 'ledger_hash' or 'ledger_index' can be specified."
        )
    );
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger_index": "closed", "queue": true}),
    );
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid parameters."));
    assert_eq!(r["ledger_index"], closed);
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "queue": true}),
    );
    assert_eq!(r["queue_data"]["txn_count"], 0);
    let r = node
        .ws(
            "account_info",
            json!({"account": alice.id.to_address(), "signer_lists": "yes", "api_version": 2}),
        )
        .await;
    assert_eq!(r["error"], "invalidParams");
    assert_eq!(r["status"], "error");
    // v1 accepts a non-boolean signer_lists.
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "signer_lists": "yes"}),
    );
    assert_eq!(r["status"], "success");
    // The legacy `ledger` field.
    let r = node.rpc(
        "account_info",
        json!({"account": alice.id.to_address(), "ledger": closed}),
    );
    assert_eq!(r["ledger_index"], closed);
    node.running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_lines_authorized_both_sides_and_paging() {
    let node = Node::start().await;
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    node.fund(&gw, 10_000);
    node.fund(&alice, 1000);
    node.apply(&gw, fset(asf::REQUIRE_AUTH));
    node.apply(&alice, trust(gw.iou("USD", 100)));
    // Alice's line exists before the issuer authorizes it (a close in between: a close
    // orders one ledger's transactions canonically, not by arrival).
    node.close();
    node.apply(&gw, authorize(&alice, "USD"));
    node.close();

    let lines = |who: &Account, extra: Value| {
        let mut p = json!({"account": who.id.to_address()});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        node.rpc("account_lines", p)
    };
    let r = lines(&alice, json!({}));
    assert_eq!(r["status"], "success");
    let l = &r["lines"][0];
    assert_eq!(l["account"], gw.id.to_address());
    assert_eq!(l["balance"], "0");
    assert_eq!(l["currency"], "USD");
    assert_eq!(l["limit"], "100");
    assert_eq!(l["limit_peer"], "0");
    assert_eq!(l["quality_in"], 0);
    assert_eq!(l["quality_out"], 0);
    assert_eq!(l["peer_authorized"], true);
    assert!(l.get("authorized").is_none(), "{l}");
    assert!(l.get("freeze").is_none());
    let r = lines(&gw, json!({}));
    let l = &r["lines"][0];
    assert_eq!(l["account"], alice.id.to_address());
    assert_eq!(l["authorized"], true);
    assert!(l.get("peer_authorized").is_none());
    assert_eq!(l["limit"], "0");
    assert_eq!(l["limit_peer"], "100");

    // Many holders: the issuer's directory spans several pages.
    let holders: Vec<Account> = (0..45)
        .map(|i| Account::new(&format!("holder{i}")))
        .collect();
    for h in &holders {
        node.fund(h, 100);
    }
    node.close();
    for (i, h) in holders.iter().enumerate() {
        node.apply(h, trust(gw.iou("USD", 10 + i as i64)));
    }
    node.close();
    let mut seen = Vec::new();
    let mut marker: Option<Value> = None;
    let mut pages = 0;
    loop {
        let mut p = json!({"limit": 10, "ledger_index": "validated"});
        if let Some(m) = &marker {
            p["marker"] = m.clone();
        }
        let r = lines(&gw, p);
        assert_eq!(r["status"], "success", "{r}");
        for l in r["lines"].as_array().unwrap() {
            seen.push(l["account"].as_str().unwrap().to_string());
        }
        pages += 1;
        match r.get("marker") {
            Some(m) => {
                assert_eq!(r["limit"], 10);
                let text = m.as_str().unwrap();
                let (key, hint) = text.split_once(',').unwrap();
                assert_eq!(key.len(), 64);
                hint.parse::<u64>().unwrap();
                marker = Some(m.clone());
            }
            None => break,
        }
    }
    assert_eq!(pages, 5);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 46);

    // A peer filter, and a non-admin limit clamped to 10..400.
    let r = lines(&gw, json!({"peer": holders[3].id.to_address()}));
    assert_eq!(r["lines"].as_array().unwrap().len(), 1);
    assert_eq!(r["lines"][0]["limit_peer"], "13");
    let r = node.http(
        node.public,
        "account_lines",
        json!({"account": gw.id.to_address(), "limit": 1}),
    );
    assert_eq!(r["limit"], 10);
    assert_eq!(r["lines"].as_array().unwrap().len(), 10);
    // Admins get the raw limit.
    let r = lines(&gw, json!({"limit": 1}));
    assert_eq!(r["limit"], 1);
    assert_eq!(r["lines"].as_array().unwrap().len(), 1);
    // ignore_default drops lines whose reserve is not on the issuer's side.
    let r = lines(&gw, json!({"ignore_default": true}));
    assert_eq!(r["lines"].as_array().unwrap().len(), 0);
    let r = lines(&alice, json!({"ignore_default": true}));
    assert_eq!(r["lines"].as_array().unwrap().len(), 1);

    // Errors.
    let r = node.rpc("account_lines", json!({}));
    assert_eq!(error(&r), ("invalidParams", 31, "Missing field 'account'."));
    let r = node.rpc("account_lines", json!({"account": true}));
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid field 'account'."));
    let r = lines(&gw, json!({"peer": "rBad"}));
    assert_eq!(error(&r).0, "actMalformed");
    assert!(r["ledger_current_index"].is_u64());
    let r = node.rpc("account_lines", json!({"account": "rBad"}));
    assert_eq!(error(&r).0, "actMalformed");
    assert_eq!(r["validated"], false);
    let r = node.rpc(
        "account_lines",
        json!({"account": Account::new("ghost").id.to_address()}),
    );
    assert_eq!(error(&r), ("actNotFound", 19, "Account not found."));
    assert!(r.get("ledger_current_index").is_none());
    let r = lines(&gw, json!({"limit": -1}));
    assert_eq!(
        error(&r),
        (
            "invalidParams",
            31,
            "Invalid field 'limit', not unsigned integer."
        )
    );
    let r = lines(&gw, json!({"marker": 5}));
    assert_eq!(
        error(&r),
        ("invalidParams", 31, "Invalid field 'marker', not string.")
    );
    for bad in ["nonsense", "ABC,1", &format!("{},x", "00".repeat(32))] {
        let r = lines(&gw, json!({"marker": bad}));
        assert_eq!(
            error(&r),
            ("invalidParams", 31, "Invalid parameters."),
            "{bad}"
        );
    }
    // A marker naming an entry of another account.
    let other = keylet::account(&alice.id).to_hex();
    let r = lines(&gw, json!({"marker": format!("{other},0")}));
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid parameters."));
    node.running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn channels_objects_and_ledger_entry() {
    let node = Node::start().await;
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    node.fund(&alice, 1000);
    node.fund(&bob, 1000);
    node.apply(&alice, trust(bob.iou("EUR", 50)));
    let create_seq = 4;
    node.apply(
        &alice,
        Tx::new("PaymentChannelCreate")
            .account("Destination", &bob.id)
            .amount("Amount", xrp(10))
            .u32("SettleDelay", 3600)
            .u32("DestinationTag", 7)
            .blob("PublicKey", alice.kp.public.as_bytes()),
    );
    node.close();
    let chan = keylet::pay_channel(&alice.id, &bob.id, create_seq);

    let r = node.rpc(
        "account_channels",
        json!({"account": alice.id.to_address()}),
    );
    assert_eq!(r["status"], "success", "{r}");
    let c = &r["channels"][0];
    assert_eq!(c["channel_id"], chan.to_hex());
    assert_eq!(c["account"], alice.id.to_address());
    assert_eq!(c["destination_account"], bob.id.to_address());
    assert_eq!(c["amount"], "10000000");
    assert_eq!(c["balance"], "0");
    assert_eq!(c["settle_delay"], 3600);
    assert_eq!(c["destination_tag"], 7);
    assert_eq!(
        c["public_key_hex"],
        hex::encode_upper(alice.kp.public.as_bytes())
    );
    assert!(c["public_key"].as_str().unwrap().starts_with('a'));
    // bob is the destination, not the owner: no channels listed for him.
    let r = node.rpc("account_channels", json!({"account": bob.id.to_address()}));
    assert_eq!(r["channels"], json!([]));
    let r = node.rpc(
        "account_channels",
        json!({"account": alice.id.to_address(), "destination_account": alice.id.to_address()}),
    );
    assert_eq!(r["channels"], json!([]));
    let r = node.rpc(
        "account_channels",
        json!({"account": alice.id.to_address(), "destination_account": "rBad"}),
    );
    assert_eq!(error(&r).0, "actMalformed");
    assert!(r.get("ledger_current_index").is_none());
    let r = node.rpc("account_channels", json!({"account": "rBad"}));
    assert_eq!(error(&r).0, "actMalformed");

    // account_objects: the line and the channel.
    let r = node.rpc("account_objects", json!({"account": alice.id.to_address()}));
    let objs = r["account_objects"].as_array().unwrap();
    assert_eq!(objs.len(), 2, "{r}");
    let types: Vec<&str> = objs
        .iter()
        .map(|o| o["LedgerEntryType"].as_str().unwrap())
        .collect();
    assert!(types.contains(&"RippleState") && types.contains(&"PayChannel"));
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "payment_channel"}),
    );
    assert_eq!(r["account_objects"].as_array().unwrap().len(), 1);
    assert_eq!(r["account_objects"][0]["index"], chan.to_hex());
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "state", "ledger_index": "validated"}),
    );
    assert_eq!(r["account_objects"][0]["LedgerEntryType"], "RippleState");
    assert_eq!(r["validated"], true);
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "bogus"}),
    );
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid field 'type'."));
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "type": "directory"}),
    );
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid field 'type'."));
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "limit": 1}),
    );
    assert_eq!(r["account_objects"].as_array().unwrap().len(), 1);
    let m = r["marker"].clone();
    let r2 = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "limit": 1, "marker": m}),
    );
    assert_eq!(r2["account_objects"].as_array().unwrap().len(), 1);
    assert!(r2.get("marker").is_none());
    assert_ne!(r["account_objects"][0], r2["account_objects"][0]);
    let r = node.rpc(
        "account_objects",
        json!({"account": alice.id.to_address(), "marker": "x"}),
    );
    assert_eq!(error(&r), ("invalidParams", 31, "Invalid field 'marker'."));

    // ledger_entry by every selector.
    let e = |p: Value| node.rpc("ledger_entry", p);
    let r = e(json!({"account_root": alice.id.to_address()}));
    assert_eq!(r["node"]["Account"], alice.id.to_address());
    assert_eq!(r["index"], keylet::account(&alice.id).to_hex());
    let r = e(json!({"index": chan.to_hex(), "ledger_index": "validated"}));
    assert_eq!(r["node"]["LedgerEntryType"], "PayChannel");
    assert_eq!(r["validated"], true);
    let r = e(json!({"payment_channel": chan.to_hex(), "binary": true}));
    let bin = r["node_binary"].as_str().unwrap();
    let decoded = ledgerd::protocol::codec::decode(&hex::decode(bin).unwrap()).unwrap();
    assert_eq!(
        ledgerd::protocol::codec::to_json(&decoded)["Destination"],
        bob.id.to_address()
    );
    let r = e(
        json!({"ripple_state": {"accounts": [alice.id.to_address(), bob.id.to_address()], "currency": "EUR"}}),
    );
    assert_eq!(r["node"]["LedgerEntryType"], "RippleState");
    let r = e(json!({"directory": {"owner": alice.id.to_address()}}));
    assert_eq!(r["node"]["LedgerEntryType"], "DirectoryNode");
    assert_eq!(r["node"]["Indexes"].as_array().unwrap().len(), 2);
    let root = keylet::owner_dir(&alice.id).to_hex();
    let r = e(json!({"directory": {"dir_root": root, "sub_index": 0}}));
    assert_eq!(r["index"], root);

    // ledger_entry errors.
    let r = e(json!({"index": "zz"}));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'index', not hex string."
        )
    );
    let r = e(json!({"account_root": "rBad"}));
    assert_eq!(
        error(&r),
        (
            "malformedAddress",
            31,
            "Invalid field 'account_root', not AccountID."
        )
    );
    let r = e(json!({"ripple_state": {"accounts": [alice.id.to_address()], "currency": "EUR"}}));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'accounts', not length-2 array of Accounts."
        )
    );
    let r = e(json!({"ripple_state": {"currency": "EUR"}}));
    assert_eq!(
        error(&r),
        ("malformedRequest", 31, "Missing field 'accounts'.")
    );
    let a = alice.id.to_address();
    let r = e(json!({"ripple_state": {"accounts": [a, a], "currency": "EUR"}}));
    assert_eq!(
        error(&r),
        ("malformedRequest", 31, "Cannot have a trustline to self.")
    );
    let r = e(
        json!({"ripple_state": {"accounts": [alice.id.to_address(), bob.id.to_address()], "currency": ""}}),
    );
    assert_eq!(
        error(&r),
        (
            "malformedCurrency",
            31,
            "Invalid field 'currency', not Currency."
        )
    );
    let r = e(json!({"payment_channel": "12"}));
    assert_eq!(
        error(&r),
        (
            "malformedRequest",
            31,
            "Invalid field 'payment_channel', not hex string."
        )
    );
    let r = e(json!({"index": "00".repeat(31) + "01"}));
    assert_eq!(error(&r), ("entryNotFound", 98, "Entry not found."));
    let r = e(json!({"account_root": Account::new("ghost").id.to_address()}));
    assert_eq!(error(&r), ("entryNotFound", 98, "Entry not found."));
    let r = e(json!({"payment_channel": keylet::account(&alice.id).to_hex()}));
    assert_eq!(
        error(&r),
        ("unexpectedLedgerType", 99, "Unexpected ledger type.")
    );
    let r = e(json!({"index": chan.to_hex(), "account_root": a}));
    assert_eq!(
        error(&r),
        ("invalidParams", 31, "Too many fields provided.")
    );
    let r = e(json!({}));
    assert_eq!(r["error"], "unknownOption");
    assert!(r.get("error_code").is_none());
    assert!(r["ledger_current_index"].is_u64());
    let r = node.ws("ledger_entry", json!({"api_version": 2})).await;
    assert_eq!(r["error_message"], "No ledger_entry params provided.");
    let r = e(json!({"directory": {"owner": a, "dir_root": root}}));
    assert_eq!(error(&r).0, "malformedRequest");
    let r = e(json!({"index": chan.to_hex(), "ledger_index": 1000}));
    assert_eq!(error(&r), ("lgrNotFound", 21, "ledgerNotFound"));
    // A payment to show the line balance moves.
    node.apply(&bob, pay(&alice, bob.iou("EUR", 5)));
    let r = node.rpc("account_lines", json!({"account": alice.id.to_address()}));
    assert_eq!(r["lines"][0]["balance"], "5");
    let r = node.rpc("account_lines", json!({"account": bob.id.to_address()}));
    assert_eq!(r["lines"][0]["balance"], "-5");
    node.running.stop().await;
}
