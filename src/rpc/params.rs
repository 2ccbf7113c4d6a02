//! Parameter parsing shared by handlers: rippled's field rules and messages.

use crate::protocol::base58::{self, version};
use crate::protocol::keys::{KeyPair, KeyType, PublicKey};
use crate::protocol::seed::{parse_generic_seed, parse_ripple_lib_seed, Seed};
use crate::protocol::types::Hash256;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::key_cache::KeyCache;
use crate::rpc::Params;
use serde_json::Value;
use std::sync::Arc;

/// The four fields that can carry a secret, in rippled's order.
const SECRET_FIELDS: [&str; 4] = ["passphrase", "secret", "seed", "seed_hex"];

/// The three fields `getSeedFromRPC` reads (no `secret`).
const SEED_FIELDS: [&str; 3] = ["passphrase", "seed", "seed_hex"];

/// rippled's `keypairForSignature` (rpc.md §3.0): exactly one of `passphrase`, `secret`,
/// `seed`, `seed_hex`; an optional `key_type` (which forbids `secret`); ripple-lib `sEd...`
/// seeds force ed25519. With a `cache`, pairs derived before are reused (only after every
/// check that could fail has passed, so replies are the same with or without it).
pub fn keypair_for_signature(
    params: &Params,
    api_version: u32,
    cache: Option<&KeyCache>,
) -> Result<Arc<KeyPair>, RpcError> {
    let present: Vec<&str> = SECRET_FIELDS
        .into_iter()
        .filter(|f| params.contains_key(*f))
        .collect();
    let field = match present.as_slice() {
        [] => return Err(RpcError::missing_field("secret")),
        [one] => *one,
        _ => return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Exactly one of the following must be specified: passphrase, secret, seed or seed_hex",
        )),
    };
    let mut key_type = None;
    if let Some(kt) = params.get("key_type") {
        let name = kt
            .as_str()
            .ok_or_else(|| RpcError::expected_field("key_type", "string"))?;
        match KeyType::from_name(name) {
            Some(t) => key_type = Some(t),
            None if api_version >= 2 => return Err(RpcError::new(ErrorCode::BadKeyType)),
            None => return Err(RpcError::invalid_field("key_type")),
        }
        if field == "secret" {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "The secret field is not allowed if key_type is used.",
            ));
        }
    }
    let value = &params[field];
    let cache_key = match (cache, value.as_str()) {
        (Some(cache), Some(text)) => {
            let k = KeyCache::key(field, text, key_type);
            if let Some(pair) = cache.get(&k) {
                return Ok(pair);
            }
            Some((cache, k))
        }
        _ => None,
    };
    let mut seed = None;
    if field != "seed_hex" {
        if let Some(s) = value.as_str().and_then(parse_ripple_lib_seed) {
            if key_type.unwrap_or(KeyType::Ed25519) != KeyType::Ed25519 {
                return Err(RpcError::with_message(
                    ErrorCode::BadSeed,
                    "Specified seed is for an Ed25519 wallet.",
                ));
            }
            key_type = Some(KeyType::Ed25519);
            seed = Some(s);
        }
    }
    let key_type = key_type.unwrap_or(KeyType::Secp256k1);
    let seed = match seed {
        Some(s) => s,
        None if params.contains_key("key_type") => seed_from_rpc(params)?,
        None => {
            let text = params
                .get("secret")
                .and_then(Value::as_str)
                .ok_or_else(|| RpcError::expected_field("secret", "string"))?;
            parse_generic_seed(text).ok_or_else(|| {
                RpcError::with_message(ErrorCode::BadSeed, format!("Invalid field '{field}'."))
            })?
        }
    };
    let pair = KeyPair::from_seed(&seed, key_type)
        .map(Arc::new)
        .map_err(|_| {
            RpcError::with_message(ErrorCode::BadSeed, format!("Invalid field '{field}'."))
        })?;
    if let Some((cache, k)) = cache_key {
        cache.insert(k, pair.clone());
    }
    Ok(pair)
}

