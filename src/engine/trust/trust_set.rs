//! TrustSet (rippled `SetTrust.cpp`): creates, changes, authorizes and deletes trust
//! lines, including the issuer's pre-authorization of a line that does not exist yet.

use crate::engine::entry::{check_reserve, own, release_kept, stamp_sponsor, ReserveCtx};
use crate::engine::ripple::{
    balance_for, iou_of, trust_create_for, trust_delete, NewLine, QUALITY_ONE,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::rules::enabled_now;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Currency};

/// TrustSet flags.
pub mod tf {
    /// Authorize the peer to hold the sender's issues.
    pub const SET_AUTH: u32 = 0x0001_0000;
    /// Set the sender's NoRipple bit.
    pub const SET_NO_RIPPLE: u32 = 0x0002_0000;
    /// Clear the sender's NoRipple bit.
    pub const CLEAR_NO_RIPPLE: u32 = 0x0004_0000;
    /// Freeze the line.
    pub const SET_FREEZE: u32 = 0x0010_0000;
    /// Unfreeze the line.
    pub const CLEAR_FREEZE: u32 = 0x0020_0000;
    /// Deep-freeze the line (DeepFreeze; the line must be frozen too).
    pub const SET_DEEP_FREEZE: u32 = 0x0040_0000;
    /// Lift a deep freeze.
    pub const CLEAR_DEEP_FREEZE: u32 = 0x0080_0000;
    /// Bits TrustSet may not set (the DeepFreeze bits are refused: amendment not enabled).
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK
        & !(SET_AUTH
            | SET_NO_RIPPLE
            | CLEAR_NO_RIPPLE
            | SET_FREEZE
            | CLEAR_FREEZE
            | SET_DEEP_FREEZE
            | CLEAR_DEEP_FREEZE);
}

