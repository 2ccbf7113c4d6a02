//! What the NFToken transactions share (rippled `NFTokenUtils.cpp`, `nft.h`): the parts of
//! an NFTokenID, an owner's NFTokenPages (find, insert with splitting, remove with
//! merging), and NFToken offers (create, delete, delete many on burn).
//!
//! An owner's pages form a chain ordered by key: each key is the owner's account followed
//! by 96 bits, every token on a page has lower 96 bits strictly below its page's (except
//! on the last page, whose key has all 96 bits set), and PreviousPageMin / NextPageMin
//! link the neighbours. rippled finds a token's page with `succ` over the state map; the
//! state map here is unordered, so the page is found by walking the chain back from the
//! last page (the same page, in a number of reads that grows with the owner's pages).

pub mod ledger_state_fix;
pub mod nftoken_accept_offer;
pub mod nftoken_burn;
pub mod nftoken_cancel_offer;
pub mod nftoken_create_offer;
pub mod nftoken_mint;
pub mod nftoken_modify;

use std::sync::Arc;

use super::directory::{dir_add, dir_remove, insert_owned, remove_owned};
use super::entry::{adjust_owner_count, new_entry, with_threading};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::{lsf_nft, lt};
use crate::ledger::keylet::{self, NFT_PAGE_MASK_START};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue, Rounding};
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// Tokens one NFTokenPage holds at most (`dirMaxTokensPerPage`).
pub const TOKENS_PER_PAGE_MAX: usize = 32;
/// The highest TransferFee, in 1/100,000 (50%) (`maxTransferFee`).
pub const TRANSFER_FEE_MAX: u16 = 50_000;
/// The longest URI in bytes (`maxTokenURILength`).
pub const URI_BYTES_MAX: usize = 256;
/// Offers one NFTokenCancelOffer may name (`maxTokenOfferCancelCount`).
pub const CANCEL_COUNT_MAX: usize = 500;
/// Offers a burn deletes at most (`maxDeletableTokenOfferEntries`).
pub const DELETABLE_OFFERS_MAX: usize = 500;

/// Flags of an NFToken, the top 16 bits of its ID (`nft::flag*`).
pub mod flag {
    /// The issuer (or its minter) may burn the token.
    pub const BURNABLE: u16 = 0x0001;
    /// Offers for the token are in XRP only.
    pub const ONLY_XRP: u16 = 0x0002;
    /// Legacy tfTrustLine: trust lines created for the transfer fee (no longer mintable).
    pub const CREATE_TRUST_LINES: u16 = 0x0004;
    /// Holders other than the issuer may transfer it.
    pub const TRANSFERABLE: u16 = 0x0008;
    /// The URI may be changed by NFTokenModify (DynamicNFT).
    pub const MUTABLE: u16 = 0x0010;
}

/// The token's flags.
pub fn token_flags(id: &Hash256) -> u16 {
    u16::from_be_bytes([id.0[0], id.0[1]])
}

/// The token's transfer fee, in 1/100,000.
pub fn transfer_fee(id: &Hash256) -> u16 {
    u16::from_be_bytes([id.0[2], id.0[3]])
}

/// The token's issuer.
pub fn issuer(id: &Hash256) -> AccountId {
    let mut a = [0u8; 20];
    a.copy_from_slice(&id.0[4..24]);
    AccountId(a)
}

/// The token's serial (its issuer's mint sequence).
pub fn serial(id: &Hash256) -> u32 {
    u32::from_be_bytes([id.0[28], id.0[29], id.0[30], id.0[31]])
}

/// The taxon as the issuer gave it (the ID holds it scrambled).
pub fn taxon(id: &Hash256) -> u32 {
    let stored = u32::from_be_bytes([id.0[24], id.0[25], id.0[26], id.0[27]]);
    ciphered_taxon(serial(id), stored)
}

/// rippled `cipheredTaxon`: the taxon XOR a linear congruential function of the serial,
/// so one issuer's tokens of one taxon spread over pages. Its own inverse.
pub fn ciphered_taxon(serial: u32, taxon: u32) -> u32 {
    const MODULUS: u32 = 384_160_001;
    const INCREMENT: u32 = 2_459;
    taxon ^ MODULUS.wrapping_mul(serial).wrapping_add(INCREMENT)
}

