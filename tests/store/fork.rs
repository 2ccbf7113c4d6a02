//! `serve --fork`: a second ledgerd forks an upstream ledgerd's validated ledger. The fork
//! sees the upstream's accounts, trust lines and offers, applies its own transactions on
//! top, and the upstream never changes; an unreachable upstream or a missing ledger refuses
//! to start with a clear message and a non-zero exit.

use crate::support;

use futures::{SinkExt, StreamExt};
use ledgerd::server::config::{ForkConfig, ServerConfig};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::keys::address;
use support::market::{usd, xrp, Market};
use support::server::{addr, start_with};
use support::ws::Ws;
use tokio_tungstenite::tungstenite::Message;

/// An upstream with a gateway, two funded accounts, alice holding 100 USD and offering
/// 10 USD for 10 XRP, all validated.
async fn upstream() -> Market {
    let mut m = Market::start().await;
    for who in ["gwF", "aliceF", "bobF", "daveF"] {
        m.fund(who, 1000).await;
    }
    m.close().await;
    m.hold("aliceF", "USD", "gwF", "100").await;
    m.close().await;
    m.offer("aliceF", xrp(10), usd("gwF", "10")).await;
    m.close().await;
    m
}

/// A fork of `up` (in-process) at `ledger` (None: its newest validated), and a connection.
async fn fork_of(up: &Market, ledger: Option<u32>) -> Market {
    fork_with(up, ledger, false).await
}

/// [`fork_of`], lazy (`--fork-lazy`) when `lazy`.
async fn fork_with(up: &Market, ledger: Option<u32>, lazy: bool) -> Market {
    fork_copying(up, ledger, lazy, ledgerd::limits::FORK_WHOLE_ENTRIES_MAX).await
}

/// [`fork_with`], copying at most `copy_entries_max` entries whole.
async fn fork_copying(
    up: &Market,
    ledger: Option<u32>,
    lazy: bool,
    copy_entries_max: usize,
) -> Market {
    let upstream = format!("ws://{}/", addr(&up.server));
    let fork = ForkConfig {
        upstream,
        ledger,
        lazy,
        copy_entries_max,
    };
    let server = start_with(0, |c| c.fork = Some(fork)).await;
    let ws = Ws::connect_to(addr(&server)).await;
    Market { server, ws }
}

async fn validated(m: &mut Market) -> (u64, String) {
    let r = m
        .result("ledger", json!({"ledger_index": "validated"}))
        .await;
    let seq = r["ledger_index"]
        .as_u64()
        .or_else(|| r["ledger"]["ledger_index"].as_str()?.parse().ok());
    (
        seq.expect("ledger_index"),
        r["ledger_hash"].as_str().expect("hash").to_string(),
    )
}

async fn account_root(m: &mut Market, who: &str, ledger: &str) -> Value {
    let r = m
        .result(
            "account_info",
            json!({"account": address(who), "ledger_index": ledger}),
        )
        .await;
    r["account_data"].clone()
}

