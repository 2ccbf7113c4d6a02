//! Stateless read nodes over PostgreSQL (issue 18), against the real binary: a writer
//! copying its history into a throwaway PostgreSQL, and read nodes
//! (`serve --read-only --postgres URL --writer ws://...`) serving from it.
//!
//! - The history reads (account_tx, tx, ledger, account_info at old ledgers, ledger_data,
//!   book_offers, Clio's nft_info, nft_history and nfts_by_issuer) give byte-identical replies from a read node and from the writer, for
//!   ledgers the writer holds in memory and for older ones it reads from its own store.
//! - A client submits through one read node and sees its transaction in another read
//!   node's stream; the database restarts mid-test, then the writer does.

use crate::support;

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};
use support::fill::{accept, call, caught_up, pay, validated, GENESIS};
use support::http::rpc;
use support::keys::{address, secret};
use support::postgres::PgCluster;
use support::server::Server;
use support::ws::Ws;

/// More than the 256 closed ledgers memory keeps (`LEDGER_HISTORY_COUNT`), less the
/// payments' own ledgers: the oldest payments are beyond the writer's memory.
const LATER_LEDGERS: usize = 253;

fn writer_args<'a>(dir: &'a str, listen: &'a str, url: &'a str) -> Vec<&'a str> {
    vec![
        "serve",
        "--listen",
        listen,
        "--data-dir",
        dir,
        "--close-interval",
        "0",
        "--postgres",
        url,
    ]
}

fn start_writer(dir: &Path, listen: &str, url: &str) -> Server {
    let dir = dir.to_str().expect("a UTF-8 temp path");
    Server::start_args(&writer_args(dir, listen, url), 1)
}

fn start_reader(url: &str, writer: &Server) -> Server {
    let ws = writer.ws_url();
    Server::start_args(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--read-only",
            "--postgres",
            url,
            "--writer",
            &ws,
        ],
        1,
    )
}

