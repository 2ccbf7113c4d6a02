//! The rule book: a ledger's amendments as data (`ledger::rules`). The genesis ledger's
//! Amendments entry and FeeSettings form as xrpld's `create_genesis` writes them, rules
//! read back from a snapshot's Amendments entry, amendments ledgerd lacks refused, and
//! one story per amendment ledgerd applies both ways, with rippled's numbers each way.

use crate::support;

use ledgerd::ledger::keylet;
use ledgerd::ledger::rules::{amendments_field, RuleBook, RulesError};
use ledgerd::ledgers::{LedgerConfig, Ledgers, SnapshotError};
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::{Feature, FeatureSet};
use ledgerd::protocol::st::StValue;
use support::engine::*;

/// A ledger store whose rule book is ledgerd's default less `off`.
pub fn env_without(off: &[Feature]) -> Env {
    let mut cfg = LedgerConfig::default();
    for f in off {
        cfg.rule_book.presets.remove(*f);
    }
    Env::with_config(cfg)
}

fn config_recording(genesis: FeatureSet) -> LedgerConfig {
    let mut cfg = LedgerConfig::default();
    cfg.rule_book = RuleBook {
        presets: FeatureSet::EMPTY,
        genesis,
    };
    cfg
}

#[test]
fn default_genesis_records_no_amendments_and_keeps_the_legacy_fees() {
    let env = Env::new();
    assert!(env.read(&keylet::amendments()).is_none());
    let fees = env.read(&keylet::fees()).expect("FeeSettings");
    assert!(fees.get(Field::named("BaseFee")).is_some());
    assert!(fees.get(Field::named("BaseFeeDrops")).is_none());
    let rules = env.store.rules();
    assert!(rules.recorded().is_empty());
    assert!(rules.enabled(Feature::AMM) && rules.enabled(Feature::FixAMMv1_3));
    assert!(!rules.enabled(Feature::Sponsor), "ledgerd lacks Sponsor");
}

#[test]
fn a_recorded_genesis_writes_the_amendments_entry_and_the_xrp_fees_form() {
    let genesis: FeatureSet = [
        Feature::XRPFees,
        Feature::FixAMMv1_3,
        Feature::FixRemoveNFTokenAutoTrustLine,
    ]
    .into_iter()
    .collect();
    let env = Env::with_config(config_recording(genesis));
    let entry = env.read(&keylet::amendments()).expect("Amendments entry");
    let Some(StValue::Vector256(ids)) = entry.get(amendments_field()) else {
        panic!("sfAmendments");
    };
    assert_eq!(ids, &genesis.sorted_ids(), "ascending, as getDesired");
    assert_eq!(ids.len(), 3);
    let fees = env.read(&keylet::fees()).expect("FeeSettings");
    for name in ["BaseFee", "ReferenceFeeUnits", "ReserveBase", "ReserveIncrement"] {
        assert!(fees.get(Field::named(name)).is_none(), "{name}");
    }
    let drops = |name: &str| match fees.get(Field::named(name)) {
        Some(StValue::Amount(a)) => a.as_drops(),
        other => panic!("{name}: {other:?}"),
    };
    let want = LedgerConfig::default().fees;
    assert_eq!(drops("BaseFeeDrops"), Some(want.base_drops as i64));
    assert_eq!(drops("ReserveBaseDrops"), Some(want.reserve_base_drops as i64));
    assert_eq!(drops("ReserveIncrementDrops"), Some(want.reserve_inc_drops as i64));
    assert_eq!(env.store.fees(), want, "read back from the XRPFees form");
    let rules = env.store.rules();
    assert_eq!(rules.recorded(), genesis);
    assert!(rules.enabled(Feature::FixAMMv1_3) && !rules.enabled(Feature::AMM));
}

#[test]
fn xrp_fees_as_a_preset_keeps_the_legacy_form() {
    // rippled's genesis looks at the amendments it records, not at its presets.
    let mut cfg = LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::XRPFees);
    let env = Env::with_config(cfg);
    let fees = env.read(&keylet::fees()).expect("FeeSettings");
    assert!(fees.get(Field::named("BaseFee")).is_some());
    assert!(env.store.rules().enabled(Feature::XRPFees));
}

#[test]
fn a_snapshot_takes_its_amendments_entry_and_refuses_what_ledgerd_lacks() {
    let genesis: FeatureSet = [Feature::FixAMMv1_3].into_iter().collect();
    let env = Env::with_config(config_recording(genesis));
    let (header, entries) = env.store.export_closed();
    let bytes = |extra: Option<Feature>| -> Vec<_> {
        entries
            .iter()
            .map(|(k, v)| {
                let mut o = (**v).clone();
                if let (true, Some(f)) = (*k == keylet::amendments(), extra) {
                    o.set(
                        amendments_field(),
                        StValue::Vector256(vec![Feature::FixAMMv1_3.id(), f.id()]),
                    );
                }
                (*k, codec::encode(&o))
            })
            .collect()
    };
    let presets = LedgerConfig {
        rule_book: RuleBook {
            presets: FeatureSet::EMPTY,
            genesis: FeatureSet::EMPTY,
        },
        ..LedgerConfig::default()
    };
    let again = Ledgers::from_snapshot_bytes(presets.clone(), header.clone(), bytes(None))
        .expect("same ledger");
    assert_eq!(again.rules().recorded(), genesis);
    assert!(again.rules().enabled(Feature::FixAMMv1_3));
    // The same ledger with Sponsor recorded no longer hashes to its header, so the
    // rules are checked first: whatever the hash, Sponsor is refused by name.
    match Ledgers::from_snapshot_bytes(presets, header, bytes(Some(Feature::Sponsor))) {
        Err(SnapshotError::Rules(RulesError::Lacking(names))) => {
            assert_eq!(names, vec!["Sponsor"])
        }
        Err(other) => panic!("refused for {other}"),
        Ok(_) => panic!("Sponsor accepted"),
    }
}
