//! The development ledger, against the real binary on a free loopback port: the faucet
//! (`POST /accounts`: its reply's shape, the amount bound, the rate limit, the `off` and
//! `--no-faucet` paths), the prefunded accounts (`--accounts`: determinism, balances, key
//! type, a restart that must not fund them twice) and genesis files (`--genesis`: accounts,
//! trust lines and offers seen through the API; errors).

use crate::support;

use ledgerd::limits::{FAUCET_BURST_REQUESTS, FAUCET_DROPS_DEFAULT};
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::{parse_ripple_lib_seed, Seed};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::Command;
use support::http::{http_to, rpc};
use support::keys::secret;
use support::server::Server;

const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";

/// `POST /accounts` with `body`: (status, JSON body, content type).
fn faucet(addr: SocketAddr, body: &str) -> (u16, Value, String) {
    let reply = http_to(addr, "POST", "/accounts", body);
    let kind = reply.header("content-type").unwrap_or_default().to_owned();
    (reply.status, reply.json(), kind)
}

/// A method's `result` over JSON-RPC.
fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    let reply = rpc(addr, method, params);
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json()["result"].clone()
}

/// An account's XRP balance in drops in the current ledger (None: no account).
fn balance(addr: SocketAddr, account: &str) -> Option<u64> {
    let r = call(
        addr,
        "account_info",
        json!({"account": account, "ledger_index": "current"}),
    );
    r["account_data"]["Balance"].as_str()?.parse().ok()
}

fn sequence(addr: SocketAddr, account: &str) -> u64 {
    let r = call(
        addr,
        "account_info",
        json!({"account": account, "ledger_index": "current"}),
    );
    r["account_data"]["Sequence"].as_u64().expect("sequence")
}

/// The address of a family seed (`s...` secp256k1, `sEd...` ed25519).
fn address_of(seed: &str) -> String {
    let (seed, kt) = match Seed::from_base58(seed) {
        Ok(s) => (s, KeyType::Secp256k1),
        Err(_) => (
            parse_ripple_lib_seed(seed).expect("a seed"),
            KeyType::Ed25519,
        ),
    };
    let pair = KeyPair::from_seed(&seed, kt).expect("derive");
    pair.account_id().to_address()
}

fn new_address(passphrase: &str) -> String {
    address_of(&Seed::from_passphrase(passphrase).to_base58(KeyType::Secp256k1))
}

#[test]
fn faucet_funds_a_destination_and_a_new_wallet() {
    let server = Server::start(&[]);
    let addr = server.addr();
    let dest = new_address("faucet destination");
    let (status, body, kind) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": "25", "userAgent": "test"}).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    assert!(kind.starts_with("application/json"), "{kind}");
    assert_eq!(body["account"]["classicAddress"], dest.as_str());
    assert_eq!(body["account"]["address"], dest.as_str());
    assert!(body["account"]["xAddress"]
        .as_str()
        .unwrap()
        .starts_with('T'));
    assert_eq!(body["amount"], 25);
    assert!(body.get("seed").is_none() && body["account"].get("secret").is_none());
    let hash = body["transactionHash"].as_str().expect("hash").to_owned();
    assert_eq!(hash.len(), 64);
    assert_eq!(balance(addr, &dest), Some(25_000_000));
    // A real Payment from the genesis account, in account_tx once validated.
    call(addr, "ledger_accept", json!({}));
    let txs = call(addr, "account_tx", json!({"account": dest}));
    let tx = &txs["transactions"][0]["tx"];
    assert_eq!(tx["hash"], hash.as_str());
    assert_eq!(tx["TransactionType"], "Payment");
    assert_eq!(tx["Account"], GENESIS);
    // No destination: a wallet made here, its seed returned; the default amount.
    let (status, body, _) = faucet(addr, "");
    assert_eq!(status, 200, "{body}");
    let seed = body["seed"].as_str().expect("seed");
    assert_eq!(body["account"]["secret"], seed);
    let made = body["account"]["classicAddress"].as_str().unwrap();
    assert_eq!(address_of(seed), made);
    assert_eq!(body["amount"], FAUCET_DROPS_DEFAULT / 1_000_000);
    assert_eq!(balance(addr, made), Some(FAUCET_DROPS_DEFAULT));
    // The genesis account's secret is in no reply and no log line.
    let log = server.log_text();
    for secret in ["masterpassphrase", "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"] {
        assert!(!log.contains(secret), "{secret} logged");
        assert!(!body.to_string().contains(secret));
    }
}

