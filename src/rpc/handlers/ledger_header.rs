//! `ledger_header` (rippled `LedgerHeader.cpp`; API v1 only, deprecated): the selected
//! ledger's raw header in rippled's `addRaw` order as `ledger_data`, and its header as the
//! `ledger` object, at any ledger memory or the history store holds.

use crate::ledger::header::LedgerHeader;
use crate::ledgers::LedgerSnapshot;
use crate::protocol::types::Hash256;
use crate::rpc::context::Context;
use crate::rpc::ledger_select::{header_object, open_parent, select};
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

/// The open ledger's header as far as it is known before its close: its sequence, its
/// parent's hash, coins and close time; no hashes of its own.
fn open_header(ctx: &Context, snap: &LedgerSnapshot) -> LedgerHeader {
    let parent = ctx.services.node.ledgers.closed();
    let p = parent.ledger.as_ref().map(|l| &l.header);
    LedgerHeader {
        seq: snap.seq(),
        total_drops: p.map(|h| h.total_drops).unwrap_or(0),
        parent_hash: open_parent(ctx, snap),
        transaction_hash: Hash256::ZERO,
        account_hash: Hash256::ZERO,
        parent_close_time: p.map(|h| h.close_time).unwrap_or(0),
        close_time: 0,
        close_time_resolution: p.map(|h| h.close_time_resolution).unwrap_or(0),
        close_flags: 0,
        hash: Hash256::ZERO,
    }
}

/// Answer ledger_header.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    let header = match &sel.snap.ledger {
        Some(l) => l.header.clone(),
        None => open_header(ctx, &sel.snap),
    };
    let mut r = sel.result();
    r.insert(
        "ledger_data".into(),
        Value::from(crate::protocol::types::hex_upper(header.raw())),
    );
    let ledger = header_object(ctx, &sel.snap, false);
    r.insert("ledger".into(), Value::Object(ledger));
    Ok(r)
}
