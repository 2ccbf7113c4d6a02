//! Trust lines as the rules see them (rippled `View.cpp`: `trustCreate`, `trustDelete`,
//! `rippleCredit`): a RippleState's Balance is from the low account's side; these helpers
//! put it on a named account's side.

use super::directory::{insert_owned, remove_owned};
use super::entry::{new_entry, own, release_kept, stamp_sponsor, with_threading, ReserveCtx};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash256};

/// TransferRate and trust line quality unity (rippled `QUALITY_ONE`).
pub const QUALITY_ONE: u32 = 1_000_000_000;

/// The issued value of an Amount field (zero when absent or XRP).
pub fn iou_of(o: &StObject, field: crate::protocol::definitions::Field) -> IouValue {
    o.amount_of(field)
        .and_then(|a| a.as_iou())
        .unwrap_or(IouValue::ZERO)
}

/// The line's balance from `account`'s side: positive when `account` holds the peer's
/// IOUs.
pub fn balance_for(line: &StObject, account: &AccountId, peer: &AccountId) -> IouValue {
    let b = iou_of(line, sf().balance);
    if account < peer {
        b
    } else {
        b.negate()
    }
}

/// `account`'s limit on the line: how much of the peer's IOUs it accepts.
pub fn limit_for(line: &StObject, account: &AccountId, peer: &AccountId) -> IouValue {
    iou_of(
        line,
        if account < peer {
            sf().low_limit
        } else {
            sf().high_limit
        },
    )
}

/// A Balance amount in the line's form (issuer noAccount).
pub fn balance_amount(value: IouValue, currency: Currency) -> Amount {
    Amount::iou(value, currency, AccountId::ONE)
}

/// Parameters of a new line (rippled `trustCreate`), from the setter's side.
pub struct NewLine {
    /// The account whose limit is being set (pays the reserve).
    pub setter: AccountId,
    /// The other account.
    pub peer: AccountId,
    /// The currency.
    pub currency: Currency,
    /// The setter's limit.
    pub limit: IouValue,
    /// Set the setter's Auth bit.
    pub auth: bool,
    /// Set the setter's NoRipple bit.
    pub no_ripple: bool,
    /// Set the setter's Freeze bit.
    pub freeze: bool,
    /// Set the setter's DeepFreeze bit.
    pub deep_freeze: bool,
    /// Setter's QualityIn (0 = none).
    pub quality_in: u32,
    /// Setter's QualityOut (0 = none).
    pub quality_out: u32,
}

/// Creates a trust line, lists it in both owner directories and charges the setter's
/// OwnerCount.
pub fn trust_create(sb: &mut Sandbox, n: &NewLine) -> Ter {
    trust_create_for(sb, n, &ReserveCtx::own_reserve(&n.setter))
}

/// [`trust_create`] with the setter's reserve carried as `rc` says: a sponsor's line side
/// gets `HighSponsor` / `LowSponsor` and the sponsor's counters move.
pub fn trust_create_for(sb: &mut Sandbox, n: &NewLine, rc: &ReserveCtx) -> Ter {
    let s = sf();
    let key = keylet::line(&n.setter, &n.peer, &n.currency);
    let high = n.setter > n.peer;
    let (low_acct, high_acct) = if high {
        (n.peer, n.setter)
    } else {
        (n.setter, n.peer)
    };
    let Some(low_node) = insert_owned(sb, &low_acct, key) else {
        return Ter::tecDIR_FULL;
    };
    let Some(high_node) = insert_owned(sb, &high_acct, key) else {
        return Ter::tecDIR_FULL;
    };
    let mut line = with_threading(new_entry(lt::RIPPLE_STATE));
    line.set(
        s.balance,
        StValue::Amount(balance_amount(IouValue::ZERO, n.currency)),
    );
    let (mine, theirs) = if high {
        (s.high_limit, s.low_limit)
    } else {
        (s.low_limit, s.high_limit)
    };
    line.set(
        mine,
        StValue::Amount(Amount::iou(n.limit, n.currency, n.setter)),
    );
    line.set(
        theirs,
        StValue::Amount(Amount::iou(IouValue::ZERO, n.currency, n.peer)),
    );
    line.set(s.low_node, StValue::UInt64(low_node));
    line.set(s.high_node, StValue::UInt64(high_node));
    if n.quality_in != 0 {
        let f = if high {
            s.high_quality_in
        } else {
            s.low_quality_in
        };
        line.set(f, StValue::UInt32(n.quality_in));
    }
    if n.quality_out != 0 {
        let f = if high {
            s.high_quality_out
        } else {
            s.low_quality_out
        };
        line.set(f, StValue::UInt32(n.quality_out));
    }
    let pick = |low_bit: u32, high_bit: u32| if high { high_bit } else { low_bit };
    let mut flags = pick(lsf::LOW_RESERVE, lsf::HIGH_RESERVE);
    if n.auth {
        flags |= pick(lsf::LOW_AUTH, lsf::HIGH_AUTH);
    }
    if n.no_ripple {
        flags |= pick(lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE);
    }
    if n.freeze {
        flags |= pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE);
    }
    if n.deep_freeze {
        flags |= pick(lsf::LOW_DEEP_FREEZE, lsf::HIGH_DEEP_FREEZE);
    }
    // The peer's side does not ripple unless the peer ripples by default.
    let peer_default_ripple = sb
        .peek(&keylet::account(&n.peer))
        .is_some_and(|r| r.is_flag(lsf::DEFAULT_RIPPLE));
    if !peer_default_ripple {
        flags |= pick(lsf::HIGH_NO_RIPPLE, lsf::LOW_NO_RIPPLE);
    }
    line.set(s.flags, StValue::UInt32(flags));
    let sponsor = own(sb, rc, 1);
    stamp_sponsor(&mut line, &n.setter, sponsor);
    sb.insert(key, line);
    Ter::tesSUCCESS
}