#[test]
fn faucet_bounds_the_amount_and_checks_the_body() {
    let server = Server::start(&[]);
    let addr = server.addr();
    let dest = new_address("bounded");
    let (status, body, kind) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": "10001"}).to_string(),
    );
    assert_eq!(status, 400);
    assert!(kind.starts_with("application/json"));
    assert_eq!(body["error"], "amountTooLarge");
    assert!(
        body["error_message"]
            .as_str()
            .unwrap()
            .contains("10000 XRP"),
        "{body}"
    );
    for bad in [
        json!({"destination": dest, "xrpAmount": "-5"}).to_string(),
        json!({"destination": dest, "xrpAmount": "ten"}).to_string(),
        json!({"destination": "rNotAnAddress"}).to_string(),
        json!({"destination": 12}).to_string(),
        "not json".to_owned(),
    ] {
        let (status, body, _) = faucet(addr, &bad);
        assert_eq!(status, 400, "{bad}: {body}");
        assert_eq!(body["error"], "invalidParams", "{bad}");
    }
    assert_eq!(balance(addr, &dest), None);
    // Below the reserve: the payment's own result, as a 400.
    let (status, body, _) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": "0.5"}).to_string(),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "paymentFailed");
    assert!(
        body["error_message"]
            .as_str()
            .unwrap()
            .contains("tecNO_DST_INSUF_XRP"),
        "{body}"
    );
    // The largest amount allowed is paid.
    let (status, body, _) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": 10000}).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(balance(addr, &dest), Some(10_000_000_000));
}

#[test]
fn faucet_rate_limits_each_address() {
    let server = Server::start_quiet(&[]);
    let addr = server.addr();
    // Refused bodies cost a request too, and answer at once: the bucket empties quickly.
    // (A slow machine may see a request come back meanwhile: a little slack.)
    let mut served = 0;
    let body = loop {
        let (status, body, kind) = faucet(addr, "{\"destination\": \"nope\"}");
        if status == 429 {
            assert!(kind.starts_with("application/json"));
            break body;
        }
        assert_eq!(status, 400);
        served += 1;
        assert!(
            served <= FAUCET_BURST_REQUESTS + 3,
            "no 429 after {served} requests"
        );
    };
    assert!(
        served >= FAUCET_BURST_REQUESTS,
        "429 after only {served} requests"
    );
    assert_eq!(body["error"], "slowDown");
    let (status, body, _) = faucet(
        addr,
        &json!({"destination": new_address("late")}).to_string(),
    );
    assert_eq!(status, 429, "{body}");
    assert_eq!(balance(addr, &new_address("late")), None);
    // One request's worth comes back after FAUCET_REFILL_MILLIS.
    std::thread::sleep(std::time::Duration::from_millis(
        ledgerd::limits::FAUCET_REFILL_MILLIS + 200,
    ));
    let (status, body, _) = faucet(
        addr,
        &json!({"destination": new_address("late")}).to_string(),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn faucet_off_by_flag_or_configuration() {
    let server = Server::start(&["--no-faucet"]);
    let (status, body, _) = faucet(server.addr(), "{}");
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"], "faucetDisabled");
    // JSON-RPC on the same port is untouched.
    assert_eq!(call(server.addr(), "ping", json!({}))["status"], "success");
    let toml = |mode: &str| {
        format!("[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\", \"ws\"]\nfaucet = \"{mode}\"\n[[port]]\nname = \"second\"\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\"]\n")
    };
    let (server, _dir) = Server::with_config(&toml("off"), 2);
    assert_eq!(faucet(server.addrs[0], "{}").0, 404);
    // The other port keeps the default (loopback callers): served.
    assert_eq!(faucet(server.addrs[1], "{}").0, 200);
    let (server, _dir) = Server::with_config(&toml("all"), 2);
    assert_eq!(faucet(server.addrs[0], "{}").0, 200);
}

/// The prefunded accounts `serve` printed: (address, seed, balance text).
fn printed_accounts(server: &Server) -> Vec<(String, String, String)> {
    let log = server.log.lock().unwrap().clone();
    log.iter()
        .filter(|l| l.starts_with('('))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!((w[2], w[4]), ("seed", "balance"), "{l}");
            (w[1].to_owned(), w[3].to_owned(), w[5].to_owned())
        })
        .collect()
}

