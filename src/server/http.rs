//! One connection's HTTP side (hyper 1): JSON-RPC `POST`, the health page, the explorer
//! (`explorer.rs`) and the WebSocket upgrade, all on the same port.
//!
//! Why hyper rather than sniffing bytes: it already does HTTP/1.1 keep-alive, pipelining,
//! chunked bodies and header timeouts correctly, and `with_upgrades` hands us the raw stream
//! after the `101`, which `WebSocketStream::from_raw_socket` wraps without a second handshake.
//! The replies follow rippled's `HTTPReply` (rpc.md §1.2 and §1.3).
//!
//! A request body is read frame by frame into one buffer bounded by [`REQUEST_BYTES_MAX`]
//! that grows with what arrives (each frame is copied and let go at once: a frame shares
//! hyper's read buffer, about 8 KiB, so keeping frames would keep a buffer per TCP segment),
//! within the server's budget for bodies in progress and the body timeouts. A large body is parsed on the CPU pool. The
//! request is charged once its reply is built (`charge.rs`), and the `Connection` header says
//! whether the connection stays open. A write that makes no progress for the port's
//! `send_timeout` ends the connection (`stall.rs`).

use crate::limits::{
    HANDSHAKE_TIMEOUT_SECS, HTTP_BODY_BUFFER_INITIAL_BYTES_MAX, HTTP_BODY_IDLE_TIMEOUT_SECS,
    HTTP_BODY_PARSE_INLINE_BYTES_MAX, HTTP_BODY_TIMEOUT_SECS, HTTP_READ_BUFFER_BYTES_MAX,
    REQUEST_BYTES_MAX, RESOURCE_CHARGE_MALFORMED,
};
use crate::rpc::context::{Context, Transport};
use crate::rpc::role::Role;
use crate::rpc::{self, envelope, json, parse_api_version, HandlerResult, Params};
use crate::server::budget::{InputBudget, Reservation};
use crate::server::charge;
use crate::server::explorer;
use crate::server::faucet;
use crate::server::listener::IpSlot;
use crate::server::metrics;
use crate::server::resource::Disposition;
use crate::server::role::Payer;
use crate::server::shutdown::ShutdownSignal;
use crate::server::stall::StallGuard;
use crate::server::ws;
use crate::server::Caller;
use crate::server::Connection;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{
    HeaderName, HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, SERVER, UPGRADE,
};
use hyper::{Method, Request, Response, StatusCode, Version};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::Value;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Instant;

/// The `Server` header of every HTTP reply (rippled: `rippled-json-rpc/<version>`).
pub const SERVER_HEADER: &str = concat!("ledgerd-json-rpc/", env!("CARGO_PKG_VERSION"));

/// The health page a load balancer sees on `GET /` of a WebSocket port.
pub const HEALTH_PAGE: &str = "<!DOCTYPE html><html><head><title>Test page for ledgerd</title>\
</head><body><h1>Test</h1><p>This page shows ledgerd http(s) connectivity is working.</p>\
</body></html>";

/// The WebSocket protocol version served (RFC 6455).
const WS_VERSION: &str = "13";

type Reply = Response<Full<Bytes>>;

/// What keeps a connection's address slot (`ip_limit`): the connection and, once it has
/// upgraded, its WebSocket session.
type Hold = Arc<Option<IpSlot>>;

fn builder() -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(HANDSHAKE_TIMEOUT_SECS))
        .max_buf_size(HTTP_READ_BUFFER_BYTES_MAX);
    builder
}

