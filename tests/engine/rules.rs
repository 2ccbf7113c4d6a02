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

/// A ledger store whose rule book is ledgerd's default less `off`, with `feature` forced
/// on or off (one amendment's two outcomes); asserts the ledger's rules say so.
pub fn env_with(feature: Feature, on: bool, off: &[Feature]) -> Env {
    let mut cfg = LedgerConfig::default();
    for f in off {
        cfg.rule_book.presets.remove(*f);
    }
    if on {
        cfg.rule_book.presets.insert(feature);
    } else {
        cfg.rule_book.presets.remove(feature);
    }
    let env = Env::with_config(cfg);
    assert_eq!(env.store.rules().enabled(feature), on, "the rule book");
    env
}

/// A ledger store whose rule book is ledgerd's default less `off`.
pub fn env_without(off: &[Feature]) -> Env {
    let mut cfg = LedgerConfig::default();
    for f in off {
        cfg.rule_book.presets.remove(*f);
    }
    Env::with_config(cfg)
}

fn config_recording(genesis: FeatureSet) -> LedgerConfig {
    LedgerConfig {
        rule_book: RuleBook {
            presets: FeatureSet::EMPTY,
            genesis,
            ..RuleBook::default()
        },
        ..LedgerConfig::default()
    }
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
    assert!(rules.enabled(Feature::Sponsor), "every supported amendment");
    assert!(rules.enabled(Feature::ConfidentialTransfer));
    assert!(!rules.enabled(Feature::MPTokensV2), "ledgerd lacks it");
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
    for name in [
        "BaseFee",
        "ReferenceFeeUnits",
        "ReserveBase",
        "ReserveIncrement",
    ] {
        assert!(fees.get(Field::named(name)).is_none(), "{name}");
    }
    let drops = |name: &str| match fees.get(Field::named(name)) {
        Some(StValue::Amount(a)) => a.as_drops(),
        other => panic!("{name}: {other:?}"),
    };
    let want = LedgerConfig::default().fees;
    assert_eq!(drops("BaseFeeDrops"), Some(want.base_drops as i64));
    assert_eq!(
        drops("ReserveBaseDrops"),
        Some(want.reserve_base_drops as i64)
    );
    assert_eq!(
        drops("ReserveIncrementDrops"),
        Some(want.reserve_inc_drops as i64)
    );
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
            ..RuleBook::default()
        },
        ..LedgerConfig::default()
    };
    let again = Ledgers::from_snapshot_bytes(presets.clone(), header.clone(), bytes(None))
        .expect("same ledger");
    assert_eq!(again.rules().recorded(), genesis);
    assert!(again.rules().enabled(Feature::FixAMMv1_3));
    // The same ledger with MPTokensV2 recorded no longer hashes to its header, so
    // the rules are checked first: whatever the hash, the amendment ledgerd lacks is
    // refused by name.
    let lacking = Feature::MPTokensV2;
    match Ledgers::from_snapshot_bytes(presets, header, bytes(Some(lacking))) {
        Err(SnapshotError::Rules(RulesError::Lacking(names))) => {
            assert_eq!(names, vec!["MPTokensV2"])
        }
        Err(other) => panic!("refused for {other}"),
        Ok(_) => panic!("MPTokensV2 accepted"),
    }
}

// ---------------------------------------------------------------------------------------
// fixAMMv1_3 and fixAMMClawbackRounding, both ways: rippled's AMMClawback_test.cpp
// `testAMMClawbackExceedBalance`, which rippled runs under `all - fixAMMv1_3 -
// fixAMMClawbackRounding`, `all - fixAMMClawbackRounding` and `all`, with its numbers for
// each.

pub(crate) mod amm_both_ways {
    use super::*;
    use ledgerd::engine::account_set::asf;
    use ledgerd::engine::amm::{self, tf};
    use ledgerd::engine::Ter;
    use ledgerd::ledger::sf::{sf, StExt};
    use ledgerd::protocol::amount::{Amount, IouValue, Rounding};
    use ledgerd::protocol::types::{AccountId, Issue};

    /// Which of the two amendments the ledger's rules hold.
    #[derive(Clone, Copy, PartialEq, Debug)]
    pub(crate) enum Variant {
        /// `all - fixAMMv1_3 - fixAMMClawbackRounding`.
        Neither,
        /// `all - fixAMMClawbackRounding`.
        V13,
        /// `all`.
        Both,
    }

