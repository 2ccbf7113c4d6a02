//! Invariants checked after every transaction, before anything is written (rippled's
//! `InvariantCheck.cpp`, the subset this engine's transactions can break). A violation
//! turns the result into `tecINVARIANT_FAILED`.

use std::collections::HashMap;

mod pseudo_owner;
pub use pseudo_owner::pseudo_account_ownership;

use super::sandbox::{Action, Item};
use crate::ledger::entry_types::{self, Mpt, Reserve, Shape, Xrp};
use crate::ledger::flags::{lsf, lt};
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::{Amount, DROPS_MAX};
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

mod cleanup320;
mod confidential;
mod loan_v11;
mod vault_v11;

/// Which invariant failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Violation {
    /// XRP was created, or destroyed other than by the fee.
    XrpNotConserved,
    /// The fee charged is negative or above the transaction's Fee.
    FeeOutOfBounds,
    /// An AccountRoot balance is negative or above the XRP supply.
    BadXrpBalance,
    /// OwnerCount changes do not match the owned entries created and deleted.
    OwnerCountMismatch,
    /// A trust line in XRP.
    XrpTrustLine,
    /// A channel paid out more than it holds, or its deposit shrank.
    ChannelOverdrawn,
    /// An AccountRoot was deleted (no transaction here deletes accounts).
    AccountDeleted,
    /// An MPT issuance's OutstandingAmount changed by other than what its holders'
    /// MPTAmounts did, or went past MaximumAmount.
    MptNotConserved,
    /// An NFTokenPage empty, over 32 tokens, unsorted, holding a token at or above its key
    /// (except the last page), or linked out of order (rippled `ValidNFTokenPage`).
    BadNFTokenPage,
    /// A book directory root created with an ExchangeRate not its key's quality, or a
    /// page created whose root is gone (rippled `ValidBookDirectory`, fixCleanup3_2_0).
    BadBookDirectory,
    /// ReferenceHolding set on an issuance by other than VaultCreate, or changed; or a
    /// vault pseudo-account's MPToken or trust line deleted by other than VaultDelete
    /// (rippled `ValidMPTIssuance`, fixCleanup3_2_0).
    BadReferenceHolding,
    /// A successful OfferCreate left a malformed hybrid offer, or a domain Payment or
    /// OfferCreate touched another domain's or the open book's offers or pages, or its
    /// domain does not exist (rippled `ValidPermissionedDEX`).
    BadPermissionedDex,
    /// A successful AMMWithdraw or AMMClawback left the pool's balances not all positive
    /// (or all zero), or `sqrt(amount * amount2)` below its LPTokenBalance by more than a
    /// relative 1e-11 (rippled `ValidAMM`, under fixAMMv1_3); or, under fixCleanup3_3_0,
    /// an AMM entry deleted by other than AMMWithdraw, AMMClawback or a successful
    /// AMMDelete, or a successful AMMDelete that left it or deleted it with LP tokens.
    BadAmmPool,
    /// A LoanBroker's CoverAvailable is below what its pseudo-account holds of the vault's
    /// asset, or (fixCleanup3_1_3, but for LoanBrokerDelete) above it (rippled
    /// `ValidLoanBroker`, its cover checks).
    BadLoanBrokerCover,
    /// A PermissionedDomain left with AcceptedCredentials empty, over 10, repeated or out
    /// of order; or, under fixCleanup3_1_3, touched by a failed transaction or a type not
    /// its own, more than one touched, or not written / deleted as its type should
    /// (rippled `ValidPermissionedDomain`).
    BadPermissionedDomain,
    /// The sponsorship counters disagree: SponsoredOwnerCounts, SponsoringOwnerCounts and
    /// the owner counts entries' sponsor fields name moved apart, an account has more
    /// sponsored than owned, SponsoringAccountCounts moved apart from the sponsored
    /// AccountRoots, or a pseudo-account carries a sponsorship field (rippled
    /// `SponsorshipInvariant.cpp`).
    SponsorshipMismatch,
    /// Under fixPseudoAccountOwnership, a pseudo-account's owner directory gained an entry
    /// of a type its kind may not own (rippled `ValidPseudoAccountOwnership`).
    PseudoAccountOwnership,
    /// Under LendingProtocolV1_1, a vault's fixed fields changed, or a closed-ended vault
    /// without both dates in their gap (rippled `ValidVault`, `invariants/vault_v11.rs`).
    BadVault,
    /// A new loan from a closed-ended vault maturing at or after its RedemptionDate, or,
    /// under LendingProtocolV1_1, a loan with a NextPaymentDueDate and no payment left,
    /// negative interest due, or no broker or vault (rippled `ValidLoan`,
    /// `invariants/loan_v11.rs`).
    BadLoan,
    /// A token's confidential balances without the issuer's mirror (or the reverse), or on
    /// an issuance without lsfMPTCanHoldConfidentialBalance; a spending balance changed
    /// without its version; a token with a balance deleted while confidential tokens
    /// circulate; or ConfidentialOutstandingAmount above OutstandingAmount (rippled
    /// `ValidConfidentialMPToken`, `invariants/confidential.rs`).
    BadConfidentialMpt,
}

/// Which AccountRoots a transaction type may delete (rippled `AccountRootsNotDeleted`);
/// the registry row of each type says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootDeletion {
    /// None.
    Never,
    /// Any (AccountDelete).
    Any,
    /// The pseudo-account of the entry it empties: a root with that owner's ID field.
    PseudoOf(PseudoOwner),
}

/// The entries that own a pseudo-account, by the field naming them in its AccountRoot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PseudoOwner {
    /// `AMMID`.
    Amm,
    /// `VaultID`.
    Vault,
    /// `LoanBrokerID`.
    LoanBroker,
}

impl RootDeletion {
    /// True when this rule lets the transaction delete the AccountRoot `root`.
    fn allows(self, root: &StObject) -> bool {
        let s = sf();
        match self {
            RootDeletion::Never => false,
            RootDeletion::Any => true,
            RootDeletion::PseudoOf(owner) => {
                let field = match owner {
                    PseudoOwner::Amm => s.amm_id,
                    PseudoOwner::Vault => s.vault_id,
                    PseudoOwner::LoanBroker => s.loan_broker_id,
                };
                root.h256_of(field).is_some()
            }
        }
    }
}

