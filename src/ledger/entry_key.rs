//! Whether an entry can be the one at a key: its key recomputed from the fields it
//! derives from ([`super::keylet`]), for an entry read from somewhere that is not proven
//! against a ledger's hash (a lazy fork's upstream).
//!
//! ```text
//! entry_key::check(&asked, &entry) -> Ok(()) | Err("an Offer whose Account and Sequence give ...")
//! ```
//!
//! Types whose key cannot be recomputed from the entry alone (an Escrow, a PayChannel, an
//! NFTokenPage, ... hold no field that names their key) are checked for a known type
//! that is not a singleton's at another singleton's key; a DirectoryNode page beyond the
//! root for a root that matches its owner or book.

use super::entry_types::{self, EntryType, Key, ENTRY_TYPES};
use super::keylet;
use crate::protocol::amount::Amount;
use crate::protocol::mpt::MptId;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash256, Issue};
use crate::protocol::xchain::ChainType;

/// What the entry's own fields say of its key.
pub enum Derived {
    /// Its key is this.
    Key(Hash256),
    /// Its key is one of these.
    OneOf(Vec<Hash256>),
    /// A field the key derives from is missing or malformed.
    Missing(&'static str),
    /// The entry alone does not determine its key.
    Unknown,
}

/// `Ok` when `entry` can be the entry at `key`; else why not.
pub fn check(key: &Hash256, entry: &StObject) -> Result<(), String> {
    let code = entry
        .get_u16("LedgerEntryType")
        .ok_or("the entry has no LedgerEntryType")?;
    let row = entry_types::of_code(code)
        .ok_or_else(|| format!("the entry's LedgerEntryType {code} is no known type"))?;
    let name = row.name;
    if let Some(owner) = singleton_at(key).filter(|t| t.code != code) {
        return Err(format!(
            "a {name} at the key of the {} singleton",
            owner.name
        ));
    }
    match derived(row.key, entry) {
        Derived::Key(k) if k == *key => Ok(()),
        Derived::OneOf(keys) if keys.contains(key) => Ok(()),
        Derived::Key(k) => Err(format!("a {name} whose fields give the key {}", k.to_hex())),
        Derived::OneOf(_) => Err(format!("a {name} whose fields give another key")),
        Derived::Missing(field) => Err(format!("a {name} without a valid {field}")),
        Derived::Unknown => Ok(()),
    }
}

/// The singleton type whose fixed key `key` is, if any.
fn singleton_at(key: &Hash256) -> Option<&'static EntryType> {
    ENTRY_TYPES.iter().find(|t| match t.key {
        Key::Fixed(k) | Key::FixedOr(k, _) => k() == *key,
        _ => false,
    })
}

/// The key (or keys) a type's keylet gives from the fields of `e`.
fn derived(key: Key, e: &StObject) -> Derived {
    match key {
        Key::Fixed(k) => Derived::Key(k()),
        Key::FixedOr(_, of) | Key::Derived(of) => of(e),
        Key::Account(account, k) => by_account(e, account, k),
        Key::AccountSeq(account, seq, k) => by_sequence(e, account, seq, k),
        Key::AccountPair(first, second, k) => by_pair(e, first, second, k),
        Key::Opaque => Derived::Unknown,
    }
}

fn field<T>(value: Option<T>, name: &'static str) -> Result<T, Derived> {
    value.ok_or(Derived::Missing(name))
}

fn by_account(e: &StObject, account: &'static str, key: fn(&AccountId) -> Hash256) -> Derived {
    match field(e.get_account(account), account) {
        Ok(a) => Derived::Key(key(&a)),
        Err(d) => d,
    }
}

fn by_sequence(
    e: &StObject,
    account: &'static str,
    seq: &'static str,
    key: impl Fn(&AccountId, u32) -> Hash256,
) -> Derived {
    let got =
        field(e.get_account(account), account).and_then(|a| Ok((a, field(e.get_u32(seq), seq)?)));
    match got {
        Ok((a, s)) => Derived::Key(key(&a, s)),
        Err(d) => d,
    }
}

fn by_pair(
    e: &StObject,
    first: &'static str,
    second: &'static str,
    key: fn(&AccountId, &AccountId) -> Hash256,
) -> Derived {
    let got = field(e.get_account(first), first)
        .and_then(|a| Ok((a, field(e.get_account(second), second)?)));
    match got {
        Ok((a, b)) => Derived::Key(key(&a, &b)),
        Err(d) => d,
    }
}

/// The short skip list, or the long one its LastLedgerSequence falls in.
pub fn skip_lists(e: &StObject) -> Derived {
    let mut keys = vec![keylet::skip()];
    keys.extend(e.get_u32("LastLedgerSequence").map(keylet::skip_long));
    Derived::OneOf(keys)
}