    /// With the 16-digit Number the pinned values were computed with (no
    /// SingleAssetVault, no LendingProtocol).
    pub(crate) fn env_for(v: Variant) -> Env {
        use crate::number_scale::small_numbers_without as env_without;
        match v {
            Variant::Neither => {
                env_without(&[Feature::FixAMMv1_3, Feature::FixAMMClawbackRounding])
            }
            Variant::V13 => env_without(&[Feature::FixAMMClawbackRounding]),
            Variant::Both => env_without(&[]),
        }
    }

    /// `IOUAmount{m, e}` / `STAmount{issue, m, e}`.
    pub(crate) fn v(m: u64, e: i32) -> IouValue {
        IouValue::from_parts(m as u128, e, false, Rounding::Nearest).expect("value")
    }

    fn with_issue(mut tx: Tx, name: &str, i: Issue) -> Tx {
        tx.0.set(Field::named(name), StValue::Issue(i));
        tx
    }

    pub(crate) fn pool_tx(name: &str, a: Issue, b: Issue) -> Tx {
        with_issue(with_issue(Tx::new(name), "Asset", a), "Asset2", b)
    }

    pub(crate) fn create(env: &mut Env, who: &Account, a: Amount, b: Amount) {
        let mut tx = Tx::new("AMMCreate")
            .amount("Amount", a)
            .amount("Amount2", b)
            .amount("Fee", Amount::Xrp(2_000_000));
        tx.0.set(Field::named("TradingFee"), StValue::UInt16(0));
        env.apply(who, tx, Ter::tesSUCCESS);
    }

    fn deposit2(env: &mut Env, who: &Account, a: Amount, b: Amount) {
        let tx = pool_tx("AMMDeposit", a.issue(), b.issue())
            .flags(tf::TWO_ASSET)
            .amount("Amount", a)
            .amount("Amount2", b);
        env.apply(who, tx, Ter::tesSUCCESS);
    }

    fn claw(env: &mut Env, issuer: &Account, holder: &Account, amount: Amount, other: Issue) {
        let tx = pool_tx("AMMClawback", amount.issue(), other)
            .account("Holder", &holder.id)
            .amount("Amount", amount);
        env.apply(issuer, tx, Ter::tesSUCCESS);
    }

    pub(crate) fn amm_account(env: &Env, a: Issue, b: Issue) -> Option<AccountId> {
        env.read(&amm::amm_key(&a, &b))
            .and_then(|o| o.account_of(sf().account))
    }

    /// The pool's balances of `a` and `b` and its LPTokenBalance.
    pub(crate) fn pool(env: &Env, a: Issue, b: Issue) -> (Amount, Amount, IouValue) {
        let acct = amm_account(env, a, b).expect("AMM");
        let view = env.store.current().view;
        let held = |i: &Issue| ledgerd::engine::funds::account_holds(&view, &acct, i, false);
        let lpt = env
            .read(&amm::amm_key(&a, &b))
            .and_then(|o| o.amount_of(sf().lp_token_balance))
            .and_then(|x| x.as_iou())
            .expect("LPTokenBalance");
        (held(&a), held(&b), lpt)
    }

    pub(crate) fn lp_tokens(env: &Env, who: &Account, a: Issue, b: Issue) -> IouValue {
        let acct = amm_account(env, a, b).expect("AMM");
        let cur = amm::lpt_currency(&a.currency, &b.currency);
        match env.read(&keylet::line(&who.id, &acct, &cur)) {
            None => IouValue::ZERO,
            Some(l) => ledgerd::engine::ripple::balance_for(&l, &who.id, &acct),
        }
    }

    pub(crate) fn iou(issuer: &Account, code: &str, value: IouValue) -> Amount {
        Amount::iou(value, cur(code), issuer.id)
    }

