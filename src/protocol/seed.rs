//! Seeds: 16 secret bytes from which key pairs are derived (rippled's `Seed.cpp`,
//! `RPCHelpers.cpp` `parseRippleLibSeed`).
//!
//! A seed can be written as a base58 family seed (`s...`, version 0x21; rippled's only
//! seed token), ripple-lib's ed25519 form (`sEd...`), 32 hex digits, twelve RFC 1751 words
//! (bytes reversed, as rippled shows them), or derived from a passphrase.
//! [`parse_generic_seed`] is rippled's `parseGenericSeed`, the parser behind `secret`.

use std::fmt;

use rand::RngCore;
use zeroize::Zeroizing;

use super::base58::{self, version};
use super::hash::sha512_half;
use super::keys::{public_key_type, KeyType};
use super::rfc1751;
use super::secret::{SecretBytes, REDACTED};

/// Bytes in a seed.
pub const SEED_BYTES: usize = 16;

/// Why a seed did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// Not exactly 32 hex digits.
    #[error("invalid seed hex")]
    Hex,
    /// Not a base58 family seed (`s...`, version 0x21, 16 bytes).
    #[error("invalid base58 seed: {0}")]
    Base58(#[from] base58::Base58Error),
    /// Not twelve RFC 1751 words with good parity.
    #[error("invalid RFC 1751 phrase: {0}")]
    Rfc1751(#[from] rfc1751::Rfc1751Error),
}

/// A 16-byte seed. Zeroized on drop; `Debug` prints `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed(SecretBytes<SEED_BYTES>);

impl Seed {
    /// A seed from its 16 bytes.
    pub fn from_bytes(bytes: [u8; SEED_BYTES]) -> Seed {
        Seed(SecretBytes::new(bytes))
    }

    /// A fresh seed from the operating system's CSPRNG (rippled's `randomSeed`).
    pub fn random() -> Seed {
        let mut s = SecretBytes::new([0u8; SEED_BYTES]);
        rand::rngs::OsRng.fill_bytes(s.expose_secret_mut());
        Seed(s)
    }

    /// Parses a family seed, `s...` (version 0x21, 16 bytes). Strict: ripple-lib's `sEd...`
    /// form is not accepted here (see [`parse_ripple_lib_seed`]).
    pub fn from_base58(s: &str) -> Result<Seed, SeedError> {
        let payload = Zeroizing::new(base58::decode(s, version::FAMILY_SEED, SEED_BYTES)?);
        Ok(Seed::from_payload(&payload))
    }

    /// The seed as a base58 token: `s...` (version 0x21) for secp256k1, or ripple-lib's
    /// `sEd...` for ed25519. Note that rippled itself writes every seed as `s...` whatever
    /// the key type (`wallet_propose`'s `master_seed`), so a server mimicking rippled calls
    /// this with [`KeyType::Secp256k1`].
    pub fn to_base58(&self, key_type: KeyType) -> String {
        let v = match key_type {
            KeyType::Secp256k1 => version::FAMILY_SEED,
            KeyType::Ed25519 => version::ED25519_SEED,
        };
        base58::encode(v, self.as_bytes())
    }

    /// Parses exactly 32 hex digits, either case (rippled's `uint128::parseHex`).
    pub fn from_hex(s: &str) -> Result<Seed, SeedError> {
        if s.len() != SEED_BYTES * 2 {
            return Err(SeedError::Hex);
        }
        let mut out = SecretBytes::new([0u8; SEED_BYTES]);
        hex::decode_to_slice(s, out.expose_secret_mut()).map_err(|_| SeedError::Hex)?;
        Ok(Seed(out))
    }

    /// 32 upper-case hex digits (`master_seed_hex` in `wallet_propose`).
    pub fn to_hex(&self) -> String {
        crate::protocol::types::hex_upper(self.as_bytes())
    }

    /// rippled's `generateSeed`: the first 16 bytes of SHA512Half(passphrase bytes).
    pub fn from_passphrase(passphrase: &str) -> Seed {
        let mut digest = sha512_half(&[passphrase.as_bytes()]).0;
        let seed = Seed::from_payload(&digest[..SEED_BYTES]);
        zeroize::Zeroize::zeroize(&mut digest);
        seed
    }

    /// Reads twelve RFC 1751 words; the key they spell is the seed's bytes reversed
    /// (rippled's `parseGenericSeed` step 5).
    pub fn from_rfc1751(words: &str) -> Result<Seed, SeedError> {
        let mut key = Zeroizing::new(rfc1751::words_to_key(words)?);
        key.reverse();
        Ok(Seed::from_payload(&key[..]))
    }

    /// The seed as twelve RFC 1751 words, bytes reversed (rippled's `seedAs1751`,
    /// `master_key` in `wallet_propose`).
    pub fn to_rfc1751(&self) -> String {
        let mut key = Zeroizing::new(*self.as_bytes());
        key.reverse();
        rfc1751::key_to_words(&key)
    }

    /// The 16 bytes.
    pub fn as_bytes(&self) -> &[u8; SEED_BYTES] {
        self.0.expose_secret()
    }

    /// Copies exactly 16 bytes (callers guarantee the length).
    fn from_payload(payload: &[u8]) -> Seed {
        let mut s = SecretBytes::new([0u8; SEED_BYTES]);
        let n = payload.len().min(SEED_BYTES);
        s.expose_secret_mut()[..n].copy_from_slice(&payload[..n]);
        Seed(s)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

/// True if `s` decodes as one of the tokens that must never be taken for a seed or
/// passphrase: an account ID, a node or account public key (33 bytes with a valid type
/// byte), a node or account secret key (32 bytes).
fn is_non_seed_token(s: &str) -> bool {
    let decodes = |v: &[u8], len: usize| base58::decode(s, v, len).ok();
    if decodes(version::ACCOUNT_ID, 20).is_some() {
        return true;
    }
    for v in [version::NODE_PUBLIC, version::ACCOUNT_PUBLIC] {
        if decodes(v, 33).is_some_and(|pk| public_key_type(&pk).is_some()) {
            return true;
        }
    }
    for v in [version::NODE_PRIVATE, version::ACCOUNT_SECRET] {
        if let Some(sk) = decodes(v, 32) {
            drop(Zeroizing::new(sk));
            return true;
        }
    }
    false
}

/// rippled's `parseGenericSeed(s, rfc1751 = true)`, in its order:
/// 1. empty: `None`;
/// 2. an address, node/account public key or node/account secret key token: `None`;
/// 3. exactly 32 hex digits: those bytes;
/// 4. a family seed `s...`;
/// 5. twelve RFC 1751 words (bytes reversed);
/// 6. anything else is a passphrase.
///
/// ripple-lib's `sEd...` seeds are not recognised here (they become passphrases); callers
/// try [`parse_ripple_lib_seed`] first, as rippled's `keypairForSignature` does.
pub fn parse_generic_seed(s: &str) -> Option<Seed> {
    if s.is_empty() || is_non_seed_token(s) {
        return None;
    }
    if let Ok(seed) = Seed::from_hex(s) {
        return Some(seed);
    }
    if let Ok(seed) = Seed::from_base58(s) {
        return Some(seed);
    }
    if let Ok(seed) = Seed::from_rfc1751(s) {
        return Some(seed);
    }
    Some(Seed::from_passphrase(s))
}

/// rippled's `parseRippleLibSeed`: an `sEd...` token (base58 with version 0x01 whose
/// payload is `E1 4B` and 16 seed bytes). Such a seed is for an ed25519 key.
pub fn parse_ripple_lib_seed(s: &str) -> Option<Seed> {
    let payload = Zeroizing::new(base58::decode(s, version::ED25519_SEED, SEED_BYTES).ok()?);
    Some(Seed::from_payload(&payload))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::keys::KeyPair;

    const GENESIS_HEX: &str = "DEDCE9CE67B451D852FD4E846FCDE31C";
    const GENESIS_B58: &str = "snoPBrXtMeMyMHUVTgbuqAfg1SUTb";
    const GENESIS_WORDS: &str = "I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE";

    #[test]
    fn genesis_forms() {
        let seed = Seed::from_passphrase("masterpassphrase");
        assert_eq!(seed.to_hex(), GENESIS_HEX);
        assert_eq!(seed.to_base58(KeyType::Secp256k1), GENESIS_B58);
        assert_eq!(seed.to_rfc1751(), GENESIS_WORDS);
        assert_eq!(Seed::from_rfc1751(GENESIS_WORDS), Ok(seed.clone()));
        assert_eq!(Seed::from_base58(GENESIS_B58), Ok(seed.clone()));
        assert_eq!(Seed::from_hex(GENESIS_HEX), Ok(seed.clone()));
        assert_eq!(Seed::from_hex(&GENESIS_HEX.to_lowercase()), Ok(seed));
    }

    #[test]
    fn generic_seed_rejects_addresses_and_keys() {
        let seed = Seed::from_passphrase("masterpassphrase");
        let kp = KeyPair::from_seed(&seed, KeyType::Secp256k1).expect("derive");
        let node = KeyPair::node_from_seed(&seed).expect("derive");
        assert_eq!(parse_generic_seed(&kp.account_id().to_address()), None);
        assert_eq!(parse_generic_seed(&kp.public.to_base58()), None);
        assert_eq!(parse_generic_seed(&node.public.to_node_base58()), None);
        let ed = KeyPair::from_seed(&seed, KeyType::Ed25519).expect("derive");
        assert_eq!(parse_generic_seed(&ed.public.to_base58()), None);
        // Secret key tokens (p...) are refused too.
        let node_private = base58::encode(version::NODE_PRIVATE, &[9u8; 32]);
        let account_secret = base58::encode(version::ACCOUNT_SECRET, &[9u8; 32]);
        assert_eq!(parse_generic_seed(&node_private), None);
        assert_eq!(parse_generic_seed(&account_secret), None);
        assert_eq!(parse_generic_seed(""), None);
    }

    #[test]
    fn generic_seed_accepts_each_form() {
        let seed = Seed::from_passphrase("masterpassphrase");
        assert_eq!(parse_generic_seed(GENESIS_HEX), Some(seed.clone()));
        assert_eq!(parse_generic_seed(GENESIS_B58), Some(seed.clone()));
        assert_eq!(parse_generic_seed(GENESIS_WORDS), Some(seed.clone()));
        assert_eq!(
            parse_generic_seed(&GENESIS_WORDS.to_lowercase()),
            Some(seed.clone())
        );
        assert_eq!(parse_generic_seed("masterpassphrase"), Some(seed));
        // A random string is a passphrase.
        let s = "correct horse battery staple";
        assert_eq!(parse_generic_seed(s), Some(Seed::from_passphrase(s)));
        // 31 or 33 hex digits are not hex seeds: passphrases.
        let short = &GENESIS_HEX[..31];
        assert_eq!(
            parse_generic_seed(short),
            Some(Seed::from_passphrase(short))
        );
        // Hex comes before base58 and words: 32 hex digits are always a hex seed.
        let all_a = "A".repeat(32);
        assert_eq!(
            parse_generic_seed(&all_a),
            Some(Seed::from_bytes([0xAA; 16]))
        );
    }

    #[test]
    fn ripple_lib_seed() {
        let seed = Seed::from_bytes([0x42; 16]);
        let sed = seed.to_base58(KeyType::Ed25519);
        assert!(sed.starts_with("sEd"), "{sed}");
        assert_eq!(parse_ripple_lib_seed(&sed), Some(seed.clone()));
        assert!(Seed::from_base58(&sed).is_err());
        // parse_generic_seed on its own takes it for a passphrase.
        assert_eq!(parse_generic_seed(&sed), Some(Seed::from_passphrase(&sed)));
        // And a family seed is not a ripple-lib seed.
        assert_eq!(parse_ripple_lib_seed(GENESIS_B58), None);
        assert_eq!(parse_ripple_lib_seed(""), None);
    }

    #[test]
    fn strictness() {
        assert_eq!(Seed::from_hex("00"), Err(SeedError::Hex));
        assert_eq!(Seed::from_hex(&"G".repeat(32)), Err(SeedError::Hex));
        assert_eq!(Seed::from_hex(&"é".repeat(16)), Err(SeedError::Hex));
        assert!(Seed::from_base58("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh").is_err());
        assert!(Seed::from_rfc1751("A A A").is_err());
    }

    #[test]
    fn debug_hides_seed() {
        let seed = Seed::from_passphrase("masterpassphrase");
        let dbg = format!("{seed:?}");
        assert_eq!(dbg, "***");
    }

    #[test]
    fn random_seeds_differ() {
        assert_ne!(Seed::random(), Seed::random());
    }
}
