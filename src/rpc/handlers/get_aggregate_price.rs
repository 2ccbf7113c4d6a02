//! `get_aggregate_price` (rippled `GetAggregatePrice.cpp`): the mean, median and standard
//! deviation of one token pair's price across up to 200 price oracles, optionally trimmed
//! of outliers (`trim`, a percentage up to 25) and limited to the prices set within
//! `time_threshold` seconds of the latest. An oracle whose current series lacks the
//! pair's price is looked up in its earlier versions, through the metadata of the
//! transactions that set them (rippled's three steps back), in the ledgers kept in memory.

use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash256};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::{select, Selected};
use crate::rpc::params::uint_or_decimal;
use crate::rpc::price_stats::{aggregate, price_value, Price};
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Oracles one get_aggregate_price request may name (`maxOracles`).
pub const AGGREGATE_PRICE_ORACLES_MAX: usize = 200;
/// Largest trim percentage of get_aggregate_price (`maxTrim`).
pub const AGGREGATE_PRICE_TRIM_MAX: u32 = 25;
/// Earlier versions of an oracle get_aggregate_price looks back through when the latest
/// lacks the pair (`maxHistory`).
pub const AGGREGATE_PRICE_HISTORY_MAX: usize = 3;

/// `trim` or `time_threshold`: 0 when absent.
fn uint_param(params: &Params, field: &str) -> Result<u32, RpcError> {
    match params.get(field) {
        None => Ok(0),
        Some(v) => uint_or_decimal(v).ok_or_else(|| RpcError::new(ErrorCode::InvalidParams)),
    }
}

/// `base_asset` / `quote_asset`: a non-empty string naming a currency; the request's own
/// text is what the oracles' currencies are matched against (rippled compares texts).
fn asset_param(params: &Params, field: &str) -> Result<String, RpcError> {
    let v = params
        .get(field)
        .ok_or_else(|| RpcError::missing_field(field))?;
    let text = v
        .as_str()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?;
    match Currency::from_json_str(text) {
        Ok(c) if !is_no_currency(&c) => Ok(text.to_owned()),
        _ => Err(RpcError::new(ErrorCode::InvalidParams)),
    }
}

/// rippled's `noCurrency()` (0x...01), refused by `currencyFromJson`.
fn is_no_currency(c: &Currency) -> bool {
    c.0[..19].iter().all(|b| *b == 0) && c.0[19] == 1
}

/// The request's checked parameters.
struct Request<'a> {
    oracles: &'a [Value],
    base: String,
    quote: String,
    trim: u32,
    threshold: u32,
}

fn parse(params: &Params) -> Result<Request<'_>, RpcError> {
    let oracles = params
        .get("oracles")
        .ok_or_else(|| RpcError::missing_field("oracles"))?;
    let oracles = match oracles.as_array() {
        Some(a) if !a.is_empty() && a.len() <= AGGREGATE_PRICE_ORACLES_MAX => a.as_slice(),
        _ => return Err(RpcError::new(ErrorCode::OracleMalformed)),
    };
    if !params.contains_key("base_asset") {
        return Err(RpcError::missing_field("base_asset"));
    }
    if !params.contains_key("quote_asset") {
        return Err(RpcError::missing_field("quote_asset"));
    }
    let trim = uint_param(params, "trim")?;
    if params.contains_key("trim") && (trim == 0 || trim > AGGREGATE_PRICE_TRIM_MAX) {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    let threshold = uint_param(params, "time_threshold")?;
    Ok(Request {
        oracles,
        base: asset_param(params, "base_asset")?,
        quote: asset_param(params, "quote_asset")?,
        trim,
        threshold,
    })
}

/// One `oracles` element: (account, oracle_document_id).
fn oracle_ref(v: &Value) -> Result<(AccountId, u32), RpcError> {
    let (Some(doc), Some(account)) = (v.get("oracle_document_id"), v.get("account")) else {
        return Err(RpcError::new(ErrorCode::OracleMalformed));
    };
    let doc = uint_or_decimal(doc);
    let account = account
        .as_str()
        .and_then(|s| AccountId::from_address(s).ok())
        .filter(|a| *a != AccountId::ZERO);
    match (account, doc) {
        (Some(a), Some(d)) => Ok((a, d)),
        _ => Err(RpcError::new(ErrorCode::InvalidParams)),
    }
}

