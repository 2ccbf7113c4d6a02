//! LedgerStateFix (rippled `LedgerStateFix.cpp`, from fixNFTokenPageLinks): repairs ledger
//! state older rules damaged, for a fee of one owner reserve increment. One fix type so
//! far, `LedgerFixType` 1: the links of an owner's NFTokenPages (rippled
//! `nft::repairNFTokenDirectoryLinks`). Before fixNFTokenPageLinks, emptying an owner's
//! last page deleted it and left the previous page without NextPageMin; a later token
//! could then start a new last page linked to nothing. The repair walks the owner's pages
//! in key order (`succ`), links each to the next and back, takes the links off the ends,
//! and moves the highest page's tokens to the last page's key when that page is missing.
//! `LedgerFixType` 2 (fixCleanup3_2_0, rippled 3.2): a book directory root whose
//! ExchangeRate is not the quality its key encodes gets that quality.

use std::sync::Arc;

use crate::engine::entry::{new_entry, with_threading};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::book_index::next_key;
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::rules::enabled_now;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::quality::quality_from_directory_key;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// `LedgerFixType` values (rippled `LedgerStateFix::FixType`).
pub mod fix_type {
    /// Repair the links of the `Owner`'s NFTokenPages.
    pub const NFTOKEN_PAGE_LINK: u16 = 1;
    /// Set a `BookDirectory` root's ExchangeRate to its key's quality (fixCleanup3_2_0).
    pub const BOOK_EXCHANGE_RATE: u16 = 2;
}

fn fix_type(tx: &StObject) -> Option<u16> {
    tx.u16_of(Field::named("LedgerFixType"))
}

/// preflight: only the universal flags; a known fix type (BookExchangeRate only under
/// fixCleanup3_2_0, `temDISABLED` before), with its one field and not the other's.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let s = sf();
    let (wanted, other) = match fix_type(tx) {
        Some(fix_type::NFTOKEN_PAGE_LINK) => (s.owner, s.book_directory),
        Some(fix_type::BOOK_EXCHANGE_RATE) if !enabled_now(Feature::FixCleanup3_2_0) => {
            return Ter::temDISABLED;
        }
        Some(fix_type::BOOK_EXCHANGE_RATE) => (s.book_directory, s.owner),
        _ => return Ter::tefINVALID_LEDGER_FIX_TYPE,
    };
    if tx.get(wanted).is_none() || tx.get(other).is_some() {
        return Ter::temINVALID;
    }
    Ter::tesSUCCESS
}

/// The directory page at `key`, if the entry there is one.
fn dir_at(view: &dyn ReadView, key: &Hash256) -> Option<Arc<StObject>> {
    view.read(key)
        .filter(|d| d.u16_of(sf().ledger_entry_type) == Some(lt::DIR_NODE))
}

/// preclaim: the owner whose pages are to be repaired exists; the book directory page
/// exists (`tecOBJECT_NOT_FOUND`), is a root with an ExchangeRate, and that rate is not
/// already its key's quality (`tecNO_PERMISSION`).
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    match (
        fix_type(tx),
        tx.account_of(s.owner),
        tx.h256_of(s.book_directory),
    ) {
        (Some(fix_type::NFTOKEN_PAGE_LINK), Some(owner), _) => {
            if view.read(&keylet::account(&owner)).is_none() {
                Ter::tecOBJECT_NOT_FOUND
            } else {
                Ter::tesSUCCESS
            }
        }
        (Some(fix_type::BOOK_EXCHANGE_RATE), _, Some(key)) => match dir_at(view, &key) {
            None => Ter::tecOBJECT_NOT_FOUND,
            Some(dir) => match dir.u64_of(s.exchange_rate) {
                Some(rate) if rate != quality_from_directory_key(&key).0 => Ter::tesSUCCESS,
                _ => Ter::tecNO_PERMISSION,
            },
        },
        _ => Ter::tecINTERNAL,
    }
}

