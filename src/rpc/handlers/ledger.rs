//! `ledger` (rippled `LedgerHandler.cpp`, `LedgerToJson.cpp`; rpc.md §3.9): a ledger's
//! header, optionally its transactions (hashes, expanded, or binary), for unlimited
//! callers (admins, identified) its state entries, and for the open ledger the
//! transaction queue (`queue: true`).

use crate::ledgers::{LedgerSnapshot, TxEntry};
use crate::render::ledger::{entry_json, header_binary_json, header_json};
use crate::render::queue::queued_fields;
use crate::render::tx::{meta_json, tx_fields};
use crate::engine::Ter;
use crate::ledgers::txq::QueuedTx;
use crate::protocol::st::StObject;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::node::history::tx_entry;
use crate::rpc::params::as_bool;
use crate::rpc::ledger_select::{
    header_object, require_complete, select_in_memory as select, stored_header,
};
use crate::rpc::{HandlerResult, Params};
use crate::protocol::types::Hash256;
use crate::render::rows::{RowKey, RowShape};
use crate::rpc::raw::spliced;
use serde_json::{Map, Value};
use std::sync::Arc;

/// What to include.
#[derive(Clone, Copy)]
struct Fill {
    transactions: bool,
    expand: bool,
    binary: bool,
    accounts: bool,
    api_version: u32,
}

fn tx_json(e: &TxEntry, fill: Fill) -> Value {
    if !fill.expand {
        return Value::from(e.id.to_hex());
    }
    let mut o = Map::new();
    if fill.binary {
        o.insert("tx_blob".into(), Value::from(crate::protocol::types::hex_upper(&e.blob)));
        o.insert(
            "meta".into(),
            Value::from(crate::protocol::types::hex_upper(&e.meta_blob)),
        );
    } else if fill.api_version >= 2 {
        let d = e.decoded();
        o.insert(
            "tx_json".into(),
            Value::Object(tx_fields(&d.tx, fill.api_version)),
        );
        o.insert("meta".into(), meta_json(&d));
        o.insert("hash".into(), Value::from(e.id.to_hex()));
    } else {
        let d = e.decoded();
        o = tx_fields(&d.tx, fill.api_version);
        o.insert("hash".into(), Value::from(e.id.to_hex()));
        o.insert("metaData".into(), meta_json(&d));
    }
    o.sort_keys();
    Value::Object(o)
}

/// A transaction of ledger `ledger_hash` as [`tx_json`] renders it: expanded ones
/// rendered once and kept ([`crate::render::rows`]) when the transport splices rows.
fn tx_value(ctx: &Context, e: &TxEntry, ledger_hash: &Hash256, fill: Fill) -> Value {
    if !(ctx.raw_json && fill.expand) {
        return tx_json(e, fill);
    }
    let key = RowKey {
        id: e.id,
        ledger_hash: *ledger_hash,
        shape: RowShape {
            api_version: fill.api_version,
            binary: fill.binary,
            in_ledger: true,
        },
    };
    let text = ctx.services.rows.get(&key).unwrap_or_else(|| {
        let text: Arc<str> = Arc::from(serde_json::to_string(&tx_json(e, fill)).unwrap_or_default());
        ctx.services.rows.insert(key, text.clone());
        text
    });
    spliced(&text)
}

/// The `ledger` object of one ledger.
fn ledger_object(ctx: &Context, snap: &LedgerSnapshot, fill: Fill) -> Value {
    let mut o = header_object(ctx, snap, fill.binary);
    if let (Some(l), true) = (&snap.ledger, fill.transactions) {
        // rippled walks the transaction tree, which is ordered by ID.
        let mut txs: Vec<_> = l.txs.iter().collect();
        txs.sort_by_key(|t| t.id);
        let hash = l.header.hash;
        let list = txs.into_iter().map(|t| tx_value(ctx, t, &hash, fill)).collect();
        o.insert("transactions".into(), Value::Array(list));
    }
    if fill.accounts {
        o.insert("accountState".into(), account_state(snap, fill));
    }
    o.sort_keys();
    Value::Object(o)
}

