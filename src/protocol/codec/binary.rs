//! The canonical binary form (rippled's `Serializer` / `SerialIter`).
//!
//! Writing: fields sorted by `(type code, field code)` (the model keeps them sorted),
//! only `isSerialized` fields, inner objects closed by `E1`, arrays by `F1`, no end
//! marker at the top level.
//!
//! Reading follows `STObject::set(SerialIter&)`, `STArray(SerialIter&)`, `STVar` and
//! the per-type constructors: every field-header form with its range checks, unknown
//! field codes refused, lengths checked against the remaining input before anything is
//! allocated, duplicates refused, nesting bounded by [`CODEC_BINARY_DEPTH_MAX`], and
//! the amount checks of `amount.rs`. Like rippled, the field order on the wire is not
//! checked (the model re-sorts, so re-encoding gives the canonical form). Unlike
//! rippled, an inner object or array that runs to the end of the input without its end
//! marker is refused: rippled would accept it and hash a different (re-serialized)
//! form, which is a trap rather than a feature.

use super::error::CodecError;
use super::template;
use super::CODEC_BINARY_DEPTH_MAX;
use crate::protocol::amount::Amount;
use crate::protocol::definitions::{defs, Field, FieldDef};
use crate::protocol::mpt::{MptAmount, MptId, MPT_AMOUNT_WIDTH, MPT_ISSUE_WIDTH};
use crate::protocol::st::{PathStep, StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash128, Hash160, Hash256, Issue};
use crate::protocol::xchain::XChainBridge;

/// Type codes of definitions.json `TYPES`.
pub(crate) mod type_code {
    pub const UINT16: u16 = 1;
    pub const UINT32: u16 = 2;
    pub const UINT64: u16 = 3;
    pub const HASH128: u16 = 4;
    pub const HASH256: u16 = 5;
    pub const AMOUNT: u16 = 6;
    pub const BLOB: u16 = 7;
    pub const ACCOUNT_ID: u16 = 8;
    pub const NUMBER: u16 = 9;
    pub const INT32: u16 = 10;
    pub const INT64: u16 = 11;
    pub const OBJECT: u16 = 14;
    pub const ARRAY: u16 = 15;
    pub const UINT8: u16 = 16;
    pub const HASH160: u16 = 17;
    pub const PATHSET: u16 = 18;
    pub const VECTOR256: u16 = 19;
    pub const UINT96: u16 = 20;
    pub const HASH192: u16 = 21;
    pub const HASH384: u16 = 22;
    pub const HASH512: u16 = 23;
    pub const ISSUE: u16 = 24;
    pub const XCHAIN_BRIDGE: u16 = 25;
    pub const CURRENCY: u16 = 26;
}
use type_code as tc;

/// Width in bytes of the fixed-width types held as [`StValue::Fixed`].
pub(crate) fn fixed_width(type_code: u16) -> Option<usize> {
    match type_code {
        tc::NUMBER | tc::UINT96 => Some(12),
        tc::HASH192 => Some(24),
        tc::HASH384 => Some(48),
        tc::HASH512 => Some(64),
        _ => None,
    }
}

/// The largest length a variable-length prefix can express (three-byte form).
pub const VL_LENGTH_MAX: usize = 918_744;

/// Path step type bits (`STPathElement::typeAccount` etc.).
const PATH_ACCOUNT: u8 = 0x01;
const PATH_CURRENCY: u8 = 0x10;
const PATH_ISSUER: u8 = 0x20;
const PATH_BOUNDARY: u8 = 0xFF;
const PATH_END: u8 = 0x00;

/// Header byte of the object end marker (STObject, field 1).
const OBJECT_END: u8 = 0xE1;
/// Header byte of the array end marker (STArray, field 1).
const ARRAY_END: u8 = 0xF1;

// ---------------------------------------------------------------- writing

/// Appends a field header in the shortest of its four forms.
pub(crate) fn write_field_header(out: &mut Vec<u8>, type_code: u16, nth: u16) {
    let (t, n) = (type_code as u8, nth as u8);
    match (type_code < 16, nth < 16) {
        (true, true) => out.push((t << 4) | n),
        (true, false) => out.extend_from_slice(&[t << 4, n]),
        (false, true) => out.extend_from_slice(&[n, t]),
        (false, false) => out.extend_from_slice(&[0, t, n]),
    }
}

