//! What the permissioned DEX shares (rippled `PermissionedDEXHelpers.cpp`): who is a
//! member of a PermissionedDomain (its owner, or the subject of an accepted, unexpired
//! credential the domain lists), and whether an offer placed in a domain is still valid
//! there. OfferCreate and Payment check membership in preclaim; the payment engine's
//! offer stream removes domain offers whose owner has left the domain.

use crate::engine::credential::{array_of, credential_at, expired, pairs};
use crate::engine::domain::domain_at;
use crate::ledger::flags::{lsf_credential, lsf_offer};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// rippled `accountInDomain`: `account` owns the domain, or holds an accepted credential
/// the domain accepts that has not expired. False when the domain does not exist.
pub fn account_in_domain(view: &dyn ReadView, account: &AccountId, domain: &Hash256) -> bool {
    let s = sf();
    let Some(d) = domain_at(view, domain) else {
        return false;
    };
    if d.account_of(s.owner) == Some(*account) {
        return true;
    }
    pairs(array_of(&d, s.accepted_credentials).unwrap_or_default())
        .iter()
        .any(|(issuer, ctype)| {
            credential_at(view, &keylet::credential(account, issuer, ctype))
                .is_some_and(|c| c.is_flag(lsf_credential::ACCEPTED) && !expired(view, &c))
        })
}

/// rippled `offerInDomain` for an offer entry met in a book: it names `domain`, a hybrid
/// one lists its additional book (fixCleanup3_1_3: exactly one; before, any list), and its
/// owner is still a member.
pub fn offer_in_domain(view: &dyn ReadView, offer: &StObject, domain: &Hash256) -> bool {
    let s = sf();
    if offer.h256_of(s.domain_id) != Some(*domain) {
        return false;
    }
    if offer.is_flag(lsf_offer::HYBRID) {
        let books = match offer.get(s.additional_books) {
            Some(StValue::Array(a)) => Some(a.len()),
            Some(_) => Some(0),
            None => None,
        };
        let malformed = if view.info().rules.enabled(Feature::FixCleanup3_1_3) {
            books != Some(1)
        } else {
            books.is_none()
        };
        if malformed {
            return false;
        }
    }
    offer
        .account_of(s.account)
        .is_some_and(|owner| account_in_domain(view, &owner, domain))
}
