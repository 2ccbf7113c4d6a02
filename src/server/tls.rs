//! TLS for wss/https ports: a rustls server configuration from PEM files, or, for a secure
//! port that names none, from a self-signed certificate made at start (xrpld's
//! `make_SSLContext`).

use crate::server::config::TlsFiles;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_rustls::rustls;
use tokio_rustls::TlsAcceptor;

/// A PEM file: a regular file of at most [`crate::limits::TLS_FILE_BYTES_MAX`] bytes.
fn read_pem(path: &std::path::Path) -> Result<Vec<u8>, String> {
    crate::server::files::read_bounded(path, crate::limits::TLS_FILE_BYTES_MAX)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The PEM certificates of a file.
fn certificates(path: &std::path::Path) -> Result<Vec<CertificateDer<'static>>, String> {
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
    serving(certs, key)
}

/// An acceptor presenting a certificate made now: what xrpld serves on a secure port
/// without `ssl_key`, `ssl_cert` and `ssl_chain`. Clients cannot verify it; it only
/// encrypts.
pub fn self_signed() -> Result<TlsAcceptor, String> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|_| "TLS: the clock is before 1970".to_owned())?
        .as_secs();
    let (cert, key) = self_signed_certificate(now)?;
    serving(vec![cert], key)
}

/// The server configuration presenting `certs` (the server's own first) with `key`.
fn serving(
    certs: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<TlsAcceptor, String> {
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

/// How long a made certificate is valid: two years from now (xrpld's).
const SELF_SIGNED_VALID_SECS: u64 = 2 * 365 * 24 * 60 * 60;

/// How far back a made certificate's validity starts before it is rounded down to
/// midnight UTC: xrpld's 25 hours, so the certificate does not tell when the server
/// started.
const SELF_SIGNED_BACKDATE_SECS: u64 = 25 * 60 * 60;

/// The DER of xrpld's extended key usage, critical: TLS server and client authentication
/// (a SEQUENCE of the two object identifiers 1.3.6.1.5.5.7.3.1 and .2).
const EXTENDED_KEY_USAGE_DER: [u8; 22] = [
    0x30, 0x14, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01, 0x06, 0x08, 0x2b, 0x06,
    0x01, 0x05, 0x05, 0x07, 0x03, 0x02,
];

/// The extended key usage extension's object identifier, 2.5.29.37.
const EXTENDED_KEY_USAGE_OID: [u64; 4] = [2, 5, 29, 37];

/// `(not before, not after)` of a certificate made at `now`, in seconds since 1970: from
/// midnight UTC of the day 25 hours ago, for two years from now.
pub fn self_signed_validity(now: u64) -> (u64, u64) {
    let day = 24 * 60 * 60;
    let back = now.saturating_sub(SELF_SIGNED_BACKDATE_SECS);
    (back - back % day, now + SELF_SIGNED_VALID_SECS)
}

/// A certificate as xrpld makes one (`initAnonymous`): X.509 v3 with an empty subject,
/// signed by its own key, a random 128-bit serial number, [`self_signed_validity`], and the
/// extensions basic constraints `CA:FALSE` (critical), key usage `digitalSignature`
/// (critical), extended key usage server and client authentication (critical) and a
/// subject key identifier. Its key is a new ECDSA P-256 key (xrpld's is RSA 2048, which
/// the `ring` library does not generate).
pub fn self_signed_certificate(
    now: u64,
) -> Result<(CertificateDer<'static>, PrivateKeyDer<'static>), String> {
    use rand::RngCore;
    use rcgen::{CertificateParams, CustomExtension, DistinguishedName, IsCa, KeyUsagePurpose};
    let failed = |e: rcgen::Error| format!("TLS: cannot make a certificate: {e}");
    let key = rcgen::KeyPair::generate().map_err(failed)?;
    let mut serial = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut serial);
    let (not_before, not_after) = self_signed_validity(now);
    let epoch = rcgen::date_time_ymd(1970, 1, 1);
    let mut eku =
        CustomExtension::from_oid_content(&EXTENDED_KEY_USAGE_OID, EXTENDED_KEY_USAGE_DER.to_vec());
    eku.set_criticality(true);
    let mut params = CertificateParams::default();
    params.distinguished_name = DistinguishedName::new();
    params.serial_number = Some(rcgen::SerialNumber::from_slice(&serial));
    params.not_before = epoch + Duration::from_secs(not_before);
    params.not_after = epoch + Duration::from_secs(not_after);
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.custom_extensions = vec![eku];
    let cert = params.self_signed(&key).map_err(failed)?;
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    Ok((cert.der().clone(), key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_made_certificate_starts_at_midnight_a_day_back_and_lasts_two_years() {
        // 2026-11-27 20:02:14 UTC.
        let now = 1_795_809_734;
        let (from, to) = self_signed_validity(now);
        // 25 hours back is 2026-11-26 19:02:14: the day starts at 2026-11-26 00:00:00.
        assert_eq!(from, 1_795_651_200);
        assert_eq!(from % 86_400, 0);
        assert!(now - from >= 25 * 3600 && now - from < 49 * 3600);
        assert_eq!(to - now, 730 * 86_400);
        // Just after midnight, 25 hours back is two days before.
        let (from, _) = self_signed_validity(1_795_651_200 + 86_400 + 60);
        assert_eq!(from, 1_795_651_200 - 86_400);
    }

    #[test]
    fn made_certificates_differ_and_serve() {
        let (a, _) = self_signed_certificate(1_795_809_734).unwrap();
        let (b, key) = self_signed_certificate(1_795_809_734).unwrap();
        // A new key and serial number each time.
        assert_ne!(a, b);
        // The extended key usage is in it, as written.
        let der: &[u8] = b.as_ref();
        assert!(der
            .windows(EXTENDED_KEY_USAGE_DER.len())
            .any(|w| w == EXTENDED_KEY_USAGE_DER));
        assert!(serving(vec![b], key).is_ok());
        assert!(self_signed().is_ok());
    }
}
