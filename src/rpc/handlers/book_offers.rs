//! `book_offers` (rippled `BookOffers.cpp`, `NetworkOPs::getBookPage`): one page of an
//! order book, best quality first, each offer with what its owner can fund. rippled reads
//! `marker` but answers none; so does this.

use std::collections::HashMap;

use crate::protocol::types::{AccountId, Currency, Hash256, Issue};
use crate::rpc::book_page::{book_page, parse_issuer, Book};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::read_limit;
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Which side of the book a spec describes, for the error codes and messages.
struct Side {
    name: &'static str,
    currency_code: ErrorCode,
    issuer_code: ErrorCode,
}

const PAYS: Side = Side {
    name: "taker_pays",
    currency_code: ErrorCode::SrcCurMalformed,
    issuer_code: ErrorCode::SrcIsrMalformed,
};
const GETS: Side = Side {
    name: "taker_gets",
    currency_code: ErrorCode::DstAmtMalformed,
    issuer_code: ErrorCode::DstIsrMalformed,
};

/// The currency of a side (checked for both sides before either issuer, as rippled).
fn currency(spec: &Value, side: &Side) -> Result<Currency, RpcError> {
    let name = side.name;
    let c = spec
        .get("currency")
        .ok_or_else(|| RpcError::missing_field(&format!("{name}.currency")))?;
    let c = c
        .as_str()
        .ok_or_else(|| RpcError::expected_field(&format!("{name}.currency"), "string"))?;
    Currency::from_json_str(c).map_err(|_| {
        RpcError::with_message(
            side.currency_code,
            format!("Invalid field '{name}.currency', bad currency."),
        )
    })
}

/// The issuer of a side, checked against its currency.
fn issuer(spec: &Value, side: &Side, currency: &Currency) -> Result<AccountId, RpcError> {
    let name = side.name;
    let err = |msg: String| RpcError::with_message(side.issuer_code, msg);
    let issuer = match spec.get("issuer") {
        None => AccountId::ZERO,
        Some(v) => {
            let text = v
                .as_str()
                .ok_or_else(|| RpcError::expected_field(&format!("{name}.issuer"), "string"))?;
            let id = parse_issuer(text)
                .ok_or_else(|| err(format!("Invalid field '{name}.issuer', bad issuer.")))?;
            if id == AccountId::ONE {
                return Err(err(format!(
                    "Invalid field '{name}.issuer', bad issuer account one."
                )));
            }
            id
        }
    };
    if currency.is_xrp() && issuer != AccountId::ZERO {
        return Err(err(format!(
            "Unneeded field '{name}.issuer' for XRP currency specification."
        )));
    }
    if !currency.is_xrp() && issuer == AccountId::ZERO {
        return Err(err(format!(
            "Invalid field '{name}.issuer', expected non-XRP issuer."
        )));
    }
    Ok(issuer)
}

/// The book the request names, with rippled's checks in rippled's order.
fn book(params: &Params) -> Result<Book, RpcError> {
    let pays = params
        .get("taker_pays")
        .ok_or_else(|| RpcError::missing_field("taker_pays"))?;
    let gets = params
        .get("taker_gets")
        .ok_or_else(|| RpcError::missing_field("taker_gets"))?;
    let null = Value::Object(Default::default());
    let object = |v: &Value, name: &str| match v {
        Value::Object(_) => Ok(v.clone()),
        Value::Null => Ok(null.clone()),
        _ => Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            format!("Invalid field '{name}', not object."),
        )),
    };
    let (pays, gets) = (object(pays, "taker_pays")?, object(gets, "taker_gets")?);
    let pay_currency = currency(&pays, &PAYS)?;
    let get_currency = currency(&gets, &GETS)?;
    let pay_issuer = issuer(&pays, &PAYS, &pay_currency)?;
    let get_issuer = issuer(&gets, &GETS, &get_currency)?;
    Ok(Book {
        pays: Issue {
            currency: pay_currency,
            issuer: pay_issuer,
        },
        gets: Issue {
            currency: get_currency,
            issuer: get_issuer,
        },
        domain: None,
    })
}

/// The optional `taker` (zero when absent).
fn taker(params: &Params) -> Result<AccountId, RpcError> {
    match params.get("taker") {
        None => Ok(AccountId::ZERO),
        Some(v) => {
            let text = v
                .as_str()
                .ok_or_else(|| RpcError::expected_field("taker", "string"))?;
            AccountId::from_address(text).map_err(|_| RpcError::invalid_field("taker"))
        }
    }
}

/// A closed ledger's book page as one taker sees it: (ledger hash, book, taker, limit).
type PageKey = (Hash256, Book, AccountId, u32);

/// Pages of closed ledgers already rendered. A closed ledger never changes, so a page of
/// it is rendered once; the cache empties when full.
static PAGES: std::sync::LazyLock<parking_lot::Mutex<HashMap<PageKey, Vec<Value>>>> =
    std::sync::LazyLock::new(Default::default);

fn cached_page(key: PageKey, render: impl FnOnce() -> Vec<Value>) -> Vec<Value> {
    if let Some(page) = PAGES.lock().get(&key) {
        return page.clone();
    }
    let page = render();
    let mut pages = PAGES.lock();
    if pages.len() >= crate::limits::BOOK_PAGE_CACHE_ENTRIES {
        pages.clear();
    }
    pages.insert(key, page.clone());
    page
}

/// Answer book_offers.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    let mut book = book(params)?;
    let taker = taker(params)?;
    book.domain = match params.get("domain") {
        None => None,
        Some(v) => Some(v.as_str().and_then(parse_hash256).ok_or_else(|| {
            RpcError::with_message(ErrorCode::DomainMalformed, "Unable to parse domain.")
        })?),
    };
    if book.pays == book.gets {
        return Err(RpcError::new(ErrorCode::BadMarket));
    }
    let limit = read_limit(ctx, params, crate::limits::BOOK_OFFERS_PAGE)?;
    let offers = match &sel.snap.ledger {
        Some(closed) => {
            let key = (closed.header.hash, book, taker, limit);
            cached_page(key, || book_page(&sel.snap.view, &book, &taker, limit))
        }
        None => book_page(&sel.snap.view, &book, &taker, limit),
    };
    let mut result = sel.result();
    result.insert("offers".into(), Value::Array(offers));
    Ok(result)
}
