//! XChainCommit (rippled `XChainBridge.cpp`): an account puts funds into the bridge's
//! door on this chain, for the claim ID it took on the other chain (witnesses see it and
//! attest there). The fee may dip into the reserve.

use super::on_bridge;
use super::{read_bridge, this_chain, transfer, TransferPolicy};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

fn positive(a: &Amount) -> bool {
    !a.is_zero() && !a.is_negative()
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let (Some(bridge), Some(amount), Some(_)) = (
        tx.get_xchain_bridge("XChainBridge"),
        tx.amount_of(s.amount),
        tx.u64_of(s.xchain_claim_id),
    ) else {
        return Ter::temMALFORMED;
    };
    if !positive(&amount) {
        return Ter::temBAD_AMOUNT;
    }
    if !on_bridge(&bridge, &amount) {
        return Ter::temBAD_ISSUER;
    }
    Ter::tesSUCCESS
}

/// preclaim: the bridge exists, the sender is not its door, the amount is in this
/// chain's issue.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let (Some(spec), Some(amount)) = (tx.get_xchain_bridge("XChainBridge"), tx.amount_of(s.amount))
    else {
        return Ter::temMALFORMED;
    };
    let Some((_, bridge)) = read_bridge(view, &spec) else {
        return Ter::tecNO_ENTRY;
    };
    if bridge.account_of(s.account) == Some(*account) {
        return Ter::tecXCHAIN_SELF_COMMIT;
    }
    let Some(chain) = this_chain(&bridge, &spec) else {
        return Ter::tecINTERNAL;
    };
    if spec.issue(chain) != amount.issue() {
        return Ter::tecXCHAIN_BAD_TRANSFER_ISSUE;
    }
    Ter::tesSUCCESS
}

/// doApply: the amount moves to the door.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let (Some(spec), Some(amount)) = (
        ctx.tx.get_xchain_bridge("XChainBridge"),
        ctx.tx.amount_of(s.amount),
    ) else {
        return Ter::tecINTERNAL;
    };
    let Some(door) = read_bridge(&ctx.sb, &spec).and_then(|(_, b)| b.account_of(s.account)) else {
        return Ter::tecINTERNAL;
    };
    let policy = TransferPolicy {
        can_create: false,
        bypass_deposit_auth: false,
        submitter: Some((ctx.account, ctx.prior_balance, ctx.source_balance)),
    };
    let mut psb = Sandbox::new_payment(&ctx.sb);
    let ter = transfer(&mut psb, &ctx.account, &door, None, &amount, policy);
    if !ter.is_tes() {
        return ter;
    }
    let (items, _) = psb.into_parts();
    ctx.sb.absorb(items);
    Ter::tesSUCCESS
}
