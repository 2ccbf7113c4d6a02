//! LoanSet (rippled `LoanSet.cpp`): a loan broker's owner and a borrower agree on a loan;
//! one signs the transaction and the other co-signs it in `CounterpartySignature`. The
//! vault lends the principal (less any origination fee, which goes to the broker's
//! owner), the Loan entry records the amortization (`loan_math::loan_properties`), the
//! vault counts the interest it will earn (an accrual vault, at once; a cash-basis vault
//! of LendingProtocolV1_1, as it is paid) and the broker the debt. With
//! LendingProtocolV1_1 a closed-ended vault lends only in its Investment phase.

use super::broker::{broker_id, minimum_broker_cover, Broker};
use super::loan_math::{
    adjust_imprecise, check_loan_guards, construct_state, is_integral, is_rounded, loan_properties,
    tenth_bips_of, LoanProperties,
};
use super::{
    put_number, put_u32, DEFAULT_GRACE_PERIOD, DEFAULT_PAYMENT_INTERVAL, DEFAULT_PAYMENT_TOTAL,
    LSF_LOAN_OVERPAYMENT, MIN_PAYMENT_INTERVAL, RATE_MAX,
};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, balance_drops, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{
    counterparty_signature, ApplyContext, TF_INNER_BATCH_TXN, TF_UNIVERSAL_MASK,
};
use crate::engine::vault::{
    add_holding_for, asset_frozen, asset_require_auth, number_of, read_vault, send_asset,
    set_number, to_asset, VaultAsset, DATA_LEN_MAX,
};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// `tfLoanOverpayment`: the loan accepts overpayments.
pub const TF_LOAN_OVERPAYMENT: u32 = 0x0001_0000;

/// The amounts that must fit the vault's asset (`LoanSet::getValueFields`).
fn value_fields() -> [Field; 5] {
    let s = sf();
    [
        s.principal_requested,
        s.loan_origination_fee,
        s.loan_service_fee,
        s.late_payment_fee,
        s.close_payment_fee,
    ]
}

fn present_number(tx: &StObject, f: Field) -> Option<Number> {
    tx.get(f).map(|_| number_of(tx, f))
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK & !TF_LOAN_OVERPAYMENT != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    let inner = tx.flags() & TF_INNER_BATCH_TXN != 0;
    if inner && tx.get(s.counterparty).is_none() {
        return Err(Ter::temBAD_SIGNER);
    }
    let signature = counterparty_signature(tx);
    match signature {
        None if !inner => return Err(Ter::temBAD_SIGNER),
        Some(sig) if !signing_key_ok(sig) => return Err(Ter::temBAD_SIGNATURE),
        _ => {}
    }
    if tx.blob_of(s.data).is_some_and(|d| d.len() > DATA_LEN_MAX) {
        return Err(Ter::temINVALID);
    }
    preflight_terms(tx).into_result()?;
    if broker_id(tx).is_none() {
        return Err(Ter::temINVALID);
    }
    Ok(())
}

/// `preflightCheckSigningKey`: a non-empty SigningPubKey must be a key.
fn signing_key_ok(sig: &StObject) -> bool {
    sig.blob_of(sf().signing_pub_key)
        .is_none_or(|k| k.is_empty() || crate::engine::entry::key_kind(k).is_some())
}

