//! NFToken stories (issue 16), after rippled's `NFToken_test.cpp`, `NFTokenBurn_test.cpp`
//! and `NFTokenDir_test.cpp`: minting and burning with the issuer's counters and the
//! owner's pages (32 tokens a page, split keeping equal low 96 bits together, merged
//! and relinked on burn), offers to buy and sell, direct and brokered, with the
//! transfer fee and the broker's fee, and the main error codes.

use crate::support;

use ledgerd::engine::nft;
use ledgerd::engine::nftoken_create_offer::tf as offer_tf;
use ledgerd::engine::nftoken_mint::tf as mint_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Hash256;
use support::engine::*;

fn mint(taxon: u32) -> Tx {
    Tx::new("NFTokenMint").u32("NFTokenTaxon", taxon)
}

fn burn(id: Hash256) -> Tx {
    Tx::new("NFTokenBurn").h256("NFTokenID", id)
}

pub(crate) fn sell_offer(id: Hash256, amount: ledgerd::protocol::amount::Amount) -> Tx {
    Tx::new("NFTokenCreateOffer")
        .h256("NFTokenID", id)
        .amount("Amount", amount)
        .flags(offer_tf::SELL_NFTOKEN)
}

pub(crate) fn buy_offer(
    id: Hash256,
    owner: &Account,
    amount: ledgerd::protocol::amount::Amount,
) -> Tx {
    Tx::new("NFTokenCreateOffer")
        .h256("NFTokenID", id)
        .amount("Amount", amount)
        .account("Owner", &owner.id)
}

pub(crate) fn accept_sell(offer: Hash256) -> Tx {
    Tx::new("NFTokenAcceptOffer").h256("NFTokenSellOffer", offer)
}

pub(crate) fn accept_buy(offer: Hash256) -> Tx {
    Tx::new("NFTokenAcceptOffer").h256("NFTokenBuyOffer", offer)
}

pub(crate) fn cancel(offers: &[Hash256]) -> Tx {
    let mut tx = Tx::new("NFTokenCancelOffer");
    tx.0.set(sf().nftoken_offers, StValue::Vector256(offers.to_vec()));
    tx
}

/// The ID the next token `who` mints will get (rippled jtx `token::getNextID`).
fn next_id(env: &Env, who: &Account, taxon: u32, flags: u32, fee: u16) -> Hash256 {
    let root = env.root(who).expect("account");
    let minted = root.u32_of(sf().minted_nftokens).unwrap_or(0);
    let first = root
        .u32_of(sf().first_nftoken_sequence)
        .unwrap_or_else(|| env.seq(who));
    nft::token_id(flags as u16, fee, &who.id, taxon, first + minted)
}

/// Mints with `flags` (and transfer fee) and returns the token's ID.
fn mint_id(env: &mut Env, who: &Account, taxon: u32, flags: u32, fee: u16) -> Hash256 {
    let id = next_id(env, who, taxon, flags, fee);
    let mut tx = mint(taxon).flags(flags);
    if fee > 0 {
        tx.0.set(sf().transfer_fee, StValue::UInt16(fee));
    }
    env.apply(who, tx, Ter::tesSUCCESS);
    id
}

/// The offer `who` places next.
fn next_offer(env: &Env, who: &Account) -> Hash256 {
    keylet::nftoffer(&who.id, env.seq(who))
}

/// `who`'s pages in key order, each with its tokens; checks the links and the key rule.
fn pages(env: &Env, who: &Account) -> Vec<(Hash256, Vec<Hash256>)> {
    let s = sf();
    let mut keys = Vec::new();
    let mut key = keylet::nftpage_max(&who.id);
    let Some(mut page) = env.read(&key) else {
        return Vec::new();
    };
    loop {
        keys.push(key);
        match page.h256_of(s.previous_page_min) {
            Some(p) => {
                assert!(p < key, "pages chained in key order");
                let prev = env.read(&p).expect("previous page exists");
                assert_eq!(prev.h256_of(s.next_page_min), Some(key), "links agree");
                page = prev;
                key = p;
            }
            None => break,
        }
    }
    keys.reverse();
    let last = keylet::nftpage_max(&who.id);
    keys.iter()
        .map(|k| {
            let p = env.read(k).expect("page");
            let ids: Vec<Hash256> = nft::page_tokens(&p)
                .iter()
                .map(|t| t.h256_of(s.nftoken_id).unwrap())
                .collect();
            assert!(!ids.is_empty() && ids.len() <= 32, "1 to 32 tokens a page");
            assert!(ids
                .windows(2)
                .all(|w| nft::compare_tokens(&w[0], &w[1]).is_lt()));
            for id in &ids {
                assert!(
                    *k == last || nft::low96(id) < nft::low96(k),
                    "token below its page"
                );
            }
            (*k, ids)
        })
        .collect()
}

fn nft_count(env: &Env, who: &Account) -> usize {
    pages(env, who).iter().map(|(_, t)| t.len()).sum()
}

fn u32_field(env: &Env, who: &Account, f: ledgerd::protocol::definitions::Field) -> Option<u32> {
    env.root(who).and_then(|r| r.u32_of(f))
}

#[test]
fn mint_and_burn_keep_the_issuers_counters_and_the_owner_count() {
    let mut env = Env::new();
    let [alice, becky] = env.funded(["alice", "becky"]);
    let seq = env.seq(&alice);
    let id = mint_id(&mut env, &alice, 7, mint_tf::TRANSFERABLE, 0);
    assert_eq!(env.owner_count(&alice), 1, "one page");
    assert_eq!(u32_field(&env, &alice, sf().minted_nftokens), Some(1));
    assert_eq!(
        u32_field(&env, &alice, sf().first_nftoken_sequence),
        Some(seq)
    );
    assert_eq!(
        nft::serial(&id),
        seq,
        "fixNFTokenRemint: serial from the sequence"
    );
    assert_eq!(nft::taxon(&id), 7);
    let page = env
        .read(&keylet::nftpage_max(&alice.id))
        .expect("last page");
    assert_eq!(page.flags(), 0);
    assert_eq!(nft::page_tokens(&page).len(), 1);
    // 31 more fill the page; the 33rd needs a second page.
    for _ in 0..31 {
        mint_id(&mut env, &alice, 7, 0, 0);
    }
    assert_eq!(env.owner_count(&alice), 1);
    mint_id(&mut env, &alice, 7, 0, 0);
    assert_eq!(env.owner_count(&alice), 2);
    assert_eq!(nft_count(&env, &alice), 33);
    // Only the owner burns a token that is not burnable.
    env.apply(
        &becky,
        burn(id).account("Owner", &alice.id),
        Ter::tecNO_PERMISSION,
    );
    env.apply(&alice, burn(id), Ter::tesSUCCESS);
    env.apply(&alice, burn(id), Ter::tecNO_ENTRY);
    assert_eq!(u32_field(&env, &alice, sf().burned_nftokens), Some(1));
    assert_eq!(u32_field(&env, &alice, sf().minted_nftokens), Some(33));
    assert_eq!(nft_count(&env, &alice), 32);
    assert_eq!(env.owner_count(&alice), 1, "the two pages merged");
    // The issuer burns a burnable token it does not hold.
    let b = mint_id(
        &mut env,
        &alice,
        1,
        mint_tf::BURNABLE | mint_tf::TRANSFERABLE,
        0,
    );
    let offer = next_offer(&env, &alice);
    env.apply(
        &alice,
        sell_offer(b, xrp(0)).account("Destination", &becky.id),
        Ter::tesSUCCESS,
    );
    env.apply(&becky, accept_sell(offer), Ter::tesSUCCESS);
    assert_eq!(nft_count(&env, &becky), 1);
    env.apply(&alice, burn(b).account("Owner", &becky.id), Ter::tesSUCCESS);
    assert_eq!(nft_count(&env, &becky), 0);
    assert_eq!(env.owner_count(&becky), 0);
}

