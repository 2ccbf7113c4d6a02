//! fixCleanup3_3_0's AMM and hybrid-offer spots, gated both ways: each story runs under
//! ledgerd's rule book with the amendment off and on and checks what xrpld decides each
//! way (the amendment stays `Lacking`: its vault, lending and `Number` spots are others').
//!
//! - AMMWithdraw (`AMM/AMMWithdraw.cpp` preclaim, `issuerFreezeHandling`): with the fix
//!   `checkWithdrawFreeze` replaces the old checks: the issuer always takes its own asset
//!   back (its pool balances read through freezes), and a regular freeze of the LP's own
//!   line no longer stops it; a global freeze, the pool's line frozen, or a deep freeze
//!   of the LP's line still do. Before, a global freeze or either line frozen is
//!   `tecFROZEN`.
//! - AMMWithdraw tfLimitLPToken (`singleWithdrawEPrice`): an EPrice at which the LP
//!   token formula's denominator is zero is `tecAMM_FAILED` with the fix; before, the
//!   division throws (`tefEXCEPTION`).
//! - AMMClawback and AMMWithdraw (`checkAMMPrecisionLoss` with fixAMMv1_3): rippled's
//!   AMMClawback_test `testLastHolderLPTokenBalance`, "IOU/IOU pool, larger asset
//!   ratio", under `all - fixAMMClawbackRounding`: the claw (and, in the same pool, a
//!   greedy tfLimitLPToken withdrawal) would leave the pool's product mean below its LP
//!   tokens; the transaction refuses it as `tecPRECISION_LOSS` with the fix, the
//!   invariant as `tecINVARIANT_FAILED` without. (AMMDeposit's check cannot fail: its
//!   rounding favours the pool, and rippled marks it unreachable.)
//! - Hybrid offers (`OfferStream`, PermissionedDEX_test `testHybridInvalidOffer` and
//!   `testHybridOpenBookAfterCredentialExpiry`): a hybrid offer's owner who left the
//!   domain (credential deleted or expired) keeps it crossable in the open book with the
//!   fix (membership is checked only while walking the domain's book); before, the open
//!   book's walk removes it too.

use crate::rules::amm_both_ways::{amm_account, create, lp_tokens, pool, pool_tx, v};
use crate::support;

use crate::rules::env_with;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::offer_create::tf as offer_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{PathStep, StValue};
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use support::credentials::{self, domain_set};
use support::engine::*;

/// TrustSet's tfSetFreeze and tfSetDeepFreeze.
const TF_SET_FREEZE: u32 = 0x0010_0000;
const TF_SET_DEEP_FREEZE: u32 = 0x0040_0000;

/// ledgerd's rule book less `off`, with fixCleanup3_3_0 forced on or left off (it is
/// Lacking).
fn env330_without(on: bool, off: &[Feature]) -> Env {
    env_with(Feature::FixCleanup3_3_0, on, off)
}

// ---------------------------------------------------------------------------------------
// AMMWithdraw's freeze checks (AMM/AMMWithdraw.cpp preclaim, `checkWithdrawFreeze`)
// ---------------------------------------------------------------------------------------

/// The XRP/USD pool: gw issues USD; `creator` puts in XRP(1,000) and USD(1,000) at no
/// trading fee (gw itself, or a holder given 10,000 USD).
fn usd_pool(env: &mut Env, gw: &Account, creator: &Account) -> (Issue, Issue) {
    env.apply(gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    if creator.id != gw.id {
        env.apply(creator, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(gw, pay(creator, gw.iou("USD", 10_000)), Ter::tesSUCCESS);
    }
    create(env, creator, xrp(1_000), gw.iou("USD", 1_000));
    (Issue::XRP, gw.iou("USD", 1).issue())
}

/// `who` withdraws all its LP tokens from the pool (tfWithdrawAll).
fn withdraw_all(env: &mut Env, who: &Account, (a, b): (Issue, Issue), want: Ter) {
    let tx = pool_tx("AMMWithdraw", a, b).flags(tf::WITHDRAW_ALL);
    env.apply(who, tx, want);
}

/// gw sets `flags` on `holder`'s USD line.
fn freeze_line(env: &mut Env, gw: &Account, holder: &AccountId, flags: u32) {
    let limit = Amount::iou(val("0"), cur("USD"), *holder);
    env.apply(gw, trust(limit).flags(flags), Ter::tesSUCCESS);
}

#[test]
fn an_lp_takes_its_funds_back_through_a_freeze_of_its_own_line_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env330_without(on, &[]);
        let [gw, lp] = env.funded(["c330aGw", "c330aLp"]);
        let pair = usd_pool(&mut env, &gw, &lp);
        freeze_line(&mut env, &gw, &lp.id, TF_SET_FREEZE);
        let want = if on { Ter::tesSUCCESS } else { Ter::tecFROZEN };
        withdraw_all(&mut env, &lp, pair, want);
        // The only LP took everything: the AMM is gone and lp holds its 10,000 USD again.
        assert_eq!(amm_account(&env, pair.0, pair.1).is_none(), on, "fix {on}");
        let usd = env.iou_balance(&lp, &gw, "USD");
        let want = if on { "10000" } else { "9000" };
        assert_eq!(usd, val(want), "fix {on}");
    }
}