/// Serve HTTP (and upgrades) on one accepted, possibly TLS-wrapped, stream; `slot` is the
/// connection's share of its address's `ip_limit`, if the port counts them.
pub async fn serve<IO>(
    io: IO,
    conn: Arc<Connection>,
    slot: Option<IpSlot>,
    mut shutdown: ShutdownSignal,
) where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let hold: Hold = Arc::new(slot);
    let service_conn = conn.clone();
    let service_shutdown = shutdown.clone();
    let service = hyper::service::service_fn(move |req| {
        let conn = service_conn.clone();
        let shutdown = service_shutdown.clone();
        let hold = hold.clone();
        async move { Ok::<_, Infallible>(route(req, conn, hold, shutdown).await) }
    });
    let mut builder = builder();
    builder.keep_alive(true);
    // A client that stops reading its replies is dropped after the port's send_timeout.
    let io = StallGuard::new(io, Duration::from_secs(conn.port.send_timeout_secs));
    let served = builder
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(served);
    tokio::select! {
        r = served.as_mut() => {
            if let Err(e) = r {
                tracing::debug!(peer = %conn.peer, "http connection ended: {e}");
            }
        }
        _ = shutdown.recv() => {
            served.as_mut().graceful_shutdown();
            let _ = served.await;
        }
    }
}

/// Answer the request on `io` with `503 Server is overloaded` and `reason`, then close (a
/// connection beyond its port's `limit` or `ip_limit`).
pub async fn refuse<IO>(io: IO, reason: &'static str)
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |_req| async move {
        Ok::<_, Infallible>(plain(StatusCode::SERVICE_UNAVAILABLE, reason, true))
    });
    let mut builder = builder();
    builder.keep_alive(false);
    let io = StallGuard::new(io, Duration::from_secs(HANDSHAKE_TIMEOUT_SECS));
    let _ = builder.serve_connection(TokioIo::new(io), service).await;
}