#[test]
fn malformed_mints_are_refused() {
    let mut env = Env::new();
    let [alice, minter] = env.funded(["alice", "minter"]);
    env.apply(
        &alice,
        mint(0).flags(mint_tf::TRUST_LINE),
        Ter::temINVALID_FLAG,
    );
    env.apply(&alice, mint(0).flags(0x0000_8000), Ter::temINVALID_FLAG);
    let fee = |f: u16, flags: u32| {
        let mut tx = mint(0).flags(flags);
        tx.0.set(sf().transfer_fee, StValue::UInt16(f));
        tx
    };
    env.apply(
        &alice,
        fee(50_001, mint_tf::TRANSFERABLE),
        Ter::temBAD_NFTOKEN_TRANSFER_FEE,
    );
    env.apply(&alice, fee(1, 0), Ter::temMALFORMED);
    env.apply(&alice, fee(50_000, mint_tf::TRANSFERABLE), Ter::tesSUCCESS);
    env.apply(&alice, mint(0).blob("URI", &[]), Ter::temMALFORMED);
    env.apply(&alice, mint(0).blob("URI", &[b'x'; 257]), Ter::temMALFORMED);
    env.apply(&alice, mint(0).blob("URI", &[b'x'; 256]), Ter::tesSUCCESS);
    env.apply(
        &alice,
        mint(0).account("Issuer", &alice.id),
        Ter::temMALFORMED,
    );
    // Minting for another issuer needs its NFTokenMinter.
    env.apply(
        &minter,
        mint(0).account("Issuer", &alice.id),
        Ter::tecNO_PERMISSION,
    );
    let ghost = Account::new("ghost");
    env.apply(
        &minter,
        mint(0).account("Issuer", &ghost.id),
        Ter::tecNO_ISSUER,
    );
    let set_minter = account_set()
        .u32(
            "SetFlag",
            ledgerd::engine::account_set::asf::AUTHORIZED_NFTOKEN_MINTER,
        )
        .account("NFTokenMinter", &minter.id);
    env.apply(&alice, set_minter, Ter::tesSUCCESS);
    let minted = u32_field(&env, &alice, sf().minted_nftokens).unwrap();
    let id = next_id(&env, &alice, 3, 0, 0);
    env.apply(
        &minter,
        mint(3).account("Issuer", &alice.id),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        u32_field(&env, &alice, sf().minted_nftokens),
        Some(minted + 1)
    );
    assert_eq!(nft::issuer(&id), alice.id);
    assert!(
        pages(&env, &minter)[0].1.contains(&id),
        "the minter holds it"
    );
    assert_eq!(u32_field(&env, &minter, sf().minted_nftokens), None);
}

#[test]
fn a_new_page_needs_the_reserve() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    // Reserve 10 XRP base + 2 XRP per owned entry (the harness's fees).
    env.fund(&alice, xrp(11));
    env.apply(&alice, mint(0), Ter::tecINSUFFICIENT_RESERVE);
    env.fund(&alice, xrp(2));
    env.apply(&alice, mint(0), Ter::tesSUCCESS);
    for _ in 0..31 {
        env.apply(&alice, mint(0), Ter::tesSUCCESS);
    }
    assert_eq!(env.owner_count(&alice), 1);
    env.apply(&alice, mint(0), Ter::tecINSUFFICIENT_RESERVE);
}

/// rippled NFTokenBurn_test `genPackedTokens`: 96 tokens whose stored taxons go
/// 0, 3, 2, 5, 4, 7 in sets of 16 fill exactly three pages of 32.
pub(crate) fn packed_tokens(env: &mut Env, alice: &Account) -> Vec<Hash256> {
    let mut ids = Vec::new();
    for i in 0..96u32 {
        let internal = (i / 16) + if i & 0b10000 != 0 { 2 } else { 0 };
        let serial = nft::serial(&next_id(env, alice, 0, 0, 0));
        let external = nft::ciphered_taxon(serial, internal);
        ids.push(mint_id(env, alice, external, 0, 0));
    }
    ids.sort();
    let p = pages(env, alice);
    assert_eq!(p.len(), 3, "three pages");
    assert!(p.iter().all(|(_, t)| t.len() == 32), "all full");
    assert_eq!(env.owner_count(alice), 3);
    ids
}

#[test]
fn burning_packed_pages_in_order_merges_and_relinks_them() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    // First to last.
    for id in packed_tokens(&mut env, &alice) {
        env.apply(&alice, burn(id), Ter::tesSUCCESS);
    }
    assert_eq!(nft_count(&env, &alice), 0);
    assert_eq!(env.owner_count(&alice), 0);
    // Last to first: emptying the last page moves the previous page into it.
    let mut ids = packed_tokens(&mut env, &alice);
    let p = pages(&env, &alice);
    let (first, middle) = (p[0].0, p[1].0);
    for _ in 0..31 {
        env.apply(&alice, burn(ids.pop().unwrap()), Ter::tesSUCCESS);
    }
    let last = env.read(&keylet::nftpage_max(&alice.id)).unwrap();
    assert_eq!(nft::page_tokens(&last).len(), 1);
    env.apply(&alice, burn(ids.pop().unwrap()), Ter::tesSUCCESS);
    let last = env.read(&keylet::nftpage_max(&alice.id)).unwrap();
    assert_eq!(last.h256_of(sf().previous_page_min), Some(first));
    assert_eq!(nft::page_tokens(&last).len(), 32);
    assert!(env.read(&middle).is_none(), "the middle page went");
    assert_eq!(env.owner_count(&alice), 2);
    while let Some(id) = ids.pop() {
        env.apply(&alice, burn(id), Ter::tesSUCCESS);
    }
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.read(&keylet::nftpage_max(&alice.id)).is_none());
    // The middle page emptied between two full ones.
    let mut ids = packed_tokens(&mut env, &alice);
    let p = pages(&env, &alice);
    let (first, middle) = (p[0].0, p[1].0);
    for id in ids.drain(32..64) {
        env.apply(&alice, burn(id), Ter::tesSUCCESS);
    }
    assert!(env.read(&middle).is_none());
    assert_eq!(env.owner_count(&alice), 2);
    let firstp = env.read(&first).unwrap();
    assert_eq!(
        firstp.h256_of(sf().next_page_min),
        Some(keylet::nftpage_max(&alice.id))
    );
    assert_eq!(firstp.h256_of(sf().previous_page_min), None);
    // Burning one token of the last page now merges nothing (32 + 31 > 32).
    env.apply(&alice, burn(ids.pop().unwrap()), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 2);
    // Down to 16 + 16: the two pages merge into the last one.
    for _ in 0..15 {
        env.apply(&alice, burn(ids.pop().unwrap()), Ter::tesSUCCESS);
    }
    assert_eq!(pages(&env, &alice).len(), 2);
    for _ in 0..16 {
        env.apply(&alice, burn(ids.remove(0)), Ter::tesSUCCESS);
    }
    let p = pages(&env, &alice);
    assert_eq!(p.len(), 1, "merged");
    assert_eq!(p[0].0, keylet::nftpage_max(&alice.id));
    assert_eq!(p[0].1.len(), 32);
    assert_eq!(env.owner_count(&alice), 1);
}

#[test]
fn many_tokens_split_into_pages_and_all_stay_findable() {
    let mut env = Env::new();
    let [alice, buyer] = env.funded(["alice", "buyer"]);
    let mut ids = Vec::new();
    for i in 0..130u32 {
        ids.push(mint_id(&mut env, &alice, i % 3, mint_tf::TRANSFERABLE, 0));
    }
    let p = pages(&env, &alice);
    assert_eq!(nft_count(&env, &alice), 130);
    assert_eq!(env.owner_count(&alice) as usize, p.len());
    assert!(p.len() >= 5, "at least 130 / 32 pages");
    for id in &ids {
        assert!(nft::find_token(&env.store.current().view, &alice.id, id).is_some());
    }
    // Every token can be offered (the ledger finds it).
    let offer = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(ids[77], xrp(1)), Ter::tesSUCCESS);
    env.apply(&buyer, accept_sell(offer), Ter::tesSUCCESS);
    assert_eq!(nft_count(&env, &alice), 129);
    assert_eq!(pages(&env, &buyer)[0].1, vec![ids[77]]);
    // Burn the rest in a scrambled order: pages merge back, the count follows.
    let mut rest: Vec<Hash256> = ids.iter().copied().filter(|i| *i != ids[77]).collect();
    rest.sort_by_key(|h| h.0[31] ^ h.0[30]);
    for (n, id) in rest.iter().enumerate() {
        env.apply(&alice, burn(*id), Ter::tesSUCCESS);
        let p = pages(&env, &alice);
        assert_eq!(env.owner_count(&alice) as usize, p.len(), "after {n} burns");
    }
    assert_eq!(env.owner_count(&alice), 0);
}

