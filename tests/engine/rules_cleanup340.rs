//! fixCleanup3_4_0's spots outside lending, vaults and signing, gated both ways: each story
//! runs under ledgerd's rule book with the amendment off and on and checks what xrpld
//! 3.4 decides each way (the amendment stays `Lacking`: its vault, loan and signing spots
//! are others').
//!
//! - AMMDeposit (`AMM/AMMDeposit.cpp` applyGuts): a deposit whose solved amount leaves
//!   the asset's range (an STAmount conversion throws) is `tecAMM_FAILED` with the fix,
//!   fee charged and nothing else moved; before, nothing catches the throw
//!   (`tefEXCEPTION`, not applied). tfLPToken's own catch (`tecINTERNAL`) is unchanged.

use crate::support;

use crate::rules::amm_both_ways::{amm_account, create, pool, pool_tx, v};
use crate::rules::env_with;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::types::{Hash256, Issue};
use support::credentials::{self, domain_set};
use support::engine::*;
use support::mpt::finish_escrowed_mpt;

fn env340(on: bool) -> Env {
    env_with(Feature::FixCleanup3_4_0, on, &[])
}

/// 10^20 of `gw`'s USD.
fn usd_1e20(gw: &Account) -> Amount {
    let issue = gw.iou("USD", 1).issue();
    Amount::iou(v(1, 20), issue.currency, issue.issuer)
}

// ---------------------------------------------------------------------------------------
// AMMDeposit: an amount out of range (AMM/AMMDeposit.cpp applyGuts)
// ---------------------------------------------------------------------------------------