/// Whether a header lists `token` (comma-separated, any case).
fn header_has(req: &Request<Incoming>, name: HeaderName, token: &str) -> bool {
    req.headers().get_all(name).iter().any(|v| {
        v.to_str()
            .map(|s| s.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
            .unwrap_or(false)
    })
}

fn is_upgrade(req: &Request<Incoming>) -> bool {
    header_has(req, UPGRADE, "websocket") && header_has(req, CONNECTION, "upgrade")
}

/// Whether the client wants the connection kept after this request (RFC 9112 9.3): HTTP/1.1
/// unless it says `close`, HTTP/1.0 only if it says `keep-alive`. hyper closes accordingly,
/// so the reply's `Connection` header must say the same.
fn wants_keep_alive(req: &Request<Incoming>) -> bool {
    if req.version() < Version::HTTP_11 {
        header_has(req, CONNECTION, "keep-alive")
    } else {
        !header_has(req, CONNECTION, "close")
    }
}

async fn route(
    req: Request<Incoming>,
    conn: Arc<Connection>,
    hold: Hold,
    shutdown: ShutdownSignal,
) -> Reply {
    let keep_alive = wants_keep_alive(&req);
    let mut resp = if is_upgrade(&req) {
        upgrade(req, &conn, hold, shutdown)
    } else {
        request(req, &conn).await
    };
    if !keep_alive && resp.status() != StatusCode::SWITCHING_PROTOCOLS {
        resp.headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    resp
}

/// The WebSocket opening handshake (RFC 6455 4.2): an HTTP/1.1 GET (else 400) for version 13
/// (else 426 naming it, 4.2.2 and 4.4) with a key; the session runs as its own task.
fn upgrade(
    mut req: Request<Incoming>,
    conn: &Arc<Connection>,
    hold: Hold,
    shutdown: ShutdownSignal,
) -> Reply {
    if !conn.port.ws {
        return html(StatusCode::UNAUTHORIZED, "Invalid protocol.");
    }
    if req.method() != Method::GET || req.version() < Version::HTTP_11 {
        let text = "Bad Request: a WebSocket handshake is an HTTP/1.1 GET";
        return plain(StatusCode::BAD_REQUEST, text, true);
    }
    let version = req.headers().get("sec-websocket-version");
    if version.map(HeaderValue::as_bytes) != Some(WS_VERSION.as_bytes()) {
        let mut resp = plain(
            StatusCode::UPGRADE_REQUIRED,
            "Unsupported WebSocket version",
            true,
        );
        resp.headers_mut().insert(
            "sec-websocket-version",
            HeaderValue::from_static(WS_VERSION),
        );
        return resp;
    }
    let Some(key) = req.headers().get("sec-websocket-key") else {
        return plain(StatusCode::BAD_REQUEST, "Missing Sec-WebSocket-Key", true);
    };
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
    let upgrade = hyper::upgrade::on(&mut req);
    let ws_conn = conn.clone();
    // A WebSocket session is charged as its opening request says, for its whole life.
    let caller = conn.caller(req.headers());
    tokio::spawn(async move {
        match upgrade.await {
            Ok(upgraded) => ws::run(TokioIo::new(upgraded), ws_conn, caller, shutdown).await,
            Err(e) => tracing::debug!("websocket upgrade failed: {e}"),
        }
        drop(hold);
    });
    let mut resp = Response::new(Full::new(Bytes::new()));
    *resp.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = resp.headers_mut();
    h.insert(UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(v) = HeaderValue::from_str(&accept) {
        h.insert("sec-websocket-accept", v);
    }
    h.insert(SERVER, HeaderValue::from_static(SERVER_HEADER));
    resp
}

/// Anything but an upgrade: the metrics, the explorer, the health page, or a JSON-RPC request.
async fn request(req: Request<Incoming>, conn: &Connection) -> Reply {
    if req.method() == Method::GET && req.uri().path() == metrics::PATH {
        return match metrics::page(conn) {
            Some(text) => respond(StatusCode::OK, text, crate::metrics::CONTENT_TYPE, false),
            None => plain(StatusCode::FORBIDDEN, "Forbidden", true),
        };
    }
    if let Some(resp) = explorer::reply(req.method(), req.uri().path(), req.headers(), conn) {
        return resp;
    }
    if req.method() == Method::GET && conn.port.ws {
        return html(StatusCode::OK, HEALTH_PAGE);
    }
    if req.method() == Method::POST && req.uri().path() == faucet::FAUCET_PATH {
        return faucet_request(req, conn).await;
    }
    if !conn.port.http || !authorized(&req, conn.port.user_credentials.as_ref()) {
        return plain(StatusCode::FORBIDDEN, "Forbidden", true);
    }
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    let caller = conn.caller(req.headers());
    match read_body(req.into_body(), declared, &conn.state.bodies).await {
        Ok(body) => json_rpc(body, conn, caller).await,
        Err(e) => e.reply(conn),
    }
}

/// Whether a request may use a port configured with xrpld's `user` and `password`: its
/// `Authorization: Basic` header (blanks around the base64 trimmed) must decode to
/// `user:password` (rippled `authorized` in `ServerHandler.cpp`). A port without them
/// asks nothing.
fn authorized(req: &Request<Incoming>, credentials: Option<&(String, String)>) -> bool {
    let Some((user, password)) = credentials else {
        return true;
    };
    let header = req.headers().get(hyper::header::AUTHORIZATION);
    let Some(encoded) = header.and_then(|v| v.to_str().ok()?.strip_prefix("Basic ")) else {
        return false;
    };
    let Some(decoded) = base64_decode(encoded.trim()) else {
        return false;
    };
    match String::from_utf8_lossy(&decoded).split_once(':') {
        Some((u, p)) => u == user && p == password,
        None => false,
    }
}

/// Standard base64 (RFC 4648 4, `=` padding optional); `None` for any other character.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let mut bits = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            bits |= value(*c)? << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        match chunk.len() {
            4 => out.extend_from_slice(&bytes[1..4]),
            3 => out.extend_from_slice(&bytes[1..3]),
            2 => out.push(bytes[1]),
            _ => return None,
        }
    }
    Some(out)
}

