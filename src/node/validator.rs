//! This server as the one validator of its network: after each close it signs a
//! validation of the new ledger as rippled's `RCLConsensus::Adaptor::validate` does, and
//! the publisher sends it on the `validations` stream.
//!
//! The key is the secp256k1 root key of `[validation_seed]` when the xrpld configuration
//! gives one (`validation_create`'s derivation), else one drawn at start and kept in
//! memory only. The secret zeroizes on drop and is never logged or printed.

use crate::ledger::fees::Fees;
use crate::ledgers::ClosedLedger;
use crate::protocol::amount::Amount;
use crate::protocol::features::{Feature, FeatureSet};
use crate::protocol::keys::{KeyPair, PublicKey};
use crate::protocol::seed::Seed;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::Hash256;
use crate::protocol::validation::{self, ValidationError, VF_FULL_VALIDATION};
use parking_lot::Mutex;
use rand::Rng;

/// The amendments this server votes for (supported, not vetoed), read at each flag
/// ledger: the RPC layer's vote book, which an admin changes with `feature`.
pub type VoteSource = Box<dyn Fn() -> FeatureSet + Send + Sync>;

/// A flag ledger comes every 256 ledgers; the ledger before one carries the votes.
const FLAG_LEDGER_INTERVAL: u32 = 256;

/// The validator: its keys, its cookie and the last signing time.
pub struct Validator {
    keys: KeyPair,
    /// rippled's `valCookie_`: a random non-zero number drawn at start, in every
    /// validation (it tells a restarted validator from a second one with the same key).
    cookie: u64,
    /// The last signing time, seconds since the XRPL epoch: each validation's is later.
    last_signing_time: Mutex<u32>,
    /// The fees this server votes for (`[voting]`).
    fee_target: Fees,
    /// The amendments this server votes for.
    votes: VoteSource,
    /// The encoded version reported on flag ledgers (`sfServerVersion`).
    server_version: u64,
    /// Whether the operator gave the key (`[validation_seed]`), not drawn at start.
    configured: bool,
}

impl Validator {
    /// A validator signing with `keys` (secp256k1), voting for `fee_target` and the
    /// amendments `votes` returns, reporting `version` (an xrpld release, `3.4.1`).
    pub fn new(
        keys: KeyPair,
        fee_target: Fees,
        votes: VoteSource,
        version: &str,
    ) -> Result<Validator, ValidationError> {
        if keys.key_type != crate::protocol::keys::KeyType::Secp256k1 {
            return Err(ValidationError::KeyType);
        }
        Ok(Validator {
            keys,
            cookie: rand::rngs::OsRng.gen_range(1..=u64::MAX),
            last_signing_time: Mutex::new(0),
            fee_target,
            votes,
            server_version: validation::encoded_version(version),
            configured: false,
        })
    }

    /// The same validator, its key given by the operator (`[validation_seed]`).
    pub fn configured(self) -> Validator {
        Validator {
            configured: true,
            ..self
        }
    }

    /// The key `server_info` reports as `pubkey_validator`: a configured one only, as
    /// xrpld reports `none` without validator keys (a drawn key still signs the
    /// `validations` stream and is what `validator_info` names).
    pub fn reported_key(&self) -> Option<&PublicKey> {
        self.configured.then_some(&self.keys.public)
    }

    /// A key drawn now (`validation_create` without a secret); None only if the draw
    /// fails, with probability about 2^-120.
    pub fn random_keys() -> Option<KeyPair> {
        KeyPair::node_from_seed(&Seed::random()).ok()
    }

    /// The validation public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.keys.public
    }

    /// The next signing time: `now`, or one second after the last one if that is not
    /// earlier (rippled's `lastValidationTime_`).
    fn signing_time(&self, now: u32) -> u32 {
        let mut last = self.last_signing_time.lock();
        *last = now.max(last.saturating_add(1));
        *last
    }

    /// The validation of `closed`, signed at `now` (seconds since the XRPL epoch):
    /// full, attesting `validated` as the last fully validated ledger, and on the ledger
    /// before a flag ledger the server version, the fee votes and the amendment votes.
    pub fn validate(
        &self,
        closed: &ClosedLedger,
        validated: Option<Hash256>,
        now: u32,
    ) -> Result<StObject, ValidationError> {
        let header = &closed.header;
        let voting = header
            .seq
            .wrapping_add(1)
            .is_multiple_of(FLAG_LEDGER_INTERVAL);
        validation::sign(&self.keys, self.signing_time(now), |v| {
            v.set_named("LedgerHash", StValue::Hash256(header.hash));
            v.set_named("ConsensusHash", StValue::Hash256(consensus_hash(closed)));
            v.set_named("LedgerSequence", StValue::UInt32(header.seq));
            // One validator: it proposed in every round, so every validation is full.
            v.set_named("Flags", StValue::UInt32(VF_FULL_VALIDATION));
            if let Some(h) = validated {
                v.set_named("ValidatedHash", StValue::Hash256(h));
            }
            v.set_named("Cookie", StValue::UInt64(self.cookie));
            if voting {
                v.set_named("ServerVersion", StValue::UInt64(self.server_version));
                fee_votes(&closed.fees, &self.fee_target, closed, v);
                let mut up = (self.votes)();
                for f in closed.rules.recorded().iter() {
                    up.remove(f);
                }
                if !up.is_empty() {
                    v.set_named("Amendments", StValue::Vector256(up.sorted_ids()));
                }
            }
        })
    }
}

