//! `validator_list_sites` (rippled `ValidatorListSites.cpp`, `ValidatorSite::getJson`):
//! admin; the sites validator lists are fetched from. ledgerd fetches none (standalone, no
//! `[validator_list_sites]`): `{"validator_sites": []}`.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// No sites.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let mut out = Map::new();
    out.insert("validator_sites".into(), Value::Array(Vec::new()));
    Ok(out)
}
