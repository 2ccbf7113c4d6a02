//! Clawback of trust-line tokens (rippled `Clawback.cpp`): an issuer that set
//! `lsfAllowTrustLineClawback` (and not NoFreeze) takes back up to `Amount` of what a
//! holder holds of its currency. The Amount's issuer field names the holder. For an MPT
//! Amount the holder is the `Holder` field: the issuer of an issuance created with
//! tfMPTCanClawback takes back up to Amount of the holder's balance, locked or not.

use crate::engine::mpt;
use crate::engine::ripple::{balance_for, ripple_credit};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lsf_mpt};
use crate::ledger::keylet;
use crate::ledger::rules::enabled_now;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::features::Feature;
use crate::protocol::mpt::{MptId, MPT_AMOUNT_MAX};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Currency};

/// The claw: (holder, currency, value) from an IOU Amount.
fn claw(tx: &StObject) -> Option<(AccountId, Currency, IouValue)> {
    match tx.amount_of(sf().amount)? {
        Amount::Iou {
            value,
            currency,
            issuer,
        } => Some((issuer, currency, value)),
        Amount::Xrp(_) => None,
    }
}

/// What the holder holds of the issuer's currency, never below zero (rippled
/// `accountHolds`, freeze ignored).
fn holds(view_line: Option<&StObject>, holder: &AccountId, issuer: &AccountId) -> IouValue {
    match view_line {
        Some(line) => {
            let b = balance_for(line, holder, issuer);
            if b.signum() > 0 {
                b
            } else {
                IouValue::ZERO
            }
        }
        None => IouValue::ZERO,
    }
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if let Some(a) = tx.mpt_amount_of(sf().amount) {
        if !enabled_now(Feature::MPTokensV1) {
            return Ter::temDISABLED;
        }
        return match tx.account_of(sf().holder) {
            None => Ter::temMALFORMED,
            Some(h) if h == *account => Ter::temMALFORMED,
            Some(_) if !a.is_positive() || a.value > MPT_AMOUNT_MAX => Ter::temBAD_AMOUNT,
            Some(_) => Ter::tesSUCCESS,
        };
    }
    if tx.get(sf().holder).is_some() {
        return Ter::temMALFORMED;
    }
    match claw(tx) {
        Some((holder, _, value)) if holder != *account && value.signum() > 0 => Ter::tesSUCCESS,
        _ => Ter::temBAD_AMOUNT,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    if let Some(a) = tx.mpt_amount_of(sf().amount) {
        return mpt_preclaim(view, tx, account, &a.id);
    }
    let Some((holder, currency, _)) = claw(tx) else {
        return Ter::temBAD_AMOUNT;
    };
    let (Some(issuer_root), Some(holder_root)) = (
        view.read(&keylet::account(account)),
        view.read(&keylet::account(&holder)),
    ) else {
        return Ter::terNO_ACCOUNT;
    };
    let pseudo = pseudo_holder(view, &holder_root);
    if pseudo != Ter::tesSUCCESS {
        return pseudo;
    }
    if !issuer_root.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) || issuer_root.is_flag(lsf::NO_FREEZE) {
        return Ter::tecNO_PERMISSION;
    }
    let Some(line) = view.read(&keylet::line(&holder, account, &currency)) else {
        return Ter::tecNO_LINE;
    };
    // The issuer must be the side the holder owes: a balance held the other way is the
    // issuer's own holding of the "holder's" token.
    let balance = balance_for(&line, &holder, account);
    if balance.signum() < 0 {
        return Ter::tecNO_PERMISSION;
    }
    if holds(Some(&line), &holder, account).signum() <= 0 {
        return Ter::tecINSUFFICIENT_FUNDS;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    if let Some(a) = ctx.tx.mpt_amount_of(sf().amount) {
        let Some(holder) = ctx.tx.account_of(sf().holder) else {
            return Ter::tecINTERNAL;
        };
        let spendable = mpt::holds(&ctx.sb, &holder, &a.id, false);
        return mpt::credit(
            &mut ctx.sb,
            &a.id,
            &holder,
            &ctx.account,
            spendable.min(a.value),
        );
    }
    let Some((holder, currency, value)) = claw(ctx.tx) else {
        return Ter::tecINTERNAL;
    };
    let issuer = ctx.account;
    let line = ctx.sb.peek(&keylet::line(&holder, &issuer, &currency));
    let spendable = holds(line.as_ref(), &holder, &issuer);
    let amount = spendable.min(value);
    ripple_credit(&mut ctx.sb, &holder, &issuer, &currency, &amount)
}

/// No clawing back from a pseudo-account: any of them under SingleAssetVault
/// (`tecPSEUDO_ACCOUNT`), an AMM's before it (`tecAMM_ACCOUNT`).
fn pseudo_holder(view: &dyn ReadView, holder_root: &StObject) -> Ter {
    let s = sf();
    let pseudo = [s.amm_id, s.vault_id, s.loan_broker_id]
        .into_iter()
        .any(|f| holder_root.get(f).is_some());
    if pseudo && view.info().rules.enabled(Feature::SingleAssetVault) {
        return Ter::tecPSEUDO_ACCOUNT;
    }
    if holder_root.get(s.amm_id).is_some() {
        return Ter::tecAMM_ACCOUNT;
    }
    Ter::tesSUCCESS
}

/// The MPT branch of `Clawback::preclaim`.
fn mpt_preclaim(view: &dyn ReadView, tx: &StObject, issuer: &AccountId, id: &MptId) -> Ter {
    let s = sf();
    let Some(holder) = tx.account_of(s.holder) else {
        return Ter::temMALFORMED;
    };
    let (Some(_), Some(holder_root)) = (
        view.read(&keylet::account(issuer)),
        view.read(&keylet::account(&holder)),
    ) else {
        return Ter::terNO_ACCOUNT;
    };
    let pseudo = pseudo_holder(view, &holder_root);
    if pseudo != Ter::tesSUCCESS {
        return pseudo;
    }
    let Some(iss) = mpt::issuance(view, id) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    if !iss.is_flag(lsf_mpt::CAN_CLAWBACK) || iss.account_of(s.issuer) != Some(*issuer) {
        return Ter::tecNO_PERMISSION;
    }
    if mpt::mptoken(view, id, &holder).is_none() {
        return Ter::tecOBJECT_NOT_FOUND;
    }
    if mpt::holds(view, &holder, id, false) == 0 {
        return Ter::tecINSUFFICIENT_FUNDS;
    }
    Ter::tesSUCCESS
}
