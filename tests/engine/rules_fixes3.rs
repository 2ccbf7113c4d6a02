//! Fix amendments gated both ways, each story run with the amendment off and on and
//! checked against what xrpld decides each way:
//!
//! - fixReducedOffersV2 (rippled `TOffer::limitIn`, `AMMOffer::limitIn`): an offer cut
//!   to take at most a given input uses `Quality::ceil_in_strict` with the rounding the
//!   step asks for; without it the older `ceil_in`, which always rounds the output up.
//!   After rippled's `Flow_test` `testBookStep` ("do not produce more in the forward
//!   pass"), run there with and without the amendment.
//! - fixEnforceNFTokenTrustline (rippled `NFTokenAcceptOffer::preclaim`): the issuer of
//!   a token with a transfer fee, paid in an issued currency it does not issue, must
//!   already hold a line for it (`tecNO_LINE`) unless the token asked for automatic
//!   lines; without it the fee's payment makes the line. After rippled's `NFToken_test`
//!   `testUnaskedForAutoTrustline` (its token without `tfTrustLine`; the flag's own
//!   stories are in `rules_nft_auto.rs`).
//! - fixNFTokenPageLinks (rippled `nft::removeToken`): emptying an owner's last NFToken
//!   page moves the previous page's tokens into it; without it the last page goes and
//!   the previous page loses its NextPageMin. After rippled's `NFTokenBurn_test`
//!   `exerciseBrokenLinks` (run there without the amendment), with burns for its sales.
//! - fixXChainRewardRounding (rippled `finalizeClaimHelper`): the reward pool's share
//!   per witness is rounded down; without it rippled's `divide` rounds to nearest, so the
//!   shares may add up to more than the pool. After `XChain_test`'s tiny-reward claims
//!   (37 drops among a quorum of 4: 9 each both ways), with a pool of 39 drops.

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::nftoken_create_offer::tf as offer_tf;
use ledgerd::engine::nftoken_mint::tf as mint_tf;
use ledgerd::engine::offer_create::tf;
use ledgerd::engine::payment::tf as ptf;
use ledgerd::engine::{nft, Ter};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{PathStep, StValue};
use ledgerd::protocol::types::Currency;
use support::engine::*;
use support::xchain::{create_bridge, with_bridge, xrp_bridge, ClaimAttestation};

/// Ledgerd's rule book with `f` on, or with it off.
fn env_with(f: Feature, on: bool) -> Env {
    if on {
        env_without(&[])
    } else {
        env_without(&[f])
    }
}

/// jtx `env.fund(XRP(n), a...)`: 10,000 XRP and DefaultRipple each.
fn fund(env: &mut Env, who: &[&Account]) {
    for a in who {
        env.fund(a, xrp(10_000));
        env.apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
}

/// jtx `~XRP` and `~CUR`: a book step to XRP or to `issuer`'s `code`.
fn book(to: Option<(&Account, &str)>) -> PathStep {
    PathStep {
        account: None,
        currency: Some(to.map_or(Currency::XRP, |(_, code)| cur(code))),
        issuer: to.map(|(issuer, _)| issuer.id),
    }
}

fn offer(pays: Amount, gets: Amount, flags: u32) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
        .flags(flags)
}

// ---------------------------------------------------------------------------------------
// fixReducedOffersV2
// ---------------------------------------------------------------------------------------

