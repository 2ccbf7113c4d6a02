//! XChainAddAccountCreateAttestation (rippled `XChainBridge.cpp`, `attestationDoApply`
//! over `applyCreateAccountAttestations`): a witness attests an XChainAccountCreateCommit
//! on the other chain, by its create count. The attestations wait in an
//! XChainOwnedCreateAccountClaimID the door owns; when those for the same facts reach the
//! door's quorum and the count is the next one (XChainAccountClaimCount + 1), the door
//! pays the amount to the account (creating it), shares the reward among the witnesses'
//! reward accounts, and the bridge moves its claim count on, even when the payment fails.

use super::{
    check_attestation_key, claim_helper, finalize_create_account, read_bridge, signed_by,
    signers_and_quorum, this_chain, Finalize, MatchFields, XCHAIN_ACCOUNT_CREATES_PENDING_MAX,
};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{
    adjust_owner_count, balance_drops, key_kind, new_entry, with_threading,
};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};
use crate::protocol::xchain::{ChainType, XChainBridge};

/// A witness's account create attestation (`Attestations::AttestationCreateAccount`).
#[derive(Debug, Clone)]
pub struct CreateAccountAttestation {
    /// AttestationSignerAccount.
    pub signer: AccountId,
    /// PublicKey.
    pub public_key: Vec<u8>,
    /// Signature.
    pub signature: Vec<u8>,
    /// OtherChainSource: who committed on the other chain.
    pub sending_account: AccountId,
    /// Amount committed on the other chain.
    pub amount: Amount,
    /// SignatureReward committed with it.
    pub reward_amount: Amount,
    /// AttestationRewardAccount.
    pub reward_account: AccountId,
    /// WasLockingChainSend.
    pub was_locking: bool,
    /// XChainAccountCreateCount: which create of the bridge this is.
    pub create_count: u64,
    /// Destination: the account to create.
    pub to_create: AccountId,
}

impl CreateAccountAttestation {
    /// Reads the attestation fields of `tx`; `None` when one is missing.
    pub fn from_tx(tx: &StObject) -> Option<CreateAccountAttestation> {
        let s = sf();
        Some(CreateAccountAttestation {
            signer: tx.account_of(s.attestation_signer_account)?,
            public_key: tx.blob_of(s.public_key)?.to_vec(),
            signature: tx.blob_of(s.signature)?.to_vec(),
            sending_account: tx.account_of(s.other_chain_source)?,
            amount: tx.amount_of(s.amount)?,
            reward_amount: tx.amount_of(s.signature_reward)?,
            reward_account: tx.account_of(s.attestation_reward_account)?,
            was_locking: tx.u8_of(s.was_locking_chain_send)? != 0,
            create_count: tx.u64_of(s.xchain_account_create_count)?,
            to_create: tx.account_of(s.destination)?,
        })
    }

    /// `AttestationCreateAccount::message`: the canonical serialization of an object
    /// holding the attested facts (no hash prefix).
    pub fn message(&self, bridge: &XChainBridge) -> Vec<u8> {
        let s = sf();
        let mut o = StObject::new();
        o.set(
            s.xchain_account_create_count,
            StValue::UInt64(self.create_count),
        );
        o.set(s.amount, StValue::Amount(self.amount));
        o.set(s.signature_reward, StValue::Amount(self.reward_amount));
        o.set(s.destination, StValue::AccountId(self.to_create));
        o.set(
            s.other_chain_source,
            StValue::AccountId(self.sending_account),
        );
        o.set(
            s.attestation_reward_account,
            StValue::AccountId(self.reward_account),
        );
        o.set(
            s.was_locking_chain_send,
            StValue::UInt8(u8::from(self.was_locking)),
        );
        o.set(s.xchain_bridge, StValue::XChainBridge(*bridge));
        crate::protocol::codec::encode(&o)
    }

    /// `AttestationBase::verify`: the signature over [`Self::message`] by the key.
    pub fn verify(&self, bridge: &XChainBridge) -> bool {
        signed_by(&self.public_key, &self.message(bridge), &self.signature)
    }

    /// The stored form (`XChainCreateAccountAttestation::toSTObject`, an
    /// XChainCreateAccountProofSig).
    pub fn stored(&self) -> StObject {
        let s = sf();
        let mut o = StObject::new();
        o.set(
            s.attestation_signer_account,
            StValue::AccountId(self.signer),
        );
        o.set(s.public_key, StValue::Blob(self.public_key.clone()));
        o.set(s.amount, StValue::Amount(self.amount));
        o.set(s.signature_reward, StValue::Amount(self.reward_amount));
        o.set(
            s.attestation_reward_account,
            StValue::AccountId(self.reward_account),
        );
        o.set(
            s.was_locking_chain_send,
            StValue::UInt8(u8::from(self.was_locking)),
        );
        o.set(s.destination, StValue::AccountId(self.to_create));
        o
    }

