//! What the XChain types share, after rippled's `XChainBridge.cpp` helpers and
//! `XChainAttestations.cpp`: finding a bridge from its spec (`readBridge`), the door's
//! signer list and quorum, the witnesses' keys (`checkAttestationPublicKey`), claim
//! attestations (the signed message, the stored form, matching, quorum), moving funds
//! (`transferHelper`) and finishing a claim (`finalizeClaimHelper`).

pub mod xchain_account_create_commit;
pub mod xchain_add_account_create_attestation;
pub mod xchain_add_claim_attestation;
pub mod xchain_claim;
pub mod xchain_commit;
pub mod xchain_create_bridge;
pub mod xchain_create_claim_id;
pub mod xchain_modify_bridge;

use super::directory::remove_owned;
use super::entry::{adjust_owner_count, balance_drops, credit_drops, new_account_root};
use super::flow::{flow, Crossing, FlowRequest};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::keys::PublicKey;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};
use crate::protocol::xchain::{ChainType, XChainBridge};

/// Account creates a bridge may have waiting beyond the last one done: an attestation for
/// create count `XChainAccountClaimCount + this` or later is refused (rippled
/// `xbridgeMaxAccountCreateClaims`).
pub const XCHAIN_ACCOUNT_CREATES_PENDING_MAX: u64 = 128;

/// The Bridge entry of `spec` on this ledger (either end), with its key: it must hold
/// exactly this spec.
pub fn read_bridge(view: &dyn ReadView, spec: &XChainBridge) -> Option<(Hash256, StObject)> {
    [ChainType::Locking, ChainType::Issuing]
        .into_iter()
        .find_map(|chain| {
            let key = keylet::bridge(spec, chain);
            let e = view.read(&key)?;
            (e.get_xchain_bridge("XChainBridge") == Some(*spec)).then(|| (key, (*e).clone()))
        })
}

/// The chain a Bridge entry's door is on (this chain): `None` when its owner is neither
/// door (rippled's tecINTERNAL).
pub fn this_chain(entry: &StObject, spec: &XChainBridge) -> Option<ChainType> {
    let door = entry.account_of(sf().account)?;
    if door == spec.locking_door {
        Some(ChainType::Locking)
    } else if door == spec.issuing_door {
        Some(ChainType::Issuing)
    } else {
        None
    }
}

/// The door's signers with their weights, and the quorum (`getSignersListAndQuorum`).
pub fn signers_and_quorum(
    view: &dyn ReadView,
    bridge: &StObject,
) -> Result<(Vec<(AccountId, u32)>, u32), Ter> {
    let door = bridge.account_of(sf().account).ok_or(Ter::tecINTERNAL)?;
    if view.read(&keylet::account(&door)).is_none() {
        return Err(Ter::tecINTERNAL);
    }
    let list = view
        .read(&keylet::signers(&door))
        .ok_or(Ter::tecXCHAIN_NO_SIGNERS_LIST)?;
    let quorum = list.u32_of(sf().signer_quorum).unwrap_or(u32::MAX);
    let entries = super::account::signer_entries(&list).map_err(|_| Ter::tecINTERNAL)?;
    let signers = entries
        .iter()
        .map(|e| (e.account, u32::from(e.weight)))
        .collect();
    Ok((signers, quorum))
}

fn weight_of(signers: &[(AccountId, u32)], who: &AccountId) -> Option<u32> {
    signers.iter().find(|(a, _)| a == who).map(|(_, w)| *w)
}

/// `checkAttestationPublicKey`: the signer is on the list, and the key is its enabled
/// master key or its regular key (or, for an account not on this ledger, its own key).
pub fn check_attestation_key(
    view: &dyn ReadView,
    signers: &[(AccountId, u32)],
    signer: &AccountId,
    public_key: &[u8],
) -> Ter {
    if weight_of(signers, signer).is_none() {
        return Ter::tecNO_PERMISSION;
    }
    let from_key = AccountId::from_public_key(public_key);
    let ok = match view.read(&keylet::account(signer)) {
        Some(root) if from_key == *signer => !root.is_flag(lsf::DISABLE_MASTER),
        Some(root) => root.account_of(sf().regular_key) == Some(from_key),
        None => from_key == *signer,
    };
    if ok {
        Ter::tesSUCCESS
    } else {
        Ter::tecXCHAIN_BAD_PUBLIC_KEY_ACCOUNT_PAIR
    }
}

