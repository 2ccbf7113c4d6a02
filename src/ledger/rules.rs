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

use crate::ledger::fees::{mainnet_fees_on, Fees, MAINNET_FEES};
use crate::protocol::definitions::Field;
use crate::protocol::features::{Feature, FeatureSet, Support, Vote, MAINNET_RECORDED_TO};
use crate::protocol::number::{set_scale, MantissaScale};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::time::parse_close_time;
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
    /// ledgerd's own rule book with `feature` forced on or off: how a unit test shows one
    /// amendment's two outcomes.
    pub fn default_with(feature: Feature, on: bool) -> Rules {
        let mut presets = RuleBook::default().presets;
        if on {
            presets.insert(feature);
        } else {
            presets.remove(feature);
        }
        Rules::new(presets, FeatureSet::EMPTY)
    }

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
    /// A network preset's date selects amendments ledgerd lacks the rules of.
    #[error("{preset} had enabled amendments whose rules ledgerd lacks: {} (the first on {since}: an earlier date avoids them)", .names.join(", "))]
    NetworkLacking {
        /// The preset, `mainnet-DATE`.
        preset: String,
        /// The amendments, as the network enabled them.
        names: Vec<&'static str>,
        /// The day the first of them was enabled.
        since: &'static str,
    },
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
    /// The order the Amendments entry lists them in.
    pub order: GenesisOrder,
}

/// The order of a genesis ledger's Amendments entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GenesisOrder {
    /// By ID, as xrpld's genesis writes its desired set (`getDesired` sorts).
    #[default]
    ById,
    /// As the XRP Ledger mainnet enabled them, which is how its entry lists them
    /// ([`FeatureSet::mainnet_ordered_ids`]).
    Mainnet,
}

impl Default for RuleBook {
    /// ledgerd's own: every amendment whose rules it has, as presets; a genesis ledger
    /// with no Amendments entry (as xrpld's without `--start`), so its hash is xrpld's.
    fn default() -> RuleBook {
        RuleBook {
            presets: FeatureSet::filter(|a| a.support != Support::Lacking),
            genesis: FeatureSet::EMPTY,
            order: GenesisOrder::ById,
        }
    }
}

impl RuleBook {
    /// The genesis ledger's rules.
    pub fn genesis_rules(&self) -> Rules {
        Rules::new(self.presets, self.genesis)
    }

    /// The genesis ledger's Amendments entry's IDs, in its order.
    pub fn genesis_ids(&self) -> Vec<Hash256> {
        match self.order {
            GenesisOrder::ById => self.genesis.sorted_ids(),
            GenesisOrder::Mainnet => self.genesis.mainnet_ordered_ids(),
        }
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
    /// A network's ledger as of a date (`mainnet-DATE`): a new genesis ledger records
    /// what that network had enabled, instead of the desired amendments.
    pub network: Option<AsOf>,
}

/// The XRP Ledger mainnet as of a date: what its Amendments entry held at the end of that
/// day (UTC), and its fee schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsOf {
    /// The preset's name, `mainnet-YYYY-MM-DD`.
    pub name: String,
    /// The amendments enabled by then.
    pub amendments: FeatureSet,
    /// The fee schedule then (a configured value wins: [`crate::ledger::fees::FeesSet`]).
    pub fees: Fees,
}

/// Why a preset name does not name a rule book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// No such preset.
    #[error("{0:?} is not a preset: one of {list}", list = PRESETS.join(", "))]
    Unknown(String),
    /// `mainnet-` followed by something other than a date.
    #[error("{0:?} is not a date (YYYY-MM-DD)")]
    BadDate(String),
    /// A date outside what ledgerd records of mainnet.
    #[error("{date}: ledgerd records mainnet from {from} to {to}")]
    OutOfRecord {
        /// The date asked for.
        date: String,
        /// The first date recorded.
        from: &'static str,
        /// The last date recorded.
        to: &'static str,
    },
}

