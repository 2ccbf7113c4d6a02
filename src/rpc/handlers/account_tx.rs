//! `account_tx` (rippled 2.x `AccountTx.cpp`, `RelationalDatabase` paging;
//! docs/notes/history-spec.md §1): an account's validated transactions, newest first by
//! default, paged with a `{ledger, seq}` marker, from the history store.

use crate::limits::{ACCOUNT_TX_ADMIN_ROWS_MAX, ACCOUNT_TX_PAGE_BINARY, ACCOUNT_TX_PAGE_JSON};
use crate::protocol::types::{AccountId, Hash256};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_bool, lenient_int, lenient_uint, parse_hash256, unsigned_integer};
use crate::rpc::{HandlerResult, Params};
use crate::render::rows::RowShape;
use crate::rpc::tx_rows::{cached_rows, rows_of};
use crate::rpc::tx_places::PlacesKey;
use crate::store::{AccountTxPlaces, AccountTxQuery};
use std::sync::Arc;
use serde_json::{Map, Value};

/// What the request asked for, parsed.
struct Request {
    account: String,
    id: AccountId,
    binary: bool,
    forward: bool,
    limit: u32,
    ledgers: Ledgers,
    marker: Option<(u32, u32)>,
}

/// The ledger arguments (`parseLedgerArgs`).
enum Ledgers {
    None,
    Range(u32, u32),
    Hash(Hash256),
    Seq(u32),
    /// "current" (or ""): never validated.
    Current,
    /// "closed" or "validated": the newest validated ledger in standalone.
    Validated,
}

/// Answer account_tx.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let req = parse(ctx, params)?;
    let (min, max) = resolve_range(ctx, &req.ledgers)?;
    let page_length = if req.binary {
        ACCOUNT_TX_PAGE_BINARY
    } else {
        ACCOUNT_TX_PAGE_JSON
    };
    let rows = rows(req.limit, page_length, ctx.role.is_unlimited());
    let query = AccountTxQuery {
        account: req.id,
        min,
        max,
        forward: req.forward,
        rows,
        marker: req.marker,
    };
    let shape = RowShape {
        api_version: ctx.api_version,
        binary: req.binary,
        in_ledger: false,
    };
    let (txs, marker): Page = match ctx.raw_json {
        true => match cached_page(ctx, &query, shape)? {
            Some(page) => page,
            None => rendered_page(ctx, &query, shape)?,
        },
        false => rendered_page(ctx, &query, shape)?,
    };
    let mut r = Map::new();
    r.insert("account".into(), Value::from(req.account));
    r.insert("ledger_index_min".into(), Value::from(min));
    r.insert("ledger_index_max".into(), Value::from(max));
    r.insert("limit".into(), Value::from(req.limit));
    if let Some((ledger, seq)) = marker {
        let mut m = Map::new();
        m.insert("ledger".into(), Value::from(ledger));
        m.insert("seq".into(), Value::from(seq));
        r.insert("marker".into(), Value::Object(m));
    }
    r.insert("transactions".into(), Value::Array(txs));
    r.insert("validated".into(), Value::Bool(true));
    Ok(r)
}

/// A page's rows and its marker.
type Page = (Vec<Value>, Option<(u32, u32)>);

/// The page from the history store, each row rendered (and kept, when the transport
/// splices rows).
fn rendered_page(ctx: &Context, query: &AccountTxQuery, shape: RowShape) -> Result<Page, RpcError> {
    let page = ctx
        .services
        .node
        .history
        .store
        .account_tx(query)
        .map_err(|e| RpcError::history_read(&e))?;
    Ok((rows_of(ctx, &page.txs, shape)?, page.marker))
}

/// The page from its places and the kept rows ([`cached_rows`]); None when a row moved.
fn cached_page(
    ctx: &Context,
    query: &AccountTxQuery,
    shape: RowShape,
) -> Result<Option<Page>, RpcError> {
    let places = places(ctx, query)?;
    Ok(cached_rows(ctx, &places.txs, shape)?.map(|rows| (rows, places.marker)))
}