    /// The USD/EUR pool of two issuers: alice creates EUR(5000)/USD(4000), gw claws back
    /// 1000, 500, 1 and then 4000 USD (more than she has left), the EUR returning to her.
    fn usd_eur_pool(variant: Variant) {
        let mut env = env_for(variant);
        let [gw, gw2, alice] = ["gateway", "gateway2", "alice"].map(Account::new);
        for a in [&gw, &gw2, &alice] {
            env.fund(a, xrp(1_000_000));
        }
        env.close();
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
        for issuer in [&gw, &gw2] {
            env.apply(issuer, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        }
        env.close();
        env.apply(&alice, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&alice, gw.iou("USD", 6_000)), Ter::tesSUCCESS);
        env.apply(&alice, trust(gw2.iou("EUR", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw2, pay(&alice, gw2.iou("EUR", 6_000)), Ter::tesSUCCESS);
        env.close();
        let (usd, eur) = (gw.iou("USD", 0).issue(), gw2.iou("EUR", 0).issue());
        create(
            &mut env,
            &alice,
            gw2.iou("EUR", 5_000),
            gw.iou("USD", 4_000),
        );
        env.close();
        let neither = variant == Variant::Neither;
        let lpt = if neither {
            4472135954999580
        } else {
            4472135954999579
        };
        let want = (gw.iou("USD", 4_000), gw2.iou("EUR", 5_000), v(lpt, -12));
        assert_eq!(pool(&env, usd, eur), want, "{variant:?} created");

        claw(&mut env, &gw, &alice, gw.iou("USD", 1_000), eur);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("2000"));
        assert_eq!(env.iou_balance(&alice, &gw2, "EUR"), val("2250"));
        let lpt = if neither {
            3354101966249685
        } else {
            3354101966249684
        };
        let want = (gw.iou("USD", 3_000), gw2.iou("EUR", 3_750), v(lpt, -12));
        assert_eq!(pool(&env, usd, eur), want, "{variant:?} after 1000");
        assert_eq!(lp_tokens(&env, &alice, usd, eur), v(lpt, -12));

        claw(&mut env, &gw, &alice, gw.iou("USD", 500), eur);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("2000"));
        let (want, eur_left) = if neither {
            let p = (
                iou(&gw, "USD", v(2500000000000001, -12)),
                iou(&gw2, "EUR", v(3125000000000001, -12)),
                v(2795084971874738, -12),
            );
            (p, v(2874999999999999, -12))
        } else {
            let p = (
                gw.iou("USD", 2_500),
                gw2.iou("EUR", 3_125),
                v(2795084971874737, -12),
            );
            (p, val("2875"))
        };
        assert_eq!(pool(&env, usd, eur), want, "{variant:?} after 500");
        assert_eq!(env.iou_balance(&alice, &gw2, "EUR"), eur_left);

        claw(&mut env, &gw, &alice, gw.iou("USD", 1), eur);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("2000"));
        let (want, eur_left) = match variant {
            Variant::Neither => (
                (
                    iou(&gw, "USD", v(2499000000000002, -12)),
                    iou(&gw2, "EUR", v(3123750000000002, -12)),
                    v(2793966937885989, -12),
                ),
                v(2876249999999998, -12),
            ),
            Variant::V13 => (
                (
                    gw.iou("USD", 2_499),
                    gw2.iou_s("EUR", "3123.75"),
                    v(2793966937885987, -12),
                ),
                val("2876.25"),
            ),
            Variant::Both => (
                (
                    iou(&gw, "USD", v(2499000000000001, -12)),
                    iou(&gw2, "EUR", v(3123750000000001, -12)),
                    v(2793966937885988, -12),
                ),
                v(2876249999999999, -12),
            ),
        };
        assert_eq!(pool(&env, usd, eur), want, "{variant:?} after 1");
        assert_eq!(env.iou_balance(&alice, &gw2, "EUR"), eur_left);

