//! LoanBrokerDelete (rippled `LoanBrokerDelete.cpp`): the owner of a broker with no loans
//! and no debt deletes it; its remaining cover goes back to the owner, its pseudo-account
//! and that account's holding of the asset go, and the owner's two owner counts return.

use super::broker::{broker_id, Broker};
use crate::engine::directory::remove_owned;
use crate::engine::entry::adjust_owner_count;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::engine::vault::{number_of, send_asset, to_asset};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if broker_id(tx).is_none() {
        return Ter::temINVALID;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let b = Broker::named(view, tx)?;
    if b.owner != *account {
        return Err(Ter::tecNO_PERMISSION);
    }
    if b.entry.u32_of(s.owner_count).unwrap_or(0) != 0
        || !number_of(&b.entry, s.debt_total).is_zero()
    {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    if b.cover().signum() > 0 {
        return super::broker::deep_frozen(view, account, &b.asset).into_result();
    }
    Ok(())
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let b = match Broker::named(&ctx.sb, ctx.tx) {
        Ok(b) => b,
        Err(_) => return Err(Ter::tefBAD_LEDGER),
    };
    let Some(vault_pseudo) = b
        .entry
        .h256_of(s.vault_id)
        .and_then(|v| ctx.sb.read(&v))
        .and_then(|v| v.account_of(s.account))
    else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let page = b.entry.u64_of(s.owner_node).unwrap_or(0);
    let vault_page = b.entry.u64_of(s.vault_node).unwrap_or(0);
    if !remove_owned(&mut ctx.sb, &ctx.account, page, &b.key, false)
        || !remove_owned(&mut ctx.sb, &vault_pseudo, vault_page, &b.key, false)
    {
        return Err(Ter::tefBAD_LEDGER);
    }
    return_cover(ctx, &b).into_result()?;
    crate::engine::vault::remove_line(&mut ctx.sb, &b.pseudo, &b.asset)?;
    let pseudo_key = keylet::account(&b.pseudo);
    let Some(root) = ctx.sb.peek(&pseudo_key) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    if root.drops_of(s.balance) != 0
        || root.u32_of(s.owner_count).unwrap_or(0) != 0
        || ctx.sb.exists(&keylet::owner_dir(&b.pseudo))
    {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    adjust_owner_count(&mut ctx.sb, &ctx.account, -2);
    ctx.sb.erase(pseudo_key);
    ctx.sb.erase(b.key);
    Ok(())
}

/// The remaining cover, from the pseudo-account back to the owner.
fn return_cover(ctx: &mut ApplyContext, b: &Broker) -> Ter {
    let cover = b.cover();
    if cover.is_zero() {
        return Ter::tesSUCCESS;
    }
    let Some(amount) = to_asset(&b.asset, cover) else {
        return Ter::tecINTERNAL;
    };
    send_asset(&mut ctx.sb, &b.pseudo, &ctx.account, &amount)
}
