//! The amendment table: every amendment xrpld 3.4.1 knows (its `features.macro` with
//! fixBatchV1_2), each with its ID (the SHA-512-half of its name), xrpld's support and
//! default vote, whether xrpld has retired it, and what ledgerd does with its rules.
//! A [`FeatureSet`] is a set of amendments as a bitset over this table: the rules a
//! ledger is applied under read it once per check, at no cost to speak of.
//! docs/amendments.md gives the rule xrpld follows and its sources.

use std::sync::OnceLock;

use super::hash::sha512_half;
use super::types::Hash256;

/// xrpld's default vote for an amendment (`VoteBehavior`, plus `Supported::No`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vote {
    /// Voted for unless vetoed (`VoteBehavior::DefaultYes`).
    DefaultYes,
    /// Voted for only when up-voted (`VoteBehavior::DefaultNo`).
    DefaultNo,
    /// Never voted for, and no vote can change that (`VoteBehavior::Obsolete`; every
    /// retired amendment is registered so).
    Obsolete,
    /// Known but not supported by xrpld itself (`Supported::No`): never voted for.
    Unsupported,
}

/// What ledgerd does with an amendment's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Both ways: the engine reads the ledger's rules.
    Gated,
    /// The amendment's rules apply whether or not it is enabled (hard-wired on); xrpld has
    /// retired every such amendment it no longer gates, the rest are ledgerd's own debt.
    Applied,
    /// ledgerd lacks the amendment's rules (it applies the rules before it, or lacks the
    /// feature): the amendment cannot be enabled.
    Lacking,
}

macro_rules! amendments {
    ($( $variant:ident = $name:literal, $vote:ident, $retired:literal, $support:ident; )*) => {
        /// An amendment in the table.
        #[allow(non_camel_case_types)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Feature {
            $(
                #[doc = $name]
                $variant,
            )*
        }

        /// The table, in [`Feature`] order (xrpld's `features.macro` order: newest first,
        /// then the retired fixes and features alphabetically).
        pub const AMENDMENTS: &[Amendment] = &[
            $( Amendment {
                feature: Feature::$variant,
                name: $name,
                vote: Vote::$vote,
                retired: $retired,
                support: Support::$support,
            }, )*
        ];
    };
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Amendment {
    /// Its place in the table.
    pub feature: Feature,
    /// xrpld's name.
    pub name: &'static str,
    /// xrpld's default vote.
    pub vote: Vote,
    /// xrpld has retired it (`XRPL_RETIRE_*`): its rules apply unconditionally there.
    pub retired: bool,
    /// What ledgerd does with its rules.
    pub support: Support,
}