        claw(&mut env, &gw, &alice, gw.iou("USD", 4_000), eur);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("2000"));
        assert_eq!(
            env.iou_balance(&alice, &gw2, "EUR"),
            v(6000000000000000, -12)
        );
        assert!(amm_account(&env, usd, eur).is_none(), "AMM deleted");
    }

    #[test]
    fn usd_eur_pool_without_either_fix() {
        usd_eur_pool(Variant::Neither);
    }

    #[test]
    fn usd_eur_pool_with_fix_amm_v1_3_only() {
        usd_eur_pool(Variant::V13);
    }

    #[test]
    fn usd_eur_pool_with_both_fixes() {
        usd_eur_pool(Variant::Both);
    }

    /// XRP pools: gw creates XRP(2000)/USD(1000) and gw2 XRP(3000)/EUR(1000); alice and
    /// bob each deposit both assets into both; gw claws 500 USD from alice and 10 USD
    /// from bob, gw2 200 EUR from alice.
    fn xrp_pools(variant: Variant) {
        let mut env = env_for(variant);
        let [gw, gw2, alice, bob] = ["gateway", "gateway2", "alice", "bob"].map(Account::new);
        for a in [&gw, &gw2, &alice, &bob] {
            env.fund(a, xrp(1_000_000));
        }
        env.close();
        for issuer in [&gw, &gw2] {
            env.apply(issuer, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
            env.apply(issuer, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        }
        env.close();
        for (who, usd_n, eur_n) in [(&alice, 6_000, 5_000), (&bob, 5_000, 4_000)] {
            env.apply(who, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
            env.apply(&gw, pay(who, gw.iou("USD", usd_n)), Ter::tesSUCCESS);
            env.apply(who, trust(gw2.iou("EUR", 100_000)), Ter::tesSUCCESS);
            env.apply(&gw2, pay(who, gw2.iou("EUR", eur_n)), Ter::tesSUCCESS);
        }
        env.close();
        let (usd, eur) = (gw.iou("USD", 0).issue(), gw2.iou("EUR", 0).issue());
        let x = Issue::XRP;
        create(&mut env, &gw, xrp(2_000), gw.iou("USD", 1_000));
        deposit2(&mut env, &alice, gw.iou("USD", 1_000), xrp(2_000));
        deposit2(&mut env, &bob, gw.iou("USD", 1_000), xrp(2_000));
        let want = (gw.iou("USD", 3_000), xrp(6_000), v(4242640687119285, -9));
        assert_eq!(pool(&env, usd, x), want, "{variant:?} USD pool");
        let neither = variant == Variant::Neither;
        create(&mut env, &gw2, xrp(3_000), gw2.iou("EUR", 1_000));
        let lpt = if neither {
            1732050807568878
        } else {
            1732050807568877
        };
        assert_eq!(pool(&env, eur, x).2, v(lpt, -9), "{variant:?} EUR pool");
        deposit2(&mut env, &alice, gw2.iou("EUR", 1_000), xrp(3_000));
        let lpt = if neither {
            3464101615137756
        } else {
            3464101615137754
        };
        assert_eq!(
            pool(&env, eur, x).2,
            v(lpt, -9),
            "{variant:?} alice's deposit"
        );
        deposit2(&mut env, &bob, gw2.iou("EUR", 1_000), xrp(3_000));
        let lpt = if neither {
            5196152422706634
        } else {
            5196152422706631
        };
        let want = (gw2.iou("EUR", 3_000), xrp(9_000), v(lpt, -9));
        assert_eq!(pool(&env, eur, x), want, "{variant:?} bob's deposit");
        env.close();

        let both = variant == Variant::Both;
        let alice_xrp = env.balance(&alice);
        claw(&mut env, &gw, &alice, gw.iou("USD", 500), x);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("5000"));
        assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("4000"));
        let one = i64::from(both);
        assert_eq!(env.balance(&alice), alice_xrp + 1_000_000_000 - one);
        let (want, alice_lp) = match variant {
            Variant::Neither => (
                (gw.iou("USD", 2_500), xrp(5_000), v(3535533905932738, -9)),
                v(7071067811865480, -10),
            ),
            Variant::V13 => (
                (gw.iou("USD", 2_500), xrp(5_000), v(3535533905932737, -9)),
                v(7071067811865474, -10),
            ),
            Variant::Both => (
                (
                    gw.iou("USD", 2_500),
                    drops(5_000_000_001),
                    v(3535533905932738, -9),
                ),
                v(707106781186548, -9),
            ),
        };
        assert_eq!(pool(&env, usd, x), want, "{variant:?} after 500 from alice");
        assert_eq!(lp_tokens(&env, &alice, usd, x), alice_lp);
        assert_eq!(lp_tokens(&env, &bob, usd, x), v(1414213562373095, -9));

        let bob_xrp = env.balance(&bob);
        claw(&mut env, &gw, &bob, gw.iou("USD", 10), x);
        assert_eq!(env.balance(&bob), bob_xrp + 20_000_000);
        let (want, bob_lp) = match variant {
            Variant::Neither => (
                (
                    iou(&gw, "USD", v(2490000000000001, -12)),
                    xrp(4_980),
                    v(3521391770309008, -9),
                ),
                v(1400071426749365, -9),
            ),
            Variant::V13 => (
                (gw.iou("USD", 2_490), xrp(4_980), v(3521391770309006, -9)),
                v(1400071426749364, -9),
            ),
            Variant::Both => (
                (
                    iou(&gw, "USD", v(2490000000000001, -12)),
                    drops(4_980_000_001),
                    v(3521391770309008, -9),
                ),
                v(1400071426749365, -9),
            ),
        };
        assert_eq!(pool(&env, usd, x), want, "{variant:?} after 10 from bob");
        assert_eq!(lp_tokens(&env, &alice, usd, x), alice_lp);
        assert_eq!(lp_tokens(&env, &bob, usd, x), bob_lp);

        let alice_xrp = env.balance(&alice);
        claw(&mut env, &gw2, &alice, gw2.iou("EUR", 200), x);
        assert_eq!(env.iou_balance(&alice, &gw2, "EUR"), val("4000"));
        assert_eq!(env.iou_balance(&bob, &gw2, "EUR"), val("3000"));
        assert_eq!(env.balance(&alice), alice_xrp + 600_000_000 - one);
    }

    #[test]
    fn xrp_pools_without_either_fix() {
        xrp_pools(Variant::Neither);
    }

    #[test]
    fn xrp_pools_with_fix_amm_v1_3_only() {
        xrp_pools(Variant::V13);
    }

    #[test]
    fn xrp_pools_with_both_fixes() {
        xrp_pools(Variant::Both);
    }
}