/// The NFTokenID of a new token (`NFTokenMint::createNFTokenID`): flags, transfer fee,
/// issuer, scrambled taxon and serial, big-endian.
pub fn token_id(flags: u16, fee: u16, issuer: &AccountId, taxon: u32, serial: u32) -> Hash256 {
    let mut b = [0u8; 32];
    b[0..2].copy_from_slice(&flags.to_be_bytes());
    b[2..4].copy_from_slice(&fee.to_be_bytes());
    b[4..24].copy_from_slice(&issuer.0);
    b[24..28].copy_from_slice(&ciphered_taxon(serial, taxon).to_be_bytes());
    b[28..32].copy_from_slice(&serial.to_be_bytes());
    Hash256(b)
}

/// The low 96 bits of a token ID or page key.
pub fn low96(h: &Hash256) -> &[u8] {
    &h.0[NFT_PAGE_MASK_START..]
}

/// rippled `compareTokens`: by the low 96 bits, then by the whole ID.
pub fn compare_tokens(a: &Hash256, b: &Hash256) -> std::cmp::Ordering {
    low96(a).cmp(low96(b)).then_with(|| a.cmp(b))
}

/// `h + 1` (rippled `uint256::next`).
fn next_key(h: &Hash256) -> Hash256 {
    let mut k = h.0;
    for b in k.iter_mut().rev() {
        let (v, carry) = b.overflowing_add(1);
        *b = v;
        if !carry {
            break;
        }
    }
    Hash256(k)
}

/// The key of the page that holds (or would hold) `id` among `owner`'s pages: the first
/// page whose key is above `nftpage(owner, id)`, else the last page. None when the owner
/// has no pages.
pub fn locate_page(view: &dyn ReadView, owner: &AccountId, id: &Hash256) -> Option<Hash256> {
    let first = keylet::nftpage(owner, id);
    let mut key = keylet::nftpage_max(owner);
    let mut page = view.read(&key)?;
    while let Some(prev) = page.h256_of(sf().previous_page_min) {
        if prev <= first {
            break;
        }
        page = view.read(&prev)?;
        key = prev;
    }
    Some(key)
}

/// The owner's first page, if any.
pub fn first_page(view: &dyn ReadView, owner: &AccountId) -> Option<Hash256> {
    locate_page(view, owner, &Hash256::ZERO)
}

/// The tokens of a page.
pub fn page_tokens(page: &StObject) -> Vec<StObject> {
    match page.get(sf().nftokens) {
        Some(StValue::Array(items)) => items.iter().map(|(_, o)| o.clone()).collect(),
        _ => Vec::new(),
    }
}

fn set_tokens(page: &mut StObject, tokens: Vec<StObject>) {
    let nf = sf().nftoken;
    let arr = tokens.into_iter().map(|t| (nf, t)).collect();
    page.set(sf().nftokens, StValue::Array(arr));
}

fn token_id_of(t: &StObject) -> Hash256 {
    t.h256_of(sf().nftoken_id).unwrap_or(Hash256::ZERO)
}

/// The token `id` if `owner` holds it (rippled `findToken`).
pub fn find_token(view: &dyn ReadView, owner: &AccountId, id: &Hash256) -> Option<StObject> {
    let key = locate_page(view, owner, id)?;
    let page = view.read(&key)?;
    page_tokens(&page)
        .into_iter()
        .find(|t| token_id_of(t) == *id)
}

fn new_page(tokens: Vec<StObject>) -> StObject {
    let mut p = with_threading(new_entry(lt::NFTOKEN_PAGE));
    set_tokens(&mut p, tokens);
    p
}

fn set_link(sb: &mut Sandbox, key: &Hash256, field: Field, to: Option<Hash256>) {
    if let Some(mut p) = sb.peek(key) {
        match to {
            Some(t) => p.set(field, StValue::Hash256(t)),
            None => {
                p.remove(field);
            }
        }
        sb.update(*key, p);
    }
}

