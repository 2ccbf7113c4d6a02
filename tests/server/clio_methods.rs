//! Clio's own methods (rippled has none of them), with Clio's request and reply shapes:
//! `ledger_index`, a validated ledger by its close time.

use crate::support;

use ledgerd::app::Running;
use serde_json::{json, Value};
use std::net::SocketAddr;
use support::http::rpc_async;
use support::server::start_with;

async fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc_async(addr, method, params).await["result"].clone()
}

async fn server() -> Running {
    start_with(0, |c| c.ephemeral = true).await
}

/// Closes ledgers at 2030-01-01T00:00:00Z, 00:01:00Z and 00:03:00Z; their indexes.
async fn three_closes(addr: SocketAddr) -> Vec<u64> {
    let mut seqs = Vec::new();
    for t in [
        "2030-01-01T00:00:00Z",
        "2030-01-01T00:01:00Z",
        "2030-01-01T00:03:00Z",
    ] {
        let r = call(addr, "ledger_accept", json!({ "close_time": t })).await;
        assert_eq!(r["status"], "success", "{r}");
        seqs.push(r["ledger_current_index"].as_u64().expect("index") - 1);
    }
    seqs
}

#[tokio::test]
async fn ledger_index_finds_the_last_ledger_closed_by_a_date() {
    let running = server().await;
    let a = running.addrs[0].1;
    let seqs = three_closes(a).await;
    let at = |date: &str| call(a, "ledger_index", json!({ "date": date }));
    // Exactly at a close time, between two, after the last.
    for (date, want, closed) in [
        ("2030-01-01T00:01:00Z", seqs[1], "2030-01-01T00:01:00Z"),
        ("2030-01-01T00:02:59Z", seqs[1], "2030-01-01T00:01:00Z"),
        ("2030-01-01T00:00:30Z", seqs[0], "2030-01-01T00:00:00Z"),
        ("2099-12-31T23:59:59Z", seqs[2], "2030-01-01T00:03:00Z"),
    ] {
        let r = at(date).await;
        assert_eq!(r["ledger_index"], want, "{date}: {r}");
        assert_eq!(r["closed"], closed, "{date}");
        assert_eq!(r["validated"], true);
        let ledger = call(a, "ledger", json!({ "ledger_index": want })).await;
        assert_eq!(r["ledger_hash"], ledger["ledger_hash"], "{date}");
    }
    // Without a date: the latest validated ledger.
    let latest = call(a, "ledger_index", json!({})).await;
    assert_eq!(latest["ledger_index"], seqs[2], "{latest}");
    // The genesis ledger closed at the ripple epoch; before it: lgrNotFound,
    // "ledgerNotInRange".
    let first = at("2001-01-01T00:00:00Z").await;
    assert_eq!(first["ledger_index"], 1, "{first}");
    let r = at("1999-12-31T23:59:59Z").await;
    assert_eq!(r["error"], "lgrNotFound", "{r}");
    assert_eq!(r["error_message"], "ledgerNotInRange");
    // Clio's one format, and a string.
    for bad in [
        json!("2030-01-01 00:00:00Z"),
        json!("2030-01-01T00:00:00+00:00"),
        json!("2030-02-30T00:00:00Z"),
        json!("yesterday"),
        json!(946_684_800),
    ] {
        let r = call(a, "ledger_index", json!({ "date": bad })).await;
        assert_eq!(r["error"], "invalidParams", "{bad}: {r}");
    }
    running.stop().await;
}

