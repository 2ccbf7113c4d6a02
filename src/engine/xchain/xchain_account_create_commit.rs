//! XChainAccountCreateCommit (rippled `XChainBridge.cpp`): an account pays XRP and the
//! witnesses' reward into the bridge's door on this chain, asking that an account be
//! created on the other chain; the bridge counts the request (XChainAccountCreateCount)
//! and the witnesses attest it there by that count. The fee may dip into the reserve.

use super::{read_bridge, this_chain, transfer, TransferPolicy};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;
use crate::protocol::xchain::XChainBridge;

/// The fields every XChainAccountCreateCommit carries.
struct CommitFields {
    bridge: XChainBridge,
    amount: Amount,
    reward: Amount,
}

fn commit_fields(tx: &StObject) -> Option<CommitFields> {
    let s = sf();
    tx.account_of(s.destination)?;
    Some(CommitFields {
        bridge: tx.get_xchain_bridge("XChainBridge")?,
        amount: tx.amount_of(s.amount)?,
        reward: tx.amount_of(s.signature_reward)?,
    })
}

/// preflight: a positive XRP amount and an XRP reward of at least zero.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some(CommitFields { amount, reward, .. }) = commit_fields(tx) else {
        return Ter::temMALFORMED;
    };
    match (amount.as_drops(), reward.as_drops()) {
        (Some(a), Some(r)) if a > 0 && r >= 0 => Ter::tesSUCCESS,
        _ => Ter::temBAD_AMOUNT,
    }
}

/// preclaim: the bridge, its reward, its least create amount (account creation is
/// enabled), not the door itself, this chain's issue, and XRP on the other chain.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(CommitFields {
        bridge: spec,
        amount,
        reward,
    }) = commit_fields(tx)
    else {
        return Ter::temMALFORMED;
    };
    let Some((_, bridge)) = read_bridge(view, &spec) else {
        return Ter::tecNO_ENTRY;
    };
    if bridge.amount_of(s.signature_reward) != Some(reward) {
        return Ter::tecXCHAIN_REWARD_MISMATCH;
    }
    let Some(min) = bridge.amount_of(s.min_account_create_amount) else {
        return Ter::tecXCHAIN_CREATE_ACCOUNT_DISABLED;
    };
    if below(&amount, &min) {
        return Ter::tecXCHAIN_INSUFF_CREATE_AMOUNT;
    }
    if min.issue() != amount.issue() {
        return Ter::tecXCHAIN_BAD_TRANSFER_ISSUE;
    }
    if bridge.account_of(s.account) == Some(*account) {
        return Ter::tecXCHAIN_SELF_COMMIT;
    }
    let Some(chain) = this_chain(&bridge, &spec) else {
        return Ter::tecINTERNAL;
    };
    if spec.issue(chain) != amount.issue() {
        return Ter::tecXCHAIN_BAD_TRANSFER_ISSUE;
    }
    if !spec.issue(chain.other()).is_xrp() {
        return Ter::tecXCHAIN_CREATE_ACCOUNT_NONXRP_ISSUE;
    }
    Ter::tesSUCCESS
}

/// `amount < min` for the XRP amounts preflight allows (an IOU minimum compares by value).
fn below(amount: &Amount, min: &Amount) -> bool {
    match (amount.as_drops(), min.as_drops()) {
        (Some(a), Some(m)) => a < m,
        _ => false,
    }
}

/// doApply: the amount and the reward move to the door; the bridge counts the create.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(CommitFields {
        bridge: spec,
        amount,
        reward,
    }) = commit_fields(ctx.tx)
    else {
        return Ter::tecINTERNAL;
    };
    let Some((bridge_key, mut bridge)) = read_bridge(&ctx.sb, &spec) else {
        return Ter::tecINTERNAL;
    };
    let (Some(door), Some(a), Some(r)) = (
        bridge.account_of(s.account),
        amount.as_drops(),
        reward.as_drops(),
    ) else {
        return Ter::tecINTERNAL;
    };
    let policy = TransferPolicy {
        can_create: true,
        bypass_deposit_auth: false,
        submitter: Some((ctx.account, ctx.prior_balance, ctx.source_balance)),
    };
    let mut psb = Sandbox::new_payment(&ctx.sb);
    let ter = transfer(
        &mut psb,
        &ctx.account,
        &door,
        None,
        &Amount::Xrp(a + r),
        policy,
    );
    if !ter.is_tes() {
        return ter;
    }
    let count = bridge.u64_of(s.xchain_account_create_count).unwrap_or(0);
    bridge.set(
        s.xchain_account_create_count,
        StValue::UInt64(count.wrapping_add(1)),
    );
    psb.update(bridge_key, bridge);
    let (items, _) = psb.into_parts();
    ctx.sb.absorb(items);
    Ter::tesSUCCESS
}
