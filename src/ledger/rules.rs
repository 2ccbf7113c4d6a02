//! The rules a ledger is applied under, as xrpld builds `Rules` (`makeRulesGivenLedger`):
//! the amendments its Amendments entry records (`sfAmendments`), together with the
//! presets the configuration forces on (xrpld's `[features]`, `Config::features`), which
//! every ledger's rules include. A [`Rules`] is two bitsets: copied into each view's
//! [`crate::ledger::view::ViewInfo`], read per check without a lookup.
//!
//! The engine reads `view.info().rules`; code rippled gates through the thread's current
//! transaction rules (`isFeatureEnabled`, the AMM formulas) reads [`enabled_now`], which
//! the engine sets for the transaction it applies ([`CurrentRules`]).

use std::cell::Cell;
use std::sync::OnceLock;

use crate::protocol::definitions::Field;
use crate::protocol::features::{Feature, FeatureSet, Support, Vote};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::Hash256;

/// The rules of one ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    enabled: FeatureSet,
    recorded: FeatureSet,
}

impl Default for Rules {
    /// ledgerd's own rule book: every amendment whose rules ledgerd has, as presets over a
    /// ledger that records none (what a standalone ledgerd has always applied).
    fn default() -> Rules {
        Rules::new(RuleBook::default().presets, FeatureSet::EMPTY)
    }
}

impl Rules {
    /// The rules of a ledger whose Amendments entry records `recorded`, with `presets`
    /// forced on.
    pub fn new(presets: FeatureSet, recorded: FeatureSet) -> Rules {
        Rules {
            enabled: presets.union(recorded),
            recorded,
        }
    }

    /// Whether `f`'s rules apply (`Rules::enabled`: a preset, or recorded in the ledger).
    #[inline]
    pub fn enabled(&self, f: Feature) -> bool {
        self.enabled.contains(f)
    }

    /// Every amendment whose rules apply.
    pub fn enabled_set(&self) -> FeatureSet {
        self.enabled
    }

    /// The amendments the ledger's Amendments entry records: what xrpld's amendment table
    /// reports `enabled` (presets alone are not, there).
    pub fn recorded(&self) -> FeatureSet {
        self.recorded
    }

    /// The rules of a ledger whose Amendments entry is `entry` (None: the ledger has none),
    /// with `presets` forced on. An ID outside the table, or an amendment ledgerd lacks the
    /// rules of, is refused: xrpld would be amendment-blocked; ledgerd cannot apply them.
    pub fn from_entry(presets: FeatureSet, entry: Option<&StObject>) -> Result<Rules, RulesError> {
        let ids: &[Hash256] = match entry.and_then(|e| e.get(amendments_field())) {
            Some(StValue::Vector256(v)) => v,
            _ => &[],
        };
        let mut recorded = FeatureSet::EMPTY;
        let mut unknown = Vec::new();
        for id in ids {
            match Feature::by_id(id) {
                Some(f) => recorded.insert(f),
                None => unknown.push(id.to_hex()),
            }
        }
        if !unknown.is_empty() {
            return Err(RulesError::Unknown(unknown));
        }
        check_supported(presets.union(recorded))?;
        Ok(Rules::new(presets, recorded))
    }
}

/// Why a set of amendments cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// IDs no table row has (xrpld would not know them either).
    #[error("unknown amendments enabled: {}", .0.join(", "))]
    Unknown(Vec<String>),
    /// Amendments ledgerd lacks the rules of.
    #[error("amendments whose rules ledgerd lacks: {}", .0.join(", "))]
    Lacking(Vec<&'static str>),
}

/// Refuses a set holding amendments whose rules ledgerd lacks, naming them.
pub fn check_supported(set: FeatureSet) -> Result<(), RulesError> {
    let lacking = set.lacking();
    if lacking.is_empty() {
        Ok(())
    } else {
        Err(RulesError::Lacking(lacking))
    }
}

/// Which amendments a new ledger starts with: `genesis` is what its Amendments entry
/// records (xrpld's `AmendmentTable::getDesired` under `--start`, nothing otherwise),
/// `presets` what the configuration forces on in every ledger (xrpld's `[features]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleBook {
    /// Forced on in every ledger's rules, recorded nowhere.
    pub presets: FeatureSet,
    /// Recorded in the genesis ledger's Amendments entry.
    pub genesis: FeatureSet,
}

