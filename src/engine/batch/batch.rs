//! Batch (rippled `Batch.cpp`, `apply.cpp` `applyBatchTransactions`, amendment
//! BatchV1_1): an outer transaction carrying 2 to 8 unsigned inner transactions
//! (RawTransactions: fee 0, empty SigningPubKey, `tfInnerBatchTxn`), signed for the
//! other accounts by BatchSigners. The outer transaction itself only pays the fee; once
//! it succeeds its inner transactions are applied one after the other, each with its own
//! metadata (ParentBatchID) and place in the ledger, as its mode says:
//! - `tfAllOrNothing`: all must succeed, or none is kept;
//! - `tfOnlyOne`: stop at the first success;
//! - `tfUntilFailure`: stop at the first failure (a tec is kept);
//! - `tfIndependent`: every one, whatever the others did.

use std::collections::{HashMap, HashSet};

use super::{inner_config, tf};
use crate::engine::sponsor;
use crate::engine::ter::Ter;
use crate::engine::transactor::{
    check_multi_sign, preflight_only, ApplyConfig, ApplyContext, TF_FULLY_CANONICAL_SIG,
    TF_INNER_BATCH_TXN,
};
use crate::engine::tx_type::TxType;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::tx::{batch_inner_ids, batch_inner_txs, batch_signing_data};
use crate::protocol::types::{AccountId, Hash256};

/// Most inner transactions, and most BatchSigners (`maxBatchTxCount`).
pub const BATCH_TXS_MAX: usize = 8;
/// Most signers in one multi-signed BatchSigner (`STTx::maxMultiSigners`).
const MULTI_SIGNERS_MAX: usize = crate::engine::transactor::MULTI_SIGNERS_MAX;

/// `tfBatchMask`: everything but the universal flags and the modes.
const TF_BATCH_MASK: u32 = !(TF_FULLY_CANONICAL_SIG | TF_INNER_BATCH_TXN | tf::MODES);

/// The Batch's part of its fee (`Batch::calculateBaseFee` less the common base fee): one
/// more base fee, each inner transaction's base fee, one base fee per BatchSigner
/// signature (a multi-signed BatchSigner counts its Signers).
pub fn base_fee(tx: &StObject, base_drops: u64, reserve_inc_drops: u64) -> u64 {
    let inner: u64 = batch_inner_txs(tx)
        .iter()
        .filter(|t| t.u16_of(sf().transaction_type) != Some(TxType::Batch as u16))
        .map(|t| crate::engine::transactor::base_fee(t, base_drops, reserve_inc_drops))
        .fold(0, u64::saturating_add);
    let signatures: u64 = batch_signers(tx)
        .iter()
        .map(|b| match b.get(sf().signers) {
            _ if b.get(sf().txn_signature).is_some() => 1,
            Some(StValue::Array(a)) => a.len() as u64,
            _ => 0,
        })
        .sum();
    base_drops
        .saturating_add(inner)
        .saturating_add(base_drops.saturating_mul(signatures))
}

fn batch_signers(tx: &StObject) -> Vec<StObject> {
    match tx.get(sf().batch_signers) {
        Some(StValue::Array(a)) => a.iter().map(|(_, o)| o.clone()).collect(),
        _ => Vec::new(),
    }
}

/// The registry's preflight (a standalone node's configuration); the pipeline calls
/// [`preflight_with`], which knows the network.
pub fn preflight(tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    preflight_with(tx, account, &ApplyConfig::default())
}

/// `Batch::preflight`: the flags, the inner transactions, then the BatchSigners.
pub fn preflight_with(tx: &StObject, account: &AccountId, cfg: &ApplyConfig) -> Result<(), Ter> {
    let flags = tx.flags();
    if flags & TF_BATCH_MASK != 0 || (flags & tf::MODES).count_ones() != 1 {
        return Err(Ter::temINVALID_FLAG);
    }
    let inners = batch_inner_txs(tx);
    if inners.len() <= 1 {
        return Err(Ter::temARRAY_EMPTY);
    }
    if inners.len() > BATCH_TXS_MAX {
        return Err(Ter::temARRAY_TOO_LARGE);
    }
    let batch_id = crate::protocol::tx::transaction_id_of(tx);
    let wrapped = wrapped_as_raw_transactions(tx);
    let mut required = check_inners(&inners, &wrapped, account, flags, &batch_id, cfg)?;
    let signers = batch_signers(tx);
    if tx.get(sf().batch_signers).is_some() {
        if signers.len() > BATCH_TXS_MAX {
            return Err(Ter::temARRAY_TOO_LARGE);
        }
        let mut seen = HashSet::new();
        for signer in &signers {
            let id = signer.account_of(sf().account).unwrap_or_default();
            if id == *account {
                return Err(Ter::temBAD_SIGNER);
            }
            if !seen.insert(id) {
                return Err(Ter::temREDUNDANT);
            }
            if !required.remove(&id) {
                return Err(Ter::temBAD_SIGNER);
            }
        }
        if !verify_batch_signers(tx) {
            return Err(Ter::temBAD_SIGNATURE);
        }
    }
    if !required.is_empty() {
        return Err(Ter::temBAD_SIGNER);
    }
    Ok(())
}