amendments! {
    FixBatchV1_2 = "fixBatchV1_2", DefaultYes, false, Lacking;
    FixPseudoAccountOwnership = "fixPseudoAccountOwnership", DefaultNo, false, Lacking;
    FixCleanup3_4_0 = "fixCleanup3_4_0", DefaultNo, false, Lacking;
    Sponsor = "Sponsor", DefaultNo, false, Lacking;
    BatchV1_1 = "BatchV1_1", DefaultNo, false, Applied;
    LendingProtocolV1_1 = "LendingProtocolV1_1", DefaultNo, false, Lacking;
    ConfidentialTransfer = "ConfidentialTransfer", DefaultNo, false, Lacking;
    FixCleanup3_3_0 = "fixCleanup3_3_0", DefaultNo, false, Lacking;
    FixCleanup3_2_0 = "fixCleanup3_2_0", DefaultNo, false, Lacking;
    MPTokensV2 = "MPTokensV2", Unsupported, false, Lacking;
    FixCleanup3_1_3 = "fixCleanup3_1_3", DefaultYes, false, Lacking;
    LendingProtocol = "LendingProtocol", DefaultNo, false, Applied;
    PermissionDelegationV1_1 = "PermissionDelegationV1_1", DefaultNo, false, Applied;
    FixDirectoryLimit = "fixDirectoryLimit", DefaultNo, false, Lacking;
    FixIncludeKeyletFields = "fixIncludeKeyletFields", DefaultNo, false, Lacking;
    DynamicMPT = "DynamicMPT", DefaultNo, false, Applied;
    FixTokenEscrowV1 = "fixTokenEscrowV1", DefaultNo, false, Gated;
    FixPriceOracleOrder = "fixPriceOracleOrder", DefaultNo, false, Gated;
    FixMPTDeliveredAmount = "fixMPTDeliveredAmount", DefaultNo, false, Gated;
    FixAMMClawbackRounding = "fixAMMClawbackRounding", DefaultNo, false, Gated;
    TokenEscrow = "TokenEscrow", DefaultNo, false, Applied;
    FixEnforceNFTokenTrustlineV2 = "fixEnforceNFTokenTrustlineV2", DefaultNo, false, Gated;
    FixAMMv1_3 = "fixAMMv1_3", DefaultNo, false, Gated;
    PermissionedDEX = "PermissionedDEX", DefaultNo, false, Applied;
    SingleAssetVault = "SingleAssetVault", DefaultNo, false, Applied;
    FixPayChanCancelAfter = "fixPayChanCancelAfter", DefaultNo, false, Gated;
    FixInvalidTxFlags = "fixInvalidTxFlags", DefaultNo, false, Gated;
    FixFrozenLPTokenTransfer = "fixFrozenLPTokenTransfer", DefaultNo, false, Gated;
    DeepFreeze = "DeepFreeze", DefaultNo, false, Applied;
    PermissionedDomains = "PermissionedDomains", DefaultNo, false, Applied;
    DynamicNFT = "DynamicNFT", DefaultNo, false, Applied;
    Credentials = "Credentials", DefaultNo, false, Applied;
    AMMClawback = "AMMClawback", DefaultNo, false, Applied;
    FixAMMv1_2 = "fixAMMv1_2", DefaultNo, false, Applied;
    MPTokensV1 = "MPTokensV1", DefaultNo, false, Applied;
    FixNFTokenPageLinks = "fixNFTokenPageLinks", DefaultNo, false, Applied;
    FixInnerObjTemplate2 = "fixInnerObjTemplate2", DefaultNo, false, Gated;
    FixEnforceNFTokenTrustline = "fixEnforceNFTokenTrustline", DefaultNo, false, Applied;
    FixReducedOffersV2 = "fixReducedOffersV2", DefaultNo, false, Applied;
    NFTokenMintOffer = "NFTokenMintOffer", DefaultNo, false, Applied;
    FixAMMv1_1 = "fixAMMv1_1", DefaultNo, false, Applied;
    FixPreviousTxnID = "fixPreviousTxnID", DefaultNo, false, Gated;
    FixXChainRewardRounding = "fixXChainRewardRounding", DefaultNo, false, Applied;
    FixEmptyDID = "fixEmptyDID", DefaultNo, false, Applied;
    PriceOracle = "PriceOracle", DefaultNo, false, Applied;
    FixFillOrKill = "fixFillOrKill", DefaultNo, false, Gated;
    DID = "DID", DefaultNo, false, Applied;
    XChainBridge = "XChainBridge", DefaultNo, false, Applied;
    AMM = "AMM", DefaultNo, false, Applied;
    XRPFees = "XRPFees", DefaultNo, false, Gated;
    FixRemoveNFTokenAutoTrustLine = "fixRemoveNFTokenAutoTrustLine", DefaultYes, false, Applied;
    Fix1201 = "fix1201", Obsolete, true, Applied;
    Fix1368 = "fix1368", Obsolete, true, Applied;
    Fix1373 = "fix1373", Obsolete, true, Applied;
    Fix1512 = "fix1512", Obsolete, true, Applied;
    Fix1513 = "fix1513", Obsolete, true, Applied;
    Fix1515 = "fix1515", Obsolete, true, Applied;
    Fix1523 = "fix1523", Obsolete, true, Applied;
    Fix1528 = "fix1528", Obsolete, true, Applied;
    Fix1543 = "fix1543", Obsolete, true, Applied;
    Fix1571 = "fix1571", Obsolete, true, Applied;
    Fix1578 = "fix1578", Obsolete, true, Applied;
    Fix1623 = "fix1623", Obsolete, true, Applied;
    Fix1781 = "fix1781", Obsolete, true, Applied;
    FixAmendmentMajorityCalc = "fixAmendmentMajorityCalc", Obsolete, true, Applied;
    FixAMMOverflowOffer = "fixAMMOverflowOffer", Obsolete, true, Applied;
    FixCheckThreading = "fixCheckThreading", Obsolete, true, Applied;
    FixDisallowIncomingV1 = "fixDisallowIncomingV1", Obsolete, true, Applied;
    FixInnerObjTemplate = "fixInnerObjTemplate", Obsolete, true, Applied;
    FixMasterKeyAsRegularKey = "fixMasterKeyAsRegularKey", Obsolete, true, Applied;
    FixNonFungibleTokensV1_2 = "fixNonFungibleTokensV1_2", Obsolete, true, Applied;
    FixNFTokenRemint = "fixNFTokenRemint", Obsolete, true, Applied;
    FixNFTokenReserve = "fixNFTokenReserve", Obsolete, true, Applied;
    FixPayChanRecipientOwnerDir = "fixPayChanRecipientOwnerDir", Obsolete, true, Applied;
    FixQualityUpperBound = "fixQualityUpperBound", Obsolete, true, Applied;
    FixReducedOffersV1 = "fixReducedOffersV1", Obsolete, true, Applied;
    FixRmSmallIncreasedQOffers = "fixRmSmallIncreasedQOffers", Obsolete, true, Applied;
    FixSTAmountCanonicalize = "fixSTAmountCanonicalize", Obsolete, true, Applied;
    FixTakerDryOfferRemoval = "fixTakerDryOfferRemoval", Obsolete, true, Applied;
    FixTrustLinesToSelf = "fixTrustLinesToSelf", Obsolete, true, Applied;
    FixUniversalNumber = "fixUniversalNumber", Obsolete, true, Applied;
    Checks = "Checks", Obsolete, true, Applied;
    CheckCashMakesTrustLine = "CheckCashMakesTrustLine", Obsolete, true, Applied;
    Clawback = "Clawback", Obsolete, true, Applied;
    CryptoConditions = "CryptoConditions", Obsolete, true, Applied;
    CryptoConditionsSuite = "CryptoConditionsSuite", Obsolete, true, Applied;
    DeletableAccounts = "DeletableAccounts", Obsolete, true, Applied;
    DepositAuth = "DepositAuth", Obsolete, true, Applied;
    DepositPreauth = "DepositPreauth", Obsolete, true, Applied;
    DisallowIncoming = "DisallowIncoming", Obsolete, true, Applied;
    Escrow = "Escrow", Obsolete, true, Applied;
    EnforceInvariants = "EnforceInvariants", Obsolete, true, Applied;
    ExpandedSignerList = "ExpandedSignerList", Obsolete, true, Applied;
    FeeEscalation = "FeeEscalation", Obsolete, true, Applied;
    Flow = "Flow", Obsolete, true, Applied;
    FlowCross = "FlowCross", Obsolete, true, Applied;
    FlowSortStrands = "FlowSortStrands", Obsolete, true, Applied;
    HardenedValidations = "HardenedValidations", Obsolete, true, Applied;
    ImmediateOfferKilled = "ImmediateOfferKilled", Obsolete, true, Applied;
    MultiSign = "MultiSign", Obsolete, true, Applied;
    MultiSignReserve = "MultiSignReserve", Obsolete, true, Applied;
    NegativeUNL = "NegativeUNL", Obsolete, true, Applied;
    NonFungibleTokensV1_1 = "NonFungibleTokensV1_1", Obsolete, true, Applied;
    PayChan = "PayChan", Obsolete, true, Applied;
    RequireFullyCanonicalSig = "RequireFullyCanonicalSig", Obsolete, true, Applied;
    SortedDirectories = "SortedDirectories", Obsolete, true, Applied;
    TicketBatch = "TicketBatch", Obsolete, true, Applied;
    TickSize = "TickSize", Obsolete, true, Applied;
    TrustSetAuth = "TrustSetAuth", Obsolete, true, Applied;
}