/// The page's places: kept under the request and the hash of its newest ledger when that
/// hash is at hand (the validated ledger, or one in memory), else read from the store.
fn places(ctx: &Context, query: &AccountTxQuery) -> Result<Arc<AccountTxPlaces>, RpcError> {
    let node = &ctx.services.node;
    let max_hash = match node.status().validated {
        Some(v) if v.seq == query.max => Some(v.hash),
        _ => node
            .ledgers
            .by_seq(query.max)
            .and_then(|s| s.ledger)
            .map(|l| l.header.hash),
    };
    let key = max_hash.map(|h| PlacesKey::new(query, h));
    if let Some(kept) = key.as_ref().and_then(|k| ctx.services.places.get(k)) {
        return Ok(kept);
    }
    let read = node
        .history
        .store
        .account_tx_places(query)
        .map_err(|e| RpcError::history_read(&e))?;
    let read = Arc::new(read);
    if let Some(k) = key {
        ctx.services.places.insert(k, read.clone());
    }
    Ok(read)
}

/// Rows in a page: the page length unless a smaller limit is asked; unlimited callers
/// (admins, identified) may ask more.
fn rows(limit: u32, page_length: u32, unlimited: bool) -> u32 {
    if limit == 0 || limit == u32::MAX || (limit > page_length && !unlimited) {
        page_length
    } else {
        limit.min(ACCOUNT_TX_ADMIN_ROWS_MAX)
    }
}

fn parse(ctx: &Context, params: &Params) -> Result<Request, RpcError> {
    let v2 = ctx.api_version >= 2;
    let flag = |name: &str| -> Result<bool, RpcError> {
        match params.get(name) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) if v2 => Err(RpcError::invalid_field(name)),
            Some(v) => Ok(as_bool(v)),
        }
    };
    let binary = flag("binary")?;
    let forward = flag("forward")?;
    // rippled's `readLimitField`: a JSON integer in 0..=u32::MAX, else invalidParams.
    let limit = match params.get("limit") {
        None | Some(Value::Null) => 0,
        Some(v) => unsigned_integer(v)
            .ok_or_else(|| RpcError::expected_field("limit", "unsigned integer"))?,
    };
    let account = match params.get("account") {
        None => return Err(RpcError::missing_field("account")),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(RpcError::invalid_field("account")),
    };
    let id = AccountId::from_address(&account).map_err(|_| RpcError::new(ErrorCode::ActMalformed))?;
    let ledgers = ledger_args(params, v2)?;
    let marker = match params.get("marker") {
        None => None,
        Some(m) => Some(parse_marker(m)?),
    };
    Ok(Request {
        account,
        id,
        binary,
        forward,
        limit,
        ledgers,
        marker,
    })
}

fn ledger_args(params: &Params, v2: bool) -> Result<Ledgers, RpcError> {
    let (min, max) = (params.get("ledger_index_min"), params.get("ledger_index_max"));
    let (hash, index) = (params.get("ledger_hash"), params.get("ledger_index"));
    if v2 && (min.is_some() || max.is_some()) && (hash.is_some() || index.is_some()) {
        return Err(RpcError::with_message(ErrorCode::InvalidParams, "invalidParams"));
    }
    if min.is_some() || max.is_some() {
        // `asInt() >= 0 ? asUInt() : unbounded`; where jsoncpp would throw, invalidParams.
        let bound = |name: &str, v: Option<&Value>, unbounded: u32| -> Result<u32, RpcError> {
            match v.map(lenient_int) {
                None => Ok(unbounded),
                Some(None) => Err(RpcError::invalid_field(name)),
                Some(Some(i)) => Ok(u32::try_from(i).unwrap_or(unbounded)),
            }
        };
        return Ok(Ledgers::Range(
            bound("ledger_index_min", min, 0)?,
            bound("ledger_index_max", max, u32::MAX)?,
        ));
    }
    if let Some(h) = hash {
        let text = h
            .as_str()
            .ok_or_else(|| RpcError::with_message(ErrorCode::InvalidParams, "ledgerHashNotString"))?;
        let hash = parse_hash256(text)
            .ok_or_else(|| RpcError::with_message(ErrorCode::InvalidParams, "ledgerHashMalformed"))?;
        return Ok(Ledgers::Hash(hash));
    }
    match index {
        None => Ok(Ledgers::None),
        Some(Value::String(s)) => match s.as_str() {
            "current" | "" => Ok(Ledgers::Current),
            "closed" | "validated" => Ok(Ledgers::Validated),
            _ => Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "ledger_index string malformed",
            )),
        },
        Some(v) => lenient_uint(v)
            .map(Ledgers::Seq)
            .ok_or_else(|| RpcError::with_message(ErrorCode::InvalidParams, "ledgerIndexMalformed")),
    }
}

