//! Sponsorship (XLS-68) builders for the engine stories, after rippled's jtx
//! `sponsor::as(acct, flags)`, `sig(sfSponsorSignature, acct)` and
//! `msig(sfSponsorSignature, {...})`: the three common fields, the sponsor's co-signature
//! (single or multi, over the same data the account signs), the three AccountRoot
//! counters, and a `Sponsorship` entry written straight into the ledger (until
//! SponsorshipSet builds them, the pre-funded stories need one).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::engine::{Account, Env, Tx};
use ledgerd::engine::transactor::Outcome;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::{ReadView, ViewInfo};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Hash256};

/// `tx` sponsored by `sponsor` with these SponsorFlags (jtx `sponsor::as`).
pub fn sponsored(tx: Tx, sponsor: &AccountId, flags: u32) -> Tx {
    tx.account("Sponsor", sponsor).u32("SponsorFlags", flags)
}

/// `tx.sponsor(&acct, flags)`: [`sponsored`] as a method of [`Tx`].
pub trait SponsorTx {
    /// The transaction sponsored by `sponsor` with these SponsorFlags.
    fn sponsor(self, sponsor: &Account, flags: u32) -> Tx;
}

impl SponsorTx for Tx {
    fn sponsor(self, sponsor: &Account, flags: u32) -> Tx {
        sponsored(self, &sponsor.id, flags)
    }
}

/// How the sponsor signs.
pub enum SponsorSig<'a> {
    /// No SponsorSignature (pre-funded).
    None,
    /// A single signature by this key.
    Single(&'a KeyPair),
    /// Signers (account, key), sorted here.
    Multi(&'a [(&'a Account, &'a KeyPair)]),
}

/// Adds the sponsor's co-signature to `o` (its SigningPubKey already set): over the
/// signing data behind the sponsor's own prefix (`SPN\0`) for a single signature, the
/// multi-signing data behind `SPM\0` per signer for Signers, as fixCleanup3_4_0 (in
/// ledgerd's own rule book) asks and the client libraries sign.
pub fn cosign(o: &mut StObject, how: &SponsorSig) {
    let s = sf();
    let mut sig = StObject::new();
    match how {
        SponsorSig::None => return,
        SponsorSig::Single(kp) => {
            sig.set(
                s.signing_pub_key,
                StValue::Blob(kp.public.as_bytes().to_vec()),
            );
            let [_, data] = ledgerd::protocol::tx::sponsor_signing_data(o, None);
            sig.set(s.txn_signature, StValue::Blob(kp.sign(&data)));
        }
        SponsorSig::Multi(signers) => {
            sig.set(s.signing_pub_key, StValue::Blob(Vec::new()));
            let mut sorted: Vec<_> = signers.to_vec();
            sorted.sort_by_key(|(a, _)| a.id);
            let list = sorted
                .iter()
                .map(|(a, kp)| {
                    let [_, data] = ledgerd::protocol::tx::sponsor_signing_data(o, Some(&a.id));
                    let mut signer = StObject::new();
                    signer.set(s.account, StValue::AccountId(a.id));
                    signer.set(
                        s.signing_pub_key,
                        StValue::Blob(kp.public.as_bytes().to_vec()),
                    );
                    signer.set(s.txn_signature, StValue::Blob(kp.sign(&data)));
                    (Field::named("Signer"), signer)
                })
                .collect();
            sig.set(s.signers, StValue::Array(list));
        }
    }
    o.set(s.sponsor_signature, StValue::Object(sig));
}

/// `who` signs `tx` (Fee `fee` drops unless set), the sponsor co-signs as `how` says;
/// the binary round trip, then the ledger applies it.
pub fn submit_sponsored(env: &mut Env, who: &Account, tx: Tx, fee: i64, how: SponsorSig) -> Ter {
    let mut o = tx.signed(&who.id, env.seq(who), fee, &who.kp);
    cosign(&mut o, &how);
    apply_object(env, o)
}

/// Applies a finished transaction through its binary form.
pub fn apply_object(env: &mut Env, o: StObject) -> Ter {
    let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
    assert_eq!(decoded, o, "binary round trip");
    let r = env.store.apply(&decoded);
    env.last_meta = r.entry.as_ref().map(|e| e.meta());
    env.last_id = Some(r.id);
    r.ter
}

fn counter(env: &Env, who: &Account, f: Field) -> Option<u32> {
    env.root(who).and_then(|r| r.u32_of(f))
}

/// `who`'s SponsoredOwnerCount (None: absent).
pub fn sponsored_count(env: &Env, who: &Account) -> Option<u32> {
    counter(env, who, sf().sponsored_owner_count)
}

/// `who`'s SponsoringOwnerCount (None: absent).
pub fn sponsoring_count(env: &Env, who: &Account) -> Option<u32> {
    counter(env, who, sf().sponsoring_owner_count)
}

/// `who`'s SponsoringAccountCount (None: absent).
pub fn sponsoring_accounts(env: &Env, who: &Account) -> Option<u32> {
    counter(env, who, sf().sponsoring_account_count)
}

/// What a `Sponsorship` entry holds (plan 1.3): None leaves a field out.
#[derive(Default, Clone, Copy)]
pub struct Prefund {
    pub fee_amount: Option<i64>,
    pub max_fee: Option<i64>,
    pub remaining_owner_count: Option<u32>,
    pub flags: u32,
}

/// The `Sponsorship(sponsor, sponsee)` entry, if any.
pub fn sponsorship(env: &Env, sponsor: &Account, sponsee: &Account) -> Option<Arc<StObject>> {
    env.read(&keylet::sponsorship(&sponsor.id, &sponsee.id))
}

/// Its FeeAmount in drops (None: absent).
pub fn fee_amount(env: &Env, sponsor: &Account, sponsee: &Account) -> Option<i64> {
    sponsorship(env, sponsor, sponsee)
        .and_then(|e| e.amount_of(sf().fee_amount))
        .and_then(|a| a.as_drops())
}

/// A `Sponsorship(sponsor, sponsee)` entry with these fields, and its key. It is not
/// linked into the owner directories and counts toward no OwnerCount: only what the fee
/// and signature checks read is there.
pub fn sponsorship_entry(sponsor: &Account, sponsee: &Account, p: Prefund) -> (Hash256, StObject) {
    let s = sf();
    let mut e = StObject::new();
    e.set(
        s.ledger_entry_type,
        StValue::UInt16(ledgerd::ledger::flags::lt::SPONSORSHIP),
    );
    e.set(s.flags, StValue::UInt32(p.flags));
    e.set(s.owner, StValue::AccountId(sponsor.id));
    e.set(s.sponsee, StValue::AccountId(sponsee.id));
    if let Some(d) = p.fee_amount {
        e.set(s.fee_amount, StValue::Amount(Amount::Xrp(d)));
    }
    if let Some(d) = p.max_fee {
        e.set(s.max_fee, StValue::Amount(Amount::Xrp(d)));
    }
    if let Some(n) = p.remaining_owner_count {
        e.set(s.remaining_owner_count, StValue::UInt32(n));
    }
    e.set(s.owner_node, StValue::UInt64(0));
    e.set(s.sponsee_node, StValue::UInt64(0));
    e.set(s.previous_txn_id, StValue::Hash256(Hash256::ZERO));
    e.set(s.previous_txn_lgr_seq, StValue::UInt32(0));
    (keylet::sponsorship(&sponsor.id, &sponsee.id), e)
}

/// The open ledger with extra entries laid over it (until SponsorshipSet writes
/// Sponsorship entries, the pre-funded stories read theirs from here), open or taken as
/// a closed ledger (rippled's `!view.open()` paths).
pub struct Overlay<'a> {
    base: &'a dyn ReadView,
    extra: BTreeMap<Hash256, Arc<StObject>>,
    info: ViewInfo,
}

