//! MPTokenIssuanceCreate (rippled `MPTokenIssuanceCreate.cpp`): the account issues a
//! multi-purpose token. The issuance is keyed by the transaction's sequence (or ticket)
//! and the issuer (`makeMptID`), sits in the issuer's owner directory and counts toward
//! its OwnerCount (and reserve). Its flags are the transaction's, less the universal
//! ones. With DynamicMPT its `ImmutableFlags` (XLS-94) name what MPTokenIssuanceSet may
//! never change. A `DomainID` (SingleAssetVault with PermissionedDomains) admits the
//! permissioned domain's members as holders of a RequireAuth issuance.

use super::seq_proxy;
use super::{immutable_flags_invalid, names_confidential_bit, METADATA_LEN_MAX, TRANSFER_FEE_MAX};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{check_reserve, new_entry, own_new, with_threading};
use crate::engine::registry::field_allowed;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_FULLY_CANONICAL_SIG, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::rules::{enabled_now, Rules};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::mpt::{MptId, MPT_AMOUNT_MAX};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// MPTokenIssuanceCreate flags (the issuance's lsfMPT* flags have the same bits).
pub mod tf {
    /// The issuer may lock balances.
    pub const CAN_LOCK: u32 = 0x0000_0002;
    /// Holders need the issuer's authorization.
    pub const REQUIRE_AUTH: u32 = 0x0000_0004;
    /// The token may be escrowed.
    pub const CAN_ESCROW: u32 = 0x0000_0008;
    /// The token may be traded on the DEX.
    pub const CAN_TRADE: u32 = 0x0000_0010;
    /// Holders may pay each other.
    pub const CAN_TRANSFER: u32 = 0x0000_0020;
    /// The issuer may claw back.
    pub const CAN_CLAWBACK: u32 = 0x0000_0040;
    /// Holders may hold confidential balances (ConfidentialTransfer).
    pub const CAN_HOLD_CONFIDENTIAL_BALANCE: u32 = 0x0000_0080;
    /// Bits the type may not set (`tfMPTokenIssuanceCreateMask`).
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK
        & !(CAN_LOCK
            | REQUIRE_AUTH
            | CAN_ESCROW
            | CAN_TRADE
            | CAN_TRANSFER
            | CAN_CLAWBACK
            | CAN_HOLD_CONFIDENTIAL_BALANCE);
}

/// checkExtraFeatures: a `DomainID` needs PermissionedDomains and SingleAssetVault;
/// `ImmutableFlags` (DynamicMPT's field, rippled's `MutableFlags`) needs DynamicMPT.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    super::domain_allowed(tx, rules)
        && field_allowed(tx, sf().immutable_flags, rules, Feature::DynamicMPT)
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    // Confidential balances need ConfidentialTransfer and never pay a transfer fee.
    let confidential = tx.flags() & tf::CAN_HOLD_CONFIDENTIAL_BALANCE != 0;
    if (confidential || names_confidential_bit(tx)) && !enabled_now(Feature::ConfidentialTransfer) {
        return Ter::temDISABLED;
    }
    if confidential && tx.u16_of(s.transfer_fee).is_some_and(|f| f > 0) {
        return Ter::temBAD_TRANSFER_FEE;
    }
    // DynamicMPT's ImmutableFlags (XLS-94).
    if immutable_flags_invalid(tx) {
        return Ter::temINVALID_FLAG;
    }
    if let Some(fee) = tx.u16_of(s.transfer_fee) {
        if fee > TRANSFER_FEE_MAX {
            return Ter::temBAD_TRANSFER_FEE;
        }
        if fee > 0 && tx.flags() & tf::CAN_TRANSFER == 0 {
            return Ter::temMALFORMED;
        }
    }
    // Only a vault's share issuance names a ReferenceHolding.
    if tx.get(s.reference_holding).is_some() {
        return Ter::temMALFORMED;
    }
    // A domain makes the issuance private: it needs RequireAuth.
    if let Some(d) = tx.h256_of(s.domain_id) {
        if d == Hash256::ZERO || tx.flags() & tf::REQUIRE_AUTH == 0 {
            return Ter::temMALFORMED;
        }
    }
    if let Some(m) = tx.blob_of(s.mptoken_metadata) {
        if m.is_empty() || m.len() > METADATA_LEN_MAX {
            return Ter::temMALFORMED;
        }
    }
    if let Some(max) = tx.u64_of(s.maximum_amount) {
        if max == 0 || max > MPT_AMOUNT_MAX {
            return Ter::temMALFORMED;
        }
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tecINTERNAL;
    };
    let fail = Ter::tecINSUFFICIENT_RESERVE;
    if let Err(t) = check_reserve(&ctx.sb, tx, &root, ctx.prior_balance, (1, 0), fail) {
        return t;
    }
    let seq = seq_proxy(tx);
    let id = MptId::new(seq, &account);
    let key = keylet::mpt_issuance(&id);
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    let mut iss = with_threading(new_entry(lt::MPTOKEN_ISSUANCE));
    iss.set(
        s.flags,
        StValue::UInt32(tx.flags() & !TF_FULLY_CANONICAL_SIG),
    );
    iss.set(s.issuer, StValue::AccountId(account));
    iss.set(s.outstanding_amount, StValue::UInt64(0));
    iss.set(s.owner_node, StValue::UInt64(page));
    iss.set(s.sequence, StValue::UInt32(seq));
    if let Some(v) = tx.u64_of(s.maximum_amount) {
        iss.set(s.maximum_amount, StValue::UInt64(v));
    }
    // AssetScale and TransferFee are soeDEFAULT: a zero is left out.
    if let Some(v) = tx.u8_of(s.asset_scale).filter(|v| *v != 0) {
        iss.set(s.asset_scale, StValue::UInt8(v));
    }
    if let Some(v) = tx.u16_of(s.transfer_fee).filter(|v| *v != 0) {
        iss.set(s.transfer_fee, StValue::UInt16(v));
    }
    if let Some(v) = tx.blob_of(s.mptoken_metadata) {
        iss.set(s.mptoken_metadata, StValue::Blob(v.to_vec()));
    }
    if let Some(d) = tx.h256_of(s.domain_id) {
        iss.set(s.domain_id, StValue::Hash256(d));
    }
    // Never zero here (preflight), as soeDEFAULT wants.
    if let Some(v) = tx.u32_of(s.immutable_flags) {
        iss.set(s.immutable_flags, StValue::UInt32(v));
    }
    own_new(&mut ctx.sb, tx, &account, (key, iss), 1);
    Ter::tesSUCCESS
}
