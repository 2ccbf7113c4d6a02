//! TicketCreate (rippled `CreateTicket.cpp`): sets aside `TicketCount` sequence numbers
//! as Tickets, each an owned entry, and moves the account's Sequence past them.

use super::TICKETS_PER_ACCOUNT_MAX;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{adjust_owner_count, new_entry, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match tx.u32_of(sf().ticket_count) {
        Some(n) if (1..=TICKETS_PER_ACCOUNT_MAX).contains(&n) => Ter::tesSUCCESS,
        _ => Ter::temINVALID_COUNT,
    }
}

/// preclaim: the account may hold at most 250 Tickets (a ticketed TicketCreate frees the
/// one it uses).
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    let held = root.u32_of(s.ticket_count).unwrap_or(0);
    let added = tx.u32_of(s.ticket_count).unwrap_or(0);
    let consumed = u32::from(tx.u32_of(s.ticket_sequence).is_some());
    if held + added - consumed > TICKETS_PER_ACCOUNT_MAX {
        return Ter::tecDIR_FULL;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let account = ctx.account;
    let root_key = keylet::account(&account);
    let Some(root) = ctx.sb.peek(&root_key) else {
        return Ter::tefINTERNAL;
    };
    let count = ctx.tx.u32_of(s.ticket_count).unwrap_or(0);
    let reserve = ctx.sb.info().fees.reserve_of(&root, count as i64, 0);
    if ctx.prior_balance < reserve {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    // The common step already moved Sequence past this transaction's own.
    let first = root.u32_of(s.sequence).unwrap_or(0);
    for seq in first..first.saturating_add(count) {
        let key = keylet::ticket(&account, seq);
        let mut ticket = with_threading(new_entry(lt::TICKET));
        ticket.set(s.account, StValue::AccountId(account));
        ticket.set(s.ticket_sequence, StValue::UInt32(seq));
        let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
            return Ter::tecDIR_FULL;
        };
        ticket.set(s.owner_node, StValue::UInt64(page));
        ctx.sb.insert(key, ticket);
    }
    adjust_owner_count(&mut ctx.sb, &account, count as i32);
    let Some(mut root) = ctx.sb.peek(&root_key) else {
        return Ter::tefINTERNAL;
    };
    let held = root.u32_of(s.ticket_count).unwrap_or(0);
    root.set(s.ticket_count, StValue::UInt32(held + count));
    root.set(s.sequence, StValue::UInt32(first.saturating_add(count)));
    ctx.sb.update(root_key, root);
    Ter::tesSUCCESS
}

/// What the queue weighs (rippled `CreateTicket::makeTxConsequences`): it consumes
/// TicketCount sequences (rippled counts the tickets, not the transaction's own).
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    crate::engine::consequences::TxConsequences {
        sequences_consumed: tx.u32_of(sf().ticket_count).unwrap_or(0),
        ..crate::engine::consequences::TxConsequences::normal(tx)
    }
}
