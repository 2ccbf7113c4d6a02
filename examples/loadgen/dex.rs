//! `--mode dex [--accounts 100] [--each 40] [--count 20000]`: a market maker's book of
//! 1,000 offers (sell 1,000 USD each, 1.000 to 1.999 XRP per USD), then pre-signed crossing
//! OfferCreates from `accounts` takers, `each` per taker, each taking 1 USD off the best
//! offer (crossing tx/s, p50/p99), then `count` book_offers reads of that book
//! (reads/s, p50/p99).

use super::ledger::{applied, call, connect, drive, pair, percentile, succeeded, Ws, GENESIS_SEED};
use ledgerd::protocol::codec;
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::st::StValue;
use serde_json::{json, Value};

const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
/// Offers in the maker's book.
const BOOK_OFFERS: u32 = 1_000;

fn signed(p: &KeyPair, seq: u32, mut tx: Value) -> String {
    tx["Account"] = json!(p.account_id().to_address());
    tx["Fee"] = json!("10");
    tx["Sequence"] = json!(seq);
    tx["Flags"] = json!(tx["Flags"].as_u64().unwrap_or(0) | 0x8000_0000);
    tx["SigningPubKey"] = json!(p.public.to_hex());
    let mut obj = codec::from_json(&tx).expect("tx");
    let sig = p.sign(&ledgerd::protocol::tx::signing_data(&obj));
    obj.set_named("TxnSignature", StValue::Blob(sig));
    hex::encode_upper(codec::encode(&obj))
}

async fn seq_of(ws: &mut Ws, p: &KeyPair) -> u32 {
    let r = call(
        ws,
        json!({"command": "account_info", "account": p.account_id().to_address()}),
    )
    .await;
    r["result"]["account_data"]["Sequence"]
        .as_u64()
        .unwrap_or(0) as u32
}

async fn submit_all(ws: &mut Ws, blobs: Vec<String>) -> usize {
    let mut ok = 0;
    for b in blobs {
        let r = call(ws, json!({"command": "submit", "tx_blob": b})).await;
        if r["result"]["engine_result"] == "tesSUCCESS" {
            ok += 1;
        } else {
            eprintln!(
                "set-up transaction failed: {}",
                r["result"]["engine_result"]
            );
        }
    }
    ok
}

/// A secret-signed submit from the genesis account.
async fn from_genesis(ws: &mut Ws, tx: Value) {
    let r = call(
        ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": tx}),
    )
    .await;
    if r["result"]["engine_result"] != "tesSUCCESS" {
        eprintln!("genesis submit failed: {r}");
    }
}

fn usd(gw: &str, v: &str) -> Value {
    json!({"currency": "USD", "issuer": gw, "value": v})
}

/// Funds the gateway, the maker and the takers, gives them USD lines and places the book.
async fn set_up(ws: &mut Ws, gw: &KeyPair, maker: &KeyPair, takers: &[KeyPair]) {
    let gwa = gw.account_id().to_address();
    for p in [gw, maker].into_iter().chain(takers) {
        from_genesis(
            ws,
            json!({"TransactionType": "Payment", "Account": GENESIS,
            "Destination": p.account_id().to_address(), "Amount": "10000000000"}),
        )
        .await;
    }
    call(ws, json!({"command": "ledger_accept"})).await;
    let s = seq_of(ws, gw).await;
    submit_all(
        ws,
        vec![signed(
            gw,
            s,
            json!({"TransactionType": "AccountSet", "SetFlag": 8}),
        )],
    )
    .await;
    let mut lines = Vec::new();
    for p in [maker].into_iter().chain(takers) {
        let s = seq_of(ws, p).await;
        lines.push(signed(
            p,
            s,
            json!({"TransactionType": "TrustSet", "LimitAmount": usd(&gwa, "1000000000")}),
        ));
    }
    submit_all(ws, lines).await;
    call(ws, json!({"command": "ledger_accept"})).await;
    let s = seq_of(ws, gw).await;
    let fund = json!({"TransactionType": "Payment", "Destination": maker.account_id().to_address(),
        "Amount": usd(&gwa, "10000000")});
    submit_all(ws, vec![signed(gw, s, fund)]).await;
    let s = seq_of(ws, maker).await;
    let offers: Vec<String> = (0..BOOK_OFFERS)
        .map(|i| {
            let drops = (1_000 + u64::from(i)) * 1_000_000;
            signed(
                maker,
                s + i,
                json!({"TransactionType": "OfferCreate",
                "TakerPays": drops.to_string(), "TakerGets": usd(&gwa, "1000")}),
            )
        })
        .collect();
    let placed = submit_all(ws, offers).await;
    call(ws, json!({"command": "ledger_accept"})).await;
    println!("dex: the maker's book holds {placed} offers");
}

/// Runs the crossing and book_offers measurements.
pub async fn dex_mode(
    addr: &str,
    connections: usize,
    depth: usize,
    accounts: usize,
    each: u32,
    count: usize,
) {
    let mut admin = connect(addr).await;
    let gw = pair("loadgen-dex-gateway");
    let maker = pair("loadgen-dex-maker");
    let takers: Vec<KeyPair> = (0..accounts)
        .map(|i| pair(&format!("loadgen-dex-{i}")))
        .collect();
    set_up(&mut admin, &gw, &maker, &takers).await;
    let gwa = gw.account_id().to_address();
    let n = connections.max(1);
    let mut lists: Vec<Vec<Value>> = vec![Vec::new(); n];
    for (i, t) in takers.iter().enumerate() {
        let s = seq_of(&mut admin, t).await;
        for k in 0..each {
            let tx = json!({"TransactionType": "OfferCreate", "TakerPays": usd(&gwa, "1"),
                "TakerGets": "3000000"});
            lists[i % n].push(json!({"command": "submit", "tx_blob": signed(t, s + k, tx)}));
        }
    }
    let total: usize = lists.iter().map(Vec::len).sum();
    let (mut lat, good, took) = drive(addr, lists, depth, applied).await;
    println!(
        "crossing OfferCreate: {good}/{total} in {:.2} s: {:.0} tx/s, latency p50 {:.2} ms, p99 {:.2} ms",
        took.as_secs_f64(),
        good as f64 / took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
    call(&mut admin, json!({"command": "ledger_accept"})).await;
    // A validated ledger's page is rendered once and served from the cache after; the
    // open ledger's is rendered for every request.
    for ledger in ["validated", "current"] {
        book_reads(addr, &mut admin, &gwa, ledger, connections, depth, count).await;
    }
}

/// `count` book_offers of the maker's book at `ledger` (default page of 60 offers).
async fn book_reads(
    addr: &str,
    admin: &mut Ws,
    gwa: &str,
    ledger: &str,
    connections: usize,
    depth: usize,
    count: usize,
) {
    let book = json!({"command": "book_offers", "taker_gets": {"currency": "USD", "issuer": gwa},
        "taker_pays": {"currency": "XRP"}, "ledger_index": ledger});
    let r = call(admin, book.clone()).await;
    let page = r["result"]["offers"].as_array().map_or(0, Vec::len);
    let per = count / connections.max(1);
    let lists: Vec<Vec<Value>> = (0..connections.max(1))
        .map(|_| vec![book.clone(); per])
        .collect();
    let (mut lat, good, took) = drive(addr, lists, depth, succeeded).await;
    println!(
        "book_offers ({ledger} ledger, {page} offers a page): {good} ok in {:.2} s: {:.0} reads/s, latency p50 {:.2} ms, p99 {:.2} ms",
        took.as_secs_f64(),
        good as f64 / took.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99)
    );
}
