//! `noripple_check` (rippled `NoRippleCheck.cpp`): what a `gateway` or a `user` should
//! change about DefaultRipple and its lines' NoRipple flags, in words (`problems`) and, on
//! request, as transactions to sign (`transactions`, Sequence and Fee filled in).

use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::types::AccountId;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::owner_walk::{read_limit, trust_lines};
use crate::rpc::params::as_bool;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// TrustSet flags the suggestions use.
const TF_SET_NO_RIPPLE: u32 = 0x0002_0000;
const TF_CLEAR_NO_RIPPLE: u32 = 0x0004_0000;

/// Sequence (counting up), Account and the base fee, as rippled's `fillTransaction`.
fn fill(tx: &mut Map<String, Value>, account: &AccountId, seq: &mut u32, fee: u64) {
    tx.insert("Sequence".into(), Value::from(*seq));
    *seq += 1;
    tx.insert("Account".into(), Value::from(account.to_address()));
    tx.insert("Fee".into(), Value::from(fee));
}

/// Answer noripple_check.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let address = match params.get("account") {
        None => return Err(RpcError::missing_field("account")),
        Some(v) => v.as_str().ok_or_else(|| RpcError::invalid_field("account"))?,
    };
    let gateway = match params.get("role").map(|v| v.as_str()) {
        None => return Err(RpcError::missing_field("role")),
        Some(Some("gateway")) => true,
        Some(Some("user")) => false,
        Some(_) => return Err(RpcError::invalid_field("role")),
    };
    let limit = read_limit(ctx, params, crate::limits::NORIPPLE_CHECK_PAGE)? as usize;
    let want_txs = params.get("transactions").is_some_and(as_bool);
    let sel = select(ctx, params)?;
    let id = AccountId::from_address(address).map_err(|_| sel.inject(ErrorCode::ActMalformed))?;
    let view = &sel.snap.view;
    let Some(root) = view.read(&keylet::account(&id)) else {
        return Err(sel.inject(ErrorCode::ActNotFound));
    };
    let mut seq = root.u32_of(sf().sequence).unwrap_or(0);
    let fee = view.info().fees.base_drops;
    let (mut problems, mut txs) = (Vec::new(), Vec::new());
    let default_ripple = root.is_flag(lsf::DEFAULT_RIPPLE);
    if default_ripple && !gateway {
        problems.push(Value::from("You appear to have set your default ripple flag even though you are not a gateway. This is not recommended unless you are experimenting"));
    } else if gateway && !default_ripple {
        problems.push(Value::from("You should immediately set your default ripple flag"));
        let mut tx = Map::new();
        tx.insert("TransactionType".into(), Value::from("AccountSet"));
        tx.insert("SetFlag".into(), Value::from(8));
        fill(&mut tx, &id, &mut seq, fee);
        txs.push(Value::Object(tx));
    }
    // The limit counts the lines with a problem (rippled's forEachItemAfter).
    let mut lines_found = 0;
    for line in trust_lines(view, &id) {
        if lines_found >= limit {
            break;
        }
        let prefix = match (line.no_ripple, gateway) {
            (true, true) => "You should clear the no ripple flag on your ",
            (false, false) => "You should probably set the no ripple flag on your ",
            _ => continue,
        };
        lines_found += 1;
        problems.push(Value::from(format!(
            "{prefix}{} line to {}",
            line.currency.to_json_string(),
            line.peer.to_address()
        )));
        let mut tx = Map::new();
        tx.insert("TransactionType".into(), Value::from("TrustSet"));
        let limit_amount = Amount::iou(line.limit, line.currency, line.peer);
        tx.insert("LimitAmount".into(), limit_amount.to_json());
        let flags = if line.no_ripple { TF_CLEAR_NO_RIPPLE } else { TF_SET_NO_RIPPLE };
        tx.insert("Flags".into(), Value::from(flags));
        fill(&mut tx, &id, &mut seq, fee);
        txs.push(Value::Object(tx));
    }
    let mut r = sel.result();
    r.insert("problems".into(), Value::Array(problems));
    if want_txs {
        r.insert("transactions".into(), Value::Array(txs));
    }
    Ok(r)
}