async fn offers(m: &mut Market) -> Vec<Value> {
    let r = m
        .result(
            "book_offers",
            json!({"taker_gets": {"currency": "USD", "issuer": address("gwF")},
                   "taker_pays": {"currency": "XRP"}, "ledger_index": "current"}),
        )
        .await;
    r["offers"].as_array().cloned().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_sees_the_upstream_applies_on_top_and_leaves_it_untouched() {
    let mut up = upstream().await;
    let (up_seq, up_hash) = validated(&mut up).await;
    let alice_up = account_root(&mut up, "aliceF", "validated").await;

    let mut fork = fork_of(&up, None).await;
    // The fork's validated ledger is the upstream's, byte for byte (same hash).
    assert_eq!(validated(&mut fork).await, (up_seq, up_hash.clone()));
    let current = fork.result("ledger_current", json!({})).await;
    assert_eq!(current["ledger_current_index"], json!(up_seq + 1));
    assert_eq!(
        account_root(&mut fork, "aliceF", "validated").await,
        alice_up
    );
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "100");
    let book = offers(&mut fork).await;
    assert_eq!(book.len(), 1, "{book:?}");
    assert_eq!(book[0]["Account"], json!(address("aliceF")));
    let offer_index = book[0]["index"].as_str().expect("offer index").to_string();
    let entry = fork
        .result(
            "ledger_entry",
            json!({"index": offer_index, "ledger_index": "validated"}),
        )
        .await;
    assert_eq!(entry["node"]["LedgerEntryType"], "Offer");

    // Local transactions: a payment to a new account, and bob taking alice's offer.
    let bob_before = account_root(&mut fork, "bobF", "current").await["Balance"].clone();
    let pay =
        json!({"TransactionType": "Payment", "Destination": address("carolF"), "Amount": xrp(50)});
    fork.submit("bobF", pay).await;
    fork.hold("bobF", "USD", "gwF", "0").await;
    let take = json!({"TransactionType": "OfferCreate", "TakerPays": usd("gwF", "10"), "TakerGets": xrp(10)});
    fork.submit("bobF", take).await;
    fork.close().await;
    assert_eq!(fork.balance("bobF", "USD", "gwF").await, "10");
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "90");
    assert!(
        offers(&mut fork).await.is_empty(),
        "alice's offer is consumed on the fork"
    );
    assert_eq!(
        account_root(&mut fork, "carolF", "validated").await["Balance"],
        xrp(50)
    );
    let bob_after = account_root(&mut fork, "bobF", "validated").await["Balance"].clone();
    let spent = |v: &Value| v.as_str().unwrap().parse::<i64>().unwrap();
    // 50 XRP paid, 10 XRP for the USD, three fees of 10 drops.
    assert_eq!(spent(&bob_before) - spent(&bob_after), 60_000_030);
    let next = fork
        .result("ledger", json!({"ledger_index": up_seq + 1}))
        .await;
    assert_eq!(next["ledger"]["parent_hash"], json!(up_hash));

    // The upstream saw none of it.
    assert_eq!(validated(&mut up).await, (up_seq, up_hash));
    assert_eq!(account_root(&mut up, "aliceF", "validated").await, alice_up);
    assert_eq!(up.balance("bobF", "USD", "gwF").await, "");
    assert_eq!(offers(&mut up).await.len(), 1);
    let carol = up
        .call("account_info", json!({"account": address("carolF")}))
        .await;
    assert_eq!(support::market::err(&carol).0, "actNotFound");
    fork.stop().await;
    up.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_at_an_older_ledger_sees_that_ledger_and_outlives_its_upstream() {
    let mut up = upstream().await;
    let (up_seq, _) = validated(&mut up).await;
    // Two ledgers back, alice's offer did not exist yet; her trust line did.
    let mut fork = fork_of(&up, Some(up_seq as u32 - 1)).await;
    assert_eq!(validated(&mut fork).await.0, up_seq - 1);
    assert!(offers(&mut fork).await.is_empty());
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "100");

    // The upstream goes away: the fork copied everything at start and keeps working.
    up.stop().await;
    let pay =
        json!({"TransactionType": "Payment", "Destination": address("bobF"), "Amount": xrp(1)});
    fork.submit("aliceF", pay).await;
    fork.close().await;
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "100");
    fork.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lazy_fork_reads_by_key_walks_books_and_fails_cleanly_without_its_upstream() {
    let mut up = upstream().await;
    let (up_seq, up_hash) = validated(&mut up).await;
    let alice_up = account_root(&mut up, "aliceF", "validated").await;
    let mut fork = fork_with(&up, None, true).await;
    assert_eq!(validated(&mut fork).await, (up_seq, up_hash.clone()));
    assert_eq!(
        account_root(&mut fork, "aliceF", "validated").await,
        alice_up
    );
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "100");
    // The book's directories were copied up front; its offer is read by key.
    let book = offers(&mut fork).await;
    assert_eq!(book.len(), 1, "{book:?}");
    assert_eq!(book[0]["Account"], json!(address("aliceF")));
    // A walk over every entry cannot be answered from part of the state.
    let r = fork
        .call("ledger_data", json!({"ledger_index": "validated"}))
        .await;
    assert_eq!(support::market::err(&r).0, "notSupported", "{r}");
    let missing = fork
        .call("account_info", json!({"account": address("nobodyF")}))
        .await;
    assert_eq!(
        support::market::err(&missing).0,
        "actNotFound",
        "an absence is read too"
    );

    fork.hold("bobF", "USD", "gwF", "0").await;
    let take = json!({"TransactionType": "OfferCreate", "TakerPays": usd("gwF", "10"), "TakerGets": xrp(10)});
    fork.submit("bobF", take).await;
    fork.close().await;
    assert_eq!(fork.balance("bobF", "USD", "gwF").await, "10");
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "90");
    assert!(offers(&mut fork).await.is_empty());
    let next = fork
        .result("ledger", json!({"ledger_index": up_seq + 1}))
        .await;
    assert_eq!(next["ledger"]["parent_hash"], json!(up_hash));
    assert_eq!(
        up.balance("bobF", "USD", "gwF").await,
        "",
        "the upstream is untouched"
    );

    // The upstream goes away: what the fork holds still answers; what it would have to
    // read fails cleanly, and a transaction that needed it is not applied.
    up.stop().await;
    assert_eq!(fork.balance("aliceF", "USD", "gwF").await, "90");
    let dave = fork
        .call("account_info", json!({"account": address("daveF")}))
        .await;
    assert_eq!(support::market::err(&dave).0, "noNetwork", "{dave}");
    let seq = account_root(&mut fork, "aliceF", "current").await["Sequence"].clone();
    let pay = json!({"TransactionType": "Payment", "Destination": address("daveF"), "Amount": xrp(1),
        "Account": address("aliceF")});
    let r = fork
        .call(
            "submit",
            json!({"secret": support::keys::secret("aliceF"), "tx_json": pay}),
        )
        .await;
    assert_eq!(support::market::err(&r).0, "noNetwork", "{r}");
    assert_eq!(
        account_root(&mut fork, "aliceF", "current").await["Sequence"],
        seq
    );
    // A source account the fork never read: noNetwork as for sign, simulate and
    // account_info, not srcActNotFound.
    let pay = json!({"TransactionType": "Payment", "Destination": address("aliceF"),
        "Amount": xrp(1), "Account": address("daveF")});
    let secret = support::keys::secret("daveF");
    for method in ["submit", "sign"] {
        let r = fork
            .call(method, json!({"secret": secret, "tx_json": pay}))
            .await;
        assert_eq!(support::market::err(&r).0, "noNetwork", "{method}: {r}");
    }
    let r = fork.call("simulate", json!({"tx_json": pay})).await;
    assert_eq!(support::market::err(&r).0, "noNetwork", "simulate: {r}");
    fork.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_larger_than_the_copy_bound_is_forked_lazily() {
    let mut up = upstream().await;
    let (up_seq, up_hash) = validated(&mut up).await;
    let entries = up
        .result("ledger_data", json!({"ledger_index": "validated"}))
        .await;
    assert!(entries["state"].as_array().unwrap().len() > 3);
    let mut fork = fork_copying(&up, None, false, 3).await;
    assert_eq!(validated(&mut fork).await, (up_seq, up_hash));
    let r = fork
        .call("ledger_data", json!({"ledger_index": "validated"}))
        .await;
    assert_eq!(support::market::err(&r).0, "notSupported", "lazy: {r}");
    assert_eq!(
        account_root(&mut fork, "aliceF", "validated").await,
        account_root(&mut up, "aliceF", "validated").await
    );
    assert_eq!(offers(&mut fork).await.len(), 1);
    let pay =
        json!({"TransactionType": "Payment", "Destination": address("daveF"), "Amount": xrp(5)});
    fork.submit("bobF", pay).await;
    fork.close().await;
    let dave_fork = account_root(&mut fork, "daveF", "validated").await["Balance"].clone();
    let dave_up = account_root(&mut up, "daveF", "validated").await["Balance"].clone();
    let drops = |v: &Value| v.as_str().unwrap().parse::<i64>().unwrap();
    assert_eq!(drops(&dave_fork) - drops(&dave_up), 5_000_000);
    fork.stop().await;
    up.stop().await;
}