/// The hash of the round's agreed transaction set (`sfConsensusHash`): a SHAMap of the
/// ledger's transactions without metadata, each leaf hashing to the transaction's id
/// (`SHA512Half(TXN\0 || tx)`); zero for an empty set.
pub fn consensus_hash(closed: &ClosedLedger) -> Hash256 {
    let mut set = crate::ledger::shamap::ShaMap::new();
    for entry in &closed.txs {
        set.insert(entry.id, entry.id);
    }
    set.hash()
}

/// rippled's `FeeVote::doValidation`: a vote for each fee of `target` that differs from
/// `current`, in the XRPFees fields when that amendment applies, else in the legacy ones
/// (not sent when out of their range).
fn fee_votes(current: &Fees, target: &Fees, closed: &ClosedLedger, v: &mut StObject) {
    let pairs = [
        (
            current.base_drops,
            target.base_drops,
            "BaseFee",
            "BaseFeeDrops",
        ),
        (
            current.reserve_base_drops,
            target.reserve_base_drops,
            "ReserveBase",
            "ReserveBaseDrops",
        ),
        (
            current.reserve_inc_drops,
            target.reserve_inc_drops,
            "ReserveIncrement",
            "ReserveIncrementDrops",
        ),
    ];
    let xrp_fees = closed.rules.enabled(Feature::XRPFees);
    for (now, want, legacy, drops) in pairs {
        if now == want {
            continue;
        }
        if xrp_fees {
            if let Ok(d) = i64::try_from(want) {
                v.set_named(drops, StValue::Amount(Amount::Xrp(d)));
            }
        } else if legacy == "BaseFee" {
            v.set_named(legacy, StValue::UInt64(want));
        } else if let Ok(n) = u32::try_from(want) {
            v.set_named(legacy, StValue::UInt32(n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledgers::{LedgerConfig, Ledgers};
    use crate::protocol::validation::{is_valid, VF_FULLY_CANONICAL_SIG};

    fn validator(fee_target: Fees, votes: FeatureSet) -> Validator {
        let keys = KeyPair::node_from_seed(&Seed::from_passphrase("masterpassphrase")).unwrap();
        Validator::new(keys, fee_target, Box::new(move || votes), "3.4.1").unwrap()
    }

    /// An ordinary ledger's validation: the fields rippled sets, no votes; the signing
    /// time never goes back.
    #[test]
    fn validates_a_ledger_with_rippleds_fields() {
        let ledgers = Ledgers::genesis(LedgerConfig::default(), 1_000);
        let closed = ledgers.close(2_000);
        let val = validator(closed.fees, FeatureSet::default());
        let parent = closed.header.parent_hash;
        let v = val.validate(&closed, Some(parent), 5_000).unwrap();
        assert!(is_valid(&v));
        assert_eq!(v.get_h256("LedgerHash"), Some(closed.header.hash));
        assert_eq!(v.get_u32("LedgerSequence"), Some(closed.header.seq));
        assert_eq!(v.get_h256("ValidatedHash"), Some(parent));
        assert_eq!(v.get_h256("ConsensusHash"), Some(Hash256::ZERO));
        assert_eq!(
            v.get_u32("Flags"),
            Some(VF_FULL_VALIDATION | VF_FULLY_CANONICAL_SIG)
        );
        assert!(v.get_u64("Cookie").is_some_and(|c| c != 0));
        for absent in ["ServerVersion", "Amendments", "BaseFee", "BaseFeeDrops"] {
            assert!(!v.has(absent), "{absent}");
        }
        assert_eq!(v.get_u32("SigningTime"), Some(5_000));
        // A clock that did not move, or went back: one second later each time.
        let again = val.validate(&closed, None, 4_000).unwrap();
        assert_eq!(again.get_u32("SigningTime"), Some(5_001));
        assert!(!again.has("ValidatedHash"));
        assert_eq!(again.get_u64("Cookie"), v.get_u64("Cookie"));
    }

    /// The ledger before a flag ledger carries the server version, a vote for each fee
    /// that differs from the target (legacy fields without XRPFees) and the amendments
    /// voted for that the ledger does not record.
    #[test]
    fn the_ledger_before_a_flag_ledger_carries_the_votes() {
        let ledgers = Ledgers::genesis(LedgerConfig::default(), 1_000);
        let mut closed = ledgers.close(2_000);
        while closed.header.seq < 255 {
            closed = ledgers.close(2_000 + closed.header.seq * 10);
        }
        assert_eq!(closed.header.seq, 255);
        let target = Fees {
            base_drops: closed.fees.base_drops + 5,
            ..closed.fees
        };
        let mut votes = FeatureSet::default();
        let wanted = Feature::all()
            .find(|f| !closed.rules.recorded().contains(*f))
            .expect("an amendment the ledger lacks");
        votes.insert(wanted);
        for f in closed.rules.recorded().iter().take(1) {
            votes.insert(f);
        }
        let v = validator(target, votes).validate(&closed, None, 1).unwrap();
        assert!(is_valid(&v));
        assert_eq!(
            v.get_u64("ServerVersion"),
            Some(validation::encoded_version("3.4.1"))
        );
        assert_eq!(v.get_vector256("Amendments"), Some(&[wanted.id()][..]));
        if closed.rules.enabled(Feature::XRPFees) {
            let drops = v.get_amount("BaseFeeDrops");
            assert_eq!(drops, Some(Amount::Xrp(target.base_drops as i64)));
        } else {
            assert_eq!(v.get_u64("BaseFee"), Some(target.base_drops));
        }
        assert!(!v.has("ReserveBase") && !v.has("ReserveBaseDrops"));
        // Not a voting ledger: no votes.
        let next = ledgers.close(9_000);
        let v = validator(target, votes).validate(&next, None, 1).unwrap();
        assert!(!v.has("ServerVersion") && !v.has("Amendments"));
    }
}