/// The numeric bounds of the loan's terms (`temINVALID`).
fn preflight_terms(tx: &StObject) -> Ter {
    let s = sf();
    let negative = |f| present_number(tx, f).is_some_and(|v| v.signum() < 0);
    if negative(s.loan_service_fee) || negative(s.late_payment_fee) || negative(s.close_payment_fee)
    {
        return Ter::temINVALID;
    }
    let Some(principal) = present_number(tx, s.principal_requested) else {
        return Ter::temMALFORMED;
    };
    let origination = present_number(tx, s.loan_origination_fee);
    if principal.signum() <= 0 || origination.is_some_and(|f| f.signum() < 0 || f > principal) {
        return Ter::temINVALID;
    }
    let rates = [
        s.interest_rate,
        s.overpayment_fee,
        s.late_interest_rate,
        s.close_interest_rate,
        s.overpayment_interest_rate,
    ];
    if rates.iter().any(|f| tx.u32_of(*f).unwrap_or(0) > RATE_MAX)
        || tx.u32_of(s.payment_total) == Some(0)
    {
        return Ter::temINVALID;
    }
    let interval = tx.u32_of(s.payment_interval);
    if interval.is_some_and(|i| i < MIN_PAYMENT_INTERVAL)
        || tx.u32_of(s.grace_period).unwrap_or(0) > interval.unwrap_or(DEFAULT_PAYMENT_INTERVAL)
    {
        return Ter::temINVALID;
    }
    Ter::tesSUCCESS
}

/// The loan's schedule: (interval, payments, grace period).
fn schedule(tx: &StObject) -> (u32, u32, u32) {
    let s = sf();
    (
        tx.u32_of(s.payment_interval)
            .unwrap_or(DEFAULT_PAYMENT_INTERVAL),
        tx.u32_of(s.payment_total).unwrap_or(DEFAULT_PAYMENT_TOTAL),
        tx.u32_of(s.grace_period).unwrap_or(DEFAULT_GRACE_PERIOD),
    )
}

/// The loan's last grace period must end before the protocol's time runs out (rippled
/// checks this before reading any entry): `tecKILLED`.
fn schedule_fits(view: &dyn ReadView, tx: &StObject) -> Ter {
    let available = u32::MAX - view.info().parent_close_time;
    let (interval, total, grace) = schedule(tx);
    if grace > available || interval > available || total > available {
        return Ter::tecKILLED;
    }
    if (available - grace) / interval.max(1) < total {
        return Ter::tecKILLED;
    }
    Ter::tesSUCCESS
}

/// The broker's owner, the counterparty and the borrower: the counterparty defaults to
/// the owner, and the borrower is whichever of the two signers is not the owner.
fn parties(b: &Broker, tx: &StObject, account: &AccountId) -> (AccountId, AccountId) {
    let counterparty = tx.account_of(sf().counterparty).unwrap_or(b.owner);
    let borrower = if counterparty == b.owner {
        *account
    } else {
        counterparty
    };
    (counterparty, borrower)
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    schedule_fits(view, tx).into_result()?;
    let b = match Broker::named(view, tx) {
        Ok(b) => b,
        Err(Ter::tecNO_ENTRY) => return Err(Ter::tecNO_ENTRY),
        Err(_) => return Err(Ter::tefBAD_LEDGER),
    };
    let (counterparty, borrower) = parties(&b, tx, account);
    if *account != b.owner && counterparty != b.owner {
        return Err(Ter::tecNO_PERMISSION);
    }
    if view.read(&keylet::account(&borrower)).is_none() {
        return Err(Ter::terNO_ACCOUNT);
    }
    let Some(vault) = b
        .entry
        .h256_of(sf().vault_id)
        .and_then(|k| read_vault(view, &k))
    else {
        return Err(Ter::tefBAD_LEDGER);
    };
    vault_open_for_loans(view, tx, &vault).into_result()?;
    for f in value_fields() {
        value_fits(&b.asset, present_number(tx, f)).into_result()?;
    }
    let Some(vault_pseudo) = vault.account_of(sf().account) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let deep = super::broker::deep_frozen;
    for t in [
        crate::engine::vault::can_add_holding(view, &b.asset),
        asset_frozen(view, &vault_pseudo, &b.asset),
        deep(view, &b.pseudo, &b.asset),
        asset_frozen(view, &borrower, &b.asset),
        deep(view, &b.owner, &b.asset),
    ] {
        t.into_result()?;
    }
    Ok(())
}

