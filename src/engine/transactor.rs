//! The transactor pipeline (rippled `Transactor.cpp`, `applySteps.cpp`): preflight with
//! no ledger, preclaim reading the ledger, apply into a sandbox, invariants, then the
//! writes and metadata. Only tes and tec reach the ledger; a tec keeps only the fee and
//! the consumed sequence (and nothing at all under `fail_hard`).

use std::sync::Arc;

use super::entry::{balance_drops, key_kind, set_drops};
use super::invariants;
use super::meta::{finalize, Writes};
use super::registry::{self, ApplyInners, BaseFee, Rules, Transactor};
use super::sandbox::Sandbox;
use super::sponsor::fee::{self as sponsor_fee, FeePayer};
use super::ter::Ter;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::rules::Rules as LedgerRules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, DROPS_MAX};
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::tx::counterparty_signing_data;
use crate::protocol::types::{AccountId, Hash256};

/// Network IDs at or below this do not carry NetworkID in transactions (rippled).
pub const NETWORK_ID_LEGACY_MAX: u32 = 1024;
/// Most signers of one multi-signed transaction (rippled `maxMultiSigners` with
/// ExpandedSignerList).
pub const MULTI_SIGNERS_MAX: usize = 32;

/// `tfFullyCanonicalSig`: a universal flag.
pub const TF_FULLY_CANONICAL_SIG: u32 = 0x8000_0000;
/// `tfInnerBatchTxn`: the universal flag of a Batch's inner transaction (BatchV1_1).
pub const TF_INNER_BATCH_TXN: u32 = 0x4000_0000;
/// Bits no transaction type may set (`tfUniversalMask`).
pub const TF_UNIVERSAL_MASK: u32 = !(TF_FULLY_CANONICAL_SIG | TF_INNER_BATCH_TXN);

/// Checks the server (not the transaction) supplies.
#[derive(Clone, Default)]
pub struct ApplyConfig {
    /// This network's ID (0 for a standalone node); decides the NetworkID field rule.
    pub network_id: u32,
    /// Checks transaction signatures inside the engine. The server verifies them on its
    /// CPU pool before submitting, so it passes `None`; replay and tests may check here.
    pub signature_check: Option<SignatureCheck>,
    /// A dry run (`simulate`, rippled's `tapDRY_RUN`): a transaction with neither a
    /// SigningPubKey nor Signers is not checked for who signed it.
    pub dry_run: bool,
    /// Set while applying the inner transactions of the Batch with this ID (rippled's
    /// `tapBATCH` and `parentBatchId`): no signature, a zero fee, and the metadata's
    /// ParentBatchID.
    pub parent_batch: Option<Hash256>,
    /// rippled's `tapFAIL_HARD` (`fail_hard` on submit): a `tec` result is not applied
    /// either, so nothing is written, no fee is charged and no sequence is consumed.
    pub fail_hard: bool,
}

/// Verifies a transaction's signature under the rules of the ledger it applies to:
/// `(tx, rules) -> valid`. [`verify_signature`] is the standard one.
pub type SignatureCheck = Arc<dyn Fn(&StObject, &LedgerRules) -> bool + Send + Sync>;

/// rippled's `checkValidity`: for a single-signed transaction, TxnSignature over the
/// signing data by SigningPubKey; for a multi-signed one (empty SigningPubKey), every
/// Signer's signature over the multi-signing data with its own account, signers sorted
/// strictly by account, none of them the sender, between 1 and `MULTI_SIGNERS_MAX`; and a
/// CounterpartySignature when the transaction carries one (LoanSet's), and a
/// SponsorSignature likewise, each over the data its role signs under `rules` (see
/// [`cosign_forms`]). A transaction flagged `tfInnerBatchTxn` never passes.
/// secp256k1 signatures must be fully canonical (RequireFullyCanonicalSig is enabled).
pub fn verify_signature(tx: &StObject, rules: &LedgerRules) -> bool {
    if tx.flags() & TF_INNER_BATCH_TXN != 0 {
        // rippled 3.4's checkValidity: a Batch's inner transaction is never validly signed
        // on its own, whatever the rules and whatever it carries; inside its Batch no
        // signature is asked of it (preflight2 skips it).
        return false;
    }
    // A Batch's BatchSigners are checked in its preflight (temBAD_SIGNATURE), as rippled.
    verify_tx_signature(tx)
        && counterparty_signature_valid(tx, rules)
        && super::sponsor::checks::signature_valid(tx, rules)
}

/// The forms a co-signer (a LoanSet counterparty, a sponsor) may sign, as indexes into
/// [`counterparty_signing_data`] / `sponsor_signing_data`: 0 the transaction's own prefix
/// (`STX\0` / `SMT\0`), 1 its role's (`CPT\0` / `CPM\0`, `SPN\0` / `SPM\0`). rippled's
/// `signingPrefix(role, multi, rules)`: the role's prefix under fixCleanup3_4_0, the
/// transaction's before it.
pub fn cosign_forms(rules: &LedgerRules) -> &'static [usize] {
    if rules.enabled(Feature::FixCleanup3_4_0) {
        &[1]
    } else {
        &[0]
    }
}

/// What [`verify_signature`] finds wrong with a transaction's signatures, in the words of
/// rippled's `STTx::checkSign` (the co-signatures' failures prefixed `Counterparty: ` and
/// `Sponsor: `); None when they are sound.
pub fn signature_fault(tx: &StObject, rules: &LedgerRules) -> Option<&'static str> {
    if !verify_tx_signature(tx) {
        Some("Invalid signature.")
    } else if !counterparty_signature_valid(tx, rules) {
        Some("Counterparty: Invalid signature.")
    } else if !super::sponsor::checks::signature_valid(tx, rules) {
        Some("Sponsor: Invalid signature.")
    } else {
        None
    }
}

