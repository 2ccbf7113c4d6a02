//! The sponsorship counters of AccountRoots and the reserve they imply (rippled's
//! `AccountRootEntry::reserve`, `checkReserve`, and the `SponsorHelpers` that read an
//! object's sponsor): `SponsoredOwnerCount` (objects of the account a sponsor carries),
//! `SponsoringOwnerCount` (objects of others the account carries),
//! `SponsoringAccountCount` (accounts whose base reserve it carries), and an AccountRoot's
//! `Sponsor` (who carries its own base reserve). The three counters are soeDEFAULT: a
//! zero is written as an absent field.

use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::entry_types::{self, Sponsorable};
use crate::ledger::fees::Fees;
use crate::ledger::flags::{lsf, lsf_credential, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// Adds `delta` to the counter `field` of `root`: `tecINTERNAL` when it would leave
/// 0..=u32::MAX (rippled's `applyCountDelta`); zero removes the field.
pub fn add_count(root: &mut StObject, field: Field, delta: i64) -> Result<(), Ter> {
    let next = i64::from(root.u32_of(field).unwrap_or(0)) + delta;
    let next = u32::try_from(next).map_err(|_| Ter::tecINTERNAL)?;
    if next == 0 {
        root.remove(field);
    } else {
        root.set(field, StValue::UInt32(next));
    }
    Ok(())
}

/// Adds `delta` to the counter `field` of `account`'s root in the sandbox.
pub fn add_root_count(
    sb: &mut Sandbox,
    account: &AccountId,
    field: Field,
    delta: i64,
) -> Result<(), Ter> {
    let key = keylet::account(account);
    let mut root = sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    add_count(&mut root, field, delta)?;
    sb.update(key, root);
    Ok(())
}

/// Moves the reserve of `units` owner counts of `owner`'s object from sponsor `from` to
/// sponsor `to` (None: the owner itself): a new sponsor adds to the owner's
/// SponsoredOwnerCount, an ended one takes from it; each sponsor's SponsoringOwnerCount
/// follows. The object's sponsor field is the caller's to write.
pub fn move_sponsor(
    sb: &mut Sandbox,
    owner: &AccountId,
    from: Option<&AccountId>,
    to: Option<&AccountId>,
    units: u32,
) -> Result<(), Ter> {
    let s = sf();
    let n = i64::from(units);
    match (from, to) {
        (None, Some(_)) => add_root_count(sb, owner, s.sponsored_owner_count, n)?,
        (Some(_), None) => add_root_count(sb, owner, s.sponsored_owner_count, -n)?,
        _ => {}
    }
    if let Some(old) = from {
        add_root_count(sb, old, s.sponsoring_owner_count, -n)?;
    }
    if let Some(new) = to {
        add_root_count(sb, new, s.sponsoring_owner_count, n)?;
    }
    Ok(())
}

/// Moves `sponsee`'s account reserve from sponsor `from` to `to` (None: itself): the
/// root's `Sponsor` and each sponsor's SponsoringAccountCount.
pub fn move_account_sponsor(
    sb: &mut Sandbox,
    sponsee: &AccountId,
    from: Option<&AccountId>,
    to: Option<&AccountId>,
) -> Result<(), Ter> {
    let s = sf();
    if let Some(old) = from {
        add_root_count(sb, old, s.sponsoring_account_count, -1)?;
    }
    if let Some(new) = to {
        add_root_count(sb, new, s.sponsoring_account_count, 1)?;
    }
    let key = keylet::account(sponsee);
    let mut root = sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    match to {
        Some(new) => root.set(s.sponsor, StValue::AccountId(*new)),
        None => {
            root.remove(s.sponsor);
        }
    }
    sb.update(key, root);
    Ok(())
}

/// The entry's row's [`Sponsorable`] (`No` for an unknown type).
fn sponsorable(entry: &StObject) -> Sponsorable {
    entry_types::of(entry).map_or(Sponsorable::No, |t| t.sponsor)
}

/// Whether a reserve sponsor can carry the entry (`isLedgerEntrySupportedBySponsorship`).
pub fn supported(entry: &StObject) -> bool {
    sponsorable(entry) != Sponsorable::No
}

/// The owner counts the entry takes (`getLedgerEntryOwnerCount`): an Oracle by its
/// series, a Vault 2, a SignerList 1 with lsfOneOwnerCount (else 2 plus its entries),
/// any other 1.
pub fn entry_units(entry: &StObject) -> u32 {
    let s = sf();
    match entry.u16_of(s.ledger_entry_type) {
        Some(lt::ORACLE) => {
            let pairs = crate::engine::oracle::series(entry).len();
            crate::engine::oracle::reserve_count(pairs).max(0) as u32
        }
        Some(lt::VAULT) => 2,
        Some(lt::SIGNER_LIST) if !entry.is_flag(lsf::ONE_OWNER_COUNT) => {
            let n = match entry.get(s.signer_entries) {
                Some(StValue::Array(a)) => a.len() as u32,
                _ => 0,
            };
            2 + n
        }
        _ => 1,
    }
}

/// The issuer of a trust line's limit field.
fn limit_issuer(line: &StObject, field: Field) -> Option<AccountId> {
    match line.amount_of(field) {
        Some(Amount::Iou { issuer, .. }) => Some(issuer),
        _ => None,
    }
}

/// The side of a trust line whose reserve `account` holds: its sponsor field.
fn line_side(line: &StObject, account: &AccountId) -> Option<Field> {
    let s = sf();
    let sides = [
        (lsf::HIGH_RESERVE, s.high_limit, s.high_sponsor),
        (lsf::LOW_RESERVE, s.low_limit, s.low_sponsor),
    ];
    sides.into_iter().find_map(|(bit, limit, sponsor)| {
        (line.is_flag(bit) && limit_issuer(line, limit).as_ref() == Some(account))
            .then_some(sponsor)
    })
}

/// The account whose reserve a supported entry takes, seen from `account`
/// (`getLedgerEntryOwner`): the account its row names (a Check's Account, an issuance's
/// Issuer); a SignerList's when it is `account`'s; a Credential's Subject once accepted,
/// else its Issuer; a trust line's `account` when its side holds a reserve.
pub fn owner_of(
    view: &dyn ReadView,
    key: &Hash256,
    entry: &StObject,
    account: &AccountId,
) -> Option<AccountId> {
    let s = sf();
    match sponsorable(entry) {
        Sponsorable::No => None,
        Sponsorable::Field(f) => entry.account_of(f.field()),
        Sponsorable::SignerList => {
            let mine = keylet::signers(account);
            (mine == *key && view.read(&mine).is_some()).then_some(*account)
        }
        Sponsorable::Credential if entry.is_flag(lsf_credential::ACCEPTED) => {
            entry.account_of(s.subject)
        }
        Sponsorable::Credential => entry.account_of(s.issuer),
        Sponsorable::TrustLine => line_side(entry, account).map(|_| *account),
    }
}

/// The field naming the entry's reserve sponsor for `owner` (`getLedgerEntrySponsorField`):
/// a trust line's HighSponsor or LowSponsor, any other entry's Sponsor.
pub fn sponsor_field(entry: &StObject, owner: &AccountId) -> Field {
    if entry.u16_of(sf().ledger_entry_type) == Some(lt::RIPPLE_STATE) {
        if let Some(f) = line_side(entry, owner) {
            return f;
        }
    }
    sf().sponsor
}

/// The owner counts sponsors carry for the entry (the sponsorship invariant's view): a
/// trust line one per sponsored side, another entry its units when it has a Sponsor.
/// An AccountRoot's Sponsor carries its account reserve, not an owner count: 0.
pub fn sponsored_units(entry: &StObject) -> i64 {
    let s = sf();
    match entry.u16_of(s.ledger_entry_type) {
        None => 0,
        Some(lt::ACCOUNT_ROOT) => 0,
        Some(lt::RIPPLE_STATE) => [s.high_sponsor, s.low_sponsor]
            .into_iter()
            .filter(|f| entry.account_of(*f).is_some())
            .count() as i64,
        Some(_) if entry.account_of(s.sponsor).is_some() => i64::from(entry_units(entry)),
        Some(_) => 0,
    }
}

/// rippled's `checkReserve` with a sponsor: `account`'s new owner counts (`obj_delta`) or
/// account reserve (`acct_delta`) go to `sponsor`. A Sponsorship of the pair must have
/// that much RemainingOwnerCount left, and the sponsor must hold its reserve with them.
pub fn sponsor_can_carry(
    view: &dyn ReadView,
    fees: &Fees,
    account: &AccountId,
    sponsor: &AccountId,
    obj_delta: u32,
    acct_delta: i64,
) -> Ter {
    let s = sf();
    if let Some(entry) = view.read(&keylet::sponsorship(sponsor, account)) {
        if entry.u32_of(s.remaining_owner_count).unwrap_or(0) < obj_delta {
            return Ter::tecINSUFFICIENT_RESERVE;
        }
    }
    let Some(root) = view.read(&keylet::account(sponsor)) else {
        return Ter::tefINTERNAL;
    };
    let need = fees.reserve_of(&root, i64::from(obj_delta), acct_delta);
    if root.drops_of(s.balance) < need {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    Ter::tesSUCCESS
}
