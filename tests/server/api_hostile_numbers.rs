//! Hostile numbers in every numeric request field a public port takes: each method
//! answers with a rippled-style error (or, for a value the field allows, success), never
//! `internal`, over HTTP and over WebSocket, and the WebSocket connection stays open.
//!
//! The fields are parsed one way, with their bounds (`rpc/params.rs`). The codes allowed
//! are rippled's for the field: `invalidParams` ("Invalid field 'limit', not unsigned
//! integer." and the like, rippled's `readLimitField`), `invalid_API_version`, and the
//! method's own answers to a well-formed value (`lgrIdxsInvalid`, `lgrNotValidated`,
//! `actNotFound`, `entryNotFound`, ...).

use crate::support;

use ledgerd::server::config::ServerConfig;
use serde_json::Value;
use std::net::{IpAddr, Ipv4Addr};
use support::http::{post, post_from};
use support::market::err;
use support::server::Node;
use support::ws::Ws;

/// Every hostile number, as JSON text: negative, zero, the u32 bounds, 2^63, 2^64, a huge
/// double, a fraction, a decimal string, a boolean, null, a huge decimal string.
const HOSTILE: [&str; 14] = [
    "-1",
    "0",
    "4294967295",
    "4294967296",
    "9223372036854775808",
    "18446744073709551616",
    "-9223372036854775809",
    "1e300",
    "1.5",
    "\"12\"",
    "true",
    "null",
    "\"-1\"",
    "\"184467440737095516161844674407370955161618446744073709551616\"",
];

/// The genesis account (funded in every fresh ledger).
const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";

const HASH: &str = "0000000000000000000000000000000000000000000000000000000000000001";

/// One field of one method: the request's parameters as JSON text with `N` where the
/// hostile number goes, and the error codes rippled gives for that field.
struct Case {
    method: &'static str,
    params: &'static str,
    errors: &'static [&'static str],
}

const PAGE: &[&str] = &["invalidParams", "actNotFound", "objectNotFound"];
const LEDGER: &[&str] = &["invalidParams", "lgrNotFound"];
/// A transaction's field in `tx_json`: rippled's "Field 'tx_json.X' has invalid data."
/// (`invalidParams`) or the transaction's own refusal.
const TX_JSON: &[&str] = &["invalidParams", "invalidTransaction", "highFee"];

