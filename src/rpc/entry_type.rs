//! rippled's `chooseLedgerEntryType` (`RPCHelpers.cpp`): the entry type a request's `type`
//! filter names, shared by `account_objects` and `ledger_data`. The names are the
//! rows of [`crate::ledger::entry_types`].

use crate::ledger::entry_types::{self, EntryType};
use crate::rpc::error::RpcError;
use crate::rpc::Params;

/// rippled's `chooseLedgerEntryType`: the entry type a `type` value names (its RPC name or
/// its name, in any case).
pub fn chosen_type(params: &Params) -> Result<Option<&'static EntryType>, RpcError> {
    let Some(v) = params.get("type") else {
        return Ok(None);
    };
    let text = v
        .as_str()
        .ok_or_else(|| RpcError::expected_field("type", "string"))?;
    entry_types::named(text)
        .map(Some)
        .ok_or_else(|| RpcError::invalid_field("type"))
}