/// Removes a line from both owner directories and deletes it (owner counts are the
/// caller's business, as in rippled).
pub fn trust_delete(sb: &mut Sandbox, key: &Hash256, line: &StObject) -> Ter {
    let s = sf();
    let low = match line.amount_of(s.low_limit) {
        Some(Amount::Iou { issuer, .. }) => issuer,
        _ => return Ter::tefBAD_LEDGER,
    };
    let high = match line.amount_of(s.high_limit) {
        Some(Amount::Iou { issuer, .. }) => issuer,
        _ => return Ter::tefBAD_LEDGER,
    };
    let low_node = line.u64_of(s.low_node).unwrap_or(0);
    let high_node = line.u64_of(s.high_node).unwrap_or(0);
    if !remove_owned(sb, &low, low_node, key, false)
        || !remove_owned(sb, &high, high_node, key, false)
    {
        return Ter::tefBAD_LEDGER;
    }
    sb.erase(*key);
    Ter::tesSUCCESS
}

/// Moves `amount` of `currency` from `sender` to `receiver` along their line (rippled
/// `rippleCreditIOU`), releasing the sender's reserve and deleting the line when the
/// sender's side returns to its default state.
pub fn ripple_credit(
    sb: &mut Sandbox,
    sender: &AccountId,
    receiver: &AccountId,
    currency: &Currency,
    amount: &IouValue,
) -> Ter {
    let s = sf();
    let key = keylet::line(sender, receiver, currency);
    let Some(mut line) = sb.peek(&key) else {
        return Ter::tecNO_LINE;
    };
    let sender_high = sender > receiver;
    let before = balance_for(&line, sender, receiver);
    let Ok(after) = before.checked_sub(amount) else {
        // Past the largest issued value: rippled's STAmount subtraction throws
        // (`IOUAmount` overflow); the caller answers as rippled's catch does.
        crate::protocol::number::raise_fault();
        return Ter::tecINTERNAL;
    };
    let flags = line.flags();
    let pick = |low: u32, high: u32| if sender_high { high } else { low };
    let (limit_f, qin_f, qout_f) = if sender_high {
        (s.high_limit, s.high_quality_in, s.high_quality_out)
    } else {
        (s.low_limit, s.low_quality_in, s.low_quality_out)
    };
    let sender_default_ripple = sb
        .peek(&keylet::account(sender))
        .is_some_and(|r| r.is_flag(lsf::DEFAULT_RIPPLE));
    let mut delete = false;
    if before.signum() > 0
        && after.signum() <= 0
        && flags & pick(lsf::LOW_RESERVE, lsf::HIGH_RESERVE) != 0
        && (flags & pick(lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE) != 0) != sender_default_ripple
        && flags & pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE) == 0
        && iou_of(&line, limit_f).is_zero()
        && line.u32_of(qin_f).unwrap_or(0) == 0
        && line.u32_of(qout_f).unwrap_or(0) == 0
    {
        release_kept(sb, sender, &mut line, 1);
        line.set(
            s.flags,
            StValue::UInt32(flags & !pick(lsf::LOW_RESERVE, lsf::HIGH_RESERVE)),
        );
        delete = after.is_zero() && flags & pick(lsf::HIGH_RESERVE, lsf::LOW_RESERVE) == 0;
    }
    let stored = if sender_high { after.negate() } else { after };
    line.set(
        s.balance,
        StValue::Amount(balance_amount(stored, *currency)),
    );
    if delete {
        sb.update(key, line.clone());
        return trust_delete(sb, &key, &line);
    }
    sb.update(key, line);
    Ter::tesSUCCESS
}
