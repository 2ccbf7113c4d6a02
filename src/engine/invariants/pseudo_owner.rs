//! rippled's `ValidPseudoAccountOwnership` (`PseudoAccountInvariant.cpp`, under
//! fixPseudoAccountOwnership): what a transaction links into a pseudo-account's owner
//! directory must be a type that kind of pseudo-account may own. A pseudo-account signs
//! nothing, so anything else would stay pinned in its directory for good.

use std::collections::BTreeMap;

use super::Violation;
use crate::engine::sandbox::{Action, Sandbox};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// The entry types a pseudo-account may own, by the field that makes it one (AMMID first,
/// then VaultID, then LoanBrokerID, as rippled asks); `None` for an account that is no
/// pseudo-account.
fn allowed(root: &StObject) -> Option<&'static [u16]> {
    let s = sf();
    if root.h256_of(s.amm_id).is_some() {
        Some(&[lt::AMM, lt::RIPPLE_STATE, lt::MPTOKEN])
    } else if root.h256_of(s.vault_id).is_some() {
        Some(&[
            lt::MPTOKEN_ISSUANCE,
            lt::MPTOKEN,
            lt::RIPPLE_STATE,
            lt::LOAN_BROKER,
        ])
    } else if root.h256_of(s.loan_broker_id).is_some() {
        Some(&[lt::LOAN, lt::MPTOKEN, lt::RIPPLE_STATE])
    } else {
        None
    }
}

/// The keys each owner directory page the change set wrote gained, by the page's Owner
/// (book directories carry none and are skipped; deleted pages add nothing).
fn added_links(sb: &Sandbox) -> BTreeMap<AccountId, Vec<Hash256>> {
    let s = sf();
    let mut added: BTreeMap<AccountId, Vec<Hash256>> = BTreeMap::new();
    for item in sb.items().values() {
        if item.action == Action::Erase
            || item.cur.u16_of(s.ledger_entry_type) != Some(lt::DIR_NODE)
        {
            continue;
        }
        let Some(owner) = item.cur.account_of(s.owner) else {
            continue;
        };
        let before: &[Hash256] = item
            .orig
            .as_deref()
            .and_then(|o| o.v256_of(s.indexes))
            .unwrap_or_default();
        let after = item.cur.v256_of(s.indexes).unwrap_or_default();
        let new = after.iter().filter(|k| !before.contains(k)).copied();
        added.entry(owner).or_default().extend(new);
    }
    added
}