/// What rippled's `ValidPermissionedDEX` checks after a type succeeds; the registry row of
/// each type says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DexCheck {
    /// Nothing (the type places no offer and crosses no book).
    None,
    /// A DomainID names a domain that exists, and only its offers and book pages changed
    /// (Payment).
    Domain,
    /// As `Domain`, and no malformed hybrid offer (OfferCreate).
    DomainAndHybrid,
}

/// The XRP the entry holds (its row says which fields).
fn xrp_held(o: &StObject) -> i64 {
    let s = sf();
    match entry_types::of(o).map(|t| t.xrp) {
        Some(Xrp::Balance) => o.drops_of(s.balance),
        Some(Xrp::Unclaimed) => o.drops_of(s.amount) - o.drops_of(s.balance),
        Some(Xrp::Amount) => o.drops_of(s.amount),
        Some(Xrp::FeeAmount) => o.drops_of(s.fee_amount),
        Some(Xrp::None) | None => 0,
    }
}

/// Owned-entry counts an entry contributes to each account's OwnerCount, as its row's
/// [`Reserve`] says. A SignerList names no owner: only its owner's transactions change
/// it, so it counts for `sender`.
fn owned_by(
    key: &Hash256,
    o: &StObject,
    sender: &AccountId,
    out: &mut HashMap<AccountId, i64>,
    sign: i64,
) {
    let s = sf();
    let Some(row) = entry_types::of(o) else {
        return;
    };
    let mut add = |a: AccountId, n: i64| *out.entry(a).or_default() += sign * n;
    match row.reserve {
        Reserve::None => {}
        Reserve::Field(field, n) => {
            if let Some(a) = o.account_of(field.field()) {
                add(a, n);
            }
        }
        Reserve::KeyPrefix => {
            let mut a = [0u8; 20];
            a.copy_from_slice(&key.0[..20]);
            add(AccountId(a), 1);
        }
        Reserve::Oracle => {
            if let Some(a) = o.account_of(s.owner) {
                let pairs = crate::engine::oracle::series(o).len();
                add(a, i64::from(crate::engine::oracle::reserve_count(pairs)));
            }
        }
        Reserve::SignerList => {
            let count = if o.is_flag(lsf::ONE_OWNER_COUNT) {
                1
            } else {
                crate::engine::account::signer_entries(o)
                    .map(|e| 2 + e.len() as i64)
                    .unwrap_or(1)
            };
            add(*sender, count);
        }
        Reserve::TrustLine => {
            let flags = o.flags();
            for (field, bit) in [
                (s.low_limit, lsf::LOW_RESERVE),
                (s.high_limit, lsf::HIGH_RESERVE),
            ] {
                if flags & bit != 0 {
                    if let Some(Amount::Iou { issuer, .. }) = o.amount_of(field) {
                        add(issuer, 1);
                    }
                }
            }
        }
        Reserve::Credential => {
            let owner = if o.is_flag(crate::ledger::flags::lsf_credential::ACCEPTED) {
                s.subject
            } else {
                s.issuer
            };
            if let Some(a) = o.account_of(owner) {
                add(a, 1);
            }
        }
    }
}

/// rippled `ValidNFTokenPage`: 1 to 32 tokens in `compareTokens` order, each below the
/// page's low 96 bits unless it is the last page, links to lower and higher pages.
fn valid_nft_page(key: &Hash256, page: &StObject) -> bool {
    use crate::engine::nft::{compare_tokens, low96, page_tokens, TOKENS_PER_PAGE_MAX};
    let s = sf();
    let ids: Vec<Hash256> = page_tokens(page)
        .iter()
        .filter_map(|t| t.h256_of(s.nftoken_id))
        .collect();
    let last = low96(key).iter().all(|b| *b == 0xFF);
    !ids.is_empty()
        && ids.len() <= TOKENS_PER_PAGE_MAX
        && ids.windows(2).all(|w| compare_tokens(&w[0], &w[1]).is_lt())
        && (last || ids.iter().all(|id| low96(id) < low96(key)))
        && page.h256_of(s.previous_page_min).is_none_or(|p| p < *key)
        && page.h256_of(s.next_page_min).is_none_or(|n| n > *key)
}

/// Checks the change set of one transaction of `sender` that charged `fee_drops` of a
/// declared `fee_max_drops`; `roots` are the AccountRoots its type may delete.
pub fn check(
    items: &std::collections::BTreeMap<Hash256, Item>,
    fee_drops: i64,
    fee_max_drops: i64,
    sender: &AccountId,
    roots: RootDeletion,
) -> Result<(), Violation> {
    if fee_drops < 0 || fee_drops > fee_max_drops || fee_drops as u64 > DROPS_MAX {
        return Err(Violation::FeeOutOfBounds);
    }
    let s = sf();
    let mut xrp_delta: i128 = 0;
    let mut owned: HashMap<AccountId, i64> = HashMap::new();
    let mut counts: HashMap<AccountId, i64> = HashMap::new();
    for (key, item) in items.iter() {
        let before = item.orig.as_deref();
        let after = match item.action {
            Action::Erase => None,
            _ => Some(&item.cur),
        };
        if let Some(b) = before {
            xrp_delta -= xrp_held(b) as i128;
            owned_by(key, b, sender, &mut owned, -1);
        }
        if let Some(a) = after {
            xrp_delta += xrp_held(a) as i128;
            owned_by(key, a, sender, &mut owned, 1);
        }
        for o in before.iter().copied().chain(after) {
            entry_shape(key, o)?;
        }
        if let (Some(b), Some(a)) = (before, after) {
            if shape_of(b) == Shape::Channel
                && (a.drops_of(s.amount) < b.drops_of(s.amount)
                    || a.drops_of(s.balance) < b.drops_of(s.balance))
            {
                return Err(Violation::ChannelOverdrawn);
            }
        }
        let is_root = |o: Option<&StObject>| {
            o.is_some_and(|o| o.u16_of(s.ledger_entry_type) == Some(lt::ACCOUNT_ROOT))
        };
        // rippled's AccountRootsNotDeleted: AccountDelete deletes its account; the last
        // AMMWithdraw, AMMDelete and AMMClawback of an AMM, VaultDelete and
        // LoanBrokerDelete delete their pseudo-account.
        if is_root(before) && after.is_none() && !before.is_some_and(|b| roots.allows(b)) {
            return Err(Violation::AccountDeleted);
        }
        if is_root(before) || is_root(after) {
            let acct = before
                .or(after)
                .and_then(|o| o.account_of(s.account))
                .unwrap_or_default();
            let oc = |o: Option<&StObject>| o.and_then(|o| o.u32_of(s.owner_count)).unwrap_or(0);
            *counts.entry(acct).or_default() += oc(after) as i64 - oc(before) as i64;
        }
    }
    if xrp_delta != -(fee_drops as i128) {
        return Err(Violation::XrpNotConserved);
    }
    check_mpt(items)?;
    if !super::sponsor::invariant::holds(items) {
        return Err(Violation::SponsorshipMismatch);
    }
    for (acct, delta) in owned.iter().filter(|(_, d)| **d != 0) {
        if counts.get(acct).copied().unwrap_or(0) != *delta {
            return Err(Violation::OwnerCountMismatch);
        }
    }
    for (acct, delta) in counts.iter().filter(|(_, d)| **d != 0) {
        if owned.get(acct).copied().unwrap_or(0) != *delta {
            return Err(Violation::OwnerCountMismatch);
        }
    }
    Ok(())
}

