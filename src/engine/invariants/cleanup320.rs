//! The invariants fixCleanup3_2_0 brings (rippled 3.2): `ValidBookDirectory`
//! (`DirectoryInvariant.cpp`) and the ReferenceHolding rules of `ValidMPTIssuance`
//! (`MPTInvariant.cpp`). Without the amendment they judge nothing.

use super::Violation;
use crate::engine::sandbox::{Action, Sandbox};
use crate::engine::ter::Ter;
use crate::engine::tx_type::TxType;
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::quality::quality_from_directory_key;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// The fixCleanup3_2_0 invariants of one transaction (whatever its result, as rippled
/// runs them): nothing without the amendment.
pub fn check(sb: &Sandbox, tx: &StObject, _ter: Ter) -> Result<(), Violation> {
    if !sb.info().rules.enabled(Feature::FixCleanup3_2_0) {
        return Ok(());
    }
    valid_book_directory(sb)?;
    reference_holding(sb, tx)
}

/// rippled `ValidMPTIssuance`'s ReferenceHolding rules: an issuance's ReferenceHolding is
/// set only by VaultCreate, on the issuance it creates, and never changed or removed
/// after; a vault pseudo-account's MPToken or trust line is deleted only by VaultDelete.
fn reference_holding(sb: &Sandbox, tx: &StObject) -> Result<(), Violation> {
    let s = sf();
    let tx_type = tx.u16_of(s.transaction_type);
    let is = |t: TxType| tx_type == Some(t as u16);
    // The accounts whose MPToken or trust line the transaction deleted (a line's limits
    // name each side's counterparty: both sides).
    let mut holders: Vec<AccountId> = Vec::new();
    let issuer = |o: &StObject, f| o.amount_of(f).map(|a| a.issue().issuer);
    for item in sb.items().values() {
        let entry = &item.cur;
        let holding = entry.h256_of(s.reference_holding);
        match (entry.u16_of(s.ledger_entry_type), item.action) {
            (Some(lt::MPTOKEN_ISSUANCE), Action::Insert)
                if holding.is_some() && !is(TxType::VaultCreate) =>
            {
                return Err(Violation::BadReferenceHolding);
            }
            (Some(lt::MPTOKEN_ISSUANCE), Action::Modify) => {
                let before = item
                    .orig
                    .as_ref()
                    .and_then(|b| b.h256_of(s.reference_holding));
                if before != holding {
                    return Err(Violation::BadReferenceHolding);
                }
            }
            (Some(lt::MPTOKEN), Action::Erase) => holders.extend(entry.account_of(s.account)),
            (Some(lt::RIPPLE_STATE), Action::Erase) => {
                holders.extend(issuer(entry, s.low_limit));
                holders.extend(issuer(entry, s.high_limit));
            }
            _ => {}
        }
    }
    if is(TxType::VaultDelete) {
        return Ok(());
    }
    let vault_pseudo = |a: &AccountId| {
        sb.read(&keylet::account(a))
            .is_some_and(|r| r.h256_of(s.vault_id).is_some())
    };
    if holders.iter().any(vault_pseudo) {
        Err(Violation::BadReferenceHolding)
    } else {
        Ok(())
    }
}

/// A directory page that says which book it is (rippled `isRootBookDirectory`: any of
/// ExchangeRate, the TakerPays / TakerGets fields or DomainID; a child page's key does
/// not encode the quality).
fn describes_a_book(dir: &StObject) -> bool {
    let s = sf();
    [
        s.exchange_rate,
        s.taker_pays_currency,
        s.taker_pays_issuer,
        Field::named("TakerPaysMPT"),
        s.taker_gets_currency,
        s.taker_gets_issuer,
        Field::named("TakerGetsMPT"),
        s.domain_id,
    ]
    .into_iter()
    .any(|f| dir.get(f).is_some())
}

