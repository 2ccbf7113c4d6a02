//! Ledger selection (rippled 2.4+ `lookupLedger`, `RPCLedgerHelpers.cpp`; rpc.md §3.0):
//! which ledger a request reads (`ledger_hash`, `ledger_index`, or the legacy `ledger`),
//! and the fields every reading handler starts its result with.
//!
//! Handlers that fail after selecting a ledger *inject* their error into those fields, as
//! rippled does, so the reply still names the ledger ([`Selected::inject`]).

use crate::ledgers::LedgerSnapshot;
use crate::limits::VALIDATED_AGE_MAX_SECS;
use crate::protocol::time::ripple_now_secs;
use crate::render::ledger::{header_binary_json, header_json, seq_value};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{parse_hash256, parse_u64_decimal};
use crate::rpc::Params;
use serde_json::{Map, Value};

/// The ledger a request selected, and the result fields that describe it.
pub struct Selected {
    /// A consistent view of that ledger.
    pub snap: LedgerSnapshot,
    /// `ledger_hash` + `ledger_index` (closed) or `ledger_current_index` (open), and
    /// `validated`.
    pub fields: Map<String, Value>,
}

impl Selected {
    /// The result so far, to add a handler's own fields to.
    pub fn result(&self) -> Map<String, Value> {
        self.fields.clone()
    }

    /// `err` carrying the ledger fields (rippled's `inject` into the lookup result).
    pub fn inject(&self, err: impl Into<RpcError>) -> RpcError {
        let mut err = err.into();
        let mut fields = self.fields.clone();
        fields.append(&mut err.fields);
        err.fields = fields;
        err
    }

    /// True when the selected ledger is the open one.
    pub fn is_open(&self) -> bool {
        !self.snap.is_closed()
    }
}

/// Which ledger a `ledger_index` value names.
enum Shortcut {
    Current,
    Closed,
    Validated,
    Seq(u32),
}

fn ledger_not_found() -> RpcError {
    RpcError::with_message(ErrorCode::LgrNotFound, "ledgerNotFound")
}

/// rippled's answer when the server is not in sync with the network (never in
/// standalone): v1 `noNetwork`, v2 `notSynced`.
fn not_synced(ctx: &Context) -> RpcError {
    if ctx.api_version >= 2 {
        RpcError::with_message(ErrorCode::NotSynced, "notSynced")
    } else {
        RpcError::with_message(ErrorCode::NoNetwork, "InsufficientNetworkMode")
    }
}

/// Parses a `ledger_index` value (number or string) the way rippled does.
fn parse_index(value: &Value) -> Result<Shortcut, RpcError> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
        _ => return Err(RpcError::invalid_field("ledger_index")),
    };
    match text.as_str() {
        "" | "current" => Ok(Shortcut::Current),
        "closed" => Ok(Shortcut::Closed),
        "validated" => Ok(Shortcut::Validated),
        t => parse_u64_decimal(t)
            .and_then(|n| u32::try_from(n).ok())
            .map(Shortcut::Seq)
            .ok_or_else(|| {
                RpcError::with_message(ErrorCode::InvalidParams, "ledgerIndexMalformed")
            }),
    }
}

/// Parses a `ledger_hash` value.
fn parse_hash(value: &Value) -> Result<crate::protocol::types::Hash256, RpcError> {
    let text = value
        .as_str()
        .ok_or_else(|| RpcError::invalid_field("ledger_hash"))?;
    parse_hash256(text)
        .ok_or_else(|| RpcError::with_message(ErrorCode::InvalidParams, "ledgerHashMalformed"))
}

/// The fields rippled adds for a selected ledger.
pub fn ledger_fields(ctx: &Context, snap: &LedgerSnapshot) -> Map<String, Value> {
    let mut fields = Map::new();
    match &snap.ledger {
        Some(l) => {
            fields.insert("ledger_hash".into(), Value::from(l.header.hash.to_hex()));
            fields.insert("ledger_index".into(), Value::from(l.header.seq));
            let validated = ctx.services.node.ledgers.validated().seq();
            fields.insert("validated".into(), Value::from(l.header.seq <= validated));
        }
        None => {
            fields.insert("ledger_current_index".into(), Value::from(snap.seq()));
            fields.insert("validated".into(), Value::from(false));
        }
    }
    fields
}

/// The `ledger` object rippled's `LedgerFill` prints for a ledger with no options: a
/// closed ledger's header (binary: `closed` and the raw header as `ledger_data`), or the
/// open ledger's `closed`, `ledger_index` and `parent_hash`.
pub fn header_object(ctx: &Context, snap: &LedgerSnapshot, binary: bool) -> Map<String, Value> {
    match (&snap.ledger, binary) {
        (Some(l), true) => header_binary_json(&l.header),
        (Some(l), false) => header_json(&l.header, ctx.api_version),
        (None, true) => {
            let mut o = Map::new();
            o.insert("closed".into(), Value::from(false));
            o
        }
        (None, false) => {
            let mut o = Map::new();
            o.insert("closed".into(), Value::from(false));
            o.insert(
                "ledger_index".into(),
                seq_value(snap.seq(), ctx.api_version),
            );
            o.insert(
                "parent_hash".into(),
                Value::from(open_parent(ctx, snap).to_hex()),
            );
            o
        }
    }
}

