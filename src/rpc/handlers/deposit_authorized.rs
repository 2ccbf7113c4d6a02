//! `deposit_authorized` (rippled `DepositAuthorized.cpp`): whether `source_account` may
//! deposit into `destination_account` at the selected ledger: always unless the destination
//! requires deposit authorization (`lsfDepositAuth`), then only itself and the accounts it
//! preauthorized. Credentials are not supported (`credentials` is refused).

use crate::engine::deposit_preauth::deposit_allowed;
use crate::ledger::keylet;
use crate::ledger::view::ReadView;
use crate::protocol::types::AccountId;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

fn account(params: &Params, field: &str) -> Result<(String, AccountId), RpcError> {
    let v = params
        .get(field)
        .ok_or_else(|| RpcError::missing_field(field))?;
    let text = v.as_str().ok_or_else(|| {
        RpcError::with_message(
            ErrorCode::InvalidParams,
            format!("Invalid field '{field}', not a string."),
        )
    })?;
    let id = AccountId::from_address(text).map_err(|_| RpcError::new(ErrorCode::ActMalformed))?;
    Ok((text.to_owned(), id))
}

/// Answer deposit_authorized.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let (src_text, src) = account(params, "source_account")?;
    let (dst_text, dst) = account(params, "destination_account")?;
    if params.contains_key("credentials") {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Credentials are not supported by this server.",
        ));
    }
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    if view.read(&keylet::account(&src)).is_none() {
        return Err(sel.inject(ErrorCode::SrcActNotFound));
    }
    let Some(dst_root) = view.read(&keylet::account(&dst)) else {
        return Err(sel.inject(ErrorCode::DstActNotFound));
    };
    let mut r = sel.result();
    r.insert("source_account".into(), Value::from(src_text));
    r.insert("destination_account".into(), Value::from(dst_text));
    r.insert(
        "deposit_authorized".into(),
        Value::from(deposit_allowed(view, &dst_root, &src, &dst)),
    );
    Ok(r)
}
