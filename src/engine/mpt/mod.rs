//! What the MPT transaction types and the MPT paths of Payment and Clawback share
//! (rippled `View.cpp`: `requireAuth`, `canTransfer`, `isFrozen` / `isAnyFrozen` for an
//! `MPTIssue`, `transferRate(view, MPTID)`, `accountHolds`, `rippleCreditMPT`,
//! `rippleSendMPT`).
//!
//! An issuance's `OutstandingAmount` is what its holders hold in total: the issuer
//! sending mints (up to `MaximumAmount`), a holder sending to the issuer burns, and a
//! transfer between holders goes through the issuer (mint to the receiver, burn from the
//! sender the amount plus the transfer fee).

pub mod mptoken_authorize;
pub mod mptoken_issuance_create;
pub mod mptoken_issuance_destroy;
pub mod mptoken_issuance_set;

use std::sync::Arc;

use super::sandbox::Sandbox;
use super::ter::Ter;
use super::vault::VaultAsset;
use crate::ledger::flags::{lsf_mpt, lsif_mpt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::mpt::{MptId, MPT_AMOUNT_MAX};
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// checkExtraFeatures of the issuance types: a `DomainID` needs PermissionedDomains and
/// SingleAssetVault.
pub fn domain_allowed(tx: &StObject, rules: &Rules) -> bool {
    tx.get(sf().domain_id).is_none()
        || (rules.enabled(Feature::PermissionedDomains) && rules.enabled(Feature::SingleAssetVault))
}

/// The highest TransferFee (`maxTransferFee`, 50%).
pub const TRANSFER_FEE_MAX: u16 = 50_000;
/// The longest MPTokenMetadata (`maxMPTokenMetadataLength`).
pub const METADATA_LEN_MAX: usize = 1024;
/// `QUALITY_ONE`: a transfer rate of 1.0.
const RATE_ONE: u32 = 1_000_000_000;

/// The issuance `id`.
pub fn issuance(view: &dyn ReadView, id: &MptId) -> Option<Arc<StObject>> {
    view.read(&keylet::mpt_issuance(id))
}

/// `holder`'s MPToken of `id`.
pub fn mptoken(view: &dyn ReadView, id: &MptId, holder: &AccountId) -> Option<Arc<StObject>> {
    view.read(&keylet::mptoken(id, holder))
}

/// `requireAuth` for an MPT (rippled's `AuthType::Legacy`): a holder needs an MPToken.
pub fn require_auth(view: &dyn ReadView, id: &MptId, account: &AccountId) -> Ter {
    Ter::from(require_auth_as(view, id, account, true))
}

/// `requireAuth` for an MPT as rippled has it with SingleAssetVault: the issuer always;
/// the holder of a vault's shares must also be authorized for the vault's asset; without
/// an MPToken a `strong` check fails at once; an issuance with a `DomainID` admits the
/// domain's members (a token then being optional); pseudo-accounts are authorized
/// implicitly; else a RequireAuth issuance wants an authorized token.
pub fn require_auth_as(
    view: &dyn ReadView,
    id: &MptId,
    account: &AccountId,
    strong: bool,
) -> Result<(), Ter> {
    let Some(iss) = issuance(view, id) else {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    };
    let issuer = iss.account_of(sf().issuer).unwrap_or_default();
    if issuer == *account {
        return Ok(());
    }
    if let Some(asset) = vault_asset_of_issuer(view, &issuer) {
        match asset {
            VaultAsset::Token(issue) => {
                super::funds::require_auth(view, &issue, account).into_result()?
            }
            VaultAsset::Mpt(inner) if inner != *id => {
                require_auth_as(view, &inner, account, strong)?
            }
            VaultAsset::Mpt(_) => return Err(Ter::tefINTERNAL),
        }
    }
    let token = mptoken(view, id, account);
    if token.is_none() && strong {
        return Err(Ter::tecNO_AUTH);
    }
    if let Some(domain) = iss.h256_of(sf().domain_id) {
        let t = super::vault::valid_domain(view, &domain, account);
        if t == Ter::tesSUCCESS || token.is_none() {
            return t.into_result();
        }
    }
    if super::vault::is_pseudo_account(view, account) {
        return Ok(());
    }
    let authorized = token.is_some_and(|t| t.is_flag(lsf_mpt::AUTHORIZED));
    if iss.is_flag(lsf_mpt::REQUIRE_AUTH) && !authorized {
        return Err(Ter::tecNO_AUTH);
    }
    Ok(())
}

/// The asset of the vault whose pseudo-account is `issuer`, when it is one.
fn vault_asset_of_issuer(view: &dyn ReadView, issuer: &AccountId) -> Option<VaultAsset> {
    let root = view.read(&keylet::account(issuer))?;
    let key = root.h256_of(sf().vault_id)?;
    let vault = super::vault::read_vault(view, &key)?;
    super::vault::asset_of(&vault)
}

/// `canTransfer`: without lsfMPTCanTransfer only payments to or from the issuer move.
pub fn can_transfer(view: &dyn ReadView, id: &MptId, from: &AccountId, to: &AccountId) -> Ter {
    let Some(iss) = issuance(view, id) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let issuer = iss.account_of(sf().issuer);
    if !iss.is_flag(lsf_mpt::CAN_TRANSFER) && issuer != Some(*from) && issuer != Some(*to) {
        return Ter::tecNO_AUTH;
    }
    Ter::tesSUCCESS
}

/// `isAnyFrozen` for an MPT: the issuance is locked, or one of the accounts' MPTokens is,
/// or (SingleAssetVault) the issuance is a vault's shares and the vault's asset is frozen
/// or locked for its pseudo-account or one of the accounts.
pub fn is_any_locked(view: &dyn ReadView, id: &MptId, accounts: &[AccountId]) -> bool {
    let Some(iss) = issuance(view, id) else {
        return false;
    };
    if iss.is_flag(lsf_mpt::LOCKED) {
        return true;
    }
    if accounts
        .iter()
        .any(|a| mptoken(view, id, a).is_some_and(|t| t.is_flag(lsf_mpt::LOCKED)))
    {
        return true;
    }
    let issuer = iss.account_of(sf().issuer).unwrap_or_default();
    let Some(asset) = vault_asset_of_issuer(view, &issuer) else {
        return false;
    };
    let mut all = vec![issuer];
    all.extend_from_slice(accounts);
    match asset {
        VaultAsset::Token(issue) => {
            !issue.is_xrp()
                && all
                    .iter()
                    .any(|a| super::funds::frozen_issue(view, a, &issue))
        }
        VaultAsset::Mpt(inner) => inner != *id && is_any_locked(view, &inner, &all),
    }
}

/// `transferRate(view, MPTID)`: 1.0 plus TransferFee in units of 1/100,000, as a rate
/// in billionths.
pub fn transfer_rate(view: &dyn ReadView, id: &MptId) -> u32 {
    let fee = issuance(view, id)
        .and_then(|i| i.u16_of(sf().transfer_fee))
        .unwrap_or(0);
    RATE_ONE + 10_000 * u32::from(fee)
}

/// The rate as a Number (`detail::as_amount(rate)`).
fn rate_number(rate: u32) -> Number {
    Number::new(i64::from(rate), -9)
}

/// An MPT value times a rate (`multiply(STAmount, Rate)` then the MPT canonicalization:
/// rounded to an integer with the thread's mode, to nearest by default). `None` past
/// 63 bits.
pub fn multiply_rate(value: u64, rate: u32) -> Option<u64> {
    if rate == RATE_ONE || value == 0 {
        return Some(value);
    }
    let v = Number::new(i64::try_from(value).ok()?, 0) * rate_number(rate);
    u64::try_from(v.to_i64()?).ok()
}

/// An MPT value divided by a rate (`divide(STAmount, Rate)`).
pub fn divide_rate(value: u64, rate: u32) -> Option<u64> {
    if rate == RATE_ONE || value == 0 {
        return Some(value);
    }
    let v = Number::new(i64::try_from(value).ok()?, 0) / rate_number(rate);
    u64::try_from(v.to_i64()?).ok()
}

/// `accountHolds` for an MPT: the holder's MPTAmount; zero without an MPToken, and when
/// `zero_if_locked` and the issuance or the token is locked.
pub fn holds(view: &dyn ReadView, holder: &AccountId, id: &MptId, zero_if_locked: bool) -> u64 {
    let Some(token) = mptoken(view, id, holder) else {
        return 0;
    };
    if zero_if_locked && is_any_locked(view, id, &[*holder]) {
        return 0;
    }
    token.u64_of(sf().mpt_amount).unwrap_or(0)
}

/// Writes a UInt64 field; MPTAmount is soeDEFAULT, so a zero balance leaves the field
/// out (OutstandingAmount is required and stays).
fn set_u64(sb: &mut Sandbox, key: Hash256, mut o: StObject, f: Field, v: u64) {
    if v == 0 && f == sf().mpt_amount {
        o.remove(f);
    } else {
        o.set(f, StValue::UInt64(v));
    }
    sb.update(key, o);
}

/// `rippleCreditMPT`: moves `value` from `from` to `to`, one of them usually the issuer
/// (the issuer's side changes OutstandingAmount, a holder's side its MPTAmount).
pub fn credit(sb: &mut Sandbox, id: &MptId, from: &AccountId, to: &AccountId, value: u64) -> Ter {
    let s = sf();
    let ikey = keylet::mpt_issuance(id);
    let Some(iss) = sb.peek(&ikey) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let issuer = iss.account_of(s.issuer).unwrap_or_default();
    if *from == issuer {
        let out = iss.u64_of(s.outstanding_amount).unwrap_or(0);
        set_u64(
            sb,
            ikey,
            iss,
            s.outstanding_amount,
            out.saturating_add(value),
        );
    } else {
        let tkey = keylet::mptoken(id, from);
        let Some(tok) = sb.peek(&tkey) else {
            return Ter::tecNO_AUTH;
        };
        let amt = tok.u64_of(s.mpt_amount).unwrap_or(0);
        if amt < value {
            return Ter::tecINSUFFICIENT_FUNDS;
        }
        set_u64(sb, tkey, tok, s.mpt_amount, amt - value);
    }
    if *to == issuer {
        let Some(iss) = sb.peek(&ikey) else {
            return Ter::tecINTERNAL;
        };
        let out = iss.u64_of(s.outstanding_amount).unwrap_or(0);
        if out < value {
            return Ter::tecINTERNAL;
        }
        set_u64(sb, ikey, iss, s.outstanding_amount, out - value);
    } else {
        let tkey = keylet::mptoken(id, to);
        let Some(tok) = sb.peek(&tkey) else {
            return Ter::tecNO_AUTH;
        };
        let amt = tok.u64_of(s.mpt_amount).unwrap_or(0);
        set_u64(sb, tkey, tok, s.mpt_amount, amt.saturating_add(value));
    }
    Ter::tesSUCCESS
}

/// `accountSendMPT` / `rippleSendMPT`: delivers `value` to `to`. The issuer sending may
/// not take OutstandingAmount past MaximumAmount (`tecPATH_DRY`); between holders the
/// sender pays the transfer fee on top.
pub fn send(sb: &mut Sandbox, id: &MptId, from: &AccountId, to: &AccountId, value: u64) -> Ter {
    Ter::from(transfer(sb, id, from, to, value, true))
}

/// [`send`] with `WaiveTransferFee::Yes`, as the vault transactions move assets.
pub fn send_waived(
    sb: &mut Sandbox,
    id: &MptId,
    from: &AccountId,
    to: &AccountId,
    value: u64,
) -> Ter {
    Ter::from(transfer(sb, id, from, to, value, false))
}

/// What [`send`] and [`send_waived`] share; `fee` charges the transfer fee.
fn transfer(
    sb: &mut Sandbox,
    id: &MptId,
    from: &AccountId,
    to: &AccountId,
    value: u64,
    fee: bool,
) -> Result<(), Ter> {
    if value == 0 || from == to {
        return Ok(());
    }
    let s = sf();
    let Some(iss) = issuance(sb, id) else {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    };
    let issuer = iss.account_of(s.issuer).unwrap_or_default();
    if *from == issuer || *to == issuer {
        if *from == issuer {
            let max = iss.u64_of(s.maximum_amount).unwrap_or(MPT_AMOUNT_MAX);
            let out = iss.u64_of(s.outstanding_amount).unwrap_or(0);
            if value > max || out > max - value {
                return Err(Ter::tecPATH_DRY);
            }
        }
        return credit(sb, id, from, to, value).into_result();
    }
    let rate = if fee { transfer_rate(sb, id) } else { RATE_ONE };
    let Some(cost) = multiply_rate(value, rate) else {
        return Err(Ter::tecPATH_DRY);
    };
    credit(sb, id, &issuer, to, value).into_result()?;
    credit(sb, id, from, &issuer, cost).into_result()
}

/// DynamicMPT: an `ImmutableFlags` naming the confidential-balance bit, which needs
/// ConfidentialTransfer (`temDISABLED` without it).
pub fn names_confidential_bit(tx: &StObject) -> bool {
    tx.u32_of(sf().immutable_flags)
        .is_some_and(|v| v & lsif_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE != 0)
}

/// DynamicMPT: a present `ImmutableFlags` names at least one defined bit and no other
/// (`temINVALID_FLAG` otherwise).
pub fn immutable_flags_invalid(tx: &StObject) -> bool {
    tx.u32_of(sf().immutable_flags)
        .is_some_and(|v| v == 0 || v & !lsif_mpt::ALL != 0)
}

/// The sequence the issuance is keyed by: the ticket, else the Sequence (`getSeqProxy`).
pub fn seq_proxy(tx: &StObject) -> u32 {
    let s = sf();
    tx.u32_of(s.ticket_sequence)
        .unwrap_or_else(|| tx.u32_of(s.sequence).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_round_to_nearest() {
        assert_eq!(multiply_rate(100, RATE_ONE + 10_000 * 10_000), Some(110));
        assert_eq!(multiply_rate(1, RATE_ONE + 10_000 * 50_000), Some(2));
        assert_eq!(multiply_rate(3, RATE_ONE + 10_000 * 50_000), Some(4));
        assert_eq!(divide_rate(110, RATE_ONE + 10_000 * 10_000), Some(100));
        assert_eq!(multiply_rate(7, RATE_ONE), Some(7));
    }
}
