//! `amm_info` (rippled `AMMInfo.cpp`): an AMM named by its two assets (`asset` and
//! `asset2`) or by its account (`amm_account`): its pool balances, LP tokens (all of them,
//! or those `account` holds), trading fee, votes and auction slot, and whether either
//! asset is frozen.

use crate::engine::amm::{amm_at, amm_key, issue_of, lp_holds, AmmEntry};
use crate::engine::funds::{account_holds, frozen_issue};
use crate::engine::amm::amm_bid::time_slot;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::engine::amm::AMM_AUCTION_SLOT_INTERVALS;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Issue};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

use crate::protocol::codec::issue_from_json as parse_issue;

fn issue_param(params: &Params, name: &str) -> Result<Option<Issue>, RpcError> {
    match params.get(name) {
        None => Ok(None),
        Some(v) => parse_issue(v)
            .map(Some)
            .ok_or_else(|| RpcError::new(ErrorCode::IssueMalformed)),
    }
}

/// Exactly one way of naming the AMM: both assets, or its account.
fn names_badly(params: &Params) -> bool {
    let (a, a2, acct) = (
        params.contains_key("asset"),
        params.contains_key("asset2"),
        params.contains_key("amm_account"),
    );
    a != a2 || a == acct
}

fn account_param(
    view: &dyn ReadView,
    params: &Params,
    name: &str,
) -> Result<Option<AccountId>, RpcError> {
    let Some(v) = params.get(name) else {
        return Ok(None);
    };
    let id = v
        .as_str()
        .and_then(|s| AccountId::from_address(s).ok())
        .ok_or_else(|| RpcError::new(ErrorCode::ActMalformed))?;
    if view.read(&keylet::account(&id)).is_none() {
        return Err(RpcError::new(ErrorCode::ActMalformed));
    }
    Ok(Some(id))
}

/// The AMM's key, from the assets or from the pseudo-account's AMMID.
fn amm_key_of(
    view: &dyn ReadView,
    params: &Params,
) -> Result<crate::protocol::types::Hash256, RpcError> {
    let (a, b) = (
        issue_param(params, "asset")?,
        issue_param(params, "asset2")?,
    );
    let by_account = match params.get("amm_account") {
        None => None,
        Some(v) => {
            let id = v
                .as_str()
                .and_then(|s| AccountId::from_address(s).ok())
                .ok_or_else(|| RpcError::new(ErrorCode::ActMalformed))?;
            let root = view
                .read(&keylet::account(&id))
                .ok_or_else(|| RpcError::new(ErrorCode::ActMalformed))?;
            Some(
                root.h256_of(sf().amm_id)
                    .ok_or_else(|| RpcError::new(ErrorCode::ActNotFound))?,
            )
        }
    };
    match (a, b, by_account) {
        (Some(a), Some(b), _) => Ok(amm_key(&a, &b)),
        (_, _, Some(k)) => Ok(k),
        _ => Err(RpcError::new(ErrorCode::InvalidParams)),
    }
}

/// rippled's `to_iso8601` of a NetClock time.
fn iso8601(secs: u32) -> String {
    let t = crate::protocol::time::iso(secs);
    format!("{}+0000", t.trim_end_matches('Z'))
}

fn vote_slots(sle: &StObject) -> Option<Value> {
    let s = sf();
    let Some(StValue::Array(list)) = sle.get(s.vote_slots) else {
        return None;
    };
    let votes: Vec<Value> = list
        .iter()
        .map(|(_, e)| {
            let mut v = Map::new();
            let acct = e.account_of(s.account).unwrap_or_default();
            v.insert("account".into(), Value::from(acct.to_address()));
            v.insert(
                "trading_fee".into(),
                Value::from(e.u16_of(s.trading_fee).unwrap_or(0)),
            );
            v.insert(
                "vote_weight".into(),
                Value::from(e.u32_of(s.vote_weight).unwrap_or(0)),
            );
            Value::Object(v)
        })
        .collect();
    (!votes.is_empty()).then_some(Value::Array(votes))
}