/// The raw reply body of the same request to both servers must be the same bytes.
/// `read()` again every 50 ms until `done` says so (at most 10 s); the last value.
fn eventually(read: impl Fn() -> Value, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let v = read();
        if done(&v) || Instant::now() > deadline {
            return v;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The `"actions":...` of the explorer page a browser gets from `addr`.
fn explorer_actions(addr: SocketAddr) -> String {
    let page = support::http::send_raw(
        addr,
        &format!(
            "GET / HTTP/1.1\r\nHost: {addr}\r\nAccept: text/html\r\nConnection: close\r\n\r\n"
        ),
    );
    assert_eq!(page.status, 200);
    let at = page
        .body
        .find("\"actions\":")
        .expect("the explorer's settings");
    page.body[at..]
        .split(',')
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn same(writer: SocketAddr, reader: SocketAddr, method: &str, params: Value) -> Value {
    let (w, r) = (
        rpc(writer, method, params.clone()),
        rpc(reader, method, params.clone()),
    );
    assert_eq!(
        w.body, r.body,
        "{method} {params}: the writer's reply, then the read node's"
    );
    let v = w.json()["result"].clone();
    assert_ne!(v["status"], "error", "{method} {params}: {v}");
    v
}

/// Every page of an account's transactions, compared page by page.
fn same_pages(w: SocketAddr, r: SocketAddr, account: &str, forward: bool, api: u32) -> usize {
    let mut marker = Value::Null;
    let mut rows = 0;
    for _ in 0..100 {
        let mut req = json!({"account": account, "forward": forward, "limit": 3,
            "api_version": api});
        if !marker.is_null() {
            req["marker"] = marker.clone();
        }
        let page = same(w, r, "account_tx", req);
        rows += page["transactions"].as_array().map_or(0, Vec::len);
        marker = page["marker"].clone();
        if marker.is_null() {
            return rows;
        }
    }
    panic!("account_tx paging did not end");
}

#[test]
fn a_read_node_answers_history_reads_byte_for_byte_as_the_writer() {
    let pg = PgCluster::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let writer = start_writer(dir.path(), "127.0.0.1:0", &pg.url());
    let w = writer.addr();
    // Two NFTokens minted by genesis, one burned: Clio's NFT methods read the NFT index.
    let mut mints = Vec::new();
    for taxon in [3, 4] {
        let tx = json!({"TransactionType": "NFTokenMint", "Account": address(GENESIS),
            "NFTokenTaxon": taxon, "URI": "697066733A2F2F78"});
        let r = call(
            w,
            "submit",
            json!({"secret": secret(GENESIS), "tx_json": tx}),
        );
        assert_eq!(r["engine_result"], "tesSUCCESS", "mint: {r}");
        mints.push(r["tx_json"]["hash"].as_str().expect("hash").to_owned());
    }
    accept(w);
    let nfts: Vec<String> = mints
        .iter()
        .map(|h| {
            let t = call(w, "tx", json!({"transaction": h}));
            t["meta"]["nftoken_id"]
                .as_str()
                .expect("nftoken_id")
                .to_owned()
        })
        .collect();
    let burn = json!({"TransactionType": "NFTokenBurn", "Account": address(GENESIS),
        "NFTokenID": nfts[1]});
    let r = call(
        w,
        "submit",
        json!({"secret": secret(GENESIS), "tx_json": burn}),
    );
    assert_eq!(r["engine_result"], "tesSUCCESS", "burn: {r}");
    accept(w);
    let mut payments = Vec::new();
    for i in 0..6u64 {
        let dest = address(&format!("read node {i}"));
        let hash = pay(w, &dest, 100_000_000 + i);
        accept(w);
        payments.push((dest, hash, validated(w)));
    }
    // The first payments end up older than the 256 ledgers the writer keeps in memory: it
    // answers for them from its SQLite store, the read node from PostgreSQL.
    for _ in 0..LATER_LEDGERS {
        accept(w);
    }
    // The newest ledger holds a payment too: the read node's tip.
    let last = pay(w, &address("read node tip"), 123_000_000);
    accept(w);
    let reader = start_reader(&pg.url(), &writer);
    let r = reader.addr();
    caught_up(r, w);
    // The explorer: the same page on both; the read node offers no development actions.
    assert_eq!(explorer_actions(w), "\"actions\":true");
    assert_eq!(explorer_actions(r), "\"actions\":false");

    let genesis = address(GENESIS);
    assert_eq!(same_pages(w, r, &genesis, true, 1), 10);
    assert_eq!(same_pages(w, r, &genesis, false, 2), 10);
    // The newest validated ledger, by name and by number.
    let tip = validated(w);
    for ledger in [json!("validated"), json!(tip)] {
        for api in [1, 2] {
            same(
                w,
                r,
                "ledger",
                json!({"ledger_index": ledger, "transactions": true,
                "expand": true, "api_version": api}),
            );
        }
        same(
            w,
            r,
            "account_info",
            json!({"account": genesis, "ledger_index": ledger}),
        );
        same(
            w,
            r,
            "account_tx",
            json!({"account": genesis, "ledger_index": ledger}),
        );
    }
    same(w, r, "tx", json!({"transaction": last}));
    let listed = same(w, r, "nfts_by_issuer", json!({"issuer": genesis}));
    assert_eq!(listed["nfts"].as_array().map(Vec::len), Some(2), "{listed}");
    for id in &nfts {
        let info = same(w, r, "nft_info", json!({"nft_id": id}));
        assert_eq!(info["issuer"], genesis.as_str(), "{info}");
        for api in [1, 2] {
            let h = same(
                w,
                r,
                "nft_history",
                json!({"nft_id": id, "api_version": api}),
            );
            assert!(
                !h["transactions"].as_array().expect("rows").is_empty(),
                "{h}"
            );
        }
    }
    for (dest, hash, seq) in &payments {
        assert_eq!(same_pages(w, r, dest, true, 2), 1);
        for api in [1, 2] {
            same(w, r, "tx", json!({"transaction": hash, "api_version": api}));
            same(
                w,
                r,
                "ledger",
                json!({"ledger_index": seq, "transactions": true,
                "expand": true, "api_version": api}),
            );
        }
        same(w, r, "tx", json!({"transaction": hash, "binary": true}));
        let l = same(w, r, "ledger", json!({"ledger_index": seq}));
        same(
            w,
            r,
            "ledger",
            json!({"ledger_hash": l["ledger_hash"], "transactions": true}),
        );
        for account in [dest.as_str(), genesis.as_str()] {
            same(
                w,
                r,
                "account_info",
                json!({"account": account, "ledger_index": seq}),
            );
        }
        same(
            w,
            r,
            "account_info",
            json!({"account": dest, "ledger_index": "validated"}),
        );
        same(
            w,
            r,
            "account_tx",
            json!({"account": dest, "ledger_index": seq}),
        );
        same(
            w,
            r,
            "ledger_data",
            json!({"ledger_index": seq, "limit": 4}),
        );
        same(
            w,
            r,
            "book_offers",
            json!({"ledger_index": seq, "taker_gets": {"currency": "XRP"},
            "taker_pays": {"currency": "USD", "issuer": genesis}}),
        );
    }
    // An account before it existed, a ledger not yet closed: the same errors.
    let (dest, _, seq) = &payments[3];
    let before = json!({"account": dest, "ledger_index": seq - 2});
    assert_eq!(
        rpc(w, "account_info", before.clone()).body,
        rpc(r, "account_info", before).body
    );
    let info = call(r, "server_info", json!({}));
    let complete = info["info"]["complete_ledgers"].as_str().unwrap_or("");
    assert!(complete.starts_with("1-"), "complete_ledgers {complete}");

    // A PostgreSQL history made before the NFT index: the index emptied, then built from
    // the stored transactions (a ledger a batch), it holds what the writer wrote.
    use ledgerd::store::{HistoryStore, PgHistory};
    let store = PgHistory::open(&pg.url()).expect("open");
    let tokens: Vec<_> = nfts
        .iter()
        .map(|t| ledgerd::protocol::types::Hash256::from_hex(t).expect("id"))
        .collect();
    let at = u32::try_from(tip).expect("seq");
    let before: Vec<_> = tokens
        .iter()
        .map(|t| store.nft(t, at).expect("read"))
        .collect();
    assert!(before.iter().all(Option::is_some));
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let (client, conn) = tokio_postgres::connect(&pg.url(), tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client
            .batch_execute(
                "DELETE FROM nft_states; DELETE FROM nft_txs; DELETE FROM nft_issuers; \
                 DELETE FROM settings WHERE name = 'nft_index_built';",
            )
            .await
            .expect("empty the index");
    });
    assert!(!store.nft_index_ready().expect("ready?"));
    // The read node learns it at its follower's next look at the database.
    let wiped = eventually(
        || call(r, "nft_info", json!({"nft_id": nfts[0]})),
        |v| v["error"] == "notReady",
    );
    assert_eq!(wiped["error"], "notReady", "{wiped}");
    let mut batches = 0;
    store
        .build_nft_index(1, |_, _| batches += 1)
        .expect("built");
    assert!(batches > 10, "{batches}");
    let after: Vec<_> = tokens
        .iter()
        .map(|t| store.nft(t, at).expect("read"))
        .collect();
    assert_eq!(after, before);
    eventually(
        || call(r, "nft_info", json!({"nft_id": nfts[0]})),
        |v| v.get("error").is_none(),
    );
    same(w, r, "nft_info", json!({"nft_id": nfts[0]}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_through_one_read_node_stream_from_another_across_restarts() {
    let pg = PgCluster::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let writer = start_writer(dir.path(), "127.0.0.1:0", &pg.url());
    let listen = writer.addr().to_string();
    let a = start_reader(&pg.url(), &writer);
    let b = start_reader(&pg.url(), &writer);
    let (ra, rb) = (a.addr(), b.addr());
    let listen_a = listen.clone();
    blocking(move || caught_up(rb, writer_addr(&listen))).await;
    // A takes the submissions: it answers noClosed until it has a closed ledger.
    blocking(move || caught_up(ra, writer_addr(&listen_a))).await;

    let mut stream = Ws::connect(&b.ws_url()).await;
    let r = stream
        .req(json!({"command": "subscribe", "streams": ["transactions"]}))
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let mut proposed = Ws::connect(&b.ws_url()).await;
    let r = proposed
        .req(
            json!({"command": "subscribe", "accounts_proposed": [address("stream one")],
            "api_version": 2}),
        )
        .await;
    assert_eq!(r["status"], "success", "{r}");
    // The relay connects to the writer once someone listens: wait until it carries a
    // proposed message (however slow the machine), then close that probe's ledger.
    relay_carries(ra, &b.ws_url()).await;

    // Submitted through A (signed there: loopback is admin), closed through A.
    let hash = blocking(move || {
        let h = pay(ra, &address("stream one"), 40_000_000);
        accept(ra);
        h
    })
    .await;
    let seen = event_for(&mut stream, &hash).await;
    assert_eq!(seen["validated"], true);
    // accounts_proposed on B: the writer's proposed message, relayed, then the validated
    // one B publishes from the database.
    let early = proposed.event("transaction").await;
    assert_eq!(early["validated"], false, "{early}");
    assert_eq!(early["hash"], hash.as_str(), "{early}");
    let late = proposed.event("transaction").await;
    assert_eq!(late["validated"], true, "{late}");

    // The database restarts: reads still answer (or say notReady), never crash; the
    // writer goes on; afterwards B streams what was closed meanwhile.
    pg.stop_server();
    let during = blocking(move || {
        let r = call(
            ra,
            "account_info",
            json!({"account": address("stream one"),
            "ledger_index": 2}),
        );
        let h = pay(ra, &address("stream two"), 40_000_000);
        accept(ra);
        (r, h)
    })
    .await;
    let (r, hash) = during;
    assert!(r["error"] == "notReady" || r["status"] == "success", "{r}");
    pg.start_server();
    let seen = stream.event("transaction").await;
    assert_eq!(seen["transaction"]["hash"], hash.as_str(), "{seen}");

    // The writer restarts on the same port: a submission meanwhile is notReady; reads
    // go on from the database; afterwards submissions flow again.
    let listen = writer.addr().to_string();
    assert!(writer.terminate().success());
    let r = blocking(move || {
        let tx = json!({"TransactionType": "Payment", "Account": address(GENESIS),
            "Destination": address("stream three"), "Amount": "40000000"});
        call(
            ra,
            "submit",
            json!({"secret": secret(GENESIS), "tx_json": tx}),
        )
    })
    .await;
    assert_eq!(r["error"], "notReady", "{r}");
    let r = blocking(move || {
        call(
            rb,
            "account_info",
            json!({"account": address("stream two"),
        "ledger_index": "validated"}),
        )
    })
    .await;
    assert_eq!(r["status"], "success", "{r}");
    let d = dir.path().to_path_buf();
    let url = pg.url();
    let writer = blocking(move || start_writer(&d, &listen, &url)).await;
    let hash = blocking(move || {
        let h = pay(ra, &address("stream three"), 40_000_000);
        accept(ra);
        h
    })
    .await;
    let seen = stream.event("transaction").await;
    assert_eq!(seen["transaction"]["hash"], hash.as_str(), "{seen}");
    drop(writer);
}

fn writer_addr(listen: &str) -> SocketAddr {
    listen.parse().expect("address")
}

/// Probes B's proposed relay (API version 2, as the test's `accounts_proposed`): a payment
/// through A to a probe account until B's `transactions_proposed` shows one, then closes
/// the probes' ledger through A.
async fn relay_carries(a: SocketAddr, b_url: &str) {
    let mut probe = Ws::connect(b_url).await;
    let r = probe
        .req(
            json!({"command": "subscribe", "streams": ["transactions_proposed"], "api_version": 2}),
        )
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(
            Instant::now() < deadline,
            "the proposed relay never carried a message"
        );
        blocking(move || pay(a, &address("relay probe"), 40_000_000)).await;
        let next = tokio::time::timeout(Duration::from_secs(2), probe.event("transaction"));
        if next.await.is_ok() {
            break;
        }
    }
    blocking(move || accept(a)).await;
}

/// The next `transaction` message on `stream` for `hash`, after those of the relay probes.
async fn event_for(stream: &mut Ws, hash: &str) -> Value {
    loop {
        let seen = stream.event("transaction").await;
        if seen["transaction"]["hash"] == hash {
            return seen;
        }
        let probe = seen["transaction"]["Destination"].as_str();
        assert_eq!(probe, Some(address("relay probe").as_str()), "{seen}");
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.expect("blocking work")
}
