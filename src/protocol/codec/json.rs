//! The JSON forms: rippled's `getJson` (output) and `STParsedJSON` (input).
//!
//! Output keys are sorted byte-wise, as rippled's `Json::Value` map prints them.
//! Input follows `STParsedJSON.cpp` type by type, with its error kinds and field paths
//! (see [`JsonError`]). Not modelled: inner-object templates (`applyTemplateFromSField`,
//! "Object 'Memo' contents did not meet requirements"). `PermissionValue` reads and
//! prints permission names (`protocol::permission`).

use serde_json::{Map, Value};

use super::binary::{fixed_width, type_code as tc, VL_LENGTH_MAX};
use super::error::{CodecError, JsonError, JsonErrorKind};
use super::template;
use super::STOBJECT_JSON_DEPTH_MAX;
use crate::protocol::amount::{Amount, IouValue, Rounding};
use crate::protocol::definitions::{defs, Field, FieldDef};
use crate::protocol::keys::str_unhex;
use crate::protocol::mpt::{MptAmount, MptId};
use crate::protocol::st::{PathStep, StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash128, Hash160, Hash256, Issue};
use crate::protocol::xchain::XChainBridge;

/// UInt64 fields rippled prints and parses in base ten (`SField::sMD_BaseTen` in
/// sfields.macro); every other UInt64 is lower-case hex without leading zeros.
pub const UINT64_BASE_TEN_FIELDS: [&str; 5] = [
    "MaximumAmount",
    "OutstandingAmount",
    "MPTAmount",
    "LockedAmount",
    "ConfidentialOutstandingAmount",
];

/// Pseudo type codes of the untyped object fields (`Transaction`, `LedgerEntry`,
/// `Validation`), which `STParsedJSON` parses as objects.
const UNTYPED_OBJECT_TYPES: [u16; 3] = [10001, 10002, 10003];

// ---------------------------------------------------------------- output

