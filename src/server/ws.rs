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

mod frames;
mod meter;

use crate::limits::{
    RESOURCE_CHARGE_MALFORMED, WS_IDLE_QUEUE_CAPACITY_MAX, WS_MESSAGE_BYTES_MAX,
    WS_PARSE_INLINE_BYTES_MAX, WS_READ_BUFFER_BYTES, WS_REQUESTS_IN_FLIGHT_MAX,
    WS_WRITE_BATCH_MESSAGES_MAX,
};
use crate::rpc::context::{Context, Transport};
use crate::rpc::cpu_pool;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::{self, envelope, json};
use crate::server::resource::Disposition;
use crate::server::shutdown::ShutdownSignal;
use crate::server::Caller;
use crate::server::Connection;
use futures::{SinkExt, StreamExt};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::error::{Error as WsError, ProtocolError};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role as WsRole, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

pub use meter::set_memory_trim;

/// The close reason rippled gives a client whose send queue overflowed (code 1008).
pub const WS_OVERFLOW_CLOSE_REASON: &str = "Policy error: client is too slow.";

/// A message waiting for the writer, with the in-flight slot of the request it answers.
type Outbound = (Message, Option<Slot>);

/// A request's place among the connection's [`WS_REQUESTS_IN_FLIGHT_MAX`]: it goes with the
/// request, then with its reply until the reply is written (or dropped), then comes back.
pub struct Slot(Arc<OutboxState>);

impl Drop for Slot {
    fn drop(&mut self) {
        // Every slot was taken: the session is waiting for this one to read again.
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == WS_REQUESTS_IN_FLIGHT_MAX {
            self.0.wake.notify_one();
        }
    }
}

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
    /// Requests in flight (slots taken).
    in_flight: AtomicUsize,
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
    /// Queue one message (with the in-flight slot of the request it answers, released
    /// once it is written); on overflow, mark the connection for disconnection instead.
    /// On a CPU pool worker the writer is woken when the worker's run of jobs ends
    /// ([`cpu_pool::defer_wakeup`]); anywhere else at once.
    pub fn push(&self, text: String, permit: Option<Slot>) {
        self.push_message(Message::text(text), permit);
    }

    /// [`Outbox::push`] for a message already in the socket layer's form (a stream message
    /// shared by every subscriber).
    fn push_message(&self, message: Message, permit: Option<Slot>) {
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
            // kill can be left holding its request's in-flight slot.
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

    /// One lock and one wake-up for a subscriber's share of a ledger's messages.
    fn send_all(&self, texts: Vec<crate::node::subscriptions::SharedText>) -> bool {
        let state = &self.state;
        if state.killed.load(Ordering::Relaxed) {
            return false;
        }
        let n = texts.len();
        if state.queued.fetch_add(n, Ordering::AcqRel) + n > state.limit {
            tracing::info!("websocket client not reading: send queue full, disconnecting");
            state.overflowed.store(true, Ordering::Release);
            state.kill();
            return false;
        }
        {
            let mut q = state.queue.lock();
            if state.killed.load(Ordering::Acquire) {
                return false;
            }
            q.extend(texts.into_iter().map(|t| (Message::Text(t), None)));
        }
        if !cpu_pool::defer_wakeup(state) {
            state.wake.notify_one();
        }
        true
    }
}

impl OutboxState {
    /// Drop the connection: the reader stops and the socket is closed.
    /// What is still queued is dropped with it: nothing will write it, and the in-flight
    /// slots it holds must come back, or a session waiting for one would wait forever (and
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
        self.wake.notify_one();
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

    /// An in-flight slot for the next request, if one is free. Only the session takes
    /// slots, so the count seen can only fall before the slot is taken.
    fn take_slot(self: &Arc<Self>) -> Option<Slot> {
        if self.in_flight.load(Ordering::Acquire) >= WS_REQUESTS_IN_FLIGHT_MAX {
            return None;
        }
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        Some(Slot(self.clone()))
    }

