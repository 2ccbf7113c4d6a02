//! What Clio's own methods share (account_mptokens, account_mptoken_issuances,
//! mpt_holders): Clio's account cursor and owner-directory walk (`traverseOwnedNodes`),
//! its `limit` and `account` rules, and the confidential fields of an MPToken.

use std::sync::Arc;

use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::limits::PageLimit;
use crate::protocol::st::StObject;
use crate::protocol::types::{hex_upper, AccountId, Hash256};
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::owner_walk::marker_text;
use crate::rpc::params::parse_hash256;
use crate::rpc::Params;
use serde_json::{Map, Value};

/// Clio's account cursor (`parseAccountCursor`): `<entry key hex>,<directory page>`, the
/// page a 32-bit number. A marker that is not a string is `markerNotString`; one that does
/// not parse, `Malformed cursor.`.
pub fn clio_cursor(value: &Value) -> Result<(Hash256, u64), RpcError> {
    let text = value
        .as_str()
        .ok_or_else(|| RpcError::with_message(ErrorCode::InvalidParams, "markerNotString"))?;
    let malformed = || RpcError::with_message(ErrorCode::InvalidParams, "Malformed cursor.");
    let (key, page) = text.split_once(',').ok_or_else(malformed)?;
    let key = parse_hash256(key).ok_or_else(malformed)?;
    let page: u32 = page.parse().map_err(|_| malformed())?;
    Ok((key, u64::from(page)))
}

/// Clio's `traverseOwnedNodes`: up to `limit` entries of `account`'s owner directory,
/// after the cursor's entry (which must be on the cursor's page: else `Invalid marker.`),
/// each offered to `visit`. Every entry counts toward `limit`, whatever `visit` keeps;
/// the cursor of the `limit`-th entry is returned when the limit was reached (Clio gives it
/// even when nothing follows).
pub fn clio_traverse(
    view: &dyn ReadView,
    account: &AccountId,
    cursor: Option<(Hash256, u64)>,
    limit: u32,
    mut visit: impl FnMut(&Hash256, &Arc<StObject>),
) -> Result<Option<String>, RpcError> {
    let invalid = || RpcError::with_message(ErrorCode::InvalidParams, "Invalid marker.");
    let start = match cursor {
        None => 0,
        Some((key, page)) => {
            let listed = view
                .read(&keylet::dir_page(&keylet::owner_dir(account), page))
                .and_then(|p| p.v256_of(sf().indexes).map(|v| v.contains(&key)))
                .unwrap_or(false);
            if !listed {
                return Err(invalid());
            }
            page
        }
    };
    let mut past = cursor.is_none();
    let mut left = limit;
    let mut next = None;
    crate::ledger::directory::for_each_owned(view, account, start, |page, key| {
        if !past {
            past = Some(*key) == cursor.map(|c| c.0);
            return true;
        }
        if let Some(entry) = view.read(key) {
            visit(key, &entry);
        }
        left = left.saturating_sub(1);
        if left == 0 {
            next = Some(marker_text(key, page));
        }
        left > 0
    });
    Ok(next)
}

/// Clio's `limit` for its own paged methods: a positive integer (else `Invalid
/// parameters.`), clamped into the page's range for every caller.
pub fn clio_limit(params: &Params, page: PageLimit) -> Result<u32, RpcError> {
    let Some(v) = params.get("limit") else {
        return Ok(page.default);
    };
    crate::rpc::params::unsigned_integer(v)
        .filter(|n| *n >= 1)
        .map(|n| n.clamp(page.min, page.max))
        .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))
}

/// The account a Clio method names: a string that parses, else `actMalformed`.
pub fn clio_account(params: &Params) -> Result<AccountId, RpcError> {
    let text = params
        .get("account")
        .ok_or_else(|| RpcError::missing_field("account"))?
        .as_str()
        .ok_or_else(|| RpcError::new(ErrorCode::ActMalformed))?;
    AccountId::from_address(text).map_err(|_| RpcError::new(ErrorCode::ActMalformed))
}

/// `actNotFound` unless `account`'s root is in `view`.
pub fn require_account(view: &dyn ReadView, account: &AccountId) -> Result<(), RpcError> {
    match view.read(&keylet::account(account)) {
        Some(_) => Ok(()),
        None => Err(RpcError::new(ErrorCode::ActNotFound)),
    }
}