#[test]
fn a_deep_frozen_or_pool_frozen_line_stops_a_withdrawal_either_way() {
    for on in [false, true] {
        // The LP's own line deep frozen (a freeze first, as TrustSet asks).
        let mut env = env330_without(on, &[]);
        let [gw, lp] = env.funded(["c330aGw2", "c330aLp2"]);
        let pair = usd_pool(&mut env, &gw, &lp);
        freeze_line(&mut env, &gw, &lp.id, TF_SET_FREEZE | TF_SET_DEEP_FREEZE);
        withdraw_all(&mut env, &lp, pair, Ter::tecFROZEN);
        // The pool's line frozen.
        let mut env = env330_without(on, &[]);
        let [gw, lp] = env.funded(["c330aGw3", "c330aLp3"]);
        let pair = usd_pool(&mut env, &gw, &lp);
        let pool_account = amm_account(&env, pair.0, pair.1).expect("AMM");
        freeze_line(&mut env, &gw, &pool_account, TF_SET_FREEZE);
        withdraw_all(&mut env, &lp, pair, Ter::tecFROZEN);
        // An XRP-only withdrawal asks no freeze of USD either way.
        let tx = pool_tx("AMMWithdraw", pair.0, pair.1)
            .flags(tf::SINGLE_ASSET)
            .amount("Amount", xrp(10));
        env.apply(&lp, tx, Ter::tesSUCCESS);
    }
}

#[test]
fn the_issuer_takes_its_globally_frozen_asset_back_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env330_without(on, &[]);
        let [gw, lp] = env.funded(["c330aGw4", "c330aLp4"]);
        let pair = usd_pool(&mut env, &gw, &gw);
        // A second LP, no issuer, deposits before the freeze.
        env.apply(&lp, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&lp, gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        let deposit = pool_tx("AMMDeposit", pair.0, pair.1)
            .flags(tf::TWO_ASSET)
            .amount("Amount", xrp(100))
            .amount("Amount2", gw.iou("USD", 100));
        env.apply(&lp, deposit, Ter::tesSUCCESS);
        env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
        // The holder is stopped either way.
        withdraw_all(&mut env, &lp, pair, Ter::tecFROZEN);
        let gw_xrp = env.balance(&gw);
        let want = if on { Ter::tesSUCCESS } else { Ter::tecFROZEN };
        withdraw_all(&mut env, &gw, pair, want);
        // With the fix gw's 1,000 of the 1,100 XRP come back (less the fee), and its LP
        // tokens are gone; lp's tenth stays in the pool.
        let back = env.balance(&gw) - gw_xrp + FEE;
        assert_eq!(back, if on { 1_000_000_000 } else { 0 }, "fix {on}");
        let (x, usd, lpt) = pool(&env, pair.0, pair.1);
        assert_eq!(x, if on { xrp(100) } else { xrp(1_100) }, "fix {on}");
        let usd_left = if on { "100" } else { "1100" };
        assert_eq!(
            usd,
            Amount::iou(val(usd_left), cur("USD"), gw.id),
            "fix {on}"
        );
        assert_eq!(
            lp_tokens(&env, &gw, pair.0, pair.1).is_zero(),
            on,
            "fix {on}"
        );
        let lp_held = lp_tokens(&env, &lp, pair.0, pair.1);
        assert_eq!(lpt == lp_held, on, "fix {on}: only lp's tokens are left");
    }
}