/// rippled `ValidPseudoAccountOwnership`: under fixPseudoAccountOwnership, every entry the
/// transaction linked into an owner directory whose owner is a pseudo-account is of a type
/// that kind may own. A link to no entry is a dangling link, other checks' business.
pub fn pseudo_account_ownership(sb: &Sandbox) -> Result<(), Violation> {
    if !sb.info().rules.enabled(Feature::FixPseudoAccountOwnership) {
        return Ok(());
    }
    let s = sf();
    for (owner, keys) in added_links(sb) {
        let Some(root) = sb.read(&keylet::account(&owner)) else {
            continue;
        };
        // ledgerd's pseudo-accounts are exactly the roots with one of the three fields.
        let Some(kinds) = allowed(&root) else {
            continue;
        };
        for key in keys {
            let Some(entry) = sb.read(&key) else {
                continue;
            };
            let kind = entry.u16_of(s.ledger_entry_type).unwrap_or_default();
            if !kinds.contains(&kind) {
                return Err(Violation::PseudoAccountOwnership);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::entry::{new_account_root, new_entry};
    use crate::ledger::rules::Rules;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};
    use crate::protocol::st::StValue;

    const AMM: AccountId = AccountId([0xA1; 20]);
    const VAULT: AccountId = AccountId([0xB2; 20]);
    const BROKER: AccountId = AccountId([0xC3; 20]);
    const PLAIN: AccountId = AccountId([0xD4; 20]);

    /// A ledger of the three kinds of pseudo-account and a plain account, under ledgerd's
    /// rule book with fixPseudoAccountOwnership on or off; `pinned` is a Check already
    /// linked into the AMM pseudo-account's directory.
    fn view(on: bool, pinned: Hash256) -> StateView {
        let s = sf();
        let root = |a: &AccountId, field| {
            let mut r = new_account_root(a, 10_000_000, 0);
            if let Some(f) = field {
                r.set(f, StValue::Hash256(Hash256([0xEE; 32])));
            }
            Arc::new(r)
        };
        let entries = vec![
            (keylet::account(&AMM), Some(root(&AMM, Some(s.amm_id)))),
            (
                keylet::account(&VAULT),
                Some(root(&VAULT, Some(s.vault_id))),
            ),
            (
                keylet::account(&BROKER),
                Some(root(&BROKER, Some(s.loan_broker_id))),
            ),
            (keylet::account(&PLAIN), Some(root(&PLAIN, None))),
            (pinned, Some(Arc::new(new_entry(lt::CHECK)))),
            (
                keylet::owner_dir(&AMM),
                Some(Arc::new(page(&AMM, &[pinned]))),
            ),
        ];
        let state = Arc::new(State::new());
        state.commit(stamp(1, 0), entries);
        let rules = Rules::default_with(Feature::FixPseudoAccountOwnership, on);
        StateView::new(state, stamp(1, 0), ViewInfo::open_test(rules))
    }

    fn page(owner: &AccountId, keys: &[Hash256]) -> StObject {
        let mut p = new_entry(lt::DIR_NODE);
        p.set(sf().owner, StValue::AccountId(*owner));
        p.set(sf().indexes, StValue::Vector256(keys.to_vec()));
        p
    }

    /// Links a new entry of type `kind` into `owner`'s directory (its root page, created
    /// or extended), as a transaction would.
    fn link(sb: &mut Sandbox, owner: &AccountId, kind: u16) {
        let key = Hash256([kind as u8; 32]);
        sb.insert(key, new_entry(kind));
        let dir = keylet::owner_dir(owner);
        match sb.read(&dir) {
            Some(p) => {
                let mut keys = p.v256_of(sf().indexes).unwrap_or_default().to_vec();
                keys.push(key);
                sb.update(dir, page(owner, &keys));
            }
            None => sb.insert(dir, page(owner, &[key])),
        }
    }

    /// Each kind of pseudo-account may own its own types and nothing else; a plain
    /// account anything. Without the fix nothing is judged.
    #[test]
    fn pseudo_accounts_own_only_their_kinds_types_with_the_fix() {
        let pinned = Hash256([0x99; 32]);
        // (owner, the type linked, allowed)
        let cases = [
            (AMM, lt::AMM, true),
            (AMM, lt::RIPPLE_STATE, true),
            (AMM, lt::MPTOKEN, true),
            (AMM, lt::CHECK, false),
            (AMM, lt::LOAN_BROKER, false),
            (AMM, lt::MPTOKEN_ISSUANCE, false),
            (VAULT, lt::MPTOKEN_ISSUANCE, true),
            (VAULT, lt::MPTOKEN, true),
            (VAULT, lt::RIPPLE_STATE, true),
            (VAULT, lt::LOAN_BROKER, true),
            (VAULT, lt::LOAN, false),
            (VAULT, lt::PAYCHAN, false),
            (BROKER, lt::LOAN, true),
            (BROKER, lt::MPTOKEN, true),
            (BROKER, lt::RIPPLE_STATE, true),
            (BROKER, lt::LOAN_BROKER, false),
            (BROKER, lt::ESCROW, false),
            (PLAIN, lt::CHECK, true),
            (PLAIN, lt::LOAN, true),
        ];
        for on in [false, true] {
            let v = view(on, pinned);
            for (owner, kind, ok) in cases {
                let mut sb = Sandbox::new(&v);
                link(&mut sb, &owner, kind);
                let want = if ok || !on {
                    Ok(())
                } else {
                    Err(Violation::PseudoAccountOwnership)
                };
                let got = pseudo_account_ownership(&sb);
                assert_eq!(got, want, "{owner:?} owning {kind:#x}, fix {on}");
            }
        }
    }

    /// Only what the transaction added counts: an entry already pinned there, a page
    /// rewritten without new keys, a dangling link and a book page (no Owner) pass.
    #[test]
    fn only_new_links_to_existing_entries_are_judged() {
        let pinned = Hash256([0x99; 32]);
        let v = view(true, pinned);
        // The AMM's page, rewritten with the pinned Check still on it, plus an AMM entry.
        let mut sb = Sandbox::new(&v);
        link(&mut sb, &AMM, lt::AMM);
        assert_eq!(pseudo_account_ownership(&sb), Ok(()));
        // A link to no entry at all.
        let mut sb = Sandbox::new(&v);
        let ghost = Hash256([0x42; 32]);
        sb.insert(keylet::owner_dir(&VAULT), page(&VAULT, &[ghost]));
        assert_eq!(pseudo_account_ownership(&sb), Ok(()));
        // A book page naming no owner.
        let mut sb = Sandbox::new(&v);
        let offer = Hash256([0x6F; 32]);
        sb.insert(offer, new_entry(lt::OFFER));
        let mut book = new_entry(lt::DIR_NODE);
        book.set(sf().indexes, StValue::Vector256(vec![offer]));
        sb.insert(Hash256([0x0B; 32]), book);
        assert_eq!(pseudo_account_ownership(&sb), Ok(()));
        // A second page of the broker's directory holding an Escrow fails.
        let mut sb = Sandbox::new(&v);
        let escrow = Hash256([0x75; 32]);
        sb.insert(escrow, new_entry(lt::ESCROW));
        let second = keylet::dir_page(&keylet::owner_dir(&BROKER), 1);
        sb.insert(second, page(&BROKER, &[escrow]));
        assert_eq!(
            pseudo_account_ownership(&sb),
            Err(Violation::PseudoAccountOwnership)
        );
    }
}
