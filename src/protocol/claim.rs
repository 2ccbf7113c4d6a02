//! Payment channel claims (rippled's `PayChan.h` `serializePayChanAuthorization`, the
//! `channel_authorize` / `channel_verify` handlers and PaymentChannelClaim's check).
//!
//! The signed message is 44 bytes: `CLM\0` || channel ID (32) || drops as a big-endian u64.

use super::hash::prefix;
use super::keys::{KeyPair, PublicKey};
use super::sign::verify;
use super::types::Hash256;

/// Length of the claim message.
pub const CLAIM_MESSAGE_BYTES: usize = 44;

/// The bytes a claim signs: `CLM\0` || `channel_id` || u64be(`drops`).
pub fn claim_message(channel_id: &Hash256, drops: u64) -> [u8; CLAIM_MESSAGE_BYTES] {
    let mut m = [0u8; CLAIM_MESSAGE_BYTES];
    m[..4].copy_from_slice(&prefix::PAYMENT_CHANNEL_CLAIM);
    m[4..36].copy_from_slice(channel_id.as_bytes());
    m[36..].copy_from_slice(&drops.to_be_bytes());
    m
}

/// Signs a claim for `drops` on `channel_id` (`channel_authorize`). Any u64 is signed, as
/// rippled does; the XRP limit is not this function's business.
pub fn sign_claim(kp: &KeyPair, channel_id: &Hash256, drops: u64) -> Vec<u8> {
    kp.sign(&claim_message(channel_id, drops))
}

/// Checks a claim signature, requiring a fully canonical (low-S) secp256k1 signature, as
/// `channel_verify` and PaymentChannelClaim do.
pub fn verify_claim(
    public: &PublicKey,
    channel_id: &Hash256,
    drops: u64,
    signature: &[u8],
) -> bool {
    verify(public, &claim_message(channel_id, drops), signature, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::keys::KeyType;
    use crate::protocol::seed::Seed;

    #[test]
    fn message_layout() {
        let id = Hash256([0x11; 32]);
        let m = claim_message(&id, 0x0102_0304_0506_0708);
        assert_eq!(&m[..4], b"CLM\0");
        assert_eq!(&m[4..36], &[0x11; 32]);
        assert_eq!(&m[36..], &[1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn sign_and_verify_both_types() {
        let id = Hash256([0x22; 32]);
        for kt in [KeyType::Secp256k1, KeyType::Ed25519] {
            let kp = KeyPair::from_seed(&Seed::from_passphrase("claims"), kt).expect("derive");
            let sig = sign_claim(&kp, &id, u64::MAX);
            assert!(verify_claim(&kp.public, &id, u64::MAX, &sig));
            assert!(!verify_claim(&kp.public, &id, u64::MAX - 1, &sig));
            assert!(!verify_claim(
                &kp.public,
                &Hash256([0x23; 32]),
                u64::MAX,
                &sig
            ));
        }
    }
}