/// Where a full page splits (rippled `getPageForToken`): the index in `tokens` where the
/// second part starts, keeping tokens with equal low 96 bits together; None when the page
/// holds only tokens equal in their low 96 bits to `id` (no page can take it).
fn split_point(tokens: &[StObject], id: &Hash256) -> Option<usize> {
    let half = TOKENS_PER_PAGE_MAX / 2;
    let cmp = token_id_of(&tokens[half - 1]);
    let same = |t: &StObject| low96(&token_id_of(t)) == low96(&cmp);
    let mut at = tokens[half..]
        .iter()
        .position(|t| !same(t))
        .map(|p| p + half);
    if at.is_none() {
        at = tokens.iter().position(same);
    }
    let at = at?;
    if at == 0 {
        return match low96(id).cmp(low96(&cmp)) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(tokens.len()),
            std::cmp::Ordering::Less => Some(0),
        };
    }
    Some(at)
}

/// The page `id` goes to, splitting a full one or creating the first (rippled
/// `getPageForToken`); each new page is one more owner count. None: no suitable page.
fn page_for_token(sb: &mut Sandbox, owner: &AccountId, id: &Hash256) -> Option<Hash256> {
    let first = keylet::nftpage(owner, id);
    let Some(cp_key) = locate_page(sb, owner, id) else {
        let key = keylet::nftpage_max(owner);
        sb.insert(key, new_page(Vec::new()));
        adjust_owner_count(sb, owner, 1);
        return Some(key);
    };
    let mut cp = sb.peek(&cp_key)?;
    let mut low = page_tokens(&cp);
    if low.len() != TOKENS_PER_PAGE_MAX {
        return Some(cp_key);
    }
    let at = split_point(&low, id)?;
    let high = low.split_off(at);
    let np_id = if low.len() == TOKENS_PER_PAGE_MAX {
        next_key(&token_id_of(&low[TOKENS_PER_PAGE_MAX - 1]))
    } else {
        token_id_of(&high[0])
    };
    let np_key = keylet::nftpage(owner, &np_id);
    let mut np = new_page(low);
    np.set(sf().next_page_min, StValue::Hash256(cp_key));
    if let Some(ppm) = cp.h256_of(sf().previous_page_min) {
        np.set(sf().previous_page_min, StValue::Hash256(ppm));
        set_link(sb, &ppm, sf().next_page_min, Some(np_key));
    }
    sb.insert(np_key, np);
    set_tokens(&mut cp, high);
    cp.set(sf().previous_page_min, StValue::Hash256(np_key));
    sb.update(cp_key, cp);
    adjust_owner_count(sb, owner, 1);
    Some(if first < np_key { np_key } else { cp_key })
}

/// Adds `token` (an NFToken object) to `owner`'s pages (rippled `insertToken`).
pub fn insert_token(sb: &mut Sandbox, owner: &AccountId, token: StObject) -> Ter {
    let id = token_id_of(&token);
    let Some(key) = page_for_token(sb, owner, &id) else {
        return Ter::tecNO_SUITABLE_NFTOKEN_PAGE;
    };
    let Some(mut page) = sb.peek(&key) else {
        return Ter::tefBAD_LEDGER;
    };
    let mut tokens = page_tokens(&page);
    tokens.push(token);
    tokens.sort_by(|a, b| compare_tokens(&token_id_of(a), &token_id_of(b)));
    set_tokens(&mut page, tokens);
    sb.update(key, page);
    Ter::tesSUCCESS
}

