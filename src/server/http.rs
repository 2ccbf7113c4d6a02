//! One connection's HTTP side (hyper 1): JSON-RPC `POST`, the health page, and the WebSocket
//! upgrade, all on the same port.
//!
//! Why hyper rather than sniffing bytes: it already does HTTP/1.1 keep-alive, pipelining,
//! chunked bodies and header timeouts correctly, and `with_upgrades` hands us the raw stream
//! after the `101`, which `WebSocketStream::from_raw_socket` wraps without a second handshake.
//! The replies follow rippled's `HTTPReply` (rpc.md §1.2 and §1.3).

use crate::limits::{
    HANDSHAKE_TIMEOUT_SECS, REQUEST_BYTES_MAX, RESOURCE_CHARGE_MALFORMED, RESOURCE_CHARGE_REFERENCE,
};
use crate::rpc::context::{Context, Transport};
use crate::rpc::role::Role;
use crate::rpc::{self, envelope, json, parse_api_version, Params};
use crate::server::resource::Disposition;
use crate::server::shutdown::ShutdownSignal;
use crate::server::ws;
use crate::server::Connection;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE, SERVER, UPGRADE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::Value;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// The `Server` header of every HTTP reply (rippled: `rippled-json-rpc/<version>`).
pub const SERVER_HEADER: &str = concat!("ledgerd-json-rpc/", env!("CARGO_PKG_VERSION"));

/// The health page a load balancer sees on `GET /` of a WebSocket port.
pub const HEALTH_PAGE: &str = "<!DOCTYPE html><html><head><title>Test page for ledgerd</title>\
</head><body><h1>Test</h1><p>This page shows ledgerd http(s) connectivity is working.</p>\
</body></html>";

/// Serve HTTP (and upgrades) on one accepted, possibly TLS-wrapped, stream.
pub async fn serve<IO>(io: IO, conn: Arc<Connection>, mut shutdown: ShutdownSignal)
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service_conn = conn.clone();
    let service_shutdown = shutdown.clone();
    let service = hyper::service::service_fn(move |req| {
        let conn = service_conn.clone();
        let shutdown = service_shutdown.clone();
        async move { Ok::<_, Infallible>(route(req, conn, shutdown).await) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(HANDSHAKE_TIMEOUT_SECS))
        .keep_alive(true);
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

fn is_upgrade(req: &Request<Incoming>) -> bool {
    let has = |name, token: &str| {
        req.headers().get_all(name).iter().any(|v| {
            v.to_str()
                .map(|s| s.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
                .unwrap_or(false)
        })
    };
    has(UPGRADE, "websocket") && has(CONNECTION, "upgrade")
}

async fn route(
    mut req: Request<Incoming>,
    conn: Arc<Connection>,
    shutdown: ShutdownSignal,
) -> Response<Full<Bytes>> {
    if is_upgrade(&req) {
        if !conn.port.ws {
            return html(StatusCode::UNAUTHORIZED, "Invalid protocol.");
        }
        let Some(key) = req.headers().get("sec-websocket-key") else {
            return plain(StatusCode::BAD_REQUEST, "Missing Sec-WebSocket-Key", true);
        };
        let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
        let upgrade = hyper::upgrade::on(&mut req);
        let ws_conn = conn.clone();
        tokio::spawn(async move {
            match upgrade.await {
                Ok(upgraded) => ws::run(TokioIo::new(upgraded), ws_conn, shutdown).await,
                Err(e) => tracing::debug!("websocket upgrade failed: {e}"),
            }
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
        return resp;
    }
    if req.method() == Method::GET && conn.port.ws {
        let mut resp = html(StatusCode::OK, HEALTH_PAGE);
        resp.headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
        return resp;
    }
    if !conn.port.http {
        return plain(StatusCode::FORBIDDEN, "Forbidden", true);
    }
    let body = match Limited::new(req.into_body(), REQUEST_BYTES_MAX)
        .collect()
        .await
    {
        Ok(b) => b.to_bytes(),
        Err(e) => {
            let reason = if e.is::<http_body_util::LengthLimitError>() {
                json::ParseError::TooLarge.reason()
            } else {
                format!("{e}")
            };
            return plain(
                StatusCode::BAD_REQUEST,
                &format!("Unable to parse request: {reason}"),
                true,
            );
        }
    };
    json_rpc(&body, &conn).await
}

/// rippled's `processRequest` for one (non-batch) JSON-RPC body.
async fn json_rpc(body: &[u8], conn: &Connection) -> Response<Full<Bytes>> {
    let request = match json::parse_object(body) {
        Ok(r) => r,
        Err(e) => {
            let text = format!("Unable to parse request: {}", e.reason());
            return plain(StatusCode::BAD_REQUEST, &text, false);
        }
    };
    if request.get("method").and_then(Value::as_str) == Some("batch") {
        // Batch requests are not served (no standard client sends them).
        if !matches!(request.get("params"), Some(Value::Array(_))) {
            return plain(StatusCode::BAD_REQUEST, "Malformed batch request", false);
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
        return plain(StatusCode::BAD_REQUEST, "invalid_API_version", false);
    };
    let name = request.get("method").and_then(Value::as_str);
    let role = match first {
        Some(Value::Object(p)) => conn.role_for(p),
        _ => conn.role_for(&Params::new()),
    };
    if role != Role::Admin && conn.state.resources.disposition(conn.peer.ip()) == Disposition::Drop
    {
        return plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "Server is overloaded",
            false,
        );
    }
    // Each refusal below costs the client rippled's malformed-request charge.
    let refuse = |text: &str| {
        conn.charge(role, RESOURCE_CHARGE_MALFORMED);
        plain(StatusCode::BAD_REQUEST, text, false)
    };
    if name.is_some_and(|m| rpc::forbidden(m, api_version, role)) {
        conn.charge(role, RESOURCE_CHARGE_MALFORMED);
        return plain(StatusCode::FORBIDDEN, "Forbidden", false);
    }
    let (method, mut params) = match envelope::http_precheck(&request) {
        Ok(x) => x,
        Err(text) => return refuse(text),
    };
    let warn = conn.charge(role, RESOURCE_CHARGE_REFERENCE) != Disposition::Ok;
    params.insert("command".into(), Value::from(method.as_str()));
    tracing::debug!(peer = %conn.peer, method = %method, "http request");
    let ctx = Context {
        role,
        api_version,
        transport: Transport::Http,
        session: None,
        services: conn.state.services.clone(),
    };
    let (result, params) = rpc::call(ctx, params).await;
    let mut reply = envelope::http_reply(&params, result);
    if warn {
        // rippled puts the load warning inside `result` for HTTP.
        if let Some(r) = reply.get_mut("result").and_then(Value::as_object_mut) {
            r.insert("warning".into(), Value::from("load"));
            r.sort_keys();
        }
    }
    let mut text = reply.to_string();
    text.push('\n');
    respond(
        StatusCode::OK,
        text,
        "application/json; charset=UTF-8",
        false,
    )
}

/// A plain-text transport error in rippled's framing (its Content-Type says JSON anyway).
fn plain(status: StatusCode, text: &str, close: bool) -> Response<Full<Bytes>> {
    respond(
        status,
        text.to_owned(),
        "application/json; charset=UTF-8",
        close,
    )
}

fn html(status: StatusCode, text: &str) -> Response<Full<Bytes>> {
    respond(status, text.to_owned(), "text/html", true)
}

/// rippled's `HTTPReply`: body = content + CRLF, `Connection: Keep-Alive`, the `Server`
/// header, and the reason phrase `Server is overloaded` for every 503.
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