/// `POST /accounts`: the faucet's gate for this port and caller, then the body.
async fn faucet_request(req: Request<Incoming>, conn: &Connection) -> Reply {
    if let Some(refusal) = faucet::gate(conn.port.faucet, conn.peer.ip()) {
        return faucet::http_reply(refusal);
    }
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    match read_body(req.into_body(), declared, &conn.state.bodies).await {
        Ok(body) => faucet::http_reply(faucet::serve(&body.bytes, conn).await),
        Err(e) => e.reply(conn),
    }
}

/// Why a request body was not read.
enum BodyError {
    /// Longer than [`REQUEST_BYTES_MAX`] (declared or sent).
    TooLarge,
    /// The server's budget for bodies in progress is spent.
    Busy,
    /// The body paused longer than [`HTTP_BODY_IDLE_TIMEOUT_SECS`] or took longer than
    /// [`HTTP_BODY_TIMEOUT_SECS`].
    TimedOut,
    /// The stream failed (the client left, or sent a malformed chunk).
    Failed(String),
}

impl BodyError {
    /// The reply; the connection is closed after it (the rest of the body is not read).
    fn reply(self, conn: &Connection) -> Reply {
        match self {
            BodyError::TooLarge => {
                let text = format!(
                    "Unable to parse request: {}",
                    json::ParseError::TooLarge.reason()
                );
                plain(StatusCode::BAD_REQUEST, &text, true)
            }
            BodyError::Busy => {
                tracing::info!(peer = %conn.peer, "request bodies over their budget, refusing");
                plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Server is overloaded",
                    true,
                )
            }
            BodyError::TimedOut => {
                tracing::debug!(peer = %conn.peer, "request body timed out");
                plain(StatusCode::REQUEST_TIMEOUT, "Request Timeout", true)
            }
            BodyError::Failed(e) => {
                let text = format!("Unable to parse request: {e}");
                plain(StatusCode::BAD_REQUEST, &text, true)
            }
        }
    }
}

/// A request body, with the share of the budget its buffer holds.
struct Body {
    bytes: Vec<u8>,
    _reserved: Reservation,
}

