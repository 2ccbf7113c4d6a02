//! Cross-chain bridge builders (XLS-38), shared by the XChain stories and the API test: an
//! XRP-to-XRP bridge, the bridge set on a transaction, XChainCreateBridge, and the two
//! witness attestations (an account create, a claim) signed over rippled's attestation
//! message.

use super::engine::{Account, Tx};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Issue};
use ledgerd::protocol::xchain::XChainBridge;

/// A bridge of XRP on both chains between the locking door `locking` and the issuing
/// door `issuing`.
pub fn xrp_bridge(locking: &AccountId, issuing: &AccountId) -> XChainBridge {
    XChainBridge {
        locking_door: *locking,
        locking_issue: Issue::XRP,
        issuing_door: *issuing,
        issuing_issue: Issue::XRP,
    }
}

/// `tx` with its `XChainBridge` set to `b`.
pub fn with_bridge(mut tx: Tx, b: &XChainBridge) -> Tx {
    tx.0.set_named("XChainBridge", StValue::XChainBridge(*b));
    tx
}

/// XChainCreateBridge of `b` with `reward` as its SignatureReward and, when given, a
/// MinAccountCreateAmount.
pub fn create_bridge(b: &XChainBridge, reward: Amount, min_create: Option<Amount>) -> Tx {
    let tx = with_bridge(
        Tx::new("XChainCreateBridge").amount("SignatureReward", reward),
        b,
    );
    match min_create {
        Some(m) => tx.amount("MinAccountCreateAmount", m),
        None => tx,
    }
}

/// A witness's attestation of an account create (`XChainAddAccountCreateAttestation`).
#[derive(Clone)]
pub struct CreateAttestation {
    pub bridge: XChainBridge,
    pub witness: Account,
    pub source: AccountId,
    pub amount: Amount,
    pub reward: Amount,
    pub reward_account: AccountId,
    pub was_locking: bool,
    pub count: u64,
    pub dst: AccountId,
}

impl CreateAttestation {
    /// What the witness signs (rippled's `AttestationCreateAccount` message).
    fn message(&self) -> Vec<u8> {
        let mut o = StObject::new();
        o.set_named("XChainAccountCreateCount", StValue::UInt64(self.count));
        o.set_named("Amount", StValue::Amount(self.amount));
        o.set_named("SignatureReward", StValue::Amount(self.reward));
        o.set_named("Destination", StValue::AccountId(self.dst));
        o.set_named("OtherChainSource", StValue::AccountId(self.source));
        o.set_named(
            "AttestationRewardAccount",
            StValue::AccountId(self.reward_account),
        );
        o.set_named(
            "WasLockingChainSend",
            StValue::UInt8(u8::from(self.was_locking)),
        );
        o.set_named("XChainBridge", StValue::XChainBridge(self.bridge));
        codec::encode(&o)
    }

    /// The attestation with its signature made by `key` (the witness's, or another).
    pub fn signed_by(&self, key: &Account) -> Tx {
        let sig = key.kp.sign(&self.message());
        let mut tx = with_bridge(Tx::new("XChainAddAccountCreateAttestation"), &self.bridge)
            .account("AttestationSignerAccount", &self.witness.id)
            .blob("PublicKey", key.kp.public.as_bytes())
            .blob("Signature", &sig)
            .account("OtherChainSource", &self.source)
            .amount("Amount", self.amount)
            .amount("SignatureReward", self.reward)
            .account("AttestationRewardAccount", &self.reward_account)
            .u8("WasLockingChainSend", u8::from(self.was_locking))
            .account("Destination", &self.dst);
        tx.0.set_named("XChainAccountCreateCount", StValue::UInt64(self.count));
        tx
    }

    /// The attestation signed by its witness.
    pub fn tx(&self) -> Tx {
        self.signed_by(&self.witness)
    }
}

/// A witness's attestation of a commit to a claim ID (`XChainAddClaimAttestation`).
pub struct ClaimAttestation<'a> {
    pub bridge: XChainBridge,
    pub witness: &'a Account,
    pub source: AccountId,
    pub amount: Amount,
    pub reward_account: AccountId,
    pub was_locking: bool,
    pub id: u64,
    pub dst: Option<AccountId>,
}

impl ClaimAttestation<'_> {
    /// What the witness signs (rippled's `AttestationClaim` message).
    fn message(&self) -> Vec<u8> {
        let mut o = StObject::new();
        o.set_named("XChainClaimID", StValue::UInt64(self.id));
        o.set_named("Amount", StValue::Amount(self.amount));
        if let Some(d) = self.dst {
            o.set_named("Destination", StValue::AccountId(d));
        }
        o.set_named("OtherChainSource", StValue::AccountId(self.source));
        o.set_named(
            "AttestationRewardAccount",
            StValue::AccountId(self.reward_account),
        );
        o.set_named(
            "WasLockingChainSend",
            StValue::UInt8(u8::from(self.was_locking)),
        );
        o.set_named("XChainBridge", StValue::XChainBridge(self.bridge));
        codec::encode(&o)
    }

    /// The attestation with its signature made by `key` (the witness's, or another).
    pub fn signed_by(&self, key: &Account) -> Tx {
        let sig = key.kp.sign(&self.message());
        let mut tx = with_bridge(Tx::new("XChainAddClaimAttestation"), &self.bridge)
            .account("AttestationSignerAccount", &self.witness.id)
            .blob("PublicKey", key.kp.public.as_bytes())
            .blob("Signature", &sig)
            .account("OtherChainSource", &self.source)
            .amount("Amount", self.amount)
            .account("AttestationRewardAccount", &self.reward_account)
            .u8("WasLockingChainSend", u8::from(self.was_locking));
        if let Some(d) = self.dst {
            tx = tx.account("Destination", &d);
        }
        tx.0.set_named("XChainClaimID", StValue::UInt64(self.id));
        tx
    }

    /// The attestation signed by its witness.
    pub fn tx(&self) -> Tx {
        self.signed_by(self.witness)
    }
}