// fixFillOrKill both ways (rippled `StrandFlow.h` `flow`, the amendment's two cases): bob
// offers 100 USD for 50 XRP; alice's tfFillOrKill offer takes 100 USD for up to 100 XRP.
// She receives all of her TakerPays for 50 XRP. With the fix that fills the offer; before
// it, a FillOrKill crossing also had to spend all of TakerGets, so it is killed.
mod fill_or_kill_both_ways {
    use super::*;
    use ledgerd::engine::account_set::asf;
    use ledgerd::engine::dex::offer_create::tf;
    use ledgerd::engine::Ter;

    fn cross(fix: bool) -> (Env, [Account; 3]) {
        let mut env = if fix {
            env_without(&[])
        } else {
            env_without(&[Feature::FixFillOrKill])
        };
        let accounts = ["gateway", "alice", "bob"].map(Account::new);
        let [gw, alice, bob] = &accounts;
        for a in [gw, alice, bob] {
            env.fund(a, xrp(10_000));
        }
        env.apply(gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.close();
        for a in [alice, bob] {
            env.apply(a, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        }
        env.apply(gw, pay(bob, gw.iou("USD", 100)), Ter::tesSUCCESS);
        env.close();
        let bobs = Tx::new("OfferCreate")
            .amount("TakerPays", xrp(50))
            .amount("TakerGets", gw.iou("USD", 100));
        env.apply(bob, bobs, Ter::tesSUCCESS);
        env.close();
        (env, accounts)
    }

    fn fok(gw: &Account, flags: u32) -> Tx {
        Tx::new("OfferCreate")
            .flags(flags)
            .amount("TakerPays", gw.iou("USD", 100))
            .amount("TakerGets", xrp(100))
    }

    #[test]
    fn a_buy_that_gets_all_it_asks_fills_with_the_fix() {
        let (mut env, [gw, alice, _]) = cross(true);
        let before = env.balance(&alice);
        env.apply(&alice, fok(&gw, tf::FILL_OR_KILL), Ter::tesSUCCESS);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("100"));
        assert_eq!(env.balance(&alice), before - 50_000_000 - FEE);
    }

    #[test]
    fn a_buy_that_gets_all_it_asks_is_killed_without_the_fix() {
        let (mut env, [gw, alice, _]) = cross(false);
        let before = env.balance(&alice);
        env.apply(&alice, fok(&gw, tf::FILL_OR_KILL), Ter::tecKILLED);
        assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("0"));
        assert_eq!(env.balance(&alice), before - FEE);
    }

    #[test]
    fn a_sell_must_spend_all_it_offers_either_way() {
        for fix in [true, false] {
            let (mut env, [gw, alice, _]) = cross(fix);
            let flags = tf::FILL_OR_KILL | tf::SELL;
            env.apply(&alice, fok(&gw, flags), Ter::tecKILLED);
            assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("0"), "fix {fix}");
        }
    }
}

