//! Key types, public keys, secret keys and key pairs (rippled's `PublicKey.cpp`,
//! `SecretKey.cpp`, `KeyType.h`).
//!
//! - secp256k1 account keys come from rippled's "family generator" derivation: a root key
//!   from the seed, then the root key plus a tweak derived from the root public key
//!   ([`KeyPair::from_seed`]). Validator (node) keys are the root pair itself
//!   ([`KeyPair::node_from_seed`]).
//! - ed25519 keys: the secret is `SHA512Half(seed)`, the public key is `0xED || A`.
//!
//! A [`KeyPair`] keeps everything signing needs ready (for ed25519 the expanded dalek key),
//! so signing with it repeatedly costs only the signature.

use std::fmt;

use ed25519_dalek::Signer as _;
use zeroize::Zeroize;

use super::base58::{self, version};
use super::hash::sha512_half;
use super::secret::{SecretBytes, REDACTED};
use super::seed::Seed;
use super::types::AccountId;

/// Tries each derivation loop makes before giving up (rippled: 128, then it throws).
pub const DERIVATION_TRIES_MAX: u32 = 128;

/// The two signature algorithms of the XRP Ledger.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum KeyType {
    /// ECDSA on secp256k1 (the default everywhere in rippled).
    Secp256k1,
    /// Ed25519 (RFC 8032).
    Ed25519,
}

impl KeyType {
    /// Parses rippled's names, exactly `"secp256k1"` or `"ed25519"` (`keyTypeFromString`).
    pub fn from_name(name: &str) -> Option<KeyType> {
        match name {
            "secp256k1" => Some(KeyType::Secp256k1),
            "ed25519" => Some(KeyType::Ed25519),
            _ => None,
        }
    }

    /// rippled's name for the key type.
    pub fn as_str(&self) -> &'static str {
        match self {
            KeyType::Secp256k1 => "secp256k1",
            KeyType::Ed25519 => "ed25519",
        }
    }
}

impl fmt::Display for KeyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a key could not be read or derived.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Not 33 bytes (public) or 32 bytes (secret).
    #[error("wrong key length")]
    Length,
    /// The first byte is not 0x02, 0x03 or 0xED.
    #[error("unknown key type")]
    UnknownType,
    /// A secp256k1 key that is not a point on the curve, or an out-of-range secret.
    #[error("invalid key")]
    Invalid,
    /// Not hex.
    #[error("invalid hex")]
    Hex,
    /// Not a base58 token of the right type.
    #[error("invalid base58 key: {0}")]
    Base58(#[from] base58::Base58Error),
    /// A derivation loop found no valid scalar within [`DERIVATION_TRIES_MAX`] tries
    /// (rippled throws "Unable to derive generator from seed"), or the tweak addition gave
    /// zero. Neither happens for any seed anyone has found.
    #[error("unable to derive key from seed")]
    Derivation,
}

/// rippled's `publicKeyType`: the key type of 33 bytes by their first byte, with no check
/// that the rest is a valid point.
pub fn public_key_type(bytes: &[u8]) -> Option<KeyType> {
    if bytes.len() != 33 {
        return None;
    }
    match bytes[0] {
        0xED => Some(KeyType::Ed25519),
        0x02 | 0x03 => Some(KeyType::Secp256k1),
        _ => None,
    }
}

/// rippled's `strUnHex`: hex digits of either case to bytes. An odd number of digits is
/// allowed, the first digit alone making the first byte (`"ABC"` is `0A BC`). The empty
/// string gives an empty vector. Used where rippled reads hex with it: `channel_verify`'s
/// `public_key` and `signature`.
pub fn str_unhex(s: &str) -> Option<Vec<u8>> {
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len().div_ceil(2));
    let rest = if b.len() % 2 == 1 {
        out.push(nibble(b[0])?);
        &b[1..]
    } else {
        b
    };
    for pair in rest.chunks_exact(2) {
        out.push((nibble(pair[0])? << 4) | nibble(pair[1])?);
    }
    Some(out)
}

/// A 33-byte public key: compressed secp256k1 (`02`/`03` + X) or `ED` + ed25519 key.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PublicKey([u8; 33]);

impl PublicKey {
    /// Reads 33 bytes; the first byte names the type, and a secp256k1 key must be a point
    /// on the curve. See [`PublicKey::from_slice_lenient`] for rippled's looser check.
    pub fn from_slice(bytes: &[u8]) -> Result<PublicKey, KeyError> {
        let pk = PublicKey::from_slice_lenient(bytes)?;
        if pk.key_type() == KeyType::Secp256k1 && secp256k1::PublicKey::from_slice(bytes).is_err() {
            return Err(KeyError::Invalid);
        }
        Ok(pk)
    }