/// A witness's claim attestation as an XChainAddClaimAttestation carries it
/// (`Attestations::AttestationClaim`).
#[derive(Debug, Clone)]
pub struct ClaimAttestation {
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
    /// AttestationRewardAccount.
    pub reward_account: AccountId,
    /// WasLockingChainSend.
    pub was_locking: bool,
    /// XChainClaimID.
    pub claim_id: u64,
    /// Destination, when the funds should move as soon as the quorum is reached.
    pub dst: Option<AccountId>,
}

impl ClaimAttestation {
    /// Reads the attestation fields of `tx`; `None` when one is missing.
    pub fn from_tx(tx: &StObject) -> Option<ClaimAttestation> {
        let s = sf();
        Some(ClaimAttestation {
            signer: tx.account_of(s.attestation_signer_account)?,
            public_key: tx.blob_of(s.public_key)?.to_vec(),
            signature: tx.blob_of(s.signature)?.to_vec(),
            sending_account: tx.account_of(s.other_chain_source)?,
            amount: tx.amount_of(s.amount)?,
            reward_account: tx.account_of(s.attestation_reward_account)?,
            was_locking: tx.u8_of(s.was_locking_chain_send)? != 0,
            claim_id: tx.u64_of(s.xchain_claim_id)?,
            dst: tx.account_of(s.destination),
        })
    }