    /// What the other attestations must agree on to count toward the quorum.
    fn match_fields(&self) -> MatchFields {
        MatchFields {
            amount: self.amount,
            was_locking: self.was_locking,
            dst: Some(Some(self.to_create)),
            reward: Some(self.reward_amount),
        }
    }
}

/// The chain the attested commit happened on.
fn src_chain(was_locking: bool) -> ChainType {
    if was_locking {
        ChainType::Locking
    } else {
        ChainType::Issuing
    }
}

fn legal_net(a: &Amount) -> bool {
    a.as_drops()
        .is_none_or(|d| d.unsigned_abs() <= 100_000_000_000_000_000)
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
        CreateAccountAttestation::from_tx(tx),
        tx.get_xchain_bridge("XChainBridge"),
    ) else {
        return Ter::temMALFORMED;
    };
    if !att.verify(&bridge) || !legal_net(&att.amount) || !legal_net(&att.reward_amount) {
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
        CreateAccountAttestation::from_tx(tx),
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

/// What `applyCreateAccountAttestations` works on.
struct Apply<'a> {
    spec: &'a XChainBridge,
    bridge_key: Hash256,
    door: AccountId,
    src: ChainType,
    signers: &'a [(AccountId, u32)],
    quorum: u32,
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let (Some(att), Some(spec)) = (
        CreateAccountAttestation::from_tx(ctx.tx),
        ctx.tx.get_xchain_bridge("XChainBridge"),
    ) else {
        return Err(Ter::tecINTERNAL);
    };
    let Some((bridge_key, bridge)) = read_bridge(&ctx.sb, &spec) else {
        return Err(Ter::tecNO_ENTRY);
    };
    let (Some(this), Some(door)) = (this_chain(&bridge, &spec), bridge.account_of(s.account))
    else {
        return Err(Ter::tecINTERNAL);
    };
    let (signers, quorum) = signers_and_quorum(&ctx.sb, &bridge)?;
    let a = Apply {
        spec: &spec,
        bridge_key,
        door,
        src: this.other(),
        signers: &signers,
        quorum,
    };
    let mut psb = Sandbox::new_payment(&ctx.sb);
    apply_attestation(&mut psb, &a, &att)?;
    let (items, _) = psb.into_parts();
    ctx.sb.absorb(items);
    Ok(())
}

/// The bridge's XChainAccountClaimCount: the last create done.
fn claim_count(psb: &Sandbox, a: &Apply) -> Result<u64, Ter> {
    let bridge = psb.peek(&a.bridge_key).ok_or(Ter::tecINTERNAL)?;
    Ok(bridge.u64_of(sf().xchain_account_claim_count).unwrap_or(0))
}

/// The attestations stored in a create-account claim ID.
fn stored_attestations(claim: &StObject) -> Vec<StObject> {
    match claim.get(sf().xchain_create_account_attestations) {
        Some(StValue::Array(items)) => items.iter().map(|(_, o)| o.clone()).collect(),
        _ => Vec::new(),
    }
}

fn attestations_value(atts: &[StObject]) -> StValue {
    let f = sf().xchain_create_account_proof_sig;
    StValue::Array(atts.iter().map(|o| (f, o.clone())).collect())
}

