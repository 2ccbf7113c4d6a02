//! Multi-purpose tokens (XLS-33, rippled's `MPTIssue`, `MPTAmount` and the MPT form of
//! `STAmount` / `STIssue`).
//!
//! An issuance is named by its 192-bit MPTID: the issuer's sequence (or ticket) of the
//! creating transaction, big-endian, then the issuer's account (`makeMptID`).
//!
//! Wire forms:
//! - amount: a flag byte (`0x20` cMPToken, `0x40` positive), the value as a big-endian
//!   u64, then the MPTID: 33 bytes. JSON `{"mpt_issuance_id": "<48 hex>", "value": "<n>"}`.
//! - issue: the issuer, `noAccount` (`0x00..01`), then the sequence **little-endian**
//!   (rippled's `STIssue` copies the native word): 44 bytes. JSON `{"mpt_issuance_id"}`.
//!
//! These stand beside [`super::amount::Amount`] rather than inside it: XRP and IOU
//! arithmetic never meets an MPT amount, the engine's MPT-aware code reads these.

use std::fmt;

use serde_json::Value;

use super::amount::{parse_mpt_value, AmountError};
use super::types::{hex_upper, AccountId};

/// The largest MPT amount (`maxMPTokenAmount`, 2^63 - 1).
pub const MPT_AMOUNT_MAX: u64 = i64::MAX as u64;
/// Width of an MPT amount on the wire.
pub const MPT_AMOUNT_WIDTH: usize = 33;
/// Width of an MPT issue on the wire.
pub const MPT_ISSUE_WIDTH: usize = 44;

/// The cMPToken bit of an amount's first byte.
const MPT_BIT: u8 = 0x20;
/// The positive bit of an amount's first byte.
const POSITIVE_BIT: u8 = 0x40;

/// An MPT issuance ID (`MPTID`, a Hash192).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MptId(pub [u8; 24]);

impl MptId {
    /// `makeMptID(sequence, issuer)`.
    pub fn new(sequence: u32, issuer: &AccountId) -> MptId {
        let mut b = [0u8; 24];
        b[..4].copy_from_slice(&sequence.to_be_bytes());
        b[4..].copy_from_slice(&issuer.0);
        MptId(b)
    }

    /// The sequence part.
    pub fn sequence(&self) -> u32 {
        u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]])
    }

    /// The issuer part.
    pub fn issuer(&self) -> AccountId {
        let mut a = [0u8; 20];
        a.copy_from_slice(&self.0[4..]);
        AccountId(a)
    }

    /// Upper-case hex, as rippled prints a uint192.
    pub fn to_hex(&self) -> String {
        hex_upper(self.0)
    }

    /// Exactly 48 hex digits (either case), as `uint192::parseHex`.
    pub fn from_hex(s: &str) -> Option<MptId> {
        let mut b = [0u8; 24];
        if s.len() != 48 || hex::decode_to_slice(s, &mut b).is_err() {
            return None;
        }
        Some(MptId(b))
    }

    /// The wire form of the MPT issue (`STIssue::add`).
    pub fn issue_bytes(&self) -> [u8; MPT_ISSUE_WIDTH] {
        let mut out = [0u8; MPT_ISSUE_WIDTH];
        out[..20].copy_from_slice(&self.0[4..]);
        out[39] = 1;
        out[40..].copy_from_slice(&self.sequence().to_le_bytes());
        out
    }

    /// The issue from its 44 wire bytes (the caller has checked the `noAccount` middle).
    pub fn from_issue_bytes(b: &[u8; MPT_ISSUE_WIDTH]) -> MptId {
        let mut issuer = [0u8; 20];
        issuer.copy_from_slice(&b[..20]);
        let seq = u32::from_le_bytes([b[40], b[41], b[42], b[43]]);
        MptId::new(seq, &AccountId(issuer))
    }

    /// JSON of the MPT issue: `{"mpt_issuance_id": ...}`.
    pub fn issue_json(&self) -> Value {
        serde_json::json!({ "mpt_issuance_id": self.to_hex() })
    }
}