/// `STAmount{asset, *value} != *value` in preclaim: `tecPRECISION_LOSS` for a value the
/// asset cannot hold exactly (a fraction of a drop); one no STAmount of the asset holds
/// at all (drops past 10^17 or an i64, an issued exponent past 80) makes rippled's
/// STAmount throw out of preclaim: `tefEXCEPTION`.
fn value_fits(asset: &VaultAsset, v: Option<Number>) -> Ter {
    let Some(v) = v else {
        return Ter::tesSUCCESS;
    };
    match crate::engine::vault::vault_math::assets(asset, v) {
        Err(
            crate::engine::vault::vault_math::Unfit::Overflow
            | crate::engine::vault::vault_math::Unfit::Range,
        ) => Ter::tefEXCEPTION,
        _ if !fits_asset(asset, v) => Ter::tecPRECISION_LOSS,
        _ => Ter::tesSUCCESS,
    }
}

/// `STAmount{asset, value} == value`: whole units for XRP and MPTs.
fn fits_asset(asset: &VaultAsset, v: Number) -> bool {
    if !is_integral(asset) {
        return true;
    }
    let _g = RoundGuard::new(RoundingMode::ToNearest);
    v.to_i64().is_some_and(|u| Number::from_i64(u) == v)
}

/// The vault's side of preclaim. With LendingProtocolV1_1 a closed-ended vault lends
/// only in its Investment phase (`tecTOO_SOON` while subscribing, `tecEXPIRED` once
/// redeeming), and the loan's last payment must fall `LOAN_REDEMPTION_BUFFER` seconds
/// before the RedemptionDate (`tecNO_PERMISSION`). An accrual vault at its AssetsMaximum
/// takes no more loans (`tecLIMIT_EXCEEDED`); a cash-basis one books no interest at
/// origination, so that gate is not its.
fn vault_open_for_loans(view: &dyn ReadView, tx: &StObject, vault: &StObject) -> Ter {
    use crate::engine::vault::phase::{self, VaultPhase};
    let s = sf();
    if view.info().rules.enabled(Feature::LendingProtocolV1_1) {
        match phase::phase(view, vault) {
            VaultPhase::Subscription => return Ter::tecTOO_SOON,
            VaultPhase::Redemption => return Ter::tecEXPIRED,
            VaultPhase::Investment => {
                let (interval, total, _) = schedule(tx);
                // The loan's StartDate: ledgerd's views carry the parent close time.
                let start = u64::from(view.info().parent_close_time);
                let last = start + u64::from(interval) * u64::from(total);
                let redemption = u64::from(vault.u32_of(s.redemption_date).unwrap_or(0));
                if last + phase::LOAN_REDEMPTION_BUFFER > redemption {
                    return Ter::tecNO_PERMISSION;
                }
            }
            VaultPhase::NoPhase => {}
        }
    }
    let maximum = number_of(vault, s.assets_maximum);
    if !phase::is_cash_basis(vault)
        && !maximum.is_zero()
        && number_of(vault, s.assets_total) >= maximum
    {
        return Ter::tecLIMIT_EXCEEDED;
    }
    Ter::tesSUCCESS
}

/// What doApply computes before it moves anything.
struct Plan {
    broker: Broker,
    vault_key: crate::protocol::types::Hash256,
    vault: StObject,
    borrower: AccountId,
    principal: Number,
    props: LoanProperties,
    interest_due: Number,
    origination: Number,
}

impl Plan {
    /// `loanOriginationDeltas`: what the loan adds to the vault's AssetsTotal and the
    /// broker's DebtTotal. An accrual vault books the interest due at once (interest;
    /// principal and interest); a cash-basis vault books none until it is paid (nothing;
    /// the principal).
    fn origination_deltas(&self) -> (Number, Number) {
        if crate::engine::vault::phase::is_cash_basis(&self.vault) {
            (Number::ZERO, self.principal)
        } else {
            (self.interest_due, self.principal + self.interest_due)
        }
    }
}

