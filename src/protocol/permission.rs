//! Delegation permissions (rippled `Permissions.cpp`, `permissions.macro`): a
//! `PermissionValue` is either a transaction type plus one, or a granular permission
//! (above 65535) naming one part of a transaction type. JSON carries their names.

use super::definitions::defs;

/// Granular permissions: (name, value, the transaction type code they narrow).
pub const GRANULAR: [(&str, u32, u16); 12] = [
    ("TrustlineAuthorize", 65537, 20),
    ("TrustlineFreeze", 65538, 20),
    ("TrustlineUnfreeze", 65539, 20),
    ("AccountDomainSet", 65540, 3),
    ("AccountEmailHashSet", 65541, 3),
    ("AccountMessageKeySet", 65542, 3),
    ("AccountTransferRateSet", 65543, 3),
    ("AccountTickSizeSet", 65544, 3),
    ("PaymentMint", 65545, 0),
    ("PaymentBurn", 65546, 0),
    ("MPTokenIssuanceLock", 65547, 56),
    ("MPTokenIssuanceUnlock", 65548, 56),
];

/// Transaction types rippled marks `Delegation::notDelegatable`: AccountSet,
/// SetRegularKey, SignerListSet, AccountDelete, DelegateSet, the vault and Batch
/// types, EnableAmendment, SetFee, UNLModify.
pub const NOT_DELEGATABLE: [u16; 15] =
    [3, 5, 12, 21, 64, 65, 66, 67, 68, 69, 70, 71, 100, 101, 102];

/// The granular permission called `name`.
pub fn granular_value(name: &str) -> Option<u32> {
    GRANULAR.iter().find(|g| g.0 == name).map(|g| g.1)
}

/// The name of granular permission `value`.
pub fn granular_name(value: u32) -> Option<&'static str> {
    GRANULAR.iter().find(|g| g.1 == value).map(|g| g.0)
}

/// The permission value of transaction type `code` (`txToPermissionType`).
pub fn of_tx_type(code: u16) -> u32 {
    u32::from(code) + 1
}

/// rippled's `STParsedJSON` for `PermissionValue` strings: a granular name, else a
/// transaction type name (its code plus one).
pub fn value_of_name(name: &str) -> Option<u32> {
    granular_value(name).or_else(|| defs().transaction_types.get(name).map(|c| of_tx_type(*c)))
}

/// `getPermissionName`: the granular name, else the transaction type's name.
pub fn name_of_value(value: u32) -> Option<&'static str> {
    if let Some(n) = granular_name(value) {
        return Some(n);
    }
    let code = u16::try_from(value.checked_sub(1)?).ok()?;
    defs().transaction_type_name(code)
}

/// `isDelegatable`: any granular permission, or a known transaction type not marked
/// not delegatable. `known_type` says whether the server applies the type (rippled
/// also refuses a type whose amendment is not enabled).
pub fn is_delegatable(value: u32, known_type: impl Fn(u16) -> bool) -> bool {
    if granular_name(value).is_some() {
        return true;
    }
    let Some(code) = value.checked_sub(1).and_then(|c| u16::try_from(c).ok()) else {
        return false;
    };
    known_type(code) && !NOT_DELEGATABLE.contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_round_trip() {
        assert_eq!(value_of_name("Payment"), Some(1));
        assert_eq!(value_of_name("TrustSet"), Some(21));
        assert_eq!(value_of_name("PaymentBurn"), Some(65546));
        assert_eq!(value_of_name("Nope"), None);
        assert_eq!(name_of_value(1), Some("Payment"));
        assert_eq!(name_of_value(65537), Some("TrustlineAuthorize"));
        assert_eq!(name_of_value(0), None);
        assert_eq!(name_of_value(70000), None);
    }

    #[test]
    fn delegatable_types() {
        let all = |_| true;
        assert!(is_delegatable(1, all));
        assert!(is_delegatable(65540, all));
        assert!(!is_delegatable(of_tx_type(3), all));
        assert!(!is_delegatable(of_tx_type(64), all));
        assert!(!is_delegatable(0, all));
        assert!(!is_delegatable(65549, all));
        assert!(!is_delegatable(1, |_| false));
    }
}
