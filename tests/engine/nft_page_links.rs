//! LedgerStateFix (issue 32), after rippled's `FixNFTokenPageLinks_test.cpp` with its
//! expected results: the transaction's errors (disabled without fixNFTokenPageLinks, its
//! flags, fields, fix types and owner; nothing to repair is `tecFAILED_PROCESSING`), and
//! the repair of the three kinds of damaged NFToken page chains that the rules before
//! fixNFTokenPageLinks leave, built as the test builds them, under those rules, then
//! repaired once the ledger's rules hold the amendment (the ledger reloaded from its
//! snapshot with them, rippled's `env.enableFeature`).

use crate::rules::env_without;
use crate::support;

use std::sync::Arc;

use ledgerd::engine::nftoken_create_offer::tf as offer_tf;
use ledgerd::engine::nftoken_mint::tf as mint_tf;
use ledgerd::engine::{nft, Ter};
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::Hash256;
use support::engine::*;

/// jtx `ledgerStateFix::nftPageLinks(acct, owner)` with its fee, one owner reserve.
fn fix_links(env: &Env, owner: &Account) -> Tx {
    with_fee(env, fix_links_tx(owner))
}

fn fix_links_tx(owner: &Account) -> Tx {
    let mut tx = Tx::new("LedgerStateFix").account("Owner", &owner.id);
    tx.0.set(Field::named("LedgerFixType"), StValue::UInt16(1));
    tx
}

/// `owner`'s NFTokenPages in key order, found by a walk of the whole state (not through
/// their links).
fn pages(env: &Env, owner: &Account) -> Vec<(Hash256, Arc<StObject>)> {
    let mut out = Vec::new();
    env.store.current().view.for_each(|k, v| {
        if k.0[..20] == owner.id.0 && v.u16_of(sf().ledger_entry_type) == Some(lt::NFTOKEN_PAGE) {
            out.push((*k, v.clone()));
        }
    });
    out.sort_by_key(|p| p.0);
    out
}

/// rippled `account_nfts`' count: the tokens of the owner's first page and of the pages
/// its NextPageMin links reach.
fn nft_count(env: &Env, owner: &Account) -> usize {
    let mut page = pages(env, owner).first().map(|p| p.1.clone());
    let mut n = 0;
    while let Some(p) = page {
        n += nft::page_tokens(&p).len();
        page = p.h256_of(sf().next_page_min).and_then(|k| env.read(&k));
    }
    n
}

fn link(page: &StObject, field: Field) -> Option<Hash256> {
    page.h256_of(field)
}

fn page_at(env: &Env, key: &Hash256) -> Arc<StObject> {
    env.read(key).expect("the page")
}

/// rippled `genPackedTokens`: 96 tokens on three full pages, their taxons chosen so the
/// stored (scrambled) taxons run 0, 0, ... 2, 2, ... 1, 1, ... (16 of each) and so on;
/// returns the IDs in key order.
fn gen_packed_tokens(env: &mut Env, owner: &Account) -> Vec<Hash256> {
    let mut ids = Vec::with_capacity(96);
    for i in 0..96u32 {
        let root = env.root(owner).expect("owner");
        let minted = root.u32_of(sf().minted_nftokens).unwrap_or(0);
        let first = root
            .u32_of(sf().first_nftoken_sequence)
            .unwrap_or_else(|| env.seq(owner));
        let serial = first + minted;
        let internal = i / 16 + if i & 0b10000 != 0 { 2 } else { 0 };
        let taxon = nft::ciphered_taxon(serial, internal);
        ids.push(nft::token_id(
            mint_tf::TRANSFERABLE as u16,
            0,
            &owner.id,
            taxon,
            serial,
        ));
        let mint = Tx::new("NFTokenMint")
            .u32("NFTokenTaxon", taxon)
            .flags(mint_tf::TRANSFERABLE);
        env.apply(owner, mint, Ter::tesSUCCESS);
        if i % 16 == 15 {
            env.close();
        }
    }
    ids.sort();
    let p = pages(env, owner);
    assert_eq!(p.len(), 3, "three pages");
    for (_, page) in &p {
        assert_eq!(nft::page_tokens(page).len(), 32);
    }
    ids
}

