//! One WebSocket connection: a reader that parses frames and dispatches them, and a writer
//! that drains a bounded outbound queue in batches.
//!
//! - Several requests are in flight at once (up to [`WS_REQUESTS_IN_FLIGHT_MAX`]); a request
//!   stays in flight until its reply has been written to the socket, and the reader stops
//!   reading while that many are outstanding.
//! - Handlers that sign or verify run on the CPU pool; the pool thread formats the reply and
//!   queues it, so no task is spawned per request, and wakes the writer once per run of jobs
//!   rather than once per reply.
//! - The writer feeds every ready reply to the socket, then flushes once.
//! - A client that does not read is disconnected, as rippled does: when a write makes no
//!   progress for the port's `send_timeout`, or when more than `send_queue_limit` messages
//!   beyond the in-flight replies are waiting (unsolicited messages, such as streams).
//! - Messages larger than [`WS_PARSE_INLINE_BYTES_MAX`] are parsed and dispatched on the CPU
//!   pool; the reader waits for that before it reads on, so replies keep their order and the
//!   I/O thread serves the other connections meanwhile.
//! - Unfinished messages are metered where the bytes come in ([`meter`]): a budget across
//!   connections and a time limit, each closing the connection with 1008.
//! - Closing: a client's close frame is answered with one echoing its code, then the
//!   connection ends; a message that breaks the protocol closes it with the matching code
//!   (1007 invalid UTF-8, 1009 too big, 1002 otherwise).

mod meter;

use crate::limits::{
    RESOURCE_CHARGE_MALFORMED, WS_IDLE_QUEUE_CAPACITY_MAX, WS_MESSAGE_BYTES_MAX,
    WS_PARSE_INLINE_BYTES_MAX, WS_READ_BUFFER_BYTES, WS_REQUESTS_IN_FLIGHT_MAX,
    WS_WRITE_BATCH_MESSAGES_MAX, WS_WRITE_BUFFER_BYTES,
};
use crate::rpc::context::{Context, Transport};
use crate::rpc::cpu_pool;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::role::Role;
use crate::rpc::{self, envelope, json};
use crate::server::resource::Disposition;
use crate::server::shutdown::ShutdownSignal;
use crate::server::Connection;
use futures::{SinkExt, StreamExt};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::{Notify, Semaphore};
use tokio_tungstenite::tungstenite::error::{Error as WsError, ProtocolError};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role as WsRole, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

pub use meter::set_memory_trim;

/// The close reason rippled gives a client whose send queue overflowed (code 1008).
pub const WS_OVERFLOW_CLOSE_REASON: &str = "Policy error: client is too slow.";

/// A message waiting for the writer, with the in-flight permit of the request it answers.
type Outbound = (Message, Option<OwnedSemaphorePermit>);

/// The outbound side shared by the reader, the CPU pool jobs and the subscription streams.
/// The writer holds only the [`OutboxState`]; when the last `Outbox` is dropped (the reader
/// ended and no job is outstanding) the writer finishes what is queued and closes.
pub struct Outbox {
    state: Arc<OutboxState>,
}

/// What the writer and the senders share.
pub struct OutboxState {
    /// Messages waiting for the writer.
    queue: parking_lot::Mutex<VecDeque<Outbound>>,
    /// Wakes the writer: something was queued, or every sender is gone.
    wake: Notify,
    /// Set when the last [`Outbox`] is dropped.
    senders_gone: AtomicBool,
    /// Messages queued and not yet handed to the socket.
    queued: AtomicUsize,
    /// The port's `send_queue_limit` plus the in-flight replies.
    limit: usize,
    /// Set when the client is taken as not reading: the connection is being dropped.
    killed: AtomicBool,
    kill: Notify,
    /// Set with `killed` when the send queue overflowed: the writer tries to tell the client
    /// why, as rippled does, before it drops the connection.
    overflowed: AtomicBool,
}

impl cpu_pool::Wakeup for OutboxState {
    fn wake_up(&self) {
        self.wake.notify_one();
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        self.state.senders_gone.store(true, Ordering::Release);
        self.state.wake.notify_one();
    }
}

