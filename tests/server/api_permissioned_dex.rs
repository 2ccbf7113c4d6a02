//! The permissioned DEX through the API, against an in-process server: domain offers
//! and payments submitted as JSON (`DomainID`, tfHybrid), `book_offers` of a domain's
//! book and of the open book (where a hybrid offer also sits), `ledger_entry` and
//! `account_objects` showing an offer's DomainID and AdditionalBooks, `subscribe` to a
//! domain's book (snapshot and stream), `ripple_path_find` with `domain`, and the
//! amendment reported enabled.

use crate::support;

use serde_json::{json, Value};
use support::keys::address;
use support::market::{err, usd, with, xrp, Market};
use support::server::addr;
use support::ws::Ws;

/// "abcde" as the hex CredentialType.
const CRED_HEX: &str = "6162636465";

/// gw issues USD; `pdOwner`'s domain accepts its "abcde" credential, which alice, bob
/// and carol hold; alice and bob hold 100 USD, carol trusts USD. Returns the domain ID.
async fn domain_market(d: &mut Market) -> String {
    for who in ["gwPd", "pdOwner", "pdAlice", "pdBob", "pdCarol"] {
        d.fund(who, 10_000).await;
    }
    d.close().await;
    d.hold("pdAlice", "USD", "gwPd", "100").await;
    d.hold("pdBob", "USD", "gwPd", "100").await;
    d.hold("pdCarol", "USD", "gwPd", "0").await;
    let info = d
        .result(
            "account_info",
            json!({"account": address("pdOwner"), "ledger_index": "current"}),
        )
        .await;
    let seq = info["account_data"]["Sequence"].as_u64().unwrap();
    let creds = json!([{"Credential": {"Issuer": address("pdOwner"), "CredentialType": CRED_HEX}}]);
    let set = json!({"TransactionType": "PermissionedDomainSet", "AcceptedCredentials": creds});
    d.submit("pdOwner", set).await;
    for who in ["pdAlice", "pdBob", "pdCarol"] {
        let create = json!({"TransactionType": "CredentialCreate", "Subject": address(who), "CredentialType": CRED_HEX});
        d.submit("pdOwner", create).await;
    }
    d.close().await;
    for who in ["pdAlice", "pdBob", "pdCarol"] {
        let accept = json!({"TransactionType": "CredentialAccept", "Issuer": address("pdOwner"), "CredentialType": CRED_HEX});
        d.submit(who, accept).await;
    }
    d.close().await;
    let r = d
        .result(
            "ledger_entry",
            json!({"permissioned_domain": {"account": address("pdOwner"), "seq": seq}}),
        )
        .await;
    r["index"].as_str().unwrap().to_string()
}

fn usd_spec() -> Value {
    json!({"currency": "USD", "issuer": address("gwPd")})
}

impl Market {
    /// `who` places an offer of `gets` for `pays` in `domain` with `flags`; its sequence.
    async fn domain_offer(&mut self, who: &str, domain: &str, gets: Value, flags: u32) -> u64 {
        let tx = json!({"TransactionType": "OfferCreate", "TakerPays": xrp(10), "TakerGets": gets, "DomainID": domain, "Flags": flags});
        let r = self.submit(who, tx).await;
        r["tx_json"]["Sequence"].as_u64().unwrap()
    }

    /// The validated XRP/USD book (takers pay XRP, get USD), in `domain` if given.
    async fn xrp_usd_book(&mut self, domain: Option<&str>) -> Vec<Value> {
        let mut p = json!({"taker_pays": {"currency": "XRP"}, "taker_gets": usd_spec(), "ledger_index": "validated"});
        if let Some(dom) = domain {
            p = with(p, json!({"domain": dom}));
        }
        let r = self.result("book_offers", p).await;
        r["offers"].as_array().unwrap().clone()
    }
}

