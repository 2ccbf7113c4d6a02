//! `account_mptokens` (Clio `AccountMPTokens.cpp`, a method rippled does not have): the
//! MPTokens an account holds, in owner-directory order, paged by Clio's account cursor.
//! Every owner-directory entry counts toward `limit` (10 to 400, default 200), so a page
//! may hold fewer tokens than the limit.

use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::sf::{sf, StExt};
use crate::protocol::st::StObject;
use crate::protocol::types::{hex_upper, Hash256};
use crate::rpc::context::Context;
use crate::rpc::clio::confidential_fields;
use crate::rpc::clio::owned_page;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer account_mptokens.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    owned_page(ctx, params, lt::MPTOKEN, "mptokens", |_, key, token| {
        token_json(key, token)
    })
}

/// One token as Clio renders it: `mpt_id` (the entry's key), account, issuance, amounts
/// as numbers, the lock and authorization flags when set, and the confidential balances.
fn token_json(key: &Hash256, token: &StObject) -> Value {
    let s = sf();
    let mut o = Map::new();
    o.insert("mpt_id".into(), Value::from(key.to_hex()));
    if let Some(a) = token.account_of(s.account) {
        o.insert("account".into(), Value::from(a.to_address()));
    }
    if let Some(id) = token.mpt_id_of(s.mpt_issuance_id) {
        o.insert("mpt_issuance_id".into(), Value::from(hex_upper(id.0)));
    }
    o.insert("mpt_amount".into(), Value::from(token.u64_of(s.mpt_amount).unwrap_or(0)));
    if let Some(v) = token.u64_of(s.locked_amount) {
        o.insert("locked_amount".into(), Value::from(v));
    }
    let flags = token.flags();
    for (bit, name) in [
        (lsf_mpt::LOCKED, "mpt_locked"),
        (lsf_mpt::AUTHORIZED, "mpt_authorized"),
    ] {
        if flags & bit != 0 {
            o.insert(name.into(), Value::Bool(true));
        }
    }
    confidential_fields(token, &mut o);
    Value::Object(o)
}
