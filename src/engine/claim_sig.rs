//! Verifying a payment channel claim signature (`CLM\0` || channel || drops), with
//! rippled's rules: secp256k1 signs SHA-512-half of the message and must be fully
//! canonical (DER, low S); ed25519 signs the message itself.

use super::entry::{key_kind, KeyKind};
use crate::protocol::hash::{prefix, sha512_half};
use crate::protocol::types::Hash256;

/// The 44-byte message a claim signs.
pub fn claim_message(channel: &Hash256, drops: u64) -> Vec<u8> {
    let mut m = Vec::with_capacity(44);
    m.extend_from_slice(&prefix::PAYMENT_CHANNEL_CLAIM);
    m.extend_from_slice(&channel.0);
    m.extend_from_slice(&drops.to_be_bytes());
    m
}

/// True when `sig` by `public_key` authorizes `drops` from `channel`.
pub fn verify_claim(public_key: &[u8], channel: &Hash256, drops: u64, sig: &[u8]) -> bool {
    let msg = claim_message(channel, drops);
    match key_kind(public_key) {
        Some(KeyKind::Secp256k1) => {
            use secp256k1::{ecdsa::Signature, Message, PublicKey, SECP256K1};
            let Ok(pk) = PublicKey::from_slice(public_key) else {
                return false;
            };
            let Ok(sig) = Signature::from_der(sig) else {
                return false;
            };
            // Fully canonical: a high-S signature is refused, not normalized.
            let mut low = sig;
            low.normalize_s();
            if low != sig {
                return false;
            }
            let digest = sha512_half(&[&msg]);
            let m = Message::from_digest(digest.0);
            SECP256K1.verify_ecdsa(&m, &sig, &pk).is_ok()
        }
        Some(KeyKind::Ed25519) => {
            use ed25519_dalek::{Signature, Verifier, VerifyingKey};
            let Ok(bytes) = <[u8; 32]>::try_from(&public_key[1..]) else {
                return false;
            };
            let Ok(vk) = VerifyingKey::from_bytes(&bytes) else {
                return false;
            };
            let Ok(sig) = Signature::from_slice(sig) else {
                return false;
            };
            vk.verify(&msg, &sig).is_ok()
        }
        None => false,
    }
}
