//! `vault_info` (rippled `VaultInfo.cpp`): a vault named by `vault_id`, or by `owner` and
//! `seq`, with its share issuance under `shares`.

use crate::engine::vault::{read_vault, share_id};
use crate::ledger::keylet;
use crate::ledger::view::ReadView;
use crate::protocol::types::{AccountId, Hash256};
use crate::render::ledger::entry_json;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// rippled answers every badly named vault with `malformedRequest`.
fn malformed() -> RpcError {
    RpcError::named(
        "malformedRequest",
        ErrorCode::InvalidParams,
        "Malformed request.".to_string(),
    )
}

/// A `seq` that jsoncpp holds as an integer in 1..=u32::MAX.
fn seq_of(v: &Value) -> Option<u32> {
    crate::rpc::params::unsigned_integer(v).filter(|n| *n > 0)
}

/// The vault's key: `vault_id` alone, or `owner` with `seq`.
fn vault_key(params: &Params) -> Result<Hash256, RpcError> {
    let has = |k: &str| params.contains_key(k);
    let key = match (has("vault_id"), has("owner"), has("seq")) {
        (true, false, false) => params["vault_id"]
            .as_str()
            .and_then(Hash256::from_hex)
            .ok_or_else(malformed)?,
        (false, true, true) => {
            let owner = params["owner"]
                .as_str()
                .and_then(|s| AccountId::from_address(s).ok())
                .ok_or_else(malformed)?;
            let seq = seq_of(&params["seq"]).ok_or_else(malformed)?;
            keylet::vault(&owner, seq)
        }
        _ => return Err(malformed()),
    };
    if key.is_zero() {
        return Err(malformed());
    }
    Ok(key)
}

/// Answer vault_info.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    let key = vault_key(params).map_err(|e| sel.inject(e))?;
    let view = &sel.snap.view;
    let Some(vault) = read_vault(view, &key) else {
        return Err(sel.inject(ErrorCode::EntryNotFound));
    };
    let share = share_id(&vault)
        .map(|id| keylet::mpt_issuance(&id))
        .and_then(|k| ReadView::read(view, &k).map(|iss| (k, iss)))
        .ok_or_else(|| sel.inject(ErrorCode::EntryNotFound))?;
    let mut body = entry_json(&key, &vault);
    if let Value::Object(m) = &mut body {
        m.insert("shares".into(), entry_json(&share.0, &share.1));
    }
    let mut result = sel.result();
    result.insert("vault".into(), body);
    Ok(result)
}
