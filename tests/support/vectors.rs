//! The JSON test vectors in `tests/vectors/` (made with xrpl-py and xrpl.js).

use ledgerd::protocol::seed::{parse_ripple_lib_seed, Seed};
use serde_json::Value;

/// `tests/vectors/<name>.json`.
pub fn load(name: &str) -> Value {
    let path = format!("{}/tests/vectors/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} parses: {e}"))
}

/// The `cases` of `tests/vectors/<name>.json`.
pub fn cases(name: &str) -> Vec<Value> {
    load(name)["cases"].as_array().expect("cases").clone()
}

/// The claim vectors.
pub fn claim_vectors() -> Vec<Value> {
    cases("claims")
}

/// A case's string field, which must be there.
pub fn text<'a>(c: &'a Value, field: &str) -> &'a str {
    c[field]
        .as_str()
        .unwrap_or_else(|| match c["label"].as_str() {
            Some(label) => panic!("{label}: missing {field}"),
            None => panic!("missing {field}"),
        })
}

/// A vector's seed: ripple-lib's ed25519 form (`sEd...`) or a family seed (`s...`).
pub fn seed(text: &str) -> Seed {
    parse_ripple_lib_seed(text)
        .or_else(|| Seed::from_base58(text).ok())
        .expect("vector seed")
}
