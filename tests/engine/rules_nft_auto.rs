//! fixRemoveNFTokenAutoTrustLine gated both ways (rippled `NFTokenMint::preflight`'s mask):
//! with it NFTokenMint's `tfTrustLine` is `temINVALID_FLAG`; without it the flag is
//! accepted and becomes the token's `flagCreateTrustLines`, under which an issued-currency
//! sale pays the issuer's transfer fee even when the issuer holds no line for that
//! currency (rippled `accountSend` makes the line, one more owner count for the issuer),
//! and NFTokenCreateOffer / NFTokenAcceptOffer skip their checks of the issuer's line
//! (`tecNO_LINE`, also under fixEnforceNFTokenTrustline).
//!
//! After rippled's `NFToken_test` `testMintFlagCreateTrustLine`, run there with and
//! without the amendment, with its numbers; ledgerd's rule book otherwise (so
//! fixEnforceNFTokenTrustline on, as in rippled's run).

use crate::nft::{accept_buy, accept_sell, buy_offer as buy, cancel, sell_offer as sell};
use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::nftoken_mint::tf as mint_tf;
use ledgerd::engine::{nft, Ter};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Hash256;
use support::engine::*;

/// Ledgerd's rule book with fixRemoveNFTokenAutoTrustLine on, or with it off.
fn env_fix(on: bool) -> Env {
    if on {
        env_without(&[])
    } else {
        env_without(&[Feature::FixRemoveNFTokenAutoTrustLine])
    }
}

