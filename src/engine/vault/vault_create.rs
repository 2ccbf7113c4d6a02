//! VaultCreate (rippled `VaultCreate.cpp`): a single-asset vault owned by the sender,
//! with a pseudo-account holding the asset and an MPT issuance of shares issued by that
//! pseudo-account. The owner gets an MPToken for the shares at once. The fee is one
//! owner reserve increment.

use super::can_add_holding;
use super::phase;
use super::{
    add_empty_holding, add_share_token, asset_frozen, create_pseudo, create_share_issuance,
    is_negative_number, is_pseudo_account, set_number, VaultAsset, DATA_LEN_MAX, DEFAULT_IOU_SCALE,
    MAXIMUM_IOU_SCALE, STRATEGY_FIRST_COME_FIRST_SERVE,
};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, new_entry, with_threading};
use crate::engine::registry::field_allowed;
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptId;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// VaultCreate flags.
pub mod tf {
    /// tfVaultPrivate: shares need authorization (a permissioned domain).
    pub const VAULT_PRIVATE: u32 = 0x0001_0000;
    /// tfVaultShareNonTransferable.
    pub const SHARE_NON_TRANSFERABLE: u32 = 0x0002_0000;
}

/// The vault's asset field.
fn asset(tx: &StObject) -> Option<VaultAsset> {
    super::asset_field(tx)
}

/// checkExtraFeatures: the shares are an MPT issuance (MPTokensV1); a `DomainID` needs
/// PermissionedDomains; a closed-ended vault's `VaultKind` and dates need
/// LendingProtocolV1_1.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    let s = sf();
    super::shares_and_domain_allowed(tx, rules)
        && [s.vault_kind, s.subscription_date, s.redemption_date]
            .into_iter()
            .all(|f| field_allowed(tx, f, rules, Feature::LendingProtocolV1_1))
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    let mask = TF_UNIVERSAL_MASK & !(tf::VAULT_PRIVATE | tf::SHARE_NON_TRANSFERABLE);
    if tx.flags() & mask != 0 {
        return Ter::temINVALID_FLAG;
    }
    let Some(issue) = asset(tx) else {
        return Ter::temMALFORMED;
    };
    if tx
        .blob_of(s.data)
        .is_some_and(|d| d.is_empty() || d.len() > DATA_LEN_MAX)
    {
        return Ter::temMALFORMED;
    }
    if tx
        .u8_of(s.withdrawal_policy)
        .is_some_and(|p| p != STRATEGY_FIRST_COME_FIRST_SERVE)
    {
        return Ter::temMALFORMED;
    }
    if let Some(d) = tx.h256_of(s.domain_id) {
        if d == Hash256::ZERO || tx.flags() & tf::VAULT_PRIVATE == 0 {
            return Ter::temMALFORMED;
        }
    }
    if is_negative_number(tx, s.assets_maximum) {
        return Ter::temMALFORMED;
    }
    if tx
        .blob_of(s.mptoken_metadata)
        .is_some_and(|m| m.is_empty() || m.len() > crate::engine::mpt::METADATA_LEN_MAX)
    {
        return Ter::temMALFORMED;
    }
    if let Some(scale) = tx.u8_of(s.scale) {
        if !matches!(issue, VaultAsset::Token(i) if !i.is_xrp()) || scale > MAXIMUM_IOU_SCALE {
            return Ter::temMALFORMED;
        }
    }
    closed_ended_fields(tx)
}