/// Merges page `p1` into the next page `p2` when their tokens fit on one page (rippled
/// `mergePages`); true when `p1` was deleted.
fn merge_pages(sb: &mut Sandbox, p1_key: &Hash256, p2_key: &Hash256) -> bool {
    let s = sf();
    let (Some(p1), Some(mut p2)) = (sb.peek(p1_key), sb.peek(p2_key)) else {
        return false;
    };
    let (a, b) = (page_tokens(&p1), page_tokens(&p2));
    if a.len() + b.len() > TOKENS_PER_PAGE_MAX {
        return false;
    }
    let mut all = a;
    all.extend(b);
    all.sort_by(|x, y| compare_tokens(&token_id_of(x), &token_id_of(y)));
    set_tokens(&mut p2, all);
    p2.remove(s.previous_page_min);
    if let Some(p0) = p1.h256_of(s.previous_page_min) {
        set_link(sb, &p0, s.next_page_min, Some(*p2_key));
        p2.set(s.previous_page_min, StValue::Hash256(p0));
    }
    sb.update(*p2_key, p2);
    sb.erase(*p1_key);
    true
}

/// Removes token `id` from `owner`'s pages (rippled `removeToken`): an emptied page goes
/// (with fixNFTokenPageLinks an emptied last page takes its previous page's tokens
/// instead; without it the last page goes and the previous page loses its NextPageMin),
/// neighbours merge when they fit on one page, and the owner count follows the pages.
pub fn remove_token(sb: &mut Sandbox, owner: &AccountId, id: &Hash256) -> Ter {
    let s = sf();
    let Some(key) = locate_page(sb, owner, id) else {
        return Ter::tecNO_ENTRY;
    };
    let Some(mut cur) = sb.peek(&key) else {
        return Ter::tecNO_ENTRY;
    };
    let mut tokens = page_tokens(&cur);
    let Some(pos) = tokens.iter().position(|t| token_id_of(t) == *id) else {
        return Ter::tecNO_ENTRY;
    };
    tokens.remove(pos);
    let prev = cur.h256_of(s.previous_page_min);
    let next = cur.h256_of(s.next_page_min);
    if !tokens.is_empty() {
        set_tokens(&mut cur, tokens);
        sb.update(key, cur);
        let mut cnt = 0;
        if prev.is_some_and(|p| merge_pages(sb, &p, &key)) {
            cnt -= 1;
        }
        if next.is_some_and(|n| merge_pages(sb, &key, &n)) {
            cnt -= 1;
        }
        if cnt != 0 {
            adjust_owner_count(sb, owner, cnt);
        }
        return Ter::tesSUCCESS;
    }
    if let Some(p) = prev {
        if key == keylet::nftpage_max(owner)
            && sb.info().rules.enabled(Feature::FixNFTokenPageLinks)
        {
            return refill_last_page(sb, owner, &key, cur, &p);
        }
        set_link(sb, &p, s.next_page_min, next);
    }
    if let Some(n) = next {
        set_link(sb, &n, s.previous_page_min, prev);
    }
    sb.erase(key);
    let mut cnt = 1;
    if let (Some(p), Some(n)) = (prev, next) {
        if merge_pages(sb, &p, &n) {
            cnt += 1;
        }
    }
    adjust_owner_count(sb, owner, -cnt);
    Ter::tesSUCCESS
}

/// The emptied last page takes the tokens and the previous link of its previous page,
/// which goes (fixNFTokenPageLinks).
fn refill_last_page(
    sb: &mut Sandbox,
    owner: &AccountId,
    key: &Hash256,
    mut cur: StObject,
    prev_key: &Hash256,
) -> Ter {
    let s = sf();
    let Some(prev) = sb.peek(prev_key) else {
        return Ter::tefBAD_LEDGER;
    };
    set_tokens(&mut cur, page_tokens(&prev));
    match prev.h256_of(s.previous_page_min) {
        Some(pp) => {
            cur.set(s.previous_page_min, StValue::Hash256(pp));
            set_link(sb, &pp, s.next_page_min, Some(*key));
        }
        None => {
            cur.remove(s.previous_page_min);
        }
    }
    adjust_owner_count(sb, owner, -1);
    sb.update(*key, cur);
    sb.erase(*prev_key);
    Ter::tesSUCCESS
}

