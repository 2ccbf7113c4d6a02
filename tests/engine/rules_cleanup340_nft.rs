//! fixCleanup3_4_0's NFToken offer spot (rippled #7749, xrpld 3.4.0's release notes:
//! "exempts an IOU issuer from their own global freeze when creating an NFToken offer
//! denominated in their own currency"), run under ledgerd's rule book with the amendment
//! off and on: `tokenOfferCreatePreclaim`'s freeze check, shared by NFTokenCreateOffer and
//! NFTokenMint with an Amount.

use crate::rules::env_with;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::nft;
use ledgerd::engine::nftoken_create_offer::tf as offer_tf;
use ledgerd::engine::nftoken_mint::tf as mint_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::types::Hash256;
use support::engine::*;

/// gw mints a transferable token (no transfer fee) and returns its ID.
fn mint_token(env: &mut Env, gw: &Account) -> Hash256 {
    let root = env.root(gw).expect("account");
    let minted = root.u32_of(sf().minted_nftokens).unwrap_or(0);
    let first = root
        .u32_of(sf().first_nftoken_sequence)
        .unwrap_or_else(|| env.seq(gw));
    let id = nft::token_id(mint_tf::TRANSFERABLE as u16, 0, &gw.id, 0, first + minted);
    let mint = Tx::new("NFTokenMint")
        .u32("NFTokenTaxon", 0)
        .flags(mint_tf::TRANSFERABLE);
    env.apply(gw, mint, Ter::tesSUCCESS);
    id
}

fn sell_offer(id: Hash256, price: ledgerd::protocol::amount::Amount) -> Tx {
    Tx::new("NFTokenCreateOffer")
        .h256("NFTokenID", id)
        .amount("Amount", price)
        .flags(offer_tf::SELL_NFTOKEN)
}

/// gw, globally frozen, offers its token for USD 10 of its own issue, then mints another
/// with a sell offer at the same price.
#[test]
fn a_frozen_issuer_may_price_its_offer_in_its_own_currency_with_the_fix() {
    for on in [false, true] {
        let mut env = env_with(Feature::FixCleanup3_4_0, on, &[]);
        let [gw] = env.funded(["c340NfGw"]);
        let id = mint_token(&mut env, &gw);
        env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
        let want = if on { Ter::tesSUCCESS } else { Ter::tecFROZEN };
        let offer_key = keylet::nftoffer(&gw.id, env.seq(&gw));
        let got = env.submit(&gw, sell_offer(id, gw.iou("USD", 10)));
        assert_eq!(got, want, "fix {on}");
        assert_eq!(env.read(&offer_key).is_some(), on, "fix {on}");
        let with_offer = Tx::new("NFTokenMint")
            .u32("NFTokenTaxon", 0)
            .flags(mint_tf::TRANSFERABLE)
            .amount("Amount", gw.iou("USD", 10));
        assert_eq!(env.submit(&gw, with_offer), want, "mint, fix {on}");
    }
}

/// Another account selling for the frozen issuer's currency stays frozen either way.
#[test]
fn a_holder_still_may_not_price_an_offer_in_a_frozen_currency() {
    for on in [false, true] {
        let mut env = env_with(Feature::FixCleanup3_4_0, on, &[]);
        let [gw, alice] = env.funded(["c340NfGw2", "c340NfAlice"]);
        env.apply(&alice, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        let id = mint_token(&mut env, &alice);
        env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
        let got = env.submit(&alice, sell_offer(id, gw.iou("USD", 10)));
        assert_eq!(got, Ter::tecFROZEN, "fix {on}");
    }
}