fn seeded(seed: &str) -> Account {
    let kp = KeyPair::from_seed(&Seed::from_base58(seed).expect("seed"), KeyType::Secp256k1)
        .expect("keys");
    let id = kp.account_id();
    Account {
        name: seed.to_string(),
        kp,
        id,
    }
}

/// rippled NFTokenDir_test: 33 seeds whose account IDs share their low 32 bits.
const SAME_LOW_BITS: [&str; 33] = [
    "sp6JS7f14BuwFY8Mw5FnqmbciPvH6",
    "sp6JS7f14BuwFY8Mw5MBGbyMSsXLp",
    "sp6JS7f14BuwFY8Mw5S4PnDyBdKKm",
    "sp6JS7f14BuwFY8Mw6kcXpM2enE35",
    "sp6JS7f14BuwFY8Mw6tuuSMMwyJ44",
    "sp6JS7f14BuwFY8Mw8E8JWLQ1P8pt",
    "sp6JS7f14BuwFY8Mw8WwdgWkCHhEx",
    "sp6JS7f14BuwFY8Mw8XDUYvU6oGhQ",
    "sp6JS7f14BuwFY8Mw8ceVGL4M1zLQ",
    "sp6JS7f14BuwFY8Mw8fdSwLCZWDFd",
    "sp6JS7f14BuwFY8Mw8zuF6Fg65i1E",
    "sp6JS7f14BuwFY8MwF2k7bihVfqes",
    "sp6JS7f14BuwFY8MwF6X24WXGn557",
    "sp6JS7f14BuwFY8MwFMpn7strjekg",
    "sp6JS7f14BuwFY8MwFSdy9sYVrwJs",
    "sp6JS7f14BuwFY8MwFdMcLy9UkrXn",
    "sp6JS7f14BuwFY8MwFdbwFm1AAboa",
    "sp6JS7f14BuwFY8MwFdr5AhKThVtU",
    "sp6JS7f14BuwFY8MwjFc3Q9YatvAw",
    "sp6JS7f14BuwFY8MwjRXcNs1ozEXn",
    "sp6JS7f14BuwFY8MwkQGUKL7v1FBt",
    "sp6JS7f14BuwFY8Mwkamsoxx1wECt",
    "sp6JS7f14BuwFY8Mwm3hus1dG6U8y",
    "sp6JS7f14BuwFY8Mwm589M8vMRpXF",
    "sp6JS7f14BuwFY8MwmJTRJ4Fqz1A3",
    "sp6JS7f14BuwFY8MwmRfy8fer4QbL",
    "sp6JS7f14BuwFY8MwmkkFx1HtgWRx",
    "sp6JS7f14BuwFY8MwmwP9JFdKa4PS",
    "sp6JS7f14BuwFY8MwoXWJLB3ciHfo",
    "sp6JS7f14BuwFY8MwoYc1gTtT2mWL",
    "sp6JS7f14BuwFY8MwogXtHH7FNVoo",
    "sp6JS7f14BuwFY8MwoqYoA9P8gf3r",
    "sp6JS7f14BuwFY8MwoujwMJofGnsA",
];

/// A ledger where each seeded account mints one transferable token and offers it for
/// nothing to one buyer: the ledger, the buyer, the tokens and the sell offers.
fn minted_for_one_buyer(seeds: &[&str]) -> (Env, Account, Vec<Hash256>, Vec<Hash256>) {
    let mut env = Env::new();
    let [buyer] = env.funded(["buyer"]);
    let accounts: Vec<Account> = seeds.iter().map(|s| seeded(s)).collect();
    for a in &accounts {
        env.fund(a, xrp(10_000));
    }
    env.close();
    let mut ids = Vec::new();
    let mut offers = Vec::new();
    for a in &accounts {
        ids.push(mint_id(&mut env, a, 0, mint_tf::TRANSFERABLE, 0));
        offers.push(next_offer(&env, a));
        let tx = sell_offer(*ids.last().unwrap(), xrp(0)).account("Destination", &buyer.id);
        env.apply(a, tx, Ter::tesSUCCESS);
    }
    (env, buyer, ids, offers)
}

#[test]
fn thirty_three_equivalent_tokens_do_not_fit_one_owner() {
    let (mut env, buyer, mut ids, mut offers) = minted_for_one_buyer(&SAME_LOW_BITS);
    assert!(ids.iter().all(|i| nft::low96(i) == nft::low96(&ids[0])));
    let overflow = offers.pop().unwrap();
    ids.pop();
    for o in &offers {
        env.apply(&buyer, accept_sell(*o), Ter::tesSUCCESS);
    }
    env.apply(
        &buyer,
        accept_sell(overflow),
        Ter::tecNO_SUITABLE_NFTOKEN_PAGE,
    );
    let p = pages(&env, &buyer);
    assert_eq!(p.len(), 1);
    let mut held = p[0].1.clone();
    held.sort();
    ids.sort();
    assert_eq!(held, ids);
    // Every one is findable: the buyer can offer each.
    for id in &ids {
        env.apply(&buyer, sell_offer(*id, xrp(100)), Ter::tesSUCCESS);
    }
    // fixNFTokenDirV1: another token (other low bits) still fits.
    env.apply(
        &buyer,
        mint(0).flags(mint_tf::TRANSFERABLE),
        Ter::tesSUCCESS,
    );
    assert_eq!(pages(&env, &buyer).len(), 2);
}

#[test]
fn direct_sales_pay_the_seller_and_the_issuer_its_fee() {
    let mut env = Env::new();
    let [issuer, alice, bob] = env.funded(["issuer", "alice", "bob"]);
    // 25% transfer fee.
    let id = mint_id(&mut env, &issuer, 0, mint_tf::TRANSFERABLE, 25_000);
    // The issuer sells to alice for 100 XRP: no fee to itself.
    let offer = next_offer(&env, &issuer);
    env.apply(&issuer, sell_offer(id, xrp(100)), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&issuer), 2, "page and offer");
    let (i0, a0) = (env.balance(&issuer), env.balance(&alice));
    env.apply(&alice, accept_sell(offer), Ter::tesSUCCESS);
    assert_eq!(env.balance(&issuer), i0 + 100_000_000);
    assert_eq!(env.balance(&alice), a0 - 100_000_000 - FEE);
    assert_eq!(env.owner_count(&issuer), 0, "page and offer gone");
    assert_eq!(env.owner_count(&alice), 1);
    // bob offers 50 XRP; alice accepts his buy offer: 12.5 XRP to the issuer.
    let offer = next_offer(&env, &bob);
    env.apply(&bob, buy_offer(id, &alice, xrp(50)), Ter::tesSUCCESS);
    assert!(env.read(&keylet::nft_buys(&id)).is_some());
    let (i0, a0, b0) = (env.balance(&issuer), env.balance(&alice), env.balance(&bob));
    env.apply(&alice, accept_buy(offer), Ter::tesSUCCESS);
    assert_eq!(env.balance(&issuer), i0 + 12_500_000);
    assert_eq!(env.balance(&alice), a0 + 37_500_000 - FEE);
    assert_eq!(env.balance(&bob), b0 - 50_000_000);
    assert!(
        env.read(&keylet::nft_buys(&id)).is_none(),
        "directory removed"
    );
    assert_eq!(nft_count(&env, &bob), 1);
    assert_eq!(env.owner_count(&bob), 1);
    assert_eq!(env.owner_count(&alice), 0);
}

