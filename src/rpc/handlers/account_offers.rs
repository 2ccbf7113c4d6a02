//! `account_offers` (rippled `AccountOffers.cpp`): the offers an account placed, paged over
//! its whole owner directory like account_lines, each with its directory's rate.

use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use crate::rpc::book_page::quality_text;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::{
    account_field, check_marker, existing_account, read_limit, walk_page_after,
};
use crate::rpc::params::{parse_hash256, parse_u64_decimal};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// One offer as rippled prints it (`appendOfferJson`).
pub fn offer_json(entry: &StObject) -> Value {
    let s = sf();
    let mut o = Map::new();
    o.insert("flags".into(), Value::from(entry.flags()));
    o.insert(
        "seq".into(),
        Value::from(entry.u32_of(s.sequence).unwrap_or(0)),
    );
    for (name, f) in [("taker_gets", s.taker_gets), ("taker_pays", s.taker_pays)] {
        if let Some(a) = entry.amount_of(f) {
            o.insert(name.into(), a.to_json());
        }
    }
    let dir = entry.h256_of(s.book_directory).unwrap_or_default();
    o.insert("quality".into(), Value::from(quality_text(&dir)));
    if let Some(e) = entry.u32_of(s.expiration) {
        o.insert("expiration".into(), Value::from(e));
    }
    o.sort_keys();
    Value::Object(o)
}

/// The marker `<entry key>,<page hint>`; what does not parse is "Invalid field 'marker'."
/// (account_offers' own wording; account_lines answers a bare invalidParams).
fn parse_marker(v: &Value) -> Result<(Hash256, u64), RpcError> {
    let text = v
        .as_str()
        .ok_or_else(|| RpcError::expected_field("marker", "string"))?;
    let bad = || RpcError::invalid_field("marker");
    let mut parts = text.split(',');
    let key = parts.next().and_then(parse_hash256).ok_or_else(bad)?;
    let hint = parts.next().and_then(parse_u64_decimal).ok_or_else(bad)?;
    Ok((key, hint))
}

/// Answer account_offers.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = account_field(params)?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    let id = existing_account(view, account, || sel.inject(ErrorCode::ActMalformed))?;
    let limit = read_limit(ctx, params, crate::limits::ACCOUNT_OFFERS_PAGE)?;
    let after = match params.get("marker") {
        None => None,
        Some(v) => {
            let m = parse_marker(v)?;
            check_marker(view, &id, &m)?;
            Some(m)
        }
    };
    let s = sf();
    let (offers, marker) = walk_page_after(view, &id, after, limit, |_, entry| {
        (entry.u16_of(s.ledger_entry_type) == Some(lt::OFFER)).then(|| offer_json(entry))
    })?;
    let mut result = sel.result();
    result.insert("account".into(), Value::from(id.to_address()));
    result.insert("offers".into(), Value::Array(offers));
    if let Some(m) = marker {
        result.insert("limit".into(), Value::from(limit));
        result.insert("marker".into(), Value::from(m));
    }
    Ok(result)
}
