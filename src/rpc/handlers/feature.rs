//! `feature` (rippled `Feature1.cpp`): the amendments and their state, all of them or one
//! named by name or ID. ledgerd reports the rules it applies as enabled and supported
//! ([`crate::rpc::amendments`]). Voting (`vetoed`) is an admin request rippled answers for
//! validators; a standalone ledgerd has nothing to vote on, so it is `noPermission` for
//! others and refused for admins too.

use crate::rpc::amendments::{all, Amendment};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::role::Role;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

fn entry(a: &Amendment, admin: bool) -> Value {
    let mut o = Map::new();
    o.insert("enabled".into(), Value::from(a.applied));
    o.insert("name".into(), Value::from(a.name));
    o.insert("supported".into(), Value::from(a.applied));
    if admin {
        o.insert("vetoed".into(), Value::from(false));
    }
    Value::Object(o)
}

/// Answer feature.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let admin = ctx.role == Role::Admin;
    if params.contains_key("vetoed") {
        return Err(RpcError::new(ErrorCode::NoPermission));
    }
    if let Some(v) = params.get("feature") {
        let wanted = v.as_str().unwrap_or_default();
        let found = all().find(|a| a.name == wanted || a.id.to_hex().eq_ignore_ascii_case(wanted));
        let Some(a) = found else {
            return Err(RpcError::new(ErrorCode::BadFeature));
        };
        let mut r = Map::new();
        r.insert(a.id.to_hex(), entry(&a, admin));
        return Ok(r);
    }
    let features: Map<String, Value> = all().map(|a| (a.id.to_hex(), entry(&a, admin))).collect();
    let mut r = Map::new();
    r.insert("features".into(), Value::Object(features));
    Ok(r)
}