/// doApply: `tecFAILED_PROCESSING` when there were no page links to repair.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    match (fix_type(ctx.tx), ctx.tx.account_of(s.owner)) {
        (Some(fix_type::NFTOKEN_PAGE_LINK), Some(owner)) => {
            match repair_page_links(&mut ctx.sb, &owner) {
                Ok(true) => Ter::tesSUCCESS,
                Ok(false) => Ter::tecFAILED_PROCESSING,
                Err(t) => t,
            }
        }
        (Some(fix_type::BOOK_EXCHANGE_RATE), _) => {
            let Some(key) = ctx.tx.h256_of(s.book_directory) else {
                return Ter::tecINTERNAL;
            };
            let Some(dir) = dir_at(&ctx.sb, &key) else {
                return Ter::tecINTERNAL;
            };
            let mut dir = (*dir).clone();
            let quality = quality_from_directory_key(&key).0;
            dir.set(s.exchange_rate, StValue::UInt64(quality));
            ctx.sb.update(key, dir);
            Ter::tesSUCCESS
        }
        _ => Ter::tecINTERNAL,
    }
}

/// The owner's first page with a key above `after`, else its last page, if that exists
/// (rippled `view.peek(succ(after.next(), last.next()).value_or(last))`).
fn page_after(sb: &Sandbox, owner: &AccountId, after: &Hash256) -> Option<(Hash256, StObject)> {
    let last = keylet::nftpage_max(owner);
    let found = next_key(after).and_then(|from| match next_key(&last) {
        Some(end) => sb.succ(&from, &end),
        None => sb.succ(&from, &last),
    });
    let key = found.unwrap_or(last);
    sb.peek(&key).map(|p| (key, p))
}

/// Sets (or takes off) a page's link; true when that changed the page.
fn relink(
    sb: &mut Sandbox,
    key: &Hash256,
    page: &mut StObject,
    field: Field,
    to: Option<Hash256>,
) -> bool {
    if page.h256_of(field) == to {
        return false;
    }
    match to {
        Some(t) => page.set(field, StValue::Hash256(t)),
        None => {
            page.remove(field);
        }
    }
    sb.update(*key, page.clone());
    true
}

/// rippled `nft::repairNFTokenDirectoryLinks`: Ok(true) when a link or the last page
/// needed repair.
pub fn repair_page_links(sb: &mut Sandbox, owner: &AccountId) -> Result<bool, Ter> {
    let s = sf();
    let last = keylet::nftpage_max(owner);
    let Some((mut key, mut page)) = page_after(sb, owner, &keylet::nftpage_min(owner)) else {
        return Ok(false);
    };
    let mut repaired = relink(sb, &key, &mut page, s.previous_page_min, None);
    if key == last {
        repaired |= relink(sb, &key, &mut page, s.next_page_min, None);
        return Ok(repaired);
    }
    while let Some((nkey, mut next)) = page_after(sb, owner, &key) {
        repaired |= relink(sb, &key, &mut page, s.next_page_min, Some(nkey));
        repaired |= relink(sb, &nkey, &mut next, s.previous_page_min, Some(key));
        if nkey == last {
            repaired |= relink(sb, &nkey, &mut next, s.next_page_min, None);
            return Ok(repaired);
        }
        (key, page) = (nkey, next);
    }
    // The highest page is not at the last page's key: its tokens move there (one page
    // goes, one comes: the owner count stays).
    let mut moved = with_threading(new_entry(lt::NFTOKEN_PAGE));
    let tokens = page
        .get(s.nftokens)
        .cloned()
        .unwrap_or(StValue::Array(Vec::new()));
    moved.set(s.nftokens, tokens);
    if let Some(prev) = page.h256_of(s.previous_page_min) {
        moved.set(s.previous_page_min, StValue::Hash256(prev));
        let Some(mut p) = sb.peek(&prev) else {
            return Err(Ter::tefBAD_LEDGER);
        };
        relink(sb, &prev, &mut p, s.next_page_min, Some(last));
    }
    sb.erase(key);
    sb.insert(last, moved);
    Ok(true)
}
