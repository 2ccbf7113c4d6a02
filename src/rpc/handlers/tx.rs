//! `tx` (rippled `Tx.cpp`, rpc.md §3.14): a transaction by hash or CTID, with its
//! metadata and ledger, in the v1 or v2 shape; a transaction waiting in the queue without
//! either.

use std::sync::Arc;

use crate::engine::Ter;
use crate::ledgers::TxEntry;
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::node::history::tx_entry;
use crate::limits::TX_LEDGER_RANGE_MAX;
use crate::protocol::time;
use crate::render::tx::{ctid, meta_json_nft, parse_ctid, tx_fields};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::as_bool;
use crate::protocol::types::Hash256;
use crate::rpc::params::{parse_hash256, uint_or_decimal};
use crate::rpc::{HandlerResult, Params};
use crate::store::StoredTx;
use serde_json::{Map, Value};


/// Where a transaction stands.
struct Found {
    entry: Arc<TxEntry>,
    /// The closed ledger it is in: (hash, close time), None while only in the open ledger.
    ledger: Option<(String, u32)>,
    validated: bool,
}

fn locate(ctx: &Context, entry: Arc<TxEntry>) -> Found {
    let node = &ctx.services.node;
    let store = &node.ledgers;
    let ledger = store
        .by_seq(entry.ledger_seq)
        .and_then(|s| s.ledger)
        .map(|l| (l.header.hash.to_hex(), l.header.close_time))
        .or_else(|| stored_header(ctx, entry.ledger_seq));
    let validated = ledger.is_some() && entry.ledger_seq <= store.validated().seq();
    Found {
        entry,
        ledger,
        validated,
    }
}

/// Ledger `seq`'s hash and close time from the history store (kept on a read node).
fn stored_header(ctx: &Context, seq: u32) -> Option<(String, u32)> {
    let node = &ctx.services.node;
    let (keep, epoch) = (node.ledgers.is_follower(), node.history_epoch());
    if let Some(kept) = ctx.services.read_cache.header(seq, epoch).filter(|_| keep) {
        return Some(kept);
    }
    let header = node.history.store.header(seq).ok().flatten()?;
    let facts = (header.hash.to_hex(), header.close_time);
    if keep {
        ctx.services.read_cache.keep_header(seq, epoch, facts.clone());
    }
    Some(facts)
}

/// A transaction waiting in the queue, as [`render`] shows one in no ledger.
fn queued(id: Hash256, tx: &StObject) -> Found {
    let entry = TxEntry {
        id,
        blob: Arc::from(codec::encode(tx)),
        meta_blob: Arc::from([]),
        ter: Ter::terQUEUED,
        ledger_seq: 0,
        index: 0,
        delivered: None,
    };
    Found {
        entry: Arc::new(entry),
        ledger: None,
        validated: false,
    }
}

/// Answer tx.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let (hash, ctid_param) = (params.get("transaction"), params.get("ctid"));
    if hash.is_some() && ctid_param.is_some() {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    let network_id = ctx.services.node.network_id;
    let binary = params.get("binary").is_some_and(as_bool);
    let found = if let Some(h) = hash {
        let id = h
            .as_str()
            .and_then(parse_hash256)
            .ok_or_else(|| RpcError::new(ErrorCode::NotImpl))?;
        Ok(id)
    } else if let Some(c) = ctid_param {
        let (seq, index, net) = c
            .as_str()
            .and_then(parse_ctid)
            .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?;
        if net != network_id {
            return Err(RpcError::with_message(
                ErrorCode::WrongNetwork,
                format!(
                    "Wrong network. You should submit this request to a node running on NetworkID: {net}"
                ),
            ));
        }
        Err((seq, index))
    } else {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    };
    let range = match (params.get("min_ledger"), params.get("max_ledger")) {
        (Some(a), Some(b)) => {
            let (Some(min), Some(max)) = (uint_or_decimal(a), uint_or_decimal(b)) else {
                return Err(RpcError::new(ErrorCode::InvalidLgrRange));
            };
            if max < min {
                return Err(RpcError::new(ErrorCode::InvalidLgrRange));
            }
            if max - min > TX_LEDGER_RANGE_MAX {
                return Err(RpcError::new(ErrorCode::ExcessiveLgrRange));
            }
            Some((min, max))
        }
        _ => None,
    };
    let entry = find(ctx, found)?;
    if let (None, Ok(id)) = (&entry, found) {
        // In the queue, in no ledger yet: rippled finds it in its transaction cache, in
        // any range, with no ledger and no metadata.
        if let Some(tx) = ctx.services.node.ledgers.queued_tx(&id) {
            return Ok(render(ctx, queued(id, &tx), binary, network_id));
        }
    }
    // A transaction outside the requested range is "not found" there.
    let entry = entry.filter(|e| range.is_none_or(|(a, b)| (a..=b).contains(&e.ledger_seq)));
    let Some(entry) = entry else {
        let mut err = RpcError::new(ErrorCode::TxnNotFound);
        if let Some((min, max)) = range {
            let (lo, hi) = ctx.services.node.complete_range();
            let mut fields = Map::new();
            fields.insert(
                "searched_all".into(),
                Value::from(lo <= min && max <= hi && lo != 0),
            );
            err = err.with_fields(fields);
        }
        return Err(err);
    };
    Ok(render(ctx, locate(ctx, entry), binary, network_id))
}

