//! Talking to another server over its WebSocket API, as a client: one request sent, its
//! reply read back by `id` (stream messages on the same connection are passed over). Used
//! by a read node forwarding writes to its writer and by `serve --fork` reading its
//! upstream.

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A client connection to another server.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Sends `request` (which carries `id`) and returns the reply with that `id`; an error
/// names what went wrong with the connection (closed, a socket error, a reply that is not
/// JSON).
pub async fn exchange(socket: &mut Socket, request: &Value, id: &Value) -> Result<Value, String> {
    socket
        .send(Message::text(request.to_string()))
        .await
        .map_err(|e| e.to_string())?;
    loop {
        let message = match socket.next().await {
            Some(Ok(m)) => m,
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("closed".into()),
        };
        let Message::Text(text) = message else {
            continue;
        };
        let reply = serde_json::from_str::<Value>(text.as_str())
            .map_err(|_| "a reply that is not JSON".to_string())?;
        if reply.get("id") == Some(id) {
            return Ok(reply);
        }
    }
}
