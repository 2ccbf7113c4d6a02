//! `account_mptokens` (Clio `AccountMPTokens.cpp`, a method rippled does not have): the
//! MPTokens an account holds, in owner-directory order, paged by Clio's account cursor.
//! Every owner-directory entry counts toward `limit` (10 to 400, default 200), so a page
//! may hold fewer tokens than the limit.

use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::sf::{sf, StExt};
use crate::limits::ACCOUNT_MPTOKENS_PAGE;
use crate::protocol::st::StObject;
use crate::protocol::types::{hex_upper, Hash256};
use crate::rpc::context::Context;
use crate::rpc::clio::confidential_fields;
use crate::rpc::ledger_select::clio_select;
use crate::rpc::clio::{clio_account, clio_cursor, clio_limit, clio_traverse, require_account};
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer account_mptokens.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let account = clio_account(params)?;
    let limit = clio_limit(params, ACCOUNT_MPTOKENS_PAGE)?;
    let cursor = params.get("marker").map(clio_cursor).transpose()?;
    let sel = clio_select(ctx, params)?;
    let view = &sel.snap.view;
    require_account(view, &account)?;
    let mut tokens = Vec::new();
    let next = clio_traverse(view, &account, cursor, limit, |key, entry| {
        if entry.u16_of(sf().ledger_entry_type) == Some(lt::MPTOKEN) {
            tokens.push(token_json(key, entry));
        }
    })?;
    let mut r = sel.result();
    r.insert("account".into(), Value::from(account.to_address()));
    r.insert("limit".into(), Value::from(limit));
    r.insert("mptokens".into(), Value::Array(tokens));
    if let Some(m) = next {
        r.insert("marker".into(), Value::from(m));
    }
    Ok(r)
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
