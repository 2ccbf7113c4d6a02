//! The writer's side of the WebSocket protocol: server frames (RFC 6455 section 5.2, never
//! masked) written straight from each message's own bytes with vectored writes.
//!
//! tungstenite reads the client's frames and answers its pings and close; everything the
//! server sends on its own (replies, stream messages, pings, closes) goes out here. A
//! stream message shared by thousands of subscribers is never copied per subscriber, and
//! a connection keeps no write buffer between bursts (tungstenite's buffer would keep its
//! largest size for the connection's life).
//!
//! The two never interleave: the session writes here only between tungstenite's reads,
//! after flushing whatever tungstenite still holds (a pong it could not write at once), and
//! every write here runs to its end before the session reads again.

use std::io::IoSlice;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

/// FIN with the opcode of a final frame (section 5.2).
const FIN: u8 = 0x80;
const OP_TEXT: u8 = 0x1;
const OP_BINARY: u8 = 0x2;
const OP_CLOSE: u8 = 0x8;
const OP_PING: u8 = 0x9;
const OP_PONG: u8 = 0xA;

/// A frame header: FIN and the opcode, then a 7-, 16- or 64-bit payload length.
#[derive(Clone, Copy)]
struct Header {
    bytes: [u8; 10],
    len: usize,
}

impl Header {
    fn new(opcode: u8, payload: usize) -> Header {
        let mut bytes = [0u8; 10];
        bytes[0] = FIN | opcode;
        let len = if payload < 126 {
            bytes[1] = payload as u8;
            2
        } else if let Ok(short) = u16::try_from(payload) {
            bytes[1] = 126;
            bytes[2..4].copy_from_slice(&short.to_be_bytes());
            4
        } else {
            bytes[1] = 127;
            bytes[2..10].copy_from_slice(&(payload as u64).to_be_bytes());
            10
        };
        Header { bytes, len }
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// A close frame's payload: the code, then the reason (section 5.5.1).
fn close_payload(frame: &Option<CloseFrame>) -> Vec<u8> {
    let Some(frame) = frame else {
        return Vec::new();
    };
    let mut out = u16::from(frame.code).to_be_bytes().to_vec();
    out.extend_from_slice(frame.reason.as_bytes());
    out
}

/// The opcode of `message` and its payload (a close frame's built into `owned`); `None` for
/// a raw frame, which the server never queues.
fn parts<'a>(message: &'a Message, owned: &'a Option<Vec<u8>>) -> Option<(u8, &'a [u8])> {
    match message {
        Message::Text(text) => Some((OP_TEXT, text.as_bytes())),
        Message::Binary(bytes) => Some((OP_BINARY, bytes.as_ref())),
        Message::Ping(bytes) => Some((OP_PING, bytes.as_ref())),
        Message::Pong(bytes) => Some((OP_PONG, bytes.as_ref())),
        Message::Close(_) => Some((OP_CLOSE, owned.as_deref().unwrap_or_default())),
        Message::Frame(_) => None,
    }
}

/// Writes `messages` as one frame each, in order, with as few system calls as the socket
/// allows, then flushes (a TLS stream seals its records there).
pub async fn write<W>(io: &mut W, messages: &[Message]) -> std::io::Result<()>
where
    W: AsyncWrite + Unpin,
{
    let closes: Vec<Option<Vec<u8>>> = messages
        .iter()
        .map(|m| match m {
            Message::Close(frame) => Some(close_payload(frame)),
            _ => None,
        })
        .collect();
    let frames: Vec<(Header, &[u8])> = messages
        .iter()
        .zip(&closes)
        .filter_map(|(m, owned)| parts(m, owned))
        .map(|(op, payload)| (Header::new(op, payload.len()), payload))
        .collect();
    let mut slices: Vec<IoSlice<'_>> = Vec::with_capacity(frames.len() * 2);
    for (header, payload) in &frames {
        slices.push(IoSlice::new(header.as_slice()));
        if !payload.is_empty() {
            slices.push(IoSlice::new(payload));
        }
    }
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        let n = io.write_vectored(rest).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut rest, n);
    }
    io.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::protocol::Role;
    use tokio_tungstenite::WebSocketStream;

    /// What tungstenite, as a client, reads from frames written here: every length form
    /// (7-bit, 16-bit, 64-bit), a ping and a close with its code and reason, through a pipe
    /// small enough that the writes are partial.
    #[tokio::test]
    async fn a_client_reads_back_every_frame_written() {
        let (mut server, client) = tokio::io::duplex(1000);
        let long = "x".repeat(70_000);
        let medium = "y".repeat(300);
        let close = CloseFrame {
            code: CloseCode::Away,
            reason: "Shutting Down".into(),
        };
        let sent = vec![
            Message::text("{\"id\":1}"),
            Message::text(medium.clone()),
            Message::text(long.clone()),
            Message::Ping(vec![1, 2].into()),
            Message::Close(Some(close.clone())),
        ];
        // The writer keeps its end open (the client answers the ping on it).
        let writer = tokio::spawn(async move {
            let written = write(&mut server, &sent).await;
            (written, server)
        });
        let mut ws = WebSocketStream::from_raw_socket(client, Role::Client, None).await;
        let mut got = Vec::new();
        for _ in 0..5 {
            match ws.next().await {
                Some(Ok(m)) => got.push(m),
                other => panic!("read {} frames, then {other:?}", got.len()),
            }
        }
        let (written, _server) = writer.await.expect("joined");
        written.expect("written");
        assert_eq!(got[0], Message::text("{\"id\":1}"));
        assert_eq!(got[1], Message::text(medium));
        assert_eq!(got[2], Message::text(long));
        assert_eq!(got[3], Message::Ping(vec![1, 2].into()));
        assert_eq!(got[4], Message::Close(Some(close)));
    }

    #[test]
    fn headers_take_the_shortest_length_form() {
        assert_eq!(Header::new(OP_TEXT, 125).as_slice(), [0x81, 125]);
        assert_eq!(Header::new(OP_TEXT, 126).as_slice(), [0x81, 126, 0, 126]);
        assert_eq!(
            Header::new(OP_TEXT, 65_536).as_slice(),
            [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]
        );
        assert_eq!(Header::new(OP_CLOSE, 0).as_slice(), [0x88, 0]);
    }
}
