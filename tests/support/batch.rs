//! Batch transactions built field by field: inner transactions (fee 0, unsigned,
//! tfInnerBatchTxn), the outer Batch and its BatchSigners.

use super::engine::{drops, Account, Tx};
use ledgerd::engine::transactor::TF_INNER_BATCH_TXN;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::tx::{batch_inner_ids, batch_signing_data};

/// An inner transaction: `tx` from `who` at `seq`, fee 0, no signature, tfInnerBatchTxn.
pub fn inner(tx: Tx, who: &Account, seq: u32) -> StObject {
    let s = sf();
    let mut o = tx.0;
    let flags = o.u32_of(s.flags).unwrap_or(0) | TF_INNER_BATCH_TXN;
    o.set(s.flags, StValue::UInt32(flags));
    o.set(s.account, StValue::AccountId(who.id));
    if o.get(s.ticket_sequence).is_none() {
        o.set(s.sequence, StValue::UInt32(seq));
    } else {
        o.set(s.sequence, StValue::UInt32(0));
    }
    o.set(s.fee, StValue::Amount(drops(0)));
    o.set(s.signing_pub_key, StValue::Blob(Vec::new()));
    o
}

/// The Batch (unsigned): `who` at `seq`, `fee` drops, `flags`, these inner transactions.
pub fn batch(who: &Account, seq: u32, fee: i64, flags: u32, inners: &[StObject]) -> StObject {
    let s = sf();
    let mut o = Tx::new("Batch").flags(flags).0;
    o.set(s.account, StValue::AccountId(who.id));
    o.set(s.sequence, StValue::UInt32(seq));
    o.set(s.fee, StValue::Amount(drops(fee)));
    let raw = inners
        .iter()
        .map(|t| (Field::named("RawTransaction"), t.clone()))
        .collect();
    o.set(s.raw_transactions, StValue::Array(raw));
    o
}

/// Adds BatchSigners, each signing with its own key.
pub fn with_signers(mut o: StObject, signers: &[(&Account, &KeyPair)]) -> StObject {
    let s = sf();
    let ids = batch_inner_ids(&o);
    let list = signers
        .iter()
        .map(|(a, kp)| {
            let data = batch_signing_data(&o, &ids, &a.id, None);
            let mut b = StObject::new();
            b.set(s.account, StValue::AccountId(a.id));
            b.set(
                s.signing_pub_key,
                StValue::Blob(kp.public.as_bytes().to_vec()),
            );
            b.set(s.txn_signature, StValue::Blob(kp.sign(&data)));
            (Field::named("BatchSigner"), b)
        })
        .collect();
    o.set(s.batch_signers, StValue::Array(list));
    o
}
