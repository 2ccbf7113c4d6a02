//! Validations (rippled `STValidation`): a validator's signed statement that it built a
//! ledger. The object's fields are those of rippled's validation format (`sfLedgerHash`,
//! `sfLedgerSequence`, `sfSigningTime`, `sfSigningPubKey`, `sfSignature`, `sfCookie`, ...);
//! the signature is secp256k1 ECDSA over SHA512Half(`VAL\0` || the fields that are signed),
//! fully canonical, and `Flags` carries `vfFullyCanonicalSig` to say so.

use super::codec::encode_for_signing;
use super::definitions::Field;
use super::hash::{prefix, sha512_half};
use super::keys::{KeyPair, KeyType, PublicKey};
use super::sign::verify_digest;
use super::st::{StObject, StValue};
use super::types::Hash256;

/// `vfFullValidation`: the validator proposed in the round (a full validation).
pub const VF_FULL_VALIDATION: u32 = 0x0000_0001;
/// `vfFullyCanonicalSig`: the signature is fully canonical (low S).
pub const VF_FULLY_CANONICAL_SIG: u32 = 0x8000_0000;

/// rippled's implementation id in an encoded server version (`0x183B`, bits 63..48).
const IMPLEMENTATION_ID: u64 = 0x183B;

/// Why a validation could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// Validations are signed with secp256k1 keys only.
    #[error("validations are signed with secp256k1 keys only")]
    KeyType,
    /// A field rippled's format requires is missing.
    #[error("a validation needs {0}")]
    Missing(&'static str),
    /// Signing failed.
    #[error("the validation could not be signed")]
    Signing,
}

/// The digest a validation's signature covers: SHA512Half(`VAL\0` || its fields without
/// `Signature`), rippled's `STValidation::getSigningHash`.
pub fn signing_hash(v: &StObject) -> Hash256 {
    sha512_half(&[&prefix::VALIDATION, &encode_for_signing(v)])
}

/// Makes a validation as rippled's signing `STValidation` constructor does: the signer's
/// public key and `signing_time` (seconds since the XRPL epoch), then whatever `fill`
/// sets, then `vfFullyCanonicalSig` added to `Flags` and the signature. `fill` must set
/// `LedgerHash` and `LedgerSequence`.
pub fn sign(
    keys: &KeyPair,
    signing_time: u32,
    fill: impl FnOnce(&mut StObject),
) -> Result<StObject, ValidationError> {
    if keys.key_type != KeyType::Secp256k1 {
        return Err(ValidationError::KeyType);
    }
    let mut v = StObject::new();
    v.set_named(
        "SigningPubKey",
        StValue::Blob(keys.public.as_bytes().to_vec()),
    );
    v.set_named("SigningTime", StValue::UInt32(signing_time));
    fill(&mut v);
    let flags = v.get_u32("Flags").unwrap_or(0) | VF_FULLY_CANONICAL_SIG;
    v.set_named("Flags", StValue::UInt32(flags));
    for required in ["LedgerHash", "LedgerSequence"] {
        if !v.has(required) {
            return Err(ValidationError::Missing(required));
        }
    }
    let digest = signing_hash(&v);
    let sig = keys
        .sign_digest(digest.as_bytes())
        .filter(|s| !s.is_empty())
        .ok_or(ValidationError::Signing)?;
    v.set(Field::named("Signature"), StValue::Blob(sig));
    Ok(v)
}

/// True when `v`'s signature verifies with its `SigningPubKey` (rippled
/// `STValidation::isValid`: a secp256k1 key, fully canonical when the flag says so).
pub fn is_valid(v: &StObject) -> bool {
    let (Some(key), Some(sig)) = (v.get_blob("SigningPubKey"), v.get_blob("Signature")) else {
        return false;
    };
    let Ok(public) = PublicKey::from_slice(key) else {
        return false;
    };
    if public.key_type() != KeyType::Secp256k1 {
        return false;
    }
    let canonical = v.get_u32("Flags").unwrap_or(0) & VF_FULLY_CANONICAL_SIG != 0;
    verify_digest(&public, signing_hash(v).as_bytes(), sig, canonical)
}

