//! OracleDelete (rippled `DeleteOracle.cpp`): removes one of the sending account's price
//! oracles and gives back the one or two owner entries it counted. AccountDelete removes
//! oracles the same way.

use super::delete_oracle;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.u32_of(sf().oracle_document_id).is_none() {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    if view.read(&keylet::account(account)).is_none() {
        return Ter::terNO_ACCOUNT;
    }
    let doc = tx.u32_of(sf().oracle_document_id).unwrap_or(0);
    match view.read(&keylet::oracle(account, doc)) {
        None => Ter::tecNO_ENTRY,
        Some(o) if o.account_of(sf().owner) != Some(*account) => Ter::tecINTERNAL,
        Some(_) => Ter::tesSUCCESS,
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let doc = ctx.tx.u32_of(sf().oracle_document_id).unwrap_or(0);
    let account = ctx.account;
    delete_oracle(&mut ctx.sb, &keylet::oracle(&account, doc), &account)
}