    /// Reads 33 bytes checking only the type byte, as rippled's `publicKeyType` does
    /// (`channel_verify`, `parseBase58<PublicKey>`). A key that is not on the curve is
    /// accepted here and simply never verifies.
    pub fn from_slice_lenient(bytes: &[u8]) -> Result<PublicKey, KeyError> {
        if bytes.len() != 33 {
            return Err(KeyError::Length);
        }
        if public_key_type(bytes).is_none() {
            return Err(KeyError::UnknownType);
        }
        let mut b = [0u8; 33];
        b.copy_from_slice(bytes);
        Ok(PublicKey(b))
    }

    /// rippled's way of reading a `public_key` RPC field (`channel_verify`, and
    /// `validPublicKey` in the command-line parser): first a base58 account public key
    /// (`a...`), else hex through [`str_unhex`] (so an odd number of digits is accepted),
    /// in both cases checking only the type byte ([`PublicKey::from_slice_lenient`]).
    pub fn parse_rpc(s: &str) -> Result<PublicKey, KeyError> {
        if let Ok(v) = base58::decode(s, version::ACCOUNT_PUBLIC, 33) {
            if let Ok(pk) = PublicKey::from_slice_lenient(&v) {
                return Ok(pk);
            }
        }
        let bytes = str_unhex(s).ok_or(KeyError::Hex)?;
        PublicKey::from_slice_lenient(&bytes)
    }

    /// Parses 66 hex digits (either case), then as [`PublicKey::from_slice`].
    pub fn from_hex(s: &str) -> Result<PublicKey, KeyError> {
        if s.len() != 66 {
            return Err(KeyError::Length);
        }
        let mut b = [0u8; 33];
        hex::decode_to_slice(s, &mut b).map_err(|_| KeyError::Hex)?;
        PublicKey::from_slice(&b)
    }

    /// Parses an account public key token (`a...`, version 0x23).
    pub fn from_base58(s: &str) -> Result<PublicKey, KeyError> {
        let v = base58::decode(s, version::ACCOUNT_PUBLIC, 33)?;
        PublicKey::from_slice(&v)
    }

    /// Parses a node public key token (`n...`, version 0x1C).
    pub fn from_node_base58(s: &str) -> Result<PublicKey, KeyError> {
        let v = base58::decode(s, version::NODE_PUBLIC, 33)?;
        PublicKey::from_slice(&v)
    }

    /// The account public key token, `a...`.
    pub fn to_base58(&self) -> String {
        base58::encode(version::ACCOUNT_PUBLIC, &self.0)
    }

    /// The node (validator) public key token, `n...`.
    pub fn to_node_base58(&self) -> String {
        base58::encode(version::NODE_PUBLIC, &self.0)
    }

    /// 66 upper-case hex digits, as rippled prints keys.
    pub fn to_hex(&self) -> String {
        crate::protocol::types::hex_upper(self.0)
    }

    /// The 33 bytes.
    pub fn as_bytes(&self) -> &[u8; 33] {
        &self.0
    }

    /// Which algorithm the key belongs to.
    pub fn key_type(&self) -> KeyType {
        if self.0[0] == 0xED {
            KeyType::Ed25519
        } else {
            KeyType::Secp256k1
        }
    }

    /// RIPEMD160(SHA256(key)): the account (or node) ID.
    pub fn account_id(&self) -> AccountId {
        AccountId::from_public_key(&self.0)
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.to_hex())
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// A 32-byte private key (rippled's `SecretKey`): a secp256k1 scalar or an ed25519 seed.
/// Zeroized on drop; prints `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretKey(SecretBytes<32>);

impl SecretKey {
    /// Wraps 32 bytes. Nothing is checked here; signing checks the secp256k1 range.
    pub fn from_bytes(bytes: [u8; 32]) -> SecretKey {
        SecretKey(SecretBytes::new(bytes))
    }

    /// The raw 32 bytes. Every caller is worth a reviewer's look: nothing the server sends
    /// should contain them.
    pub fn expose_secret(&self) -> &[u8; 32] {
        self.0.expose_secret()
    }