#[test]
fn brokered_sales_pay_the_broker_then_the_issuer_then_the_seller() {
    let mut env = Env::new();
    let [issuer, alice, bob, broker] = env.funded(["issuer", "alice", "bob", "broker"]);
    let gw = Account::new("gw");
    env.fund(&gw, xrp(10_000));
    // 10% transfer fee, sold for USD.
    let id = mint_id(&mut env, &issuer, 0, mint_tf::TRANSFERABLE, 10_000);
    let o = next_offer(&env, &issuer);
    env.apply(
        &issuer,
        sell_offer(id, xrp(0)).account("Destination", &alice.id),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, accept_sell(o), Ter::tesSUCCESS);
    for who in [&issuer, &alice, &bob, &broker] {
        env.apply(who, trust(gw.iou("USD", 10_000)), Ter::tesSUCCESS);
    }
    env.apply(&gw, pay(&bob, gw.iou("USD", 1_000)), Ter::tesSUCCESS);
    let sell = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(id, gw.iou("USD", 100)), Ter::tesSUCCESS);
    let buy = next_offer(&env, &bob);
    env.apply(
        &bob,
        buy_offer(id, &alice, gw.iou("USD", 300)),
        Ter::tesSUCCESS,
    );
    let brokered = |fee: Option<ledgerd::protocol::amount::Amount>| {
        let mut tx = Tx::new("NFTokenAcceptOffer")
            .h256("NFTokenBuyOffer", buy)
            .h256("NFTokenSellOffer", sell);
        if let Some(f) = fee {
            tx = tx.amount("NFTokenBrokerFee", f);
        }
        tx
    };
    // The fee must leave the seller what it asks.
    env.apply(
        &broker,
        brokered(Some(gw.iou("USD", 201))),
        Ter::tecINSUFFICIENT_PAYMENT,
    );
    env.apply(
        &broker,
        brokered(Some(xrp(1))),
        Ter::tecNFTOKEN_BUY_SELL_MISMATCH,
    );
    env.apply(
        &alice,
        brokered(None),
        Ter::tecCANT_ACCEPT_OWN_NFTOKEN_OFFER,
    );
    env.apply(&broker, brokered(Some(gw.iou("USD", 100))), Ter::tesSUCCESS);
    // 300 paid: 100 to the broker, 10% of 200 = 20 to the issuer, 180 to alice.
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("700"));
    assert_eq!(env.iou_balance(&broker, &gw, "USD"), val("100"));
    assert_eq!(env.iou_balance(&issuer, &gw, "USD"), val("20"));
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("180"));
    assert_eq!(nft_count(&env, &bob), 1);
    assert_eq!(nft_count(&env, &alice), 0);
    assert!(env.read(&sell).is_none() && env.read(&buy).is_none());
}

#[test]
fn offer_errors_follow_rippled() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let fixed = mint_id(&mut env, &alice, 0, 0, 0);
    let xrp_only = mint_id(
        &mut env,
        &alice,
        0,
        mint_tf::ONLY_XRP | mint_tf::TRANSFERABLE,
        0,
    );
    // Preflight.
    env.apply(
        &alice,
        sell_offer(xrp_only, alice.iou("USD", 1)),
        Ter::temBAD_AMOUNT,
    );
    env.apply(&bob, buy_offer(fixed, &alice, xrp(0)), Ter::temBAD_AMOUNT);
    env.apply(
        &alice,
        sell_offer(fixed, xrp(1)).account("Owner", &bob.id),
        Ter::temMALFORMED,
    );
    env.apply(&bob, buy_offer(fixed, &bob, xrp(1)), Ter::temMALFORMED);
    env.apply(
        &alice,
        sell_offer(fixed, xrp(1)).account("Destination", &alice.id),
        Ter::temMALFORMED,
    );
    env.apply(
        &alice,
        sell_offer(fixed, xrp(1)).u32("Expiration", 0),
        Ter::temBAD_EXPIRATION,
    );
    env.apply(
        &alice,
        sell_offer(fixed, xrp(1)).flags(0x0002),
        Ter::temINVALID_FLAG,
    );
    // Preclaim.
    env.apply(&bob, sell_offer(fixed, xrp(1)), Ter::tecNO_ENTRY);
    env.apply(&bob, buy_offer(fixed, &carol, xrp(1)), Ter::tecNO_ENTRY);
    env.apply(
        &alice,
        sell_offer(fixed, xrp(1)).u32("Expiration", 1),
        Ter::tecEXPIRED,
    );
    let ghost = Account::new("ghost");
    env.apply(
        &alice,
        sell_offer(fixed, xrp(1)).account("Destination", &ghost.id),
        Ter::tecNO_DST,
    );
    // Not transferable: only the issuer trades it.
    let o = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(fixed, xrp(1)), Ter::tesSUCCESS);
    env.apply(&bob, accept_sell(o), Ter::tesSUCCESS);
    env.apply(
        &bob,
        sell_offer(fixed, xrp(1)),
        Ter::tefNFTOKEN_IS_NOT_TRANSFERABLE,
    );
    env.apply(
        &carol,
        buy_offer(fixed, &bob, xrp(1)),
        Ter::tefNFTOKEN_IS_NOT_TRANSFERABLE,
    );
    // Incoming offers refused.
    env.apply(
        &carol,
        fset(ledgerd::engine::account_set::asf::DISALLOW_INCOMING_NFTOKEN_OFFER),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        sell_offer(xrp_only, xrp(1)).account("Destination", &carol.id),
        Ter::tecNO_PERMISSION,
    );
    // A buyer without funds.
    env.apply(
        &bob,
        buy_offer(xrp_only, &alice, xrp(1_000_000)),
        Ter::tesSUCCESS,
    );
    let poor = Account::new("poor");
    env.fund(&poor, xrp(20));
    env.apply(
        &poor,
        buy_offer(xrp_only, &alice, alice.iou("USD", 5)),
        Ter::temBAD_AMOUNT,
    );
    // Accept errors.
    let sell = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(xrp_only, xrp(5)), Ter::tesSUCCESS);
    let buy = next_offer(&env, &bob);
    env.apply(&bob, buy_offer(xrp_only, &alice, xrp(4)), Ter::tesSUCCESS);
    env.apply(
        &alice,
        accept_sell(sell),
        Ter::tecCANT_ACCEPT_OWN_NFTOKEN_OFFER,
    );
    env.apply(
        &alice,
        accept_sell(buy),
        Ter::tecNFTOKEN_OFFER_TYPE_MISMATCH,
    );
    env.apply(
        &alice,
        accept_buy(sell),
        Ter::tecNFTOKEN_OFFER_TYPE_MISMATCH,
    );
    env.apply(
        &alice,
        accept_sell(Hash256([9; 32])),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(&alice, accept_sell(Hash256::ZERO), Ter::tecOBJECT_NOT_FOUND);
    env.apply(&carol, accept_buy(buy), Ter::tecNO_PERMISSION);
    let both = Tx::new("NFTokenAcceptOffer")
        .h256("NFTokenBuyOffer", buy)
        .h256("NFTokenSellOffer", sell);
    env.apply(&carol, both, Ter::tecINSUFFICIENT_PAYMENT);
    env.apply(&carol, Tx::new("NFTokenAcceptOffer"), Ter::temMALFORMED);
    let fee_direct = accept_sell(sell).amount("NFTokenBrokerFee", xrp(1));
    env.apply(&carol, fee_direct, Ter::temMALFORMED);
    // The buyer spent its XRP: the sale fails.
    let rich_buy = next_offer(&env, &carol);
    env.apply(
        &carol,
        buy_offer(xrp_only, &alice, xrp(9_000)),
        Ter::tesSUCCESS,
    );
    env.apply(&carol, pay(&bob, xrp(5_000)), Ter::tesSUCCESS);
    env.apply(&alice, accept_buy(rich_buy), Ter::tecINSUFFICIENT_FUNDS);
}

#[test]
fn cancel_offers_by_owner_destination_or_after_expiry() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    let a = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(id, xrp(1)), Ter::tesSUCCESS);
    let b = next_offer(&env, &alice);
    env.apply(
        &alice,
        sell_offer(id, xrp(2)).account("Destination", &bob.id),
        Ter::tesSUCCESS,
    );
    let c = next_offer(&env, &alice);
    let soon = env.parent_close() + 20;
    env.apply(
        &alice,
        sell_offer(id, xrp(3)).u32("Expiration", soon),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&alice), 4);
    env.apply(&carol, cancel(&[]), Ter::temMALFORMED);
    env.apply(&carol, cancel(&[a, a]), Ter::temMALFORMED);
    env.apply(&carol, cancel(&[a]), Ter::tecNO_PERMISSION);
    env.apply(
        &carol,
        cancel(&[keylet::account(&alice.id)]),
        Ter::tecNO_PERMISSION,
    );
    env.apply(&bob, cancel(&[b]), Ter::tesSUCCESS);
    env.apply(&carol, cancel(&[c]), Ter::tecNO_PERMISSION);
    env.close_after(30);
    env.close_after(30);
    env.apply(&carol, cancel(&[c, b]), Ter::tesSUCCESS);
    assert!(env.read(&c).is_none());
    env.apply(&alice, cancel(&[a]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    assert!(env.read(&keylet::nft_sells(&id)).is_none());
}

#[test]
fn burning_removes_the_tokens_offers() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    for _ in 0..3 {
        env.apply(&alice, sell_offer(id, xrp(1)), Ter::tesSUCCESS);
        env.apply(&bob, buy_offer(id, &alice, xrp(1)), Ter::tesSUCCESS);
    }
    assert_eq!(env.owner_count(&bob), 3);
    env.apply(&alice, burn(id), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 0);
    assert_eq!(env.owner_count(&bob), 0);
    assert!(env.read(&keylet::nft_sells(&id)).is_none());
    assert!(env.read(&keylet::nft_buys(&id)).is_none());
}

