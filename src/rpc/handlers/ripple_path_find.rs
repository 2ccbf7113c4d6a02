//! `ripple_path_find` (rippled `RipplePathFind.cpp`, `PathRequests::doLegacyPathRequest`):
//! one full path search, answered at once. With a ledger named (or in standalone, where
//! the open ledger is the default) the result carries that ledger's fields; a networked
//! server without one searches its last closed ledger and names none.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::ledgers::LedgerSnapshot;
use crate::limits::{PATHFIND_LEGACY_IN_PROGRESS_MAX, VALIDATED_AGE_MAX_SECS};
use crate::protocol::time::ripple_now_secs;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::pathfind::request::PathRequest;
use crate::rpc::pathfind::session::run_update;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Legacy searches running now (rippled `LegacyPathFind::inProgress`).
static IN_PROGRESS: AtomicUsize = AtomicUsize::new(0);

/// A place among the running legacy searches, given back on drop.
struct Slot;

impl Slot {
    fn take(unlimited: bool) -> Option<Slot> {
        let taken = IN_PROGRESS.fetch_add(1, Ordering::AcqRel);
        if !unlimited && taken >= PATHFIND_LEGACY_IN_PROGRESS_MAX {
            IN_PROGRESS.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        IN_PROGRESS.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The ledger to search and the fields that name it.
fn ledger(
    ctx: &Context,
    params: &Params,
) -> Result<(LedgerSnapshot, Map<String, Value>), RpcError> {
    let status = ctx.services.node.status();
    let named = ["ledger", "ledger_index", "ledger_hash"]
        .iter()
        .any(|k| params.contains_key(*k));
    if status.standalone || named {
        let sel = select(ctx, params)?;
        return Ok((sel.snap, sel.fields));
    }
    let age = status
        .validated
        .map(|l| ripple_now_secs().saturating_sub(l.close_time));
    if age.is_none_or(|a| a > VALIDATED_AGE_MAX_SECS) {
        let code = if ctx.api_version >= 2 {
            ErrorCode::NotSynced
        } else {
            ErrorCode::NoNetwork
        };
        return Err(RpcError::new(code));
    }
    Ok((ctx.services.ledgers().closed(), Map::new()))
}

/// Answer ripple_path_find.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let (snap, fields) = ledger(ctx, params)?;
    let inject = |e: RpcError| {
        let mut f = fields.clone();
        let mut e = e;
        f.append(&mut e.fields);
        e.fields = f;
        e
    };
    let _slot = Slot::take(ctx.role.is_unlimited()).ok_or(ErrorCode::TooBusy)?;
    let request = PathRequest::parse(params, true).map_err(inject)?;
    let mut result = run_update(&request, &snap, false, &|| true).map_err(inject)?;
    for (k, v) in fields {
        result.insert(k, v);
    }
    Ok(result)
}