impl fmt::Debug for MptId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MptId({})", self.to_hex())
    }
}

/// An amount of an MPT: magnitude, sign and issuance.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MptAmount {
    /// The magnitude.
    pub value: u64,
    /// True below zero (only in refused transactions).
    pub negative: bool,
    /// The issuance.
    pub id: MptId,
}

impl MptAmount {
    /// A non-negative amount.
    pub fn new(value: u64, id: MptId) -> MptAmount {
        MptAmount {
            value,
            negative: false,
            id,
        }
    }

    /// True above zero.
    pub fn is_positive(&self) -> bool {
        self.value > 0 && !self.negative
    }

    /// rippled's text of the value (`getText`).
    pub fn value_text(&self) -> String {
        if self.negative {
            format!("-{}", self.value)
        } else {
            self.value.to_string()
        }
    }

    /// rippled's JSON: `{"mpt_issuance_id", "value"}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "mpt_issuance_id": self.id.to_hex(),
            "value": self.value_text(),
        })
    }

    /// `amountFromJson` for an object with `mpt_issuance_id`: the value is a string in
    /// rippled's number grammar or a JSON integer; `currency` and `issuer` may not appear.
    pub fn from_json(o: &serde_json::Map<String, Value>) -> Result<MptAmount, AmountError> {
        if o.contains_key("currency") || o.contains_key("issuer") {
            return Err(AmountError::BadCurrency);
        }
        let id = match o.get("mpt_issuance_id") {
            Some(Value::String(s)) => MptId::from_hex(s).ok_or(AmountError::BadCurrency)?,
            _ => return Err(AmountError::BadCurrency),
        };
        let (value, negative) = match o.get("value") {
            Some(Value::String(s)) => parse_mpt_value(s)?,
            Some(Value::Number(n)) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) if u <= MPT_AMOUNT_MAX => (u, false),
                (Some(_), _) => return Err(AmountError::Overflow),
                (None, Some(i)) => (i.unsigned_abs(), i < 0),
                _ => return Err(AmountError::XrpFraction),
            },
            _ => return Err(AmountError::BadType),
        };
        Ok(MptAmount {
            value,
            negative,
            id,
        })
    }

    /// The 33 wire bytes.
    pub fn to_bytes(&self) -> [u8; MPT_AMOUNT_WIDTH] {
        let mut out = [0u8; MPT_AMOUNT_WIDTH];
        out[0] = MPT_BIT | if self.negative { 0 } else { POSITIVE_BIT };
        out[1..9].copy_from_slice(&self.value.to_be_bytes());
        out[9..].copy_from_slice(&self.id.0);
        out
    }

    /// True when the first byte of a wire amount marks an MPT amount.
    pub fn is_mpt_lead(b: u8) -> bool {
        b & 0x80 == 0 && b & MPT_BIT != 0
    }

    /// Reads the 33 wire bytes from the front of `b`. Stricter than rippled, which
    /// ignores the flag byte's low bits and re-serializes them as zero: a non-canonical
    /// flag byte or a negative zero is refused rather than hashed in another form.
    pub fn from_bytes(b: &[u8]) -> Result<MptAmount, AmountError> {
        if b.len() < MPT_AMOUNT_WIDTH {
            return Err(AmountError::BadEncoding("short MPT amount"));
        }
        let lead = b[0];
        if !Self::is_mpt_lead(lead) || lead & !(MPT_BIT | POSITIVE_BIT) != 0 {
            return Err(AmountError::BadEncoding("non-canonical MPT amount"));
        }
        let mut v = [0u8; 8];
        v.copy_from_slice(&b[1..9]);
        let value = u64::from_be_bytes(v);
        let negative = lead & POSITIVE_BIT == 0;
        if negative && value == 0 {
            return Err(AmountError::BadEncoding("negative zero is not canonical"));
        }
        let mut id = [0u8; 24];
        id.copy_from_slice(&b[9..MPT_AMOUNT_WIDTH]);
        Ok(MptAmount {
            value,
            negative,
            id: MptId(id),
        })
    }
}

