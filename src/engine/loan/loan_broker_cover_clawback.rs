//! LoanBrokerCoverClawback (rippled `LoanBrokerCoverClawback.cpp`): the issuer of a
//! broker's asset claws first-loss cover back from the broker's pseudo-account, down to
//! the minimum the broker's debt requires. The broker is named by LoanBrokerID, or (for
//! an issued currency) by an Amount whose issuer is the broker's pseudo-account; an
//! Amount of zero, or none, takes all it may.

use super::broker::{broker_id, Broker};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::engine::vault::{asset_held, send_asset, to_asset, AssetAmount, VaultAsset};
use crate::ledger::flags::{lsf, lsf_mpt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256, Issue};

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let named = tx.get(sf().loan_broker_id).is_some();
    if named && broker_id(tx).is_none() {
        return Ter::temINVALID;
    }
    match tx.get(sf().amount) {
        None if !named => Ter::temINVALID,
        None => Ter::tesSUCCESS,
        Some(StValue::Amount(a)) if a.is_xrp() || a.is_negative() => Ter::temBAD_AMOUNT,
        Some(StValue::MptAmount(m)) if m.negative => Ter::temBAD_AMOUNT,
        Some(StValue::MptAmount(_)) if !named => Ter::temINVALID,
        Some(StValue::Amount(a)) if !named => {
            let holder = a.issue().issuer;
            if holder == *account || holder == AccountId::ZERO {
                Ter::temINVALID
            } else {
                Ter::tesSUCCESS
            }
        }
        Some(_) => Ter::tesSUCCESS,
    }
}

/// The broker: named, or found through the Amount's issuer, a broker's pseudo-account.
fn find_broker(view: &dyn ReadView, tx: &StObject) -> Result<Hash256, Ter> {
    if let Some(id) = broker_id(tx) {
        return Ok(id);
    }
    let Some(StValue::Amount(a)) = tx.get(sf().amount) else {
        return Err(Ter::tecINTERNAL);
    };
    let root = view
        .read(&keylet::account(&a.issue().issuer))
        .ok_or(Ter::tecNO_ENTRY)?;
    root.h256_of(sf().loan_broker_id)
        .ok_or(Ter::tecOBJECT_NOT_FOUND)
}

/// The asset the Amount names: an MPT as it is; an issued currency whose issuer is the
/// clawing account, or the pseudo-account (read as the clawing account's currency).
fn named_asset(tx: &StObject, account: &AccountId, pseudo: &AccountId) -> Option<VaultAsset> {
    match tx.get(sf().amount)? {
        StValue::MptAmount(m) => Some(VaultAsset::Mpt(m.id)),
        StValue::Amount(a) => {
            let i = a.issue();
            (i.issuer == *account || i.issuer == *pseudo).then_some(VaultAsset::Token(Issue {
                currency: i.currency,
                issuer: *account,
            }))
        }
        _ => None,
    }
}

/// The magnitude of the Amount (zero when absent).
fn requested(tx: &StObject) -> Number {
    match tx.get(sf().amount) {
        Some(StValue::Amount(a)) => a.to_number(),
        Some(StValue::MptAmount(m)) => Number::from_i64(i64::try_from(m.value).unwrap_or(i64::MAX)),
        _ => Number::ZERO,
    }
}

/// `determineClawAmount`: all the cover above the minimum (the minimum rounded up, what
/// is left rounded down), or less when asked. The minimum is unrounded before
/// fixCleanup3_2_0, `minimumBrokerCover` (at the vault's scale) with it.
fn claw_amount(b: &Broker, tx: &StObject, fix320: bool) -> Result<AssetAmount, Ter> {
    let minimum = if fix320 {
        b.minimum_broker_cover()
    } else {
        b.minimum_cover()
    };
    let most = {
        let _g = RoundGuard::new(RoundingMode::Downward);
        b.cover() - minimum
    };
    if most.signum() <= 0 {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    let asked = requested(tx);
    let take = if asked.is_zero() || asked > most {
        most
    } else {
        asked
    };
    to_asset(&b.asset, take).ok_or(Ter::tecINTERNAL)
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let b = match find_broker(view, tx).and_then(|k| Broker::at(view, k)) {
        Ok(b) => b,
        Err(Ter::tefBAD_LEDGER) => return Err(Ter::tecINTERNAL),
        Err(t) => return Err(t),
    };
    let Some(issuer) = b.asset.issuer() else {
        return Err(Ter::tecNO_PERMISSION);
    };
    if issuer != *account {
        return Err(Ter::tecNO_PERMISSION);
    }
    if tx.get(sf().amount).is_some() {
        match named_asset(tx, account, &b.pseudo) {
            None => return Err(Ter::tecWRONG_ASSET),
            Some(a) if a != b.asset => return Err(Ter::tecWRONG_ASSET),
            Some(_) => {}
        }
    }
    let claw = claw_amount(&b, tx, view.info().rules.enabled(Feature::FixCleanup3_2_0))?;
    if asset_held(view, &b.pseudo, &b.asset) < claw.number() {
        return Err(Ter::tecINTERNAL);
    }
    issuer_may_claw(view, &b.asset, account).into_result()
}

/// The issuer allows clawback: AllowTrustLineClawback without NoFreeze for an issued
/// currency, CanClawback for an MPT.
fn issuer_may_claw(view: &dyn ReadView, asset: &VaultAsset, issuer: &AccountId) -> Ter {
    match asset {
        VaultAsset::Token(_) => {
            let Some(root) = view.read(&keylet::account(issuer)) else {
                return Ter::tecINTERNAL;
            };
            if !root.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) || root.is_flag(lsf::NO_FREEZE) {
                return Ter::tecNO_PERMISSION;
            }
            Ter::tesSUCCESS
        }
        VaultAsset::Mpt(id) => match crate::engine::mpt::issuance(view, id) {
            None => Ter::tecOBJECT_NOT_FOUND,
            Some(i) if !i.is_flag(lsf_mpt::CAN_CLAWBACK) => Ter::tecNO_PERMISSION,
            Some(_) => Ter::tesSUCCESS,
        },
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let mut b = match find_broker(&ctx.sb, ctx.tx).and_then(|k| Broker::at(&ctx.sb, k)) {
        Ok(b) => b,
        Err(_) => return Ter::tecINTERNAL,
    };
    let fix320 = ctx.sb.info().rules.enabled(Feature::FixCleanup3_2_0);
    let Ok(claw) = claw_amount(&b, ctx.tx, fix320) else {
        return Ter::tecINTERNAL;
    };
    b.move_cover(&mut ctx.sb, -claw.number());
    send_asset(&mut ctx.sb, &b.pseudo, &ctx.account, &claw)
}
