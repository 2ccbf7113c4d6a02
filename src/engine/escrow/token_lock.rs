//! Escrows of issued currencies and MPTs (TokenEscrow, XLS-85; rippled `Escrow.cpp`'s
//! per-asset helpers and `View.cpp`'s `rippleLockEscrowMPT` / `rippleUnlockEscrowMPT`).
//!
//! An issued currency held in escrow goes back to its issuer on creation (the holder's
//! line shrinks) and comes out of the issuer on finish or cancel; the escrow sits in the
//! issuer's owner directory too (`IssuerNode`). An MPT stays counted in the issuance's
//! OutstandingAmount: the holder's MPTAmount moves to its MPToken's `LockedAmount` and
//! the issuance's `LockedAmount` grows by as much. Finishing applies the transfer rate
//! the escrow recorded at creation (`TransferRate`), or the issuer's current one when
//! lower, taken out of the escrowed amount.

use crate::engine::directory::insert_owned;
use crate::engine::entry::{check_reserve_for, sponsor_inserted, ReserveCtx};
use crate::engine::funds;
use crate::engine::mpt;
use crate::engine::ripple::{balance_for, limit_for, ripple_credit, trust_create_for, NewLine};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::flags::{lsf, lsf_mpt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::amount_math::{div_round, div_round_strict};
use crate::protocol::features::Feature;
use crate::protocol::mpt::{MptAmount, MptId, MPT_AMOUNT_MAX};
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Issue};

/// `QUALITY_ONE`: the parity transfer rate.
pub const PARITY_RATE: u32 = 1_000_000_000;

/// The token an escrow (or an EscrowCreate) holds.
#[derive(Clone, Copy, Debug)]
pub enum Token {
    /// An issued currency.
    Iou {
        /// The amount (positive in a valid escrow).
        value: IouValue,
        /// Currency and issuer.
        issue: Issue,
    },
    /// An MPT.
    Mpt(MptAmount),
}

impl Token {
    /// The issuer.
    pub fn issuer(&self) -> AccountId {
        match self {
            Token::Iou { issue, .. } => issue.issuer,
            Token::Mpt(m) => m.id.issuer(),
        }
    }
}

/// The token in `o`'s Amount; `None` for XRP or no Amount.
pub fn token_of(o: &StObject) -> Option<Token> {
    match o.get(sf().amount)? {
        StValue::Amount(Amount::Iou {
            value,
            currency,
            issuer,
        }) => Some(Token::Iou {
            value: *value,
            issue: Issue {
                currency: *currency,
                issuer: *issuer,
            },
        }),
        StValue::MptAmount(m) => Some(Token::Mpt(*m)),
        _ => None,
    }
}

/// `escrowCreatePreflightHelper`: a positive amount, not the currency code XRP, an MPT
/// within the largest amount.
pub fn preflight_amount(token: &Token) -> Ter {
    match token {
        Token::Iou { value, .. } if value.signum() <= 0 => Ter::temBAD_AMOUNT,
        Token::Iou { issue, .. } if issue.currency.is_bad() => Ter::temBAD_CURRENCY,
        Token::Iou { .. } => Ter::tesSUCCESS,
        Token::Mpt(m) if m.negative || m.value == 0 || m.value > MPT_AMOUNT_MAX => {
            Ter::temBAD_AMOUNT
        }
        Token::Mpt(_) => Ter::tesSUCCESS,
    }
}

/// `escrowCreatePreclaimHelper`: may `account` escrow `token` for `dest`?
pub fn create_preclaim(
    view: &dyn ReadView,
    account: &AccountId,
    dest: &AccountId,
    token: &Token,
) -> Ter {
    if token.issuer() == *account {
        return Ter::tecNO_PERMISSION;
    }
    match token {
        Token::Iou { value, issue } => {
            Ter::from(iou_create_preclaim(view, account, dest, value, issue))
        }
        Token::Mpt(m) => Ter::from(mpt_create_preclaim(view, account, dest, m)),
    }
}