/// The transaction's own signature (single or multi), as [`verify_signature`] checks it
/// (without a LoanSet's CounterpartySignature).
pub fn verify_tx_signature(tx: &StObject) -> bool {
    use crate::protocol::keys::PublicKey;
    use crate::protocol::sign::verify;
    let s = sf();
    let Some(pk) = tx.blob_of(s.signing_pub_key) else {
        return false;
    };
    if !pk.is_empty() {
        let Some(sig) = tx.blob_of(s.txn_signature) else {
            return false;
        };
        let Ok(pk) = PublicKey::from_slice_lenient(pk) else {
            return false;
        };
        let data = crate::protocol::tx::signing_data(tx);
        return verify(&pk, &data, sig, true);
    }
    let Some(StValue::Array(signers)) = tx.get(s.signers) else {
        return false;
    };
    if signers.is_empty() || signers.len() > MULTI_SIGNERS_MAX {
        return false;
    }
    let Some(account) = tx.account_of(s.account) else {
        return false;
    };
    let mut last: Option<AccountId> = None;
    for (_, signer) in signers {
        let (Some(id), Some(pk), Some(sig)) = (
            signer.account_of(s.account),
            signer.blob_of(s.signing_pub_key),
            signer.blob_of(s.txn_signature),
        ) else {
            return false;
        };
        if id == account || last.is_some_and(|l| l >= id) {
            return false;
        }
        last = Some(id);
        let Ok(pk) = PublicKey::from_slice_lenient(pk) else {
            return false;
        };
        let data = crate::protocol::tx::multisigning_data(tx, &id);
        if !verify(&pk, &data, sig, true) {
            return false;
        }
    }
    true
}

/// The CounterpartySignature a transaction carries (LoanSet's), if any.
pub fn counterparty_signature(tx: &StObject) -> Option<&StObject> {
    match tx.get(sf().counterparty_signature) {
        Some(StValue::Object(o)) => Some(o),
        _ => None,
    }
}

/// rippled's `STTx::checkSign` for CounterpartySignature: its TxnSignature over the
/// transaction's signing data by its SigningPubKey, or each of its Signers' over the
/// multi-signing data with their own accounts (sorted strictly, at most
/// `MULTI_SIGNERS_MAX`); over the plain data, or under fixCleanup3_4_0 the counterparty
/// form (`CPT\0` / `CPM\0`), and only that one. True when there is none.
fn counterparty_signature_valid(tx: &StObject, rules: &LedgerRules) -> bool {
    use crate::protocol::keys::PublicKey;
    use crate::protocol::sign::verify;
    let s = sf();
    let Some(sig) = counterparty_signature(tx) else {
        return true;
    };
    let forms = cosign_forms(rules);
    let checks = |pk: &[u8], data: [Vec<u8>; 2], signature: &[u8]| {
        PublicKey::from_slice_lenient(pk)
            .is_ok_and(|k| forms.iter().any(|&f| verify(&k, &data[f], signature, true)))
    };
    if let Some(StValue::Array(signers)) = sig.get(s.signers) {
        if signers.is_empty() || signers.len() > MULTI_SIGNERS_MAX {
            return false;
        }
        let mut last: Option<AccountId> = None;
        return signers.iter().all(|(_, signer)| {
            let (Some(id), Some(pk), Some(signature)) = (
                signer.account_of(s.account),
                signer.blob_of(s.signing_pub_key),
                signer.blob_of(s.txn_signature),
            ) else {
                return false;
            };
            let sorted = last.is_none_or(|l| l < id);
            last = Some(id);
            sorted && checks(pk, counterparty_signing_data(tx, Some(&id)), signature)
        });
    }
    let (Some(pk), Some(signature)) =
        (sig.blob_of(s.signing_pub_key), sig.blob_of(s.txn_signature))
    else {
        return false;
    };
    checks(pk, counterparty_signing_data(tx, None), signature)
}

/// What applying one transaction did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The result.
    pub ter: Ter,
    /// True when the transaction is in the ledger (tes or tec).
    pub applied: bool,
    /// Metadata (only when applied).
    pub meta: Option<StObject>,
    /// State writes (only when applied).
    pub writes: Writes,
    /// Drops destroyed as the fee (0 when not applied).
    pub fee_drops: i64,
    /// What a successful payment delivered (for `delivered_amount`).
    pub delivered: Option<Amount>,
}

impl Outcome {
    fn rejected(ter: Ter) -> Outcome {
        Outcome {
            ter,
            applied: false,
            meta: None,
            writes: Vec::new(),
            fee_drops: 0,
            delivered: None,
        }
    }
}

/// One inner transaction the ledger keeps (a Batch's): its object, canonical binary
/// form, ID and what applying it did.
#[derive(Debug, Clone)]
pub struct InnerApplied {
    /// The inner transaction.
    pub tx: StObject,
    /// Its canonical serialization.
    pub blob: Vec<u8>,
    /// Its transaction ID.
    pub id: Hash256,
    /// Its result, metadata (with ParentBatchID) and writes.
    pub outcome: Outcome,
}