/// rippled's `getSeedFromRPC`: exactly one of `passphrase`, `seed`, `seed_hex`, each a
/// string; `passphrase` through `parseGenericSeed`, `seed` strictly base58, `seed_hex`
/// exactly 32 hex digits. Failure to parse is `badSeed` ("Disallowed seed.").
pub fn seed_from_rpc(params: &Params) -> Result<Seed, RpcError> {
    let present: Vec<&str> = SEED_FIELDS
        .into_iter()
        .filter(|f| params.contains_key(*f))
        .collect();
    let [field] = present.as_slice() else {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Exactly one of the following must be specified: passphrase, seed or seed_hex",
        ));
    };
    let text = params[*field]
        .as_str()
        .ok_or_else(|| RpcError::expected_field(field, "string"))?;
    let seed = match *field {
        "passphrase" => parse_generic_seed(text),
        "seed" => Seed::from_base58(text).ok(),
        _ => Seed::from_hex(text).ok(),
    };
    seed.ok_or_else(|| RpcError::new(ErrorCode::BadSeed))
}

/// Whether any of `passphrase`, `seed`, `seed_hex` is present (wallet_propose).
pub fn has_seed_field(params: &Params) -> bool {
    SEED_FIELDS.iter().any(|f| params.contains_key(*f))
}

/// A public key given as base58 (`a...`) or as hex of 33 bytes with a valid type prefix
/// (channel_verify), else `publicMalformed`.
pub fn public_key(value: &Value) -> Result<PublicKey, RpcError> {
    // rippled checks only the type byte here (`publicKeyType`): a key off the curve is
    // accepted and simply never verifies.
    let text = as_string(value).unwrap_or_default();
    let bytes = base58::decode(&text, version::ACCOUNT_PUBLIC, 33)
        .ok()
        .or_else(|| hex::decode(&text).ok());
    bytes
        .and_then(|b| PublicKey::from_slice_lenient(&b).ok())
        .ok_or_else(|| RpcError::new(ErrorCode::PublicMalformed))
}

/// rippled's `Json::Value::asString()` for the scalar types a field may hold; `None` for
/// arrays and objects (which rippled would throw on).
pub fn as_string(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => Some(String::new()),
        _ => None,
    }
}

/// A required field, else `invalidParams "Missing field '<name>'."`.
pub fn required<'a>(params: &'a Params, name: &str) -> Result<&'a Value, RpcError> {
    params
        .get(name)
        .ok_or_else(|| RpcError::missing_field(name))
}

/// A 256-bit id written as exactly 64 hex digits (either case, no prefix), or `None`.
pub fn parse_hash256(text: &str) -> Option<Hash256> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Hash256::from_hex(text)
}

/// A payment channel id (`channel_id`): 64 hex digits, else `channelMalformed`.
pub fn channel_id(value: &Value) -> Result<Hash256, RpcError> {
    as_string(value)
        .and_then(|s| parse_hash256(&s))
        .ok_or_else(|| RpcError::new(ErrorCode::ChannelMalformed))
}

/// rippled's `to_uint64`: an optional `+`, then decimal digits only, no overflow.
pub fn parse_u64_decimal(text: &str) -> Option<u64> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()
}

/// A channel amount in drops: a JSON **string** holding a u64, else `channelAmtMalformed`.
/// There is no cap at the XRP supply: any u64 is signed, as in rippled.
pub fn channel_amount(value: &Value) -> Result<u64, RpcError> {
    value
        .as_str()
        .and_then(parse_u64_decimal)
        .ok_or_else(|| RpcError::new(ErrorCode::ChannelAmtMalformed))
}

/// Numeric request fields, parsed one way with their bounds. rippled reads a JSON number
/// that fits neither an `Int` nor a `UInt` (32 bits) as a double, and its `asInt` /
/// `asUInt` throw on values they cannot hold (answered `internal`); these parsers answer
/// `None` instead, and each caller turns that into its field's rippled-style error.
///
/// rippled's `isUInt() || (isInt() && asInt() >= 0)` (`readLimitField` and the like): a
/// JSON integer in `0..=u32::MAX`. No strings, booleans, fractions or exponents.
pub fn unsigned_integer(v: &Value) -> Option<u32> {
    match v {
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        _ => None,
    }
}

/// A non-negative integer or a decimal string holding one, within u32 (rippled's
/// `validUInt`, `beast::lexicalCast<std::uint32_t>` of `asString`).
pub fn uint_or_decimal(v: &Value) -> Option<u32> {
    match v {
        Value::String(s) => parse_u64_decimal(s).and_then(|n| u32::try_from(n).ok()),
        v => unsigned_integer(v),
    }
}