fn burn(env: &mut Env, owner: &Account, id: Hash256) {
    env.apply(
        owner,
        Tx::new("NFTokenBurn").h256("NFTokenID", id),
        Ter::tesSUCCESS,
    );
}

/// The middle page of `owner`'s three: the last page's PreviousPageMin.
fn middle_page(env: &Env, owner: &Account) -> Hash256 {
    let last = page_at(env, &keylet::nftpage_max(&owner.id));
    link(&last, sf().previous_page_min).expect("a middle page")
}

#[test]
fn ledger_state_fix_errors() {
    let alice = Account::new("alice");
    {
        let mut env = env_without(&[Feature::FixNFTokenPageLinks]);
        env.fund(&alice, xrp(1_000));
        let tx = fix_links(&env, &alice);
        env.apply(&alice, tx, Ter::temDISABLED);
    }
    let mut env = env_without(&[]);
    env.fund(&alice, xrp(1_000));
    let ticket = env.seq(&alice) + 1;
    env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
    // preflight1: AccountTxnID and a ticket do not go together.
    let tx = with_ticket(fix_links(&env, &alice), ticket).h256("AccountTxnID", Hash256::ZERO);
    env.apply(&alice, tx, Ter::temINVALID);
    // Fee too low: the reference fee.
    env.apply(&alice, fix_links_tx(&alice), Ter::telINSUF_FEE_P);
    // Invalid flags: tfPassive.
    let tx = fix_links(&env, &alice).flags(0x0001_0000);
    env.apply(&alice, tx, Ter::temINVALID_FLAG);
    // The page-link fix needs an Owner.
    let tx = fix_links(&env, &alice).remove("Owner");
    env.apply(&alice, tx, Ter::temINVALID);
    // Invalid LedgerFixType codes.
    for code in [0u16, 200] {
        let mut tx = fix_links(&env, &alice);
        tx.0.set(Field::named("LedgerFixType"), StValue::UInt16(code));
        env.apply(&alice, tx, Ter::tefINVALID_LEDGER_FIX_TYPE);
    }
    // Preclaim: carol is not in the ledger.
    let carol = Account::new("carol");
    let before = env.balance(&alice);
    let tx = fix_links(&env, &carol);
    env.apply(&alice, tx, Ter::tecOBJECT_NOT_FOUND);
    let reserve = env.store.fees().reserve_inc_drops as i64;
    assert_eq!(
        env.balance(&alice),
        before - reserve,
        "a tec claims the fee"
    );
}

/// NFTokenPageLinkFix error cases: an owner with no pages, one page, three sound pages:
/// nothing to repair (`tecFAILED_PROCESSING`).
#[test]
fn nothing_to_repair() {
    let alice = Account::new("alice");
    let mut env = env_without(&[]);
    env.fund(&alice, xrp(1_000));
    let tx = fix_links(&env, &alice);
    env.apply(&alice, tx, Ter::tecFAILED_PROCESSING);
    let mint = || {
        Tx::new("NFTokenMint")
            .u32("NFTokenTaxon", 0)
            .flags(mint_tf::TRANSFERABLE)
    };
    env.apply(&alice, mint(), Ter::tesSUCCESS);
    env.close();
    let tx = fix_links(&env, &alice);
    env.apply(&alice, tx, Ter::tecFAILED_PROCESSING);
    for _ in 0..64 {
        env.apply(&alice, mint(), Ter::tesSUCCESS);
    }
    env.close();
    assert!(pages(&env, &alice).len() >= 3);
    let tx = fix_links(&env, &alice);
    env.apply(&alice, tx, Ter::tecFAILED_PROCESSING);
    assert_eq!(nft_count(&env, &alice), 65);
}

/// The ledger as it is, reloaded from its snapshot under ledgerd's full rule book
/// (fixNFTokenPageLinks on): rippled's `env.enableFeature(fixNFTokenPageLinks)`.
fn enable_page_links(env: &mut Env) {
    env.close();
    let (header, entries) = env.store.export_closed();
    let entries = entries
        .into_iter()
        .map(|(k, v)| (k, (*v).clone()))
        .collect();
    env.store =
        Ledgers::from_snapshot(LedgerConfig::default(), header, entries).expect("the same ledger");
    assert!(env.store.rules().enabled(Feature::FixNFTokenPageLinks));
}