/// Every entry of the ledger: keys, entries as JSON (expand), or binary.
fn account_state(snap: &LedgerSnapshot, fill: Fill) -> Value {
    {
        let mut entries = Vec::new();
        snap.view.for_each(|k, v| entries.push((*k, v.clone())));
        entries.sort_by_key(|e| e.0);
        let list = entries
            .iter()
            .map(|(k, v)| {
                if fill.binary {
                    let mut e = Map::new();
                    e.insert(
                        "data".into(),
                        Value::from(crate::protocol::types::hex_upper(crate::protocol::codec::encode(v))),
                    );
                    e.insert("index".into(), Value::from(k.to_hex()));
                    Value::Object(e)
                } else if fill.expand {
                    entry_json(k, v)
                } else {
                    Value::from(k.to_hex())
                }
            })
            .collect();
        Value::Array(list)
    }
}

/// Answer ledger.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let flag = |name| params.get(name).is_some_and(as_bool);
    if ["transactions", "accounts", "full"].into_iter().any(flag) {
        // Listing a ledger can take milliseconds: release the replies this pool thread
        // finished before it rather than hold them for that long.
        crate::rpc::cpu_pool::deliver_deferred_wakes();
    }
    let fill = Fill {
        transactions: flag("transactions"),
        expand: flag("expand"),
        binary: flag("binary"),
        accounts: flag("accounts") || flag("full"),
        api_version: ctx.api_version,
    };
    let store = &ctx.services.node.ledgers;
    let named = ["ledger", "ledger_hash", "ledger_index"]
        .iter()
        .any(|k| params.contains_key(*k));
    if !named {
        let closed = store.closed();
        let open = store.current();
        let simple = Fill {
            transactions: false,
            accounts: false,
            ..fill
        };
        let mut r = Map::new();
        let wrap = |v: Value| {
            let mut m = Map::new();
            m.insert("ledger".into(), v);
            Value::Object(m)
        };
        r.insert("closed".into(), wrap(ledger_object(ctx, &closed, simple)));
        r.insert("open".into(), wrap(ledger_object(ctx, &open, simple)));
        return Ok(r);
    }
    let sel = match select(ctx, params) {
        Ok(sel) => sel,
        Err(e) if e.code() == Some(ErrorCode::LgrNotFound) => {
            return stored_ledger(ctx, params, fill).unwrap_or(Err(e));
        }
        Err(e) => return Err(e),
    };
    if (flag("full") || flag("accounts")) && !ctx.role.is_unlimited() {
        return Err(RpcError::new(ErrorCode::NoPermission));
    }
    if fill.accounts {
        require_complete(&sel.snap, "ledger with accounts or full")?;
    }
    if flag("queue") && !sel.is_open() {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    let mut fill = fill;
    if flag("full") {
        fill.transactions = true;
        fill.expand = true;
    }
    let obj = ledger_object(ctx, &sel.snap, fill);
    let mut r = sel.result();
    r.insert("ledger".into(), obj);
    if flag("queue") {
        let queued = ctx.services.node.ledgers.queued_all();
        if !queued.is_empty() {
            let list = queued.iter().map(|(q, tx)| queue_entry(q, tx, fill)).collect();
            r.insert("queue_data".into(), Value::Array(list));
        }
    }
    Ok(r)
}

