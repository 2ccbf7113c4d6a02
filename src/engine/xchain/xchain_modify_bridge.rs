//! XChainModifyBridge (rippled `XChainBridge.cpp`, class `BridgeModify`): a door changes
//! its end of a bridge: the signature reward, the least amount that creates an account
//! on the other chain, or clears that amount (account creation off).

use super::{is_positive_xrp, own_chain};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// XChainModifyBridge flags.
pub mod tf {
    /// Remove MinAccountCreateAmount from the bridge.
    pub const CLEAR_ACCOUNT_CREATE_AMOUNT: u32 = 0x0001_0000;
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK & !tf::CLEAR_ACCOUNT_CREATE_AMOUNT != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some(bridge) = tx.get_xchain_bridge("XChainBridge") else {
        return Ter::temMALFORMED;
    };
    let reward = tx
        .get(s.signature_reward)
        .map(|_| tx.amount_of(s.signature_reward));
    let min_create = tx
        .get(s.min_account_create_amount)
        .map(|_| tx.amount_of(s.min_account_create_amount));
    let clear = tx.flags() & tf::CLEAR_ACCOUNT_CREATE_AMOUNT != 0;
    if reward.is_none() && min_create.is_none() && !clear {
        return Ter::temMALFORMED;
    }
    if min_create.is_some() && clear {
        return Ter::temMALFORMED;
    }
    if bridge.locking_door != *account && bridge.issuing_door != *account {
        return Ter::temXCHAIN_BRIDGE_NONDOOR_OWNER;
    }
    if let Some(r) = reward {
        if !matches!(r, Some(Amount::Xrp(d)) if d >= 0) {
            return Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT;
        }
    }
    if let Some(m) = min_create {
        let xrp_bridge = bridge.locking_issue.is_xrp() && bridge.issuing_issue.is_xrp();
        if !m.as_ref().is_some_and(is_positive_xrp) || !xrp_bridge {
            return Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT;
        }
    }
    Ter::tesSUCCESS
}

/// preclaim: the sender's own end of the bridge exists.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(bridge) = tx.get_xchain_bridge("XChainBridge") else {
        return Ter::temMALFORMED;
    };
    if view
        .read(&keylet::bridge(&bridge, own_chain(&bridge, account)))
        .is_none()
    {
        return Ter::tecNO_ENTRY;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let Some(bridge) = tx.get_xchain_bridge("XChainBridge") else {
        return Ter::tecINTERNAL;
    };
    let key = keylet::bridge(&bridge, own_chain(&bridge, &ctx.account));
    let Some(mut entry) = ctx.sb.peek(&key) else {
        return Ter::tecINTERNAL;
    };
    if let Some(r) = tx.amount_of(s.signature_reward) {
        entry.set(s.signature_reward, StValue::Amount(r));
    }
    if let Some(m) = tx.amount_of(s.min_account_create_amount) {
        entry.set(s.min_account_create_amount, StValue::Amount(m));
    }
    if tx.flags() & tf::CLEAR_ACCOUNT_CREATE_AMOUNT != 0 {
        entry.remove(s.min_account_create_amount);
    }
    ctx.sb.update(key, entry);
    Ter::tesSUCCESS
}
