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
use crate::protocol::features::{Feature, FeatureSet, Support};
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
    CURRENT.with(|c| c.get()).unwrap_or_default().enabled(f)
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
