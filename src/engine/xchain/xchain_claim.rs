//! XChainClaim (rippled `XChainBridge.cpp`): the owner of a claim ID whose attestations
//! reached the quorum (for this amount, whatever their destinations) moves the funds
//! from this chain's door to a destination, pays the witnesses and deletes the claim ID.

use super::on_bridge;
use super::{
    claim_helper, finalize_claim, read_bridge, signers_and_quorum, stored_attestations, this_chain,
    Finalize, MatchFields,
};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;
use crate::protocol::xchain::{ChainType, XChainBridge};

/// The fields every XChainClaim carries (rippled's preflight requires them all).
struct ClaimFields {
    bridge: XChainBridge,
    amount: Amount,
    id: u64,
    dst: AccountId,
}

fn claim_fields(tx: &StObject) -> Option<ClaimFields> {
    let s = sf();
    Some(ClaimFields {
        bridge: tx.get_xchain_bridge("XChainBridge")?,
        amount: tx.amount_of(s.amount)?,
        id: tx.u64_of(s.xchain_claim_id)?,
        dst: tx.account_of(s.destination)?,
    })
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some(ClaimFields { bridge, amount, .. }) = claim_fields(tx) else {
        return Ter::temMALFORMED;
    };
    if amount.is_zero() || amount.is_negative() || !on_bridge(&bridge, &amount) {
        return Ter::temBAD_AMOUNT;
    }
    Ter::tesSUCCESS
}

/// preclaim: the bridge, the destination and the sender's claim ID exist; the amount
/// is in this chain's issue.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(ClaimFields {
        bridge: spec,
        amount,
        id,
        dst,
    }) = claim_fields(tx)
    else {
        return Ter::temMALFORMED;
    };
    let Some((_, bridge)) = read_bridge(view, &spec) else {
        return Ter::tecNO_ENTRY;
    };
    if view.read(&keylet::account(&dst)).is_none() {
        return Ter::tecNO_DST;
    }
    let Some(chain) = this_chain(&bridge, &spec) else {
        return Ter::tecINTERNAL;
    };
    if spec.issue(chain) != amount.issue() {
        return Ter::tecXCHAIN_BAD_TRANSFER_ISSUE;
    }
    if spec.locking_issue.is_xrp() != spec.issuing_issue.is_xrp() {
        return Ter::tecINTERNAL;
    }
    match view.read(&keylet::xchain_claim_id(&spec, id)) {
        None => Ter::tecXCHAIN_NO_CLAIM_ID,
        Some(c) if c.account_of(s.account) != Some(*account) => Ter::tecXCHAIN_BAD_CLAIM_ID,
        Some(_) => Ter::tesSUCCESS,
    }
}

/// `amount` in the issue of `chain`.
pub fn with_issue(amount: &Amount, spec: &XChainBridge, chain: ChainType) -> Amount {
    let issue = spec.issue(chain);
    match amount {
        Amount::Iou { value, .. } => Amount::iou(*value, issue.currency, issue.issuer),
        x => *x,
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let Some(ClaimFields {
        bridge: spec,
        amount,
        id,
        dst,
    }) = claim_fields(tx)
    else {
        return Err(Ter::tecINTERNAL);
    };
    let claim_key = keylet::xchain_claim_id(&spec, id);
    let mut psb = Sandbox::new_payment(&ctx.sb);
    let (Some((_, bridge)), Some(claim)) = (read_bridge(&psb, &spec), psb.peek(&claim_key)) else {
        return Err(Ter::tecINTERNAL);
    };
    let Some(this) = this_chain(&bridge, &spec) else {
        return Err(Ter::tecINTERNAL);
    };
    let src_chain = this.other();
    let sending_amount = with_issue(&amount, &spec, src_chain);
    let (signers, quorum) = signers_and_quorum(&psb, &bridge)?;
    let mut atts = stored_attestations(&claim);
    let m = MatchFields {
        amount: sending_amount,
        was_locking: src_chain == ChainType::Locking,
        dst: None,
        reward: None,
    };
    let rewards = claim_helper(&mut atts, &psb, &m, quorum, &signers)?;
    let f = Finalize {
        bridge: &spec,
        dst,
        dst_tag: tx.u32_of(s.destination_tag),
        claim_owner: ctx.account,
        sending_amount,
        reward_src: claim.account_of(s.account).unwrap_or_default(),
        reward_pool: claim
            .amount_of(s.signature_reward)
            .unwrap_or(Amount::Xrp(0)),
        reward_accounts: rewards,
        src_chain,
        claim_key,
        bypass_deposit_auth: true,
    };
    let ter = finalize_claim(&mut psb, &f);
    if !ter.is_tes() {
        return ter.into_result();
    }
    let (items, _) = psb.into_parts();
    ctx.sb.absorb(items);
    Ok(())
}
