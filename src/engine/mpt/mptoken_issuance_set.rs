//! MPTokenIssuanceSet (rippled `MPTokenIssuanceSet.cpp`, with DynamicMPT as XLS-94 has
//! it, SingleAssetVault's DomainID and ConfidentialTransfer's keys): the issuer of an issuance
//! created with tfMPTCanLock locks or unlocks it, for every holder or (with `Holder`) for
//! one. With DynamicMPT the issuer also mutates the issuance: `tfMPTSet*` flags enable a
//! capability for good, `MPTokenMetadata` and `TransferFee` are replaced (removed when
//! empty or zero), and `ImmutableFlags` bits are added to the issuance's; a bit already
//! there forbids the change it names (`tecNO_PERMISSION`). With ConfidentialTransfer the
//! issuer registers its ElGamal key (`IssuerEncryptionKey`, with an optional
//! `AuditorEncryptionKey`) once, on an issuance that holds or is enabled to hold
//! confidential balances, while none circulate.

use super::{
    immutable_flags_invalid, issuance, mptoken, names_confidential_bit, METADATA_LEN_MAX,
    TRANSFER_FEE_MAX,
};
use crate::engine::entry::set_flags;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf_mpt, lsif_mpt, lt};
use crate::ledger::keylet;
use crate::ledger::rules::enabled_now;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::confidential;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// MPTokenIssuanceSet flags.
pub mod tf {
    /// Lock.
    pub const LOCK: u32 = 0x0000_0001;
    /// Unlock.
    pub const UNLOCK: u32 = 0x0000_0002;
    /// DynamicMPT: enable lsfMPTCanLock.
    pub const SET_CAN_LOCK: u32 = 0x0000_0004;
    /// DynamicMPT: enable lsfMPTRequireAuth.
    pub const SET_REQUIRE_AUTH: u32 = 0x0000_0008;
    /// DynamicMPT: enable lsfMPTCanEscrow.
    pub const SET_CAN_ESCROW: u32 = 0x0000_0010;
    /// DynamicMPT: enable lsfMPTCanTrade.
    pub const SET_CAN_TRADE: u32 = 0x0000_0020;
    /// DynamicMPT: enable lsfMPTCanTransfer.
    pub const SET_CAN_TRANSFER: u32 = 0x0000_0040;
    /// DynamicMPT: enable lsfMPTCanClawback.
    pub const SET_CAN_CLAWBACK: u32 = 0x0000_0080;
    /// DynamicMPT with ConfidentialTransfer: enable lsfMPTCanHoldConfidentialBalance.
    pub const SET_CAN_HOLD_CONFIDENTIAL_BALANCE: u32 = 0x0000_0100;
    /// The capability-setting flags (`tfMPTokenIssuanceSetEnableFlagMask`).
    pub const ENABLE_MASK: u32 = SET_CAN_LOCK
        | SET_REQUIRE_AUTH
        | SET_CAN_ESCROW
        | SET_CAN_TRADE
        | SET_CAN_TRANSFER
        | SET_CAN_CLAWBACK
        | SET_CAN_HOLD_CONFIDENTIAL_BALANCE;
    /// Bits the type may not set (`tfMPTokenIssuanceSetMask`).
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK & !(LOCK | UNLOCK | ENABLE_MASK);
}

/// Each capability-setting flag, the ImmutableFlags bit that forbids it and the issuance
/// flag it sets (rippled's `flagMapping`).
const CAPABILITIES: [(u32, u32, u32); 7] = [
    (tf::SET_CAN_LOCK, lsif_mpt::CAN_LOCK, lsf_mpt::CAN_LOCK),
    (
        tf::SET_REQUIRE_AUTH,
        lsif_mpt::REQUIRE_AUTH,
        lsf_mpt::REQUIRE_AUTH,
    ),
    (
        tf::SET_CAN_ESCROW,
        lsif_mpt::CAN_ESCROW,
        lsf_mpt::CAN_ESCROW,
    ),
    (tf::SET_CAN_TRADE, lsif_mpt::CAN_TRADE, lsf_mpt::CAN_TRADE),
    (
        tf::SET_CAN_TRANSFER,
        lsif_mpt::CAN_TRANSFER,
        lsf_mpt::CAN_TRANSFER,
    ),
    (
        tf::SET_CAN_CLAWBACK,
        lsif_mpt::CAN_CLAWBACK,
        lsf_mpt::CAN_CLAWBACK,
    ),
    (
        tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE,
        lsif_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE,
        lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE,
    ),
];