#[test]
fn mint_with_an_offer_and_modify_the_uri() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = next_id(&env, &alice, 0, mint_tf::TRANSFERABLE | mint_tf::MUTABLE, 0);
    let offer = next_offer(&env, &alice);
    let tx = mint(0)
        .flags(mint_tf::TRANSFERABLE | mint_tf::MUTABLE)
        .amount("Amount", xrp(5))
        .account("Destination", &bob.id)
        .blob("URI", b"ipfs://a");
    env.apply(&alice, tx, Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 2);
    let o = env.read(&offer).expect("offer");
    assert_eq!(o.h256_of(sf().nftoken_id), Some(id));
    env.apply(
        &alice,
        mint(0).account("Destination", &bob.id),
        Ter::temMALFORMED,
    );
    // Modify: only a mutable token, by its issuer.
    let modify = |uri: Option<&[u8]>| {
        let mut tx = Tx::new("NFTokenModify").h256("NFTokenID", id);
        if let Some(u) = uri {
            tx = tx.blob("URI", u);
        }
        tx
    };
    env.apply(
        &bob,
        modify(Some(b"x")).account("Owner", &alice.id),
        Ter::tecNO_PERMISSION,
    );
    env.apply(&alice, modify(Some(b"ipfs://b")), Ter::tesSUCCESS);
    let t = nft::find_token(&env.store.current().view, &alice.id, &id).unwrap();
    assert_eq!(t.blob_of(sf().uri), Some(&b"ipfs://b"[..]));
    env.apply(&alice, modify(None), Ter::tesSUCCESS);
    let t = nft::find_token(&env.store.current().view, &alice.id, &id).unwrap();
    assert!(t.blob_of(sf().uri).is_none());
    env.apply(&bob, accept_sell(offer), Ter::tesSUCCESS);
    env.apply(
        &alice,
        modify(Some(b"c")).account("Owner", &bob.id),
        Ter::tesSUCCESS,
    );
    let fixed = mint_id(&mut env, &alice, 0, 0, 0);
    let m = Tx::new("NFTokenModify")
        .h256("NFTokenID", fixed)
        .blob("URI", b"z");
    env.apply(&alice, m, Ter::tecNO_PERMISSION);
}

#[test]
fn an_account_with_tokens_cannot_be_deleted() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = mint_id(&mut env, &alice, 0, 0, 0);
    for _ in 0..260 {
        env.close();
    }
    env.apply(&alice, account_delete(&bob), Ter::tecHAS_OBLIGATIONS);
    env.apply(&alice, burn(id), Ter::tesSUCCESS);
    env.apply(&alice, account_delete(&bob), Ter::tesSUCCESS);
    // An issuer whose minter minted 30 tokens waits FirstNFTokenSequence + 30 + 256.
    let carol = Account::new("carol");
    env.fund(&carol, xrp(1_000));
    let set_minter = account_set()
        .u32(
            "SetFlag",
            ledgerd::engine::account_set::asf::AUTHORIZED_NFTOKEN_MINTER,
        )
        .account("NFTokenMinter", &bob.id);
    env.apply(&carol, set_minter, Ter::tesSUCCESS);
    let first = env.seq(&carol);
    for _ in 0..30 {
        let id = next_id(&env, &carol, 0, 0, 0);
        env.apply(&bob, mint(0).account("Issuer", &carol.id), Ter::tesSUCCESS);
        env.apply(&bob, burn(id), Ter::tesSUCCESS);
    }
    assert_eq!(
        u32_field(&env, &carol, sf().first_nftoken_sequence),
        Some(first)
    );
    while env.store.current().view.info().seq < first + 270 {
        env.close();
    }
    env.apply(&carol, account_delete(&bob), Ter::tecTOO_SOON);
    while env.store.current().view.info().seq < first + 30 + 256 {
        env.close();
    }
    env.apply(&carol, account_delete(&bob), Ter::tesSUCCESS);
}

#[test]
fn offers_in_an_authorized_currency_need_authorized_lines() {
    // fixEnforceNFTokenTrustlineV2: whoever is to receive the currency must hold an
    // authorized line when its issuer requires authorization.
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gw", "alice", "bob"]);
    env.gateway(&gw);
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    env.apply(&alice, sell_offer(id, gw.iou("USD", 10)), Ter::tecNO_LINE);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&alice, sell_offer(id, gw.iou("USD", 10)), Ter::tecNO_AUTH);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    let sell = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(id, gw.iou("USD", 10)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&bob, "USD"), Ter::tesSUCCESS);
    env.apply(&gw, pay(&bob, gw.iou("USD", 50)), Ter::tesSUCCESS);
    env.apply(&bob, accept_sell(sell), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("10"));
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("40"));
    assert_eq!(nft_count(&env, &bob), 1);
}

/// rippled NFToken_test `testMintTransferFee`: the issuer's cut of sales in XAU with a
/// transfer fee of 1 basis point and of 50%, none when the issuer is a party; and the
/// rounding of a 1 basis point cut of a sale in drops.
#[test]
fn transfer_fees_match_rippleds_numbers() {
    let mut env = Env::new();
    let [gw, alice, becky, carol, minter] = env.funded(["gw", "alice", "becky", "carol", "minter"]);
    for who in [&alice, &becky, &carol, &minter] {
        env.apply(who, trust(gw.iou("XAU", 2_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(who, gw.iou("XAU", 1_000)), Ter::tesSUCCESS);
    }
    let xau = |v: &str| gw.iou_s("XAU", v);
    let bal = |env: &Env, who: &Account| env.iou_balance(who, &gw, "XAU");
    let buy = |env: &mut Env, buyer: &Account, id: Hash256, owner: &Account, amt| {
        let o = next_offer(env, buyer);
        env.apply(buyer, buy_offer(id, owner, amt), Ter::tesSUCCESS);
        env.apply(owner, accept_buy(o), Ter::tesSUCCESS);
    };
    let sell = |env: &mut Env, seller: &Account, id: Hash256, buyer: &Account, amt| {
        let o = next_offer(env, seller);
        env.apply(seller, sell_offer(id, amt), Ter::tesSUCCESS);
        env.apply(buyer, accept_sell(o), Ter::tesSUCCESS);
    };
    // 1 basis point.
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 1);
    buy(&mut env, &becky, id, &alice, xau("10"));
    assert_eq!(
        (bal(&env, &alice), bal(&env, &becky)),
        (val("1010"), val("990"))
    );
    sell(&mut env, &becky, id, &carol, xau("10"));
    assert_eq!(bal(&env, &alice), val("1010.0001"));
    assert_eq!(bal(&env, &becky), val("999.9999"));
    assert_eq!(bal(&env, &carol), val("990"));
    buy(&mut env, &minter, id, &carol, xau("10"));
    assert_eq!(bal(&env, &alice), val("1010.0002"));
    assert_eq!(bal(&env, &carol), val("999.9999"));
    assert_eq!(bal(&env, &minter), val("990"));
    sell(&mut env, &minter, id, &alice, xau("10"));
    assert_eq!(bal(&env, &alice), val("1000.0002"));
    assert_eq!(bal(&env, &minter), val("1000"));
    env.apply(&alice, burn(id), Ter::tesSUCCESS);
    // 50%.
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 50_000);
    buy(&mut env, &becky, id, &alice, xau("10"));
    assert_eq!(bal(&env, &alice), val("1010.0002"));
    assert_eq!(bal(&env, &becky), val("989.9999"));
    sell(&mut env, &becky, id, &minter, xau("100"));
    assert_eq!(bal(&env, &alice), val("1060.0002"));
    assert_eq!(bal(&env, &becky), val("1039.9999"));
    assert_eq!(bal(&env, &minter), val("900"));
    buy(&mut env, &carol, id, &minter, xau("10"));
    assert_eq!(bal(&env, &alice), val("1065.0002"));
    assert_eq!(bal(&env, &minter), val("905"));
    assert_eq!(bal(&env, &carol), val("989.9999"));
    sell(&mut env, &carol, id, &alice, xau("10"));
    assert_eq!(bal(&env, &alice), val("1055.0002"));
    assert_eq!(bal(&env, &carol), val("999.9999"));
    env.apply(&alice, burn(id), Ter::tesSUCCESS);
    // Drops: half a drop of fee rounds to nothing, a little more to one drop.
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 1);
    buy(&mut env, &minter, id, &alice, drops(1_000_000));
    let (a0, c0) = (env.balance(&alice), env.balance(&carol));
    let m0 = env.balance(&minter);
    sell(&mut env, &minter, id, &carol, drops(50_000));
    assert_eq!(env.balance(&alice), a0);
    assert_eq!(env.balance(&minter), m0 + 50_000 - FEE);
    assert_eq!(env.balance(&carol), c0 - 50_000 - FEE);
    let (b0, c0) = (env.balance(&becky), env.balance(&carol));
    buy(&mut env, &becky, id, &carol, drops(50_001));
    assert_eq!(env.balance(&alice), a0 + 1);
    assert_eq!(env.balance(&carol), c0 + 50_001 - 1 - FEE);
    assert_eq!(env.balance(&becky), b0 - 50_001 - FEE);
}