fn iou_create_preclaim(
    view: &dyn ReadView,
    account: &AccountId,
    dest: &AccountId,
    value: &IouValue,
    issue: &Issue,
) -> Result<(), Ter> {
    let Some(issuer) = view.read(&keylet::account(&issue.issuer)) else {
        return Err(Ter::tecNO_ISSUER);
    };
    if !issuer.is_flag(lsf::ALLOW_TRUSTLINE_LOCKING) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if view
        .read(&keylet::line(account, &issue.issuer, &issue.currency))
        .is_none()
    {
        return Err(Ter::tecNO_LINE);
    }
    for who in [account, dest] {
        funds::require_auth(view, issue, who).into_result()?;
    }
    if funds::frozen_issue(view, account, issue) || funds::frozen_issue(view, dest, issue) {
        return Err(Ter::tecFROZEN);
    }
    let spendable = funds::account_holds(view, account, issue, false)
        .as_iou()
        .unwrap_or(IouValue::ZERO);
    if spendable.signum() <= 0 || spendable < *value {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    if !can_add(&spendable, value) {
        return Err(Ter::tecPRECISION_LOSS);
    }
    Ok(())
}

/// rippled's `canAdd` for issued values: `a` and `b` add with at most 1/10,000 of
/// relative loss either way, in rippled's `Number` arithmetic (whose sums drop what falls
/// below the larger operand's 16 digits: 10^16 - 1 is 10^16 there).
fn can_add(a: &IouValue, b: &IouValue) -> bool {
    let (a, b) = (Number::from_iou(a), Number::from_iou(b));
    if a.is_zero() || b.is_zero() {
        return true;
    }
    let one = Number::from_i64(1);
    let loss = |x: Number, y: Number| ((x - y + y) / x - one).abs();
    loss(a, b) + loss(b, a) <= Number::new(1, -4)
}

fn mpt_create_preclaim(
    view: &dyn ReadView,
    account: &AccountId,
    dest: &AccountId,
    m: &MptAmount,
) -> Result<(), Ter> {
    let Some(iss) = mpt::issuance(view, &m.id) else {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    };
    if !iss.is_flag(lsf_mpt::CAN_ESCROW) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if iss.account_of(sf().issuer) != Some(m.id.issuer()) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if mpt::mptoken(view, &m.id, account).is_none() {
        return Err(Ter::tecOBJECT_NOT_FOUND);
    }
    for who in [account, dest] {
        mpt::require_auth_as(view, &m.id, who, false)?;
    }
    if mpt::is_any_locked(view, &m.id, &[*account]) || mpt::is_any_locked(view, &m.id, &[*dest]) {
        return Err(Ter::tecLOCKED);
    }
    mpt::can_transfer(view, &m.id, account, dest).into_result()?;
    let spendable = mpt::holds(view, account, &m.id, false);
    if spendable == 0 || spendable < m.value {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    Ok(())
}

/// The issuer's transfer rate for `token` now (`transferRate(view, amount)`).
pub fn current_rate(view: &dyn ReadView, token: &Token) -> u32 {
    match token {
        Token::Iou { issue, .. } => funds::transfer_rate(view, &issue.issuer),
        Token::Mpt(m) => mpt::transfer_rate(view, &m.id),
    }
}

/// Records on a new escrow what `escrowLockApplyHelper` and EscrowCreate's doApply do
/// for a token: the transfer rate when not parity, the issuer's directory for an issued
/// currency (unless the issuer is the destination), then locks the amount.
pub fn lock(
    sb: &mut Sandbox,
    escrow: &mut StObject,
    key: crate::protocol::types::Hash256,
    account: &AccountId,
    token: &Token,
) -> Ter {
    let s = sf();
    let rate = current_rate(sb, token);
    if rate != PARITY_RATE {
        escrow.set(s.transfer_rate, StValue::UInt32(rate));
    }
    let issuer = token.issuer();
    if issuer == *account {
        return Ter::tecINTERNAL;
    }
    match token {
        Token::Iou { value, issue } => {
            if escrow.account_of(s.destination) != Some(issuer) {
                let Some(page) = insert_owned(sb, &issuer, key) else {
                    return Ter::tecDIR_FULL;
                };
                escrow.set(s.issuer_node, StValue::UInt64(page));
            }
            ripple_credit(sb, account, &issuer, &issue.currency, value)
        }
        Token::Mpt(m) => lock_mpt(sb, account, m),
    }
}

/// `rippleLockEscrowMPT`: the holder's MPTAmount into its LockedAmount, and as much more
/// locked on the issuance; OutstandingAmount stays.
fn lock_mpt(sb: &mut Sandbox, holder: &AccountId, m: &MptAmount) -> Ter {
    let s = sf();
    let tkey = keylet::mptoken(&m.id, holder);
    let Some(mut token) = sb.peek(&tkey) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let held = token.u64_of(s.mpt_amount).unwrap_or(0);
    let locked = token.u64_of(s.locked_amount).unwrap_or(0);
    let (Some(rest), Some(now_locked)) = (held.checked_sub(m.value), add_within(locked, m.value))
    else {
        return Ter::tecINTERNAL;
    };
    set_or_clear(&mut token, s.mpt_amount, rest);
    token.set(s.locked_amount, StValue::UInt64(now_locked));
    sb.update(tkey, token);
    let ikey = keylet::mpt_issuance(&m.id);
    let Some(mut iss) = sb.peek(&ikey) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let Some(total) = add_within(iss.u64_of(s.locked_amount).unwrap_or(0), m.value) else {
        return Ter::tecINTERNAL;
    };
    iss.set(s.locked_amount, StValue::UInt64(total));
    sb.update(ikey, iss);
    Ter::tesSUCCESS
}

/// `a + b` when it stays a valid MPT amount.
fn add_within(a: u64, b: u64) -> Option<u64> {
    a.checked_add(b).filter(|v| *v <= MPT_AMOUNT_MAX)
}

/// Writes a UInt64 (MPTAmount, LockedAmount) or leaves it out at zero.
fn set_or_clear(o: &mut StObject, f: crate::protocol::definitions::Field, v: u64) {
    if v == 0 {
        o.remove(f);
    } else {
        o.set(f, StValue::UInt64(v));
    }
}

/// `escrowFinishPreclaimHelper`: may the destination receive the token now?
pub fn finish_preclaim(view: &dyn ReadView, dest: &AccountId, token: &Token) -> Result<(), Ter> {
    if token.issuer() == *dest {
        return Ok(());
    }
    match token {
        Token::Iou { issue, .. } => {
            funds::require_auth(view, issue, dest).into_result()?;
            if funds::deep_frozen(view, dest, &issue.issuer, &issue.currency) {
                return Err(Ter::tecFROZEN);
            }
            Ok(())
        }
        Token::Mpt(m) => {
            if mpt::issuance(view, &m.id).is_none() {
                return Err(Ter::tecOBJECT_NOT_FOUND);
            }
            mpt::require_auth_as(view, &m.id, dest, false)?;
            if mpt::is_any_locked(view, &m.id, &[*dest]) {
                return Err(Ter::tecLOCKED);
            }
            Ok(())
        }
    }
}

/// `escrowCancelPreclaimHelper`: may the owner take the token back?
pub fn cancel_preclaim(view: &dyn ReadView, owner: &AccountId, token: &Token) -> Ter {
    if token.issuer() == *owner {
        return Ter::tecINTERNAL;
    }
    match token {
        Token::Iou { issue, .. } => funds::require_auth(view, issue, owner),
        Token::Mpt(m) => {
            if mpt::issuance(view, &m.id).is_none() {
                return Ter::tecOBJECT_NOT_FOUND;
            }
            Ter::from(mpt::require_auth_as(view, &m.id, owner, false))
        }
    }
}

/// Who gets an escrowed token back out, and on what terms (`escrowUnlockApplyHelper`).
pub struct Unlock {
    /// The escrow's owner, who locked it.
    pub sender: AccountId,
    /// The destination on finish, the owner on cancel.
    pub receiver: AccountId,
    /// The rate recorded at creation (parity on cancel).
    pub locked_rate: u32,
    /// The receiver submitted the transaction: its line or MPToken may be created (and
    /// no line limit applies).
    pub create: bool,
    /// The submitter's XRP before the fee, for the new holding's reserve.
    pub prior_balance: i64,
    /// Who carries a new holding's reserve: the transaction's reserve sponsor when the
    /// receiver sent it.
    pub reserve: ReserveCtx,
}

/// `escrowUnlockApplyHelper`: delivers the escrowed token, less the transfer fee.
pub fn unlock(sb: &mut Sandbox, u: &Unlock, token: &Token) -> Ter {
    if token.issuer() == u.sender {
        return Ter::tecINTERNAL;
    }
    match token {
        Token::Iou { value, issue } => Ter::from(unlock_iou(sb, u, value, issue)),
        Token::Mpt(m) => Ter::from(unlock_mpt(sb, u, m)),
    }
}

/// The rate that applies: the recorded one, or the issuer's current one when lower.
fn applied_rate(view: &dyn ReadView, u: &Unlock, token: &Token) -> u32 {
    u.locked_rate.min(current_rate(view, token))
}

/// True when the receiver (or its reserve sponsor) cannot afford one more owned entry.
fn short_of_reserve(sb: &Sandbox, u: &Unlock) -> bool {
    let Some(root) = sb.peek(&keylet::account(&u.receiver)) else {
        return u.prior_balance < sb.info().fees.account_reserve(1);
    };
    let fail = Ter::tecINSUFFICIENT_RESERVE;
    check_reserve_for(sb, &u.reserve, &root, u.prior_balance, (1, 0), fail).is_err()
}

fn unlock_iou(sb: &mut Sandbox, u: &Unlock, value: &IouValue, issue: &Issue) -> Result<(), Ter> {
    let issuer = issue.issuer;
    if u.receiver == issuer {
        return Ok(());
    }
    let key = keylet::line(&u.receiver, &issuer, &issue.currency);
    if !sb.exists(&key) && u.create {
        if short_of_reserve(sb, u) {
            return Err(Ter::tecNO_LINE_INSUF_RESERVE);
        }
        create_line(sb, u, issue).into_result()?;
    }
    let Some(line) = sb.peek(&key) else {
        return Err(Ter::tecNO_LINE);
    };
    let rate = applied_rate(
        sb,
        u,
        &Token::Iou {
            value: *value,
            issue: *issue,
        },
    );
    let Some(net) = iou_net(value, issue, rate, strict_net(sb)) else {
        return Err(Ter::tecINTERNAL);
    };
    if !u.create {
        let after = balance_for(&line, &u.receiver, &issuer).checked_add(&net);
        if after.map_or(true, |b| limit_for(&line, &u.receiver, &issuer) < b) {
            return Err(Ter::tecLIMIT_EXCEEDED);
        }
    }
    ripple_credit(sb, &issuer, &u.receiver, &issue.currency, &net).into_result()
}

/// The receiver's new line to the issuer: zero limit, zero balance, its reserve.
fn create_line(sb: &mut Sandbox, u: &Unlock, issue: &Issue) -> Ter {
    let no_ripple = !sb
        .peek(&keylet::account(&u.receiver))
        .is_some_and(|r| r.is_flag(lsf::DEFAULT_RIPPLE));
    trust_create_for(
        sb,
        &NewLine {
            setter: u.receiver,
            peer: issue.issuer,
            currency: issue.currency,
            limit: IouValue::ZERO,
            auth: false,
            no_ripple,
            freeze: false,
            deep_freeze: false,
            quality_in: 0,
            quality_out: 0,
        },
        &u.reserve,
    )
}

/// What an escrowed issued amount delivers at `rate` (`escrowDeductTransferFee`):
/// `divideRound(amount, rate, up)`, or under fixCleanup3_4_0 (`strict`)
/// `divideRoundStrict(amount, rate, down)`.
fn iou_net(value: &IouValue, issue: &Issue, rate: u32, strict: bool) -> Option<IouValue> {
    if rate == PARITY_RATE {
        return Some(*value);
    }
    let gross = Amount::iou(*value, issue.currency, issue.issuer);
    let rate = crate::engine::nft::fee_rate_amount(rate);
    let net = if strict {
        div_round_strict(&gross, &rate, issue, false)
    } else {
        div_round(&gross, &rate, issue, true)
    };
    net.ok()?.as_iou()
}

/// What an escrowed MPT amount delivers at `rate`: the quotient rounded up, or under
/// fixCleanup3_4_0 (`strict`) down.
pub fn mpt_net_by(value: u64, rate: u32, strict: bool) -> u64 {
    if rate == PARITY_RATE {
        return value;
    }
    let num = u128::from(value) * u128::from(PARITY_RATE);
    let q = if strict {
        num / u128::from(rate)
    } else {
        num.div_ceil(u128::from(rate))
    };
    u64::try_from(q).unwrap_or(value)
}

/// fixCleanup3_4_0: the escrow's net rounds down (`divideRoundStrict`).
fn strict_net(sb: &Sandbox) -> bool {
    sb.info().rules.enabled(Feature::FixCleanup3_4_0)
}

fn unlock_mpt(sb: &mut Sandbox, u: &Unlock, m: &MptAmount) -> Result<(), Ter> {
    let issuer = m.id.issuer();
    let to_issuer = u.receiver == issuer;
    let tkey = keylet::mptoken(&m.id, &u.receiver);
    if !sb.exists(&tkey) && u.create && !to_issuer {
        if short_of_reserve(sb, u) {
            return Err(Ter::tecINSUFFICIENT_RESERVE);
        }
        crate::engine::vault::insert_mptoken(sb, &m.id, &u.receiver).into_result()?;
        sponsor_inserted(sb, &u.reserve, &tkey, 1);
    }
    if !sb.exists(&tkey) && !to_issuer {
        return Err(Ter::tecNO_PERMISSION);
    }
    let rate = applied_rate(sb, u, &Token::Mpt(*m));
    let net = if to_issuer {
        m.value
    } else {
        mpt_net_by(m.value, rate, strict_net(sb))
    };
    // Before fixTokenEscrowV1 (or fixCleanup3_4_0) only the net amount is unlocked: the
    // fee stays locked.
    let v1 = crate::protocol::features::Feature::FixTokenEscrowV1;
    let gross = if sb.info().rules.enabled(v1) || strict_net(sb) {
        m.value
    } else {
        net
    };
    release_mpt(sb, u, &m.id, net, gross).into_result()
}

/// `rippleUnlockEscrowMPT` (`gross` is `net` before fixTokenEscrowV1 and fixCleanup3_4_0):
/// `gross` leaves the sender's and the issuance's LockedAmount, `net` reaches the receiver
/// (or leaves OutstandingAmount when the receiver is the issuer), and the fee between them
/// leaves OutstandingAmount.
fn release_mpt(sb: &mut Sandbox, u: &Unlock, id: &MptId, net: u64, gross: u64) -> Ter {
    let s = sf();
    let ikey = keylet::mpt_issuance(id);
    let Some(mut iss) = sb.peek(&ikey) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let tkey = keylet::mptoken(id, &u.sender);
    let Some(mut from) = sb.peek(&tkey) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let issuer = id.issuer();
    let burned = if u.receiver == issuer {
        gross
    } else {
        gross - net
    };
    let iss_locked = iss.u64_of(s.locked_amount).unwrap_or(0).checked_sub(gross);
    let from_locked = from.u64_of(s.locked_amount).unwrap_or(0).checked_sub(gross);
    let out = iss
        .u64_of(s.outstanding_amount)
        .unwrap_or(0)
        .checked_sub(burned);
    let (Some(iss_locked), Some(from_locked), Some(out)) = (iss_locked, from_locked, out) else {
        return Ter::tecINTERNAL;
    };
    set_or_clear(&mut iss, s.locked_amount, iss_locked);
    iss.set(s.outstanding_amount, StValue::UInt64(out));
    sb.update(ikey, iss);
    set_or_clear(&mut from, s.locked_amount, from_locked);
    sb.update(tkey, from);
    if u.receiver == issuer {
        return Ter::tesSUCCESS;
    }
    let rkey = keylet::mptoken(id, &u.receiver);
    let Some(mut to) = sb.peek(&rkey) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let Some(held) = add_within(to.u64_of(s.mpt_amount).unwrap_or(0), net) else {
        return Ter::tecINTERNAL;
    };
    to.set(s.mpt_amount, StValue::UInt64(held));
    sb.update(rkey, to);
    Ter::tesSUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::amount::Rounding;
    use crate::protocol::number::{MantissaScale, ScaleGuard};

    #[test]
    fn mpt_fee_comes_out_of_the_escrowed_amount_rounded_for_the_receiver() {
        assert_eq!(mpt_net_by(125, 1_250_000_000, false), 100);
        assert_eq!(mpt_net_by(100, 1_250_000_000, false), 80);
        assert_eq!(mpt_net_by(1, 1_500_000_000, false), 1);
        assert_eq!(mpt_net_by(7, PARITY_RATE, false), 7);
        assert_eq!(mpt_net_by(10, 1_300_000_000, false), 8);
        // fixCleanup3_4_0 floors the net.
        assert_eq!(mpt_net_by(10, 1_300_000_000, true), 7);
        assert_eq!(mpt_net_by(125, 1_250_000_000, true), 100);
        assert_eq!(mpt_net_by(1, 1_500_000_000, true), 0);
    }

    #[test]
    fn preflight_refuses_non_positive_amounts_and_the_xrp_code() {
        let issue = |code: &[u8; 3]| Issue {
            currency: crate::protocol::types::Currency::iso(*code),
            issuer: AccountId([7; 20]),
        };
        let iou = |v: i64, code: &[u8; 3]| Token::Iou {
            value: IouValue::from_i64(v),
            issue: issue(code),
        };
        assert_eq!(preflight_amount(&iou(5, b"USD")), Ter::tesSUCCESS);
        assert_eq!(preflight_amount(&iou(0, b"USD")), Ter::temBAD_AMOUNT);
        assert_eq!(preflight_amount(&iou(-5, b"USD")), Ter::temBAD_AMOUNT);
        assert_eq!(preflight_amount(&iou(5, b"XRP")), Ter::temBAD_CURRENCY);
        let id = MptId::new(1, &AccountId([7; 20]));
        let m = |value, negative| {
            Token::Mpt(MptAmount {
                value,
                negative,
                id,
            })
        };
        assert_eq!(preflight_amount(&m(1, false)), Ter::tesSUCCESS);
        assert_eq!(preflight_amount(&m(0, false)), Ter::temBAD_AMOUNT);
        assert_eq!(preflight_amount(&m(1, true)), Ter::temBAD_AMOUNT);
        assert_eq!(
            preflight_amount(&m(MPT_AMOUNT_MAX + 1, false)),
            Ter::temBAD_AMOUNT
        );
    }

    #[test]
    fn issued_values_add_without_losing_precision_unless_far_apart() {
        let v = |m: u128, e: i32| IouValue::from_parts(m, e, false, Rounding::Nearest).unwrap();
        assert!(can_add(&v(5000, 0), &v(1000, 0)));
        assert!(!can_add(&v(1, 20), &v(1, -10)));
        // EscrowToken_test's tecPRECISION_LOSS: 1 against a balance of 10^16, lost to
        // 16 digits; "with a larger mantissa the amounts remain addable" (its
        // `largeMantissa ? tesSUCCESS : tecPRECISION_LOSS`).
        {
            let _s = ScaleGuard::new(MantissaScale::Small);
            assert!(!can_add(&v(1, 16), &v(1, 0)));
            assert!(can_add(&v(1, 15), &v(1, 0)));
        }
        let _s = ScaleGuard::new(MantissaScale::LargeLegacy);
        assert!(can_add(&v(1, 16), &v(1, 0)));
        assert!(!can_add(&v(1, 20), &v(1, 0)));
    }
}
