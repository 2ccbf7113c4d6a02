//! Properties of the crypto core over random inputs: signatures verify and break when any
//! byte changes, secrets never show in `Debug`, and no parser or verifier panics on
//! arbitrary input.

use ledgerd::protocol::claim::{sign_claim, verify_claim};
use ledgerd::protocol::keys::{str_unhex, KeyPair, KeyType, PublicKey};
use ledgerd::protocol::rfc1751;
use ledgerd::protocol::seed::{parse_generic_seed, parse_ripple_lib_seed, Seed};
use ledgerd::protocol::sign::{ecdsa_canonicality, verify, verify_digest};
use ledgerd::protocol::types::Hash256;
use proptest::prelude::*;

fn key_type() -> impl Strategy<Value = KeyType> {
    prop_oneof![Just(KeyType::Secp256k1), Just(KeyType::Ed25519)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sign_verify_and_tamper(
        seed in any::<[u8; 16]>(),
        kt in key_type(),
        msg in proptest::collection::vec(any::<u8>(), 0..200),
        pos in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let kp = KeyPair::from_seed(&Seed::from_bytes(seed), kt).expect("derive");
        let sig = kp.sign(&msg);
        prop_assert!(verify(&kp.public, &msg, &sig, true));
        prop_assert!(verify(&kp.public, &msg, &sig, false));
        let mut bad = sig.clone();
        let i = pos.index(bad.len());
        bad[i] ^= flip;
        prop_assert!(!verify(&kp.public, &msg, &bad, false));
        prop_assert!(!verify(&kp.public, &msg, &bad, true));
        if !msg.is_empty() {
            let mut other = msg.clone();
            let j = pos.index(other.len());
            other[j] ^= flip;
            prop_assert!(!verify(&kp.public, &other, &sig, false));
        }
    }

    #[test]
    fn claims_round_trip(seed in any::<[u8; 16]>(), kt in key_type(), id in any::<[u8; 32]>(), drops in any::<u64>()) {
        let kp = KeyPair::from_seed(&Seed::from_bytes(seed), kt).expect("derive");
        let sig = sign_claim(&kp, &Hash256(id), drops);
        prop_assert!(verify_claim(&kp.public, &Hash256(id), drops, &sig));
        prop_assert!(!verify_claim(&kp.public, &Hash256(id), drops ^ 1, &sig));
    }

    #[test]
    fn debug_never_shows_secrets(seed_bytes in any::<[u8; 16]>(), kt in key_type()) {
        let seed = Seed::from_bytes(seed_bytes);
        let kp = KeyPair::from_seed(&seed, kt).expect("derive");
        let printed = format!("{seed:?} {kp:?} {:?} {:#?}", kp.secret(), kp);
        let lower = printed.to_lowercase();
        let forbidden = [
            hex::encode(seed_bytes),
            hex::encode(kp.secret().expose_secret()),
            seed.to_base58(KeyType::Secp256k1).to_lowercase(),
            seed.to_base58(KeyType::Ed25519).to_lowercase(),
            seed.to_rfc1751().to_lowercase(),
        ];
        for f in forbidden {
            prop_assert!(!lower.contains(&f), "{printed} contains {f}");
        }
    }

    #[test]
    fn seed_forms_round_trip(seed_bytes in any::<[u8; 16]>()) {
        let seed = Seed::from_bytes(seed_bytes);
        prop_assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed.clone()));
        prop_assert_eq!(Seed::from_base58(&seed.to_base58(KeyType::Secp256k1)), Ok(seed.clone()));
        prop_assert_eq!(parse_ripple_lib_seed(&seed.to_base58(KeyType::Ed25519)), Some(seed.clone()));
        prop_assert_eq!(parse_generic_seed(&seed.to_base58(KeyType::Secp256k1)), Some(seed.clone()));
        prop_assert_eq!(parse_generic_seed(&seed.to_hex()), Some(seed.clone()));
        let words = seed.to_rfc1751();
        // rippled cannot read the word YOU back (see rfc1751's module doc).
        if !words.split(' ').any(|w| w == "YOU") {
            prop_assert_eq!(Seed::from_rfc1751(&words), Ok(seed.clone()));
            prop_assert_eq!(parse_generic_seed(&words), Some(seed));
        }
    }

    #[test]
    fn parsers_never_panic(s in ".{0,80}") {
        let _ = parse_generic_seed(&s);
        let _ = parse_ripple_lib_seed(&s);
        let _ = Seed::from_base58(&s);
        let _ = Seed::from_hex(&s);
        let _ = Seed::from_rfc1751(&s);
        let _ = rfc1751::words_to_key(&s);
        let _ = PublicKey::from_hex(&s);
        let _ = PublicKey::from_base58(&s);
        let _ = PublicKey::parse_rpc(&s);
        let _ = str_unhex(&s);
        let _ = KeyType::from_name(&s);
        // Non-empty text always yields a seed or is rejected as a non-seed token; never panics.
        if !s.is_empty() && parse_generic_seed(&s).is_none() {
            prop_assert!(s.chars().all(|c| c.is_ascii_alphanumeric()));
        }
    }

    #[test]
    fn base58_like_strings_never_panic(s in "[rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]{0,60}") {
        let _ = parse_generic_seed(&s);
        let _ = parse_ripple_lib_seed(&s);
        let _ = Seed::from_base58(&s);
        let _ = PublicKey::from_base58(&s);
        let _ = PublicKey::parse_rpc(&s);
    }

    #[test]
    fn word_salad_never_panics(idx in proptest::collection::vec(0usize..2048, 0..14), lower in any::<bool>()) {
        let mut s = idx.iter().map(|i| rfc1751::WORDS[*i]).collect::<Vec<_>>().join(" ");
        if lower {
            s = s.to_lowercase();
        }
        let _ = rfc1751::words_to_key(&s);
        let _ = parse_generic_seed(&s);
    }

    #[test]
    fn verify_arbitrary_bytes_never_panics(
        key in proptest::collection::vec(any::<u8>(), 0..40),
        first in prop_oneof![Just(0x02u8), Just(0x03u8), Just(0xEDu8), any::<u8>()],
        msg in proptest::collection::vec(any::<u8>(), 0..64),
        sig in proptest::collection::vec(any::<u8>(), 0..80),
        digest in any::<[u8; 32]>(),
        strict in any::<bool>(),
    ) {
        let _ = PublicKey::from_slice(&key);
        let _ = ecdsa_canonicality(&sig);
        let mut k33 = [0u8; 33];
        for (d, s) in k33.iter_mut().zip(key.iter()) {
            *d = *s;
        }
        k33[0] = first;
        let _ = PublicKey::from_slice(&k33);
        if let Ok(pk) = PublicKey::from_slice_lenient(&k33) {
            // Random bytes are (overwhelmingly) not a valid signature.
            prop_assert!(!verify(&pk, &msg, &sig, strict));
            prop_assert!(!verify_digest(&pk, &digest, &sig, strict));
        }
    }

    #[test]
    fn der_shaped_garbage_never_verifies(
        seed in any::<[u8; 16]>(),
        r in proptest::collection::vec(any::<u8>(), 0..35),
        s in proptest::collection::vec(any::<u8>(), 0..35),
        lr in any::<u8>(),
        ls in any::<u8>(),
    ) {
        // Well-framed DER with arbitrary integer bytes and length fields.
        let mut sig = vec![0x30, 0, 0x02, lr];
        sig.extend(&r);
        sig.push(0x02);
        sig.push(ls);
        sig.extend(&s);
        let total = sig.len().saturating_sub(2).min(255) as u8;
        sig[1] = total;
        let kp = KeyPair::from_seed(&Seed::from_bytes(seed), KeyType::Secp256k1).expect("derive");
        let _ = ecdsa_canonicality(&sig);
        prop_assert!(!verify(&kp.public, b"m", &sig, false));
    }
}
