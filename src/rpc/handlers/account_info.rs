//! `account_info` (rippled `AccountInfo.cpp`, rpc.md §3.3): the AccountRoot, its flags by
//! name, signer lists and, for the open ledger, its transactions in the queue on
//! request. Errors after the ledger lookup are injected into the partly built result, as
//! rippled does.

use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::ledgers::txq::{Candidate, QueuedTx};
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;
use crate::render::ledger::entry_json;
use crate::render::queue::{max_spend_drops, queued_fields};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::params::as_bool;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};
use std::sync::Arc;

/// `account_flags` names and the AccountRoot bits they show (rippled's table, including
/// the DisallowIncoming and Clawback amendments, which ledgerd treats as enabled).
const ACCOUNT_FLAGS: [(&str, u32); 15] = [
    ("defaultRipple", lsf::DEFAULT_RIPPLE),
    ("depositAuth", lsf::DEPOSIT_AUTH),
    ("disableMasterKey", lsf::DISABLE_MASTER),
    ("disallowIncomingXRP", lsf::DISALLOW_XRP),
    ("globalFreeze", lsf::GLOBAL_FREEZE),
    ("noFreeze", lsf::NO_FREEZE),
    ("passwordSpent", lsf::PASSWORD_SPENT),
    ("requireAuthorization", lsf::REQUIRE_AUTH),
    ("requireDestinationTag", lsf::REQUIRE_DEST_TAG),
    (
        "disallowIncomingNFTokenOffer",
        lsf::DISALLOW_INCOMING_NFTOKEN_OFFER,
    ),
    ("disallowIncomingCheck", lsf::DISALLOW_INCOMING_CHECK),
    ("disallowIncomingPayChan", lsf::DISALLOW_INCOMING_PAYCHAN),
    (
        "disallowIncomingTrustline",
        lsf::DISALLOW_INCOMING_TRUSTLINE,
    ),
    ("allowTrustLineClawback", lsf::ALLOW_TRUSTLINE_CLAWBACK),
    ("allowTrustLineLocking", lsf::ALLOW_TRUSTLINE_LOCKING),
];

/// Answer account_info.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let ident = match (params.get("account"), params.get("ident")) {
        (Some(v), _) => v
            .as_str()
            .ok_or_else(|| RpcError::invalid_field("account"))?,
        (None, Some(v)) => v.as_str().ok_or_else(|| RpcError::invalid_field("ident"))?,
        (None, None) => return Err(RpcError::missing_field("account")),
    };
    let sel = select(ctx, params)?;
    let id = AccountId::from_address(ident).map_err(|_| sel.inject(ErrorCode::ActMalformed))?;
    let key = keylet::account(&id);
    let Some(root) = sel.snap.view.read(&key) else {
        let mut fields = Map::new();
        fields.insert("account".into(), Value::from(id.to_address()));
        return Err(sel.inject(RpcError::new(ErrorCode::ActNotFound).with_fields(fields)));
    };
    let queue = params.get("queue").is_some_and(as_bool);
    if queue && !sel.is_open() {
        return Err(sel.inject(ErrorCode::InvalidParams));
    }
    let mut result = sel.result();
    let mut data = match entry_json(&key, &root) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    if let Some(h) = root.h128_of(sf().email_hash) {
        data.insert(
            "urlgravatar".into(),
            Value::from(format!(
                "http://www.gravatar.com/avatar/{}",
                h.to_hex().to_lowercase()
            )),
        );
    }
    let flags = root.flags();
    let mut account_flags = Map::new();
    for (name, bit) in ACCOUNT_FLAGS {
        account_flags.insert(name.into(), Value::from(flags & bit != 0));
    }
    account_flags.sort_keys();
    result.insert("account_flags".into(), Value::Object(account_flags));
    let signer_lists = params.get("signer_lists");
    if ctx.api_version >= 2 && signer_lists.is_some_and(|v| !v.is_boolean()) {
        data.sort_keys();
        result.insert("account_data".into(), Value::Object(data));
        return Err(RpcError::new(ErrorCode::InvalidParams).with_fields(result));
    }
    if signer_lists.is_some_and(as_bool) {
        let signers = keylet::signers(&id);
        let lists = sel.snap.view.read(&signers).map(|l| entry_json(&signers, &l));
        let lists = Value::Array(lists.into_iter().collect());
        if ctx.api_version == 1 {
            data.insert("signer_lists".into(), lists);
        } else {
            result.insert("signer_lists".into(), lists);
        }
    }
    data.sort_keys();
    result.insert("account_data".into(), Value::Object(data));
    if queue {
        let queued = ctx.services.node.ledgers.queued_of(&id);
        result.insert("queue_data".into(), queue_data(&queued));
    }
    Ok(result)
}

/// `queue_data` (rippled `AccountInfo.cpp`): the account's queued transactions in
/// SeqProxy order, each with what it may spend, and the totals; only `txn_count` when
/// none is queued.
fn queue_data(queued: &[(QueuedTx, Arc<StObject>)]) -> Value {
    let mut q = Map::new();
    q.insert("txn_count".into(), Value::from(queued.len()));
    if queued.is_empty() {
        return Value::Object(q);
    }
    let txs: Vec<&Candidate> = queued.iter().map(|(q, _)| &q.tx).collect();
    let (seqs, tickets): (Vec<_>, Vec<_>) = txs.iter().map(|t| t.seq_proxy).partition(|p| p.is_sequence());
    for (count, lowest, highest, list) in [
        ("sequence_count", "lowest_sequence", "highest_sequence", &seqs),
        ("ticket_count", "lowest_ticket", "highest_ticket", &tickets),
    ] {
        if let (Some(first), Some(last)) = (list.first(), list.last()) {
            q.insert(count.into(), Value::from(list.len()));
            q.insert(lowest.into(), Value::from(first.value()));
            q.insert(highest.into(), Value::from(last.value()));
        }
    }
    let total: u64 = txs
        .iter()
        .map(|t| max_spend_drops(t))
        .fold(0, u64::saturating_add);
    q.insert(
        "auth_change_queued".into(),
        Value::from(txs.iter().any(|t| t.blocker)),
    );
    q.insert("max_spend_drops_total".into(), Value::from(total.to_string()));
    let list = txs.iter().map(|t| Value::Object(account_tx(t))).collect();
    q.insert("transactions".into(), Value::Array(list));
    q.sort_keys();
    Value::Object(q)
}

/// One of the account's queued transactions: the queue's fields and its `seq` or `ticket`.
fn account_tx(tx: &Candidate) -> Map<String, Value> {
    let mut o = queued_fields(tx);
    let key = if tx.seq_proxy.is_sequence() {
        "seq"
    } else {
        "ticket"
    };
    o.insert(key.into(), Value::from(tx.seq_proxy.value()));
    o.sort_keys();
    o
}
