//! Signing and verification with rippled's rules (`SecretKey.cpp` `sign`, `PublicKey.cpp`
//! `verify`, `verifyDigest`, `ecdsaCanonicality`, `ed25519Canonical`).
//!
//! - secp256k1: ECDSA over `SHA512Half(message)`, RFC 6979 nonce, low S, DER. Verification
//!   first applies rippled's strict DER and range rules ([`ecdsa_canonicality`]); a high-S
//!   signature is "canonical" but not "fully canonical" and passes only when
//!   `must_be_fully_canonical` is false.
//! - ed25519: RFC 8032 over the raw message; verification requires `S < L`.
//!
//! Nothing here panics: malformed keys or signatures verify as `false`.

use ed25519_dalek::Signer as _;

use super::hash::sha512_half;
use super::keys::{KeyType, PublicKey, SecretKey};

/// The secp256k1 group order n, big-endian.
const SECP256K1_N: [u8; 32] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE,
    0xBA, 0xAE, 0xDC, 0xE6, 0xAF, 0x48, 0xA0, 0x3B, 0xBF, 0xD2, 0x5E, 0x8C, 0xD0, 0x36, 0x41, 0x41,
];

/// floor(n / 2), big-endian: S is fully canonical when `S <= n - S`, i.e. `S <= floor(n/2)`.
const SECP256K1_HALF_N: [u8; 32] = [
    0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0x5D, 0x57, 0x6E, 0x73, 0x57, 0xA4, 0x50, 0x1D, 0xDF, 0xE9, 0x2F, 0x46, 0x68, 0x1B, 0x20, 0xA0,
];

/// The ed25519 group order L, big-endian.
const ED25519_L: [u8; 32] = [
    0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x14, 0xDE, 0xF9, 0xDE, 0xA2, 0xF7, 0x9C, 0xD6, 0x58, 0x12, 0x63, 0x1A, 0x5C, 0xF5, 0xD3, 0xED,
];

/// Shortest and longest DER signature rippled considers (`ecdsaCanonicality`).
const DER_SIG_BYTES_MIN: usize = 8;
/// Longest DER signature: two 33-byte integers plus six header bytes.
const DER_SIG_BYTES_MAX: usize = 72;
/// An ed25519 signature's length.
pub const ED25519_SIG_BYTES: usize = 64;

/// rippled's `ECDSACanonicality`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcdsaCanonicality {
    /// Strict DER, R and S below n, but S is in the upper half (the malleated twin).
    Canonical,
    /// As `Canonical`, and S is in the lower half (what libsecp256k1 produces).
    FullyCanonical,
}

/// One DER INTEGER from the front of `buf` (rippled's `sigPart`): tag 0x02, a length of
/// 1..=33, not negative, not zero, no superfluous leading zero. Returns the integer's bytes
/// and the rest of the buffer.
fn der_integer(buf: &[u8]) -> Option<(&[u8], &[u8])> {
    if buf.len() < 3 || buf[0] != 0x02 {
        return None;
    }
    let len = usize::from(buf[1]);
    let rest = &buf[2..];
    if len > rest.len() || !(1..=33).contains(&len) {
        return None;
    }
    if rest[0] & 0x80 != 0 {
        return None; // negative
    }
    if rest[0] == 0 {
        if len == 1 {
            return None; // zero
        }
        if rest[1] & 0x80 == 0 {
            return None; // padded
        }
    }
    Some((&rest[..len], &rest[len..]))
}

/// A positive DER integer (at most 33 bytes, checked by [`der_integer`]) as 32 big-endian
/// bytes, or `None` if it does not fit (then it is at least 2^256 > n).
fn to_u256(int: &[u8]) -> Option<[u8; 32]> {
    let mut v = int;
    while let [0, tail @ ..] = v {
        v = tail;
    }
    if v.len() > 32 {
        return None;
    }
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(v);
    Some(out)
}