    /// The next batch to write, waiting for one (or, with `for_slot`, for a slot to come
    /// back: then the batch is empty); `None` once every sender is gone and everything
    /// queued has been taken, or the connection is killed.
    async fn next_batch(&self, batch: &mut Vec<Outbound>, for_slot: bool) -> Option<()> {
        loop {
            {
                let mut q = self.queue.lock();
                if self.killed.load(Ordering::Acquire) {
                    return None;
                }
                if !q.is_empty() {
                    let n = q.len().min(WS_WRITE_BATCH_MESSAGES_MAX);
                    batch.extend(q.drain(..n));
                    return Some(());
                }
                if for_slot && self.in_flight.load(Ordering::Acquire) < WS_REQUESTS_IN_FLIGHT_MAX {
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
pub async fn run<S>(stream: S, conn: Arc<Connection>, caller: Caller, mut shutdown: ShutdownSignal)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let mut ws = Box::pin(handshake(meter::Metered::new(stream))).await;
    let state = outbox_state(&conn);
    let outbox = Arc::new(Outbox {
        state: state.clone(),
    });
    let session = crate::node::subscriptions::Session::new(outbox.clone());
    tracing::debug!(peer = %conn.peer, "websocket open");
    let end = serve(
        &mut ws,
        (&conn, &caller),
        &state,
        &outbox,
        &session,
        &mut shutdown,
    )
    .await;
    end_session(&conn, session, outbox);
    Box::pin(finish(&mut ws, &state, end, &conn)).await;
    tracing::debug!(peer = %conn.peer, "websocket closed");
    let peak = ws.get_ref().peak();
    // This frees the socket and tungstenite's buffers.
    drop(ws);
    if peak > WS_PARSE_INLINE_BYTES_MAX {
        meter::return_freed_memory();
    }
}

/// The server side of the WebSocket protocol on `stream`, with the message and buffer
/// bounds. tungstenite's own writes are only its answers to pings and to a close.
async fn handshake<S>(stream: S) -> WebSocketStream<S>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let config = WebSocketConfig::default()
        .max_message_size(Some(WS_MESSAGE_BYTES_MAX))
        .max_frame_size(Some(WS_MESSAGE_BYTES_MAX))
        .read_buffer_size(WS_READ_BUFFER_BYTES)
        .write_buffer_size(0);
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
        in_flight: AtomicUsize::new(0),
    })
}

/// How a session's serving ended.
enum End {
    /// The client sent a close frame: tungstenite answers it.
    ClientClosed(Option<CloseFrame>),
    /// The client left or stopped answering pings: what is queued is written, then a
    /// normal close.
    Left,
    /// The client broke the protocol or a bound: what is queued, then a close with this
    /// code and reason.
    Failed(CloseCode, &'static str),
    /// The connection was killed: a write failed or stalled, the send queue overflowed, or
    /// a close frame went out.
    Killed,
    /// The server is shutting down: what is queued, then 1001 "Shutting Down".
    Shutdown,
}

/// The session's one loop: reads and dispatches requests while an in-flight slot is free,
/// writes what is queued, pings a silent client. Reading and writing share this one task,
/// so a connection costs one task, and a write runs to its end (or its stall) before the
/// next read.
async fn serve<S>(
    ws: &mut WebSocketStream<S>,
    (conn, caller): (&Arc<Connection>, &Caller),
    state: &Arc<OutboxState>,
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
    shutdown: &mut ShutdownSignal,
) -> End
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let silence = Duration::from_secs(conn.port.ping_interval_secs.max(1));
    let stall = Duration::from_secs(conn.port.send_timeout_secs);
    let ping = tokio::time::sleep(silence);
    tokio::pin!(ping);
    // A ping has gone out and nothing has come back since.
    let mut pinged = false;
    let mut batch = Vec::new();
    loop {
        // A request stays in flight until its reply is written: with every slot taken the
        // session stops reading and only writes.
        let slot = state.take_slot();
        // What is queued goes out before the next read: replies free their slots, and a
        // client that keeps sending cannot hold back what it is owed.
        tokio::select! {
            biased;
            _ = shutdown.recv() => return End::Shutdown,
            // What is queued; or, with every slot taken, a slot that came back (its reply
            // written, or dropped by a job that had none): then the loop reads again.
            got = state.next_batch(&mut batch, slot.is_none()) => {
                if got.is_none() {
                    return End::Killed;
                }
                if !batch.is_empty() && !Box::pin(write_batch(ws, &mut batch, state, stall)).await {
                    return End::Killed;
                }
            }
            next = ws.next(), if slot.is_some() => {
                // Any frame shows the client is there.
                ping.as_mut().reset(tokio::time::Instant::now() + silence);
                pinged = false;
                let message = match heard(next, conn) {
                    Ok(m) => m,
                    Err(end) => return end,
                };
                if let Message::Close(frame) = message {
                    return End::ClientClosed(frame);
                }
                if let Some(permit) = slot {
                    receive(message, permit, (conn, caller), outbox, session, shutdown).await;
                }
            }
            _ = &mut ping => {
                // rippled pings a silent client and drops it if the ping goes unanswered: a
                // live client's WebSocket stack answers by itself, however long it stays
                // quiet.
                if pinged {
                    tracing::debug!(peer = %conn.peer, "websocket ping unanswered, disconnecting");
                    return End::Left;
                }
                pinged = true;
                outbox.ping();
                ping.as_mut().reset(tokio::time::Instant::now() + silence);
            }
        }
    }
}

/// What a read came to: a message, or how the session ends.
fn heard(next: Option<Result<Message, WsError>>, conn: &Connection) -> Result<Message, End> {
    match next {
        None => Err(End::Left),
        Some(Err(e)) => {
            tracing::debug!(peer = %conn.peer, "websocket read error: {e}");
            Err(match close_for(&e) {
                Some((code, reason)) => End::Failed(code, reason),
                None => End::Left,
            })
        }
        Some(Ok(m)) => Ok(m),
    }
}

/// Dispatch one message: inline, or on the CPU pool when it is large.
async fn receive(
    message: Message,
    permit: Slot,
    caller: (&Arc<Connection>, &Caller),
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
    shutdown: &mut ShutdownSignal,
) {
    if message.len() > WS_PARSE_INLINE_BYTES_MAX {
        Box::pin(dispatch_on_pool(
            message, permit, caller, outbox, session, shutdown,
        ))
        .await;
    } else {
        dispatch(message, permit, caller, outbox, session);
    }
}

/// Writes one batch from the queue (topped up with the replies just being produced); false
/// when the connection was killed (the write failed or stalled, or a close frame went out).
async fn write_batch<S>(
    ws: &mut WebSocketStream<S>,
    queued: &mut Vec<Outbound>,
    state: &OutboxState,
    stall: Duration,
) -> bool
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    state.release_idle_queue();
    // Let the replies already being produced catch up, so one write carries several of
    // them (a write syscall costs more than a reply). Not for stream messages alone: a
    // close reaches thousands of subscribers, and a second turn of each one's session
    // would only add to the time the last of them waits.
    let replies = queued.iter().any(|(_, permit)| permit.is_some());
    if replies && queued.len() < WS_WRITE_BATCH_MESSAGES_MAX {
        tokio::task::yield_now().await;
        let mut q = state.queue.lock();
        let n = q.len().min(WS_WRITE_BATCH_MESSAGES_MAX - queued.len());
        queued.extend(q.drain(..n));
    }
    let count = queued.len();
    let messages: Vec<Message> = queued.drain(..).map(|(message, _permit)| message).collect();
    // An idle connection keeps no buffers sized by its last burst.
    *queued = Vec::new();
    let closing = messages.iter().any(|m| matches!(m, Message::Close(_)));
    if !write_timed(ws, &messages, stall).await {
        state.kill();
        return false;
    }
    state.queued.fetch_sub(count, Ordering::AcqRel);
    if closing {
        state.kill();
        return false;
    }
    true
}

