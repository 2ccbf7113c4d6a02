//! Every case of `tests/vectors/keys.json` (xrpl-py 5.2.0, cross-checked with xrpl.js):
//! seeds in each form, key pairs of both types, account IDs, addresses, RFC 1751 words,
//! the secp256k1 derivation's intermediates and the validator key.

use crate::support;

use ledgerd::protocol::keys::{secp256k1_derivation, KeyPair, KeyType, PublicKey};
use ledgerd::protocol::seed::{parse_generic_seed, parse_ripple_lib_seed, Seed};
use serde_json::Value;
use support::vectors::{cases, text};

const KEYS_CASES: usize = 54;

#[test]
fn all_key_vectors() {
    let cases = cases("keys");
    assert_eq!(cases.len(), KEYS_CASES);
    let (mut secp, mut ed, mut passphrases) = (0, 0, 0);
    for c in &cases {
        let label = text(c, "label");
        let key_type = KeyType::from_name(text(c, "key_type")).expect("key type");

        // Seed: hex both ways, base58 both ways in the key type's form.
        let seed = Seed::from_hex(text(c, "seed_hex")).expect(label);
        assert_eq!(seed.to_hex(), text(c, "seed_hex"), "{label}");
        assert_eq!(seed.to_base58(key_type), text(c, "seed"), "{label}");
        match key_type {
            KeyType::Secp256k1 => {
                secp += 1;
                assert_eq!(
                    Seed::from_base58(text(c, "seed")).as_ref(),
                    Ok(&seed),
                    "{label}"
                );
                assert_eq!(parse_ripple_lib_seed(text(c, "seed")), None, "{label}");
                assert_eq!(
                    parse_generic_seed(text(c, "seed")),
                    Some(seed.clone()),
                    "{label}"
                );
            }
            KeyType::Ed25519 => {
                ed += 1;
                assert!(Seed::from_base58(text(c, "seed")).is_err(), "{label}");
                assert_eq!(
                    parse_ripple_lib_seed(text(c, "seed")),
                    Some(seed.clone()),
                    "{label}"
                );
            }
        }
        assert_eq!(
            parse_generic_seed(text(c, "seed_hex")),
            Some(seed.clone()),
            "{label}"
        );

        // RFC 1751 words both ways (rippled's reversed-bytes convention = xrpl.js's).
        let words = text(c, "rfc1751_xrpljs");
        assert_eq!(seed.to_rfc1751(), words, "{label}");
        assert_eq!(Seed::from_rfc1751(words).as_ref(), Ok(&seed), "{label}");
        assert_eq!(parse_generic_seed(words), Some(seed.clone()), "{label}");

        // The account key pair.
        let kp = KeyPair::from_seed(&seed, key_type).expect(label);
        assert_eq!(kp.key_type, key_type);
        assert_eq!(kp.public.to_hex(), text(c, "public_key_hex"), "{label}");
        assert_eq!(
            kp.public.to_base58(),
            text(c, "public_key_base58"),
            "{label}"
        );
        assert_eq!(
            hex::encode_upper(kp.secret().expose_secret()),
            text(c, "private_key_hex"),
            "{label}"
        );
        let prefix = match key_type {
            KeyType::Secp256k1 => "00",
            KeyType::Ed25519 => "ED",
        };
        assert_eq!(
            format!("{prefix}{}", text(c, "private_key_hex")),
            text(c, "private_key_hex_xrpl"),
            "{label}"
        );
        assert_eq!(
            kp.account_id().to_hex_for_test(),
            text(c, "account_id_hex"),
            "{label}"
        );
        assert_eq!(
            kp.account_id().to_address(),
            text(c, "classic_address"),
            "{label}"
        );
        assert_eq!(kp.public.key_type(), key_type);

        // Public key parsing both ways.
        let pk = PublicKey::from_hex(text(c, "public_key_hex")).expect(label);
        assert_eq!(pk, kp.public);
        assert_eq!(
            PublicKey::from_base58(text(c, "public_key_base58")),
            Ok(pk),
            "{label}"
        );

        // The secp256k1 derivation's intermediates and the validator key.
        if key_type == KeyType::Secp256k1 {
            let i = &c["secp256k1_intermediate"];
            let d = secp256k1_derivation(&seed).expect(label);
            assert_eq!(
                u64::from(d.root_seq),
                i["root_seq"].as_u64().expect("root_seq")
            );
            assert_eq!(
                u64::from(d.tweak_subseq),
                i["tweak_subseq"].as_u64().expect("tweak_subseq")
            );
            let hx = |k: &ledgerd::protocol::keys::SecretKey| hex::encode_upper(k.expose_secret());
            assert_eq!(
                hx(&d.root_secret),
                text(i, "root_private_key_hex"),
                "{label}"
            );
            assert_eq!(
                d.root_public.to_hex(),
                text(i, "root_public_key_hex"),
                "{label}"
            );
            assert_eq!(hx(&d.tweak), text(i, "tweak_hex"), "{label}");
            assert_eq!(
                hx(&d.account_secret),
                text(i, "account_private_key_hex"),
                "{label}"
            );
            assert_eq!(d.account_public, kp.public);

            let node = KeyPair::node_from_seed(&seed).expect(label);
            assert_eq!(node.public, d.root_public, "{label}");
            assert_eq!(
                node.public.to_node_base58(),
                text(i, "node_public_key_base58"),
                "{label}"
            );
            assert_eq!(
                PublicKey::from_node_base58(text(i, "node_public_key_base58")),
                Ok(node.public)
            );
            assert_eq!(
                hx(node.secret()),
                text(i, "root_private_key_hex"),
                "{label}"
            );
        }

        // Passphrase cases.
        if let Some(p) = c.get("passphrase").and_then(Value::as_str) {
            passphrases += 1;
            assert_eq!(
                hex::encode_upper(p.as_bytes()),
                text(c, "passphrase_utf8_hex")
            );
            assert_eq!(Seed::from_passphrase(p), seed, "{label}");
            assert_eq!(parse_generic_seed(p), Some(seed.clone()), "{label}");
        }
    }
    assert_eq!((secp, ed, passphrases), (27, 27, 14));
}

/// Upper-case hex of an account ID (kept local: the vectors print IDs in hex).
trait HexForTest {
    fn to_hex_for_test(&self) -> String;
}

impl HexForTest for ledgerd::protocol::types::AccountId {
    fn to_hex_for_test(&self) -> String {
        hex::encode_upper(self.as_bytes())
    }
}
