//! DIDSet and DIDDelete.

pub mod did_delete;
pub mod did_set;

use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::types::AccountId;

/// Longest DID URI, in bytes (`maxDIDURILength`).
pub const DID_URI_BYTES_MAX: usize = 256;
/// Longest DIDDocument, in bytes (`maxDIDDocumentLength`).
pub const DID_DOCUMENT_BYTES_MAX: usize = 256;
/// Longest DID Data (attestation), in bytes (`maxDIDAttestationLength`).
pub const DID_DATA_BYTES_MAX: usize = 256;

/// Removes `owner`'s DID from its owner directory and the ledger (rippled
/// `DIDDelete::deleteSLE`).
pub fn delete_did(sb: &mut Sandbox, owner: &AccountId) -> Ter {
    let key = keylet::did(owner);
    let Some(did) = sb.peek(&key) else {
        return Ter::tecNO_ENTRY;
    };
    let page = did.u64_of(sf().owner_node).unwrap_or(0);
    if !remove_owned(sb, owner, page, &key, true) {
        return Ter::tefBAD_LEDGER;
    }
    if !sb.exists(&keylet::account(owner)) {
        return Ter::tecINTERNAL;
    }
    adjust_owner_count(sb, owner, -1);
    sb.erase(key);
    Ter::tesSUCCESS
}