/// For each element of RawTransactions, whether it may stand there: under fixBatchV1_2
/// (xrpld 3.4.1 "Reject Batch inner txs with the wrong wrapper") only an object wrapped
/// as `RawTransaction`; before it any inner object, whatever its field.
fn wrapped_as_raw_transactions(tx: &StObject) -> Vec<bool> {
    let fix = crate::ledger::rules::enabled_now(crate::protocol::features::Feature::FixBatchV1_2);
    match tx.get(sf().raw_transactions) {
        Some(StValue::Array(items)) => items
            .iter()
            .map(|(field, _)| !fix || *field == sf().raw_transaction)
            .collect(),
        _ => Vec::new(),
    }
}

/// The checks on each inner transaction, in order (first its wrapper, `temMALFORMED`
/// when `wrapped` says no); the accounts other than the outer one that must sign.
fn check_inners(
    inners: &[StObject],
    wrapped: &[bool],
    outer: &AccountId,
    flags: u32,
    batch_id: &Hash256,
    cfg: &ApplyConfig,
) -> Result<HashSet<AccountId>, Ter> {
    let s = sf();
    let inner_cfg = inner_config(cfg, batch_id);
    let mut required = HashSet::new();
    let mut ids = HashSet::new();
    let mut seqs: HashMap<AccountId, HashSet<u32>> = HashMap::new();
    for (inner, ok) in inners.iter().zip(wrapped) {
        if !ok {
            return Err(Ter::temMALFORMED);
        }
        if !ids.insert(crate::protocol::tx::transaction_id_of(inner)) {
            return Err(Ter::temREDUNDANT);
        }
        check_inner_form(inner)?;
        if preflight_only(inner, &inner_cfg).is_err() {
            return Err(Ter::temINVALID_INNER_BATCH);
        }
        if inner.amount_of(s.fee) != Some(Amount::Xrp(0)) {
            return Err(Ter::temBAD_FEE);
        }
        let seq = inner.u32_of(s.sequence).unwrap_or(0);
        let ticket = inner.u32_of(s.ticket_sequence);
        if ticket.is_some() == (seq != 0) {
            return Err(Ter::temSEQ_AND_TICKET);
        }
        let id = inner.account_of(s.account).unwrap_or_default();
        if flags & (tf::ALL_OR_NOTHING | tf::UNTIL_FAILURE) != 0
            && !seqs.entry(id).or_default().insert(ticket.unwrap_or(seq))
        {
            return Err(Ter::temREDUNDANT);
        }
        // The inner transaction's authorizer signs the Batch unless it is the outer
        // account: its Delegate when it has one (BatchV1_1), else its Account. A LoanSet's
        // Counterparty signs too; so does a co-signing sponsor (its SponsorSignature
        // inside is a placeholder).
        let authorizer = inner.account_of(s.delegate).unwrap_or(id);
        let counterparty = inner.account_of(s.counterparty);
        let sponsor = sponsor::sponsor_of(inner).filter(|_| sponsor::co_signed(inner));
        for signer in [Some(authorizer), counterparty, sponsor]
            .into_iter()
            .flatten()
        {
            if signer != *outer {
                required.insert(signer);
            }
        }
    }
    Ok(required)
}

/// An inner transaction's form: not a Batch, flagged inner, unsigned; its fee not
/// sponsored (the Batch pays it) and its SponsorSignature, if any, an unsigned
/// placeholder (the sponsor signs the Batch among its BatchSigners).
fn check_inner_form(inner: &StObject) -> Result<(), Ter> {
    let s = sf();
    if inner.u16_of(s.transaction_type) == Some(TxType::Batch as u16) {
        return Err(Ter::temINVALID);
    }
    if inner.flags() & TF_INNER_BATCH_TXN == 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    unsigned(inner)?;
    if sponsor::fee_sponsor(inner).is_some() {
        return Err(Ter::temINVALID_FLAG);
    }
    match sponsor::checks::sponsor_signature(inner) {
        Some(placeholder) => unsigned(placeholder),
        None => Ok(()),
    }
}