const _: () = assert!(AMENDMENTS.len() <= 128, "a FeatureSet holds 128 amendments");

impl Feature {
    /// Its row.
    pub fn info(self) -> &'static Amendment {
        &AMENDMENTS[self as usize]
    }

    /// xrpld's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Its ID: the SHA-512-half of its name (rippled's `registerFeature`).
    pub fn id(self) -> Hash256 {
        ids()[self as usize]
    }

    /// The amendment named `name` (exactly, as xrpld's `getRegisteredFeature`).
    pub fn by_name(name: &str) -> Option<Feature> {
        AMENDMENTS
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.feature)
    }

    /// The amendment whose ID is `id`.
    pub fn by_id(id: &Hash256) -> Option<Feature> {
        ids()
            .iter()
            .position(|x| x == id)
            .map(|i| AMENDMENTS[i].feature)
    }

    /// The amendment a name or a 64-digit hex ID names (case-insensitive hex).
    pub fn parse(s: &str) -> Option<Feature> {
        Feature::by_name(s).or_else(|| Feature::by_id(&Hash256::from_hex(s)?))
    }

    /// Every amendment, in table order.
    pub fn all() -> impl Iterator<Item = Feature> {
        AMENDMENTS.iter().map(|a| a.feature)
    }
}

fn ids() -> &'static [Hash256] {
    static IDS: OnceLock<Vec<Hash256>> = OnceLock::new();
    IDS.get_or_init(|| {
        AMENDMENTS
            .iter()
            .map(|a| sha512_half(&[a.name.as_bytes()]))
            .collect()
    })
}

