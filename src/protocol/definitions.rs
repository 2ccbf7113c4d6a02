//! The binary codec's field, type and code tables, read from the vendored
//! `definitions.json` (the file xrpl-py 5.2.0 ships, generated from rippled's sources).
//!
//! The file is compiled into the binary; [`defs()`] parses it once.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

/// The vendored definitions, as served by `server_definitions`.
pub const DEFINITIONS_JSON: &str = include_str!("definitions.json");

/// One field of the codec.
#[derive(Debug, Clone)]
pub struct FieldDef {
    /// Wire and JSON name, e.g. `Account`.
    pub name: &'static str,
    /// Field code within its type.
    pub nth: u16,
    /// Type code (`TYPES` table), e.g. 8 for AccountID.
    pub type_code: u16,
    /// Type name, e.g. `AccountID`.
    pub type_name: &'static str,
    /// Written with a length prefix.
    pub is_vl_encoded: bool,
    /// Written at all (`hash`, `index` are not).
    pub is_serialized: bool,
    /// Part of the signing data (`TxnSignature`, `Signers`, `Signature` are not).
    pub is_signing_field: bool,
}

impl FieldDef {
    /// The canonical ordering key: `(type code, field code)`.
    pub fn sort_key(&self) -> (u16, u16) {
        (self.type_code, self.nth)
    }
}

/// A field, as an index into [`Definitions::fields`]. Cheap to copy and compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field(pub u16);

impl Field {
    /// Looks a field up by name. Panics only if a name that the code itself spells is
    /// missing from the vendored table, which the tests rule out.
    pub fn named(name: &str) -> Field {
        defs()
            .field_by_name(name)
            .unwrap_or_else(|| panic!("field {name} is not in definitions.json"))
    }

    /// The definition.
    pub fn def(&self) -> &'static FieldDef {
        &defs().fields[self.0 as usize]
    }

    /// The name.
    pub fn name(&self) -> &'static str {
        self.def().name
    }
}

/// The parsed tables.
pub struct Definitions {
    /// Every field, in file order.
    pub fields: Vec<FieldDef>,
    by_name: HashMap<&'static str, Field>,
    by_code: HashMap<(u16, u16), Field>,
    /// Type name to type code.
    pub types: HashMap<&'static str, i32>,
    /// Transaction type name to code.
    pub transaction_types: HashMap<&'static str, u16>,
    transaction_type_names: HashMap<u16, &'static str>,
    /// Ledger entry type name to code.
    pub ledger_entry_types: HashMap<&'static str, u16>,
    ledger_entry_type_names: HashMap<u16, &'static str>,
    /// Result name to code.
    pub transaction_results: HashMap<&'static str, i32>,
    transaction_result_names: HashMap<i32, &'static str>,
    /// The whole file as JSON (for `server_definitions`).
    pub json: Value,
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

impl Definitions {
    fn load() -> Definitions {
        let json: Value =
            serde_json::from_str(DEFINITIONS_JSON).expect("vendored definitions.json parses");
        let mut types = HashMap::new();
        for (k, v) in json["TYPES"].as_object().expect("TYPES") {
            types.insert(leak(k), v.as_i64().expect("type code") as i32);
        }
        let mut fields = Vec::new();
        let mut by_name = HashMap::new();
        let mut by_code = HashMap::new();
        for entry in json["FIELDS"].as_array().expect("FIELDS") {
            let name = entry[0].as_str().expect("field name");
            let info = &entry[1];
            let type_name = info["type"].as_str().expect("field type");
            let nth = info["nth"].as_i64().expect("nth");
            let type_code = types.get(type_name).copied().unwrap_or(-2);
            if nth < 0 || type_code < 0 || type_code > u16::MAX as i32 {
                continue; // Invalid, Generic and other pseudo-fields.
            }
            let def = FieldDef {
                name: leak(name),
                nth: nth as u16,
                type_code: type_code as u16,
                type_name: leak(type_name),
                is_vl_encoded: info["isVLEncoded"].as_bool().unwrap_or(false),
                is_serialized: info["isSerialized"].as_bool().unwrap_or(false),
                is_signing_field: info["isSigningField"].as_bool().unwrap_or(false),
            };
            let f = Field(fields.len() as u16);
            by_name.insert(def.name, f);
            if def.is_serialized {
                by_code.insert((def.type_code, def.nth), f);
            }
            fields.push(def);
        }
        let table = |key: &str| -> (HashMap<&'static str, u16>, HashMap<u16, &'static str>) {
            let mut fwd = HashMap::new();
            let mut back = HashMap::new();
            for (k, v) in json[key].as_object().expect("type table") {
                let code = v.as_i64().expect("code");
                if !(0..=u16::MAX as i64).contains(&code) {
                    continue;
                }
                let name = leak(k);
                fwd.insert(name, code as u16);
                back.insert(code as u16, name);
            }
            (fwd, back)
        };
        let (transaction_types, transaction_type_names) = table("TRANSACTION_TYPES");
        let (ledger_entry_types, ledger_entry_type_names) = table("LEDGER_ENTRY_TYPES");
        let mut transaction_results = HashMap::new();
        let mut transaction_result_names = HashMap::new();
        for (k, v) in json["TRANSACTION_RESULTS"].as_object().expect("results") {
            let name = leak(k);
            let code = v.as_i64().expect("result code") as i32;
            transaction_results.insert(name, code);
            transaction_result_names.insert(code, name);
        }
        Definitions {
            fields,
            by_name,
            by_code,
            types,
            transaction_types,
            transaction_type_names,
            ledger_entry_types,
            ledger_entry_type_names,
            transaction_results,
            transaction_result_names,
            json,
        }
    }

    /// A field by name.
    pub fn field_by_name(&self, name: &str) -> Option<Field> {
        self.by_name.get(name).copied()
    }

    /// A serialized field by its `(type code, field code)`.
    pub fn field_by_code(&self, type_code: u16, nth: u16) -> Option<Field> {
        self.by_code.get(&(type_code, nth)).copied()
    }

    /// Transaction type name of a code.
    pub fn transaction_type_name(&self, code: u16) -> Option<&'static str> {
        self.transaction_type_names.get(&code).copied()
    }

    /// Ledger entry type name of a code.
    pub fn ledger_entry_type_name(&self, code: u16) -> Option<&'static str> {
        self.ledger_entry_type_names.get(&code).copied()
    }

    /// Result name of a code.
    pub fn transaction_result_name(&self, code: i32) -> Option<&'static str> {
        self.transaction_result_names.get(&code).copied()
    }
}

/// The tables, parsed on first use.
pub fn defs() -> &'static Definitions {
    static DEFS: OnceLock<Definitions> = OnceLock::new();
    DEFS.get_or_init(Definitions::load)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_fields() {
        let d = defs();
        let acct = Field::named("Account").def();
        assert_eq!((acct.type_code, acct.nth, acct.is_vl_encoded), (8, 1, true));
        let sd = Field::named("SettleDelay").def();
        assert_eq!((sd.type_code, sd.nth), (2, 39));
        assert!(!Field::named("TxnSignature").def().is_signing_field);
        assert!(Field::named("SigningPubKey").def().is_signing_field);
        assert_eq!(d.transaction_types["TrustSet"], 20);
        assert_eq!(d.ledger_entry_types["RippleState"], 114);
        assert_eq!(d.transaction_results["tecPATH_DRY"], 128);
        assert_eq!(d.field_by_code(8, 1), Some(Field::named("Account")));
        assert!(!Field::named("hash").def().is_serialized);
    }
}
