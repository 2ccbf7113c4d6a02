//! The codec against `tests/vectors/codec.json` (made by xrpl-py 5.2.0, checked with
//! ripple-binary-codec 2.11.0).
//!
//! JSON -> binary must equal the vectors' hex exactly. Binary -> JSON must equal the
//! libraries' `json_decoded` except where rippled prints differently, and there we
//! assert rippled's form:
//! - IOU values: rippled's `STAmount::getText` (`value_text_rippled_style`), e.g.
//!   `1000000000000000e-95` where the libraries print a long plain decimal;
//! - UInt64 fields: rippled's `STUInt64::getJson` prints lower-case hex without leading
//!   zeros (`ff`), the libraries print 16 upper-case digits (`00000000000000FF`);
//! - path steps: rippled's `STPath::getJson` adds the step's `type` (1 account,
//!   16 currency, 32 issuer, or-ed).

use crate::support;

use ledgerd::protocol::codec::{decode, encode, from_json, to_json, CodecError, JsonErrorKind};
use ledgerd::protocol::definitions::defs;
use serde_json::{json, Value};
use support::vectors::load;

/// The libraries' decoded JSON, rewritten into the forms rippled prints.
fn rippled_forms(decoded: &Value, case: &Value) -> Value {
    let mut v = decoded.clone();
    if let Some(text) = case["iou_amount_decoded"]["value_text_rippled_style"].as_str() {
        v["Amount"]["value"] = Value::String(text.to_string());
    }
    let obj = v.as_object_mut().expect("object");
    for (name, value) in obj.iter_mut() {
        let field = defs().field_by_name(name).expect("known field");
        match field.def().type_name {
            "UInt64" => {
                let n = u64::from_str_radix(value.as_str().expect("hex"), 16).expect("u64");
                *value = Value::String(format!("{n:x}"));
            }
            "PathSet" => {
                for path in value.as_array_mut().expect("paths") {
                    for step in path.as_array_mut().expect("path") {
                        let s = step.as_object_mut().expect("step");
                        let t = (s.contains_key("account") as u8)
                            | ((s.contains_key("currency") as u8) << 4)
                            | ((s.contains_key("issuer") as u8) << 5);
                        s.insert("type".to_string(), json!(t));
                    }
                }
            }
            _ => {}
        }
    }
    v
}