/// Appends a variable-length prefix. Lengths above [`VL_LENGTH_MAX`] cannot be
/// expressed; callers clamp the data (parsed input never gets there).
fn write_vl(out: &mut Vec<u8>, data: &[u8]) {
    let data = &data[..data.len().min(VL_LENGTH_MAX)];
    let len = data.len();
    if len <= 192 {
        out.push(len as u8);
    } else if len <= 12_480 {
        let l = len - 193;
        out.extend_from_slice(&[193 + (l >> 8) as u8, (l & 0xFF) as u8]);
    } else {
        let l = len - 12_481;
        out.extend_from_slice(&[
            241 + (l >> 16) as u8,
            ((l >> 8) & 0xFF) as u8,
            (l & 0xFF) as u8,
        ]);
    }
    out.extend_from_slice(data);
}

/// Writes the fields of `obj` (no end marker). With `signing_only`, fields whose
/// `isSigningField` is false are left out (rippled applies this at the top level only).
pub(crate) fn write_fields(out: &mut Vec<u8>, obj: &StObject, signing_only: bool) {
    for (field, value) in obj.iter() {
        let def = field.def();
        if !def.is_serialized || (signing_only && !def.is_signing_field) {
            continue;
        }
        write_field_header(out, def.type_code, def.nth);
        write_value(out, value);
    }
}

fn write_value(out: &mut Vec<u8>, value: &StValue) {
    match value {
        StValue::UInt8(v) => out.push(*v),
        StValue::UInt16(v) => out.extend_from_slice(&v.to_be_bytes()),
        StValue::UInt32(v) => out.extend_from_slice(&v.to_be_bytes()),
        StValue::UInt64(v) => out.extend_from_slice(&v.to_be_bytes()),
        StValue::Int32(v) => out.extend_from_slice(&v.to_be_bytes()),
        StValue::Int64(v) => out.extend_from_slice(&v.to_be_bytes()),
        StValue::Hash128(h) => out.extend_from_slice(&h.0),
        StValue::Hash160(h) => out.extend_from_slice(&h.0),
        StValue::Hash256(h) => out.extend_from_slice(&h.0),
        StValue::Fixed(b) => out.extend_from_slice(b),
        StValue::Amount(a) => write_amount(out, a),
        StValue::Blob(b) => write_vl(out, b),
        StValue::AccountId(a) => write_vl(out, &a.0),
        StValue::Object(o) => {
            write_fields(out, o, false);
            out.push(OBJECT_END);
        }
        StValue::Array(items) => {
            for (f, o) in items {
                let d = f.def();
                write_field_header(out, d.type_code, d.nth);
                write_fields(out, o, false);
                out.push(OBJECT_END);
            }
            out.push(ARRAY_END);
        }
        StValue::PathSet(paths) => write_pathset(out, paths),
        StValue::Vector256(v) => {
            let mut bytes = Vec::with_capacity(v.len() * 32);
            for h in v {
                bytes.extend_from_slice(&h.0);
            }
            write_vl(out, &bytes);
        }
        StValue::Currency(c) => out.extend_from_slice(&c.0),
        StValue::Issue(i) => {
            out.extend_from_slice(&i.currency.0);
            if !i.currency.is_xrp() {
                out.extend_from_slice(&i.issuer.0);
            }
        }
        StValue::MptAmount(a) => out.extend_from_slice(&a.to_bytes()),
        StValue::MptIssue(id) => out.extend_from_slice(&id.issue_bytes()),
        StValue::XChainBridge(b) => b.write(out),
    }
}

fn write_amount(out: &mut Vec<u8>, a: &Amount) {
    // Same bytes as Amount::to_bytes, without the intermediate Vec.
    match a {
        Amount::Xrp(d) => {
            let mut w = d.unsigned_abs();
            if *d >= 0 {
                w |= 0x4000_0000_0000_0000;
            }
            out.extend_from_slice(&w.to_be_bytes());
        }
        Amount::Iou {
            value,
            currency,
            issuer,
        } => {
            out.extend_from_slice(&value.to_bits().to_be_bytes());
            out.extend_from_slice(&currency.0);
            out.extend_from_slice(&issuer.0);
        }
    }
}

/// The type byte of a path step.
pub(crate) fn path_step_type(s: &PathStep) -> u8 {
    (if s.account.is_some() { PATH_ACCOUNT } else { 0 })
        | (if s.currency.is_some() {
            PATH_CURRENCY
        } else {
            0
        })
        | (if s.issuer.is_some() { PATH_ISSUER } else { 0 })
}

