//! Clawback of trust-line tokens (rippled `Clawback.cpp`): an issuer that set
//! `lsfAllowTrustLineClawback` (and not NoFreeze) takes back up to `Amount` of what a
//! holder holds of its currency. The Amount's issuer field names the holder. MPT clawback
//! (`Holder`) is refused until MPTs exist in this ledger.

use super::ripple::{balance_for, ripple_credit};
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
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
    if tx.get(sf().holder).is_some() {
        return Ter::temDISABLED;
    }
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match claw(tx) {
        Some((holder, _, value)) if holder != *account && value.signum() > 0 => Ter::tesSUCCESS,
        _ => Ter::temBAD_AMOUNT,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some((holder, currency, _)) = claw(tx) else {
        return Ter::temBAD_AMOUNT;
    };
    let (Some(issuer_root), Some(_)) = (
        view.read(&keylet::account(account)),
        view.read(&keylet::account(&holder)),
    ) else {
        return Ter::terNO_ACCOUNT;
    };
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
    let Some((holder, currency, value)) = claw(ctx.tx) else {
        return Ter::tecINTERNAL;
    };
    let issuer = ctx.account;
    let line = ctx.sb.peek(&keylet::line(&holder, &issuer, &currency));
    let spendable = holds(line.as_ref(), &holder, &issuer);
    let amount = spendable.min(value);
    ripple_credit(&mut ctx.sb, &holder, &issuer, &currency, &amount)
}