fn parse_marker(m: &Value) -> Result<(u32, u32), RpcError> {
    // `isConvertibleTo(uintValue)`: not a string; a number within u32.
    let field = |name: &str| m.get(name).filter(|v| !v.is_string()).and_then(lenient_uint);
    match (m.is_object(), field("ledger"), field("seq")) {
        (true, Some(l), Some(s)) => Ok((l, s)),
        _ => Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "invalid marker. Provide ledger index via ledger field, and transaction sequence number via seq field",
        )),
    }
}

/// The ledgers to search (`getLedgerRange`): within the validated range, with v1's and
/// v2's different answers to ranges outside it. That range is rippled's
/// `getValidatedRange`, the complete ledgers up to the validated one: it ends at the last
/// ledger the history store has written (earlier than the validated one while its writes
/// fail; `ledger_index_max` says where the search ended).
fn resolve_range(ctx: &Context, args: &Ledgers) -> Result<(u32, u32), RpcError> {
    let v2 = ctx.api_version >= 2;
    let node = &ctx.services.node;
    let no_range = || {
        RpcError::new(if v2 {
            ErrorCode::NotSynced
        } else {
            ErrorCode::LgrIdxsInvalid
        })
    };
    let validated = node
        .status()
        .validated
        .as_ref()
        .map(|v| v.seq)
        .ok_or_else(no_range)?;
    let (first, last) = node.complete_range();
    let (v_min, v_max) = (first.max(1), validated.min(last));
    if v_max < v_min {
        return Err(no_range());
    }
    let single = |seq: u32| -> Result<(u32, u32), RpcError> {
        if (v_min..=v_max).contains(&seq) {
            Ok((seq, seq))
        } else {
            Err(RpcError::new(ErrorCode::LgrNotValidated))
        }
    };
    match *args {
        Ledgers::None => Ok((v_min, v_max)),
        Ledgers::Range(min, max) => {
            if v2 && ((max > v_max && max != u32::MAX) || (min < v_min && min != 0)) {
                return Err(RpcError::new(ErrorCode::LgrIdxMalformed));
            }
            let (min, max) = (min.max(v_min), max.min(v_max));
            if max < min {
                return Err(RpcError::new(if v2 {
                    ErrorCode::InvalidLgrRange
                } else {
                    ErrorCode::LgrIdxsInvalid
                }));
            }
            Ok((min, max))
        }
        Ledgers::Current => Err(RpcError::new(ErrorCode::LgrNotValidated)),
        Ledgers::Validated => Ok((v_max, v_max)),
        Ledgers::Seq(seq) => {
            let open = node.ledgers.current().seq();
            if seq > open || (seq < v_min && seq != 0) {
                return Err(RpcError::new(ErrorCode::LgrNotFound));
            }
            single(seq)
        }
        Ledgers::Hash(hash) => {
            let seq = node.ledgers.by_hash(&hash).map(|s| s.seq()).or_else(|| {
                node.history
                    .store
                    .header_by_hash(&hash)
                    .ok()
                    .flatten()
                    .map(|h| h.seq)
            });
            single(seq.ok_or_else(|| RpcError::new(ErrorCode::LgrNotFound))?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_rippled_2x_page_lengths() {
        assert_eq!(rows(0, 200, false), 200);
        assert_eq!(rows(5, 200, false), 5);
        assert_eq!(rows(201, 200, false), 200);
        assert_eq!(rows(u32::MAX, 200, true), 200);
        assert_eq!(rows(1000, 200, true), 1000);
        assert_eq!(rows(1000, 500, false), 500);
    }
}