fn seqs(offers: &[Value]) -> Vec<u64> {
    offers
        .iter()
        .map(|o| o["Sequence"].as_u64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn domain_and_hybrid_offers_in_book_offers_ledger_entry_and_account_objects() {
    let mut d = Market::start().await;
    let domain = domain_market(&mut d).await;
    let open = d.offer("pdAlice", xrp(10), usd("gwPd", "10")).await;
    let dom = d.domain_offer("pdBob", &domain, usd("gwPd", "10"), 0).await;
    let hybrid = d
        .domain_offer("pdBob", &domain, usd("gwPd", "5"), 0x0010_0000)
        .await;
    d.close().await;

    let in_domain = d.xrp_usd_book(Some(&domain)).await;
    // 10 XRP for 10 USD is the better quality for a taker than 10 XRP for 5 USD.
    assert_eq!(seqs(&in_domain), [dom, hybrid], "the better quality first");
    assert_eq!(in_domain[1]["DomainID"], domain.as_str());
    assert_eq!(in_domain[1]["Flags"], 0x0004_0000, "lsfHybrid");
    assert_eq!(in_domain[0]["owner_funds"], "100");
    let open_book = d.xrp_usd_book(None).await;
    assert_eq!(
        seqs(&open_book),
        [open, hybrid],
        "the hybrid offer is in both"
    );

    // ledger_entry: the hybrid offer's two books.
    let r = d
        .result(
            "ledger_entry",
            json!({"offer": {"account": address("pdBob"), "seq": hybrid}, "ledger_index": "validated"}),
        )
        .await;
    let node = &r["node"];
    assert_eq!(node["DomainID"], domain.as_str(), "{r}");
    let extra = node["AdditionalBooks"].as_array().expect("AdditionalBooks");
    assert_eq!(extra.len(), 1);
    let open_dir = extra[0]["Book"]["BookDirectory"].as_str().unwrap();
    assert_eq!(extra[0]["Book"]["BookNode"], "0");
    // The open book's base (the key's first 24 bytes), at the hybrid offer's quality.
    let open_base = &open_book[0]["BookDirectory"].as_str().unwrap()[..48];
    assert_eq!(&open_dir[..48], open_base);
    assert_eq!(
        &open_dir[48..],
        &node["BookDirectory"].as_str().unwrap()[48..]
    );
    assert_ne!(open_dir, node["BookDirectory"].as_str().unwrap());
    let page = d
        .result(
            "ledger_entry",
            json!({"index": node["BookDirectory"], "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(page["node"]["DomainID"], domain.as_str(), "{page}");
    let page = d
        .result(
            "ledger_entry",
            json!({"index": open_dir, "ledger_index": "validated"}),
        )
        .await;
    assert!(page["node"].get("DomainID").is_none(), "{page}");

    // account_objects shows the entry; account_offers lists the offers as rippled does.
    let r = d
        .result(
            "account_objects",
            json!({"account": address("pdBob"), "type": "offer", "ledger_index": "validated"}),
        )
        .await;
    let objs = r["account_objects"].as_array().unwrap();
    assert_eq!(objs.len(), 2);
    assert!(objs.iter().all(|o| o["DomainID"] == domain.as_str()), "{r}");
    let r = d
        .result(
            "account_offers",
            json!({"account": address("pdBob"), "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(r["offers"].as_array().map(Vec::len), Some(2), "{r}");

    // A malformed domain.
    let p = json!({"taker_pays": {"currency": "XRP"}, "taker_gets": usd_spec(), "domain": "zz"});
    let r = d.call("book_offers", p).await;
    assert_eq!(err(&r).0, "domainMalformed", "{r}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_domain_payment_and_its_errors_over_the_api() {
    let mut d = Market::start().await;
    let domain = domain_market(&mut d).await;
    d.domain_offer("pdBob", &domain, usd("gwPd", "10"), 0).await;
    d.close().await;
    // alice pays carol 10 USD with XRP, through the domain's book.
    let pay = json!({"TransactionType": "Payment", "Destination": address("pdCarol"), "Amount": usd("gwPd", "10"), "SendMax": xrp(10), "DomainID": domain, "Paths": [[{"currency": "USD", "issuer": address("gwPd")}]]});
    d.submit("pdAlice", pay).await;
    d.close().await;
    assert_eq!(d.balance("pdCarol", "USD", "gwPd").await, "10");
    // gw is no member: tecNO_PERMISSION.
    let pay = json!({"TransactionType": "Payment", "Destination": address("pdCarol"), "Amount": usd("gwPd", "1"), "DomainID": domain, "Account": address("gwPd")});
    let r = d
        .result(
            "submit",
            json!({"secret": support::keys::secret("gwPd"), "tx_json": pay}),
        )
        .await;
    assert_eq!(r["engine_result"], "tecNO_PERMISSION", "{r}");
    // sign with build_path searches the domain's books; a bad DomainID is refused.
    d.domain_offer("pdBob", &domain, usd("gwPd", "10"), 0).await;
    d.close().await;
    let tx = json!({"TransactionType": "Payment", "Account": address("pdAlice"), "Destination": address("pdCarol"), "Amount": usd("gwPd", "1"), "SendMax": xrp(1), "DomainID": domain});
    let signed = d
        .result(
            "sign",
            json!({"secret": support::keys::secret("pdAlice"), "tx_json": tx.clone(), "build_path": true}),
        )
        .await;
    assert_eq!(
        signed["tx_json"]["Paths"],
        json!([[{"currency": "USD", "issuer": address("gwPd"), "type": 48}]]),
        "{signed}"
    );
    // Without the DomainID the open books hold nothing: no paths.
    let mut open = tx.clone();
    open.as_object_mut().unwrap().remove("DomainID");
    let signed = d
        .result(
            "sign",
            json!({"secret": support::keys::secret("pdAlice"), "tx_json": open, "build_path": true}),
        )
        .await;
    assert!(signed["tx_json"].get("Paths").is_none(), "{signed}");
    let bad = with(tx, json!({"DomainID": "zz"}));
    let r = d
        .call(
            "sign",
            json!({"secret": support::keys::secret("pdAlice"), "tx_json": bad, "build_path": true}),
        )
        .await;
    assert_eq!(
        err(&r),
        (
            "domainMalformed".into(),
            "Unable to parse 'DomainID'.".into()
        ),
        "{r}"
    );
    // A hybrid offer without a domain is malformed.
    let tx = json!({"TransactionType": "OfferCreate", "TakerPays": xrp(1), "TakerGets": usd("gwPd", "1"), "Flags": 0x0010_0000, "Account": address("pdBob")});
    let r = d
        .result(
            "submit",
            json!({"secret": support::keys::secret("pdBob"), "tx_json": tx}),
        )
        .await;
    assert_eq!(r["engine_result"], "temINVALID_FLAG", "{r}");
    // The amendment is reported enabled.
    let r = d
        .result("feature", json!({"feature": "PermissionedDEX"}))
        .await;
    let f = r.as_object().unwrap().values().next().unwrap().clone();
    assert_eq!(f["enabled"], true, "{r}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_domain_books_subscription_sees_its_book() {
    let mut d = Market::start().await;
    let domain = domain_market(&mut d).await;
    let dom1 = d.domain_offer("pdBob", &domain, usd("gwPd", "10"), 0).await;
    d.close().await;
    let mut dom_watch = Ws::connect_to(addr(&d.server)).await;
    let mut open_watch = Ws::connect_to(addr(&d.server)).await;
    // Offers selling USD for XRP are published to (taker_pays USD, taker_gets XRP).
    let book = json!({"taker_pays": usd_spec(), "taker_gets": {"currency": "XRP"}});
    let sub = json!({"command": "subscribe", "books": [with(book.clone(), json!({"domain": domain, "snapshot": true, "both": true}))]});
    let r = dom_watch.req(sub).await;
    assert_eq!(seqs(r["result"]["asks"].as_array().unwrap()), [dom1], "{r}");
    assert_eq!(r["result"]["bids"], json!([]));
    let sub = json!({"command": "subscribe", "books": [book]});
    let r = open_watch.req(sub).await;
    assert_eq!(r["status"], "success", "{r}");

    let dom2 = d.domain_offer("pdBob", &domain, usd("gwPd", "5"), 0).await;
    d.close().await;
    let open = d.offer("pdAlice", xrp(10), usd("gwPd", "10")).await;
    d.close().await;
    let m = dom_watch.event("transaction").await;
    assert_eq!(m["transaction"]["Sequence"], dom2, "{m}");
    assert_eq!(m["transaction"]["DomainID"], domain.as_str());
    // The open book's follower hears of the open offer, not of the domain one.
    let m = open_watch.event("transaction").await;
    assert_eq!(m["transaction"]["Sequence"], open, "{m}");
    assert!(m["transaction"].get("DomainID").is_none());
    // ripple_path_find in the domain finds the path through its book.
    let r = d
        .result(
            "ripple_path_find",
            json!({"source_account": address("pdCarol"), "destination_account": address("pdCarol"),
                   "destination_amount": usd("gwPd", "1"), "source_currencies": [{"currency": "XRP"}],
                   "domain": domain, "ledger_index": "validated"}),
        )
        .await;
    let alts = r["alternatives"].as_array().unwrap();
    assert_eq!(alts.len(), 1, "{r}");
    assert_eq!(alts[0]["source_amount"], "1000000", "{r}");
    d.stop().await;
}
