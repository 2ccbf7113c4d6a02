//! What the three escrow transactions share (rippled `Escrow.cpp`): the time rule, reading
//! an escrow named by Owner and OfferSequence, and taking it out of the ledger.

pub mod escrow_cancel;
pub mod escrow_create;
pub mod escrow_finish;
pub mod token_lock;

use super::directory::remove_owned;
use super::entry::release;
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// rippled's `after(now, mark)`: strictly later.
pub fn after(now: u32, mark: u32) -> bool {
    now > mark
}

/// The preflight EscrowFinish and EscrowCancel share: no flags beyond the universal ones,
/// an Owner and an OfferSequence naming the escrow.
pub fn preflight_named(tx: &StObject) -> Ter {
    let s = sf();
    if tx.flags() & super::transactor::TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.account_of(s.owner).is_none() || tx.u32_of(s.offer_sequence).is_none() {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// The token escrow checks of EscrowFinish's and EscrowCancel's preclaim: the named escrow
/// exists (`tecNO_TARGET`), and `check` passes for a token it holds.
pub fn preclaim_named(
    view: &dyn ReadView,
    tx: &StObject,
    check: impl Fn(&StObject, &token_lock::Token) -> Ter,
) -> Ter {
    let s = sf();
    let (Some(owner), Some(seq)) = (tx.account_of(s.owner), tx.u32_of(s.offer_sequence)) else {
        return Ter::temMALFORMED;
    };
    let Some(escrow) = view
        .read(&keylet::escrow(&owner, seq))
        .filter(|e| e.u16_of(s.ledger_entry_type) == Some(lt::ESCROW))
    else {
        return Ter::tecNO_TARGET;
    };
    match token_lock::token_of(&escrow) {
        Some(token) => check(&escrow, &token),
        None => Ter::tesSUCCESS,
    }
}

/// The escrow the transaction's Owner and OfferSequence name, with its key.
pub fn named_escrow(sb: &Sandbox, tx: &StObject) -> Option<(Hash256, StObject)> {
    let s = sf();
    let key = keylet::escrow(&tx.account_of(s.owner)?, tx.u32_of(s.offer_sequence)?);
    let entry = sb
        .peek(&key)
        .filter(|e| e.u16_of(s.ledger_entry_type) == Some(lt::ESCROW))?;
    Some((key, entry))
}

/// fixCleanup3_4_0 (rippled #8142): EscrowFinish and EscrowCancel take the escrow out
/// (its owner count with it) before they deliver, so the reserve it held pays for a line
/// or MPToken the delivery makes for its owner; before, that owner needed one more
/// reserve at the boundary (`tecNO_LINE_INSUF_RESERVE`).
pub fn recycles_reserve(sb: &Sandbox) -> bool {
    sb.info()
        .rules
        .enabled(crate::protocol::features::Feature::FixCleanup3_4_0)
}

/// Takes an escrow out of the owner directories (its creator's, its destination's, an
/// issued currency's issuer's) and the ledger, one owner count less for its creator. What
/// it held is the caller's to place.
pub fn remove_escrow(sb: &mut Sandbox, key: &Hash256, escrow: &StObject) -> Ter {
    let s = sf();
    let (Some(owner), Some(dst)) = (
        escrow.account_of(s.account),
        escrow.account_of(s.destination),
    ) else {
        return Ter::tefBAD_LEDGER;
    };
    let page = escrow.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, page, key, true) {
        return Ter::tefBAD_LEDGER;
    }
    if let Some(page) = escrow.u64_of(s.destination_node) {
        if !remove_owned(sb, &dst, page, key, true) {
            return Ter::tefBAD_LEDGER;
        }
    }
    let token = token_lock::token_of(escrow);
    if let (Some(page), Some(token)) = (escrow.u64_of(s.issuer_node), token) {
        if !remove_owned(sb, &token.issuer(), page, key, true) {
            return Ter::tefBAD_LEDGER;
        }
    }
    release(sb, &owner, escrow, 1);
    sb.erase(*key);
    Ter::tesSUCCESS
}