    /// `AttestationClaim::message`: the canonical serialization of an object holding
    /// the attested facts (no hash prefix).
    pub fn message(&self, bridge: &XChainBridge) -> Vec<u8> {
        let s = sf();
        let mut o = StObject::new();
        o.set(s.xchain_claim_id, StValue::UInt64(self.claim_id));
        o.set(s.amount, StValue::Amount(self.amount));
        if let Some(d) = self.dst {
            o.set(s.destination, StValue::AccountId(d));
        }
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

    /// The stored form (`XChainClaimAttestation::toSTObject`, an XChainClaimProofSig).
    pub fn stored(&self) -> StObject {
        let s = sf();
        let mut o = StObject::new();
        o.set(
            s.attestation_signer_account,
            StValue::AccountId(self.signer),
        );
        o.set(s.public_key, StValue::Blob(self.public_key.clone()));
        o.set(s.amount, StValue::Amount(self.amount));
        o.set(
            s.attestation_reward_account,
            StValue::AccountId(self.reward_account),
        );
        o.set(
            s.was_locking_chain_send,
            StValue::UInt8(u8::from(self.was_locking)),
        );
        if let Some(d) = self.dst {
            o.set(s.destination, StValue::AccountId(d));
        }
        o
    }
}

/// `AttestationBase::verify`'s check, shared by both attestation kinds: `signature` over
/// `message` by the (possibly malformed) `public_key`.
pub fn signed_by(public_key: &[u8], message: &[u8], signature: &[u8]) -> bool {
    let Ok(pk) = PublicKey::from_slice_lenient(public_key) else {
        return false;
    };
    crate::protocol::sign::verify(&pk, message, signature, true)
}

/// What the attestations must agree on (`XChainClaimAttestation::MatchFields`).
pub struct MatchFields {
    /// The amount committed.
    pub amount: Amount,
    /// Whether it was committed on the locking chain.
    pub was_locking: bool,
    /// The destination; checked only when `Some` is asked for.
    pub dst: Option<Option<AccountId>>,
    /// The reward an account create attestation names; `None` for claim attestations.
    pub reward: Option<Amount>,
}

fn matches(stored: &StObject, m: &MatchFields) -> bool {
    let s = sf();
    if stored.amount_of(s.amount) != Some(m.amount)
        || (stored.u8_of(s.was_locking_chain_send).unwrap_or(0) != 0) != m.was_locking
    {
        return false;
    }
    if m.reward.is_some() && stored.amount_of(s.signature_reward) != m.reward {
        return false;
    }
    match m.dst {
        Some(d) => stored.account_of(s.destination) == d,
        None => true,
    }
}

/// The attestations of a claim ID (`XChainClaimAttestations`).
pub fn stored_attestations(claim: &StObject) -> Vec<StObject> {
    match claim.get(sf().xchain_claim_attestations) {
        Some(StValue::Array(items)) => items.iter().map(|(_, o)| o.clone()).collect(),
        _ => Vec::new(),
    }
}

/// The array form of `atts`.
pub fn attestations_value(atts: &[StObject]) -> StValue {
    let f = sf().xchain_claim_proof_sig;
    StValue::Array(atts.iter().map(|o| (f, o.clone())).collect())
}

/// `claimHelper`: drops attestations whose key no longer signs for the door, then sums
/// the weights of those matching `m`; the reward accounts when the quorum is reached.
pub fn claim_helper(
    atts: &mut Vec<StObject>,
    view: &dyn ReadView,
    m: &MatchFields,
    quorum: u32,
    signers: &[(AccountId, u32)],
) -> Result<Vec<AccountId>, Ter> {
    let s = sf();
    atts.retain(|a| {
        let signer = a
            .account_of(s.attestation_signer_account)
            .unwrap_or_default();
        let pk = a.blob_of(s.public_key).unwrap_or_default();
        check_attestation_key(view, signers, &signer, pk) == Ter::tesSUCCESS
    });
    let mut weight: u64 = 0;
    let mut rewards = Vec::new();
    for a in atts.iter().filter(|a| matches(a, m)) {
        let signer = a
            .account_of(s.attestation_signer_account)
            .unwrap_or_default();
        weight += u64::from(weight_of(signers, &signer).unwrap_or(0));
        rewards.push(
            a.account_of(s.attestation_reward_account)
                .unwrap_or_default(),
        );
    }
    if weight >= u64::from(quorum) {
        Ok(rewards)
    } else {
        Err(Ter::tecXCHAIN_CLAIM_NO_QUORUM)
    }
}

/// How a transfer treats its destination.
#[derive(Clone, Copy)]
pub struct TransferPolicy {
    /// An XRP transfer may create the destination account.
    pub can_create: bool,
    /// The destination is the claim owner claiming to itself: deposit auth is bypassed.
    pub bypass_deposit_auth: bool,
    /// The submitter's balance before and after the fee: it may spend its pre-fee
    /// balance (a commit's fee may dip into the reserve).
    pub submitter: Option<(AccountId, i64, i64)>,
}

/// `transferHelper`: `amount` from `src` to `dst`, XRP directly (keeping `src`'s
/// reserve), an IOU through the default path with the sender paying transfer fees.
pub fn transfer(
    sb: &mut Sandbox,
    src: &AccountId,
    dst: &AccountId,
    dst_tag: Option<u32>,
    amount: &Amount,
    policy: TransferPolicy,
) -> Ter {
    if dst == src {
        return Ter::tesSUCCESS;
    }
    if let Some(root) = sb.read(&keylet::account(dst)) {
        if root.is_flag(lsf::REQUIRE_DEST_TAG) && dst_tag.is_none() {
            return Ter::tecDST_TAG_NEEDED;
        }
        if !policy.bypass_deposit_auth
            && root.is_flag(lsf::DEPOSIT_AUTH)
            && !sb.exists(&keylet::deposit_preauth(dst, src))
        {
            return Ter::tecNO_PERMISSION;
        }
    } else if !amount.is_xrp() || !policy.can_create {
        return Ter::tecNO_DST;
    }
    match amount.as_drops() {
        Some(drops) => transfer_xrp(sb, src, dst, drops, policy),
        None => transfer_iou(sb, src, dst, amount),
    }
}

fn transfer_xrp(
    sb: &mut Sandbox,
    src: &AccountId,
    dst: &AccountId,
    drops: i64,
    policy: TransferPolicy,
) -> Ter {
    let Some(src_root) = sb.read(&keylet::account(src)) else {
        return Ter::tecINTERNAL;
    };
    let reserve = sb.info().fees.reserve_of(&src_root, 0, 0);
    let balance = balance_drops(&src_root);
    let available = match policy.submitter {
        Some((who, pre, post)) if who == *src && post == balance => pre,
        _ => balance,
    };
    if available < drops.saturating_add(reserve) {
        return Ter::tecUNFUNDED_PAYMENT;
    }
    let dst_key = keylet::account(dst);
    if !sb.exists(&dst_key) {
        if !policy.can_create {
            return Ter::tecNO_DST;
        }
        if drops < sb.info().fees.account_reserve(0) {
            return Ter::tecNO_DST_INSUF_XRP;
        }
        let seq = sb.info().seq;
        sb.insert(dst_key, new_account_root(dst, 0, seq));
    }
    credit_drops(sb, src, -drops);
    credit_drops(sb, dst, drops);
    Ter::tesSUCCESS
}

fn transfer_iou(sb: &mut Sandbox, src: &AccountId, dst: &AccountId, amount: &Amount) -> Ter {
    let req = FlowRequest {
        src: *src,
        dst: *dst,
        deliver: *amount,
        send_max: None,
        paths: &[],
        default_path: true,
        partial: false,
        owner_pays_fee: true,
        crossing: Crossing::No,
        limit_quality: None,
        domain: None,
    };
    let out = flow(sb, &req);
    // What flow() threw escapes rippled's transfer helper uncaught.
    if out.ter.is_tes() || out.ter.is_tec() || out.ter.is_ter() || out.ter == Ter::tefEXCEPTION {
        out.ter
    } else {
        Ter::tecXCHAIN_PAYMENT_FAILED
    }
}

/// What a claim moves (`finalizeClaimHelper`'s arguments).
pub struct Finalize<'a> {
    /// The bridge.
    pub bridge: &'a XChainBridge,
    /// Who receives the funds on this chain.
    pub dst: AccountId,
    /// Its destination tag.
    pub dst_tag: Option<u32>,
    /// The claim ID's owner.
    pub claim_owner: AccountId,
    /// What was committed on the other chain.
    pub sending_amount: Amount,
    /// Who pays the reward pool.
    pub reward_src: AccountId,
    /// The reward pool.
    pub reward_pool: Amount,
    /// The witnesses' reward accounts.
    pub reward_accounts: Vec<AccountId>,
    /// The chain the commit happened on.
    pub src_chain: ChainType,
    /// The claim ID entry, deleted on success.
    pub claim_key: Hash256,
    /// Deposit auth is bypassed when the destination is the claim owner (XChainClaim).
    pub bypass_deposit_auth: bool,
}