/// Flow_test testBookStep, "do not produce more in the forward pass": bob offers USD 1
/// for 2 drops and 1 drop for EUR 1000; alice pays carol EUR 1 through XRP with a
/// SendMax of USD 0.4. With the amendment taking less than half of bob's USD offer would
/// leave a blocking remainder: `tecPATH_DRY`. Without it the payment goes through (carol
/// EUR 1, bob USD 0.4 and EUR 999) and leaves bob's USD offer priced worse than its book.
#[test]
fn reduced_offers_v2_forward_pass() {
    for on in [false, true] {
        let mut env = env_with(Feature::FixReducedOffersV2, on);
        let [alice, bob, carol, gw] = ["alice", "bob", "carol", "gw"].map(Account::new);
        fund(&mut env, &[&alice, &bob, &carol, &gw]);
        for a in [&alice, &bob, &carol] {
            env.apply(a, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
            env.apply(a, trust(gw.iou("EUR", 1000)), Ter::tesSUCCESS);
        }
        env.apply(&gw, pay(&alice, gw.iou("USD", 1000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&bob, gw.iou("EUR", 1000)), Ter::tesSUCCESS);
        let bob_usd_offer = keylet::offer(&bob.id, env.seq(&bob));
        let o1 = offer(gw.iou("USD", 1), drops(2), tf::PASSIVE);
        env.apply(&bob, o1, Ter::tesSUCCESS);
        let o2 = offer(drops(1), gw.iou("EUR", 1000), tf::PASSIVE);
        env.apply(&bob, o2, Ter::tesSUCCESS);
        let tx = pay(&carol, gw.iou("EUR", 1))
            .paths(vec![vec![book(None), book(Some((&gw, "EUR")))]])
            .amount("SendMax", gw.iou_s("USD", "0.4"))
            .flags(ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT);
        let want = if on {
            Ter::tecPATH_DRY
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&alice, tx, want);
        let usd_offer = env.read(&bob_usd_offer).expect("bob's USD offer stays");
        if on {
            assert_eq!(env.iou_balance(&carol, &gw, "EUR"), val("0"));
            assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
            assert_eq!(usd_offer.amount_of(sf().taker_pays), Some(gw.iou("USD", 1)));
        } else {
            assert_eq!(env.iou_balance(&carol, &gw, "EUR"), val("1"));
            assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0.4"));
            assert_eq!(env.iou_balance(&bob, &gw, "EUR"), val("999"));
            assert_eq!(
                usd_offer.amount_of(sf().taker_pays),
                Some(gw.iou_s("USD", "0.6"))
            );
            assert_eq!(usd_offer.amount_of(sf().taker_gets), Some(drops(1)));
        }
    }
}

// ---------------------------------------------------------------------------------------
// fixEnforceNFTokenTrustline
// ---------------------------------------------------------------------------------------

/// NFToken_test testUnaskedForAutoTrustline: issuer mints a transferable token with a 5%
/// transfer fee and no `tfTrustLine`; becky buys it for 1 drop and offers it for AUD 100
/// while issuer holds an AUD line, which issuer then removes. cheri's acceptance is
/// `tecNO_LINE` with the fix (and goes through once issuer holds the line again); without
/// it the acceptance goes through and gives issuer an AUD line it did not ask for. Both
/// ways issuer ends with one line holding AUD 5.
#[test]
fn enforce_nftoken_trustline_unasked_line() {
    for on in [false, true] {
        let mut env = env_with(Feature::FixEnforceNFTokenTrustline, on);
        let [issuer, becky, cheri, gw] = ["issuer", "becky", "cheri", "gw"].map(Account::new);
        fund(&mut env, &[&issuer, &becky, &cheri, &gw]);
        env.close();
        let aud = |v: i64| gw.iou("AUD", v);
        env.apply(&becky, trust(aud(1000)), Ter::tesSUCCESS);
        env.apply(&cheri, trust(aud(1000)), Ter::tesSUCCESS);
        env.close();
        env.apply(&gw, pay(&cheri, aud(500)), Ter::tesSUCCESS);
        env.close();
        let flags = mint_tf::TRANSFERABLE;
        let id = nft::token_id(flags as u16, 5000, &issuer.id, 0, env.seq(&issuer));
        let mut mint = Tx::new("NFTokenMint").u32("NFTokenTaxon", 0).flags(flags);
        mint.0.set(sf().transfer_fee, StValue::UInt16(5000));
        env.apply(&issuer, mint, Ter::tesSUCCESS);
        env.close();
        let buy = keylet::nftoffer(&becky.id, env.seq(&becky));
        let buy_tx = Tx::new("NFTokenCreateOffer")
            .h256("NFTokenID", id)
            .amount("Amount", drops(1))
            .account("Owner", &issuer.id);
        env.apply(&becky, buy_tx, Ter::tesSUCCESS);
        env.close();
        let accept_buy = Tx::new("NFTokenAcceptOffer").h256("NFTokenBuyOffer", buy);
        env.apply(&issuer, accept_buy, Ter::tesSUCCESS);
        env.close();
        let sell_tx = || {
            Tx::new("NFTokenCreateOffer")
                .h256("NFTokenID", id)
                .amount("Amount", aud(100))
                .flags(offer_tf::SELL_NFTOKEN)
        };
        // Without a line issuer cannot be offered AUD, whatever the rules.
        env.apply(&becky, sell_tx(), Ter::tecNO_LINE);
        env.close();
        assert_eq!(env.owner_count(&issuer), 0);
        env.apply(&issuer, trust(aud(1000)), Ter::tesSUCCESS);
        env.close();
        assert_eq!(env.owner_count(&issuer), 1);
        let sell = keylet::nftoffer(&becky.id, env.seq(&becky));
        env.apply(&becky, sell_tx(), Ter::tesSUCCESS);
        env.close();
        env.apply(&issuer, trust(aud(0)), Ter::tesSUCCESS);
        env.close();
        assert_eq!(env.owner_count(&issuer), 0);
        assert!(env.line(&issuer, &gw, "AUD").is_none());
        let accept = || Tx::new("NFTokenAcceptOffer").h256("NFTokenSellOffer", sell);
        if on {
            env.apply(&cheri, accept(), Ter::tecNO_LINE);
            env.close();
            assert!(env.line(&issuer, &gw, "AUD").is_none());
            env.apply(&issuer, trust(aud(1000)), Ter::tesSUCCESS);
            env.close();
            assert_eq!(env.owner_count(&issuer), 1);
        }
        env.apply(&cheri, accept(), Ter::tesSUCCESS);
        env.close();
        assert_eq!(env.owner_count(&issuer), 1);
        assert_eq!(env.iou_balance(&issuer, &gw, "AUD"), val("5"));
        assert_eq!(env.iou_balance(&becky, &gw, "AUD"), val("95"));
        assert_eq!(env.iou_balance(&cheri, &gw, "AUD"), val("400"));
    }
}

// ---------------------------------------------------------------------------------------
// fixNFTokenPageLinks
// ---------------------------------------------------------------------------------------

/// NFTokenBurn_test exerciseBrokenLinks: alice holds 96 tokens packed into three full
/// pages and gives up the 32 of the last page. Without the fix the last page goes
/// (owner count 2) and the middle page keeps its PreviousPageMin but loses its
/// NextPageMin; with it the last page stays, holding the middle page's 32 tokens and
/// linked to the first page, and the middle page goes (owner count 2 as well).
#[test]
fn nftoken_page_links_last_page_emptied() {
    for on in [false, true] {
        let mut env = env_with(Feature::FixNFTokenPageLinks, on);
        let alice = Account::new("alice");
        env.fund(&alice, xrp(1000));
        let mut ids = crate::nft::packed_tokens(&mut env, &alice);
        assert_eq!(env.owner_count(&alice), 3);
        let last_key = keylet::nftpage_max(&alice.id);
        let last = env.read(&last_key).expect("last page");
        let middle_key = last.h256_of(sf().previous_page_min).expect("middle");
        let middle = env.read(&middle_key).expect("middle page");
        let first_key = middle.h256_of(sf().previous_page_min).expect("first");
        for _ in 0..32 {
            let id = ids.pop().expect("token");
            let burn = Tx::new("NFTokenBurn").h256("NFTokenID", id);
            env.apply(&alice, burn, Ter::tesSUCCESS);
        }
        env.close();
        assert_eq!(env.owner_count(&alice), 2);
        let first = env.read(&first_key).expect("first page stays");
        assert_eq!(nft::page_tokens(&first).len(), 32);
        if on {
            let last = env.read(&last_key).expect("the last page stays");
            assert_eq!(nft::page_tokens(&last).len(), 32);
            assert_eq!(last.h256_of(sf().previous_page_min), Some(first_key));
            assert_eq!(first.h256_of(sf().next_page_min), Some(last_key));
            assert!(env.read(&middle_key).is_none(), "the middle page went");
        } else {
            assert!(env.read(&last_key).is_none(), "the last page went");
            let middle = env.read(&middle_key).expect("the middle page stays");
            assert_eq!(nft::page_tokens(&middle).len(), 32);
            assert_eq!(middle.h256_of(sf().previous_page_min), Some(first_key));
            assert_eq!(middle.h256_of(sf().next_page_min), None);
        }
    }
}

// ---------------------------------------------------------------------------------------
// fixXChainRewardRounding
// ---------------------------------------------------------------------------------------

/// The issuing chain of `tests/engine/xchain_claims.rs` (the root's door, five witnesses
/// of weight 1 with a quorum of 4, funded reward accounts) with a signature reward of
/// `reward` drops: scBob takes claim ID 1 and four witnesses attest a transfer of
/// 100 XRP to him. Returns what each reward account gained and what scBob paid for the
/// rewards.
fn tiny_reward_claim(on: bool, reward: i64) -> (Vec<i64>, i64) {
    let mut env = env_with(Feature::FixXChainRewardRounding, on);
    let master = Account::master();
    let b = xrp_bridge(&Account::new("mcDoor").id, &master.id);
    let create = create_bridge(&b, drops(reward), Some(xrp(20)));
    env.apply(&master, create, Ter::tesSUCCESS);
    let witnesses: Vec<Account> = (0..5)
        .map(|i| Account::new(&format!("witness{i}")))
        .collect();
    let rewards: Vec<Account> = (0..5)
        .map(|i| Account::new(&format!("reward{i}")))
        .collect();
    for r in &rewards {
        env.fund(r, xrp(1000));
    }
    let entries: Vec<(&Account, u16)> = witnesses.iter().map(|w| (w, 1)).collect();
    env.apply(&master, signer_list(4, &entries), Ter::tesSUCCESS);
    let [attester, bob] = env.funded(["scAttester", "scBob"]);
    let alice = Account::new("alice");
    let claim_id = with_bridge(
        Tx::new("XChainCreateClaimID")
            .amount("SignatureReward", drops(reward))
            .account("OtherChainSource", &alice.id),
        &b,
    );
    env.apply(&bob, claim_id, Ter::tesSUCCESS);
    let bob0 = env.balance(&bob);
    let before: Vec<i64> = rewards.iter().map(|r| env.balance(r)).collect();
    for i in 0..4 {
        let att = ClaimAttestation {
            bridge: b,
            witness: &witnesses[i],
            source: alice.id,
            amount: xrp(100),
            reward_account: rewards[i].id,
            was_locking: true,
            id: 1,
            dst: Some(bob.id),
        };
        env.apply(&attester, att.tx(), Ter::tesSUCCESS);
    }
    assert!(env.read(&keylet::xchain_claim_id(&b, 1)).is_none());
    let gained = rewards
        .iter()
        .zip(before)
        .map(|(r, b)| env.balance(r) - b)
        .collect();
    (gained, bob0 + 100_000_000 - env.balance(&bob))
}

/// 39 drops among four witnesses: 9 each (36 paid) with the fix, 10 each (40 paid, more
/// than the pool) without; rippled's tiny reward of 37 drops gives 9 each both ways.
#[test]
fn xchain_reward_rounding_tiny_rewards() {
    for on in [false, true] {
        let share = if on { 9 } else { 10 };
        let (gained, paid) = tiny_reward_claim(on, 39);
        assert_eq!(gained, vec![share, share, share, share, 0]);
        assert_eq!(paid, 4 * share);
        let (gained, paid) = tiny_reward_claim(on, 37);
        assert_eq!(gained, vec![9, 9, 9, 9, 0]);
        assert_eq!(paid, 36);
    }
}