impl Default for RuleBook {
    /// ledgerd's own: every amendment whose rules it has, as presets; a genesis ledger
    /// with no Amendments entry (as xrpld's without `--start`), so its hash is xrpld's.
    fn default() -> RuleBook {
        RuleBook {
            presets: FeatureSet::filter(|a| a.support != Support::Lacking),
            genesis: FeatureSet::EMPTY,
        }
    }
}

impl RuleBook {
    /// The genesis ledger's rules.
    pub fn genesis_rules(&self) -> Rules {
        Rules::new(self.presets, self.genesis)
    }

    /// Refuses a rule book enabling amendments ledgerd lacks the rules of.
    pub fn check(&self) -> Result<(), RulesError> {
        check_supported(self.presets.union(self.genesis))
    }
}

/// This server's votes (xrpld's `AmendmentTable` votes): up or down for each amendment of
/// the table; retired (obsolete) amendments have no vote that can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Votes {
    up: FeatureSet,
}

impl Default for Votes {
    /// xrpld's defaults: every `DefaultYes` amendment up, the rest down.
    fn default() -> Votes {
        Votes {
            up: FeatureSet::filter(|a| a.vote == Vote::DefaultYes),
        }
    }
}

/// One amendment's vote as `feature` reports it (`vetoed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoteState {
    /// Voted for (`vetoed: false`).
    Up,
    /// Voted against (`vetoed: true`).
    Down,
    /// Retired: no vote (`vetoed: "Obsolete"`).
    Obsolete,
}

impl Votes {
    /// Exactly these up-votes (obsolete amendments left out).
    pub fn with_up(up: FeatureSet) -> Votes {
        Votes {
            up: FeatureSet::filter(|a| up.contains(a.feature) && a.vote != Vote::Obsolete),
        }
    }

    /// The up-voted amendments.
    pub fn up(&self) -> FeatureSet {
        self.up
    }

    /// `f`'s vote.
    pub fn state(&self, f: Feature) -> VoteState {
        if f.info().vote == Vote::Obsolete {
            VoteState::Obsolete
        } else if self.up.contains(f) {
            VoteState::Up
        } else {
            VoteState::Down
        }
    }

    /// Votes against `f` (`AmendmentTable::veto`): true when it was up.
    pub fn veto(&mut self, f: Feature) -> bool {
        if self.state(f) != VoteState::Up {
            return false;
        }
        self.up.remove(f);
        true
    }

    /// Votes for `f` again (`unVeto`): true when it was down.
    pub fn unveto(&mut self, f: Feature) -> bool {
        if self.state(f) != VoteState::Down {
            return false;
        }
        self.up.insert(f);
        true
    }

    /// What a new ledger started fresh records (`getDesired`): the up-voted amendments
    /// the server supports, in ledgerd's case those whose rules it has.
    pub fn desired(&self) -> FeatureSet {
        FeatureSet::filter(|a| {
            self.up.contains(a.feature)
                && a.vote != Vote::Unsupported
                && a.support != Support::Lacking
        })
    }
}

/// The configured rule book, by amendment names or IDs: xrpld's `[amendments]` (up-votes),
/// `[veto_amendments]` (down-votes), `[features]` (presets) and `--start` (record the
/// desired amendments in a new genesis ledger).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmendmentConfig {
    /// Up-votes.
    pub up: Vec<String>,
    /// Down-votes (an amendment also up-voted stays up, as in xrpld).
    pub down: Vec<String>,
    /// Presets, forced on in every ledger's rules; `None`: ledgerd's own rule book, every
    /// amendment whose rules it has.
    pub features: Option<Vec<String>>,
    /// A new genesis ledger records the desired amendments (xrpld's `--start`).
    pub start: bool,
}

