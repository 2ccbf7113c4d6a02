//! OracleSet and OracleDelete (price oracles).

pub mod oracle_delete;
pub mod oracle_set;

use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::definitions::Field;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;
use crate::protocol::types::Hash256;

/// Most token pairs an oracle's PriceDataSeries holds (`maxOracleDataSeries`).
pub const ORACLE_SERIES_MAX: usize = 10;
/// An oracle with more pairs than this counts two owner entries, else one.
pub const ORACLE_SERIES_ONE_RESERVE_MAX: usize = 5;
/// Longest oracle Provider, in bytes (`maxOracleProvider`).
pub const ORACLE_PROVIDER_BYTES_MAX: usize = 256;
/// Longest oracle URI, in bytes (`maxOracleURI`).
pub const ORACLE_URI_BYTES_MAX: usize = 256;
/// Longest oracle AssetClass, in bytes (`maxOracleSymbolClass`).
pub const ORACLE_ASSET_CLASS_BYTES_MAX: usize = 16;
/// Largest price Scale (`maxPriceScale`).
pub const ORACLE_PRICE_SCALE_MAX: u8 = 20;
/// How far, in seconds, LastUpdateTime may be from the parent ledger's close time
/// (`maxLastUpdateTimeDelta`).
pub const ORACLE_UPDATE_TIME_DELTA_SECS: u32 = 300;

/// Removes the oracle at `key` from `owner`'s directory and the ledger (rippled
/// `DeleteOracle::deleteOracle`).
pub fn delete_oracle(sb: &mut Sandbox, key: &Hash256, owner: &AccountId) -> Ter {
    let Some(oracle) = sb.peek(key) else {
        return Ter::tecINTERNAL;
    };
    let page = oracle.u64_of(sf().owner_node).unwrap_or(0);
    if !remove_owned(sb, owner, page, key, true) {
        return Ter::tefBAD_LEDGER;
    }
    if !sb.exists(&keylet::account(owner)) {
        return Ter::tecINTERNAL;
    }
    adjust_owner_count(sb, owner, -reserve_count(series(&oracle).len()));
    sb.erase(*key);
    Ter::tesSUCCESS
}

/// The owner entries an oracle with `pairs` token pairs counts.
pub fn reserve_count(pairs: usize) -> i32 {
    if pairs > ORACLE_SERIES_ONE_RESERVE_MAX {
        2
    } else {
        1
    }
}

/// The PriceData objects of an oracle or an OracleSet (empty when absent).
pub fn series(o: &StObject) -> &[(Field, StObject)] {
    o.get_array("PriceDataSeries").unwrap_or(&[])
}