#[test]
fn prefunded_accounts_are_deterministic_and_funded() {
    let args = ["--accounts", "3", "--accounts-seed", "team fixture"];
    let first = printed_accounts(&Server::start_quiet(&args));
    let server = Server::start_quiet(&args);
    let again = printed_accounts(&server);
    assert_eq!(first.len(), 3);
    assert_eq!(first, again, "same seed text, same accounts");
    for (address, seed, shown) in &again {
        assert_eq!(&address_of(seed), address);
        assert!(seed.starts_with('s') && !seed.starts_with("sEd"));
        assert_eq!(shown, "10000");
        assert_eq!(balance(server.addr(), address), Some(10_000_000_000));
    }
    // In a validated ledger before the port opened.
    let r = call(
        server.addr(),
        "account_info",
        json!({"account": again[0].0, "ledger_index": "validated"}),
    );
    assert_eq!(r["account_data"]["Balance"], "10000000000", "{r}");
    let other = printed_accounts(&Server::start_quiet(&["--accounts", "3"]));
    assert_ne!(other[0].0, first[0].0, "another seed text, other accounts");
    let ed = Server::start_quiet(&[
        "--accounts",
        "2",
        "--accounts-seed",
        "team fixture",
        "--accounts-key-type",
        "ed25519",
        "--accounts-balance",
        "250.5",
    ]);
    let ed_accounts = printed_accounts(&ed);
    assert_eq!(ed_accounts.len(), 2);
    for (address, seed, shown) in &ed_accounts {
        assert!(seed.starts_with("sEd"), "{seed}");
        assert_eq!(&address_of(seed), address);
        assert_eq!(shown, "250.5");
        assert_eq!(balance(ed.addr(), address), Some(250_500_000));
    }
    assert_ne!(ed_accounts[0].0, first[0].0);
}

#[test]
fn prefunded_accounts_are_funded_once_across_restarts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().to_str().unwrap().to_owned();
    let args = [
        "--data-dir",
        &data,
        "--accounts",
        "2",
        "--close-interval",
        "0",
    ];
    let server = Server::start_quiet(&args);
    let accounts = printed_accounts(&server);
    let genesis_seq = sequence(server.addr(), GENESIS);
    assert_eq!(genesis_seq, 3, "two payments from the genesis account");
    assert!(server.terminate().success());
    let server = Server::start_quiet(&args);
    assert_eq!(printed_accounts(&server), accounts);
    assert_eq!(
        sequence(server.addr(), GENESIS),
        genesis_seq,
        "not funded again"
    );
    for (address, _, _) in &accounts {
        assert_eq!(balance(server.addr(), address), Some(10_000_000_000));
    }
    // More accounts on a later start: only the new one is funded.
    assert!(server.terminate().success());
    let more = [
        "--data-dir",
        &data,
        "--accounts",
        "3",
        "--close-interval",
        "0",
    ];
    let server = Server::start_quiet(&more);
    assert_eq!(printed_accounts(&server)[..2], accounts[..]);
    assert_eq!(sequence(server.addr(), GENESIS), genesis_seq + 1);
}