/// The confidential balances, their version and the holder's key, when the token has them
/// (hex), as Clio adds them to a holder or token.
pub fn confidential_fields(token: &StObject, o: &mut Map<String, Value>) {
    let s = sf();
    if let Some(v) = token.u32_of(s.confidential_balance_version) {
        o.insert("confidential_balance_version".into(), Value::from(v));
    }
    for (field, name) in [
        (s.confidential_balance_inbox, "confidential_balance_inbox"),
        (
            s.confidential_balance_spending,
            "confidential_balance_spending",
        ),
        (s.issuer_encrypted_balance, "issuer_encrypted_balance"),
        (s.auditor_encrypted_balance, "auditor_encrypted_balance"),
        (s.holder_encryption_key, "holder_encryption_key"),
    ] {
        if let Some(b) = token.blob_of(field) {
            o.insert(name.into(), Value::from(hex_upper(b)));
        }
    }
}

/// A 64-hex-digit ID field (`nft_id`, a marker): required when `required`.
pub fn hash_field(
    params: &Params,
    name: &str,
    required: bool,
) -> Result<Option<Hash256>, RpcError> {
    match params.get(name) {
        None if required => Err(RpcError::missing_field(name)),
        None => Ok(None),
        Some(v) => v
            .as_str()
            .and_then(parse_hash256)
            .map(Some)
            .ok_or_else(|| RpcError::invalid_field(name)),
    }
}

/// `notReady` while the history store's NFT index is still being built (or it keeps
/// none); a store that fails is its error.
pub fn require_nft_index(ctx: &crate::rpc::context::Context) -> Result<(), RpcError> {
    let ready = ctx
        .services
        .node
        .nft_index_ready()
        .map_err(|e| RpcError::history_read(&e))?;
    if ready {
        Ok(())
    } else {
        Err(RpcError::with_message(
            ErrorCode::NotReady,
            "The NFT index is being built.",
        ))
    }
}

/// A token as Clio's nft_info and nfts_by_issuer show it: its state from the NFT index
/// and the parts of its ID.
pub fn nft_json(record: &crate::store::NftRecord) -> Map<String, Value> {
    use crate::engine::nft;
    let id = &record.token;
    let mut o = Map::new();
    o.insert("nft_id".into(), Value::from(id.to_hex()));
    o.insert("ledger_index".into(), Value::from(record.seq));
    o.insert("owner".into(), Value::from(record.state.owner.to_address()));
    o.insert("is_burned".into(), Value::from(record.state.burned));
    o.insert("flags".into(), Value::from(nft::token_flags(id)));
    o.insert("transfer_fee".into(), Value::from(nft::transfer_fee(id)));
    o.insert("issuer".into(), Value::from(nft::issuer(id).to_address()));
    o.insert("nft_taxon".into(), Value::from(nft::taxon(id)));
    o.insert("nft_serial".into(), Value::from(nft::serial(id)));
    let uri = record
        .state
        .uri
        .as_deref()
        .map(hex_upper)
        .unwrap_or_default();
    o.insert("uri".into(), Value::from(uri));
    o
}

/// A page of an account's owner-directory entries of type `entry_type` at the selected
/// ledger, as Clio's account_mptokens and account_mptoken_issuances answer: `account`,
/// `limit` (10 to 400, default 200), the entries as `render` shows them under `list`, and
/// Clio's account cursor as `marker`.
pub fn owned_page(
    ctx: &crate::rpc::context::Context,
    params: &Params,
    entry_type: u16,
    list: &str,
    render: impl Fn(&AccountId, &Hash256, &StObject) -> Value,
) -> crate::rpc::HandlerResult {
    let account = clio_account(params)?;
    let limit = clio_limit(params, crate::limits::ACCOUNT_MPTOKENS_PAGE)?;
    let cursor = params.get("marker").map(clio_cursor).transpose()?;
    let sel = crate::rpc::ledger_select::clio_select(ctx, params)?;
    let view = &sel.snap.view;
    require_account(view, &account)?;
    let mut entries = Vec::new();
    let next = clio_traverse(view, &account, cursor, limit, |key, entry| {
        if entry.u16_of(sf().ledger_entry_type) == Some(entry_type) {
            entries.push(render(&account, key, entry));
        }
    })?;
    let mut r = sel.result();
    r.insert("account".into(), Value::from(account.to_address()));
    r.insert("limit".into(), Value::from(limit));
    r.insert(list.into(), Value::Array(entries));
    if let Some(m) = next {
        r.insert("marker".into(), Value::from(m));
    }
    Ok(r)
}