/// Replaces (or removes) the URI of token `id` on `owner`'s pages (rippled
/// `changeTokenURI`).
pub fn change_token_uri(
    sb: &mut Sandbox,
    owner: &AccountId,
    id: &Hash256,
    uri: Option<&[u8]>,
) -> Ter {
    let Some(key) = locate_page(sb, owner, id) else {
        return Ter::tecINTERNAL;
    };
    let Some(mut page) = sb.peek(&key) else {
        return Ter::tecINTERNAL;
    };
    let mut tokens = page_tokens(&page);
    let Some(t) = tokens.iter_mut().find(|t| token_id_of(t) == *id) else {
        return Ter::tecINTERNAL;
    };
    match uri {
        Some(u) => t.set(sf().uri, StValue::Blob(u.to_vec())),
        None => {
            t.remove(sf().uri);
        }
    }
    set_tokens(&mut page, tokens);
    sb.update(key, page);
    Ter::tesSUCCESS
}

/// The NFTokenOffer at `key`, if that key holds one.
pub fn offer_at(view: &dyn ReadView, key: &Hash256) -> Option<Arc<StObject>> {
    view.read(key)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::NFTOKEN_OFFER))
}

/// True for a sell offer.
pub fn is_sell(offer: &StObject) -> bool {
    offer.flags() & lsf_nft::SELL_NFTOKEN != 0
}

/// Takes an offer out of its owner's directory and its token's offer directory, one
/// owner count less (rippled `deleteTokenOffer`). False when a directory is broken.
pub fn delete_offer(sb: &mut Sandbox, key: &Hash256) -> bool {
    let s = sf();
    let Some(offer) = offer_at(sb, key) else {
        return false;
    };
    let (Some(owner), Some(id)) = (offer.account_of(s.owner), offer.h256_of(s.nftoken_id)) else {
        return false;
    };
    let owner_page = offer.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, owner_page, key, false) {
        return false;
    }
    let dir = if is_sell(&offer) {
        keylet::nft_sells(&id)
    } else {
        keylet::nft_buys(&id)
    };
    let node = offer.u64_of(s.nftoken_offer_node).unwrap_or(0);
    if !dir_remove(sb, &dir, node, key, false) {
        return false;
    }
    adjust_owner_count(sb, &owner, -1);
    sb.erase(*key);
    true
}

/// Deletes up to `limit` offers of the directory rooted at `dir`, each page from its
/// end (rippled `removeTokenOffersWithLimit`); returns how many went.
pub fn remove_offers_with_limit(sb: &mut Sandbox, dir: &Hash256, limit: usize) -> usize {
    let s = sf();
    let mut deleted = 0;
    let mut page_index = Some(0u64);
    while let Some(index) = page_index {
        if deleted == limit {
            break;
        }
        let Some(page) = sb.peek(&keylet::dir_page(dir, index)) else {
            break;
        };
        page_index = page.u64_of(s.index_next).filter(|n| *n != 0);
        let keys = page
            .v256_of(s.indexes)
            .map(|v| v.to_vec())
            .unwrap_or_default();
        for key in keys.iter().rev() {
            if offer_at(sb, key).is_some() && delete_offer(sb, key) {
                deleted += 1;
            }
            if deleted == limit {
                break;
            }
        }
    }
    deleted
}

/// The sequence or ticket a transaction consumes (rippled `getSeqProxy().value()`).
pub fn seq_proxy(tx: &StObject) -> u32 {
    tx.u32_of(sf().ticket_sequence)
        .unwrap_or_else(|| tx.u32_of(sf().sequence).unwrap_or(0))
}

/// A new offer's terms (rippled `tokenOfferCreateApply`'s arguments).
pub struct NewOffer {
    /// Who places it.
    pub account: AccountId,
    /// The token.
    pub id: Hash256,
    /// The price.
    pub amount: Amount,
    /// Only this account may accept it.
    pub destination: Option<AccountId>,
    /// When it expires.
    pub expiration: Option<u32>,
    /// The sequence or ticket that names it.
    pub seq: u32,
    /// A sell offer (else a buy offer).
    pub sell: bool,
}

