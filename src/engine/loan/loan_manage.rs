//! LoanManage (rippled `LoanManage.cpp`): the broker's owner impairs a loan (the vault
//! books what it is owed as an unrealized loss and the next payment falls due now),
//! unimpairs it, or, once its grace period is over, defaults it: the first-loss cover
//! pays the vault what it covers, the vault writes off the rest, and the loan ends.
//! From fixCleanup3_4_0 the cover moves whatever the asset's freeze.

use super::loan_math::{
    adjust_imprecise, is_integral, round_to_asset, round_to_precision, tenth_bips_of,
};
use super::{
    due_passed, is_payment_late, put_number, put_u32, vault_exposure, Loan, LSF_LOAN_DEFAULT,
    LSF_LOAN_IMPAIRED,
};
use super::{set_flag, unimpair};
use crate::engine::funds;
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::engine::vault::{number_of, send_asset, set_number, to_asset, VaultAsset};
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// `tfLoanDefault`.
pub const TF_LOAN_DEFAULT: u32 = 0x0001_0000;
/// `tfLoanImpair`.
pub const TF_LOAN_IMPAIR: u32 = 0x0002_0000;
/// `tfLoanUnimpair`.
pub const TF_LOAN_UNIMPAIR: u32 = 0x0004_0000;
const ACTIONS: u32 = TF_LOAN_DEFAULT | TF_LOAN_IMPAIR | TF_LOAN_UNIMPAIR;

/// preflight: a LoanID, and at most one action.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    match super::preflight_loan(tx, ACTIONS) {
        Ter::tesSUCCESS if !super::at_most_one(tx, ACTIONS) => Ter::temINVALID_FLAG,
        t => t,
    }
}

/// preclaim: the allowed transitions (a defaulted loan never changes; impaired only
/// once; unimpaired only when impaired; nothing once paid), a default only after the
/// grace period (`tecTOO_SOON`; at its last second before fixCleanup3_4_0, strictly
/// after it from the fix), and only by the broker's owner.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let loan = Loan::for_preclaim(view, tx)?;
    let e = &loan.entry;
    let flags = tx.flags();
    let impaired = e.is_flag(LSF_LOAN_IMPAIRED);
    if e.is_flag(LSF_LOAN_DEFAULT)
        || (impaired && flags & TF_LOAN_IMPAIR != 0)
        || (!impaired && flags & TF_LOAN_UNIMPAIR != 0)
        || e.u32_of(s.payment_remaining).unwrap_or(0) == 0
    {
        return Err(Ter::tecNO_PERMISSION);
    }
    let due = e.u32_of(s.next_payment_due_date).unwrap_or(0);
    let grace = e.u32_of(s.grace_period).unwrap_or(0);
    if flags & TF_LOAN_DEFAULT != 0 && !due_passed(view, due.saturating_add(grace)) {
        return Err(Ter::tecTOO_SOON);
    }
    if loan.broker.owner != *account {
        return Err(Ter::tecNO_PERMISSION);
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let mut loan = match Loan::named(&ctx.sb, ctx.tx) {
        Ok(l) => l,
        Err(_) => return Ter::tefBAD_LEDGER,
    };
    let flags = ctx.tx.flags();
    let t = if flags & TF_LOAN_DEFAULT != 0 {
        Ter::from(default_loan(ctx, &mut loan))
    } else if flags & TF_LOAN_IMPAIR != 0 {
        impair(ctx, &mut loan)
    } else if flags & TF_LOAN_UNIMPAIR != 0 {
        unimpair(ctx, &mut loan)
    } else {
        Ter::tesSUCCESS
    };
    if t == Ter::tesSUCCESS {
        // fixCleanup3_1_3: the entries an action changed have their balances rounded to
        // the asset (rippled's `associateAsset` on every successful path; before the fix
        // on none that writes). A no-op writes nothing, so rounds nothing.
        if flags & ACTIONS != 0 && ctx.sb.info().rules.enabled(Feature::FixCleanup3_1_3) {
            associate_asset(&mut loan, flags & TF_LOAN_DEFAULT != 0);
            if flags & TF_LOAN_DEFAULT != 0 {
                ctx.sb.update(loan.broker.key, loan.broker.entry.clone());
            }
        }
        ctx.sb.update(loan.vault_key, loan.vault.clone());
        ctx.sb.update(loan.key, loan.entry.clone());
    }
    t
}