impl Outbox {
    /// Queue one message (with the in-flight permit of the request it answers, released
    /// once it is written); on overflow, mark the connection for disconnection instead.
    /// On a CPU pool worker the writer is woken when the worker's run of jobs ends
    /// ([`cpu_pool::defer_wakeup`]); anywhere else at once.
    pub fn push(&self, text: String, permit: Option<OwnedSemaphorePermit>) {
        self.push_message(Message::text(text), permit);
    }

    /// [`Outbox::push`] for a message already in the socket layer's form (a stream message
    /// shared by every subscriber).
    fn push_message(&self, message: Message, permit: Option<OwnedSemaphorePermit>) {
        let state = &self.state;
        if state.killed.load(Ordering::Relaxed) {
            return;
        }
        if state.queued.fetch_add(1, Ordering::AcqRel) >= state.limit {
            tracing::info!("websocket client not reading: send queue full, disconnecting");
            state.overflowed.store(true, Ordering::Release);
            state.kill();
            return;
        }
        self.enqueue((message, permit));
    }

    fn enqueue(&self, message: Outbound) {
        {
            let mut q = self.state.queue.lock();
            // Checked under the lock `kill` empties the queue under: nothing queued after a
            // kill can be left holding its request's in-flight permit.
            if self.state.killed.load(Ordering::Acquire) {
                return;
            }
            q.push_back(message);
        }
        if !cpu_pool::defer_wakeup(&self.state) {
            self.state.wake.notify_one();
        }
    }

    /// Queue a ping (its payload a count, only to tell pings apart in a capture).
    pub fn ping(&self) {
        static PINGS: AtomicUsize = AtomicUsize::new(0);
        let n = PINGS.fetch_add(1, Ordering::Relaxed) as u64;
        self.state.queued.fetch_add(1, Ordering::AcqRel);
        self.enqueue((Message::Ping(n.to_be_bytes().to_vec().into()), None));
    }

    /// Close the connection with `code` and `reason` once what is queued before it is
    /// written (rippled closes an over-limit client with 1008 `threshold exceeded`).
    pub fn close(&self, code: CloseCode, reason: &'static str) {
        self.state.queued.fetch_add(1, Ordering::AcqRel);
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        self.enqueue((Message::Close(Some(frame)), None));
    }
}

/// Stream messages go through the same bounded queue as replies (they count against
/// `send_queue_limit`; overflowing it disconnects the client).
impl crate::node::subscriptions::Sink for Outbox {
    fn send(&self, text: crate::node::subscriptions::SharedText) -> bool {
        self.push_message(Message::Text(text), None);
        !self.state.killed.load(Ordering::Acquire)
    }
}

impl OutboxState {
    /// Drop the connection: the reader stops and the socket is closed.
    /// What is still queued is dropped with it: nothing will write it, and the in-flight
    /// permits it holds must come back, or a reader waiting for one would wait forever (and
    /// the connection, its socket and its port slot would never be released).
    fn kill(&self) {
        let dropped: Vec<Outbound> = {
            let mut q = self.queue.lock();
            self.killed.store(true, Ordering::Release);
            q.drain(..).collect()
        };
        drop(dropped);
        self.kill.notify_waiters();
        self.kill.notify_one();
    }