/// The transaction registers an issuer or auditor encryption key.
fn sets_keys(tx: &StObject) -> bool {
    let s = sf();
    tx.get(s.issuer_encryption_key).is_some() || tx.get(s.auditor_encryption_key).is_some()
}

/// It uses what ConfidentialTransfer brings: a key, or the confidential capability.
fn uses_confidential(tx: &StObject) -> bool {
    sets_keys(tx)
        || tx.flags() & tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE != 0
        || names_confidential_bit(tx)
}

/// The transaction mutates the issuance (rippled's `isMutate`).
fn is_mutate(tx: &StObject) -> bool {
    let s = sf();
    tx.flags() & tf::ENABLE_MASK != 0
        || tx.get(s.mptoken_metadata).is_some()
        || tx.get(s.transfer_fee).is_some()
        || tx.get(s.immutable_flags).is_some()
}

/// checkExtraFeatures: a `DomainID` needs PermissionedDomains and SingleAssetVault.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    super::domain_allowed(tx, rules)
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if is_mutate(tx) && !enabled_now(Feature::DynamicMPT) {
        return Ter::temDISABLED;
    }
    if uses_confidential(tx) && !enabled_now(Feature::ConfidentialTransfer) {
        return Ter::temDISABLED;
    }
    let domain = tx.get(s.domain_id).is_some();
    if domain && tx.get(s.holder).is_some() {
        return Ter::temMALFORMED;
    }
    if flags & tf::LOCK != 0 && flags & tf::UNLOCK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.mpt_id_of(s.mpt_issuance_id).is_none() {
        return Ter::temMALFORMED;
    }
    let holder = tx.account_of(s.holder);
    if holder == Some(*account) {
        return Ter::temMALFORMED;
    }
    let mutate = is_mutate(tx);
    // Nothing to change (a rule of SingleAssetVault's and DynamicMPT's).
    let checks_change = enabled_now(Feature::SingleAssetVault)
        || enabled_now(Feature::DynamicMPT)
        || enabled_now(Feature::ConfidentialTransfer);
    if checks_change && flags == 0 && !domain && !mutate && !sets_keys(tx) {
        return Ter::temMALFORMED;
    }
    if mutate {
        let t = preflight_mutation(tx, holder.is_some());
        if t != Ter::tesSUCCESS {
            return t;
        }
    }
    preflight_keys(tx, holder.is_some())
}