/// rippled's `checkSignatureFields` for an inner transaction or a co-signature inside it:
/// no TxnSignature, no Signers, an empty SigningPubKey.
fn unsigned(o: &StObject) -> Result<(), Ter> {
    let s = sf();
    if o.get(s.txn_signature).is_some() {
        return Err(Ter::temBAD_SIGNATURE);
    }
    if o.get(s.signers).is_some() {
        return Err(Ter::temBAD_SIGNER);
    }
    if o.blob_of(s.signing_pub_key).is_some_and(|k| !k.is_empty()) {
        return Err(Ter::temBAD_REGKEY);
    }
    Ok(())
}

/// rippled's `STTx::checkBatchSign`: every BatchSigner's signature over the batch's
/// signing data, single (its SigningPubKey and TxnSignature) or multi (its Signers,
/// sorted, each signing with its own account appended). True without BatchSigners.
pub fn verify_batch_signers(tx: &StObject) -> bool {
    let signers = batch_signers(tx);
    if signers.len() > BATCH_TXS_MAX {
        return false;
    }
    let ids = batch_inner_ids(tx);
    signers.iter().all(|b| verify_one_signer(tx, &ids, b))
}

fn verify_one_signer(tx: &StObject, ids: &[Hash256], signer: &StObject) -> bool {
    let s = sf();
    let Some(account) = signer.account_of(s.account) else {
        return false;
    };
    let key = signer.blob_of(s.signing_pub_key).unwrap_or_default();
    if !key.is_empty() {
        if signer.get(s.signers).is_some() {
            return false;
        }
        let data = batch_signing_data(tx, ids, &account, None);
        return signature_ok(key, signer.blob_of(s.txn_signature), &data);
    }
    let Some(StValue::Array(list)) = signer.get(s.signers) else {
        return false;
    };
    if signer.get(s.txn_signature).is_some() || list.is_empty() || list.len() > MULTI_SIGNERS_MAX {
        return false;
    }
    let mut last: Option<AccountId> = None;
    for (_, one) in list {
        let Some(id) = one.account_of(s.account) else {
            return false;
        };
        if id == account || last.is_some_and(|l| l >= id) {
            return false;
        }
        last = Some(id);
        let data = batch_signing_data(tx, ids, &account, Some(&id));
        let key = one.blob_of(s.signing_pub_key).unwrap_or_default();
        if !signature_ok(key, one.blob_of(s.txn_signature), &data) {
            return false;
        }
    }
    true
}

fn signature_ok(key: &[u8], sig: Option<&[u8]>, data: &[u8]) -> bool {
    use crate::protocol::keys::PublicKey;
    let (Some(sig), Ok(pk)) = (sig, PublicKey::from_slice_lenient(key)) else {
        return false;
    };
    crate::protocol::sign::verify(&pk, data, sig, true)
}

/// `Transactor::checkBatchSign`: each BatchSigner may sign for its account: a single
/// signer with the account's master key (not disabled) or regular key, or with the
/// master key of an account not yet in the ledger (which ends the check, as in
/// rippled); a multi-signed one against the account's signer list.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    for signer in batch_signers(tx) {
        let id = signer.account_of(s.account).unwrap_or_default();
        let key = signer.blob_of(s.signing_pub_key).unwrap_or_default();
        if key.is_empty() {
            let Some(StValue::Array(list)) = signer.get(s.signers) else {
                return Ter::tefBAD_SIGNATURE;
            };
            if let Err(t) = check_multi_sign(view, &id, list) {
                return t;
            }
            continue;
        }
        if crate::engine::entry::key_kind(key).is_none() {
            return Ter::tefBAD_AUTH;
        }
        let from_key = AccountId::from_public_key(key);
        let Some(root) = view.read(&keylet::account(&id)) else {
            return if from_key == id {
                Ter::tesSUCCESS
            } else {
                Ter::tefBAD_AUTH
            };
        };
        if root.account_of(s.regular_key) == Some(from_key) {
            continue;
        }
        if from_key != id {
            return Ter::tefBAD_AUTH;
        }
        if root.is_flag(lsf::DISABLE_MASTER) {
            return Ter::tefMASTER_DISABLED;
        }
    }
    Ter::tesSUCCESS
}

/// The outer transaction does nothing but pay (`Batch::doApply`).
pub fn do_apply(_ctx: &mut ApplyContext) -> Ter {
    Ter::tesSUCCESS
}
