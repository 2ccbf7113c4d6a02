//! OracleSet (rippled `SetOracle.cpp`): creates or updates one of the sending account's
//! price oracles, keyed by OracleDocumentID. A PriceDataSeries holds up to ten token
//! pairs; on an update a pair with an AssetPrice is added or repriced, a pair without one
//! is deleted, and the pairs the transaction leaves alone keep their assets but lose
//! their price (readers find it in the oracle's history). LastUpdateTime (Unix seconds)
//! must lie within five minutes of the parent ledger's close time and, on an update,
//! after the stored one. Provider and AssetClass never change. An oracle counts one
//! owner entry, two when it holds more than five pairs. An update stores the series in
//! pair order; a create, under fixPriceOracleOrder, too (before it, in the order the
//! transaction lists them).

use std::collections::{BTreeMap, BTreeSet};

use super::reserve_count;
use super::series;
use super::{
    ORACLE_ASSET_CLASS_BYTES_MAX, ORACLE_PRICE_SCALE_MAX, ORACLE_PROVIDER_BYTES_MAX,
    ORACLE_SERIES_MAX, ORACLE_UPDATE_TIME_DELTA_SECS, ORACLE_URI_BYTES_MAX,
};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, balance_drops, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::time::RIPPLE_EPOCH_OFFSET_SECS;
use crate::protocol::types::{AccountId, Currency, Hash256};

/// A token pair: (BaseAsset, QuoteAsset).
pub type PairKey = (Currency, Currency);

fn currency(o: &StObject, f: Field) -> Option<Currency> {
    match o.get(f) {
        Some(StValue::Currency(c)) => Some(*c),
        _ => None,
    }
}