/// The loan's properties and the limits they must respect (vault funds, precision,
/// the broker's DebtMaximum and its first-loss cover).
fn plan(ctx: &ApplyContext) -> Result<Plan, Ter> {
    let s = sf();
    let tx = ctx.tx;
    let broker = Broker::named(&ctx.sb, tx).map_err(|_| Ter::tefBAD_LEDGER)?;
    let vault_key = broker.entry.h256_of(s.vault_id).ok_or(Ter::tefBAD_LEDGER)?;
    let vault = read_vault(&ctx.sb, &vault_key).ok_or(Ter::tefBAD_LEDGER)?;
    let (_, borrower) = parties(&broker, tx, &ctx.account);
    let principal = number_of(tx, s.principal_requested);
    if number_of(&vault, s.assets_available) < principal {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    let rate = tx.u32_of(s.interest_rate).unwrap_or(0);
    let (interval, payments, _) = schedule(tx);
    let fee_rate = u32::from(broker.entry.u16_of(s.management_fee_rate).unwrap_or(0));
    let vault_scale = super::vault_scale(&vault);
    let props = loan_properties(
        &broker.asset,
        principal,
        (rate, interval, payments),
        fee_rate,
        vault_scale,
    );
    let interest_due = construct_state(props.total_value, principal, props.fee_owed).interest;
    let cash_basis = crate::engine::vault::phase::is_cash_basis(&vault);
    let maximum = number_of(&vault, s.assets_maximum);
    if !cash_basis
        && !maximum.is_zero()
        && interest_due > maximum - number_of(&vault, s.assets_total)
    {
        return Err(Ter::tecLIMIT_EXCEEDED);
    }
    for f in value_fields() {
        if present_number(tx, f).is_some_and(|v| !is_rounded(&broker.asset, v, props.scale)) {
            return Err(Ter::tecPRECISION_LOSS);
        }
    }
    check_loan_guards(&broker.asset, principal, rate != 0, payments, &props).into_result()?;
    if props.fee_owed.signum() < 0
        || props.total_value.signum() <= 0
        || props.periodic_payment.signum() <= 0
    {
        return Err(Ter::tecINTERNAL);
    }
    let plan = Plan {
        broker,
        vault_key,
        vault,
        borrower,
        principal,
        props,
        interest_due,
        origination: number_of(tx, s.loan_origination_fee),
    };
    check_debt(&plan, ctx.sb.info().rules.enabled(Feature::FixCleanup3_2_0))?;
    Ok(plan)
}

/// The new debt within DebtMaximum (`tecLIMIT_EXCEEDED`) and covered by the broker's
/// first-loss capital (`tecINSUFFICIENT_FUNDS`): unrounded before fixCleanup3_2_0,
/// `minimumBrokerCover` (rounded up at the vault's scale) with it. The new debt is the
/// broker's DebtTotal after [`Plan::origination_deltas`]: principal only on a cash-basis
/// vault.
fn check_debt(p: &Plan, fix320: bool) -> Result<(), Ter> {
    let s = sf();
    let new_total = number_of(&p.broker.entry, s.debt_total) + p.origination_deltas().1;
    let maximum = number_of(&p.broker.entry, s.debt_maximum);
    if !maximum.is_zero() && maximum < new_total {
        return Err(Ter::tecLIMIT_EXCEEDED);
    }
    let rate = p.broker.entry.u32_of(s.cover_rate_minimum).unwrap_or(0);
    let minimum = if fix320 {
        minimum_broker_cover(
            &p.broker.asset,
            new_total,
            rate,
            super::vault_scale(&p.vault),
        )
    } else {
        let _g = RoundGuard::new(RoundingMode::Upward);
        tenth_bips_of(new_total, rate)
    };
    if p.broker.cover() < minimum {
        return Err(Ter::tecINSUFFICIENT_FUNDS);
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let p = plan(ctx)?;
    reserve_and_holdings(ctx, &p)?;
    disburse(ctx, &p)?;
    create_loan(ctx, p).into_result()
}

/// One more owner count for the borrower, within its reserve; the holdings the borrower
/// (and, for an origination fee, the broker's owner) need, authorized.
fn reserve_and_holdings(ctx: &mut ApplyContext, p: &Plan) -> Result<(), Ter> {
    adjust_owner_count(&mut ctx.sb, &p.borrower, 1);
    let Some(root) = ctx.sb.peek(&keylet::account(&p.borrower)) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let balance = if ctx.account == p.borrower {
        ctx.prior_balance
    } else {
        balance_drops(&root)
    };
    if balance < ctx.sb.info().fees.reserve_of(&root, 0, 0) {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    let mut holders = vec![p.borrower];
    if !p.origination.is_zero() {
        holders.push(p.broker.owner);
    }
    for h in holders {
        let prior = ctx
            .sb
            .peek(&keylet::account(&h))
            .map_or(0, |r| balance_drops(&r));
        let t = add_holding_for(&mut ctx.sb, &h, &p.broker.asset, prior);
        if t != Ter::tesSUCCESS && t != Ter::tecDUPLICATE {
            return Err(t);
        }
        asset_require_auth(&ctx.sb, &p.broker.asset, &h, true).into_result()?;
    }
    Ok(())
}

/// The principal less the origination fee to the borrower, the fee to the broker's
/// owner, both from the vault's pseudo-account.
fn disburse(ctx: &mut ApplyContext, p: &Plan) -> Result<(), Ter> {
    let Some(from) = p.vault.account_of(sf().account) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let sends = [
        (p.borrower, p.principal - p.origination),
        (p.broker.owner, p.origination),
    ];
    for (to, value) in sends {
        if value.is_zero() || to == from {
            continue;
        }
        let Some(amount) = to_asset(&p.broker.asset, value) else {
            return Err(Ter::tecINTERNAL);
        };
        send_asset(&mut ctx.sb, &from, &to, &amount).into_result()?;
    }
    Ok(())
}

/// The Loan entry, the vault's and the broker's new totals, and the two directories.
fn create_loan(ctx: &mut ApplyContext, mut p: Plan) -> Ter {
    let s = sf();
    let sequence = p.broker.entry.u32_of(s.loan_sequence).unwrap_or(0);
    let key = keylet::loan(&p.broker.key, sequence);
    let mut loan = loan_entry(ctx, &p, sequence);
    let Some(pseudo_page) = insert_owned(&mut ctx.sb, &p.broker.pseudo, key) else {
        return Ter::tecDIR_FULL;
    };
    let Some(owner_page) = insert_owned(&mut ctx.sb, &p.borrower, key) else {
        return Ter::tecDIR_FULL;
    };
    loan.set(s.loan_broker_node, StValue::UInt64(pseudo_page));
    loan.set(s.owner_node, StValue::UInt64(owner_page));
    ctx.sb.insert(key, loan);
    // The vault's scale before this loan changes its total, as rippled reads it.
    let scale = super::vault_scale(&p.vault);
    let (assets_delta, debt_delta) = p.origination_deltas();
    let available = number_of(&p.vault, s.assets_available) - p.principal;
    let total = number_of(&p.vault, s.assets_total) + assets_delta;
    set_number(&mut p.vault, s.assets_available, available);
    set_number(&mut p.vault, s.assets_total, total);
    ctx.sb.update(p.vault_key, p.vault.clone());
    let debt = number_of(&p.broker.entry, s.debt_total);
    let debt = adjust_imprecise(&p.broker.asset, debt, debt_delta, scale);
    put_number(&mut p.broker.entry, s.debt_total, debt);
    let loans = p.broker.entry.u32_of(s.owner_count).unwrap_or(0);
    put_u32(&mut p.broker.entry, s.owner_count, loans.saturating_add(1));
    let Some(next) = sequence.checked_add(1) else {
        return Ter::tecMAX_SEQUENCE_REACHED;
    };
    p.broker.entry.set(s.loan_sequence, StValue::UInt32(next));
    ctx.sb.update(p.broker.key, p.broker.entry.clone());
    Ter::tesSUCCESS
}

/// The new Loan entry (without its directory nodes).
fn loan_entry(ctx: &ApplyContext, p: &Plan, sequence: u32) -> StObject {
    let s = sf();
    let tx = ctx.tx;
    let (interval, payments, grace) = schedule(tx);
    let start = ctx.sb.info().parent_close_time;
    let mut loan = with_threading(new_entry(lt::LOAN));
    if tx.flags() & TF_LOAN_OVERPAYMENT != 0 {
        loan.set(s.flags, StValue::UInt32(LSF_LOAN_OVERPAYMENT));
    }
    if p.props.scale != 0 {
        loan.set(s.loan_scale, StValue::Int32(p.props.scale));
    }
    loan.set(s.start_date, StValue::UInt32(start));
    loan.set(s.payment_interval, StValue::UInt32(interval));
    loan.set(s.loan_sequence, StValue::UInt32(sequence));
    loan.set(s.loan_broker_id, StValue::Hash256(p.broker.key));
    loan.set(s.borrower, StValue::AccountId(p.borrower));
    for f in [
        s.loan_origination_fee,
        s.loan_service_fee,
        s.late_payment_fee,
        s.close_payment_fee,
    ] {
        put_number(&mut loan, f, number_of(tx, f));
    }
    for f in [
        s.overpayment_fee,
        s.interest_rate,
        s.late_interest_rate,
        s.close_interest_rate,
        s.overpayment_interest_rate,
    ] {
        put_u32(&mut loan, f, tx.u32_of(f).unwrap_or(0));
    }
    put_u32(&mut loan, s.grace_period, grace);
    put_number(&mut loan, s.principal_outstanding, p.principal);
    set_number(&mut loan, s.periodic_payment, p.props.periodic_payment);
    put_number(&mut loan, s.total_value_outstanding, p.props.total_value);
    put_number(&mut loan, s.management_fee_outstanding, p.props.fee_owed);
    put_u32(
        &mut loan,
        s.next_payment_due_date,
        start.saturating_add(interval),
    );
    put_u32(&mut loan, s.payment_remaining, payments);
    loan
}

/// `LoanSet::checkSign` for the counterparty: who must co-sign (the Counterparty, or
/// the broker's owner; `temBAD_SIGNER` when neither is known) and that
/// CounterpartySignature is theirs, single- or multi-signed (a dry run's empty key is
/// not checked).
pub fn check_counterparty(view: &dyn ReadView, tx: &StObject, dry_run: bool) -> Result<(), Ter> {
    let s = sf();
    let signer = match tx.account_of(s.counterparty) {
        Some(c) => c,
        None => broker_id(tx)
            .and_then(|k| super::broker::read_broker(view, &k))
            .and_then(|b| b.account_of(s.owner))
            .ok_or(Ter::temBAD_SIGNER)?,
    };
    let Some(sig) = counterparty_signature(tx) else {
        return Ok(());
    };
    if let Some(StValue::Array(signers)) = sig.get(s.signers) {
        return crate::engine::transactor::check_multi_sign(view, &signer, signers);
    }
    let key = sig.blob_of(s.signing_pub_key).unwrap_or_default();
    if dry_run && key.is_empty() {
        return Ok(());
    }
    let Some(root) = view.read(&keylet::account(&signer)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    let from_key = AccountId::from_public_key(key);
    if root.account_of(s.regular_key) == Some(from_key) {
        return Ok(());
    }
    if from_key == signer {
        if root.is_flag(crate::ledger::flags::lsf::DISABLE_MASTER) {
            return Err(Ter::tefMASTER_DISABLED);
        }
        return Ok(());
    }
    Err(Ter::tefBAD_AUTH)
}

/// The base fees the counterparty's signatures add (`LoanSet::calculateBaseFee`): one
/// per signer, or one for a single signature.
pub fn counterparty_signatures(tx: &StObject) -> u64 {
    let s = sf();
    match counterparty_signature(tx) {
        Some(sig) => match sig.get(s.signers) {
            Some(StValue::Array(a)) => a.len() as u64,
            _ if sig.blob_of(s.txn_signature).is_some() => 1,
            _ => 0,
        },
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::vault::phase::{CASH_BASIS, CLOSED_ENDED};
    use crate::ledger::rules::Rules;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};

    fn view_at(on: bool, now: u32) -> StateView {
        let rules = Rules::default_with(Feature::LendingProtocolV1_1, on);
        let mut info = ViewInfo::open_test(rules);
        info.parent_close_time = now;
        StateView::new(Arc::new(State::new()), stamp(1, 0), info)
    }

    /// A closed-ended vault subscribing until 1000 and redeeming from 1500.
    fn closed() -> StObject {
        let s = sf();
        let mut v = StObject::new();
        v.set(s.vault_kind, StValue::UInt8(CLOSED_ENDED));
        v.set(s.subscription_date, StValue::UInt32(1000));
        v.set(s.redemption_date, StValue::UInt32(1500));
        v
    }

    fn loan(interval: u32, total: u32) -> StObject {
        let s = sf();
        let mut tx = StObject::new();
        tx.set(s.payment_interval, StValue::UInt32(interval));
        tx.set(s.payment_total, StValue::UInt32(total));
        tx
    }

    /// XLS-66.1.2's boundaries: Subscription through its date, Investment from a second
    /// after it, the last payment plus 60 s at most the RedemptionDate, Redemption from
    /// its date; without the amendment none of it.
    #[test]
    fn a_closed_ended_vault_lends_only_while_investing() {
        let v = closed();
        for (now, (interval, total), want) in [
            (999, (60, 1), Ter::tecTOO_SOON),
            (1000, (60, 1), Ter::tecTOO_SOON),
            // 1001 + 439 + 60 = 1500: the RedemptionDate itself.
            (1001, (439, 1), Ter::tesSUCCESS),
            (1001, (440, 1), Ter::tecNO_PERMISSION),
            (1001, (438, 1), Ter::tesSUCCESS),
            (1001, (146, 3), Ter::tesSUCCESS),
            (1001, (147, 3), Ter::tecNO_PERMISSION),
            (1001, (u32::MAX, u32::MAX), Ter::tecNO_PERMISSION),
            (1380, (60, 1), Ter::tesSUCCESS),
            (1381, (60, 1), Ter::tecNO_PERMISSION),
            (1499, (60, 1), Ter::tecNO_PERMISSION),
            (1500, (60, 1), Ter::tecEXPIRED),
            (9000, (60, 1), Ter::tecEXPIRED),
        ] {
            let tx = loan(interval, total);
            let got = vault_open_for_loans(&view_at(true, now), &tx, &v);
            assert_eq!(got, want, "at {now}, {interval} x {total}");
            let got = vault_open_for_loans(&view_at(false, now), &tx, &v);
            assert_eq!(got, Ter::tesSUCCESS, "without the amendment, at {now}");
        }
        // An open-ended vault has no phase.
        let open = StObject::new();
        let got = vault_open_for_loans(&view_at(true, 1000), &loan(60, 1), &open);
        assert_eq!(got, Ter::tesSUCCESS);
    }

    /// An accrual vault at its AssetsMaximum takes no loan; a cash-basis one does (it
    /// books no interest at origination), both ways of the amendment.
    #[test]
    fn only_an_accrual_vault_at_its_maximum_refuses_a_loan() {
        let s = sf();
        let mut v = StObject::new();
        set_number(&mut v, s.assets_total, Number::from_i64(100));
        set_number(&mut v, s.assets_maximum, Number::from_i64(100));
        for on in [false, true] {
            let view = view_at(on, 10);
            let tx = loan(60, 1);
            assert_eq!(vault_open_for_loans(&view, &tx, &v), Ter::tecLIMIT_EXCEEDED);
            let mut cash = v.clone();
            cash.set(s.le_version, StValue::UInt8(CASH_BASIS));
            assert_eq!(vault_open_for_loans(&view, &tx, &cash), Ter::tesSUCCESS);
            let mut room = v.clone();
            set_number(&mut room, s.assets_maximum, Number::from_i64(101));
            assert_eq!(vault_open_for_loans(&view, &tx, &room), Ter::tesSUCCESS);
        }
    }
}