fn shape_of(o: &StObject) -> Shape {
    entry_types::of(o).map_or(Shape::None, |t| t.shape)
}

/// One entry's own shape, as its row's [`Shape`] says: an XRP balance in range, no XRP on
/// a trust line, a well-formed NFTokenPage, a channel holding no more than its amount.
fn entry_shape(key: &Hash256, o: &StObject) -> Result<(), Violation> {
    let s = sf();
    match shape_of(o) {
        Shape::XrpBalance => {
            let bal = o.amount_of(s.balance);
            match bal {
                Some(Amount::Xrp(d)) if (0..=DROPS_MAX as i64).contains(&d) => {}
                _ => return Err(Violation::BadXrpBalance),
            }
        }
        Shape::NoXrp => {
            for f in [s.balance, s.low_limit, s.high_limit] {
                match o.amount_of(f) {
                    Some(Amount::Iou { currency, .. }) if !currency.is_xrp() => {}
                    _ => return Err(Violation::XrpTrustLine),
                }
            }
        }
        Shape::NFTokenPage if !valid_nft_page(key, o) => {
            return Err(Violation::BadNFTokenPage);
        }
        Shape::Channel => {
            let amt = o.drops_of(s.amount);
            let bal = o.drops_of(s.balance);
            if bal < 0 || amt < 0 || bal > amt {
                return Err(Violation::ChannelOverdrawn);
            }
        }
        Shape::NFTokenPage | Shape::None => {}
    }
    Ok(())
}

/// For each issuance the change set touches, OutstandingAmount less the
/// ConfidentialOutstandingAmount moves exactly as the sum of its holders' MPTAmounts and
/// LockedAmounts does (so the public balances and the confidential total make it), and
/// stays within MaximumAmount; the issuance's LockedAmount stays within it. A created or deleted entry counts as zero on its missing side.
fn check_mpt(items: &std::collections::BTreeMap<Hash256, Item>) -> Result<(), Violation> {
    let s = sf();
    let mut delta: HashMap<Vec<u8>, i128> = HashMap::new();
    for (key, item) in items {
        let after = match item.action {
            Action::Erase => None,
            _ => Some(&item.cur),
        };
        for (o, sign) in [(item.orig.as_deref(), -1i128), (after, 1)] {
            let Some(o) = o else { continue };
            match entry_types::of(o).map_or(Mpt::None, |t| t.mpt) {
                Mpt::Holder => {
                    let Some(StValue::Fixed(id)) = o.get(s.mpt_issuance_id) else {
                        continue;
                    };
                    // TokenEscrow: what a holder has locked in escrows is still held.
                    let v = i128::from(o.u64_of(s.mpt_amount).unwrap_or(0))
                        + i128::from(o.u64_of(s.locked_amount).unwrap_or(0));
                    *delta.entry(id.clone()).or_default() += sign * v;
                }
                Mpt::Issuance => {
                    let (Some(issuer), Some(seq)) = (o.account_of(s.issuer), o.u32_of(s.sequence))
                    else {
                        continue;
                    };
                    let id = crate::protocol::mpt::MptId::new(seq, &issuer);
                    if crate::ledger::keylet::mpt_issuance(&id) != *key {
                        continue;
                    }
                    let out = o.u64_of(s.outstanding_amount).unwrap_or(0);
                    let confidential = o.u64_of(s.confidential_outstanding_amount).unwrap_or(0);
                    let max = o
                        .u64_of(s.maximum_amount)
                        .unwrap_or(crate::protocol::mpt::MPT_AMOUNT_MAX);
                    let locked = o.u64_of(s.locked_amount).unwrap_or(0);
                    if sign > 0 && (out > max || locked > out) {
                        return Err(Violation::MptNotConserved);
                    }
                    let public = i128::from(out) - i128::from(confidential);
                    *delta.entry(id.0.to_vec()).or_default() -= sign * public;
                }
                Mpt::None => {}
            }
        }
    }
    // Holders' balances only move with their issuance's OutstandingAmount (an issuance
    // destroyed earlier leaves empty tokens behind, which move nothing).
    if delta.values().any(|d| *d != 0) {
        return Err(Violation::MptNotConserved);
    }
    Ok(())
}

