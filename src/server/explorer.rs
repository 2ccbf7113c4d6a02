//! The explorer: a single page for browsers at `/` of a port that serves WebSocket, its
//! script, style sheet and icon built into the binary (`server/explorer/`). The page talks
//! to the server only through the public WebSocket API of the port it came from (and, on
//! an admin connection, the faucet's `POST /accounts`), so it works the same on the
//! writer, a read node or a fork.
//!
//! A browser's `GET /` (its `Accept` names `text/html`) gets the page; any other `GET /`
//! still gets the health page a load balancer expects. The page is the only reply that
//! differs by caller: it says whether the development actions (close a ledger, snapshot,
//! revert, fund from the faucet) are offered, which is only to admin callers of a writable
//! server. Every reply carries a strict Content-Security-Policy: scripts, styles and images
//! from the page's own origin only, connections to it only, no frames, no forms, no inline
//! code. Nothing is computed until a browser asks; each file served is counted in
//! `ledgerd_explorer_files_total{file}`.

use crate::rpc::role::Role;
use crate::server::faucet;
use crate::server::Connection;
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, SERVER};
use hyper::{HeaderMap, Method, Response, StatusCode};

/// The page, with [`SETTINGS_SLOT`] where the caller's settings go.
const PAGE: &str = include_str!("explorer/index.html");
/// The page's script (an ES module, no build step).
const SCRIPT: &str = include_str!("explorer/explorer.js");
/// The page's style sheet.
const STYLE: &str = include_str!("explorer/explorer.css");
/// The page's icon.
const ICON: &str = include_str!("explorer/icon.svg");

/// Where [`PAGE`] takes the caller's settings (a JSON object in a `meta` element).
const SETTINGS_SLOT: &str = "{{settings}}";

/// The policy every explorer reply carries.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
form-action 'none'; frame-ancestors 'none'";

/// One file of the explorer: its path, content type and text.
struct File {
    path: &'static str,
    content_type: &'static str,
    text: &'static str,
}

/// The files served by path (the page itself is served at `/` to browsers only).
const FILES: [File; 3] = [
    File {
        path: "/explorer/explorer.js",
        content_type: "text/javascript; charset=utf-8",
        text: SCRIPT,
    },
    File {
        path: "/explorer/explorer.css",
        content_type: "text/css; charset=utf-8",
        text: STYLE,
    },
    File {
        path: "/explorer/icon.svg",
        content_type: "image/svg+xml",
        text: ICON,
    },
];

/// The bytes of every file the explorer is made of (the page, script, style, icon).
pub fn size() -> usize {
    PAGE.len() + FILES.iter().map(|f| f.text.len()).sum::<usize>()
}

/// The explorer's reply to `method path` on `conn`, or `None` when the request is not the
/// explorer's (the port serves none, or the request is for something else).
pub fn reply(
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    conn: &Connection,
) -> Option<Response<Full<Bytes>>> {
    if !conn.port.explorer || !conn.port.ws || method != Method::GET {
        return None;
    }
    if path == "/" && wants_html(headers) {
        count("page");
        let page = PAGE.replacen(SETTINGS_SLOT, &settings(conn, headers), 1);
        let mut reply = file_reply(page.into(), "text/html; charset=utf-8");
        // The page differs by caller and by Accept: never kept by a shared cache.
        let h = reply.headers_mut();
        h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
        h.insert(hyper::header::VARY, HeaderValue::from_static("Accept"));
        return Some(reply);
    }
    let file = FILES.iter().find(|f| f.path == path)?;
    count(file.path.trim_start_matches("/explorer/"));
    Some(file_reply(
        Bytes::from_static(file.text.as_bytes()),
        file.content_type,
    ))
}

/// Whether a request's `Accept` header names `text/html` (a browser navigating).
fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get_all(hyper::header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().starts_with("text/html")))
}

/// Whether the page was asked for by IP address or `localhost` (its `Host`): only then
/// are its WebSocket requests admin's ([`role::from_another_site`](crate::server::role::from_another_site)
/// refuses a page's own origin reached by a name, which DNS rebinding can point anywhere).
fn reached_by_address(headers: &HeaderMap) -> bool {
    headers
        .get(hyper::header::HOST)
        .is_none_or(|h| h.to_str().is_ok_and(crate::server::role::by_address))
}

/// What the page is told: of its caller, `actions` and `faucet`; the server's `version`; the
/// operator's bounds `tx_page`, `ledgers` and `ledger_txs` (`limits.rs`).
/// Actions are for admin callers of a writable server (a port that asks admins for
/// credentials in each request offers none: the page never takes a secret) that asked for
/// the page by address, not by name; the faucet
/// needs the port's faucet to serve this caller too.
fn settings(conn: &Connection, headers: &HeaderMap) -> String {
    let admin = conn.role == Role::Admin
        && conn.port.admin_credentials.is_none()
        && reached_by_address(headers);
    let actions = admin && !conn.state.config.read_only;
    let faucet = actions && faucet::gate(conn.port.faucet, conn.peer.ip()).is_none();
    serde_json::json!({
        "actions": actions,
        "faucet": faucet,
        "version": env!("CARGO_PKG_VERSION"),
        "tx_page": crate::limits::EXPLORER_TX_PAGE,
        "ledgers": crate::limits::EXPLORER_LEDGERS_SHOWN,
        "ledger_txs": crate::limits::EXPLORER_LEDGER_TXS_SHOWN,
    })
    .to_string()
}

fn count(file: &str) {
    crate::metrics::get()
        .explorer_files
        .with_label_values(&[file])
        .inc();
}

fn file_reply(body: Bytes, content_type: &'static str) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(body));
    *resp.status_mut() = StatusCode::OK;
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        SERVER,
        HeaderValue::from_static(crate::server::http::SERVER_HEADER),
    );
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_takes_its_settings_once_and_stays_small() {
        assert_eq!(PAGE.matches(SETTINGS_SLOT).count(), 1);
        for f in &FILES {
            assert!(PAGE.contains(f.path), "the page names {}", f.path);
        }
        assert!(
            size() < crate::limits::EXPLORER_BYTES_MAX,
            "{} bytes",
            size()
        );
    }

    #[test]
    fn browsers_are_told_by_their_accept_header() {
        let mut h = HeaderMap::new();
        assert!(!wants_html(&h));
        h.insert(hyper::header::ACCEPT, HeaderValue::from_static("*/*"));
        assert!(!wants_html(&h));
        h.insert(
            hyper::header::ACCEPT,
            HeaderValue::from_static("text/html,application/xhtml+xml,*/*;q=0.8"),
        );
        assert!(wants_html(&h));
    }
}
