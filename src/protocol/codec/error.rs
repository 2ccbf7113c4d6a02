//! Why a binary blob or a JSON object was refused.
//!
//! Binary errors carry rippled's exception text where it has one (`SerialIter`,
//! `STObject::set`, `STArray`, `STPathSet`, ...). JSON errors carry the kind and the
//! field path, so the RPC layer can print rippled's `STParsedJSON` message with
//! [`JsonError::message`] (e.g. "Field 'tx_json.Fee' has invalid data.").

use crate::protocol::amount::AmountError;

/// What went wrong, for the binary decoder or the JSON parser.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// The input ended inside a field (rippled's `SerialIter` "invalid SerialIter ...").
    #[error("unexpected end of data")]
    Truncated,
    /// A field header used a two- or three-byte form for a code below 16
    /// ("gFID: uncommon type out of range" / "uncommon name out of range").
    #[error("gFID: uncommon {which} out of range {code}")]
    BadFieldHeader {
        /// "type" or "name".
        which: &'static str,
        /// The code read.
        code: u16,
    },
    /// A `(type, field)` pair that is not in the definitions ("Unknown field").
    #[error("Unknown field: field_type={type_code}, field_name={nth}")]
    UnknownField {
        /// Type code.
        type_code: u16,
        /// Field code.
        nth: u16,
    },
    /// The same field twice in one object ("Duplicate field detected").
    #[error("Duplicate field detected: {field}")]
    DuplicateField {
        /// The field.
        field: &'static str,
    },
    /// An array end marker inside an object.
    #[error("Illegal end-of-array marker in object")]
    ArrayEndInObject,
    /// An object end marker directly inside an array.
    #[error("Illegal terminator in array")]
    ObjectEndInArray,
    /// An object end marker at the top level ("Transaction contains an object terminator").
    #[error("Object terminator at top level")]
    ObjectEndAtTop,
    /// An array element whose field is not an object type ("Non-object in array").
    #[error("Non-object in array: {field}")]
    NonObjectInArray {
        /// The element's field.
        field: &'static str,
    },
    /// An inner object or array ran to the end of the input without its end marker.
    /// rippled tolerates this at the very end of the input; we do not (see the module doc).
    #[error("Missing end marker in {field}")]
    MissingEndMarker {
        /// The object or array field.
        field: &'static str,
    },
    /// A variable-length prefix byte above 254 ("Invalid variable length indicator").
    #[error("Invalid variable length indicator")]
    BadLength,
    /// A length prefix longer than the remaining input.
    #[error("Length of {field} exceeds the input")]
    LengthOverrun {
        /// The field.
        field: &'static str,
    },
    /// An AccountID whose length is not 20 ("Invalid STAccount size").
    #[error("Invalid STAccount size in {field}")]
    BadAccountSize {
        /// The field.
        field: &'static str,
    },
    /// A Vector256 whose length is not a multiple of 32.
    #[error("Bad serialization for STVector256 in {field}")]
    BadVector256 {
        /// The field.
        field: &'static str,
    },
    /// A PathSet with an empty path ("empty path").
    #[error("empty path in {field}")]
    EmptyPath {
        /// The field.
        field: &'static str,
    },
    /// A path step type byte with unknown bits ("bad path element").
    #[error("bad path element {byte:#04x} in {field}")]
    BadPathElement {
        /// The field.
        field: &'static str,
        /// The type byte.
        byte: u8,
    },
    /// An Issue whose currency and issuer disagree on being native.
    #[error("invalid issue: currency and account native mismatch in {field}")]
    BadIssue {
        /// The field.
        field: &'static str,
    },
    /// An amount rippled's `STAmount(SerialIter&)` would refuse.
    #[error("{field}: {source}")]
    Amount {
        /// The field.
        field: &'static str,
        /// What amount.rs said.
        source: AmountError,
    },
    /// Nesting deeper than the limit ("Maximum nesting depth of STVar exceeded").
    #[error("Maximum nesting depth exceeded")]
    TooDeep,
    /// A type ledgerd does not model.
    #[error("Unsupported type {type_name} in {field}")]
    Unsupported {
        /// The field.
        field: &'static str,
        /// The definitions.json type name.
        type_name: &'static str,
    },
    /// An inner object that does not fit its template (`STObject::applyTemplate`):
    /// "Field 'TxnSignature' is required but missing." and the like.
    #[error("Field '{field}' {reason}")]
    Template {
        /// The inner object, e.g. `Signer`.
        object: &'static str,
        /// The offending field.
        field: &'static str,
        /// rippled's description.
        reason: &'static str,
    },
    /// The JSON form was refused; see [`JsonError`].
    #[error("{}", .0.message("tx_json"))]
    Json(JsonError),
}

