//! The explorer's files over HTTP (`server/explorer.rs`): a browser's `GET /` gets the page,
//! every other `GET /` the health page; the page says which actions its caller is offered;
//! every file carries the strict policy; `--no-explorer` and a port's `explorer = false`
//! turn it off; files are counted. The page itself runs in a real browser in
//! `tests/interop/explorer.rs`.

use crate::support;

use serde_json::Value;
use std::net::SocketAddr;
use support::http::{http_to, send_raw, HttpReply};
use support::server::Server;
use support::ws::Ws;

const BROWSER_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

fn get(addr: SocketAddr, path: &str, accept: &str) -> HttpReply {
    send_raw(
        addr,
        &format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
        ),
    )
}

/// The settings the page carries in its `ledgerd-explorer` meta element.
fn settings(page: &HttpReply) -> Value {
    let start = page.body.find("content='").expect("settings") + "content='".len();
    let end = start + page.body[start..].find('\'').expect("end of settings");
    serde_json::from_str(&page.body[start..end]).expect("settings are JSON")
}

fn is_explorer(r: &HttpReply) -> bool {
    r.status == 200
        && r.body.contains("ledgerd explorer")
        && r.body.contains("/explorer/explorer.js")
}

fn is_health_page(r: &HttpReply) -> bool {
    r.status == 200 && r.body.contains("Test page for ledgerd")
}

#[test]
fn browsers_get_the_page_others_the_health_page() {
    let server = Server::start(&[]);
    let addr = server.addr();
    let page = get(addr, "/", BROWSER_ACCEPT);
    assert!(is_explorer(&page), "{page:?}");
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = page.header("content-security-policy").expect("a policy");
    for rule in [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(rule), "{csp}");
    }
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert!(!page.body.contains("<script>"), "no inline script");
    let s = settings(&page);
    assert_eq!(s["actions"], true, "a loopback admin of a writer: {s}");
    assert_eq!(s["faucet"], true, "{s}");
    assert!(s["tx_page"].as_u64().unwrap() > 0 && s["ledgers"].as_u64().unwrap() > 0);

    assert!(
        is_health_page(&get(addr, "/", "*/*")),
        "curl and load balancers"
    );
    assert!(is_health_page(&support::http::http(addr, "GET", "")));
    for (path, kind) in [
        ("/explorer/explorer.js", "text/javascript"),
        ("/explorer/explorer.css", "text/css"),
        ("/explorer/icon.svg", "image/svg+xml"),
    ] {
        let r = get(addr, path, "*/*");
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(r.header("content-security-policy").is_some(), "{path}");
        assert!(!r.body.is_empty());
    }
    // JSON-RPC on the same path is untouched.
    let rpc = http_to(addr, "POST", "/", r#"{"method":"ping"}"#);
    assert_eq!(rpc.json()["result"]["status"], "success");
    // Counted: the page view and its script.
    let metrics = get(addr, "/metrics", "*/*").body;
    assert!(
        metrics.contains("ledgerd_explorer_files_total{file=\"page\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("ledgerd_explorer_files_total{file=\"explorer.js\"} 1"));
}

#[test]
fn actions_only_for_admins_and_the_switches_turn_it_off() {
    let toml = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = []\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = [\"127.0.0.1\"]\nfaucet = \"off\"\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nadmin = [\"127.0.0.1\"]\nadmin_user = \"ops\"\nadmin_password = \"pw\"\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"ws\", \"http\"]\nexplorer = false\n\
                [[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\"]\nadmin = [\"127.0.0.1\"]\n";
    let (server, _dir) = Server::with_config(toml, 5);
    let [public, no_faucet, with_credentials, off, http_only] =
        <[SocketAddr; 5]>::try_from(server.addrs.clone()).unwrap();

    let s = settings(&get(public, "/", BROWSER_ACCEPT));
    assert_eq!(
        (s["actions"].clone(), s["faucet"].clone()),
        (false.into(), false.into())
    );
    let s = settings(&get(no_faucet, "/", BROWSER_ACCEPT));
    assert_eq!(
        (s["actions"].clone(), s["faucet"].clone()),
        (true.into(), false.into())
    );
    // The page never takes a secret, so a port asking admins for one offers no actions.
    let s = settings(&get(with_credentials, "/", BROWSER_ACCEPT));
    assert_eq!(s["actions"], false);

    assert!(is_health_page(&get(off, "/", BROWSER_ACCEPT)));
    assert!(is_health_page(&get(off, "/explorer/explorer.js", "*/*")));
    // Without WebSocket the page could not talk to its port: no explorer.
    let r = get(http_only, "/", BROWSER_ACCEPT);
    assert!(!is_explorer(&r), "{r:?}");

    let server = Server::start(&["--no-explorer"]);
    assert!(is_health_page(&get(server.addr(), "/", BROWSER_ACCEPT)));
}

#[tokio::test]
async fn pages_of_other_sites_get_no_admin_rights() {
    let server = Server::start(&["--close-interval", "0"]);
    let addr = server.addr();
    let own = format!("http://{addr}");
    // A loopback caller is admin on this port; a browser's page of another site is not,
    // nor one reaching the server by a name (DNS rebinding); loopback pages are.
    for (origin, admin) in [
        ("http://localhost:3000", true),
        (own.as_str(), true),
        ("https://evil.example", false),
        ("null", false),
    ] {
        let mut ws = Ws::connect_with_origin(addr, origin).await;
        let r = ws
            .req(serde_json::json!({"command": "ledger_accept"}))
            .await;
        assert_eq!(r["status"] == "success", admin, "{origin}: {r}");
    }
    let mut ws = Ws::connect_to(addr).await;
    let r = ws
        .req(serde_json::json!({"command": "ledger_accept"}))
        .await;
    assert_eq!(r["status"], "success", "a client that is no browser: {r}");
    // A cross-site POST (a form or a no-cors fetch) is no admin either.
    let body = r#"{"method":"ledger_accept"}"#;
    let post = |origin: &str| {
        send_raw(
            addr,
            &format!(
                "POST / HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nContent-Type: text/plain\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    assert_eq!(post("https://evil.example").status, 403);
    assert_eq!(
        post("http://127.0.0.1:5173").json()["result"]["status"],
        "success"
    );
    // The page asked for by a name offers no actions: its requests would not be admin's.
    let by_name = send_raw(
        addr,
        &format!("GET / HTTP/1.1\r\nHost: rebind.example:{}\r\nAccept: text/html\r\nConnection: close\r\n\r\n", addr.port()),
    );
    assert_eq!(settings(&by_name)["actions"], false);
    let page = get(addr, "/", BROWSER_ACCEPT);
    assert_eq!(page.header("vary"), Some("Accept"));
    assert_eq!(page.header("cache-control"), Some("no-store, private"));
}
