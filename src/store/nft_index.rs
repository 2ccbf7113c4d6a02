//! The NFToken index (Clio's `nf_tokens`, `nf_token_transactions`, `issuer_nf_tokens`):
//! what each successful transaction did to each NFToken, read from its metadata. A token
//! that appears on an owner's pages is that owner's (a mint or a transfer); one that
//! leaves every page is burned; one whose URI changed on its owner's pages was modified.
//! Every token the transaction names, or whose offers it created or removed, is linked to
//! it (`nft_history`). Pure: metadata in, rows out.

use std::collections::BTreeMap;

use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// A token's state after a transaction changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftState {
    /// Whose pages hold it (the last owner, once burned).
    pub owner: AccountId,
    /// Burned by this transaction.
    pub burned: bool,
    /// Its URI (None: it has none).
    pub uri: Option<Vec<u8>>,
}

/// One token a transaction touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftTouch {
    /// The token.
    pub token: Hash256,
    /// Its new state, when the transaction changed its owner, burned it or changed its URI.
    pub state: Option<NftState>,
}

/// Tokens by owner: token -> URI.
type Holdings = BTreeMap<AccountId, BTreeMap<Hash256, Option<Vec<u8>>>>;

/// What the transaction `tx` with metadata `meta` did to NFTokens: nothing unless it
/// succeeded (as Clio indexes).
pub fn touches(tx: &StObject, meta: &StObject) -> Vec<NftTouch> {
    let s = sf();
    if meta.u8_of(s.transaction_result) != Some(0) {
        return Vec::new();
    }
    let (before, after) = holdings(meta);
    let mut out: BTreeMap<Hash256, Option<NftState>> = BTreeMap::new();
    for (owner, tokens) in &after {
        for (token, uri) in tokens {
            let had = before.get(owner).and_then(|b| b.get(token));
            if had != Some(uri) {
                let state = NftState {
                    owner: *owner,
                    burned: false,
                    uri: uri.clone(),
                };
                out.insert(*token, Some(state));
            }
        }
    }
    for (owner, tokens) in &before {
        for (token, uri) in tokens {
            let kept = after.values().any(|a| a.contains_key(token));
            if !kept {
                let state = NftState {
                    owner: *owner,
                    burned: true,
                    uri: uri.clone(),
                };
                out.insert(*token, Some(state));
            }
        }
    }
    for token in named_tokens(tx, meta) {
        out.entry(token).or_insert(None);
    }
    out.into_iter()
        .map(|(token, state)| NftTouch { token, state })
        .collect()
}

/// The tokens on each owner's pages before and after the transaction, from the
/// NFTokenPage nodes it changed (a page's owner is the first 20 bytes of its key).
fn holdings(meta: &StObject) -> (Holdings, Holdings) {
    let s = sf();
    let (mut before, mut after) = (Holdings::new(), Holdings::new());
    for (wrapper, node) in affected(meta) {
        if node.u16_of(s.ledger_entry_type) != Some(lt::NFTOKEN_PAGE) {
            continue;
        }
        let Some(key) = node.h256_of(s.ledger_index) else {
            continue;
        };
        let mut owner = [0u8; 20];
        owner.copy_from_slice(&key.0[..20]);
        let owner = AccountId(owner);
        let fin = inner(node, s.final_fields);
        let prev = inner(node, s.previous_fields).filter(|p| p.get(s.nftokens).is_some());
        let (was, is) = if wrapper == s.created_node {
            (None, inner(node, s.new_fields))
        } else if wrapper == s.modified_node {
            (prev.or(fin), fin)
        } else {
            (prev.or(fin), None)
        };
        before.entry(owner).or_default().extend(tokens(was));
        after.entry(owner).or_default().extend(tokens(is));
    }
    (before, after)
}

/// The tokens the transaction names (`NFTokenID`) and those of the offers it created or
/// removed.
fn named_tokens(tx: &StObject, meta: &StObject) -> Vec<Hash256> {
    let s = sf();
    let mut out: Vec<Hash256> = tx.h256_of(s.nftoken_id).into_iter().collect();
    for (wrapper, node) in affected(meta) {
        if node.u16_of(s.ledger_entry_type) != Some(lt::NFTOKEN_OFFER) {
            continue;
        }
        let fields = if wrapper == s.created_node {
            inner(node, s.new_fields)
        } else {
            inner(node, s.final_fields)
        };
        out.extend(fields.and_then(|f| f.h256_of(s.nftoken_id)));
    }
    out
}

fn affected(meta: &StObject) -> Vec<(crate::protocol::definitions::Field, &StObject)> {
    match meta.get(sf().affected_nodes) {
        Some(StValue::Array(items)) => items.iter().map(|(f, o)| (*f, o)).collect(),
        _ => Vec::new(),
    }
}

fn inner(node: &StObject, field: crate::protocol::definitions::Field) -> Option<&StObject> {
    match node.get(field)? {
        StValue::Object(o) => Some(o),
        _ => None,
    }
}

fn tokens(fields: Option<&StObject>) -> Vec<(Hash256, Option<Vec<u8>>)> {
    let s = sf();
    match fields.and_then(|o| o.get(s.nftokens)) {
        Some(StValue::Array(items)) => items
            .iter()
            .filter_map(|(_, t)| {
                Some((
                    t.h256_of(s.nftoken_id)?,
                    t.blob_of(s.uri).map(<[u8]>::to_vec),
                ))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The NFToken transactions' type codes (no other transaction changes a token's pages
/// or offers).
fn is_nft_type(code: u16) -> bool {
    const NAMES: [&str; 6] = [
        "NFTokenMint",
        "NFTokenBurn",
        "NFTokenCreateOffer",
        "NFTokenCancelOffer",
        "NFTokenAcceptOffer",
        "NFTokenModify",
    ];
    let types = &crate::protocol::definitions::defs().transaction_types;
    NAMES.iter().any(|n| types.get(n) == Some(&code))
}

/// [`touches`] of a stored transaction and metadata: nothing (and no decoding) unless it
/// is an NFToken transaction (its first field, TransactionType, says); nothing if either
/// does not decode.
pub fn touches_of(blob: &[u8], meta: &[u8]) -> Vec<NftTouch> {
    let code = match blob {
        [0x12, hi, lo, ..] => u16::from_be_bytes([*hi, *lo]),
        _ => return Vec::new(),
    };
    if !is_nft_type(code) {
        return Vec::new();
    }
    let (Ok(tx), Ok(meta)) = (
        crate::protocol::codec::decode(blob),
        crate::protocol::codec::decode(meta),
    ) else {
        return Vec::new();
    };
    touches(&tx, &meta)
}

/// The MPT holder index (Clio's `mp_token_holders`): an MPToken entry's issuance and
/// holder, from its stored bytes; None for any other entry (only MPTokens, whose first
/// field, LedgerEntryType, says so, are decoded).
pub fn mpt_holder(data: &[u8]) -> Option<(crate::protocol::mpt::MptId, AccountId)> {
    let code = crate::ledger::flags::lt::MPTOKEN.to_be_bytes();
    if data.get(..3) != Some(&[0x11, code[0], code[1]][..]) {
        return None;
    }
    let entry = crate::protocol::codec::decode(data).ok()?;
    let s = sf();
    Some((
        entry.mpt_id_of(s.mpt_issuance_id)?,
        entry.account_of(s.account)?,
    ))
}