/// How the inner transactions `tx` carries apply, when its type carries any (its
/// registry row's `carries_inner`: a Batch) and it succeeded with `ter`. The ledgers
/// call it once `tx` is recorded (rippled `applyBatchTransactions`).
pub fn inner_transactions(tx: &StObject, ter: Ter) -> Option<ApplyInners> {
    if ter != Ter::tesSUCCESS {
        return None;
    }
    let row = registry::transactor(tx.u16_of(sf().transaction_type)?)?;
    row.rules.carries_inner.map(|carries| carries.apply)
}

/// Everything a transaction rule sees while applying.
pub struct ApplyContext<'a, 't> {
    /// The change set.
    pub sb: Sandbox<'a>,
    /// The transaction.
    pub tx: &'t StObject,
    /// Its Account.
    pub account: AccountId,
    /// The account's XRP before the fee (`mPriorBalance`).
    pub prior_balance: i64,
    /// The account's XRP after the fee (`mSourceBalance`).
    pub source_balance: i64,
    /// True when signed by the account's master key.
    pub signed_by_master: bool,
    /// True for the free first SetRegularKey (it spends lsfPasswordSpent).
    pub free_key: bool,
    /// Set by a payment: what it delivered.
    pub delivered: Option<Amount>,
    /// Set by a partial payment: the metadata's DeliveredAmount.
    pub meta_delivered: Option<Amount>,
    /// Set by a partial MPT payment: the metadata's DeliveredAmount.
    pub meta_delivered_mpt: Option<crate::protocol::mpt::MptAmount>,
}

/// Fields every transaction carries, read once.
struct Common {
    account: AccountId,
    /// The Delegate sending for the account: it signs and pays the fee.
    delegate: Option<AccountId>,
    fee: i64,
    sequence: u32,
    signing_key: Vec<u8>,
    dry_run: bool,
    inner: bool,
}

/// What rippled's `invokePreflight` checks first, as temDISABLED: the type's amendment
/// ([`super::tx_type::TxType::amendment`]), then what the transaction uses beyond it (its
/// row's `extra_features`, `checkExtraFeatures`).
fn feature_gates(row: Option<&Transactor>, tx: &StObject, rules: &LedgerRules) -> Result<(), Ter> {
    let Some(row) = row else {
        return Ok(());
    };
    if row.tx_type.amendment().is_some_and(|f| !rules.enabled(f)) {
        return Err(Ter::temDISABLED);
    }
    if row
        .rules
        .extra_features
        .is_some_and(|allowed| !allowed(tx, rules))
    {
        return Err(Ter::temDISABLED);
    }
    Ok(())
}

fn preflight_common(tx: &StObject, cfg: &ApplyConfig, rules: &LedgerRules) -> Result<Common, Ter> {
    let s = sf();
    // preflight1 opens with the Delegate: PermissionDelegationV1_1, and not the sender.
    let delegate = tx.account_of(s.delegate);
    if let Some(d) = delegate {
        if !rules.enabled(Feature::PermissionDelegationV1_1) {
            return Err(Ter::temDISABLED);
        }
        if tx.account_of(s.account) == Some(d) {
            return Err(Ter::temBAD_SIGNER);
        }
    }
    // preflight0: NetworkID.
    match tx.u32_of(s.network_id) {
        Some(_) if cfg.network_id <= NETWORK_ID_LEGACY_MAX => {
            return Err(Ter::telNETWORK_ID_MAKES_TX_NON_CANONICAL)
        }
        None if cfg.network_id > NETWORK_ID_LEGACY_MAX => return Err(Ter::telREQUIRES_NETWORK_ID),
        Some(id) if id != cfg.network_id => return Err(Ter::telWRONG_NETWORK),
        _ => {}
    }
    // preflight1.
    let account = match tx.account_of(s.account) {
        Some(a) if a != AccountId::ZERO => a,
        Some(_) => return Err(Ter::temBAD_SRC_ACCOUNT),
        None => return Err(Ter::temMALFORMED),
    };
    let fee = match tx.amount_of(s.fee) {
        Some(Amount::Xrp(d)) if d >= 0 && d as u64 <= DROPS_MAX => d,
        Some(_) => return Err(Ter::temBAD_FEE),
        None if tx.get(s.fee).is_some() => return Err(Ter::temBAD_FEE),
        None => return Err(Ter::temMALFORMED),
    };
    let Some(sequence) = tx.u32_of(s.sequence) else {
        return Err(Ter::temMALFORMED);
    };
    let Some(signing_key) = tx.blob_of(s.signing_pub_key) else {
        return Err(Ter::temMALFORMED);
    };
    if !signing_key.is_empty() && key_kind(signing_key).is_none() {
        return Err(Ter::temBAD_SIGNATURE);
    }
    if tx.u32_of(s.ticket_sequence).is_some() && tx.h256_of(s.account_txn_id).is_some() {
        return Err(Ter::temINVALID);
    }
    // preflight1 by the rules: the flag needs BatchV1_1. An inner transaction only applies
    // as part of its Batch: alone, temINVALID_FLAG, what xrpld's NetworkOPs answers before
    // preflight (its preflight1 would say temINVALID_INNER_BATCH, which no submission
    // reaches).
    let inner = tx.flags() & TF_INNER_BATCH_TXN != 0;
    if inner && !rules.enabled(Feature::BatchV1_1) {
        return Err(Ter::temINVALID_FLAG);
    }
    if inner != cfg.parent_batch.is_some() {
        return Err(Ter::temINVALID_FLAG);
    }
    // preflight1 ends with the sponsorship fields (preflight1Sponsor).
    super::sponsor::checks::preflight(tx, rules)?;
    Ok(Common {
        account,
        delegate,
        fee,
        sequence,
        signing_key: signing_key.to_vec(),
        dry_run: cfg.dry_run,
        inner,
    })
}