/// rippled `ValidPermissionedDEX`, after a successful transaction of a type its row gives a
/// [`DexCheck`] (Payment, OfferCreate): no malformed hybrid offer (`DomainAndHybrid`),
/// and for one carrying a DomainID, the domain exists and every offer and book page it
/// wrote or deleted is that domain's (under fixCleanup3_2_0 it may delete open-book
/// offers, as rippled's develop `regularOffers_` has it; under fixCleanup3_4_0 a deleted
/// entry is not looked at, so a domain transaction may delete another domain's offers and
/// pages). Every transaction passes here, so it first runs fixCleanup3_2_0's invariants
/// (`invariants/cleanup320.rs`).
pub fn permissioned_dex(
    sb: &super::sandbox::Sandbox,
    tx: &StObject,
    ter: super::ter::Ter,
    dex: DexCheck,
) -> Result<(), Violation> {
    use crate::ledger::flags::lsf_offer;
    use crate::ledger::view::ReadView;
    cleanup320::check(sb, tx, ter)?; // fixCleanup3_2_0's invariants, whatever `dex`.
    vault_v11::check(sb)?; // LendingProtocolV1_1's vault rules, whatever `dex`.
    loan_v11::check(sb)?; // and its loan rules.
    confidential::check(sb, ter)?; // ConfidentialTransfer's token rules.
    let s = sf();
    if dex == DexCheck::None || ter != super::ter::Ter::tesSUCCESS {
        return Ok(());
    }
    let mut domains = std::collections::BTreeSet::new();
    let mut regular_offers = false;
    let mut bad_hybrid = false;
    let fix313 = sb.info().rules.enabled(Feature::FixCleanup3_1_3);
    // fixCleanup3_2_0: only an open-book offer written (not one deleted) is out of bounds.
    let deleted_ok = sb.info().rules.enabled(Feature::FixCleanup3_2_0);
    // fixCleanup3_4_0: a deleted entry is skipped (rippled's `visitEntry` without `after`).
    let skip_deleted = sb.info().rules.enabled(Feature::FixCleanup3_4_0);
    for item in sb.items().values() {
        if skip_deleted && item.action == Action::Erase {
            continue;
        }
        let e = &item.cur;
        match e.u16_of(s.ledger_entry_type) {
            Some(lt::DIR_NODE) => domains.extend(e.h256_of(s.domain_id)),
            Some(lt::OFFER) => {
                match e.h256_of(s.domain_id) {
                    Some(d) => {
                        domains.insert(d);
                    }
                    None => {
                        let erased = item.action == Action::Erase;
                        regular_offers |= !(deleted_ok && erased);
                    }
                }
                let books = match e.get(s.additional_books) {
                    Some(StValue::Array(a)) => Some(a.len()),
                    _ => None,
                };
                // fixCleanup3_1_3: a hybrid offer lists exactly one additional book;
                // before it, an empty list passed.
                let bad_books = if fix313 {
                    books != Some(1)
                } else {
                    books.is_none_or(|n| n > 1)
                };
                if e.is_flag(lsf_offer::HYBRID) && (e.h256_of(s.domain_id).is_none() || bad_books) {
                    bad_hybrid = true;
                }
            }
            _ => {}
        }
    }
    if dex == DexCheck::DomainAndHybrid && bad_hybrid {
        return Err(Violation::BadPermissionedDex);
    }
    let Some(domain) = tx.h256_of(s.domain_id) else {
        return Ok(());
    };
    let exists = sb
        .read(&domain)
        .is_some_and(|d| d.u16_of(s.ledger_entry_type) == Some(lt::PERMISSIONED_DOMAIN));
    if !exists || domains.iter().any(|d| *d != domain) || regular_offers {
        return Err(Violation::BadPermissionedDex);
    }
    Ok(())
}

/// What a transaction type may do to PermissionedDomain entries (rippled
/// `ValidPermissionedDomain`); the registry row of each type says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DomainWrite {
    /// Nothing.
    None,
    /// Create or modify one (PermissionedDomainSet).
    Set,
    /// Delete one (PermissionedDomainDelete).
    Delete,
}

/// One PermissionedDomain a transaction wrote or deleted, as `ValidPermissionedDomain`
/// sees it: deleted, and its AcceptedCredentials well formed (1 to 10, no two alike, in
/// the order of rippled's sorted set).
struct DomainStatus {
    deleted: bool,
    well_formed: bool,
}

/// Most credentials a PermissionedDomain accepts (rippled
/// `maxPermissionedDomainCredentialsArraySize`).
const DOMAIN_CREDENTIALS_MAX: usize = 10;

fn domain_status(item: &Item) -> DomainStatus {
    use super::credential::{array_of, pairs, sorted};
    let arr = array_of(&item.cur, sf().accepted_credentials).unwrap_or_default();
    let listed = pairs(arr);
    let ordered = sorted(listed.clone());
    let well_formed = !arr.is_empty()
        && arr.len() <= DOMAIN_CREDENTIALS_MAX
        && ordered.is_some_and(|o| o == listed);
    DomainStatus {
        deleted: item.action == Action::Erase,
        well_formed,
    }
}

/// rippled `ValidPermissionedDomain`. Before fixCleanup3_1_3 only a successful
/// PermissionedDomainSet is judged: the domain it wrote is well formed. With it, a failed
/// transaction touches no domain, none touches more than one, PermissionedDomainSet
/// writes (not deletes) a well-formed one, PermissionedDomainDelete deletes one, and no
/// other type touches any.
pub fn permissioned_domain(
    sb: &super::sandbox::Sandbox,
    ter: super::ter::Ter,
    write: DomainWrite,
) -> Result<(), Violation> {
    let statuses: Vec<DomainStatus> = sb
        .items()
        .values()
        .filter(|i| i.cur.u16_of(sf().ledger_entry_type) == Some(lt::PERMISSIONED_DOMAIN))
        .map(domain_status)
        .collect();
    let success = ter == super::ter::Ter::tesSUCCESS;
    let ok = if !sb.info().rules.enabled(Feature::FixCleanup3_1_3) {
        write != DomainWrite::Set || !success || statuses.first().is_none_or(|s| s.well_formed)
    } else if !success || statuses.len() > 1 {
        statuses.is_empty()
    } else {
        match (write, statuses.first()) {
            (DomainWrite::Set, Some(s)) => !s.deleted && s.well_formed,
            (DomainWrite::Delete, Some(s)) => s.deleted,
            (DomainWrite::None, None) => true,
            _ => false,
        }
    };
    ok.then_some(()).ok_or(Violation::BadPermissionedDomain)
}

