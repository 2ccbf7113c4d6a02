//! LoanDelete (rippled `LoanDelete.cpp`): once a loan is paid off or defaulted, its
//! borrower or its broker's owner deletes it; the broker's last loan forgives what dust
//! of debt rounding left.

use super::{put_number, put_u32, Loan};
use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::number::Number;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight: a LoanID.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    super::preflight_loan(tx, 0)
}

/// preclaim: no payments left (`tecHAS_OBLIGATIONS`), and the borrower or the broker's
/// owner asks (`tecNO_PERMISSION`).
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let loan = Loan::for_preclaim(view, tx)?;
    if loan.entry.u32_of(s.payment_remaining).unwrap_or(0) > 0 {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    if loan.broker.owner != *account && loan.entry.account_of(s.borrower) != Some(*account) {
        return Err(Ter::tecNO_PERMISSION);
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let mut loan = match Loan::named(&ctx.sb, ctx.tx) {
        Ok(l) => l,
        Err(_) => return Ter::tefBAD_LEDGER,
    };
    let Some(borrower) = loan.entry.account_of(s.borrower) else {
        return Ter::tefBAD_LEDGER;
    };
    let pseudo_page = loan.entry.u64_of(s.loan_broker_node).unwrap_or(0);
    let owner_page = loan.entry.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(
        &mut ctx.sb,
        &loan.broker.pseudo,
        pseudo_page,
        &loan.key,
        false,
    ) || !remove_owned(&mut ctx.sb, &borrower, owner_page, &loan.key, false)
    {
        return Ter::tefBAD_LEDGER;
    }
    ctx.sb.erase(loan.key);
    let b = &mut loan.broker.entry;
    let loans = b.u32_of(s.owner_count).unwrap_or(0).saturating_sub(1);
    put_u32(b, s.owner_count, loans);
    if loans == 0 {
        put_number(b, s.debt_total, Number::ZERO);
    }
    ctx.sb.update(loan.broker.key, loan.broker.entry.clone());
    adjust_owner_count(&mut ctx.sb, &borrower, -1);
    Ter::tesSUCCESS
}
