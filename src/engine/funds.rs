//! What an account can spend (rippled `View.cpp`: `xrpLiquid`, `accountHolds`,
//! `accountFunds`, `isFrozen`, `transferRate`, `requireAuth`, `accountSend`), as the
//! offer and payment rules read it.

use super::entry::{credit_drops, is_pseudo_root};
use super::ripple::{balance_for, ripple_credit, trust_create, NewLine, QUALITY_ONE};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::deferred::adjusted;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Currency, Issue};

/// The zero amount of `issue`.
pub fn zero_of(issue: &Issue) -> Amount {
    Amount::zero(issue)
}

/// XRP above the reserve (rippled `xrpLiquid`), with the owner count moved by `adj`;
/// during a payment, XRP received in it is not counted and the reserve is the highest
/// the payment reached (the view's deferred credits).
pub fn xrp_liquid(view: &dyn ReadView, account: &AccountId, adj: i32) -> i64 {
    let Some(root) = view.read(&keylet::account(account)) else {
        return 0;
    };
    let count = view.owner_count_hook(account, root.u32_of(sf().owner_count).unwrap_or(0));
    // Pseudo-accounts (an AMM's, a vault's, a loan broker's) have no reserve.
    let reserve = if is_pseudo_root(&root) {
        0
    } else {
        view.info()
            .fees
            .reserve_counting(&root, count, adj as i64, 0)
    };
    let full = Amount::Xrp(root.drops_of(sf().balance));
    let deferred = view.deferred(account, &AccountId::ZERO, &Currency::XRP);
    let balance = adjusted(&full, deferred).as_drops().unwrap_or(0);
    (balance - reserve).max(0)
}

/// Flags of `holder`'s line to `issuer` in `currency`; none for XRP, for an issuer's own
/// issue, or without a line.
fn holder_line_flags(
    view: &dyn ReadView,
    holder: &AccountId,
    issuer: &AccountId,
    currency: &Currency,
) -> Option<u32> {
    if currency.is_xrp() || holder == issuer {
        return None;
    }
    view.read(&keylet::line(holder, issuer, currency))
        .map(|l| l.flags())
}

/// True when the issuer froze `holder`'s line in `currency`, or froze everything
/// (rippled `isFrozen`).
pub fn frozen(
    view: &dyn ReadView,
    holder: &AccountId,
    issuer: &AccountId,
    currency: &Currency,
) -> bool {
    if currency.is_xrp() || holder == issuer {
        return false;
    }
    let bit = if issuer > holder {
        lsf::HIGH_FREEZE
    } else {
        lsf::LOW_FREEZE
    };
    is_global_frozen(view, issuer)
        || holder_line_flags(view, holder, issuer, currency).is_some_and(|f| f & bit != 0)
}

/// True when either side deep-froze `holder`'s line to `issuer` (rippled
/// `isDeepFrozen`): it may neither send nor receive.
pub fn deep_frozen(
    view: &dyn ReadView,
    holder: &AccountId,
    issuer: &AccountId,
    currency: &Currency,
) -> bool {
    holder_line_flags(view, holder, issuer, currency)
        .is_some_and(|f| f & (lsf::LOW_DEEP_FREEZE | lsf::HIGH_DEEP_FREEZE) != 0)
}

/// rippled's `isIndividualFrozen`: the issuer froze `account`'s line (a global freeze
/// does not count).
pub fn is_individual_frozen(view: &dyn ReadView, account: &AccountId, issue: &Issue) -> bool {
    if issue.is_xrp() || *account == issue.issuer {
        return false;
    }
    let bit = if issue.issuer > *account {
        lsf::HIGH_FREEZE
    } else {
        lsf::LOW_FREEZE
    };
    view.read(&keylet::line(account, &issue.issuer, &issue.currency))
        .is_some_and(|l| l.flags() & bit != 0)
}

/// [`frozen`] for an [`Issue`] (XRP is never frozen).
pub fn frozen_issue(view: &dyn ReadView, holder: &AccountId, issue: &Issue) -> bool {
    frozen(view, holder, &issue.issuer, &issue.currency)
}

/// True when `issuer` set GlobalFreeze.
pub fn is_global_frozen(view: &dyn ReadView, issuer: &AccountId) -> bool {
    *issuer != AccountId::ZERO
        && view
            .read(&keylet::account(issuer))
            .is_some_and(|r| r.is_flag(lsf::GLOBAL_FREEZE))
}

