//! The account types: AccountSet, SetRegularKey, SignerListSet, TicketCreate,
//! DepositPreauth and AccountDelete, and what they share with the pipeline and each
//! other: an account's signer list and its deposit preauthorizations.

pub mod account_delete;
pub mod account_set;
pub mod deposit_preauth;
pub mod set_regular_key;
pub mod signer_list_set;
pub mod ticket_create;

use crate::engine::directory::remove_owned;
use crate::engine::entry::release;
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// Longest Domain an AccountSet may store, in bytes (rippled `maxDomainLength`).
pub const DOMAIN_BYTES_MAX: usize = 256;
/// An account may be deleted only when its Sequence is at least this many ledgers behind
/// the current ledger (rippled `DeleteAccount` `seqDelta` + 1: replay protection).
pub const ACCOUNT_DELETE_LEDGERS_MIN: u32 = 255;
/// Owned entries an AccountDelete may delete with the account (rippled
/// `maxDeletableDirEntries`); more is `tefTOO_BIG`.
pub const ACCOUNT_DELETE_OWNED_MAX: usize = 1000;
/// Tickets one account may hold, and the most one TicketCreate makes (rippled
/// `CreateTicket::maxTicketThreshold`, `maxValidCount`).
pub const TICKETS_PER_ACCOUNT_MAX: u32 = 250;

/// rippled's `verifyDepositPreauth` without credentials: a destination that requires
/// deposit authorization accepts only itself and the accounts it preauthorized.
pub fn deposit_allowed(
    view: &dyn ReadView,
    dst_root: &StObject,
    src: &AccountId,
    dst: &AccountId,
) -> bool {
    !dst_root.is_flag(lsf::DEPOSIT_AUTH)
        || src == dst
        || view.read(&keylet::deposit_preauth(dst, src)).is_some()
}

/// Deletes a preauthorization and gives back its owner count (rippled
/// `DepositPreauth::removeFromLedger`; AccountDelete uses it too).
pub fn remove_preauth(sb: &mut Sandbox, key: &Hash256) -> Ter {
    let s = sf();
    let Some(entry) = sb.peek(key) else {
        return Ter::tefINTERNAL;
    };
    let Some(owner) = entry.account_of(s.account) else {
        return Ter::tefINTERNAL;
    };
    let page = entry.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &owner, page, key, false) {
        return Ter::tefBAD_LEDGER;
    }
    release(sb, &owner, &entry, 1);
    sb.erase(*key);
    Ter::tesSUCCESS
}

/// One signer of a list: its account, weight and optional tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignerEntry {
    /// The signer's account.
    pub account: AccountId,
    /// Its weight toward the quorum.
    pub weight: u16,
    /// Its WalletLocator, if any.
    pub tag: Option<Hash256>,
}

/// The entries of a SignerEntries array (a transaction's or a ledger entry's), in the
/// order given; `temMALFORMED` for an element that is not a SignerEntry with an account
/// and a weight (rippled `SignerEntries::deserialize`).
pub fn signer_entries(o: &StObject) -> Result<Vec<SignerEntry>, Ter> {
    let s = sf();
    let Some(StValue::Array(items)) = o.get(s.signer_entries) else {
        return Err(Ter::temMALFORMED);
    };
    items
        .iter()
        .map(|(field, e)| {
            if *field != s.signer_entry {
                return Err(Ter::temMALFORMED);
            }
            match (e.account_of(s.account), e.u16_of(s.signer_weight)) {
                (Some(account), Some(weight)) => Ok(SignerEntry {
                    account,
                    weight,
                    tag: e.h256_of(s.wallet_locator),
                }),
                _ => Err(Ter::temMALFORMED),
            }
        })
        .collect()
}

/// Deletes `account`'s signer list, if it has one, and gives back its owner count (one,
/// or 2 + entries for a list from before MultiSignReserve).
pub fn remove_signer_list(sb: &mut Sandbox, account: &AccountId) -> Ter {
    let s = sf();
    let key = keylet::signers(account);
    let Some(list) = sb.peek(&key) else {
        return Ter::tesSUCCESS;
    };
    let count = if list.is_flag(lsf::ONE_OWNER_COUNT) {
        1
    } else {
        signer_entries(&list)
            .map(|e| 2 + e.len() as i32)
            .unwrap_or(1)
    };
    let page = list.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, account, page, &key, false) {
        return Ter::tefBAD_LEDGER;
    }
    release(sb, account, &list, count as u32);
    sb.erase(key);
    Ter::tesSUCCESS
}
