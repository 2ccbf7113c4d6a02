//! `can_delete` (rippled `CanDelete.cpp`): admin; with advisory deletion on (rippled's
//! `[node_db] advisory_delete` beside `online_delete`), online deletion removes only ledgers
//! up to the one `can_delete` allows, and this method reads or sets it. Without advisory
//! deletion it answers `notEnabled`, as rippled does.
//!
//! `can_delete` takes a ledger sequence (a number or a string of digits), a ledger hash,
//! `never` (0), `always` (every ledger online deletion would remove) or `now` (every ledger
//! the history store holds so far; `notReady` before it holds one). Answers
//! `{"can_delete": N}`, the value now in force (kept across restarts).

use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_string, parse_hash256, unsigned_integer};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Read or set the newest ledger online deletion may remove.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let history = &ctx.services.node.history;
    let Some(current) = history.can_delete() else {
        return Err(RpcError::new(ErrorCode::NotEnabled));
    };
    let value = match params.get("can_delete") {
        None => current,
        Some(v) => {
            let seq = requested(ctx, v)?;
            history
                .set_can_delete(seq)
                .map_err(|e| RpcError::with_message(ErrorCode::Internal, e))?
                .unwrap_or(current)
        }
    };
    let mut out = Map::new();
    out.insert("can_delete".into(), Value::from(value));
    Ok(out)
}

/// The ledger sequence a `can_delete` value names (rippled's parsing, in its order).
fn requested(ctx: &Context, v: &Value) -> Result<u32, RpcError> {
    if let Some(n) = unsigned_integer(v) {
        return Ok(n);
    }
    let text = as_string(v)
        .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?
        .to_ascii_lowercase();
    // rippled casts a string of digits (the empty one too) and throws when it cannot.
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text
            .parse::<u32>()
            .map_err(|_| RpcError::new(ErrorCode::Internal));
    }
    match text.as_str() {
        "never" => Ok(0),
        "always" => Ok(u32::MAX),
        "now" => last_written(ctx),
        _ => {
            let hash = parse_hash256(&text).ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?;
            ledger_seq(ctx, &hash)
                .ok_or_else(|| RpcError::with_message(ErrorCode::LgrNotFound, "ledgerNotFound"))
        }
    }
}

/// `now`: the newest ledger the history store holds (rippled: the ledger of its last
/// rotation).
fn last_written(ctx: &Context) -> Result<u32, RpcError> {
    match ctx.services.node.history.store.range() {
        Ok(Some((_, last))) if last > 0 => Ok(last),
        Ok(_) => Err(RpcError::new(ErrorCode::NotReady)),
        Err(e) => Err(RpcError::history_read(&e)),
    }
}

/// The sequence of the ledger with `hash`, in memory or in the history store.
fn ledger_seq(ctx: &Context, hash: &crate::protocol::types::Hash256) -> Option<u32> {
    let node = &ctx.services.node;
    if let Some(snap) = node.ledgers.by_hash(hash) {
        return Some(snap.seq());
    }
    node.history
        .store
        .header_by_hash(hash)
        .ok()
        .flatten()
        .map(|h| h.seq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledgers::{LedgerConfig, Ledgers};
    use crate::node::history::{AdvisoryDelete, History};
    use crate::node::Node;
    use crate::rpc::context::{RpcConfig, Services, Transport};
    use crate::store::{HistoryStore, SqliteHistory};
    use serde_json::json;
    use std::sync::Arc;

    /// A node whose history keeps 2 ledgers under advisory deletion, ledgers 1 to 6 closed.
    fn advisory_node() -> (Context, Arc<Node>, Arc<SqliteHistory>) {
        let ledgers = Arc::new(Ledgers::genesis(LedgerConfig::default(), 1_000));
        let store = Arc::new(SqliteHistory::in_memory().unwrap());
        let history = History {
            store: store.clone(),
            keep: Some(2),
            advisory: Some(Arc::new(AdvisoryDelete::load(store.as_ref()).unwrap())),
            cache: None,
        };
        let node = Node::with_history(ledgers.clone(), 0, history, ":memory:", false).unwrap();
        for i in 0..4 {
            node.record_history(&ledgers.close(2_000 + 10 * i));
        }
        let cpu = crate::rpc::cpu_pool::CpuPool::new(1, 4).unwrap();
        let ctx = Context {
            role: crate::rpc::role::Role::Admin,
            api_version: 1,
            transport: Transport::Http,
            session: None,
            services: Arc::new(Services::new(RpcConfig::default(), node.clone(), cpu)),
            forwarded: None,
            raw_json: false,
        };
        (ctx, node, store)
    }

    fn ask(ctx: &Context, params: Value) -> Result<Value, &'static str> {
        let Value::Object(p) = params else { unreachable!() };
        handle(ctx, &p).map(|r| r["can_delete"].clone()).map_err(|e| e.token())
    }

    #[test]
    fn values_parse_as_rippleds() {
        let (ctx, node, store) = advisory_node();
        assert_eq!(ask(&ctx, json!({})), Ok(json!(0)));
        assert_eq!(ask(&ctx, json!({"can_delete": 7})), Ok(json!(7)));
        assert_eq!(ask(&ctx, json!({"can_delete": "12"})), Ok(json!(12)));
        assert_eq!(ask(&ctx, json!({"can_delete": "NEVER"})), Ok(json!(0)));
        assert_eq!(ask(&ctx, json!({"can_delete": "always"})), Ok(json!(u32::MAX)));
        assert_eq!(ask(&ctx, json!({"can_delete": "now"})), Ok(json!(6)));
        let hash = node.ledgers.by_seq(3).unwrap().ledger.unwrap().header.hash;
        assert_eq!(ask(&ctx, json!({"can_delete": hash.to_hex()})), Ok(json!(3)));
        assert_eq!(store.setting("can_delete").unwrap(), Some(3), "kept in the store");
        assert_eq!(ask(&ctx, json!({"can_delete": "AB".repeat(32)})), Err("lgrNotFound"));
        assert_eq!(ask(&ctx, json!({"can_delete": "soon"})), Err("invalidParams"));
        assert_eq!(ask(&ctx, json!({"can_delete": "99999999999"})), Err("internal"));
        assert_eq!(ask(&ctx, json!({"can_delete": -1})), Err("invalidParams"));
        assert_eq!(ask(&ctx, json!({"can_delete": {}})), Err("invalidParams"));
        assert_eq!(ask(&ctx, json!({})), Ok(json!(3)));
    }

    #[test]
    fn online_deletion_waits_for_can_delete() {
        let (ctx, node, store) = advisory_node();
        // Ledgers 1 to 6 are kept though online deletion keeps 2: none may be deleted yet.
        assert_eq!(store.range().unwrap(), Some((1, 6)));
        assert_eq!(ask(&ctx, json!({"can_delete": 2})), Ok(json!(2)));
        node.record_history(&node.ledgers.close(3_000));
        assert_eq!(store.range().unwrap(), Some((3, 7)), "up to 2 deleted");
        assert_eq!(ask(&ctx, json!({"can_delete": "always"})), Ok(json!(u32::MAX)));
        node.record_history(&node.ledgers.close(3_010));
        assert_eq!(store.range().unwrap(), Some((7, 8)), "the newest 2 kept");
    }
}
