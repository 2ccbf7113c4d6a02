//! Puts rippled's JSON and the libraries' JSON into one form where they differ on
//! purpose, so the comparison sees only real disagreements.
//!
//! - IOU `value`: rippled prints `STAmount::getText` (`MANTISSAeEXP` when the exponent
//!   is outside -25..-5, e.g. `1000000000000000e-95`); xrpl-py and ripple-binary-codec
//!   print plain decimals (`0.000...01`). Both are replaced by a canonical
//!   `[-]DIGITSeEXP` (no leading or trailing zeros in DIGITS), so values are compared
//!   numerically and exactly.
//! - Currency codes: rippled's `to_string(Currency)` prints a standard-form code as its
//!   three characters when all are in `isoCharSet` (letters, digits and
//!   `<>(){}[]|?!@#$%^&*`) and the code is not `XRP`. xrpl.js leaves `<` and `>` out of its
//!   set and prints such codes as 40 hex digits. The libraries' hex codes that rippled
//!   prints as three characters are rewritten (the same 20 bytes either way).
//! - Path steps: rippled's `STPath::getJson` adds `type` (1 account | 16 currency |
//!   32 issuer); the libraries do not. Ours is checked against the keys present and then
//!   removed.

use serde_json::{Map, Value};

/// The exact value of a decimal string (`[-+]?digits[.digits]?([eE][-+]?digits)?`) as
/// `[-]DIGITSeEXP` with no leading or trailing zeros in DIGITS; `0` for zero. `None`
/// when the text is not such a number.
pub fn canon_number(s: &str) -> Option<String> {
    let (neg, rest) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (mant, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let all = format!("{int}{frac}");
    let mut e = exp - frac.len() as i64;
    let trimmed = all.trim_start_matches('0');
    if trimmed.is_empty() {
        return Some("0".to_string());
    }
    let digits = trimmed.trim_end_matches('0');
    e += (trimmed.len() - digits.len()) as i64;
    Some(format!("{}{digits}e{e}", if neg { "-" } else { "" }))
}

/// rippled's `isoCharSet` (UintTypes.cpp).
const ISO_CHARS: &str =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<>(){}[]|?!@#$%^&*";

/// rippled's printed form of a currency given as 40 hex digits: the three characters
/// when the code is in standard form, in `isoCharSet` and not `XRP`; else unchanged.
pub fn rippled_currency_text(code: &str) -> Option<String> {
    let b = hex::decode(code).ok().filter(|b| b.len() == 20)?;
    let standard = b[..12].iter().chain(&b[15..]).all(|x| *x == 0);
    let chars = &b[12..15];
    if standard && chars != b"XRP" && chars.iter().all(|c| ISO_CHARS.as_bytes().contains(c)) {
        return Some(String::from_utf8_lossy(chars).into_owned());
    }
    None
}

fn is_iou(m: &Map<String, Value>) -> bool {
    m.len() == 3
        && m.contains_key("currency")
        && m.contains_key("issuer")
        && m.contains_key("value")
}

/// The path step type rippled should print for this step's keys.
fn expected_step_type(m: &Map<String, Value>) -> u64 {
    (m.contains_key("account") as u64)
        | ((m.contains_key("currency") as u64) << 4)
        | ((m.contains_key("issuer") as u64) << 5)
}

/// Rewrites `v` into the common form. `ours` marks rippled-style JSON (ledgerd's), whose
/// path step `type` is checked and removed. Errors name what was wrong.
pub fn normalize(v: &Value, ours: bool) -> Result<Value, String> {
    Ok(match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                if k == "currency" && !ours {
                    if let Some(c) = x.as_str().and_then(rippled_currency_text) {
                        out.insert(k.clone(), Value::String(c));
                        continue;
                    }
                }
                if k == "Paths" {
                    out.insert(k.clone(), normalize_paths(x, ours)?);
                } else {
                    out.insert(k.clone(), normalize(x, ours)?);
                }
            }
            if is_iou(&out) {
                let text = out["value"].as_str().ok_or("IOU value is not a string")?;
                let c = canon_number(text)
                    .ok_or_else(|| format!("IOU value {text:?} is not a number"))?;
                out.insert("value".into(), Value::String(c));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|x| normalize(x, ours))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    })
}

fn normalize_paths(v: &Value, ours: bool) -> Result<Value, String> {
    let paths = v.as_array().ok_or("Paths is not an array")?;
    let mut out = Vec::new();
    for p in paths {
        let steps = p.as_array().ok_or("a path is not an array")?;
        let mut np = Vec::new();
        for s in steps {
            let mut m = s.as_object().ok_or("a path step is not an object")?.clone();
            if ours {
                let t = m.remove("type").and_then(|t| t.as_u64());
                let want = expected_step_type(&m);
                if t != Some(want) {
                    return Err(format!("path step {s} has type {t:?}, want {want}"));
                }
            }
            np.push(Value::Object(m));
        }
        out.push(Value::Array(np));
    }
    Ok(Value::Array(out))
}

/// A short description of where two JSON values first differ.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                match y.get(k) {
                    None => return Some(format!("{path}.{k}: only ours has it ({va})")),
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, &format!("{path}.{k}")) {
                            return Some(d);
                        }
                    }
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map(|k| format!("{path}.{k}: only theirs has it ({})", y[k]))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (va, vb))| first_difference(va, vb, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: ours {a} theirs {b}")),
    }
}
