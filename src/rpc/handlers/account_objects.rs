//! `account_objects` (rippled `AccountObjects.cpp`, `getAccountObjects`): the entries in
//! an account's owner directory, optionally of one type, and optionally only those whose
//! reserve a sponsor carries for it (`sponsored: true`) or only the others (`false`;
//! XLS-68), paged with a `<directory page key>,<entry key>` marker.

use crate::ledger::entry_types::{Deletion, ENTRY_TYPES};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::rpc::entry_type::chosen_type;
use crate::protocol::types::Hash256;
use crate::render::ledger::entry_json;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::as_bool;
use crate::rpc::owner_walk::{
    account_field, existing_account, read_limit,
};
use crate::rpc::ledger_select::select;
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Answer account_objects.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = account_field(params)?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    let id = existing_account(view, account, || RpcError::new(ErrorCode::ActMalformed))?;
    let filter = type_filter(params)?;
    let sponsored = sponsored_filter(params)?;
    let limit = read_limit(ctx, params, crate::limits::ACCOUNT_OBJECTS_PAGE)?;
    let (mut dir_key, entry_key) = parse_marker(params)?.unwrap_or_default();
    let mut found = params.get("marker").is_none();
    let s = sf();
    let root = keylet::owner_dir(&id);
    let mut objects = Vec::new();
    let mut next_marker = None;
    let mut taken: u32 = 0;
    let mut dir_limit = limit;
    if dir_key.is_zero() {
        // An NFTokenPage never has a sponsor.
        let wanted = filter
            .as_ref()
            .is_none_or(|f| f.contains(&lt::NFTOKEN_PAGE))
            && sponsored != Some(true);
        if wanted {
            let (pages, marker) = nft_pages(view, &id, &entry_key, limit);
            dir_limit = limit.saturating_sub(pages.len() as u32);
            objects = pages;
            if marker.is_some() {
                return Ok(reply(&sel, &id, objects, limit, marker));
            }
        }
        (dir_key, found) = (root, true);
    }
    let mut dir = view.read(&dir_key);
    if !found && dir.is_none() {
        return Err(RpcError::invalid_field("marker"));
    }
    // Each step reads one page; the bound guards a malformed directory chain.
    for _ in 0..=crate::ledger::directory::DIR_PAGES_MAX {
        let Some(page) = dir else {
            if !found {
                return Err(RpcError::invalid_field("marker"));
            }
            break;
        };
        let keys = page.v256_of(s.indexes).unwrap_or(&[]);
        let mut start = 0;
        if !found {
            start = keys
                .iter()
                .position(|k| *k == entry_key)
                .ok_or_else(|| RpcError::invalid_field("marker"))?;
            found = true;
        }
        let mut full = false;
        for key in keys.iter().skip(start) {
            if taken == dir_limit {
                next_marker = Some(format!("{},{}", dir_key.to_hex(), key.to_hex()));
                full = true;
                break;
            }
            if let Some(entry) = view.read(key) {
                let ty = entry.u16_of(s.ledger_entry_type).unwrap_or(0);
                if filter.as_ref().is_none_or(|f| f.contains(&ty))
                    && sponsored.is_none_or(|want| is_sponsored(&entry, &id) == want)
                {
                    objects.push(entry_json(key, &entry));
                }
            }
            taken += 1;
        }
        if full {
            break;
        }
        let next = page.u64_of(s.index_next).unwrap_or(0);
        if next == 0 {
            break;
        }
        dir_key = keylet::dir_page(&root, next);
        dir = view.read(&dir_key);
        if taken == dir_limit {
            if let Some(first) = dir
                .as_ref()
                .and_then(|p| p.v256_of(s.indexes)?.first().copied())
            {
                next_marker = Some(format!("{},{}", dir_key.to_hex(), first.to_hex()));
            }
            break;
        }
    }
    Ok(reply(&sel, &id, objects, limit, next_marker))
}