/// Reads a body frame by frame into one buffer within the budget and the timeouts. A body
/// with a `Content-Length` (`declared`) reserves all of it from the budget at once, a chunked
/// one as its buffer grows; the buffer itself starts at most
/// [`HTTP_BODY_BUFFER_INITIAL_BYTES_MAX`] large and doubles as bytes arrive.
async fn read_body(
    mut body: Incoming,
    declared: Option<u64>,
    budget: &Arc<InputBudget>,
) -> Result<Body, BodyError> {
    let (reserve, cap) = match declared {
        Some(n) if n > REQUEST_BYTES_MAX as u64 => return Err(BodyError::TooLarge),
        Some(n) => (n as usize, n as usize),
        None => (0, REQUEST_BYTES_MAX),
    };
    let mut reserved = budget.reserve(reserve).ok_or(BodyError::Busy)?;
    let mut bytes = Vec::with_capacity(reserve.min(HTTP_BODY_BUFFER_INITIAL_BYTES_MAX));
    let deadline = Instant::now() + Duration::from_secs(HTTP_BODY_TIMEOUT_SECS);
    let idle = Duration::from_secs(HTTP_BODY_IDLE_TIMEOUT_SECS);
    loop {
        let wait = deadline.min(Instant::now() + idle);
        let frame = match tokio::time::timeout_at(wait, body.frame()).await {
            Err(_) => return Err(BodyError::TimedOut),
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(BodyError::Failed(e.to_string())),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Ok(data) = frame.into_data() {
            append(&mut bytes, cap, &mut reserved, &data)?;
        }
    }
    Ok(Body {
        bytes,
        _reserved: reserved,
    })
}

/// Copies `data` into `bytes` (the frame, and hyper's read buffer it shares, can go at
/// once), growing the buffer at least twofold up to `cap` (the declared length, or
/// [`REQUEST_BYTES_MAX`]), reserving from the budget what the reservation does not cover.
fn append(
    bytes: &mut Vec<u8>,
    cap: usize,
    reserved: &mut Reservation,
    data: &[u8],
) -> Result<(), BodyError> {
    let need = bytes.len() + data.len();
    if need > cap {
        return Err(BodyError::TooLarge);
    }
    if need > bytes.capacity() {
        let want = need.max(2 * bytes.capacity()).min(cap);
        if want > reserved.bytes() && !reserved.resize(want) {
            return Err(BodyError::Busy);
        }
        bytes.reserve_exact(want - bytes.len());
    }
    bytes.extend_from_slice(data);
    Ok(())
}

/// A JSON-RPC body, read as far as it can be without the caller's role: rippled's
/// `processRequest` up to `requestRole`, plus the envelope checks that follow it.
struct Prepared {
    api_version: u32,
    /// `method`, if it is a string (for the role check).
    method: Option<String>,
    /// `admin_user` and `admin_password` of `params[0]`, for the role.
    credentials: Params,
    /// The method and its parameters, or the text of the 400 refusing them.
    call: Result<(String, Params), &'static str>,
}

/// The text of a 400 refusing a JSON-RPC body.
struct Refusal(std::borrow::Cow<'static, str>);

/// Parses and checks `body`: on the CPU pool for a large body, which is dropped there too.
fn prepare(body: Body) -> Result<Prepared, Refusal> {
    let request = match json::parse_object(&body.bytes) {
        Ok(r) => r,
        Err(e) => {
            let text = format!("Unable to parse request: {}", e.reason());
            return Err(Refusal(text.into()));
        }
    };
    drop(body);
    if request.get("method").and_then(Value::as_str) == Some("batch") {
        // Batch requests are not served (no standard client sends them).
        if !matches!(request.get("params"), Some(Value::Array(_))) {
            return Err(Refusal("Malformed batch request".into()));
        }
    }
    let first = match request.get("params") {
        Some(Value::Array(a)) => a.first(),
        _ => None,
    };
    let api_version = match first {
        Some(Value::Object(p)) => parse_api_version(p.get("api_version")),
        _ => Some(rpc::API_VERSION_DEFAULT),
    };
    let Some(api_version) = api_version else {
        return Err(Refusal("invalid_API_version".into()));
    };
    let credentials = match first {
        Some(Value::Object(p)) => p
            .iter()
            .filter(|(k, _)| *k == "admin_user" || *k == "admin_password")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        _ => Params::new(),
    };
    Ok(Prepared {
        api_version,
        method: request
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned),
        credentials,
        call: envelope::http_precheck(&request),
    })
}

/// rippled's `processRequest` for one (non-batch) JSON-RPC body.
async fn json_rpc(body: Body, conn: &Connection, caller: Caller) -> Reply {
    let payer = caller.payer;
    let large = body.bytes.len() > HTTP_BODY_PARSE_INLINE_BYTES_MAX;
    let prepared = if large {
        match conn.state.services.cpu.run(move || prepare(body)).await {
            Some(p) => p,
            None => {
                return plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Server is overloaded",
                    false,
                )
            }
        }
    } else {
        prepare(body)
    };
    let p = match prepared {
        Ok(p) => p,
        Err(Refusal(text)) => return plain(StatusCode::BAD_REQUEST, &text, false),
    };
    let role = conn.role_for(&p.credentials, &caller);
    if conn.cut_off(role, payer) {
        return plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "Server is overloaded",
            false,
        );
    }
    // Each refusal below costs the client rippled's malformed-request charge.
    if p.method
        .is_some_and(|m| rpc::forbidden(&m, p.api_version, role))
    {
        conn.charge(role, payer, RESOURCE_CHARGE_MALFORMED);
        return plain(StatusCode::FORBIDDEN, "Forbidden", false);
    }
    let (method, mut params) = match p.call {
        Ok(x) => x,
        Err(text) => {
            conn.charge(role, payer, RESOURCE_CHARGE_MALFORMED);
            return plain(StatusCode::BAD_REQUEST, text, false);
        }
    };
    params.insert("command".into(), Value::from(method.as_str()));
    tracing::debug!(peer = %conn.peer, method = %method, "http request");
    let ctx = Context {
        role,
        api_version: p.api_version,
        transport: Transport::Http,
        session: None,
        services: conn.state.services.clone(),
        forwarded: caller.forwarded(role),
        raw_json: true,
    };
    let (result, params) = rpc::call(ctx, params).await;
    let reply = charged_reply(conn, role, payer, &method, &params, result);
    if large {
        // A large request's parameters are freed off the I/O thread too (if the pool's queue
        // is full, here).
        let _ = conn.state.services.cpu.try_spawn(move || drop(params));
    }
    reply
}