/// A set of amendments of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FeatureSet([u64; 2]);

impl FeatureSet {
    /// No amendment.
    pub const EMPTY: FeatureSet = FeatureSet([0, 0]);

    /// Whether `f` is in the set.
    #[inline]
    pub fn contains(&self, f: Feature) -> bool {
        let i = f as usize;
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Adds `f`.
    pub fn insert(&mut self, f: Feature) {
        let i = f as usize;
        self.0[i / 64] |= 1u64 << (i % 64);
    }

    /// Removes `f`.
    pub fn remove(&mut self, f: Feature) {
        let i = f as usize;
        self.0[i / 64] &= !(1u64 << (i % 64));
    }

    /// Both sets' amendments.
    pub fn union(self, other: FeatureSet) -> FeatureSet {
        FeatureSet([self.0[0] | other.0[0], self.0[1] | other.0[1]])
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0 == [0, 0]
    }

    /// Its amendments, in table order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::all().filter(move |f| self.contains(*f))
    }

    /// Its amendments' IDs in ascending order: how xrpld lists them (`getDesired` sorts,
    /// and an Amendments entry holds them so).
    pub fn sorted_ids(self) -> Vec<Hash256> {
        let mut v: Vec<Hash256> = self.iter().map(Feature::id).collect();
        v.sort();
        v
    }

    /// Every amendment whose row satisfies `pred`.
    pub fn filter(pred: impl Fn(&Amendment) -> bool) -> FeatureSet {
        AMENDMENTS
            .iter()
            .filter(|a| pred(a))
            .map(|a| a.feature)
            .collect()
    }

    /// Its amendments ledgerd lacks the rules of.
    pub fn lacking(self) -> Vec<&'static str> {
        self.iter()
            .filter(|f| f.info().support == Support::Lacking)
            .map(Feature::name)
            .collect()
    }
}

impl FromIterator<Feature> for FeatureSet {
    fn from_iter<I: IntoIterator<Item = Feature>>(iter: I) -> FeatureSet {
        let mut s = FeatureSet::EMPTY;
        for f in iter {
            s.insert(f);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_hash_of_the_name() {
        // rippled's well-known IDs.
        assert_eq!(
            Feature::MultiSign.id().to_hex(),
            "4C97EBA926031A7CF7D7B36FDE3ED66DDA5421192D63DE53FFB46E43B9DC8373"
        );
        assert_eq!(
            Feature::AMM.id().to_hex(),
            "8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455"
        );
        assert_eq!(
            Feature::FixBatchV1_2.id().to_hex(),
            "14A2B45E48A4A124D1BBA657AC7B0DC3D5EA8C256C89E8F0D8142D32960A7944"
        );
        let names: std::collections::HashSet<_> = AMENDMENTS.iter().map(|a| a.name).collect();
        assert_eq!(names.len(), AMENDMENTS.len(), "no duplicates");
        for (i, a) in AMENDMENTS.iter().enumerate() {
            assert_eq!(a.feature as usize, i, "{} in table order", a.name);
            assert_eq!(a.retired, a.vote == Vote::Obsolete, "{}", a.name);
        }
    }

    #[test]
    fn lookups_by_name_and_id() {
        assert_eq!(Feature::by_name("fixAMMv1_3"), Some(Feature::FixAMMv1_3));
        assert_eq!(Feature::by_name("fixammv1_3"), None, "names are exact");
        let hex = Feature::XRPFees.id().to_hex().to_lowercase();
        assert_eq!(Feature::parse(&hex), Some(Feature::XRPFees));
        assert_eq!(Feature::parse("nope"), None);
    }

    #[test]
    fn sets() {
        let mut s = FeatureSet::EMPTY;
        assert!(s.is_empty());
        s.insert(Feature::TrustSetAuth);
        s.insert(Feature::FixBatchV1_2);
        assert!(s.contains(Feature::TrustSetAuth) && s.contains(Feature::FixBatchV1_2));
        assert!(!s.contains(Feature::AMM));
        assert_eq!(s.iter().count(), 2);
        let ids = s.sorted_ids();
        assert!(ids[0] < ids[1]);
        assert_eq!(s.lacking(), vec!["fixBatchV1_2"]);
        s.remove(Feature::FixBatchV1_2);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Feature::TrustSetAuth]);
    }
}