fn write_pathset(out: &mut Vec<u8>, paths: &[Vec<PathStep>]) {
    for (i, path) in paths.iter().enumerate() {
        if i > 0 {
            out.push(PATH_BOUNDARY);
        }
        for step in path {
            out.push(path_step_type(step));
            if let Some(a) = &step.account {
                out.extend_from_slice(&a.0);
            }
            if let Some(c) = &step.currency {
                out.extend_from_slice(&c.0);
            }
            if let Some(a) = &step.issuer {
                out.extend_from_slice(&a.0);
            }
        }
    }
    out.push(PATH_END);
}

// ---------------------------------------------------------------- reading

/// A cursor over the input; every read checks the remaining length first.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], CodecError> {
        if n > self.remaining() {
            return Err(CodecError::Truncated);
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], CodecError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u8(&mut self) -> Result<u8, CodecError> {
        Ok(self.take(1)?[0])
    }

    /// `SerialIter::getFieldID`: the short forms are required for codes below 16.
    fn field_header(&mut self) -> Result<(u16, u16), CodecError> {
        let b = self.u8()?;
        let mut t = (b >> 4) as u16;
        let mut n = (b & 0x0F) as u16;
        if t == 0 {
            t = self.u8()? as u16;
            if t < 16 {
                return Err(CodecError::BadFieldHeader {
                    which: "type",
                    code: t,
                });
            }
        }
        if n == 0 {
            n = self.u8()? as u16;
            if n < 16 {
                return Err(CodecError::BadFieldHeader {
                    which: "name",
                    code: n,
                });
            }
        }
        Ok((t, n))
    }

    /// `SerialIter::getVLDataLength`, then the bytes, checked against what is left.
    fn vl(&mut self, field: &'static str) -> Result<&'a [u8], CodecError> {
        let b1 = self.u8()? as usize;
        let len = if b1 <= 192 {
            b1
        } else if b1 <= 240 {
            let b2 = self.u8()? as usize;
            193 + (b1 - 193) * 256 + b2
        } else if b1 <= 254 {
            let b2 = self.u8()? as usize;
            let b3 = self.u8()? as usize;
            12_481 + (b1 - 241) * 65_536 + b2 * 256 + b3
        } else {
            return Err(CodecError::BadLength);
        };
        if len > self.remaining() {
            return Err(CodecError::LengthOverrun { field });
        }
        self.take(len)
    }
}

/// Decodes a top-level object: the whole input, no end marker.
pub(crate) fn decode(bytes: &[u8]) -> Result<StObject, CodecError> {
    let mut r = Reader { buf: bytes, pos: 0 };
    let obj = read_object(&mut r, 0, None)?;
    debug_assert!(r.is_empty());
    Ok(obj)
}

/// `STObject::set(SerialIter&, depth)`. `inner` names the enclosing field of an inner
/// object (which must end with `E1`); `None` for the top level (which must not).
fn read_object(
    r: &mut Reader<'_>,
    depth: usize,
    inner: Option<&'static str>,
) -> Result<StObject, CodecError> {
    let mut obj = StObject::new();
    loop {
        if r.is_empty() {
            return match inner {
                Some(field) => Err(CodecError::MissingEndMarker { field }),
                None => Ok(obj),
            };
        }
        let (t, n) = r.field_header()?;
        if (t, n) == (tc::OBJECT, 1) {
            return match inner {
                Some(_) => Ok(obj),
                None => Err(CodecError::ObjectEndAtTop),
            };
        }
        if (t, n) == (tc::ARRAY, 1) {
            return Err(CodecError::ArrayEndInObject);
        }
        let field = defs().field_by_code(t, n).ok_or(CodecError::UnknownField {
            type_code: t,
            nth: n,
        })?;
        let value = read_value(r, field, depth + 1)?;
        if obj.get(field).is_some() {
            return Err(CodecError::DuplicateField {
                field: field.name(),
            });
        }
        obj.set(field, value);
    }
}

