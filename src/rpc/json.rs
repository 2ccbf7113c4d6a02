//! Request text to JSON object, with rippled's bounds: size ([`REQUEST_BYTES_MAX`]) and
//! nesting depth ([`REQUEST_JSON_DEPTH_MAX`]), checked before serde_json sees the text.

use crate::limits::{REQUEST_BYTES_MAX, REQUEST_JSON_DEPTH_MAX};
use serde_json::{Map, Value};

/// Why a request text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Longer than [`REQUEST_BYTES_MAX`].
    TooLarge,
    /// Nested deeper than [`REQUEST_JSON_DEPTH_MAX`].
    TooDeep,
    /// Not JSON (the parser's message).
    Syntax(String),
    /// JSON, but not an object.
    NotObject,
}

impl ParseError {
    /// A human-readable reason, used after rippled's `Unable to parse request: `.
    pub fn reason(&self) -> String {
        match self {
            ParseError::TooLarge => "request exceeds the size limit".into(),
            ParseError::TooDeep => "maximum nesting depth exceeded".into(),
            ParseError::Syntax(m) => m.clone(),
            ParseError::NotObject => "request is not a JSON object".into(),
        }
    }
}

/// The deepest nesting of objects and arrays in `text`, stopping early once it exceeds
/// `limit`. Brackets inside strings do not count.
pub fn nesting_depth(text: &[u8], limit: usize) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > deepest {
                    deepest = depth;
                    if deepest > limit {
                        return deepest;
                    }
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Whether `text` nests deeper than `limit`. Each level needs an opening bracket, so a text
/// with no more than `limit` of them is within bounds whatever its strings hold; that count
/// vectorizes, the exact scan does not, and nearly every request is settled by the count.
pub fn exceeds_depth(text: &[u8], limit: usize) -> bool {
    let opening = text.iter().filter(|&&b| b == b'{' || b == b'[').count();
    opening > limit && nesting_depth(text, limit) > limit
}

/// Parse a request: bounded size and depth, and it must be a JSON object.
pub fn parse_object(text: &[u8]) -> Result<Map<String, Value>, ParseError> {
    if text.len() > REQUEST_BYTES_MAX {
        return Err(ParseError::TooLarge);
    }
    if exceeds_depth(text, REQUEST_JSON_DEPTH_MAX) {
        return Err(ParseError::TooDeep);
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(ParseError::NotObject),
        Err(e) => Err(ParseError::Syntax(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ignores_strings() {
        assert_eq!(nesting_depth(br#"{"a":"[[[[{{{"}"#, 100), 1);
        assert_eq!(nesting_depth(br#"{"a":[{"b":[]}]}"#, 100), 4);
        assert_eq!(nesting_depth(br#"{"a":"\"[[["}"#, 100), 1);
    }

    #[test]
    fn exceeds_depth_agrees_with_the_exact_scan() {
        let cases = [
            r#"{"a":"[[[[{{{"}"#.to_string(),
            "[".repeat(5) + &"]".repeat(5),
            "[[],[],[],[],[],[]]".into(),
            r#"{"s":"{{{{{{{{","a":[[[[]]]]}"#.into(),
            "{".repeat(7),
        ];
        for text in &cases {
            for limit in 0..8 {
                assert_eq!(
                    exceeds_depth(text.as_bytes(), limit),
                    nesting_depth(text.as_bytes(), limit) > limit,
                    "{text} limit {limit}"
                );
            }
        }
    }

    #[test]
    fn bounds_are_enforced() {
        let deep = "[".repeat(REQUEST_JSON_DEPTH_MAX + 1) + &"]".repeat(REQUEST_JSON_DEPTH_MAX + 1);
        assert_eq!(parse_object(deep.as_bytes()), Err(ParseError::TooDeep));
        let big = vec![b' '; REQUEST_BYTES_MAX + 1];
        assert_eq!(parse_object(&big), Err(ParseError::TooLarge));
        assert_eq!(parse_object(b"[1]"), Err(ParseError::NotObject));
        assert!(matches!(parse_object(b"{"), Err(ParseError::Syntax(_))));
        assert!(parse_object(br#"{"command":"ping"}"#).is_ok());
    }
}