impl AmendmentConfig {
    /// A named rule book: `ledgerd` (the default), `xrpld-3.4.1` (what `xrpld -a --start`
    /// of that release enables with no votes configured: its `DefaultYes` amendments) or
    /// `ci` (`xrpld -a` with the `[features]` list of the client libraries'
    /// `.ci-config/xrpld.cfg`, as xrpl.js had it).
    pub fn preset(name: &str) -> Option<AmendmentConfig> {
        match name {
            "ledgerd" => Some(AmendmentConfig::default()),
            "xrpld-3.4.1" => Some(AmendmentConfig {
                features: Some(Vec::new()),
                start: true,
                ..AmendmentConfig::default()
            }),
            "ci" => Some(AmendmentConfig {
                features: Some(CI_FEATURES.iter().map(|s| s.to_string()).collect()),
                ..AmendmentConfig::default()
            }),
            _ => None,
        }
    }
}

/// The preset names [`AmendmentConfig::preset`] knows.
pub const PRESETS: &[&str] = &["ledgerd", "xrpld-3.4.1", "ci"];

/// The `[features]` list of xrpl.js's `.ci-config/xrpld.cfg` (which xrpl-py's matches but
/// for NonFungibleTokensV1_1, fixNonFungibleTokensV1_2 and fixNFTokenRemint, retired).
pub const CI_FEATURES: &[&str] = &[
    "NegativeUNL",
    "fixRemoveNFTokenAutoTrustLine",
    "CheckCashMakesTrustLine",
    "fixRmSmallIncreasedQOffers",
    "fixSTAmountCanonicalize",
    "FlowSortStrands",
    "TicketBatch",
    "fix1201",
    "fixQualityUpperBound",
    "FlowCross",
    "EnforceInvariants",
    "fix1523",
    "HardenedValidations",
    "DepositPreauth",
    "MultiSignReserve",
    "fix1623",
    "FeeEscalation",
    "PayChan",
    "fix1513",
    "RequireFullyCanonicalSig",
    "fix1543",
    "TickSize",
    "fix1781",
    "fixCheckThreading",
    "fix1515",
    "CryptoConditions",
    "fix1528",
    "fixPayChanRecipientOwnerDir",
    "SortedDirectories",
    "fix1578",
    "fix1571",
    "fixAmendmentMajorityCalc",
    "fixTakerDryOfferRemoval",
    "fixMasterKeyAsRegularKey",
    "Flow",
    "Escrow",
    "TrustSetAuth",
    "DeletableAccounts",
    "DepositAuth",
    "fix1368",
    "fix1512",
    "fix1373",
    "MultiSign",
    "Checks",
    "DisallowIncoming",
    "fixTrustLinesToSelf",
    "fixUniversalNumber",
    "ImmediateOfferKilled",
    "XRPFees",
    "ExpandedSignerList",
    "AMM",
    "Clawback",
    "fixReducedOffersV1",
    "XChainBridge",
    "DID",
    "fixNFTokenReserve",
    "fixInnerObjTemplate",
    "fixAMMOverflowOffer",
    "PriceOracle",
    "fixEmptyDID",
    "fixXChainRewardRounding",
    "fixPreviousTxnID",
    "fixAMMv1_1",
    "AMMClawback",
    "Credentials",
    "NFTokenMintOffer",
    "MPTokensV1",
    "fixAMMv1_2",
    "fixNFTokenPageLinks",
    "fixInnerObjTemplate2",
    "fixEnforceNFTokenTrustline",
    "fixReducedOffersV2",
    "DeepFreeze",
    "DynamicNFT",
    "PermissionedDomains",
    "fixFrozenLPTokenTransfer",
    "fixInvalidTxFlags",
    "PermissionedDEX",
    "TokenEscrow",
    "PermissionDelegationV1_1",
    "SingleAssetVault",
    "DynamicMPT",
    "LendingProtocol",
    "fixCleanup3_1_3",
    "fixCleanup3_2_0",
    "BatchV1_1",
    "ConfidentialTransfer",
    "Sponsor",
];

/// What a configured rule book comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The genesis set and the presets.
    pub book: RuleBook,
    /// The server's votes.
    pub votes: Votes,
    /// Presets dropped because ledgerd lacks their rules (they stay disabled).
    pub dropped: Vec<&'static str>,
}

fn parse_all(names: &[String]) -> Result<FeatureSet, RulesError> {
    let mut set = FeatureSet::EMPTY;
    let mut unknown = Vec::new();
    for n in names {
        match Feature::parse(n.trim()) {
            Some(f) => set.insert(f),
            None => unknown.push(n.clone()),
        }
    }
    if unknown.is_empty() {
        Ok(set)
    } else {
        Err(RulesError::Unknown(unknown))
    }
}

