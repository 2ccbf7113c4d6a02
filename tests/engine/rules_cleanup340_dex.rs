//! fixCleanup3_4_0's DEX and AMM spots, run under ledgerd's rule book with the amendment
//! off and on (xrpld 3.4.0's release notes list each; the code cited is rippled develop's):
//!
//! - OfferCreate and asfDisallowIncomingTrustline (rippled #6307, `checkAcceptAsset`): an
//!   account without a line to an issuer that disallows incoming lines may not take its
//!   token through an offer (`tecNO_LINE`); before, crossing made the line.
//! - AMMClawback's reserve bypass (rippled #7796, `AMMWithdraw::withdraw` with
//!   `ReserveHandling::IgnoreReserve`): the holder's missing line is made whatever the
//!   reserve; before, the fixAMMv1_2 reserve check could veto the claw
//!   (`tecINSUFFICIENT_RESERVE`).
//! - AMMClawback's exact boundary (rippled #7373, `equalWithdrawMatchingOneAmount`): an
//!   Amount whose LP tokens equal the holder's takes the withdraw-all path.

use crate::rules::amm_both_ways::{amm_account, create, lp_tokens, pool, pool_tx, v};
use crate::rules::env_with;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm;
use ledgerd::engine::trust_set::tf as trust_tf;
use ledgerd::engine::Ter;
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::{get_round, Number};
use ledgerd::protocol::types::Issue;
use support::engine::*;

fn env340(on: bool) -> Env {
    env_with(Feature::FixCleanup3_4_0, on, &[])
}

/// An OfferCreate buying `pays` for `gets`.
fn offer(pays: Amount, gets: Amount) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
}

/// Pays `who`'s XRP above `target` drops back to the genesis account, so that its balance
/// before its next transaction's fee is exactly `target`.
pub(crate) fn spend_down_to(env: &mut Env, who: &Account, target: i64) {
    let fee = env.store.fees().base_drops as i64;
    let excess = env.balance(who) - fee - target;
    env.apply(who, pay(&Account::master(), drops(excess)), Ter::tesSUCCESS);
    assert_eq!(env.balance(who), target);
}

// ---------------------------------------------------------------------------------------
// OfferCreate and asfDisallowIncomingTrustline
// ---------------------------------------------------------------------------------------

/// gw funds dist with USD 1,000, dist offers USD 100 for XRP 100, then gw sets
/// asfDisallowIncomingTrustline (rippled issue #5089's steps). alice, with no USD line,
/// offers XRP 10 for USD 10.
#[test]
fn an_offer_may_not_open_a_line_to_an_issuer_that_disallows_them_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, dist, alice] = env.funded(["c340OfGw", "c340OfDist", "c340OfAlice"]);
        env.apply(&dist, trust(gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&dist, gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        env.apply(&dist, offer(xrp(100), gw.iou("USD", 100)), Ter::tesSUCCESS);
        env.apply(&gw, fset(asf::DISALLOW_INCOMING_TRUSTLINE), Ter::tesSUCCESS);
        env.close();
        let want = if on { Ter::tecNO_LINE } else { Ter::tesSUCCESS };
        let got = env.submit(&alice, offer(gw.iou("USD", 10), xrp(10)));
        assert_eq!(got, want, "fix {on}");
        assert_eq!(env.line(&alice, &gw, "USD").is_some(), !on, "fix {on}");
        let held = if on { 0 } else { 10 };
        let got_usd = env.iou_balance(&alice, &gw, "USD");
        assert_eq!(got_usd, IouValue::from_i64(held), "fix {on}");
    }
}