#[test]
fn bad_account_options_are_refused() {
    for args in [
        vec!["--accounts", "1001"],
        vec!["--accounts", "1", "--accounts-balance", "lots"],
        vec!["--accounts", "1", "--accounts-key-type", "rsa"],
    ] {
        let out = serve_once(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// `ledgerd serve` on a free port that is expected to refuse to start.
fn serve_once(args: &[&str]) -> std::process::Output {
    let mut all = vec!["serve", "--listen", "127.0.0.1:0"];
    all.extend_from_slice(args);
    if !args.contains(&"--data-dir") {
        all.push("--ephemeral");
    }
    Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(&all)
        .output()
        .expect("run ledgerd")
}

fn write_genesis(dir: &std::path::Path, doc: &Value) -> String {
    let path = dir.join("genesis.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    path.to_str().unwrap().to_owned()
}

/// Issuer (defaultRipple), holder (a line and an offer), and a receive-only account.
fn market_file() -> Value {
    let (issuer, holder) = (new_address("gf issuer"), new_address("gf holder"));
    json!({
        "accounts": [
            {"seed": secret("gf issuer"), "balance": "5000", "flags": ["defaultRipple"]},
            {"seed": secret("gf holder"), "balance": "1000"},
            {"address": new_address("gf watcher"), "balance": "20"}
        ],
        "trust_lines": [
            {"account": holder, "issuer": issuer, "currency": "USD", "limit": "1000", "balance": "100"}
        ],
        "offers": [
            {"account": holder, "taker_gets": {"currency": "USD", "issuer": issuer, "value": "10"},
             "taker_pays": "20000000"}
        ]
    })
}

#[test]
fn genesis_file_builds_accounts_lines_and_offers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write_genesis(dir.path(), &market_file());
    let server = Server::start_quiet(&["--genesis", &file]);
    let addr = server.addr();
    let (issuer, holder) = (new_address("gf issuer"), new_address("gf holder"));
    assert_eq!(balance(addr, &issuer), Some(5_000_000_000));
    assert_eq!(balance(addr, &holder), Some(1_000_000_000));
    assert_eq!(balance(addr, &new_address("gf watcher")), Some(20_000_000));
    let info = call(
        addr,
        "account_info",
        json!({"account": issuer, "ledger_index": "validated"}),
    );
    assert_eq!(info["account_flags"]["defaultRipple"], true, "{info}");
    let lines = call(addr, "account_lines", json!({"account": holder}));
    let line = &lines["lines"][0];
    assert_eq!(
        (line["currency"].as_str(), line["account"].as_str()),
        (Some("USD"), Some(issuer.as_str()))
    );
    assert_eq!(
        (line["balance"].as_str(), line["limit"].as_str()),
        (Some("100"), Some("1000"))
    );
    let book = call(
        addr,
        "book_offers",
        json!({
            "taker_gets": {"currency": "USD", "issuer": issuer},
            "taker_pays": {"currency": "XRP"}
        }),
    );
    let offer = &book["offers"][0];
    assert_eq!(offer["Account"], holder.as_str(), "{book}");
    assert_eq!(offer["TakerPays"], "20000000");
    assert_eq!(offer["TakerGets"]["value"], "10");
    let holder_info = call(addr, "account_info", json!({"account": holder}));
    assert_eq!(holder_info["account_data"]["OwnerCount"], 2);
}

#[test]
fn genesis_file_errors_are_clear() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut unknown = market_file();
    unknown["trust_lines"][0]["issuer"] = json!(new_address("nobody"));
    let mut bad_amount = market_file();
    bad_amount["accounts"][1]["balance"] = json!("12abc");
    let mut poor = market_file();
    poor["accounts"][1]["balance"] = json!("10");
    let mut no_seed = market_file();
    no_seed["offers"][0]["account"] = json!(new_address("gf watcher"));
    for (doc, says) in [
        (unknown, "unknown account"),
        (bad_amount, "balance"),
        (poor, "not enough XRP"),
        (no_seed, "without a seed"),
        (json!({"accounts": [], "extra": 1}), "unknown field"),
    ] {
        let file = write_genesis(dir.path(), &doc);
        let out = serve_once(&["--genesis", &file]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "expected {says:?} in {err}");
    }
    // A data directory that already holds a ledger is refused.
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let server = Server::start_quiet(&["--data-dir", data]);
    assert!(server.terminate().success());
    let file = write_genesis(dir.path(), &market_file());
    let out = serve_once(&["--data-dir", data, "--genesis", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("already holds a ledger"), "{err}");
}

#[test]
fn faucet_pays_from_a_configured_account() {
    let dir = tempfile::tempdir().expect("tempdir");
    let seed = secret("faucet account");
    let file = write_genesis(
        dir.path(),
        &json!({"accounts": [{"seed": seed, "balance": "50000"}]}),
    );
    let config = dir.path().join("ledgerd.toml");
    let port = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\", \"ws\"]\nadmin = [\"127.0.0.1\"]\n";
    std::fs::write(
        &config,
        format!("ephemeral = true\nfaucet_seed = \"{seed}\"\n{port}"),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let server = Server::start_args(&["serve", "--config", config, "--genesis", &file], 1);
    let addr = server.addr();
    let dest = new_address("paid by the configured account");
    let (status, body, _) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": "30"}).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    call(addr, "ledger_accept", json!({}));
    let txs = call(addr, "account_tx", json!({"account": dest}));
    assert_eq!(
        txs["transactions"][0]["tx"]["Account"],
        new_address("faucet account").as_str()
    );
    assert_eq!(
        balance(addr, &new_address("faucet account")),
        Some(50_000_000_000 - 30_000_000 - 10)
    );
    assert!(
        !server.log_text().contains(&seed),
        "the faucet's seed is logged"
    );
    assert!(!body.to_string().contains(&seed));
    // A bad seed is refused without being echoed.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, format!("faucet_seed = \"sNotASeedAtAll\"\n{port}")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["serve", "--ephemeral", "--config", bad.to_str().unwrap()])
        .output()
        .expect("run ledgerd");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("faucet_seed is not a seed") && !err.contains("sNotASeedAtAll"),
        "{err}"
    );
}

#[test]
fn genesis_file_authorizes_lines_of_a_require_auth_issuer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (issuer, holder) = (new_address("auth issuer"), new_address("auth holder"));
    let file = write_genesis(
        dir.path(),
        &json!({
            "accounts": [
                {"seed": secret("auth issuer"), "balance": "100", "flags": ["asfRequireAuth", "defaultRipple"]},
                {"seed": secret("auth holder"), "balance": "100"}
            ],
            "trust_lines": [{"account": holder, "issuer": issuer, "currency": "EUR", "limit": "50", "balance": "7.5"}]
        }),
    );
    let server = Server::start_quiet(&["--genesis", &file]);
    let addr = server.addr();
    let lines = call(addr, "account_lines", json!({"account": holder}));
    assert_eq!(lines["lines"][0]["balance"], "7.5", "{lines}");
    assert_eq!(lines["lines"][0]["peer_authorized"], true, "{lines}");
    let info = call(addr, "account_info", json!({"account": issuer}));
    assert_eq!(
        info["account_flags"]["requireAuthorization"], true,
        "{info}"
    );
    // Each account's balance is the file's: the fees of its own transactions were added.
    assert_eq!(balance(addr, &issuer), Some(100_000_000));
    assert_eq!(balance(addr, &holder), Some(100_000_000));
}

/// Requests at once are paid one after the other from the faucet's account: none meets a
/// Sequence another one used.
#[test]
fn concurrent_faucet_requests_are_all_paid() {
    let server = Server::start_quiet(&[]);
    let addr = server.addr();
    let threads: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let dest = new_address(&format!("concurrent {i}"));
                let body = json!({"destination": dest, "xrpAmount": format!("{}", 100 + i)});
                (dest, faucet(addr, &body.to_string()))
            })
        })
        .collect();
    for (i, t) in threads.into_iter().enumerate() {
        let (dest, (status, body, _)) = t.join().unwrap();
        assert_eq!(status, 200, "{body}");
        assert_eq!(balance(addr, &dest), Some((100 + i as u64) * 1_000_000));
    }
    assert_eq!(sequence(addr, GENESIS), 9);
}