impl AmendmentConfig {
    /// The rule book this configuration asks for. `stored`: votes kept from an earlier run
    /// (xrpld's wallet.db), which win over the configured ones. An unknown name is refused;
    /// so is an up-vote for an amendment ledgerd lacks the rules of (it could not be
    /// enabled); a preset ledgerd lacks is dropped and named in [`Resolved::dropped`].
    pub fn resolve(&self, stored: Option<Votes>) -> Result<Resolved, RulesError> {
        let up = parse_all(&self.up)?;
        let down = parse_all(&self.down)?;
        check_supported(up)?;
        let votes = stored.unwrap_or_else(|| {
            let mut v = Votes::default();
            for f in down.iter().filter(|f| !up.contains(*f)) {
                v.veto(f);
            }
            for f in up.iter() {
                v.unveto(f);
            }
            v
        });
        let presets = match &self.features {
            Some(names) => parse_all(names)?,
            None => RuleBook::default().presets,
        };
        let dropped = presets.lacking();
        let presets =
            FeatureSet::filter(|a| presets.contains(a.feature) && a.support != Support::Lacking);
        let genesis = if self.start {
            votes.desired()
        } else {
            FeatureSet::EMPTY
        };
        Ok(Resolved {
            book: RuleBook { presets, genesis },
            votes,
            dropped,
        })
    }
}

/// The `Amendments` field (sfAmendments).
pub fn amendments_field() -> Field {
    static F: OnceLock<Field> = OnceLock::new();
    *F.get_or_init(|| Field::named("Amendments"))
}

thread_local! {
    static CURRENT: Cell<Option<Rules>> = const { Cell::new(None) };
}

/// Whether `f` is enabled in the rules of the transaction this thread applies (rippled's
/// `isFeatureEnabled`); outside one, ledgerd's default rule book decides.
#[inline]
pub fn enabled_now(f: Feature) -> bool {
    current().enabled(f)
}

/// The rules of the transaction this thread applies; outside one, ledgerd's default rule
/// book.
#[inline]
pub fn current() -> Rules {
    CURRENT.with(|c| c.get()).unwrap_or_default()
}

/// Sets the thread's current transaction rules until dropped (rippled's
/// `CurrentTransactionRulesGuard`), restoring what was there before.
pub struct CurrentRules(Option<Rules>);

impl CurrentRules {
    /// Makes `rules` the thread's current transaction rules.
    pub fn set(rules: Rules) -> CurrentRules {
        CurrentRules(CURRENT.with(|c| c.replace(Some(rules))))
    }
}

impl Drop for CurrentRules {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry_of(ids: Vec<Hash256>) -> StObject {
        let mut o = StObject::default();
        o.set(amendments_field(), StValue::Vector256(ids));
        o
    }

    #[test]
    fn rules_are_the_presets_and_the_recorded_amendments() {
        let presets: FeatureSet = [Feature::AMM].into_iter().collect();
        let entry = entry_of(vec![Feature::FixAMMv1_3.id()]);
        let r = Rules::from_entry(presets, Some(&entry)).expect("known");
        assert!(r.enabled(Feature::AMM) && r.enabled(Feature::FixAMMv1_3));
        assert!(!r.enabled(Feature::XRPFees));
        assert!(r.recorded().contains(Feature::FixAMMv1_3));
        assert!(
            !r.recorded().contains(Feature::AMM),
            "a preset is not recorded"
        );
        let none = Rules::from_entry(presets, None).expect("no entry");
        assert!(!none.enabled(Feature::FixAMMv1_3));
    }