/// rippled NFToken_test `testBrokeredAccept` (XRP cases): a minter sells for nothing, a
/// buyer bids 1 XRP, a broker matches them with or without a fee, with or without a 50%
/// transfer fee for the issuer (whose minter minted the token).
#[test]
fn brokered_xrp_sales_split_as_rippled() {
    let mut env = Env::new();
    let [issuer, minter, buyer, broker] = env.funded(["issuer", "minter", "buyer", "broker"]);
    let set_minter = account_set()
        .u32(
            "SetFlag",
            ledgerd::engine::account_set::asf::AUTHORIZED_NFTOKEN_MINTER,
        )
        .account("NFTokenMinter", &minter.id);
    env.apply(&issuer, set_minter, Ter::tesSUCCESS);
    // (transfer fee, broker fee) -> (minter, issuer, broker) gains in drops.
    let cases: [(u16, i64, i64, i64, i64); 4] = [
        (0, 0, 1_000_000, 0, 0),
        (0, 500_000, 500_000, 0, 500_000),
        (50_000, 0, 500_000, 500_000, 0),
        (50_000, 500_000, 250_000, 250_000, 500_000),
    ];
    for (fee, broker_fee, to_minter, to_issuer, to_broker) in cases {
        let id = next_id(&env, &issuer, 0, mint_tf::TRANSFERABLE, fee);
        let mut tx = mint(0)
            .account("Issuer", &issuer.id)
            .flags(mint_tf::TRANSFERABLE);
        tx.0.set(sf().transfer_fee, StValue::UInt16(fee));
        env.apply(&minter, tx, Ter::tesSUCCESS);
        let sell = next_offer(&env, &minter);
        env.apply(&minter, sell_offer(id, xrp(0)), Ter::tesSUCCESS);
        let buy = next_offer(&env, &buyer);
        env.apply(&buyer, buy_offer(id, &minter, xrp(1)), Ter::tesSUCCESS);
        let brokered = |f: i64| {
            let tx = Tx::new("NFTokenAcceptOffer")
                .h256("NFTokenBuyOffer", buy)
                .h256("NFTokenSellOffer", sell);
            if f > 0 {
                tx.amount("NFTokenBrokerFee", drops(f))
            } else {
                tx
            }
        };
        env.apply(&broker, brokered(1_100_000), Ter::tecINSUFFICIENT_PAYMENT);
        let (m, b, k, i) = (
            env.balance(&minter),
            env.balance(&buyer),
            env.balance(&broker),
            env.balance(&issuer),
        );
        env.apply(&broker, brokered(broker_fee), Ter::tesSUCCESS);
        assert_eq!(
            env.balance(&minter),
            m + to_minter,
            "fee {fee} broker {broker_fee}"
        );
        assert_eq!(env.balance(&buyer), b - 1_000_000);
        assert_eq!(env.balance(&broker), k + to_broker - FEE);
        assert_eq!(env.balance(&issuer), i + to_issuer);
        env.apply(&buyer, burn(id), Ter::tesSUCCESS);
        for who in [&minter, &buyer, &broker] {
            assert_eq!(env.owner_count(who), 0);
        }
    }
}

#[test]
fn tickets_and_account_deletion() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    // A first mint with a ticket: FirstNFTokenSequence is the Sequence as it stands.
    let t = env.seq(&alice) + 1;
    env.apply(&alice, ticket_create(2), Ter::tesSUCCESS);
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        with_ticket(mint(0).flags(mint_tf::TRANSFERABLE), t),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        u32_field(&env, &alice, sf().first_nftoken_sequence),
        Some(seq)
    );
    let id = pages(&env, &alice)[0].1[0];
    assert_eq!(nft::serial(&id), seq);
    // An offer placed with a ticket is keyed by the ticket.
    let offer = keylet::nftoffer(&alice.id, t + 1);
    env.apply(
        &alice,
        with_ticket(sell_offer(id, xrp(1)), t + 1),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&offer).is_some());
    // bob's buy offer goes with his account.
    let bob_offer = next_offer(&env, &bob);
    env.apply(&bob, buy_offer(id, &alice, xrp(5)), Ter::tesSUCCESS);
    for _ in 0..260 {
        env.close();
    }
    env.apply(&bob, account_delete(&carol), Ter::tesSUCCESS);
    assert!(env.read(&bob_offer).is_none());
    assert!(env.read(&keylet::nft_buys(&id)).is_none());
    assert!(env.root(&bob).is_none());
}