/// rippled's `ecdsaCanonicality`: `None` when the DER is not strict or R or S is not below
/// n; otherwise whether S is in the lower half.
pub fn ecdsa_canonicality(sig: &[u8]) -> Option<EcdsaCanonicality> {
    if sig.len() < DER_SIG_BYTES_MIN || sig.len() > DER_SIG_BYTES_MAX {
        return None;
    }
    if sig[0] != 0x30 || usize::from(sig[1]) != sig.len() - 2 {
        return None;
    }
    let (r, rest) = der_integer(&sig[2..])?;
    let (s, rest) = der_integer(rest)?;
    if !rest.is_empty() {
        return None;
    }
    let r = to_u256(r)?;
    if r >= SECP256K1_N {
        return None;
    }
    let s = to_u256(s)?;
    if s >= SECP256K1_N {
        return None;
    }
    if s > SECP256K1_HALF_N {
        Some(EcdsaCanonicality::Canonical)
    } else {
        Some(EcdsaCanonicality::FullyCanonical)
    }
}

/// rippled's `ed25519Canonical`: 64 bytes and `S` (the second half, little-endian) below L.
pub fn ed25519_canonical(sig: &[u8]) -> bool {
    if sig.len() != ED25519_SIG_BYTES {
        return false;
    }
    let mut s = [0u8; 32];
    for (dst, src) in s.iter_mut().zip(sig[32..].iter().rev()) {
        *dst = *src;
    }
    s < ED25519_L
}

/// ECDSA-signs a 32-byte digest with a secp256k1 secret (RFC 6979, low S, DER). `None` if
/// the secret is not a valid scalar (zero or at least n).
pub(crate) fn sign_digest_secp256k1(secret: &SecretKey, digest: &[u8; 32]) -> Option<Vec<u8>> {
    let mut sk = secp256k1::SecretKey::from_byte_array(secret.expose_secret()).ok()?;
    let sig = sk.sign_ecdsa(secp256k1::Message::from_digest(*digest));
    sk.non_secure_erase();
    Some(sig.serialize_der().to_vec())
}

/// Signs `msg` as rippled's `sign()`: secp256k1 ECDSA over SHA512Half(msg) (RFC 6979, low
/// S, DER), or ed25519 over the raw message. An invalid secp256k1 secret (zero or at least
/// n, which no derivation produces) gives an empty signature, which never verifies.
///
/// For repeated signing prefer [`super::keys::KeyPair::sign`], which keeps the ed25519
/// public point instead of recomputing it.
pub fn sign(secret: &SecretKey, key_type: KeyType, msg: &[u8]) -> Vec<u8> {
    match key_type {
        KeyType::Secp256k1 => {
            let digest = sha512_half(&[msg]);
            sign_digest_secp256k1(secret, digest.as_bytes()).unwrap_or_default()
        }
        KeyType::Ed25519 => {
            let sk = ed25519_dalek::SigningKey::from_bytes(secret.expose_secret());
            sk.sign(msg).to_bytes().to_vec()
        }
    }
}

/// Verifies `sig` over `msg` as rippled's `verify()`. Any malformed key or signature gives
/// `false`.
pub fn verify(public: &PublicKey, msg: &[u8], sig: &[u8], must_be_fully_canonical: bool) -> bool {
    match public.key_type() {
        KeyType::Secp256k1 => {
            // Check the cheap rules before hashing.
            if ecdsa_canonicality(sig).is_none() {
                return false;
            }
            let digest = sha512_half(&[msg]);
            verify_digest(public, digest.as_bytes(), sig, must_be_fully_canonical)
        }
        KeyType::Ed25519 => verify_ed25519(public, msg, sig),
    }
}

fn verify_ed25519(public: &PublicKey, msg: &[u8], sig: &[u8]) -> bool {
    if !ed25519_canonical(sig) {
        return false;
    }
    let mut key = [0u8; 32];
    key.copy_from_slice(&public.as_bytes()[1..]);
    let Ok(vk) = ed25519_dalek::VerifyingKey::from_bytes(&key) else {
        return false;
    };
    let mut sig_bytes = [0u8; ED25519_SIG_BYTES];
    sig_bytes.copy_from_slice(sig);
    let signature = ed25519_dalek::Signature::from_bytes(&sig_bytes);
    use ed25519_dalek::Verifier as _;
    vk.verify(msg, &signature).is_ok()
}

