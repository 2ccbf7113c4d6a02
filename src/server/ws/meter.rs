//! What a WebSocket client's unfinished message costs, measured where the bytes come in.
//!
//! tungstenite assembles a message's frames in memory before it hands the message over, and it
//! reserves a frame's whole declared length as soon as the frame's header arrives. Left alone,
//! a client could hold [`WS_MESSAGE_BYTES_MAX`] (about three times that in memory, with the
//! buffers' growth) on every connection slot for as long as it kept the connection alive.
//! [`Metered`] wraps the socket under tungstenite and follows the frame boundaries of the byte
//! stream itself (headers only; payloads are skipped, not copied), so it knows, without asking
//! tungstenite, when a message is unfinished and how much memory it has claimed:
//!
//! - **Held bytes**: the declared lengths of the unfinished message's data frames, counted
//!   when each frame's header arrives and given back when the message completes or the
//!   connection ends. Beyond the connection's own allowance
//!   ([`WS_UNFINISHED_BYTES_UNCHARGED_MAX`], so that ordinary requests never compete for it)
//!   they are charged to one budget shared by every connection
//!   ([`WS_UNFINISHED_BYTES_TOTAL_MAX`]). A frame that would push the total over the budget is
//!   refused: the read fails with a [`Refusal`] and the connection is closed with 1008.
//! - **Time**: an unfinished message must complete within
//!   [`WS_UNFINISHED_MESSAGE_SECS_MAX`] of the time the server spent waiting for its bytes
//!   (time the server spends elsewhere, such as with the client's earlier requests in flight,
//!   does not count). Past that the read fails with a [`Refusal`] and the connection is closed
//!   with 1008, whether or not bytes are still trickling in.
//!
//! The connection's peak is kept: after a session whose messages were large, the server asks
//! the allocator to give the freed memory back ([`return_freed_memory`]).
//!
//! Frames larger than the socket layer accepts are not charged: tungstenite refuses them from
//! their header (1009) without reserving anything.

use crate::limits::{
    WS_MESSAGE_BYTES_MAX, WS_UNFINISHED_BYTES_TOTAL_MAX, WS_UNFINISHED_BYTES_UNCHARGED_MAX,
    WS_UNFINISHED_MESSAGE_SECS_MAX,
};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

pub use crate::node::memory::{return_freed_memory, set_memory_trim};

/// A budget of bytes shared by connections.
pub struct Budget {
    held: AtomicUsize,
    max: usize,
}

/// The budget of every WebSocket connection of the process.
static BUDGET: Budget = Budget {
    held: AtomicUsize::new(0),
    max: WS_UNFINISHED_BYTES_TOTAL_MAX,
};

/// Why the meter stopped a connection's reads (carried inside the `io::Error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The message would have pushed the bytes held by unfinished messages over the budget.
    Budget,
    /// The message stayed unfinished for too long.
    Timeout,
}

impl Refusal {
    /// The close reason sent with 1008.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Budget => "Policy error: server is holding too many unfinished messages.",
            Refusal::Timeout => "Policy error: message not completed in time.",
        }
    }

    /// The refusal an I/O error carries, if it came from a meter.
    pub fn of(e: &std::io::Error) -> Option<Refusal> {
        e.get_ref()?.downcast_ref::<Refusal>().copied()
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.reason())
    }
}

impl std::error::Error for Refusal {}

/// Where the byte stream stands between frames (RFC 6455 section 5.2).
struct FrameScan {
    /// What the held bytes are charged to.
    budget: &'static Budget,
    /// The most this connection has held at once.
    peak: usize,
    /// The current frame's header bytes read so far (at most 14).
    header: [u8; 14],
    header_read: usize,
    /// Payload bytes of the current frame still to come.
    payload_left: u64,
    /// The current frame is a data frame (text, binary, continuation or reserved).
    data: bool,
    /// The current frame ends its message.
    fin: bool,
    /// A data message's first frame has ended and its final frame has not.
    open_message: bool,
    /// Bytes this connection's unfinished message holds.
    held: usize,
    /// The part of them charged to the budget (beyond the connection's own allowance).
    charged: usize,
    /// Set when the stream reached a point between messages (read and cleared by the clock).
    settled: bool,
}

/// A header's length, once its first two bytes are known.
fn header_len(b1: u8) -> usize {
    let extended = match b1 & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    let mask = if b1 & 0x80 != 0 { 4 } else { 0 };
    2 + extended + mask
}