/// `STVar(SerialIter&, SField, depth)`.
fn read_value(r: &mut Reader<'_>, field: Field, depth: usize) -> Result<StValue, CodecError> {
    if depth > CODEC_BINARY_DEPTH_MAX {
        return Err(CodecError::TooDeep);
    }
    let def: &'static FieldDef = field.def();
    let name = def.name;
    Ok(match def.type_code {
        tc::UINT8 => StValue::UInt8(r.u8()?),
        tc::UINT16 => StValue::UInt16(u16::from_be_bytes(r.array()?)),
        tc::UINT32 => StValue::UInt32(u32::from_be_bytes(r.array()?)),
        tc::UINT64 => StValue::UInt64(u64::from_be_bytes(r.array()?)),
        tc::INT32 => StValue::Int32(i32::from_be_bytes(r.array()?)),
        tc::INT64 => StValue::Int64(i64::from_be_bytes(r.array()?)),
        tc::HASH128 => StValue::Hash128(Hash128(r.array()?)),
        tc::HASH160 => StValue::Hash160(Hash160(r.array()?)),
        tc::HASH256 => StValue::Hash256(Hash256(r.array()?)),
        tc::CURRENCY => StValue::Currency(Currency(r.array()?)),
        t if fixed_width(t).is_some() => {
            StValue::Fixed(r.take(fixed_width(t).unwrap_or(0))?.to_vec())
        }
        tc::AMOUNT if r.remaining() > 0 && MptAmount::is_mpt_lead(r.buf[r.pos]) => {
            let rest = &r.buf[r.pos..];
            let a = MptAmount::from_bytes(rest).map_err(|source| CodecError::Amount {
                field: name,
                source,
            })?;
            r.take(MPT_AMOUNT_WIDTH)?;
            StValue::MptAmount(a)
        }
        tc::AMOUNT => {
            let rest = &r.buf[r.pos..];
            let (a, used) = Amount::from_bytes(rest).map_err(|source| CodecError::Amount {
                field: name,
                source,
            })?;
            r.take(used)?;
            StValue::Amount(a)
        }
        tc::BLOB => StValue::Blob(r.vl(name)?.to_vec()),
        tc::ACCOUNT_ID => {
            let b = r.vl(name)?;
            // rippled also accepts an empty AccountID (a "default" STAccount); the
            // model has no such value and no valid transaction or entry carries one.
            let a: [u8; 20] = b
                .try_into()
                .map_err(|_| CodecError::BadAccountSize { field: name })?;
            StValue::AccountId(AccountId(a))
        }
        tc::VECTOR256 => {
            let b = r.vl(name)?;
            if b.len() % 32 != 0 {
                return Err(CodecError::BadVector256 { field: name });
            }
            StValue::Vector256(
                b.chunks_exact(32)
                    .map(|c| {
                        let mut h = [0u8; 32];
                        h.copy_from_slice(c);
                        Hash256(h)
                    })
                    .collect(),
            )
        }
        tc::OBJECT => {
            let obj = read_object(r, depth, Some(name))?;
            check_template(name, &obj)?;
            StValue::Object(obj)
        }
        tc::ARRAY => StValue::Array(read_array(r, depth, name)?),
        tc::PATHSET => StValue::PathSet(read_pathset(r, name)?),
        tc::ISSUE => {
            let currency = Currency(r.array()?);
            if currency.is_xrp() {
                StValue::Issue(Issue::XRP)
            } else {
                let issuer = AccountId(r.array()?);
                if issuer == AccountId::ONE {
                    // noAccount() as the issuer marks an MPT issue: a 4-byte sequence
                    // follows.
                    let mut b = [0u8; MPT_ISSUE_WIDTH];
                    b[..20].copy_from_slice(&currency.0);
                    b[20..40].copy_from_slice(&issuer.0);
                    b[40..].copy_from_slice(r.take(4)?);
                    return Ok(StValue::MptIssue(MptId::from_issue_bytes(&b)));
                }
                if issuer == AccountId::ZERO {
                    return Err(CodecError::BadIssue { field: name });
                }
                StValue::Issue(Issue { currency, issuer })
            }
        }
        tc::XCHAIN_BRIDGE => StValue::XChainBridge(read_bridge(r, name)?),
        _ => {
            return Err(CodecError::Unsupported {
                field: name,
                type_name: def.type_name,
            })
        }
    })
}