// fixMPTDeliveredAmount both ways (rippled `Payment.cpp`, the MPT branch): a partial MPT
// payment between holders with a 10% transfer fee delivers 95 of 100 for a SendMax of
// 105; with the fix the metadata says so (DeliveredAmount), before it nothing does.
mod mpt_delivered_amount_both_ways {
    use super::*;
    use ledgerd::engine::payment::payment::tf as pay_tf;
    use ledgerd::engine::Ter;
    use ledgerd::ledger::sf::{sf, StExt};
    use ledgerd::protocol::mpt::{MptAmount, MptId};
    use support::mpt::{issue, mpt, pay_mpt, with_id};

    fn partial_payment(fix: bool) -> Option<MptAmount> {
        let mut env = if fix {
            env_without(&[])
        } else {
            env_without(&[Feature::FixMPTDeliveredAmount])
        };
        let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
        let mut create = Tx::new("MPTokenIssuanceCreate").flags(0x0000_0020); // tfMPTCanTransfer
        create
            .0
            .set(Field::named("TransferFee"), StValue::UInt16(10_000));
        let id: MptId = issue(&mut env, &alice, create);
        for h in [&bob, &carol] {
            env.apply(
                h,
                with_id(Tx::new("MPTokenAuthorize"), &id),
                Ter::tesSUCCESS,
            );
        }
        env.apply(&alice, pay_mpt(&bob, &id, 1_000), Ter::tesSUCCESS);
        let mut tx = pay_mpt(&carol, &id, 100).flags(pay_tf::PARTIAL_PAYMENT);
        tx.0.set(Field::named("SendMax"), mpt(&id, 105));
        env.apply(&bob, tx, Ter::tesSUCCESS);
        let meta = env.last_meta.clone().expect("meta");
        meta.mpt_amount_of(sf().delivered_amount)
    }

    #[test]
    fn recorded_with_the_fix() {
        let got = partial_payment(true).expect("DeliveredAmount");
        assert_eq!(got.value, 95);
    }

    #[test]
    fn absent_without_it() {
        assert_eq!(partial_payment(false), None);
    }
}

// fixEnforceNFTokenTrustlineV2 both ways (rippled `NFTokenUtils.cpp`
// `tokenOfferCreatePreclaim`): an NFT offer for an issued currency whose issuer requires
// authorization, by an account with no authorized line to it. With the fix the offer is
// refused (`checkTrustlineAuthorized`: tecNO_LINE); before it, nothing checks.
mod nftoken_trustline_v2_both_ways {
    use super::*;
    use ledgerd::engine::account_set::asf;
    use ledgerd::engine::Ter;

    fn sell_offer(fix: bool) -> Ter {
        let mut env = if fix {
            env_without(&[])
        } else {
            env_without(&[Feature::FixEnforceNFTokenTrustlineV2])
        };
        let [gw, alice] = env.funded(["gateway", "alice"]);
        env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
        env.close();
        let serial = env.seq(&alice);
        env.apply(
            &alice,
            Tx::new("NFTokenMint")
                .u32("NFTokenTaxon", 0)
                .flags(0x0000_0008), // tfTransferable
            Ter::tesSUCCESS,
        );
        let id = ledgerd::engine::nft::token_id(0x0008, 0, &alice.id, 0, serial);
        let offer = Tx::new("NFTokenCreateOffer")
            .h256("NFTokenID", id)
            .amount("Amount", gw.iou("USD", 10))
            .flags(0x0000_0001); // tfSellNFToken
        env.submit(&alice, offer)
    }

    #[test]
    fn refused_with_the_fix() {
        assert_eq!(sell_offer(true), Ter::tecNO_LINE);
    }

    #[test]
    fn accepted_without_it() {
        assert_eq!(sell_offer(false), Ter::tesSUCCESS);
    }
}

// fixTokenEscrowV1 both ways (rippled `EscrowFinish` `escrowUnlockApplyHelper<MPTIssue>`,
// `unlockEscrowMPT`): alice escrows 125 units of an MPT with a 25% transfer fee to carol.
// Finishing delivers 100 either way; with the fix the gross 125 leaves both LockedAmounts
// and the fee leaves OutstandingAmount; before it only the net 100 is unlocked and the
// fee stays locked on alice's token and the issuance.
mod token_escrow_v1_both_ways {
    use super::*;
    use ledgerd::ledger::sf::{sf, StExt};
    use support::mpt::finish_escrowed_mpt;

