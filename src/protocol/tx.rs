//! Transaction signing data, multi-signing data and transaction IDs (`STTx.cpp`,
//! `Sign.cpp`).
//!
//! - Single signing signs `STX\0 || encode_for_signing(tx)` (secp256k1 over its
//!   SHA-512-half, ed25519 over the raw bytes).
//! - Each multi-signer signs `SMT\0 || encode_for_signing(tx) || signer AccountID`
//!   (20 raw bytes).
//! - The transaction ID is `SHA512Half(TXN\0 || signed blob)`. rippled hashes its own
//!   canonical re-serialization, so for a blob that is not canonical (fields out of
//!   order) use [`transaction_id_of`] on the decoded object.

use super::codec::{encode, encode_for_signing};
use super::definitions::defs;
use super::hash::{prefix, sha512_half};
use super::st::StObject;
use super::types::{AccountId, Hash256};
use std::sync::atomic::{AtomicU64, Ordering};

/// The bytes a single signer signs: `STX\0` followed by the signing serialization.
pub fn signing_data(tx: &StObject) -> Vec<u8> {
    let mut out = prefix::TX_SIGN.to_vec();
    out.extend_from_slice(&encode_for_signing(tx));
    out
}

/// The bytes one multi-signer signs: `SMT\0`, the signing serialization, then the
/// signer's 20-byte account ID.
pub fn multisigning_data(tx: &StObject, signer: &AccountId) -> Vec<u8> {
    let mut out = prefix::TX_MULTI_SIGN.to_vec();
    out.extend_from_slice(&encode_for_signing(tx));
    out.extend_from_slice(signer.as_bytes());
    out
}

/// What a LoanSet counterparty signs: the transaction's signing data, or, as clients
/// built for fixCleanup3_4_0 sign it, the same serialization behind `CPT\0` (single) or
/// `CPM\0` with the signer's account (multi). Both forms, in that order.
pub fn counterparty_signing_data(tx: &StObject, signer: Option<&AccountId>) -> [Vec<u8>; 2] {
    cosigning_data(
        tx,
        signer,
        prefix::COUNTERPARTY_SIGN,
        prefix::COUNTERPARTY_MULTI_SIGN,
    )
}

/// What a sponsor signs in `SponsorSignature`: the transaction's signing data, or, as
/// clients built for fixCleanup3_4_0 sign it (xrpl.js 5.3's `signAsSponsor`), the same
/// serialization behind `SPN\0` (single) or `SPM\0` with the signer's account (multi).
/// Both forms, in that order.
pub fn sponsor_signing_data(tx: &StObject, signer: Option<&AccountId>) -> [Vec<u8>; 2] {
    cosigning_data(tx, signer, prefix::SPONSOR_SIGN, prefix::SPONSOR_MULTI_SIGN)
}

/// A co-signer's data: the plain signing (or multi-signing) data and the same body
/// behind the co-signer's own prefix, `single` or `multi`.
fn cosigning_data(
    tx: &StObject,
    signer: Option<&AccountId>,
    single: [u8; 4],
    multi: [u8; 4],
) -> [Vec<u8>; 2] {
    let body = encode_for_signing(tx);
    let with = |p: [u8; 4], suffix: &[u8]| {
        let mut out = p.to_vec();
        out.extend_from_slice(&body);
        out.extend_from_slice(suffix);
        out
    };
    match signer {
        None => [with(prefix::TX_SIGN, &[]), with(single, &[])],
        Some(a) => [
            with(prefix::TX_MULTI_SIGN, a.as_bytes()),
            with(multi, a.as_bytes()),
        ],
    }
}

/// SHA-512-half of [`signing_data`]: the digest a secp256k1 signature covers.
pub fn signing_hash(tx: &StObject) -> Hash256 {
    sha512_half(&[&signing_data(tx)])
}

static IDS: AtomicU64 = AtomicU64::new(0);

/// How many transaction IDs [`transaction_id`] has computed in this process (a relaxed
/// counter: tests use it to show a submitted transaction is hashed once).
pub fn transaction_id_count() -> u64 {
    IDS.load(Ordering::Relaxed)
}

