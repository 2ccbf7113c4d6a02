//! Reading rippled-style error replies.

use serde_json::Value;

/// `(error, error_code, error_message)` of a reply (empty / 0 where absent).
pub fn error(v: &Value) -> (&str, i64, &str) {
    (
        v["error"].as_str().unwrap_or(""),
        v["error_code"].as_i64().unwrap_or(0),
        v["error_message"].as_str().unwrap_or(""),
    )
}

/// `(error, error_code)` of a reply.
pub fn error_code(v: &Value) -> (&str, i64) {
    let (error, code, _) = error(v);
    (error, code)
}