/// True when either asset of the AMM entry `amm` is frozen for `holder` (rippled
/// `isLPTokenFrozen`: the AMM's LP tokens are then frozen for it too).
pub fn lp_token_frozen(view: &dyn ReadView, holder: &AccountId, amm: &StObject) -> bool {
    let s = sf();
    [s.asset, s.asset2]
        .iter()
        .filter_map(|f| super::amm::issue_of(amm, *f))
        .any(|issue| frozen_issue(view, holder, &issue))
}

/// Under fixFrozenLPTokenTransfer, whether `account`'s balance of `issuer`'s IOUs counts
/// as frozen because `issuer` is an AMM whose asset is frozen for `account` (rippled
/// `accountHolds`' LP token check: a missing issuer or AMM counts as frozen too).
pub fn lp_tokens_frozen_for(view: &dyn ReadView, account: &AccountId, issuer: &AccountId) -> bool {
    if !view.info().rules.enabled(Feature::FixFrozenLPTokenTransfer) {
        return false;
    }
    let Some(root) = view.read(&keylet::account(issuer)) else {
        return true;
    };
    match root.h256_of(sf().amm_id) {
        None => false,
        Some(amm_id) => {
            super::amm::amm_at(view, &amm_id).is_none_or(|amm| lp_token_frozen(view, account, &amm))
        }
    }
}

/// What `account` holds of `issue` (rippled `accountHolds`; `zero_if_frozen` is
/// fhZERO_IF_FROZEN, which under fixFrozenLPTokenTransfer also zeroes an AMM's LP tokens
/// when one of its assets is frozen for `account`): XRP above the reserve, or the trust
/// line balance on its side.
pub fn account_holds(
    view: &dyn ReadView,
    account: &AccountId,
    issue: &Issue,
    zero_if_frozen: bool,
) -> Amount {
    if issue.is_xrp() {
        return Amount::Xrp(xrp_liquid(view, account, 0));
    }
    let zero = zero_of(issue);
    if zero_if_frozen
        && (frozen(view, account, &issue.issuer, &issue.currency)
            || deep_frozen(view, account, &issue.issuer, &issue.currency))
    {
        return zero;
    }
    match view.read(&keylet::line(account, &issue.issuer, &issue.currency)) {
        Some(_) if zero_if_frozen && lp_tokens_frozen_for(view, account, &issue.issuer) => zero,
        Some(line) => {
            let held = Amount::iou(
                balance_for(&line, account, &issue.issuer),
                issue.currency,
                issue.issuer,
            );
            adjusted(
                &held,
                view.deferred(account, &issue.issuer, &issue.currency),
            )
        }
        None => zero,
    }
}

/// What `account` can deliver of `like`'s issue: unlimited (`like` itself) for its own
/// issue, else what it holds (rippled `accountFunds`).
pub fn account_funds(
    view: &dyn ReadView,
    account: &AccountId,
    like: &Amount,
    zero_if_frozen: bool,
) -> Amount {
    let issue = like.issue();
    if !issue.is_xrp() && issue.issuer == *account {
        return *like;
    }
    account_holds(view, account, &issue, zero_if_frozen)
}

/// `issuer`'s TransferRate (QUALITY_ONE when unset; none for XRP).
pub fn transfer_rate(view: &dyn ReadView, issuer: &AccountId) -> u32 {
    if *issuer == AccountId::ZERO {
        return QUALITY_ONE;
    }
    view.read(&keylet::account(issuer))
        .and_then(|r| r.u32_of(sf().transfer_rate))
        .filter(|r| *r != 0)
        .unwrap_or(QUALITY_ONE)
}

/// rippled `requireAuth`: may `account` hold `issue`? With fixCleanup3_4_0 a
/// pseudo-account (an AMM's, a vault's, a loan broker's) is implicitly authorized on the
/// line it has: it signs nothing and holds only for the entry that owns it.
pub fn require_auth(view: &dyn ReadView, issue: &Issue, account: &AccountId) -> Ter {
    if issue.is_xrp() || issue.issuer == *account {
        return Ter::tesSUCCESS;
    }
    let Some(issuer) = view.read(&keylet::account(&issue.issuer)) else {
        return Ter::tesSUCCESS;
    };
    if !issuer.is_flag(lsf::REQUIRE_AUTH) {
        return Ter::tesSUCCESS;
    }
    let bit = if *account > issue.issuer {
        lsf::LOW_AUTH
    } else {
        lsf::HIGH_AUTH
    };
    match view.read(&keylet::line(account, &issue.issuer, &issue.currency)) {
        Some(l) if l.flags() & bit != 0 => Ter::tesSUCCESS,
        Some(_) if implicitly_authorized(view, account) => Ter::tesSUCCESS,
        Some(_) => Ter::tecNO_AUTH,
        None => Ter::tecNO_LINE,
    }
}