#[test]
fn a_globally_frozen_currency_cannot_price_an_offer() {
    // rippled isFrozen: an issuer's global freeze holds for its own offers too, before
    // fixCleanup3_4_0 (with it the issuer may: rules_cleanup340_nft.rs); a holder's
    // offer is frozen either way.
    let mut env =
        crate::rules::env_without(&[ledgerd::protocol::features::Feature::FixCleanup3_4_0]);
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    env.apply(
        &alice,
        fset(ledgerd::engine::account_set::asf::GLOBAL_FREEZE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, sell_offer(id, alice.iou("USD", 5)), Ter::tecFROZEN);
    env.apply(
        &bob,
        buy_offer(id, &alice, alice.iou("USD", 5)),
        Ter::tecFROZEN,
    );
    env.apply(&alice, sell_offer(id, xrp(5)), Ter::tesSUCCESS);
}

/// rippled NFTokenDir_test: 33 seeds whose account IDs share their low 32 bits
/// (0x115d0525).
const SAME_LOW_BITS_B: [&str; 33] = [
    "sp6JS7f14BuwFY8Mw56vZeiBuhePx",
    "sp6JS7f14BuwFY8Mw5BodF9tGuTUe",
    "sp6JS7f14BuwFY8Mw5EnhC1cg84J7",
    "sp6JS7f14BuwFY8Mw5P913Cunr2BK",
    "sp6JS7f14BuwFY8Mw5Pru7eLo1XzT",
    "sp6JS7f14BuwFY8Mw61SLUC8UX2m8",
    "sp6JS7f14BuwFY8Mw6AsBF9TpeMpq",
    "sp6JS7f14BuwFY8Mw84XqrBZkU2vE",
    "sp6JS7f14BuwFY8Mw89oSU6dBk3KB",
    "sp6JS7f14BuwFY8Mw89qUKCyDmyzj",
    "sp6JS7f14BuwFY8Mw8GfqQ9VRZ8tm",
    "sp6JS7f14BuwFY8Mw8LtW3VqrqMks",
    "sp6JS7f14BuwFY8Mw8ZrAkJc2sHew",
    "sp6JS7f14BuwFY8Mw8jpkYSNrD3ah",
    "sp6JS7f14BuwFY8MwF2mshd786m3V",
    "sp6JS7f14BuwFY8MwFHfXq9x5NbPY",
    "sp6JS7f14BuwFY8MwFrjWq5LAB8NT",
    "sp6JS7f14BuwFY8Mwj4asgSh6hQZd",
    "sp6JS7f14BuwFY8Mwj7ipFfqBSRrE",
    "sp6JS7f14BuwFY8MwjHqtcvGav8uW",
    "sp6JS7f14BuwFY8MwjLp4sk5fmzki",
    "sp6JS7f14BuwFY8MwjioHuYb3Ytkx",
    "sp6JS7f14BuwFY8MwkRjHPXWi7fGN",
    "sp6JS7f14BuwFY8MwkdVdPV3LjNN1",
    "sp6JS7f14BuwFY8MwkxUtVY5AXZFk",
    "sp6JS7f14BuwFY8Mwm4jQzdfTbY9F",
    "sp6JS7f14BuwFY8MwmCucYAqNp4iF",
    "sp6JS7f14BuwFY8Mwo2bgdFtxBzpF",
    "sp6JS7f14BuwFY8MwoGwD7v4U6qBh",
    "sp6JS7f14BuwFY8MwoUczqFADMoXi",
    "sp6JS7f14BuwFY8MwoY1xZeGd3gAr",
    "sp6JS7f14BuwFY8MwomVCbfkv4kYZ",
    "sp6JS7f14BuwFY8MwoqbrPSr4z13F",
];

/// rippled NFTokenDir_test `testConsecutivePacking`: 33 accounts with equal low 32 bits
/// each mint 7 consecutive tokens whose stored taxons make seven groups of 33 tokens
/// with identical low 96 bits; one buyer takes 32 of each group (filling the middle and
/// the ends first), the 33rd of every group finds no page, and every token taken stays
/// findable.
#[test]
fn consecutive_packing_of_seven_equivalent_groups() {
    let mut env = Env::new();
    let [buyer] = env.funded(["buyer"]);
    let accounts: Vec<Account> = SAME_LOW_BITS_B.iter().map(|s| seeded(s)).collect();
    for a in &accounts {
        env.fund(a, xrp(10_000));
    }
    env.close();
    let mut ids: Vec<Vec<Hash256>> = vec![Vec::new(); 7];
    let mut offers: Vec<Vec<Hash256>> = vec![Vec::new(); 7];
    for i in 0..7u32 {
        for a in &accounts {
            let taxon = nft::ciphered_taxon(i, 0);
            let id = mint_id(&mut env, a, taxon, mint_tf::TRANSFERABLE, 0);
            ids[i as usize].push(id);
            offers[i as usize].push(next_offer(&env, a));
            let tx = sell_offer(id, xrp(0)).account("Destination", &buyer.id);
            env.apply(a, tx, Ter::tesSUCCESS);
        }
    }
    for group in &ids {
        assert!(group.iter().all(|i| nft::low96(i) == nft::low96(&group[0])));
    }
    let overflow: Vec<Hash256> = offers.iter_mut().map(|o| o.pop().unwrap()).collect();
    for g in &mut ids {
        g.pop();
    }
    for i in [3usize, 6, 0, 1, 2, 5, 4] {
        for o in &offers[i] {
            env.apply(&buyer, accept_sell(*o), Ter::tesSUCCESS);
        }
    }
    for o in overflow {
        env.apply(&buyer, accept_sell(o), Ter::tecNO_SUITABLE_NFTOKEN_PAGE);
    }
    let p = pages(&env, &buyer);
    assert_eq!(nft_count(&env, &buyer), 7 * 32);
    assert_eq!(p.len(), 7, "each group fills a page of its own");
    assert!(p.iter().all(|(_, t)| t.len() == 32));
    for id in ids.iter().flatten() {
        env.apply(&buyer, sell_offer(*id, xrp(100)), Ter::tesSUCCESS);
    }
    assert_eq!(env.owner_count(&buyer), 7 + 224);
}

/// rippled NFTokenDir_test `exerciseLopsided` / `exerciseFixNFTokenDirV1`: 33 accounts
/// mint one token each and give it to one buyer; every accept succeeds (the last one
/// splits a full page around runs of equivalent tokens) and every token stays findable.
fn exercise_split(seeds: &[&str]) {
    let (mut env, buyer, mut ids, offers) = minted_for_one_buyer(seeds);
    for o in &offers {
        env.apply(&buyer, accept_sell(*o), Ter::tesSUCCESS);
    }
    let p = pages(&env, &buyer);
    assert_eq!(p.len(), 2, "the 33rd token split the page");
    for (_, tokens) in &p {
        // Equivalent tokens never straddle a page boundary.
        for (_, other) in p.iter().filter(|(_, t)| t != tokens) {
            assert!(tokens
                .iter()
                .all(|a| other.iter().all(|b| nft::low96(a) != nft::low96(b))));
        }
    }
    let mut held: Vec<Hash256> = p.into_iter().flat_map(|(_, t)| t).collect();
    held.sort();
    ids.sort();
    assert_eq!(held, ids);
    for id in &ids {
        let o = next_offer(&env, &buyer);
        env.apply(&buyer, sell_offer(*id, xrp(100)), Ter::tesSUCCESS);
        env.apply(&buyer, cancel(&[o]), Ter::tesSUCCESS);
    }
}

#[test]
fn lopsided_splits_keep_equivalent_tokens_together() {
    let common = [
        "sp6JS7f14BuwFY8Mw5p3b8jjQBBTK",
        "sp6JS7f14BuwFY8Mw6F7X3EiGKazu",
        "sp6JS7f14BuwFY8Mw6FxjntJJfKXq",
        "sp6JS7f14BuwFY8Mw6eSF1ydEozJg",
        "sp6JS7f14BuwFY8Mw6koPB91um2ej",
        "sp6JS7f14BuwFY8Mw6m6D64iwquSe",
        "sp6JS7f14BuwFY8Mw5rC43sN4adC2",
        "sp6JS7f14BuwFY8Mw65L9DDQqgebz",
        "sp6JS7f14BuwFY8Mw65nKvU8pPQNn",
        "sp6JS7f14BuwFY8Mw6bxZLyTrdipw",
        "sp6JS7f14BuwFY8Mw6d5abucntSoX",
        "sp6JS7f14BuwFY8Mw6qXK5awrRRP8",
        "sp6JS7f14BuwFY8Mw66EBtMxoMcCa",
        "sp6JS7f14BuwFY8Mw66dGfE9jVfGv",
        "sp6JS7f14BuwFY8Mw6APdZa7PH566",
        "sp6JS7f14BuwFY8Mw6C3QX5CZyET5",
        "sp6JS7f14BuwFY8Mw6CSysFf8GvaR",
        "sp6JS7f14BuwFY8Mw6c7QSDmoAeRV",
        "sp6JS7f14BuwFY8Mw6mvonveaZhW7",
        "sp6JS7f14BuwFY8Mw6vtHHG7dYcXi",
        "sp6JS7f14BuwFY8Mw66yppUNxESaw",
        "sp6JS7f14BuwFY8Mw6ATYQvobXiDT",
        "sp6JS7f14BuwFY8Mw6bis8D1Wa9Uy",
        "sp6JS7f14BuwFY8Mw6cTiGCWA8Wfa",
        "sp6JS7f14BuwFY8Mw6eAy2fpXmyYf",
        "sp6JS7f14BuwFY8Mw6icn58TRs8YG",
        "sp6JS7f14BuwFY8Mw68tj2eQEWoJt",
        "sp6JS7f14BuwFY8Mw6AjnAinNnMHT",
        "sp6JS7f14BuwFY8Mw6CKDUwB4LrhL",
        "sp6JS7f14BuwFY8Mw6d2yPszEFA6J",
        "sp6JS7f14BuwFY8Mw6jcBQBH3PfnB",
        "sp6JS7f14BuwFY8Mw6qxx19KSnN1w",
    ];
    // The 33rd goes to the upper page, then to the lower one.
    for last in [
        "sp6JS7f14BuwFY8Mw6ut1hFrqWoY5",
        "sp6JS7f14BuwFY8Mw6xCigaMwC6Dp",
    ] {
        let mut seeds = common.to_vec();
        seeds.push(last);
        exercise_split(&seeds);
    }
}

#[test]
fn seventeen_equivalent_tokens_split_as_fix_nftoken_dir_v1() {
    let lo16 = [
        "sp6JS7f14BuwFY8Mw5EYu5z86hKDL",
        "sp6JS7f14BuwFY8Mw5PUAMwc5ygd7",
        "sp6JS7f14BuwFY8Mw5R3xUBcLSeTs",
        "sp6JS7f14BuwFY8Mw5W6oS5sdC3oF",
        "sp6JS7f14BuwFY8Mw5pYc3D9iuLcw",
        "sp6JS7f14BuwFY8Mw5pfGVnhcdp3b",
        "sp6JS7f14BuwFY8Mw6jS6RdEqXqrN",
        "sp6JS7f14BuwFY8Mw6krt6AKbvRXW",
        "sp6JS7f14BuwFY8Mw6mnVBQq7cAN2",
        "sp6JS7f14BuwFY8Mw8ECJxPjmkufQ",
        "sp6JS7f14BuwFY8Mw8asgzcceGWYm",
        "sp6JS7f14BuwFY8MwF6J3FXnPCgL8",
        "sp6JS7f14BuwFY8MwFEud2w5czv5q",
        "sp6JS7f14BuwFY8MwFNxKVqJnx8P5",
        "sp6JS7f14BuwFY8MwFnTCXg3eRidL",
        "sp6JS7f14BuwFY8Mwj47hv1vrDge6",
    ];
    let hi16 = [
        "sp6JS7f14BuwFY8MwjYa5yLkgCLuT",
        "sp6JS7f14BuwFY8MwjenxuJ3TH2Bc",
        "sp6JS7f14BuwFY8MwjriN7Ui11NzB",
        "sp6JS7f14BuwFY8Mwk3AuoJNSEo34",
        "sp6JS7f14BuwFY8MwkT36hnRv8hTo",
        "sp6JS7f14BuwFY8MwkTQixEXfi1Cr",
        "sp6JS7f14BuwFY8MwkYJaZM1yTJBF",
        "sp6JS7f14BuwFY8Mwkc4k1uo85qp2",
        "sp6JS7f14BuwFY8Mwkf7cFhF1uuxx",
        "sp6JS7f14BuwFY8MwmCK2un99wb4e",
        "sp6JS7f14BuwFY8MwmETztNHYu2Bx",
        "sp6JS7f14BuwFY8MwmJws9UwRASfR",
        "sp6JS7f14BuwFY8MwoH5PQkGK8tEb",
        "sp6JS7f14BuwFY8MwoVXtP2yCzjJV",
        "sp6JS7f14BuwFY8MwobxRXA9vsTeX",
        "sp6JS7f14BuwFY8Mwos3pc5Gb3ihU",
    ];
    // Seventeen high: 16 low, then 17 high (the extra one first).
    let mut hi = lo16.to_vec();
    hi.push("sp6JS7f14BuwFY8MwjJCwYr9zSfAv");
    hi.extend(hi16);
    exercise_split(&hi);
    // Seventeen low: 17 low (the extra one last), then 16 high.
    let mut lo = lo16.to_vec();
    lo.push("sp6JS7f14BuwFY8Mwj6TYekeeyukh");
    lo.extend(hi16);
    exercise_split(&lo);
}

/// rippled NFTokenDir_test `testConsecutiveNFTs`: 100 tokens of one issuer, all findable
/// and all taken by a buyer in reverse order.
#[test]
fn one_hundred_consecutive_tokens() {
    let mut env = Env::new();
    let [buyer, issuer] = env.funded(["buyer", "issuer"]);
    let ids: Vec<Hash256> = (0..100u32)
        .map(|i| {
            let taxon = nft::ciphered_taxon(i, 0);
            mint_id(&mut env, &issuer, taxon, mint_tf::TRANSFERABLE, 0)
        })
        .collect();
    let mut offers = Vec::new();
    for id in &ids {
        offers.push(next_offer(&env, &issuer));
        env.apply(&issuer, sell_offer(*id, xrp(0)), Ter::tesSUCCESS);
    }
    for o in offers.iter().rev() {
        env.apply(&buyer, accept_sell(*o), Ter::tesSUCCESS);
    }
    assert_eq!(nft_count(&env, &buyer), 100);
    assert_eq!(nft_count(&env, &issuer), 0);
    assert_eq!(env.owner_count(&issuer), 0);
    assert_eq!(env.owner_count(&buyer) as usize, pages(&env, &buyer).len());
}

/// rippled NFTokenBurn_test `testBurnTooManyOffers` (fixNonFungibleTokensV1_2): a burn
/// deletes at most 500 of the token's offers, sell offers first; the rest stay.
#[test]
fn a_burn_deletes_at_most_500_offers_sells_first() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    env.fund(&bob, xrp(100_000));
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    for _ in 0..3 {
        env.apply(&alice, sell_offer(id, xrp(1)), Ter::tesSUCCESS);
    }
    let mut buys = Vec::new();
    for _ in 0..499 {
        buys.push(next_offer(&env, &bob));
        env.apply(&bob, buy_offer(id, &alice, drops(1)), Ter::tesSUCCESS);
    }
    assert_eq!(env.owner_count(&alice), 4);
    assert_eq!(env.owner_count(&bob), 499);
    env.apply(&alice, burn(id), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 0, "page and sell offers gone");
    assert!(env.read(&keylet::nft_sells(&id)).is_none());
    let left: Vec<&Hash256> = buys.iter().filter(|o| env.read(o).is_some()).collect();
    assert_eq!(left.len(), 2, "497 of 499 buy offers deleted");
    assert_eq!(env.owner_count(&bob), 2);
    assert!(env.read(&keylet::nft_buys(&id)).is_some());
    // The leftovers can still be cancelled by their owner.
    let left: Vec<Hash256> = left.into_iter().copied().collect();
    env.apply(&bob, cancel(&left), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&bob), 0);
    assert!(env.read(&keylet::nft_buys(&id)).is_none());
}