/// A holder whose line already exists still crosses with the fix: the flag only refuses
/// new lines, as for TrustSet under fixDisallowIncomingV1.
#[test]
fn an_existing_line_still_crosses_with_the_fix() {
    let mut env = env340(true);
    let [gw, dist, alice] = env.funded(["c340OfGw2", "c340OfDist2", "c340OfAlice2"]);
    for who in [&dist, &alice] {
        env.apply(who, trust(gw.iou("USD", 10_000)), Ter::tesSUCCESS);
    }
    env.apply(&gw, pay(&dist, gw.iou("USD", 1_000)), Ter::tesSUCCESS);
    env.apply(&dist, offer(xrp(100), gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&gw, fset(asf::DISALLOW_INCOMING_TRUSTLINE), Ter::tesSUCCESS);
    env.apply(&alice, offer(gw.iou("USD", 10), xrp(10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), IouValue::from_i64(10));
}

// ---------------------------------------------------------------------------------------
// AMMClawback: the holder's reserve
// ---------------------------------------------------------------------------------------

/// gw issues USD and EUR; alice puts all her USD (1,000) and EUR 1,000 in a pool, drops
/// her empty USD line (two entries left: the EUR and LP token lines), and she and gw are
/// left with 2.5 owner reserves above the base, short of a third entry's. gw claws back
/// everything: the withdrawal must remake alice's USD line.
#[test]
fn a_claw_remakes_the_holders_line_whatever_its_reserve_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, alice] = env.funded(["c340RsGw", "c340RsAlice"]);
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for code in ["USD", "EUR"] {
            env.apply(&alice, trust(gw.iou(code, 10_000)), Ter::tesSUCCESS);
            env.apply(&gw, pay(&alice, gw.iou(code, 1_000)), Ter::tesSUCCESS);
        }
        create(&mut env, &alice, gw.iou("USD", 1_000), gw.iou("EUR", 1_000));
        let drop_line = trust(gw.iou("USD", 0)).flags(trust_tf::SET_NO_RIPPLE);
        env.apply(&alice, drop_line, Ter::tesSUCCESS);
        assert!(env.line(&alice, &gw, "USD").is_none());
        assert_eq!(env.owner_count(&alice), 2, "the EUR and LP token lines");
        let fees = env.store.fees();
        let (base, inc) = (
            fees.reserve_base_drops as i64,
            fees.reserve_inc_drops as i64,
        );
        let target = base + 2 * inc + inc / 2;
        spend_down_to(&mut env, &alice, target);
        spend_down_to(&mut env, &gw, target);
        let (usd, eur) = (gw.iou("USD", 0).issue(), gw.iou("EUR", 0).issue());
        let claw = pool_tx("AMMClawback", usd, eur).account("Holder", &alice.id);
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecINSUFFICIENT_RESERVE
        };
        assert_eq!(env.submit(&gw, claw), want, "fix {on}");
        if on {
            // The pool is gone; alice's EUR is back and her USD went to gw through a
            // line made for the claw (empty again, it goes with the USD).
            assert!(amm_account(&env, usd, eur).is_none());
            assert_eq!(
                env.iou_balance(&alice, &gw, "EUR"),
                IouValue::from_i64(1_000)
            );
            assert_eq!(env.iou_balance(&alice, &gw, "USD"), IouValue::ZERO);
            assert_eq!(env.owner_count(&alice), 1, "the EUR line");
        } else {
            assert_eq!(pool(&env, usd, eur).2, v(1_000, 0));
            assert!(env.line(&alice, &gw, "USD").is_none());
        }
    }
}

// ---------------------------------------------------------------------------------------
// AMMClawback: the exact boundary
// ---------------------------------------------------------------------------------------

/// bob makes a USD 1,000 / EUR 3,000 pool, alice adds USD 999 / EUR 2,997 (LP tokens
/// 1,730.318756761308 of 3,462.369564330185); gw claws her share of USD, the pool's USD
/// times her share of the LP tokens. Those LP tokens come out equal to hers: with the
/// fix the claw takes them all; before, the matching path's rounding asks one past them
/// (`tecAMM_INVALID_TOKENS`, nothing clawed). Ledgerd's numbers: no rippled test pins
/// this input.
#[test]
fn a_claw_of_exactly_the_holders_share_takes_all_of_it_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, alice, bob] = env.funded(["c340BdGw", "c340BdAlice", "c340BdBob"]);
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for who in [&alice, &bob] {
            for code in ["USD", "EUR"] {
                env.apply(who, trust(gw.iou(code, 100_000)), Ter::tesSUCCESS);
                env.apply(&gw, pay(who, gw.iou(code, 10_000)), Ter::tesSUCCESS);
            }
        }
        create(&mut env, &bob, gw.iou("USD", 1_000), gw.iou("EUR", 3_000));
        let (usd, eur) = (gw.iou("USD", 0).issue(), gw.iou("EUR", 0).issue());
        let deposit = pool_tx("AMMDeposit", usd, eur)
            .flags(amm::tf::TWO_ASSET)
            .amount("Amount", gw.iou("USD", 999))
            .amount("Amount2", gw.iou("EUR", 2_997));
        env.apply(&alice, deposit, Ter::tesSUCCESS);
        let held = lp_tokens(&env, &alice, usd, eur);
        assert_eq!(held, v(1_730_318_756_761_308, -12));
        let (usd_pool, _, lpt) = pool(&env, usd, eur);
        let share = usd_pool.to_number() * lp(&env, usd, eur, held) / lp(&env, usd, eur, lpt);
        let amount = Amount::from_number(&usd, share, get_round());
        let claw = pool_tx("AMMClawback", usd, eur)
            .account("Holder", &alice.id)
            .amount("Amount", amount);
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecAMM_INVALID_TOKENS
        };
        assert_eq!(env.submit(&gw, claw), want, "fix {on}");
        let left = lp_tokens(&env, &alice, usd, eur);
        assert_eq!(left, if on { IouValue::ZERO } else { held }, "fix {on}");
        // bob's part stays: USD 1,000 (one unit in the last place under), EUR 3,000.
        let (usd_left, eur_left, lpt_left) = pool(&env, usd, eur);
        if on {
            assert_eq!(usd_left.as_iou(), Some(v(9_999_999_999_999_999, -13)));
            assert_eq!(eur_left, gw.iou("EUR", 3_000));
            assert_eq!(lpt_left, v(1_732_050_807_568_877, -12));
        } else {
            assert_eq!(lpt_left, lpt);
        }
    }
}

/// `value` of the pool's LP token, as a Number.
fn lp(env: &Env, a: Issue, b: Issue, value: IouValue) -> Number {
    let issuer = amm_account(env, a, b).expect("AMM");
    let currency = amm::lpt_currency(&a.currency, &b.currency);
    Amount::iou(value, currency, issuer).to_number()
}
