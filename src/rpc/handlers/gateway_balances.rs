//! `gateway_balances` (rippled `GatewayBalances.cpp`): an issuer's trust lines summed up:
//! `obligations` (what it owes, by currency), `balances` (what its named hot wallets hold),
//! `frozen_balances` (holders it froze) and `assets` (what others owe it); with TokenEscrow,
//! `locked`: what the escrows in its owner directory hold, by currency (XRP in drops).

use std::collections::{BTreeMap, BTreeSet};

use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::StExt;
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::types::{AccountId, Currency};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::trust_lines;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The `hotwallet` addresses: one string, an array of them, or null; anything else is
/// `invalidHotWallet`.
fn hot_wallets(params: &Params) -> Result<BTreeSet<AccountId>, RpcError> {
    let parse = |v: &Value| v.as_str().and_then(|s| AccountId::from_address(s).ok());
    let bad = || RpcError::new(ErrorCode::InvalidHotWallet);
    match params.get("hotwallet") {
        None | Some(Value::Null) => Ok(BTreeSet::new()),
        Some(Value::Array(list)) => list.iter().map(|v| parse(v).ok_or_else(bad)).collect(),
        Some(v) => Ok(BTreeSet::from([parse(v).ok_or_else(bad)?])),
    }
}

type ByAccount = BTreeMap<AccountId, Vec<(Currency, IouValue)>>;

fn by_account(map: ByAccount) -> Value {
    let mut o = Map::new();
    for (acct, list) in map {
        let entries = list
            .into_iter()
            .map(|(c, v)| {
                let mut e = Map::new();
                e.insert("currency".into(), Value::from(c.to_json_string()));
                e.insert("value".into(), Value::from(v.to_text()));
                Value::Object(e)
            })
            .collect();
        o.insert(acct.to_address(), Value::Array(entries));
    }
    Value::Object(o)
}

/// Answer gateway_balances.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let sel = select(ctx, params)?;
    let ident = match (params.get("account"), params.get("ident")) {
        (Some(v), _) | (None, Some(v)) => v.as_str().unwrap_or_default(),
        (None, None) => return Err(RpcError::missing_field("account")),
    };
    let id = AccountId::from_address(ident).map_err(|_| RpcError::new(ErrorCode::ActMalformed))?;
    let hot = hot_wallets(params)?;
    let view = &sel.snap.view;
    if view.read(&keylet::account(&id)).is_none() {
        return Err(sel.inject(ErrorCode::ActNotFound));
    }
    let (mut sums, mut balances, mut frozen, mut assets) =
        (BTreeMap::<Currency, IouValue>::new(), ByAccount::new(), ByAccount::new(), ByAccount::new());
    for line in trust_lines(view, &id) {
        let entry = (line.currency, line.balance.negate());
        if hot.contains(&line.peer) {
            balances.entry(line.peer).or_default().push(entry);
        } else if line.balance.signum() > 0 {
            assets.entry(line.peer).or_default().push((line.currency, line.balance));
        } else if line.freeze {
            frozen.entry(line.peer).or_default().push(entry);
        } else {
            let sum = sums.entry(line.currency).or_insert(IouValue::ZERO);
            *sum = sum.checked_add(&entry.1).unwrap_or(*sum);
        }
    }
    let mut r = sel.result();
    r.insert("account".into(), Value::from(id.to_address()));
    if !sums.is_empty() {
        let o: Map<String, Value> = sums
            .into_iter()
            .map(|(c, v)| (c.to_json_string(), Value::from(v.to_text())))
            .collect();
        r.insert("obligations".into(), Value::Object(o));
    }
    for (name, map) in [("balances", balances), ("frozen_balances", frozen), ("assets", assets)] {
        if !map.is_empty() {
            r.insert(name.into(), by_account(map));
        }
    }
    let locked = locked(view, &id);
    if !locked.is_empty() {
        r.insert("locked".into(), Value::Object(locked));
    }
    Ok(r)
}

/// The escrows in `id`'s owner directory summed by currency (rippled's `locked`): an
/// issued currency's value, XRP's drops; an MPT escrow has no currency and is left out.
fn locked(view: &dyn ReadView, id: &AccountId) -> Map<String, Value> {
    let s = crate::ledger::sf::sf();
    let mut ious = BTreeMap::<Currency, IouValue>::new();
    let mut drops: Option<i64> = None;
    let keys = crate::ledger::directory::owned(view, id);
    let escrows = keys
        .iter()
        .filter_map(|k| view.read(k))
        .filter(|e| e.u16_of(s.ledger_entry_type) == Some(lt::ESCROW));
    for e in escrows {
        match e.amount_of(s.amount) {
            Some(Amount::Xrp(d)) => drops = Some(drops.unwrap_or(0).saturating_add(d)),
            Some(Amount::Iou { value, currency, .. }) => {
                let sum = ious.entry(currency).or_insert(IouValue::ZERO);
                *sum = sum.checked_add(&value).unwrap_or(*sum);
            }
            None => {}
        }
    }
    let mut o: Map<String, Value> = ious
        .into_iter()
        .map(|(c, v)| (c.to_json_string(), Value::from(v.to_text())))
        .collect();
    if let Some(d) = drops {
        o.insert("XRP".into(), Value::from(d.to_string()));
    }
    o
}