/// A trust line: its two issuers (the limits') and its currency.
pub fn trust_line(e: &StObject) -> Derived {
    let issue = |name| match e.get_amount(name) {
        Some(Amount::Iou {
            issuer, currency, ..
        }) => Some((issuer, currency)),
        _ => None,
    };
    let got = field(issue("LowLimit"), "LowLimit")
        .and_then(|low| Ok((low, field(issue("HighLimit"), "HighLimit")?)));
    match got {
        Ok(((low, currency), (high, _))) => Derived::Key(keylet::line(&low, &high, &currency)),
        Err(d) => d,
    }
}

/// A directory page: the root its owner or its book gives, and the root's own page at
/// that root's key (a later page's number is not in the entry).
pub fn directory(e: &StObject) -> Derived {
    let Some(root) = e.get_h256("RootIndex") else {
        return Derived::Missing("RootIndex");
    };
    let expected = match (e.get_account("Owner"), book_root(e)) {
        (Some(owner), _) => keylet::owner_dir(&owner),
        (None, Some(Ok(book))) => book,
        (None, Some(Err(d))) => return d,
        (None, None) => return Derived::Unknown,
    };
    if expected != root {
        return Derived::Key(expected);
    }
    Derived::Unknown
}

/// The book quality page a book directory's fields name, if it is one.
fn book_root(e: &StObject) -> Option<Result<Hash256, Derived>> {
    let rate = e.get_u64("ExchangeRate")?;
    let hash160 = |name: &'static str| match e.get_named(name) {
        Some(StValue::Hash160(h)) => Ok(h.0),
        _ => Err(Derived::Missing(name)),
    };
    let issue = |currency, issuer| -> Result<Issue, Derived> {
        Ok(Issue {
            currency: Currency(hash160(currency)?),
            issuer: AccountId(hash160(issuer)?),
        })
    };
    let book = issue("TakerPaysCurrency", "TakerPaysIssuer").and_then(|pays| {
        let gets = issue("TakerGetsCurrency", "TakerGetsIssuer")?;
        let domain = e.get_h256("DomainID");
        let base = keylet::book_base_in(&pays, &gets, domain.as_ref());
        Ok(keylet::book_quality_key(&base, rate))
    });
    Some(book)
}

/// A Credential: its subject, issuer and type.
pub fn credential(e: &StObject) -> Derived {
    let got = field(e.get_account("Subject"), "Subject").and_then(|s| {
        let issuer = field(e.get_account("Issuer"), "Issuer")?;
        Ok((
            s,
            issuer,
            field(e.get_blob("CredentialType"), "CredentialType")?,
        ))
    });
    match got {
        Ok((s, i, t)) => Derived::Key(keylet::credential(&s, &i, t)),
        Err(d) => d,
    }
}

/// An MPToken: its holder and issuance.
pub fn mptoken(e: &StObject) -> Derived {
    let got = field(e.get_account("Account"), "Account").and_then(|a| {
        let id = field(e.get_mpt_id("MPTokenIssuanceID"), "MPTokenIssuanceID")?;
        Ok((a, id))
    });
    match got {
        Ok((a, id)) => Derived::Key(keylet::mptoken(&id, &a)),
        Err(d) => d,
    }
}

/// A Loan: its broker and sequence.
pub fn loan(e: &StObject) -> Derived {
    let got = field(e.get_h256("LoanBrokerID"), "LoanBrokerID")
        .and_then(|b| Ok((b, field(e.get_u32("LoanSequence"), "LoanSequence")?)));
    match got {
        Ok((b, s)) => Derived::Key(keylet::loan(&b, s)),
        Err(d) => d,
    }
}

/// A DepositPreauth of one account (a credential set's key is not in the entry).
pub fn deposit_preauth(e: &StObject) -> Derived {
    if !e.has("Authorize") {
        return Derived::Unknown;
    }
    by_pair(e, "Account", "Authorize", keylet::deposit_preauth)
}

/// An MPTokenIssuance's key from its issuer and sequence.
pub fn mpt_issuance(issuer: &AccountId, seq: u32) -> Hash256 {
    keylet::mpt_issuance(&MptId::new(seq, issuer))
}

/// An XChainOwnedClaimID: its bridge and claim ID.
pub fn xchain_claim_id(e: &StObject) -> Derived {
    claim_id(e, "XChainClaimID", keylet::xchain_claim_id)
}

/// An XChainOwnedCreateAccountClaimID: its bridge and account create count.
pub fn xchain_create_account_claim_id(e: &StObject) -> Derived {
    claim_id(
        e,
        "XChainAccountCreateCount",
        keylet::xchain_create_account_claim_id,
    )
}

