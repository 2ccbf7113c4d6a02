//! A stream whose writes fail once they have made no progress for a while: an HTTP client
//! that stops reading would otherwise hold its reply (a `ledger` can be many megabytes) and
//! its connection for ever. The port's `send_timeout` applies, as it does to WebSocket
//! writes (a WebSocket session runs on the same stream after its upgrade).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `io`, with a timer armed while a write (or flush) waits and disarmed by any progress.
pub struct StallGuard<IO> {
    io: IO,
    stall: Duration,
    timer: Option<Pin<Box<Sleep>>>,
}

impl<IO> StallGuard<IO> {
    /// Writes to `io` that wait longer than `stall` fail with `TimedOut`.
    pub fn new(io: IO, stall: Duration) -> StallGuard<IO> {
        StallGuard {
            io,
            stall,
            timer: None,
        }
    }

    /// What an operation that returned `poll` means, given the timer.
    fn guard<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.timer = None;
            return poll;
        }
        let stall = self.stall;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                tracing::info!("client not reading: write stalled, disconnecting");
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "write stalled",
                )))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for StallGuard<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for StallGuard<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        self.guard(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.guard(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        self.guard(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_shutdown(cx);
        self.guard(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_stall_and_progress_resets_the_clock() {
        let (mut client, server) = tokio::io::duplex(64);
        let mut guarded = StallGuard::new(server, Duration::from_millis(200));
        // Room for 64 bytes: the first write goes through, the next waits.
        guarded.write_all(&[1; 64]).await.unwrap();
        let started = std::time::Instant::now();
        let e = guarded.write_all(&[2; 64]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(200));
        // A reader that keeps reading keeps the writer going, however long it takes.
        let (mut client2, server2) = tokio::io::duplex(64);
        let mut guarded = StallGuard::new(server2, Duration::from_millis(200));
        let reader = tokio::spawn(async move {
            let mut got = 0;
            let mut buf = [0u8; 16];
            while got < 1024 {
                tokio::time::sleep(Duration::from_millis(20)).await;
                got += client2.read(&mut buf).await.unwrap();
            }
        });
        guarded
            .write_all(&[3; 1024])
            .await
            .expect("a slow reader is fine");
        reader.await.unwrap();
        drop(client.read(&mut [0u8; 1]).await);
    }
}