/// rippled's `associateAsset` on the loan, its vault and (when `broker`, as a default
/// writes it) its broker: each asset-valued STNumber present is rounded to the precision
/// of the vault's asset; one rounded to zero leaves the entry. PeriodicPayment is kept
/// exact, as rippled keeps it.
fn associate_asset(loan: &mut Loan, broker: bool) {
    let s = sf();
    let asset = loan.asset();
    let round = |o: &mut StObject, fields: &[crate::protocol::definitions::Field]| {
        for &f in fields {
            if o.get(f).is_none() {
                continue;
            }
            let v = number_of(o, f);
            let r = round_to_precision(&asset, v);
            if r != v {
                put_number(o, f, r);
            }
        }
    };
    round(
        &mut loan.vault,
        &[
            s.assets_total,
            s.assets_available,
            s.loss_unrealized,
            s.assets_maximum,
        ],
    );
    round(
        &mut loan.entry,
        &[
            s.principal_outstanding,
            s.total_value_outstanding,
            s.management_fee_outstanding,
            s.loan_origination_fee,
            s.loan_service_fee,
            s.late_payment_fee,
            s.close_payment_fee,
        ],
    );
    if broker {
        round(
            &mut loan.broker.entry,
            &[s.debt_total, s.debt_maximum, s.cover_available],
        );
    }
}

/// `impairLoan`: the vault's LossUnrealized grows by the loan's exposure
/// ([`vault_exposure`]; never past what the vault has lent: `tecLIMIT_EXCEEDED`).
/// From fixCleanup3_4_0 only an overdue loan can be impaired (`tecTOO_SOON`) and its
/// NextPaymentDueDate stays; before the fix a payment not yet late falls due now.
pub fn impair(ctx: &mut ApplyContext, loan: &mut Loan) -> Ter {
    let s = sf();
    let fix340 = ctx.sb.info().rules.enabled(Feature::FixCleanup3_4_0);
    if fix340 && !is_payment_late(&ctx.sb, &loan.entry) {
        return Ter::tecTOO_SOON;
    }
    let exposure = vault_exposure(&loan.vault, &loan.entry);
    let loss = number_of(&loan.vault, s.loss_unrealized) + exposure;
    let lent = number_of(&loan.vault, s.assets_total) - number_of(&loan.vault, s.assets_available);
    if loss > lent {
        return Ter::tecLIMIT_EXCEEDED;
    }
    set_number(&mut loan.vault, s.loss_unrealized, loss);
    set_flag(&mut loan.entry, LSF_LOAN_IMPAIRED, true);
    if !fix340 && !is_payment_late(&ctx.sb, &loan.entry) {
        let now = ctx.sb.info().parent_close_time;
        loan.entry
            .set(s.next_payment_due_date, StValue::UInt32(now));
    }
    Ter::tesSUCCESS
}