/// rippled `ValidBookDirectory`: every directory page the transaction created is either
/// a root whose ExchangeRate, if it describes a book, is the quality its key encodes, or a
/// child page whose root exists afterwards. Pages it modified or deleted are not judged
/// (LedgerStateFix repairs a legacy root's rate).
fn valid_book_directory(sb: &Sandbox) -> Result<(), Violation> {
    let s = sf();
    let mut roots: Vec<Hash256> = Vec::new();
    for (key, item) in sb.items() {
        let created = item.orig.is_none() && item.action != Action::Erase;
        let dir = &item.cur;
        if !created || dir.u16_of(s.ledger_entry_type) != Some(lt::DIR_NODE) {
            continue;
        }
        let Some(root) = dir.h256_of(s.root_index) else {
            continue;
        };
        if root != *key {
            roots.push(root);
            continue;
        }
        let rate = match dir.get(s.exchange_rate) {
            Some(StValue::UInt64(r)) => Some(*r),
            _ => None,
        };
        if describes_a_book(dir) && rate != Some(quality_from_directory_key(key).0) {
            return Err(Violation::BadBookDirectory);
        }
    }
    let is_dir = |k: &Hash256| {
        sb.read(k)
            .is_some_and(|d| d.u16_of(s.ledger_entry_type) == Some(lt::DIR_NODE))
    };
    if roots.iter().all(is_dir) {
        Ok(())
    } else {
        Err(Violation::BadBookDirectory)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::entry::new_entry;
    use crate::ledger::keylet;
    use crate::ledger::rules::Rules;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};
    use crate::protocol::types::{AccountId, Hash160, Issue};

    /// An empty ledger under ledgerd's rule book with fixCleanup3_2_0 on or off.
    fn view(on: bool) -> StateView {
        let info = ViewInfo::open_test(Rules::default_with(Feature::FixCleanup3_2_0, on));
        StateView::new(Arc::new(State::new()), stamp(1, 0), info)
    }

    fn tx() -> StObject {
        StObject::new()
    }

    /// A page of the directory rooted at `root`, describing the USD/XRP book at `rate`
    /// (`None`: no ExchangeRate) when `book`.
    fn page(root: &Hash256, book: bool, rate: Option<u64>) -> StObject {
        let s = sf();
        let mut p = new_entry(lt::DIR_NODE);
        p.set(s.root_index, StValue::Hash256(*root));
        p.set(s.indexes, StValue::Vector256(vec![Hash256([9; 32])]));
        if book {
            p.set(s.taker_pays_currency, StValue::Hash160(Hash160([1; 20])));
        } else {
            p.set(s.owner, StValue::AccountId(AccountId([3; 20])));
        }
        if let Some(r) = rate {
            p.set(s.exchange_rate, StValue::UInt64(r));
        }
        p
    }

    /// rippled `ValidBookDirectory`, both ways: with the fix a new book root must carry
    /// its key's quality as ExchangeRate, and a new child page a root that exists;
    /// modified pages and owner directories are not judged. Without it nothing fails.
    #[test]
    fn new_book_pages_are_judged_only_with_fix_cleanup_3_2_0() {
        let usd = Issue {
            currency: crate::protocol::types::Currency::iso(*b"USD"),
            issuer: AccountId([2; 20]),
        };
        let base = keylet::book_base_in(&usd, &Issue::XRP, None);
        let q = 0x5510_0000_0000_0001_u64;
        let root = keylet::book_quality_key(&base, q);
        let owner = keylet::owner_dir(&AccountId([3; 20]));
        let child = keylet::dir_page(&root, 1);
        // (the root already in the ledger, what the transaction writes, bad with the fix)
        type Case = (Option<StObject>, Vec<(Hash256, StObject)>, bool);
        let cases: Vec<Case> = vec![
            (None, vec![(root, page(&root, true, Some(q)))], false),
            (None, vec![(root, page(&root, true, Some(q + 1)))], true),
            (None, vec![(root, page(&root, true, None))], true),
            (None, vec![(owner, page(&owner, false, None))], false),
            (None, vec![(child, page(&root, true, Some(q)))], true),
            (
                Some(page(&root, true, Some(q))),
                vec![(child, page(&root, true, Some(q)))],
                false,
            ),
            (
                Some(page(&root, true, Some(q))),
                vec![(root, page(&root, true, Some(q + 1)))],
                false,
            ),
        ];
        for on in [false, true] {
            let v = view(on);
            for (i, (before, writes, bad)) in cases.iter().enumerate() {
                let mut ledger = Sandbox::new(&v);
                if let Some(r) = before {
                    ledger.insert(root, r.clone());
                }
                let mut sb = Sandbox::new(&ledger);
                for (key, entry) in writes {
                    if sb.read(key).is_some() {
                        sb.update(*key, entry.clone());
                    } else {
                        sb.insert(*key, entry.clone());
                    }
                }
                let want = if on && *bad {
                    Err(Violation::BadBookDirectory)
                } else {
                    Ok(())
                };
                assert_eq!(
                    check(&sb, &tx(), Ter::tesSUCCESS),
                    want,
                    "case {i}, fix {on}"
                );
            }
        }
    }

    fn tx_of(t: TxType) -> StObject {
        let mut tx = StObject::new();
        tx.set(sf().transaction_type, StValue::UInt16(t as u16));
        tx
    }

    /// rippled `ValidMPTIssuance`'s ReferenceHolding rules, both ways: with the fix only
    /// VaultCreate sets the field, on a new issuance; nothing changes it; only VaultDelete
    /// deletes a vault pseudo-account's MPToken or trust line. Without it nothing fails.
    #[test]
    fn reference_holdings_are_judged_only_with_fix_cleanup_3_2_0() {
        use crate::protocol::amount::Amount;
        use TxType::VaultWithdraw as Withdraw;
        use TxType::{MPTokenIssuanceCreate, MPTokenIssuanceSet, VaultCreate, VaultDelete};
        let s = sf();
        let (pseudo, gw, alice) = (AccountId([5; 20]), AccountId([6; 20]), AccountId([7; 20]));
        let (iss_key, line_key) = (Hash256([0x11; 32]), Hash256([0x22; 32]));
        let (pseudo_token, alice_token) = (Hash256([0x33; 32]), Hash256([0x44; 32]));
        let (held, other) = (Hash256([0xAA; 32]), Hash256([0xBB; 32]));
        let issuance = |h: Option<Hash256>| {
            let mut i = new_entry(lt::MPTOKEN_ISSUANCE);
            i.set(s.issuer, StValue::AccountId(pseudo));
            if let Some(h) = h {
                i.set(s.reference_holding, StValue::Hash256(h));
            }
            i
        };
        let token = |owner: AccountId| {
            let mut t = new_entry(lt::MPTOKEN);
            t.set(s.account, StValue::AccountId(owner));
            t
        };
        let mut line = new_entry(lt::RIPPLE_STATE);
        let usd = crate::protocol::types::Currency::iso(*b"USD");
        let zero = |a: AccountId| {
            StValue::Amount(Amount::iou(crate::protocol::amount::IouValue::ZERO, usd, a))
        };
        line.set(s.low_limit, zero(pseudo));
        line.set(s.high_limit, zero(gw));
        enum W {
            Insert(Hash256, StObject),
            Update(Hash256, StObject),
            Erase(Hash256),
        }
        // (the type, what it writes, bad with the fix)
        let cases: Vec<(TxType, W, bool)> = vec![
            (VaultCreate, W::Insert(other, issuance(Some(held))), false),
            (
                MPTokenIssuanceCreate,
                W::Insert(other, issuance(Some(held))),
                true,
            ),
            (
                MPTokenIssuanceCreate,
                W::Insert(other, issuance(None)),
                false,
            ),
            (
                MPTokenIssuanceSet,
                W::Update(iss_key, issuance(Some(held))),
                false,
            ),
            (
                MPTokenIssuanceSet,
                W::Update(iss_key, issuance(Some(other))),
                true,
            ),
            (VaultCreate, W::Update(iss_key, issuance(None)), true),
            (Withdraw, W::Erase(pseudo_token), true),
            (VaultDelete, W::Erase(pseudo_token), false),
            (Withdraw, W::Erase(alice_token), false),
            (Withdraw, W::Erase(line_key), true),
            (VaultDelete, W::Erase(line_key), false),
        ];
        for on in [false, true] {
            let v = view(on);
            let mut ledger = Sandbox::new(&v);
            let mut root = crate::engine::entry::new_account_root(&pseudo, 0, 0);
            root.set(s.vault_id, StValue::Hash256(Hash256([0x77; 32])));
            ledger.insert(keylet::account(&pseudo), root);
            ledger.insert(iss_key, issuance(Some(held)));
            ledger.insert(line_key, line.clone());
            ledger.insert(pseudo_token, token(pseudo));
            ledger.insert(alice_token, token(alice));
            for (i, (t, write, bad)) in cases.iter().enumerate() {
                let mut sb = Sandbox::new(&ledger);
                match write {
                    W::Insert(k, e) => sb.insert(*k, e.clone()),
                    W::Update(k, e) => sb.update(*k, e.clone()),
                    W::Erase(k) => sb.erase(*k),
                }
                let want = if on && *bad {
                    Err(Violation::BadReferenceHolding)
                } else {
                    Ok(())
                };
                let got = check(&sb, &tx_of(*t), Ter::tesSUCCESS);
                assert_eq!(got, want, "case {i}, fix {on}");
            }
        }
    }
}
