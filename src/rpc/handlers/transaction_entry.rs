//! `transaction_entry` (rippled `TransactionEntry.cpp`; docs/notes/history-spec.md §3): one
//! transaction looked up in one given ledger (the current ledger by default). Its errors are
//! bare tokens beside the ledger fields, as rippled's.

use std::sync::Arc;

use crate::ledgers::TxEntry;
use crate::node::history::tx_entry;
use crate::protocol::codec;
use crate::protocol::time;
use crate::protocol::types::Hash256;
use crate::render::tx::tx_fields;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::{select_in_memory as select, stored_header};
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The ledger the transaction was looked for in: (sequence, hash, close time).
type Ledger = (u32, Hash256, u32);

/// Answer transaction_entry.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let (fields, found) = match select(ctx, params) {
        Ok(sel) => {
            let Some(l) = sel.snap.ledger.clone() else {
                return Err(sel.inject(RpcError::bare("notYetImplemented")));
            };
            let id = tx_hash(params).map_err(|e| sel.inject(e))?;
            let entry = l.txs.iter().find(|t| t.id == id).cloned();
            let ledger = (l.header.seq, l.header.hash, l.header.close_time);
            (sel.result(), entry.map(|e| (e, ledger)))
        }
        Err(e) if e.code() == Some(ErrorCode::LgrNotFound) => stored(ctx, params).ok_or(e)??,
        Err(e) => return Err(e),
    };
    let Some((entry, ledger)) = found else {
        let mut err = RpcError::bare("transactionNotFound");
        err = err.with_fields(fields);
        return Err(err);
    };
    let mut r = fields;
    r.extend(render(ctx, &entry, ledger));
    r.sort_keys();
    Ok(r)
}

fn tx_hash(params: &Params) -> Result<Hash256, RpcError> {
    let text = params
        .get("tx_hash")
        .ok_or_else(|| RpcError::bare("fieldNotFoundTransaction"))?;
    text.as_str()
        .and_then(parse_hash256)
        .ok_or_else(|| RpcError::bare("malformedRequest"))
}

type Lookup = Result<(Map<String, Value>, Option<(Arc<TxEntry>, Ledger)>), RpcError>;

/// The lookup in a ledger older than memory, from the history store.
fn stored(ctx: &Context, params: &Params) -> Option<Lookup> {
    let history = &ctx.services.node.history.store;
    let header = stored_header(ctx, params)?;
    let mut fields = Map::new();
    fields.insert("ledger_hash".into(), Value::from(header.hash.to_hex()));
    fields.insert("ledger_index".into(), Value::from(header.seq));
    fields.insert("validated".into(), Value::Bool(true));
    let id = match tx_hash(params) {
        Ok(id) => id,
        Err(e) => return Some(Err(e.with_fields(fields))),
    };
    let stored = match history.tx(&id) {
        Ok(t) => t.filter(|t| t.ledger_seq == header.seq),
        Err(e) => return Some(Err(RpcError::history_read(&e).with_fields(fields))),
    };
    let entry = match stored.map(|t| (tx_entry(&t), t.id)) {
        Some((None, id)) => {
            let what = format!("stored transaction {} does not decode", id.to_hex());
            return Some(Err(RpcError::history_damaged(what).with_fields(fields)));
        }
        Some((entry, _)) => entry,
        None => None,
    };
    let ledger = (header.seq, header.hash, header.close_time);
    Some(Ok((fields, entry.map(|e| (e, ledger)))))
}

fn render(ctx: &Context, e: &TxEntry, (seq, hash, close): Ledger) -> Map<String, Value> {
    let v2 = ctx.api_version >= 2;
    let validated = seq <= ctx.services.node.ledgers.validated().seq();
    let mut tx = tx_fields(&e.tx(), ctx.api_version);
    let mut r = Map::new();
    let meta = codec::to_json(&e.meta());
    if v2 {
        r.insert("hash".into(), Value::from(e.id.to_hex()));
        r.insert("ledger_hash".into(), Value::from(hash.to_hex()));
        if validated {
            r.insert("ledger_index".into(), Value::from(seq));
            r.insert("close_time_iso".into(), Value::from(time::iso(close)));
        }
        r.insert("meta".into(), meta);
    } else {
        tx.insert("hash".into(), Value::from(e.id.to_hex()));
        tx.sort_keys();
        r.insert("metadata".into(), meta);
    }
    r.insert("tx_json".into(), Value::Object(tx));
    r
}
