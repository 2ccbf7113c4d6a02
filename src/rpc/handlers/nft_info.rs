//! `nft_info` (Clio `NFTInfo.cpp`, a method rippled does not have): an NFToken as the NFT
//! index knows it at a ledger (the last validated by default): its owner, whether it is
//! burned, its URI and the parts of its ID. `ledger_index` is the ledger of the
//! transaction that last changed it, as Clio answers. A token never minted by then is
//! `objectNotFound` "NFT not found".

use crate::rpc::clio::{hash_field, nft_json, require_nft_index};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::clio_select;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Answer nft_info.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let token = hash_field(params, "nft_id", true)?.unwrap_or_default();
    let sel = clio_select(ctx, params)?;
    require_nft_index(ctx)?;
    let record = ctx
        .services
        .node
        .history
        .store
        .nft(&token, sel.snap.seq())
        .map_err(|e| RpcError::history_read(&e))?
        .ok_or_else(|| RpcError::with_message(ErrorCode::ObjectNotFound, "NFT not found"))?;
    let mut r = nft_json(&record);
    r.insert("validated".into(), Value::from(!sel.is_open()));
    Ok(r)
}