fn claim_id(
    e: &StObject,
    count: &'static str,
    key: fn(&crate::protocol::xchain::XChainBridge, u64) -> Hash256,
) -> Derived {
    let got = field(e.get_xchain_bridge("XChainBridge"), "XChainBridge")
        .and_then(|b| Ok((b, field(e.get_u64(count), count)?)));
    match got {
        Ok((b, n)) => Derived::Key(key(&b, n)),
        Err(d) => d,
    }
}

/// A bridge: the door its Account is, and that chain's issue.
pub fn bridge(e: &StObject) -> Derived {
    let got = field(e.get_xchain_bridge("XChainBridge"), "XChainBridge")
        .and_then(|b| Ok((b, field(e.get_account("Account"), "Account")?)));
    match got {
        Ok((b, a)) => Derived::OneOf(
            [ChainType::Locking, ChainType::Issuing]
                .into_iter()
                .filter(|c| b.door(*c) == a)
                .map(|c| keylet::bridge(&b, c))
                .collect(),
        ),
        Err(d) => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::entry_types::lt;
    use crate::ledger::sf::sf;

    fn account(n: u8) -> AccountId {
        AccountId([n; 20])
    }

    fn entry(code: u16) -> StObject {
        let mut e = StObject::new();
        e.set(sf().ledger_entry_type, StValue::UInt16(code));
        e
    }

    fn root(who: AccountId) -> StObject {
        let mut e = entry(lt::ACCOUNT_ROOT);
        e.set(sf().account, StValue::AccountId(who));
        e
    }

    #[test]
    fn an_account_root_is_at_its_accounts_key_only() {
        let a = account(1);
        assert_eq!(check(&keylet::account(&a), &root(a)), Ok(()));
        let e = check(&keylet::account(&account(2)), &root(a)).unwrap_err();
        assert!(e.contains("AccountRoot whose fields give"), "{e}");
        let e = check(&keylet::account(&a), &entry(lt::ACCOUNT_ROOT)).unwrap_err();
        assert!(e.contains("without a valid Account"), "{e}");
    }

    #[test]
    fn a_singleton_is_at_its_own_key_and_nothing_else_is() {
        let fees = entry(lt::FEE_SETTINGS);
        assert_eq!(check(&keylet::fees(), &fees), Ok(()));
        assert!(check(&keylet::account(&account(1)), &fees).is_err());
        let escrow = entry(lt::ESCROW);
        assert_eq!(check(&Hash256([9; 32]), &escrow), Ok(()), "not derivable");
        let e = check(&keylet::fees(), &escrow).unwrap_err();
        assert!(e.contains("FeeSettings singleton"), "{e}");
        assert!(check(&Hash256([9; 32]), &StObject::new()).is_err());
        assert!(check(&Hash256([9; 32]), &entry(0x7777)).is_err());
    }

    #[test]
    fn offers_lines_and_directories_derive_their_keys() {
        let (a, b) = (account(1), account(2));
        let mut offer = entry(lt::OFFER);
        offer.set(sf().account, StValue::AccountId(a));
        offer.set(sf().sequence, StValue::UInt32(7));
        assert_eq!(check(&keylet::offer(&a, 7), &offer), Ok(()));
        assert!(check(&keylet::offer(&a, 8), &offer).is_err());

        let usd = Currency::from_json_str("USD").unwrap();
        let limit = |issuer| Amount::Iou {
            issuer,
            currency: usd,
            value: crate::protocol::amount::IouValue::ZERO,
        };
        let mut line = entry(lt::RIPPLE_STATE);
        line.set(sf().low_limit, StValue::Amount(limit(a)));
        line.set(sf().high_limit, StValue::Amount(limit(b)));
        assert_eq!(check(&keylet::line(&a, &b, &usd), &line), Ok(()));
        assert!(check(&keylet::line(&a, &account(3), &usd), &line).is_err());

        let mut dir = entry(lt::DIR_NODE);
        dir.set(sf().owner, StValue::AccountId(a));
        dir.set_named("RootIndex", StValue::Hash256(keylet::owner_dir(&a)));
        let page = keylet::dir_page(&keylet::owner_dir(&a), 3);
        assert_eq!(check(&page, &dir), Ok(()));
        dir.set_named("RootIndex", StValue::Hash256(keylet::owner_dir(&b)));
        assert!(check(&keylet::owner_dir(&b), &dir).is_err());
    }

    #[test]
    fn the_new_singleton_keys_are_rippleds() {
        assert_eq!(
            keylet::amendments().to_hex(),
            "7DB0788C020F02780A673DC74757F23823FA3014C1866E72CC4CD8B226CD6EF4"
        );
        assert_eq!(
            keylet::negative_unl().to_hex(),
            "2E8A59AA9D3B5B186B0B9E0F62E6C02587CA74A4D778938E957B6357D364B244"
        );
    }
}