/// fixCleanup3_4_0's implicit authorization of a pseudo-account in `requireAuth`.
fn implicitly_authorized(view: &dyn ReadView, account: &AccountId) -> bool {
    view.info().rules.enabled(Feature::FixCleanup3_4_0)
        && view
            .read(&keylet::account(account))
            .is_some_and(|r| is_pseudo_root(&r))
}

/// Moves `amount` from `from` to `to` (rippled `accountSend` with the transfer fee
/// waived, as the payment steps and the AMM use it): XRP between roots, where the zero
/// account stands for the other side of a strand; an issued currency directly when one
/// side issues it, else through the issuer. A missing trust line is created for the
/// receiver, as rippled's `rippleCredit` does.
pub fn account_send(
    sb: &mut Sandbox,
    from: &AccountId,
    to: &AccountId,
    amount: &Amount,
) -> Result<(), Ter> {
    match amount {
        Amount::Xrp(d) => send_xrp(sb, from, to, *d).into_result(),
        Amount::Iou {
            value, currency, ..
        } => {
            if from == to || value.is_zero() {
                return Ok(());
            }
            let issuer = amount.issue().issuer;
            if *from == issuer || *to == issuer {
                return credit_line(sb, from, to, currency, value);
            }
            credit_line(sb, &issuer, to, currency, value)?;
            credit_line(sb, from, &issuer, currency, value)
        }
    }
}

/// XRP from `from` to `to` (rippled `accountSend`'s XRP branch): either may be the zero
/// account, standing for the other side of a strand; the sender must hold the amount.
/// Each side is recorded for deferred credits.
fn send_xrp(sb: &mut Sandbox, from: &AccountId, to: &AccountId, drops: i64) -> Ter {
    let zero = AccountId::ZERO;
    if *from != zero {
        let Some(before) = sb
            .peek(&keylet::account(from))
            .map(|r| r.drops_of(sf().balance))
        else {
            return Ter::tecFAILED_PROCESSING;
        };
        if before < drops {
            return Ter::tecFAILED_PROCESSING;
        }
        sb.record_credit(
            from,
            &zero,
            &Currency::XRP,
            &Amount::Xrp(drops),
            &Amount::Xrp(before),
        );
        credit_drops(sb, from, -drops);
    }
    if *to != zero {
        let Some(before) = sb
            .peek(&keylet::account(to))
            .map(|r| r.drops_of(sf().balance))
        else {
            return Ter::tecFAILED_PROCESSING;
        };
        credit_drops(sb, to, drops);
        sb.record_credit(
            &zero,
            to,
            &Currency::XRP,
            &Amount::Xrp(drops),
            &Amount::Xrp(-before),
        );
    }
    Ter::tesSUCCESS
}

/// rippled `rippleCreditIOU`: credits along the line, creating it (for the receiver,
/// limit zero) when there is none; the transfer is recorded for deferred credits.
pub fn credit_line(
    sb: &mut Sandbox,
    from: &AccountId,
    to: &AccountId,
    currency: &Currency,
    value: &IouValue,
) -> Result<(), Ter> {
    let pre = sb
        .peek(&keylet::line(from, to, currency))
        .map_or(IouValue::ZERO, |l| balance_for(&l, from, to));
    sb.record_credit(
        from,
        to,
        currency,
        &Amount::iou(*value, *currency, *to),
        &Amount::iou(pre, *currency, *to),
    );
    if !sb.exists(&keylet::line(from, to, currency)) {
        let receiver_ripples = sb
            .peek(&keylet::account(to))
            .is_some_and(|r| r.is_flag(lsf::DEFAULT_RIPPLE));
        trust_create(
            sb,
            &NewLine {
                setter: *to,
                peer: *from,
                currency: *currency,
                limit: IouValue::ZERO,
                auth: false,
                no_ripple: !receiver_ripples,
                freeze: false,
                deep_freeze: false,
                quality_in: 0,
                quality_out: 0,
            },
        )
        .into_result()?;
    }
    ripple_credit(sb, from, to, currency, value).into_result()
}