/// The payload length a complete header declares.
fn payload_len(h: &[u8]) -> u64 {
    match h[1] & 0x7f {
        126 => u64::from(u16::from_be_bytes([h[2], h[3]])),
        127 => u64::from_be_bytes([h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9]]),
        n => u64::from(n),
    }
}

impl FrameScan {
    fn new(budget: &'static Budget) -> FrameScan {
        FrameScan {
            budget,
            peak: 0,
            header: [0; 14],
            header_read: 0,
            payload_left: 0,
            data: false,
            fin: false,
            open_message: false,
            held: 0,
            charged: 0,
            settled: false,
        }
    }

    /// Whether a frame or a message has begun and not ended.
    fn unfinished(&self) -> bool {
        self.header_read > 0 || self.payload_left > 0 || self.open_message
    }

    /// Follow `bytes` through the frames; `Err` when a frame's claim would exceed the budget.
    fn scan(&mut self, mut bytes: &[u8]) -> Result<(), Refusal> {
        while !bytes.is_empty() {
            if self.payload_left > 0 {
                let n = (bytes.len() as u64).min(self.payload_left);
                self.payload_left -= n;
                bytes = &bytes[n as usize..];
                if self.payload_left == 0 {
                    self.frame_ended();
                }
                continue;
            }
            self.header[self.header_read] = bytes[0];
            self.header_read += 1;
            bytes = &bytes[1..];
            if self.header_read >= 2 && self.header_read == header_len(self.header[1]) {
                self.frame_started()?;
            }
        }
        Ok(())
    }

    /// A header is complete: charge a data frame's declared length.
    fn frame_started(&mut self) -> Result<(), Refusal> {
        let h = &self.header[..self.header_read];
        self.header_read = 0;
        self.fin = h[0] & 0x80 != 0;
        self.data = h[0] & 0x08 == 0;
        self.payload_left = payload_len(h);
        // tungstenite refuses a frame over its limit from the header, before reserving it.
        if self.data && self.payload_left <= WS_MESSAGE_BYTES_MAX as u64 {
            self.charge(self.payload_left as usize)?;
        }
        if self.payload_left == 0 {
            self.frame_ended();
        }
        Ok(())
    }

    fn frame_ended(&mut self) {
        if self.data {
            self.open_message = !self.fin;
            if self.fin {
                self.release();
            }
        }
        if !self.open_message {
            self.settled = true;
        }
    }

    /// Hold `n` more bytes; what passes the connection's own allowance is charged to the
    /// shared budget.
    fn charge(&mut self, n: usize) -> Result<(), Refusal> {
        self.held += n;
        self.peak = self.peak.max(self.held);
        let owed = self.held.saturating_sub(WS_UNFINISHED_BYTES_UNCHARGED_MAX);
        let more = owed - self.charged;
        if more == 0 {
            return Ok(());
        }
        let before = self.budget.held.fetch_add(more, Ordering::AcqRel);
        self.charged = owed;
        if before + more > self.budget.max {
            self.release();
            return Err(Refusal::Budget);
        }
        Ok(())
    }

    fn release(&mut self) {
        if self.charged > 0 {
            self.budget.held.fetch_sub(self.charged, Ordering::AcqRel);
            self.charged = 0;
        }
        self.held = 0;
    }
}

impl Drop for FrameScan {
    fn drop(&mut self) {
        self.release();
    }
}

/// The clock of an unfinished message: the time the reader spent waiting for its bytes.
struct Clock {
    /// Waiting time counted so far.
    waited: Duration,
    /// Set when a read found nothing and the message was unfinished: the reader has been
    /// waiting since.
    pending_since: Option<Instant>,
    /// Wakes the reader when the message's time runs out while no bytes come (made when a
    /// message first waits, dropped when it ends: an idle connection holds no timer).
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    limit: Duration,
}

/// A socket whose reads are followed frame by frame (see the module documentation).
pub struct Metered<S> {
    inner: S,
    scan: FrameScan,
    clock: Clock,
    /// Set once a read was refused: every later read fails the same way.
    refused: Option<Refusal>,
}

impl<S> Metered<S> {
    /// Meter reads from `inner`.
    pub fn new(inner: S) -> Metered<S> {
        Metered::with_limit(inner, Duration::from_secs(WS_UNFINISHED_MESSAGE_SECS_MAX))
    }

    fn with_limit(inner: S, limit: Duration) -> Metered<S> {
        Metered {
            inner,
            scan: FrameScan::new(&BUDGET),
            clock: Clock {
                waited: Duration::ZERO,
                pending_since: None,
                timer: None,
                limit,
            },
            refused: None,
        }
    }

