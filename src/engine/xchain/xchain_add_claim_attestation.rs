//! XChainAddClaimAttestation (rippled `XChainBridge.cpp`, `attestationDoApply` over
//! `applyClaimAttestations`): a witness adds its signed attestation of a commit on the
//! other chain to the claim ID; when the attestations for this amount and destination
//! reach the door's quorum, the funds move and the claim ID is deleted.

use super::{
    attestations_value, check_attestation_key, claim_helper, finalize_claim, read_bridge,
    signers_and_quorum, stored_attestations, this_chain, ClaimAttestation, Finalize, MatchFields,
};
use crate::engine::entry::key_kind;
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

/// The chain the attested commit happened on.
fn src_chain(was_locking: bool) -> ChainType {
    if was_locking {
        ChainType::Locking
    } else {
        ChainType::Issuing
    }
}

/// preflight (`attestationDoPreflight`).
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.blob_of(sf().public_key).and_then(key_kind).is_none() {
        return Ter::temMALFORMED;
    }
    let (Some(att), Some(bridge)) = (
        ClaimAttestation::from_tx(tx),
        tx.get_xchain_bridge("XChainBridge"),
    ) else {
        return Ter::temMALFORMED;
    };
    if !att.verify(&bridge) {
        return Ter::temXCHAIN_BAD_PROOF;
    }
    if att.amount.is_zero() || att.amount.is_negative() {
        return Ter::temXCHAIN_BAD_PROOF;
    }
    if att.amount.issue() != bridge.issue(src_chain(att.was_locking)) {
        return Ter::temXCHAIN_BAD_PROOF;
    }
    Ter::tesSUCCESS
}

/// preclaim (`attestationPreclaim`): the bridge, the door's signer list, the key.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    let (Some(att), Some(spec)) = (
        ClaimAttestation::from_tx(tx),
        tx.get_xchain_bridge("XChainBridge"),
    ) else {
        return Ter::tecINTERNAL;
    };
    let Some((_, bridge)) = read_bridge(view, &spec) else {
        return Ter::tecNO_ENTRY;
    };
    match signers_and_quorum(view, &bridge) {
        Ok((signers, _)) => check_attestation_key(view, &signers, &att.signer, &att.public_key),
        Err(t) => t,
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let (Some(att), Some(spec)) = (
        ClaimAttestation::from_tx(ctx.tx),
        ctx.tx.get_xchain_bridge("XChainBridge"),
    ) else {
        return Err(Ter::tecINTERNAL);
    };
    let Some((_, bridge)) = read_bridge(&ctx.sb, &spec) else {
        return Err(Ter::tecNO_ENTRY);
    };
    let Some(this) = this_chain(&bridge, &spec) else {
        return Err(Ter::tecINTERNAL);
    };
    let (signers, quorum) = signers_and_quorum(&ctx.sb, &bridge)?;
    let mut psb = Sandbox::new_payment(&ctx.sb);
    let ter = apply_attestation(&mut psb, &spec, this.other(), &att, &signers, quorum);
    if !ter.is_tes() {
        return ter.into_result();
    }
    let (items, _) = psb.into_parts();
    ctx.sb.absorb(items);
    Ok(())
}

/// `applyClaimAttestations` for one attestation.
fn apply_attestation(
    psb: &mut Sandbox,
    spec: &XChainBridge,
    src: ChainType,
    att: &ClaimAttestation,
    signers: &[(AccountId, u32)],
    quorum: u32,
) -> Ter {
    let s = sf();
    let claim_key = keylet::xchain_claim_id(spec, att.claim_id);
    let Some(mut claim) = psb.peek(&claim_key) else {
        return Ter::tecXCHAIN_NO_CLAIM_ID;
    };
    if !signers.iter().any(|(a, _)| *a == att.signer) {
        return Ter::tecXCHAIN_PROOF_UNKNOWN_KEY;
    }
    if claim.account_of(s.other_chain_source) != Some(att.sending_account) {
        return Ter::tecXCHAIN_SENDING_ACCOUNT_MISMATCH;
    }
    if src_chain(att.was_locking) != src {
        return Ter::tecXCHAIN_WRONG_CHAIN;
    }
    let mut atts = stored_attestations(&claim);
    // Adding or replacing always changes the list (rippled's `onNewAttestations`).
    match atts
        .iter_mut()
        .find(|a| a.account_of(s.attestation_signer_account) == Some(att.signer))
    {
        Some(old) => *old = att.stored(),
        None => atts.push(att.stored()),
    }
    let m = MatchFields {
        amount: att.amount,
        was_locking: att.was_locking,
        dst: Some(att.dst),
        reward: None,
    };
    let rewards = claim_helper(&mut atts, &*psb, &m, quorum, signers);
    claim.set(s.xchain_claim_attestations, attestations_value(&atts));
    psb.update(claim_key, claim.clone());
    let (Ok(rewards), Some(dst)) = (rewards, att.dst) else {
        return Ter::tesSUCCESS;
    };
    let owner = claim.account_of(s.account).unwrap_or_default();
    let f = Finalize {
        bridge: spec,
        dst,
        dst_tag: None,
        claim_owner: owner,
        sending_amount: att.amount,
        reward_src: owner,
        reward_pool: claim
            .amount_of(s.signature_reward)
            .unwrap_or(Amount::Xrp(0)),
        reward_accounts: rewards,
        src_chain: src,
        claim_key,
        bypass_deposit_auth: false,
    };
    // The attestation list always changed, so a failed transfer keeps the attestation
    // (rippled returns the code only for tecINTERNAL and tefBAD_LEDGER then);
    // `finalize_claim` leaves `psb` untouched when it fails.
    let ter = finalize_claim(psb, &f);
    if ter == Ter::tecINTERNAL || ter == Ter::tefBAD_LEDGER {
        return ter;
    }
    Ter::tesSUCCESS
}