    #[test]
    fn unknown_and_lacking_amendments_are_refused() {
        let entry = entry_of(vec![Hash256([7; 32])]);
        assert!(matches!(
            Rules::from_entry(FeatureSet::EMPTY, Some(&entry)),
            Err(RulesError::Unknown(_))
        ));
        let entry = entry_of(vec![Feature::Sponsor.id(), Feature::AMM.id()]);
        assert_eq!(
            Rules::from_entry(FeatureSet::EMPTY, Some(&entry)),
            Err(RulesError::Lacking(vec!["Sponsor"]))
        );
        assert!(RuleBook::default().check().is_ok());
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn presets_resolve_as_xrpld_would_start() {
        let default = AmendmentConfig::default().resolve(None).expect("default");
        assert_eq!(default.book, RuleBook::default());
        assert!(default.dropped.is_empty());
        let xrpld = AmendmentConfig::preset("xrpld-3.4.1")
            .expect("preset")
            .resolve(None)
            .expect("resolves");
        // xrpld 3.4.1 would record its three DefaultYes amendments; the two whose rules
        // ledgerd lacks are not supported here, so not desired.
        let want: FeatureSet = [Feature::FixRemoveNFTokenAutoTrustLine]
            .into_iter()
            .collect();
        assert_eq!(xrpld.book.genesis, want);
        assert!(xrpld.book.presets.is_empty());
        for f in [Feature::FixCleanup3_1_3, Feature::FixBatchV1_2] {
            assert_eq!(xrpld.votes.state(f), VoteState::Up, "{}", f.name());
        }
        let ci = AmendmentConfig::preset("ci")
            .expect("preset")
            .resolve(None)
            .expect("resolves");
        assert!(ci.book.presets.contains(Feature::AMM));
        assert!(!ci.book.presets.contains(Feature::FixAMMv1_3));
        assert!(ci.book.genesis.is_empty());
        assert!(ci.dropped.contains(&"Sponsor") && ci.dropped.contains(&"ConfidentialTransfer"));
        for p in PRESETS {
            assert!(AmendmentConfig::preset(p).is_some(), "{p}");
        }
        assert!(AmendmentConfig::preset("xrpld-9").is_none());
    }

    #[test]
    fn votes_follow_the_configuration_and_refuse_what_cannot_be_enabled() {
        let cfg = AmendmentConfig {
            up: names(&["fixAMMv1_3", &Feature::XRPFees.id().to_hex()]),
            down: names(&["fixRemoveNFTokenAutoTrustLine", "fixAMMv1_3"]),
            features: Some(Vec::new()),
            start: true,
        };
        let r = cfg.resolve(None).expect("resolves");
        let want: FeatureSet = [Feature::FixAMMv1_3, Feature::XRPFees]
            .into_iter()
            .collect();
        assert_eq!(r.book.genesis, want, "a down-vote also up-voted stays up");
        assert_eq!(r.votes.state(Feature::Flow), VoteState::Obsolete);
        let stored = Votes::with_up(FeatureSet::EMPTY);
        assert!(cfg
            .resolve(Some(stored))
            .expect("ok")
            .book
            .genesis
            .is_empty());
        let sponsor = AmendmentConfig {
            up: names(&["Sponsor"]),
            ..AmendmentConfig::default()
        };
        assert_eq!(
            sponsor.resolve(None),
            Err(RulesError::Lacking(vec!["Sponsor"]))
        );
        let typo = AmendmentConfig {
            features: Some(names(&["fixAMMv13"])),
            ..AmendmentConfig::default()
        };
        assert!(matches!(typo.resolve(None), Err(RulesError::Unknown(_))));
    }

    #[test]
    fn veto_and_unveto_as_the_amendment_table() {
        let mut v = Votes::default();
        assert!(v.veto(Feature::FixRemoveNFTokenAutoTrustLine));
        assert!(
            !v.veto(Feature::FixRemoveNFTokenAutoTrustLine),
            "already down"
        );
        assert!(!v.veto(Feature::Flow), "obsolete never changes");
        assert!(!v.unveto(Feature::Flow));
        assert!(v.unveto(Feature::AMM));
        assert_eq!(v.state(Feature::AMM), VoteState::Up);
        assert!(v.desired().contains(Feature::AMM));
    }

    #[test]
    fn the_current_rules_nest_and_restore() {
        let off = Rules::new(FeatureSet::EMPTY, FeatureSet::EMPTY);
        assert!(enabled_now(Feature::FixAMMv1_3), "default rule book");
        {
            let _g = CurrentRules::set(off);
            assert!(!enabled_now(Feature::FixAMMv1_3));
            {
                let _h = CurrentRules::set(Rules::default());
                assert!(enabled_now(Feature::FixAMMv1_3));
            }
            assert!(!enabled_now(Feature::FixAMMv1_3));
        }
        assert!(enabled_now(Feature::FixAMMv1_3));
    }
}