/// The open ledger's parent: the closed ledger just before it.
pub fn open_parent(ctx: &Context, snap: &LedgerSnapshot) -> crate::protocol::types::Hash256 {
    ctx.services
        .node
        .ledgers
        .by_seq(snap.seq().saturating_sub(1))
        .and_then(|p| p.ledger)
        .map(|l| l.header.hash)
        .unwrap_or_default()
}

/// `notSupported` for a walk over every entry of a lazy fork's ledger, which holds only
/// the entries read or written so far (`StateView::is_complete`).
pub fn require_complete(snap: &LedgerSnapshot, what: &str) -> Result<(), RpcError> {
    if snap.view.is_complete() {
        return Ok(());
    }
    Err(RpcError::with_message(
        ErrorCode::NotSupported,
        format!("{what} walks every entry, which a lazy fork does not hold (it reads its upstream by key)"),
    ))
}

/// Selects the ledger `params` names (rpc.md §3.0), or the error rippled gives. A closed
/// ledger older than memory keeps is read from the history store (its header and state;
/// its transactions stay in the store).
pub fn select(ctx: &Context, params: &Params) -> Result<Selected, RpcError> {
    select_from(ctx, params, true)
}

/// [`select`] among the ledgers memory keeps only (handlers that list a ledger's
/// transactions read older ones from the history store themselves).
pub fn select_in_memory(ctx: &Context, params: &Params) -> Result<Selected, RpcError> {
    select_from(ctx, params, false)
}

fn select_from(ctx: &Context, params: &Params, stored: bool) -> Result<Selected, RpcError> {
    let store = &ctx.services.node.ledgers;
    // A read node that has not yet read a ledger from its database has none to offer.
    if store.is_follower() && store.tip().is_none() {
        return Err(RpcError::new(ErrorCode::NotReady));
    }
    let history = &ctx.services.node.history;
    let legacy = params.get("ledger");
    let hash = params.get("ledger_hash");
    let index = params.get("ledger_index");
    let given = [legacy, hash, index].iter().filter(|v| v.is_some()).count();
    if given > 1 {
        let msg = if legacy.is_some() {
            "Exactly one of 'ledger', 'ledger_hash', or 'ledger_index' can be specified."
        } else {
            "Exactly one of 'ledger_hash' or 'ledger_index' can be specified."
        };
        return Err(RpcError::with_message(ErrorCode::InvalidParams, msg));
    }
    // The legacy `ledger` field: a long string is a hash, anything else an index.
    let (hash, index) = match legacy {
        Some(v @ Value::String(s)) if s.len() > 12 => (Some(v), None),
        Some(v) => (None, Some(v)),
        None => (hash, index),
    };
    let status = ctx.services.node.status();
    let stale = !status.standalone
        && status
            .validated
            .map(|l| ripple_now_secs().saturating_sub(l.close_time))
            .is_none_or(|age| age > VALIDATED_AGE_MAX_SECS);
    let snap = if let Some(h) = hash {
        let h = parse_hash(h)?;
        store
            .by_hash(&h)
            .or_else(|| stored.then(|| history.snapshot_by_hash(&h)).flatten())
            .ok_or_else(ledger_not_found)?
    } else {
        let which = match index {
            Some(v) => parse_index(v)?,
            None => Shortcut::Current,
        };
        match which {
            Shortcut::Current => {
                if stale {
                    return Err(not_synced(ctx));
                }
                store.current()
            }
            Shortcut::Closed => {
                if stale {
                    return Err(not_synced(ctx));
                }
                store.closed()
            }
            Shortcut::Validated => {
                if stale {
                    return Err(not_synced(ctx));
                }
                store.validated()
            }
            Shortcut::Seq(n) => {
                if stale && n > store.validated().seq() {
                    return Err(not_synced(ctx));
                }
                match store.by_seq(n) {
                    Some(s) => s,
                    None => {
                        let open = store.current();
                        if open.seq() == n {
                            open
                        } else {
                            // The open ledger may have closed between the two reads.
                            store
                                .by_seq(n)
                                .or_else(|| stored.then(|| history.snapshot(n)).flatten())
                                .ok_or_else(ledger_not_found)?
                        }
                    }
                }
            }
        }
    };
    let fields = ledger_fields(ctx, &snap);
    Ok(Selected { snap, fields })
}

/// The ledger a request names (`ledger_hash`, `ledger` or `ledger_index`, by hash or by
/// number), looked up in the history store: for ledgers older than memory keeps.
pub fn stored_header(
    ctx: &Context,
    params: &Params,
) -> Option<crate::ledger::header::LedgerHeader> {
    let history = &ctx.services.node.history.store;
    let key = ["ledger_hash", "ledger", "ledger_index"]
        .iter()
        .find_map(|k| params.get(*k))?;
    match key.as_str().and_then(parse_hash256) {
        Some(hash) => history.header_by_hash(&hash).ok()?,
        None => {
            let seq = key.as_u64().or_else(|| key.as_str()?.parse().ok())?;
            history.header(u32::try_from(seq).ok()?).ok()?
        }
    }
}

/// [`select`] for Clio's own methods, which read validated ledgers only: a request that
/// names no ledger gets the last validated one.
pub fn clio_select(ctx: &Context, params: &Params) -> Result<Selected, RpcError> {
    if ["ledger", "ledger_hash", "ledger_index"]
        .iter()
        .any(|k| params.contains_key(*k))
    {
        return select(ctx, params);
    }
    let mut named = params.clone();
    named.insert("ledger_index".into(), Value::from("validated"));
    select(ctx, &named)
}
