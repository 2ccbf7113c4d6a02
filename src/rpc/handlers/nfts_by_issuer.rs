//! `nfts_by_issuer` (Clio `NFTsByIssuer.cpp`, a method rippled does not have): the
//! NFTokens an account issued by a ledger (the last validated by default), of one taxon
//! when `nft_taxon` is given, in token order, each as nft_info shows it; `limit` 1 to 100
//! (default 50), `marker` the last token shown.

use crate::limits::NFTS_BY_ISSUER_PAGE;
use crate::rpc::clio::{clio_limit, hash_field, nft_json, require_account, require_nft_index};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::clio_select;
use crate::rpc::{HandlerResult, Params};
use crate::protocol::types::AccountId;
use serde_json::{Map, Value};

/// Answer nfts_by_issuer.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let issuer = issuer(params)?;
    let taxon = match params.get("nft_taxon") {
        None => None,
        Some(v) => Some(
            crate::rpc::params::unsigned_integer(v)
                .ok_or_else(|| RpcError::invalid_field("nft_taxon"))?,
        ),
    };
    let limit = clio_limit(params, NFTS_BY_ISSUER_PAGE)?;
    let after = hash_field(params, "marker", false)?;
    let sel = clio_select(ctx, params)?;
    require_account(&sel.snap.view, &issuer)
        .map_err(|_| RpcError::with_message(ErrorCode::ActNotFound, "accountNotFound"))?;
    require_nft_index(ctx)?;
    let mut found = ctx
        .services
        .node
        .history
        .store
        .nfts_by_issuer(&issuer, taxon, sel.snap.seq(), after.as_ref(), limit + 1)
        .map_err(|e| RpcError::history_read(&e))?;
    let more = found.len() > limit as usize;
    found.truncate(limit as usize);
    let mut r = Map::new();
    r.insert("issuer".into(), Value::from(issuer.to_address()));
    r.insert("limit".into(), Value::from(limit));
    r.insert("ledger_index".into(), Value::from(sel.snap.seq()));
    if let Some(t) = taxon {
        r.insert("nft_taxon".into(), Value::from(t));
    }
    let nfts = found.iter().map(|n| Value::Object(nft_json(n))).collect();
    r.insert("nfts".into(), Value::Array(nfts));
    if let (true, Some(last)) = (more, found.last()) {
        r.insert("marker".into(), Value::from(last.token.to_hex()));
    }
    r.insert("validated".into(), Value::from(!sel.is_open()));
    Ok(r)
}

/// The required `issuer` account (`actMalformed` when it does not parse).
fn issuer(params: &Params) -> Result<AccountId, RpcError> {
    let text = params
        .get("issuer")
        .ok_or_else(|| RpcError::missing_field("issuer"))?
        .as_str()
        .ok_or_else(|| RpcError::new(ErrorCode::ActMalformed))?;
    AccountId::from_address(text).map_err(|_| RpcError::new(ErrorCode::ActMalformed))
}
