//! What the paged account handlers (account_lines, account_channels, account_objects)
//! share: the `account` field, `limit` (rippled `readLimitField`, `Tuning.h` ranges), and
//! the walk over an owner directory after a marker (rippled `forEachItemAfter`,
//! `getStartHint`, `isRelatedToAccount`).

use std::sync::Arc;

use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::limits::PageLimit;
use crate::protocol::amount::Amount;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_string, parse_hash256, parse_u64_decimal};
use crate::rpc::Params;
use serde_json::Value;

/// Every trust line in `account`'s owner directory, as `account` sees it.
pub fn trust_lines(
    view: &dyn ReadView,
    account: &AccountId,
) -> Vec<crate::ledger::trust_line::TrustLine> {
    crate::ledger::directory::owned(view, account)
        .iter()
        .filter_map(|k| view.read(k))
        .filter_map(|e| crate::ledger::trust_line::TrustLine::from_entry(&e, account))
        .collect()
}

/// The required `account` string (`Missing field` / `Invalid field 'account'.`).
pub fn account_field(params: &Params) -> Result<&str, RpcError> {
    match params.get("account") {
        None => Err(RpcError::missing_field("account")),
        Some(v) => v.as_str().ok_or_else(|| RpcError::invalid_field("account")),
    }
}

/// The account a paged request names, which must exist in `view`. An address that does not
/// parse gets `malformed()` (rippled's account_lines injects the ledger fields into that
/// error, account_channels and account_objects do not); a missing account root is
/// `actNotFound`.
pub fn existing_account(
    view: &dyn ReadView,
    address: &str,
    malformed: impl FnOnce() -> RpcError,
) -> Result<AccountId, RpcError> {
    let id = AccountId::from_address(address).map_err(|_| malformed())?;
    if view.read(&keylet::account(&id)).is_none() {
        return Err(RpcError::new(ErrorCode::ActNotFound));
    }
    Ok(id)
}

/// An optional account filter (`peer`, `destination_account`): absent or empty is none, a
/// value that is not a string, number, boolean or null is `invalidParams` (rippled's
/// `asString` throws on it, answered `internal`), an address that does not parse is
/// `malformed()`.
pub fn optional_account(
    params: &Params,
    name: &str,
    malformed: impl FnOnce() -> RpcError,
) -> Result<Option<AccountId>, RpcError> {
    let Some(v) = params.get(name) else {
        return Ok(None);
    };
    let text = as_string(v).ok_or_else(|| RpcError::invalid_field(name))?;
    if text.is_empty() {
        return Ok(None);
    }
    AccountId::from_address(&text)
        .map(Some)
        .map_err(|_| malformed())
}

/// rippled's `readLimitField`: absent or null is the default; otherwise a non-negative
/// integer, clamped to the range for limited callers and taken as is for unlimited ones
/// (admins and identified callers, rippled's `isUnlimited`).
pub fn read_limit(ctx: &Context, params: &Params, page: PageLimit) -> Result<u32, RpcError> {
    let PageLimit { min, default, max } = page;
    let v = match params.get("limit") {
        None | Some(Value::Null) => return Ok(default),
        Some(v) => v,
    };
    let n = crate::rpc::params::unsigned_integer(v)
        .ok_or_else(|| RpcError::expected_field("limit", "unsigned integer"))?;
    if ctx.role.is_unlimited() {
        Ok(n)
    } else {
        Ok(n.clamp(min, max))
    }
}

/// An account-lines style marker: `<entry key hex>,<directory page hint>`. Any failure
/// is `invalidParams` with the default message, as rippled answers.
pub fn parse_marker(value: &Value) -> Result<(Hash256, u64), RpcError> {
    let text = value
        .as_str()
        .ok_or_else(|| RpcError::expected_field("marker", "string"))?;
    let bad = || RpcError::new(ErrorCode::InvalidParams);
    let (key, hint) = text.split_once(',').ok_or_else(bad)?;
    if hint.contains(',') {
        return Err(bad());
    }
    let key = parse_hash256(key).ok_or_else(bad)?;
    let hint = parse_u64_decimal(hint).ok_or_else(bad)?;
    Ok((key, hint))
}

/// The marker text for an entry.
pub fn marker_text(key: &Hash256, hint: u64) -> String {
    format!("{},{hint}", key.to_hex())
}

fn issuer(entry: &StObject, field: crate::protocol::definitions::Field) -> Option<AccountId> {
    match entry.amount_of(field)? {
        Amount::Iou { issuer, .. } => Some(issuer),
        Amount::Xrp(_) => None,
    }
}