/// How a proxy changes what passes through it: the request before it is forwarded, and
/// the reply (with the request as the client sent it) before it is answered.
#[derive(Clone, Copy)]
struct Lie {
    request: fn(&mut Value),
    reply: fn(&Value, &mut Value),
}

/// A WebSocket server that forwards every request to `upstream`, changed by `lie`.
async fn lying_proxy(upstream: SocketAddr, lie: Lie) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let at = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            tokio::spawn(async move {
                let Ok(mut client) = tokio_tungstenite::accept_async(tcp).await else {
                    return;
                };
                let mut up = Ws::connect_to(upstream).await;
                while let Some(Ok(Message::Text(text))) = client.next().await {
                    let asked: Value = serde_json::from_str(text.as_str()).unwrap();
                    let mut request = asked.clone();
                    (lie.request)(&mut request);
                    let mut reply = up.call(request).await;
                    (lie.reply)(&asked, &mut reply);
                    let _ = client.send(Message::text(reply.to_string())).await;
                }
            });
        }
    });
    at
}

fn unchanged(_: &mut Value) {}

/// An upstream whose state does not match its header: the first entry of each
/// `ledger_data` page dropped.
const DROPS_AN_ENTRY: Lie = Lie {
    request: unchanged,
    reply: |asked, reply| {
        if asked["command"] == "ledger_data" {
            if let Some(state) = reply["result"]["state"].as_array_mut() {
                state.remove(0);
            }
        }
    },
};