// ---------------------------------------------------------------------------------------
// AMMClawback's precision check (AMM/AMMClawback.cpp, `checkAMMPrecisionLoss`)
// ---------------------------------------------------------------------------------------

/// The pool of rippled's `testLastHolderLPTokenBalance` "IOU/IOU pool, larger asset
/// ratio" under `all - fixAMMClawbackRounding` (16-digit Number: no SingleAssetVault,
/// no LendingProtocol), fixCleanup3_3_0 on or off: alice's USD(1)/EUR(2,000,000) of
/// gateway after a deposit/withdraw cycle with bob, alice its only LP. Returns the
/// ledger, gateway, alice and the pool's two issues.
fn wide_pool(on: bool) -> (Env, Account, Account, (Issue, Issue)) {
    let off = [
        Feature::SingleAssetVault,
        Feature::LendingProtocol,
        Feature::FixAMMClawbackRounding,
    ];
    let mut env = env330_without(on, &off);
    let [gw, alice, bob] = ["gateway", "alice", "bob"].map(Account::new);
    for a in [&gw, &alice, &bob] {
        env.fund(a, xrp(100_000));
        env.apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
    env.close();
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
    env.close();
    for (who, usd, eur) in [(&alice, 50_000, 500_000_000), (&bob, 40_000, 500_000_000)] {
        env.apply(who, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(who, gw.iou("USD", usd)), Ter::tesSUCCESS);
        env.apply(who, trust(gw.iou("EUR", 2 * eur)), Ter::tesSUCCESS);
        env.apply(&gw, pay(who, gw.iou("EUR", eur)), Ter::tesSUCCESS);
    }
    env.close();
    let (a, b) = (gw.iou("USD", 1).issue(), gw.iou("EUR", 1).issue());
    create(&mut env, &alice, gw.iou("USD", 1), gw.iou("EUR", 2_000_000));
    env.close();
    let alice_tokens = v(1076123487565916, -12);
    let steps = [
        (&alice, "AMMDeposit", "LPTokenOut", Some(alice_tokens)),
        (&bob, "AMMDeposit", "LPTokenOut", Some(v(10_000, 0))),
        (&alice, "AMMWithdraw", "LPTokenIn", Some(alice_tokens)),
        (&bob, "AMMWithdraw", "", None),
    ];
    for (who, name, field, tokens) in steps {
        let tx = match tokens {
            Some(t) => pool_tx(name, a, b)
                .flags(tf::LP_TOKEN)
                .amount(field, lp_amount(&env, (a, b), t)),
            None => pool_tx(name, a, b).flags(tf::WITHDRAW_ALL),
        };
        env.apply(who, tx, Ter::tesSUCCESS);
        env.close();
    }
    let before = (lp_tokens(&env, &alice, a, b), pool(&env, a, b).2);
    let want = (v(1414213562373101, -12), v(14142135623731, -10));
    assert_eq!(before, want, "fix {on}");
    (env, gw, alice, (a, b))
}

/// `value` of the pool's LP token.
fn lp_amount(env: &Env, (a, b): (Issue, Issue), value: IouValue) -> Amount {
    let acct = amm_account(env, a, b).expect("AMM");
    Amount::iou(value, amm::lpt_currency(&a.currency, &b.currency), acct)
}

/// rippled's `testLastHolderLPTokenBalance` "IOU/IOU pool, larger asset ratio": gateway
/// claws 1 USD from alice, with fixCleanup3_3_0 and without.
#[test]
fn a_claw_that_loses_precision_is_refused_by_the_transaction_with_the_fix() {
    for on in [false, true] {
        let (mut env, gw, alice, (a, b)) = wide_pool(on);
        let held = lp_tokens(&env, &alice, a, b);
        let claw = pool_tx("AMMClawback", a, b)
            .account("Holder", &alice.id)
            .amount("Amount", gw.iou("USD", 1));
        let want = if on {
            Ter::tecPRECISION_LOSS
        } else {
            Ter::tecINVARIANT_FAILED
        };
        env.apply(&gw, claw, want);
        assert!(amm_account(&env, a, b).is_some(), "fix {on}");
        assert_eq!(lp_tokens(&env, &alice, a, b), held, "fix {on}");
    }
}

/// The same pool, alice withdrawing USD by tfLimitLPToken at an EPrice of 1,414 LP
/// tokens per USD (nearly all of the USD side for nearly all her tokens): the pool it
/// would leave fails the product check. No rippled unit test pins this input; the
/// outcome follows from the check sitting where rippled puts it (before the deletion,
/// after the assets moved), and without the fix from the `ValidAMM` invariant.
#[test]
fn a_withdrawal_that_loses_precision_is_refused_by_the_transaction_with_the_fix() {
    for on in [false, true] {
        let (mut env, gw, alice, (a, b)) = wide_pool(on);
        let held = lp_tokens(&env, &alice, a, b);
        let withdraw = pool_tx("AMMWithdraw", a, b)
            .flags(tf::LIMIT_LP_TOKEN)
            .amount("Amount", gw.iou("USD", 0))
            .amount("EPrice", lp_amount(&env, (a, b), val("1414")));
        let want = if on {
            Ter::tecPRECISION_LOSS
        } else {
            Ter::tecINVARIANT_FAILED
        };
        env.apply(&alice, withdraw, want);
        assert_eq!(lp_tokens(&env, &alice, a, b), held, "fix {on}");
        // A price a little less greedy passes either way.
        let withdraw = pool_tx("AMMWithdraw", a, b)
            .flags(tf::LIMIT_LP_TOKEN)
            .amount("Amount", gw.iou("EUR", 0))
            .amount("EPrice", lp_amount(&env, (a, b), val("0.0007")));
        env.apply(&alice, withdraw, Ter::tesSUCCESS);
    }
}

// ---------------------------------------------------------------------------------------
// Hybrid offers in the open book (OfferStream, PermissionedDEX_test
// `testHybridInvalidOffer`)
// ---------------------------------------------------------------------------------------

const CRED: &[u8] = b"abcde";

/// rippled's jtx `PermissionedDEX` fixture, in short: gw issues USD (100 each) to alice,
/// bob and carol; the domain of `owner` accepts its "abcde" credential, which they hold.
struct Dex {
    env: Env,
    gw: Account,
    owner: Account,
    alice: Account,
    bob: Account,
    carol: Account,
    domain: Hash256,
}

fn dex(on: bool) -> Dex {
    let mut env = env330_without(on, &[]);
    let [gw, owner, alice, bob, carol] = env.funded([
        "c330aPdxGw",
        "c330aPdxOwner",
        "c330aPdxAlice",
        "c330aPdxBob",
        "c330aPdxCarol",
    ]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    let seq = env.seq(&owner);
    env.apply(&owner, domain_set(&[(owner.id, CRED)]), Ter::tesSUCCESS);
    let domain = keylet::permissioned_domain(&owner.id, seq);
    // Closed after each round, as jtx does, so that a later close replays nothing out
    // of order.
    env.close();
    for who in [&alice, &bob, &carol] {
        env.apply(&owner, credentials::create(who, CRED), Ter::tesSUCCESS);
        env.apply(who, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    }
    env.close();
    for who in [&alice, &bob, &carol] {
        env.apply(who, credentials::accept(&owner, CRED), Ter::tesSUCCESS);
        env.apply(&gw, pay(who, gw.iou("USD", 100)), Ter::tesSUCCESS);
    }
    env.close();
    Dex {
        env,
        gw,
        owner,
        alice,
        bob,
        carol,
        domain,
    }
}

impl Dex {
    fn usd(&self, n: i64) -> Amount {
        self.gw.iou("USD", n)
    }

    /// `who` places an offer (in the domain when `domain`); returns its key.
    fn offer(&mut self, who: &Account, n: i64, flags: u32, domain: bool) -> Hash256 {
        let seq = self.env.seq(who);
        let mut tx = Tx::new("OfferCreate")
            .amount("TakerPays", xrp(n))
            .amount("TakerGets", self.usd(n))
            .flags(flags);
        if domain {
            tx = tx.h256("DomainID", self.domain);
        }
        self.env.apply(who, tx, Ter::tesSUCCESS);
        keylet::offer(&who.id, seq)
    }

    /// alice pays carol `n` USD for at most `n` XRP through the XRP/USD book (the
    /// domain's when `domain`).
    fn pay(&mut self, n: i64, domain: bool, want: Ter) {
        let usd = self.usd(n).issue();
        let step = PathStep {
            account: None,
            currency: Some(usd.currency),
            issuer: Some(usd.issuer),
        };
        let mut tx = pay(&self.carol, self.usd(n))
            .amount("SendMax", xrp(n))
            .paths(vec![vec![step]]);
        if domain {
            tx = tx.h256("DomainID", self.domain);
        }
        let alice = self.alice.clone();
        self.env.apply(&alice, tx, want);
    }

    /// The offer's (TakerPays, TakerGets), if it is still there.
    fn amounts(&self, key: &Hash256) -> Option<(Amount, Amount)> {
        let o = self.env.read(key)?;
        Some((o.amount_of(sf().taker_pays)?, o.amount_of(sf().taker_gets)?))
    }

    fn page_size(&self, dir: &Hash256) -> usize {
        self.env
            .read(dir)
            .and_then(|p| p.v256_of(sf().indexes).map(|v| v.len()))
            .unwrap_or(0)
    }
}

#[test]
fn a_hybrid_offer_of_a_member_who_left_stays_crossable_in_the_open_book_only_with_the_fix() {
    for on in [false, true] {
        let mut d = dex(on);
        let bob = d.bob.clone();
        let hybrid = d.offer(&bob, 50, offer_tf::HYBRID, true);
        let (owner, carol) = (d.owner.clone(), d.carol.clone());
        let delete = Tx::new("CredentialDelete")
            .account("Subject", &bob.id)
            .account("Issuer", &owner.id)
            .blob("CredentialType", CRED);
        d.env.apply(&owner, delete, Ter::tesSUCCESS);
        // The domain's book never takes it.
        d.pay(5, true, Ter::tecPATH_PARTIAL);
        assert_eq!(d.amounts(&hybrid), Some((xrp(50), d.usd(50))), "fix {on}");
        let carol_usd = d.env.iou_balance(&carol, &d.gw, "USD");
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecPATH_PARTIAL
        };
        d.pay(5, false, want);
        let left = if on { 45 } else { 50 };
        assert_eq!(
            d.amounts(&hybrid),
            Some((xrp(left), d.usd(left))),
            "fix {on}"
        );
        let got = d.env.iou_balance(&carol, &d.gw, "USD");
        assert_eq!(got == carol_usd, !on, "fix {on}");
        // A regular offer beside it on the open book's page.
        let regular = d.offer(&bob, 10, 0, false);
        let o = d.env.read(&hybrid).expect("the hybrid offer");
        let Some(StValue::Array(extra)) = o.get(sf().additional_books) else {
            panic!("AdditionalBooks")
        };
        let open_dir = extra[0]
            .1
            .h256_of(sf().book_directory)
            .expect("its open page");
        assert_eq!(d.page_size(&open_dir), 2, "fix {on}");
        d.pay(5, false, Ter::tesSUCCESS);
        if on {
            // The older hybrid offer is crossed first; the regular one is untouched.
            assert_eq!(d.amounts(&hybrid), Some((xrp(40), d.usd(40))));
            assert_eq!(d.amounts(&regular), Some((xrp(10), d.usd(10))));
            assert_eq!(d.page_size(&open_dir), 2);
        } else {
            // The open book's walk removes the hybrid offer and crosses the regular one.
            assert!(d.env.read(&hybrid).is_none());
            assert_eq!(d.amounts(&regular), Some((xrp(5), d.usd(5))));
            assert_eq!(d.page_size(&open_dir), 1);
        }
    }
}

/// PermissionedDEX_test `testHybridOpenBookAfterCredentialExpiry`: devin's credential
/// expires while his hybrid offer sits in both books.
#[test]
fn a_hybrid_offer_outlives_its_owners_credential_in_the_open_book_only_with_the_fix() {
    for on in [false, true] {
        let mut d = dex(on);
        let devin = Account::new("c330aPdxDevin");
        d.env.fund(&devin, xrp(100_000));
        d.env.close();
        d.env.apply(&devin, trust(d.usd(1000)), Ter::tesSUCCESS);
        d.env.close();
        let gw = d.gw.clone();
        d.env.apply(&gw, pay(&devin, d.usd(100)), Ter::tesSUCCESS);
        let expires = d.env.parent_close() + 100;
        let owner = d.owner.clone();
        let cred = credentials::create(&devin, CRED).u32("Expiration", expires);
        d.env.apply(&owner, cred, Ter::tesSUCCESS);
        d.env.close();
        d.env
            .apply(&devin, credentials::accept(&owner, CRED), Ter::tesSUCCESS);
        d.env.close();
        let hybrid = d.offer(&devin, 10, offer_tf::HYBRID, true);
        d.env.close();
        // While the credential holds the open book crosses it either way.
        d.pay(5, false, Ter::tesSUCCESS);
        d.env.close();
        assert_eq!(d.amounts(&hybrid), Some((xrp(5), d.usd(5))), "fix {on}");
        // Past the expiration (rippled: expired once the parent close time passes it).
        d.env.close_after(110);
        let place = Tx::new("OfferCreate")
            .amount("TakerPays", xrp(1))
            .amount("TakerGets", d.usd(1))
            .h256("DomainID", d.domain);
        d.env.apply(&devin, place, Ter::tecNO_PERMISSION);
        // Expired: the open book crosses it only with the fix; the failed payment
        // leaves it in place without.
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecPATH_PARTIAL
        };
        d.pay(2, false, want);
        let left = if on { 3 } else { 5 };
        assert_eq!(
            d.amounts(&hybrid),
            Some((xrp(left), d.usd(left))),
            "fix {on}"
        );
        // The domain's book refuses it either way, and its failed walk removes nothing.
        d.pay(1, true, Ter::tecPATH_PARTIAL);
        assert_eq!(
            d.amounts(&hybrid),
            Some((xrp(left), d.usd(left))),
            "fix {on}"
        );
        if on {
            d.pay(3, false, Ter::tesSUCCESS);
            assert!(d.env.read(&hybrid).is_none(), "consumed");
        }
    }
}

// ---------------------------------------------------------------------------------------
// tfLimitLPToken at the effective price where the token formula divides by zero
// (AMM/AMMWithdraw.cpp `singleWithdrawEPrice`)
// ---------------------------------------------------------------------------------------

/// `t = T * (T + A*E*(f - 2)) / (T*f - A*E)`: at `E = T*f/A` the denominator is zero.
/// rippled throws (no fixCleanup3_4_0: `tefEXCEPTION`, nothing applied) before the fix,
/// and answers `tecAMM_FAILED` with it.
#[test]
fn an_effective_price_zeroing_the_token_formula_fails_cleanly_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env330_without(on, &[]);
        let [gw, lp, bob] = env.funded(["c330aGw5", "c330aLp5", "c330aBob5"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for who in [&lp, &bob] {
            env.apply(who, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
            env.apply(&gw, pay(who, gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        }
        // XRP(1,000)/USD(1,000) at a 1% trading fee: 1,000,000 LP tokens.
        let mut tx = Tx::new("AMMCreate")
            .amount("Amount", xrp(1_000))
            .amount("Amount2", gw.iou("USD", 1_000))
            .amount("Fee", Amount::Xrp(2_000_000));
        tx.0.set(Field::named("TradingFee"), StValue::UInt16(1_000));
        env.apply(&lp, tx, Ter::tesSUCCESS);
        let (a, b) = (Issue::XRP, gw.iou("USD", 1).issue());
        let acct = amm_account(&env, a, b).expect("AMM");
        let lpt = |value: &str| {
            Amount::iou(
                val(value),
                amm::lpt_currency(&a.currency, &b.currency),
                acct,
            )
        };
        // bob (no auction slot: the full fee, f = 0.01) adds a tenth.
        let deposit = pool_tx("AMMDeposit", a, b)
            .flags(tf::LP_TOKEN)
            .amount("LPTokenOut", lpt("100000"));
        env.apply(&bob, deposit, Ter::tesSUCCESS);
        let (_, usd, t) = pool(&env, a, b);
        assert_eq!((usd, t), (gw.iou("USD", 1_100), val("1100000")), "fix {on}");
        // E = T*f/A = 1,100,000 * 0.01 / 1,100 = 10 LP tokens per USD.
        let seq = env.seq(&bob);
        let withdraw = pool_tx("AMMWithdraw", a, b)
            .flags(tf::LIMIT_LP_TOKEN)
            .amount("Amount", gw.iou("USD", 0))
            .amount("EPrice", lpt("10"));
        let want = if on {
            Ter::tecAMM_FAILED
        } else {
            Ter::tefEXCEPTION
        };
        let got = env.submit(&bob, withdraw);
        assert_eq!(got, want, "fix {on}");
        // A tec takes the fee and the sequence; a tef nothing.
        assert_eq!(env.seq(&bob), seq + u32::from(on), "fix {on}");
        assert_eq!(pool(&env, a, b).2, val("1100000"), "fix {on}");
    }
}