/// XRP(1,000) / USD(1,000), created by a holder; gw, the issuer, then asks a tfTwoAsset
/// deposit of USD 10^20 against XRP(1,000): the proportional XRP side is 10^20 XRP, past
/// the 10^17 drops an amount holds, and its conversion throws.
#[test]
fn an_out_of_range_two_asset_deposit_is_tec_amm_failed_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, lp] = env.funded(["c340Gw", "c340Lp"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.apply(&lp, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&lp, gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        create(&mut env, &lp, xrp(1_000), gw.iou("USD", 1_000));
        let usd = gw.iou("USD", 1).issue();
        let before = pool(&env, Issue::XRP, usd);
        let (drops, seq) = (env.balance(&gw), env.seq(&gw));
        let tx = pool_tx("AMMDeposit", Issue::XRP, usd)
            .flags(tf::TWO_ASSET)
            .amount("Amount", usd_1e20(&gw))
            .amount("Amount2", xrp(1_000));
        let want = if on {
            Ter::tecAMM_FAILED
        } else {
            Ter::tefEXCEPTION
        };
        assert_eq!(env.submit(&gw, tx), want, "fix {on}");
        // The pool is untouched either way; only the tec claims gw's fee and sequence.
        assert_eq!(pool(&env, Issue::XRP, usd), before, "fix {on}");
        assert_eq!(env.seq(&gw), if on { seq + 1 } else { seq }, "fix {on}");
        assert_eq!(env.balance(&gw) < drops, on, "fix {on}");
    }
}

/// tfLPToken catches its own fault as `tecINTERNAL` (`equalDepositTokens`): the fix does
/// not reach it. LPTokenOut 10^20 asks the pool for more than 10^17 drops.
#[test]
fn an_out_of_range_lp_token_deposit_stays_tec_internal_either_way() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, lp] = env.funded(["c340Gw2", "c340Lp2"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.apply(&lp, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&lp, gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        create(&mut env, &lp, xrp(1_000), gw.iou("USD", 1_000));
        let usd = gw.iou("USD", 1).issue();
        let before = pool(&env, Issue::XRP, usd);
        let lpt = lp_issue(&env, usd);
        let out = Amount::iou(v(1, 20), lpt.currency, lpt.issuer);
        let tx = pool_tx("AMMDeposit", Issue::XRP, usd)
            .flags(tf::LP_TOKEN)
            .amount("LPTokenOut", out);
        assert_eq!(env.submit(&gw, tx), Ter::tecINTERNAL, "fix {on}");
        assert_eq!(pool(&env, Issue::XRP, usd), before, "fix {on}");
    }
}

/// The LP token issue of the XRP/`usd` pool.
fn lp_issue(env: &Env, usd: Issue) -> Issue {
    let issuer = amm_account(env, Issue::XRP, usd).expect("AMM");
    let currency = amm::lpt_currency(&Issue::XRP.currency, &usd.currency);
    Issue { currency, issuer }
}

// ---------------------------------------------------------------------------------------
// ValidPermissionedDEX: deleted entries (invariants/PermissionedDEXInvariant.cpp)
// ---------------------------------------------------------------------------------------

const CRED: &[u8] = b"member";

/// alice, a member of two domains of one owner, has an offer in domain B; she then places
/// an offer in domain A that cancels it (OfferSequence). The deleted B offer and its book
/// page carry B's DomainID: with the fix the invariant does not look at deleted entries
/// (`tesSUCCESS`); before, it sees a second domain (`tecINVARIANT_FAILED`, the B offer
/// stays).
#[test]
fn a_domain_offer_may_cancel_an_offer_of_another_domain_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, owner, alice] = env.funded(["c340DxGw", "c340DxOwner", "c340DxAlice"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        let mut domains = Vec::new();
        for _ in 0..2 {
            let seq = env.seq(&owner);
            env.apply(&owner, domain_set(&[(owner.id, CRED)]), Ter::tesSUCCESS);
            domains.push(keylet::permissioned_domain(&owner.id, seq));
        }
        env.apply(&owner, credentials::create(&alice, CRED), Ter::tesSUCCESS);
        env.apply(&alice, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        env.close();
        env.apply(&alice, credentials::accept(&owner, CRED), Ter::tesSUCCESS);
        env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
        env.close();
        let offer = |domain: Hash256| {
            Tx::new("OfferCreate")
                .amount("TakerPays", xrp(10))
                .amount("TakerGets", gw.iou("USD", 10))
                .h256("DomainID", domain)
        };
        let seq_b = env.seq(&alice);
        env.apply(&alice, offer(domains[1]), Ter::tesSUCCESS);
        let key_b = keylet::offer(&alice.id, seq_b);
        let seq_a = env.seq(&alice);
        let cancel = offer(domains[0]).u32("OfferSequence", seq_b);
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecINVARIANT_FAILED
        };
        assert_eq!(env.submit(&alice, cancel), want, "fix {on}");
        assert_eq!(env.read(&key_b).is_some(), !on, "fix {on}");
        let key_a = keylet::offer(&alice.id, seq_a);
        assert_eq!(env.read(&key_a).is_some(), on, "fix {on}");
    }
}

// ---------------------------------------------------------------------------------------
// AMMClawback: a share that rounds to nothing (AMM/AMMClawback.cpp
// equalWithdrawMatchingOneAmount)
// ---------------------------------------------------------------------------------------