/// The reply to a call, charged by its method and size (`charge.rs`): with `warning: "load"`
/// inside `result` (as rippled puts it for HTTP) when the client's balance is high; `503`,
/// closing the connection, when this charge cuts the client off.
fn charged_reply(
    conn: &Connection,
    role: Role,
    payer: Payer,
    method: &str,
    params: &Params,
    result: HandlerResult,
) -> Reply {
    let fee = charge::method_fee(method, params, &result);
    let mut reply = envelope::http_reply(params, result);
    let mut text = crate::rpc::raw::to_text(&reply);
    match conn.charge(
        role,
        payer,
        fee.saturating_add(charge::reply_fee(text.len())),
    ) {
        Disposition::Ok => {}
        Disposition::Warn => {
            if let Some(r) = reply.get_mut("result").and_then(Value::as_object_mut) {
                r.insert("warning".into(), Value::from("load"));
                r.sort_keys();
            }
            text = crate::rpc::raw::to_text(&reply);
        }
        Disposition::Drop => {
            tracing::info!(peer = %conn.peer, method, "client over its load limit, disconnecting");
            return plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "Server is overloaded",
                true,
            );
        }
    }
    text.push('\n');
    respond(
        StatusCode::OK,
        text,
        "application/json; charset=UTF-8",
        false,
    )
}

/// A plain-text transport error in rippled's framing (its Content-Type says JSON anyway).
fn plain(status: StatusCode, text: &str, close: bool) -> Reply {
    respond(
        status,
        text.to_owned(),
        "application/json; charset=UTF-8",
        close,
    )
}

fn html(status: StatusCode, text: &str) -> Reply {
    respond(status, text.to_owned(), "text/html", true)
}

/// rippled's `HTTPReply`: body = content + CRLF, `Connection: Keep-Alive` (or `close` when
/// the connection ends after this reply: `close`, or the client asked, see `route`), the
/// `Server` header, and the reason phrase `Server is overloaded` for every 503.
fn respond(
    status: StatusCode,
    mut content: String,
    content_type: &'static str,
    close: bool,
) -> Response<Full<Bytes>> {
    content.push_str("\r\n");
    let mut resp = Response::new(Full::new(Bytes::from(content)));
    *resp.status_mut() = status;
    if status == StatusCode::SERVICE_UNAVAILABLE {
        resp.extensions_mut()
            .insert(hyper::ext::ReasonPhrase::from_static(
                b"Server is overloaded",
            ));
    }
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(SERVER, HeaderValue::from_static(SERVER_HEADER));
    h.insert(
        CONNECTION,
        HeaderValue::from_static(if close { "close" } else { "Keep-Alive" }),
    );
    resp
}

#[cfg(test)]
mod tests {
    use super::base64_decode;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64_decode("dXNlcjpwYXNz").unwrap(), b"user:pass");
        assert_eq!(base64_decode("YTpi").unwrap(), b"a:b");
        assert_eq!(base64_decode("YTpiYw==").unwrap(), b"a:bc");
        assert_eq!(base64_decode("YTpiYw").unwrap(), b"a:bc");
        assert_eq!(base64_decode("").unwrap(), b"");
        assert!(base64_decode("YT!i").is_none());
        assert!(base64_decode("Y").is_none());
    }
}
