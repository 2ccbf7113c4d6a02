//! `account_nfts` (rippled `AccountObjects.cpp` `doAccountNFTs`): the tokens an account
//! holds, page by page in storage order, each with the parts of its NFTokenID.

use crate::engine::nft;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::codec;
use crate::protocol::types::{AccountId, Hash256};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::read_limit;
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// One token as rippled prints it: its fields plus Flags, Issuer, the unscrambled
/// NFTokenTaxon, nft_serial and a non-zero TransferFee.
fn token_json(token: &crate::protocol::st::StObject, id: &Hash256) -> Value {
    let mut o = match codec::to_json(token) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    o.insert("Flags".into(), Value::from(nft::token_flags(id)));
    o.insert("Issuer".into(), Value::from(nft::issuer(id).to_address()));
    o.insert("NFTokenTaxon".into(), Value::from(nft::taxon(id)));
    o.insert("nft_serial".into(), Value::from(nft::serial(id)));
    let fee = nft::transfer_fee(id);
    if fee != 0 {
        o.insert("TransferFee".into(), Value::from(fee));
    }
    o.sort_keys();
    Value::Object(o)
}

fn marker(params: &Params) -> Result<Option<Hash256>, RpcError> {
    match params.get("marker") {
        None => Ok(None),
        Some(Value::String(s)) => parse_hash256(s)
            .map(Some)
            .ok_or_else(|| RpcError::invalid_field("marker")),
        Some(_) => Err(RpcError::expected_field("marker", "string")),
    }
}

/// Answer account_nfts.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = match params.get("account") {
        None => return Err(RpcError::missing_field("account")),
        Some(Value::String(s)) => s,
        Some(_) => return Err(RpcError::invalid_field("account")),
    };
    let id = AccountId::from_address(account).map_err(|_| RpcError::new(ErrorCode::ActMalformed))?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    if view.read(&crate::ledger::keylet::account(&id)).is_none() {
        return Err(RpcError::new(ErrorCode::ActNotFound));
    }
    let limit = read_limit(ctx, params, crate::limits::ACCOUNT_NFTS_PAGE)?;
    let mark = marker(params)?;
    let mut result = sel.result();
    let (tokens, next) = page(view, &id, mark, limit)?;
    result.insert("account_nfts".into(), Value::Array(tokens));
    match next {
        Some(m) => {
            result.insert("limit".into(), Value::from(limit));
            result.insert("marker".into(), Value::from(m.to_hex()));
        }
        None => {
            result.insert("account".into(), Value::from(id.to_address()));
        }
    }
    Ok(result)
}

type Page = (Vec<Value>, Option<Hash256>);

/// The tokens after `mark` (rippled compares the low 96 bits first, then the whole ID),
/// at most `limit`, and the last one's ID when the limit was reached.
fn page(
    view: &dyn ReadView,
    owner: &AccountId,
    mark: Option<Hash256>,
    limit: u32,
) -> Result<Page, RpcError> {
    let s = sf();
    let marker = mark.unwrap_or(Hash256::ZERO);
    let mut past = marker.is_zero();
    let mut found = false;
    let mut out = Vec::new();
    let mut key = nft::locate_page(view, owner, &marker);
    while let Some(page) = key.and_then(|k| view.read(&k)) {
        for token in nft::page_tokens(&page) {
            let id = token.h256_of(s.nftoken_id).unwrap_or(Hash256::ZERO);
            if !past {
                match nft::low96(&id).cmp(nft::low96(&marker)) {
                    std::cmp::Ordering::Less => continue,
                    std::cmp::Ordering::Equal if id < marker => continue,
                    _ => {}
                }
                if id == marker {
                    found = true;
                    continue;
                }
            }
            if mark.is_some() && !found {
                return Err(RpcError::invalid_field("marker"));
            }
            past = true;
            out.push(token_json(&token, &id));
            if out.len() as u32 == limit {
                return Ok((out, Some(id)));
            }
        }
        key = page.h256_of(s.next_page_min);
    }
    if mark.is_some() && !found {
        return Err(RpcError::invalid_field("marker"));
    }
    Ok((out, None))
}