/// Step 1A: alice burns her first and last pages' tokens; without the fix the last page
/// goes and the middle page, alone, keeps no link. Returns the middle page's key.
fn damage_one_page(env: &mut Env, alice: &Account) -> Hash256 {
    let mut ids = gen_packed_tokens(env, alice);
    assert_eq!(nft_count(env, alice), 96);
    assert_eq!(env.owner_count(alice), 3);
    let middle = middle_page(env, alice);
    for id in ids.drain(..32) {
        burn(env, alice, id);
    }
    for _ in 0..32 {
        let id = ids.pop().expect("token");
        burn(env, alice, id);
    }
    env.close();
    assert_eq!(env.owner_count(alice), 1);
    assert_eq!(nft_count(env, alice), 32);
    assert!(env.read(&keylet::nftpage_max(&alice.id)).is_none());
    let p = page_at(env, &middle);
    assert!(link(&p, sf().previous_page_min).is_none());
    assert!(link(&p, sf().next_page_min).is_none());
    middle
}

/// Step 1B: bob burns his last page's tokens: the middle page loses NextPageMin.
fn damage_last_page(env: &mut Env, bob: &Account) -> Hash256 {
    let mut ids = gen_packed_tokens(env, bob);
    let middle = middle_page(env, bob);
    for _ in 0..32 {
        let id = ids.pop().expect("token");
        burn(env, bob, id);
    }
    env.close();
    assert_eq!(nft_count(env, bob), 64);
    assert_eq!(env.owner_count(bob), 2);
    assert!(env.read(&keylet::nftpage_max(&bob.id)).is_none());
    let p = page_at(env, &middle);
    assert!(link(&p, sf().previous_page_min).is_some());
    assert!(link(&p, sf().next_page_min).is_none());
    middle
}

/// Step 1C: carol sells her last page's tokens to daria for nothing (the middle page
/// loses NextPageMin), then buys them back for 1 drop each: a new last page, linked to
/// nothing, so only 64 of her 96 tokens are reachable. Each offer is placed in one
/// ledger and taken in the next, as rippled's test closes after every transaction.
fn damage_middle_links(env: &mut Env, carol: &Account, daria: &Account) -> Hash256 {
    let mut ids = gen_packed_tokens(env, carol);
    let middle = middle_page(env, carol);
    let mut darias = Vec::new();
    for _ in 0..32 {
        let id = ids.pop().expect("token");
        let offer = keylet::nftoffer(&carol.id, env.seq(carol));
        let sell = Tx::new("NFTokenCreateOffer")
            .h256("NFTokenID", id)
            .amount("Amount", xrp(0))
            .flags(offer_tf::SELL_NFTOKEN);
        env.apply(carol, sell, Ter::tesSUCCESS);
        env.close();
        let accept = Tx::new("NFTokenAcceptOffer").h256("NFTokenSellOffer", offer);
        env.apply(daria, accept, Ter::tesSUCCESS);
        darias.push(id);
    }
    env.close();
    assert_eq!(nft_count(env, carol), 64);
    assert_eq!(env.owner_count(carol), 2);
    assert!(env.read(&keylet::nftpage_max(&carol.id)).is_none());
    assert!(link(&page_at(env, &middle), sf().next_page_min).is_none());
    for id in darias {
        let offer = keylet::nftoffer(&carol.id, env.seq(carol));
        let buy = Tx::new("NFTokenCreateOffer")
            .h256("NFTokenID", id)
            .amount("Amount", drops(1))
            .account("Owner", &daria.id);
        env.apply(carol, buy, Ter::tesSUCCESS);
        env.close();
        let accept = Tx::new("NFTokenAcceptOffer").h256("NFTokenBuyOffer", offer);
        env.apply(daria, accept, Ter::tesSUCCESS);
    }
    env.close();
    assert_eq!(nft_count(env, carol), 64, "96 held, 64 reachable");
    assert_eq!(env.owner_count(carol), 3);
    let p = page_at(env, &middle);
    assert!(link(&p, sf().previous_page_min).is_some());
    assert!(link(&p, sf().next_page_min).is_none());
    let last = page_at(env, &keylet::nftpage_max(&carol.id));
    assert!(link(&last, sf().previous_page_min).is_none());
    assert!(link(&last, sf().next_page_min).is_none());
    middle
}

