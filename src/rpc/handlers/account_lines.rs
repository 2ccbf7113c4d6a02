//! `account_lines` (rippled `AccountLines.cpp`, rpc.md §3.4): an account's trust lines
//! from its side, paged over its whole owner directory.

use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::trust_line::TrustLine;
use crate::rpc::context::Context;
use crate::rpc::error::ErrorCode;
use crate::rpc::owner_walk::{
    account_field, existing_account, optional_account, read_limit, walk_page,
};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// RippleState: the low account deep-froze the line (DeepFreeze amendment).
const LSF_LOW_DEEP_FREEZE: u32 = 0x0200_0000;
/// RippleState: the high account deep-froze the line.
const LSF_HIGH_DEEP_FREEZE: u32 = 0x0400_0000;
/// RippleState reserve bits (`ignore_default`).
const LSF_LOW_RESERVE: u32 = crate::ledger::flags::lsf::LOW_RESERVE;
const LSF_HIGH_RESERVE: u32 = crate::ledger::flags::lsf::HIGH_RESERVE;

/// One line as rippled prints it: false flags omitted.
pub fn line_json(line: &TrustLine, flags: u32, viewer_low: bool) -> Value {
    let mut o = Map::new();
    o.insert("account".into(), Value::from(line.peer.to_address()));
    o.insert("balance".into(), Value::from(line.balance.to_text()));
    o.insert(
        "currency".into(),
        Value::from(line.currency.to_json_string()),
    );
    o.insert("limit".into(), Value::from(line.limit.to_text()));
    o.insert("limit_peer".into(), Value::from(line.limit_peer.to_text()));
    o.insert("quality_in".into(), Value::from(line.quality_in));
    o.insert("quality_out".into(), Value::from(line.quality_out));
    let (deep, deep_peer) = if viewer_low {
        (LSF_LOW_DEEP_FREEZE, LSF_HIGH_DEEP_FREEZE)
    } else {
        (LSF_HIGH_DEEP_FREEZE, LSF_LOW_DEEP_FREEZE)
    };
    for (name, on) in [
        ("authorized", line.authorized),
        ("peer_authorized", line.peer_authorized),
        ("no_ripple", line.no_ripple),
        ("no_ripple_peer", line.no_ripple_peer),
        ("freeze", line.freeze),
        ("freeze_peer", line.freeze_peer),
        ("deep_freeze", flags & deep != 0),
        ("deep_freeze_peer", flags & deep_peer != 0),
    ] {
        if on {
            o.insert(name.into(), Value::from(true));
        }
    }
    o.sort_keys();
    Value::Object(o)
}

/// Answer account_lines.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = account_field(params)?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    let id = existing_account(view, account, || sel.inject(ErrorCode::ActMalformed))?;
    let peer = optional_account(params, "peer", || sel.inject(ErrorCode::ActMalformed))?;
    let limit = read_limit(ctx, params, crate::limits::ACCOUNT_LINES_PAGE)?;
    let ignore_default = params
        .get("ignore_default")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let s = sf();
    let (lines, marker) = walk_page(view, &id, params, limit, |_, entry| {
        if entry.u16_of(s.ledger_entry_type) != Some(lt::RIPPLE_STATE) {
            return None;
        }
        let line = TrustLine::from_entry(entry, &id)?;
        if peer.is_some_and(|p| p != line.peer) {
            return None;
        }
        let flags = entry.flags();
        let viewer_low = id < line.peer;
        let reserve = if viewer_low {
            LSF_LOW_RESERVE
        } else {
            LSF_HIGH_RESERVE
        };
        if ignore_default && flags & reserve == 0 {
            return None;
        }
        Some(line_json(&line, flags, viewer_low))
    })?;
    let mut result = sel.result();
    result.insert("account".into(), Value::from(id.to_address()));
    result.insert("lines".into(), Value::Array(lines));
    if let Some(m) = marker {
        result.insert("limit".into(), Value::from(limit));
        result.insert("marker".into(), Value::from(m));
    }
    Ok(result)
}