/// jsoncpp's `asUInt` where it does not throw: [`lenient_int`] within `0..=u32::MAX`.
pub fn lenient_uint(v: &Value) -> Option<u32> {
    let i = lenient_int(v)?;
    u32::try_from(i).ok()
}

/// jsoncpp's `asInt` / `asUInt` where one of them does not throw: null 0, a boolean 0 or
/// 1, a number in `i32::MIN..=u32::MAX` (a fraction truncated), a decimal string (an
/// optional sign, digits). `None` for anything else (1e300, 2^63, "abc", objects).
pub fn lenient_int(v: &Value) -> Option<i64> {
    const LOW: i64 = i32::MIN as i64;
    const HIGH: i64 = u32::MAX as i64;
    let i = match v {
        Value::Null => 0,
        Value::Bool(b) => i64::from(*b),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i,
            (None, Some(f)) if f.is_finite() && (LOW as f64..HIGH as f64 + 1.0).contains(&f) => {
                f.trunc() as i64
            }
            _ => return None,
        },
        Value::String(s) => {
            let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
            if digits.is_empty() || digits.len() > 10 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            s.parse::<i64>().ok()?
        }
        _ => return None,
    };
    (LOW..=HIGH).contains(&i).then_some(i)
}

/// jsoncpp's `asBool`.
pub fn as_bool(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn amounts_follow_to_uint64() {
        assert_eq!(channel_amount(&json!("0")), Ok(0));
        assert_eq!(channel_amount(&json!("+12")), Ok(12));
        assert_eq!(channel_amount(&json!("18446744073709551615")), Ok(u64::MAX));
        for bad in [
            json!("18446744073709551616"),
            json!(""),
            json!("+"),
            json!("-1"),
            json!("1.0"),
            json!("1e3"),
            json!(" 1"),
            json!(1),
            json!(null),
        ] {
            assert_eq!(
                channel_amount(&bad).map_err(|e| e.token()),
                Err("channelAmtMalformed"),
                "{bad}"
            );
        }
    }

    /// Every hostile number a client can send, as JSON text.
    const HOSTILE: [&str; 12] = [
        "-1",
        "0",
        "4294967295",
        "4294967296",
        "9223372036854775808",
        "18446744073709551616",
        "1e300",
        "1.5",
        "\"12\"",
        "true",
        "null",
        "\"99999999999999999999999999999999\"",
    ];

    fn hostile() -> Vec<Value> {
        HOSTILE
            .iter()
            .map(|t| serde_json::from_str(t).unwrap())
            .collect()
    }

    #[test]
    fn numeric_fields_are_bounded() {
        let got: Vec<_> = hostile().iter().map(unsigned_integer).collect();
        let max = Some(u32::MAX);
        let none = None;
        assert_eq!(
            got,
            [
                none,
                Some(0),
                max,
                none,
                none,
                none,
                none,
                none,
                none,
                none,
                none,
                none
            ]
        );
        let got: Vec<_> = hostile().iter().map(uint_or_decimal).collect();
        assert_eq!(
            got,
            [
                none,
                Some(0),
                max,
                none,
                none,
                none,
                none,
                none,
                Some(12),
                none,
                none,
                none
            ]
        );
        let got: Vec<_> = hostile().iter().map(lenient_int).collect();
        let max = Some(i64::from(u32::MAX));
        assert_eq!(
            got,
            [
                Some(-1),
                Some(0),
                max,
                None,
                None,
                None,
                None,
                Some(1),
                Some(12),
                Some(1),
                Some(0),
                None
            ]
        );
        assert_eq!(lenient_uint(&json!(-1)), None);
        assert_eq!(lenient_uint(&json!("+7")), Some(7));
        assert_eq!(lenient_int(&json!(-2147483649i64)), None);
        assert_eq!(lenient_int(&json!("-")), None);
    }

    #[test]
    fn channel_ids_are_64_hex() {
        let id = "256E57D3FB4F912878DDAF2D1A5857EA63346ADF0E209D01A4721EA1E6BC591A";
        assert!(channel_id(&json!(id)).is_ok());
        assert!(channel_id(&json!(id.to_lowercase())).is_ok());
        for bad in [
            json!(&id[1..]),
            json!(format!("0x{id}")),
            json!(5),
            json!({}),
        ] {
            assert_eq!(
                channel_id(&bad).map_err(|e| e.token()),
                Err("channelMalformed")
            );
        }
    }
}
