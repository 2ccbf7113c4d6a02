//! The serialized-type object model (rippled's `STObject` family): a transaction or a
//! ledger entry is an [`StObject`], a set of fields each holding an [`StValue`].
//!
//! Fields are kept in canonical order (`(type code, field code)`), so serializing is a
//! walk. The binary and JSON forms live in `codec`; this module is only the model and
//! its typed accessors.

use std::collections::BTreeMap;

use super::amount::Amount;
use super::definitions::{Field, FieldDef};
use super::mpt::{MptAmount, MptId};
use super::types::{AccountId, Currency, Hash128, Hash160, Hash256, Issue};
use super::xchain::XChainBridge;

/// One step of a payment path (PathSet).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PathStep {
    /// Rippling through this account.
    pub account: Option<AccountId>,
    /// Changing to this currency.
    pub currency: Option<Currency>,
    /// Changing to this issuer.
    pub issuer: Option<AccountId>,
}

/// A field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum StValue {
    /// UInt8.
    UInt8(u8),
    /// UInt16 (TransactionType and LedgerEntryType are UInt16 codes).
    UInt16(u16),
    /// UInt32.
    UInt32(u32),
    /// UInt64 (hex in JSON).
    UInt64(u64),
    /// Int32.
    Int32(i32),
    /// Int64.
    Int64(i64),
    /// Hash128.
    Hash128(Hash128),
    /// Hash160.
    Hash160(Hash160),
    /// Hash256.
    Hash256(Hash256),
    /// Hash192, Hash384, Hash512, UInt96 and Number: raw fixed-width bytes.
    Fixed(Vec<u8>),
    /// Amount (XRP or issued).
    Amount(Amount),
    /// Variable-length bytes.
    Blob(Vec<u8>),
    /// AccountID.
    AccountId(AccountId),
    /// Inner object.
    Object(StObject),
    /// Array of one-field wrapper objects: each element is (wrapper field, its contents),
    /// e.g. (`Memo`, {MemoData: ...}).
    Array(Vec<(Field, StObject)>),
    /// PathSet: a list of paths, each a list of steps.
    PathSet(Vec<Vec<PathStep>>),
    /// Vector256.
    Vector256(Vec<Hash256>),
    /// Currency (160 bits).
    Currency(Currency),
    /// Issue (currency and, unless XRP, issuer).
    Issue(Issue),
    /// An Amount field holding an MPT amount.
    MptAmount(MptAmount),
    /// An Issue field holding an MPT issue.
    MptIssue(MptId),
    /// XChainBridge: two doors and two issues.
    XChainBridge(XChainBridge),
}

impl StValue {
    /// True for a value equal to its type's default (rippled's `STBase::isDefault`): a
    /// zero integer or hash, the zero account, XRP zero (an issued zero is not a
    /// default), an empty blob, vector, array, object or path set. Transaction metadata
    /// leaves defaults out of a created entry's NewFields; an inner object's template
    /// refuses a `soeDEFAULT` field set to its default. The kinds kept as raw bytes
    /// (Number, Hash192 and wider), currencies, issues, MPT amounts and bridges answer
    /// false.
    pub fn is_default(&self) -> bool {
        match self {
            StValue::UInt8(x) => *x == 0,
            StValue::UInt16(x) => *x == 0,
            StValue::UInt32(x) => *x == 0,
            StValue::UInt64(x) => *x == 0,
            StValue::Int32(x) => *x == 0,
            StValue::Int64(x) => *x == 0,
            StValue::Hash128(h) => h.is_zero(),
            StValue::Hash160(h) => h.is_zero(),
            StValue::Hash256(h) => h.is_zero(),
            StValue::AccountId(a) => *a == AccountId::ZERO,
            StValue::Amount(a) => matches!(a, Amount::Xrp(0)),
            StValue::Blob(b) => b.is_empty(),
            StValue::Vector256(v) => v.is_empty(),
            StValue::Array(v) => v.is_empty(),
            StValue::Object(o) => o.is_empty(),
            StValue::PathSet(p) => p.is_empty(),
            StValue::Fixed(_)
            | StValue::Currency(_)
            | StValue::Issue(_)
            | StValue::MptAmount(_)
            | StValue::MptIssue(_)
            | StValue::XChainBridge(_) => false,
        }
    }
}

