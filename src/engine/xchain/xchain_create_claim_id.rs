//! XChainCreateClaimID (rippled `XChainBridge.cpp`): an account on the destination
//! chain takes the bridge's next claim ID, an XChainOwnedClaimID it owns, naming who will
//! commit on the other chain and the reward it will pay the witnesses.

use super::{attestations_value, read_bridge};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, balance_drops, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.get_xchain_bridge("XChainBridge").is_none()
        || tx.account_of(s.other_chain_source).is_none()
    {
        return Ter::temMALFORMED;
    }
    match tx.amount_of(s.signature_reward) {
        Some(Amount::Xrp(d)) if d >= 0 => Ter::tesSUCCESS,
        _ => Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
    }
}

/// preclaim: the bridge exists, the reward is the bridge's, the reserve is there.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(spec) = tx.get_xchain_bridge("XChainBridge") else {
        return Ter::temMALFORMED;
    };
    let Some((_, bridge)) = read_bridge(view, &spec) else {
        return Ter::tecNO_ENTRY;
    };
    if tx.amount_of(s.signature_reward) != bridge.amount_of(s.signature_reward) {
        return Ter::tecXCHAIN_REWARD_MISMATCH;
    }
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    if balance_drops(&root) < view.info().fees.reserve_of(&root, 1, 0) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let (Some(spec), Some(reward), Some(source)) = (
        tx.get_xchain_bridge("XChainBridge"),
        tx.amount_of(s.signature_reward),
        tx.account_of(s.other_chain_source),
    ) else {
        return Ter::tecINTERNAL;
    };
    let Some((bridge_key, mut bridge)) = read_bridge(&ctx.sb, &spec) else {
        return Ter::tecINTERNAL;
    };
    // rippled keeps the claim ID in a u32 before storing it in the u64 field.
    let next = bridge
        .u64_of(s.xchain_claim_id)
        .unwrap_or(0)
        .wrapping_add(1) as u32;
    if next == 0 {
        return Ter::tecINTERNAL;
    }
    let id = u64::from(next);
    bridge.set(s.xchain_claim_id, StValue::UInt64(id));
    let key = keylet::xchain_claim_id(&spec, id);
    if ctx.sb.exists(&key) {
        return Ter::tecINTERNAL;
    }
    let mut claim = with_threading(new_entry(lt::XCHAIN_OWNED_CLAIM_ID));
    claim.set(s.account, StValue::AccountId(account));
    claim.set(s.xchain_bridge, StValue::XChainBridge(spec));
    claim.set(s.xchain_claim_id, StValue::UInt64(id));
    claim.set(s.other_chain_source, StValue::AccountId(source));
    claim.set(s.signature_reward, StValue::Amount(reward));
    claim.set(s.xchain_claim_attestations, attestations_value(&[]));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    claim.set(s.owner_node, StValue::UInt64(page));
    adjust_owner_count(&mut ctx.sb, &account, 1);
    ctx.sb.insert(key, claim);
    ctx.sb.update(bridge_key, bridge);
    Ter::tesSUCCESS
}