/// rippled's `verifyDigest`: a secp256k1 signature over a precomputed SHA512Half digest.
/// `false` for an ed25519 key (rippled treats that as a logic error).
pub fn verify_digest(
    public: &PublicKey,
    digest: &[u8; 32],
    sig: &[u8],
    must_be_fully_canonical: bool,
) -> bool {
    if public.key_type() != KeyType::Secp256k1 {
        return false;
    }
    let Some(canonicality) = ecdsa_canonicality(sig) else {
        return false;
    };
    if must_be_fully_canonical && canonicality != EcdsaCanonicality::FullyCanonical {
        return false;
    }
    let Ok(pk) = secp256k1::PublicKey::from_slice(public.as_bytes()) else {
        return false;
    };
    let Ok(mut signature) = secp256k1::ecdsa::Signature::from_der(sig) else {
        return false;
    };
    // libsecp256k1 accepts only low S; rippled normalizes a merely canonical signature.
    if canonicality != EcdsaCanonicality::FullyCanonical {
        signature.normalize_s();
    }
    signature
        .verify(&secp256k1::Message::from_digest(*digest), &pk)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::keys::KeyPair;
    use crate::protocol::seed::Seed;

    fn pair(kt: KeyType) -> KeyPair {
        KeyPair::from_seed(&Seed::from_passphrase("canonicality"), kt).expect("derive")
    }

    /// n - s for a 32-byte big-endian s (0 < s < n).
    fn n_minus(s: &[u8; 32]) -> [u8; 32] {
        let mut out = [0u8; 32];
        let mut borrow = 0i16;
        for i in (0..32).rev() {
            let mut d = i16::from(SECP256K1_N[i]) - i16::from(s[i]) - borrow;
            borrow = 0;
            if d < 0 {
                d += 256;
                borrow = 1;
            }
            out[i] = d as u8;
        }
        out
    }

    /// DER for (r, s) given as 32-byte big-endian values, minimal encoding.
    fn der(r: &[u8; 32], s: &[u8; 32]) -> Vec<u8> {
        fn int(v: &[u8; 32]) -> Vec<u8> {
            let mut b: Vec<u8> = v.iter().copied().skip_while(|x| *x == 0).collect();
            if b.first().is_none_or(|x| x & 0x80 != 0) {
                b.insert(0, 0);
            }
            let mut out = vec![0x02, b.len() as u8];
            out.extend(b);
            out
        }
        let body: Vec<u8> = [int(r), int(s)].concat();
        let mut out = vec![0x30, body.len() as u8];
        out.extend(body);
        out
    }

    fn split(sig: &[u8]) -> ([u8; 32], [u8; 32]) {
        let parsed = secp256k1::ecdsa::Signature::from_der(sig).expect("der");
        let c = parsed.serialize_compact();
        let mut r = [0u8; 32];
        let mut s = [0u8; 32];
        r.copy_from_slice(&c[..32]);
        s.copy_from_slice(&c[32..]);
        (r, s)
    }

    #[test]
    fn high_s_is_canonical_but_not_fully() {
        let kp = pair(KeyType::Secp256k1);
        let msg = b"high s";
        let sig = kp.sign(msg);
        assert_eq!(
            ecdsa_canonicality(&sig),
            Some(EcdsaCanonicality::FullyCanonical)
        );
        let (r, s) = split(&sig);
        let high = der(&r, &n_minus(&s));
        assert_ne!(high, sig);
        assert_eq!(
            ecdsa_canonicality(&high),
            Some(EcdsaCanonicality::Canonical)
        );
        assert!(verify(&kp.public, msg, &high, false));
        assert!(!verify(&kp.public, msg, &high, true));
        assert!(verify(&kp.public, msg, &sig, true));
        assert!(verify(&kp.public, msg, &sig, false));
        assert!(!verify(&kp.public, b"other", &high, false));
    }

    #[test]
    fn malformed_der_fails() {
        let kp = pair(KeyType::Secp256k1);
        let msg = b"der";
        let sig = kp.sign(msg);
        let (r, s) = split(&sig);

        // An extra byte, with or without fixing the outer length.
        let mut extra = sig.clone();
        extra.push(0);
        assert!(!verify(&kp.public, msg, &extra, false));
        extra[1] += 1;
        assert!(!verify(&kp.public, msg, &extra, false));

        // A padded integer: a leading zero before a byte below 0x80.
        let mut r_small = r;
        r_small[0] &= 0x7F;
        let minimal = der(&r_small, &s);
        assert!(ecdsa_canonicality(&minimal).is_some());
        let mut padded = vec![0x30, minimal[1] + 1, 0x02, minimal[3] + 1, 0x00];
        padded.extend_from_slice(&minimal[4..]);
        assert!(ecdsa_canonicality(&padded).is_none());
        assert!(!verify(&kp.public, msg, &padded, false));

        // A negative integer: R with its top bit set and the 0x00 pad removed.
        let mut r_big = r;
        r_big[0] |= 0x80;
        let with_pad = der(&r_big, &s);
        assert!(ecdsa_canonicality(&with_pad).is_some());
        let mut negative = vec![0x30, with_pad[1] - 1, 0x02, with_pad[3] - 1];
        negative.extend_from_slice(&with_pad[5..]);
        assert!(ecdsa_canonicality(&negative).is_none());
        assert!(!verify(&kp.public, msg, &negative, false));

        // R or S equal to n.
        assert!(ecdsa_canonicality(&der(&SECP256K1_N, &s)).is_none());
        assert!(ecdsa_canonicality(&der(&r, &SECP256K1_N)).is_none());
        // Zero.
        assert!(ecdsa_canonicality(&[0x30, 6, 0x02, 1, 0, 0x02, 1, 1]).is_none());
        // Wrong tag, truncated, empty.
        let mut tag = sig.clone();
        tag[0] = 0x31;
        assert!(!verify(&kp.public, msg, &tag, false));
        assert!(!verify(&kp.public, msg, &sig[..sig.len() - 1], false));
        assert!(!verify(&kp.public, msg, &[], false));
    }

    #[test]
    fn ed25519_s_at_least_l_fails() {
        let kp = pair(KeyType::Ed25519);
        let msg = b"malleable";
        let sig = kp.sign(msg);
        assert!(verify(&kp.public, msg, &sig, true));
        // S + L is the same scalar mod L: mathematically valid, rejected as non-canonical.
        let mut s_plus_l = sig.clone();
        let mut carry = 0u16;
        for i in 0..32 {
            let v = u16::from(s_plus_l[32 + i]) + u16::from(ED25519_L[31 - i]) + carry;
            s_plus_l[32 + i] = v as u8;
            carry = v >> 8;
        }
        assert_eq!(carry, 0, "S + L fits in 32 bytes");
        assert!(!ed25519_canonical(&s_plus_l));
        assert!(!verify(&kp.public, msg, &s_plus_l, false));
        // S = L exactly.
        let mut s_eq_l = sig.clone();
        for i in 0..32 {
            s_eq_l[32 + i] = ED25519_L[31 - i];
        }
        assert!(!ed25519_canonical(&s_eq_l));
        assert!(!verify(&kp.public, msg, &sig[..63], false));
    }

    #[test]
    fn free_sign_matches_key_pair() {
        for kt in [KeyType::Secp256k1, KeyType::Ed25519] {
            let kp = pair(kt);
            assert_eq!(sign(kp.secret(), kt, b"abc"), kp.sign(b"abc"));
        }
    }

    #[test]
    fn digest_api() {
        let kp = pair(KeyType::Secp256k1);
        let digest = sha512_half(&[b"digest"]).0;
        let sig = kp.sign_digest(&digest).expect("secp256k1");
        assert_eq!(sig, kp.sign(b"digest"));
        assert!(verify_digest(&kp.public, &digest, &sig, true));
        let ed = pair(KeyType::Ed25519);
        assert!(ed.sign_digest(&digest).is_none());
        assert!(!verify_digest(&ed.public, &digest, &sig, true));
    }

    #[test]
    fn wrong_key_type_or_invalid_key() {
        let secp = pair(KeyType::Secp256k1);
        let ed = pair(KeyType::Ed25519);
        let msg = b"cross";
        assert!(!verify(&ed.public, msg, &secp.sign(msg), false));
        assert!(!verify(&secp.public, msg, &ed.sign(msg), false));
        let mut off_curve = [0u8; 33];
        off_curve[0] = 0x02;
        off_curve[32] = 5;
        let pk = PublicKey::from_slice_lenient(&off_curve).expect("type byte ok");
        assert!(!verify(&pk, msg, &secp.sign(msg), false));
        // Zero secret: no panic, no signature.
        let zero = SecretKey::from_bytes([0u8; 32]);
        assert!(sign(&zero, KeyType::Secp256k1, msg).is_empty());
    }
}
