//! AMMDelete (rippled `AMMDelete.cpp`): deletes an empty AMM that an AMMWithdraw could
//! not finish deleting (too many trust lines), up to `AMM_TRUST_LINES_DELETE_MAX` lines
//! at a time.

use super::{delete_amm_account, invalid_amm_asset_pair, issue_of, tx_amm};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let s = sf();
    let (Some(a), Some(b)) = (issue_of(tx, s.asset), issue_of(tx, s.asset2)) else {
        return Ter::temMALFORMED;
    };
    Ter::from(invalid_amm_asset_pair(&a, &b, None))
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    let Some((amm, _)) = tx_amm(view, tx) else {
        return Ter::terNO_AMM;
    };
    if !amm.lp_balance.is_zero() {
        return Ter::tecAMM_NOT_EMPTY;
    }
    Ter::tesSUCCESS
}

/// doApply. rippled keeps the lines deleted before a `tecINCOMPLETE`; here a tec keeps
/// only the fee, so a pool with more than `AMM_TRUST_LINES_DELETE_MAX` lines left stays
/// whole (see the AMM report).
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let Some((amm, _)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Ter::tecINTERNAL;
    };
    Ter::from(delete_amm_account(&mut ctx.sb, &amm.asset, &amm.asset2))
}
