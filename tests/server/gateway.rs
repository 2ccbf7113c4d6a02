//! xrpld's `secure_gateway`: a caller connecting from a gateway address is charged as the
//! client its `Forwarded` / `X-Forwarded-For` header names (rippled's PROXY role), and not
//! at all when `X-User` identifies it (IDENTIFIED); anyone else's such headers are
//! ignored. Over HTTP each request says it; a WebSocket session says it once, opening.
//! Loopback addresses play the parts: 127.0.0.1 is the gateway, 127.0.0.2 and 127.0.0.3
//! are callers of their own.

use crate::support;

use futures::{SinkExt, StreamExt};
use ledgerd::server::role::AdminNet;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use support::http::{parse_reply, HttpReply};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const GATEWAY: [u8; 4] = [127, 0, 0, 1];

fn ip(octets: [u8; 4]) -> IpAddr {
    IpAddr::from(octets)
}

/// An in-process server whose one port has 127.0.0.1 as its secure gateway and no admins
/// (an admin is never charged).
async fn gateway_server() -> ledgerd::app::Running {
    support::server::start_with(0, |c| {
        c.ephemeral = true;
        c.ports[0].admin = Vec::new();
        c.ports[0].secure_gateway = vec![AdminNet::parse("127.0.0.1").unwrap()];
    })
    .await
}

/// One JSON-RPC POST of `method` from `source` carrying `headers`.
async fn post_as(
    source: [u8; 4],
    addr: SocketAddr,
    headers: &[(&str, &str)],
    method: &str,
) -> HttpReply {
    let body = json!({ "method": method }).to_string();
    let extra: String = headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}\r\n"))
        .collect();
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{extra}\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut s = support::ws::connect_from(ip(source), addr).await;
    s.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read");
    parse_reply(&raw)
}

/// Whether an HTTP ping from `source` with `headers` is answered with `warning: "load"`.
async fn http_warned(source: [u8; 4], addr: SocketAddr, headers: &[(&str, &str)]) -> bool {
    let r = post_as(source, addr, headers, "ping").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let result = r.json()["result"].clone();
    assert_eq!(result["status"], "success", "{result}");
    result["warning"] == "load"
}