/// The (transaction type, field) pairs whose template allows an MPT amount or issue
/// (`soeMPTSupported` in rippled's `transactions.macro`); every other Amount or Issue
/// field of a transaction, Fee included, is `soeMPTNotSupported`.
const MPT_FIELDS: &[(&str, &str)] = &[
    ("Payment", "Amount"),
    ("Payment", "SendMax"),
    ("Payment", "DeliverMin"),
    ("Clawback", "Amount"),
    ("EscrowCreate", "Amount"),
    ("VaultCreate", "Asset"),
    ("VaultDeposit", "Amount"),
    ("VaultWithdraw", "Amount"),
    ("VaultClawback", "Amount"),
    ("LoanBrokerCoverDeposit", "Amount"),
    ("LoanBrokerCoverWithdraw", "Amount"),
    ("LoanBrokerCoverClawback", "Amount"),
    ("LoanPay", "Amount"),
];

/// rippled's `invalidMPTAmountInTx` (a local check: "Amount can not be MPT."): an MPT
/// amount or issue in a top-level field whose template does not allow one.
pub fn invalid_mpt_in_tx(tx: &super::st::StObject) -> bool {
    let Some(tt) = super::tx::transaction_type_name(tx) else {
        return false;
    };
    tx.iter().any(|(f, v)| {
        matches!(
            v,
            super::st::StValue::MptAmount(_) | super::st::StValue::MptIssue(_)
        ) && !MPT_FIELDS.contains(&(tt, f.name()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "00002403C84A0A28E0190E208E982C352BBD5006600555CF";

    fn amount(v: &str) -> Result<MptAmount, AmountError> {
        let j = serde_json::json!({ "mpt_issuance_id": ID, "value": v });
        MptAmount::from_json(j.as_object().unwrap())
    }

    #[test]
    fn id_parts() {
        let id = MptId::from_hex(ID).unwrap();
        assert_eq!(id.sequence(), 0x2403);
        assert_eq!(MptId::new(0x2403, &id.issuer()), id);
        assert_eq!(id.to_hex(), ID);
        assert!(MptId::from_hex("10").is_none());
        let b = id.issue_bytes();
        assert_eq!(&b[40..], &[0x03, 0x24, 0, 0]);
        assert_eq!(MptId::from_issue_bytes(&b), id);
    }

    #[test]
    fn json_and_bytes_as_xrpl_js_fixtures() {
        // ripple-binary-codec data-driven-tests.json.
        for (v, hex) in [
            ("9223372036854775807", "607FFFFFFFFFFFFFFF"),
            ("0", "600000000000000000"),
            ("-0", "600000000000000000"),
            ("100", "600000000000000064"),
        ] {
            let a = amount(v).unwrap();
            assert_eq!(hex_upper(a.to_bytes()), format!("{hex}{ID}"), "{v}");
            assert_eq!(MptAmount::from_bytes(&a.to_bytes()).unwrap(), a);
        }
        for bad in [
            "9223372036854775808",
            "18446744073709551615",
            "10.1",
            "a",
            "/",
        ] {
            assert!(amount(bad).is_err(), "{bad}");
        }
        assert_eq!(amount("1e3").unwrap().value, 1000);
        assert!(amount("-1").unwrap().negative);
        assert_eq!(amount("-1").unwrap().to_json()["value"], "-1");
        let with_issuer = serde_json::json!({"mpt_issuance_id": ID, "value": "1", "issuer": "r"});
        assert!(MptAmount::from_json(with_issuer.as_object().unwrap()).is_err());
    }

    #[test]
    fn binary_refusals() {
        let mut b = amount("5").unwrap().to_bytes();
        b[0] = 0x61;
        assert!(MptAmount::from_bytes(&b).is_err());
        b[0] = 0x20;
        b[8] = 0;
        assert!(MptAmount::from_bytes(&b).is_err(), "negative zero");
        assert!(MptAmount::from_bytes(&b[..20]).is_err());
    }
}
