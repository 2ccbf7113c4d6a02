//! wss and https: a TLS port (rustls) answers JSON-RPC and WebSocket requests. The test
//! makes a throwaway self-signed certificate with the `openssl` command (skipped without it).

use crate::support;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::process::Command;
use std::sync::Arc;
use support::http::parse_reply;
use support::server::Server;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls;
use tokio_tungstenite::tungstenite::Message;

pub fn make_cert(dir: &std::path::Path) -> bool {
    Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "key.pem",
            "-out",
            "cert.pem",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-addext",
            "basicConstraints=critical,CA:FALSE",
        ])
        .current_dir(dir)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// An HTTP/1.1 POST of `body` that closes the connection after its reply.
fn post_request(body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// One HTTPS POST of `body` to `addr` (the server's certificate at `cert`), its reply.
pub async fn post(
    addr: std::net::SocketAddr,
    cert: &std::path::Path,
    body: &str,
) -> support::http::HttpReply {
    let mut tls = connect(addr, cert).await;
    tls.write_all(post_request(body).as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = tls.read_to_end(&mut raw).await;
    parse_reply(&raw)
}

pub async fn connect(
    addr: std::net::SocketAddr,
    cert: &std::path::Path,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let pem = std::fs::read(cert).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    for c in rustls_pemfile::certs(&mut pem.as_slice()) {
        roots.add(c.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let name = rustls::pki_types::ServerName::IpAddress(addr.ip().into());
    connector.connect(name, tcp).await.expect("TLS handshake")
}

/// Accepts any certificate, still checking that the server holds its key: what a client
/// of a port with a self-signed certificate made at start does.
#[derive(Debug)]
struct AnyCertificate(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// A TLS connection to `addr` that does not verify the server's certificate.
pub async fn connect_unverified(
    addr: std::net::SocketAddr,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let name = rustls::pki_types::ServerName::IpAddress(addr.ip().into());
    connector.connect(name, tcp).await.expect("TLS handshake")
}

/// One HTTPS POST of `body` to `addr`, not verifying its certificate; the reply and the
/// certificate the server presented.
pub async fn post_unverified(
    addr: std::net::SocketAddr,
    body: &str,
) -> (support::http::HttpReply, Vec<u8>) {
    let mut tls = connect_unverified(addr).await;
    let cert = tls.get_ref().1.peer_certificates().expect("a certificate")[0].to_vec();
    tls.write_all(post_request(body).as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = tls.read_to_end(&mut raw).await;
    (parse_reply(&raw), cert)
}

#[tokio::test]
async fn wss_and_https() {
    let dir = tempfile::tempdir().unwrap();
    if !make_cert(dir.path()) {
        eprintln!("openssl not available: skipping the TLS test");
        return;
    }
    let toml = format!(
        "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"wss\", \"https\"]\nadmin = [\"127.0.0.1\"]\ntls_cert = \"{}\"\ntls_key = \"{}\"\n",
        dir.path().join("cert.pem").display(),
        dir.path().join("key.pem").display()
    );
    let (server, _cfg) = Server::with_config(&toml, 1);
    let cert = dir.path().join("cert.pem");

    // https
    let reply = post(server.addr(), &cert, r#"{"method":"ping"}"#).await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json(),
        json!({"result": {"role": "admin", "status": "success"}})
    );

    // wss
    let tls = connect(server.addr(), &cert).await;
    let (mut ws, _) = tokio_tungstenite::client_async(format!("wss://{}/", server.addr()), tls)
        .await
        .unwrap();
    ws.send(Message::text(r#"{"id":1,"command":"random"}"#))
        .await
        .unwrap();
    let Some(Ok(Message::Text(t))) = ws.next().await else {
        panic!("no reply")
    };
    let v: Value = serde_json::from_str(t.as_str()).unwrap();
    assert_eq!(v["status"], "success");
    assert_eq!(v["id"], 1);

    // Plain text on a TLS port gets nowhere.
    let mut plain = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let req = post_request(r#"{"method":"ping"}"#);
    plain.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        plain.read_to_end(&mut raw),
    )
    .await;
    assert!(!String::from_utf8_lossy(&raw).contains("success"));
}
