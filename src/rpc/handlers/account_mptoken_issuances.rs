//! `account_mptoken_issuances` (Clio `AccountMPTokenIssuances.cpp`, a method rippled does
//! not have): the MPTokenIssuances an account created, in owner-directory order, paged by
//! Clio's account cursor (every owner-directory entry counts toward `limit`, 10 to 400,
//! default 200).

use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::sf::{sf, StExt};
use crate::protocol::mpt::MptId;
use crate::protocol::st::StObject;
use crate::protocol::types::{hex_upper, AccountId};
use crate::rpc::context::Context;
use crate::rpc::clio::owned_page;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The issuance flags Clio names, each shown (as true) only when set.
const FLAG_NAMES: [(u32, &str); 7] = [
    (lsf_mpt::LOCKED, "mpt_locked"),
    (lsf_mpt::CAN_LOCK, "mpt_can_lock"),
    (lsf_mpt::REQUIRE_AUTH, "mpt_require_auth"),
    (lsf_mpt::CAN_ESCROW, "mpt_can_escrow"),
    (lsf_mpt::CAN_TRADE, "mpt_can_trade"),
    (lsf_mpt::CAN_TRANSFER, "mpt_can_transfer"),
    (lsf_mpt::CAN_CLAWBACK, "mpt_can_clawback"),
];

/// Answer account_mptoken_issuances.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    owned_page(
        ctx,
        params,
        lt::MPTOKEN_ISSUANCE,
        "mpt_issuances",
        |account, _, issuance| issuance_json(account, issuance),
    )
}

/// One issuance as Clio renders it: its ID, issuer and sequence, the optional numbers
/// and hex fields when present, and each flag that is set.
fn issuance_json(issuer: &AccountId, issuance: &StObject) -> Value {
    let s = sf();
    let sequence = issuance.u32_of(s.sequence).unwrap_or(0);
    let mut o = Map::new();
    let id = MptId::new(sequence, issuer);
    o.insert("mpt_issuance_id".into(), Value::from(hex_upper(id.0)));
    o.insert("issuer".into(), Value::from(issuer.to_address()));
    o.insert("sequence".into(), Value::from(sequence));
    if let Some(v) = issuance.u16_of(s.transfer_fee) {
        o.insert("transfer_fee".into(), Value::from(v));
    }
    if let Some(v) = issuance.u8_of(s.asset_scale) {
        o.insert("asset_scale".into(), Value::from(v));
    }
    for (field, name) in [
        (s.maximum_amount, "maximum_amount"),
        (s.outstanding_amount, "outstanding_amount"),
        (s.locked_amount, "locked_amount"),
    ] {
        if let Some(v) = issuance.u64_of(field) {
            o.insert(name.into(), Value::from(v));
        }
    }
    if let Some(b) = issuance.blob_of(s.mptoken_metadata) {
        o.insert("mptoken_metadata".into(), Value::from(hex_upper(b)));
    }
    if let Some(h) = issuance.h256_of(s.domain_id) {
        o.insert("domain_id".into(), Value::from(h.to_hex()));
    }
    let flags = issuance.flags();
    for (bit, name) in FLAG_NAMES {
        if flags & bit != 0 {
            o.insert(name.into(), Value::Bool(true));
        }
    }
    Value::Object(o)
}
