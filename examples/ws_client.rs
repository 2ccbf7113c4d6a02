//! A small Rust WebSocket client for ledgerd: authorize a payment channel claim, then verify
//! it, the way a wallet would.
//!
//! ```text
//! ledgerd serve &                       # 127.0.0.1:6006
//! cargo run --example ws_client -- [ws://127.0.0.1:6006/]
//! ```

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const CHANNEL: &str = "5DB01B7FFED6B67E6B0414DED11E051D2EE2B7619CE0EAA6286D67A3A4D5BDB3";

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn call(ws: &mut Socket, request: Value) -> Result<Value, Box<dyn std::error::Error>> {
    ws.send(Message::text(request.to_string())).await?;
    while let Some(msg) = ws.next().await {
        if let Message::Text(text) = msg? {
            return Ok(serde_json::from_str(text.as_str())?);
        }
    }
    Err("connection closed".into())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "ws://127.0.0.1:6006/".into());
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await?;

    // A throwaway wallet (wallet_propose is admin-only: run this from the server's machine).
    let wallet = call(
        &mut ws,
        json!({"id": 1, "command": "wallet_propose", "key_type": "ed25519"}),
    )
    .await?;
    let seed = wallet["result"]["master_seed"]
        .as_str()
        .ok_or("no seed")?
        .to_owned();
    let public_key = wallet["result"]["public_key"]
        .as_str()
        .ok_or("no key")?
        .to_owned();
    println!("wallet {} ({})", wallet["result"]["account_id"], public_key);

    let signed = call(
        &mut ws,
        json!({"id": 2, "command": "channel_authorize", "seed": seed,
        "key_type": "ed25519", "channel_id": CHANNEL, "amount": "1000000"}),
    )
    .await?;
    let signature = signed["result"]["signature"]
        .as_str()
        .ok_or("no signature")?
        .to_owned();
    println!("claim for 1 XRP signed: {signature}");

    let verified = call(
        &mut ws,
        json!({"id": 3, "command": "channel_verify", "public_key": public_key,
        "channel_id": CHANNEL, "amount": "1000000", "signature": signature}),
    )
    .await?;
    println!("verified: {}", verified["result"]["signature_verified"]);

    // Errors are answers: the connection stays open.
    let bad = call(
        &mut ws,
        json!({"id": 4, "command": "channel_authorize", "seed": seed,
        "key_type": "ed25519", "channel_id": CHANNEL, "amount": 1000000}),
    )
    .await?;
    println!(
        "a numeric amount is refused: {} ({})",
        bad["error"], bad["error_message"]
    );
    Ok(())
}