/// The amount on this chain: the sending amount with this chain's issue.
fn this_chain_amount(f: &Finalize) -> Amount {
    let issue = f.bridge.issue(f.src_chain.other());
    match f.sending_amount {
        Amount::Iou { value, .. } => Amount::iou(value, issue.currency, issue.issuer),
        x => x,
    }
}

/// `finalizeClaimHelper` with `OnTransferFail::keepClaim`: pays the destination from
/// this chain's door and the rewards from the reward source, both or neither, then
/// deletes the claim ID. The first failing code otherwise.
pub fn finalize_claim(outer: &mut Sandbox, f: &Finalize) -> Ter {
    let door = f.bridge.door(f.src_chain.other());
    let amount = this_chain_amount(f);
    let mut inner = Sandbox::new_payment(&*outer);
    let policy = TransferPolicy {
        can_create: true,
        bypass_deposit_auth: f.bypass_deposit_auth && f.dst == f.claim_owner,
        submitter: None,
    };
    let main = transfer(&mut inner, &door, &f.dst, f.dst_tag, &amount, policy);
    if !main.is_tes() {
        return main;
    }
    let reward = distribute_rewards(&mut inner, f);
    if !reward.is_tes() {
        return reward;
    }
    let (items, credits) = inner.into_parts();
    outer.absorb_payment(items, credits);
    delete_claim_id(outer, &f.claim_key)
}

