//! xrpld's configuration file and command line against the real binary: `ledgerd --conf
//! FILE -a --start` serves the ports the file names and reports them in server_info as
//! xrpld does, takes its fee vote and network id, runs `[rpc_startup]`, writes
//! `[debug_logfile]`, closes ledgers on `ledger_accept` only; `user`/`password` guard
//! HTTP; a port listing https and http serves both, and secure ports naming no certificate
//! files serve one made at start; `ledgerd --conf FILE <method>` finds
//! the server in the file; a malformed file is refused naming its line.

use crate::support;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use support::http::{http, rpc, rpc_body};
use support::server::Server;
use support::ws::Ws;
use tokio_tungstenite::tungstenite::Message;

/// A file like the client libraries' CI files (in our own words): an admin http port, a
/// public ws port, an admin ws port, all on free loopback ports, and the sections they
/// carry.
fn ci_like(log: &Path) -> String {
    format!(
        "[server]\nport_rpc_admin\nport_ws_public\nport_ws_admin\n# port_peer\n\n\
         [port_rpc_admin]\nport = 0\nip = 127.0.0.1\nadmin = 0.0.0.0\nprotocol = http\n\n\
         [port_ws_public]\nport = 0\nip = 127.0.0.1\nprotocol = ws\n\n\
         [port_ws_admin]\nport = 0\nip = 127.0.0.1\nadmin = 0.0.0.0\nprotocol = ws\n\n\
         [node_size]\nsmall\n\n[node_db]\ntype=NuDB\npath=/nonexistent/nudb\nadvisory_delete=0\nonline_delete=256\n\n\
         [ledger_history]\n256\n\n[database_path]\n/nonexistent/db\n\n[debug_logfile]\n{}\n\n\
         [network_id]\n63456\n\n[ips]\nr.example.com 51235\n\n\
         [rpc_startup]\n{{ \"command\": \"ledger_accept\" }}\n\n[ssl_verify]\n1\n\n\
         [features]\nAMM\nPriceOracle\n\n\
         [voting]\nreference_fee = 200           # drops\naccount_reserve = 20000000   # 20 XRP\nowner_reserve = 5000000      # 5 XRP\n",
        log.display()
    )
}

/// Writes `text` as `name` in `dir`; its path.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write config");
    path.to_string_lossy().into_owned()
}

/// `ledgerd <args>` (xrpld's words, no `serve`), waiting for `ports` ports.
fn xrpld(args: &[&str], ports: usize) -> Server {
    match Server::try_start_args(args, ports) {
        Ok(s) => s,
        Err((code, log)) => panic!("did not start (exit {code:?}): {log}"),
    }
}

fn result(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc(addr, method, params).json()["result"].clone()
}

#[test]
fn the_ci_file_under_minus_a_serves_as_xrpld_does() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("logs/debug.log");
    let conf = write(dir.path(), "xrpld.cfg", &ci_like(&log));
    let server = xrpld(&["--conf", &conf, "-a", "--start"], 3);
    let [admin_http, public_ws, admin_ws] = [0, 1, 2].map(|i| server.addrs[i]);
    let info = result(admin_http, "server_info", json!({}))["info"].clone();
    let port = |a: SocketAddr, p: &str| json!({"port": a.port().to_string(), "protocol": [p]});
    assert_eq!(
        info["ports"],
        json!([
            port(admin_http, "http"),
            port(public_ws, "ws"),
            port(admin_ws, "ws")
        ])
    );
    assert_eq!(info["network_id"], 63456);
    let validated = &info["validated_ledger"];
    assert_eq!(
        (
            &validated["base_fee_xrp"],
            &validated["reserve_base_xrp"],
            &validated["reserve_inc_xrp"]
        ),
        (&json!(0.0002), &json!(20), &json!(5))
    );
    // [rpc_startup] closed ledger 2 before the ports opened.
    assert_eq!(validated["seq"], 3, "{info}");
    // A caller that is not an admin sees the public port only.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut ws = Ws::connect(&format!("ws://{public_ws}")).await;
        let r = ws.call(json!({"id": 1, "command": "server_info"})).await;
        assert_eq!(r["result"]["info"]["ports"], json!([port(public_ws, "ws")]));
    });
    // Ledgers close on ledger_accept only.
    let current = |a| result(a, "ledger_current", json!({}))["ledger_current_index"].clone();
    let before = current(admin_http);
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(current(admin_http), before);
    assert_eq!(
        result(admin_http, "ledger_accept", json!({}))["status"],
        "success"
    );
    assert_eq!(current(admin_http), json!(before.as_u64().unwrap() + 1));
    // The log said what it ignored, ran the startup command, and went to the file too.
    let text = server.log_text();
    assert!(
        text.contains("[node_size]") && text.contains("[ips]"),
        "{text}"
    );
    assert!(text.contains("Startup RPC"), "{text}");
    let file = std::fs::read_to_string(&log).expect("debug_logfile written");
    assert!(file.contains("Startup RPC"), "{file}");
}

