//! `deposit_authorized` (rippled `DepositAuthorized.cpp`): whether `source_account` may
//! deposit into `destination_account` at the selected ledger: always unless the destination
//! requires deposit authorization (`lsfDepositAuth`), then only itself and the accounts it
//! preauthorized, and whoever presents `credentials` (Credential IDs: existing, accepted,
//! unexpired, the source's) forming a set it preauthorized.

use crate::engine::credential::{credential_at, expired, sorted, CredentialSet};
use crate::engine::account::deposit_allowed;
use crate::ledger::flags::lsf_credential;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::engine::credential::CREDENTIALS_ARRAY_MAX;
use crate::protocol::types::Hash256;
use crate::rpc::params::parse_hash256;
use crate::ledger::view::ReadView;
use crate::protocol::types::AccountId;
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::ledger_select::select;
use crate::rpc::{HandlerResult, Params};
use serde_json::Value;

fn account(params: &Params, field: &str) -> Result<(String, AccountId), RpcError> {
    let v = params
        .get(field)
        .ok_or_else(|| RpcError::missing_field(field))?;
    let text = v.as_str().ok_or_else(|| {
        RpcError::with_message(
            ErrorCode::InvalidParams,
            format!("Invalid field '{field}', not a string."),
        )
    })?;
    let id = AccountId::from_address(text).map_err(|_| RpcError::new(ErrorCode::ActMalformed))?;
    Ok((text.to_owned(), id))
}

/// Answer deposit_authorized.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let (src_text, src) = account(params, "source_account")?;
    let (dst_text, dst) = account(params, "destination_account")?;
    let sel = select(ctx, params)?;
    let view = &sel.snap.view;
    if view.read(&keylet::account(&src)).is_none() {
        return Err(sel.inject(ErrorCode::SrcActNotFound));
    }
    let Some(dst_root) = view.read(&keylet::account(&dst)) else {
        return Err(sel.inject(ErrorCode::DstActNotFound));
    };
    let mut allowed = deposit_allowed(view, &dst_root, &src, &dst);
    if let Some(creds) = params.get("credentials") {
        let ids = credential_ids(creds)?;
        let set = presented_set(view, &ids, &src).map_err(|m| {
            sel.inject(RpcError::with_message(ErrorCode::BadCredentials, m))
        })?;
        allowed = allowed
            || view
                .read(&keylet::deposit_preauth_credentials(&dst, &set))
                .is_some();
    }
    let mut r = sel.result();
    r.insert("source_account".into(), Value::from(src_text));
    r.insert("destination_account".into(), Value::from(dst_text));
    if let Some(creds) = params.get("credentials") {
        r.insert("credentials".into(), creds.clone());
    }
    r.insert("deposit_authorized".into(), Value::from(allowed));
    Ok(r)
}

/// The `credentials` parameter: 1 to 8 hex Credential IDs.
fn credential_ids(v: &Value) -> Result<Vec<Hash256>, RpcError> {
    let bad = |m: &'static str| RpcError::with_message(ErrorCode::InvalidParams, m);
    let arr = v
        .as_array()
        .filter(|a| !a.is_empty())
        .ok_or_else(|| bad("credentials must be non-empty array"))?;
    if arr.len() > CREDENTIALS_ARRAY_MAX {
        return Err(bad("credentials array too long"));
    }
    arr.iter()
        .map(|c| {
            let text = c.as_str().ok_or_else(|| bad("credentials must be strings"))?;
            parse_hash256(text).ok_or_else(|| bad("credentials must be hex strings"))
        })
        .collect()
}

/// The presented credentials as a sorted set, or why they are bad credentials.
fn presented_set(
    view: &dyn ReadView,
    ids: &[Hash256],
    src: &AccountId,
) -> Result<CredentialSet, &'static str> {
    let s = sf();
    let mut set = CredentialSet::new();
    for h in ids {
        let cred = credential_at(view, h).ok_or("credentials don't exist")?;
        if !cred.is_flag(lsf_credential::ACCEPTED) {
            return Err("credentials aren't accepted");
        }
        if expired(view, &cred) {
            return Err("credentials are expired");
        }
        if cred.account_of(s.subject) != Some(*src) {
            return Err("credentials doesn't belong to the root account");
        }
        let pair = (
            cred.account_of(s.issuer).unwrap_or(AccountId::ZERO),
            cred.blob_of(s.credential_type).unwrap_or_default().to_vec(),
        );
        if set.contains(&pair) {
            return Err("duplicates in credentials");
        }
        set.push(pair);
    }
    sorted(set).ok_or("duplicates in credentials")
}