/// Places an offer (rippled `tokenOfferCreateApply`): a reserve for one more owned
/// entry, then the offer in its owner's directory and its token's buy or sell directory.
pub fn create_offer(sb: &mut Sandbox, prior_balance: i64, o: &NewOffer) -> Ter {
    let s = sf();
    let Some(root) = sb.peek(&keylet::account(&o.account)) else {
        return Ter::tefINTERNAL;
    };
    if prior_balance < sb.info().fees.reserve_of(&root, 1, 0) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    let key = keylet::nftoffer(&o.account, o.seq);
    let Some(owner_node) = insert_owned(sb, &o.account, key) else {
        return Ter::tecDIR_FULL;
    };
    let (dir, dir_flag) = if o.sell {
        (keylet::nft_sells(&o.id), lsf_nft::NFTOKEN_SELL_OFFERS)
    } else {
        (keylet::nft_buys(&o.id), lsf_nft::NFTOKEN_BUY_OFFERS)
    };
    let id = o.id;
    let describe = move |p: &mut StObject| {
        p.set(sf().flags, StValue::UInt32(dir_flag));
        p.set(sf().nftoken_id, StValue::Hash256(id));
    };
    let Some(offer_node) = dir_add(sb, &dir, key, true, &describe) else {
        return Ter::tecDIR_FULL;
    };
    let mut offer = with_threading(new_entry(lt::NFTOKEN_OFFER));
    offer.set(s.owner, StValue::AccountId(o.account));
    offer.set(s.nftoken_id, StValue::Hash256(o.id));
    offer.set(s.amount, StValue::Amount(o.amount));
    let flags = if o.sell { lsf_nft::SELL_NFTOKEN } else { 0 };
    offer.set(s.flags, StValue::UInt32(flags));
    offer.set(s.owner_node, StValue::UInt64(owner_node));
    offer.set(s.nftoken_offer_node, StValue::UInt64(offer_node));
    if let Some(e) = o.expiration {
        offer.set(s.expiration, StValue::UInt32(e));
    }
    if let Some(d) = o.destination {
        offer.set(s.destination, StValue::AccountId(d));
    }
    sb.insert(key, offer);
    adjust_owner_count(sb, &o.account, 1);
    Ter::tesSUCCESS
}

/// A transfer fee in 1/100,000 as an amount to multiply by (rippled
/// `transferFeeAsRate`: parts per billion).
pub fn fee_rate_amount(parts_per_billion: u32) -> Amount {
    let v = IouValue::from_parts(parts_per_billion as u128, -9, false, Rounding::Nearest)
        .unwrap_or(IouValue::ZERO);
    let ni = crate::protocol::amount_math::no_issue();
    Amount::iou(v, ni.currency, ni.issuer)
}

/// The issuer's cut of `amount` for a token with transfer fee `fee`.
pub fn issuer_cut(amount: &Amount, fee: u16) -> Amount {
    let rate = fee_rate_amount(u32::from(fee) * 10_000);
    crate::protocol::amount_math::multiply(amount, &rate, &amount.issue())
        .unwrap_or_else(|_| super::funds::zero_of(&amount.issue()))
}

/// The terms of a new offer as a transaction states them, for the checks NFTokenMint
/// and NFTokenCreateOffer share.
pub struct OfferTerms {
    /// Who places it.
    pub account: AccountId,
    /// The price.
    pub amount: Amount,
    /// Only this account may accept it.
    pub destination: Option<AccountId>,
    /// When it expires.
    pub expiration: Option<u32>,
    /// The token's owner (buy offers only).
    pub owner: Option<AccountId>,
    /// A sell offer.
    pub sell: bool,
}

