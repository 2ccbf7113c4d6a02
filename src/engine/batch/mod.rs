//! Batch (BatchV1_1): the Batch type, and what the pipeline and the ledgers share with it
//! about inner transactions: the modes, the inner flag, and applying the inner
//! transactions once their Batch succeeded (rippled `apply.cpp`
//! `applyBatchTransactions`).

#[allow(clippy::module_inception)]
pub mod batch;

use crate::engine::ter::Ter;
use crate::engine::transactor::{apply_transaction, ApplyConfig, InnerApplied, TF_INNER_BATCH_TXN};
use crate::ledger::overlay::Overlay;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::codec::encode;
use crate::protocol::st::StObject;
use crate::protocol::tx::{batch_inner_txs, transaction_id};
use crate::protocol::types::Hash256;

/// Batch flags.
pub mod tf {
    /// Every inner transaction succeeds, or none is kept.
    pub const ALL_OR_NOTHING: u32 = 0x0001_0000;
    /// The first inner transaction to succeed is the only one.
    pub const ONLY_ONE: u32 = 0x0002_0000;
    /// Inner transactions until the first failure.
    pub const UNTIL_FAILURE: u32 = 0x0004_0000;
    /// Every inner transaction, independently.
    pub const INDEPENDENT: u32 = 0x0008_0000;
    /// The four modes.
    pub const MODES: u32 = ALL_OR_NOTHING | ONLY_ONE | UNTIL_FAILURE | INDEPENDENT;
}

/// True when an inner transaction carries any signature (TxnSignature, a SigningPubKey
/// or Signers), which rippled refuses.
pub fn inner_has_signature(tx: &StObject) -> bool {
    let s = sf();
    tx.get(s.txn_signature).is_some()
        || tx.blob_of(s.signing_pub_key).is_some_and(|k| !k.is_empty())
        || tx.get(s.signers).is_some()
}

/// The configuration an inner transaction of `batch_id` applies under.
pub(crate) fn inner_config(cfg: &ApplyConfig, batch_id: &Hash256) -> ApplyConfig {
    ApplyConfig {
        signature_check: None,
        parent_batch: Some(*batch_id),
        // rippled applies inner transactions with tapBATCH alone.
        fail_hard: false,
        ..cfg.clone()
    }
}

/// rippled's `applyBatchTransactions`, after the outer Batch `batch_id` succeeded on
/// `view`: applies its inner transactions in order, each on what the previous ones
/// wrote, as its mode says, from ledger position `first_index`. Returns the ones the
/// ledger keeps (tes or tec), in order; none when the batch as a whole fails
/// (tfAllOrNothing with a failure, or nothing applied).
pub fn apply_inners(
    view: &dyn ReadView,
    batch: &StObject,
    batch_id: &Hash256,
    first_index: u32,
    cfg: &ApplyConfig,
) -> Vec<InnerApplied> {
    let mode = batch.flags();
    let inner_cfg = inner_config(cfg, batch_id);
    let mut overlay = Overlay::new(view, *view.info());
    let mut kept: Vec<InnerApplied> = Vec::new();
    for tx in batch_inner_txs(batch) {
        let blob = encode(&tx);
        let id = transaction_id(&blob);
        let index = first_index + kept.len() as u32;
        let outcome = apply_transaction(&overlay, &tx, &id, index, &inner_cfg);
        let ter = outcome.ter;
        if outcome.applied {
            overlay.apply(outcome.writes.iter().cloned());
            kept.push(InnerApplied {
                tx,
                blob,
                id,
                outcome,
            });
        }
        if ter != Ter::tesSUCCESS {
            if mode & tf::ALL_OR_NOTHING != 0 {
                return Vec::new();
            }
            if mode & tf::UNTIL_FAILURE != 0 {
                break;
            }
        } else if mode & tf::ONLY_ONE != 0 {
            break;
        }
    }
    kept
}

/// True for an inner transaction of a Batch (it enters a ledger only with its Batch).
pub fn is_inner(tx: &StObject) -> bool {
    tx.flags() & TF_INNER_BATCH_TXN != 0
}
