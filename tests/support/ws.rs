//! One WebSocket client for every test, in three styles:
//! - message by message: [`Ws::send`] / [`Ws::recv`] / [`Ws::call`] (the next message,
//!   whatever it is), and [`Ws::raw`] for tests about frames;
//! - by request id: [`Ws::send_req`] / [`Ws::reply`] / [`Ws::req`], which keep stream
//!   messages apart ([`Ws::event`]) from replies;
//! - [`Ws::response`]: the next reply, or `Null` once the server is gone (for servers a
//!   test kills).

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The connection under a [`Ws`].
pub type WsStream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client.
pub struct Ws {
    pub stream: WsStream,
    next_id: u64,
    /// Stream messages received while waiting for replies.
    pub events: VecDeque<Value>,
    /// Replies that arrived before they were asked for, by id.
    early: HashMap<u64, Value>,
}

impl Ws {
    /// A client over an opened connection.
    fn over(stream: WsStream) -> Ws {
        Ws {
            stream,
            next_id: 1,
            events: VecDeque::new(),
            early: HashMap::new(),
        }
    }

    /// Connect to `url`.
    pub async fn connect(url: &str) -> Ws {
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connect");
        Ws::over(stream)
    }

    /// Connect to `ws://addr/` with an `Origin` header, as a browser's page would.
    pub async fn connect_with_origin(addr: SocketAddr, origin: &str) -> Ws {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/")
            .into_client_request()
            .expect("request");
        request
            .headers_mut()
            .insert("origin", origin.parse().expect("an origin header"));
        let (stream, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("ws connect");
        Ws::over(stream)
    }

    /// Connect to `ws://addr/` from the local address `source` (port 0): a loopback
    /// client of its own (`127.0.0.N`), with its own resource balance on the server.
    pub async fn connect_from(source: std::net::IpAddr, addr: SocketAddr) -> Ws {
        let tcp = connect_from(source, addr).await;
        let plain = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
        let (stream, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), plain)
            .await
            .expect("ws connect");
        Ws::over(stream)
    }

    /// Connect to `ws://addr/`.
    pub async fn connect_to(addr: SocketAddr) -> Ws {
        Ws::connect(&format!("ws://{addr}/")).await
    }

    /// Send raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.stream
            .send(Message::text(text))
            .await
            .expect("ws send");
    }

    /// Send a JSON value as it is.
    pub async fn send(&mut self, v: &Value) {
        self.send_text(&v.to_string()).await;
    }

    /// The next text message as JSON (10 s timeout).
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("reply timeout")
                .expect("stream ended")
                .expect("ws error");
            match msg {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("reply JSON"),
                Message::Close(c) => panic!("closed: {c:?}"),
                _ => continue,
            }
        }
    }

    /// Send one request and return the next message.
    pub async fn call(&mut self, v: Value) -> Value {
        self.send(&v).await;
        self.recv().await
    }

    /// The raw stream (for tests that need frames).
    pub fn raw(&mut self) -> &mut WsStream {
        &mut self.stream
    }

    /// Send `req` with the next id, without waiting; returns the id.
    pub async fn send_req(&mut self, mut req: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        req["id"] = json!(id);
        self.send(&req).await;
        id
    }

    /// The next text message (20 s timeout); None once the connection is closed.
    pub async fn read(&mut self) -> Option<Value> {
        loop {
            match tokio::time::timeout(Duration::from_secs(20), self.stream.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => {
                    return None
                }
                Ok(Some(Ok(_))) => continue,
            }
        }
    }

    /// The reply with `id` (stream messages in between are kept in `events`).
    pub async fn reply(&mut self, id: u64) -> Value {
        if let Some(m) = self.early.remove(&id) {
            return m;
        }
        loop {
            let m = self.read().await.expect("reply");
            if m["type"] == "response" {
                match m["id"].as_u64() {
                    Some(got) if got == id => return m,
                    Some(got) => {
                        self.early.insert(got, m);
                    }
                    None => {}
                }
            } else {
                self.events.push_back(m);
            }
        }
    }

    /// Send with the next id and wait for that reply.
    pub async fn req(&mut self, req: Value) -> Value {
        let id = self.send_req(req).await;
        self.reply(id).await
    }

    /// The next stream message of `kind` (`ledgerClosed`, `transaction`), within 20 s.
    pub async fn event(&mut self, kind: &str) -> Value {
        if let Some(pos) = self.events.iter().position(|e| e["type"] == kind) {
            return self.events.remove(pos).unwrap_or_default();
        }
        loop {
            let m = self
                .read()
                .await
                .unwrap_or_else(|| panic!("no {kind} message"));
            if m["type"] == kind {
                return m;
            }
            if m["type"] == "response" {
                if let Some(got) = m["id"].as_u64() {
                    self.early.insert(got, m);
                }
            } else {
                self.events.push_back(m);
            }
        }
    }

    /// Send `req` as it is and return the next reply (`type: response`), skipping stream
    /// messages; `Null` if the connection ends before the reply. No timeout: wrap it in one.
    pub async fn response(&mut self, req: Value) -> Value {
        self.send(&req).await;
        while let Some(Ok(m)) = self.stream.next().await {
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
                if v["type"] == "response" {
                    return v;
                }
            }
        }
        Value::Null
    }
}

/// A TCP connection to `addr` from the local address `source` (port 0).
pub async fn connect_from(source: std::net::IpAddr, addr: SocketAddr) -> tokio::net::TcpStream {
    let socket = match source {
        std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
        std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
    }
    .expect("socket");
    socket.bind(SocketAddr::new(source, 0)).expect("bind");
    socket.connect(addr).await.expect("connect")
}