/// `applyCreateAccountAttestations` for one attestation.
fn apply_attestation(
    psb: &mut Sandbox,
    a: &Apply,
    att: &CreateAccountAttestation,
) -> Result<(), Ter> {
    let done = claim_count(psb, a)?;
    if att.create_count <= done {
        return Err(Ter::tecXCHAIN_ACCOUNT_CREATE_PAST);
    }
    if att.create_count >= done.saturating_add(XCHAIN_ACCOUNT_CREATES_PENDING_MAX) {
        return Err(Ter::tecXCHAIN_ACCOUNT_CREATE_TOO_MANY);
    }
    if src_chain(att.was_locking) != a.src {
        return Err(Ter::tecXCHAIN_WRONG_CHAIN);
    }
    let claim_key = keylet::xchain_create_account_claim_id(a.spec, att.create_count);
    let existing = psb.peek(&claim_key);
    if existing.is_none() {
        check_door_reserve(psb, &a.door).into_result()?;
    }
    if !a.signers.iter().any(|(w, _)| *w == att.signer) {
        return Err(Ter::tecXCHAIN_PROOF_UNKNOWN_KEY);
    }
    let mut atts = existing
        .as_ref()
        .map(stored_attestations)
        .unwrap_or_default();
    add_attestation(&mut atts, psb, a, att);
    let rewards = claim_helper(&mut atts, &*psb, &att.match_fields(), a.quorum, a.signers);
    if let Some(mut claim) = existing.clone() {
        claim.set(
            sf().xchain_create_account_attestations,
            attestations_value(&atts),
        );
        psb.update(claim_key, claim);
    }
    match rewards {
        Ok(rewards) if done + 1 == att.create_count => {
            create_account(psb, a, att, claim_key, rewards).into_result()
        }
        _ if existing.is_none() => insert_claim_id(psb, a, att, claim_key, &atts).into_result(),
        _ => Ok(()),
    }
}

/// The door can hold one more entry (`accountReserve(ownerCount + 1)`).
fn check_door_reserve(psb: &Sandbox, door: &AccountId) -> Ter {
    let Some(root) = psb.peek(&keylet::account(door)) else {
        return Ter::tecINTERNAL;
    };
    if balance_drops(&root) < psb.info().fees.reserve_of(&root, 1, 0) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    Ter::tesSUCCESS
}

/// `onNewAttestations`: the witness's attestation replaces its earlier one or joins the
/// list, if its key still signs for the door.
fn add_attestation(
    atts: &mut Vec<StObject>,
    view: &dyn ReadView,
    a: &Apply,
    att: &CreateAccountAttestation,
) {
    if check_attestation_key(view, a.signers, &att.signer, &att.public_key) != Ter::tesSUCCESS {
        return;
    }
    let signer = sf().attestation_signer_account;
    match atts
        .iter_mut()
        .find(|o| o.account_of(signer) == Some(att.signer))
    {
        Some(old) => *old = att.stored(),
        None => atts.push(att.stored()),
    }
}

/// The quorum is reached for the next create: the door pays the account and the
/// witnesses, the claim ID (if any) goes, and the bridge's claim count moves on, even
/// when the payment failed (the codes rippled keeps fail the transaction).
fn create_account(
    psb: &mut Sandbox,
    a: &Apply,
    att: &CreateAccountAttestation,
    claim_key: Hash256,
    rewards: Vec<AccountId>,
) -> Ter {
    let f = Finalize {
        bridge: a.spec,
        dst: att.to_create,
        dst_tag: None,
        claim_owner: a.door,
        sending_amount: att.amount,
        reward_src: a.door,
        reward_pool: att.reward_amount,
        reward_accounts: rewards,
        src_chain: a.src,
        claim_key,
        bypass_deposit_auth: false,
    };
    let ter = finalize_create_account(psb, &f);
    if ter == Ter::tecINTERNAL || ter == Ter::tecUNFUNDED_PAYMENT || ter.is_tef() {
        return ter;
    }
    let Some(mut bridge) = psb.peek(&a.bridge_key) else {
        return Ter::tecINTERNAL;
    };
    bridge.set(
        sf().xchain_account_claim_count,
        StValue::UInt64(att.create_count),
    );
    psb.update(a.bridge_key, bridge);
    Ter::tesSUCCESS
}

/// A create waiting for its quorum or for the earlier creates: a new claim ID the door
/// owns holds its attestations.
fn insert_claim_id(
    psb: &mut Sandbox,
    a: &Apply,
    att: &CreateAccountAttestation,
    key: Hash256,
    atts: &[StObject],
) -> Ter {
    let s = sf();
    let mut claim = with_threading(new_entry(lt::XCHAIN_OWNED_CREATE_ACCOUNT_CLAIM_ID));
    claim.set(s.account, StValue::AccountId(a.door));
    claim.set(s.xchain_bridge, StValue::XChainBridge(*a.spec));
    claim.set(
        s.xchain_account_create_count,
        StValue::UInt64(att.create_count),
    );
    claim.set(
        s.xchain_create_account_attestations,
        attestations_value(atts),
    );
    let Some(page) = insert_owned(psb, &a.door, key) else {
        return Ter::tecDIR_FULL;
    };
    claim.set(s.owner_node, StValue::UInt64(page));
    adjust_owner_count(psb, &a.door, 1);
    psb.insert(key, claim);
    Ter::tesSUCCESS
}
