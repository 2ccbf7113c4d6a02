//! TrustSet (rippled `SetTrust.cpp`): creates, changes, authorizes and deletes trust
//! lines, including the issuer's pre-authorization of a line that does not exist yet.

use super::entry::adjust_owner_count;
use super::ripple::{balance_for, iou_of, trust_create, trust_delete, NewLine, QUALITY_ONE};
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

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
    /// Bits TrustSet may not set (the DeepFreeze bits are refused: amendment not enabled).
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK
        & !(SET_AUTH | SET_NO_RIPPLE | CLEAR_NO_RIPPLE | SET_FREEZE | CLEAR_FREEZE);
}

fn limit_amount(tx: &StObject) -> Option<(IouValue, crate::protocol::types::Currency, AccountId)> {
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
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let account = ctx.account;
    let Some((limit, currency, dst)) = limit_amount(tx) else {
        return Ter::temBAD_LIMIT;
    };
    let high = account > dst;
    let Some(me) = ctx.sb.peek(&keylet::account(&account)) else {
        return Ter::tefINTERNAL;
    };
    let owner_count = me.u32_of(s.owner_count).unwrap_or(0);
    // The first two owned objects need no reserve here, so a gateway can fund users'
    // accounts without fuss (rippled's rule).
    let fees = ctx.sb.info().fees;
    let reserve_create = if owner_count < 2 {
        0
    } else {
        fees.account_reserve(owner_count.saturating_add(1))
    };
    let has_qin = tx.u32_of(s.quality_in).is_some();
    let has_qout = tx.u32_of(s.quality_out).is_some();
    let quality_in = tx.u32_of(s.quality_in).unwrap_or(0);
    let mut quality_out = tx.u32_of(s.quality_out).unwrap_or(0);
    if has_qout && quality_out == QUALITY_ONE {
        quality_out = 0;
    }
    let flags = tx.flags();
    let set_auth = flags & tf::SET_AUTH != 0;
    let set_no_ripple = flags & tf::SET_NO_RIPPLE != 0;
    let clear_no_ripple = flags & tf::CLEAR_NO_RIPPLE != 0;
    let set_freeze = flags & tf::SET_FREEZE != 0;
    let clear_freeze = flags & tf::CLEAR_FREEZE != 0;

    let Some(dst_root) = ctx.sb.peek(&keylet::account(&dst)) else {
        return Ter::tecNO_DST;
    };
    let line_key = keylet::line(&account, &dst, &currency);
    let Some(mut line) = ctx.sb.peek(&line_key) else {
        if limit.is_zero()
            && (!has_qin || quality_in == 0)
            && (!has_qout || quality_out == 0)
            && !set_auth
        {
            return Ter::tecNO_LINE_REDUNDANT;
        }
        if ctx.prior_balance < reserve_create {
            return Ter::tecNO_LINE_INSUF_RESERVE;
        }
        return trust_create(
            &mut ctx.sb,
            &NewLine {
                setter: account,
                peer: dst,
                currency,
                limit,
                auth: set_auth,
                no_ripple: set_no_ripple && !clear_no_ripple,
                freeze: set_freeze && !clear_freeze,
                quality_in,
                quality_out,
            },
        );
    };

    let (low_acct, high_acct) = if high { (dst, account) } else { (account, dst) };
    let (low_root, high_root) = if high {
        (&dst_root, &me)
    } else {
        (&me, &dst_root)
    };
    let low_balance = balance_for(&line, &low_acct, &high_acct);
    let high_balance = low_balance.negate();
    let my_limit_f = if high { s.high_limit } else { s.low_limit };
    line.set(
        my_limit_f,
        StValue::Amount(Amount::iou(limit, currency, account)),
    );
    let low_limit = iou_of(&line, s.low_limit);
    let high_limit = iou_of(&line, s.high_limit);

    // Qualities: absent keeps, zero clears, else stores on the sender's side.
    let (my_qin_f, my_qout_f) = if high {
        (s.high_quality_in, s.high_quality_out)
    } else {
        (s.low_quality_in, s.low_quality_out)
    };
    if has_qin {
        if quality_in != 0 {
            line.set(my_qin_f, StValue::UInt32(quality_in));
        } else {
            line.remove(my_qin_f);
        }
    }
    if has_qout {
        if quality_out != 0 {
            line.set(my_qout_f, StValue::UInt32(quality_out));
        } else {
            line.remove(my_qout_f);
        }
    }
    let q = |f| match line.u32_of(f).unwrap_or(0) {
        QUALITY_ONE => 0,
        v => v,
    };
    let (low_qin, low_qout) = (q(s.low_quality_in), q(s.low_quality_out));
    let (high_qin, high_qout) = (q(s.high_quality_in), q(s.high_quality_out));

    let pick = |low: u32, hi: u32| if high { hi } else { low };
    let flags_in = line.flags();
    let mut out = flags_in;
    if set_no_ripple && !clear_no_ripple {
        let mine = if high { high_balance } else { low_balance };
        if mine.signum() >= 0 {
            out |= pick(lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE);
        } else {
            return Ter::tecNO_PERMISSION;
        }
    } else if clear_no_ripple && !set_no_ripple {
        out &= !pick(lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE);
    }
    if set_freeze && !clear_freeze && !me.is_flag(lsf::NO_FREEZE) {
        out |= pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE);
    } else if clear_freeze && !set_freeze {
        out &= !pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE);
    }
    let low_def_ripple = low_root.is_flag(lsf::DEFAULT_RIPPLE);
    let high_def_ripple = high_root.is_flag(lsf::DEFAULT_RIPPLE);
    let low_reserve_set = low_qin != 0
        || low_qout != 0
        || (out & lsf::LOW_NO_RIPPLE == 0) != low_def_ripple
        || out & lsf::LOW_FREEZE != 0
        || !low_limit.is_zero()
        || low_balance.signum() > 0;
    let high_reserve_set = high_qin != 0
        || high_qout != 0
        || (out & lsf::HIGH_NO_RIPPLE == 0) != high_def_ripple
        || out & lsf::HIGH_FREEZE != 0
        || !high_limit.is_zero()
        || high_balance.signum() > 0;
    let is_default = !low_reserve_set && !high_reserve_set;
    let low_reserved = flags_in & lsf::LOW_RESERVE != 0;
    let high_reserved = flags_in & lsf::HIGH_RESERVE != 0;
    let mut reserve_increase = false;
    if set_auth {
        out |= pick(lsf::LOW_AUTH, lsf::HIGH_AUTH);
    }
    if low_reserve_set && !low_reserved {
        adjust_owner_count(&mut ctx.sb, &low_acct, 1);
        out |= lsf::LOW_RESERVE;
        if !high {
            reserve_increase = true;
        }
    }
    if !low_reserve_set && low_reserved {
        adjust_owner_count(&mut ctx.sb, &low_acct, -1);
        out &= !lsf::LOW_RESERVE;
    }
    if high_reserve_set && !high_reserved {
        adjust_owner_count(&mut ctx.sb, &high_acct, 1);
        out |= lsf::HIGH_RESERVE;
        if high {
            reserve_increase = true;
        }
    }
    if !high_reserve_set && high_reserved {
        adjust_owner_count(&mut ctx.sb, &high_acct, -1);
        out &= !lsf::HIGH_RESERVE;
    }
    if out != flags_in {
        line.set(s.flags, StValue::UInt32(out));
    }
    if is_default || currency.is_bad() {
        return trust_delete(&mut ctx.sb, &line_key, &line);
    }
    if reserve_increase && ctx.prior_balance < reserve_create {
        return Ter::tecINSUF_RESERVE_LINE;
    }
    ctx.sb.update(line_key, line);
    Ter::tesSUCCESS
}