/// jtx `env.fund(XRP(n), a...)`: DefaultRipple set on each.
fn fund(env: &mut Env, amount: i64, who: &[&Account]) {
    for a in who {
        env.fund(a, xrp(amount));
        env.apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
}

fn mint(flags: u32, fee: u16) -> Tx {
    let mut tx = Tx::new("NFTokenMint").u32("NFTokenTaxon", 0).flags(flags);
    if fee > 0 {
        tx.0.set(sf().transfer_fee, StValue::UInt16(fee));
    }
    tx
}

/// The ID of the next token `who` mints (rippled jtx `token::getNextID`, taxon 0).
fn next_id(env: &Env, who: &Account, flags: u32, fee: u16) -> Hash256 {
    let root = env.root(who).expect("account");
    let minted = root.u32_of(sf().minted_nftokens).unwrap_or(0);
    let first = root
        .u32_of(sf().first_nftoken_sequence)
        .unwrap_or_else(|| env.seq(who));
    nft::token_id(flags as u16, fee, &who.id, 0, first + minted)
}

fn minted(env: &Env, who: &Account) -> u32 {
    env.root(who)
        .and_then(|r| r.u32_of(sf().minted_nftokens))
        .unwrap_or(0)
}

fn offer_key(env: &Env, who: &Account) -> Hash256 {
    keylet::nftoffer(&who.id, env.seq(who))
}

/// `who` places an offer with `tx`, `want` the result; returns the offer's key.
fn place(env: &mut Env, who: &Account, tx: Tx, want: Ter) -> Hash256 {
    let key = offer_key(env, who);
    env.apply(who, tx, want);
    env.close();
    key
}

/// becky buys `id` from alice for 1 drop.
fn becky_buys(env: &mut Env, alice: &Account, becky: &Account, id: Hash256) {
    let offer = place(env, becky, buy(id, alice, drops(1)), Ter::tesSUCCESS);
    env.apply(alice, accept_buy(offer), Ter::tesSUCCESS);
    env.close();
}

/// The accounts and gw's currencies of `testMintFlagCreateTrustLine`: 1,000 XRP each,
/// becky and cheri trusting gw for AUD, CAD and EUR 1,000, becky holding 500 of each and
/// cheri AUD and CAD 500.
fn setup(env: &mut Env) -> [Account; 4] {
    let accounts = ["alice", "becky", "cheri", "gw"].map(Account::new);
    let [alice, becky, cheri, gw] = &accounts;
    fund(env, 1_000, &[alice, becky, cheri, gw]);
    env.close();
    for code in ["AUD", "CAD", "EUR"] {
        env.apply(becky, trust(gw.iou(code, 1_000)), Ter::tesSUCCESS);
        env.apply(cheri, trust(gw.iou(code, 1_000)), Ter::tesSUCCESS);
    }
    env.close();
    for code in ["AUD", "CAD", "EUR"] {
        env.apply(gw, pay(becky, gw.iou(code, 500)), Ter::tesSUCCESS);
    }
    for code in ["AUD", "CAD"] {
        env.apply(gw, pay(cheri, gw.iou(code, 500)), Ter::tesSUCCESS);
    }
    env.close();
    accounts
}

/// The first part of the story, the same both ways: a token without
/// `flagCreateTrustLines` and a non-zero transfer fee cannot be offered for an issued
/// currency its issuer holds no line for (`tecNO_LINE`, sell and buy offers alike); with
/// no transfer fee it can.
fn no_auto_trust(env: &mut Env, accounts: &[Account; 4]) {
    let [alice, becky, cheri, gw] = accounts;
    for fee in [0u16, 1] {
        let id = next_id(env, alice, mint_tf::TRANSFERABLE, fee);
        env.apply(alice, mint(mint_tf::TRANSFERABLE, fee), Ter::tesSUCCESS);
        env.close();
        becky_buys(env, alice, becky, id);
        let want = if fee > 0 {
            Ter::tecNO_LINE
        } else {
            Ter::tesSUCCESS
        };
        let becky_offer = place(env, becky, sell(id, gw.iou("AUD", 100)), want);
        let cheri_offer = place(env, cheri, buy(id, becky, gw.iou("CAD", 100)), want);
        env.apply(becky, cancel(&[becky_offer]), Ter::tesSUCCESS);
        env.apply(cheri, cancel(&[cheri_offer]), Ter::tesSUCCESS);
        env.close();
    }
    assert_eq!(env.owner_count(alice), 0);
    assert_eq!(env.owner_count(becky), 1 + 3, "one page, three lines");
    assert_eq!(env.owner_count(cheri), 3);
}

#[test]
fn mint_trust_line_flag_refused_with_the_fix_accepted_without() {
    for on in [false, true] {
        let mut env = env_fix(on);
        let [alice, ..] = setup(&mut env);
        let flags = mint_tf::TRANSFERABLE | mint_tf::TRUST_LINE;
        let id = next_id(&env, &alice, flags, 10_000);
        let want = if on {
            Ter::temINVALID_FLAG
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&alice, mint(flags, 10_000), want);
        env.close();
        let held = nft::find_token(&env.store.current().view, &alice.id, &id).is_some();
        assert_eq!(held, !on, "fix {on}");
        assert_eq!(minted(&env, &alice), u32::from(!on));
        assert_eq!(env.owner_count(&alice), u32::from(!on));
        if !on {
            assert_ne!(nft::token_flags(&id) & nft::flag::CREATE_TRUST_LINES, 0);
            assert_eq!(nft::transfer_fee(&id), 10_000);
        }
        // The flag alone, and with the other mint flags, the same way; an unknown flag
        // is refused both ways.
        for f in [mint_tf::TRUST_LINE, mint_tf::TRUST_LINE | mint_tf::BURNABLE] {
            env.apply(&alice, mint(f, 0), want);
        }
        env.apply(&alice, mint(0x0000_8000, 0), Ter::temINVALID_FLAG);
        env.close();
        assert_eq!(minted(&env, &alice), if on { 0 } else { 3 });
    }
}

/// testMintFlagCreateTrustLine: with the fix the token with `tfTrustLine` is never minted
/// and the story ends there; without it becky sells the token for AUD 100 to cheri and
/// alice, with no AUD line, gets her 10% (AUD 10) on a line the sale makes; becky buys it
/// back for CAD 50 and alice gets CAD 5 on another new line. Then a token without the
/// flag sells for the currencies alice now holds lines for (AUD 200 + 10, CAD 5 + 5) but
/// not for EUR (`tecNO_LINE`).
#[test]
fn mint_flag_create_trust_line_story() {
    for on in [false, true] {
        let mut env = env_fix(on);
        let accounts = setup(&mut env);
        no_auto_trust(&mut env, &accounts);
        let [alice, becky, cheri, gw] = &accounts;
        let flags = mint_tf::TRANSFERABLE | mint_tf::TRUST_LINE;
        let id = next_id(&env, alice, flags, 10_000);
        let want = if on {
            Ter::temINVALID_FLAG
        } else {
            Ter::tesSUCCESS
        };
        env.apply(alice, mint(flags, 10_000), want);
        env.close();
        if on {
            assert_eq!(env.owner_count(alice), 0);
            assert!(env.line(alice, gw, "AUD").is_none());
            continue;
        }
        becky_buys(&mut env, alice, becky, id);
        assert_eq!(env.owner_count(alice), 0);
        assert!(env.line(alice, gw, "AUD").is_none());
        let offer = place(
            &mut env,
            becky,
            sell(id, gw.iou("AUD", 100)),
            Ter::tesSUCCESS,
        );
        env.apply(cheri, accept_sell(offer), Ter::tesSUCCESS);
        env.close();
        assert_eq!(env.iou_balance(alice, gw, "AUD"), val("10"));
        assert_eq!(env.iou_balance(becky, gw, "AUD"), val("590"));
        assert_eq!(env.iou_balance(cheri, gw, "AUD"), val("400"));
        assert_eq!(env.owner_count(alice), 1, "the AUD line the fee made");
        auto_line_is_alices(&env, alice, gw, "AUD");
        let offer = place(
            &mut env,
            becky,
            buy(id, cheri, gw.iou("CAD", 50)),
            Ter::tesSUCCESS,
        );
        env.apply(cheri, accept_buy(offer), Ter::tesSUCCESS);
        env.close();
        assert_eq!(env.iou_balance(alice, gw, "AUD"), val("10"));
        assert_eq!(env.iou_balance(alice, gw, "CAD"), val("5"));
        assert_eq!(env.owner_count(alice), 2);
        auto_line_is_alices(&env, alice, gw, "CAD");
        preestablished_lines(&mut env, &accounts);
    }
}

/// The line a transfer fee made for `holder`: reserved on the holder's side, limit 0.
fn auto_line_is_alices(env: &Env, holder: &Account, gw: &Account, code: &str) {
    use ledgerd::ledger::flags::lsf;
    let line = env.line(holder, gw, code).expect("the fee's line");
    let holder_low = holder.id < gw.id;
    let (reserve, limit) = if holder_low {
        (lsf::LOW_RESERVE, sf().low_limit)
    } else {
        (lsf::HIGH_RESERVE, sf().high_limit)
    };
    assert_ne!(line.flags() & reserve, 0, "{code}: reserved by the holder");
    assert!(line.amount_of(limit).is_some_and(|l| l.is_zero()));
}

/// The story's last part: with alice's lines in place a token without the flag (5%)
/// sells for AUD and CAD, not for EUR.
fn preestablished_lines(env: &mut Env, accounts: &[Account; 4]) {
    let [alice, becky, cheri, gw] = accounts;
    let id = next_id(env, alice, mint_tf::TRANSFERABLE, 5_000);
    env.apply(alice, mint(mint_tf::TRANSFERABLE, 5_000), Ter::tesSUCCESS);
    env.close();
    assert_eq!(env.owner_count(alice), 3);
    let offer = place(env, alice, sell(id, gw.iou("AUD", 200)), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(alice), 4);
    env.apply(cheri, accept_sell(offer), Ter::tesSUCCESS);
    env.close();
    assert_eq!(env.iou_balance(alice, gw, "AUD"), val("210"));
    assert_eq!(env.owner_count(alice), 2);
    place(env, cheri, sell(id, gw.iou("EUR", 50)), Ter::tecNO_LINE);
    let offer = place(env, cheri, sell(id, gw.iou("CAD", 100)), Ter::tesSUCCESS);
    env.apply(becky, accept_sell(offer), Ter::tesSUCCESS);
    env.close();
    assert_eq!(env.iou_balance(alice, gw, "CAD"), val("10"));
    assert_eq!(env.owner_count(alice), 2);
}
