//! What `nft_buy_offers` and `nft_sell_offers` share (rippled `NFTOffers.cpp`
//! `enumerateNFTOffers`): one page of a token's buy or sell offer directory.

use std::sync::Arc;

use crate::engine::nft::offer_at;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::read_limit;
use crate::rpc::params::{as_string, parse_hash256};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The token the request names (`nft_id`, 64 hex digits).
fn nft_id(params: &Params) -> Result<Hash256, RpcError> {
    let v = params
        .get("nft_id")
        .ok_or_else(|| RpcError::missing_field("nft_id"))?;
    as_string(v)
        .and_then(|s| parse_hash256(&s))
        .ok_or_else(|| RpcError::invalid_field("nft_id"))
}

/// One offer as rippled prints it (`appendNftOfferJson`).
fn offer_json(key: &Hash256, offer: &StObject) -> Value {
    let s = sf();
    let mut o = Map::new();
    o.insert("nft_offer_index".into(), Value::from(key.to_hex()));
    o.insert("flags".into(), Value::from(offer.flags()));
    if let Some(a) = offer.account_of(s.owner) {
        o.insert("owner".into(), Value::from(a.to_address()));
    }
    if let Some(d) = offer.account_of(s.destination) {
        o.insert("destination".into(), Value::from(d.to_address()));
    }
    if let Some(e) = offer.u32_of(s.expiration) {
        o.insert("expiration".into(), Value::from(e));
    }
    if let Some(a) = offer.amount_of(s.amount) {
        o.insert("amount".into(), a.to_json());
    }
    o.sort_keys();
    Value::Object(o)
}

/// Every key of the directory rooted at `root`, in directory order.
fn directory_keys(view: &dyn ReadView, root: &Hash256) -> Vec<Hash256> {
    let s = sf();
    let mut keys = Vec::new();
    let mut page = 0u64;
    while let Some(p) = view.read(&keylet::dir_page(root, page)) {
        keys.extend(p.v256_of(s.indexes).unwrap_or(&[]).iter().copied());
        page = p.u64_of(s.index_next).unwrap_or(0);
        if page == 0 {
            break;
        }
    }
    keys
}

/// Answers nft_buy_offers (`sell` false) or nft_sell_offers (`sell` true).
pub fn handle(ctx: &Context, params: &Params, sell: bool) -> HandlerResult {
    let id = nft_id(params)?;
    let limit = read_limit(ctx, params, crate::limits::NFT_OFFERS_PAGE)?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    let dir = if sell {
        keylet::nft_sells(&id)
    } else {
        keylet::nft_buys(&id)
    };
    if view.read(&dir).is_none() {
        return Err(RpcError::new(ErrorCode::ObjectNotFound));
    }
    let keys = directory_keys(view, &dir);
    let mut page: Vec<(Hash256, Arc<StObject>)> = Vec::new();
    let (start, reserve) = match params.get("marker") {
        None => (0, limit as usize + 1),
        Some(m) => {
            let text = m
                .as_str()
                .ok_or_else(|| RpcError::expected_field("marker", "string"))?;
            let bad = || RpcError::new(ErrorCode::InvalidParams);
            let after = parse_hash256(text).ok_or_else(bad)?;
            let offer = offer_at(view, &after)
                .filter(|o| o.h256_of(sf().nftoken_id) == Some(id))
                .ok_or_else(bad)?;
            page.push((after, offer));
            let pos = keys.iter().position(|k| *k == after).ok_or_else(bad)?;
            (pos + 1, limit as usize)
        }
    };
    let mut found: Vec<(Hash256, Arc<StObject>)> = keys[start.min(keys.len())..]
        .iter()
        .filter_map(|k| offer_at(view, k).map(|o| (*k, o)))
        .take(reserve)
        .collect();
    let mut result = Map::new();
    result.insert("nft_id".into(), Value::from(id.to_hex()));
    if found.len() == reserve {
        if let Some((last, _)) = found.pop() {
            result.insert("limit".into(), Value::from(limit));
            result.insert("marker".into(), Value::from(last.to_hex()));
        }
    }
    page.extend(found);
    let offers = page.iter().map(|(k, o)| offer_json(k, o)).collect();
    result.insert("offers".into(), Value::Array(offers));
    Ok(result)
}
