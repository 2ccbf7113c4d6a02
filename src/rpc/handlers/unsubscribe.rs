//! `unsubscribe` (rippled `Unsubscribe.cpp`): the same members and checks as `subscribe`
//! (`books` without `taker`); answers `{}`.

use super::subscribe::{accounts, session_or_refuse, streams};
use crate::rpc::book_page::{subscription_book, subscription_domain, subscription_flag};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Remove the named subscriptions of the calling session.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let session = session_or_refuse(ctx, params)?;
    let subs = &ctx.services.node.subscriptions;
    for stream in streams(ctx, params)? {
        subs.remove_stream(&session, stream);
    }
    for (key, proposed) in [
        ("accounts_proposed", true),
        ("rt_accounts", true),
        ("accounts", false),
    ] {
        if let Some(ids) = accounts(params, key)? {
            subs.remove_accounts(&session, &ids, proposed);
        }
    }
    if let Some(books) = params.get("books") {
        let Value::Array(books) = books else {
            return Err(RpcError::new(ErrorCode::InvalidParams));
        };
        for entry in books {
            let book = subscription_book(entry)?;
            let domain = subscription_domain(entry)?;
            subs.remove_books(&session, &[(book.pays, book.gets, domain)]);
            if subscription_flag(entry, "both", "both_sides") {
                subs.remove_books(&session, &[(book.gets, book.pays, domain)]);
            }
        }
    }
    Ok(Map::new())
}