/// rippled's `isRelatedToAccount`: a trust line with the account on either side, or an
/// entry whose `Account` or `Destination` is the account.
pub fn is_related(entry: &StObject, account: &AccountId) -> bool {
    let s = sf();
    if entry.u16_of(s.ledger_entry_type) == Some(lt::RIPPLE_STATE) {
        return issuer(entry, s.low_limit) == Some(*account)
            || issuer(entry, s.high_limit) == Some(*account);
    }
    match entry.account_of(s.account) {
        Some(a) => a == *account || entry.account_of(s.destination) == Some(*account),
        None => entry.account_of(s.owner) == Some(*account),
    }
}

/// rippled's `getStartHint`: the owner-directory page an entry says it is on, from the
/// account's side.
pub fn start_hint(entry: &StObject, account: &AccountId) -> u64 {
    let s = sf();
    if entry.u16_of(s.ledger_entry_type) == Some(lt::RIPPLE_STATE) {
        if issuer(entry, s.low_limit) == Some(*account) {
            return entry.u64_of(s.low_node).unwrap_or(0);
        }
        if issuer(entry, s.high_limit) == Some(*account) {
            return entry.u64_of(s.high_node).unwrap_or(0);
        }
    }
    entry.u64_of(s.owner_node).unwrap_or(0)
}

/// Checks a marker names an entry of this ledger related to the account (else
/// `invalidParams`).
pub fn check_marker(
    view: &dyn ReadView,
    account: &AccountId,
    marker: &(Hash256, u64),
) -> Result<(), RpcError> {
    match view.read(&marker.0) {
        Some(e) if is_related(&e, account) => Ok(()),
        _ => Err(RpcError::new(ErrorCode::InvalidParams)),
    }
}

/// rippled's `forEachItemAfter` over `account`'s owner directory: visits at most `limit`
/// entries (at least one), in directory order, starting after `after` (found on its hint
/// page, else by a scan from the root). Returns false when `after` was given and never
/// seen.
pub fn for_each_after(
    view: &dyn ReadView,
    account: &AccountId,
    after: Option<(Hash256, u64)>,
    limit: u32,
    mut f: impl FnMut(&Hash256, &Arc<StObject>),
) -> bool {
    let mut left = limit.max(1);
    let (start, mut found) = match after {
        None => (0, true),
        Some((key, hint)) => {
            let page = keylet::dir_page(&keylet::owner_dir(account), hint);
            let on_hint = view
                .read(&page)
                .and_then(|p| p.v256_of(sf().indexes).map(|v| v.contains(&key)))
                .unwrap_or(false);
            (if on_hint { hint } else { 0 }, false)
        }
    };
    let after_key = after.map(|a| a.0);
    crate::ledger::directory::for_each_owned(view, account, start, |_, key| {
        if !found {
            found = Some(*key) == after_key;
            return true;
        }
        if let Some(entry) = view.read(key) {
            f(key, &entry);
        }
        left -= 1;
        left > 0
    });
    found
}

/// One page of a paged account handler, as rippled pages account_lines and
/// account_channels: it reads `marker` (which must name an entry related to `account`),
/// visits up to `limit + 1` owner-directory entries of any type, offers the first `limit` to
/// `pick`, and returns what `pick` kept plus the marker (the `limit`-th visited entry), given
/// only when a further entry exists.
pub fn walk_page(
    view: &dyn ReadView,
    account: &AccountId,
    params: &Params,
    limit: u32,
    pick: impl FnMut(&Hash256, &Arc<StObject>) -> Option<Value>,
) -> Result<(Vec<Value>, Option<String>), RpcError> {
    let after = match params.get("marker") {
        None => None,
        Some(v) => {
            let m = parse_marker(v)?;
            check_marker(view, account, &m)?;
            Some(m)
        }
    };
    walk_page_after(view, account, after, limit, pick)
}

/// [`walk_page`] after a marker the caller parsed and checked (account_offers answers
/// its own errors for a marker that does not parse).
pub fn walk_page_after(
    view: &dyn ReadView,
    account: &AccountId,
    after: Option<(Hash256, u64)>,
    limit: u32,
    mut pick: impl FnMut(&Hash256, &Arc<StObject>) -> Option<Value>,
) -> Result<(Vec<Value>, Option<String>), RpcError> {
    let mut items = Vec::new();
    let mut count: u64 = 0;
    let mut next = None;
    let walked = for_each_after(
        view,
        account,
        after,
        limit.saturating_add(1),
        |key, entry| {
            count += 1;
            if count == u64::from(limit) {
                next = Some(marker_text(key, start_hint(entry, account)));
            }
            if count <= u64::from(limit) {
                items.extend(pick(key, entry));
            }
        },
    );
    if !walked {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    let more = count == u64::from(limit) + 1;
    Ok((items, next.filter(|_| more)))
}