/// An object: fields in canonical order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StObject {
    fields: BTreeMap<(u16, u16), (Field, StValue)>,
}

impl StObject {
    /// An empty object.
    pub fn new() -> StObject {
        StObject::default()
    }

    /// Sets a field (replacing any old value).
    pub fn set(&mut self, field: Field, value: StValue) {
        self.fields.insert(field.def().sort_key(), (field, value));
    }

    /// Sets a field by name.
    pub fn set_named(&mut self, name: &str, value: StValue) {
        self.set(Field::named(name), value);
    }

    /// Removes a field, returning its value.
    pub fn remove(&mut self, field: Field) -> Option<StValue> {
        self.fields.remove(&field.def().sort_key()).map(|(_, v)| v)
    }

    /// The value of a field.
    pub fn get(&self, field: Field) -> Option<&StValue> {
        self.fields.get(&field.def().sort_key()).map(|(_, v)| v)
    }

    /// The value of a field, by name.
    pub fn get_named(&self, name: &str) -> Option<&StValue> {
        let f = super::definitions::defs().field_by_name(name)?;
        self.get(f)
    }

    /// True when the field is present.
    pub fn has(&self, name: &str) -> bool {
        self.get_named(name).is_some()
    }

    /// Fields in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Field, &StValue)> {
        self.fields.values().map(|(f, v)| (*f, v))
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True with no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Definitions of the fields present, in order.
    pub fn field_defs(&self) -> impl Iterator<Item = &'static FieldDef> + '_ {
        self.fields.values().map(|(f, _)| f.def())
    }

    /// A UInt8 field.
    pub fn get_u8(&self, name: &str) -> Option<u8> {
        match self.get_named(name)? {
            StValue::UInt8(v) => Some(*v),
            _ => None,
        }
    }

    /// A UInt16 field.
    pub fn get_u16(&self, name: &str) -> Option<u16> {
        match self.get_named(name)? {
            StValue::UInt16(v) => Some(*v),
            _ => None,
        }
    }

    /// A UInt32 field.
    pub fn get_u32(&self, name: &str) -> Option<u32> {
        match self.get_named(name)? {
            StValue::UInt32(v) => Some(*v),
            _ => None,
        }
    }

    /// A UInt64 field.
    pub fn get_u64(&self, name: &str) -> Option<u64> {
        match self.get_named(name)? {
            StValue::UInt64(v) => Some(*v),
            _ => None,
        }
    }

    /// A Hash256 field.
    pub fn get_h256(&self, name: &str) -> Option<Hash256> {
        match self.get_named(name)? {
            StValue::Hash256(v) => Some(*v),
            _ => None,
        }
    }

    /// A Hash128 field.
    pub fn get_h128(&self, name: &str) -> Option<Hash128> {
        match self.get_named(name)? {
            StValue::Hash128(v) => Some(*v),
            _ => None,
        }
    }

    /// An AccountID field.
    pub fn get_account(&self, name: &str) -> Option<AccountId> {
        match self.get_named(name)? {
            StValue::AccountId(v) => Some(*v),
            _ => None,
        }
    }

    /// An Amount field.
    pub fn get_amount(&self, name: &str) -> Option<Amount> {
        match self.get_named(name)? {
            StValue::Amount(v) => Some(*v),
            _ => None,
        }
    }

    /// An Amount field holding an MPT amount.
    pub fn get_mpt_amount(&self, name: &str) -> Option<MptAmount> {
        match self.get_named(name)? {
            StValue::MptAmount(v) => Some(*v),
            _ => None,
        }
    }

