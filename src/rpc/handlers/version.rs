//! `version` (rippled `Version.h`): the API versions served: `{first, last}` as numbers in
//! API v2, rippled's fixed `"1.0.0"` strings in v1.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params, API_VERSION_MAX, API_VERSION_MIN};
use serde_json::{Map, Value};

/// Answer version.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let mut v = Map::new();
    if ctx.api_version >= 2 {
        v.insert("first".into(), Value::from(API_VERSION_MIN));
        v.insert("last".into(), Value::from(API_VERSION_MAX));
    } else {
        for k in ["first", "good", "last"] {
            v.insert(k.into(), Value::from("1.0.0"));
        }
    }
    let mut r = Map::new();
    r.insert("version".into(), Value::Object(v));
    Ok(r)
}
