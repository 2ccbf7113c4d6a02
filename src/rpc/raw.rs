//! Pre-rendered JSON inside a handler's result: a handler whose context allows it
//! ([`crate::rpc::context::Context::raw_json`]) may put a value's finished JSON text in its
//! result as a [`spliced`] string, and the transports write results with [`write_map`],
//! which copies that text in place instead of serializing a tree. account_tx pages are
//! built this way from rendered rows ([`crate::render::rows`]).
//!
//! A spliced string starts with a prefix no client can write: a NUL and a number drawn at
//! start, never shown. Only the transports' writers read it; every other path runs with
//! `raw_json` false and gets ordinary values.

use std::sync::OnceLock;

use serde_json::{Map, Value};

fn prefix() -> &'static str {
    static PREFIX: OnceLock<String> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let nonce: u128 = rand::random();
        format!("\u{0}raw:{nonce:032x}:")
    })
}

/// A value standing for the finished JSON `text` (which must be valid JSON).
pub fn spliced(text: &str) -> Value {
    let p = prefix();
    let mut s = String::with_capacity(p.len() + text.len());
    s.push_str(p);
    s.push_str(text);
    Value::String(s)
}

/// The JSON text a [`spliced`] string stands for.
fn raw_text(s: &str) -> Option<&str> {
    s.strip_prefix(prefix())
}

/// Appends `v` as JSON to `out`, copying spliced texts in place.
pub fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::String(s) => match raw_text(s) {
            Some(raw) => out.extend_from_slice(raw.as_bytes()),
            None => write_plain(out, v),
        },
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => write_map(out, map),
        _ => write_plain(out, v),
    }
}

/// Appends the object `map` as JSON to `out`, copying spliced texts in place.
pub fn write_map(out: &mut Vec<u8>, map: &Map<String, Value>) {
    out.push(b'{');
    for (i, (k, v)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_plain(out, k);
        out.push(b':');
        write_value(out, v);
    }
    out.push(b'}');
}

/// About how many bytes `v` takes as JSON: its strings' lengths (spliced texts whole)
/// plus a little per value, so a writer can allocate once.
pub fn size_hint(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len() + 2,
        Value::Array(items) => items.iter().map(size_hint).sum::<usize>() + items.len() + 2,
        Value::Object(map) => map_size_hint(map),
        _ => 24,
    }
}

/// [`size_hint`] of an object.
pub fn map_size_hint(map: &Map<String, Value>) -> usize {
    map.iter()
        .map(|(k, v)| k.len() + 4 + size_hint(v))
        .sum::<usize>()
        + 2
}

/// `v` as JSON text, spliced texts copied in place.
pub fn to_text(v: &Value) -> String {
    let mut out = Vec::with_capacity(size_hint(v));
    write_value(&mut out, v);
    into_string(out)
}

/// What the writers wrote, as text (they write UTF-8 only: serde_json's output and the
/// spliced texts, which are strings).
pub fn into_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn write_plain(out: &mut Vec<u8>, v: &(impl serde::Serialize + ?Sized)) {
    // Writing to a Vec cannot fail, and a Value or a str always serializes.
    let _ = serde_json::to_writer(out, v);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spliced_text_is_copied_in_place_and_the_rest_serialized() {
        let mut m = Map::new();
        m.insert("a\"b".into(), json!([1, "x\u{1}", null]));
        m.insert(
            "rows".into(),
            Value::Array(vec![spliced(r#"{"k":[true]}"#), spliced("7")]),
        );
        let text = to_text(&Value::Object(m));
        assert_eq!(
            text,
            r#"{"a\"b":[1,"x\u0001",null],"rows":[{"k":[true]},7]}"#
        );
        let back: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back["rows"][0]["k"][0], true);
    }

    #[test]
    fn a_string_that_only_looks_spliced_is_escaped() {
        let forged = Value::from("\u{0}raw:00000000000000000000000000000000:{}");
        let text = to_text(&forged);
        assert!(text.starts_with("\"\\u0000raw:"), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).expect("json"), forged);
    }

    #[test]
    fn plain_values_match_serde_json() {
        let v = json!({"n": 1.5, "s": "é\n", "b": false, "o": {"e": []}});
        assert_eq!(to_text(&v), v.to_string());
    }
}