    async fn killed(&self) {
        loop {
            // Registered before the check, so a kill between the two is not missed.
            let notified = self.kill.notified();
            if self.killed.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }

    /// Give back the queue's memory once a burst has drained (a `VecDeque` keeps its
    /// largest capacity): an idle subscriber holds no queue sized by its past.
    fn release_idle_queue(&self) {
        let mut q = self.queue.lock();
        if q.is_empty() && q.capacity() > WS_IDLE_QUEUE_CAPACITY_MAX {
            *q = VecDeque::new();
        }
    }

    /// The next batch to write, waiting for one; `None` once every sender is gone and
    /// everything queued has been taken.
    async fn next_batch(&self, batch: &mut Vec<Outbound>) -> Option<()> {
        loop {
            {
                let mut q = self.queue.lock();
                if !q.is_empty() {
                    let n = q.len().min(WS_WRITE_BATCH_MESSAGES_MAX);
                    batch.extend(q.drain(..n));
                    return Some(());
                }
                // Checked under the lock: a sender pushes before it is dropped.
                if self.senders_gone.load(Ordering::Acquire) {
                    return None;
                }
            }
            self.wake.notified().await;
        }
    }
}

/// Run a WebSocket session on an upgraded stream until the client leaves, stops answering
/// pings, stops reading, or the server shuts down.
pub async fn run<S>(stream: S, conn: Arc<Connection>, mut shutdown: ShutdownSignal)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let metered = meter::Metered::new(stream);
    let peak = metered.peak();
    let (sink, mut frames) = handshake(metered).await.split();
    let state = outbox_state(&conn);
    let outbox = Arc::new(Outbox {
        state: state.clone(),
    });
    let session = crate::node::subscriptions::Session::new(outbox.clone());
    tracing::debug!(peer = %conn.peer, "websocket open");
    let writer = tokio::spawn(write_outbox(
        sink,
        state.clone(),
        conn.port.send_timeout_secs,
        shutdown.clone(),
    ));
    read_requests(&mut frames, &conn, &state, &outbox, &session, &mut shutdown).await;
    close_session(&conn, session, outbox, writer).await;
    // The writer is done with its half: this frees the socket and tungstenite's buffers.
    drop(frames);
    if peak.load(Ordering::Relaxed) > WS_PARSE_INLINE_BYTES_MAX {
        meter::return_freed_memory();
    }
}

/// The server side of the WebSocket protocol on `stream`, with the message and buffer
/// bounds.
async fn handshake<S>(stream: S) -> WebSocketStream<S>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let config = WebSocketConfig::default()
        .max_message_size(Some(WS_MESSAGE_BYTES_MAX))
        .max_frame_size(Some(WS_MESSAGE_BYTES_MAX))
        .read_buffer_size(WS_READ_BUFFER_BYTES)
        .write_buffer_size(WS_WRITE_BUFFER_BYTES);
    WebSocketStream::from_raw_socket(stream, WsRole::Server, Some(config)).await
}

/// An empty outbound queue, bounded by the port's `send_queue_limit` plus the in-flight
/// replies.
fn outbox_state(conn: &Connection) -> Arc<OutboxState> {
    Arc::new(OutboxState {
        queue: parking_lot::Mutex::new(VecDeque::new()),
        wake: Notify::new(),
        senders_gone: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        limit: conn.port.send_queue_limit + WS_REQUESTS_IN_FLIGHT_MAX,
        killed: AtomicBool::new(false),
        kill: Notify::new(),
        overflowed: AtomicBool::new(false),
    })
}

/// The writer task: writes what is queued until every sender is gone, then closes the
/// connection; or, when the connection is killed, stops (telling an overflowed client why).
async fn write_outbox<S>(
    mut sink: futures::stream::SplitSink<WebSocketStream<S>, Message>,
    outbox: Arc<OutboxState>,
    send_timeout_secs: u64,
    shutdown: ShutdownSignal,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let stall = Duration::from_secs(send_timeout_secs);
    tokio::select! {
        done = write_all(&mut sink, &outbox, stall) => {
            if done.is_some() {
                // rippled closes with 1001 "Shutting Down" when the server stops; any other
                // end (the client left or stopped answering pings) is a normal close.
                let frame = if shutdown.is_triggered() {
                    CloseFrame { code: CloseCode::Away, reason: "Shutting Down".into() }
                } else {
                    CloseFrame { code: CloseCode::Normal, reason: "".into() }
                };
                let _ = sink.send(Message::Close(Some(frame))).await;
            }
        }
        _ = outbox.killed() => {
            // rippled's BaseWSPeer::send on overflow: what is queued is dropped, the
            // message being written is finished, then the connection is closed with 1008.
            // A client that reads gets the frame; one that does not is cut off when the
            // write stalls.
            if outbox.overflowed.load(Ordering::Acquire) {
                let frame = CloseFrame {
                    code: CloseCode::Policy,
                    reason: WS_OVERFLOW_CLOSE_REASON.into(),
                };
                let close = sink.send(Message::Close(Some(frame)));
                let _ = tokio::time::timeout(stall, close).await;
            }
        }
    }
}

