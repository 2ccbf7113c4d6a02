//! `simulate` (rippled `Simulate.cpp`): applies an unsigned transaction (`tx_json` or
//! `tx_blob`, autofilled as for signing) to the open ledger as it stands and answers its
//! result and metadata, keeping nothing: the engine is a function of (view, transaction)
//! and its writes are simply not committed.

use crate::engine::apply_transaction;
use crate::protocol::codec;
use crate::protocol::tx::transaction_id;
use crate::render::tx::tx_json;
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::signing::{insert_engine_result, simulate_request};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer simulate.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let binary = match params.get("binary") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(RpcError::invalid_field("binary")),
    };
    let tx = simulate_request(ctx, params)?;
    let blob = codec::encode(&tx);
    let id = transaction_id(&blob);
    let ledgers = &ctx.services.node.ledgers;
    let mut cfg = ledgers.config().apply.clone();
    cfg.dry_run = true;
    let open = ledgers.current();
    let index = ledgers.open_txs().len() as u32;
    let out = apply_transaction(&open.view, &tx, &id, index, &cfg);
    let mut r = Map::new();
    insert_engine_result(&mut r, out.ter);
    // A dry run applies nothing: rippled answers `applied: false` even for a tesSUCCESS,
    // with the metadata the transaction would have had.
    r.insert("applied".into(), Value::from(false));
    r.insert("ledger_index".into(), Value::from(open.seq()));
    if let Some(meta) = out.meta.filter(|_| out.applied) {
        if binary {
            r.insert("meta_blob".into(), Value::from(crate::protocol::types::hex_upper(codec::encode(&meta))));
        } else {
            r.insert("meta".into(), codec::to_json(&meta));
        }
    }
    if binary {
        r.insert("tx_blob".into(), Value::from(crate::protocol::types::hex_upper(&blob)));
    } else {
        r.insert("tx_json".into(), Value::Object(tx_json(&tx, &id, ctx.api_version)));
    }
    Ok(r)
}
