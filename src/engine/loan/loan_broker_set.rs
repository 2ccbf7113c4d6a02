//! LoanBrokerSet (rippled `LoanBrokerSet.cpp`): a vault's owner opens a LoanBroker over
//! the vault (the entry, in the owner's and the vault pseudo-account's directories, and a
//! pseudo-account holding the vault's asset as first-loss cover; two owner counts), or
//! updates an existing broker's Data and DebtMaximum.

use super::broker::{
    broker_id, create_pseudo, read_broker, COVER_RATE_MAX, MANAGEMENT_FEE_RATE_MAX,
};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::engine::vault::phase;
use crate::engine::vault::{
    add_empty_holding, asset_of, is_negative_number, number_of, read_vault, set_number, vault_id,
    DATA_LEN_MAX,
};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// `maxMPTokenAmount`, the largest DebtMaximum.
const DEBT_MAXIMUM_MAX: i64 = i64::MAX;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.blob_of(s.data).is_some_and(|d| d.len() > DATA_LEN_MAX)
        || tx.u16_of(s.management_fee_rate).unwrap_or(0) > MANAGEMENT_FEE_RATE_MAX
        || tx.u32_of(s.cover_rate_minimum).unwrap_or(0) > COVER_RATE_MAX
        || tx.u32_of(s.cover_rate_liquidation).unwrap_or(0) > COVER_RATE_MAX
        || is_negative_number(tx, s.debt_maximum)
        || number_of(tx, s.debt_maximum) > Number::from_i64(DEBT_MAXIMUM_MAX)
    {
        return Ter::temINVALID;
    }
    if tx.get(s.loan_broker_id).is_some() {
        let fixed = [
            s.management_fee_rate,
            s.cover_rate_minimum,
            s.cover_rate_liquidation,
        ];
        if fixed.iter().any(|f| tx.get(*f).is_some()) || broker_id(tx).is_none() {
            return Ter::temINVALID;
        }
    }
    if vault_id(tx).is_none() {
        return Ter::temINVALID;
    }
    let minimum_zero = tx.u32_of(s.cover_rate_minimum).unwrap_or(0) == 0;
    let liquidation_zero = tx.u32_of(s.cover_rate_liquidation).unwrap_or(0) == 0;
    if minimum_zero != liquidation_zero {
        return Ter::temINVALID;
    }
    Ter::tesSUCCESS
}

/// preclaim: the vault first (`tecNO_ENTRY`, `tecNO_PERMISSION` for another's vault),
/// then the broker an update names (it exists, is over that vault and is the account's;
/// a DebtMaximum may not fall below DebtTotal), or, for a new broker, a closed-ended
/// vault (with LendingProtocolV1_1) and what its holding needs.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let vault = vault_id(tx);
    let Some(v) = vault.and_then(|k| read_vault(view, &k)) else {
        return Err(Ter::tecNO_ENTRY);
    };
    if v.account_of(s.owner) != Some(*account) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if let Some(key) = broker_id(tx) {
        let Some(broker) = read_broker(view, &key) else {
            return Err(Ter::tecNO_ENTRY);
        };
        if broker.h256_of(s.vault_id) != vault || broker.account_of(s.owner) != Some(*account) {
            return Err(Ter::tecNO_PERMISSION);
        }
        let debt_max = number_of(tx, s.debt_maximum);
        if !debt_max.is_zero() && debt_max < number_of(&broker, s.debt_total) {
            return Err(Ter::tecLIMIT_EXCEEDED);
        }
        return Ok(());
    }
    // LendingProtocolV1_1: a new broker only over a closed-ended vault, whose phases
    // give its loans a lifecycle (an existing broker is never re-checked).
    if view.info().rules.enabled(Feature::LendingProtocolV1_1)
        && phase::kind(&v) != phase::CLOSED_ENDED
    {
        return Err(Ter::tecNO_PERMISSION);
    }
    let (Some(asset), Some(pseudo)) = (asset_of(&v), v.account_of(s.account)) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    crate::engine::vault::can_add_holding(view, &asset).into_result()?;
    crate::engine::vault::asset_frozen(view, &pseudo, &asset).into_result()
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    match broker_id(ctx.tx) {
        Some(key) => update(ctx, key),
        None => Ter::from(create(ctx)),
    }
}

/// Sets an existing broker's Data and DebtMaximum.
fn update(ctx: &mut ApplyContext, key: crate::protocol::types::Hash256) -> Ter {
    let s = sf();
    let Some(mut broker) = read_broker(&ctx.sb, &key) else {
        return Ter::tefBAD_LEDGER;
    };
    if ctx.tx.get(s.data).is_some() {
        broker.remove(s.data);
    }
    if ctx.tx.get(s.debt_maximum).is_some() {
        broker.remove(s.debt_maximum);
    }
    copy_fields(ctx.tx, &mut broker);
    ctx.sb.update(key, broker);
    Ter::tesSUCCESS
}