/// rippled's `BuildInfo::encodeSoftwareVersion` of a version `MAJOR.MINOR.PATCH[-rcN|-bN]`
/// (build metadata after `+` ignored): the implementation id in bits 63..48, the three
/// numbers in bits 47..24, then `0xC0` for a release, `0x80 | N` for rc N, `0x40 | N` for
/// beta N in bits 23..16. A version that does not parse encodes as the id alone.
pub fn encoded_version(version: &str) -> u64 {
    let id = IMPLEMENTATION_ID << 48;
    let core = version.split('+').next().unwrap_or("");
    let (numbers, pre) = match core.split_once('-') {
        Some((n, p)) => (n, Some(p)),
        None => (core, None),
    };
    let parts: Vec<Option<u8>> = numbers.split('.').map(|p| p.parse().ok()).collect();
    let [Some(major), Some(minor), Some(patch)] = parts[..] else {
        return id;
    };
    let mut c = id | u64::from(major) << 40 | u64::from(minor) << 32 | u64::from(patch) << 24;
    c |= match pre {
        None => 0xC0 << 16,
        Some(p) => u64::from(pre_release(p)) << 16,
    };
    c
}

/// The byte of a pre-release identifier list: the first `rcN` (0x80 | N) or `bN`
/// (0x40 | N), N at most 63; 0 when there is none.
fn pre_release(ids: &str) -> u8 {
    for id in ids.split('.') {
        for (tag, key) in [("rc", 0x80u8), ("b", 0x40u8)] {
            if let Some(n) = id.strip_prefix(tag).and_then(|n| n.parse::<u8>().ok()) {
                if n <= 63 {
                    return key | n;
                }
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::codec::{decode, encode};
    use crate::protocol::seed::Seed;

    fn keys() -> KeyPair {
        KeyPair::node_from_seed(&Seed::from_passphrase("masterpassphrase")).unwrap()
    }

    fn validation() -> StObject {
        sign(&keys(), 800_000_000, |v| {
            v.set_named("LedgerHash", StValue::Hash256(Hash256([7; 32])));
            v.set_named("LedgerSequence", StValue::UInt32(42));
            v.set_named("Flags", StValue::UInt32(VF_FULL_VALIDATION));
            v.set_named("Cookie", StValue::UInt64(99));
        })
        .unwrap()
    }

    /// A signed validation verifies, survives its binary form, and stops verifying when
    /// a signed field changes.
    #[test]
    fn signs_and_verifies_through_the_binary_form() {
        let v = validation();
        assert_eq!(
            v.get_u32("Flags"),
            Some(VF_FULL_VALIDATION | VF_FULLY_CANONICAL_SIG)
        );
        assert!(is_valid(&v));
        let back = decode(&encode(&v)).unwrap();
        assert_eq!(back, v);
        assert!(is_valid(&back));
        let mut forged = back.clone();
        forged.set_named("LedgerSequence", StValue::UInt32(43));
        assert!(!is_valid(&forged));
        // The signature is not part of what is signed.
        let mut unsigned = v.clone();
        unsigned.remove(Field::named("Signature"));
        assert_eq!(signing_hash(&unsigned), signing_hash(&v));
    }

    #[test]
    fn needs_a_ledger_and_a_secp256k1_key() {
        let missing = sign(&keys(), 1, |v| {
            v.set_named("LedgerSequence", StValue::UInt32(1));
        });
        assert_eq!(missing, Err(ValidationError::Missing("LedgerHash")));
        let ed = KeyPair::from_seed(&Seed::from_passphrase("x"), KeyType::Ed25519).unwrap();
        assert_eq!(sign(&ed, 1, |_| {}), Err(ValidationError::KeyType));
    }

    /// A release, build metadata, rc and beta identifiers, an out-of-range beta, junk.
    #[test]
    fn encodes_versions_as_rippled() {
        let id = 0x183Bu64 << 48;
        assert_eq!(
            encoded_version("3.4.1"),
            id | 3 << 40 | 4 << 32 | 1 << 24 | 0xC0_0000
        );
        assert_eq!(
            encoded_version("3.4.1+ledgerd.0.3.0"),
            encoded_version("3.4.1")
        );
        assert_eq!(
            encoded_version("1.2.3-rc7"),
            id | 1 << 40 | 2 << 32 | 3 << 24 | (0x80 | 7) << 16
        );
        assert_eq!(
            encoded_version("1.2.3-b63"),
            id | 1 << 40 | 2 << 32 | 3 << 24 | (0x40 | 63) << 16
        );
        assert_eq!(
            encoded_version("1.2.3-b64"),
            id | 1 << 40 | 2 << 32 | 3 << 24
        );
        assert_eq!(encoded_version("junk"), id);
    }
}