fn auction_slot(view: &dyn ReadView, sle: &StObject) -> Option<Value> {
    let s = sf();
    let Some(StValue::Object(slot)) = sle.get(s.auction_slot) else {
        return None;
    };
    let holder = slot.account_of(s.account)?;
    let expiration = slot.u32_of(s.expiration);
    let mut a = Map::new();
    let interval =
        time_slot(view.info().parent_close_time, expiration).unwrap_or(AMM_AUCTION_SLOT_INTERVALS);
    a.insert("time_interval".into(), Value::from(interval));
    if let Some(p) = slot.amount_of(s.price) {
        a.insert("price".into(), p.to_json());
    }
    a.insert(
        "discounted_fee".into(),
        Value::from(slot.u16_of(s.discounted_fee).unwrap_or(0)),
    );
    a.insert("account".into(), Value::from(holder.to_address()));
    a.insert(
        "expiration".into(),
        Value::from(iso8601(expiration.unwrap_or(0))),
    );
    if let Some(StValue::Array(list)) = slot.get(s.auth_accounts) {
        let auth: Vec<Value> = list
            .iter()
            .map(|(_, o)| {
                let acct = o.account_of(s.account).unwrap_or_default();
                serde_json::json!({ "account": acct.to_address() })
            })
            .collect();
        a.insert("auth_accounts".into(), Value::Array(auth));
    }
    Some(Value::Object(a))
}

/// Answer amm_info.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    if ctx.api_version < 3 && names_badly(params) {
        return Err(sel.inject(ErrorCode::InvalidParams));
    }
    let key = amm_key_of(view, params).map_err(|e| sel.inject(e))?;
    let lp = account_param(view, params, "account").map_err(|e| sel.inject(e))?;
    if ctx.api_version >= 3 && names_badly(params) {
        return Err(sel.inject(ErrorCode::InvalidParams));
    }
    let sle = amm_at(view, &key).ok_or_else(|| sel.inject(ErrorCode::ActNotFound))?;
    let amm = AmmEntry::from_sle(key, &sle).ok_or_else(|| sel.inject(ErrorCode::ActNotFound))?;
    let s = sf();
    let (i1, i2) = match (
        issue_param(params, "asset")?,
        issue_param(params, "asset2")?,
    ) {
        (Some(a), Some(b)) => (a, b),
        _ => (
            issue_of(&sle, s.asset).unwrap_or_default(),
            issue_of(&sle, s.asset2).unwrap_or_default(),
        ),
    };
    let b1 = account_holds(view, &amm.account, &i1, false);
    let b2 = account_holds(view, &amm.account, &i2, false);
    let lpt = match lp {
        Some(id) => lp_holds(view, &amm, &id),
        None => amm.lp_balance,
    };
    let mut r = Map::new();
    r.insert("amount".into(), b1.to_json());
    r.insert("amount2".into(), b2.to_json());
    r.insert("lp_token".into(), lpt.to_json());
    r.insert(
        "trading_fee".into(),
        Value::from(sle.u16_of(s.trading_fee).unwrap_or(0)),
    );
    r.insert("account".into(), Value::from(amm.account.to_address()));
    if let Some(v) = vote_slots(&sle) {
        r.insert("vote_slots".into(), v);
    }
    if let Some(a) = auction_slot(view, &sle) {
        r.insert("auction_slot".into(), a);
    }
    for (name, issue) in [("asset_frozen", i1), ("asset2_frozen", i2)] {
        if !issue.is_xrp() {
            r.insert(
                name.into(),
                Value::from(frozen_issue(view, &amm.account, &issue)),
            );
        }
    }
    let mut result = sel.result();
    result.insert("amm".into(), Value::Object(r));
    Ok(result)
}
