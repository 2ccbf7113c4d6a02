//! Offers in the ledger (rippled `Offer.h` `TOffer` and `View.cpp` `offerDelete`): an
//! Offer entry listed in its owner's directory and in one page of its book.

pub mod offer_cancel;
pub mod offer_create;
pub mod permissioned_dex;

use super::directory::{dir_remove, remove_owned};
use super::entry::adjust_owner_count;
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
use crate::protocol::quality::Quality;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256, Issue};

/// Deletes the offer at `key` (rippled `offerDelete`): out of its book page and its
/// owner's directory, the owner's count down by one.
pub fn offer_delete(sb: &mut Sandbox, key: &Hash256) -> Ter {
    let s = sf();
    let Some(offer) = sb.peek(key) else {
        return Ter::tesSUCCESS;
    };
    let Some(owner) = offer.account_of(s.account) else {
        return Ter::tefBAD_LEDGER;
    };
    let book = offer.h256_of(s.book_directory).unwrap_or_default();
    let book_node = offer.u64_of(s.book_node).unwrap_or(0);
    let owner_node = offer.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, owner_node, key, false) {
        return Ter::tefBAD_LEDGER;
    }
    if !dir_remove(sb, &book, book_node, key, false) {
        return Ter::tefBAD_LEDGER;
    }
    for (dir, node) in additional_books(&offer) {
        if !dir_remove(sb, &dir, node, key, false) {
            return Ter::tefBAD_LEDGER;
        }
    }
    adjust_owner_count(sb, &owner, -1);
    sb.erase(*key);
    Ter::tesSUCCESS
}

/// The other book pages a hybrid offer is listed on (its `AdditionalBooks`: the open
/// book's page), as (directory, page).
pub fn additional_books(offer: &StObject) -> Vec<(Hash256, u64)> {
    let s = sf();
    let Some(StValue::Array(books)) = offer.get(s.additional_books) else {
        return Vec::new();
    };
    books
        .iter()
        .filter_map(|(_, b)| Some((b.h256_of(s.book_directory)?, b.u64_of(s.book_node)?)))
        .collect()
}

/// An offer as the payment engine consumes it: what the taker pays (`taker_pays`,
/// the step's in) and gets (`taker_gets`, the out), at its book page's quality.
#[derive(Debug, Clone)]
pub struct LiveOffer {
    /// The entry's key.
    pub key: Hash256,
    /// The entry.
    pub entry: StObject,
    /// Its owner.
    pub owner: AccountId,
    /// What the taker pays (in).
    pub pays: Amount,
    /// What the taker gets (out).
    pub gets: Amount,
    /// The quality of the page it is listed on.
    pub quality: Quality,
}

impl LiveOffer {
    /// Reads an offer entry listed at `quality`.
    pub fn from_entry(key: Hash256, entry: StObject, quality: Quality) -> Option<LiveOffer> {
        let s = sf();
        Some(LiveOffer {
            key,
            owner: entry.account_of(s.account)?,
            pays: entry.amount_of(s.taker_pays)?,
            gets: entry.amount_of(s.taker_gets)?,
            quality,
            entry,
        })
    }

    /// The issue the taker pays.
    pub fn issue_in(&self) -> Issue {
        self.pays.issue()
    }

    /// The issue the taker gets.
    pub fn issue_out(&self) -> Issue {
        self.gets.issue()
    }

    /// True when either side is used up.
    pub fn fully_consumed(&self) -> bool {
        !is_positive(&self.pays) || !is_positive(&self.gets)
    }

    /// Takes `pays`/`gets` off the offer and writes it back (rippled `TOffer::consume`).
    pub fn consume(&mut self, sb: &mut Sandbox, pays: &Amount, gets: &Amount) {
        self.pays = self.pays.sub_nearest(pays);
        self.gets = self.gets.sub_nearest(gets);
        let s = sf();
        self.entry.set(s.taker_pays, StValue::Amount(self.pays));
        self.entry.set(s.taker_gets, StValue::Amount(self.gets));
        sb.update(self.key, self.entry.clone());
    }
}

/// True for an amount above zero.
pub fn is_positive(a: &Amount) -> bool {
    !a.is_zero() && !a.is_negative()
}

/// The same value in `issue` (rippled `toSTAmount(x, issue)`): moves an IOU value
/// between issuers of one currency.
pub fn with_issue(a: &Amount, issue: &Issue) -> Amount {
    match a {
        Amount::Iou { value, .. } if !issue.is_xrp() => {
            Amount::iou(*value, issue.currency, issue.issuer)
        }
        _ => *a,
    }
}