#[test]
fn a_malformed_file_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    for (text, line, reason) in [
        ("[server]\nport_a\n", 2, "Missing section: [port_a]"),
        (
            "[server]\np\n[p]\nip = 127.0.0.1\nport = 0\nprotocol = ws\n[network_id]\nmainnet\n",
            8,
            "[network_id] 'mainnet'",
        ),
        (
            "[server]\np\n[p]\nip = 127.0.0.1\nport = 0\nprotocol = ws\nadmin = 10.0.0.1/8\n",
            7,
            "not the network's own",
        ),
    ] {
        let conf = write(dir.path(), "bad.cfg", text);
        let Err((code, log)) = Server::try_start_args(&["--conf", &conf, "-a"], 1) else {
            panic!("{text} was accepted");
        };
        assert_eq!(code, Some(2), "{log}");
        assert!(
            log.contains(&format!("{conf}:{line}: ")) && log.contains(reason),
            "{log}"
        );
    }
    // A file that is not there.
    let missing = dir.path().join("none.cfg");
    let Err((code, log)) = Server::try_start_args(&["--conf", missing.to_str().unwrap(), "-a"], 1)
    else {
        panic!("started without a file");
    };
    assert_eq!(code, Some(2), "{log}");
    assert!(log.contains("cannot read"), "{log}");
}