#[test]
fn every_round_trip() {
    let v = load("codec");
    let cases = v["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 36);
    for case in cases {
        let label = case["label"].as_str().unwrap_or("?");
        let want_hex = case["hex"].as_str().expect("hex");

        // JSON -> binary, byte for byte.
        let obj = from_json(&case["json"]).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(hex::encode_upper(encode(&obj)), want_hex, "{label}: encode");

        // Binary -> JSON, in rippled's forms.
        let bytes = hex::decode(want_hex).expect("hex");
        let decoded = decode(&bytes).unwrap_or_else(|e| panic!("{label}: decode {e}"));
        assert_eq!(decoded, obj, "{label}: decode gives the parsed object");
        let ours = to_json(&decoded);
        assert_eq!(
            ours,
            rippled_forms(&case["json_decoded"], case),
            "{label}: to_json"
        );

        // Our JSON parses back to the same bytes.
        let again = from_json(&ours).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(hex::encode_upper(encode(&again)), want_hex, "{label}: ours");

        // So does the libraries' JSON, except that rippled's partsFromString reads the
        // digits as one u64 (`lexical_cast`): the plain decimals the libraries print for
        // +-9999999999999999e80 (96 digits) cannot be sent back to rippled (or to us);
        // those for 1e-80 and 1e-81 can (leading zeros), as can rippled's getText forms.
        let digits: String = case["json_decoded"]["Amount"]["value"]
            .as_str()
            .map_or(String::new(), |s| {
                s.chars().filter(char::is_ascii_digit).collect()
            });
        let significant = digits.trim_start_matches('0');
        let fits_u64 = significant.is_empty() || significant.parse::<u64>().is_ok();
        let theirs = from_json(&case["json_decoded"]);
        if !fits_u64 {
            assert!(theirs.is_err(), "{label}: overlong value accepted");
        } else {
            let theirs = theirs.unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_eq!(
                hex::encode_upper(encode(&theirs)),
                want_hex,
                "{label}: theirs"
            );
        }
    }
}

fn edge(label: &str) -> Value {
    let v = load("codec");
    v["edge_cases"]
        .as_array()
        .expect("edge cases")
        .iter()
        .find(|c| c["label"] == label)
        .unwrap_or_else(|| panic!("no edge case {label}"))
        .clone()
}

fn amount_error(case: &Value) -> CodecError {
    let e = from_json(&case["json"]).expect_err("rippled refuses this amount");
    match &e {
        CodecError::Json(j) => {
            assert_eq!(j.kind, JsonErrorKind::InvalidData);
            assert_eq!(
                j.message("tx_json"),
                "Field 'tx_json.Amount' has invalid data."
            );
        }
        other => panic!("not a JSON error: {other:?}"),
    }
    e
}

#[test]
fn edge_cases_follow_rippled() {
    let v = load("codec");
    assert_eq!(v["edge_cases"].as_array().map(Vec::len), Some(7));

    // 17 significant digits: both libraries refuse ("Decimal precision out of range");
    // rippled's amountFromJson accepts and normalizes to 16 digits, rounding to nearest
    // (the Number rounding of fixUniversalNumber).
    let c = edge("IOU 17 significant digits");
    let o = from_json(&c["json"]).expect("rippled accepts 17 digits");
    assert_eq!(to_json(&o)["Amount"]["value"], "1.234567890123457");
    assert_eq!(
        hex::encode_upper(&encode(&o)[1..9]),
        // mantissa 1234567890123457, exponent -15, positive
        format!(
            "{:016X}",
            0xC000_0000_0000_0000u64 | (82u64 << 54) | 1_234_567_890_123_457
        )
    );

    // 1e97 overflows: rippled throws "value overflow"; the libraries refuse too.
    amount_error(&edge("IOU exponent overflow 1e97"));

    // Below 1e-81: rippled's canonicalize rounds to zero, as xrpl-py does;
    // ripple-binary-codec refuses ("Decimal precision out of range").
    let c = edge("IOU below min (1e-82) - underflow");
    let o = from_json(&c["json"]).expect("rippled rounds underflow to zero");
    assert_eq!(
        hex::encode_upper(encode(&o)),
        c["hex_xrpl_py"].as_str().expect("hex")
    );
    assert_eq!(to_json(&o), c["json_decoded_xrpl_py"]);

    // {"currency":"XRP", issuer, value}: both libraries encode an IOU with an all-zero
    // currency; rippled refuses it in JSON ("XRP may not be specified as an object") and
    // in binary ("invalid native currency").
    let c = edge("IOU currency 'XRP' as issued currency");
    amount_error(&c);
    let lib_blob = hex::decode(c["hex_xrpl_py"].as_str().expect("hex")).expect("hex");
    assert_eq!(
        c["hex_xrpl_py"], c["hex_xrpljs"],
        "the libraries agree with each other"
    );
    match decode(&lib_blob) {
        Err(CodecError::Amount { field, source }) => {
            assert_eq!(field, "Amount");
            assert_eq!(
                source.to_string(),
                "invalid amount encoding: invalid native currency"
            );
        }
        other => panic!("decode must refuse a zero currency: {other:?}"),
    }

    // XRP with a fraction: everyone refuses ("XRP must be specified in integral drops").
    amount_error(&edge("XRP amount with decimal point"));

    // Negative XRP: the libraries refuse. rippled's JSON parser accepts it (a negative
    // native STAmount, written without the positive bit) and leaves the refusal to the
    // transactors (temBAD_AMOUNT / temBAD_FEE). The codec does the same.
    let c = edge("XRP amount negative");
    let o = from_json(&c["json"]).expect("rippled parses negative drops");
    assert_eq!(hex::encode_upper(encode(&o)), "610000000000000001");
    assert_eq!(
        to_json(&decode(&encode(&o)).expect("decodes")),
        json!({"Amount": "-1"})
    );

    // Above 10^17 drops: everyone refuses ("Native currency amount out of range").
    amount_error(&edge("XRP amount above 1e17"));
}