/// Shares the reward pool among the reward accounts; a share that cannot be paid (a
/// missing account, deposit auth) stays with the payer. rippled's `divide` of the pool
/// by the count rounds in the current Number mode: down with fixXChainRewardRounding,
/// else to nearest (its `+ 5` guard digit sends a half up), so without the fix the
/// shares may add up to more than the pool.
fn distribute_rewards(sb: &mut Sandbox, f: &Finalize) -> Ter {
    if f.reward_accounts.is_empty() {
        return Ter::tesSUCCESS;
    }
    let pool = f.reward_pool.as_drops().unwrap_or(0);
    let n = f.reward_accounts.len() as i64;
    let share = if sb.info().rules.enabled(Feature::FixXChainRewardRounding) {
        pool / n
    } else {
        (2 * pool + n) / (2 * n)
    };
    let share = Amount::Xrp(share);
    let policy = TransferPolicy {
        can_create: false,
        bypass_deposit_auth: false,
        submitter: None,
    };
    for to in &f.reward_accounts {
        let ter = transfer(sb, &f.reward_src, to, None, &share, policy);
        if ter == Ter::tecUNFUNDED_PAYMENT || ter == Ter::tecINTERNAL {
            return ter;
        }
    }
    Ter::tesSUCCESS
}

/// Removes a claim ID from its owner's directory and the ledger.
pub fn delete_claim_id(sb: &mut Sandbox, key: &Hash256) -> Ter {
    let Some(claim) = sb.peek(key) else {
        return Ter::tesSUCCESS;
    };
    let s = sf();
    let owner = claim.account_of(s.account).unwrap_or_default();
    let page = claim.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, page, key, true) {
        return Ter::tefBAD_LEDGER;
    }
    sb.erase(*key);
    adjust_owner_count(sb, &owner, -1);
    Ter::tesSUCCESS
}

/// `finalizeClaimHelper` with `OnTransferFail::removeClaim`, for account creates: a
/// failed payment to the new account still pays the witnesses and removes the claim ID
/// (so it blocks none of the creates after it); a failed reward payment after a good
/// payment rolls that payment back. The code `FinalizeClaimHelperResult::ter` picks.
pub fn finalize_create_account(outer: &mut Sandbox, f: &Finalize) -> Ter {
    let door = f.bridge.door(f.src_chain.other());
    let amount = this_chain_amount(f);
    let mut inner = Sandbox::new_payment(&*outer);
    let policy = TransferPolicy {
        can_create: true,
        bypass_deposit_auth: false,
        submitter: None,
    };
    let main = transfer(&mut inner, &door, &f.dst, f.dst_tag, &amount, policy);
    let reward = distribute_rewards(&mut inner, f);
    if reward == Ter::tecINTERNAL {
        return first_failure(&[main, reward]);
    }
    let (items, credits) = inner.into_parts();
    if !main.is_tes() || reward.is_tes() {
        outer.absorb_payment(items, credits);
    }
    let removed = delete_claim_id(outer, &f.claim_key);
    first_failure(&[main, reward, removed])
}

/// The first tef or tecINTERNAL of `ters`, else the first that is not tesSUCCESS.
fn first_failure(ters: &[Ter]) -> Ter {
    ters.iter()
        .find(|t| t.is_tef() || **t == Ter::tecINTERNAL)
        .or_else(|| ters.iter().find(|t| !t.is_tes()))
        .copied()
        .unwrap_or(Ter::tesSUCCESS)
}

/// Whether `a` is in `bridge`'s issue on either chain.
pub fn on_bridge(bridge: &XChainBridge, a: &Amount) -> bool {
    a.issue() == bridge.locking_issue || a.issue() == bridge.issuing_issue
}

/// A positive XRP amount.
pub fn is_positive_xrp(a: &Amount) -> bool {
    matches!(a, Amount::Xrp(d) if *d > 0)
}

/// The chain whose door `account` is (`STXChainBridge::srcChain`): locking when it is
/// the locking door, else issuing.
pub fn own_chain(bridge: &XChainBridge, account: &AccountId) -> ChainType {
    if *account == bridge.locking_door {
        ChainType::Locking
    } else {
        ChainType::Issuing
    }
}
