//! DIDDelete (rippled `DID.cpp`, class `DIDDelete`): removes the sending account's DID and
//! gives back its owner reserve. AccountDelete removes a DID the same way.

use super::delete_did;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::StExt;
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    Ter::tesSUCCESS
}

/// preclaim: nothing beyond the common checks (a missing DID is found in doApply).
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let account = ctx.account;
    if !ctx.sb.exists(&keylet::did(&account)) {
        return Ter::tecNO_ENTRY;
    }
    delete_did(&mut ctx.sb, &account)
}