    /// The public key of this secret for `key_type`.
    pub fn public_key(&self, key_type: KeyType) -> Result<PublicKey, KeyError> {
        match key_type {
            KeyType::Secp256k1 => {
                let mut sk = secp256k1::SecretKey::from_byte_array(self.expose_secret())
                    .map_err(|_| KeyError::Invalid)?;
                let pk = secp256k1::PublicKey::from_secret_key_global(&sk);
                sk.non_secure_erase();
                Ok(PublicKey(pk.serialize()))
            }
            KeyType::Ed25519 => {
                let sk = ed25519_dalek::SigningKey::from_bytes(self.expose_secret());
                Ok(ed25519_public(&sk))
            }
        }
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

fn ed25519_public(sk: &ed25519_dalek::SigningKey) -> PublicKey {
    let mut b = [0u8; 33];
    b[0] = 0xED;
    b[1..].copy_from_slice(sk.verifying_key().as_bytes());
    PublicKey(b)
}

/// The first `k = SHA512Half(prefix || u32be(counter))` with `0 < k < n`, for
/// `counter = 0, 1, ...` (rippled's two retry loops). `buf` holds the prefix and four
/// spare bytes at the end; it is wiped by the caller.
fn first_valid_scalar(buf: &mut [u8]) -> Result<(u32, secp256k1::SecretKey), KeyError> {
    let at = buf.len() - 4;
    for counter in 0..DERIVATION_TRIES_MAX {
        buf[at..].copy_from_slice(&counter.to_be_bytes());
        let mut k = sha512_half(&[buf]).0;
        let valid = secp256k1::SecretKey::from_byte_array(&k);
        k.zeroize();
        if let Ok(sk) = valid {
            return Ok((counter, sk));
        }
    }
    Err(KeyError::Derivation)
}

/// Every step of the secp256k1 family derivation, for tests and diagnostics.
#[derive(Debug)]
pub struct Secp256k1Derivation {
    /// The counter that gave the root key.
    pub root_seq: u32,
    /// The root (generator) private key; also the validator key.
    pub root_secret: SecretKey,
    /// The root public key; also the validator public key.
    pub root_public: PublicKey,
    /// The counter that gave the tweak.
    pub tweak_subseq: u32,
    /// The tweak added to the root key (secret: with the root public key it gives the
    /// account key).
    pub tweak: SecretKey,
    /// The account private key, root + tweak mod n.
    pub account_secret: SecretKey,
    /// The account public key.
    pub account_public: PublicKey,
}

/// rippled's `generateKeyPair(secp256k1, seed)`, keeping every intermediate.
pub fn secp256k1_derivation(seed: &Seed) -> Result<Secp256k1Derivation, KeyError> {
    let (root_seq, mut root) = secp256k1_root(seed)?;
    let root_public = PublicKey(secp256k1::PublicKey::from_secret_key_global(&root).serialize());

    // Tweak: SHA512Half(root public (33) || u32be(account ordinal 0) || u32be(subseq)).
    let mut buf = [0u8; 41];
    buf[..33].copy_from_slice(&root_public.0);
    let found = first_valid_scalar(&mut buf);
    buf.zeroize();
    let (tweak_subseq, mut tweak) = found?;

    let tweak_scalar = secp256k1::Scalar::from_be_bytes(tweak.secret_bytes());
    let account = match tweak_scalar {
        Ok(t) => root.add_tweak(&t).map_err(|_| KeyError::Derivation),
        Err(_) => Err(KeyError::Derivation),
    };
    let root_secret = SecretKey::from_bytes(root.secret_bytes());
    let tweak_secret = SecretKey::from_bytes(tweak.secret_bytes());
    root.non_secure_erase();
    tweak.non_secure_erase();
    let mut account = account?;
    let account_public =
        PublicKey(secp256k1::PublicKey::from_secret_key_global(&account).serialize());
    let account_secret = SecretKey::from_bytes(account.secret_bytes());
    account.non_secure_erase();
    Ok(Secp256k1Derivation {
        root_seq,
        root_secret,
        root_public,
        tweak_subseq,
        tweak: tweak_secret,
        account_secret,
        account_public,
    })
}

/// The root key: the first valid `SHA512Half(seed || u32be(seq))`.
fn secp256k1_root(seed: &Seed) -> Result<(u32, secp256k1::SecretKey), KeyError> {
    let mut buf = [0u8; 20];
    buf[..16].copy_from_slice(seed.as_bytes());
    let found = first_valid_scalar(&mut buf);
    buf.zeroize();
    found
}

/// What signs: the secp256k1 scalar is rebuilt from the secret bytes for each signature
/// (a range check, nanoseconds); the ed25519 key keeps dalek's precomputed public point.
#[derive(Clone)]
enum Signer {
    Secp256k1,
    Ed25519(Box<ed25519_dalek::SigningKey>),
}

/// A key pair ready to sign. Secrets are zeroized on drop; `Debug` shows only the public
/// key.
#[derive(Clone)]
pub struct KeyPair {
    /// The algorithm.
    pub key_type: KeyType,
    /// The public key (33 bytes).
    pub public: PublicKey,
    secret: SecretKey,
    signer: Signer,
}

impl KeyPair {
    /// The account key pair of `seed` (rippled's `generateKeyPair`), used by
    /// `wallet_propose`, `sign`, `submit` and `channel_authorize`.
    pub fn from_seed(seed: &Seed, key_type: KeyType) -> Result<KeyPair, KeyError> {
        match key_type {
            KeyType::Secp256k1 => {
                let d = secp256k1_derivation(seed)?;
                Ok(KeyPair {
                    key_type,
                    public: d.account_public,
                    secret: d.account_secret,
                    signer: Signer::Secp256k1,
                })
            }
            KeyType::Ed25519 => {
                let secret = SecretKey(SecretBytes::new(sha512_half(&[seed.as_bytes()]).0));
                Ok(KeyPair::ed25519_from_secret(secret))
            }
        }
    }

    /// The validator (node) key pair of `seed`: the secp256k1 root pair, with no tweak
    /// (rippled's `generateSecretKey(secp256k1, seed)`). Its public key prints as `n...`.
    pub fn node_from_seed(seed: &Seed) -> Result<KeyPair, KeyError> {
        let (_, mut root) = secp256k1_root(seed)?;
        let public = PublicKey(secp256k1::PublicKey::from_secret_key_global(&root).serialize());
        let secret = SecretKey::from_bytes(root.secret_bytes());
        root.non_secure_erase();
        Ok(KeyPair {
            key_type: KeyType::Secp256k1,
            public,
            secret,
            signer: Signer::Secp256k1,
        })
    }

    /// A key pair from a bare secret key (rippled's `derivePublicKey`).
    pub fn from_secret(secret: SecretKey, key_type: KeyType) -> Result<KeyPair, KeyError> {
        match key_type {
            KeyType::Secp256k1 => {
                let public = secret.public_key(KeyType::Secp256k1)?;
                Ok(KeyPair {
                    key_type,
                    public,
                    secret,
                    signer: Signer::Secp256k1,
                })
            }
            KeyType::Ed25519 => Ok(KeyPair::ed25519_from_secret(secret)),
        }
    }

    fn ed25519_from_secret(secret: SecretKey) -> KeyPair {
        let sk = ed25519_dalek::SigningKey::from_bytes(secret.expose_secret());
        KeyPair {
            key_type: KeyType::Ed25519,
            public: ed25519_public(&sk),
            secret,
            signer: Signer::Ed25519(Box::new(sk)),
        }
    }

    /// Signs `msg` as rippled's `sign(pk, sk, m)`: secp256k1 ECDSA over SHA512Half(msg)
    /// (RFC 6979, low S, DER); ed25519 over the raw message (64 bytes).
    pub fn sign(&self, msg: &[u8]) -> Vec<u8> {
        match &self.signer {
            Signer::Secp256k1 => {
                let digest = sha512_half(&[msg]);
                super::sign::sign_digest_secp256k1(&self.secret, digest.as_bytes())
                    .unwrap_or_default()
            }
            Signer::Ed25519(sk) => sk.sign(msg).to_bytes().to_vec(),
        }
    }

    /// Signs a precomputed SHA512Half digest (secp256k1 only; `None` for ed25519, which
    /// signs messages, not digests).
    pub fn sign_digest(&self, digest: &[u8; 32]) -> Option<Vec<u8>> {
        match self.signer {
            Signer::Secp256k1 => super::sign::sign_digest_secp256k1(&self.secret, digest),
            Signer::Ed25519(_) => None,
        }
    }

    /// The account ID of the public key.
    pub fn account_id(&self) -> AccountId {
        self.public.account_id()
    }

    /// The private key. Every caller is worth a reviewer's look.
    pub fn secret(&self) -> &SecretKey {
        &self.secret
    }
}

impl fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPair")
            .field("key_type", &self.key_type)
            .field("public", &self.public)
            .field("secret", &format_args!("{REDACTED}"))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn genesis_seed() -> Seed {
        Seed::from_passphrase("masterpassphrase")
    }

    #[test]
    fn genesis_keys() {
        let kp = KeyPair::from_seed(&genesis_seed(), KeyType::Secp256k1).expect("derive");
        assert_eq!(
            kp.public.to_hex(),
            "0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020"
        );
        assert_eq!(
            kp.account_id().to_address(),
            "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
        );
        let ed = KeyPair::from_seed(&genesis_seed(), KeyType::Ed25519).expect("derive");
        assert_eq!(
            ed.account_id().to_address(),
            "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf"
        );
    }

    #[test]
    fn key_type_names() {
        assert_eq!(KeyType::from_name("ed25519"), Some(KeyType::Ed25519));
        assert_eq!(KeyType::from_name("secp256k1"), Some(KeyType::Secp256k1));
        assert_eq!(KeyType::from_name("Ed25519"), None);
        assert_eq!(KeyType::Ed25519.as_str(), "ed25519");
    }

    #[test]
    fn public_key_parsing() {
        let kp = KeyPair::from_seed(&genesis_seed(), KeyType::Secp256k1).expect("derive");
        let b = *kp.public.as_bytes();
        assert_eq!(PublicKey::from_slice(&b), Ok(kp.public));
        assert_eq!(PublicKey::from_hex(&kp.public.to_hex()), Ok(kp.public));
        assert_eq!(
            PublicKey::from_hex(&kp.public.to_hex().to_lowercase()),
            Ok(kp.public)
        );
        assert_eq!(
            PublicKey::from_base58(&kp.public.to_base58()),
            Ok(kp.public)
        );
        assert_eq!(PublicKey::from_slice(&b[..32]), Err(KeyError::Length));
        let mut bad = b;
        bad[0] = 0x04;
        assert_eq!(PublicKey::from_slice(&bad), Err(KeyError::UnknownType));
        // X = 5 is not on secp256k1 (5^3 + 7 = 132 is not a square mod p): the strict
        // parse refuses, the lenient one takes it.
        let mut off_curve = [0u8; 33];
        off_curve[0] = 0x02;
        off_curve[32] = 5;
        assert_eq!(PublicKey::from_slice(&off_curve), Err(KeyError::Invalid));
        assert!(PublicKey::from_slice_lenient(&off_curve).is_ok());
        assert!(PublicKey::from_hex("zz").is_err());
        assert!(PublicKey::from_base58(&kp.account_id().to_address()).is_err());
    }

    #[test]
    fn rpc_public_key_parsing() {
        let kp = KeyPair::from_seed(&genesis_seed(), KeyType::Secp256k1).expect("derive");
        let hex = kp.public.to_hex();
        assert_eq!(PublicKey::parse_rpc(&kp.public.to_base58()), Ok(kp.public));
        assert_eq!(PublicKey::parse_rpc(&hex), Ok(kp.public));
        assert_eq!(PublicKey::parse_rpc(&hex.to_lowercase()), Ok(kp.public));
        // rippled's strUnHex: "3" + 64 digits is 03 || 32 bytes.
        assert_eq!(PublicKey::parse_rpc(&hex[1..]), Ok(kp.public));
        assert!(PublicKey::parse_rpc("").is_err());
        assert!(PublicKey::parse_rpc(&hex[2..]).is_err());
        assert!(PublicKey::parse_rpc(&kp.account_id().to_address()).is_err());
        assert_eq!(str_unhex("ABC"), Some(vec![0x0A, 0xBC]));
        assert_eq!(str_unhex(""), Some(vec![]));
        assert_eq!(str_unhex("0g"), None);
        assert_eq!(str_unhex("é"), None);
    }

    #[test]
    fn debug_hides_secrets() {
        let kp = KeyPair::from_seed(&genesis_seed(), KeyType::Ed25519).expect("derive");
        let hex_secret = crate::protocol::types::hex_upper(kp.secret().expose_secret());
        let dbg = format!("{kp:?} {:?}", kp.secret());
        assert!(!dbg.contains(&hex_secret));
        assert!(!dbg.to_lowercase().contains(&hex_secret.to_lowercase()));
        assert!(dbg.contains("***"));
    }

    #[test]
    fn from_secret_matches_from_seed() {
        for kt in [KeyType::Secp256k1, KeyType::Ed25519] {
            let kp = KeyPair::from_seed(&genesis_seed(), kt).expect("derive");
            let again = KeyPair::from_secret(kp.secret().clone(), kt).expect("derive");
            assert_eq!(again.public, kp.public);
            assert_eq!(again.sign(b"m"), kp.sign(b"m"));
        }
    }
}