/// Writes `messages` (up to and with a close frame), after anything tungstenite still
/// holds; false when the write failed or made no progress for `stall`.
async fn write_timed<S>(ws: &mut WebSocketStream<S>, messages: &[Message], stall: Duration) -> bool
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let end = messages
        .iter()
        .position(|m| matches!(m, Message::Close(_)))
        .map_or(messages.len(), |i| i + 1);
    let write = async {
        // A pong tungstenite could not write at once goes first, whole.
        let _ = ws.flush().await;
        frames::write(ws.get_mut(), &messages[..end]).await
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

/// After serving: answer the client's close, or write what is still queued (the replies of
/// requests still in flight among it) and close, or tell an overflowed client why.
async fn finish<S>(ws: &mut WebSocketStream<S>, state: &OutboxState, end: End, conn: &Connection)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let stall = Duration::from_secs(conn.port.send_timeout_secs);
    let (code, reason) = match end {
        End::ClientClosed(frame) => return answer_close(ws, frame, conn, stall).await,
        End::Killed => return tell_overflowed(ws, state, stall).await,
        End::Left => (CloseCode::Normal, ""),
        End::Failed(code, reason) => (code, reason),
        // rippled closes with 1001 "Shutting Down" when the server stops.
        End::Shutdown => (CloseCode::Away, "Shutting Down"),
    };
    let mut batch = Vec::new();
    while state.next_batch(&mut batch, false).await.is_some() {
        if !write_batch(ws, &mut batch, state, stall).await {
            break;
        }
    }
    if state.killed.load(Ordering::Acquire) {
        return tell_overflowed(ws, state, stall).await;
    }
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    write_timed(ws, &[Message::Close(Some(frame))], stall).await;
}

