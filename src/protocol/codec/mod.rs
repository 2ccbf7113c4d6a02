//! The binary and JSON forms of [`StObject`], byte-exact with rippled.
//!
//! - [`encode`] / [`encode_for_signing`] / [`decode`]: the canonical binary form
//!   (`binary.rs`; the reading rules and the one place we are stricter than rippled are
//!   described there).
//! - [`to_json`] / [`from_json`]: rippled's `getJson` and `STParsedJSON` (`json.rs`).
//!   JSON errors keep rippled's kind and field path; [`JsonError::message`] prints
//!   rippled's text for a given root name (`tx_json`).
//!
//! Where rippled and the client libraries disagree, we follow rippled: UInt64 fields
//! print as lower-case hex without leading zeros (decimal for [`UINT64_BASE_TEN_FIELDS`]),
//! IOU values print with `getText` (`1000000000000000e-95`), path steps carry `type`,
//! more than 16 significant digits are rounded rather than refused, and
//! `{"currency":"XRP",...}` objects are refused.

mod binary;
mod error;
mod json;
mod template;

pub use binary::VL_LENGTH_MAX;
pub use error::{CodecError, JsonError, JsonErrorKind};
pub use json::{parse_issue as issue_from_json, UINT64_BASE_TEN_FIELDS};

use serde_json::Value;

use super::st::StObject;
use std::sync::atomic::{AtomicU64, Ordering};

/// Deepest nesting the binary decoder accepts: rippled's `STVar` and `STObject`
/// constructors throw "Maximum nesting depth" when a field sits deeper than 10 levels.
pub const CODEC_BINARY_DEPTH_MAX: usize = 10;
/// Deepest nesting of fields in an object given as JSON (a `tx_json`, a ledger entry) that
/// the codec turns into an STObject: rippled's `STParsedJSON` `maxDepth` ("Field '...'
/// exceeds nesting depth limit."). Whole requests are bounded first by
/// [`crate::limits::REQUEST_JSON_DEPTH_MAX`].
pub const STOBJECT_JSON_DEPTH_MAX: usize = 64;

static ENCODES: AtomicU64 = AtomicU64::new(0);

/// How many transactions (objects with a TransactionType) [`encode`] has serialized in
/// this process (a relaxed counter: tests use it to show a submitted transaction is
/// serialized once; metadata and ledger entries, serialized as they are kept, do not count).
pub fn encode_count() -> u64 {
    ENCODES.load(Ordering::Relaxed)
}

/// The TransactionType field, looked up once.
static TRANSACTION_TYPE: std::sync::LazyLock<super::definitions::Field> =
    std::sync::LazyLock::new(|| super::definitions::Field::named("TransactionType"));

/// The canonical serialization of a top-level object: fields sorted by
/// `(type code, field code)`, only `isSerialized` fields, no end marker.
///
/// The model must hold values of each field's type (as `decode` and `from_json`
/// produce); a blob longer than [`VL_LENGTH_MAX`] is cut to that length.
pub fn encode(obj: &StObject) -> Vec<u8> {
    if obj.get(*TRANSACTION_TYPE).is_some() {
        ENCODES.fetch_add(1, Ordering::Relaxed);
    }
    let mut out = Vec::with_capacity(256);
    binary::write_fields(&mut out, obj, false);
    out
}

/// As [`encode`], without the top-level fields whose `isSigningField` is false
/// (`TxnSignature`, `Signers`, `Signature`, `MasterSignature`, ...): rippled's
/// `addWithoutSigningFields`.
pub fn encode_for_signing(obj: &StObject) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    binary::write_fields(&mut out, obj, true);
    out
}

/// Reads a top-level object from its binary form. The whole input must be one object;
/// every check of rippled's deserializer applies (see `binary.rs`). Never panics;
/// allocations are bounded by the input length.
pub fn decode(bytes: &[u8]) -> Result<StObject, CodecError> {
    binary::decode(bytes)
}

/// rippled's JSON of an object (`STObject::getJson`), keys sorted as rippled prints them.
pub fn to_json(obj: &StObject) -> Value {
    json::to_json(obj)
}

/// Parses rippled's JSON form of an object (`STParsedJSONObject`). Errors are
/// [`CodecError::Json`] with the kind and path of the offending field.
pub fn from_json(v: &Value) -> Result<StObject, CodecError> {
    json::from_json(v)
}