/// Writes batch after batch; `Some` once every sender is gone and all is written, `None`
/// when the connection was killed (a write failed or stalled, or a close frame went out).
async fn write_all<S>(
    sink: &mut futures::stream::SplitSink<WebSocketStream<S>, Message>,
    outbox: &OutboxState,
    stall: Duration,
) -> Option<()>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut permits = Vec::new();
    let mut queued = Vec::new();
    while outbox.next_batch(&mut queued).await.is_some() {
        outbox.release_idle_queue();
        // Let the replies already being produced catch up, so one write carries
        // several of them (a write syscall costs more than a reply). Not for stream
        // messages alone: a close reaches thousands of subscribers, and a second turn of
        // each one's writer would only add to the time the last of them waits.
        let replies = queued.iter().any(|(_, permit)| permit.is_some());
        if replies && queued.len() < WS_WRITE_BATCH_MESSAGES_MAX {
            tokio::task::yield_now().await;
            let mut q = outbox.queue.lock();
            let n = q.len().min(WS_WRITE_BATCH_MESSAGES_MAX - queued.len());
            queued.extend(q.drain(..n));
        }
        let mut batch = Vec::with_capacity(queued.len());
        for (message, permit) in queued.drain(..) {
            permits.extend(permit);
            batch.push(message);
        }
        let count = batch.len();
        let closing = batch.iter().any(|m| matches!(m, Message::Close(_)));
        if !write_batch(sink, batch, stall).await {
            outbox.kill();
            return None;
        }
        outbox.queued.fetch_sub(count, Ordering::AcqRel);
        if closing {
            outbox.kill();
            return None;
        }
        // The requests these replies answer are no longer in flight.
        permits.clear();
        // An idle connection keeps no buffers sized by its last burst.
        if queued.capacity() > WS_IDLE_QUEUE_CAPACITY_MAX {
            queued = Vec::new();
        }
        if permits.capacity() > WS_IDLE_QUEUE_CAPACITY_MAX {
            permits = Vec::new();
        }
    }
    // Every sender is gone: the reader ended and no job is outstanding.
    Some(())
}

/// Feeds `batch` to the socket (up to a close frame) and flushes once; false when the
/// write failed or made no progress for `stall`.
async fn write_batch<S>(
    sink: &mut futures::stream::SplitSink<WebSocketStream<S>, Message>,
    batch: Vec<Message>,
    stall: Duration,
) -> bool
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let write = async {
        for message in batch {
            let close = matches!(message, Message::Close(_));
            sink.feed(message).await?;
            if close {
                break;
            }
        }
        sink.flush().await
    };
    match tokio::time::timeout(stall, write).await {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            tracing::debug!("websocket write failed: {e}");
            false
        }
        Err(_) => {
            tracing::info!("websocket client not reading: write stalled, disconnecting");
            false
        }
    }
}

/// The reader: takes an in-flight slot, reads a frame and dispatches it, until the client
/// leaves, stops answering pings, or the connection is killed or the server shuts down.
async fn read_requests<S>(
    frames: &mut futures::stream::SplitStream<WebSocketStream<S>>,
    conn: &Arc<Connection>,
    state: &OutboxState,
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
    shutdown: &mut ShutdownSignal,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let in_flight = Arc::new(Semaphore::new(WS_REQUESTS_IN_FLIGHT_MAX));
    let silence = Duration::from_secs(conn.port.ping_interval_secs.max(1));
    // A ping has gone out and nothing has come back since.
    let mut pinged = false;
    loop {
        let Some(permit) = in_flight_slot(&in_flight, shutdown, state).await else {
            break;
        };
        let message = match next_frame(frames, silence, shutdown, state, conn).await {
            Heard::Frame(m) => m,
            // rippled pings a silent client and drops it if the ping goes unanswered: a live
            // client's WebSocket stack answers by itself, however long it stays quiet.
            Heard::Silence if pinged => {
                tracing::debug!(peer = %conn.peer, "websocket ping unanswered, disconnecting");
                break;
            }
            Heard::Silence => {
                pinged = true;
                outbox.ping();
                continue;
            }
            Heard::Failed(close) => {
                if let Some((code, reason)) = close {
                    outbox.close(code, reason);
                }
                break;
            }
            Heard::End => break,
        };
        // Any frame shows the client is there.
        pinged = false;
        if let Message::Close(frame) = message {
            answer_close(frames, frame, conn).await;
            break;
        }
        if message.len() > WS_PARSE_INLINE_BYTES_MAX {
            dispatch_on_pool(message, permit, conn, outbox, session, shutdown).await;
        } else {
            dispatch(message, permit, conn, outbox, session);
        }
    }
}

