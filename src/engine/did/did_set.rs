//! DIDSet (rippled `DID.cpp`, class `DIDSet`): creates or edits the sending account's DID,
//! an owned entry holding up to three blobs (URI, DIDDocument, Data). On an edit an empty
//! field removes that field; a DID left with none of the three is refused (`tecEMPTY_DID`),
//! and so is a new one under fixEmptyDID.

use super::{DID_DATA_BYTES_MAX, DID_DOCUMENT_BYTES_MAX, DID_URI_BYTES_MAX};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, balance_drops, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// The three fields a DID carries, with their longest lengths.
fn did_fields() -> [(Field, usize); 3] {
    let s = sf();
    [
        (s.uri, DID_URI_BYTES_MAX),
        (s.did_document, DID_DOCUMENT_BYTES_MAX),
        (s.data, DID_DATA_BYTES_MAX),
    ]
}

/// True when `o` carries none of the three DID fields.
fn holds_nothing(o: &StObject) -> bool {
    did_fields().iter().all(|(f, _)| o.get(*f).is_none())
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if holds_nothing(tx) {
        return Ter::temEMPTY_DID;
    }
    // All three present and all three empty says nothing either.
    let all_empty = did_fields()
        .iter()
        .all(|(f, _)| tx.blob_of(*f).is_some_and(|b| b.is_empty()));
    if all_empty {
        return Ter::temEMPTY_DID;
    }
    let too_long = did_fields()
        .iter()
        .any(|(f, max)| tx.blob_of(*f).is_some_and(|b| b.len() > *max));
    if too_long {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim: nothing beyond the common checks.
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let key = keylet::did(&ctx.account);
    match ctx.sb.peek(&key) {
        Some(existing) => edit(ctx, key, existing),
        None => create(ctx, key),
    }
}

/// An existing DID: each field the transaction names is set, or removed when empty.
fn edit(ctx: &mut ApplyContext, key: crate::protocol::types::Hash256, mut did: StObject) -> Ter {
    for (f, _) in did_fields() {
        match ctx.tx.blob_of(f) {
            Some([]) => {
                did.remove(f);
            }
            Some(b) => did.set(f, StValue::Blob(b.to_vec())),
            None => {}
        }
    }
    if holds_nothing(&did) {
        return Ter::tecEMPTY_DID;
    }
    ctx.sb.update(key, did);
    Ter::tesSUCCESS
}

/// A new DID with the transaction's non-empty fields, one owner reserve (rippled
/// `addSLE`, with fixEmptyDID).
fn create(ctx: &mut ApplyContext, key: crate::protocol::types::Hash256) -> Ter {
    let s = sf();
    let account = ctx.account;
    let mut did = with_threading(new_entry(lt::DID));
    did.set(s.account, StValue::AccountId(account));
    for (f, _) in did_fields() {
        if let Some(b) = ctx.tx.blob_of(f).filter(|b| !b.is_empty()) {
            did.set(f, StValue::Blob(b.to_vec()));
        }
    }
    // fixEmptyDID: no DID made of empty fields alone (before it, one was created empty).
    let fix = ctx.sb.info().rules.enabled(Feature::FixEmptyDID);
    if fix && holds_nothing(&did) {
        return Ter::tecEMPTY_DID;
    }
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tefINTERNAL;
    };
    if balance_drops(&root) < ctx.sb.info().fees.reserve_of(&root, 1, 0) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    did.set(s.owner_node, StValue::UInt64(page));
    ctx.sb.insert(key, did);
    adjust_owner_count(&mut ctx.sb, &account, 1);
    Ter::tesSUCCESS
}
