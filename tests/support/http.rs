//! HTTP/1.1 over a plain socket, one request per connection (`Connection: close`): raw
//! requests with the whole reply kept (status, reason, headers, body), and JSON-RPC calls,
//! blocking or async (async for tests whose server runs on the test's own runtime).

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An HTTP response.
#[derive(Debug)]
pub struct HttpReply {
    /// Status code.
    pub status: u16,
    /// The status line's reason phrase.
    pub reason: String,
    /// Headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
}

impl HttpReply {
    /// The body parsed as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(self.body.trim_end()).expect("JSON body")
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The request text: `method /` with a JSON body and `Connection: close`.
fn request_text(addr: SocketAddr, method: &str, body: &str) -> String {
    request_text_to(addr, method, "/", body)
}

/// The request text: `method path` with a JSON body and `Connection: close`.
fn request_text_to(addr: SocketAddr, method: &str, path: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// One HTTP/1.1 request to `/` with `Connection: close`, read to the end.
pub fn http(addr: SocketAddr, method: &str, body: &str) -> HttpReply {
    http_to(addr, method, "/", body)
}

/// One HTTP/1.1 request to `path` with `Connection: close`, read to the end.
pub fn http_to(addr: SocketAddr, method: &str, path: &str, body: &str) -> HttpReply {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // A server that refuses the request (an oversized body, a bad method) may answer and
    // close before the whole request is written: the answer is still there to read.
    if let Err(e) = s.write_all(request_text_to(addr, method, path, body).as_bytes()) {
        let closed = matches!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
        );
        assert!(closed, "write: {e}");
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_reply(&raw)
}

/// Parse one complete HTTP response.
pub fn parse_reply(raw: &[u8]) -> HttpReply {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("header end");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let _version = parts.next();
    let status = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let reason = parts.next().unwrap_or_default().to_owned();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    HttpReply {
        status,
        reason,
        headers,
        body: body.to_owned(),
    }
}

/// POST a JSON-RPC body.
pub fn post(addr: SocketAddr, body: &str) -> HttpReply {
    http(addr, "POST", body)
}

/// [`post`] from the local address `source` (a loopback client of its own, with its own
/// resource balance on the server).
pub async fn post_from(source: std::net::IpAddr, addr: SocketAddr, body: &str) -> HttpReply {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = super::ws::connect_from(source, addr).await;
    s.write_all(request_text(addr, "POST", body).as_bytes())
        .await
        .expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read");
    parse_reply(&raw)
}

/// The JSON-RPC body of one request: `{"method": .., "params": [params]}`.
pub fn rpc_body(method: &str, params: Value) -> String {
    json!({"method": method, "params": [params]}).to_string()
}

/// POST one JSON-RPC request.
pub fn rpc(addr: SocketAddr, method: &str, params: Value) -> HttpReply {
    post(addr, &rpc_body(method, params))
}

/// POST one JSON-RPC request without blocking the runtime; the reply body as JSON (`Null`
/// when there is none).
pub async fn rpc_async(addr: SocketAddr, method: &str, params: Value) -> Value {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = request_text(addr, "POST", &rpc_body(method, params));
    s.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(body.trim()).unwrap_or(Value::Null)
}

/// Sends `request` as is on a new connection and reads the answer to the end of the stream.
pub fn send_raw(addr: SocketAddr, request: &str) -> HttpReply {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_reply(&raw)
}

/// Whether a JSON-RPC `ping` is answered 200 again within 2.5 s (tried every 50 ms): a
/// connection slot freed by a client that left comes back.
pub async fn served_again(addr: SocketAddr) -> bool {
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if post(addr, r#"{"method":"ping"}"#).status == 200 {
            return true;
        }
    }
    false
}