/// The checks every type shares before its own preclaim. Ok carries tesSUCCESS, or the
/// `tecINSUFF_FEE` of a payer short of the fee in a closed ledger (it claims what the
/// payer has; the type's preclaim and apply are skipped).
fn preclaim_common(
    view: &dyn ReadView,
    tx: &StObject,
    c: &Common,
    rules: &Rules,
) -> Result<Ter, Ter> {
    let s = sf();
    let info = view.info();
    // checkSeqProxy.
    let Some(root) = view.read(&keylet::account(&c.account)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    let acct_seq = root.u32_of(s.sequence).unwrap_or(0);
    match tx.u32_of(s.ticket_sequence) {
        Some(_) if c.sequence != 0 => return Err(Ter::temSEQ_AND_TICKET),
        // The TicketCreate making it may not be in the ledger yet: retry.
        Some(ticket) if ticket >= acct_seq => return Err(Ter::terPRE_TICKET),
        Some(ticket) if view.read(&keylet::ticket(&c.account, ticket)).is_none() => {
            return Err(Ter::tefNO_TICKET)
        }
        Some(_) => {}
        None if c.sequence > acct_seq => return Err(Ter::terPRE_SEQ),
        None if c.sequence < acct_seq => return Err(Ter::tefPAST_SEQ),
        None => {}
    }
    // checkPriorTxAndLastLedger.
    if let Some(prior) = tx.h256_of(s.account_txn_id) {
        if root.h256_of(s.account_txn_id) != Some(prior) {
            return Err(Ter::tefWRONG_PRIOR);
        }
    }
    if let Some(lls) = tx.u32_of(s.last_ledger_sequence) {
        if lls < info.seq {
            return Err(Ter::tefMAX_LEDGER);
        }
    }
    let payer = c.delegate.unwrap_or(c.account);
    super::sponsor::checks::check_sponsor(view, tx, &payer)?;
    super::delegate::check_permission(view, tx, &c.account).into_result()?;
    // checkFee: an inner transaction pays nothing (its Batch paid for it).
    if c.inner {
        if c.fee != 0 {
            return Err(Ter::temBAD_FEE);
        }
        if super::batch::inner_has_signature(tx) {
            return Err(Ter::temINVALID_FLAG);
        }
        return Ok(Ter::tesSUCCESS);
    }
    let Some(root) = view.read(&keylet::account(&payer)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    let fee_due = if free_regular_key(rules, &root, c) {
        0
    } else {
        let own = base_fee(tx, info.fees.base_drops, info.fees.reserve_inc_drops);
        match rules.fee {
            BaseFee::Times(multiple) => own.saturating_mul(multiple(view, tx)),
            _ => own,
        }
    };
    if info.open && (c.fee as u64) < fee_due {
        return Err(Ter::telINSUF_FEE_P);
    }
    let fee_payer = FeePayer::of(view, tx, &payer);
    let funded = match sponsor_fee::check(view, &fee_payer, c.fee) {
        Err(t) if t.is_tec() => t,
        Err(t) => return Err(t),
        Ok(()) => Ter::tesSUCCESS,
    };
    check_sign(view, tx, c, &root, &payer)?;
    if let Some(check_counterparty) = rules.counterparty {
        check_counterparty(view, tx, c.dry_run)?;
    }
    Ok(funded)
}

/// `checkSign`, for the delegate when there is one: the payer's signer list, its
/// regular key, or its master key (not disabled); first the co-signing sponsor's, alike.
fn check_sign(
    view: &dyn ReadView,
    tx: &StObject,
    c: &Common,
    root: &StObject,
    payer: &AccountId,
) -> Result<(), Ter> {
    let s = sf();
    let payer = *payer;
    let unsigned_dry_run = c.dry_run && c.signing_key.is_empty() && tx.get(s.signers).is_none();
    if !unsigned_dry_run {
        // The sponsor's co-signature is checked first (rippled's recursive checkSign).
        super::sponsor::checks::check_sign(view, tx, c.dry_run)?;
    }
    if let Some(StValue::Array(signers)) = tx.get(s.signers) {
        return check_multi_sign(view, &payer, signers);
    }
    if c.dry_run && c.signing_key.is_empty() {
        return Ok(());
    }
    single_key_authorizes(root, &payer, &c.signing_key)
}

/// Whether `key` may sign alone for `account` (its AccountRoot `root`): its regular key,
/// or its master key unless disabled (`tefMASTER_DISABLED`); else `tefBAD_AUTH`.
pub(crate) fn single_key_authorizes(
    root: &StObject,
    account: &AccountId,
    key: &[u8],
) -> Result<(), Ter> {
    let signer = AccountId::from_public_key(key);
    if root.account_of(sf().regular_key) == Some(signer) {
        return Ok(());
    }
    if signer == *account {
        if root.is_flag(lsf::DISABLE_MASTER) {
            return Err(Ter::tefMASTER_DISABLED);
        }
        return Ok(());
    }
    Err(Ter::tefBAD_AUTH)
}

/// rippled's `calculateBaseFee` for `tx` (drops), as its type's registry row says
/// ([`BaseFee`]): the base fee plus one per multi-signer (the account's and the
/// sponsor's) and per unit the type counts, one
/// owner reserve, or the type's own schedule added. What a view changes (LoanPay's
/// multiple, SetRegularKey's free use) is applied in preclaim.
pub fn base_fee(tx: &StObject, base_drops: u64, reserve_inc_drops: u64) -> u64 {
    let s = sf();
    let fee = tx
        .u16_of(s.transaction_type)
        .and_then(registry::transactor)
        .map_or(BaseFee::Reference, |t| t.rules.fee);
    if let BaseFee::OwnerReserve = fee {
        // One owner reserve increment, whatever the signers (AMMCreate's, VaultCreate's
        // and DeleteAccount's calculateBaseFee).
        return reserve_inc_drops;
    }
    let signers = match tx.get(s.signers) {
        Some(StValue::Array(a)) => a.len() as u64,
        _ => 0,
    } + super::sponsor::checks::signer_count(tx);
    let units = match fee {
        BaseFee::PlusUnits(units) => units(tx),
        _ => 0,
    };
    let own = base_drops.saturating_mul(1 + signers + units);
    match fee {
        BaseFee::PlusDrops(drops) => own.saturating_add(drops(tx, base_drops, reserve_inc_drops)),
        _ => own,
    }
}

/// rippled's `calculateBaseFee(view, tx)` (drops), which the transaction queue levels
/// fees against: [`base_fee`] with what the view changes (LoanPay's multiple, a first
/// regular key set free with the master key); nothing for a Batch's inner transaction.
pub fn base_fee_in(view: &dyn ReadView, tx: &StObject) -> u64 {
    if super::batch::is_inner(tx) {
        return 0;
    }
    let s = sf();
    let fees = view.info().fees;
    let own = base_fee(tx, fees.base_drops, fees.reserve_inc_drops);
    let row = tx.u16_of(s.transaction_type).and_then(registry::transactor);
    match row.map(|t| t.rules.fee) {
        Some(BaseFee::Times(multiple)) => own.saturating_mul(multiple(view, tx)),
        Some(BaseFee::FirstKeyFree) => {
            let account = tx.account_of(s.account);
            let signer = tx
                .blob_of(s.signing_pub_key)
                .map(AccountId::from_public_key);
            let spent = account
                .and_then(|a| view.read(&keylet::account(&a)))
                .is_none_or(|root| root.is_flag(lsf::PASSWORD_SPENT));
            if account.is_some() && signer == account && !spent {
                0
            } else {
                own
            }
        }
        _ => own,
    }
}

/// rippled's `checkMultiSign`: every signer must be on the account's signer list (both
/// lists are sorted by account) and sign with its master key (not disabled), its regular
/// key, or as a phantom account (not in the ledger, signing with its own key); their
/// weights must reach the quorum.
pub(crate) fn check_multi_sign(
    view: &dyn ReadView,
    account: &AccountId,
    signers: &[(crate::protocol::definitions::Field, StObject)],
) -> Result<(), Ter> {
    let s = sf();
    let Some(list) = view.read(&keylet::signers(account)) else {
        return Err(Ter::tefNOT_MULTI_SIGNING);
    };
    let entries = super::account::signer_entries(&list)?;
    let mut listed = entries.iter().peekable();
    let mut weight: u64 = 0;
    for (_, signer) in signers {
        let id = signer.account_of(s.account).unwrap_or_default();
        while listed.peek().is_some_and(|e| e.account < id) {
            listed.next();
        }
        let Some(entry) = listed.peek().filter(|e| e.account == id) else {
            return Err(Ter::tefBAD_SIGNATURE);
        };
        let key = signer.blob_of(s.signing_pub_key).unwrap_or_default();
        if key_kind(key).is_none() {
            return Err(Ter::tefBAD_SIGNATURE);
        }
        let from_key = AccountId::from_public_key(key);
        let root = view.read(&keylet::account(&id));
        match root {
            Some(r) if from_key == id && r.is_flag(lsf::DISABLE_MASTER) => {
                return Err(Ter::tefMASTER_DISABLED)
            }
            Some(r) if from_key != id && r.account_of(s.regular_key) != Some(from_key) => {
                return Err(Ter::tefBAD_SIGNATURE)
            }
            None if from_key != id => return Err(Ter::tefBAD_SIGNATURE),
            _ => {}
        }
        weight += u64::from(entry.weight);
    }
    if weight < u64::from(list.u32_of(s.signer_quorum).unwrap_or(0)) {
        return Err(Ter::tefBAD_QUORUM);
    }
    Ok(())
}

/// rippled lets an account set its first regular key for free, signed by its master key
/// (`SetRegularKey::calculateBaseFee`; the lsfPasswordSpent flag records the use): a type
/// whose fee is [`BaseFee::FirstKeyFree`].
fn free_regular_key(rules: &Rules, root: &StObject, c_account_key: &Common) -> bool {
    matches!(rules.fee, BaseFee::FirstKeyFree)
        && AccountId::from_public_key(&c_account_key.signing_key) == c_account_key.account
        && !root.is_flag(lsf::PASSWORD_SPENT)
}

/// Consumes the sequence and charges the fee to its payer (the sender, its delegate or
/// its fee sponsor: [`FeePayer`]); returns the sender's balance before the fee and the
/// fee. `tx_id` is recorded in AccountTxnID when given: rippled's `Transactor::apply`
/// does that, but `reset` (the re-charge after a tec) does not, so a tec leaves
/// AccountTxnID at the last applied transaction. `capped` is the re-charge: a sponsor
/// pays what it can (rippled's `reset`) instead of failing (`payFee`).
fn charge(
    sb: &mut Sandbox,
    tx: &StObject,
    c: &Common,
    tx_id: Option<&Hash256>,
    capped: bool,
) -> Result<(i64, i64), Ter> {
    let s = sf();
    let key = keylet::account(&c.account);
    if let Some(ticket) = tx.u32_of(s.ticket_sequence) {
        delete_ticket(sb, &c.account, ticket).ok_or(Ter::tefINTERNAL)?;
    }
    let mut root = sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    let prior = balance_drops(&root);
    let payer = FeePayer::of(sb, tx, &c.delegate.unwrap_or(c.account));
    let own = payer == FeePayer::Root(c.account);
    let own_fee = if own { c.fee.min(prior) } else { 0 };
    if tx.u32_of(s.ticket_sequence).is_none() {
        let seq = root.u32_of(s.sequence).unwrap_or(0);
        root.set(s.sequence, StValue::UInt32(seq.wrapping_add(1)));
    }
    set_drops(&mut root, s.balance, prior - own_fee);
    if let Some(id) = tx_id {
        if root.h256_of(s.account_txn_id).is_some() {
            root.set(s.account_txn_id, StValue::Hash256(*id));
        }
    }
    sb.update(key, root);
    let fee = if own {
        own_fee
    } else {
        sponsor_fee::pay(sb, &payer, c.fee, capped)?
    };
    Ok((prior, fee))
}

/// Consumes `account`'s Ticket `seq` (rippled `Transactor::ticketDelete`): out of its
/// directory and the ledger, one less in TicketCount (the field goes at zero) and in
/// OwnerCount.
pub fn delete_ticket(sb: &mut Sandbox, account: &AccountId, seq: u32) -> Option<()> {
    let s = sf();
    let key = keylet::ticket(account, seq);
    let ticket = sb.peek(&key)?;
    let page = ticket.u64_of(s.owner_node).unwrap_or(0);
    if !super::directory::remove_owned(sb, account, page, &key, true) {
        return None;
    }
    let root_key = keylet::account(account);
    let mut root = sb.peek(&root_key)?;
    match root.u32_of(s.ticket_count)? {
        1 => {
            root.remove(s.ticket_count);
        }
        n => root.set(s.ticket_count, StValue::UInt32(n - 1)),
    }
    sb.update(root_key, root);
    super::entry::adjust_owner_count(sb, account, -1);
    sb.erase(key);
    Some(())
}

/// Applies one decoded, signed transaction to `view`, as transaction `tx_index`
/// (0-based) of its ledger. Pure: returns the writes instead of making them.
pub fn apply_transaction(
    view: &dyn ReadView,
    tx: &StObject,
    tx_id: &Hash256,
    tx_index: u32,
    cfg: &ApplyConfig,
) -> Outcome {
    // A fault an earlier transaction's checks raised and left unread is not this one's.
    let _ = crate::protocol::number::take_fault();
    let _rules = crate::ledger::rules::CurrentRules::set(view.info().rules);
    let (c, transactor, preclaim) = match preflight_and_preclaim(view, tx, cfg) {
        Ok(checked) => checked,
        Err(t) => return Outcome::rejected(t),
    };
    let rules = &transactor.rules;
    let (mut ctx, mut fee, preclaim) = match charged_context(view, tx, tx_id, &c, rules, preclaim) {
        Ok(charged) => charged,
        Err(t) => return Outcome::rejected(t),
    };
    let mut ter = run_apply(transactor, &mut ctx, preclaim);
    // Transactor::operator(): under tapFAIL_HARD a tec is discarded whole.
    if !ter.is_applied() || (ter.is_tec() && cfg.fail_hard) {
        return Outcome::rejected(ter);
    }
    if ter.is_tec() {
        match reset_after_tec(&mut ctx, &c, ter) {
            Some(charged) => fee = charged,
            None => return Outcome::rejected(Ter::tefINTERNAL),
        }
    }
    let checked = |sb: &Sandbox, ter: Ter, fee: i64| {
        invariants::check(sb.items(), fee, c.fee, &c.account, rules.deletes_root)?;
        invariants::permissioned_dex(sb, tx, ter, rules.dex)?;
        invariants::loan_broker_cover(sb, rules.deletes_root)?;
        invariants::permissioned_domain(sb, ter, rules.domain)?;
        invariants::pseudo_account_ownership(sb)?;
        let amm_ok = (!rules.amm_withdrawal
            || super::amm::invariant::withdrawal_holds(sb, tx, ter))
            && super::amm::invariant::deletion_holds(sb, tx, ter);
        amm_ok
            .then_some(())
            .ok_or(invariants::Violation::BadAmmPool)
    };
    if let Err(v) = checked(&ctx.sb, ter, fee) {
        if std::env::var_os("INV_TRACE").is_some() {
            eprintln!("VIOLATION {:?} ter {}", v, ter);
            for (k, i) in ctx.sb.items().iter() {
                eprintln!(
                    "{:?} {:?}\n  before {:?}\n  after {:?}",
                    k, i.action, i.orig, i.cur
                );
            }
        }
    }
    if checked(&ctx.sb, ter, fee).is_err() {
        ter = Ter::tecINVARIANT_FAILED;
        match reset(&mut ctx, &c) {
            Some(charged) => fee = charged,
            None => return Outcome::rejected(Ter::tefINVARIANT_FAILED),
        }
        if checked(&ctx.sb, ter, fee).is_err() {
            return Outcome::rejected(Ter::tefINVARIANT_FAILED);
        }
    }
    let ApplyContext {
        sb,
        delivered,
        meta_delivered,
        meta_delivered_mpt,
        ..
    } = ctx;
    let result_code = ter.code().clamp(0, 255) as u8;
    let (mut meta, writes) = finalize(
        sb.into_items(),
        view,
        tx_id,
        tx_index,
        result_code,
        meta_delivered,
    );
    if let Some(d) = meta_delivered_mpt {
        meta.set(sf().delivered_amount, StValue::MptAmount(d));
    }
    if let Some(parent) = cfg.parent_batch {
        meta.set(sf().parent_batch_id, StValue::Hash256(parent));
    }
    Outcome {
        ter,
        applied: true,
        meta: Some(meta),
        writes,
        fee_drops: fee,
        delivered,
    }
}

/// Transactor::operator() after a `tec`: what the transaction did is thrown away (the
/// fee and sequence stay), then the offers a killed transaction found unfunded, the
/// credentials and NFToken offers an expired one deleted and (fixCleanup3_4_0) the
/// credentials an incomplete one deleted are deleted again. Returns the
/// fee charged again; None when the reset fails.
fn reset_after_tec(ctx: &mut ApplyContext, c: &Common, ter: Ter) -> Option<i64> {
    let removed_offers = if ter == Ter::tecKILLED || ter == Ter::tecOVERSIZE {
        unfunded_offers_removed(&ctx.sb)
    } else {
        Vec::new()
    };
    let (mut deleted_credentials, expired_nft_offers) = if ter == Ter::tecEXPIRED {
        let mut offers = erased_of_type(&ctx.sb, crate::ledger::flags::lt::NFTOKEN_OFFER);
        offers.truncate(EXPIRED_OFFER_REMOVE_LIMIT);
        (
            erased_of_type(&ctx.sb, crate::ledger::flags::lt::CREDENTIAL),
            offers,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    // fixCleanup3_4_0: a `tecINCOMPLETE` keeps the credentials it deleted (VaultDelete's
    // bounded removal of those pinned on a pseudo-account, resumed by the next one).
    if ter == Ter::tecINCOMPLETE
        && ctx
            .sb
            .info()
            .rules
            .enabled(crate::protocol::features::Feature::FixCleanup3_4_0)
    {
        deleted_credentials = erased_of_type(&ctx.sb, crate::ledger::flags::lt::CREDENTIAL);
    }
    let fee = reset(ctx, c)?;
    for key in &removed_offers {
        let _ = super::dex::offer_delete(&mut ctx.sb, key);
    }
    for key in &expired_nft_offers {
        let _ = super::nft::delete_offer(&mut ctx.sb, key);
    }
    for key in &deleted_credentials {
        let _ = super::credential::delete_credential(&mut ctx.sb, key);
    }
    Some(fee)
}

/// The type's doApply (skipped for a preclaim `tec`, which claims the fee). A fault the
/// checks or the transactor did not catch themselves is an exception out of rippled's
/// preclaim or doApply: `tefEXCEPTION`, nothing applied (rippled `applySteps`).
fn run_apply(transactor: &Transactor, ctx: &mut ApplyContext, preclaim: Ter) -> Ter {
    let ter = if preclaim.is_tec() {
        preclaim
    } else {
        (transactor.do_apply)(ctx)
    };
    if crate::protocol::number::take_fault() {
        return Ter::tefEXCEPTION;
    }
    ter
}

/// Offers a killed transaction deleted without trading against them (found unfunded,
/// expired or unauthorized): rippled deletes them again after the reset.
fn unfunded_offers_removed(sb: &Sandbox) -> Vec<Hash256> {
    let s = sf();
    sb.items()
        .iter()
        .filter(|(_, i)| {
            i.action == super::sandbox::Action::Erase
                && i.orig.as_ref().is_some_and(|o| {
                    o.u16_of(s.ledger_entry_type) == Some(crate::ledger::flags::lt::OFFER)
                        && o.amount_of(s.taker_pays) == i.cur.amount_of(s.taker_pays)
                })
        })
        .map(|(k, _)| *k)
        .collect()
}

/// At most this many NFToken offers a `tecEXPIRED` deleted are deleted again after the
/// reset (rippled `expiredOfferRemoveLimit`).
const EXPIRED_OFFER_REMOVE_LIMIT: usize = 256;

/// Entries of `entry_type` the transaction deleted: after a tecEXPIRED rippled deletes
/// the expired credentials and NFToken offers again once the rest is thrown away.
fn erased_of_type(sb: &Sandbox, entry_type: u16) -> Vec<Hash256> {
    sb.items()
        .iter()
        .filter(|(_, i)| {
            i.action == super::sandbox::Action::Erase
                && i.orig
                    .as_ref()
                    .is_some_and(|o| o.u16_of(sf().ledger_entry_type) == Some(entry_type))
        })
        .map(|(k, _)| *k)
        .collect()
}

/// Everything before the sandbox: the common and the type's preflight, the signature,
/// the common and the type's preclaim. Returns the common fields, the type's row and its
/// preclaim result (tes, or a tec that still claims the fee: the type's apply is then
/// skipped).
fn preflight_and_preclaim(
    view: &dyn ReadView,
    tx: &StObject,
    cfg: &ApplyConfig,
) -> Result<(Common, &'static Transactor, Ter), Ter> {
    let (c, transactor) = preflight_checks(view, tx, cfg)?;
    let funded = preclaim_common(view, tx, &c, &transactor.rules)?;
    if funded.is_tec() {
        return Ok((c, transactor, funded));
    }
    let preclaim = (transactor.preclaim)(view, tx, &c.account);
    if !preclaim.is_applied() {
        return Err(preclaim);
    }
    Ok((c, transactor, preclaim))
}

/// rippled's `preflight` for a submission to `view`'s ledger: the amendment gates, the
/// common and the type's checks, the signature. `Ok` or the failure.
pub fn preflight_result(view: &dyn ReadView, tx: &StObject, cfg: &ApplyConfig) -> Result<(), Ter> {
    let _ = crate::protocol::number::take_fault();
    let _rules = crate::ledger::rules::CurrentRules::set(view.info().rules);
    preflight_checks(view, tx, cfg).map(|_| ())
}

/// rippled's `preflight` then `preclaim` against `view`, applying nothing: tesSUCCESS, a
/// tec (the fee would be claimed), or the failure.
pub fn preclaim_result(view: &dyn ReadView, tx: &StObject, cfg: &ApplyConfig) -> Ter {
    let _ = crate::protocol::number::take_fault();
    let _rules = crate::ledger::rules::CurrentRules::set(view.info().rules);
    match preflight_and_preclaim(view, tx, cfg) {
        Ok((_, _, ter)) => ter,
        Err(ter) => ter,
    }
}

fn preflight_checks(
    view: &dyn ReadView,
    tx: &StObject,
    cfg: &ApplyConfig,
) -> Result<(Common, &'static Transactor), Ter> {
    let rules = view.info().rules;
    let row = tx
        .u16_of(sf().transaction_type)
        .and_then(registry::transactor);
    feature_gates(row, tx, &rules)?;
    let c = preflight_common(tx, cfg, &rules)?;
    let Some(transactor) = row else {
        return Err(Ter::temUNKNOWN);
    };
    let preflight = match transactor.rules.carries_inner {
        Some(carries) => (carries.preflight)(tx, &c.account, cfg),
        None => (transactor.preflight)(tx, &c.account),
    };
    preflight.into_result()?;
    // preflight2: the signature; an inner transaction (past preflight1's rules and parent
    // checks) has none to check.
    if let Some(check) = cfg.signature_check.as_ref().filter(|_| !c.inner) {
        if !check(tx, &rules) {
            return Err(Ter::temINVALID);
        }
    }
    Ok((c, transactor))
}

/// Preflight alone (common and type checks, no signature): what a Batch asks of each of
/// its inner transactions.
pub(crate) fn preflight_only(tx: &StObject, cfg: &ApplyConfig) -> Result<(), Ter> {
    // The Batch applies under its ledger's rules, which the engine made current.
    let rules = crate::ledger::rules::current();
    let row = tx
        .u16_of(sf().transaction_type)
        .and_then(registry::transactor);
    feature_gates(row, tx, &rules)?;
    let c = preflight_common(tx, cfg, &rules)?;
    match row {
        Some(t) if t.rules.carries_inner.is_some() => Err(Ter::temINVALID),
        Some(t) => (t.preflight)(tx, &c.account).into_result(),
        None => Err(Ter::temUNKNOWN),
    }
}

/// A sandbox with the fee charged and the sequence consumed, in the context the type's
/// apply sees; the fee charged; and the result so far: `preclaim`, or the `tec` of a
/// sponsor short of the fee (rippled's `payFee`; the fee is then charged as `reset`
/// caps it, and the type's apply is skipped).
fn charged_context<'a, 't>(
    view: &'a dyn ReadView,
    tx: &'t StObject,
    tx_id: &Hash256,
    c: &Common,
    rules: &Rules,
    preclaim: Ter,
) -> Result<(ApplyContext<'a, 't>, i64, Ter), Ter> {
    let mut sb = Sandbox::new(view);
    let (prior, fee, ter) = match charge(&mut sb, tx, c, Some(tx_id), preclaim.is_tec()) {
        Ok((prior, fee)) => (prior, fee, preclaim),
        Err(t) if t.is_tec() => {
            sb.discard();
            let (prior, fee) = charge(&mut sb, tx, c, None, true)?;
            (prior, fee, t)
        }
        Err(t) => return Err(t),
    };
    let sponsored = FeePayer::of(view, tx, &c.delegate.unwrap_or(c.account)).is_sponsor();
    let signed_by_master = AccountId::from_public_key(&c.signing_key) == c.account;
    let free_key = view
        .read(&keylet::account(&c.account))
        .is_some_and(|r| free_regular_key(rules, &r, c));
    let ctx = ApplyContext {
        sb,
        free_key,
        tx,
        account: c.account,
        prior_balance: prior,
        source_balance: if c.delegate.is_some() || sponsored {
            prior
        } else {
            prior - fee
        },
        signed_by_master,
        delivered: None,
        meta_delivered: None,
        meta_delivered_mpt: None,
    };
    Ok((ctx, fee, ter))
}

/// Throws away the transaction's effect, keeping only the fee (capped as rippled's
/// `reset` caps it) and the consumed sequence (after a tec, or an invariant failure).
/// Returns the fee; None when it cannot be charged again.
fn reset(ctx: &mut ApplyContext, c: &Common) -> Option<i64> {
    ctx.sb.discard();
    ctx.delivered = None;
    ctx.meta_delivered = None;
    ctx.meta_delivered_mpt = None;
    charge(&mut ctx.sb, ctx.tx, c, None, true)
        .ok()
        .map(|(_, fee)| fee)
}