/// LendingProtocolV1_1's preflight of a vault's kind and dates, all `temMALFORMED`: a
/// kind other than open- or closed-ended; a date on an open-ended vault; a closed-ended
/// vault without both dates, or whose redemption does not come at least
/// `kMinInvestmentPeriod` and less than `kMaxInvestmentPeriod` after its subscription
/// ends (`isValidClosedEndedGap`, in 64 bits so a date near `u32::MAX` cannot wrap).
fn closed_ended_fields(tx: &StObject) -> Ter {
    let s = sf();
    let kind = tx.u8_of(s.vault_kind).unwrap_or(phase::OPEN_ENDED);
    if kind != phase::OPEN_ENDED && kind != phase::CLOSED_ENDED {
        return Ter::temMALFORMED;
    }
    let (sub, red) = (tx.u32_of(s.subscription_date), tx.u32_of(s.redemption_date));
    if kind != phase::CLOSED_ENDED {
        return if sub.is_some() || red.is_some() {
            Ter::temMALFORMED
        } else {
            Ter::tesSUCCESS
        };
    }
    let (Some(sub), Some(red)) = (sub, red) else {
        return Ter::temMALFORMED;
    };
    let (sub, red) = (u64::from(sub), u64::from(red));
    if red < sub + phase::MIN_INVESTMENT_PERIOD || red >= sub + phase::MAX_INVESTMENT_PERIOD {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let Some(asset) = asset(tx) else {
        return Err(Ter::temMALFORMED);
    };
    can_add_holding(view, &asset).into_result()?;
    if asset.issuer().is_some_and(|i| is_pseudo_account(view, &i)) {
        return Err(Ter::tecWRONG_ASSET);
    }
    asset_frozen(view, account, &asset).into_result()?;
    if let Some(d) = tx.h256_of(s.domain_id) {
        if view.read(&d).map(|o| o.u16_of(s.ledger_entry_type))
            != Some(Some(lt::PERMISSIONED_DOMAIN))
        {
            return Err(Ter::tecOBJECT_NOT_FOUND);
        }
    }
    // A closed-ended vault's dates are still ahead (`hasExpired`, inclusive: each must
    // be strictly after the parent ledger's close time).
    if [s.subscription_date, s.redemption_date]
        .into_iter()
        .filter_map(|f| tx.u32_of(f))
        .any(|t| crate::engine::loan::has_expired(view, t))
    {
        return Err(Ter::tecEXPIRED);
    }
    let seq = crate::engine::mpt::seq_proxy(tx);
    if crate::engine::amm::pseudo_account_address(view, &keylet::vault(account, seq)).is_none() {
        return Err(Ter::terADDRESS_COLLISION);
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let account = ctx.account;
    let seq = crate::engine::mpt::seq_proxy(ctx.tx);
    let key = keylet::vault(&account, seq);
    let Some(issue) = asset(ctx.tx) else {
        return Err(Ter::tefINTERNAL);
    };
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Err(Ter::tecDIR_FULL);
    };
    adjust_owner_count(&mut ctx.sb, &account, 1);
    let fees = ctx.sb.info().fees;
    let reserve = ctx
        .sb
        .peek(&keylet::account(&account))
        .map_or(fees.account_reserve(0), |r| fees.reserve_of(&r, 0, 0));
    if ctx.prior_balance < reserve {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    let pseudo = create_pseudo(&mut ctx.sb, &key)?;
    add_empty_holding(&mut ctx.sb, &pseudo, &issue).into_result()?;
    let scale = match issue {
        VaultAsset::Token(i) if !i.is_xrp() => ctx.tx.u8_of(s.scale).unwrap_or(DEFAULT_IOU_SCALE),
        _ => 0,
    };
    // The shares name the pseudo-account's holding only under fixCleanup3_2_0.
    let holding = super::holding_key(&pseudo, &issue)
        .filter(|_| ctx.sb.info().rules.enabled(Feature::FixCleanup3_2_0));
    let flags = share_flags(ctx.tx.flags());
    let share = create_share_issuance(&mut ctx.sb, &pseudo, (flags, scale), holding, ctx.tx)?;
    let mut vault = vault_entry(ctx.tx, &account, &pseudo, &issue, share, seq, page, scale);
    if ctx.sb.info().rules.enabled(Feature::LendingProtocolV1_1) {
        set_kind_and_version(&mut vault, ctx.tx);
    }
    ctx.sb.insert(key, vault);
    finish_owner_token(&mut ctx.sb, &share, &account, ctx.prior_balance, ctx.tx).into_result()
}

/// LendingProtocolV1_1: every new vault keeps cash-basis accounts (`LEVersion` 1) and
/// records its kind (soeDEFAULT: open-ended, 0, is not stored); a closed-ended vault
/// records both its dates.
fn set_kind_and_version(vault: &mut StObject, tx: &StObject) {
    let s = sf();
    vault.set(s.le_version, StValue::UInt8(phase::CASH_BASIS));
    if tx.u8_of(s.vault_kind) != Some(phase::CLOSED_ENDED) {
        return;
    }
    vault.set(s.vault_kind, StValue::UInt8(phase::CLOSED_ENDED));
    for f in [s.subscription_date, s.redemption_date] {
        if let Some(t) = tx.u32_of(f) {
            vault.set(f, StValue::UInt32(t));
        }
    }
}

/// The share issuance's flags: transferable unless asked, RequireAuth when private.
fn share_flags(tx_flags: u32) -> u32 {
    let mut f = 0;
    if tx_flags & tf::SHARE_NON_TRANSFERABLE == 0 {
        f |= lsf_mpt::CAN_ESCROW | lsf_mpt::CAN_TRADE | lsf_mpt::CAN_TRANSFER;
    }
    if tx_flags & tf::VAULT_PRIVATE != 0 {
        f |= lsf_mpt::REQUIRE_AUTH;
    }
    f
}

/// The owner's MPToken for the shares, authorized when the vault is private.
fn finish_owner_token(
    sb: &mut Sandbox,
    share: &MptId,
    owner: &AccountId,
    prior: i64,
    tx: &StObject,
) -> Ter {
    let t = add_share_token(sb, share, owner, prior);
    if t != Ter::tesSUCCESS || tx.flags() & tf::VAULT_PRIVATE == 0 {
        return t;
    }
    let key = keylet::mptoken(share, owner);
    if let Some(mut token) = sb.peek(&key) {
        let f = token.flags() | lsf_mpt::AUTHORIZED;
        token.set(sf().flags, StValue::UInt32(f));
        sb.update(key, token);
    }
    Ter::tesSUCCESS
}

/// The new Vault entry.
#[allow(clippy::too_many_arguments)]
fn vault_entry(
    tx: &StObject,
    owner: &AccountId,
    pseudo: &AccountId,
    issue: &VaultAsset,
    share: MptId,
    seq: u32,
    page: u64,
    scale: u8,
) -> StObject {
    let s = sf();
    let mut v = with_threading(new_entry(lt::VAULT));
    v.set(s.flags, StValue::UInt32(tx.flags() & tf::VAULT_PRIVATE));
    v.set(s.sequence, StValue::UInt32(seq));
    v.set(s.owner_node, StValue::UInt64(page));
    v.set(s.owner, StValue::AccountId(*owner));
    v.set(s.account, StValue::AccountId(*pseudo));
    v.set(s.asset, issue.to_value());
    set_number(&mut v, s.assets_total, Number::ZERO);
    set_number(&mut v, s.assets_available, Number::ZERO);
    set_number(&mut v, s.loss_unrealized, Number::ZERO);
    if tx.get(s.assets_maximum).is_some() {
        let max = super::number_of(tx, s.assets_maximum);
        set_number(&mut v, s.assets_maximum, max);
    }
    v.set(s.share_mpt_id, StValue::Fixed(share.0.to_vec()));
    if let Some(d) = tx.blob_of(s.data) {
        v.set(s.data, StValue::Blob(d.to_vec()));
    }
    let policy = tx
        .u8_of(s.withdrawal_policy)
        .unwrap_or(STRATEGY_FIRST_COME_FIRST_SERVE);
    v.set(s.withdrawal_policy, StValue::UInt8(policy));
    if scale != 0 {
        v.set(s.scale, StValue::UInt8(scale));
    }
    v
}
