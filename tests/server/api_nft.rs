//! NFTokens over the API (issue 16), against an in-process server: `account_nfts` paging,
//! `nft_buy_offers` / `nft_sell_offers` (shapes, paging with markers, `objectNotFound`),
//! `ledger_entry` for `nft_page` and `nft_offer`, `account_objects` filtered to
//! `nft_offer`, and the `nftoken_id` / `nftoken_ids` / `offer_id` fields rippled adds to
//! the metadata in `tx` and `account_tx`. Tokens and offers are made with real signed
//! transactions (`submit` with the account's secret).

use crate::support;

use std::collections::BTreeSet;

use ledgerd::engine::nft;
use ledgerd::ledger::keylet;
use ledgerd::protocol::types::{AccountId, Hash256};
use serde_json::{json, Value};
use support::keys::address;
use support::market::{err, xrp, Market};

fn hash(v: &Value) -> Hash256 {
    Hash256::from_hex(v.as_str().unwrap_or_else(|| panic!("a hash: {v}"))).expect("hex")
}

impl Market {
    /// Submits `tx` for `who`, closes, and returns the transaction's `meta` from `tx`.
    async fn applied_meta(&mut self, who: &str, tx: Value) -> Value {
        let r = self.submit(who, tx).await;
        let id = r["tx_json"]["hash"].as_str().expect("hash").to_string();
        self.close().await;
        let t = self.result("tx", json!({"transaction": id})).await;
        assert_eq!(t["meta"]["TransactionResult"], "tesSUCCESS", "{t}");
        t["meta"].clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_nfts_pages_and_the_meta_names_each_token() {
    let mut m = Market::start().await;
    m.fund("alice", 1_000).await;
    m.close().await;
    let mut minted = BTreeSet::new();
    for i in 0..45u32 {
        let mut tx = json!({"TransactionType": "NFTokenMint", "NFTokenTaxon": i, "Flags": 8});
        if i == 0 {
            tx["URI"] = json!("697066733A2F2F61");
            tx["TransferFee"] = json!(500);
        }
        let r = m.submit("alice", tx).await;
        assert_eq!(r["engine_result"], "tesSUCCESS");
    }
    m.close().await;
    // account_tx shows nftoken_id in each mint's metadata.
    let txs = m
        .result(
            "account_tx",
            json!({"account": address("alice"), "limit": 100}),
        )
        .await;
    for t in txs["transactions"].as_array().unwrap() {
        if t["tx"]["TransactionType"] == "NFTokenMint" {
            let id = hash(&t["meta"]["nftoken_id"]);
            let taxon = t["tx"]["NFTokenTaxon"].as_u64().unwrap() as u32;
            assert_eq!(nft::taxon(&id), taxon);
            assert!(minted.insert(id));
        }
    }
    assert_eq!(minted.len(), 45);
    // Three pages of 20, 20 and 5, in storage order; `account` only on the last.
    let mut seen = Vec::new();
    let mut marker = Value::Null;
    let mut pages = 0;
    loop {
        let mut p = json!({"account": address("alice"), "limit": 20});
        if !marker.is_null() {
            p["marker"] = marker.clone();
        }
        let r = m.result("account_nfts", p).await;
        pages += 1;
        let list = r["account_nfts"].as_array().unwrap().clone();
        for n in &list {
            let id = hash(&n["NFTokenID"]);
            assert_eq!(n["Issuer"], address("alice"));
            assert_eq!(n["Flags"], 8);
            assert_eq!(n["NFTokenTaxon"].as_u64().unwrap() as u32, nft::taxon(&id));
            assert_eq!(n["nft_serial"].as_u64().unwrap() as u32, nft::serial(&id));
            if n.get("URI").is_some() {
                assert_eq!(n["URI"], "697066733A2F2F61");
                assert_eq!(n["TransferFee"], 500);
            } else {
                assert!(n.get("TransferFee").is_none());
            }
            seen.push(id);
        }
        assert!(r.get("ledger_index").is_some() || r.get("ledger_current_index").is_some());
        if r.get("marker").is_none() {
            assert_eq!(list.len(), 5);
            assert_eq!(r["account"], address("alice"));
            break;
        }
        assert_eq!(list.len(), 20);
        assert_eq!(r["limit"], 20);
        assert!(
            r.get("account").is_none(),
            "rippled leaves it out of a full page"
        );
        marker = r["marker"].clone();
    }
    assert_eq!(pages, 3);
    assert!(seen
        .windows(2)
        .all(|w| nft::compare_tokens(&w[0], &w[1]).is_lt()));
    assert_eq!(seen.iter().copied().collect::<BTreeSet<_>>(), minted);
    // Errors.
    let bad = m
        .call(
            "account_nfts",
            json!({"account": address("alice"), "marker": "zz"}),
        )
        .await;
    assert_eq!(err(&bad).0, "invalidParams");
    let bad = m
        .call(
            "account_nfts",
            json!({"account": address("alice"), "marker": 5}),
        )
        .await;
    assert_eq!(
        err(&bad),
        (
            "invalidParams".into(),
            "Invalid field 'marker', not string.".into()
        )
    );
    let nobody = m
        .call("account_nfts", json!({"account": address("nobody")}))
        .await;
    assert_eq!(err(&nobody).0, "actNotFound");
    let none = m.call("account_nfts", json!({})).await;
    assert_eq!(err(&none).0, "invalidParams");
    // ledger_entry: the last page, by its key.
    let alice = AccountId::from_address(&address("alice")).unwrap();
    let last = keylet::nftpage_max(&alice).to_hex();
    let e = m
        .result(
            "ledger_entry",
            json!({"nft_page": last, "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(e["node"]["LedgerEntryType"], "NFTokenPage");
    assert_eq!(e["index"], last);
    // account_objects lists the pages (before the owner directory), in key order.
    let objs = m
        .result(
            "account_objects",
            json!({"account": address("alice"), "type": "nft_page"}),
        )
        .await;
    let pages = objs["account_objects"].as_array().unwrap().clone();
    assert!(pages.len() >= 2, "{objs}");
    let tokens: usize = pages
        .iter()
        .map(|p| p["NFTokens"].as_array().unwrap().len())
        .sum();
    assert_eq!(tokens, 45);
    assert_eq!(pages.last().unwrap()["index"], last);
    assert!(pages.iter().all(|p| p["LedgerEntryType"] == "NFTokenPage"));
    // One page at a time through the "0,<page>" marker.
    let mut walked = Vec::new();
    let mut marker = Value::Null;
    loop {
        let mut p = json!({"account": address("alice"), "limit": 1});
        if !marker.is_null() {
            p["marker"] = marker.clone();
        }
        let r = m.result("account_objects", p).await;
        for o in r["account_objects"].as_array().unwrap() {
            walked.push(o["index"].clone());
        }
        match r.get("marker") {
            Some(mk) => {
                assert!(mk.as_str().unwrap().starts_with("0,"));
                marker = mk.clone();
            }
            None => break,
        }
    }
    let indexes: Vec<Value> = pages.iter().map(|p| p["index"].clone()).collect();
    assert_eq!(walked, indexes);
    // ledger_data filtered to pages lists the same ones.
    let data = m
        .result(
            "ledger_data",
            json!({"type": "nft_page", "ledger_index": "validated"}),
        )
        .await;
    let mut listed: Vec<Value> = data["state"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["index"].clone())
        .collect();
    listed.sort_by_key(|v| v.as_str().unwrap().to_string());
    assert_eq!(listed, indexes);
    let missing = m
        .call("ledger_entry", json!({"nft_page": "AB".repeat(32)}))
        .await;
    assert_eq!(err(&missing).0, "entryNotFound");
    m.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_are_listed_paged_and_named_in_the_meta() {
    let mut m = Market::start().await;
    m.fund("alice", 1_000).await;
    m.fund("bob", 10_000).await;
    m.close().await;
    let meta = m
        .applied_meta(
            "alice",
            json!({"TransactionType": "NFTokenMint", "NFTokenTaxon": 0, "Flags": 8}),
        )
        .await;
    let id = meta["nftoken_id"].as_str().expect("nftoken_id").to_string();
    // No offers yet.
    let none = m.call("nft_sell_offers", json!({"nft_id": id})).await;
    assert_eq!(err(&none).0, "objectNotFound");
    let bad = m.call("nft_sell_offers", json!({"nft_id": "12"})).await;
    assert_eq!(
        err(&bad),
        ("invalidParams".into(), "Invalid field 'nft_id'.".into())
    );
    let missing = m.call("nft_buy_offers", json!({})).await;
    assert_eq!(
        err(&missing),
        ("invalidParams".into(), "Missing field 'nft_id'.".into())
    );
    // A sell offer: offer_id in the meta, listed by nft_sell_offers.
    let sell = json!({"TransactionType": "NFTokenCreateOffer", "NFTokenID": id,
        "Amount": xrp(10), "Flags": 1, "Destination": address("bob")});
    let meta = m.applied_meta("alice", sell).await;
    let offer_id = meta["offer_id"].as_str().expect("offer_id").to_string();
    let r = m.result("nft_sell_offers", json!({"nft_id": id})).await;
    assert_eq!(r["nft_id"], id);
    assert_eq!(
        r["offers"],
        json!([{"amount": "10000000", "destination": address("bob"), "flags": 1,
            "nft_offer_index": offer_id, "owner": address("alice")}])
    );
    assert!(
        r.get("ledger_index").is_none(),
        "rippled answers no ledger fields"
    );
    let e = m
        .result("ledger_entry", json!({"nft_offer": offer_id}))
        .await;
    assert_eq!(e["node"]["LedgerEntryType"], "NFTokenOffer");
    assert_eq!(e["node"]["NFTokenID"], id);
    let objs = m
        .result(
            "account_objects",
            json!({"account": address("alice"), "type": "nft_offer"}),
        )
        .await;
    assert_eq!(objs["account_objects"].as_array().unwrap().len(), 1);
    // 52 buy offers from bob, paged 50 at a time: the marker offer opens the next page.
    let mut offers = BTreeSet::new();
    for i in 0..52 {
        let buy = json!({"TransactionType": "NFTokenCreateOffer", "NFTokenID": id,
            "Amount": xrp(1 + i), "Owner": address("alice"), "Expiration": 999_999_999});
        m.submit("bob", buy).await;
    }
    m.close().await;
    let p1 = m
        .result("nft_buy_offers", json!({"nft_id": id, "limit": 50}))
        .await;
    assert_eq!(p1["offers"].as_array().unwrap().len(), 50);
    assert_eq!(p1["limit"], 50);
    let marker = p1["marker"].clone();
    for o in p1["offers"].as_array().unwrap() {
        assert_eq!(o["owner"], address("bob"));
        assert_eq!(o["flags"], 0);
        assert_eq!(o["expiration"], 999_999_999);
        offers.insert(o["nft_offer_index"].as_str().unwrap().to_string());
    }
    assert!(!offers.contains(marker.as_str().unwrap()));
    let p2 = m
        .result(
            "nft_buy_offers",
            json!({"nft_id": id, "limit": 50, "marker": marker}),
        )
        .await;
    let list = p2["offers"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["nft_offer_index"], marker);
    assert!(p2.get("marker").is_none());
    for o in list {
        offers.insert(o["nft_offer_index"].as_str().unwrap().to_string());
    }
    assert_eq!(offers.len(), 52);
    let bad = m
        .call("nft_buy_offers", json!({"nft_id": id, "marker": offer_id}))
        .await;
    assert_eq!(
        err(&bad).0,
        "invalidParams",
        "the marker is not a buy offer of it"
    );
    // The transaction stream carries the same fields.
    m.result("subscribe", json!({"accounts": [address("bob")]}))
        .await;
    // bob takes the sell offer: nftoken_id in the meta.
    let take = json!({"TransactionType": "NFTokenAcceptOffer", "NFTokenSellOffer": offer_id});
    let meta = m.applied_meta("bob", take).await;
    assert_eq!(meta["nftoken_id"], id);
    let streamed = m.ws.event("transaction").await;
    assert_eq!(streamed["meta"]["nftoken_id"], id, "{streamed}");
    let r = m
        .result("account_nfts", json!({"account": address("bob")}))
        .await;
    assert_eq!(r["account_nfts"][0]["NFTokenID"], id);
    // bob cancels two of his buy offers: nftoken_ids.
    let two: Vec<&String> = offers.iter().take(2).collect();
    let cancel = json!({"TransactionType": "NFTokenCancelOffer", "NFTokenOffers": two});
    let meta = m.applied_meta("bob", cancel).await;
    assert_eq!(meta["nftoken_ids"], json!([id]));
    m.stop().await;
}