/// `STXChainBridge(SerialIter&)`: door (VL AccountID), issue, door, issue.
fn read_bridge(r: &mut Reader<'_>, name: &'static str) -> Result<XChainBridge, CodecError> {
    let door = |r: &mut Reader<'_>| -> Result<AccountId, CodecError> {
        let b = r.vl(name)?;
        b.try_into()
            .map(AccountId)
            .map_err(|_| CodecError::BadAccountSize { field: name })
    };
    let issue = |r: &mut Reader<'_>| -> Result<Issue, CodecError> {
        let currency = Currency(r.array()?);
        if currency.is_xrp() {
            return Ok(Issue::XRP);
        }
        let issuer = AccountId(r.array()?);
        if issuer == AccountId::ZERO || issuer == AccountId::ONE {
            return Err(CodecError::BadIssue { field: name });
        }
        Ok(Issue { currency, issuer })
    };
    let locking_door = door(r)?;
    let locking_issue = issue(r)?;
    let issuing_door = door(r)?;
    let issuing_issue = issue(r)?;
    Ok(XChainBridge {
        locking_door,
        locking_issue,
        issuing_door,
        issuing_issue,
    })
}

/// `applyTemplateFromSField` after reading an inner object.
fn check_template(object: &'static str, obj: &StObject) -> Result<(), CodecError> {
    template::check(object, obj).map_err(|e| CodecError::Template {
        object,
        field: e.field,
        reason: e.reason,
    })
}

/// `STArray(SerialIter&, SField, depth)`: one-field objects until `F1`.
fn read_array(
    r: &mut Reader<'_>,
    depth: usize,
    name: &'static str,
) -> Result<Vec<(Field, StObject)>, CodecError> {
    let mut items = Vec::new();
    loop {
        if r.is_empty() {
            return Err(CodecError::MissingEndMarker { field: name });
        }
        let (t, n) = r.field_header()?;
        if (t, n) == (tc::ARRAY, 1) {
            return Ok(items);
        }
        if (t, n) == (tc::OBJECT, 1) {
            return Err(CodecError::ObjectEndInArray);
        }
        let field = defs().field_by_code(t, n).ok_or(CodecError::UnknownField {
            type_code: t,
            nth: n,
        })?;
        if field.def().type_code != tc::OBJECT {
            return Err(CodecError::NonObjectInArray {
                field: field.name(),
            });
        }
        if depth + 1 > CODEC_BINARY_DEPTH_MAX {
            return Err(CodecError::TooDeep);
        }
        let obj = read_object(r, depth + 1, Some(field.name()))?;
        check_template(field.name(), &obj)?;
        items.push((field, obj));
    }
}

