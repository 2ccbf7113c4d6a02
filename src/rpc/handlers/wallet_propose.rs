//! `wallet_propose` (rippled `WalletPropose.cpp`, rpc.md §3.15): a key pair from a random
//! seed, or from `passphrase` / `seed` / `seed_hex`, with every encoding of it.

use crate::protocol::keys::{KeyPair, KeyType};
use crate::protocol::seed::{parse_ripple_lib_seed, Seed};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{has_seed_field, seed_from_rpc};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Passphrases with less estimated entropy than this get the stronger warning.
const PASSPHRASE_ENTROPY_BITS_MIN: f64 = 80.0;

/// Answer with `account_id`, `key_type`, `master_key`, `master_seed`, `master_seed_hex`,
/// `public_key`, `public_key_hex` (and `warning` for passphrases).
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let mut key_type = None;
    if let Some(kt) = params.get("key_type") {
        let name = kt
            .as_str()
            .ok_or_else(|| RpcError::expected_field("key_type", "string"))?;
        key_type =
            Some(KeyType::from_name(name).ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?);
    }
    // A ripple-lib `sEd...` seed in `passphrase` (or else `seed`) means ed25519.
    let ripple_lib_field = if params.contains_key("passphrase") {
        "passphrase"
    } else {
        "seed"
    };
    let ripple_lib = params
        .get(ripple_lib_field)
        .and_then(Value::as_str)
        .and_then(parse_ripple_lib_seed);
    let from_ripple_lib = ripple_lib.is_some();
    let seed = match ripple_lib {
        Some(seed) => {
            if key_type.unwrap_or(KeyType::Ed25519) != KeyType::Ed25519 {
                return Err(RpcError::new(ErrorCode::BadSeed));
            }
            key_type = Some(KeyType::Ed25519);
            seed
        }
        None if has_seed_field(params) => seed_from_rpc(params)?,
        None => Seed::random(),
    };
    let key_type = key_type.unwrap_or(KeyType::Secp256k1);
    let pair =
        KeyPair::from_seed(&seed, key_type).map_err(|_| RpcError::new(ErrorCode::BadSeed))?;
    let words = seed.to_rfc1751();
    let base58 = seed.to_base58(KeyType::Secp256k1);
    let hex = seed.to_hex();
    let mut result = Map::new();
    result.insert(
        "account_id".into(),
        Value::from(pair.account_id().to_address()),
    );
    result.insert("key_type".into(), Value::from(key_type.as_str()));
    result.insert("master_key".into(), Value::from(words.as_str()));
    result.insert("master_seed".into(), Value::from(base58.as_str()));
    result.insert("master_seed_hex".into(), Value::from(hex.as_str()));
    result.insert("public_key".into(), Value::from(pair.public.to_base58()));
    result.insert("public_key_hex".into(), Value::from(pair.public.to_hex()));
    if let (false, Some(pass)) = (
        from_ripple_lib,
        params.get("passphrase").and_then(Value::as_str),
    ) {
        // rippled warns only when the passphrase was hashed, not a seed in another spelling.
        if pass != words && pass != base58 && pass != hex {
            let warning = if estimate_entropy_bits(pass) < PASSPHRASE_ENTROPY_BITS_MIN {
                "This wallet was generated using a user-supplied passphrase that has low entropy and is vulnerable to brute-force attacks."
            } else {
                "This wallet was generated using a user-supplied passphrase. It may be vulnerable to brute-force attacks."
            };
            result.insert("warning".into(), Value::from(warning));
        }
    }
    Ok(result)
}

/// rippled's `estimate_entropy`: Shannon entropy per character times the length, in bits,
/// rounded down.
fn estimate_entropy_bits(input: &str) -> f64 {
    let bytes = input.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0usize; 256];
    for &b in bytes {
        counts[b as usize] += 1;
    }
    let len = bytes.len() as f64;
    let per_char: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / len;
            -p * p.log2()
        })
        .sum();
    (per_char * len).floor()
}

#[cfg(test)]
mod tests {
    use super::estimate_entropy_bits;

    #[test]
    fn entropy_estimate() {
        assert_eq!(estimate_entropy_bits(""), 0.0);
        assert_eq!(estimate_entropy_bits("aaaa"), 0.0);
        assert_eq!(estimate_entropy_bits("abcd"), 8.0);
        assert!(estimate_entropy_bits("masterpassphrase") < 80.0);
    }
}