fn reply(
    sel: &crate::rpc::ledger_select::Selected,
    id: &crate::protocol::types::AccountId,
    objects: Vec<Value>,
    limit: u32,
    marker: Option<String>,
) -> serde_json::Map<String, Value> {
    let mut result = sel.result();
    result.insert("account".into(), Value::from(id.to_address()));
    result.insert("account_objects".into(), Value::Array(objects));
    if let Some(m) = marker {
        result.insert("limit".into(), Value::from(limit));
        result.insert("marker".into(), Value::from(m));
    }
    result
}

/// The `type` / `deletion_blockers_only` filter: the entry type codes to list (None: all).
/// Their rows say which types an owner directory may hold and which block AccountDelete.
fn type_filter(params: &Params) -> Result<Option<Vec<u16>>, RpcError> {
    let chosen = chosen_type(params)?;
    if chosen.is_some_and(|t| !t.account_objects) {
        return Err(RpcError::invalid_field("type"));
    }
    let mut filter: Option<Vec<u16>> = chosen.map(|t| vec![t.code]);
    if params.get("deletion_blockers_only").is_some_and(as_bool) {
        filter = Some(
            ENTRY_TYPES
                .iter()
                .filter(|t| t.deletion == Deletion::Blocks)
                .filter(|t| chosen.is_none_or(|c| c.code == t.code))
                .map(|t| t.code)
                .collect(),
        );
    }
    Ok(filter)
}

/// The `sponsored` filter: a boolean, or absent (every entry).
fn sponsored_filter(params: &Params) -> Result<Option<bool>, RpcError> {
    match params.get("sponsored") {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(RpcError::expected_field("sponsored", "bool")),
    }
}

/// Whether a sponsor carries the entry's reserve for `owner`: its Sponsor, or on a trust
/// line the sponsor field of `owner`'s side.
fn is_sponsored(entry: &crate::protocol::st::StObject, owner: &crate::protocol::types::AccountId) -> bool {
    let field = crate::engine::sponsor::counters::sponsor_field(entry, owner);
    entry.get(field).is_some()
}

/// The `<directory page key>,<entry key>` marker (rippled writes `0,<page key>` after a
/// page of NFTokenPages).
fn parse_marker(params: &Params) -> Result<Option<(Hash256, Hash256)>, RpcError> {
    let Some(m) = params.get("marker") else {
        return Ok(None);
    };
    let text = m
        .as_str()
        .ok_or_else(|| RpcError::expected_field("marker", "string"))?;
    let bad = || RpcError::invalid_field("marker");
    let parts: Vec<&str> = text.split(',').collect();
    let [d, e] = parts.as_slice() else {
        return Err(bad());
    };
    let dir = if *d == "0" {
        Hash256::ZERO
    } else {
        parse_hash256(d).ok_or_else(bad)?
    };
    Ok(Some((dir, parse_hash256(e).ok_or_else(bad)?)))
}

/// rippled `getAccountObjects`' first part: the account's NFTokenPages in key order, after
/// the page a `0,<page key>` marker names (or from the first), at most `limit`; the marker
/// when more pages follow.
fn nft_pages(
    view: &dyn ReadView,
    id: &crate::protocol::types::AccountId,
    after: &Hash256,
    limit: u32,
) -> (Vec<Value>, Option<String>) {
    let mut out = Vec::new();
    let min = keylet::nftpage_min(id);
    let mut start = *after;
    start.0[keylet::NFT_PAGE_MASK_START..].fill(0);
    if !after.is_zero() && start != min {
        return (out, None);
    }
    let from = if after.is_zero() { Hash256::ZERO } else { *after };
    // The first page above `from`: `locate_page` looks above the owner's key for the
    // token's low 96 bits, which for a page key are its own.
    let mut key = crate::engine::nft::locate_page(view, id, &from);
    if key == Some(*after) {
        key = view
            .read(after)
            .and_then(|p| p.h256_of(sf().next_page_min));
    }
    while let Some(k) = key {
        let Some(page) = view.read(&k) else {
            break;
        };
        out.push(entry_json(&k, &page));
        key = page.h256_of(sf().next_page_min);
        if out.len() as u32 >= limit.max(1) {
            if key.is_some() {
                return (out, Some(format!("0,{}", k.to_hex())));
            }
            break;
        }
    }
    (out, None)
}
