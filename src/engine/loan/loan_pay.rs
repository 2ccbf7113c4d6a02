//! LoanPay (rippled `LoanPay.cpp`): the borrower pays a loan (`repayment::make_payment_ruled`
//! decides how much of the amount goes where). Principal and interest go to the vault's
//! pseudo-account, fees to the broker's owner, or into the first-loss cover when the
//! cover is short of its minimum; an impaired loan is unimpaired first.

use super::broker::deep_frozen;
use super::loan_math::{adjust_imprecise, round_to_asset, tenth_bips_of};
use super::repayment::{
    fee_increments, make_payment_ruled, PaymentKind, PaymentParts, PAYMENTS_PER_FEE_INCREMENT,
    PAYMENTS_PER_TRANSACTION_MAX,
};
use super::{due_passed, Loan, LSF_LOAN_IMPAIRED, LSF_LOAN_OVERPAYMENT};
use crate::engine::entry::balance_drops;
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::engine::vault::{
    add_holding_for, amount_field, asset_frozen, asset_held, asset_require_auth, number_of,
    send_asset, set_number, to_asset, VaultAsset,
};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// `tfLoanOverpayment`.
pub const TF_LOAN_OVERPAYMENT: u32 = 0x0001_0000;
/// `tfLoanFullPayment`.
pub const TF_LOAN_FULL_PAYMENT: u32 = 0x0002_0000;
/// `tfLoanLatePayment`.
pub const TF_LOAN_LATE_PAYMENT: u32 = 0x0004_0000;
const KINDS: u32 = TF_LOAN_OVERPAYMENT | TF_LOAN_FULL_PAYMENT | TF_LOAN_LATE_PAYMENT;

fn kind_of(tx: &StObject) -> PaymentKind {
    let f = tx.flags();
    if f & TF_LOAN_LATE_PAYMENT != 0 {
        PaymentKind::Late
    } else if f & TF_LOAN_FULL_PAYMENT != 0 {
        PaymentKind::Full
    } else if f & TF_LOAN_OVERPAYMENT != 0 {
        PaymentKind::Overpayment
    } else {
        PaymentKind::Regular
    }
}

/// preflight: a LoanID, a positive Amount, at most one payment kind.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    super::preflight_loan(tx, KINDS).into_result()?;
    if !super::broker::positive_amount(tx) {
        return Err(Ter::temBAD_AMOUNT);
    }
    if !super::at_most_one(tx, KINDS) {
        return Err(Ter::temINVALID_FLAG);
    }
    Ok(())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let loan = Loan::named(view, tx)?;
    let e = &loan.entry;
    if e.account_of(s.borrower) != Some(*account) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if tx.flags() & TF_LOAN_OVERPAYMENT != 0 && !e.is_flag(LSF_LOAN_OVERPAYMENT) {
        // fixCleanup3_1_3: a loan refusing overpayments is a permission, not a malformed
        // transaction.
        if view.info().rules.enabled(Feature::FixCleanup3_1_3) {
            return Err(Ter::tecNO_PERMISSION);
        }
        return Err(Ter::temINVALID_FLAG);
    }
    if e.u32_of(s.payment_remaining).unwrap_or(0) == 0
        || number_of(e, s.principal_outstanding).is_zero()
    {
        return Err(Ter::tecKILLED);
    }
    let asset = loan.asset();
    let Some(amount) = amount_field(tx).filter(|a| a.asset() == asset) else {
        return Err(Ter::tecWRONG_ASSET);
    };
    let Some(vault_pseudo) = loan.vault.account_of(s.account) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    for t in [
        asset_frozen(view, account, &asset),
        deep_frozen(view, &vault_pseudo, &asset),
        asset_require_auth(view, &asset, account, false),
    ] {
        t.into_result()?;
    }
    // The asset's issuer pays in its own issue without holding any (rippled's
    // accountSpendable gives an issuer its whole issue).
    if asset.issuer() != Some(*account) && asset_held(view, account, &asset) < amount.number() {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    Ok(())
}

/// Whether the broker's fee goes to its owner: its cover meets the minimum its debt
/// requires (rounded up) and the owner is not deep frozen; otherwise into the cover.
fn fee_to_owner(view: &dyn ReadView, loan: &Loan) -> bool {
    let s = sf();
    let b = &loan.broker;
    let enough = if view.info().rules.enabled(Feature::FixCleanup3_2_0) {
        b.cover() >= b.minimum_broker_cover()
    } else {
        let _g = RoundGuard::new(RoundingMode::Upward);
        let rate = b.entry.u32_of(s.cover_rate_minimum).unwrap_or(0);
        let minimum = tenth_bips_of(number_of(&b.entry, s.debt_total), rate);
        let scale = loan.terms().scale;
        b.cover() >= round_to_asset(&b.asset, minimum, scale, RoundingMode::Upward)
    };
    enough && deep_frozen(view, &b.owner, &b.asset) == Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let mut loan = match Loan::named(&ctx.sb, ctx.tx) {
        Ok(l) => l,
        Err(_) => return Err(Ter::tefBAD_LEDGER),
    };
    let Some(amount) = amount_field(ctx.tx) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let to_owner = fee_to_owner(&ctx.sb, &loan);
    let payee = if to_owner {
        loan.broker.owner
    } else {
        loan.broker.pseudo
    };
    if !to_owner {
        deep_frozen(&ctx.sb, &payee, &loan.asset()).into_result()?;
    }
    if loan.entry.is_flag(LSF_LOAN_IMPAIRED) {
        // rippled ignores unimpairLoan's result here: a loan it cannot unimpair stays
        // impaired and is still paid.
        let _ = super::unimpair(ctx, &mut loan);
    }
    let mut book = loan.book();
    let now = ctx.sb.info().parent_close_time;
    let parts = make_payment_ruled(
        &loan.asset(),
        &mut book,
        &loan.terms(),
        amount.number(),
        kind_of(ctx.tx),
        now,
        ctx.sb.info().rules.enabled(Feature::FixCleanup3_4_0),
    )?;
    super::write_book(&mut loan.entry, &book);
    ctx.sb.update(loan.key, loan.entry.clone());
    let Some(vault_pseudo) = loan.vault.account_of(s.account) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let to_vault = settle(&mut loan, &parts, to_owner)?;
    ctx.sb.update(loan.vault_key, loan.vault.clone());
    ctx.sb.update(loan.broker.key, loan.broker.entry.clone());
    move_funds(
        ctx,
        &loan.asset(),
        (vault_pseudo, to_vault),
        (payee, parts.fee),
    )
}