    /// A Hash192 field as an MPT issuance ID.
    pub fn get_mpt_id(&self, name: &str) -> Option<MptId> {
        match self.get_named(name)? {
            StValue::Fixed(b) => Some(MptId(b.as_slice().try_into().ok()?)),
            _ => None,
        }
    }

    /// An XChainBridge field.
    pub fn get_xchain_bridge(&self, name: &str) -> Option<XChainBridge> {
        match self.get_named(name)? {
            StValue::XChainBridge(b) => Some(*b),
            _ => None,
        }
    }

    /// The bytes of a Blob field.
    pub fn get_blob(&self, name: &str) -> Option<&[u8]> {
        match self.get_named(name)? {
            StValue::Blob(v) => Some(v),
            _ => None,
        }
    }

    /// An inner object field.
    pub fn get_object(&self, name: &str) -> Option<&StObject> {
        match self.get_named(name)? {
            StValue::Object(v) => Some(v),
            _ => None,
        }
    }

    /// An array field.
    pub fn get_array(&self, name: &str) -> Option<&[(Field, StObject)]> {
        match self.get_named(name)? {
            StValue::Array(v) => Some(v),
            _ => None,
        }
    }

    /// A PathSet field.
    pub fn get_pathset(&self, name: &str) -> Option<&[Vec<PathStep>]> {
        match self.get_named(name)? {
            StValue::PathSet(v) => Some(v),
            _ => None,
        }
    }

    /// A Vector256 field.
    pub fn get_vector256(&self, name: &str) -> Option<&[Hash256]> {
        match self.get_named(name)? {
            StValue::Vector256(v) => Some(v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_order_and_accessors() {
        let mut o = StObject::new();
        o.set_named("Account", StValue::AccountId(AccountId::ONE));
        o.set_named("Fee", StValue::Amount(Amount::Xrp(10)));
        o.set_named("Sequence", StValue::UInt32(5));
        o.set_named("TransactionType", StValue::UInt16(3));
        let names: Vec<_> = o.iter().map(|(f, _)| f.name()).collect();
        assert_eq!(names, ["TransactionType", "Sequence", "Fee", "Account"]);
        assert_eq!(o.get_u32("Sequence"), Some(5));
        assert_eq!(o.get_u16("Sequence"), None);
        assert_eq!(o.get_account("Account"), Some(AccountId::ONE));
        assert!(o.remove(Field::named("Fee")).is_some());
        assert!(!o.has("Fee"));
    }

    #[test]
    fn defaults_as_rippled_reads_them() {
        use crate::protocol::amount::IouValue;
        let usd = Currency::from_json_str("USD").unwrap();
        for v in [
            StValue::UInt8(0),
            StValue::UInt16(0),
            StValue::UInt32(0),
            StValue::UInt64(0),
            StValue::Int32(0),
            StValue::Int64(0),
            StValue::Hash256(Hash256::ZERO),
            StValue::AccountId(AccountId::ZERO),
            StValue::Amount(Amount::Xrp(0)),
            StValue::Blob(Vec::new()),
            StValue::Vector256(Vec::new()),
            StValue::Array(Vec::new()),
            StValue::Object(StObject::new()),
            StValue::PathSet(Vec::new()),
        ] {
            assert!(v.is_default(), "{v:?}");
        }
        for v in [
            StValue::UInt16(1),
            StValue::Int32(-1),
            StValue::Hash256(Hash256([1; 32])),
            StValue::AccountId(AccountId::ONE),
            StValue::Amount(Amount::Xrp(1)),
            StValue::Amount(Amount::iou(IouValue::ZERO, usd, AccountId::ONE)),
            StValue::Blob(vec![0]),
            StValue::Fixed(vec![0; 24]),
            StValue::Issue(Issue::XRP),
        ] {
            assert!(!v.is_default(), "{v:?}");
        }
    }
}