    /// carol's and alice's units, alice's and the issuance's LockedAmount, outstanding.
    type Amounts = [Option<u64>; 5];

    fn finish(fix: bool) -> Amounts {
        // fixCleanup3_4_0 unlocks the gross amount too (rules_cleanup340.rs): off both ways.
        let mut env = if fix {
            env_without(&[Feature::FixCleanup3_4_0])
        } else {
            env_without(&[Feature::FixTokenEscrowV1, Feature::FixCleanup3_4_0])
        };
        // TransferFee 25,000: a rate of 1.25.
        let (id, [alice, carol]) = finish_escrowed_mpt(&mut env, 25_000, 125);
        let token = |who: &Account, f| env.read(&keylet::mptoken(&id, &who.id))?.u64_of(f);
        let issuance = |f| env.read(&keylet::mpt_issuance(&id))?.u64_of(f);
        let s = sf();
        [
            token(&carol, s.mpt_amount),
            token(&alice, s.mpt_amount),
            token(&alice, s.locked_amount),
            issuance(s.locked_amount),
            issuance(s.outstanding_amount),
        ]
    }

    #[test]
    fn the_gross_amount_is_unlocked_with_the_fix() {
        assert_eq!(finish(true), [Some(100), Some(875), None, None, Some(975)]);
    }

    #[test]
    fn the_fee_stays_locked_without_it() {
        assert_eq!(
            finish(false),
            [Some(100), Some(875), Some(25), Some(25), Some(1_000)]
        );
    }
}

// fixPayChanCancelAfter both ways (rippled `PayChan.cpp` `PaymentChannelCreate::doApply`):
// a channel whose CancelAfter is already past when it is created.
mod paychan_cancel_after_both_ways {
    use super::*;
    use ledgerd::engine::Ter;

    fn create(fix: bool) -> Ter {
        let mut env = if fix {
            env_without(&[])
        } else {
            env_without(&[Feature::FixPayChanCancelAfter])
        };
        let [alice, bob] = env.funded(["alice", "bob"]);
        env.close();
        let past = env.parent_close() - 1;
        let tx =
            channel_create(&bob, xrp(10), 100, alice.kp.public.as_bytes()).u32("CancelAfter", past);
        env.submit(&alice, tx)
    }

    #[test]
    fn refused_with_the_fix() {
        assert_eq!(create(true), Ter::tecEXPIRED);
    }

    #[test]
    fn created_without_it() {
        assert_eq!(create(false), Ter::tesSUCCESS);
    }
}

// A transaction type whose amendment the rules lack is temDISABLED before anything else
// is checked (each of rippled's preflights opens with `ctx.rules.enabled(feature...)`).
mod disabled_types {
    use super::*;
    use ledgerd::engine::Ter;

    #[test]
    fn types_follow_their_amendment() {
        let mut env = env_without(&[Feature::AMM, Feature::DID]);
        let [alice, gw] = env.funded(["alice", "gw"]);
        let mut create = Tx::new("AMMCreate")
            .amount("Amount", xrp(100))
            .amount("Amount2", gw.iou("USD", 100))
            .amount("Fee", xrp(2));
        create.0.set(Field::named("TradingFee"), StValue::UInt16(0));
        assert_eq!(env.submit(&alice, create), Ter::temDISABLED);
        let did = Tx::new("DIDSet").blob("URI", b"ab");
        assert_eq!(env.submit(&alice, did), Ter::temDISABLED);
        // A retired amendment's type is always on; with the default rule book DID is too.
        assert_eq!(env.submit(&alice, fset(1)), Ter::tesSUCCESS);
        let mut all = Env::new();
        let [bob] = all.funded(["bob"]);
        assert_eq!(
            all.submit(&bob, Tx::new("DIDSet").blob("URI", b"ab")),
            Ter::tesSUCCESS
        );
    }
}

// fixInvalidTxFlags both ways (rippled `CredentialCreate::getFlagsMask`): a CredentialCreate
// with a flag no Credential type defines.
mod invalid_tx_flags_both_ways {
    use super::*;
    use ledgerd::engine::Ter;
    use ledgerd::ledger::sf::StExt;