/// The transaction ID of a signed blob: `SHA512Half(TXN\0 || blob)`.
pub fn transaction_id(signed_blob: &[u8]) -> Hash256 {
    IDS.fetch_add(1, Ordering::Relaxed);
    sha512_half(&[&prefix::TRANSACTION_ID, signed_blob])
}

/// The transaction ID of a transaction object (its canonical serialization), as
/// rippled's `STTx::getTransactionID` computes it.
pub fn transaction_id_of(tx: &StObject) -> Hash256 {
    transaction_id(&encode(tx))
}

/// The name of the transaction's `TransactionType` (`"Payment"`), if it has a known one.
pub fn transaction_type_name(tx: &StObject) -> Option<&'static str> {
    defs().transaction_type_name(tx.get_u16("TransactionType")?)
}

/// True when the transaction is set up for multi-signing: `SigningPubKey` present and
/// empty (rippled's `STTx::isMultiSigning` test on an empty key).
pub fn is_multisigned(tx: &StObject) -> bool {
    tx.get_blob("SigningPubKey").is_some_and(|k| k.is_empty())
}

/// The inner transactions of a Batch (its RawTransactions), in order.
pub fn batch_inner_txs(batch: &StObject) -> Vec<StObject> {
    match batch.get_named("RawTransactions") {
        Some(super::st::StValue::Array(items)) => items.iter().map(|(_, o)| o.clone()).collect(),
        _ => Vec::new(),
    }
}

/// The IDs of a Batch's inner transactions, in order.
pub fn batch_inner_ids(batch: &StObject) -> Vec<Hash256> {
    batch_inner_txs(batch)
        .iter()
        .map(transaction_id_of)
        .collect()
}

/// What a BatchSigner signs (rippled `serializeBatch` then `finishMultiSigningData`, the
/// BatchV1_1 payload xrpl.js and xrpl-py build): `BCH\0`, the outer Account, its
/// Sequence (or TicketSequence when the Sequence is 0), Flags, the number of inner
/// transactions (u32) and their IDs, the BatchSigner's account, and for one signer of a
/// multi-signed BatchSigner, that signer's account.
pub fn batch_signing_data(
    batch: &StObject,
    ids: &[Hash256],
    batch_account: &AccountId,
    signer: Option<&AccountId>,
) -> Vec<u8> {
    let mut out = super::hash::prefix::BATCH.to_vec();
    let account = batch.get_account("Account").unwrap_or(AccountId::ZERO);
    out.extend_from_slice(account.as_bytes());
    let seq = match batch.get_u32("Sequence") {
        Some(0) | None => batch.get_u32("TicketSequence").unwrap_or(0),
        Some(s) => s,
    };
    out.extend_from_slice(&seq.to_be_bytes());
    out.extend_from_slice(&batch.get_u32("Flags").unwrap_or(0).to_be_bytes());
    out.extend_from_slice(&(ids.len() as u32).to_be_bytes());
    for id in ids {
        out.extend_from_slice(&id.0);
    }
    out.extend_from_slice(batch_account.as_bytes());
    if let Some(s) = signer {
        out.extend_from_slice(s.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::codec::from_json;
    use serde_json::json;

    #[test]
    fn prefixes_and_signing_fields() {
        let tx = from_json(&json!({
            "TransactionType": "AccountSet",
            "Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
            "Fee": "10", "Sequence": 1, "SigningPubKey": "",
            "TxnSignature": "AB",
        }))
        .unwrap();
        let sd = signing_data(&tx);
        assert_eq!(&sd[..4], b"STX\0");
        // TxnSignature (74 01 AB) is left out of the signing data only.
        assert!(!crate::protocol::types::hex_upper(&sd).contains("7401AB"));
        assert!(crate::protocol::types::hex_upper(encode(&tx)).contains("7401AB"));
        let md = multisigning_data(&tx, &AccountId::ONE);
        assert_eq!(&md[..4], b"SMT\0");
        assert_eq!(&md[md.len() - 20..], AccountId::ONE.as_bytes());
        assert_eq!(&md[4..md.len() - 20], &sd[4..]);
        assert_eq!(transaction_type_name(&tx), Some("AccountSet"));
        assert!(is_multisigned(&tx));
        assert_eq!(transaction_id_of(&tx), transaction_id(&encode(&tx)));
        assert_eq!(signing_hash(&tx), sha512_half(&[&sd]));
    }
}