/// `defaultLoan`: the cover liquidated for the vault (its CoverRateLiquidation of the
/// minimum cover, at most the loan's exposure), the vault's loss realized, the broker's
/// debt written down by the exposure and the loan zeroed. The exposure is
/// [`vault_exposure`]: the principal outstanding on a cash-basis vault.
fn default_loan(ctx: &mut ApplyContext, loan: &mut Loan) -> Result<(), Ter> {
    let s = sf();
    let asset = loan.asset();
    let scale = super::terms_of(&loan.entry, 0).scale;
    let owed = vault_exposure(&loan.vault, &loan.entry);
    let debt = number_of(&loan.broker.entry, s.debt_total);
    let covered = {
        let _g = RoundGuard::new(RoundingMode::Upward);
        let b = &loan.broker.entry;
        let minimum = tenth_bips_of(debt, b.u32_of(s.cover_rate_minimum).unwrap_or(0));
        let liquidated = tenth_bips_of(minimum, b.u32_of(s.cover_rate_liquidation).unwrap_or(0));
        round_to_asset(&asset, liquidated.min(owed), scale, RoundingMode::Upward)
    };
    // The vault's scale before the write-off changes its total, as rippled reads it.
    let vault_scale = loan.vault_scale();
    write_off(loan, owed, covered).into_result()?;
    let debt = adjust_imprecise(&asset, debt, -owed, vault_scale);
    put_number(&mut loan.broker.entry, s.debt_total, debt);
    let cover = loan.broker.cover();
    if cover < covered {
        return Err(Ter::tefBAD_LEDGER);
    }
    set_number(&mut loan.broker.entry, s.cover_available, cover - covered);
    ctx.sb.update(loan.broker.key, loan.broker.entry.clone());
    set_flag(&mut loan.entry, LSF_LOAN_DEFAULT, true);
    let zeroed = super::repayment::LoanBook {
        total: Number::ZERO,
        principal: Number::ZERO,
        fee: Number::ZERO,
        remaining: 0,
        next: 0,
        ..loan.book()
    };
    super::write_book(&mut loan.entry, &zeroed);
    put_u32(&mut loan.entry, s.next_payment_due_date, 0);
    if covered.is_zero() {
        return Ok(());
    }
    let (Some(amount), Some(vault_pseudo)) =
        (to_asset(&asset, covered), loan.vault.account_of(s.account))
    else {
        return Err(Ter::tecINTERNAL);
    };
    if cover_moves_frozen_funds(&ctx.sb, &loan.broker.pseudo, &vault_pseudo, &asset) {
        return Err(Ter::tecINVARIANT_FAILED);
    }
    send_asset(&mut ctx.sb, &loan.broker.pseudo, &vault_pseudo, &amount).into_result()
}

/// rippled's `TransfersNotFrozen` invariant (with DeepFreeze) on the cover a default
/// pays: the issued currency goes from the broker's pseudo-account through the issuer to
/// the vault's, and it fails the transaction (`tecINVARIANT_FAILED`) when the issuer
/// froze everything, froze or deep-froze the broker's line, or deep-froze the vault's.
/// fixCleanup3_4_0 exempts those two lines for the vault's currency (XLS-66: a late loan
/// can always be defaulted). ledgerd has no general `TransfersNotFrozen`; this is the
/// one place it changes an answer by the rules. An MPT cover is judged by
/// `ValidMPTTransfer`, which needs MPTokensV2 or the fix itself (not built).
fn cover_moves_frozen_funds(
    view: &dyn ReadView,
    broker: &AccountId,
    vault: &AccountId,
    asset: &VaultAsset,
) -> bool {
    let rules = view.info().rules;
    let VaultAsset::Token(issue) = asset else {
        return false;
    };
    if issue.is_xrp()
        || rules.enabled(Feature::FixCleanup3_4_0)
        || !rules.enabled(Feature::DeepFreeze)
    {
        return false;
    }
    funds::is_global_frozen(view, &issue.issuer)
        || funds::is_individual_frozen(view, broker, issue)
        || funds::deep_frozen(view, broker, &issue.issuer, &issue.currency)
        || funds::deep_frozen(view, vault, &issue.issuer, &issue.currency)
}

/// The vault's side of a default: AssetsTotal loses what the cover does not pay,
/// AssetsAvailable gains the cover, and an impaired loan's unrealized loss is realized.
fn write_off(loan: &mut Loan, owed: Number, covered: Number) -> Ter {
    let s = sf();
    let asset = loan.asset();
    let vault_scale = loan.vault_scale();
    let v = &mut loan.vault;
    let mut total = number_of(v, s.assets_total);
    let loss = owed - covered;
    if total < loss {
        return Ter::tefBAD_LEDGER;
    }
    total = total - round_to_asset(&asset, loss, vault_scale, RoundingMode::Downward);
    let available = number_of(v, s.assets_available) + covered;
    if available > total && !is_integral(&asset) {
        let difference = available - total;
        if available.exponent().saturating_sub(difference.exponent()) > 13 {
            total = available;
        }
    }
    if available > total {
        return Ter::tecLIMIT_EXCEEDED;
    }
    if loan.entry.is_flag(LSF_LOAN_IMPAIRED) {
        let unrealized = number_of(v, s.loss_unrealized);
        if unrealized < owed {
            return Ter::tefBAD_LEDGER;
        }
        set_number(v, s.loss_unrealized, unrealized - owed);
    }
    set_number(v, s.assets_total, total);
    set_number(v, s.assets_available, available);
    Ter::tesSUCCESS
}
