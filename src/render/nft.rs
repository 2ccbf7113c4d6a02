//! The NFToken fields rippled adds to a transaction's metadata JSON (`NFTokenID.cpp`,
//! `NFTokenOfferID.cpp`, `insertNFTSyntheticInJson`): `nftoken_id` for a mint (the token
//! that appeared on the minter's pages) and an accepted offer, `nftoken_ids` for
//! cancelled offers, `offer_id` for an offer created by NFTokenCreateOffer or a mint.

use crate::engine::Ter;
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::ledgers::DecodedTx;
use crate::protocol::definitions::Field;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::tx::transaction_type_name;
use crate::protocol::types::Hash256;
use serde_json::{Map, Value};

/// The affected nodes of a metadata object, each with its wrapper field.
fn nodes(meta: &StObject) -> Vec<(Field, &StObject)> {
    match meta.get(sf().affected_nodes) {
        Some(StValue::Array(items)) => items.iter().map(|(f, o)| (*f, o)).collect(),
        _ => Vec::new(),
    }
}

fn inner(node: &StObject, field: Field) -> Option<&StObject> {
    match node.get(field)? {
        StValue::Object(o) => Some(o),
        _ => None,
    }
}

fn token_ids(o: Option<&StObject>) -> Vec<Hash256> {
    match o.and_then(|o| o.get(sf().nftokens)) {
        Some(StValue::Array(items)) => items
            .iter()
            .filter_map(|(_, t)| t.h256_of(sf().nftoken_id))
            .collect(),
        _ => Vec::new(),
    }
}

fn is_type(node: &StObject, entry_type: u16) -> bool {
    node.u16_of(sf().ledger_entry_type) == Some(entry_type)
}

/// rippled `getNFTokenIDFromPage`: the first token of the pages' final lists that differs
/// from their previous lists, when exactly one was added.
fn minted_token(meta: &StObject) -> Option<Hash256> {
    let s = sf();
    let (mut prev, mut fin) = (Vec::new(), Vec::new());
    for (wrapper, node) in nodes(meta) {
        if !is_type(node, lt::NFTOKEN_PAGE) {
            continue;
        }
        if wrapper == s.created_node {
            fin.extend(token_ids(inner(node, s.new_fields)));
        } else if wrapper == s.modified_node {
            let prevs = inner(node, s.previous_fields);
            if prevs.and_then(|p| p.get(s.nftokens)).is_none() {
                continue;
            }
            prev.extend(token_ids(prevs));
            fin.extend(token_ids(inner(node, s.final_fields)));
        }
    }
    if fin.len() != prev.len() + 1 {
        return None;
    }
    let at = fin
        .iter()
        .zip(prev.iter())
        .take_while(|(a, b)| a == b)
        .count();
    fin.get(at).copied()
}

/// rippled `getNFTokenIDFromDeletedOffer`: the tokens of the deleted offers, sorted and
/// without duplicates.
fn deleted_offer_tokens(meta: &StObject) -> Vec<Hash256> {
    let s = sf();
    let mut ids: Vec<Hash256> = nodes(meta)
        .into_iter()
        .filter(|(w, n)| *w == s.deleted_node && is_type(n, lt::NFTOKEN_OFFER))
        .filter_map(|(_, n)| inner(n, s.final_fields)?.h256_of(s.nftoken_id))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// rippled `getOfferIDFromCreatedOffer`.
fn created_offer(meta: &StObject) -> Option<Hash256> {
    let s = sf();
    nodes(meta)
        .into_iter()
        .find(|(w, n)| *w == s.created_node && is_type(n, lt::NFTOKEN_OFFER))
        .and_then(|(_, n)| n.h256_of(s.ledger_index))
}

/// Adds rippled's NFToken fields to a metadata JSON object.
pub fn insert_nft_synthetic(meta: &mut Map<String, Value>, entry: &DecodedTx<'_>) {
    if entry.ter != Ter::tesSUCCESS {
        return;
    }
    let hex = |h: Hash256| Value::from(h.to_hex());
    let (tx, decoded) = (&entry.tx, &entry.meta);
    match transaction_type_name(tx) {
        Some("NFTokenMint") => {
            if let Some(id) = minted_token(decoded) {
                meta.insert("nftoken_id".into(), hex(id));
            }
            if tx.get(sf().amount).is_some() {
                if let Some(o) = created_offer(decoded) {
                    meta.insert("offer_id".into(), hex(o));
                }
            }
        }
        Some("NFTokenAcceptOffer") => {
            if let Some(id) = deleted_offer_tokens(decoded).first() {
                meta.insert("nftoken_id".into(), hex(*id));
            }
        }
        Some("NFTokenCancelOffer") => {
            let ids = deleted_offer_tokens(decoded).into_iter().map(hex);
            meta.insert("nftoken_ids".into(), Value::Array(ids.collect()));
        }
        Some("NFTokenCreateOffer") => {
            if let Some(o) = created_offer(decoded) {
                meta.insert("offer_id".into(), hex(o));
            }
        }
        _ => {}
    }
}