/// `mpt_holders`: every holder of an issuance by account, paged by a marker, with Clio's
/// fields; its errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mpt_holders_pages_the_holders_of_an_issuance() {
    use ledgerd::protocol::mpt::MptId;
    use support::engine::{Account, Tx};
    use support::mpt::{pay_mpt, with_id};
    use support::server::Node;
    let node = Node::start().await;
    let gw = Account::new("gw");
    node.fund(&gw, 1000);
    let info = node.rpc("account_info", json!({"account": gw.id.to_address()}));
    let seq = info["account_data"]["Sequence"].as_u64().unwrap() as u32;
    node.apply(&gw, Tx::new("MPTokenIssuanceCreate").flags(0x20));
    let id = MptId::new(seq, &gw.id);
    let mut holders: Vec<Account> = (0..5).map(|i| Account::new(&format!("h{i}"))).collect();
    for (i, h) in holders.iter().enumerate() {
        node.fund(h, 100);
        node.apply(h, with_id(Tx::new("MPTokenAuthorize"), &id));
        node.apply(&gw, pay_mpt(h, &id, 10 * (i as u64 + 1)));
    }
    // Through the sequencer, so the history store writes the ledger.
    node.rpc("ledger_accept", json!({}));
    holders.sort_by_key(|h| h.id.0);
    let page = |params: Value| node.rpc("mpt_holders", params);
    let all = page(json!({"mpt_issuance_id": id.to_hex(), "ledger_index": "validated"}));
    assert_eq!(all["limit"], 50, "{all}");
    assert_eq!(all["validated"], true);
    assert_eq!(all["mpt_issuance_id"], id.to_hex().to_uppercase());
    assert!(all.get("marker").is_none());
    let tokens = all["mptokens"].as_array().expect("mptokens");
    let accounts: Vec<String> = holders.iter().map(|h| h.id.to_address()).collect();
    let listed: Vec<&str> = tokens
        .iter()
        .map(|t| t["account"].as_str().unwrap())
        .collect();
    assert_eq!(listed, accounts, "ordered by account ID");
    let first = &tokens[0];
    let entry = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": id.to_hex(), "account": accounts[0]}}),
    );
    assert_eq!(first["mptoken_index"], entry["index"], "{first}");
    assert_eq!(first["mpt_amount"], entry["node"]["MPTAmount"]);
    assert_eq!(first["flags"], entry["node"]["Flags"]);
    // Two at a time: the marker is the last account shown, as hex.
    let mut seen = Vec::new();
    let mut marker = None;
    loop {
        let mut p = json!({"mpt_issuance_id": id.to_hex(), "limit": 2});
        if let Some(m) = &marker {
            p["marker"] = json!(m);
        }
        let r = page(p);
        for t in r["mptokens"].as_array().expect("page") {
            seen.push(t["account"].as_str().unwrap().to_owned());
        }
        match r.get("marker").and_then(Value::as_str) {
            Some(m) => marker = Some(m.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, accounts);
    // Errors: no issuance, a malformed ID, limit or marker.
    let missing = page(json!({"mpt_issuance_id": "00".repeat(24)}));
    assert_eq!(missing["error"], "objectNotFound", "{missing}");
    for bad in [
        json!({}),
        json!({"mpt_issuance_id": "XYZ"}),
        json!({"mpt_issuance_id": id.to_hex(), "limit": 0}),
        json!({"mpt_issuance_id": id.to_hex(), "limit": "ten"}),
        json!({"mpt_issuance_id": id.to_hex(), "marker": "00"}),
    ] {
        assert_eq!(page(bad.clone())["error"], "invalidParams", "{bad}");
    }
    // limit clamps to 100.
    let big = page(json!({"mpt_issuance_id": id.to_hex(), "limit": 1000}));
    assert_eq!(big["limit"], 100);

    // The validated ledger is answered from the history store's MPT holder index; the
    // open ledger, which the store has not written, by a scan: the same holders.
    use ledgerd::store::{HistoryLedger, HistoryStore, SqliteHistory, StateChanges};
    let store = node.state().node.history.store.clone();
    let seq = all["ledger_index"].as_u64().expect("seq") as u32;
    assert!(store.mpt_index_ready().expect("ready?"));
    let keys = store.mpt_holder_keys(&id, seq, None, 100).expect("index");
    let indexed: Vec<String> = keys.iter().map(|(a, _)| a.to_address()).collect();
    assert_eq!(indexed, accounts);
    let scanned = page(json!({"mpt_issuance_id": id.to_hex(), "ledger_index": "current"}));
    assert_eq!(scanned["mptokens"], all["mptokens"], "{scanned}");

    // A database made before the index: the tokens' stored versions, the index emptied,
    // then built from the state.
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("history.db");
    {
        let copy = SqliteHistory::open(&path, 1).expect("open");
        let state = keys
            .iter()
            .map(|(_, k)| {
                let bytes = store.state_entry(k, seq).expect("read").expect("token");
                (*k, Some(std::sync::Arc::from(bytes)))
            })
            .collect();
        let header = store.header(seq).expect("read").expect("header");
        let ledger = HistoryLedger {
            header,
            txs: Vec::new(),
            state,
            changes: StateChanges::Delta,
        };
        copy.write(&[ledger]).expect("write");
        assert_eq!(
            copy.mpt_holder_keys(&id, seq, None, 100).expect("index"),
            keys
        );
    }
    let raw = rusqlite::Connection::open(&path).expect("sqlite");
    raw.execute_batch(
        "DELETE FROM mpt_holders; DELETE FROM settings WHERE name = 'mpt_index_built';",
    )
    .expect("empty the index");
    drop(raw);
    let old = SqliteHistory::open(&path, 1).expect("reopen");
    assert!(!old.mpt_index_ready().expect("ready?"));
    old.build_mpt_index().expect("built");
    assert!(old.mpt_index_ready().expect("ready?"));
    assert_eq!(
        old.mpt_holder_keys(&id, seq, None, 100).expect("index"),
        keys
    );
    // Paged from the index, after a holder.
    let rest = old
        .mpt_holder_keys(&id, seq, Some(&keys[1].0), 100)
        .expect("index");
    assert_eq!(rest, keys[2..].to_vec());
}

/// `account_mptoken_issuances` and `account_mptokens`: an issuer's issuances and a
/// holder's tokens with Clio's fields (checked against `ledger_entry`), paged by Clio's
/// account cursor (every owner-directory entry counts, 10 at least), and their errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_mptokens_and_issuances_walk_the_owner_directory() {
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::mpt::MptId;
    use ledgerd::protocol::st::StValue;
    use support::engine::{trust, Account, Tx};
    use support::mpt::{pay_mpt, with_id};
    use support::server::Node;
    let node = Node::start().await;
    let (gw, holder) = (Account::new("gw"), Account::new("holder"));
    node.fund(&gw, 10_000);
    node.fund(&holder, 1_000);
    let next_seq = |who: &Account| {
        let info = node.rpc("account_info", json!({"account": who.id.to_address()}));
        info["account_data"]["Sequence"].as_u64().unwrap() as u32
    };
    // One issuance with every optional field, then eleven plain ones.
    let mut rich = Tx::new("MPTokenIssuanceCreate")
        .flags(0x02 | 0x04 | 0x08 | 0x20)
        .u8("AssetScale", 2)
        .blob("MPTokenMetadata", b"test-meta");
    rich.0.set(Field::named("TransferFee"), StValue::UInt16(10));
    rich.0
        .set(Field::named("MaximumAmount"), StValue::UInt64(10_000));
    let first = MptId::new(next_seq(&gw), &gw.id);
    node.apply(&gw, rich);
    let mut ids = vec![first];
    for _ in 0..11 {
        ids.push(MptId::new(next_seq(&gw), &gw.id));
        node.apply(&gw, Tx::new("MPTokenIssuanceCreate").flags(0x20));
    }
    // The holder: a trust line (not a token, but an owned entry) and two tokens, the
    // first authorized by the issuer (RequireAuth).
    node.apply(&holder, trust(gw.iou("USD", 100)));
    for id in &ids[..2] {
        node.apply(&holder, with_id(Tx::new("MPTokenAuthorize"), id));
    }
    node.apply(
        &gw,
        with_id(Tx::new("MPTokenAuthorize"), &ids[0]).account("Holder", &holder.id),
    );
    node.apply(&gw, pay_mpt(&holder, &ids[0], 250));
    node.apply(&gw, pay_mpt(&holder, &ids[1], 7));
    node.close();

    // Issuances: 12, and the holder's trust line in the issuer's directory too; ten
    // entries to a page, so two pages.
    let issuances = |p: Value| node.rpc("account_mptoken_issuances", p);
    let gw_addr = gw.id.to_address();
    let page1 = issuances(json!({"account": gw_addr, "limit": 10}));
    assert_eq!(page1["validated"], true, "{page1}");
    assert_eq!(page1["limit"], 10);
    let listed = page1["mpt_issuances"].as_array().expect("issuances");
    assert!((9..=10).contains(&listed.len()), "{page1}");
    let marker = page1["marker"].as_str().expect("marker after ten entries");
    let page2 = issuances(json!({"account": gw_addr, "limit": 10, "marker": marker}));
    let rest = page2["mpt_issuances"].as_array().expect("rest");
    assert!(page2.get("marker").is_none(), "{page2}");
    let all: Vec<&Value> = listed.iter().chain(rest).collect();
    assert_eq!(all.len(), 12, "{page2}");
    let mut shown: Vec<String> = all
        .iter()
        .map(|i| i["mpt_issuance_id"].as_str().unwrap().to_owned())
        .collect();
    let mut want: Vec<String> = ids.iter().map(|i| i.to_hex().to_uppercase()).collect();
    shown.sort();
    want.sort();
    assert_eq!(shown, want);
    let rich = all
        .iter()
        .find(|i| i["mpt_issuance_id"] == first.to_hex().to_uppercase())
        .expect("the first issuance");
    let entry = node.rpc("ledger_entry", json!({"mpt_issuance": first.to_hex()}))["node"].clone();
    assert_eq!(rich["issuer"], gw_addr);
    assert_eq!(rich["sequence"], entry["Sequence"]);
    assert_eq!(rich["transfer_fee"], 10);
    assert_eq!(rich["asset_scale"], 2);
    assert_eq!(rich["maximum_amount"], 10_000);
    assert_eq!(rich["outstanding_amount"], 250, "{rich}");
    assert_eq!(rich["mptoken_metadata"], hex::encode_upper(b"test-meta"));
    for flag in [
        "mpt_can_lock",
        "mpt_require_auth",
        "mpt_can_escrow",
        "mpt_can_transfer",
    ] {
        assert_eq!(rich[flag], true, "{flag}: {rich}");
    }
    for absent in [
        "mpt_locked",
        "mpt_can_trade",
        "mpt_can_clawback",
        "locked_amount",
        "domain_id",
    ] {
        assert!(rich.get(absent).is_none(), "{absent}: {rich}");
    }

    // Tokens: the trust line counts toward the limit but is not shown.
    let tokens = node.rpc(
        "account_mptokens",
        json!({"account": holder.id.to_address()}),
    );
    assert_eq!(tokens["limit"], 200, "{tokens}");
    let list = tokens["mptokens"].as_array().expect("mptokens");
    assert_eq!(list.len(), 2, "{tokens}");
    let authorized = list
        .iter()
        .find(|t| t["mpt_issuance_id"] == first.to_hex().to_uppercase())
        .expect("token of the first issuance");
    let token_entry = node.rpc(
        "ledger_entry",
        json!({"mptoken": {"mpt_issuance_id": first.to_hex(), "account": holder.id.to_address()}}),
    );
    assert_eq!(authorized["mpt_id"], token_entry["index"], "{authorized}");
    assert_eq!(authorized["account"], holder.id.to_address());
    assert_eq!(authorized["mpt_amount"], 250);
    assert_eq!(authorized["mpt_authorized"], true);
    assert!(authorized.get("mpt_locked").is_none());
    let plain = list.iter().find(|t| t != &authorized).expect("the other");
    assert_eq!(plain["mpt_amount"], 7);
    assert!(plain.get("mpt_authorized").is_none(), "{plain}");

    // Clio's limits: at least 10, at most 400, a positive integer.
    let small = issuances(json!({"account": gw_addr, "limit": 1}));
    assert_eq!(small["limit"], 10);
    let big = issuances(json!({"account": gw_addr, "limit": 1000}));
    assert_eq!(big["limit"], 400);
    // Errors, in Clio's codes.
    let unknown = Account::new("nobody").id.to_address();
    for (method, params, error, message) in [
        (
            "account_mptokens",
            json!({"account": unknown}),
            "actNotFound",
            None,
        ),
        (
            "account_mptokens",
            json!({"account": "rNotAnAddress"}),
            "actMalformed",
            None,
        ),
        (
            "account_mptokens",
            json!({"account": 7}),
            "actMalformed",
            None,
        ),
        ("account_mptokens", json!({}), "invalidParams", None),
        (
            "account_mptoken_issuances",
            json!({"account": gw_addr, "limit": 0}),
            "invalidParams",
            None,
        ),
        (
            "account_mptoken_issuances",
            json!({"account": gw_addr, "limit": "t"}),
            "invalidParams",
            None,
        ),
        (
            "account_mptoken_issuances",
            json!({"account": gw_addr, "marker": 9}),
            "invalidParams",
            Some("markerNotString"),
        ),
        (
            "account_mptoken_issuances",
            json!({"account": gw_addr, "marker": "123invalid"}),
            "invalidParams",
            Some("Malformed cursor."),
        ),
        (
            "account_mptoken_issuances",
            json!({"account": gw_addr, "marker": format!("{},0", "AB".repeat(32))}),
            "invalidParams",
            Some("Invalid marker."),
        ),
    ] {
        let r = node.rpc(method, params.clone());
        assert_eq!(r["error"], error, "{method} {params}: {r}");
        if let Some(m) = message {
            assert_eq!(r["error_message"], m, "{method} {params}");
        }
    }
}

