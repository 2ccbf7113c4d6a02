//! `account_currencies` (rippled `AccountCurrencies.cpp`): the currencies an account can
//! receive (its balance is below its limit) and send (the peer's limit is above what it
//! owes), from its trust lines, sorted, without duplicates.

use std::collections::BTreeSet;

use crate::ledger::keylet;
use crate::ledger::view::ReadView;
use crate::protocol::types::{AccountId, Currency};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::trust_lines;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Answer account_currencies.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let ident = match (params.get("account"), params.get("ident")) {
        (Some(v), _) => v.as_str().ok_or_else(|| RpcError::invalid_field("account"))?,
        (None, Some(v)) => v.as_str().ok_or_else(|| RpcError::invalid_field("ident"))?,
        (None, None) => return Err(RpcError::missing_field("account")),
    };
    let sel = select(ctx, params)?;
    let id = AccountId::from_address(ident).map_err(|_| sel.inject(ErrorCode::ActMalformed))?;
    let view = &sel.snap.view;
    if view.read(&keylet::account(&id)).is_none() {
        return Err(RpcError::new(ErrorCode::ActNotFound));
    }
    let (mut send, mut receive) = (BTreeSet::<Currency>::new(), BTreeSet::<Currency>::new());
    for line in trust_lines(view, &id) {
        if line.balance < line.limit {
            receive.insert(line.currency);
        }
        if line.balance.negate() < line.limit_peer {
            send.insert(line.currency);
        }
    }
    let list = |set: BTreeSet<Currency>| {
        Value::Array(set.iter().map(|c| Value::from(c.to_json_string())).collect())
    };
    let mut r = sel.result();
    r.insert("receive_currencies".into(), list(receive));
    r.insert("send_currencies".into(), list(send));
    Ok(r)
}