/// The transaction by ID (Ok) or by (ledger, index) (Err), in memory or else in the
/// history store; a store that fails or returns what does not decode answers its error
/// (rippled's `dbDeserialization`), never "not found".
fn find(ctx: &Context, key: Result<Hash256, (u32, u32)>) -> Result<Option<Arc<TxEntry>>, RpcError> {
    let store = &ctx.services.node.ledgers;
    let history = &ctx.services.node.history.store;
    let decoded = |t: &StoredTx| {
        tx_entry(t).ok_or_else(|| {
            RpcError::history_damaged(format!("stored transaction {} does not decode", t.id.to_hex()))
        })
    };
    match key {
        Ok(id) => match store.tx(&id) {
            Some(e) => Ok(Some(e)),
            None => {
                let (keep, epoch) = (store.is_follower(), ctx.services.node.history_epoch());
                let cache = &ctx.services.read_cache;
                if let Some(kept) = cache.tx(&id, epoch).filter(|_| keep) {
                    return Ok(Some(kept));
                }
                match history.tx(&id).map_err(|e| RpcError::history_read(&e))? {
                    Some(t) => {
                        let entry = decoded(&t)?;
                        if keep {
                            cache.keep_tx(epoch, entry.clone());
                        }
                        Ok(Some(entry))
                    }
                    None => Ok(None),
                }
            }
        },
        Err((seq, index)) => {
            let held = store
                .by_seq(seq)
                .and_then(|s| s.ledger)
                .and_then(|l| l.txs.get(index as usize).cloned());
            if held.is_some() {
                return Ok(held);
            }
            let txs = history
                .ledger_txs(seq)
                .map_err(|e| RpcError::history_read(&e))?;
            txs.iter().find(|t| t.index == index).map(decoded).transpose()
        }
    }
}

fn render(ctx: &Context, f: Found, binary: bool, network_id: u32) -> Map<String, Value> {
    let e = &f.entry;
    let v2 = ctx.api_version >= 2;
    let in_ledger = f.ledger.is_some();
    let mut r = Map::new();
    let blob_hex = crate::protocol::types::hex_upper(&e.blob);
    let decoded = (!binary).then(|| e.decoded());
    let mut txj = match &decoded {
        Some(d) => tx_fields(&d.tx, ctx.api_version),
        None => Map::new(),
    };
    if in_ledger {
        if !v2 {
            r.insert("inLedger".into(), Value::from(e.ledger_seq));
        }
        let target = if v2 && !binary { &mut txj } else { &mut r };
        target.insert("ledger_index".into(), Value::from(e.ledger_seq));
        if let Some((_, close)) = &f.ledger {
            target.insert("date".into(), Value::from(*close));
        }
    }
    if v2 {
        if binary {
            r.insert("tx_blob".into(), Value::from(blob_hex));
        } else {
            txj.sort_keys();
            r.insert("tx_json".into(), Value::Object(txj));
        }
        if let Some((hash, close)) = &f.ledger {
            r.insert("ledger_hash".into(), Value::from(hash.as_str()));
            if f.validated {
                r.insert("ledger_index".into(), Value::from(e.ledger_seq));
                r.insert("close_time_iso".into(), Value::from(time::iso(*close)));
            }
        }
        r.insert("hash".into(), Value::from(e.id.to_hex()));
    } else {
        if binary {
            r.insert("tx".into(), Value::from(blob_hex));
        } else {
            r.append(&mut txj);
        }
        r.insert("hash".into(), Value::from(e.id.to_hex()));
    }
    if in_ledger {
        if binary {
            let meta = crate::protocol::types::hex_upper(&e.meta_blob);
            r.insert(
                if v2 { "meta_blob" } else { "meta" }.into(),
                Value::from(meta),
            );
        } else if let Some(d) = &decoded {
            r.insert("meta".into(), meta_json_nft(d));
        }
    }
    r.insert("validated".into(), Value::from(f.validated));
    if f.validated {
        if let Some(c) = ctid(e.ledger_seq, e.index, network_id) {
            r.insert("ctid".into(), Value::from(c));
        }
    }
    r
}
