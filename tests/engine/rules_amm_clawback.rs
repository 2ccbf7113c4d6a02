//! fixAMMv1_3 and fixAMMClawbackRounding, three ways: rippled's AMMClawback_test.cpp
//! `testLastHolderLPTokenBalance`. A deposit/withdraw cycle leaves the last LP holder's
//! trust line a rounding remainder away from the AMM's LPTokenBalance; AMMClawback then
//! fails, leaves dust, or empties the pool, as rippled's rules `all - fixAMMv1_3 -
//! fixAMMClawbackRounding`, `all - fixAMMClawbackRounding` and `all` say (`all` holds
//! fixCleanup3_3_0, whose precision check refuses the wide-ratio claw of the middle set
//! before the invariant does). ledgerd has no MPT pools in AMM, so the MPT sub-cases are
//! left out.

use crate::rules::amm_both_ways::{
    amm_account, create, env_for, iou, lp_tokens, pool, pool_tx, v, Variant,
};
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::Ter;
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::types::Issue;
use support::engine::*;

/// rippled's `setupAccounts`: gw (trust line clawback), alice with 50,000 USD and bob
/// with 40,000, every account funded as jtx `fund` does (with DefaultRipple).
fn setup(variant: Variant) -> (Env, [Account; 3]) {
    let mut env = env_for(variant);
    let [gw, alice, bob] = ["gateway", "alice", "bob"].map(Account::new);
    fund_all(&mut env, &[&gw, &alice, &bob]);
    env.close();
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
    env.close();
    for (who, n) in [(&alice, 50_000), (&bob, 40_000)] {
        env.apply(who, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(who, gw.iou("USD", n)), Ter::tesSUCCESS);
    }
    env.close();
    (env, [gw, alice, bob])
}