/// `xrpAmount` reads the same as a number or a string (decimal, at most six decimals, no
/// exponent), and the reply writes XRP in decimal: a 1-drop payment is `0.000001`, never
/// `1e-6`.
#[test]
fn faucet_amounts_read_and_print_in_decimal() {
    let server = Server::start_quiet(&[]);
    let addr = server.addr();
    let dest = new_address("decimal amounts");
    for body in [
        json!({"destination": dest, "xrpAmount": "1e3"}).to_string(),
        format!("{{\"destination\": \"{dest}\", \"xrpAmount\": 1e3}}"),
        format!("{{\"destination\": \"{dest}\", \"xrpAmount\": 1E2}}"),
    ] {
        let (status, reply, _) = faucet(addr, &body);
        assert_eq!(status, 400, "{body}: {reply}");
        assert_eq!(reply["error"], "invalidParams", "{body}");
    }
    assert_eq!(balance(addr, &dest), None);
    let (status, reply, _) = faucet(
        addr,
        &format!("{{\"destination\": \"{dest}\", \"xrpAmount\": 12.5}}"),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(balance(addr, &dest), Some(12_500_000));
    // One drop to an account that exists: the reply's text, not only its value.
    let body = json!({"destination": dest, "xrpAmount": "0.000001"}).to_string();
    let reply = http_to(addr, "POST", "/accounts", &body);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.body.contains("\"amount\":0.000001"), "{}", reply.body);
    assert!(
        reply.body.contains("\"balance\":12.500001"),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("e-"), "{}", reply.body);
}