/// The vault's and broker's books after a payment (`loanPaymentDeltas`): the vault's
/// available assets rise by what it received (rounded down to the vault's scale). On an
/// accrual vault the broker's debt falls by that less the loan's value change and the
/// vault's total moves by the value change; on a cash-basis vault (LendingProtocolV1_1)
/// the debt falls by the principal repaid and the total rises by the interest paid. A
/// fee the owner cannot take joins the cover. Returns what goes to the vault.
fn settle(loan: &mut Loan, parts: &PaymentParts, to_owner: bool) -> Result<Number, Ter> {
    let s = sf();
    let asset = loan.asset();
    let vault_scale = loan.vault_scale();
    let raw = parts.principal + parts.interest;
    let rounded = round_to_asset(&asset, raw, vault_scale, RoundingMode::Downward);
    let (assets_delta, debt_delta) = if crate::engine::vault::phase::is_cash_basis(&loan.vault) {
        (parts.interest, parts.principal)
    } else {
        (parts.value_change, raw - parts.value_change)
    };
    let debt = number_of(&loan.broker.entry, s.debt_total);
    let debt = adjust_imprecise(&asset, debt, -debt_delta, vault_scale);
    super::put_number(&mut loan.broker.entry, s.debt_total, debt);
    let available = number_of(&loan.vault, s.assets_available) + rounded;
    let total = number_of(&loan.vault, s.assets_total) + assets_delta;
    if available > total {
        return Err(Ter::tecINTERNAL);
    }
    set_number(&mut loan.vault, s.assets_available, available);
    set_number(&mut loan.vault, s.assets_total, total);
    if !to_owner {
        let cover = loan.broker.cover() + parts.fee;
        set_number(&mut loan.broker.entry, s.cover_available, cover);
    }
    Ok(rounded)
}

/// `accountSendMulti` from the borrower: the vault's part and the broker's fee, each
/// holder authorized (the broker's owner may need its holding again).
fn move_funds(
    ctx: &mut ApplyContext,
    asset: &VaultAsset,
    (vault, to_vault): (AccountId, Number),
    (payee, fee): (AccountId, Number),
) -> Result<(), Ter> {
    for (to, value) in [(vault, to_vault), (payee, fee)] {
        if value.is_zero() {
            continue;
        }
        if to == payee && payee == ctx.account {
            let prior = ctx
                .sb
                .peek(&keylet::account(&to))
                .map_or(0, |r| balance_drops(&r));
            let t = add_holding_for(&mut ctx.sb, &to, asset, prior);
            if t != Ter::tesSUCCESS && t != Ter::tecDUPLICATE {
                return Err(t);
            }
        }
        asset_require_auth(&ctx.sb, asset, &to, true).into_result()?;
        if to == ctx.account {
            continue;
        }
        let Some(amount) = to_asset(asset, value) else {
            return Err(Ter::tecINTERNAL);
        };
        let from = ctx.account;
        send_asset(&mut ctx.sb, &from, &to, &amount).into_result()?;
    }
    Ok(())
}

/// `LoanPay::calculateBaseFee`'s multiple of the base fee: one per five payments the
/// amount would make on a loan with more than five left, at least one; a full or late
/// payment, a late loan (`isPaymentLate`: at the due instant before fixCleanup3_4_0,
/// after it from the fix), or anything unreadable is one.
pub fn fee_multiple(view: &dyn ReadView, tx: &StObject) -> u64 {
    let f = tx.flags();
    if f & (TF_LOAN_FULL_PAYMENT | TF_LOAN_LATE_PAYMENT) != 0 {
        return 1;
    }
    let Ok(loan) = Loan::named(view, tx) else {
        return 1;
    };
    let book = loan.book();
    if i64::from(book.remaining) <= PAYMENTS_PER_FEE_INCREMENT || due_passed(view, book.next) {
        return 1;
    }
    let Some(amount) = amount_field(tx).filter(|a| a.asset() == loan.asset()) else {
        return 1;
    };
    let over = f & TF_LOAN_OVERPAYMENT != 0;
    let mut n = fee_increments(&loan.asset(), &book, &loan.terms(), amount.number(), over);
    // fixCleanup3_1_3: no more increments than the payments one LoanPay ever makes.
    if view.info().rules.enabled(Feature::FixCleanup3_1_3) {
        n = n.min(PAYMENTS_PER_TRANSACTION_MAX as i64 / PAYMENTS_PER_FEE_INCREMENT);
    }
    u64::try_from(n).unwrap_or(1)
}