/// `STPathSet(SerialIter&)`: steps, `FF` between paths, `00` at the end; no empty path.
fn read_pathset(r: &mut Reader<'_>, name: &'static str) -> Result<Vec<Vec<PathStep>>, CodecError> {
    let mut paths = Vec::new();
    let mut path = Vec::new();
    loop {
        let t = r.u8()?;
        if t == PATH_END || t == PATH_BOUNDARY {
            if path.is_empty() {
                return Err(CodecError::EmptyPath { field: name });
            }
            paths.push(std::mem::take(&mut path));
            if t == PATH_END {
                return Ok(paths);
            }
        } else if t & !(PATH_ACCOUNT | PATH_CURRENCY | PATH_ISSUER) != 0 {
            // Includes 0x40 (MPT steps), which ledgerd does not model.
            return Err(CodecError::BadPathElement {
                field: name,
                byte: t,
            });
        } else {
            let account = if t & PATH_ACCOUNT != 0 {
                Some(AccountId(r.array()?))
            } else {
                None
            };
            let currency = if t & PATH_CURRENCY != 0 {
                Some(Currency(r.array()?))
            } else {
                None
            };
            let issuer = if t & PATH_ISSUER != 0 {
                Some(AccountId(r.array()?))
            } else {
                None
            };
            path.push(PathStep {
                account,
                currency,
                issuer,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hdr(t: u16, n: u16) -> String {
        let mut v = Vec::new();
        write_field_header(&mut v, t, n);
        crate::protocol::types::hex_upper(v)
    }

    #[test]
    fn header_forms_and_their_checks() {
        assert_eq!(hdr(8, 1), "81");
        assert_eq!(hdr(2, 39), "2027");
        assert_eq!(hdr(17, 1), "0111");
        assert_eq!(hdr(16, 16), "001010");
        // A long form for a short code is refused, as gFID does.
        for bad in ["0001", "1001", "000101"] {
            let b = hex::decode(bad).unwrap();
            let mut r = Reader { buf: &b, pos: 0 };
            assert!(matches!(
                r.field_header(),
                Err(CodecError::BadFieldHeader { .. })
            ));
        }
    }

    #[test]
    fn vl_edges() {
        for (len, prefix) in [
            (0usize, "00"),
            (192, "C0"),
            (193, "C100"),
            (12_480, "F0FF"),
            (12_481, "F10000"),
            (VL_LENGTH_MAX, "FED417"),
        ] {
            let data = vec![7u8; len];
            let mut out = Vec::new();
            write_vl(&mut out, &data);
            assert_eq!(
                crate::protocol::types::hex_upper(&out[..out.len() - len]),
                prefix,
                "{len}"
            );
            let mut r = Reader { buf: &out, pos: 0 };
            assert_eq!(r.vl("Domain").unwrap().len(), len);
            assert!(r.is_empty());
        }
        let b = hex::decode("FF").unwrap();
        assert_eq!(
            Reader { buf: &b, pos: 0 }.vl("Domain"),
            Err(CodecError::BadLength)
        );
        let b = hex::decode("C100AB").unwrap();
        assert!(matches!(
            Reader { buf: &b, pos: 0 }.vl("Domain"),
            Err(CodecError::LengthOverrun { .. })
        ));
    }

    #[test]
    fn structural_rejections() {
        type Check = fn(&CodecError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("E1", |e| matches!(e, CodecError::ObjectEndAtTop)),
            ("F1", |e| matches!(e, CodecError::ArrayEndInObject)),
            ("22000000012200", |e| matches!(e, CodecError::Truncated)),
            ("22000000012200000001", |e| {
                matches!(e, CodecError::DuplicateField { field: "Flags" })
            }),
            ("20C800000001", |e| {
                matches!(e, CodecError::UnknownField { .. })
            }),
            ("E9", |e| matches!(e, CodecError::MissingEndMarker { .. })),
            ("F9", |e| matches!(e, CodecError::MissingEndMarker { .. })),
            ("F9E1", |e| matches!(e, CodecError::ObjectEndInArray)),
            ("F92200000001F1", |e| {
                matches!(e, CodecError::NonObjectInArray { .. })
            }),
            ("011200", |e| matches!(e, CodecError::EmptyPath { .. })),
            ("011202", |e| matches!(e, CodecError::BadPathElement { .. })),
            ("8100", |e| matches!(e, CodecError::BadAccountSize { .. })),
            // A Signer without SigningPubKey and TxnSignature breaks its template.
            (
                "F3E01081140000000000000000000000000000000000000001E1F1",
                |e| {
                    matches!(
                        e,
                        CodecError::Template {
                            object: "Signer",
                            ..
                        }
                    )
                },
            ),
            ("8101AA", |e| matches!(e, CodecError::BadAccountSize { .. })),
            ("011310AA", |e| {
                matches!(e, CodecError::LengthOverrun { .. })
            }),
            ("6100000000", |e| matches!(e, CodecError::Amount { .. })),
        ];
        for (h, want) in cases {
            let b = hex::decode(h).unwrap();
            let got = decode(&b);
            match got {
                Err(e) => assert!(want(&e), "{h}: {e:?}"),
                Ok(o) => panic!("{h}: decoded {o:?}"),
            }
        }
    }

    #[test]
    fn nesting_is_bounded() {
        // Memo objects nested inside each other: E A ... each level one byte deep.
        let b: Vec<u8> = std::iter::repeat_n(0xEA, CODEC_BINARY_DEPTH_MAX + 1)
            .chain(std::iter::repeat_n(OBJECT_END, CODEC_BINARY_DEPTH_MAX + 1))
            .collect();
        assert_eq!(decode(&b), Err(CodecError::TooDeep));
        let ok: Vec<u8> = std::iter::repeat_n(0xEA, CODEC_BINARY_DEPTH_MAX)
            .chain(std::iter::repeat_n(OBJECT_END, CODEC_BINARY_DEPTH_MAX))
            .collect();
        let o = decode(&ok).unwrap();
        let mut again = Vec::new();
        write_fields(&mut again, &o, false);
        assert_eq!(again, ok);
    }

    #[test]
    fn unsorted_input_is_accepted_and_resorted() {
        let b = hex::decode("24000000052200000000").unwrap();
        let o = decode(&b).unwrap();
        let mut out = Vec::new();
        write_fields(&mut out, &o, false);
        assert_eq!(
            crate::protocol::types::hex_upper(out),
            "22000000002400000005"
        );
    }
}