    /// The most this connection's unfinished messages have held at once (whole messages
    /// count too, while they arrive).
    pub fn peak(&self) -> usize {
        self.scan.peak
    }

    fn refuse(&mut self, why: Refusal) -> std::io::Error {
        self.refused = Some(why);
        self.scan.release();
        std::io::Error::other(why)
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        if let Some(why) = this.refused {
            return Poll::Ready(Err(std::io::Error::other(why)));
        }
        // The reader was waiting for this message's bytes since its last empty read.
        if let Some(since) = this.clock.pending_since.take() {
            this.clock.waited += since.elapsed();
        }
        if this.scan.unfinished() && this.clock.waited >= this.clock.limit {
            return Poll::Ready(Err(this.refuse(Refusal::Timeout)));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if let Err(why) = this.scan.scan(&buf.filled()[before..]) {
                    return Poll::Ready(Err(this.refuse(why)));
                }
                // A message (or a control frame) ended: the next one starts its own clock.
                if std::mem::take(&mut this.scan.settled) {
                    this.clock.waited = Duration::ZERO;
                    this.clock.timer = None;
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                if this.scan.unfinished() {
                    this.clock.pending_since = Some(Instant::now());
                    let left = this.clock.limit.saturating_sub(this.clock.waited);
                    let deadline = tokio::time::Instant::now() + left;
                    let timer = this
                        .clock
                        .timer
                        .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
                    timer.as_mut().reset(deadline);
                    // Registers the wake-up; if the time is already up, read again at once.
                    if std::future::Future::poll(timer.as_mut(), cx).is_ready() {
                        cx.waker().wake_by_ref();
                    }
                }
                Poll::Pending
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A masked client frame header (the mask key is zero) declaring `len` payload bytes.
    fn header(fin: bool, opcode: u8, len: u64) -> Vec<u8> {
        let mut h = vec![if fin { 0x80 } else { 0 } | opcode];
        match len {
            0..=125 => h.push(0x80 | len as u8),
            126..=0xffff => {
                h.push(0x80 | 126);
                h.extend_from_slice(&(len as u16).to_be_bytes());
            }
            _ => {
                h.push(0x80 | 127);
                h.extend_from_slice(&len.to_be_bytes());
            }
        }
        h.extend_from_slice(&[0; 4]);
        h
    }

    fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut f = header(fin, opcode, payload.len() as u64);
        f.extend_from_slice(payload);
        f
    }

    #[test]
    fn a_fragmented_message_is_held_until_its_final_frame_even_across_control_frames() {
        let mut scan = FrameScan::new(&BUDGET);
        let mut stream = frame(false, 0x1, &[b'a'; 300]);
        stream.extend(frame(true, 0x9, b"ping"));
        stream.extend(frame(false, 0x0, &[b'b'; 70_000]));
        // Fed a byte at a time and in odd chunks, the scan lands on the same boundaries.
        for chunk in stream.chunks(7) {
            scan.scan(chunk).unwrap();
        }
        assert!(scan.unfinished());
        assert!(scan.open_message);
        assert_eq!(scan.held, 70_300);
        // The final frame's header alone charges its declared length.
        scan.scan(&header(true, 0x0, 1000)).unwrap();
        assert_eq!(scan.held, 71_300);
        assert_eq!(scan.peak, 71_300);
        scan.scan(&[b'c'; 999]).unwrap();
        assert!(scan.unfinished());
        scan.settled = false;
        scan.scan(b"c").unwrap();
        assert!(!scan.unfinished() && scan.settled);
        assert_eq!(scan.held, 0);
        // Whole messages and control frames leave nothing held.
        let mut two = frame(true, 0x1, b"{}");
        two.extend(frame(true, 0xA, b""));
        two.extend(frame(true, 0x2, &[0; 200]));
        scan.scan(&two).unwrap();
        assert!(!scan.unfinished());
        assert_eq!(scan.held, 0);
    }

    #[test]
    fn frames_over_the_socket_limit_are_left_to_tungstenite() {
        let mut scan = FrameScan::new(&BUDGET);
        scan.scan(&header(true, 0x1, WS_MESSAGE_BYTES_MAX as u64 + 1))
            .unwrap();
        assert_eq!(scan.held, 0);
        assert!(scan.unfinished());
    }

    #[test]
    fn the_frame_that_pushes_the_total_over_the_budget_is_refused() {
        // A budget of its own: the process's is shared with the other tests.
        const OWED: usize = WS_MESSAGE_BYTES_MAX - WS_UNFINISHED_BYTES_UNCHARGED_MAX;
        static SMALL: Budget = Budget {
            held: AtomicUsize::new(0),
            max: 10 * OWED,
        };
        let mut scans: Vec<FrameScan> = (0..10).map(|_| FrameScan::new(&SMALL)).collect();
        for scan in &mut scans {
            scan.scan(&header(false, 0x1, WS_MESSAGE_BYTES_MAX as u64))
                .unwrap();
            assert_eq!((scan.held, scan.charged), (WS_MESSAGE_BYTES_MAX, OWED));
        }
        assert_eq!(SMALL.held.load(Ordering::SeqCst), SMALL.max);
        // A message within a connection's own allowance still goes through...
        let mut small = FrameScan::new(&SMALL);
        let within = WS_UNFINISHED_BYTES_UNCHARGED_MAX as u64;
        small.scan(&header(false, 0x1, within / 2)).unwrap();
        small.scan(&vec![b' '; within as usize / 2]).unwrap();
        small.scan(&header(true, 0x0, within / 2)).unwrap();
        assert_eq!((small.held, small.charged), (within as usize, 0));
        // ...and one byte past it is refused, leaving nothing held.
        let mut over = FrameScan::new(&SMALL);
        let r = over.scan(&header(true, 0x1, within + 1));
        assert_eq!(r, Err(Refusal::Budget));
        assert_eq!((over.held, over.charged), (0, 0));
        assert_eq!(SMALL.held.load(Ordering::SeqCst), SMALL.max);
        // One message completes: its room is back.
        scans[0].scan(&vec![0; WS_MESSAGE_BYTES_MAX]).unwrap();
        assert_eq!(scans[0].held, WS_MESSAGE_BYTES_MAX);
        scans[0].scan(&header(true, 0x0, 0)).unwrap();
        assert_eq!((scans[0].held, scans[0].charged), (0, 0));
        let mut fits = FrameScan::new(&SMALL);
        fits.scan(&header(true, 0x1, within + 100)).unwrap();
        drop(fits);
        // Connections that end give theirs back.
        drop(scans);
        assert_eq!(SMALL.held.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn an_unfinished_message_times_out_whether_or_not_bytes_trickle() {
        let limit = Duration::from_millis(300);
        for trickle in [false, true] {
            let (mut client, server) = tokio::io::duplex(1 << 16);
            let mut metered = Metered::with_limit(server, limit);
            // A complete message first: no clock.
            client.write_all(&frame(true, 0x1, b"{}")).await.unwrap();
            let mut buf = vec![0u8; 1 << 16];
            assert!(metered.read(&mut buf).await.unwrap() > 0);
            client.write_all(&header(false, 0x1, 10_000)).await.unwrap();
            let started = Instant::now();
            // The trickle: ten bytes every 20 ms, far from completing the message in time.
            let writer = tokio::spawn(async move {
                while trickle && client.write_all(&[b'x'; 10]).await.is_ok() {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                client
            });
            let err = loop {
                let read = tokio::time::timeout(Duration::from_millis(50), metered.read(&mut buf));
                match read.await {
                    Ok(Ok(_)) | Err(_) => {}
                    Ok(Err(e)) => break e,
                }
                assert!(started.elapsed() < 20 * limit, "never timed out");
            };
            drop(metered);
            drop(writer.await.unwrap());
            assert_eq!(Refusal::of(&err), Some(Refusal::Timeout));
            assert!(started.elapsed() >= limit, "{trickle}");
        }
    }

    #[tokio::test]
    async fn time_the_reader_spends_elsewhere_does_not_count() {
        let limit = Duration::from_millis(300);
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let mut metered = Metered::with_limit(server, limit);
        let mut buf = vec![0u8; 1 << 16];
        // A message's first bytes arrive with the previous message, then the reader is busy
        // for longer than the limit before it reads again: the rest is still accepted.
        let mut bytes = frame(true, 0x1, b"{}");
        bytes.extend(header(true, 0x1, 4));
        client.write_all(&bytes).await.unwrap();
        assert_eq!(metered.read(&mut buf).await.unwrap(), bytes.len());
        assert!(metered.scan.unfinished());
        tokio::time::sleep(2 * limit).await;
        client.write_all(b"{\"\"}").await.unwrap();
        assert_eq!(metered.read(&mut buf).await.unwrap(), 4);
        assert!(!metered.scan.unfinished());
    }
}