/// One queued transaction (rippled `fillJsonQueue`), highest fee level first: the
/// queue's fields, its account, retries left, preflight and last results, and the
/// transaction as its hash or expanded (JSON or binary, without metadata) — under `tx`
/// in API v1, merged in from v2.
fn queue_entry(q: &QueuedTx, tx: &StObject, fill: Fill) -> Value {
    let mut o = queued_fields(&q.tx);
    o.insert("account".into(), Value::from(q.tx.account.to_address()));
    o.insert("retries_remaining".into(), Value::from(q.retries_remaining));
    // Only a transaction that passed preflight is queued.
    o.insert("preflight_result".into(), Value::from(Ter::tesSUCCESS.name()));
    if let Some(last) = q.last_result {
        o.insert("last_result".into(), Value::from(last.name()));
    }
    let rendered = queued_tx_json(q, tx, fill);
    match rendered {
        Value::Object(mut fields) if fill.api_version >= 2 => o.append(&mut fields),
        // rippled copies a bare hash into the v2 object, which has no key for it: the
        // hash goes under `hash`, as in the expanded v2 form.
        Value::String(hash) if fill.api_version >= 2 => {
            o.insert("hash".into(), Value::from(hash));
        }
        other => {
            o.insert("tx".into(), other);
        }
    }
    o.sort_keys();
    Value::Object(o)
}

/// A queued transaction as `ledger` prints a transaction of an open ledger, without
/// metadata (rippled `fillJsonTx` with no meta).
fn queued_tx_json(q: &QueuedTx, tx: &StObject, fill: Fill) -> Value {
    let id = q.tx.id.to_hex();
    if !fill.expand {
        return Value::from(id);
    }
    let v2 = fill.api_version >= 2;
    let mut o = Map::new();
    if fill.binary {
        let blob = crate::protocol::types::hex_upper(crate::protocol::codec::encode(tx));
        o.insert("tx_blob".into(), Value::from(blob));
        if v2 {
            o.insert("hash".into(), Value::from(id));
        }
    } else if v2 {
        o.insert(
            "tx_json".into(),
            Value::Object(tx_fields(tx, fill.api_version)),
        );
        o.insert("hash".into(), Value::from(id));
        o.insert("validated".into(), Value::from(false));
    } else {
        o = tx_fields(tx, fill.api_version);
        o.insert("hash".into(), Value::from(id));
    }
    o.sort_keys();
    Value::Object(o)
}

/// A ledger older than memory keeps, from the history store: its header, transactions
/// and (unlimited callers) state (None when the store has no such ledger).
fn stored_ledger(ctx: &Context, params: &Params, mut fill: Fill) -> Option<HandlerResult> {
    let history = &ctx.services.node.history.store;
    let header = stored_header(ctx, params)?;
    if fill.accounts && !ctx.role.is_unlimited() {
        return Some(Err(RpcError::new(ErrorCode::NoPermission)));
    }
    if params.get("full").is_some_and(as_bool) {
        fill.transactions = true;
        fill.expand = true;
    }
    let mut o = if fill.binary {
        header_binary_json(&header)
    } else {
        header_json(&header, fill.api_version)
    };
    if fill.accounts {
        let snap = ctx.services.node.history.snapshot(header.seq)?;
        o.insert("accountState".into(), account_state(&snap, fill));
    }
    if fill.transactions {
        let stored = match history.ledger_txs(header.seq) {
            Ok(stored) => stored,
            Err(e) => return Some(Err(RpcError::history_read(&e))),
        };
        let mut txs = Vec::with_capacity(stored.len());
        for t in &stored {
            match tx_entry(t) {
                Some(e) => txs.push(e),
                None => {
                    let what = format!("stored transaction {} does not decode", t.id.to_hex());
                    return Some(Err(RpcError::history_damaged(what)));
                }
            }
        }
        txs.sort_by_key(|t| t.id);
        let list = txs.iter().map(|t| tx_value(ctx, t, &header.hash, fill)).collect();
        o.insert("transactions".into(), Value::Array(list));
    }
    o.sort_keys();
    let mut r = Map::new();
    r.insert("ledger".into(), Value::Object(o));
    r.insert("ledger_hash".into(), Value::from(header.hash.to_hex()));
    r.insert("ledger_index".into(), Value::from(header.seq));
    r.insert("validated".into(), Value::Bool(true));
    Some(Ok(r))
}
