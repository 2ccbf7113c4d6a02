//! Cross-chain bridges (XLS-38, rippled's `STXChainBridge`): the `XChainBridge` field type.
//!
//! Binary form: `LockingChainDoor` as an AccountID with its length prefix (`STAccount::add`,
//! 21 bytes), `LockingChainIssue` as an Issue (20 or 40 bytes), `IssuingChainDoor`,
//! `IssuingChainIssue`; no field headers, no end marker. JSON form: an object with exactly
//! those four keys, doors as addresses and issues as `{"currency":"XRP"}` or
//! `{"currency", "issuer"}`.

use serde_json::{Map, Value};

use super::types::{AccountId, Issue};

/// One bridge: a door account and an issue on each chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XChainBridge {
    /// The door account on the locking chain.
    pub locking_door: AccountId,
    /// The asset locked on the locking chain.
    pub locking_issue: Issue,
    /// The door account on the issuing chain.
    pub issuing_door: AccountId,
    /// The asset issued on the issuing chain.
    pub issuing_issue: Issue,
}

/// rippled's `STXChainBridge::ChainType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainType {
    /// The locking chain.
    Locking,
    /// The issuing chain.
    Issuing,
}

impl ChainType {
    /// The other chain.
    pub fn other(self) -> ChainType {
        match self {
            ChainType::Locking => ChainType::Issuing,
            ChainType::Issuing => ChainType::Locking,
        }
    }
}

impl XChainBridge {
    /// The door account on `chain`.
    pub fn door(&self, chain: ChainType) -> AccountId {
        match chain {
            ChainType::Locking => self.locking_door,
            ChainType::Issuing => self.issuing_door,
        }
    }

    /// The issue on `chain`.
    pub fn issue(&self, chain: ChainType) -> Issue {
        match chain {
            ChainType::Locking => self.locking_issue,
            ChainType::Issuing => self.issuing_issue,
        }
    }

    /// `STXChainBridge::add`.
    pub fn write(&self, out: &mut Vec<u8>) {
        for (door, issue) in [
            (self.locking_door, self.locking_issue),
            (self.issuing_door, self.issuing_issue),
        ] {
            out.push(20);
            out.extend_from_slice(&door.0);
            out.extend_from_slice(&issue.currency.0);
            if !issue.currency.is_xrp() {
                out.extend_from_slice(&issue.issuer.0);
            }
        }
    }

    /// `STXChainBridge::getJson`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::with_capacity(4);
        m.insert(
            "IssuingChainDoor".to_string(),
            Value::String(self.issuing_door.to_address()),
        );
        m.insert(
            "IssuingChainIssue".to_string(),
            issue_json(&self.issuing_issue),
        );
        m.insert(
            "LockingChainDoor".to_string(),
            Value::String(self.locking_door.to_address()),
        );
        m.insert(
            "LockingChainIssue".to_string(),
            issue_json(&self.locking_issue),
        );
        Value::Object(m)
    }

    /// `STXChainBridge(SField, Json::Value)`: an object with no key but the four, doors
    /// as addresses, issues by `issueFromJson`. `None` where rippled throws.
    pub fn from_json(value: &Value) -> Option<XChainBridge> {
        const KEYS: [&str; 4] = [
            "LockingChainDoor",
            "LockingChainIssue",
            "IssuingChainDoor",
            "IssuingChainIssue",
        ];
        let m = value.as_object()?;
        if m.keys().any(|k| !KEYS.contains(&k.as_str())) {
            return None;
        }
        let door = |k: &str| AccountId::from_address(m.get(k)?.as_str()?).ok();
        let issue = |k: &str| super::codec::issue_from_json(m.get(k)?);
        Some(XChainBridge {
            locking_door: door("LockingChainDoor")?,
            locking_issue: issue("LockingChainIssue")?,
            issuing_door: door("IssuingChainDoor")?,
            issuing_issue: issue("IssuingChainIssue")?,
        })
    }
}

fn issue_json(i: &Issue) -> Value {
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
