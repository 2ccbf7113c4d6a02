//! CheckCash (rippled `CashCheck.cpp`): the destination cashes a check for exactly Amount,
//! or for as much as it can with at least DeliverMin, up to the check's SendMax: XRP from
//! the writer's balance above its reserve, issued currencies along the default path,
//! honouring RequireAuth and freezes on the lines involved.

use super::check::{check_at, expired, frozen, funds, remove_check, xrp_liquid};
use super::check_create::good_amount;
use super::entry::credit_drops;
use super::payment::{default_path_flow, greater, Flow};
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// The amount asked for: Amount, or DeliverMin (exactly one is present).
fn asked(tx: &StObject) -> Option<(Amount, bool)> {
    let s = sf();
    match (tx.amount_of(s.amount), tx.amount_of(s.deliver_min)) {
        (Some(a), None) => Some((a, false)),
        (None, Some(m)) => Some((m, true)),
        _ => None,
    }
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.h256_of(sf().check_id).is_none() {
        return Ter::temMALFORMED;
    }
    match asked(tx) {
        None => Ter::temMALFORMED,
        Some((a, _)) => good_amount(&a).err().unwrap_or(Ter::tesSUCCESS),
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(check) = tx.h256_of(s.check_id).and_then(|k| check_at(view, &k)) else {
        return Ter::tecNO_ENTRY;
    };
    let (Some(src), Some(dst)) = (check.account_of(s.account), check.account_of(s.destination))
    else {
        return Ter::tefBAD_LEDGER;
    };
    if *account != dst {
        return Ter::tecNO_PERMISSION;
    }
    if src == dst {
        return Ter::tecINTERNAL;
    }
    let (Some(_), Some(dst_root)) = (
        view.read(&keylet::account(&src)),
        view.read(&keylet::account(&dst)),
    ) else {
        return Ter::tecNO_ENTRY;
    };
    if dst_root.is_flag(lsf::REQUIRE_DEST_TAG) && check.u32_of(s.destination_tag).is_none() {
        return Ter::tecDST_TAG_NEEDED;
    }
    if expired(view, check.u32_of(s.expiration)) {
        return Ter::tecEXPIRED;
    }
    let (Some((value, _)), Some(send_max)) = (asked(tx), check.amount_of(s.send_max)) else {
        return Ter::temMALFORMED;
    };
    if value.issue() != send_max.issue() {
        return Ter::temMALFORMED;
    }
    affordable(view, &value, &send_max, &src, &dst)
}

/// Within SendMax, within what the writer has (XRP: plus the reserve the check frees), and
/// receivable by the destination.
fn affordable(
    view: &dyn ReadView,
    value: &Amount,
    send_max: &Amount,
    src: &AccountId,
    dst: &AccountId,
) -> Ter {
    if greater(value, send_max) {
        return Ter::tecPATH_PARTIAL;
    }
    let available = match funds(view, src, value) {
        Amount::Xrp(d) => Amount::Xrp(d + view.info().fees.reserve_inc_drops as i64),
        iou => iou,
    };
    if greater(value, &available) {
        return Ter::tecPATH_PARTIAL;
    }
    let Amount::Iou {
        currency, issuer, ..
    } = value
    else {
        return Ter::tesSUCCESS;
    };
    if issuer == dst {
        return Ter::tesSUCCESS;
    }
    let Some(issuer_root) = view.read(&keylet::account(issuer)) else {
        return Ter::tecNO_ISSUER;
    };
    if issuer_root.is_flag(lsf::REQUIRE_AUTH) {
        let Some(line) = view.read(&keylet::line(dst, issuer, currency)) else {
            return Ter::tecNO_AUTH;
        };
        let bit = if dst > issuer {
            lsf::LOW_AUTH
        } else {
            lsf::HIGH_AUTH
        };
        if line.flags() & bit == 0 {
            return Ter::tecNO_AUTH;
        }
    }
    if frozen(view, dst, issuer, currency) {
        return Ter::tecFROZEN;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(key) = ctx.tx.h256_of(s.check_id) else {
        return Ter::tecNO_ENTRY;
    };
    let Some(check) = check_at(&ctx.sb, &key) else {
        return Ter::tecNO_ENTRY;
    };
    let (Some(src), Some(send_max), Some((value, minimum))) = (
        check.account_of(s.account),
        check.amount_of(s.send_max),
        asked(ctx.tx),
    ) else {
        return Ter::tefBAD_LEDGER;
    };
    let delivered = match send_max {
        Amount::Xrp(max) => cash_xrp(ctx, &src, max, value, minimum),
        _ => cash_iou(ctx, &src, send_max, value, minimum),
    };
    let delivered = match delivered {
        Ok(d) => d,
        Err(t) => return t,
    };
    ctx.delivered = Some(delivered);
    ctx.meta_delivered = Some(delivered);
    remove_check(&mut ctx.sb, &key, &check)
}

/// XRP: Amount exactly, or with DeliverMin as much as the writer can spend (the check's
/// reserve counted as freed) up to SendMax.
fn cash_xrp(
    ctx: &mut ApplyContext,
    src: &AccountId,
    max: i64,
    value: Amount,
    minimum: bool,
) -> Result<Amount, Ter> {
    let liquid = xrp_liquid(&ctx.sb, src, -1);
    let want = value.as_drops().unwrap_or(0);
    let deliver = if minimum {
        want.max(max.min(liquid))
    } else {
        want
    };
    if liquid < deliver {
        return Err(Ter::tecUNFUNDED_PAYMENT);
    }
    credit_drops(&mut ctx.sb, src, -deliver);
    credit_drops(&mut ctx.sb, &ctx.account, deliver);
    Ok(Amount::Xrp(deliver))
}

/// Issued currency: along the default path from the writer, spending at most SendMax.
fn cash_iou(
    ctx: &mut ApplyContext,
    src: &AccountId,
    send_max: Amount,
    value: Amount,
    minimum: bool,
) -> Result<Amount, Ter> {
    let flow = Flow {
        src: *src,
        dst: ctx.account,
        amount: if minimum { send_max } else { value },
        max: send_max,
        partial: minimum,
        deliver_min: if minimum { value.as_iou() } else { None },
    };
    default_path_flow(&mut ctx.sb, &flow).map_err(|t| {
        if t == Ter::tecPATH_DRY {
            Ter::tecPATH_PARTIAL
        } else {
            t
        }
    })
}
