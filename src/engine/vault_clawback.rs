//! VaultClawback (rippled `VaultClawback.cpp`): the issuer of an IOU vault's asset takes
//! back what a holder's shares are worth, all of it (Amount zero or absent) or an amount
//! of assets, capped by AssetsAvailable; the shares go back to the vault.

use super::funds::account_send;
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use super::vault::vault_id;
use super::vault::{
    amount_number, asset_of, number_of, read_vault, set_number, share_id, shares_held, to_asset,
    Totals,
};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Issue};

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if vault_id(tx).is_none() || tx.account_of(s.holder) == Some(*account) {
        return Ter::temMALFORMED;
    }
    if let Some(a) = tx.amount_of(s.amount) {
        if a.is_negative() {
            return Ter::temBAD_AMOUNT;
        }
        if a.is_xrp() || a.issue().issuer != *account {
            return Ter::temMALFORMED;
        }
    } else if tx.get(s.amount).is_some() {
        // An MPT amount: only for MPT assets, which ledgerd does not keep.
        return Ter::temDISABLED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(vault) = vault_id(tx).and_then(|k| read_vault(view, &k)) else {
        return Ter::tecNO_ENTRY;
    };
    let Some(issuer) = view.read(&keylet::account(account)) else {
        return Ter::tefINTERNAL;
    };
    let Some(issue) = asset_of(&vault) else {
        return Ter::tefINTERNAL;
    };
    if tx.amount_of(s.amount).is_some_and(|a| a.issue() != issue) {
        return Ter::tecWRONG_ASSET;
    }
    if issue.is_xrp() || issue.issuer != *account {
        return Ter::tecNO_PERMISSION;
    }
    if !issuer.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) || issuer.is_flag(lsf::NO_FREEZE) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// Shares a number of assets is worth on withdrawal, as an MPT amount (rounded to
/// nearest, as an STAmount assignment).
fn shares_for(t: &Totals, assets: Number) -> Option<u64> {
    let _g = RoundGuard::new(RoundingMode::ToNearest);
    u64::try_from(t.shares_for_withdraw(assets).to_i64()?).ok()
}

/// The (shares, assets) clawed back from `holder`.
fn clawed(
    view: &dyn ReadView,
    t: &Totals,
    tx: &StObject,
    holder: &AccountId,
    issue: &Issue,
    available: Number,
    share: &crate::protocol::mpt::MptId,
) -> Option<(u64, Amount)> {
    let asked = tx.amount_of(sf().amount).filter(|a| !a.is_zero());
    let (mut shares, mut assets) = match asked {
        None => {
            let held = shares_held(view, share, holder);
            (held, to_asset(issue, t.assets_for_withdraw(held))?)
        }
        Some(a) => (shares_for(t, amount_number(&a))?, a),
    };
    if amount_number(&assets) > available {
        assets = to_asset(issue, available)?;
        shares = shares_for(t, available)?;
    }
    Some((shares, assets))
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(key) = vault_id(ctx.tx) else {
        return Ter::tefINTERNAL;
    };
    let Some(mut vault) = read_vault(&ctx.sb, &key) else {
        return Ter::tefINTERNAL;
    };
    let (Some(share), Some(pseudo), Some(issue), Some(holder)) = (
        share_id(&vault),
        vault.account_of(s.account),
        asset_of(&vault),
        ctx.tx.account_of(s.holder),
    ) else {
        return Ter::tefINTERNAL;
    };
    let Some(iss) = super::mpt::issuance(&ctx.sb, &share) else {
        return Ter::tefINTERNAL;
    };
    let totals = Totals::of(&vault, &iss);
    let available = number_of(&vault, s.assets_available);
    let Some((shares, assets)) =
        clawed(&ctx.sb, &totals, ctx.tx, &holder, &issue, available, &share)
    else {
        return Ter::tecINTERNAL;
    };
    if shares == 0 {
        return Ter::tecINSUFFICIENT_FUNDS;
    }
    let taken = amount_number(&assets);
    let total = number_of(&vault, s.assets_total) - taken;
    set_number(&mut vault, s.assets_total, total);
    set_number(&mut vault, s.assets_available, available - taken);
    ctx.sb.update(key, vault);
    let t = super::mpt::send(&mut ctx.sb, &share, &holder, &pseudo, shares);
    if t != Ter::tesSUCCESS {
        return t;
    }
    account_send(&mut ctx.sb, &pseudo, &ctx.account, &assets)
}