/// The FeeSettings singleton's key.
const FEES_KEY: &str = "4BC50C9B0D8515D3EAAE1E74B29A95804346C491EE1A95BF25E4AAB854A6A651";

fn is_entry_read(v: &Value) -> bool {
    v["command"] == "ledger_entry"
}

/// Every `ledger_entry` answered with the FeeSettings node, under the index asked.
const ANSWERS_FEE_SETTINGS: Lie = Lie {
    request: |r| {
        if is_entry_read(r) {
            r["index"] = json!(FEES_KEY);
        }
    },
    reply: |asked, reply| {
        if is_entry_read(asked) && reply["result"].is_object() {
            reply["result"]["index"] = asked["index"].clone();
        }
    },
};

/// Every `ledger_entry` answered with bobF's AccountRoot, under its own index.
const ANSWERS_ANOTHER_KEY: Lie = Lie {
    request: |r| {
        if is_entry_read(r) {
            r["index"] = json!(bob_root_key());
        }
    },
    reply: |_, _| {},
};

/// Every entry `ledger_entry` finds answered with bytes that do not decode.
const ANSWERS_GARBAGE: Lie = Lie {
    request: unchanged,
    reply: |asked, reply| {
        if is_entry_read(asked) && reply["result"]["node_binary"].is_string() {
            reply["result"]["node_binary"] = json!("FFFF00");
        }
    },
};

fn bob_root_key() -> String {
    let bob = ledgerd::protocol::types::AccountId::from_address(&address("bobF")).unwrap();
    ledgerd::ledger::keylet::account(&bob).to_hex()
}

/// A lazy fork of `up` through a proxy that lies as `lie` says.
async fn lazy_fork_through(up: &Market, lie: Lie) -> Market {
    let proxy = lying_proxy(addr(&up.server), lie).await;
    let fork = ForkConfig {
        upstream: format!("ws://{proxy}/"),
        ledger: None,
        lazy: true,
        copy_entries_max: ledgerd::limits::FORK_WHOLE_ENTRIES_MAX,
    };
    let server = start_with(0, |c| c.fork = Some(fork)).await;
    let ws = Ws::connect_to(addr(&server)).await;
    Market { server, ws }
}