/// `destinationTag` (or `tag`) is the Payment's DestinationTag, checked as a u32.
#[test]
fn faucet_honours_a_destination_tag() {
    let server = Server::start_quiet(&[]);
    let addr = server.addr();
    let dest = new_address("tagged");
    let (status, body, _) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": "50", "destinationTag": 4_000_000_000u32})
            .to_string(),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["account"]["tag"], 4_000_000_000u32, "{body}");
    call(addr, "ledger_accept", json!({}));
    let txs = call(addr, "account_tx", json!({"account": dest}));
    let tx = &txs["transactions"][0]["tx"];
    assert_eq!(tx["DestinationTag"], 4_000_000_000u32, "{txs}");
    let (status, _, _) = faucet(
        addr,
        &json!({"destination": dest, "xrpAmount": "1", "tag": "7"}).to_string(),
    );
    assert_eq!(status, 200);
    call(addr, "ledger_accept", json!({}));
    let txs = call(addr, "account_tx", json!({"account": dest}));
    assert_eq!(txs["transactions"][0]["tx"]["DestinationTag"], 7, "{txs}");
    for bad in [
        json!({"destination": dest, "destinationTag": 4_294_967_296u64}),
        json!({"destination": dest, "destinationTag": -1}),
        json!({"destination": dest, "tag": "seven"}),
        json!({"destination": dest, "tag": 1, "destinationTag": 2}),
    ] {
        let (status, body, _) = faucet(addr, &bad.to_string());
        assert_eq!(status, 400, "{bad}: {body}");
        assert_eq!(body["error"], "invalidParams", "{bad}");
    }
}
