//! `account_channels` (rippled `AccountChannels.cpp`, rpc.md §3.5): the payment channels
//! an account opened, paged over its whole owner directory like account_lines.

use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::base58::{self, version};
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::owner_walk::{
    account_field, existing_account, optional_account, read_limit, walk_page,
};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// One channel as rippled prints it.
pub fn channel_json(key: &Hash256, entry: &StObject) -> Value {
    let s = sf();
    let mut o = Map::new();
    o.insert("channel_id".into(), Value::from(key.to_hex()));
    if let Some(a) = entry.account_of(s.account) {
        o.insert("account".into(), Value::from(a.to_address()));
    }
    if let Some(d) = entry.account_of(s.destination) {
        o.insert("destination_account".into(), Value::from(d.to_address()));
    }
    o.insert(
        "amount".into(),
        Value::from(entry.drops_of(s.amount).to_string()),
    );
    o.insert(
        "balance".into(),
        Value::from(entry.drops_of(s.balance).to_string()),
    );
    if let Some(pk) = entry.blob_of(s.public_key) {
        // rippled prints the key only when its type byte is a known one.
        if pk.len() == 33 && matches!(pk[0], 0x02 | 0x03 | 0xED) {
            o.insert(
                "public_key".into(),
                Value::from(base58::encode(version::ACCOUNT_PUBLIC, pk)),
            );
            o.insert("public_key_hex".into(), Value::from(crate::protocol::types::hex_upper(pk)));
        }
    }
    if let Some(d) = entry.u32_of(s.settle_delay) {
        o.insert("settle_delay".into(), Value::from(d));
    }
    for (name, f) in [
        ("expiration", s.expiration),
        ("cancel_after", s.cancel_after),
        ("source_tag", s.source_tag),
        ("destination_tag", s.destination_tag),
    ] {
        if let Some(v) = entry.u32_of(f) {
            o.insert(name.into(), Value::from(v));
        }
    }
    o.sort_keys();
    Value::Object(o)
}

/// Answer account_channels.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = account_field(params)?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    let id = existing_account(view, account, || RpcError::new(ErrorCode::ActMalformed))?;
    let dst = optional_account(params, "destination_account", || {
        RpcError::new(ErrorCode::ActMalformed)
    })?;
    let limit = read_limit(ctx, params, crate::limits::ACCOUNT_CHANNELS_PAGE)?;
    let s = sf();
    let (channels, marker) = walk_page(view, &id, params, limit, |key, entry| {
        (entry.u16_of(s.ledger_entry_type) == Some(lt::PAYCHAN)
            && entry.account_of(s.account) == Some(id)
            && dst.is_none_or(|d| entry.account_of(s.destination) == Some(d)))
        .then(|| channel_json(key, entry))
    })?;
    let mut result = sel.result();
    result.insert("account".into(), Value::from(id.to_address()));
    result.insert("channels".into(), Value::Array(channels));
    if let Some(m) = marker {
        result.insert("limit".into(), Value::from(limit));
        result.insert("marker".into(), Value::from(m));
    }
    Ok(result)
}