/// testFixNFTokenPageLinks: the three damaged chains built without fixNFTokenPageLinks
/// (LedgerStateFix is `temDISABLED` there), repaired with it: alice's lone middle page
/// moves to the last page's key, bob's middle page too (his first page linked to it),
/// carol's middle page gets its links back; tokens reachable and owner counts as before.
#[test]
fn fix_nftoken_page_links() {
    let mut env = env_without(&[Feature::FixNFTokenPageLinks]);
    let [alice, bob, carol, daria] = ["alice", "bob", "carol", "daria"].map(Account::new);
    for a in [&alice, &bob, &carol, &daria] {
        env.fund(a, xrp(1_000));
    }
    env.close();
    let alice_middle = damage_one_page(&mut env, &alice);
    let bob_middle = damage_last_page(&mut env, &bob);
    let carol_middle = damage_middle_links(&mut env, &carol, &daria);
    let tx = fix_links(&env, &alice);
    env.apply(&daria, tx, Ter::temDISABLED);
    enable_page_links(&mut env);

    // Step 3A: daria repairs alice's one-page directory.
    assert!(env.read(&keylet::nftpage_max(&alice.id)).is_none());
    let tx = fix_links(&env, &alice);
    env.apply(&daria, tx, Ter::tesSUCCESS);
    env.close();
    let last = page_at(&env, &keylet::nftpage_max(&alice.id));
    assert!(link(&last, sf().previous_page_min).is_none());
    assert!(link(&last, sf().next_page_min).is_none());
    assert!(env.read(&alice_middle).is_none(), "the middle page went");
    assert_eq!(nft_count(&env, &alice), 32);
    assert_eq!(env.owner_count(&alice), 1);

    // Step 3B: daria repairs bob's two-page directory.
    let tx = fix_links(&env, &bob);
    env.apply(&daria, tx, Ter::tesSUCCESS);
    env.close();
    let last_key = keylet::nftpage_max(&bob.id);
    let last = page_at(&env, &last_key);
    let first_key = link(&last, sf().previous_page_min).expect("a previous page");
    assert_ne!(first_key, bob_middle);
    assert!(link(&last, sf().next_page_min).is_none());
    let first = page_at(&env, &first_key);
    assert_eq!(link(&first, sf().next_page_min), Some(last_key));
    assert!(link(&first, sf().previous_page_min).is_none());
    assert!(env.read(&bob_middle).is_none(), "the middle page went");
    assert_eq!(nft_count(&env, &bob), 64);
    assert_eq!(env.owner_count(&bob), 2);

    // Step 3C: carol repairs her own three-page directory.
    let tx = fix_links(&env, &carol);
    env.apply(&carol, tx, Ter::tesSUCCESS);
    env.close();
    let last_key = keylet::nftpage_max(&carol.id);
    let middle = page_at(&env, &carol_middle);
    assert_eq!(link(&middle, sf().next_page_min), Some(last_key));
    let first_key = link(&middle, sf().previous_page_min).expect("a first page");
    let last = page_at(&env, &last_key);
    assert_eq!(link(&last, sf().previous_page_min), Some(carol_middle));
    assert!(link(&last, sf().next_page_min).is_none());
    let first = page_at(&env, &first_key);
    assert_eq!(link(&first, sf().next_page_min), Some(carol_middle));
    assert!(link(&first, sf().previous_page_min).is_none());
    assert_eq!(nft_count(&env, &carol), 96);
    assert_eq!(env.owner_count(&carol), 3);
    // Nothing is left to repair.
    for who in [&alice, &bob, &carol] {
        let tx = fix_links(&env, who);
        env.apply(&daria, tx, Ter::tecFAILED_PROCESSING);
    }
}