impl<'a> Overlay<'a> {
    /// `base` with `extra` over it; `open` as the view reports it.
    pub fn new(base: &'a dyn ReadView, extra: Vec<(Hash256, StObject)>, open: bool) -> Overlay<'a> {
        let mut info = *base.info();
        info.open = open;
        Overlay {
            base,
            extra: extra.into_iter().map(|(k, v)| (k, Arc::new(v))).collect(),
            info,
        }
    }

    /// Applies `tx` (through its binary form) as the engine does, under `env`'s apply
    /// configuration; the result and its writes (not kept anywhere).
    pub fn apply(&self, env: &Env, tx: &StObject) -> Outcome {
        let decoded = codec::decode(&codec::encode(tx)).expect("decodes");
        let id = ledgerd::protocol::tx::transaction_id_of(&decoded);
        let cfg = env.store.config().apply.clone();
        ledgerd::engine::transactor::apply_transaction(self, &decoded, &id, 0, &cfg)
    }
}

impl ReadView for Overlay<'_> {
    fn read(&self, key: &Hash256) -> Option<Arc<StObject>> {
        self.extra.get(key).cloned().or_else(|| self.base.read(key))
    }
    fn info(&self) -> &ViewInfo {
        &self.info
    }
    fn succ(&self, from: &Hash256, end: &Hash256) -> Option<Hash256> {
        self.base.succ(from, end)
    }
}

/// What `outcome` wrote at `key`: None when it did not touch it, Some(None) when it
/// erased it.
pub fn written(outcome: &Outcome, key: &Hash256) -> Option<Option<Arc<StObject>>> {
    outcome
        .writes
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
}

/// An account's balance after `outcome` (from its writes, else `env`'s ledger).
pub fn balance_after(env: &Env, outcome: &Outcome, who: &Account) -> i64 {
    match written(outcome, &keylet::account(&who.id)) {
        Some(Some(root)) => root.drops_of(sf().balance),
        Some(None) => 0,
        None => env.balance(who),
    }
}
