//! The amendments `feature` reports (rippled `features.macro`): every amendment rippled
//! knows, by name, and whether ledgerd applies its rules. An amendment's ID is the
//! SHA-512-half of its name. What ledgerd applies is reported enabled and supported; the
//! rest (MPTokensV2 and the newer fixes) neither.

use crate::protocol::hash::sha512_half;
use crate::protocol::types::Hash256;

/// Amendments whose rules ledgerd applies (rippled's retired amendments, enabled for
/// good on the main network, that concern what ledgerd implements).
const APPLIED: &[&str] = &[
    "XChainBridge",
    "DID",
    "fixEmptyDID",
    "PriceOracle",
    "Credentials",
    "PermissionedDomains",
    // XLS-94 as rippled now has it: ImmutableFlags, tfMPTSet* (docs/compat.md).
    "DynamicMPT",
    "PermissionDelegationV1_1",
    "fix1201",
    "fix1368",
    "fix1373",
    "fix1512",
    "fix1513",
    "fix1515",
    "fix1523",
    "fix1528",
    "fix1543",
    "fix1571",
    "fix1578",
    "fix1623",
    "fix1781",
    "fixAmendmentMajorityCalc",
    "fixCheckThreading",
    "fixDisallowIncomingV1",
    "fixInnerObjTemplate",
    "fixMasterKeyAsRegularKey",
    "fixPayChanRecipientOwnerDir",
    "fixQualityUpperBound",
    "fixSTAmountCanonicalize",
    "fixTrustLinesToSelf",
    "fixUniversalNumber",
    "Checks",
    "Clawback",
    "CryptoConditions",
    "DeletableAccounts",
    "DepositAuth",
    "DepositPreauth",
    "DisallowIncoming",
    "Escrow",
    "EnforceInvariants",
    "ExpandedSignerList",
    "FeeEscalation",
    "Flow",
    "HardenedValidations",
    "MultiSign",
    "MultiSignReserve",
    "NegativeUNL",
    "PayChan",
    "RequireFullyCanonicalSig",
    "SortedDirectories",
    "TicketBatch",
    "TickSize",
    "TrustSetAuth",
    "AMM",
    "fixAMMv1_1",
    "fixAMMv1_2",
    "fixAMMv1_3",
    "fixAMMOverflowOffer",
    "AMMClawback",
    "fixAMMClawbackRounding",
    "DeepFreeze",
    "MPTokensV1",
    "fixMPTDeliveredAmount",
    "NonFungibleTokensV1_1",
    "fixNFTokenRemint",
    "fixNonFungibleTokensV1_2",
    "fixNFTokenReserve",
    "fixRemoveNFTokenAutoTrustLine",
    "fixEnforceNFTokenTrustline",
    "fixEnforceNFTokenTrustlineV2",
    "fixNFTokenPageLinks",
    "NFTokenMintOffer",
    "DynamicNFT",
    "BatchV1_1",
    // Domain offers and payments, tfHybrid, as rippled 2.5 (docs/compat.md).
    "PermissionedDEX",
    "SingleAssetVault",
    // Loan brokers and loans (XLS-66), as rippled 3.0 (docs/compat.md).
    "LendingProtocol",
    // Escrows of issued currencies and MPTs (XLS-85), as rippled 2.5 (docs/compat.md).
    "TokenEscrow",
    "fixTokenEscrowV1",
];

/// Amendments rippled knows whose rules ledgerd does not apply.
const NOT_APPLIED: &[&str] = &[
    "fixPseudoAccountOwnership",
    "fixCleanup3_4_0",
    "Sponsor",
    "LendingProtocolV1_1",
    "ConfidentialTransfer",
    "fixCleanup3_3_0",
    "fixCleanup3_2_0",
    "MPTokensV2",
    "fixCleanup3_1_3",
    "fixDirectoryLimit",
    "fixIncludeKeyletFields",
    "fixPriceOracleOrder",
    "fixPayChanCancelAfter",
    "fixInvalidTxFlags",
    "fixFrozenLPTokenTransfer",
    "fixInnerObjTemplate2",
    "fixReducedOffersV2",
    "fixPreviousTxnID",
    "fixXChainRewardRounding",
    "fixFillOrKill",
    "XRPFees",
    "fixReducedOffersV1",
    "fixRmSmallIncreasedQOffers",
    "fixTakerDryOfferRemoval",
    "CheckCashMakesTrustLine",
    "CryptoConditionsSuite",
    "FlowCross",
    "FlowSortStrands",
    "ImmediateOfferKilled",
];

/// One amendment: its ID, name, and whether ledgerd applies it.
pub struct Amendment {
    /// SHA-512-half of the name.
    pub id: Hash256,
    /// rippled's name.
    pub name: &'static str,
    /// ledgerd applies its rules (reported enabled and supported).
    pub applied: bool,
}

/// Every amendment, applied ones first.
pub fn all() -> impl Iterator<Item = Amendment> {
    let row = |applied: bool| {
        move |name: &&'static str| Amendment {
            id: sha512_half(&[name.as_bytes()]),
            name,
            applied,
        }
    };
    APPLIED
        .iter()
        .map(row(true))
        .chain(NOT_APPLIED.iter().map(row(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_hash_of_the_name() {
        // rippled's well-known ID of MultiSign.
        let ms = all().find(|a| a.name == "MultiSign").expect("listed");
        assert_eq!(
            ms.id.to_hex(),
            "4C97EBA926031A7CF7D7B36FDE3ED66DDA5421192D63DE53FFB46E43B9DC8373"
        );
        let names: std::collections::HashSet<_> = all().map(|a| a.name).collect();
        assert_eq!(
            names.len(),
            APPLIED.len() + NOT_APPLIED.len(),
            "no duplicates"
        );
    }
}