fn limit_amount(tx: &StObject) -> Option<(IouValue, Currency, AccountId)> {
    match tx.amount_of(sf().limit_amount)? {
        Amount::Iou {
            value,
            currency,
            issuer,
        } => Some((value, currency, issuer)),
        Amount::Xrp(_) => None,
    }
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    // The mask holds the deep-freeze flags; they are invalid until DeepFreeze.
    let deep = tf::SET_DEEP_FREEZE | tf::CLEAR_DEEP_FREEZE;
    if tx.flags() & deep != 0 && !enabled_now(Feature::DeepFreeze) {
        return Ter::temINVALID_FLAG;
    }
    let Some(amount) = tx.amount_of(sf().limit_amount) else {
        return Ter::temMALFORMED;
    };
    let Amount::Iou {
        value,
        currency,
        issuer,
    } = amount
    else {
        return Ter::temBAD_LIMIT;
    };
    if currency.is_bad() {
        return Ter::temBAD_CURRENCY;
    }
    if value.is_negative() {
        return Ter::temBAD_LIMIT;
    }
    if issuer == AccountId::ZERO || issuer == AccountId::ONE {
        return Ter::temDST_NEEDED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    if tx.flags() & tf::SET_AUTH != 0 && !root.is_flag(lsf::REQUIRE_AUTH) {
        return Ter::tefNO_AUTH_REQUIRED;
    }
    let Some((_, currency, dst)) = limit_amount(tx) else {
        return Ter::temBAD_LIMIT;
    };
    if dst == *account {
        return Ter::temDST_IS_SRC;
    }
    let Some(dst_root) = view.read(&keylet::account(&dst)) else {
        return Ter::tecNO_DST;
    };
    if dst_root.is_flag(lsf::DISALLOW_INCOMING_TRUSTLINE)
        && view.read(&keylet::line(account, &dst, &currency)).is_none()
    {
        return Ter::tecNO_PERMISSION;
    }
    if !view.info().rules.enabled(Feature::DeepFreeze) {
        return Ter::tesSUCCESS;
    }
    freeze_preclaim(view, tx, account, &root, &dst, &currency)
}

/// DeepFreeze's rules (rippled `SetTrust::preclaim`, under DeepFreeze only): no freezing under NoFreeze, no
/// freezing and unfreezing at once, and a deep freeze only on a frozen line.
fn freeze_preclaim(
    view: &dyn ReadView,
    tx: &StObject,
    account: &AccountId,
    root: &StObject,
    dst: &AccountId,
    currency: &Currency,
) -> Ter {
    let Some(req) = request(tx) else {
        return Ter::temBAD_LIMIT;
    };
    let setting = req.set_freeze || req.set_deep_freeze;
    let clearing = req.clear_freeze || req.clear_deep_freeze;
    if root.is_flag(lsf::NO_FREEZE) && setting {
        return Ter::tecNO_PERMISSION;
    }
    if setting && clearing {
        return Ter::tecNO_PERMISSION;
    }
    let high = account > dst;
    let flags = view
        .read(&keylet::line(account, dst, currency))
        .map_or(0, |l| l.flags());
    let flags = freeze_flags(flags, &req, high, root.is_flag(lsf::NO_FREEZE));
    let frozen = flags & side_bit(high, lsf::LOW_FREEZE, lsf::HIGH_FREEZE) != 0;
    let deep = flags & side_bit(high, lsf::LOW_DEEP_FREEZE, lsf::HIGH_DEEP_FREEZE) != 0;
    if deep && !frozen {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// The line's flags with the request's freeze and deep-freeze changes on the sender's
/// side (rippled `computeFreezeFlags`).
fn freeze_flags(flags_in: u32, req: &Request, high: bool, no_freeze: bool) -> u32 {
    let mut out = flags_in;
    let freeze = side_bit(high, lsf::LOW_FREEZE, lsf::HIGH_FREEZE);
    if req.set_freeze && !req.clear_freeze && !no_freeze {
        out |= freeze;
    } else if req.clear_freeze && !req.set_freeze {
        out &= !freeze;
    }
    let deep = side_bit(high, lsf::LOW_DEEP_FREEZE, lsf::HIGH_DEEP_FREEZE);
    if req.set_deep_freeze && !req.clear_deep_freeze && !no_freeze {
        out |= deep;
    } else if req.clear_deep_freeze && !req.set_deep_freeze {
        out &= !deep;
    }
    out
}

/// What the transaction asks of the line, from the sender's side.
struct Request {
    limit: IouValue,
    currency: Currency,
    dst: AccountId,
    has_quality_in: bool,
    has_quality_out: bool,
    quality_in: u32,
    /// QualityOut, with QUALITY_ONE read as 0.
    quality_out: u32,
    set_auth: bool,
    set_no_ripple: bool,
    clear_no_ripple: bool,
    set_freeze: bool,
    clear_freeze: bool,
    set_deep_freeze: bool,
    clear_deep_freeze: bool,
}

fn request(tx: &StObject) -> Option<Request> {
    let s = sf();
    let (limit, currency, dst) = limit_amount(tx)?;
    let has_quality_out = tx.u32_of(s.quality_out).is_some();
    let mut quality_out = tx.u32_of(s.quality_out).unwrap_or(0);
    if has_quality_out && quality_out == QUALITY_ONE {
        quality_out = 0;
    }
    let flags = tx.flags();
    Some(Request {
        limit,
        currency,
        dst,
        has_quality_in: tx.u32_of(s.quality_in).is_some(),
        has_quality_out,
        quality_in: tx.u32_of(s.quality_in).unwrap_or(0),
        quality_out,
        set_auth: flags & tf::SET_AUTH != 0,
        set_no_ripple: flags & tf::SET_NO_RIPPLE != 0,
        clear_no_ripple: flags & tf::CLEAR_NO_RIPPLE != 0,
        set_freeze: flags & tf::SET_FREEZE != 0,
        clear_freeze: flags & tf::CLEAR_FREEZE != 0,
        set_deep_freeze: flags & tf::SET_DEEP_FREEZE != 0,
        clear_deep_freeze: flags & tf::CLEAR_DEEP_FREEZE != 0,
    })
}

/// The low-side or the high-side bit of a pair of line flags.
fn side_bit(high: bool, low_bit: u32, high_bit: u32) -> u32 {
    if high {
        high_bit
    } else {
        low_bit
    }
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let account = ctx.account;
    let Some(req) = request(ctx.tx) else {
        return Err(Ter::temBAD_LIMIT);
    };
    let Some(me) = ctx.sb.peek(&keylet::account(&account)) else {
        return Err(Ter::tefINTERNAL);
    };
    let can_reserve = can_take_line(ctx, &me);
    let Some(dst_root) = ctx.sb.peek(&keylet::account(&req.dst)) else {
        return Err(Ter::tecNO_DST);
    };
    let line_key = keylet::line(&account, &req.dst, &req.currency);
    let Some(mut line) = ctx.sb.peek(&line_key) else {
        return create_line(ctx, &req, can_reserve).into_result();
    };

    let high = account > req.dst;
    let (low_acct, high_acct) = if high {
        (req.dst, account)
    } else {
        (account, req.dst)
    };
    let (low_root, high_root) = if high {
        (&dst_root, &me)
    } else {
        (&me, &dst_root)
    };
    let low_balance = balance_for(&line, &low_acct, &high_acct);
    let high_balance = low_balance.negate();
    set_limit_and_qualities(&mut line, &req, &account, high);
    let flags_in = line.flags();
    let my_balance = if high { high_balance } else { low_balance };
    let mut out = ripple_and_freeze(flags_in, &req, high, &me, my_balance)?;
    let low_reserve_set = side_needs_reserve(&line, out, false, low_root, low_balance);
    let high_reserve_set = side_needs_reserve(&line, out, true, high_root, high_balance);
    if req.set_auth {
        out |= side_bit(high, lsf::LOW_AUTH, lsf::HIGH_AUTH);
    }
    let reserve_increase = update_reserves(
        ctx,
        &mut line,
        &mut out,
        flags_in,
        [(low_acct, low_reserve_set), (high_acct, high_reserve_set)],
        high,
    );
    if out != flags_in {
        line.set(sf().flags, StValue::UInt32(out));
    }
    let is_default = !low_reserve_set && !high_reserve_set;
    if is_default || req.currency.is_bad() {
        return trust_delete(&mut ctx.sb, &line_key, &line).into_result();
    }
    if reserve_increase && !can_reserve {
        return Err(Ter::tecINSUF_RESERVE_LINE);
    }
    ctx.sb.update(line_key, line);
    Ok(())
}

/// Whether the sender can take one more line's reserve. The first two owned objects need
/// no reserve here, so a gateway can fund users' accounts without fuss (rippled's rule);
/// a reserve sponsor has no such free tier and answers for the line itself.
fn can_take_line(ctx: &ApplyContext, me: &StObject) -> bool {
    let sponsored = ReserveCtx::of(&ctx.sb, ctx.tx, &ctx.account)
        .sponsor
        .is_some();
    if !sponsored && me.u32_of(sf().owner_count).unwrap_or(0) < 2 {
        return true;
    }
    let fail = Ter::tecINSUF_RESERVE_LINE;
    check_reserve(&ctx.sb, ctx.tx, me, ctx.prior_balance, (1, 0), fail).is_ok()
}

/// No line yet: creates one, unless it would hold only defaults or the sender lacks the
/// reserve.
fn create_line(ctx: &mut ApplyContext, req: &Request, can_reserve: bool) -> Ter {
    if req.limit.is_zero()
        && (!req.has_quality_in || req.quality_in == 0)
        && (!req.has_quality_out || req.quality_out == 0)
        && !req.set_auth
    {
        return Ter::tecNO_LINE_REDUNDANT;
    }
    if !can_reserve {
        return Ter::tecNO_LINE_INSUF_RESERVE;
    }
    let rc = ReserveCtx::of(&ctx.sb, ctx.tx, &ctx.account);
    trust_create_for(
        &mut ctx.sb,
        &NewLine {
            setter: ctx.account,
            peer: req.dst,
            currency: req.currency,
            limit: req.limit,
            auth: req.set_auth,
            no_ripple: req.set_no_ripple && !req.clear_no_ripple,
            freeze: req.set_freeze && !req.clear_freeze,
            deep_freeze: req.set_deep_freeze && !req.clear_deep_freeze,
            quality_in: req.quality_in,
            quality_out: req.quality_out,
        },
        &rc,
    )
}

/// Writes the sender's limit and qualities on its side of the line. A quality absent
/// from the transaction is kept, zero clears it.
fn set_limit_and_qualities(line: &mut StObject, req: &Request, account: &AccountId, high: bool) {
    let s = sf();
    let (limit_f, quality_in_f, quality_out_f) = if high {
        (s.high_limit, s.high_quality_in, s.high_quality_out)
    } else {
        (s.low_limit, s.low_quality_in, s.low_quality_out)
    };
    line.set(
        limit_f,
        StValue::Amount(Amount::iou(req.limit, req.currency, *account)),
    );
    if req.has_quality_in {
        set_quality(line, quality_in_f, req.quality_in);
    }
    if req.has_quality_out {
        set_quality(line, quality_out_f, req.quality_out);
    }
}

fn set_quality(line: &mut StObject, field: Field, quality: u32) {
    if quality != 0 {
        line.set(field, StValue::UInt32(quality));
    } else {
        line.remove(field);
    }
}

/// The line's flags with the request's NoRipple and Freeze changes on the sender's side.
/// NoRipple needs the sender's balance on the line not to be negative.
fn ripple_and_freeze(
    flags_in: u32,
    req: &Request,
    high: bool,
    me: &StObject,
    my_balance: IouValue,
) -> Result<u32, Ter> {
    let mut out = flags_in;
    let no_ripple = side_bit(high, lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE);
    if req.set_no_ripple && !req.clear_no_ripple {
        if my_balance.signum() >= 0 {
            out |= no_ripple;
        } else {
            return Err(Ter::tecNO_PERMISSION);
        }
    } else if req.clear_no_ripple && !req.set_no_ripple {
        out &= !no_ripple;
    }
    Ok(freeze_flags(out, req, high, me.is_flag(lsf::NO_FREEZE)))
}

/// True when one side of the line differs from its defaults, and so takes a reserve:
/// a quality, NoRipple against the account's DefaultRipple, a freeze, a limit, or a
/// positive balance (`balance` from that side).
fn side_needs_reserve(
    line: &StObject,
    flags: u32,
    high: bool,
    root: &StObject,
    balance: IouValue,
) -> bool {
    let s = sf();
    let (limit_f, quality_in_f, quality_out_f) = if high {
        (s.high_limit, s.high_quality_in, s.high_quality_out)
    } else {
        (s.low_limit, s.low_quality_in, s.low_quality_out)
    };
    let quality = |f| match line.u32_of(f).unwrap_or(0) {
        QUALITY_ONE => 0,
        v => v,
    };
    let rippling = flags & side_bit(high, lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE) == 0;
    quality(quality_in_f) != 0
        || quality(quality_out_f) != 0
        || rippling != root.is_flag(lsf::DEFAULT_RIPPLE)
        || flags & side_bit(high, lsf::LOW_FREEZE, lsf::HIGH_FREEZE) != 0
        || !iou_of(line, limit_f).is_zero()
        || balance.signum() > 0
}

/// Takes or releases each side's reserve (owner count and the Low/HighReserve flag, and
/// the side's reserve sponsor) as `sides` (low, high: account and whether it needs one)
/// say. Returns true when the sender's side takes a new reserve.
fn update_reserves(
    ctx: &mut ApplyContext,
    line: &mut StObject,
    flags: &mut u32,
    flags_in: u32,
    sides: [(AccountId, bool); 2],
    sender_high: bool,
) -> bool {
    let mut increase = false;
    for (high, (account, needs_reserve)) in [false, true].into_iter().zip(sides) {
        let reserve = side_bit(high, lsf::LOW_RESERVE, lsf::HIGH_RESERVE);
        let reserved = flags_in & reserve != 0;
        if needs_reserve && !reserved {
            let rc = ReserveCtx::of(&ctx.sb, ctx.tx, &account);
            let sponsor = own(&mut ctx.sb, &rc, 1);
            stamp_sponsor(line, &account, sponsor);
            *flags |= reserve;
            if high == sender_high {
                increase = true;
            }
        }
        if !needs_reserve && reserved {
            release_kept(&mut ctx.sb, &account, line, 1);
            *flags &= !reserve;
        }
    }
    increase
}

/// A delegate's granular permissions (rippled `TrustSet::checkPermission`): only
/// authorizing, freezing or unfreezing an existing line, with its limit and qualities
/// unchanged, each flag with its granular permission.
pub fn granular_permission(
    view: &dyn ReadView,
    tx: &StObject,
    account: &AccountId,
    has: &dyn Fn(&str) -> bool,
) -> bool {
    let s = sf();
    let flags = tx.flags();
    let granted = tf::SET_AUTH | tf::SET_FREEZE | tf::CLEAR_FREEZE;
    if flags & TF_UNIVERSAL_MASK & !granted != 0 {
        return false;
    }
    if tx.get(s.quality_in).is_some() || tx.get(s.quality_out).is_some() {
        return false;
    }
    let Some(Amount::Iou {
        value,
        currency,
        issuer,
    }) = tx.amount_of(s.limit_amount)
    else {
        return false;
    };
    let Some(line) = view.read(&keylet::line(account, &issuer, &currency)) else {
        return false;
    };
    for (bit, name) in [
        (tf::SET_AUTH, "TrustlineAuthorize"),
        (tf::SET_FREEZE, "TrustlineFreeze"),
        (tf::CLEAR_FREEZE, "TrustlineUnfreeze"),
    ] {
        if flags & bit != 0 && !has(name) {
            return false;
        }
    }
    let side = if *account > issuer {
        s.high_limit
    } else {
        s.low_limit
    };
    matches!(line.amount_of(side), Some(Amount::Iou { value: v, currency: c, .. })
        if v == value && c == currency)
}
