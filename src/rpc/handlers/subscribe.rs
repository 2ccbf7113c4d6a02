//! `subscribe` (rippled `Subscribe.cpp`, rpc.md §3.16): streams `ledger`, `transactions`,
//! `transactions_proposed`, `server` (and the quiet ones a standalone server never
//! publishes on), `accounts` / `accounts_proposed`, and `books` (order books, with an optional
//! snapshot of their offers). WebSocket only: over HTTP a
//! request without `url` is `invalidParams`, and `url` callbacks are not offered.

use crate::node::subscriptions::{Session, Stream};
use crate::protocol::types::AccountId;
use crate::render::ledger::ledger_fields;
use crate::rpc::book_page::{
    book_page, subscription_book, subscription_domain, subscription_flag, Book,
};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::as_string;
use crate::rpc::role::Role;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};
use std::sync::Arc;

/// Subscribe the calling session; answer the ledger / server fields the streams ask for.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let session = session_or_refuse(ctx, params)?;
    let subs = &ctx.services.node.subscriptions;
    let mut out = Map::new();
    for stream in streams(ctx, params)? {
        subs.add_stream(&session, ctx.api_version, stream);
        match stream {
            Stream::Ledger => ledger_reply(ctx, &mut out),
            Stream::Server => server_reply(ctx, &mut out),
            _ => {}
        }
    }
    for (key, proposed) in [
        ("accounts_proposed", true),
        ("rt_accounts", true),
        ("accounts", false),
    ] {
        if key == "rt_accounts" && params.contains_key("accounts_proposed") {
            continue;
        }
        if let Some(ids) = accounts(params, key)? {
            subs.add_accounts(&session, ctx.api_version, &ids, proposed);
        }
    }
    if let Some(books) = params.get("books") {
        let Value::Array(books) = books else {
            return Err(RpcError::new(ErrorCode::InvalidParams));
        };
        for entry in books {
            subscribe_book(ctx, &session, entry, &mut out)?;
        }
    }
    out.sort_keys();
    Ok(out)
}

/// One `books` entry (rippled `doSubscribe`): follow the book (and the other side with
/// `both`); with `snapshot`, add the published ledger's page of it to `offers`, or of
/// each side to `bids` and `asks`. With `domain`, the permissioned domain's book.
fn subscribe_book(
    ctx: &Context,
    session: &Arc<Session>,
    entry: &Value,
    out: &mut Map<String, Value>,
) -> Result<(), RpcError> {
    let mut book = subscription_book(entry)?;
    let taker = match entry.get("taker") {
        None => None,
        Some(v) => Some(
            as_string(v)
                .and_then(|t| AccountId::from_address(&t).ok())
                .ok_or_else(|| RpcError::new(ErrorCode::BadIssuer))?,
        ),
    };
    book.domain = subscription_domain(entry)?;
    let both = subscription_flag(entry, "both", "both_sides");
    let subs = &ctx.services.node.subscriptions;
    subs.add_books(
        session,
        ctx.api_version,
        &[(book.pays, book.gets, book.domain)],
    );
    if both {
        subs.add_books(
            session,
            ctx.api_version,
            &[(book.gets, book.pays, book.domain)],
        );
    }
    if !subscription_flag(entry, "snapshot", "state_now") {
        return Ok(());
    }
    let published = ctx.services.node.status().validated;
    let Some(snap) = published.and_then(|v| ctx.services.node.ledgers.by_seq(v.seq)) else {
        return Ok(());
    };
    let taker = taker.unwrap_or(AccountId::ONE);
    let limit = crate::limits::BOOK_OFFERS_PAGE.default;
    let mut add = |field: &str, side: Book| {
        let page = book_page(&snap.view, &side, &taker, limit);
        match out.get_mut(field) {
            Some(Value::Array(list)) => list.extend(page),
            _ => {
                out.insert(field.into(), Value::Array(page));
            }
        }
    };
    if both {
        add("bids", book);
        add("asks", book.reversed());
    } else {
        add("offers", book);
    }
    Ok(())
}

/// The calling WebSocket session; rippled's refusals for HTTP and `url`.
pub fn session_or_refuse(ctx: &Context, params: &Params) -> Result<Arc<Session>, RpcError> {
    let session = ctx.session.clone();
    if session.is_none() && !params.contains_key("url") {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    if params.contains_key("url") {
        if ctx.role != Role::Admin {
            return Err(RpcError::new(ErrorCode::NoPermission));
        }
        return Err(RpcError::new(ErrorCode::NotImpl));
    }
    session.ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))
}

/// The `streams` member: an array of known stream names (`peer_status` needs admin).
pub fn streams(ctx: &Context, params: &Params) -> Result<Vec<Stream>, RpcError> {
    let Some(v) = params.get("streams") else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = v else {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let stream = item
            .as_str()
            .and_then(Stream::from_name)
            .ok_or_else(|| RpcError::new(ErrorCode::StreamMalformed))?;
        if stream == Stream::Quiet("peer_status") && ctx.role != Role::Admin {
            return Err(RpcError::new(ErrorCode::NoPermission));
        }
        out.push(stream);
    }
    Ok(out)
}

/// An accounts member: an array of classic addresses, not empty, else `actMalformed`.
pub fn accounts(params: &Params, key: &str) -> Result<Option<Vec<AccountId>>, RpcError> {
    let Some(v) = params.get(key) else {
        return Ok(None);
    };
    let Value::Array(items) = v else {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    };
    let ids: Option<Vec<AccountId>> = items
        .iter()
        .map(|i| i.as_str().and_then(|s| AccountId::from_address(s).ok()))
        .collect();
    match ids {
        Some(ids) if !ids.is_empty() => Ok(Some(ids)),
        _ => Err(RpcError::new(ErrorCode::ActMalformed)),
    }
}

fn ledger_reply(ctx: &Context, out: &mut Map<String, Value>) {
    let status = ctx.services.node.status();
    let Some(v) = status.validated else {
        return;
    };
    let Some(closed) = ctx
        .services
        .node
        .ledgers
        .by_seq(v.seq)
        .and_then(|s| s.ledger)
    else {
        return;
    };
    let network_id = ctx.services.node.network_id;
    out.extend(ledger_fields(
        &closed,
        network_id,
        &status.complete_ledgers(),
    ));
}

fn server_reply(ctx: &Context, out: &mut Map<String, Value>) {
    let status = ctx.services.node.status();
    let admin = ctx.role == Role::Admin;
    let random: [u8; 32] = rand::random();
    out.insert("random".into(), Value::from(crate::protocol::types::hex_upper(random)));
    out.insert("server_status".into(), Value::from(status.mode.as_str()));
    out.insert(
        "load_base".into(),
        Value::from(crate::node::status::LOAD_BASE),
    );
    out.insert("load_factor".into(), Value::from(status.load_factor));
    let host = if admin {
        &ctx.services.host_name
    } else {
        &ctx.services.host_word
    };
    out.insert("hostid".into(), Value::from(host.as_str()));
    out.insert(
        "pubkey_node".into(),
        Value::from(ctx.services.node_public.as_str()),
    );
}