fn fund_all(env: &mut Env, who: &[&Account]) {
    for a in who {
        env.fund(a, xrp(100_000));
        env.apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
}

/// alice and bob trust and receive `n` of `issuer`'s `code`; the ledger closes.
fn hand_out(env: &mut Env, issuer: &Account, holders: [&Account; 2], code: &str, n: i64) {
    for who in holders {
        env.apply(who, trust(issuer.iou(code, 2 * n)), Ter::tesSUCCESS);
        env.apply(issuer, pay(who, issuer.iou(code, n)), Ter::tesSUCCESS);
    }
    env.close();
}

/// The pool of `a` and `b` as jtx's `AMM` sees it: created in that order, each deposit
/// and withdrawal by LP tokens followed by a close.
struct Pool {
    a: Issue,
    b: Issue,
}

impl Pool {
    fn new(env: &mut Env, who: &Account, a: Amount, b: Amount) -> Pool {
        create(env, who, a, b);
        env.close();
        Pool {
            a: a.issue(),
            b: b.issue(),
        }
    }

    fn lpt(&self, env: &Env, value: IouValue) -> Amount {
        let acct = amm_account(env, self.a, self.b).expect("AMM");
        Amount::iou(
            value,
            amm::lpt_currency(&self.a.currency, &self.b.currency),
            acct,
        )
    }

    fn submit(
        &self,
        env: &mut Env,
        who: &Account,
        name: &str,
        tokens: Option<(&str, IouValue)>,
        flags: u32,
    ) {
        let mut tx = pool_tx(name, self.a, self.b).flags(flags);
        if let Some((field, value)) = tokens {
            tx = tx.amount(field, self.lpt(env, value));
        }
        env.apply(who, tx, Ter::tesSUCCESS);
        env.close();
    }

    fn deposit(&self, env: &mut Env, who: &Account, tokens: IouValue) {
        self.submit(
            env,
            who,
            "AMMDeposit",
            Some(("LPTokenOut", tokens)),
            tf::LP_TOKEN,
        );
    }

    fn withdraw(&self, env: &mut Env, who: &Account, tokens: IouValue) {
        self.submit(
            env,
            who,
            "AMMWithdraw",
            Some(("LPTokenIn", tokens)),
            tf::LP_TOKEN,
        );
    }

    fn withdraw_all(&self, env: &mut Env, who: &Account) {
        self.submit(env, who, "AMMWithdraw", None, tf::WITHDRAW_ALL);
    }

    fn exists(&self, env: &Env) -> bool {
        amm_account(env, self.a, self.b).is_some()
    }

    /// alice's LP tokens and the AMM's LPTokenBalance.
    fn lp_pair(&self, env: &Env, alice: &Account) -> (IouValue, IouValue) {
        (
            lp_tokens(env, alice, self.a, self.b),
            pool(env, self.a, self.b).2,
        )
    }
}

/// gw claws `amount` (all of alice's share when None) of `asset` back from alice, the
/// pool's other asset `other`.
fn claw(
    env: &mut Env,
    gw: &Account,
    alice: &Account,
    (asset, other): (Issue, Issue),
    amount: Option<Amount>,
    flags: u32,
    want: Ter,
) {
    let mut tx = pool_tx("AMMClawback", asset, other)
        .account("Holder", &alice.id)
        .flags(flags);
    if let Some(a) = amount {
        tx = tx.amount("Amount", a);
    }
    env.apply(gw, tx, want);
}

/// The XRP(2)/USD(1) pool after alice deposits 1.876123487565916 LP tokens and bob
/// 1,000,000, alice withdraws hers again when `back`, and bob withdraws all.
fn xrp_pool(variant: Variant, back: bool) -> (Env, [Account; 3], Pool) {
    let (mut env, [gw, alice, bob]) = setup(variant);
    let p = Pool::new(&mut env, &alice, xrp(2), gw.iou("USD", 1));
    let alice_tokens = v(1876123487565916, -15);
    p.deposit(&mut env, &alice, alice_tokens);
    p.deposit(&mut env, &bob, v(1_000_000, 0));
    if back {
        p.withdraw(&mut env, &alice, alice_tokens);
    }
    p.withdraw_all(&mut env, &bob);
    (env, [gw, alice, bob], p)
}

/// "AMMClawback almost last holder's USD balance": gw claws 1 USD.
fn xrp_pool_claw_almost_all(variant: Variant) {
    let (mut env, [gw, alice, _], p) = xrp_pool(variant, true);
    let want = (v(141421356237366, -11), v(1414213562374, -9));
    assert_eq!(p.lp_pair(&env, &alice), want, "{variant:?} before");
    let usd = gw.iou("USD", 1);
    if variant == Variant::Both {
        claw(
            &mut env,
            &gw,
            &alice,
            (p.b, p.a),
            Some(usd),
            0,
            Ter::tesSUCCESS,
        );
        let lp = v(989, -12);
        let want = (drops(1), iou(&gw, "USD", v(7, -13)), lp);
        assert_eq!(pool(&env, p.a, p.b), want, "{variant:?} after");
        assert_eq!(lp_tokens(&env, &alice, p.a, p.b), lp);
    } else {
        claw(
            &mut env,
            &gw,
            &alice,
            (p.b, p.a),
            Some(usd),
            0,
            Ter::tecAMM_BALANCE,
        );
        assert!(p.exists(&env), "{variant:?} AMM kept");
    }
}

#[test]
fn xrp_pool_claw_almost_all_without_either_fix() {
    xrp_pool_claw_almost_all(Variant::Neither);
}

#[test]
fn xrp_pool_claw_almost_all_with_fix_amm_v1_3_only() {
    xrp_pool_claw_almost_all(Variant::V13);
}

#[test]
fn xrp_pool_claw_almost_all_with_both_fixes() {
    xrp_pool_claw_almost_all(Variant::Both);
}

/// "AMMClawback part of last holder's USD balance": alice keeps her deposit, gw claws
/// 0.5 USD.
fn xrp_pool_claw_part(variant: Variant) {
    let (mut env, [gw, alice, _], p) = xrp_pool(variant, false);
    let want = (v(141608968586066, -11), v(1416089685861, -9));
    assert_eq!(p.lp_pair(&env, &alice), want, "{variant:?} before");
    let half = gw.iou_s("USD", "0.5");
    claw(
        &mut env,
        &gw,
        &alice,
        (p.b, p.a),
        Some(half),
        0,
        Ter::tesSUCCESS,
    );
    let (usd, xrp_drops, lp) = match variant {
        Variant::Neither => (v(5013266196406, -13), 1002653, v(7089829046744236, -13)),
        Variant::V13 => (v(5013266196407, -13), 1002654, v(7089829046744941, -13)),
        Variant::Both => (v(5013266196406999, -16), 1002655, v(7089829046743238, -13)),
    };
    let want = (drops(xrp_drops), iou(&gw, "USD", usd), lp);
    assert_eq!(pool(&env, p.a, p.b), want, "{variant:?} after");
    if variant == Variant::Both {
        assert_eq!(lp_tokens(&env, &alice, p.a, p.b), lp);
    }
}

#[test]
fn xrp_pool_claw_part_without_either_fix() {
    xrp_pool_claw_part(Variant::Neither);
}

#[test]
fn xrp_pool_claw_part_with_fix_amm_v1_3_only() {
    xrp_pool_claw_part(Variant::V13);
}

#[test]
fn xrp_pool_claw_part_with_both_fixes() {
    xrp_pool_claw_part(Variant::Both);
}

/// "AMMClawback all of last holder's USD balance": no Amount.
fn xrp_pool_claw_all(variant: Variant) {
    let (mut env, [gw, alice, _], p) = xrp_pool(variant, true);
    let want = (v(141421356237366, -11), v(1414213562374, -9));
    assert_eq!(p.lp_pair(&env, &alice), want, "{variant:?} before");
    match variant {
        Variant::Neither => {
            claw(
                &mut env,
                &gw,
                &alice,
                (p.b, p.a),
                None,
                0,
                Ter::tecAMM_BALANCE,
            );
            assert!(p.exists(&env));
        }
        Variant::V13 => {
            claw(&mut env, &gw, &alice, (p.b, p.a), None, 0, Ter::tesSUCCESS);
            let want = (drops(1), iou(&gw, "USD", v(241, -15)), v(34, -11));
            assert_eq!(pool(&env, p.a, p.b), want);
        }
        Variant::Both => {
            claw(&mut env, &gw, &alice, (p.b, p.a), None, 0, Ter::tesSUCCESS);
            assert!(!p.exists(&env), "AMM deleted");
        }
    }
}

#[test]
fn xrp_pool_claw_all_without_either_fix() {
    xrp_pool_claw_all(Variant::Neither);
}

#[test]
fn xrp_pool_claw_all_with_fix_amm_v1_3_only() {
    xrp_pool_claw_all(Variant::V13);
}

#[test]
fn xrp_pool_claw_all_with_both_fixes() {
    xrp_pool_claw_all(Variant::Both);
}

/// An IOU/IOU pool of `a` and `b` after the cycle with `alice_tokens` and bob's 1,000
/// (`bob_tokens`); alice's tokens and the LPTokenBalance are checked against `want`.
fn iou_cycle(
    env: &mut Env,
    who: [&Account; 2],
    ab: (Amount, Amount),
    alice_tokens: IouValue,
    bob_tokens: IouValue,
) -> Pool {
    let [alice, bob] = who;
    let p = Pool::new(env, alice, ab.0, ab.1);
    p.deposit(env, alice, alice_tokens);
    p.deposit(env, bob, bob_tokens);
    p.withdraw(env, alice, alice_tokens);
    p.withdraw_all(env, bob);
    p
}

/// "IOU/IOU pool, different issuers": USD(2)/EUR(1), gw claws all of alice's USD.
fn iou_pool_two_issuers(variant: Variant) {
    let (mut env, [gw, alice, bob]) = setup(variant);
    let gw2 = Account::new("gateway2");
    fund_all(&mut env, &[&gw2]);
    env.close();
    hand_out(&mut env, &gw2, [&alice, &bob], "EUR", 50_000);
    let ab = (gw.iou("USD", 2), gw2.iou("EUR", 1));
    let p = iou_cycle(
        &mut env,
        [&alice, &bob],
        ab,
        v(1576123487565916, -15),
        v(1_000, 0),
    );
    let want = (v(1414213562374011, -15), v(1414213562374, -12));
    assert_eq!(p.lp_pair(&env, &alice), want, "{variant:?} before");
    if variant == Variant::Both {
        claw(&mut env, &gw, &alice, (p.a, p.b), None, 0, Ter::tesSUCCESS);
        assert!(!p.exists(&env), "AMM deleted");
    } else {
        claw(&mut env, &gw, &alice, (p.a, p.b), None, 0, Ter::tecINTERNAL);
        assert!(p.exists(&env), "{variant:?} AMM kept");
    }
}

#[test]
fn iou_pool_two_issuers_without_either_fix() {
    iou_pool_two_issuers(Variant::Neither);
}

#[test]
fn iou_pool_two_issuers_with_fix_amm_v1_3_only() {
    iou_pool_two_issuers(Variant::V13);
}

#[test]
fn iou_pool_two_issuers_with_both_fixes() {
    iou_pool_two_issuers(Variant::Both);
}

/// "IOU/IOU pool, same issuer": USD(1)/EUR(2) of gw, clawed both with tfClawTwoAssets.
fn iou_pool_one_issuer(variant: Variant) {
    let (mut env, [gw, alice, bob]) = setup(variant);
    hand_out(&mut env, &gw, [&alice, &bob], "EUR", 50_000);
    let ab = (gw.iou("USD", 1), gw.iou("EUR", 2));
    let p = iou_cycle(
        &mut env,
        [&alice, &bob],
        ab,
        v(1076123487565916, -15),
        v(1_000, 0),
    );
    let want = (v(1414213562374011, -15), v(1414213562374, -12));
    assert_eq!(p.lp_pair(&env, &alice), want, "{variant:?} before");
    let two = tf::CLAW_TWO_ASSETS;
    if variant == Variant::Both {
        claw(
            &mut env,
            &gw,
            &alice,
            (p.a, p.b),
            None,
            two,
            Ter::tesSUCCESS,
        );
        assert!(!p.exists(&env), "AMM deleted");
    } else {
        claw(
            &mut env,
            &gw,
            &alice,
            (p.a, p.b),
            None,
            two,
            Ter::tecINTERNAL,
        );
        assert!(p.exists(&env), "{variant:?} AMM kept");
    }
}

#[test]
fn iou_pool_one_issuer_without_either_fix() {
    iou_pool_one_issuer(Variant::Neither);
}

#[test]
fn iou_pool_one_issuer_with_fix_amm_v1_3_only() {
    iou_pool_one_issuer(Variant::V13);
}

#[test]
fn iou_pool_one_issuer_with_both_fixes() {
    iou_pool_one_issuer(Variant::Both);
}

/// "IOU/IOU pool, larger asset ratio": USD(1)/EUR(2,000,000) of gw, gw claws 1 USD.
/// ledgerd lacks fixCleanup3_3_0, so the middle rule set fails the AMM invariant.
fn iou_pool_wide_ratio(variant: Variant) {
    let (mut env, [gw, alice, bob]) = setup(variant);
    hand_out(&mut env, &gw, [&alice, &bob], "EUR", 500_000_000);
    let ab = (gw.iou("USD", 1), gw.iou("EUR", 2_000_000));
    let p = iou_cycle(
        &mut env,
        [&alice, &bob],
        ab,
        v(1076123487565916, -12),
        v(10_000, 0),
    );
    let want = (v(1414213562373101, -12), v(14142135623731, -10));
    assert_eq!(p.lp_pair(&env, &alice), want, "{variant:?} before");
    let usd = Some(gw.iou("USD", 1));
    let dust = |lp| (iou(&gw, "USD", v(4, -15)), iou(&gw, "EUR", v(8, -9)), lp);
    match variant {
        Variant::Neither => {
            claw(&mut env, &gw, &alice, (p.a, p.b), usd, 0, Ter::tesSUCCESS);
            assert_eq!(pool(&env, p.a, p.b), dust(v(6, -12)));
        }
        Variant::V13 => {
            claw(
                &mut env,
                &gw,
                &alice,
                (p.a, p.b),
                usd,
                0,
                Ter::tecPRECISION_LOSS,
            );
            assert!(p.exists(&env));
        }
        Variant::Both => {
            let two = tf::CLAW_TWO_ASSETS;
            claw(&mut env, &gw, &alice, (p.a, p.b), usd, two, Ter::tesSUCCESS);
            assert_eq!(pool(&env, p.a, p.b), dust(v(5, -12)));
            assert_eq!(lp_tokens(&env, &alice, p.a, p.b), v(5, -12));
        }
    }
}

#[test]
fn iou_pool_wide_ratio_without_either_fix() {
    iou_pool_wide_ratio(Variant::Neither);
}

#[test]
fn iou_pool_wide_ratio_with_fix_amm_v1_3_only() {
    iou_pool_wide_ratio(Variant::V13);
}

#[test]
fn iou_pool_wide_ratio_with_both_fixes() {
    iou_pool_wide_ratio(Variant::Both);
}