/// The client sent a close frame: tungstenite has queued the answer (a close frame with the
/// client's code and reason); reading once more sends it and ends the stream. A client that
/// no longer reads gets the port's send timeout to take it.
async fn answer_close<S>(
    frames: &mut futures::stream::SplitStream<WebSocketStream<S>>,
    frame: Option<CloseFrame>,
    conn: &Connection,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    tracing::debug!(peer = %conn.peer, "websocket closed by the client: {frame:?}");
    let stall = Duration::from_secs(conn.port.send_timeout_secs);
    let _ = tokio::time::timeout(stall, frames.next()).await;
}

/// An in-flight slot for the next request; `None` when the connection is killed or the
/// server shuts down first. Waiting for a slot must not outlast the connection: a killed
/// writer or a shutdown ends the session even while every slot is taken.
async fn in_flight_slot(
    in_flight: &Arc<Semaphore>,
    shutdown: &mut ShutdownSignal,
    state: &OutboxState,
) -> Option<OwnedSemaphorePermit> {
    tokio::select! {
        p = in_flight.clone().acquire_owned() => p.ok(),
        _ = shutdown.recv() => None,
        _ = state.killed() => None,
    }
}

/// What waiting for the next frame came to.
enum Heard {
    /// A frame arrived.
    Frame(Message),
    /// Nothing arrived for the ping interval.
    Silence,
    /// The client broke the protocol or a bound: close with this code and reason, if the
    /// connection can still carry a close frame.
    Failed(Option<(CloseCode, &'static str)>),
    /// The client left, the connection was killed or the server is shutting down.
    End,
}

/// Waits up to `silence` for the next frame, or until the connection is killed or the
/// server shuts down.
async fn next_frame<S>(
    frames: &mut futures::stream::SplitStream<WebSocketStream<S>>,
    silence: Duration,
    shutdown: &mut ShutdownSignal,
    state: &OutboxState,
    conn: &Connection,
) -> Heard
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let next = tokio::select! {
        n = tokio::time::timeout(silence, frames.next()) => n,
        _ = shutdown.recv() => return Heard::End,
        _ = state.killed() => return Heard::End,
    };
    match next {
        Err(_) => Heard::Silence,
        Ok(None) => Heard::End,
        Ok(Some(Err(e))) => {
            tracing::debug!(peer = %conn.peer, "websocket read error: {e}");
            Heard::Failed(close_for(&e))
        }
        Ok(Some(Ok(m))) => Heard::Frame(m),
    }
}

/// The close code and reason for a failed read (RFC 6455 section 7.4.1); `None` when the
/// connection itself is gone.
fn close_for(e: &WsError) -> Option<(CloseCode, &'static str)> {
    match e {
        WsError::Utf8 => Some((CloseCode::Invalid, "Invalid UTF-8")),
        WsError::Capacity(_) => Some((CloseCode::Size, "Message too big")),
        WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => None,
        WsError::Protocol(_) => Some((CloseCode::Protocol, "Protocol error")),
        WsError::Io(e) => meter::Refusal::of(e).map(|why| {
            tracing::info!("websocket client refused: {why}");
            (CloseCode::Policy, why.reason())
        }),
        _ => None,
    }
}

/// One text (or UTF-8 binary) message: a request. Anything else needs nothing: pings are
/// answered by tungstenite, pongs only show the client is there.
fn dispatch(
    message: Message,
    permit: OwnedSemaphorePermit,
    conn: &Arc<Connection>,
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
) {
    match message {
        Message::Text(text) => on_text(text.as_str(), permit, conn, outbox, session),
        Message::Binary(bytes) => match std::str::from_utf8(&bytes) {
            Ok(text) => on_text(text, permit, conn, outbox, session),
            Err(_) => outbox.push(envelope::ws_json_invalid("").to_string(), Some(permit)),
        },
        _ => {}
    }
}

/// [`dispatch`] on the CPU pool, for a large message: parsing it (and answering it, when its
/// handler runs inline) takes milliseconds that the I/O thread owes the other connections.
/// Waits until it is done, so the connection's replies keep their order; a full pool queue
/// leaves it to the reader, as before.
async fn dispatch_on_pool(
    message: Message,
    permit: OwnedSemaphorePermit,
    conn: &Arc<Connection>,
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
    shutdown: &mut ShutdownSignal,
) {
    // The job may start handlers that spawn tasks: it runs inside this runtime's context.
    let runtime = tokio::runtime::Handle::current();
    let (done_tx, done) = tokio::sync::oneshot::channel::<()>();
    let slot = Arc::new(parking_lot::Mutex::new(Some((message, permit))));
    let job_slot = slot.clone();
    let (c, o, s) = (conn.clone(), outbox.clone(), session.clone());
    let accepted = conn.state.services.cpu.try_spawn(move || {
        let _runtime = runtime.enter();
        if let Some((message, permit)) = job_slot.lock().take() {
            dispatch(message, permit, &c, &o, &s);
        }
        drop(done_tx);
    });
    if !accepted {
        if let Some((message, permit)) = slot.lock().take() {
            dispatch(message, permit, conn, outbox, session);
        }
        return;
    }
    tokio::select! {
        _ = done => {}
        _ = shutdown.recv() => {}
        _ = outbox.state.killed() => {}
    }
}

/// The end of a session: the reader is done; the writer finishes once the in-flight jobs
/// have answered.
async fn close_session(
    conn: &Connection,
    session: Arc<crate::node::subscriptions::Session>,
    outbox: Arc<Outbox>,
    writer: tokio::task::JoinHandle<()>,
) {
    // Subscriptions hold the outbox too: forget them first, so that dropping our handle lets
    // the writer finish once the in-flight jobs have answered.
    conn.state
        .services
        .node
        .subscriptions
        .remove_session(session.id());
    drop(session);
    drop(outbox);
    let _ = writer.await;
    tracing::debug!(peer = %conn.peer, "websocket closed");
}

/// One text message: parse, check the envelope and the role, dispatch.
fn on_text(
    text: &str,
    permit: tokio::sync::OwnedSemaphorePermit,
    conn: &Arc<Connection>,
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
) {
    let request = match json::parse_object(text.as_bytes()) {
        Ok(r) => r,
        Err(e) => {
            tracing::debug!(peer = %conn.peer, "jsonInvalid: {}", e.reason());
            if conn.charge(conn.role, RESOURCE_CHARGE_MALFORMED) == Disposition::Drop {
                outbox.close(CloseCode::Policy, "threshold exceeded");
            } else {
                outbox.push(envelope::ws_json_invalid(text).to_string(), Some(permit));
            }
            return;
        }
    };
    let role = conn.role_for(&request);
    if role != Role::Admin && conn.state.resources.disposition(conn.peer.ip()) == Disposition::Drop
    {
        outbox.close(CloseCode::Policy, "threshold exceeded");
        return;
    }
    let (name, api_version) = match envelope::ws_precheck(&request) {
        Ok(x) => x,
        Err(reply) => {
            conn.charge(role, RESOURCE_CHARGE_MALFORMED);
            outbox.push(reply.to_string(), Some(permit));
            return;
        }
    };
    tracing::debug!(peer = %conn.peer, method = %name, "websocket request");
    if rpc::forbidden(&name, api_version, role) {
        let warn = conn.charge(role, RESOURCE_CHARGE_MALFORMED) != Disposition::Ok;
        outbox.push(
            envelope::ws_reply_text(&request, Err(RpcError::new(ErrorCode::Forbidden)), warn),
            Some(permit),
        );
        return;
    }
    let ctx = Context {
        role,
        api_version,
        transport: Transport::WebSocket,
        session: Some(session.clone()),
        services: conn.state.services.clone(),
    };
    // Charged by method and reply size once the reply is built (server/charge.rs).
    match rpc::resolve(&ctx, &request) {
        Err(e) => conn.answer_ws(outbox, role, &name, &request, Err(e), permit),
        Ok(method) => {
            let (outbox, conn) = (outbox.clone(), conn.clone());
            rpc::execute(method, ctx, request, move |result, request| {
                conn.answer_ws(&outbox, role, method.name, &request, result, permit);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::config::ServerConfig;

    fn params(v: serde_json::Value) -> rpc::Params {
        match v {
            serde_json::Value::Object(o) => o,
            _ => rpc::Params::new(),
        }
    }

    /// A subscriber whose socket is full, with a stream message stalled in the writer and
    /// every in-flight slot taken by replies queued behind it: when the stall disconnects it,
    /// the session ends and gives its connection slot back (the queued replies hold the
    /// slots the reader waits for, so they must go with the writer).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stalled_subscriber_with_every_slot_taken_is_released() {
        let mut config = ServerConfig::single(([127, 0, 0, 1], 0).into());
        config.ephemeral = true;
        config.ports[0].send_timeout_secs = 1;
        let running = crate::app::start(config).await.expect("server starts");
        let state = running.state.shared.clone();
        let slots = Arc::new(Semaphore::new(1));
        let conn = Arc::new(Connection {
            peer: ([127, 0, 0, 1], 1).into(),
            role: Role::Admin,
            port: Arc::new(state.config.ports[0].clone()),
            state: state.clone(),
            _permit: Some(slots.clone().try_acquire_owned().expect("slot")),
            _open: crate::metrics::OpenConnection::new("test"),
        });
        // A pipe far smaller than a socket's buffers: a few stream messages fill it.
        let (client_io, server_io) = tokio::io::duplex(2048);
        let session = tokio::spawn(run(server_io, conn, running.shutdown.signal()));
        let client = WebSocketStream::from_raw_socket(client_io, WsRole::Client, None).await;
        let (mut tx, mut rx) = client.split();
        tx.send(Message::text(
            r#"{"id":"sub","command":"subscribe","streams":["ledger"]}"#,
        ))
        .await
        .expect("send");
        let reply = tokio::time::timeout(Duration::from_secs(10), rx.next())
            .await
            .expect("subscribe reply");
        assert!(matches!(reply, Some(Ok(Message::Text(_)))), "{reply:?}");
        // From here on the client reads nothing. Ledger closes fill the pipe; the writer
        // stalls on a stream message and the later ones queue behind it.
        let ctx = Context {
            role: Role::Admin,
            api_version: 1,
            transport: Transport::WebSocket,
            session: None,
            services: state.services.clone(),
        };
        for _ in 0..20 {
            let (r, _) = rpc::call(
                ctx.clone(),
                params(serde_json::json!({"command": "ledger_accept"})),
            )
            .await;
            assert!(r.is_ok());
        }
        // Then more requests than the in-flight limit: their replies queue behind the stall
        // and the reader waits for a slot.
        let sender = tokio::spawn(async move {
            for i in 0..WS_REQUESTS_IN_FLIGHT_MAX + 8 {
                let ping = format!(r#"{{"id":{i},"command":"ping"}}"#);
                if tx.send(Message::text(ping)).await.is_err() {
                    break;
                }
            }
            tx
        });
        // The stall (send_timeout 1 s) disconnects the client; the session must end.
        let ended = tokio::time::timeout(Duration::from_secs(10), session).await;
        sender.abort();
        assert!(
            ended.is_ok(),
            "the session never ended after its writer was killed"
        );
        assert_eq!(slots.available_permits(), 1, "the connection slot was kept");
        drop(rx);
        running.stop().await;
    }
}