/// Large replies (server_definitions, about 100 units each) over HTTP from `source` with
/// `headers` until one is warned; how many it took.
async fn http_load(source: [u8; 4], addr: SocketAddr, headers: &[(&str, &str)]) -> usize {
    for i in 1..=200 {
        let r = post_as(source, addr, headers, "server_definitions").await;
        assert_eq!(r.status, 200, "request {i}");
        if r.json()["result"]["warning"] == "load" {
            return i;
        }
    }
    panic!("200 large replies and never warned");
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A WebSocket session from `source` whose opening request carries `headers`.
async fn ws_as(source: [u8; 4], addr: SocketAddr, headers: &[(&'static str, &str)]) -> Socket {
    let mut request = format!("ws://{addr}/").into_client_request().unwrap();
    for (name, value) in headers {
        request
            .headers_mut()
            .insert(*name, value.parse().expect("header value"));
    }
    let tcp = support::ws::connect_from(ip(source), addr).await;
    let (ws, _) = tokio_tungstenite::client_async(request, tcp)
        .await
        .expect("ws connect");
    ws
}

/// One WebSocket request; its reply.
async fn ws_call(ws: &mut Socket, command: &str) -> Value {
    let ask = json!({ "id": 1, "command": command }).to_string();
    ws.send(Message::text(ask)).await.expect("send");
    match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str(t.as_str()).unwrap(),
        other => panic!("{command}: {other:?}"),
    }
}

/// Large replies on `ws` until one is warned; how many it took.
async fn ws_load(ws: &mut Socket) -> usize {
    for i in 1..=200 {
        let r = ws_call(ws, "server_definitions").await;
        assert_eq!(r["status"], "success", "request {i}");
        if r["warning"] == "load" {
            return i;
        }
    }
    panic!("200 large replies and never warned");
}

#[tokio::test]
async fn over_http_a_gateway_s_client_is_charged_not_the_gateway() {
    let running = gateway_server().await;
    let addr = support::server::addr(&running);
    let client = [("Forwarded", "for=10.9.9.9")];
    let n = http_load(GATEWAY, addr, &client).await;
    assert!(n > 10, "warned after {n} requests");
    // The same client named by X-Forwarded-For (its first entry) is the one warned.
    let xff = [("X-Forwarded-For", "10.9.9.9:5000, 10.0.0.1")];
    assert!(http_warned(GATEWAY, addr, &xff).await);
    assert!(http_warned(GATEWAY, addr, &client).await);
    // Another client of the gateway, and the gateway's own requests, are not.
    let other = [("Forwarded", "proto=http;for=\"[2001:db8::9]:80\"")];
    assert!(!http_warned(GATEWAY, addr, &other).await);
    assert!(!http_warned(GATEWAY, addr, &[]).await);
    // A header naming no address leaves the gateway paying, and it is not loaded.
    assert!(!http_warned(GATEWAY, addr, &[("Forwarded", "for=unknown")]).await);
    // X-User identifies the caller: unlimited, never charged nor warned.
    let identified = [("X-User", "alice"), ("Forwarded", "for=10.9.9.9")];
    assert!(!http_warned(GATEWAY, addr, &identified).await);
    running.stop().await;
}

#[tokio::test]
async fn over_http_a_caller_that_is_no_gateway_is_charged_itself() {
    let running = gateway_server().await;
    let addr = support::server::addr(&running);
    let caller = [127, 0, 0, 2];
    http_load(caller, addr, &[("Forwarded", "for=10.8.8.8")]).await;
    // Whatever it names, or whoever it says it is, the warning is its own.
    assert!(http_warned(caller, addr, &[("Forwarded", "for=10.7.7.7")]).await);
    assert!(http_warned(caller, addr, &[("X-Forwarded-For", "10.6.6.6")]).await);
    assert!(http_warned(caller, addr, &[("X-User", "alice")]).await);
    assert!(http_warned(caller, addr, &[]).await);
    // The address it named was never charged.
    assert!(!http_warned(GATEWAY, addr, &[("Forwarded", "for=10.8.8.8")]).await);
    running.stop().await;
}

#[tokio::test]
async fn over_websocket_the_opening_request_names_the_client() {
    let running = gateway_server().await;
    let addr = support::server::addr(&running);
    let client = [("Forwarded", "for=10.5.5.5")];
    let mut ws = ws_as(GATEWAY, addr, &client).await;
    let n = ws_load(&mut ws).await;
    assert!(n > 10, "warned after {n} requests");
    // The same client over HTTP shares the balance; another session of the gateway for
    // another client does not.
    assert!(http_warned(GATEWAY, addr, &client).await);
    let mut other = ws_as(GATEWAY, addr, &[("Forwarded", "for=10.4.4.4")]).await;
    let r = ws_call(&mut other, "ping").await;
    assert_eq!((&r["status"], r.get("warning")), (&json!("success"), None));
    // An identified session is never charged.
    let identified = [("X-User", "bob"), ("Forwarded", "for=10.5.5.5")];
    let mut bob = ws_as(GATEWAY, addr, &identified).await;
    let r = ws_call(&mut bob, "ping").await;
    assert_eq!((&r["status"], r.get("warning")), (&json!("success"), None));
    // A session from a caller that is no gateway is charged to that caller.
    let caller = [127, 0, 0, 3];
    let mut own = ws_as(caller, addr, &[("Forwarded", "for=10.3.3.3")]).await;
    ws_load(&mut own).await;
    assert!(http_warned(caller, addr, &[]).await);
    assert!(!http_warned(GATEWAY, addr, &[("Forwarded", "for=10.3.3.3")]).await);
    running.stop().await;
}

#[tokio::test]
async fn an_xrpld_file_s_secure_gateway_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("xrpld.cfg");
    std::fs::write(
        &conf,
        "[server]\nport_rpc\n[port_rpc]\nip = 127.0.0.1\nport = 0\nprotocol = http, ws\n\
         secure_gateway = 127.0.0.1\n",
    )
    .unwrap();
    let conf = conf.to_string_lossy().into_owned();
    let server = tokio::task::spawn_blocking(move || {
        support::server::Server::try_start_args(&["--conf", &conf, "-a"], 1)
            .unwrap_or_else(|(code, log)| panic!("did not start (exit {code:?}): {log}"))
    })
    .await
    .unwrap();
    let addr = server.addrs[0];
    http_load(GATEWAY, addr, &[("Forwarded", "for=10.2.2.2")]).await;
    assert!(http_warned(GATEWAY, addr, &[("X-Forwarded-For", "10.2.2.2")]).await);
    assert!(!http_warned(GATEWAY, addr, &[]).await);
}