/// The kinds of `STParsedJSON` errors, each with rippled's wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonErrorKind {
    /// "Field 'X' is not a JSON object."
    NotAnObject,
    /// "Field 'X' is not a JSON array."
    NotAnArray,
    /// "Field 'X' is unknown."
    UnknownField,
    /// "Field 'X' is out of range."
    OutOfRange,
    /// "Field 'X' has bad type."
    BadType,
    /// "Field 'X' has invalid data."
    InvalidData,
    /// "Field 'X' must be a JSON array."
    ArrayExpected,
    /// "Field 'X' must be a string."
    StringExpected,
    /// "Field 'X' exceeds nesting depth limit."
    TooDeep,
    /// "Field 'X[i]' must be an object with a single key/object value."
    SingletonExpected(u32),
    /// "Item 'X' at index i is not an object.  Arrays may only contain objects."
    NonObjectInArray(u32),
    /// "Object 'Signer' contents did not meet requirements for that type." (the object
    /// is the last component of the path).
    TemplateMismatch,
}

/// A JSON parse error: its kind, the path of the field below the root name, and the
/// array elements it sits in (rippled prefixes "Error at '...'. " once per array).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What went wrong.
    pub kind: JsonErrorKind,
    /// The field path below the root, as rippled spells it: `Fee`,
    /// `Memos.[0].Memo.MemoType`, `Paths[0][1]`. Empty for the root itself.
    pub path: String,
    /// Paths of the enclosing array elements, innermost first (`Memos.[0].Memo`).
    pub array_context: Vec<String>,
}

impl JsonError {
    /// A new error without array context.
    pub fn new(kind: JsonErrorKind, path: impl Into<String>) -> JsonError {
        JsonError {
            kind,
            path: path.into(),
            array_context: Vec::new(),
        }
    }

    /// The last component of the path (the field name), e.g. `Fee` for `Memos.[0].Memo.Fee`.
    pub fn field_name(&self) -> &str {
        self.path.rsplit('.').next().unwrap_or(self.path.as_str())
    }

    /// rippled's `error_message` with `root` as the JSON name (`tx_json` for the
    /// signing methods, `tx_json` / `tx` / ... as the caller used).
    pub fn message(&self, root: &str) -> String {
        let full = join(root, &self.path);
        let mut msg = match self.kind {
            JsonErrorKind::NotAnObject => format!("Field '{full}' is not a JSON object."),
            JsonErrorKind::NotAnArray => format!("Field '{full}' is not a JSON array."),
            JsonErrorKind::UnknownField => format!("Field '{full}' is unknown."),
            JsonErrorKind::OutOfRange => format!("Field '{full}' is out of range."),
            JsonErrorKind::BadType => format!("Field '{full}' has bad type."),
            JsonErrorKind::InvalidData => format!("Field '{full}' has invalid data."),
            JsonErrorKind::ArrayExpected => format!("Field '{full}' must be a JSON array."),
            JsonErrorKind::StringExpected => format!("Field '{full}' must be a string."),
            JsonErrorKind::TooDeep => format!("Field '{full}' exceeds nesting depth limit."),
            JsonErrorKind::SingletonExpected(i) => {
                format!("Field '{full}[{i}]' must be an object with a single key/object value.")
            }
            JsonErrorKind::NonObjectInArray(i) => format!(
                "Item '{full}' at index {i} is not an object.  Arrays may only contain objects."
            ),
            JsonErrorKind::TemplateMismatch => format!(
                "Object '{}' contents did not meet requirements for that type.",
                self.field_name()
            ),
        };
        for ctx in &self.array_context {
            msg = format!("Error at '{}'. {msg}", join(root, ctx));
        }
        msg
    }
}

fn join(root: &str, path: &str) -> String {
    if path.is_empty() {
        root.to_string()
    } else if root.is_empty() {
        path.to_string()
    } else {
        format!("{root}.{path}")
    }
}

impl From<JsonError> for CodecError {
    fn from(e: JsonError) -> CodecError {
        CodecError::Json(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rippled_wording() {
        let e = JsonError::new(JsonErrorKind::InvalidData, "Fee");
        assert_eq!(
            e.message("tx_json"),
            "Field 'tx_json.Fee' has invalid data."
        );
        assert_eq!(e.field_name(), "Fee");
        let mut e = JsonError::new(JsonErrorKind::InvalidData, "Memos.[0].Memo.MemoType");
        e.array_context.push("Memos.[0].Memo".into());
        assert_eq!(
            e.message("tx_json"),
            "Error at 'tx_json.Memos.[0].Memo'. Field 'tx_json.Memos.[0].Memo.MemoType' has invalid data."
        );
        assert_eq!(e.field_name(), "MemoType");
        let e = JsonError::new(JsonErrorKind::NotAnObject, "");
        assert_eq!(
            e.message("tx_json"),
            "Field 'tx_json' is not a JSON object."
        );
    }
}
