//! `feature` (rippled `Feature1.cpp`, `AmendmentTable::getJson`): the amendments and their
//! state, all of them or one named by name or ID. `enabled` is whether the validated
//! ledger's rules apply the amendment; `supported` whether ledgerd has its rules; an admin
//! also sees, for an amendment not enabled, `vetoed` (this server's vote: true, false, or
//! "Obsolete" for a retired amendment) and may change it with `vetoed` (kept across
//! restarts in a data directory, [`crate::rpc::amendments`]).

use crate::ledger::rules::{Rules, VoteState, Votes};
use crate::ledger::view::ReadView;
use crate::protocol::features::{Feature, Support, Vote};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::role::Role;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

fn entry(f: Feature, rules: &Rules, votes: &Votes, admin: bool) -> Value {
    let enabled = rules.enabled(f);
    let mut o = Map::new();
    o.insert("name".into(), Value::from(f.name()));
    o.insert(
        "supported".into(),
        Value::from(f.info().support != Support::Lacking),
    );
    if admin && !enabled {
        let vetoed = match votes.state(f) {
            VoteState::Obsolete => Value::from("Obsolete"),
            VoteState::Down => Value::from(true),
            VoteState::Up => Value::from(false),
        };
        o.insert("vetoed".into(), vetoed);
    }
    o.insert("enabled".into(), Value::from(enabled));
    Value::Object(o)
}

/// The amendments xrpld's table lists: every one it supports (MPTokensV2, which xrpld
/// itself does not, is unknown to `feature` there too).
fn listed(f: &Feature) -> bool {
    f.info().vote != Vote::Unsupported
}

/// Answer feature.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let admin = ctx.role == Role::Admin;
    let rules = ctx.services.ledgers().validated().view.info().rules;
    let Some(wanted) = params.get("feature") else {
        let votes = ctx.services.votes.get();
        let features: Map<String, Value> = Feature::all()
            .filter(listed)
            .map(|f| (f.id().to_hex(), entry(f, &rules, &votes, admin)))
            .collect();
        let mut r = Map::new();
        r.insert("features".into(), Value::Object(features));
        return Ok(r);
    };
    let Some(wanted) = wanted.as_str() else {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    };
    let Some(f) = Feature::parse(wanted).filter(listed) else {
        return Err(RpcError::new(ErrorCode::BadFeature));
    };
    if let Some(v) = params.get("vetoed") {
        if !admin {
            return Err(RpcError::new(ErrorCode::NoPermission));
        }
        let Some(vetoed) = v.as_bool() else {
            return Err(RpcError::new(ErrorCode::InvalidParams));
        };
        if let Err(e) = ctx.services.votes.set(f, vetoed) {
            tracing::warn!("amendment votes not kept: {e}");
            return Err(RpcError::new(ErrorCode::Internal));
        }
    }
    let votes = ctx.services.votes.get();
    let mut r = Map::new();
    r.insert(f.id().to_hex(), entry(f, &rules, &votes, admin));
    Ok(r)
}
