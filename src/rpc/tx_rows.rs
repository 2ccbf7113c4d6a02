//! account_tx-shaped rows (account_tx, Clio's nft_history): a stored transaction in the
//! shape an API version and `binary` ask for, rendered once and kept
//! ([`crate::render::rows`]) when the transport splices pre-rendered JSON
//! ([`crate::rpc::raw`]).

use std::sync::Arc;

use crate::node::history::tx_entry;
use crate::protocol::time;
use crate::render::rows::{RowKey, RowShape};
use crate::render::tx::{meta_json_nft, tx_fields};
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::raw::spliced;
use crate::store::{StoredTx, TxPlace};
use serde_json::{Map, Value};

/// The rows of `txs`: spliced from the kept rows (rendered and kept when missing) when the
/// transport splices, else rendered as values.
pub fn rows_of(ctx: &Context, txs: &[StoredTx], shape: RowShape) -> Result<Vec<Value>, RpcError> {
    let mut out = Vec::with_capacity(txs.len());
    for t in txs {
        if !ctx.raw_json {
            out.push(entry_json(t, shape.binary, shape.api_version).ok_or_else(|| undecodable(t))?);
            continue;
        }
        let key = RowKey {
            id: t.id,
            ledger_hash: t.ledger_hash,
            shape,
        };
        let text = match ctx.services.rows.get(&key) {
            Some(text) => text,
            None => render_and_keep(ctx, key, t)?,
        };
        out.push(spliced(&text));
    }
    Ok(out)
}

/// The rows at `places`, spliced, from the kept rows, each missing one fetched by its ID,
/// rendered and kept. None when a row's transaction is no longer where the index said (a
/// revert between the two reads): the caller reads the page again in one query.
pub fn cached_rows(
    ctx: &Context,
    places: &[TxPlace],
    shape: RowShape,
) -> Result<Option<Vec<Value>>, RpcError> {
    let store = &ctx.services.node.history.store;
    let mut out = Vec::with_capacity(places.len());
    for place in places {
        let key = RowKey {
            id: place.id,
            ledger_hash: place.ledger_hash,
            shape,
        };
        let text = match ctx.services.rows.get(&key) {
            Some(text) => text,
            None => {
                let stored = store
                    .tx(&place.id)
                    .map_err(|e| RpcError::history_read(&e))?;
                let Some(t) = stored.filter(|t| TxPlace::of(t) == *place) else {
                    return Ok(None);
                };
                render_and_keep(ctx, key, &t)?
            }
        };
        out.push(spliced(&text));
    }
    Ok(Some(out))
}

fn render_and_keep(ctx: &Context, key: RowKey, t: &StoredTx) -> Result<Arc<str>, RpcError> {
    let row =
        entry_json(t, key.shape.binary, key.shape.api_version).ok_or_else(|| undecodable(t))?;
    let text: Arc<str> = Arc::from(serde_json::to_string(&row).unwrap_or_default());
    ctx.services.rows.insert(key, text.clone());
    Ok(text)
}

/// A stored transaction that does not decode: the history database is damaged.
pub fn undecodable(t: &StoredTx) -> RpcError {
    RpcError::history_damaged(format!(
        "stored transaction {} does not decode",
        t.id.to_hex()
    ))
}

/// One row of `transactions`, in the shape the API version and `binary` ask for.
pub fn entry_json(t: &StoredTx, binary: bool, api_version: u32) -> Option<Value> {
    let v2 = api_version >= 2;
    let mut o = Map::new();
    if binary {
        o.insert(
            "tx_blob".into(),
            Value::from(crate::protocol::types::hex_upper(&t.blob)),
        );
        let meta_key = if v2 { "meta_blob" } else { "meta" };
        o.insert(
            meta_key.into(),
            Value::from(crate::protocol::types::hex_upper(&t.meta)),
        );
    } else {
        let stored = tx_entry(t)?;
        let entry = stored.decoded();
        let mut tx = tx_fields(&entry.tx, api_version);
        tx.insert("ledger_index".into(), Value::from(t.ledger_seq));
        tx.insert("date".into(), Value::from(t.close_time));
        if v2 {
            o.insert("hash".into(), Value::from(t.id.to_hex()));
            o.insert("ledger_hash".into(), Value::from(t.ledger_hash.to_hex()));
            o.insert(
                "close_time_iso".into(),
                Value::from(time::iso(t.close_time)),
            );
        } else {
            tx.insert("hash".into(), Value::from(t.id.to_hex()));
            tx.insert("inLedger".into(), Value::from(t.ledger_seq));
        }
        tx.sort_keys();
        let tx_key = if v2 { "tx_json" } else { "tx" };
        o.insert(tx_key.into(), Value::Object(tx));
        o.insert("meta".into(), meta_json_nft(&entry));
    }
    o.insert("ledger_index".into(), Value::from(t.ledger_seq));
    o.insert("validated".into(), Value::Bool(true));
    o.sort_keys();
    Some(Value::Object(o))
}
