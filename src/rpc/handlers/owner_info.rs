//! `owner_info` (rippled `OwnerInfo.cpp`, `NetworkOPs::getOwnerInfo`; deprecated, still
//! answered): an account's offers and trust lines, read from its owner directory in the
//! last closed ledger (`accepted`) and in the open one (`current`), each as
//! `{"offers": [...], "ripple_lines": [...]}` with the members it has (an account that owns
//! neither gets `{}`). The account is `account`, or `ident`; one that does not parse is
//! answered, in each part, with rippled's `actMalformed` error object (the request itself
//! succeeds). Other entries in the directory are skipped, as rippled's release builds do.

use crate::ledger::flags::lt;
use crate::ledger::view::ReadView;
use crate::ledgers::LedgerSnapshot;
use crate::protocol::types::AccountId;
use crate::render::ledger::entry_json;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::as_string;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer `{"accepted": {...}, "current": {...}}`.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let field = if params.contains_key("account") {
        "account"
    } else if params.contains_key("ident") {
        "ident"
    } else {
        return Err(RpcError::missing_field("account"));
    };
    let text = params
        .get(field)
        .and_then(as_string)
        .ok_or_else(|| RpcError::invalid_field(field))?;
    let account = AccountId::from_address(&text).ok();
    let ledgers = &ctx.services.node.ledgers;
    let part = |snap: LedgerSnapshot| match &account {
        Some(id) => Value::Object(owned(&snap, id)),
        None => Value::Object(RpcError::new(ErrorCode::ActMalformed).into_object()),
    };
    let mut out = Map::new();
    out.insert("accepted".into(), part(ledgers.closed()));
    out.insert("current".into(), part(ledgers.current()));
    Ok(out)
}

/// The account's offers and trust lines in one ledger, in directory order.
fn owned(snap: &LedgerSnapshot, account: &AccountId) -> Map<String, Value> {
    let view: &dyn ReadView = &snap.view;
    let mut offers = Vec::new();
    let mut lines = Vec::new();
    for key in crate::ledger::directory::owned(view, account) {
        let Some(entry) = view.read(&key) else {
            continue;
        };
        match entry.get_u16("LedgerEntryType") {
            Some(lt::OFFER) => offers.push(entry_json(&key, &entry)),
            Some(lt::RIPPLE_STATE) => lines.push(entry_json(&key, &entry)),
            _ => {}
        }
    }
    let mut out = Map::new();
    if !offers.is_empty() {
        out.insert("offers".into(), Value::Array(offers));
    }
    if !lines.is_empty() {
        out.insert("ripple_lines".into(), Value::Array(lines));
    }
    out
}
