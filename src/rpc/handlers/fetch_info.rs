//! `fetch_info` (rippled `FetchInfo.cpp`, `InboundLedgers::getInfo`): admin; the ledgers
//! being fetched from peers, by sequence. ledgerd fetches no ledgers (it has no peers), so
//! `info` is `{}`; `clear: true` (rippled's `asBool`) clears the (empty) list and adds
//! `"clear": true`.

use crate::rpc::context::Context;
use crate::rpc::params::as_bool;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Nothing being fetched.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let mut out = Map::new();
    if params.get("clear").is_some_and(as_bool) {
        out.insert("clear".into(), Value::from(true));
    }
    out.insert("info".into(), Value::Object(Map::new()));
    Ok(out)
}
