//! rippled's caller roles behind a secure gateway (`Role.cpp` `requestRole`, `Ping.cpp`,
//! `src/test/rpc/Roles_test.cpp`): a caller from a gateway address is PROXY, and
//! IDENTIFIED when the gateway also names a user with `X-User`; `ping` says which, with
//! the client address the gateway names (`ip`) and the user (`username`); an identified
//! caller is unlimited like an admin (limit clamps lifted, `unlimited` on WebSocket) but
//! is no admin. 127.0.0.1 plays the gateway, 127.0.0.2 a caller of its own.

use crate::support;

use futures::{SinkExt, StreamExt};
use ledgerd::engine::ter::Ter;
use ledgerd::server::role::AdminNet;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use support::engine::{ticket_create, Account};
use support::http::{parse_reply, HttpReply};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const GATEWAY: [u8; 4] = [127, 0, 0, 1];
const OTHER: [u8; 4] = [127, 0, 0, 2];

/// An in-process server whose one port has 127.0.0.1 as its secure gateway; `admin`:
/// whether 127.0.0.1 is an admin there too.
async fn server(admin: bool) -> ledgerd::app::Running {
    support::server::start_with(0, |c| {
        c.ephemeral = true;
        if !admin {
            c.ports[0].admin = Vec::new();
        }
        c.ports[0].secure_gateway = vec![AdminNet::parse("127.0.0.1").unwrap()];
    })
    .await
}

/// One JSON-RPC POST from `source` carrying `headers`.
async fn post(
    source: [u8; 4],
    addr: SocketAddr,
    headers: &[(&str, &str)],
    method: &str,
    params: Value,
) -> HttpReply {
    let body = json!({ "method": method, "params": [params] }).to_string();
    let extra: String = headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}\r\n"))
        .collect();
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{extra}\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut s = support::ws::connect_from(IpAddr::from(source), addr).await;
    s.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read");
    parse_reply(&raw)
}

