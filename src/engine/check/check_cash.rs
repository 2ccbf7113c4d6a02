//! CheckCash (rippled `CashCheck.cpp`): the destination cashes a check for exactly Amount,
//! or for as much as it can with at least DeliverMin, up to the check's SendMax: XRP from
//! the writer's balance above its reserve, issued currencies along the default path (a
//! casher without a trust line to the issuer gets one, CheckCashMakesTrustLine),
//! honouring RequireAuth and freezes on the lines involved.

use super::good_amount;
use super::{check_at, expired, funds, remove_check};
use crate::engine::entry::credit_drops;
use crate::engine::entry::{check_reserve, ReserveCtx};
use crate::engine::flow::{flow, Crossing, FlowRequest};
use crate::engine::funds::{frozen, xrp_liquid};
use crate::engine::payment::greater;
use crate::engine::ripple::{trust_create_for, NewLine};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue, Rounding};
use crate::protocol::definitions::Field;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

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
    if super::check_id_malformed(tx) {
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
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let Some(key) = ctx.tx.h256_of(s.check_id) else {
        return Err(Ter::tecNO_ENTRY);
    };
    let Some(check) = check_at(&ctx.sb, &key) else {
        return Err(Ter::tecNO_ENTRY);
    };
    let (Some(src), Some(send_max), Some((value, minimum))) = (
        check.account_of(s.account),
        check.amount_of(s.send_max),
        asked(ctx.tx),
    ) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let delivered = match send_max {
        Amount::Xrp(max) => cash_xrp(ctx, &src, max, value, minimum),
        _ => cash_iou(ctx, &src, send_max, value, minimum),
    }?;
    ctx.delivered = Some(delivered);
    ctx.meta_delivered = Some(delivered);
    remove_check(&mut ctx.sb, &key, &check).into_result()
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

/// A trust line whose casher-side limit was lifted: its key, the limit field, the limit.
type Lifted = (Hash256, Field, StValue);

/// rippled's CheckCashMakesTrustLine: the casher signed for the funds, so it gets a trust
/// line to the issuer if it has none (limit 0, its reserve checked against its balance
/// before the fee), and its limit is lifted while the check's funds move (then put back).
/// Returns the line's key and the casher's limit to restore, when a line is involved.
fn casher_line(ctx: &mut ApplyContext, send_max: &Amount) -> Result<Option<Lifted>, Ter> {
    let s = sf();
    let (casher, issue) = (ctx.account, send_max.issue());
    if issue.issuer == casher {
        return Ok(None);
    }
    let key = keylet::line(&casher, &issue.issuer, &issue.currency);
    if !ctx.sb.exists(&key) {
        let Some(root) = ctx.sb.peek(&keylet::account(&casher)) else {
            return Err(Ter::tefINTERNAL);
        };
        check_reserve(
            &ctx.sb,
            ctx.tx,
            &root,
            ctx.prior_balance,
            (1, 0),
            Ter::tecNO_LINE_INSUF_RESERVE,
        )?;
        let line = NewLine {
            setter: casher,
            peer: issue.issuer,
            currency: issue.currency,
            limit: IouValue::ZERO,
            auth: false,
            no_ripple: !root.is_flag(lsf::DEFAULT_RIPPLE),
            freeze: false,
            deep_freeze: false,
            quality_in: 0,
            quality_out: 0,
        };
        let rc = ReserveCtx::of(&ctx.sb, ctx.tx, &casher);
        trust_create_for(&mut ctx.sb, &line, &rc).into_result()?;
    }
    let Some(mut line) = ctx.sb.peek(&key) else {
        return Err(Ter::tecNO_LINE);
    };
    let field = if casher > issue.issuer {
        s.high_limit
    } else {
        s.low_limit
    };
    let saved = line.get(field).cloned().ok_or(Ter::tefBAD_LEDGER)?;
    let huge = IouValue::from_parts(9_999_999_999_999_999, 80, false, Rounding::Down)
        .map_err(|_| Ter::tefINTERNAL)?;
    line.set(
        field,
        StValue::Amount(Amount::iou(huge, issue.currency, casher)),
    );
    ctx.sb.update(key, line);
    Ok(Some((key, field, saved)))
}

/// Puts back the casher's limit [`casher_line`] lifted.
fn restore_limit(ctx: &mut ApplyContext, lifted: Option<Lifted>) {
    let Some((key, field, saved)) = lifted else {
        return;
    };
    if let Some(mut line) = ctx.sb.peek(&key) {
        line.set(field, saved);
        ctx.sb.update(key, line);
    }
}

/// Issued currency: along the default path from the writer, spending at most SendMax.
fn cash_iou(
    ctx: &mut ApplyContext,
    src: &AccountId,
    send_max: Amount,
    value: Amount,
    minimum: bool,
) -> Result<Amount, Ter> {
    // rippled: a DeliverMin check asks the engine for as much as it can deliver (half the
    // largest value, room for a transfer fee), partially, then checks the minimum.
    let deliver = if minimum {
        let half = IouValue::from_parts(
            (crate::protocol::amount::IOU_MANTISSA_MAX / 2) as u128,
            crate::protocol::amount::IOU_EXPONENT_MAX,
            false,
            Rounding::Nearest,
        )
        .map_err(|_| Ter::tefINTERNAL)?;
        let issue = value.issue();
        Amount::iou(half, issue.currency, issue.issuer)
    } else {
        value
    };
    let req = FlowRequest {
        src: *src,
        dst: ctx.account,
        deliver,
        send_max: Some(send_max),
        paths: &[],
        default_path: true,
        partial: minimum,
        owner_pays_fee: true,
        crossing: Crossing::No,
        limit_quality: None,
        domain: None,
    };
    let lifted = casher_line(ctx, &send_max)?;
    let out = flow(&mut ctx.sb, &req);
    restore_limit(ctx, lifted);
    let moved = match out.ter {
        Ter::tesSUCCESS if minimum && greater(&value, &out.actual_out) => Err(Ter::tecPATH_PARTIAL),
        Ter::tesSUCCESS => Ok(out.actual_out),
        t if t.is_ter() => Err(Ter::tecPATH_DRY),
        t => Err(t),
    };
    moved.map_err(|t| {
        if t == Ter::tecPATH_DRY {
            Ter::tecPATH_PARTIAL
        } else {
            t
        }
    })
}
