//! Hash functions and rippled's hash prefixes (`HashPrefix.h`).
//!
//! `sha512_half` is the XRP Ledger's workhorse: the first 32 bytes of SHA-512. Every
//! ledger key (keylet), transaction ID and signing digest is one.

use ripemd::Ripemd160;
use sha2::{Digest, Sha256, Sha512};

use super::types::Hash256;

/// The first 32 bytes of SHA-512 over the concatenation of `parts`.
pub fn sha512_half(parts: &[&[u8]]) -> Hash256 {
    let mut h = Sha512::new();
    for p in parts {
        h.update(p);
    }
    let out = h.finalize();
    let mut half = [0u8; 32];
    half.copy_from_slice(&out[..32]);
    Hash256(half)
}

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// RIPEMD160(SHA256(data)): how an account ID (and a node ID) is made from a public key.
pub fn ripemd160_sha256(data: &[u8]) -> [u8; 20] {
    let inner = Sha256::digest(data);
    Ripemd160::digest(inner).into()
}

/// rippled's hash prefixes: three ASCII letters and a zero byte, used big-endian.
pub mod prefix {
    /// Transaction ID: `TXN\0`.
    pub const TRANSACTION_ID: [u8; 4] = *b"TXN\0";
    /// Transaction plus metadata leaf: `SND\0`.
    pub const TX_NODE: [u8; 4] = *b"SND\0";
    /// State tree leaf: `MLN\0`.
    pub const LEAF_NODE: [u8; 4] = *b"MLN\0";
    /// Inner tree node: `MIN\0`.
    pub const INNER_NODE: [u8; 4] = *b"MIN\0";
    /// Ledger header: `LWR\0`.
    pub const LEDGER_MASTER: [u8; 4] = *b"LWR\0";
    /// Single-signature signing data: `STX\0`.
    pub const TX_SIGN: [u8; 4] = *b"STX\0";
    /// Multi-signature signing data: `SMT\0`.
    pub const TX_MULTI_SIGN: [u8; 4] = *b"SMT\0";
    /// A LoanSet counterparty's single signature under fixCleanup3_4_0: `CPT\0`.
    pub const COUNTERPARTY_SIGN: [u8; 4] = *b"CPT\0";
    /// A LoanSet counterparty's multi-signature under fixCleanup3_4_0: `CPM\0`.
    pub const COUNTERPARTY_MULTI_SIGN: [u8; 4] = *b"CPM\0";
    /// A sponsor's single co-signature in the fixCleanup3_4_0 form: `SPN\0`.
    pub const SPONSOR_SIGN: [u8; 4] = *b"SPN\0";
    /// A sponsor's multi-signature in the fixCleanup3_4_0 form: `SPM\0`.
    pub const SPONSOR_MULTI_SIGN: [u8; 4] = *b"SPM\0";
    /// Payment channel claim: `CLM\0`.
    pub const PAYMENT_CHANNEL_CLAIM: [u8; 4] = *b"CLM\0";
    /// What a Batch's signers sign.
    pub const BATCH: [u8; 4] = *b"BCH\0";
    /// What a validator signs in a validation: `VAL\0`.
    pub const VALIDATION: [u8; 4] = *b"VAL\0";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha512_half_of_parts_equals_whole() {
        assert_eq!(sha512_half(&[b"ab", b"c"]), sha512_half(&[b"abc"]));
    }

    #[test]
    fn genesis_account_id() {
        let pk = hex::decode("0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020")
            .unwrap();
        assert_eq!(
            crate::protocol::types::hex_upper(ripemd160_sha256(&pk)),
            "B5F762798A53D543A014CAF8B297CFF8F2F937E8"
        );
    }
}
