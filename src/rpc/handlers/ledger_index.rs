//! `ledger_index` (Clio `LedgerIndex.cpp`, a method rippled does not have): the last
//! validated ledger that closed at or before `date` (`YYYY-MM-DDTHH:MM:SSZ`, UTC), or the
//! latest without a date; `lgrNotFound` ("ledgerNotInRange") for a date before the first
//! ledger of the history. Close times never decrease, so the ledger is found by bisection
//! over `complete_ledgers`.

use crate::ledger::header::LedgerHeader;
use crate::protocol::time;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer ledger_index.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let date = match params.get("date") {
        None => None,
        Some(v) => Some(parse_date(v)?),
    };
    let (lo, hi) = ctx.services.node.complete_range();
    if lo == 0 || hi == 0 {
        return Err(RpcError::new(ErrorCode::LgrNotFound));
    }
    let seq = match date {
        None => hi,
        Some(None) => return Err(not_in_range()),
        Some(Some(secs)) => at_or_before(ctx, lo, hi, secs)?,
    };
    let header = header_at(ctx, seq).ok_or_else(|| RpcError::new(ErrorCode::LgrNotFound))?;
    let mut r = Map::new();
    r.insert("ledger_index".into(), Value::from(header.seq));
    r.insert("ledger_hash".into(), Value::from(header.hash.to_hex()));
    r.insert("closed".into(), Value::from(time::iso(header.close_time)));
    r.insert("validated".into(), Value::from(true));
    Ok(r)
}

/// `date` in Clio's one format (`%Y-%m-%dT%TZ`): `Some(None)` for a well-formed date
/// before the ripple epoch (before any ledger).
fn parse_date(v: &Value) -> Result<Option<u32>, RpcError> {
    let text = v
        .as_str()
        .ok_or_else(|| RpcError::invalid_field("date"))?;
    let b = text.as_bytes();
    let shaped = b.len() == 20 && b[10] == b'T' && b[19] == b'Z';
    let secs = time::parse_close_time(text);
    let year = text.get(..4).and_then(|y| y.parse::<u32>().ok());
    let before_epoch = year.is_some_and(|y| y < 2000);
    match (shaped, secs) {
        (true, Some(s)) => Ok(Some(s)),
        (true, None) if before_epoch => Ok(None),
        _ => Err(RpcError::invalid_field("date")),
    }
}

fn not_in_range() -> RpcError {
    RpcError::with_message(ErrorCode::LgrNotFound, "ledgerNotInRange")
}

/// A validated ledger's header, from memory or the history store.
fn header_at(ctx: &Context, seq: u32) -> Option<LedgerHeader> {
    let mut p = Params::new();
    p.insert("ledger_index".into(), Value::from(seq));
    let selected = select(ctx, &p).ok()?;
    selected.snap.ledger.as_ref().map(|l| l.header.clone())
}

/// The last ledger in `lo..=hi` closed at or before `secs` (Clio: the one before the first
/// that closed after it).
fn at_or_before(ctx: &Context, lo: u32, hi: u32, secs: u32) -> Result<u32, RpcError> {
    let closed_after = |seq: u32| -> Result<bool, RpcError> {
        let h = header_at(ctx, seq).ok_or_else(|| RpcError::new(ErrorCode::LgrNotFound))?;
        Ok(h.close_time > secs)
    };
    if closed_after(lo)? {
        return Err(not_in_range());
    }
    // The first ledger that closed after `secs`, in (lo, hi + 1].
    let (mut low, mut high) = (lo + 1, hi + 1);
    while low < high {
        let mid = low + (high - low) / 2;
        if closed_after(mid)? {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    Ok(low - 1)
}