/// preflight of the encryption keys: never for one holder, the auditor's only with the
/// issuer's, each a valid compressed point.
fn preflight_keys(tx: &StObject, has_holder: bool) -> Ter {
    let s = sf();
    let issuer_key = tx.blob_of(s.issuer_encryption_key);
    let auditor_key = tx.blob_of(s.auditor_encryption_key);
    if has_holder && (issuer_key.is_some() || auditor_key.is_some()) {
        return Ter::temMALFORMED;
    }
    if auditor_key.is_some() && issuer_key.is_none() {
        return Ter::temMALFORMED;
    }
    let bad = |k: Option<&[u8]>| k.is_some_and(|k| !confidential::is_valid_point(k));
    if bad(issuer_key) || bad(auditor_key) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preflight of a mutation (DynamicMPT).
fn preflight_mutation(tx: &StObject, has_holder: bool) -> Ter {
    let s = sf();
    if has_holder || tx.flags() & (tf::LOCK | tf::UNLOCK) != 0 {
        return Ter::temMALFORMED;
    }
    if tx
        .u16_of(s.transfer_fee)
        .is_some_and(|f| f > TRANSFER_FEE_MAX)
    {
        return Ter::temBAD_TRANSFER_FEE;
    }
    if tx
        .blob_of(s.mptoken_metadata)
        .is_some_and(|m| m.len() > METADATA_LEN_MAX)
    {
        return Ter::temMALFORMED;
    }
    if immutable_flags_invalid(tx) {
        return Ter::temINVALID_FLAG;
    }
    // Confidential balances never pay a transfer fee.
    let enables_confidential = tx.flags() & tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE != 0;
    if enables_confidential && tx.u16_of(s.transfer_fee).is_some_and(|f| f > 0) {
        return Ter::temBAD_TRANSFER_FEE;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let Some(id) = tx.mpt_id_of(s.mpt_issuance_id) else {
        return Err(Ter::temMALFORMED);
    };
    let Some(iss) = issuance(view, &id) else {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    };
    // Before SingleAssetVault and DynamicMPT every change needs lsfMPTCanLock; with
    // either, only a lock or unlock does.
    if !iss.is_flag(lsf_mpt::CAN_LOCK) {
        let rules = view.info().rules;
        let any = !rules.enabled(Feature::SingleAssetVault) && !rules.enabled(Feature::DynamicMPT);
        if any || tx.flags() & (tf::LOCK | tf::UNLOCK) != 0 {
            return Err(Ter::tecNO_PERMISSION);
        }
    }
    if iss.account_of(s.issuer) != Some(*account) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if let Some(holder) = tx.account_of(s.holder) {
        if view.read(&keylet::account(&holder)).is_none() {
            return Err(Ter::tecNO_DST);
        }
        if mptoken(view, &id, &holder).is_none() {
            return Err(Ter::tecOBJECT_NOT_FOUND);
        }
    }
    preclaim_domain(view, &iss, tx).into_result()?;
    preclaim_mutation(&iss, tx).into_result()?;
    preclaim_confidential(&iss, tx).into_result()
}

/// preclaim of what ConfidentialTransfer adds: the capability is enabled only while no
/// confidential balance circulates and without a transfer fee (which it then forbids);
/// each key is registered once, on an issuance that holds or is being enabled to hold
/// confidential balances, while none circulate.
fn preclaim_confidential(iss: &StObject, tx: &StObject) -> Ter {
    let s = sf();
    let circulating = iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0) > 0;
    let enables = tx.flags() & tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE != 0;
    let fee_now = iss.u16_of(s.transfer_fee).unwrap_or(0) > 0;
    if enables && (circulating || fee_now) {
        return Ter::tecNO_PERMISSION;
    }
    let confidential = iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE);
    if tx.u16_of(s.transfer_fee).is_some_and(|f| f > 0) && confidential {
        return Ter::tecNO_PERMISSION;
    }
    for key in [s.issuer_encryption_key, s.auditor_encryption_key] {
        if tx.get(key).is_none() {
            continue;
        }
        if iss.get(key).is_some() || !(confidential || enables) || circulating {
            return Ter::tecNO_PERMISSION;
        }
    }
    Ter::tesSUCCESS
}

/// A `DomainID` (SingleAssetVault): only on a RequireAuth issuance (`tecNO_PERMISSION`),
/// naming an existing permissioned domain unless zero (`tecOBJECT_NOT_FOUND`).
fn preclaim_domain(view: &dyn ReadView, iss: &StObject, tx: &StObject) -> Ter {
    let s = sf();
    let Some(domain) = tx.h256_of(s.domain_id) else {
        return Ter::tesSUCCESS;
    };
    if !iss.is_flag(lsf_mpt::REQUIRE_AUTH) {
        return Ter::tecNO_PERMISSION;
    }
    let found = view
        .read(&domain)
        .is_some_and(|d| d.u16_of(s.ledger_entry_type) == Some(lt::PERMISSIONED_DOMAIN));
    if domain != Hash256::ZERO && !found {
        return Ter::tecOBJECT_NOT_FOUND;
    }
    Ter::tesSUCCESS
}