/// rippled `tokenOfferCreatePreflight`.
pub fn offer_preflight(t: &OfferTerms, nft_flags: u16) -> Ter {
    if t.amount.is_negative() {
        return Ter::temBAD_AMOUNT;
    }
    if !t.amount.is_xrp() && (nft_flags & flag::ONLY_XRP != 0 || t.amount.is_zero()) {
        return Ter::temBAD_AMOUNT;
    }
    if !t.sell && t.amount.is_zero() {
        return Ter::temBAD_AMOUNT;
    }
    if t.expiration == Some(0) {
        return Ter::temBAD_EXPIRATION;
    }
    if t.owner.is_some() == t.sell || t.owner == Some(t.account) {
        return Ter::temMALFORMED;
    }
    if t.destination == Some(t.account) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// rippled `tokenOfferCreatePreclaim` (with NFTokenMintOffer and
/// fixEnforceNFTokenTrustlineV2): the issuer can take its fee, the token may change
/// hands, a buyer has funds, and the destination and owner accept offers.
pub fn offer_preclaim(view: &dyn ReadView, t: &OfferTerms, token: &Hash256) -> Ter {
    let nft_issuer = issuer(token);
    let nft_flags = token_flags(token);
    if let Amount::Iou {
        currency,
        issuer: iou_issuer,
        ..
    } = t.amount
    {
        if nft_flags & flag::CREATE_TRUST_LINES == 0 && transfer_fee(token) != 0 {
            if view.read(&keylet::account(&nft_issuer)).is_none() {
                return Ter::tecNO_ISSUER;
            }
            if nft_issuer != iou_issuer
                && view
                    .read(&keylet::line(&nft_issuer, &iou_issuer, &currency))
                    .is_none()
            {
                return Ter::tecNO_LINE;
            }
            if is_frozen(view, &nft_issuer, &iou_issuer, &currency) {
                return Ter::tecFROZEN;
            }
        }
    }
    if nft_issuer != t.account && nft_flags & flag::TRANSFERABLE == 0 {
        let minter = view
            .read(&keylet::account(&nft_issuer))
            .and_then(|r| r.account_of(sf().nftoken_minter));
        if minter != Some(t.account) {
            return Ter::tefNFTOKEN_IS_NOT_TRANSFERABLE;
        }
    }
    offer_preclaim_parties(view, t)
}

/// rippled `isFrozen`: the issuer's global freeze (which holds for the issuer itself too),
/// or the issuer froze the holder's line.
fn is_frozen(
    view: &dyn ReadView,
    holder: &AccountId,
    issuer: &AccountId,
    currency: &crate::protocol::types::Currency,
) -> bool {
    super::funds::is_global_frozen(view, issuer)
        || super::funds::frozen(view, holder, issuer, currency)
}

/// fixCleanup3_4_0 (rippled #7749): an issuer's global freeze does not stop it from
/// pricing its own NFToken offer in its own currency; before, `isFrozen` held for the
/// issuer too (`tecFROZEN`).
fn own_currency(view: &dyn ReadView, t: &OfferTerms, issuer: &AccountId) -> bool {
    t.account == *issuer
        && view
            .info()
            .rules
            .enabled(crate::protocol::features::Feature::FixCleanup3_4_0)
}

fn offer_preclaim_parties(view: &dyn ReadView, t: &OfferTerms) -> Ter {
    use crate::ledger::flags::lsf;
    if let Amount::Iou {
        currency, issuer, ..
    } = t.amount
    {
        if is_frozen(view, &t.account, &issuer, &currency) && !own_currency(view, t, &issuer) {
            return Ter::tecFROZEN;
        }
    }
    if !t.sell
        && !super::dex::is_positive(&super::funds::account_funds(
            view, &t.account, &t.amount, true,
        ))
    {
        return Ter::tecUNFUNDED_OFFER;
    }
    if let Some(d) = t.destination {
        match view.read(&keylet::account(&d)) {
            None => return Ter::tecNO_DST,
            Some(r) if r.is_flag(lsf::DISALLOW_INCOMING_NFTOKEN_OFFER) => {
                return Ter::tecNO_PERMISSION
            }
            Some(_) => {}
        }
    }
    if let Some(o) = t.owner {
        match view.read(&keylet::account(&o)) {
            None => return Ter::tecNO_TARGET,
            Some(r) if r.is_flag(lsf::DISALLOW_INCOMING_NFTOKEN_OFFER) => {
                return Ter::tecNO_PERMISSION
            }
            Some(_) => {}
        }
    }
    let v2 = view
        .info()
        .rules
        .enabled(crate::protocol::features::Feature::FixEnforceNFTokenTrustlineV2);
    if let (Amount::Iou { .. }, true) = (t.amount, v2) {
        return trustline_authorized(view, &t.account, &t.amount.issue());
    }
    Ter::tesSUCCESS
}

/// rippled `checkTrustlineDeepFrozen` (DeepFreeze): an account may not receive an issued
/// currency on a line either side deep-froze.
pub fn trustline_deep_frozen(
    view: &dyn ReadView,
    id: &AccountId,
    issue: &crate::protocol::types::Issue,
) -> Ter {
    use crate::ledger::flags::lsf;
    if view.read(&keylet::account(&issue.issuer)).is_none() {
        return Ter::tecNO_ISSUER;
    }
    if issue.issuer == *id {
        return Ter::tesSUCCESS;
    }
    match view.read(&keylet::line(id, &issue.issuer, &issue.currency)) {
        Some(line) if line.flags() & (lsf::LOW_DEEP_FREEZE | lsf::HIGH_DEEP_FREEZE) != 0 => {
            Ter::tecFROZEN
        }
        _ => Ter::tesSUCCESS,
    }
}

/// [`trustline_authorized`], then [`trustline_deep_frozen`] when `frozen_too`.
pub fn may_receive(
    view: &dyn ReadView,
    id: &AccountId,
    issue: &crate::protocol::types::Issue,
    frozen_too: bool,
) -> Ter {
    let t = trustline_authorized(view, id, issue);
    if t != Ter::tesSUCCESS || !frozen_too {
        return t;
    }
    trustline_deep_frozen(view, id, issue)
}

/// rippled `checkTrustlineAuthorized` (fixEnforceNFTokenTrustlineV2): an account may
/// receive an issued currency only on a line its issuer authorized, when it requires so.
pub fn trustline_authorized(
    view: &dyn ReadView,
    id: &AccountId,
    issue: &crate::protocol::types::Issue,
) -> Ter {
    use crate::ledger::flags::lsf;
    let Some(iss) = view.read(&keylet::account(&issue.issuer)) else {
        return Ter::tecNO_ISSUER;
    };
    if issue.issuer == *id || !iss.is_flag(lsf::REQUIRE_AUTH) {
        return Ter::tesSUCCESS;
    }
    let Some(line) = view.read(&keylet::line(id, &issue.issuer, &issue.currency)) else {
        return Ter::tecNO_LINE;
    };
    let bit = if *id > issue.issuer {
        lsf::LOW_AUTH
    } else {
        lsf::HIGH_AUTH
    };
    if line.is_flag(bit) {
        Ter::tesSUCCESS
    } else {
        Ter::tecNO_AUTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_id_parts_round_trip() {
        let issuer_id = AccountId([7; 20]);
        let id = token_id(0x000b, 314, &issuer_id, 12_345, 99);
        assert_eq!(token_flags(&id), 0x000b);
        assert_eq!(transfer_fee(&id), 314);
        assert_eq!(issuer(&id), issuer_id);
        assert_eq!(serial(&id), 99);
        assert_eq!(taxon(&id), 12_345);
        // The taxon is stored scrambled.
        assert_ne!(&id.0[24..28], &12_345u32.to_be_bytes());
    }

    #[test]
    fn ciphered_taxon_matches_rippled_vectors() {
        // rippled NFToken_test testNFTokenIDs: serial 0 taxon 0 is stored as 2459.
        assert_eq!(ciphered_taxon(0, 0), 2_459);
        assert_eq!(ciphered_taxon(1, 0), 384_162_460);
        assert_eq!(ciphered_taxon(5, ciphered_taxon(5, 77)), 77);
    }

    #[test]
    fn tokens_sort_by_low_bits_first() {
        let mut a = Hash256([0; 32]);
        let mut b = Hash256([0xFF; 32]);
        a.0[31] = 2;
        b.0[20..].fill(0);
        b.0[31] = 1;
        assert_eq!(compare_tokens(&b, &a), std::cmp::Ordering::Less);
        assert_eq!(next_key(&Hash256([0xFF; 32])), Hash256::ZERO);
    }
}
