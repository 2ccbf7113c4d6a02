//! XChainCreateBridge (rippled `XChainBridge.cpp`, class `XChainCreateBridge`): a door
//! account creates its end of a cross-chain bridge, a Bridge entry it owns, with the
//! reward paid to witnesses and, for XRP-XRP bridges, the least amount that may create
//! an account on the other chain.

use super::own_chain;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, balance_drops, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;
use crate::protocol::xchain::{ChainType, XChainBridge};

/// rippled's root account (`masterpassphrase`): the only issuing door of an XRP bridge.
const ROOT_ACCOUNT: AccountId = AccountId([
    0xB5, 0xF7, 0x62, 0x79, 0x8A, 0x53, 0xD5, 0x43, 0xA0, 0x14, 0xCA, 0xF8, 0xB2, 0x97, 0xCF, 0xF8,
    0xF2, 0xF9, 0x37, 0xE8,
]);

fn is_xrp(a: &Amount) -> bool {
    matches!(a, Amount::Xrp(_))
}

fn signum(a: &Amount) -> i32 {
    match a {
        Amount::Xrp(d) => d.signum() as i32,
        Amount::Iou { value, .. } => value.signum(),
    }
}

/// The rules on the doors and issues (`doPreflight` after the amounts' checks are
/// folded in, in rippled's order).
fn check_bridge(
    b: &XChainBridge,
    account: &AccountId,
    reward: &Amount,
    min_create: Option<&Amount>,
) -> Ter {
    if b.locking_door == b.issuing_door {
        return Ter::temXCHAIN_EQUAL_DOOR_ACCOUNTS;
    }
    if b.locking_door != *account && b.issuing_door != *account {
        return Ter::temXCHAIN_BRIDGE_NONDOOR_OWNER;
    }
    if b.locking_issue.is_xrp() != b.issuing_issue.is_xrp() {
        return Ter::temXCHAIN_BRIDGE_BAD_ISSUES;
    }
    if !is_xrp(reward) || signum(reward) < 0 {
        return Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT;
    }
    if let Some(m) = min_create {
        if !is_xrp(m) || signum(m) <= 0 || !b.locking_issue.is_xrp() || !b.issuing_issue.is_xrp() {
            return Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT;
        }
    }
    // The issuing door must be able to mint without running out: the root account for
    // XRP, the issuer itself for an IOU.
    let issuing_ok = if b.issuing_issue.is_xrp() {
        b.issuing_door == ROOT_ACCOUNT
    } else {
        b.issuing_door == b.issuing_issue.issuer
    };
    if !issuing_ok {
        return Ter::temXCHAIN_BRIDGE_BAD_ISSUES;
    }
    // A locking door locking its own IOU locks nothing.
    if b.locking_door == b.locking_issue.issuer {
        return Ter::temXCHAIN_BRIDGE_BAD_ISSUES;
    }
    Ter::tesSUCCESS
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let (Some(bridge), Some(reward)) = (
        tx.get_xchain_bridge("XChainBridge"),
        tx.amount_of(s.signature_reward),
    ) else {
        return Ter::temMALFORMED;
    };
    if tx.get(s.min_account_create_amount).is_some()
        && tx.amount_of(s.min_account_create_amount).is_none()
    {
        return Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT;
    }
    let min_create = tx.amount_of(s.min_account_create_amount);
    check_bridge(&bridge, account, &reward, min_create.as_ref())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(bridge) = tx.get_xchain_bridge("XChainBridge") else {
        return Ter::temMALFORMED;
    };
    // Neither end of this bridge may live on this ledger already.
    let exists = |c| view.read(&keylet::bridge(&bridge, c)).is_some();
    if exists(ChainType::Issuing) || exists(ChainType::Locking) {
        return Ter::tecDUPLICATE;
    }
    let issue = bridge.issue(own_chain(&bridge, account));
    if !issue.is_xrp() {
        let Some(issuer) = view.read(&keylet::account(&issue.issuer)) else {
            return Ter::tecNO_ISSUER;
        };
        // Clawback would break "wrapped funds are always backed by locked funds".
        if issuer.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) {
            return Ter::tecNO_PERMISSION;
        }
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
    let (Some(bridge), Some(reward)) = (
        tx.get_xchain_bridge("XChainBridge"),
        tx.amount_of(s.signature_reward),
    ) else {
        return Ter::tecINTERNAL;
    };
    if ctx.sb.peek(&keylet::account(&account)).is_none() {
        return Ter::tecINTERNAL;
    }
    let key = keylet::bridge(&bridge, own_chain(&bridge, &account));
    let mut entry = with_threading(new_entry(lt::BRIDGE));
    entry.set(s.account, StValue::AccountId(account));
    entry.set(s.signature_reward, StValue::Amount(reward));
    if let Some(m) = tx.amount_of(s.min_account_create_amount) {
        entry.set(s.min_account_create_amount, StValue::Amount(m));
    }
    entry.set(s.xchain_bridge, StValue::XChainBridge(bridge));
    entry.set(s.xchain_claim_id, StValue::UInt64(0));
    entry.set(s.xchain_account_create_count, StValue::UInt64(0));
    entry.set(s.xchain_account_claim_count, StValue::UInt64(0));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.owner_node, StValue::UInt64(page));
    adjust_owner_count(&mut ctx.sb, &account, 1);
    ctx.sb.insert(key, entry);
    Ter::tesSUCCESS
}