/// A new broker over the named vault.
fn create(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let account = ctx.account;
    let (Some(vkey), seq) = (vault_id(ctx.tx), crate::engine::mpt::seq_proxy(ctx.tx)) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let Some(vault) = read_vault(&ctx.sb, &vkey) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let (Some(vault_pseudo), Some(asset)) = (vault.account_of(s.account), asset_of(&vault)) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let key = keylet::loan_broker(&account, seq);
    let (Some(page), Some(vault_page)) = (
        insert_owned(&mut ctx.sb, &account, key),
        insert_owned(&mut ctx.sb, &vault_pseudo, key),
    ) else {
        return Err(Ter::tecDIR_FULL);
    };
    let fees = ctx.sb.info().fees;
    let reserve = ctx
        .sb
        .peek(&keylet::account(&account))
        .map_or(fees.account_reserve(2), |r| fees.reserve_of(&r, 2, 0));
    if ctx.prior_balance < reserve {
        return Err(Ter::tecINSUFFICIENT_RESERVE);
    }
    // One for the LoanBroker, one for its pseudo-account.
    adjust_owner_count(&mut ctx.sb, &account, 2);
    let pseudo = create_pseudo(&mut ctx.sb, &key)?;
    add_empty_holding(&mut ctx.sb, &pseudo, &asset).into_result()?;
    let mut b = with_threading(new_entry(lt::LOAN_BROKER));
    b.set(s.sequence, StValue::UInt32(seq));
    b.set(s.owner_node, StValue::UInt64(page));
    b.set(s.vault_node, StValue::UInt64(vault_page));
    b.set(s.vault_id, StValue::Hash256(vkey));
    b.set(s.owner, StValue::AccountId(account));
    b.set(s.account, StValue::AccountId(pseudo));
    b.set(s.loan_sequence, StValue::UInt32(1));
    copy_fields(ctx.tx, &mut b);
    ctx.sb.insert(key, b);
    Ok(())
}

/// The optional fields a broker takes from the transaction; a default value (empty
/// Data, zero) leaves the field out, as rippled's soeDEFAULT fields.
fn copy_fields(tx: &StObject, b: &mut StObject) {
    let s = sf();
    if let Some(d) = tx.blob_of(s.data).filter(|d| !d.is_empty()) {
        b.set(s.data, StValue::Blob(d.to_vec()));
    }
    if let Some(r) = tx.u16_of(s.management_fee_rate).filter(|r| *r != 0) {
        b.set(s.management_fee_rate, StValue::UInt16(r));
    }
    let debt_max = number_of(tx, s.debt_maximum);
    if !debt_max.is_zero() {
        set_number(b, s.debt_maximum, debt_max);
    }
    for f in [s.cover_rate_minimum, s.cover_rate_liquidation] {
        if let Some(r) = tx.u32_of(f).filter(|r| *r != 0) {
            b.set(f, StValue::UInt32(r));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::ledger::rules::Rules;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};
    use crate::protocol::types::{Hash256, Issue};

    /// A ledger holding one XRP vault of `owner`, of `kind`, under LendingProtocolV1_1
    /// `on` or off; returns it and the vault's key.
    fn ledger(owner: AccountId, kind: u8, on: bool) -> (StateView, Hash256) {
        let s = sf();
        let key = keylet::vault(&owner, 1);
        let mut v = new_entry(lt::VAULT);
        v.set(s.owner, StValue::AccountId(owner));
        v.set(s.account, StValue::AccountId(AccountId([7; 20])));
        v.set(s.asset, StValue::Issue(Issue::XRP));
        v.set(s.vault_kind, StValue::UInt8(kind));
        let state = Arc::new(State::new());
        state.commit(stamp(1, 0), [(key, Some(Arc::new(v)))]);
        let info = ViewInfo::open_test(Rules::default_with(
            crate::protocol::features::Feature::LendingProtocolV1_1,
            on,
        ));
        (StateView::new(state, stamp(1, 0), info), key)
    }

    #[test]
    fn with_lending_v1_1_a_new_broker_needs_a_closed_ended_vault() {
        let owner = AccountId([1; 20]);
        for (kind, on, want) in [
            (phase::OPEN_ENDED, true, Err(Ter::tecNO_PERMISSION)),
            (phase::CLOSED_ENDED, true, Ok(())),
            (phase::OPEN_ENDED, false, Ok(())),
            (phase::CLOSED_ENDED, false, Ok(())),
            // A kind this server does not know counts as open-ended.
            (7, true, Err(Ter::tecNO_PERMISSION)),
        ] {
            let (view, vault) = ledger(owner, kind, on);
            let mut tx = StObject::new();
            tx.set(sf().vault_id, StValue::Hash256(vault));
            assert_eq!(preclaim(&view, &tx, &owner), want, "kind {kind}, on {on}");
        }
    }
}