/// rippled `ValidLoanBroker`'s cover checks: every LoanBroker the transaction wrote or
/// deleted, and every broker whose pseudo-account's trust line or MPToken it touched,
/// has CoverAvailable no less than the pseudo-account holds of its vault's asset (frozen
/// or not); under fixCleanup3_1_3 no more either, except in a LoanBrokerDelete (which
/// empties the pseudo-account and leaves CoverAvailable as it was).
pub fn loan_broker_cover(
    sb: &super::sandbox::Sandbox,
    roots: RootDeletion,
) -> Result<(), Violation> {
    use crate::ledger::view::ReadView;
    let s = sf();
    let mut brokers: std::collections::BTreeMap<Hash256, Option<StObject>> = Default::default();
    let broker_of = |a: &AccountId| {
        sb.read(&crate::ledger::keylet::account(a))
            .and_then(|r| r.h256_of(s.loan_broker_id))
    };
    for (key, item) in sb.items() {
        let entry = item.orig.as_deref().unwrap_or(&item.cur);
        match entry.u16_of(s.ledger_entry_type) {
            Some(lt::LOAN_BROKER) => {
                brokers.insert(*key, Some(item.cur.clone()));
            }
            Some(lt::RIPPLE_STATE) => {
                for f in [s.low_limit, s.high_limit] {
                    let end = entry.amount_of(f).map(|a| a.issue().issuer);
                    if let Some(b) = end.as_ref().and_then(broker_of) {
                        brokers.entry(b).or_insert(None);
                    }
                }
            }
            Some(lt::MPTOKEN) => {
                if let Some(b) = entry.account_of(s.account).as_ref().and_then(broker_of) {
                    brokers.entry(b).or_insert(None);
                }
            }
            _ => {}
        }
    }
    let fix = sb.info().rules.enabled(Feature::FixCleanup3_1_3);
    // The type that deletes a broker's pseudo-account is LoanBrokerDelete.
    let deleting = roots == RootDeletion::PseudoOf(PseudoOwner::LoanBroker);
    for (key, written) in brokers {
        let Some(after) = written.or_else(|| sb.read(&key).map(|b| (*b).clone())) else {
            continue;
        };
        let vault = after
            .h256_of(s.vault_id)
            .and_then(|v| super::vault::read_vault(sb, &v));
        let (Some(asset), Some(pseudo)) = (
            vault.as_ref().and_then(super::vault::asset_of),
            after.account_of(s.account),
        ) else {
            continue;
        };
        let held = match &asset {
            super::vault::VaultAsset::Token(i) => {
                super::funds::account_holds(sb, &pseudo, i, false).to_number()
            }
            super::vault::VaultAsset::Mpt(id) => {
                let units = super::mpt::holds(sb, &pseudo, id, false);
                crate::protocol::number::Number::from_i64(i64::try_from(units).unwrap_or(i64::MAX))
            }
        };
        let cover = super::vault::number_of(&after, s.cover_available);
        if cover < held || (fix && !deleting && cover > held) {
            return Err(Violation::BadLoanBrokerCover);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::entry::{new_account_root, new_entry, with_threading};
    use crate::engine::sandbox::Sandbox;
    use crate::ledger::fees::Fees;
    use crate::ledger::keylet;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};

    fn view_with(accounts: &[(AccountId, i64)]) -> StateView {
        view_ruled(accounts, Default::default())
    }

    /// `view_with` under `rules`.
    fn view_ruled(accounts: &[(AccountId, i64)], rules: crate::ledger::rules::Rules) -> StateView {
        let state = Arc::new(State::new());
        state.commit(
            stamp(1, 0),
            accounts.iter().map(|(a, d)| {
                (
                    keylet::account(a),
                    Some(Arc::new(new_account_root(a, *d, 1))),
                )
            }),
        );
        let info = ViewInfo {
            seq: 2,
            parent_close_time: 0,
            fees: Fees::default(),
            open: true,
            parent_hash: crate::protocol::types::Hash256::ZERO,
            rules,
        };
        StateView::new(state, stamp(1, 0), info)
    }

    fn set_balance(sb: &mut Sandbox, a: &AccountId, d: i64) {
        let k = keylet::account(a);
        let mut r = sb.peek(&k).unwrap();
        r.set(sf().balance, StValue::Amount(Amount::Xrp(d)));
        sb.update(k, r);
    }

    #[test]
    fn mpt_outstanding_moves_with_the_holders() {
        use crate::protocol::mpt::MptId;
        let (a, b) = (AccountId([1; 20]), AccountId([2; 20]));
        let view = view_with(&[(a, 1000), (b, 1000)]);
        let id = MptId::new(7, &a);
        let mut iss = with_threading(new_entry(lt::MPTOKEN_ISSUANCE));
        iss.set(sf().issuer, StValue::AccountId(a));
        iss.set(sf().sequence, StValue::UInt32(7));
        iss.set(sf().outstanding_amount, StValue::UInt64(0));
        let mut tok = with_threading(new_entry(lt::MPTOKEN));
        tok.set(sf().account, StValue::AccountId(b));
        tok.set(sf().mpt_issuance_id, StValue::Fixed(id.0.to_vec()));
        tok.set(sf().mpt_amount, StValue::UInt64(5));
        let owners = |sb: &mut Sandbox| {
            for acct in [&a, &b] {
                let k = keylet::account(acct);
                let mut r = sb.peek(&k).unwrap();
                r.set(sf().owner_count, StValue::UInt32(1));
                sb.update(k, r);
            }
        };
        // A holder balance out of nowhere.
        let mut sb = Sandbox::new(&view);
        owners(&mut sb);
        sb.insert(keylet::mpt_issuance(&id), iss.clone());
        sb.insert(keylet::mptoken(&id, &b), tok.clone());
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::MptNotConserved)
        );
        // Minted: OutstandingAmount moves with it.
        iss.set(sf().outstanding_amount, StValue::UInt64(5));
        sb.insert(keylet::mpt_issuance(&id), iss.clone());
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Ok(())
        );
        // Past MaximumAmount.
        iss.set(sf().maximum_amount, StValue::UInt64(4));
        sb.insert(keylet::mpt_issuance(&id), iss);
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::MptNotConserved)
        );
    }

    #[test]
    fn nft_pages_must_be_well_formed() {
        let owner = AccountId([4; 20]);
        let token = |low: u8| {
            let mut t = StObject::new();
            let mut id = [0u8; 32];
            id[31] = low;
            t.set(sf().nftoken_id, StValue::Hash256(Hash256(id)));
            (sf().nftoken, t)
        };
        let page = |tokens: Vec<(crate::protocol::definitions::Field, StObject)>| {
            let mut p = with_threading(new_entry(lt::NFTOKEN_PAGE));
            p.set(sf().nftokens, StValue::Array(tokens));
            p
        };
        let mid = keylet::nftpage(&owner, &Hash256([0x80; 32]));
        let last = keylet::nftpage_max(&owner);
        assert!(valid_nft_page(&mid, &page(vec![token(1), token(2)])));
        assert!(
            !valid_nft_page(&mid, &page(vec![token(2), token(1)])),
            "unsorted"
        );
        assert!(!valid_nft_page(&mid, &page(vec![])), "empty");
        assert!(
            !valid_nft_page(&mid, &page((0..33).map(token).collect())),
            "33 tokens"
        );
        let low = keylet::nftpage(&owner, &Hash256([0; 32]));
        assert!(
            !valid_nft_page(&low, &page(vec![token(1)])),
            "token above its page"
        );
        assert!(valid_nft_page(&last, &page(vec![token(0xFF)])));
        let mut linked = page(vec![token(1)]);
        linked.set(sf().next_page_min, StValue::Hash256(low));
        assert!(!valid_nft_page(&mid, &linked), "next page below");
    }

    #[test]
    fn catches_each_violation() {
        let (a, b) = (AccountId([1; 20]), AccountId([2; 20]));
        let view = view_with(&[(a, 1000), (b, 1000)]);

        // A fee of 10 burnt: fine.
        let mut sb = Sandbox::new(&view);
        set_balance(&mut sb, &a, 990);
        assert_eq!(
            check(sb.items(), 10, 10, &AccountId::ZERO, RootDeletion::Never),
            Ok(())
        );
        // XRP created.
        set_balance(&mut sb, &b, 1001);
        assert_eq!(
            check(sb.items(), 10, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::XrpNotConserved)
        );
        // Fee above the declared fee.
        let mut sb = Sandbox::new(&view);
        set_balance(&mut sb, &a, 980);
        assert_eq!(
            check(sb.items(), 20, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::FeeOutOfBounds)
        );
        // Negative balance.
        let mut sb = Sandbox::new(&view);
        set_balance(&mut sb, &a, -10);
        set_balance(&mut sb, &b, 2000);
        assert_eq!(
            check(sb.items(), 10, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::BadXrpBalance)
        );
        // Deleting an account.
        let mut sb = Sandbox::new(&view);
        sb.erase(keylet::account(&a));
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::AccountDeleted)
        );
        // A channel (owner count not charged) and an overdrawn channel.
        let mut sb = Sandbox::new(&view);
        let mut chan = with_threading(new_entry(lt::PAYCHAN));
        chan.set(sf().account, StValue::AccountId(a));
        chan.set(sf().destination, StValue::AccountId(b));
        chan.set(sf().amount, StValue::Amount(Amount::Xrp(100)));
        chan.set(sf().balance, StValue::Amount(Amount::Xrp(0)));
        set_balance(&mut sb, &a, 900);
        sb.insert(keylet::pay_channel(&a, &b, 1), chan.clone());
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::OwnerCountMismatch)
        );
        chan.set(sf().balance, StValue::Amount(Amount::Xrp(101)));
        sb.insert(keylet::pay_channel(&a, &b, 1), chan);
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::ChannelOverdrawn)
        );
        // A trust line in XRP.
        let mut sb = Sandbox::new(&view);
        let mut line = with_threading(new_entry(lt::RIPPLE_STATE));
        line.set(sf().balance, StValue::Amount(Amount::Xrp(0)));
        line.set(sf().low_limit, StValue::Amount(Amount::Xrp(0)));
        line.set(sf().high_limit, StValue::Amount(Amount::Xrp(0)));
        sb.insert(Hash256([3; 32]), line);
        assert_eq!(
            check(sb.items(), 0, 10, &AccountId::ZERO, RootDeletion::Never),
            Err(Violation::XrpTrustLine)
        );
    }

    /// Sets `field` of `who`'s root to `n` (absent at 0).
    fn set_count(
        sb: &mut Sandbox,
        who: &AccountId,
        field: crate::protocol::definitions::Field,
        n: u32,
    ) {
        let k = keylet::account(who);
        let mut r = sb.peek(&k).unwrap();
        r.set(field, StValue::UInt32(n));
        sb.update(k, r);
    }

    #[test]
    fn sponsorship_counters_move_together() {
        let (a, sp, c) = (AccountId([1; 20]), AccountId([2; 20]), AccountId([3; 20]));
        let view = view_with(&[(a, 1000), (sp, 1000), (c, 1000)]);
        let s = sf();
        let ok = |sb: &Sandbox| check(sb.items(), 0, 10, &a, RootDeletion::Never);
        let bad = Err(Violation::SponsorshipMismatch);
        // A check of a's taken over by sp: a's SponsoredOwnerCount, sp's
        // SponsoringOwnerCount and the check's Sponsor move together.
        let mut check_entry = with_threading(new_entry(lt::CHECK));
        check_entry.set(s.account, StValue::AccountId(a));
        check_entry.set(s.sponsor, StValue::AccountId(sp));
        let key = keylet::check(&a, 1);
        let mut sb = Sandbox::new(&view);
        set_count(&mut sb, &a, s.owner_count, 1);
        sb.insert(key, check_entry.clone());
        set_count(&mut sb, &a, s.sponsored_owner_count, 1);
        set_count(&mut sb, &sp, s.sponsoring_owner_count, 1);
        assert_eq!(ok(&sb), Ok(()));
        // A forged write: the sponsored count moves without the sponsoring one.
        set_count(&mut sb, &sp, s.sponsoring_owner_count, 0);
        assert_eq!(ok(&sb), bad);
        // Or without the object's Sponsor.
        let mut sb = Sandbox::new(&view);
        set_count(&mut sb, &a, s.owner_count, 1);
        let mut plain = check_entry.clone();
        plain.remove(s.sponsor);
        sb.insert(key, plain);
        set_count(&mut sb, &a, s.sponsored_owner_count, 1);
        set_count(&mut sb, &sp, s.sponsoring_owner_count, 1);
        assert_eq!(ok(&sb), bad);
        // More sponsored than owned.
        let mut sb = Sandbox::new(&view);
        set_count(&mut sb, &a, s.sponsored_owner_count, 1);
        set_count(&mut sb, &sp, s.sponsoring_owner_count, 1);
        let mut line = with_threading(new_entry(lt::RIPPLE_STATE));
        line.set(s.low_sponsor, StValue::AccountId(sp));
        for f in [s.balance, s.low_limit, s.high_limit] {
            let v = Amount::Iou {
                value: crate::protocol::amount::IouValue::ZERO,
                currency: crate::protocol::types::Currency::from_json_str("USD").unwrap(),
                issuer: c,
            };
            line.set(f, StValue::Amount(v));
        }
        sb.insert(Hash256([4; 32]), line);
        assert_eq!(ok(&sb), bad);
        // An account sponsorship without its count, then with it.
        let mut sb = Sandbox::new(&view);
        let k = keylet::account(&c);
        let mut root = sb.peek(&k).unwrap();
        root.set(s.sponsor, StValue::AccountId(sp));
        sb.update(k, root);
        assert_eq!(ok(&sb), bad);
        set_count(&mut sb, &sp, s.sponsoring_account_count, 1);
        assert_eq!(ok(&sb), Ok(()));
        // A pseudo-account sponsoring a check, every count agreeing: still refused.
        let mut sb = Sandbox::new(&view);
        let k = keylet::account(&c);
        let mut root = sb.peek(&k).unwrap();
        root.set(s.vault_id, StValue::Hash256(Hash256([9; 32])));
        sb.update(k, root);
        set_count(&mut sb, &c, s.sponsoring_owner_count, 1);
        let mut by_pseudo = check_entry;
        by_pseudo.set(s.sponsor, StValue::AccountId(c));
        sb.insert(key, by_pseudo);
        set_count(&mut sb, &a, s.owner_count, 1);
        set_count(&mut sb, &a, s.sponsored_owner_count, 1);
        assert_eq!(ok(&sb), bad);
    }

    #[test]
    fn a_type_deletes_only_the_roots_its_row_allows() {
        let plain = new_account_root(&AccountId([1; 20]), 0, 1);
        let mut amm_root = plain.clone();
        amm_root.set(sf().amm_id, StValue::Hash256(Hash256([2; 32])));
        let amm = RootDeletion::PseudoOf(PseudoOwner::Amm);
        let vault = RootDeletion::PseudoOf(PseudoOwner::Vault);
        assert!(!RootDeletion::Never.allows(&plain));
        assert!(!RootDeletion::Never.allows(&amm_root));
        assert!(RootDeletion::Any.allows(&plain));
        assert!(amm.allows(&amm_root));
        assert!(!amm.allows(&plain));
        assert!(!vault.allows(&amm_root));
    }

    #[test]
    fn permissioned_dex_offers_stay_in_their_domain() {
        use crate::engine::ter::Ter;
        use crate::engine::tx_type::TxType;
        use crate::ledger::flags::lsf_offer;
        let owner = AccountId([3; 20]);
        let view = view_with(&[(owner, 1000)]);
        let (domain, other) = (Hash256([0xD0; 32]), Hash256([0xD1; 32]));
        let tx = |t: TxType, d: Option<Hash256>| {
            let mut o = StObject::new();
            o.set(sf().transaction_type, StValue::UInt16(t as u16));
            if let Some(d) = d {
                o.set(sf().domain_id, StValue::Hash256(d));
            }
            o
        };
        let offer = |d: Option<Hash256>, flags: u32| {
            let mut o = new_entry(lt::OFFER);
            o.set(sf().flags, StValue::UInt32(flags));
            if let Some(d) = d {
                o.set(sf().domain_id, StValue::Hash256(d));
            }
            o
        };
        let mut pd = new_entry(lt::PERMISSIONED_DOMAIN);
        pd.set(sf().owner, StValue::AccountId(owner));
        let with = |o: StObject, domain_exists: bool| {
            let mut sb = Sandbox::new(&view);
            if domain_exists {
                sb.insert(domain, pd.clone());
            }
            sb.insert(Hash256([9; 32]), o);
            sb
        };
        let pay = tx(TxType::Payment, Some(domain));
        let ok = Ter::tesSUCCESS;
        assert_eq!(
            permissioned_dex(
                &with(offer(Some(domain), 0), true),
                &pay,
                ok,
                DexCheck::Domain
            ),
            Ok(())
        );
        let bad = Err(Violation::BadPermissionedDex);
        // Another domain's offer, an open one, or no such domain.
        assert_eq!(
            permissioned_dex(
                &with(offer(Some(other), 0), true),
                &pay,
                ok,
                DexCheck::Domain
            ),
            bad
        );
        assert_eq!(
            permissioned_dex(&with(offer(None, 0), true), &pay, ok, DexCheck::Domain),
            bad
        );
        assert_eq!(
            permissioned_dex(
                &with(offer(Some(domain), 0), false),
                &pay,
                ok,
                DexCheck::Domain
            ),
            bad
        );
        // A failed transaction, or one without a domain, is not judged.
        let tec = Ter::tecPATH_PARTIAL;
        assert_eq!(
            permissioned_dex(&with(offer(None, 0), true), &pay, tec, DexCheck::Domain),
            Ok(())
        );
        let open = tx(TxType::Payment, None);
        assert_eq!(
            permissioned_dex(&with(offer(None, 0), true), &open, ok, DexCheck::Domain),
            Ok(())
        );
        // A hybrid offer without its additional book, from an OfferCreate.
        let create = tx(TxType::OfferCreate, None);
        let hybrid = offer(Some(domain), lsf_offer::HYBRID);
        assert_eq!(
            permissioned_dex(
                &with(hybrid.clone(), true),
                &create,
                ok,
                DexCheck::DomainAndHybrid
            ),
            bad
        );
        // A type the check does not concern, whatever it wrote.
        let none = DexCheck::None;
        assert_eq!(
            permissioned_dex(&with(hybrid, true), &create, ok, none),
            Ok(())
        );
    }

    /// Rules with fixCleanup3_1_3 on or off, the rest as ledgerd's rule book.
    fn rules_313(on: bool) -> crate::ledger::rules::Rules {
        use crate::protocol::features::Feature;
        crate::ledger::rules::Rules::default_with(Feature::FixCleanup3_1_3, on)
    }

    /// rippled `ValidPermissionedDomain`, both ways of fixCleanup3_1_3: before it only a
    /// successful PermissionedDomainSet's domain is judged (well formed); with it also
    /// what failed transactions and other types touch, and what Set and Delete do.
    #[test]
    fn permissioned_domains_are_judged_for_every_type_only_with_fix_cleanup_3_1_3() {
        use crate::engine::credential::set_value;
        use crate::engine::ter::Ter;
        let owner = AccountId([6; 20]);
        let (one, two) = (Hash256([0xD1; 32]), Hash256([0xD2; 32]));
        let domain = |creds: &[(u8, &[u8])]| {
            let mut d = new_entry(lt::PERMISSIONED_DOMAIN);
            d.set(sf().owner, StValue::AccountId(owner));
            let set: Vec<_> = creds
                .iter()
                .map(|(a, t)| (AccountId([*a; 20]), t.to_vec()))
                .collect();
            d.set(sf().accepted_credentials, set_value(&set));
            d
        };
        let good = domain(&[(1, b"A"), (2, b"A")]);
        let unsorted = domain(&[(2, b"A"), (1, b"A")]);
        let ok = Ter::tesSUCCESS;
        let tec = Ter::tecNO_PERMISSION;
        use DomainWrite::{Delete, None as Untouching, Set};
        // (what is written, the result, the type's right, bad before, bad with the fix)
        type Write = Vec<(Hash256, Option<StObject>)>;
        let cases: Vec<(Write, Ter, DomainWrite, bool, bool)> = vec![
            (vec![(one, Some(good.clone()))], ok, Set, false, false),
            (vec![(one, Some(unsorted.clone()))], ok, Set, true, true),
            (vec![(one, Some(domain(&[])))], ok, Set, true, true),
            (vec![(one, Some(unsorted.clone()))], tec, Set, false, true),
            (vec![(one, Some(unsorted))], ok, Untouching, false, true),
            (vec![(one, None)], ok, Set, false, true),
            (vec![(one, None)], ok, Delete, false, false),
            (vec![(one, Some(good.clone()))], ok, Delete, false, true),
            (vec![], ok, Set, false, true),
            (vec![], ok, Untouching, false, false),
            (
                vec![(one, Some(good.clone())), (two, Some(good.clone()))],
                ok,
                Set,
                false,
                true,
            ),
        ];
        for on in [false, true] {
            let view = view_ruled(&[(owner, 10_000_000)], rules_313(on));
            let mut base = Sandbox::new(&view);
            base.insert(one, good.clone());
            for (i, (writes, ter, right, bad_before, bad_after)) in cases.iter().enumerate() {
                let mut sb = Sandbox::new(&base);
                for (key, entry) in writes {
                    match entry {
                        Some(e) if sb.exists(key) => sb.update(*key, e.clone()),
                        Some(e) => sb.insert(*key, e.clone()),
                        None => sb.erase(*key),
                    }
                }
                let bad = if on { *bad_after } else { *bad_before };
                let want = if bad {
                    Err(Violation::BadPermissionedDomain)
                } else {
                    Ok(())
                };
                let got = permissioned_domain(&sb, *ter, *right);
                assert_eq!(got, want, "case {i}, fix {on}");
            }
        }
    }

    /// rippled `ValidLoanBroker`'s cover checks: an XRP broker whose pseudo-account holds
    /// 1,000 drops. Cover below that always fails; above it fails only with
    /// fixCleanup3_1_3, and never in LoanBrokerDelete.
    #[test]
    fn a_loan_brokers_cover_above_its_balance_fails_only_with_fix_cleanup_3_1_3() {
        use crate::engine::vault::set_number;
        use crate::protocol::number::Number;
        use crate::protocol::types::Issue;
        let (owner, pseudo) = (AccountId([4; 20]), AccountId([5; 20]));
        let (vault_key, broker_key) = (Hash256([0x7A; 32]), Hash256([0xB7; 32]));
        let broker = |cover: i64| {
            let mut b = new_entry(lt::LOAN_BROKER);
            b.set(sf().account, StValue::AccountId(pseudo));
            b.set(sf().owner, StValue::AccountId(owner));
            b.set(sf().vault_id, StValue::Hash256(vault_key));
            set_number(&mut b, sf().cover_available, Number::from_i64(cover));
            b
        };
        let mut vault = new_entry(lt::VAULT);
        vault.set(sf().asset, StValue::Issue(Issue::XRP));
        let lender = RootDeletion::PseudoOf(PseudoOwner::LoanBroker);
        for on in [false, true] {
            let view = view_ruled(&[(owner, 10_000_000)], rules_313(on));
            let mut base = Sandbox::new(&view);
            let mut root = new_account_root(&pseudo, 1000, 0);
            root.set(sf().loan_broker_id, StValue::Hash256(broker_key));
            base.insert(keylet::account(&pseudo), root);
            base.insert(vault_key, vault.clone());
            for (cover, roots, bad) in [
                (1000, RootDeletion::Never, false),
                (500, RootDeletion::Never, true),
                (500, lender, true),
                (1500, RootDeletion::Never, on),
                (1500, lender, false),
            ] {
                let mut sb = Sandbox::new(&base);
                sb.insert(broker_key, broker(cover));
                let want = if bad {
                    Err(Violation::BadLoanBrokerCover)
                } else {
                    Ok(())
                };
                let got = loan_broker_cover(&sb, roots);
                assert_eq!(got, want, "cover {cover}, {roots:?}, fix {on}");
            }
        }
    }

    /// fixCleanup3_1_3 (rippled `ValidPermissionedDEX`, `offerInDomain`): a hybrid offer
    /// whose AdditionalBooks is present but empty is malformed only with the fix.
    #[test]
    fn an_empty_hybrid_book_list_is_malformed_only_with_fix_cleanup_3_1_3() {
        use crate::engine::dex::permissioned_dex::offer_in_domain;
        use crate::engine::ter::Ter;
        use crate::engine::tx_type::TxType;
        use crate::ledger::flags::lsf_offer;
        let owner = AccountId([3; 20]);
        let domain = Hash256([0xD0; 32]);
        let mut create = StObject::new();
        let tt = TxType::OfferCreate as u16;
        create.set(sf().transaction_type, StValue::UInt16(tt));
        let hybrid = |books: Option<usize>| {
            let mut o = new_entry(lt::OFFER);
            o.set(sf().flags, StValue::UInt32(lsf_offer::HYBRID));
            o.set(sf().domain_id, StValue::Hash256(domain));
            o.set(sf().account, StValue::AccountId(owner));
            if let Some(n) = books {
                let book = (sf().book, StObject::new());
                o.set(sf().additional_books, StValue::Array(vec![book; n]));
            }
            o
        };
        let mut pd = new_entry(lt::PERMISSIONED_DOMAIN);
        pd.set(sf().owner, StValue::AccountId(owner));
        for on in [false, true] {
            let view = view_ruled(&[(owner, 1000)], rules_313(on));
            let mut in_view = Sandbox::new(&view);
            in_view.insert(domain, pd.clone());
            for (books, bad_before, bad_after) in [
                (None, true, true),
                (Some(0), false, true),
                (Some(1), false, false),
                (Some(2), true, true),
            ] {
                let bad = if on { bad_after } else { bad_before };
                let mut sb = Sandbox::new(&view);
                sb.insert(domain, pd.clone());
                sb.insert(Hash256([9; 32]), hybrid(books));
                let got =
                    permissioned_dex(&sb, &create, Ter::tesSUCCESS, DexCheck::DomainAndHybrid);
                let want = if bad {
                    Err(Violation::BadPermissionedDex)
                } else {
                    Ok(())
                };
                assert_eq!(got, want, "invariant, books {books:?}, fix {on}");
                // The book step's membership test: only a missing list, before the fix.
                let listed = if on {
                    books == Some(1)
                } else {
                    books.is_some()
                };
                assert_eq!(
                    offer_in_domain(&in_view, &hybrid(books), &domain),
                    listed,
                    "offerInDomain, books {books:?}, fix {on}"
                );
            }
        }
    }
}