impl AmendmentConfig {
    /// A named rule book: `ledgerd` (the default), `xrpld-3.4.1` (what `xrpld -a --start`
    /// of that release enables with no votes configured: its `DefaultYes` amendments),
    /// `ci` (`xrpld -a` with the `[features]` list of the client libraries'
    /// `.ci-config/xrpld.cfg`, as xrpl.js had it), or `mainnet-YYYY-MM-DD` (`mainnet`: the
    /// last day recorded): a new ledger as the XRP Ledger mainnet's was at the end of that
    /// day, recording the amendments it had enabled, with no presets and its fees.
    pub fn preset(name: &str) -> Result<AmendmentConfig, PresetError> {
        match name {
            "ledgerd" => Ok(AmendmentConfig::default()),
            "xrpld-3.4.1" => Ok(AmendmentConfig {
                features: Some(Vec::new()),
                start: true,
                ..AmendmentConfig::default()
            }),
            "ci" => Ok(AmendmentConfig {
                features: Some(CI_FEATURES.iter().map(|s| s.to_string()).collect()),
                ..AmendmentConfig::default()
            }),
            "mainnet" => mainnet(MAINNET_RECORDED_TO),
            _ => match name.strip_prefix("mainnet-") {
                Some(date) => mainnet(date),
                None => Err(PresetError::Unknown(name.to_string())),
            },
        }
    }
}

/// The `mainnet-DATE` preset.
fn mainnet(date: &str) -> Result<AmendmentConfig, PresetError> {
    let end_of_day = (date.len() == 10)
        .then(|| parse_close_time(&format!("{date}T23:59:59Z")))
        .flatten()
        .ok_or_else(|| PresetError::BadDate(date.to_string()))?;
    let from = MAINNET_FEES[0].0;
    let fees = mainnet_fees_on(date)
        .filter(|_| date <= MAINNET_RECORDED_TO)
        .ok_or_else(|| PresetError::OutOfRecord {
            date: date.to_string(),
            from,
            to: MAINNET_RECORDED_TO,
        })?;
    Ok(AmendmentConfig {
        features: Some(Vec::new()),
        network: Some(AsOf {
            name: format!("mainnet-{date}"),
            amendments: FeatureSet::mainnet_at(end_of_day),
            fees,
        }),
        ..AmendmentConfig::default()
    })
}

/// The preset names [`AmendmentConfig::preset`] knows (and `mainnet-YYYY-MM-DD`).
pub const PRESETS: &[&str] = &[
    "ledgerd",
    "xrpld-3.4.1",
    "ci",
    "mainnet",
    "mainnet-YYYY-MM-DD",
];

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
    /// The fee schedule the preset brings (`mainnet-DATE`), under configured values.
    pub fees: Option<Fees>,
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
        let (genesis, order) = match (&self.network, self.start) {
            (Some(net), _) => {
                check_supported(net.amendments).map_err(|_| network_lacking(net))?;
                (net.amendments, GenesisOrder::Mainnet)
            }
            (None, true) => (votes.desired(), GenesisOrder::ById),
            (None, false) => (FeatureSet::EMPTY, GenesisOrder::ById),
        };
        Ok(Resolved {
            book: RuleBook {
                presets,
                genesis,
                order,
            },
            votes,
            dropped,
            fees: self.network.as_ref().map(|n| n.fees),
        })
    }
}