/// The price of (base, quote) in an object carrying a PriceDataSeries, if it has one.
fn pair_price(node: &StObject, base: &str, quote: &str) -> Option<Price> {
    let s = sf();
    let text = |o: &StObject, f| match o.get(f) {
        Some(StValue::Currency(c)) => c.to_json_string(),
        _ => String::new(),
    };
    let series = node.get_array("PriceDataSeries")?;
    let entry = series.iter().map(|(_, e)| e).find(|e| {
        text(e, s.base_asset) == base && text(e, s.quote_asset) == quote && e.has("AssetPrice")
    })?;
    Some(Price {
        time: node.u32_of(s.last_update_time).unwrap_or(0),
        value: price_value(
            entry.u64_of(s.asset_price).unwrap_or(0),
            entry.u8_of(s.scale).unwrap_or(0),
        ),
    })
}

/// The first Oracle node of a transaction's metadata, from the ledger `seq` in memory.
fn oracle_node(ctx: &Context, tx_id: &Hash256, seq: u32) -> Option<Option<StObject>> {
    let snap = ctx.services.ledgers().by_seq(seq)?;
    let ledger = snap.ledger?;
    let entry = ledger.txs.iter().find(|t| t.id == *tx_id)?;
    let meta = entry.meta();
    let nodes = meta.get_array("AffectedNodes")?;
    let node = nodes.iter().map(|(_, n)| n).find(|n| {
        n.u16_of(sf().ledger_entry_type) == Some(lt::ORACLE)
    });
    Some(node.cloned())
}

/// rippled's `iteratePriceData`: the oracle's price of the pair, else the price in up to
/// three earlier versions, following PreviousTxnID through the metadata.
fn find_price(ctx: &Context, oracle: &StObject, base: &str, quote: &str) -> Option<Price> {
    let s = sf();
    let mut data = oracle.clone();
    let mut chain = oracle.clone();
    for history in 1..=AGGREGATE_PRICE_HISTORY_MAX + 1 {
        if let Some(p) = pair_price(&data, base, quote) {
            return Some(p);
        }
        if history > AGGREGATE_PRICE_HISTORY_MAX {
            return None;
        }
        let tx_id = chain.h256_of(s.previous_txn_id)?;
        let seq = chain.u32_of(s.previous_txn_lgr_seq)?;
        // No Oracle node in that metadata ends the walk.
        let node = oracle_node(ctx, &tx_id, seq)??;
        let created = node.get_object("NewFields");
        if created.is_some() && history == 1 {
            return None;
        }
        data = created.or(node.get_object("FinalFields"))?.clone();
        let is_new = created.is_some();
        chain = node;
        if is_new {
            return pair_price(&data, base, quote);
        }
    }
    None
}

/// The prices of the named oracles in the selected ledger.
fn collect(
    ctx: &Context,
    params: &Params,
    req: &Request,
) -> Result<(Selected, Vec<Price>), RpcError> {
    let mut sel: Option<Selected> = None;
    let mut prices = Vec::new();
    for v in req.oracles {
        let (account, doc) = match oracle_ref(v) {
            Ok(r) => r,
            Err(e) => return Err(sel.map_or(e.clone(), |s| s.inject(e))),
        };
        if sel.is_none() {
            sel = Some(select(ctx, params)?);
        }
        let view = &sel.as_ref().expect("selected").snap.view;
        if let Some(oracle) = view.read(&keylet::oracle(&account, doc)) {
            prices.extend(find_price(ctx, &oracle, &req.base, &req.quote));
        }
    }
    Ok((sel.expect("at least one oracle"), prices))
}

/// Answer get_aggregate_price.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let req = parse(params)?;
    let (sel, prices) = collect(ctx, params, &req)?;
    if prices.is_empty() {
        return Err(sel.inject(ErrorCode::ObjectNotFound));
    }
    let mut r = sel.result();
    r.extend(aggregate(prices, req.trim, req.threshold));
    Ok(r)
}