/// rippled's `STObject::getJson`: every field present, keys sorted.
pub(crate) fn to_json(obj: &StObject) -> Value {
    let mut entries: Vec<(&'static str, Value)> = obj
        .iter()
        .map(|(f, v)| (f.name(), value_to_json(f.def(), v)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut m = Map::with_capacity(entries.len());
    for (k, v) in entries {
        m.insert(k.to_string(), v);
    }
    Value::Object(m)
}

fn value_to_json(def: &FieldDef, v: &StValue) -> Value {
    match v {
        StValue::UInt8(x) => {
            if def.name == "TransactionResult" {
                if let Some(n) = defs().transaction_result_name(*x as i32) {
                    return Value::String(n.to_string());
                }
            }
            Value::from(*x)
        }
        StValue::UInt16(x) => {
            let name = match def.name {
                "TransactionType" => defs().transaction_type_name(*x),
                "LedgerEntryType" => defs().ledger_entry_type_name(*x),
                _ => None,
            };
            match name {
                Some(n) => Value::String(n.to_string()),
                None => Value::from(*x),
            }
        }
        StValue::UInt32(x) => match def.name {
            "PermissionValue" => crate::protocol::permission::name_of_value(*x)
                .map_or_else(|| Value::from(*x), |n| Value::String(n.to_string())),
            _ => Value::from(*x),
        },
        StValue::UInt64(x) => Value::String(if UINT64_BASE_TEN_FIELDS.contains(&def.name) {
            x.to_string()
        } else {
            format!("{x:x}")
        }),
        StValue::Int32(x) => Value::from(*x),
        StValue::Int64(x) => Value::from(*x),
        StValue::Hash128(h) => Value::String(h.to_hex()),
        StValue::Hash160(h) => Value::String(h.to_hex()),
        StValue::Hash256(h) => Value::String(h.to_hex()),
        StValue::Fixed(b) => {
            if def.type_code == tc::NUMBER {
                Value::String(number_text(b))
            } else {
                Value::String(crate::protocol::types::hex_upper(b))
            }
        }
        StValue::Amount(a) => a.to_json(),
        StValue::Blob(b) => Value::String(crate::protocol::types::hex_upper(b)),
        StValue::AccountId(a) => Value::String(a.to_address()),
        StValue::Object(o) => to_json(o),
        StValue::Array(items) => Value::Array(
            items
                .iter()
                .map(|(f, o)| {
                    let mut m = Map::with_capacity(1);
                    m.insert(f.name().to_string(), to_json(o));
                    Value::Object(m)
                })
                .collect(),
        ),
        StValue::PathSet(paths) => Value::Array(
            paths
                .iter()
                .map(|p| Value::Array(p.iter().map(path_step_to_json).collect()))
                .collect(),
        ),
        StValue::Vector256(v) => {
            Value::Array(v.iter().map(|h| Value::String(h.to_hex())).collect())
        }
        StValue::Currency(c) => Value::String(c.to_json_string()),
        StValue::Issue(i) => {
            let mut m = Map::new();
            m.insert(
                "currency".to_string(),
                Value::String(i.currency.to_json_string()),
            );
            if !i.is_xrp() {
                m.insert("issuer".to_string(), Value::String(i.issuer.to_address()));
            }
            Value::Object(m)
        }
        StValue::MptAmount(a) => a.to_json(),
        StValue::MptIssue(id) => id.issue_json(),
        StValue::XChainBridge(b) => b.to_json(),
    }
}

/// `STPath::getJson`: `account`, `currency`, `issuer` as present, and the step's `type`.
fn path_step_to_json(s: &PathStep) -> Value {
    let mut m = Map::new();
    if let Some(a) = &s.account {
        m.insert("account".to_string(), Value::String(a.to_address()));
    }
    if let Some(c) = &s.currency {
        m.insert("currency".to_string(), Value::String(c.to_json_string()));
    }
    if let Some(a) = &s.issuer {
        m.insert("issuer".to_string(), Value::String(a.to_address()));
    }
    m.insert(
        "type".to_string(),
        Value::from(super::binary::path_step_type(s)),
    );
    Value::Object(m)
}

/// `to_string(Number)` of an STNumber's 12 bytes (i64 mantissa, i32 exponent), after
/// normalizing to 16 digits as `Number`'s constructor does.
fn number_text(b: &[u8]) -> String {
    let (Some(m), Some(e)) = (b.get(..8), b.get(8..12)) else {
        return crate::protocol::types::hex_upper(b);
    };
    let mut mb = [0u8; 8];
    mb.copy_from_slice(m);
    let mut eb = [0u8; 4];
    eb.copy_from_slice(e);
    let mantissa = i64::from_be_bytes(mb);
    let exponent = i32::from_be_bytes(eb);
    if mantissa == 0 {
        return "0".to_string();
    }
    match IouValue::from_parts(
        mantissa.unsigned_abs() as u128,
        exponent,
        mantissa < 0,
        Rounding::Nearest,
    ) {
        Ok(v) => scientific_trimmed(&v.to_text()),
        // Beyond the issued-value range that ledgerd models: print the raw parts.
        Err(_) => format!("{mantissa}e{exponent}"),
    }
}

/// `to_string(Number)` drops the mantissa's trailing zeros in scientific notation
/// (`99999e20`, where an STAmount prints `9999900000000000e9`).
fn scientific_trimmed(text: &str) -> String {
    let Some((m, e)) = text.split_once('e') else {
        return text.to_string();
    };
    let (Ok(mut exp), sign) = (e.parse::<i32>(), if m.starts_with('-') { "-" } else { "" }) else {
        return text.to_string();
    };
    let mut digits = m.trim_start_matches('-');
    while digits.len() > 1 && digits.ends_with('0') {
        digits = &digits[..digits.len() - 1];
        exp += 1;
    }
    if exp == 0 {
        return format!("{sign}{digits}");
    }
    format!("{sign}{digits}e{exp}")
}

/// The 12 bytes of an STNumber from its text, in rippled 3.x's serialized form
/// ([`crate::protocol::number::Number::to_st_parts`]).
fn number_bytes(v: &IouValue) -> Vec<u8> {
    let (m, e) = crate::protocol::number::Number::from_iou(v).to_st_parts();
    let mut out = m.to_be_bytes().to_vec();
    out.extend_from_slice(&e.to_be_bytes());
    out
}

// ---------------------------------------------------------------- input

/// How jsoncpp would have typed a JSON number: `Int` (fits i32), `UInt` (fits u32),
/// or anything else (a double, or an integer jsoncpp cannot hold).
enum JNum {
    Int(i32),
    UInt(u32),
    Other,
}

fn jnum(v: &Value) -> Option<JNum> {
    let n = v.as_number()?;
    Some(
        if let Some(i) = n.as_i64().and_then(|i| i32::try_from(i).ok()) {
            JNum::Int(i)
        } else if let Some(u) = n.as_u64().and_then(|u| u32::try_from(u).ok()) {
            JNum::UInt(u)
        } else {
            JNum::Other
        },
    )
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// `beast::lexicalCast` of an unsigned integer: an optional `+`, then decimal digits.
fn lexical_unsigned(s: &str) -> Option<u64> {
    let s = s.strip_prefix('+').unwrap_or(s);
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<u64>().ok()
}

/// `beast::lexicalCast` of a signed integer: an optional `+`, then `from_chars`.
fn lexical_signed(s: &str) -> Option<i64> {
    let s = s.strip_prefix('+').unwrap_or(s);
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

/// `std::from_chars` of a u64 in base 16 or 10: digits only, no sign, no prefix.
fn from_chars_u64(s: &str, radix: u32) -> Option<u64> {
    if s.is_empty() || !s.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(s, radix).ok()
}

/// An AccountID from 40 hex digits or a classic address (rippled tries hex first).
fn parse_account(s: &str) -> Option<AccountId> {
    if s.len() == 40 {
        let mut b = [0u8; 20];
        if hex::decode_to_slice(s, &mut b).is_ok() {
            return Some(AccountId(b));
        }
    }
    AccountId::from_address(s).ok()
}

/// rippled's `noCurrency()`: 0x...01, never a valid currency.
fn is_no_currency(c: &Currency) -> bool {
    let mut b = [0u8; 20];
    b[19] = 1;
    c.0 == b
}

/// `STParsedJSONObject`: parses a whole object (a transaction, an entry, ...).
pub(crate) fn from_json(v: &Value) -> Result<StObject, CodecError> {
    parse_object("", v, 0, None).map_err(CodecError::Json)
}

/// `parseObject`. `name` is the inner object's field (its template applies), `None`
/// at the top level.
fn parse_object(
    path: &str,
    json: &Value,
    depth: usize,
    name: Option<&str>,
) -> Result<StObject, JsonError> {
    let map = match json {
        Value::Object(m) => Some(m),
        Value::Null => None,
        _ => return Err(JsonError::new(JsonErrorKind::NotAnObject, path)),
    };
    if depth > STOBJECT_JSON_DEPTH_MAX {
        return Err(JsonError::new(JsonErrorKind::TooDeep, path));
    }
    let mut obj = StObject::new();
    let Some(map) = map else {
        return check_template(path, name, obj);
    };
    for (name, value) in map {
        let field = lookup_field(name)
            .ok_or_else(|| JsonError::new(JsonErrorKind::UnknownField, join(path, name)))?;
        let def = field.def();
        let parsed = match def.type_code {
            t if t == tc::OBJECT || UNTYPED_OBJECT_TYPES.contains(&t) => {
                if !value.is_object() {
                    return Err(JsonError::new(JsonErrorKind::NotAnObject, join(path, name)));
                }
                StValue::Object(parse_object(
                    &join(path, name),
                    value,
                    depth + 1,
                    Some(name),
                )?)
            }
            tc::ARRAY => StValue::Array(parse_array(&join(path, name), value, depth + 1)?),
            _ => parse_leaf(path, name, def, value)?,
        };
        obj.set(field, parsed);
    }
    check_template(path, name, obj)
}

fn check_template(path: &str, name: Option<&str>, obj: StObject) -> Result<StObject, JsonError> {
    match name {
        Some(n) if template::check(n, &obj).is_err() => {
            Err(JsonError::new(JsonErrorKind::TemplateMismatch, path))
        }
        _ => Ok(obj),
    }
}

/// A field by its JSON name. The end markers are names in the table but never fields
/// of an object; rippled would accept them and then write a corrupt blob.
fn lookup_field(name: &str) -> Option<Field> {
    if name == "ObjectEndMarker" || name == "ArrayEndMarker" {
        return None;
    }
    defs().field_by_name(name)
}

fn parse_array(
    path: &str,
    json: &Value,
    depth: usize,
) -> Result<Vec<(Field, StObject)>, JsonError> {
    let items: &[Value] = match json {
        Value::Array(a) => a,
        Value::Null => &[],
        _ => return Err(JsonError::new(JsonErrorKind::NotAnArray, path)),
    };
    if depth > STOBJECT_JSON_DEPTH_MAX {
        return Err(JsonError::new(JsonErrorKind::TooDeep, path));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let i32_index = i as u32;
        let single = match item {
            Value::Object(m) if m.len() == 1 => m.iter().next(),
            _ => None,
        };
        let Some((name, inner)) = single else {
            return Err(JsonError::new(
                JsonErrorKind::SingletonExpected(i32_index),
                path,
            ));
        };
        let field = lookup_field(name)
            .ok_or_else(|| JsonError::new(JsonErrorKind::UnknownField, join(path, name)))?;
        let elem_path = format!("{path}.[{i}].{name}");
        let obj = parse_object(&elem_path, inner, depth + 1, Some(name)).map_err(|mut e| {
            e.array_context.push(elem_path.clone());
            e
        })?;
        let t = field.def().type_code;
        if t != tc::OBJECT {
            return Err(JsonError::new(
                JsonErrorKind::NonObjectInArray(i32_index),
                format!("{elem_path}Field type: {t} "),
            ));
        }
        out.push((field, obj));
    }
    Ok(out)
}

/// `parseLeaf`: every type that does not recurse.
fn parse_leaf(
    parent: &str,
    name: &str,
    def: &'static FieldDef,
    value: &Value,
) -> Result<StValue, JsonError> {
    let path = join(parent, name);
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path.clone());
    let bad_type = || JsonError::new(JsonErrorKind::BadType, path.clone());
    Ok(match def.type_code {
        tc::UINT8 => parse_uint8(def, value, &path)?,
        tc::UINT16 => parse_uint16(def, value, &path)?,
        tc::UINT32 => parse_uint32(def, value, &path)?,
        tc::UINT64 => parse_uint64(def, value, &path)?,
        tc::HASH128 => StValue::Hash128(Hash128(parse_hash(value, &path)?)),
        tc::HASH160 => StValue::Hash160(Hash160(parse_hash(value, &path)?)),
        tc::HASH256 => StValue::Hash256(Hash256(parse_hash(value, &path)?)),
        tc::HASH192 => StValue::Fixed(parse_hash::<24>(value, &path)?.to_vec()),
        tc::HASH384 | tc::HASH512 | tc::UINT96 => parse_fixed(def, value, &path)?,
        tc::INT32 => parse_int32(value, &path)?,
        tc::BLOB => parse_blob(value, &path)?,
        tc::AMOUNT => match value.as_object() {
            Some(o) if o.contains_key("mpt_issuance_id") => {
                StValue::MptAmount(MptAmount::from_json(o).map_err(|_| invalid())?)
            }
            _ => StValue::Amount(Amount::from_json(value).map_err(|_| invalid())?),
        },
        tc::NUMBER => parse_number(value, &path)?,
        tc::VECTOR256 => parse_vector256(value, &path)?,
        tc::PATHSET => StValue::PathSet(parse_pathset(parent, name, value)?),
        tc::ACCOUNT_ID => {
            let s = value.as_str().ok_or_else(bad_type)?;
            StValue::AccountId(parse_account(s).ok_or_else(invalid)?)
        }
        tc::ISSUE => match parse_mpt_issue(value) {
            Some(id) => StValue::MptIssue(id.ok_or_else(invalid)?),
            None => StValue::Issue(parse_issue(value).ok_or_else(invalid)?),
        },
        tc::CURRENCY => parse_currency(value, &path)?,
        tc::XCHAIN_BRIDGE => {
            StValue::XChainBridge(XChainBridge::from_json(value).ok_or_else(invalid)?)
        }
        _ => return Err(bad_type()),
    })
}

/// The STI_UINT8 branch of `parseLeaf`: a number, or a `TransactionResult` by name.
fn parse_uint8(def: &FieldDef, value: &Value, path: &str) -> Result<StValue, JsonError> {
    let err = |kind| JsonError::new(kind, path);
    let invalid = || err(JsonErrorKind::InvalidData);
    let bad_type = || err(JsonErrorKind::BadType);
    Ok(match value {
        Value::String(s) if s.bytes().next().is_some_and(|c| !c.is_ascii_digit()) => {
            if def.name != "TransactionResult" {
                return Err(bad_type());
            }
            let code = defs()
                .transaction_results
                .get(s.as_str())
                .copied()
                .ok_or_else(|| err(JsonErrorKind::OutOfRange))?;
            StValue::UInt8(u8::try_from(code).map_err(|_| err(JsonErrorKind::OutOfRange))?)
        }
        Value::String(s) => StValue::UInt8(
            lexical_unsigned(s)
                .and_then(|v| u8::try_from(v).ok())
                .ok_or_else(invalid)?,
        ),
        _ => match jnum(value) {
            Some(JNum::Int(i)) => {
                StValue::UInt8(u8::try_from(i).map_err(|_| err(JsonErrorKind::OutOfRange))?)
            }
            Some(JNum::UInt(u)) => {
                StValue::UInt8(u8::try_from(u).map_err(|_| err(JsonErrorKind::OutOfRange))?)
            }
            _ => return Err(bad_type()),
        },
    })
}

/// The STI_UINT16 branch of `parseLeaf`: a number, or a transaction or ledger entry type
/// by name.
fn parse_uint16(def: &FieldDef, value: &Value, path: &str) -> Result<StValue, JsonError> {
    if let Value::String(s) = value {
        if s.bytes().next().is_some_and(|c| !c.is_ascii_digit()) {
            let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
            let table = match def.name {
                "TransactionType" => &defs().transaction_types,
                "LedgerEntryType" => &defs().ledger_entry_types,
                _ => return Err(invalid()),
            };
            return Ok(StValue::UInt16(
                table.get(s.as_str()).copied().ok_or_else(invalid)?,
            ));
        }
    }
    Ok(StValue::UInt16(
        parse_unsigned(value, u16::MAX as u64, path)? as u16,
    ))
}

/// The STI_UINT32 branch: a `PermissionValue` string is a permission's name.
fn parse_uint32(def: &FieldDef, value: &Value, path: &str) -> Result<StValue, JsonError> {
    if let (Value::String(s), "PermissionValue") = (value, def.name) {
        return crate::protocol::permission::value_of_name(s)
            .map(StValue::UInt32)
            .ok_or_else(|| JsonError::new(JsonErrorKind::InvalidData, path));
    }
    Ok(StValue::UInt32(
        parse_unsigned(value, u32::MAX as u64, path)? as u32,
    ))
}

/// The STI_UINT64 branch of `parseLeaf`: a string in hex (base ten for the
/// [`UINT64_BASE_TEN_FIELDS`]), or a non-negative JSON integer.
fn parse_uint64(def: &FieldDef, value: &Value, path: &str) -> Result<StValue, JsonError> {
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
    Ok(match value {
        Value::String(s) => {
            let radix = if UINT64_BASE_TEN_FIELDS.contains(&def.name) {
                10
            } else {
                16
            };
            StValue::UInt64(from_chars_u64(s, radix).ok_or_else(invalid)?)
        }
        _ => match jnum(value) {
            Some(JNum::Int(i)) => StValue::UInt64(u64::try_from(i).map_err(|_| invalid())?),
            Some(JNum::UInt(u)) => StValue::UInt64(u as u64),
            _ => return Err(JsonError::new(JsonErrorKind::BadType, path)),
        },
    })
}

/// The Hash384, Hash512 and UInt96 branch of `parseLeaf`: hex of exactly the type's
/// width; the empty string is zero.
fn parse_fixed(def: &FieldDef, value: &Value, path: &str) -> Result<StValue, JsonError> {
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
    let width = fixed_width(def.type_code).unwrap_or(0);
    let s = value
        .as_str()
        .ok_or_else(|| JsonError::new(JsonErrorKind::BadType, path))?;
    if s.is_empty() {
        return Ok(StValue::Fixed(vec![0u8; width]));
    }
    let b = hex::decode(s).map_err(|_| invalid())?;
    if b.len() != width {
        return Err(invalid());
    }
    Ok(StValue::Fixed(b))
}

/// The STI_INT32 branch of `parseLeaf`: a decimal string or a JSON integer in range.
fn parse_int32(value: &Value, path: &str) -> Result<StValue, JsonError> {
    let err = |kind| JsonError::new(kind, path);
    Ok(match value {
        Value::String(s) => StValue::Int32(
            lexical_signed(s)
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| err(JsonErrorKind::InvalidData))?,
        ),
        _ => match jnum(value) {
            Some(JNum::Int(i)) => StValue::Int32(i),
            Some(JNum::UInt(_)) => return Err(err(JsonErrorKind::OutOfRange)),
            _ => return Err(err(JsonErrorKind::BadType)),
        },
    })
}

/// The STI_VL branch of `parseLeaf`: hex of at most [`VL_LENGTH_MAX`] bytes.
fn parse_blob(value: &Value, path: &str) -> Result<StValue, JsonError> {
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
    let s = value
        .as_str()
        .ok_or_else(|| JsonError::new(JsonErrorKind::BadType, path))?;
    let b = str_unhex(s).ok_or_else(invalid)?;
    if b.len() > VL_LENGTH_MAX {
        return Err(invalid());
    }
    Ok(StValue::Blob(b))
}

/// The STI_NUMBER branch of `parseLeaf`: a decimal string or a JSON integer.
fn parse_number(value: &Value, path: &str) -> Result<StValue, JsonError> {
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
    let v = match value {
        Value::String(s) => IouValue::parse(s).map_err(|_| invalid())?,
        _ => match jnum(value) {
            Some(JNum::Int(i)) => IouValue::from_i64(i as i64),
            Some(JNum::UInt(u)) => IouValue::from_i64(u as i64),
            _ => return Err(invalid()),
        },
    };
    Ok(StValue::Fixed(number_bytes(&v)))
}

/// The STI_VECTOR256 branch of `parseLeaf`: an array of 256-bit hashes in hex.
fn parse_vector256(value: &Value, path: &str) -> Result<StValue, JsonError> {
    let items: &[Value] = match value {
        Value::Array(a) => a,
        Value::Null => &[],
        _ => return Err(JsonError::new(JsonErrorKind::ArrayExpected, path)),
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let h = item
            .as_str()
            .and_then(Hash256::from_hex)
            .ok_or_else(|| JsonError::new(JsonErrorKind::InvalidData, path))?;
        out.push(h);
    }
    Ok(StValue::Vector256(out))
}

/// The STI_CURRENCY branch of `parseLeaf`: a currency code, never the bad or the "no"
/// currency.
fn parse_currency(value: &Value, path: &str) -> Result<StValue, JsonError> {
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
    let s = value.as_str().ok_or_else(invalid)?;
    let c = Currency::from_json_str(s).map_err(|_| invalid())?;
    if c.is_bad() || is_no_currency(&c) {
        return Err(invalid());
    }
    Ok(StValue::Currency(c))
}

/// `parseUnsigned`: a decimal string, or a JSON integer within the type's range.
fn parse_unsigned(value: &Value, max: u64, path: &str) -> Result<u64, JsonError> {
    let invalid = || JsonError::new(JsonErrorKind::InvalidData, path);
    let v = match value {
        Value::String(s) => lexical_unsigned(s).ok_or_else(invalid)?,
        _ => match jnum(value) {
            Some(JNum::Int(i)) => u64::try_from(i).map_err(|_| invalid())?,
            Some(JNum::UInt(u)) => u as u64,
            _ => return Err(JsonError::new(JsonErrorKind::BadType, path)),
        },
    };
    if v > max {
        return Err(invalid());
    }
    Ok(v)
}

/// `base_uint::parseHex` of exactly N bytes; the empty string is zero.
fn parse_hash<const N: usize>(value: &Value, path: &str) -> Result<[u8; N], JsonError> {
    let s = value
        .as_str()
        .ok_or_else(|| JsonError::new(JsonErrorKind::BadType, path))?;
    let mut out = [0u8; N];
    if s.is_empty() {
        return Ok(out);
    }
    if s.len() != N * 2 || hex::decode_to_slice(s, &mut out).is_err() {
        return Err(JsonError::new(JsonErrorKind::InvalidData, path));
    }
    Ok(out)
}

/// `issueFromJson`: `{"currency":"XRP"}` or `{"currency", "issuer"}`.
pub fn parse_issue(value: &Value) -> Option<Issue> {
    let m = value.as_object()?;
    if m.contains_key("mpt_issuance_id") {
        return None;
    }
    let currency = Currency::from_json_str(m.get("currency")?.as_str()?).ok()?;
    if currency.is_bad() || is_no_currency(&currency) {
        return None;
    }
    let issuer = m.get("issuer").filter(|v| !v.is_null());
    if currency.is_xrp() {
        return issuer.is_none().then_some(Issue::XRP);
    }
    let issuer = AccountId::from_address(issuer?.as_str()?).ok()?;
    Some(Issue { currency, issuer })
}

/// `issueFromJson` for an MPT issue: `None` when the object has no `mpt_issuance_id`;
/// else the ID, if it is 48 hex digits and no `currency` or `issuer` comes with it.
pub fn parse_mpt_issue(value: &Value) -> Option<Option<MptId>> {
    let m = value.as_object()?;
    let id = m.get("mpt_issuance_id")?;
    if m.contains_key("currency") || m.contains_key("issuer") {
        return Some(None);
    }
    Some(id.as_str().and_then(MptId::from_hex))
}

/// The STI_PATHSET branch of `parseLeaf`.
fn parse_pathset(parent: &str, name: &str, value: &Value) -> Result<Vec<Vec<PathStep>>, JsonError> {
    let paths: &[Value] = match value {
        Value::Array(a) => a,
        Value::Null => &[],
        _ => {
            return Err(JsonError::new(
                JsonErrorKind::ArrayExpected,
                join(parent, name),
            ))
        }
    };
    let mut out = Vec::with_capacity(paths.len());
    for (i, p) in paths.iter().enumerate() {
        let steps: &[Value] = match p {
            Value::Array(a) => a,
            Value::Null => &[],
            _ => {
                return Err(JsonError::new(
                    JsonErrorKind::ArrayExpected,
                    join(parent, &format!("{name}[{i}]")),
                ))
            }
        };
        let mut path = Vec::with_capacity(steps.len());
        for (j, step) in steps.iter().enumerate() {
            let elem = join(parent, &format!("{name}[{i}][{j}]"));
            let e = |kind, sub: &str| JsonError::new(kind, join(&elem, sub));
            let Some(m) = step.as_object() else {
                return Err(JsonError::new(JsonErrorKind::NotAnObject, elem));
            };
            let get = |k: &str| m.get(k).filter(|v| !v.is_null());
            let (account, currency, issuer) = (get("account"), get("currency"), get("issuer"));
            if account.is_none() && currency.is_none() && issuer.is_none() {
                return Err(JsonError::new(JsonErrorKind::InvalidData, elem));
            }
            let mut s = PathStep::default();
            if let Some(a) = account {
                let a = a
                    .as_str()
                    .ok_or_else(|| e(JsonErrorKind::StringExpected, "account"))?;
                let a = parse_account(a).ok_or_else(|| e(JsonErrorKind::InvalidData, "account"))?;
                // STPathElement sets the account bit only for a non-zero account.
                s.account = (a != AccountId::ZERO).then_some(a);
            }
            if let Some(c) = currency {
                let c = c
                    .as_str()
                    .ok_or_else(|| e(JsonErrorKind::StringExpected, "currency"))?;
                let c = Currency::from_json_str(c)
                    .map_err(|_| e(JsonErrorKind::InvalidData, "currency"))?;
                s.currency = Some(c);
            }
            if let Some(a) = issuer {
                let a = a
                    .as_str()
                    .ok_or_else(|| e(JsonErrorKind::StringExpected, "issuer"))?;
                let a = parse_account(a).ok_or_else(|| e(JsonErrorKind::InvalidData, "issuer"))?;
                s.issuer = (a != AccountId::ZERO).then_some(a);
            }
            if s == PathStep::default() {
                // Only zero accounts: rippled would write a 0x00 type byte, which ends
                // the path set early and corrupts the blob. Refuse instead.
                return Err(JsonError::new(JsonErrorKind::InvalidData, elem));
            }
            path.push(s);
        }
        out.push(path);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn perr(v: Value) -> JsonError {
        match from_json(&v) {
            Err(CodecError::Json(e)) => e,
            other => panic!("expected a JSON error, got {other:?}"),
        }
    }

    #[test]
    fn rippled_error_messages() {
        let cases = [
            (json!({"Foo": 1}), "Field 'tx_json.Foo' is unknown."),
            (json!({"Fee": "1.5"}), "Field 'tx_json.Fee' has invalid data."),
            (json!({"Sequence": "x"}), "Field 'tx_json.Sequence' has invalid data."),
            (json!({"Sequence": true}), "Field 'tx_json.Sequence' has bad type."),
            (json!({"Sequence": -1}), "Field 'tx_json.Sequence' has invalid data."),
            (json!({"Sequence": 4294967296u64}), "Field 'tx_json.Sequence' has bad type."),
            (json!({"TickSize": 300}), "Field 'tx_json.TickSize' is out of range."),
            (json!({"TickSize": "abc"}), "Field 'tx_json.TickSize' has bad type."),
            (json!({"TransactionType": "Nope"}), "Field 'tx_json.TransactionType' has invalid data."),
            (json!({"Flags": "+5", "TransferFee": "+5"}), "Field 'tx_json.TransferFee' has invalid data."),
            (json!({"Account": 5}), "Field 'tx_json.Account' has bad type."),
            (json!({"Account": "rNope"}), "Field 'tx_json.Account' has invalid data."),
            (json!({"Memos": {}}), "Field 'tx_json.Memos' is not a JSON array."),
            (json!({"Memos": [1]}), "Field 'tx_json.Memos[0]' must be an object with a single key/object value."),
            (json!({"Memos": [{"Memo": {"MemoType": "ZZ"}}]}),
             "Error at 'tx_json.Memos.[0].Memo'. Field 'tx_json.Memos.[0].Memo.MemoType' has invalid data."),
            (json!({"Memos": [{"Nope": {}}]}), "Field 'tx_json.Memos.Nope' is unknown."),
            (json!({"Memo": 1}), "Field 'tx_json.Memo' is not a JSON object."),
            (json!({"Paths": [[{}]]}), "Field 'tx_json.Paths[0][0]' has invalid data."),
            (json!({"Paths": [[{"account": 1}]]}), "Field 'tx_json.Paths[0][0].account' must be a string."),
            (json!({"Paths": [1]}), "Field 'tx_json.Paths[0]' must be a JSON array."),
            (json!({"Indexes": "x"}), "Field 'tx_json.Indexes' must be a JSON array."),
            (json!({"OwnerNode": "xyz"}), "Field 'tx_json.OwnerNode' has invalid data."),
            (json!({"OwnerNode": "+1"}), "Field 'tx_json.OwnerNode' has invalid data."),
            (json!({"EmailHash": "00"}), "Field 'tx_json.EmailHash' has invalid data."),
            (json!({"ObjectEndMarker": {}}), "Field 'tx_json.ObjectEndMarker' is unknown."),
            (json!([]), "Field 'tx_json' is not a JSON object."),
            (json!({"Signers": [{"Signer": {"Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}}]}),
             "Error at 'tx_json.Signers.[0].Signer'. Object 'Signer' contents did not meet requirements for that type."),
            (json!({"AuctionSlot": {"Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "Expiration": 1,
                                    "Price": "1", "DiscountedFee": 0}}),
             "Object 'AuctionSlot' contents did not meet requirements for that type."),
        ];
        for (v, msg) in cases {
            assert_eq!(perr(v.clone()).message("tx_json"), msg, "{v}");
        }
    }

    #[test]
    fn json_depth_is_bounded() {
        let mut v = json!({});
        for _ in 0..STOBJECT_JSON_DEPTH_MAX + 1 {
            v = json!({ "Memo": v });
        }
        assert_eq!(perr(v).kind, JsonErrorKind::TooDeep);
        let mut v = json!({});
        for _ in 0..STOBJECT_JSON_DEPTH_MAX {
            v = json!({ "Memo": v });
        }
        assert!(from_json(&v).is_ok());
    }

    #[test]
    fn scalar_forms() {
        let o = from_json(&json!({
            "Sequence": "+7", "Flags": 2147483648u32, "OwnerNode": "FF",
            "MaximumAmount": "255", "EmailHash": "", "Domain": "ABC",
            "TransactionType": 0, "LedgerEntryType": "AccountRoot",
            "TransactionResult": "tecPATH_DRY", "Account": "B5F762798A53D543A014CAF8B297CFF8F2F937E8",
        }))
        .unwrap();
        assert_eq!(o.get_u32("Sequence"), Some(7));
        assert_eq!(o.get_u32("Flags"), Some(0x8000_0000));
        assert_eq!(o.get_u64("OwnerNode"), Some(255));
        assert_eq!(o.get_u64("MaximumAmount"), Some(255));
        assert_eq!(o.get_h128("EmailHash"), Some(Hash128::ZERO));
        assert_eq!(o.get_blob("Domain"), Some(&[0x0A, 0xBC][..]));
        let j = to_json(&o);
        assert_eq!(j["OwnerNode"], "ff");
        assert_eq!(j["MaximumAmount"], "255");
        assert_eq!(j["TransactionType"], "Payment");
        assert_eq!(j["LedgerEntryType"], "AccountRoot");
        assert_eq!(j["TransactionResult"], "tecPATH_DRY");
        assert_eq!(j["Account"], "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh");
        let keys: Vec<_> = j.as_object().unwrap().keys().cloned().collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }

    /// STNumber bytes as xrpl-py 5.2's and xrpl.js's codecs write them (and rippled 3.x):
    /// a 19-digit mantissa, cut to 18 when it would not fit an i64.
    #[test]
    fn st_number_bytes_match_the_client_libraries() {
        for (text, hex) in [
            ("5000000", "4563918244F40000FFFFFFF4"),
            ("0", "000000000000000080000000"),
            ("-1.5", "EB2EEDF284EA0000FFFFFFEE"),
            ("9500000000000000", "0D2F13F7789F0000FFFFFFFE"),
            ("1e-20", "0DE0B6B3A7640000FFFFFFDA"),
            ("123.456", "112209C76DE80000FFFFFFF0"),
            ("1666666.666666667", "17213080C1A6ABF8FFFFFFF4"),
            ("100", "0DE0B6B3A7640000FFFFFFF0"),
        ] {
            let o = from_json(&json!({"PrincipalRequested": text})).unwrap();
            let blob = crate::protocol::types::hex_upper(super::super::encode(&o));
            assert!(blob.ends_with(hex), "{text}: {blob}");
            assert_eq!(to_json(&o)["PrincipalRequested"], text);
        }
    }

    #[test]
    fn issue_currency_number() {
        let o = from_json(&json!({
            "Asset": {"currency": "XRP"},
            "Asset2": {"currency": "USD", "issuer": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"},
            "BaseAsset": "EUR",
            "Number": "-1.5",
            "AssetsTotal": 0,
        }))
        .unwrap();
        let j = to_json(&o);
        assert_eq!(j["Asset"], json!({"currency": "XRP"}));
        assert_eq!(j["Asset2"]["currency"], "USD");
        assert_eq!(j["BaseAsset"], "EUR");
        assert_eq!(j["Number"], "-1.5");
        assert_eq!(scientific_trimmed("9999900000000000e9"), "99999e20");
        assert_eq!(scientific_trimmed("-1000000000000000e-30"), "-1e-15");
        assert_eq!(j["AssetsTotal"], "0");
        for bad in [
            json!({"Asset": {"currency": "XRP", "issuer": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}}),
            json!({"Asset": {"currency": "USD"}}),
            json!({"BaseAsset": "0000000000000000000000005852500000000000"}),
        ] {
            assert_eq!(perr(bad).kind, JsonErrorKind::InvalidData);
        }
    }
}