/// The transactions of the fork's open ledger.
async fn open_transactions(m: &mut Market) -> Vec<Value> {
    let r = m
        .result(
            "ledger",
            json!({"ledger_index": "current", "transactions": true}),
        )
        .await;
    r["ledger"]["transactions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lazy_fork_refuses_entries_its_upstream_lies_about() {
    let mut up = upstream().await;
    // A payment aliceF signed (on the upstream, which knows her Sequence).
    let pay = json!({"TransactionType": "Payment", "Account": address("aliceF"),
        "Destination": address("bobF"), "Amount": xrp(1)});
    let secret = support::keys::secret("aliceF");
    let signed = up
        .result("sign", json!({"secret": secret, "tx_json": pay}))
        .await;
    let blob = signed["tx_blob"].as_str().expect("tx_blob").to_string();
    let lies = [
        ("FeeSettings", ANSWERS_FEE_SETTINGS),
        ("another key", ANSWERS_ANOTHER_KEY),
        ("undecodable", ANSWERS_GARBAGE),
    ];
    for (what, lie) in lies {
        let mut fork = lazy_fork_through(&up, lie).await;
        let info = fork
            .call("account_info", json!({"account": address("aliceF")}))
            .await;
        assert_eq!(support::market::err(&info).0, "noNetwork", "{what}: {info}");
        let r = fork
            .call("submit", json!({"secret": secret, "tx_json": pay}))
            .await;
        assert_eq!(
            support::market::err(&r).0,
            "noNetwork",
            "{what}: sign-and-submit: {r}"
        );
        let r = fork.call("submit", json!({"tx_blob": blob})).await;
        assert_eq!(
            support::market::err(&r).0,
            "noNetwork",
            "{what}: submit: {r}"
        );
        assert!(
            open_transactions(&mut fork).await.is_empty(),
            "{what}: nothing applied"
        );
        // Asked again, the entry is still unknown (not cached as present).
        let again = fork
            .call("account_info", json!({"account": address("aliceF")}))
            .await;
        assert_eq!(
            support::market::err(&again).0,
            "noNetwork",
            "{what}: {again}"
        );
        fork.stop().await;
    }
    up.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copied_state_that_does_not_hash_to_the_header_refuses_to_start() {
    let up = upstream().await;
    let proxy = lying_proxy(addr(&up.server), DROPS_AN_ENTRY).await;
    let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
    let upstream = format!("ws://{proxy}/");
    config.fork = Some(ForkConfig {
        upstream: upstream.clone(),
        ledger: None,
        lazy: false,
        copy_entries_max: ledgerd::limits::FORK_WHOLE_ENTRIES_MAX,
    });
    let refused = ledgerd::app::start(config)
        .await
        .err()
        .expect("a fork of a lying upstream refuses");
    assert!(
        refused.contains("account hash") && refused.contains(&upstream),
        "{refused}"
    );
    up.stop().await;
}

/// `ledgerd serve --listen 127.0.0.1:0 --fork <url> <extra>`: its exit code and stderr,
/// asserting it exits (refuses) within the bound.
fn refused_start(url: &str, extra: &[&str]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["serve", "--listen", "127.0.0.1:0", "--fork", url])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ledgerd");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("a fork of {url} did not refuse to start");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr");
    (status.code().unwrap_or(-1), err)
}

#[test]
fn an_unreachable_upstream_refuses_to_start() {
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("ws://127.0.0.1:{port}/");
    let (code, err) = refused_start(&url, &[]);
    assert_ne!(code, 0);
    assert!(
        err.contains("cannot reach the fork upstream") && err.contains(&url),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let (code, err) = refused_start("http://127.0.0.1:1/", &[]);
    assert_ne!(code, 0);
    assert!(err.contains("must be a ws://HOST:PORT URL"), "{err}");
}

#[test]
fn an_upstream_without_the_ledger_refuses_to_start() {
    let up = support::server::Server::start(&[]);
    let (code, err) = refused_start(&up.ws_url(), &["--fork-ledger", "999999"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("lgrNotFound") && err.contains(&up.ws_url()),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
