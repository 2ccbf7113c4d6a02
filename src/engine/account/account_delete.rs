//! AccountDelete (rippled `DeleteAccount.cpp`): deletes the sending account and sends
//! its remaining XRP to Destination. Only accounts whose owner directory holds nothing but
//! entries without obligations (signer list, tickets, preauthorizations, offers, a DID,
//! price oracles) may go, at least 256 ledgers after their Sequence; the fee is one owner
//! reserve.

use super::{
    deposit_allowed, remove_preauth, remove_signer_list, ACCOUNT_DELETE_LEDGERS_MIN,
    ACCOUNT_DELETE_OWNED_MAX,
};
use crate::engine::credential;
use crate::engine::entry::{balance_drops, credit_drops, set_flags, sponsor_accounts};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::directory::owned;
use crate::ledger::entry_types::{self, Deletion};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// Entry types an account may own and still be deleted: their rows say
/// [`Deletion::Deleted`] (rippled `nonObligationDeleter`).
fn deletable(entry_type: u16) -> bool {
    entry_types::of_code(entry_type).is_some_and(|t| t.deletion == Deletion::Deleted)
}

/// checkExtraFeatures: `CredentialIDs` needs Credentials.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    credential::ids_allowed(tx, rules)
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    match tx.account_of(sf().destination) {
        Some(d) if d == *account => Ter::temDST_IS_SRC,
        Some(_) => credential::check_ids(tx),
        None => Ter::temMALFORMED,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let (dst, dst_root) = crate::engine::entry::destination_root(view, tx)?;
    if dst_root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.u32_of(s.destination_tag).is_none() {
        return Err(Ter::tecDST_TAG_NEEDED);
    }
    credential::valid_ids(view, tx, account).into_result()?;
    // With credentials the deposit check waits for doApply, which deletes expired ones.
    if tx.get(s.credential_ids).is_none() && !deposit_allowed(view, &dst_root, account, &dst) {
        return Err(Ter::tecNO_PERMISSION);
    }
    let Some(root) = view.read(&keylet::account(account)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    // An issuer whose tokens are still in the ledger, or an owner of tokens, stays.
    if root.u32_of(s.minted_nftokens) != root.u32_of(s.burned_nftokens)
        || crate::engine::nft::first_page(view, account).is_some()
    {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    sponsorship_allows(&root, &dst)?;
    let seq = root.u32_of(s.sequence).unwrap_or(0);
    if u64::from(seq) + u64::from(ACCOUNT_DELETE_LEDGERS_MIN) > u64::from(view.info().seq) {
        return Err(Ter::tecTOO_SOON);
    }
    // An issuer's tokens keep their serials unique: its next account (same address) must
    // not mint a serial again (rippled: FirstNFTokenSequence + MintedNFTokens + 256).
    if let Some(minted) = root.u32_of(s.minted_nftokens) {
        let first = root.u32_of(s.first_nftoken_sequence).unwrap_or(0);
        let until = u64::from(first) + u64::from(minted) + u64::from(ACCOUNT_DELETE_LEDGERS_MIN);
        if until > u64::from(view.info().seq) {
            return Err(Ter::tecTOO_SOON);
        }
    }
    owned_deletable(view, account).into_result()
}

/// XLS-68: a sponsored account goes only to its sponsor (which gets its reserve back);
/// an account still carrying others' objects or accounts stays.
fn sponsorship_allows(root: &StObject, dst: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if root
        .account_of(s.sponsor)
        .is_some_and(|sponsor| sponsor != *dst)
    {
        return Err(Ter::tecNO_SPONSOR_PERMISSION);
    }
    let carrying = |f| root.u32_of(f).unwrap_or(0) > 0;
    if carrying(s.sponsoring_owner_count) || carrying(s.sponsoring_account_count) {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    Ok(())
}

/// tesSUCCESS when everything the account owns may be deleted with it.
fn owned_deletable(view: &dyn ReadView, account: &AccountId) -> Ter {
    let keys = owned(view, account);
    for key in &keys {
        let Some(entry) = view.read(key) else {
            return Ter::tefBAD_LEDGER;
        };
        if !deletable(entry.u16_of(sf().ledger_entry_type).unwrap_or(0)) {
            return Ter::tecHAS_OBLIGATIONS;
        }
    }
    if keys.len() > ACCOUNT_DELETE_OWNED_MAX {
        return Ter::tefTOO_BIG;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let account = ctx.account;
    let Some(dst) = ctx.tx.account_of(s.destination) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    if ctx.tx.get(s.credential_ids).is_some() {
        let dst_root = ctx.sb.peek(&keylet::account(&dst));
        credential::verify_deposit_preauth(&mut ctx.sb, ctx.tx, &account, &dst, dst_root.as_ref())
            .into_result()?;
    }
    for key in owned(ctx.sb.base(), &account) {
        delete_owned(ctx, &account, &key).into_result()?;
    }
    let dir = keylet::owner_dir(&account);
    if ctx.sb.exists(&dir) {
        match ctx.sb.peek(&dir) {
            Some(page) if is_empty_page(&page) => ctx.sb.erase(dir),
            _ => return Err(Ter::tecHAS_OBLIGATIONS),
        }
    }
    let Some(src_root) = ctx.sb.peek(&keylet::account(&account)) else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let remaining = balance_drops(&src_root);
    if !credit_drops(&mut ctx.sb, &dst, remaining) {
        return Err(Ter::tefBAD_LEDGER);
    }
    let dst_key = keylet::account(&dst);
    if let Some(mut d) = ctx.sb.peek(&dst_key) {
        if remaining > 0 && d.is_flag(lsf::PASSWORD_SPENT) {
            set_flags(&mut d, 0, lsf::PASSWORD_SPENT);
            ctx.sb.update(dst_key, d);
        }
    }
    credit_drops(&mut ctx.sb, &account, -remaining);
    if let Some(sponsor) = src_root.account_of(s.sponsor) {
        sponsor_accounts(&mut ctx.sb, &sponsor, -1);
    }
    ctx.sb.erase(keylet::account(&account));
    ctx.delivered = Some(Amount::Xrp(remaining));
    ctx.meta_delivered = Some(Amount::Xrp(remaining));
    Ok(())
}

fn is_empty_page(page: &StObject) -> bool {
    let s = sf();
    page.v256_of(s.indexes).is_none_or(|v| v.is_empty())
        && page.u64_of(s.index_next).unwrap_or(0) == 0
}

/// Deletes one owned entry with its type's deleter (an entry the fee step consumed, a
/// ticket, is gone already).
fn delete_owned(ctx: &mut ApplyContext, account: &AccountId, key: &Hash256) -> Ter {
    let Some(entry) = ctx.sb.peek(key) else {
        return Ter::tesSUCCESS;
    };
    let code = entry.u16_of(sf().ledger_entry_type).unwrap_or(0);
    match deleter(code) {
        Some(delete) => delete(ctx, account, key, &entry),
        None => Ter::tecHAS_OBLIGATIONS,
    }
}

/// How AccountDelete deletes one owned entry: (context, account, key, entry).
type Deleter = fn(&mut ApplyContext, &AccountId, &Hash256, &StObject) -> Ter;

/// The family's deleter of each type whose row says [`Deletion::Deleted`].
fn deleter(code: u16) -> Option<Deleter> {
    let delete: Deleter = match code {
        lt::OFFER => |ctx, _, key, _| crate::engine::dex::offer_delete(&mut ctx.sb, key),
        lt::SIGNER_LIST => |ctx, account, _, _| remove_signer_list(&mut ctx.sb, account),
        lt::DEPOSIT_PREAUTH => |ctx, _, key, _| remove_preauth(&mut ctx.sb, key),
        lt::DID => |ctx, account, _, _| crate::engine::did::delete_did(&mut ctx.sb, account),
        lt::ORACLE => {
            |ctx, account, key, _| crate::engine::oracle::delete_oracle(&mut ctx.sb, key, account)
        }
        lt::CREDENTIAL => {
            |ctx, _, key, _| Ter::from(credential::delete_credential(&mut ctx.sb, key))
        }
        lt::DELEGATE => |ctx, _, key, _| crate::engine::delegate::delete_delegate(&mut ctx.sb, key),
        lt::NFTOKEN_OFFER => {
            |ctx, _, key, _| bad_ledger_unless(crate::engine::nft::delete_offer(&mut ctx.sb, key))
        }
        lt::TICKET => |ctx, account, _, entry| {
            let seq = entry.u32_of(sf().ticket_sequence).unwrap_or(0);
            let gone = crate::engine::transactor::delete_ticket(&mut ctx.sb, account, seq);
            bad_ledger_unless(gone.is_some())
        },
        _ => return None,
    };
    Some(delete)
}

fn bad_ledger_unless(ok: bool) -> Ter {
    if ok {
        Ter::tesSUCCESS
    } else {
        Ter::tefBAD_LEDGER
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::entry_types::ENTRY_TYPES;

    #[test]
    fn every_type_the_table_deletes_has_a_deleter_and_no_other_does() {
        for t in ENTRY_TYPES {
            assert_eq!(deleter(t.code).is_some(), deletable(t.code), "{}", t.name);
        }
        let deleted = ENTRY_TYPES.iter().filter(|t| deletable(t.code)).count();
        assert_eq!(deleted, 9, "rippled's nonObligationDeleter types");
    }
}