    /// The result, and the flags of the credential made (if one was).
    fn create(fix: bool) -> (Ter, Option<u32>) {
        let mut env = if fix {
            env_without(&[])
        } else {
            env_without(&[Feature::FixInvalidTxFlags])
        };
        let [issuer, subject] = env.funded(["issuer", "subject"]);
        let tx = Tx::new("CredentialCreate")
            .account("Subject", &subject.id)
            .blob("CredentialType", b"KYC")
            .flags(0x0001_0000);
        let ter = env.submit(&issuer, tx);
        let key = keylet::credential(&subject.id, &issuer.id, b"KYC");
        (ter, env.read(&key).map(|c| c.flags()))
    }

    #[test]
    fn refused_with_the_fix() {
        assert_eq!(create(true), (Ter::temINVALID_FLAG, None));
    }

    #[test]
    fn accepted_without_it() {
        // The transaction's flags do not reach the entry.
        assert_eq!(create(false), (Ter::tesSUCCESS, Some(0)));
    }
}

// `mainnet-DATE`: a genesis ledger as mainnet's was at the end of that day, its Amendments
// entry in mainnet's order, its fees, and rules that are that entry alone.
mod mainnet_as_of_a_date {
    use super::*;
    use ledgerd::engine::Ter;
    use ledgerd::ledger::rules::AmendmentConfig;

    fn env_on(date: &str) -> Env {
        let resolved = AmendmentConfig::preset(&format!("mainnet-{date}"))
            .expect("preset")
            .resolve(None)
            .expect("resolves");
        Env::with_config(LedgerConfig {
            rule_book: resolved.book,
            fees: resolved.fees.expect("mainnet's fees"),
            ..LedgerConfig::default()
        })
    }

    fn amm_create(env: &mut Env) -> Ter {
        let [alice, gw] = env.funded(["alice", "gw"]);
        let mut create = Tx::new("AMMCreate")
            .amount("Amount", xrp(100))
            .amount("Amount2", gw.iou("USD", 100))
            .amount("Fee", xrp(2));
        create.0.set(Field::named("TradingFee"), StValue::UInt16(0));
        env.submit(&alice, create)
    }

    #[test]
    fn before_amm_and_xrp_fees() {
        let mut env = env_on("2024-01-01");
        let entry = env.read(&keylet::amendments()).expect("Amendments entry");
        let Some(StValue::Vector256(ids)) = entry.get(amendments_field()) else {
            panic!("sfAmendments");
        };
        assert_eq!(ids.len(), 53);
        assert_eq!(ids[0], Feature::FeeEscalation.id(), "the first enabled");
        assert_eq!(
            ids[52],
            Feature::FixNFTokenRemint.id(),
            "the last, 2023-11-27"
        );
        assert_ne!(ids, &env.store.rules().recorded().sorted_ids(), "not by ID");
        let fees = env.read(&keylet::fees()).expect("FeeSettings");
        assert!(
            fees.get(Field::named("ReferenceFeeUnits")).is_some(),
            "legacy form"
        );
        assert_eq!(env.store.fees().reserve_base_drops, 10_000_000);
        let rules = env.store.rules();
        assert!(!rules.enabled(Feature::AMM) && !rules.enabled(Feature::FixFillOrKill));
        assert!(rules.enabled(Feature::Checks));
        assert_eq!(amm_create(&mut env), Ter::temDISABLED);
    }

    #[test]
    fn after_them() {
        let mut env = env_on("2024-04-12");
        let fees = env.read(&keylet::fees()).expect("FeeSettings");
        assert!(
            fees.get(Field::named("BaseFeeDrops")).is_some(),
            "XRPFees form"
        );
        assert!(fees.get(Field::named("ReferenceFeeUnits")).is_none());
        let rules = env.store.rules();
        assert!(rules.enabled(Feature::AMM) && rules.enabled(Feature::FixFillOrKill));
        assert!(!rules.enabled(Feature::FixAMMv1_1), "enabled 2024-09-24");
        let r = amm_create(&mut env);
        assert_ne!(r, Ter::temDISABLED);
        assert_eq!(
            r,
            Ter::terNO_RIPPLE,
            "past preflight: gw lacks DefaultRipple"
        );
    }
}
