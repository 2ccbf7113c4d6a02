//! `unl_list` (rippled `UnlList.cpp`): admin; the validators listed, each with whether it
//! is trusted. ledgerd lists none (standalone, no `[validators]`): rippled's reply is then
//! `{"unl": null}` (the member is created before the list is walked, and nothing is
//! appended to it).

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// No validators listed.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let mut out = Map::new();
    out.insert("unl".into(), Value::Null);
    Ok(out)
}