/// rippled's BaseWSPeer::send on overflow: what is queued is dropped, then the connection
/// is closed with 1008. A client that reads gets the frame; one that does not is cut off
/// when the write stalls.
async fn tell_overflowed<S>(ws: &mut WebSocketStream<S>, state: &OutboxState, stall: Duration)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    if state.overflowed.load(Ordering::Acquire) {
        let frame = CloseFrame {
            code: CloseCode::Policy,
            reason: WS_OVERFLOW_CLOSE_REASON.into(),
        };
        write_timed(ws, &[Message::Close(Some(frame))], stall).await;
    }
}

/// The client sent a close frame: tungstenite has queued the answer (a close frame with the
/// client's code and reason); reading once more sends it and ends the stream. A client that
/// no longer reads gets the port's send timeout to take it.
async fn answer_close<S>(
    ws: &mut WebSocketStream<S>,
    frame: Option<CloseFrame>,
    conn: &Connection,
    stall: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    tracing::debug!(peer = %conn.peer, "websocket closed by the client: {frame:?}");
    let _ = tokio::time::timeout(stall, ws.next()).await;
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
    permit: Slot,
    caller: (&Arc<Connection>, &Caller),
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
) {
    match message {
        Message::Text(text) => on_text(text.as_str(), permit, caller, outbox, session),
        Message::Binary(bytes) => match std::str::from_utf8(&bytes) {
            Ok(text) => on_text(text, permit, caller, outbox, session),
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
    permit: Slot,
    (conn, caller): (&Arc<Connection>, &Caller),
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
    shutdown: &mut ShutdownSignal,
) {
    // The job may start handlers that spawn tasks: it runs inside this runtime's context.
    let runtime = tokio::runtime::Handle::current();
    let (done_tx, done) = tokio::sync::oneshot::channel::<()>();
    let slot = Arc::new(parking_lot::Mutex::new(Some((message, permit))));
    let job_slot = slot.clone();
    let (c, k, o, s) = (
        conn.clone(),
        caller.clone(),
        outbox.clone(),
        session.clone(),
    );
    let accepted = conn.state.services.cpu.try_spawn(move || {
        let _runtime = runtime.enter();
        if let Some((message, permit)) = job_slot.lock().take() {
            dispatch(message, permit, (&c, &k), &o, &s);
        }
        drop(done_tx);
    });
    if !accepted {
        if let Some((message, permit)) = slot.lock().take() {
            dispatch(message, permit, (conn, caller), outbox, session);
        }
        return;
    }
    tokio::select! {
        _ = done => {}
        _ = shutdown.recv() => {}
        _ = outbox.state.killed() => {}
    }
}

/// The end of serving: the session's subscriptions are forgotten and its handle on the
/// outbox dropped, so the queue ends once the in-flight jobs have answered.
fn end_session(
    conn: &Connection,
    session: Arc<crate::node::subscriptions::Session>,
    outbox: Arc<Outbox>,
) {
    conn.state
        .services
        .node
        .subscriptions
        .remove_session(session.id());
    drop(session);
    drop(outbox);
}

/// One text message: parse, check the envelope and the role, dispatch.
fn on_text(
    text: &str,
    permit: Slot,
    (conn, caller): (&Arc<Connection>, &Caller),
    outbox: &Arc<Outbox>,
    session: &Arc<crate::node::subscriptions::Session>,
) {
    let request = match json::parse_object(text.as_bytes()) {
        Ok(r) => r,
        Err(e) => {
            tracing::debug!(peer = %conn.peer, "jsonInvalid: {}", e.reason());
            if conn.charge(conn.role, caller.payer, RESOURCE_CHARGE_MALFORMED) == Disposition::Drop
            {
                outbox.close(CloseCode::Policy, "threshold exceeded");
            } else {
                outbox.push(envelope::ws_json_invalid(text).to_string(), Some(permit));
            }
            return;
        }
    };
    let role = conn.role_for(&request, caller);
    let payer = caller.payer;
    if conn.cut_off(role, payer) {
        outbox.close(CloseCode::Policy, "threshold exceeded");
        return;
    }
    let (name, api_version) = match envelope::ws_precheck(&request) {
        Ok(x) => x,
        Err(reply) => {
            conn.charge(role, payer, RESOURCE_CHARGE_MALFORMED);
            outbox.push(reply.to_string(), Some(permit));
            return;
        }
    };
    tracing::debug!(peer = %conn.peer, method = %name, "websocket request");
    if rpc::forbidden(&name, api_version, role) {
        let warn = conn.charge(role, payer, RESOURCE_CHARGE_MALFORMED) != Disposition::Ok;
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
        forwarded: caller.forwarded(role),
        raw_json: true,
    };
    // Charged by method and reply size once the reply is built (server/charge.rs).
    match rpc::resolve(&ctx, &request) {
        Err(e) => conn.answer_ws(outbox, (role, payer), &name, &request, Err(e), permit),
        Ok(method) => {
            let (outbox, conn) = (outbox.clone(), conn.clone());
            rpc::execute(method, ctx, request, move |result, request| {
                conn.answer_ws(
                    &outbox,
                    (role, payer),
                    method.name,
                    &request,
                    result,
                    permit,
                );
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::role::Role;
    use crate::server::config::ServerConfig;
    use crate::server::role::Payer;

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
        let slots = Arc::new(tokio::sync::Semaphore::new(1));
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
        let caller = Caller {
            said: None,
            payer: Payer::Address(conn.peer.ip()),
            another_site: false,
        };
        let session = tokio::spawn(run(server_io, conn, caller, running.shutdown.signal()));
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
            forwarded: None,
            raw_json: false,
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
