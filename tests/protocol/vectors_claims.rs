//! Every case of `tests/vectors/claims.json`: the 44-byte message, a signature equal byte
//! for byte to xrpl-py's and xrpl.js's for both key types, and verification that fails when
//! any one byte of the signature, the amount or the channel changes.

use crate::support;

use ledgerd::protocol::claim::{claim_message, sign_claim, verify_claim};
use ledgerd::protocol::hash::sha512_half;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::{parse_ripple_lib_seed, Seed};
use ledgerd::protocol::types::Hash256;
use serde_json::Value;
use support::vectors::{cases, text};

const CLAIM_CASES: usize = 35;

fn seed_of(c: &Value, key_type: KeyType) -> Seed {
    let written = text(c, "signer_seed");
    let seed = match key_type {
        KeyType::Ed25519 if written.starts_with("sEd") => {
            parse_ripple_lib_seed(written).expect("sEd seed")
        }
        _ => Seed::from_base58(written).expect("family seed"),
    };
    if let Some(p) = c["signer_passphrase"].as_str() {
        assert_eq!(Seed::from_passphrase(p), seed);
    }
    seed
}

#[test]
fn all_claim_vectors() {
    let cases = cases("claims");
    assert_eq!(cases.len(), CLAIM_CASES);
    let mut per_type = [0usize; 2];
    for (n, c) in cases.iter().enumerate() {
        let key_type = KeyType::from_name(text(c, "key_type")).expect("key type");
        per_type[key_type as usize] += 1;
        let channel = Hash256::from_hex(text(c, "channel_id")).expect("channel id");
        let drops: u64 = text(c, "amount_drops").parse().expect("drops");
        let kp = KeyPair::from_seed(&seed_of(c, key_type), key_type).expect("derive");
        assert_eq!(kp.public.to_hex(), text(c, "public_key_hex"), "case {n}");
        assert_eq!(
            hex::encode_upper(kp.secret().expose_secret()),
            text(c, "private_key_hex"),
            "case {n}"
        );

        let msg = claim_message(&channel, drops);
        assert_eq!(hex::encode_upper(msg), text(c, "message_hex"), "case {n}");
        if let Some(h) = c["message_sha512half_hex"].as_str() {
            assert_eq!(sha512_half(&[&msg]).to_hex(), h, "case {n}");
        }

        let sig = sign_claim(&kp, &channel, drops);
        assert_eq!(
            hex::encode_upper(&sig),
            text(c, "signature_hex"),
            "case {n}"
        );
        assert_eq!(sign_claim(&kp, &channel, drops), sig, "deterministic");
        assert!(verify_claim(&kp.public, &channel, drops, &sig), "case {n}");

        // Any one byte of the signature changed.
        for i in 0..sig.len() {
            let mut bad = sig.clone();
            bad[i] ^= 0x01;
            assert!(
                !verify_claim(&kp.public, &channel, drops, &bad),
                "case {n} byte {i}"
            );
            bad[i] ^= 0x81;
            assert!(
                !verify_claim(&kp.public, &channel, drops, &bad),
                "case {n} byte {i}"
            );
        }
        // The amount changed (either way, and a single high bit).
        for other in [
            drops.wrapping_add(1),
            drops.wrapping_sub(1),
            drops ^ (1 << 63),
        ] {
            assert!(!verify_claim(&kp.public, &channel, other, &sig), "case {n}");
        }
        // Any one byte of the channel changed.
        for i in 0..32 {
            let mut ch = channel;
            ch.0[i] ^= 0x01;
            assert!(
                !verify_claim(&kp.public, &ch, drops, &sig),
                "case {n} channel {i}"
            );
        }
        // Another signer's key.
        let other =
            KeyPair::from_seed(&Seed::from_passphrase("someone else"), key_type).expect("derive");
        assert!(
            !verify_claim(&other.public, &channel, drops, &sig),
            "case {n}"
        );
    }
    assert_eq!(
        per_type[KeyType::Secp256k1 as usize] + per_type[KeyType::Ed25519 as usize],
        35
    );
    assert!(per_type.iter().all(|n| *n > 10), "{per_type:?}");
}