fn cases() -> Vec<Case> {
    let c = |method, params, errors| Case {
        method,
        params,
        errors,
    };
    vec![
        c(
            "account_tx",
            r#"{"account": "G", "limit": N}"#,
            &["invalidParams"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "ledger_index_min": N}"#,
            &["invalidParams", "lgrIdxsInvalid"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "ledger_index_max": N}"#,
            &["invalidParams", "lgrIdxsInvalid"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "ledger_index_min": N, "api_version": 2}"#,
            &["invalidParams", "lgrIdxMalformed", "invalidLgrRange"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "ledger_index": N}"#,
            &["invalidParams", "lgrNotValidated", "lgrNotFound"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "marker": {"ledger": N, "seq": 0}}"#,
            &["invalidParams"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "marker": {"ledger": 1, "seq": N}}"#,
            &["invalidParams"],
        ),
        c(
            "account_tx",
            r#"{"account": "G", "api_version": N}"#,
            &["invalid_API_version"],
        ),
        c(
            "account_info",
            r#"{"account": "G", "api_version": N}"#,
            &["invalid_API_version"],
        ),
        c(
            "account_info",
            r#"{"account": "G", "ledger_index": N}"#,
            LEDGER,
        ),
        c("account_lines", r#"{"account": "G", "limit": N}"#, PAGE),
        c("account_channels", r#"{"account": "G", "limit": N}"#, PAGE),
        c("account_objects", r#"{"account": "G", "limit": N}"#, PAGE),
        c("account_offers", r#"{"account": "G", "limit": N}"#, PAGE),
        c("account_nfts", r#"{"account": "G", "limit": N}"#, PAGE),
        c(
            "noripple_check",
            r#"{"account": "G", "role": "user", "limit": N}"#,
            PAGE,
        ),
        c("nft_buy_offers", r#"{"nft_id": "H", "limit": N}"#, PAGE),
        c(
            "book_offers",
            r#"{"taker_gets": {"currency": "XRP"}, "taker_pays": {"currency": "USD", "issuer": "G"}, "limit": N}"#,
            PAGE,
        ),
        c("ledger_data", r#"{"limit": N}"#, &["invalidParams"]),
        c("ledger", r#"{"ledger_index": N}"#, LEDGER),
        c(
            "ledger_entry",
            r#"{"index": "H", "ledger_index": N}"#,
            &["invalidParams", "lgrNotFound", "entryNotFound"],
        ),
        c(
            "ledger_entry",
            r#"{"offer": {"account": "G", "seq": N}}"#,
            &["invalidParams", "malformedRequest", "entryNotFound"],
        ),
        c(
            "ledger_entry",
            r#"{"directory": {"owner": "G", "sub_index": N}}"#,
            &["invalidParams", "malformedRequest", "entryNotFound"],
        ),
        c(
            "ledger_entry",
            r#"{"ticket": {"account": "G", "ticket_seq": N}}"#,
            &["invalidParams", "malformedRequest", "entryNotFound"],
        ),
        c(
            "vault_info",
            r#"{"owner": "G", "seq": N}"#,
            &["invalidParams", "malformedRequest", "entryNotFound"],
        ),
        c(
            "tx_history",
            r#"{"start": N}"#,
            &["invalidParams", "noPermission"],
        ),
        c(
            "tx",
            r#"{"transaction": "H", "min_ledger": N, "max_ledger": 3}"#,
            &[
                "invalidParams",
                "invalidLgrRange",
                "excessiveLgrRange",
                "txnNotFound",
            ],
        ),
        c(
            "tx",
            r#"{"transaction": "H", "min_ledger": 1, "max_ledger": N}"#,
            &[
                "invalidParams",
                "invalidLgrRange",
                "excessiveLgrRange",
                "txnNotFound",
            ],
        ),
        c(
            "get_aggregate_price",
            r#"{"base_asset": "XRP", "quote_asset": "USD", "oracles": [{"account": "G", "oracle_document_id": N}]}"#,
            &["invalidParams", "objectNotFound", "oracleMalformed"],
        ),
        c(
            "get_aggregate_price",
            r#"{"base_asset": "XRP", "quote_asset": "USD", "trim": N, "oracles": [{"account": "G", "oracle_document_id": 1}]}"#,
            &["invalidParams", "objectNotFound", "oracleMalformed"],
        ),
        c(
            "sign",
            r#"{"tx_json": {"TransactionType": "AccountSet", "Account": "G"}, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb", "fee_mult_max": N}"#,
            &["invalidParams", "highFee", "noPermission"],
        ),
        c(
            "sign",
            r#"{"tx_json": {"TransactionType": "AccountSet", "Account": "G"}, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb", "fee_div_max": N}"#,
            &["invalidParams", "highFee", "noPermission"],
        ),
        c(
            "channel_authorize",
            r#"{"channel_id": "H", "amount": N, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"}"#,
            &["channelAmtMalformed", "noPermission"],
        ),
        c(
            "channel_verify",
            r#"{"channel_id": "H", "amount": N, "public_key": "aB44YfzW24VDEJQ2UuLPV2PvqcPCSoLnL7y5M1EzhdW4LnK5xMS3", "signature": "00"}"#,
            &["channelAmtMalformed", "publicMalformed", "invalidParams"],
        ),
        c(
            "submit",
            r#"{"tx_json": {"TransactionType": "AccountSet", "Account": "G", "Sequence": N}, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"}"#,
            &["invalidParams", "invalidTransaction", "noPermission"],
        ),
        c(
            "sign",
            r#"{"tx_json": {"TransactionType": "Payment", "Account": "G", "Destination": "G", "Amount": N}, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"}"#,
            TX_JSON,
        ),
        c(
            "sign",
            r#"{"tx_json": {"TransactionType": "OfferCreate", "Account": "G", "TakerPays": "1", "TakerGets": "2", "Expiration": N}, "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"}"#,
            TX_JSON,
        ),
        c(
            "simulate",
            r#"{"tx_json": {"TransactionType": "AccountSet", "Account": "G", "Sequence": N}}"#,
            TX_JSON,
        ),
        c(
            "ripple_path_find",
            r#"{"source_account": "G", "destination_account": "G", "destination_amount": N}"#,
            &[
                "invalidParams",
                "dstAmtMalformed",
                "actNotFound",
                "srcActNotFound",
                "dstActNotFound",
            ],
        ),
        c("account_lines", r#"{"account": "G", "marker": N}"#, PAGE),
        c("account_objects", r#"{"account": "G", "marker": N}"#, PAGE),
        c("account_offers", r#"{"account": "G", "marker": N}"#, PAGE),
        c("ledger_data", r#"{"marker": N}"#, &["invalidParams"]),
        c("nft_buy_offers", r#"{"nft_id": "H", "marker": N}"#, PAGE),
        c(
            "deposit_authorized",
            r#"{"source_account": "G", "destination_account": "G", "ledger_index": N}"#,
            LEDGER,
        ),
    ]
}

/// The case's parameters with `number` in place of `N`.
fn params_text(case: &Case, number: &str) -> String {
    case.params
        .replace("\"G\"", &format!("\"{GENESIS}\""))
        .replace("\"H\"", &format!("\"{HASH}\""))
        .replace(": N", &format!(": {number}"))
}

/// What a reply says: `Ok(())` for success, else its error code.
fn outcome(reply: &Value) -> Result<(), String> {
    let status = reply["result"]["status"]
        .as_str()
        .or(reply["status"].as_str());
    match (status, err(reply).0) {
        (Some("success"), e) if e.is_empty() => Ok(()),
        (_, e) => Err(e),
    }
}

/// Asserts `got` is success or one of the case's errors (never `internal`).
fn judge(case: &Case, number: &str, how: &str, got: Result<(), String>, reply: &str) {
    if let Err(code) = got {
        assert_ne!(code, "internal", "{how} {} {number}: {reply}", case.method);
        assert!(
            case.errors.contains(&code.as_str()),
            "{how} {} with {}: {code} is not one of {:?}: {reply}",
            case.method,
            params_text(case, number),
            case.errors
        );
    }
}

/// Over HTTP from `source`: a JSON reply judged as above; an invalid API version is
/// rippled's plain HTTP 400 `invalid_API_version`.
async fn over_http(source: IpAddr, node: &Node, case: &Case, number: &str) {
    let body = format!(
        r#"{{"method": "{}", "params": [{}]}}"#,
        case.method,
        params_text(case, number)
    );
    let reply = post_from(source, node.public, &body).await;
    if reply.status == 400 && reply.body.trim() == "invalid_API_version" {
        return judge(
            case,
            number,
            "HTTP",
            Err(reply.body.trim().into()),
            &reply.body,
        );
    }
    assert_eq!(
        reply.status, 200,
        "HTTP {} {number}: {}",
        case.method, reply.body
    );
    judge(case, number, "HTTP", outcome(&reply.json()), &reply.body);
}

/// Over WebSocket, on `ws`: judged as above, and the connection still answers.
async fn over_ws(ws: &mut Ws, case: &Case, number: &str) {
    let params = params_text(case, number);
    let text = format!(
        r#"{{"id": 7, "command": "{}", {}"#,
        case.method,
        params.trim_start_matches('{')
    );
    ws.send_text(&text).await;
    let reply = ws.recv().await;
    judge(
        case,
        number,
        "WebSocket",
        outcome(&reply),
        &reply.to_string(),
    );
    let pong = ws
        .call(serde_json::json!({"id": 8, "command": "ping"}))
        .await;
    assert_eq!(pong["status"], "success", "after {text}: {pong}");
}

/// A server with an admin and a public port ([`Node::start`]) whose public port may sign
/// (`signing_support`), so that sign's fee fields are read.
async fn signing_node() -> Node {
    let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
    let mut public = config.ports[0].clone();
    public.name = "public".into();
    public.admin = Vec::new();
    config.ports.push(public);
    config.signing_support = true;
    let running = ledgerd::app::start(config).await.expect("start");
    let (admin, public) = (running.addrs[0].1, running.addrs[1].1);
    let closed = running.state.node.ledgers.closed();
    let now = closed.ledger.as_ref().expect("closed").header.close_time;
    Node {
        running,
        admin,
        public,
        now: now.into(),
    }
}

/// Each request is one client of its own (its own loopback address), so that the
/// resource charges of malformed requests (and of signing, which is heavy) never reach
/// the disconnect threshold: the test is about the answers, not about the load limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_numbers_get_rippled_errors_never_internal() {
    let node = signing_node().await;
    node.close();
    node.close();
    let mut clients =
        (0u32..).map(|n| IpAddr::V4(Ipv4Addr::new(127, 1, (n / 250) as u8, 1 + (n % 250) as u8)));
    for case in cases() {
        for number in HOSTILE {
            let source = clients.next().expect("an address");
            over_http(source, &node, &case, number).await;
            let mut ws = Ws::connect_from(source, node.public).await;
            over_ws(&mut ws, &case, number).await;
        }
    }
}

/// The account_tx answers rippled gives (`readLimitField`), each named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_tx_numbers_are_bounded() {
    let node = Node::start().await;
    node.close();
    let mut ws = Ws::connect_to(node.public).await;
    let call = |params: &str| {
        let body = format!(r#"{{"method": "account_tx", "params": [{params}]}}"#);
        let reply = tokio::task::block_in_place(|| post(node.public, &body));
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json()
    };
    let account = format!(r#""account": "{GENESIS}""#);
    for limit in [
        "-1",
        "4294967296",
        "9223372036854775808",
        "18446744073709551616",
        "1.5",
        "\"12\"",
        "true",
    ] {
        let r = call(&format!("{{{account}, \"limit\": {limit}}}"));
        assert_eq!(
            err(&r),
            (
                "invalidParams".into(),
                "Invalid field 'limit', not unsigned integer.".into()
            ),
            "limit {limit}: {r}"
        );
    }
    let r = call(&format!(
        "{{{account}, \"ledger_index_min\": 18446744073709551616}}"
    ));
    assert_eq!(
        err(&r),
        (
            "invalidParams".into(),
            "Invalid field 'ledger_index_min'.".into()
        ),
        "{r}"
    );
    // -1 is an unbounded end, as in rippled.
    let r = call(&format!(
        "{{{account}, \"ledger_index_min\": -1, \"ledger_index_max\": -1}}"
    ));
    assert_eq!(r["result"]["status"], "success", "{r}");
    for version in ["-1", "18446744073709551616", "0", "\"2\"", "1.5"] {
        let text = format!(r#"{{"command": "account_tx", {account}, "api_version": {version}}}"#);
        ws.send_text(&text).await;
        let r = ws.recv().await;
        assert_eq!(err(&r).0, "invalid_API_version", "{version}: {r}");
    }
}
