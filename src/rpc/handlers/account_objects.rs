//! `account_objects` (rippled `AccountObjects.cpp`, `getAccountObjects`): the entries in
//! an account's owner directory, optionally of one type, paged with a
//! `<directory page key>,<entry key>` marker.

use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::rpc::entry_type::{chosen_type, type_code};
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

/// Types that can never be in an owner directory: refused as a filter.
const NOT_OWNED: &[&str] = &[
    "Amendments",
    "DirectoryNode",
    "FeeSettings",
    "LedgerHashes",
    "NegativeUNL",
];

/// Types that block AccountDelete (`deletion_blockers_only`).
const DELETION_BLOCKERS: &[&str] = &[
    "Check",
    "Escrow",
    "NFTokenPage",
    "PayChannel",
    "RippleState",
    "XChainOwnedClaimID",
    "XChainOwnedCreateAccountClaimID",
    "MPTokenIssuance",
    "MPToken",
];

/// Answer account_objects.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = account_field(params)?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    let id = existing_account(view, account, || RpcError::new(ErrorCode::ActMalformed))?;
    let chosen = chosen_type(params)?;
    if chosen.is_some_and(|t| NOT_OWNED.contains(&t)) {
        return Err(RpcError::invalid_field("type"));
    }
    let mut filter: Option<Vec<u16>> = chosen.map(|t| type_code(t).into_iter().collect());
    if params.get("deletion_blockers_only").is_some_and(as_bool) {
        filter = Some(
            DELETION_BLOCKERS
                .iter()
                .filter(|t| chosen.is_none_or(|c| c == **t))
                .filter_map(|t| type_code(t))
                .collect(),
        );
    }
    let limit = read_limit(ctx, params, crate::limits::ACCOUNT_OBJECTS_PAGE)?;
    let (mut dir_key, mut entry_key, mut found) = (keylet::owner_dir(&id), Hash256::ZERO, true);
    if let Some(m) = params.get("marker") {
        let text = m
            .as_str()
            .ok_or_else(|| RpcError::expected_field("marker", "string"))?;
        let parts: Vec<&str> = text.split(',').collect();
        let [d, e] = parts.as_slice() else {
            return Err(RpcError::invalid_field("marker"));
        };
        dir_key = parse_hash256(d).ok_or_else(|| RpcError::invalid_field("marker"))?;
        entry_key = parse_hash256(e).ok_or_else(|| RpcError::invalid_field("marker"))?;
        found = false;
    }

    let s = sf();
    let root = keylet::owner_dir(&id);
    let mut objects = Vec::new();
    let mut next_marker = None;
    let mut taken: u32 = 0;
    let mut dir = view.read(&dir_key);
    // Each step reads one page; the bound guards a malformed directory chain.
    for _ in 0..=crate::limits::DIR_PAGES_MAX {
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
            if taken == limit {
                next_marker = Some(format!("{},{}", dir_key.to_hex(), key.to_hex()));
                full = true;
                break;
            }
            if let Some(entry) = view.read(key) {
                let ty = entry.u16_of(s.ledger_entry_type).unwrap_or(0);
                if filter.as_ref().is_none_or(|f| f.contains(&ty)) {
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
        if taken == limit {
            if let Some(first) = dir
                .as_ref()
                .and_then(|p| p.v256_of(s.indexes)?.first().copied())
            {
                next_marker = Some(format!("{},{}", dir_key.to_hex(), first.to_hex()));
            }
            break;
        }
    }
    let mut result = sel.result();
    result.insert("account".into(), Value::from(id.to_address()));
    result.insert("account_objects".into(), Value::Array(objects));
    if let Some(m) = next_marker {
        result.insert("limit".into(), Value::from(limit));
        result.insert("marker".into(), Value::from(m));
    }
    Ok(result)
}