/// The refusal of a network preset whose amendments ledgerd lacks some of: those, in the
/// order the network enabled them, and the day it enabled the first.
fn network_lacking(net: &AsOf) -> RulesError {
    let lacking =
        FeatureSet::filter(|a| net.amendments.contains(a.feature) && a.support == Support::Lacking);
    let ids = lacking.mainnet_ordered_ids();
    let names: Vec<&'static str> = ids
        .iter()
        .filter_map(|id| Feature::by_id(id).map(Feature::name))
        .collect();
    let since = ids
        .first()
        .and_then(Feature::by_id)
        .and_then(|f| f.info().mainnet)
        .map_or("", |e| e.time.get(..10).unwrap_or(e.time));
    RulesError::NetworkLacking {
        preset: net.name.clone(),
        names,
        since,
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

/// The `Number` mantissa scale a transaction under `rules` computes with (rippled's
/// `setCurrentTransactionRules`): 19 digits with SingleAssetVault or LendingProtocol,
/// with fixCleanup3_3_0's rounding (`Large330`), else the `i64::MAX` cusp rounding fixed
/// by fixCleanup3_2_0 (`Large320`), else neither; without either amendment the legacy 16
/// digits (where fixCleanup3_3_0 changes nothing).
pub fn number_scale(rules: &Rules) -> MantissaScale {
    if rules.enabled(Feature::SingleAssetVault) || rules.enabled(Feature::LendingProtocol) {
        if rules.enabled(Feature::FixCleanup3_3_0) {
            MantissaScale::Large330
        } else if rules.enabled(Feature::FixCleanup3_2_0) {
            MantissaScale::Large320
        } else {
            MantissaScale::LargeLegacy
        }
    } else {
        MantissaScale::Small
    }
}

/// Sets the thread's current transaction rules until dropped (rippled's
/// `CurrentTransactionRulesGuard`), with the `Number` scale they select
/// ([`number_scale`]), restoring both as they were before.
pub struct CurrentRules(Option<Rules>, MantissaScale);

impl CurrentRules {
    /// Makes `rules` the thread's current transaction rules, and their scale the thread's
    /// `Number` scale.
    pub fn set(rules: Rules) -> CurrentRules {
        let scale = set_scale(number_scale(&rules));
        CurrentRules(CURRENT.with(|c| c.replace(Some(rules))), scale)
    }
}

impl Drop for CurrentRules {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
        set_scale(self.1);
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

    /// rippled 3.3's `setCurrentTransactionRules`: 19 digits only with SingleAssetVault or
    /// LendingProtocol, then fixCleanup3_3_0 before fixCleanup3_2_0.
    #[test]
    fn the_number_scale_follows_the_amendments() {
        use Feature::{FixCleanup3_2_0 as C320, FixCleanup3_3_0 as C330};
        let scale = |fs: &[Feature]| {
            let presets: FeatureSet = fs.iter().copied().collect();
            number_scale(&Rules::new(presets, FeatureSet::EMPTY))
        };
        assert_eq!(scale(&[]), MantissaScale::Small);
        assert_eq!(scale(&[C320, C330]), MantissaScale::Small);
        for v in [Feature::SingleAssetVault, Feature::LendingProtocol] {
            assert_eq!(scale(&[v]), MantissaScale::LargeLegacy);
            assert_eq!(scale(&[v, C320]), MantissaScale::Large320);
            assert_eq!(scale(&[v, C330]), MantissaScale::Large330);
            assert_eq!(scale(&[v, C320, C330]), MantissaScale::Large330);
        }
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
        let entry = entry_of(vec![Feature::MPTokensV2.id(), Feature::AMM.id()]);
        assert_eq!(
            Rules::from_entry(FeatureSet::EMPTY, Some(&entry)),
            Err(RulesError::Lacking(vec!["MPTokensV2"]))
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
        // xrpld 3.4.1 records its three DefaultYes amendments.
        let want: FeatureSet = [
            Feature::FixRemoveNFTokenAutoTrustLine,
            Feature::FixCleanup3_1_3,
            Feature::FixBatchV1_2,
        ]
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
        assert!(ci.book.presets.contains(Feature::Sponsor));
        assert!(ci.book.presets.contains(Feature::ConfidentialTransfer));
        assert!(!ci.dropped.contains(&"ConfidentialTransfer") && !ci.dropped.contains(&"Sponsor"));
        assert!(ci.book.presets.contains(Feature::FixCleanup3_1_3));
        assert!(!ci.dropped.contains(&"fixCleanup3_1_3"), "{:?}", ci.dropped);
        assert!(ci.book.presets.contains(Feature::FixCleanup3_2_0));
        assert!(!ci.dropped.contains(&"fixCleanup3_2_0"), "{:?}", ci.dropped);
        for p in &PRESETS[..4] {
            assert!(AmendmentConfig::preset(p).is_ok(), "{p}");
        }
        assert_eq!(
            AmendmentConfig::preset("xrpld-9"),
            Err(PresetError::Unknown("xrpld-9".into()))
        );
    }

    fn mainnet_on(date: &str) -> Result<Resolved, RulesError> {
        AmendmentConfig::preset(&format!("mainnet-{date}"))
            .expect("a recorded date")
            .resolve(None)
    }

    #[test]
    fn mainnet_as_of_a_date_records_what_it_had_enabled() {
        let jan = mainnet_on("2024-01-01").expect("nothing lacking then");
        assert_eq!(jan.book.genesis.iter().count(), 53);
        assert!(
            !jan.book.genesis.contains(Feature::AMM),
            "enabled 2024-03-22"
        );
        assert!(
            jan.book.genesis.contains(Feature::Flow),
            "retired, still recorded"
        );
        assert!(
            jan.book.presets.is_empty(),
            "a mainnet ledger's rules are its entry"
        );
        assert_eq!(jan.book.order, GenesisOrder::Mainnet);
        let fees = jan.fees.expect("mainnet's fees");
        assert_eq!(
            (fees.reserve_base_drops, fees.reserve_inc_drops),
            (10_000_000, 2_000_000)
        );
        let amm = mainnet_on("2024-03-23").expect("resolves");
        assert!(amm.book.genesis.contains(Feature::AMM));
        assert!(
            !amm.book.genesis.contains(Feature::XRPFees),
            "enabled 2024-03-25"
        );
        // xrpl.org's example Amendments entry, mainnet's of late September 2024, begins with
        // FeeEscalation and MultiSign and ends with fixNFTokenReserve and fixAMMv1_1.
        let sep = mainnet_on("2024-09-26")
            .expect("resolves")
            .book
            .genesis_ids();
        let hex: Vec<String> = sep.iter().map(|id| id.to_hex()[..8].to_string()).collect();
        assert_eq!(&hex[..2], ["42426C4D", "4C97EBA9"]);
        assert_eq!(&hex[hex.len() - 2..], ["03BDC009", "35291ADD"]);
        let today = AmendmentConfig::preset("mainnet").expect("preset");
        assert_eq!(
            today.network.map(|n| n.name),
            Some(format!("mainnet-{MAINNET_RECORDED_TO}"))
        );
    }

    #[test]
    fn a_mainnet_date_is_checked() {
        let err = |name: &str| AmendmentConfig::preset(name).expect_err(name).to_string();
        assert!(err("mainnet-2024-13-01").contains("is not a date"));
        assert!(err("mainnet-2024-02-30").contains("is not a date"));
        assert!(err("mainnet-24-01-01").contains("is not a date"));
        assert!(err("mainnet-").contains("is not a date"));
        let early = err("mainnet-2013-06-01");
        assert!(early.contains("from 2014-01-01 to 2026-08-18"), "{early}");
        assert!(err("mainnet-2099-01-01").contains("ledgerd records mainnet"));
        assert!(err("mainnet2024").contains("is not a preset"));
        // Every amendment mainnet enabled up to the last recorded day is one ledgerd has
        // (fixCleanup3_2_0, 2026-07-29, the last to be gated): every date resolves.
        let before = mainnet_on("2026-07-28").expect("nothing lacking then");
        assert!(before.book.genesis.contains(Feature::FixCleanup3_1_3));
        assert!(!before.book.genesis.contains(Feature::FixCleanup3_2_0));
        let after = mainnet_on("2026-07-29").expect("fixCleanup3_2_0 is gated");
        assert!(after.book.genesis.contains(Feature::FixCleanup3_2_0));
        let last = mainnet_on(MAINNET_RECORDED_TO).expect("the last recorded day");
        assert!(last.book.genesis.contains(Feature::FixCleanup3_2_0));
        // Should mainnet enable one ledgerd lacks, the refusal names it (here a set with
        // MPTokensV2, which mainnet has not enabled: no day to name).
        let mut amendments = last.book.genesis;
        amendments.insert(Feature::MPTokensV2);
        let net = AsOf {
            name: "mainnet-2026-08-18".into(),
            amendments,
            fees: Fees::default(),
        };
        match network_lacking(&net) {
            RulesError::NetworkLacking { names, since, .. } => {
                assert_eq!((names, since), (vec!["MPTokensV2"], ""));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn votes_follow_the_configuration_and_refuse_what_cannot_be_enabled() {
        let cfg = AmendmentConfig {
            up: names(&["fixAMMv1_3", &Feature::XRPFees.id().to_hex()]),
            down: names(&["fixRemoveNFTokenAutoTrustLine", "fixAMMv1_3"]),
            features: Some(Vec::new()),
            start: true,
            network: None,
        };
        let r = cfg.resolve(None).expect("resolves");
        // fixBatchV1_2 and fixCleanup3_1_3 are DefaultYes: voted up with no vote configured.
        let want: FeatureSet = [
            Feature::FixAMMv1_3,
            Feature::XRPFees,
            Feature::FixBatchV1_2,
            Feature::FixCleanup3_1_3,
        ]
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
            up: names(&["MPTokensV2"]),
            ..AmendmentConfig::default()
        };
        assert_eq!(
            sponsor.resolve(None),
            Err(RulesError::Lacking(vec!["MPTokensV2"]))
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