/// The pair a PriceData object prices.
pub fn pair_key(o: &StObject) -> Option<PairKey> {
    let s = sf();
    Some((currency(o, s.base_asset)?, currency(o, s.quote_asset)?))
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.get(s.price_data_series).is_none()
        || tx.u32_of(s.oracle_document_id).is_none()
        || tx.u32_of(s.last_update_time).is_none()
    {
        return Ter::temMALFORMED;
    }
    let n = series(tx).len();
    if n == 0 {
        return Ter::temARRAY_EMPTY;
    }
    if n > ORACLE_SERIES_MAX {
        return Ter::temARRAY_TOO_LARGE;
    }
    let bad_length =
        |f: Field, max: usize| tx.blob_of(f).is_some_and(|b| b.is_empty() || b.len() > max);
    if bad_length(s.provider, ORACLE_PROVIDER_BYTES_MAX)
        || bad_length(s.uri, ORACLE_URI_BYTES_MAX)
        || bad_length(s.asset_class, ORACLE_ASSET_CLASS_BYTES_MAX)
    {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// LastUpdateTime against the parent ledger's close time: within the window either side.
fn check_update_time(view: &dyn ReadView, last_update: u32) -> Ter {
    let last_update = u64::from(last_update);
    if last_update < RIPPLE_EPOCH_OFFSET_SECS {
        return Ter::tecINVALID_UPDATE_TIME;
    }
    let since_epoch = last_update - RIPPLE_EPOCH_OFFSET_SECS;
    let close = u64::from(view.info().parent_close_time);
    let delta = u64::from(ORACLE_UPDATE_TIME_DELTA_SECS);
    if close < delta {
        return Ter::tecINTERNAL;
    }
    if since_epoch < close - delta || since_epoch > close + delta {
        return Ter::tecINVALID_UPDATE_TIME;
    }
    Ter::tesSUCCESS
}

/// The pairs the transaction prices and the pairs it deletes (rippled's preclaim loop).
fn split_pairs(tx: &StObject, exists: bool) -> Result<(BTreeSet<PairKey>, BTreeSet<PairKey>), Ter> {
    let s = sf();
    let mut priced = BTreeSet::new();
    let mut deleted = BTreeSet::new();
    for (_, entry) in series(tx) {
        let Some(key) = pair_key(entry) else {
            return Err(Ter::temMALFORMED);
        };
        if key.0 == key.1 || priced.contains(&key) || deleted.contains(&key) {
            return Err(Ter::temMALFORMED);
        }
        if entry.u8_of(s.scale).unwrap_or(0) > ORACLE_PRICE_SCALE_MAX {
            return Err(Ter::temMALFORMED);
        }
        if entry.get(s.asset_price).is_some() {
            priced.insert(key);
        } else if exists {
            deleted.insert(key);
        } else {
            return Err(Ter::temMALFORMED);
        }
    }
    Ok((priced, deleted))
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let Some(root) = view.read(&keylet::account(account)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    let last_update = tx.u32_of(s.last_update_time).unwrap_or(0);
    check_update_time(view, last_update).into_result()?;
    let doc = tx.u32_of(s.oracle_document_id).unwrap_or(0);
    let oracle = view.read(&keylet::oracle(account, doc));
    let (mut pairs, mut deleted) = split_pairs(tx, oracle.is_some())?;
    let adjust = match &oracle {
        Some(o) => {
            if last_update <= o.u32_of(s.last_update_time).unwrap_or(0) {
                return Err(Ter::tecINVALID_UPDATE_TIME);
            }
            let same = |f: Field| tx.get(f).is_none() || tx.get(f) == o.get(f);
            if !same(s.provider) || !same(s.asset_class) {
                return Err(Ter::temMALFORMED);
            }
            // The stored pairs the transaction neither prices nor deletes stay.
            for key in series(o).iter().filter_map(|(_, e)| pair_key(e)) {
                if !pairs.contains(&key) && !deleted.remove(&key) {
                    pairs.insert(key);
                }
            }
            if !deleted.is_empty() {
                return Err(Ter::tecTOKEN_PAIR_NOT_FOUND);
            }
            reserve_count(pairs.len()) - reserve_count(series(o).len())
        }
        None => {
            if tx.get(s.provider).is_none() || tx.get(s.asset_class).is_none() {
                return Err(Ter::temMALFORMED);
            }
            reserve_count(pairs.len())
        }
    };
    if pairs.is_empty() {
        return Err(Ter::tecARRAY_EMPTY);
    }
    if pairs.len() > ORACLE_SERIES_MAX {
        return Err(Ter::tecARRAY_TOO_LARGE);
    }
    let reserve = view.info().fees.reserve_of(&root, i64::from(adjust), 0);
    if balance_drops(&root) < reserve {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let doc = ctx.tx.u32_of(sf().oracle_document_id).unwrap_or(0);
    let key = keylet::oracle(&ctx.account, doc);
    match ctx.sb.peek(&key) {
        Some(oracle) => update(ctx, key, oracle),
        None => create(ctx, key),
    }
}

/// A PriceData object with only its assets.
fn bare_pair(entry: &StObject) -> StObject {
    let s = sf();
    let mut o = StObject::new();
    for f in [s.base_asset, s.quote_asset] {
        if let Some(v) = entry.get(f) {
            o.set(f, v.clone());
        }
    }
    o
}

/// Copies `entry`'s AssetPrice, and its Scale when present, onto `to`.
fn take_price(to: &mut StObject, entry: &StObject) {
    let s = sf();
    for f in [s.asset_price, s.scale] {
        if let Some(v) = entry.get(f) {
            to.set(f, v.clone());
        }
    }
}

/// The updated series: the stored pairs, bare, then the transaction's changes, in pair
/// order (rippled keeps them in a map keyed by the pair).
fn merged_series(stored: &StObject, tx: &StObject) -> BTreeMap<PairKey, StObject> {
    let mut pairs: BTreeMap<PairKey, StObject> = series(stored)
        .iter()
        .filter_map(|(_, e)| Some((pair_key(e)?, bare_pair(e))))
        .collect();
    for (_, entry) in series(tx) {
        let Some(key) = pair_key(entry) else { continue };
        if entry.get(sf().asset_price).is_none() {
            pairs.remove(&key);
            continue;
        }
        let slot = pairs.entry(key).or_insert_with(|| bare_pair(entry));
        take_price(slot, entry);
    }
    pairs
}

fn update(ctx: &mut ApplyContext, key: Hash256, mut oracle: StObject) -> Ter {
    let s = sf();
    let old_count = reserve_count(series(&oracle).len());
    let pairs = merged_series(&oracle, ctx.tx);
    let new_count = reserve_count(pairs.len());
    let items = pairs.into_values().map(|o| (s.price_data, o)).collect();
    oracle.set(s.price_data_series, StValue::Array(items));
    if let Some(uri) = ctx.tx.blob_of(s.uri) {
        oracle.set(s.uri, StValue::Blob(uri.to_vec()));
    }
    let last_update = ctx.tx.u32_of(s.last_update_time).unwrap_or(0);
    oracle.set(s.last_update_time, StValue::UInt32(last_update));
    // fixIncludeKeyletFields: an oracle created before it gains its document ID.
    if oracle.get(s.oracle_document_id).is_none() {
        set_document_id(ctx, &mut oracle);
    }
    if new_count != old_count {
        if !ctx.sb.exists(&keylet::account(&ctx.account)) {
            return Ter::tefINTERNAL;
        }
        adjust_owner_count(&mut ctx.sb, &ctx.account, new_count - old_count);
    }
    ctx.sb.update(key, oracle);
    Ter::tesSUCCESS
}

/// fixIncludeKeyletFields: the oracle keeps the OracleDocumentID its key is made of.
fn set_document_id(ctx: &ApplyContext, oracle: &mut StObject) {
    if ctx.sb.info().rules.enabled(Feature::FixIncludeKeyletFields) {
        let doc = ctx.tx.u32_of(sf().oracle_document_id).unwrap_or(0);
        oracle.set(sf().oracle_document_id, StValue::UInt32(doc));
    }
}

/// The series a new oracle stores: the transaction's as it lists them, or, under
/// fixPriceOracleOrder, in pair order as an update stores them (rippled rebuilds each
/// PriceData from its assets, price and scale).
fn created_series(ctx: &ApplyContext) -> StValue {
    let s = sf();
    if !ctx.sb.info().rules.enabled(Feature::FixPriceOracleOrder) {
        return StValue::Array(series(ctx.tx).to_vec());
    }
    let pairs: BTreeMap<PairKey, StObject> = series(ctx.tx)
        .iter()
        .filter_map(|(_, e)| {
            let mut priced = bare_pair(e);
            take_price(&mut priced, e);
            Some((pair_key(e)?, priced))
        })
        .collect();
    StValue::Array(pairs.into_values().map(|o| (s.price_data, o)).collect())
}

fn create(ctx: &mut ApplyContext, key: Hash256) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let mut oracle = with_threading(new_entry(lt::ORACLE));
    oracle.set(s.owner, StValue::AccountId(account));
    set_document_id(ctx, &mut oracle);
    for f in [s.provider, s.uri, s.asset_class] {
        if let Some(v) = tx.get(f) {
            oracle.set(f, v.clone());
        }
    }
    oracle.set(s.price_data_series, created_series(ctx));
    let last_update = tx.u32_of(s.last_update_time).unwrap_or(0);
    oracle.set(s.last_update_time, StValue::UInt32(last_update));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    oracle.set(s.owner_node, StValue::UInt64(page));
    if !ctx.sb.exists(&keylet::account(&account)) {
        return Ter::tefINTERNAL;
    }
    adjust_owner_count(&mut ctx.sb, &account, reserve_count(series(tx).len()));
    ctx.sb.insert(key, oracle);
    Ter::tesSUCCESS
}