/// alice's USD(1,000) / XRP(1,000) pool; gw claws back USD 10^-9 of it: the LP tokens
/// (10^-9) are not zero, but the matching XRP, 10^-3 drop, rounds down to none. With the
/// fix the claw is `tecAMM_FAILED` (the issuer should claw a larger amount) and the pool
/// stays; before, it goes ahead one-sided (ledgerd's existing result, not checked against
/// a rippled test).
#[test]
fn a_claw_whose_other_side_rounds_to_zero_fails_with_the_fix() {
    for on in [false, true] {
        let mut env = env340(on);
        let [gw, alice] = env.funded(["c340CbGw", "c340CbAlice"]);
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.apply(&alice, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&alice, gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        create(&mut env, &alice, gw.iou("USD", 1_000), xrp(1_000));
        let usd = gw.iou("USD", 1).issue();
        let before = pool(&env, usd, Issue::XRP);
        let tiny = Amount::iou(v(1, -9), usd.currency, usd.issuer);
        let tx = pool_tx("AMMClawback", usd, Issue::XRP)
            .account("Holder", &alice.id)
            .amount("Amount", tiny);
        let want = if on {
            Ter::tecAMM_FAILED
        } else {
            Ter::tesSUCCESS
        };
        assert_eq!(env.submit(&gw, tx), want, "fix {on}");
        let (usd_left, xrp_left, lpt) = pool(&env, usd, Issue::XRP);
        if on {
            assert_eq!((usd_left, xrp_left, lpt), before);
        } else {
            // One-sided: USD 10^-9 and LP tokens 10^-6 go, no XRP.
            assert_eq!(
                usd_left,
                Amount::iou(v(999_999_999_999, -9), usd.currency, usd.issuer)
            );
            assert_eq!(xrp_left, xrp(1_000));
            assert_eq!(lpt, v(999_999_999_999, -6));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Escrow transfer fee rounding (`escrowDeductTransferFee`)
// ---------------------------------------------------------------------------------------

/// gw's MPT at TransferFee 30,000 (a rate of 1.3); alice escrows 10 to carol, who
/// finishes it. The net is 10 / 1.3 = 7.69: rounded up (8) before the fix, down (7) with
/// it (`divideRoundStrict`). The gross 10 leaves alice's lock either way
/// (fixTokenEscrowV1); the fee leaves OutstandingAmount.
#[test]
fn an_escrowed_mpt_net_of_the_transfer_fee_rounds_down_with_the_fix() {
    for on in [false, true] {
        let (env, id, [alice, carol]) = finish_mpt_escrow(on, &[]);
        let s = sf();
        let token = |who: &Account, f| env.read(&keylet::mptoken(&id, &who.id))?.u64_of(f);
        let net = if on { 7 } else { 8 };
        assert_eq!(token(&carol, s.mpt_amount), Some(net), "fix {on}");
        assert_eq!(token(&alice, s.mpt_amount), Some(990), "fix {on}");
        assert_eq!(token(&alice, s.locked_amount), None, "fix {on}");
        let outstanding = env
            .read(&keylet::mpt_issuance(&id))
            .and_then(|o| o.u64_of(s.outstanding_amount));
        assert_eq!(outstanding, Some(990 + net), "fix {on}");
    }
}

/// Without fixTokenEscrowV1 a finish unlocks only the net (the fee stays in the sender's
/// and the issuance's LockedAmount); fixCleanup3_4_0 unlocks the whole escrowed amount too
/// (rippled `escrowUnlockApplyHelper<MPTIssue>`).
#[test]
fn an_mpt_escrow_finish_unlocks_the_whole_amount_with_the_fix_alone() {
    for on in [false, true] {
        let (env, id, [alice, carol]) = finish_mpt_escrow(on, &[Feature::FixTokenEscrowV1]);
        let s = sf();
        let token = |who: &Account, f| env.read(&keylet::mptoken(&id, &who.id))?.u64_of(f);
        let net = if on { 7 } else { 8 };
        assert_eq!(token(&carol, s.mpt_amount), Some(net), "fix {on}");
        let stuck = if on { None } else { Some(10 - net) };
        assert_eq!(token(&alice, s.locked_amount), stuck, "fix {on}");
        let locked = env
            .read(&keylet::mpt_issuance(&id))
            .and_then(|o| o.u64_of(s.locked_amount))
            .filter(|&v| v != 0);
        assert_eq!(locked, stuck, "fix {on}");
    }
}

/// gw's MPT at TransferFee 30,000 (a rate of 1.3); alice (1,000) escrows 10 to carol,
/// who finishes it, under ledgerd's rule book with fixCleanup3_4_0 `on` or off and
/// without `off`.
fn finish_mpt_escrow(on: bool, off: &[Feature]) -> (Env, MptId, [Account; 2]) {
    let mut env = env_with(Feature::FixCleanup3_4_0, on, off);
    let (id, accounts) = finish_escrowed_mpt(&mut env, 30_000, 10);
    (env, id, accounts)
}
