//! `book_changes` (rippled `BookOffers.cpp` `doBookChanges`, `BookChanges.h`): what the
//! selected ledger's transactions traded, per pair of issues. The reply is the
//! `bookChanges` object alone (no ledger selection fields), as rippled answers.

use std::sync::Arc;

use crate::ledgers::TxEntry;
use crate::node::history::tx_entry;
use crate::render::book_changes::{book_changes, LedgerRef};
use crate::rpc::context::Context;
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// Answer book_changes.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    let node = &ctx.services.node;
    let validated = sel
        .fields
        .get("validated")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let (txs, ledger): (Vec<Arc<TxEntry>>, LedgerRef) = match &sel.snap.ledger {
        Some(l) => {
            let seq = l.header.seq;
            let txs = if node.ledgers.by_seq(seq).is_some() {
                l.txs.clone()
            } else {
                // Older than memory keeps: the transactions are in the history store.
                node.history
                    .store
                    .ledger_txs(seq)
                    .map(|v| v.iter().filter_map(tx_entry).collect())
                    .unwrap_or_default()
            };
            let r = LedgerRef {
                seq,
                hash: l.header.hash,
                close_time: l.header.close_time,
                validated,
            };
            (txs, r)
        }
        None => {
            // The open ledger: rippled's open view keeps its parent's hash and close time.
            let parent = node.ledgers.closed();
            let (hash, close_time) = parent
                .ledger
                .as_ref()
                .map(|p| (p.header.hash, p.header.close_time))
                .unwrap_or_default();
            let r = LedgerRef {
                seq: sel.snap.seq(),
                hash,
                close_time,
                validated: false,
            };
            (node.ledgers.open_txs(), r)
        }
    };
    Ok(book_changes(&txs, &ledger))
}