#[test]
fn user_and_password_guard_http_and_the_cli_reads_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let conf = write(
        dir.path(),
        "xrpld.cfg",
        "[server]\nport_rpc\nport_ws\n[port_rpc]\nip = 127.0.0.1\nport = 0\nprotocol = http\n\
         user = alice\npassword = s3cret\n[port_ws]\nip = 127.0.0.1\nport = 0\nprotocol = ws\nadmin = 127.0.0.1\n",
    );
    let server = xrpld(&["serve", "--conf", &conf, "-a"], 2);
    let rpc_port = server.addrs[0];
    let body = rpc_body("ping", json!({}));
    assert_eq!(http(rpc_port, "POST", &body).status, 403);
    let request = |auth: &str| {
        let text = format!(
            "POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: {auth}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        support::http::send_raw(rpc_port, &text)
    };
    // base64("alice:s3cret") and base64("alice:wrong")
    assert_eq!(request("Basic YWxpY2U6czNjcmV0").status, 200);
    assert_eq!(request("Basic YWxpY2U6d3Jvbmc=").status, 403);
    // The command line with --conf finds the first http port and carries the admin
    // credentials the file gives it.
    let admin = write(
        dir.path(),
        "admin.cfg",
        "[server]\nport_rpc\n[port_rpc]\nip = 127.0.0.1\nport = 0\nprotocol = http\n\
         admin = 127.0.0.1\nadmin_user = op\nadmin_password = pw\n",
    );
    let admin_server = xrpld(&["--conf", &admin, "-a"], 1);
    let client = write(
        dir.path(),
        "client.cfg",
        &format!(
            "[server]\nport_ws\nport_rpc\n[port_ws]\nip = 0.0.0.0\nport = 1\nprotocol = ws\n\
             [port_rpc]\nip = 0.0.0.0\nport = {}\nprotocol = http\nadmin_user = op\nadmin_password = pw\n",
            admin_server.addrs[0].port()
        ),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["--conf", &client, "ledger_accept"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(
        v["result"]["status"],
        "success",
        "{v} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Without the credentials the same port refuses the admin method (403, as xrpld).
    assert_eq!(
        rpc(admin_server.addrs[0], "ledger_accept", json!({})).status,
        403
    );
}

#[tokio::test]
async fn a_port_listing_https_and_http_serves_both() {
    let dir = tempfile::tempdir().unwrap();
    if !crate::tls::make_cert(dir.path()) {
        eprintln!("openssl not available: skipping");
        return;
    }
    let conf = write(
        dir.path(),
        "xrpld.cfg",
        "[server]\nport_any\n[port_any]\nip = 127.0.0.1\nport = 0\nprotocol = https, http\n\
         ssl_key = key.pem\nssl_cert = cert.pem\n",
    );
    let server = xrpld(&["--conf", &conf, "-a"], 1);
    let addr = server.addrs[0];
    let body = rpc_body("ping", json!({}));
    let plain = tokio::task::spawn_blocking(move || http(addr, "POST", &body))
        .await
        .unwrap();
    assert_eq!(plain.json()["result"]["status"], "success");
    let body = rpc_body("ping", json!({}));
    let secure = crate::tls::post(addr, &dir.path().join("cert.pem"), &body).await;
    assert_eq!(secure.json()["result"]["status"], "success");
}

/// The certificate's text as `openssl x509` prints it, when openssl is there.
fn openssl_text(der: &[u8]) -> Option<String> {
    use std::io::Write;
    let mut child = Command::new("openssl")
        .args(["x509", "-inform", "DER", "-noout", "-text"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(der).ok()?;
    let out = child.wait_with_output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[tokio::test]
async fn secure_ports_without_certificate_files_serve_a_certificate_made_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let conf = write(
        dir.path(),
        "xrpld.cfg",
        "[server]\nport_wss\nport_https\n\
         [port_wss]\nip = 127.0.0.1\nport = 0\nprotocol = wss\n\
         [port_https]\nip = 127.0.0.1\nport = 0\nprotocol = https\n",
    );
    let server = tokio::task::spawn_blocking(move || xrpld(&["--conf", &conf, "-a", "--start"], 2))
        .await
        .unwrap();
    let [wss, https] = [server.addrs[0], server.addrs[1]];
    assert!(
        server.log_text().contains("self-signed"),
        "{}",
        server.log_text()
    );

    // https: server_info over a connection that does not verify the certificate, listing
    // both ports as xrpld does (their protocols as configured).
    let body = rpc_body("server_info", json!({}));
    let (reply, https_cert) = crate::tls::post_unverified(https, &body).await;
    let port = |a: SocketAddr, p: &str| json!({"port": a.port().to_string(), "protocol": [p]});
    let info = &reply.json()["result"]["info"];
    assert_eq!(
        info["ports"],
        json!([port(wss, "wss"), port(https, "https")])
    );

    // wss: the same over WebSocket, with the same certificate (one made for the process).
    let tls = crate::tls::connect_unverified(wss).await;
    let wss_cert = tls.get_ref().1.peer_certificates().unwrap()[0].to_vec();
    assert_eq!(wss_cert, https_cert);
    let (mut ws, _) = tokio_tungstenite::client_async(format!("wss://{wss}/"), tls)
        .await
        .unwrap();
    let ask = json!({"id": 1, "command": "server_info"}).to_string();
    ws.send(Message::text(ask)).await.unwrap();
    let Some(Ok(Message::Text(text))) = ws.next().await else {
        panic!("no reply over wss")
    };
    let r: Value = serde_json::from_str(text.as_str()).unwrap();
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["result"]["info"]["ports"], info["ports"]);

    // A client that verifies certificates refuses it: nobody vouches for it.
    let roots = dir.path().join("none.pem");
    std::fs::write(&roots, "").unwrap();
    let verified = std::panic::AssertUnwindSafe(crate::tls::connect(https, &roots));
    assert!(futures::FutureExt::catch_unwind(verified).await.is_err());

    // What xrpld's certificate says of itself, read by openssl when it is there.
    let Some(text) = openssl_text(&https_cert) else {
        eprintln!("openssl not available: the certificate's fields are not checked");
        return;
    };
    for want in [
        "Version: 3",
        "CA:FALSE",
        "Digital Signature",
        "TLS Web Server Authentication, TLS Web Client Authentication",
        "Subject Key Identifier",
        "00:00:00 ",
    ] {
        assert!(text.contains(want), "{want} missing in:\n{text}");
    }
    for critical in [
        "X509v3 Basic Constraints: critical",
        "X509v3 Key Usage: critical",
        "X509v3 Extended Key Usage: critical",
    ] {
        assert!(text.contains(critical), "{critical} missing in:\n{text}");
    }
}

#[test]
fn start_without_minus_a_keeps_the_ledger_and_refuses_to_replace_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("db");
    let conf = write(
        dir.path(),
        "xrpld.cfg",
        &format!(
            "[server]\nport_rpc\n[port_rpc]\nip = 127.0.0.1\nport = 0\nprotocol = http\nadmin = 127.0.0.1\n\
             [database_path]\n{}\n",
            data.display()
        ),
    );
    let server = xrpld(&["--conf", &conf, "--start"], 1);
    let seq = result(server.addrs[0], "ledger_closed", json!({}))["ledger_index"].clone();
    assert!(seq.as_u64().is_some(), "{seq}");
    assert!(server.terminate().success());
    assert!(data.exists());
    let Err((code, log)) = Server::try_start_args(&["--conf", &conf, "--start"], 1) else {
        panic!("--start replaced a ledger");
    };
    assert_eq!(code, Some(2), "{log}");
    assert!(log.contains("already holds a ledger"), "{log}");
    // Without --start it resumes.
    let server = xrpld(&["--conf", &conf], 1);
    let again = result(server.addrs[0], "ledger_closed", json!({}))["ledger_index"].clone();
    assert!(again.as_u64() >= seq.as_u64(), "{again} < {seq}");
}

/// `[node_db] advisory_delete=1` (with `online_delete`) switches advisory deletion on:
/// `can_delete` answers with the value it keeps instead of `notEnabled`.
#[test]
fn advisory_delete_in_the_file_enables_can_delete() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[server]\nport_rpc\n\n[port_rpc]\nport = 0\nip = 127.0.0.1\nadmin = 127.0.0.1\n\
                protocol = http\n\n[node_db]\ntype=NuDB\npath=/nonexistent\nonline_delete=8\n\
                advisory_delete=1\n";
    let conf = write(dir.path(), "xrpld.cfg", text);
    let server = xrpld(&["--conf", &conf, "-a", "--start"], 1);
    let addr = server.addrs[0];
    assert_eq!(result(addr, "can_delete", json!({}))["can_delete"], 0);
    let set = result(addr, "can_delete", json!({"can_delete": 5}));
    assert_eq!(set["can_delete"], 5, "{set}");
    assert_eq!(result(addr, "can_delete", json!({}))["can_delete"], 5);
}
