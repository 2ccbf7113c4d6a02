//! SignerListSet (rippled `SetSignerList.cpp`, `SignerEntries.cpp`): creates, replaces or
//! deletes the account's signer list. With MultiSignReserve and ExpandedSignerList (both
//! enabled in rippled 2.x) a list counts once toward OwnerCount (`lsfOneOwnerCount`) and
//! holds 1 to 32 entries, each optionally tagged with a WalletLocator.

use super::remove_signer_list;
use super::{signer_entries, SignerEntry};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{check_reserve, new_entry, own_new, with_threading};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, MULTI_SIGNERS_MAX, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// What the transaction asks for.
enum Operation {
    /// A new list (sorted by account) with its quorum.
    Set(u32, Vec<SignerEntry>),
    /// Delete the list.
    Destroy,
}

fn operation(tx: &StObject) -> Result<Operation, Ter> {
    let s = sf();
    let quorum = tx.u32_of(s.signer_quorum).unwrap_or(0);
    let has_entries = tx.get(s.signer_entries).is_some();
    match (quorum, has_entries) {
        (0, false) => Ok(Operation::Destroy),
        (q, true) if q != 0 => {
            let mut entries = signer_entries(tx)?;
            entries.sort_by_key(|e| e.account);
            Ok(Operation::Set(q, entries))
        }
        _ => Err(Ter::temMALFORMED),
    }
}

/// rippled's `validateQuorumAndSignerEntries`.
fn validate(quorum: u32, entries: &[SignerEntry], account: &AccountId) -> Ter {
    if entries.is_empty() || entries.len() > MULTI_SIGNERS_MAX {
        return Ter::temMALFORMED;
    }
    if entries.windows(2).any(|w| w[0].account == w[1].account) {
        return Ter::temBAD_SIGNER;
    }
    let mut total: u64 = 0;
    for e in entries {
        if e.weight == 0 {
            return Ter::temBAD_WEIGHT;
        }
        total += u64::from(e.weight);
        if e.account == *account {
            return Ter::temBAD_SIGNER;
        }
    }
    if quorum == 0 || total < u64::from(quorum) {
        return Ter::temBAD_QUORUM;
    }
    Ter::tesSUCCESS
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match operation(tx) {
        Err(t) => t,
        Ok(Operation::Destroy) => Ter::tesSUCCESS,
        Ok(Operation::Set(quorum, entries)) => validate(quorum, &entries, account),
    }
}

/// preclaim: nothing to read before apply.
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    match operation(ctx.tx) {
        Ok(Operation::Set(quorum, entries)) => Ter::from(replace(ctx, quorum, &entries)),
        Ok(Operation::Destroy) => destroy(ctx),
        Err(t) => t,
    }
}

fn replace(ctx: &mut ApplyContext, quorum: u32, entries: &[SignerEntry]) -> Result<(), Ter> {
    let s = sf();
    let account = ctx.account;
    remove_signer_list(&mut ctx.sb, &account).into_result()?;
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Err(Ter::tefINTERNAL);
    };
    // Checked against the balance before the fee, as CreateTicket does.
    let fail = Ter::tecINSUFFICIENT_RESERVE;
    check_reserve(&ctx.sb, ctx.tx, &root, ctx.prior_balance, (1, 0), fail)?;
    let key = keylet::signers(&account);
    let mut list = with_threading(new_entry(lt::SIGNER_LIST));
    // fixIncludeKeyletFields: the entry names the account its key is made of.
    if ctx.sb.info().rules.enabled(Feature::FixIncludeKeyletFields) {
        list.set(s.owner, StValue::AccountId(account));
    }
    list.set(s.flags, StValue::UInt32(lsf::ONE_OWNER_COUNT));
    list.set(s.signer_quorum, StValue::UInt32(quorum));
    list.set(s.signer_list_id, StValue::UInt32(0));
    list.set(s.signer_entries, StValue::Array(entries_array(entries)));
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Err(Ter::tecDIR_FULL);
    };
    list.set(s.owner_node, StValue::UInt64(page));
    own_new(&mut ctx.sb, ctx.tx, &account, (key, list), 1);
    Ok(())
}

fn entries_array(entries: &[SignerEntry]) -> Vec<(crate::protocol::definitions::Field, StObject)> {
    let s = sf();
    entries
        .iter()
        .map(|e| {
            let mut o = StObject::new();
            o.set(s.account, StValue::AccountId(e.account));
            o.set(s.signer_weight, StValue::UInt16(e.weight));
            if let Some(tag) = e.tag {
                o.set(s.wallet_locator, StValue::Hash256(tag));
            }
            (s.signer_entry, o)
        })
        .collect()
}

fn destroy(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(root) = ctx.sb.peek(&keylet::account(&ctx.account)) else {
        return Ter::tefINTERNAL;
    };
    if root.is_flag(lsf::DISABLE_MASTER) && root.get(s.regular_key).is_none() {
        return Ter::tecNO_ALTERNATIVE_KEY;
    }
    let account = ctx.account;
    remove_signer_list(&mut ctx.sb, &account)
}