#[test]
fn an_issuer_whose_tokens_remain_cannot_be_deleted() {
    // rippled DeleteAccount: MintedNFTokens != BurnedNFTokens is an obligation.
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    let o = next_offer(&env, &alice);
    env.apply(&alice, sell_offer(id, xrp(0)), Ter::tesSUCCESS);
    env.apply(&bob, accept_sell(o), Ter::tesSUCCESS);
    for _ in 0..300 {
        env.close();
    }
    env.apply(&alice, account_delete(&carol), Ter::tecHAS_OBLIGATIONS);
    env.apply(&bob, account_delete(&carol), Ter::tecHAS_OBLIGATIONS);
    env.apply(&bob, burn(id), Ter::tesSUCCESS);
    env.apply(&alice, account_delete(&carol), Ter::tesSUCCESS);
    for _ in 0..300 {
        env.close();
    }
    env.apply(&bob, account_delete(&carol), Ter::tesSUCCESS);
}

#[test]
fn an_expired_offer_cannot_be_accepted() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let id = mint_id(&mut env, &alice, 0, mint_tf::TRANSFERABLE, 0);
    let o = next_offer(&env, &alice);
    let soon = env.parent_close() + 15;
    env.apply(
        &alice,
        sell_offer(id, xrp(1)).u32("Expiration", soon),
        Ter::tesSUCCESS,
    );
    env.close_after(30);
    env.close_after(30);
    env.apply(&bob, accept_sell(o), Ter::tecEXPIRED);
    // fixCleanup3_1_3 (on in ledgerd's rule book): doApply deletes the expired offer.
    assert!(env.read(&o).is_none(), "the expired offer is deleted");
    assert_eq!(nft_count(&env, &alice), 1);
}

#[test]
fn an_offer_made_and_taken_in_one_ledger_leaves_a_true_account_hash() {
    use ledgerd::ledgers::Ledgers;
    let mut env = Env::new();
    let [issuer, alice] = env.funded(["issuer", "alice"]);
    let id = mint_id(&mut env, &issuer, 0, mint_tf::TRANSFERABLE, 0);
    env.close();
    let offer = next_offer(&env, &issuer);
    env.apply(&issuer, sell_offer(id, xrp(100)), Ter::tesSUCCESS);
    env.apply(&alice, accept_sell(offer), Ter::tesSUCCESS);
    env.close();
    let (header, entries) = env.store.export_closed();
    let owned: Vec<_> = entries.iter().map(|(k, v)| (*k, (**v).clone())).collect();
    let restored = Ledgers::from_snapshot(env.store.config().clone(), header.clone(), owned);
    assert!(restored.is_ok(), "{:?}", restored.err());
}