/// Clio's NFT methods over the NFT index: `nft_info` (now and at an earlier ledger, a
/// burned token, errors), `nft_history` (newest first, forward, paged by marker, API v2),
/// `nfts_by_issuer` (all, by taxon, paged, errors).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nft_methods_follow_tokens_through_mints_sales_and_burns() {
    use support::engine::{xrp, Account, Tx};
    use support::server::Node;
    let node = Node::start().await;
    let (alice, bob) = (Account::new("alice"), Account::new("bob"));
    node.fund(&alice, 10_000);
    node.fund(&bob, 10_000);
    let accept = || {
        node.rpc("ledger_accept", json!({}))["ledger_current_index"]
            .as_u64()
            .unwrap()
            - 1
    };
    accept();
    let meta_of = |hash: ledgerd::protocol::types::Hash256| {
        node.rpc("tx", json!({"transaction": hash.to_hex()}))["meta"].clone()
    };
    let mint = |taxon: u32, uri: Option<&[u8]>| {
        let mut tx = Tx::new("NFTokenMint").u32("NFTokenTaxon", taxon).flags(0x8);
        if let Some(u) = uri {
            tx = tx.blob("URI", u);
        }
        node.apply(&alice, tx)
    };
    let mints = [mint(0, Some(b"ipfs://one")), mint(0, None), mint(5, None)];
    let minted_at = accept();
    let id_of = |hash| {
        meta_of(hash)["nftoken_id"]
            .as_str()
            .expect("nftoken_id")
            .to_owned()
    };
    let [first, second, third] = mints.map(id_of);
    // The first is sold to bob; the second burned.
    let offer_hash = node.apply(
        &alice,
        Tx::new("NFTokenCreateOffer")
            .h256(
                "NFTokenID",
                ledgerd::protocol::types::Hash256::from_hex(&first).unwrap(),
            )
            .amount("Amount", xrp(10))
            .flags(1),
    );
    accept();
    let offer = meta_of(offer_hash)["offer_id"]
        .as_str()
        .expect("offer_id")
        .to_owned();
    node.apply(
        &bob,
        Tx::new("NFTokenAcceptOffer").h256(
            "NFTokenSellOffer",
            ledgerd::protocol::types::Hash256::from_hex(&offer).unwrap(),
        ),
    );
    node.apply(
        &alice,
        Tx::new("NFTokenBurn").h256(
            "NFTokenID",
            ledgerd::protocol::types::Hash256::from_hex(&second).unwrap(),
        ),
    );
    let sold_at = accept();

    // nft_info: now, and as the mint ledger saw it.
    let info = |p: Value| node.rpc("nft_info", p);
    let now = info(json!({"nft_id": first}));
    assert_eq!(now["owner"], bob.id.to_address(), "{now}");
    assert_eq!(now["is_burned"], false);
    assert_eq!(now["ledger_index"], sold_at);
    assert_eq!(now["issuer"], alice.id.to_address());
    assert_eq!(now["nft_taxon"], 0);
    assert_eq!(now["uri"], hex::encode_upper(b"ipfs://one"));
    assert_eq!(now["flags"], 8);
    assert_eq!(now["validated"], true);
    let then = info(json!({"nft_id": first, "ledger_index": minted_at}));
    assert_eq!(then["owner"], alice.id.to_address(), "{then}");
    assert_eq!(then["ledger_index"], minted_at);
    let burned = info(json!({"nft_id": second}));
    assert_eq!(burned["is_burned"], true, "{burned}");
    assert_eq!(burned["owner"], alice.id.to_address());
    assert_eq!(burned["uri"], "");
    let missing = info(json!({"nft_id": "00".repeat(32)}));
    assert_eq!(missing["error"], "objectNotFound", "{missing}");
    assert_eq!(missing["error_message"], "NFT not found");
    assert_eq!(info(json!({"nft_id": "XYZ"}))["error"], "invalidParams");
    assert_eq!(info(json!({}))["error"], "invalidParams");

    // nft_history: the mint, the offer, the sale; newest first, forward, paged.
    let history = |p: Value| node.rpc("nft_history", p);
    let all = history(json!({"nft_id": first}));
    let types = |r: &Value| -> Vec<String> {
        r["transactions"]
            .as_array()
            .expect("transactions")
            .iter()
            .map(|t| t["tx"]["TransactionType"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        types(&all),
        ["NFTokenAcceptOffer", "NFTokenCreateOffer", "NFTokenMint"],
        "{all}"
    );
    assert_eq!(all["nft_id"], first);
    assert_eq!(all["limit"], 50);
    let forward = history(json!({"nft_id": first, "forward": true}));
    assert_eq!(
        types(&forward),
        ["NFTokenMint", "NFTokenCreateOffer", "NFTokenAcceptOffer"]
    );
    let mut paged = Vec::new();
    let mut marker = Value::Null;
    loop {
        let mut p = json!({"nft_id": first, "limit": 1});
        if !marker.is_null() {
            p["marker"] = marker.clone();
        }
        let r = history(p);
        paged.extend(types(&r));
        marker = r.get("marker").cloned().unwrap_or(Value::Null);
        if marker.is_null() {
            break;
        }
    }
    assert_eq!(paged, types(&all));
    let v2 = history(json!({"nft_id": first, "api_version": 2}));
    assert!(v2["transactions"][0]["hash"].is_string(), "{v2}");
    assert_eq!(types(&history(json!({"nft_id": second})))[0], "NFTokenBurn");
    let bad_range = history(json!({"nft_id": first, "ledger_index_min": sold_at + 100}));
    assert_eq!(bad_range["error"], "lgrIdxMalformed", "{bad_range}");
    let both =
        history(json!({"nft_id": first, "ledger_index_min": minted_at, "ledger_index": sold_at}));
    assert_eq!(
        both["error_message"], "containsLedgerSpecifierAndRange",
        "{both}"
    );
    let bad_marker = history(json!({"nft_id": first, "marker": {"ledger": "x"}}));
    assert_eq!(bad_marker["error_message"], "invalidMarker", "{bad_marker}");

    // nfts_by_issuer: every token alice issued, by taxon, two to a page.
    let by = |p: Value| node.rpc("nfts_by_issuer", p);
    let issued = by(json!({"issuer": alice.id.to_address()}));
    let ids = |r: &Value| -> Vec<String> {
        r["nfts"]
            .as_array()
            .expect("nfts")
            .iter()
            .map(|n| n["nft_id"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut want = vec![first.clone(), second.clone(), third.clone()];
    want.sort();
    assert_eq!(ids(&issued), want, "{issued}");
    assert_eq!(issued["limit"], 50);
    let owners: Vec<&str> = issued["nfts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["owner"].as_str().unwrap())
        .collect();
    assert!(owners.contains(&bob.id.to_address().as_str()));
    let taxon5 = by(json!({"issuer": alice.id.to_address(), "nft_taxon": 5}));
    assert_eq!(ids(&taxon5), vec![third.clone()], "{taxon5}");
    assert_eq!(taxon5["nft_taxon"], 5);
    let page1 = by(json!({"issuer": alice.id.to_address(), "limit": 2}));
    assert_eq!(ids(&page1), want[..2].to_vec());
    let page2 = by(json!({"issuer": alice.id.to_address(), "limit": 2, "marker": page1["marker"]}));
    assert_eq!(ids(&page2), want[2..].to_vec(), "{page2}");
    assert!(page2.get("marker").is_none());
    let nobody = by(json!({"issuer": Account::new("nobody").id.to_address()}));
    assert_eq!(nobody["error"], "actNotFound", "{nobody}");
    assert_eq!(by(json!({"issuer": "rBad"}))["error"], "actMalformed");

    // A history database made before the NFT index: the same ledgers, the index emptied.
    // Built from its transactions (two ledgers a batch), it answers as the live one.
    use ledgerd::store::{HistoryLedger, HistoryStore, HistoryTx, SqliteHistory, StateChanges};
    let store = node.state().node.history.store.clone();
    let (lo, hi) = store.range().expect("range").expect("ledgers");
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("history.db");
    {
        let copy = SqliteHistory::open(&path, 1).expect("open");
        for seq in lo..=hi {
            let header = store.header(seq).expect("read").expect("header");
            let txs = store
                .ledger_txs(seq)
                .expect("txs")
                .into_iter()
                .map(|t| HistoryTx {
                    id: t.id,
                    index: t.index,
                    blob: t.blob,
                    meta: t.meta,
                    delivered: t.delivered,
                    accounts: Vec::new(),
                })
                .collect();
            let ledger = HistoryLedger {
                header,
                txs,
                state: Vec::new(),
                changes: StateChanges::Delta,
            };
            copy.write(&[ledger]).expect("write");
        }
    }
    let raw = rusqlite::Connection::open(&path).expect("sqlite");
    raw.execute_batch(
        "DELETE FROM nft_states; DELETE FROM nft_txs; DELETE FROM nft_issuers; \
         DELETE FROM settings WHERE name = 'nft_index_built';",
    )
    .expect("empty the index");
    drop(raw);
    let old = SqliteHistory::open(&path, 1).expect("reopen");
    assert!(!old.nft_index_ready().expect("ready?"));
    let mut batches = 0;
    old.build_nft_index(2, |_, _| batches += 1).expect("built");
    assert!(old.nft_index_ready().expect("ready?"));
    assert!(batches > 1, "{batches}");
    for token in [&first, &second, &third] {
        let token = ledgerd::protocol::types::Hash256::from_hex(token).unwrap();
        for seq in [minted_at as u32, sold_at as u32] {
            assert_eq!(
                old.nft(&token, seq).unwrap(),
                store.nft(&token, seq).unwrap()
            );
        }
    }
    let issued_by = |s: &dyn HistoryStore| {
        s.nfts_by_issuer(&alice.id, None, sold_at as u32, None, 10)
            .unwrap()
    };
    assert_eq!(issued_by(&old), issued_by(store.as_ref()));
    assert_eq!(issued_by(&old).len(), 3);
}
