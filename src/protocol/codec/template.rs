//! Inner-object templates (`InnerObjectFormats.cpp`): which fields an inner object such
//! as `Signer` or `SignerEntry` must, may, or may not carry.
//!
//! rippled applies them when it parses JSON (`STParsedJSON` -> "Object 'Signer' contents
//! did not meet requirements for that type.") and when it deserializes binary
//! (`STObject::set` / `STArray` -> `applyTemplateFromSField`). Objects without a
//! template (`Memo`, metadata nodes, ...) take any fields.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::protocol::definitions::defs;
use crate::protocol::st::StObject;

/// How a template lists a field (`SOEStyle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Must be present.
    Required,
    /// May be present.
    Optional,
    /// May be present, but not with its default (zero) value.
    Default,
}

use Style::{Default as D, Optional as O, Required as R};

/// The templates, by inner object name (rippled `develop`, InnerObjectFormats.cpp).
const TEMPLATES: &[(&str, &[(&str, Style)])] = &[
    (
        "SignerEntry",
        &[("Account", R), ("SignerWeight", R), ("WalletLocator", O)],
    ),
    (
        "Signer",
        &[("Account", R), ("SigningPubKey", R), ("TxnSignature", R)],
    ),
    ("Majority", &[("Amendment", R), ("CloseTime", R)]),
    (
        "DisabledValidator",
        &[("PublicKey", R), ("FirstLedgerSequence", R)],
    ),
    ("NFToken", &[("NFTokenID", R), ("URI", O)]),
    (
        "VoteEntry",
        &[("Account", R), ("TradingFee", D), ("VoteWeight", R)],
    ),
    (
        "AuctionSlot",
        &[
            ("Account", R),
            ("Expiration", R),
            ("DiscountedFee", D),
            ("Price", R),
            ("AuthAccounts", O),
        ],
    ),
    (
        "XChainClaimAttestationCollectionElement",
        &[
            ("AttestationSignerAccount", R),
            ("PublicKey", R),
            ("Signature", R),
            ("Amount", R),
            ("Account", R),
            ("AttestationRewardAccount", R),
            ("WasLockingChainSend", R),
            ("XChainClaimID", R),
            ("Destination", O),
        ],
    ),
    (
        "XChainCreateAccountAttestationCollectionElement",
        &[
            ("AttestationSignerAccount", R),
            ("PublicKey", R),
            ("Signature", R),
            ("Amount", R),
            ("Account", R),
            ("AttestationRewardAccount", R),
            ("WasLockingChainSend", R),
            ("XChainAccountCreateCount", R),
            ("Destination", R),
            ("SignatureReward", R),
        ],
    ),
    (
        "XChainClaimProofSig",
        &[
            ("AttestationSignerAccount", R),
            ("PublicKey", R),
            ("Amount", R),
            ("AttestationRewardAccount", R),
            ("WasLockingChainSend", R),
            ("Destination", O),
        ],
    ),
    (
        "XChainCreateAccountProofSig",
        &[
            ("AttestationSignerAccount", R),
            ("PublicKey", R),
            ("Amount", R),
            ("SignatureReward", R),
            ("AttestationRewardAccount", R),
            ("WasLockingChainSend", R),
            ("Destination", R),
        ],
    ),
    ("AuthAccount", &[("Account", R)]),
    (
        "PriceData",
        &[
            ("BaseAsset", R),
            ("QuoteAsset", R),
            ("AssetPrice", O),
            ("Scale", D),
        ],
    ),
    ("Credential", &[("Issuer", R), ("CredentialType", R)]),
    ("Permission", &[("PermissionValue", R)]),
    (
        "BatchSigner",
        &[
            ("Account", R),
            ("SigningPubKey", O),
            ("TxnSignature", O),
            ("Signers", O),
        ],
    ),
    ("Book", &[("BookDirectory", R), ("BookNode", R)]),
];

/// Why an object did not fit its template (`STObject::FieldErr`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The offending field.
    pub field: &'static str,
    /// rippled's description: "is required but missing." and so on.
    pub reason: &'static str,
}

type Table = HashMap<&'static str, Vec<(&'static str, Style)>>;

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        TEMPLATES
            .iter()
            // A template naming a field our definitions lack is skipped, not half-applied.
            .filter(|(_, fields)| {
                fields
                    .iter()
                    .all(|(f, _)| defs().field_by_name(f).is_some())
            })
            .map(|(name, fields)| (*name, fields.to_vec()))
            .collect()
    })
}

/// `applyTemplateFromSField`: checks `obj`, the contents of the inner object `name`,
/// against its template, if it has one.
pub(crate) fn check(name: &str, obj: &StObject) -> Result<(), TemplateError> {
    let Some(fields) = table().get(name) else {
        return Ok(());
    };
    for (fname, style) in fields {
        let Some(field) = defs().field_by_name(fname) else {
            continue;
        };
        match obj.get(field) {
            Some(v) if *style == Style::Default && v.is_default() => {
                return Err(TemplateError {
                    field: field.name(),
                    reason: "may not be explicitly set to default.",
                })
            }
            Some(_) => {}
            None if *style == Style::Required => {
                return Err(TemplateError {
                    field: field.name(),
                    reason: "is required but missing.",
                })
            }
            None => {}
        }
    }
    for (field, _) in obj.iter() {
        // Fields outside the template must be discardable (not serialized: hash, index).
        let listed = fields.iter().any(|(f, _)| *f == field.name());
        if !listed && field.def().is_serialized {
            return Err(TemplateError {
                field: field.name(),
                reason: "found in disallowed location.",
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::st::StValue;
    use crate::protocol::types::AccountId;

    #[test]
    fn signer_template() {
        let mut o = StObject::new();
        o.set_named("Account", StValue::AccountId(AccountId::ONE));
        o.set_named("SigningPubKey", StValue::Blob(vec![2; 33]));
        assert_eq!(
            check("Signer", &o),
            Err(TemplateError {
                field: "TxnSignature",
                reason: "is required but missing."
            })
        );
        o.set_named("TxnSignature", StValue::Blob(vec![1; 70]));
        assert_eq!(check("Signer", &o), Ok(()));
        o.set_named(
            "Fee",
            StValue::Amount(crate::protocol::amount::Amount::Xrp(1)),
        );
        assert_eq!(
            check("Signer", &o).map_err(|e| e.reason),
            Err("found in disallowed location.")
        );
        // No template: anything goes.
        assert_eq!(check("Memo", &o), Ok(()));
    }

    #[test]
    fn default_style() {
        let mut o = StObject::new();
        o.set_named("Account", StValue::AccountId(AccountId::ONE));
        o.set_named("VoteWeight", StValue::UInt32(1));
        assert_eq!(check("VoteEntry", &o), Ok(()));
        o.set_named("TradingFee", StValue::UInt16(0));
        assert_eq!(
            check("VoteEntry", &o).map_err(|e| e.reason),
            Err("may not be explicitly set to default.")
        );
        assert!(table().len() >= 15, "templates load from the definitions");
    }
}