/// preclaim of a mutation: nothing the issuance's ImmutableFlags forbid, and a non-zero
/// TransferFee only with lsfMPTCanTransfer (already set, or enabled by this transaction).
fn preclaim_mutation(iss: &StObject, tx: &StObject) -> Ter {
    let s = sf();
    let immutable = iss.u32_of(s.immutable_flags).unwrap_or(0);
    let flags = tx.flags();
    let forbidden = CAPABILITIES
        .iter()
        .any(|(set, lsif, _)| flags & set != 0 && immutable & lsif != 0);
    if forbidden {
        return Ter::tecNO_PERMISSION;
    }
    if tx.get(s.mptoken_metadata).is_some() && immutable & lsif_mpt::METADATA != 0 {
        return Ter::tecNO_PERMISSION;
    }
    if let Some(fee) = tx.u16_of(s.transfer_fee) {
        let can_transfer = iss.is_flag(lsf_mpt::CAN_TRANSFER) || flags & tf::SET_CAN_TRANSFER != 0;
        if fee > 0 && !can_transfer {
            return Ter::tecNO_PERMISSION;
        }
        if immutable & lsif_mpt::TRANSFER_FEE != 0 {
            return Ter::tecNO_PERMISSION;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(id) = ctx.tx.mpt_id_of(s.mpt_issuance_id) else {
        return Ter::tecINTERNAL;
    };
    let key = match ctx.tx.account_of(s.holder) {
        Some(holder) => keylet::mptoken(&id, &holder),
        None => keylet::mpt_issuance(&id),
    };
    let Some(mut entry) = ctx.sb.peek(&key) else {
        return Ter::tecINTERNAL;
    };
    let flags = ctx.tx.flags();
    if flags & tf::LOCK != 0 {
        set_flags(&mut entry, lsf_mpt::LOCKED, 0);
    } else if flags & tf::UNLOCK != 0 {
        set_flags(&mut entry, 0, lsf_mpt::LOCKED);
    }
    if is_mutate(ctx.tx) {
        mutate(&mut entry, ctx.tx);
    }
    for key in [s.issuer_encryption_key, s.auditor_encryption_key] {
        if let Some(k) = ctx.tx.blob_of(key) {
            entry.set(key, StValue::Blob(k.to_vec()));
        }
    }
    match ctx.tx.h256_of(s.domain_id) {
        Some(d) if d == Hash256::ZERO => drop(entry.remove(s.domain_id)),
        Some(d) => entry.set(s.domain_id, StValue::Hash256(d)),
        None => {}
    }
    ctx.sb.update(key, entry);
    Ter::tesSUCCESS
}

/// Applies a mutation to the issuance: capabilities enabled, ImmutableFlags added, and
/// TransferFee / MPTokenMetadata replaced (soeDEFAULT: zero or empty removes them).
fn mutate(iss: &mut StObject, tx: &StObject) {
    let s = sf();
    let flags = tx.flags();
    let enable = CAPABILITIES
        .iter()
        .filter(|(set, _, _)| flags & set != 0)
        .fold(0, |acc, (_, _, lsf)| acc | lsf);
    if enable & !iss.flags() != 0 {
        set_flags(iss, enable, 0);
    }
    if let Some(v) = tx.u32_of(s.immutable_flags) {
        let now = iss.u32_of(s.immutable_flags).unwrap_or(0);
        iss.set(s.immutable_flags, StValue::UInt32(now | v));
    }
    match tx.u16_of(s.transfer_fee) {
        Some(0) => drop(iss.remove(s.transfer_fee)),
        Some(fee) => iss.set(s.transfer_fee, StValue::UInt16(fee)),
        None => {}
    }
    match tx.blob_of(s.mptoken_metadata) {
        Some([]) => drop(iss.remove(s.mptoken_metadata)),
        Some(m) => iss.set(s.mptoken_metadata, StValue::Blob(m.to_vec())),
        None => {}
    }
}

/// A delegate's granular permissions (rippled `MPTokenIssuanceSet::checkPermission`):
/// locking with MPTokenIssuanceLock, unlocking with MPTokenIssuanceUnlock.
pub fn granular_permission(
    _view: &dyn ReadView,
    tx: &StObject,
    _account: &AccountId,
    has: &dyn Fn(&str) -> bool,
) -> bool {
    let flags = tx.flags();
    if flags & tf::MASK != 0 {
        return false;
    }
    (flags & tf::LOCK == 0 || has("MPTokenIssuanceLock"))
        && (flags & tf::UNLOCK == 0 || has("MPTokenIssuanceUnlock"))
}
