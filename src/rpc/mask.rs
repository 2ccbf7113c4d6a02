//! Secret masking: the one place that decides what of a request may be echoed or logged.
//!
//! rippled replaces the values of `passphrase`, `secret`, `seed` and `seed_hex` with
//! `"<masked>"` when it echoes a failed request. We do the same at every depth (a secret nested
//! in a sub-object is still a secret), also for `admin_password`, and also where rippled does
//! not mask (`missingCommand` echoes, `jsonInvalid` values, log lines): secrets never leave
//! the process.

use serde_json::{Map, Value};

/// The request fields that carry secrets.
pub const SECRET_FIELDS: [&str; 5] = ["passphrase", "secret", "seed", "seed_hex", "admin_password"];

/// What a secret's value is replaced with (rippled's literal).
pub const MASK: &str = "<masked>";

/// A copy of `request` with every secret field's value replaced by [`MASK`].
pub fn masked(request: &Map<String, Value>) -> Map<String, Value> {
    let mut out = request.clone();
    mask_in_place(&mut out);
    // rippled's objects are ordered maps: its echoes list keys alphabetically.
    out.sort_keys();
    out
}

/// Replace every secret field's value in `object` (at any depth) with [`MASK`].
pub fn mask_in_place(object: &mut Map<String, Value>) {
    for (key, value) in object.iter_mut() {
        if SECRET_FIELDS.contains(&key.as_str()) {
            *value = Value::from(MASK);
        } else {
            mask_value(value);
        }
    }
}

fn mask_value(value: &mut Value) {
    match value {
        Value::Object(o) => mask_in_place(o),
        Value::Array(a) => a.iter_mut().for_each(mask_value),
        _ => {}
    }
}

/// The raw text of an unparsable message, safe to echo or log: the text itself when it
/// mentions no secret field name, else [`MASK`]. (rippled echoes the raw text of a message it
/// could not parse; we cannot find the secret inside broken JSON, so we withhold all of it.)
pub fn masked_raw(raw: &str) -> &str {
    if SECRET_FIELDS.iter().any(|f| raw.contains(f)) {
        MASK
    } else {
        raw
    }
}

/// A compact JSON rendering of `request` with secrets masked, for log lines.
pub fn for_log(request: &Map<String, Value>) -> String {
    Value::Object(masked(request)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn masks_every_secret_at_every_depth() {
        let req = json!({"command": "x", "secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb", "seed_hex": "AB",
            "tx_json": {"passphrase": "p", "list": [{"seed": "s"}]}, "amount": "1"});
        let Value::Object(req) = req else {
            unreachable!()
        };
        let m = Value::Object(masked(&req)).to_string();
        assert!(!m.contains("snoPB"));
        assert!(!m.contains("\"p\""));
        assert!(!m.contains("\"s\""));
        assert!(m.contains("\"amount\":\"1\""));
        assert_eq!(m.matches(MASK).count(), 4);
    }

    #[test]
    fn raw_text_with_secret_names_is_withheld() {
        assert_eq!(masked_raw("{\"secret\": \"sn"), MASK);
        assert_eq!(masked_raw("not json"), "not json");
    }
}
