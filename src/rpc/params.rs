//! Parameter parsing shared by handlers: rippled's field rules and messages.

use crate::protocol::types::Hash256;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::Params;
use serde_json::Value;

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
