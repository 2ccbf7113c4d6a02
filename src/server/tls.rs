//! TLS for wss/https ports: a rustls server configuration from PEM files.

use crate::server::config::TlsFiles;
use std::sync::Arc;
use tokio_rustls::rustls;
use tokio_rustls::TlsAcceptor;

/// A PEM file: a regular file of at most [`crate::limits::TLS_FILE_BYTES_MAX`] bytes.
fn read_pem(path: &std::path::Path) -> Result<Vec<u8>, String> {
    crate::server::files::read_bounded(path, crate::limits::TLS_FILE_BYTES_MAX)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The PEM certificates of a file.
fn certificates(
    path: &std::path::Path,
) -> Result<Vec<rustls::pki_types::CertificateDer<'static>>, String> {
    let pem = read_pem(path)?;
    rustls_pemfile::certs(&mut pem.as_slice())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("bad certificate in {}: {e}", path.display()))
}

/// Build an acceptor from a PEM certificate chain and a PEM private key.
pub fn acceptor(files: &TlsFiles) -> Result<TlsAcceptor, String> {
    let mut certs = certificates(&files.cert)?;
    let key_pem = read_pem(&files.key)?;
    if certs.is_empty() {
        return Err(format!("no certificate in {}", files.cert.display()));
    }
    // xrpld `ssl_chain`: the certificates sent after the server's own.
    if let Some(chain) = &files.chain {
        let more = certificates(chain)?;
        if more.is_empty() {
            return Err(format!("no certificate in {}", chain.display()));
        }
        certs.extend(more);
    }
    let key = rustls_pemfile::private_key(&mut key_pem.as_slice())
        .map_err(|e| format!("bad key in {}: {e}", files.key.display()))?
        .ok_or_else(|| format!("no private key in {}", files.key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("TLS certificate/key: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