/// An HTTP ping's `result`.
async fn http_ping(source: [u8; 4], addr: SocketAddr, headers: &[(&str, &str)]) -> Value {
    let r = post(source, addr, headers, "ping", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let result = r.json()["result"].clone();
    assert_eq!(result["status"], "success", "{result}");
    result
}

/// A ping over a WebSocket session from `source` whose opening request carries
/// `headers`; the reply's `result`.
async fn ws_ping(source: [u8; 4], addr: SocketAddr, headers: &[(&'static str, &str)]) -> Value {
    let mut request = format!("ws://{addr}/").into_client_request().unwrap();
    for (name, value) in headers {
        request
            .headers_mut()
            .insert(*name, value.parse().expect("header value"));
    }
    let tcp = support::ws::connect_from(IpAddr::from(source), addr).await;
    let (mut ws, _) = tokio_tungstenite::client_async(request, tcp)
        .await
        .expect("ws connect");
    let ask = json!({ "id": 1, "command": "ping" }).to_string();
    ws.send(Message::text(ask)).await.expect("send");
    let reply: Value = match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str(t.as_str()).unwrap(),
        other => panic!("ping: {other:?}"),
    };
    assert_eq!(reply["status"], "success", "{reply}");
    reply["result"].clone()
}

/// The role, ip and username a ping answers, `null` where absent.
fn seen(result: &Value) -> (Value, Value, Value) {
    let get = |k: &str| result.get(k).cloned().unwrap_or(Value::Null);
    (get("role"), get("ip"), get("username"))
}

#[tokio::test]
async fn ping_over_http_answers_proxied_and_identified_as_roles_test_expects() {
    let running = server(false).await;
    let addr = support::server::addr(&running);
    // From the gateway with no header: proxied, no ip.
    let r = http_ping(GATEWAY, addr, &[]).await;
    assert_eq!(seen(&r), (json!("proxied"), Value::Null, Value::Null));
    assert!(r.get("unlimited").is_none(), "{r}");
    // Roles_test.cpp's headers and the ip each yields.
    let cases: &[(&str, &str, &str)] = &[
        ("X-Forwarded-For", "12.34.56.78", "12.34.56.78"),
        ("X-Forwarded-For", "87.65.43.21, 44.33.22.11", "87.65.43.21"),
        (
            "X-Forwarded-For",
            "87.65.43.21:47011, 44.33.22.11",
            "87.65.43.21",
        ),
        ("Forwarded", "for=88.77.66.55", "88.77.66.55"),
        (
            "Forwarded",
            "what=where;for=55.66.77.88;for=nobody;who=3",
            "55.66.77.88",
        ),
        (
            "Forwarded",
            "what=where; For=99.88.77.66, for=55.66.77.88;who=3",
            "99.88.77.66",
        ),
        (
            "Forwarded",
            "what=where; for=\"55.66.77.88:47011\";who=3",
            "55.66.77.88",
        ),
        (
            "Forwarded",
            "what=where; For= \" 99.88.77.66 \" ,for=11.22.33.44;who=3",
            "99.88.77.66",
        ),
        (
            "X-Forwarded-For",
            "[2001:db8:3333:4444:5555:6666:7777:9999], [a:b:c:d:e:f], [g:h:i:j:k:l]",
            "2001:db8:3333:4444:5555:6666:7777:9999",
        ),
        (
            "Forwarded",
            "For=\"[2001:db8:bb:cc:dd:ee:ff::]:2345\", for=99.00.11.22",
            "2001:db8:bb:cc:dd:ee:ff::",
        ),
        (
            "Forwarded",
            "proto=http;FOR=\"[::11:22:33:44:45.55.65.75]:234\";by=203.0.113.43",
            "::11:22:33:44:45.55.65.75",
        ),
    ];
    for (name, value, ip) in cases {
        let r = http_ping(GATEWAY, addr, &[(name, value)]).await;
        assert_eq!(
            seen(&r),
            (json!("proxied"), json!(ip), Value::Null),
            "{name}: {value}"
        );
    }
    // X-User: identified, with the user and the forwarded address.
    let user = [
        (
            "Forwarded",
            "what=where; For= \" 99.88.77.66 \" ,for=11.22.33.44;who=3",
        ),
        ("X-User", "xrposhi"),
    ];
    let r = http_ping(GATEWAY, addr, &user).await;
    assert_eq!(
        seen(&r),
        (json!("identified"), json!("99.88.77.66"), json!("xrposhi"))
    );
    // Identified without an address: no ip. An empty X-User identifies nobody.
    let r = http_ping(GATEWAY, addr, &[("X-User", "alice")]).await;
    assert_eq!(seen(&r), (json!("identified"), Value::Null, json!("alice")));
    let r = http_ping(
        GATEWAY,
        addr,
        &[("X-User", ""), ("X-Forwarded-For", "1.2.3.4")],
    )
    .await;
    assert_eq!(seen(&r), (json!("proxied"), json!("1.2.3.4"), Value::Null));
    // A caller that is no gateway is a guest, whatever its headers say.
    let r = http_ping(
        OTHER,
        addr,
        &[("X-User", "alice"), ("X-Forwarded-For", "1.2.3.4")],
    )
    .await;
    assert_eq!(seen(&r), (Value::Null, Value::Null, Value::Null));
    running.stop().await;
}

#[tokio::test]
async fn ping_over_websocket_says_who_is_unlimited() {
    let running = server(false).await;
    let addr = support::server::addr(&running);
    let fwd = ("Forwarded", "for=99.88.77.66");
    let r = ws_ping(GATEWAY, addr, &[fwd]).await;
    assert_eq!(
        seen(&r),
        (json!("proxied"), json!("99.88.77.66"), Value::Null)
    );
    assert!(r.get("unlimited").is_none(), "{r}");
    let r = ws_ping(GATEWAY, addr, &[fwd, ("X-User", "xrposhi")]).await;
    assert_eq!(
        seen(&r),
        (json!("identified"), json!("99.88.77.66"), json!("xrposhi"))
    );
    assert_eq!(r["unlimited"], true, "{r}");
    let r = ws_ping(OTHER, addr, &[fwd, ("X-User", "xrposhi")]).await;
    assert_eq!(seen(&r), (Value::Null, Value::Null, Value::Null));
    assert!(r.get("unlimited").is_none(), "{r}");
    running.stop().await;
}

#[tokio::test]
async fn an_admin_address_stays_admin_behind_the_gateway_headers() {
    let running = server(true).await;
    let addr = support::server::addr(&running);
    let headers = [("X-User", "alice"), ("X-Forwarded-For", "1.2.3.4")];
    let r = http_ping(GATEWAY, addr, &headers).await;
    assert_eq!(seen(&r), (json!("admin"), Value::Null, Value::Null));
    let r = ws_ping(GATEWAY, addr, &headers).await;
    assert_eq!(seen(&r), (json!("admin"), Value::Null, Value::Null));
    assert_eq!(r["unlimited"], true, "{r}");
    running.stop().await;
}

#[tokio::test]
async fn an_identified_caller_passes_the_limit_clamps_but_not_the_admin_methods() {
    let running = server(false).await;
    let addr = support::server::addr(&running);
    let master = Account::master();
    let (ter, _) = support::server::submit_to(&running.state, &master, ticket_create(2));
    assert_eq!(ter, Ter::tesSUCCESS);
    let ask = json!({
        "account": master.id.to_address(),
        "ledger_index": "current",
        "limit": 1,
    });
    let objects = |r: HttpReply| {
        assert_eq!(r.status, 200, "{}", r.body);
        let result = r.json()["result"].clone();
        assert_eq!(result["status"], "success", "{result}");
        result
    };
    // Proxied: the limit is clamped up to account_objects' least (10), both tickets come.
    let proxied = [("X-Forwarded-For", "10.1.1.1")];
    let r = objects(post(GATEWAY, addr, &proxied, "account_objects", ask.clone()).await);
    assert_eq!(
        r["account_objects"].as_array().map(Vec::len),
        Some(2),
        "{r}"
    );
    assert!(r.get("marker").is_none(), "{r}");
    // Identified: the limit is taken as asked, one ticket and a marker.
    let identified = [("X-Forwarded-For", "10.1.1.1"), ("X-User", "alice")];
    let r = objects(post(GATEWAY, addr, &identified, "account_objects", ask).await);
    assert_eq!(
        r["account_objects"].as_array().map(Vec::len),
        Some(1),
        "{r}"
    );
    assert_eq!(r["limit"], 1, "{r}");
    assert!(r["marker"].is_string(), "{r}");
    // tx_history past 10000 is for unlimited callers only.
    let deep = json!({ "start": 20000 });
    let r = objects(post(GATEWAY, addr, &identified, "tx_history", deep.clone()).await);
    assert!(r.get("error").is_none(), "{r}");
    let r = post(GATEWAY, addr, &proxied, "tx_history", deep).await;
    assert_eq!(r.json()["result"]["error"], "noPermission", "{}", r.body);
    // An admin method is forbidden to an identified caller (rippled's FORBID, HTTP 403).
    let r = post(GATEWAY, addr, &identified, "ledger_accept", json!({})).await;
    assert_eq!(r.status, 403, "{}", r.body);
    running.stop().await;
}
