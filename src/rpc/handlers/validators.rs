//! `validators` (rippled `Validators.cpp`, `ValidatorList::getJson`): admin; the validator
//! lists and the trusted keys. ledgerd trusts no validators (standalone, no `[validators]`
//! or publisher lists), so the reply is rippled's for that configuration: quorum 0 (as
//! server_info reports), an unknown list, and empty key lists. Its own validation key
//! (`validator_info`, stream `validations`) is not a trusted one: no `[validators]` lists
//! it.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The (empty) validator configuration.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let mut list = Map::new();
    list.insert("count".into(), Value::from(0));
    list.insert("expiration".into(), Value::from("unknown"));
    list.insert("status".into(), Value::from("unknown"));
    let mut out = Map::new();
    out.insert("local_static_keys".into(), Value::Array(Vec::new()));
    out.insert("publisher_lists".into(), Value::Array(Vec::new()));
    out.insert("signing_keys".into(), Value::Object(Map::new()));
    out.insert("trusted_validator_keys".into(), Value::Array(Vec::new()));
    out.insert("validation_quorum".into(), Value::from(0));
    out.insert("validator_list".into(), Value::Object(list));
    Ok(out)
}
